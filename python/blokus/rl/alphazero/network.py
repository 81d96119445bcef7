"""The network of :mod:`blokus.rl.alphazero`, in JAX: what it sees of a position, its layers,
its loss, and how it is saved.

What it sees (:class:`Encoding`): the observation planes the search draws (plane ``k`` the
cells of the colour ``k`` after the mover; Blokus 3D's levels folded into the planes), a
plane of the grid points that are cells (Trigon's hexagon and the 3D structures are not
rectangles), and a plane counting, per cell, the mover's legal placements that cover it (drawn
from the legal mask: where the mover can still go). A convolutional trunk of residual blocks
reads them.

The policy head is convolutional too: a placement is a piece in one orientation laid at an
anchor (its first cell in grid order), so each distinct shape (the piece's cells relative to
the anchor; in Trigon also whether the anchor triangle points up, in 3D the anchor's level)
has a channel of a 1x1 convolution, and a placement's logit is that channel at its anchor.
The value head sums the trunk over the board, adds the planes' counts and which of the mover's
pieces still have a legal move, and
gives each colour's win probability, relative to the mover like the planes (and, learnt
beside it, each colour's final points).

>>> from blokus.variant import variant
>>> e = Encoding(variant("duo"))
>>> e.planes, e.grid, e.shapes, len(e.policy_index) == variant("duo").num_placements
(4, (14, 14), 91, True)
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from blokus.rl.symmetry import _grid
from blokus.variant import Variant

if TYPE_CHECKING:
    import numpy.typing as npt

#: Parameters: a dict of name -> array (a JAX pytree).
Params = dict[str, Any]

#: ``np.savez`` (its stub takes no ``**arrays`` of a dict).
_savez: Any = np.savez


@dataclass(frozen=True)
class NetConfig:
    """The network's size: ``filters`` channels in ``blocks`` residual blocks of two 3x3
    convolutions, a value head of ``value_hidden`` units; ``size_prior``, how much its
    untrained policy prefers large pieces.

    >>> NetConfig(filters=16, blocks=1).filters
    16
    """

    filters: int = 32
    blocks: int = 3
    value_hidden: int = 64
    #: The policy head's bias starts at this many logits per cell of a shape's piece: an
    #: untrained network prefers large pieces, as every Blokus player does (0: alike).
    size_prior: float = 1.0


class Encoding:
    """How one variant's positions and placements map onto the network's arrays (see the
    module's docstring).

    >>> from blokus.variant import variant
    >>> e = Encoding(variant("trigon_2"))
    >>> e.grid, e.planes
    ((18, 35), 6)
    """

    def __init__(self, v: Variant) -> None:
        t = v._tables
        grid_shape, grid_points = _grid(v)
        levels, h, w = (1, *grid_shape) if len(grid_shape) == 2 else grid_shape
        #: Each cell's point on the observation grid, flattened (level, row, column).
        self.cell_point = grid_points.astype(np.int64)
        self.variant = v
        self.levels, self.rows, self.cols = levels, h, w
        self.grid = (h, w)
        self.colors = v.num_colors
        #: Input planes: the colours' cells and the on-board points and the mover's reach, per level.
        self.planes = (self.colors + 2) * levels
        on_board = np.zeros(levels * h * w, dtype=np.float32)
        on_board[self.cell_point] = 1.0
        self.on_board = on_board.reshape(levels, h, w)
        up = t.cells_point_up()
        shapes: dict[tuple[Any, ...], int] = {}
        index = np.empty(v.num_placements, dtype=np.int32)
        most = max(len(t.placement_cells(id)) for id in range(v.num_placements))
        grid_size = levels * h * w
        # Each placement's grid points, padded with a point past the grid.
        cover = np.full((v.num_placements, most), grid_size, dtype=np.int64)
        pieces = np.empty(v.num_placements, dtype=np.int32)
        for id in range(v.num_placements):
            cells = t.placement_cells(id)
            points = sorted(int(self.cell_point[c]) for c in cells)
            anchor = points[0]
            level, rest = divmod(anchor, h * w)
            row, col = divmod(rest, w)
            anchor_cell = next(c for c in cells if self.cell_point[c] == anchor)
            key = (
                t.placement_piece(id),
                tuple(p - anchor for p in points),
                level,
                None if up is None else up[anchor_cell],
            )
            shape = shapes.setdefault(key, len(shapes))
            index[id] = (shape * h + row) * w + col
            pieces[id] = t.placement_piece(id)
            cover[id, : len(cells)] = self.cell_point[cells]
        self.shapes = len(shapes)
        #: The size of each shape's piece.
        self.shape_size = np.zeros(self.shapes, np.float32)
        for key, shape in shapes.items():
            self.shape_size[shape] = v.pieces[key[0]].size
        #: Each placement's logit in the policy head's flattened ``(shapes, rows, cols)`` output.
        self.policy_index = index
        #: Each placement's piece.
        self.placement_piece = pieces
        self.pieces = len(v.pieces)
        #: Each placement's grid points (padded with ``grid_size``).
        self.cover = cover
        self.grid_size = grid_size
        # A colour's value is learnt when one player owns it (classic_3's shared colour is not).
        owners = [sum(c in p for p in v.players) for c in range(self.colors)]
        self.owned = np.array([o == 1 for o in owners], dtype=np.float32)
        self.player_of = np.array(
            [next((i for i, p in enumerate(v.players) if c in p), -1) for c in range(self.colors)]
        )

    def inputs(
        self, obs: npt.NDArray[Any], mask: npt.NDArray[np.bool_], legal: tuple[npt.NDArray[np.int64], ...] | None = None
    ) -> tuple[npt.NDArray[np.float32], ...]:
        """The network's inputs for observations ``(n, colours, [levels,] rows, cols)`` and
        legal masks ``(n, placements)``: the planes ``(n, rows, cols, planes)`` and which of
        the mover's pieces have a legal move ``(n, pieces)``, float32 (computed from the legal
        moves alone, in numpy). ``legal`` is ``np.nonzero(mask)`` when the caller has it.

        >>> import numpy as np
        >>> from blokus import Board
        >>> from blokus.variant import variant
        >>> from blokus.rl import observation
        >>> e = Encoding(variant("duo"))
        >>> b = Board("duo")
        >>> mask = np.zeros((1, e.variant.num_placements), bool)
        >>> mask[0, b.legal_moves.ids()] = True
        >>> planes, pieces = e.inputs(observation(b)[None], mask)
        >>> planes.shape, int(pieces.sum()), float(planes[..., 3].max())
        ((1, 14, 14, 4), 21, 1.0)
        """
        n = len(obs)
        levels, h, w = self.levels, self.rows, self.cols
        rows, ids = np.nonzero(mask) if legal is None else legal
        points = self.cover[ids] + (rows * (self.grid_size + 1))[:, None]
        reach = np.bincount(points.ravel(), minlength=n * (self.grid_size + 1)).reshape(n, -1)[:, : self.grid_size]
        reach = np.minimum(reach.astype(np.float32) / 8.0, 1.0).reshape(n, levels, h, w)
        planes = obs.reshape(n, self.colors * levels, h, w).astype(np.float32)
        board = np.broadcast_to(self.on_board, (n, levels, h, w))
        x = np.concatenate([planes, board, reach], axis=1).transpose(0, 2, 3, 1)
        pieces = np.zeros((n, self.pieces), np.float32)
        pieces[rows, self.placement_piece[ids]] = 1.0
        return np.ascontiguousarray(x), pieces


def init(encoding: Encoding, config: NetConfig, seed: int) -> Params:
    """Fresh parameters (He-initialised convolutions, the residual branches' last layers at
    zero so that every block starts as the identity).

    >>> from blokus.variant import variant
    >>> p = init(Encoding(variant("duo")), NetConfig(filters=8, blocks=1), 0)
    >>> p["stem"].shape, p["policy"].shape
    ((3, 3, 4, 8), (1, 1, 8, 91))
    """
    rng = np.random.default_rng(seed)
    f = config.filters

    def he(*shape: int) -> npt.NDArray[np.float32]:
        fan_in = math.prod(shape[:-1])
        return (rng.standard_normal(shape) * math.sqrt(2.0 / fan_in)).astype(np.float32)

    p: Params = {"stem": he(3, 3, encoding.planes, f), "stem_b": np.zeros(f, np.float32)}
    for b in range(config.blocks):
        p[f"block{b}_1"] = he(3, 3, f, f)
        p[f"block{b}_1b"] = np.zeros(f, np.float32)
        p[f"block{b}_2"] = np.zeros((3, 3, f, f), np.float32)
        p[f"block{b}_2b"] = np.zeros(f, np.float32)
    p["policy"] = (he(1, 1, f, encoding.shapes) * 0.1).astype(np.float32)
    p["policy_b"] = (config.size_prior * encoding.shape_size).astype(np.float32)
    p["value1"] = he(f + encoding.planes + encoding.pieces, config.value_hidden)
    p["value1_b"] = np.zeros(config.value_hidden, np.float32)
    # Each colour's win logit, then each colour's final points (ten times their share of its cells).
    p["value2"] = (he(config.value_hidden, 2 * encoding.colors) * 0.1).astype(np.float32)
    p["value2_b"] = np.zeros(2 * encoding.colors, np.float32)
    return p


class Model:
    """The network's functions for one encoding, compiled by JAX: :meth:`predict` (priors
    and values for the search), :meth:`loss` and :meth:`inputs`.

    >>> import numpy as np
    >>> from blokus import Board
    >>> from blokus.variant import variant
    >>> from blokus.rl import observation
    >>> e = Encoding(variant("duo"))
    >>> model = Model(e, NetConfig(filters=8, blocks=1))
    >>> params = init(e, model.config, 0)
    >>> b = Board("duo")
    >>> obs = observation(b)[None].astype(np.uint8)
    >>> mask = np.zeros((1, e.variant.num_placements), bool)
    >>> mask[0, b.legal_moves.ids()] = True
    >>> priors, values = model.predict(params, obs, mask)
    >>> priors.shape, values.shape, bool(((values > 0) & (values < 1)).all())
    ((1, 13729), (1, 2), True)
    """

    def __init__(self, encoding: Encoding, config: NetConfig) -> None:
        import jax
        import jax.numpy as jnp

        self.encoding, self.config = encoding, config
        policy_index = jnp.asarray(encoding.policy_index)

        def conv(x: Any, kernel: Any, bias: Any) -> Any:
            y = jax.lax.conv_general_dilated(x, kernel, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
            return y + bias

        def forward(params: Params, x: Any, pieces: Any) -> tuple[Any, Any]:
            # The planes' counts (a colour's cells, the mover's reach), in tens: what decides
            # a game is a matter of a few cells, which averages over the board would hide.
            counts = x.sum(axis=(1, 2)) / 10.0
            x = jax.nn.relu(conv(x, params["stem"], params["stem_b"]))
            for b in range(config.blocks):
                y = jax.nn.relu(conv(x, params[f"block{b}_1"], params[f"block{b}_1b"]))
                x = jax.nn.relu(x + conv(y, params[f"block{b}_2"], params[f"block{b}_2b"]))
            heads = conv(x, params["policy"], params["policy_b"])  # (n, h, w, shapes)
            logits = heads.transpose(0, 3, 1, 2).reshape(x.shape[0], -1)[:, policy_index]
            pooled = jnp.concatenate([x.sum(axis=(1, 2)) / 50.0, counts, pieces], axis=1)
            hidden = jax.nn.relu(pooled @ params["value1"] + params["value1_b"])
            return logits, hidden @ params["value2"] + params["value2_b"]

        c = encoding.colors

        def predict(params: Params, x: Any, pieces: Any) -> tuple[Any, Any]:
            logits, outputs = forward(params, x, pieces)
            return logits, jax.nn.sigmoid(outputs[:, :c])

        def loss(params: Params, batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            logits, outputs = forward(params, batch["planes"], batch["pieces"])
            value_logits, points = outputs[:, :c], outputs[:, c:]
            log_p = jax.nn.log_softmax(jnp.where(batch["mask"], logits, -1e9), axis=1)
            policy = -(batch["policy"] * jnp.where(batch["mask"], log_p, 0.0)).sum(axis=1).mean()
            target, weight = batch["value"], batch["value_weight"]
            bce = jnp.maximum(value_logits, 0) - value_logits * target + jnp.log1p(jnp.exp(-jnp.abs(value_logits)))
            value = (bce * weight).sum(axis=1).mean() / jnp.maximum(weight.sum(axis=1).mean(), 1.0)
            # The final points, a denser signal than the win alone, shape the trunk early on.
            score = ((points - batch["points"]) ** 2).sum(axis=1).mean()
            total = policy + value + score
            return total, {"policy": policy, "value": value, "score": score, "total": total}

        self._predict = jax.jit(predict)
        #: ``loss(params, batch) -> (total, parts)`` over a batch of ``planes``, ``pieces``,
        #: ``mask``, ``policy`` (visit shares per placement), ``value``, ``value_weight`` and
        #: ``points`` (per colour, relative to the mover: the outcome, whether it is learnt,
        #: the final points, ten times their share of a colour's cells).
        self.loss = loss

    def predict(self, params: Params, obs: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> tuple[Any, Any]:
        """Priors ``(n, placements)`` (zero off the legal moves, not normalised: the search
        normalises them) and each colour's win probability ``(n, colours)``, relative to the
        mover, for a batch of observations and legal masks. Batches are padded to a multiple
        of 32 so that few sizes are compiled.

        >>> import numpy as np
        >>> from blokus.variant import variant
        >>> e = Encoding(variant("duo"))
        >>> m = Model(e, NetConfig(filters=8, blocks=1))
        >>> mask = np.zeros((3, e.variant.num_placements), bool)
        >>> mask[:, :5] = True
        >>> priors, values = m.predict(init(e, m.config, 0), np.zeros((3, 2, 14, 14), np.uint8), mask)
        >>> priors.shape, int((priors > 0).sum()), float(priors.max())
        ((3, 13729), 15, 1.0)
        """
        n = len(obs)
        flat = np.flatnonzero(mask)
        rows, ids = np.divmod(flat, mask.shape[1])
        x, pieces = self.encoding.inputs(obs, mask, (rows, ids))
        size = max(32, -(-n // 32) * 32)
        if size != n:
            x = np.concatenate([x, np.zeros((size - n, *x.shape[1:]), x.dtype)])
            pieces = np.concatenate([pieces, np.zeros((size - n, pieces.shape[1]), pieces.dtype)])
        logits, values = self._predict(params, x, pieces)
        logits = np.asarray(logits)[:n]
        legal = logits[rows, ids]
        top = np.full(n, -np.inf, np.float32)
        np.maximum.at(top, rows, legal)
        priors = np.zeros(mask.shape, np.float32)
        priors[rows, ids] = np.exp(legal - top[rows])
        return priors, np.asarray(values)[:n]


def save(path: Path, encoding: Encoding, config: NetConfig, params: Params, extra: dict[str, Any]) -> None:
    """Writes ``params`` (``path/params.npz``) and what they are for (``path/network.json``:
    the variant's spec and the network's size, with ``extra``), each file replaced whole.

    >>> import tempfile
    >>> from blokus.variant import variant
    >>> e = Encoding(variant("duo"))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     save(Path(d), e, NetConfig(8, 1), init(e, NetConfig(8, 1), 0), {"iteration": 3})
    ...     _, config, params, extra = load(Path(d))
    >>> config, extra["iteration"], params["stem"].shape
    (NetConfig(filters=8, blocks=1, value_hidden=64, size_prior=1.0), 3, (3, 3, 4, 8))
    """
    path.mkdir(parents=True, exist_ok=True)
    temp = path / "params.tmp.npz"
    _savez(temp, **{k: np.asarray(v) for k, v in params.items()})
    temp.replace(path / "params.npz")
    meta = {"variant": encoding.variant.spec, "network": asdict(config), **extra}
    (path / "network.tmp.json").write_text(json.dumps(meta, indent=1))
    (path / "network.tmp.json").replace(path / "network.json")


def load(path: Path) -> tuple[Variant, NetConfig, Params, dict[str, Any]]:
    """The variant, network size, parameters and extra facts :func:`save` wrote in ``path``.
    Raises ``FileNotFoundError`` naming what is missing.

    >>> load(Path("/nonexistent"))
    Traceback (most recent call last):
    ...
    FileNotFoundError: no network in /nonexistent (network.json and params.npz are missing)
    """
    from blokus.variant import variant

    meta_file, params_file = path / "network.json", path / "params.npz"
    if not meta_file.is_file() or not params_file.is_file():
        raise FileNotFoundError(f"no network in {path} (network.json and params.npz are missing)")
    meta = json.loads(meta_file.read_text())
    v = variant(meta.pop("variant"))
    config = NetConfig(**meta.pop("network"))
    with np.load(params_file) as data:
        params = {k: data[k] for k in data.files}
    return v, config, params, meta
