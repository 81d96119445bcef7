"""Symmetries of a variant: the turns and reflections of the board that map its rules onto
themselves, each with the colours, players and pieces it relabels, as permutations that act on
action masks, priors, observations, value targets and boards.

A symmetry moves every cell and every placement, and renames each colour ``c`` as
``colors[c]``. It is one only when it keeps the rules: the board onto itself, every placement
onto a placement, each colour's start points onto those of the colour it becomes, each player's
colours onto one player's, shared colours onto shared colours, and the turn order (so the colour
renaming is a cyclic shift ``c -> c + k``). Classic gets the four quarter turns (a quarter turn
takes each start corner to the next colour's); Duo and Junior a half turn and a reflection in
the diagonal through both start points, each swapping the colours, and a reflection in the other
diagonal, which keeps them; Trigon, whose start points are shared, every turn and reflection of
its hexagon with every colour shift. Blokus 3D turns and reflects the structure, never tips it,
and keeps the colours (colour 0's first piece alone goes anywhere); a reflection there swaps
the two screw-shaped pieces, which are mirror images (:attr:`Symmetry.pieces`).

Observations are drawn relative to the colour to move (plane ``k`` is colour ``mover + k``), so
a symmetry's colour shift leaves the planes in place and only moves the grid points; a
symmetry that only shifts colours (Trigon's) changes no observation and no action.

>>> syms = symmetries("classic")
>>> [s.name for s in syms]
['identity', 'rotate 90, colours +3', 'rotate 180, colours +2', 'rotate 270, colours +1']
>>> [len(symmetries(v)) for v in ("duo", "classic_3", "trigon", "trigon_3", "3d_tower", "3d_wall")]
[4, 1, 48, 36, 8, 2]
>>> len({s.cells.tobytes() for s in symmetries("trigon")})  # distinct maps of the cells
12
>>> from blokus import Board
>>> from blokus.rl import observation
>>> b = Board("duo", ["e10,d11,e11,f11,e12", "j5"])
>>> s = symmetries("duo")[1]
>>> s.name, transform_board(b, s).placements()
('rotate 180, colours +1', [[<Move e10 (1, id 130)>], [<Move j3,i4,j4,k4,j5 (X, id 11897)>]])
>>> bool((observation(transform_board(b, s)) == s.apply_to_observation(observation(b))).all())
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from blokus import _blokus
from blokus.board import Board
from blokus.errors import InvalidArgumentError
from blokus.variant import Variant, VariantLike, variant

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Symmetry", "symmetries", "transform_board"]


@dataclass(frozen=True, eq=False, repr=False)
class Symmetry:
    """One symmetry of a variant: where it sends each cell, placement, colour, player and piece
    (``x[i]`` is the image of ``i``; the arrays are read-only). Symmetries compare by identity;
    compare their arrays to compare what they do.

    >>> s = symmetries("duo")[1]
    >>> s, s.colors, s.players, int(s.cells[0]), s.variant.cell_name(int(s.cells[0]))
    (<Symmetry 'rotate 180, colours +1' of duo>, (1, 0), (1, 0), 195, 'n14')
    """

    #: What it does, in words: ``identity``, ``rotate 90`` (a quarter turn counterclockwise as
    #: the board is drawn), ``reflect 45`` (in the line at 45° through the board's centre), with
    #: ``colours +k`` where colour ``c`` becomes colour ``c + k``.
    name: str
    #: The variant.
    variant: Variant
    #: Cell ``i`` goes to cell ``cells[i]``.
    cells: npt.NDArray[np.intp]
    #: Placement ``i`` goes to placement ``placements[i]`` (of piece ``pieces[piece of i]``).
    placements: npt.NDArray[np.intp]
    #: Colour ``c`` becomes colour ``colors[c]``: a cyclic shift.
    colors: tuple[int, ...]
    #: Player ``p`` becomes player ``players[p]``, who plays the colours that ``p``'s become.
    players: tuple[int, ...]
    #: Piece ``p`` becomes piece ``pieces[p]``: itself, except that a reflection in Blokus 3D
    #: swaps the two screws (pieces are turned there, never reflected, and the screws are
    #: mirror images).
    pieces: tuple[int, ...]
    _placement_source: npt.NDArray[np.intp] = field(init=False)
    _grid_source: npt.NDArray[np.intp] = field(init=False)
    _grid_shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        shape, index = _grid(self.variant)
        source = np.arange(int(np.prod(shape)), dtype=np.intp)
        source[index[self.cells]] = index  # points off the board stay where they are
        for name, value in (
            ("_placement_source", _inverse(self.placements)),
            ("_grid_source", source),
            ("_grid_shape", shape),
        ):
            object.__setattr__(self, name, value)
        for array in (self.cells, self.placements, self._placement_source, self._grid_source):
            array.flags.writeable = False

    def apply_to_actions(self, actions: npt.ArrayLike, axis: int = -1) -> npt.NDArray[np.generic]:
        """Anything indexed by placement id along ``axis`` (a legal-action mask, priors, visit
        counts; any leading batch axes), moved: ``out[..., placements[i]] = actions[..., i]``.

        >>> import numpy as np
        >>> s = symmetries("duo")[1]
        >>> mask = np.zeros((1, 13729), dtype=bool)
        >>> mask[0, 130] = True  # e10
        >>> np.flatnonzero(s.apply_to_actions(mask)[0]).tolist()  # j5
        [65]
        """
        return _permuted(actions, self._placement_source, axis, "actions", "placements")

    def apply_to_observation(self, observation: npt.ArrayLike) -> npt.NDArray[np.generic]:
        """Planes on the board's grid (as :class:`~blokus.rl.BatchEnv` and
        :func:`~blokus.rl.observation` draw them: the last axes are rows and columns, or levels,
        rows and columns in Blokus 3D; any leading axes), with every cell's point moved to its
        image's. Planes stay in order: they are relative to the colour to move, which the
        colour shift renames along with every other colour. Points off the board stay put.

        >>> from blokus import Board
        >>> from blokus.rl import observation
        >>> s = symmetries("duo")[1]
        >>> planes = s.apply_to_observation(observation(Board("duo", ["e10"])))
        >>> [(int(k), int(r), int(c)) for k, r, c in zip(*planes.nonzero())]  # j5: row 14 - 5, column 9
        [(1, 9, 9)]
        """
        a = np.asarray(observation)
        g = len(self._grid_shape)
        if a.shape[a.ndim - g :] != self._grid_shape:
            raise InvalidArgumentError(
                f"an observation of {self.variant.id} ends in the grid's axes {self._grid_shape}, not {a.shape}",
                "observation",
            )
        flat = a.reshape((*a.shape[: a.ndim - g], -1))
        return flat[..., self._grid_source].reshape(a.shape)

    def apply_to_colors(self, values: npt.ArrayLike, axis: int = -1) -> npt.NDArray[np.generic]:
        """Anything indexed by colour along ``axis`` (points), renamed:
        ``out[..., colors[c]] = values[..., c]``.

        >>> symmetries("classic")[1].apply_to_colors([10, 11, 12, 13]).tolist()
        [11, 12, 13, 10]
        """
        return _permuted(values, _inverse(np.array(self.colors, dtype=np.intp)), axis, "values", "colours")

    def apply_to_players(self, values: npt.ArrayLike, axis: int = -1) -> npt.NDArray[np.generic]:
        """Anything indexed by player along ``axis`` (scores, rewards, value targets), renamed:
        ``out[..., players[p]] = values[..., p]``.

        >>> symmetries("classic_2")[1].apply_to_players([[1.0, -1.0]]).tolist()
        [[-1.0, 1.0]]
        """
        return _permuted(values, _inverse(np.array(self.players, dtype=np.intp)), axis, "values", "players")

    def __repr__(self) -> str:
        return f"<Symmetry {self.name!r} of {self.variant.id}>"


def symmetries(variant_: VariantLike) -> tuple[Symmetry, ...]:
    """Every symmetry of a variant (built-in or not), the identity first; computed once per
    variant. They form a group: composing two gives one of them, and each has an inverse.

    >>> [s.name for s in symmetries("duo")]
    ['identity', 'rotate 180, colours +1', 'reflect 45, colours +1', 'reflect 135']
    >>> [s.name for s in symmetries("3d_steps")]
    ['identity', 'reflect 90']
    """
    return _symmetries(variant(variant_))


def transform_board(board: Board, symmetry: Symmetry) -> Board:
    """The position ``symmetry`` makes of ``board``: each colour ``c``'s pieces become colour
    ``colors[c]``'s pieces on the image cells, and the image colour moves.

    The result is exact, history included: the position the board started from is transformed
    and set up, and the board's moves, transformed, are played on it, so its move stack, each
    colour's last piece (the bonus) and the colours out are the board's, renamed. It is a plain
    new board when the board started from the empty one and the colour shift keeps the first
    colour to move; otherwise it starts from a setup position (a shifted empty board has
    another colour move first), which its ``repr`` shows as a position string.

    >>> from blokus import Board
    >>> b = Board("classic", ["a20", "t20"])
    >>> t = transform_board(b, symmetries("classic")[3])
    >>> t.move_stack, t.turn
    ([<Move t20 (1, id 399)>, <Move t1 (1, id 19)>], 3)
    """
    v = board.variant
    if symmetry.variant != v:
        raise InvalidArgumentError(
            f"a symmetry of {symmetry.variant.id} cannot transform a board of {v.id}", "symmetry"
        )
    colors, moved = symmetry.colors, symmetry.placements
    start = board._core.start()
    empty = _blokus.BoardCore(v._tables)
    plain = start.out == empty.out and max(start.cell_colors(), default=-1) < 0 and start.turn == empty.turn
    if plain and start.turn is not None and colors[start.turn] == start.turn:
        core = empty
    else:
        pieces: list[list[int]] = [[] for _ in colors]
        for c, ids in enumerate(start.placements()):
            pieces[colors[c]] = [int(moved[i]) for i in ids]
        turn = None if start.turn is None else colors[start.turn]
        core = _blokus.BoardCore.from_setup(v._tables, pieces, turn, False, sorted(colors[c] for c in start.out))
    for i in board._core.moves():
        core.push(int(moved[i]))
    return Board._from_core(v, core)


def _permuted(
    values: npt.ArrayLike, source: npt.NDArray[np.intp], axis: int, name: str, what: str
) -> npt.NDArray[np.generic]:
    a = np.asarray(values)
    if a.ndim == 0 or not -a.ndim <= axis < a.ndim or a.shape[axis] != len(source):
        raise InvalidArgumentError(
            f"{name} need an axis of {len(source)} {what}; axis {axis} of {a.shape} is not one", name
        )
    return np.take(a, source, axis=axis)


def _inverse(perm: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    inverse = np.empty_like(perm)
    inverse[perm] = np.arange(len(perm), dtype=np.intp)
    return inverse


def _grid(v: Variant) -> tuple[tuple[int, ...], npt.NDArray[np.intp]]:
    """The observation grid's shape (levels only where there are several) and each cell's point
    in it, flattened, as the Rust batch draws it: layer z, row h - 1 - y, column x."""
    xyz = np.array(v.cell_coords(), dtype=np.intp).reshape(-1, 3)
    w, h, levels = (int(xyz[:, k].max()) + 1 for k in range(3))
    index = (xyz[:, 2] * h + (h - 1 - xyz[:, 1])) * w + xyz[:, 0]
    return ((levels, h, w) if levels > 1 else (h, w)), index


#: The point groups of the lattices, as (name, linear map on lattice coordinates, whether it
#: turns up triangles into down ones). Squares (and the columns of Blokus 3D): the quarter
#: turns, then the reflections in the lines at 0°, 45°, 90° and 135°. Triangles, in the basis
#: (1, 0), (1/2, √3/2): the sixth turns, then the reflections in the lines at 0°, 30°, ... 150°.
def _point_group(geometry: str) -> list[tuple[str, npt.NDArray[np.int64], bool]]:
    square = geometry != "triangle"
    turn = np.array([[0, -1], [1, 0]] if square else [[0, -1], [1, 1]], dtype=np.int64)
    mirror = np.array([[1, 0], [0, -1]] if square else [[1, 1], [0, -1]], dtype=np.int64)
    step = 90 if square else 60
    out = []
    for reflect in (False, True):
        m = mirror if reflect else np.eye(2, dtype=np.int64)
        for k in range(360 // step):
            name = f"reflect {k * step // 2}" if reflect else (f"rotate {k * step}" if k else "identity")
            out.append((name, m, not square and (k % 2 == 1) != reflect))
            m = turn @ m
    return out


def _lattice(v: Variant) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each cell's centre in integer lattice coordinates (x, y for squares and cubes; six times
    the triangle's centroid in the basis of :func:`_point_group` for triangles), and its z."""
    xyz = np.array(v.cell_coords(), dtype=np.int64).reshape(-1, 3)
    x, y, z = xyz[:, 0], xyz[:, 1], xyz[:, 2]
    if v.geometry != "triangle":
        return np.stack([x, y], axis=1), z
    up = np.array(v.points_up(), dtype=bool)
    # The centroid is x/2 across and (y + 1/3) (up) or (y + 2/3) (down) rows of height √3/2 up.
    b6 = 6 * y + np.where(up, 2, 4)
    return np.stack([3 * x - b6 // 2, b6], axis=1), z


def _cell_maps(v: Variant) -> list[tuple[str, npt.NDArray[np.intp]]]:
    """The point group's maps about the board's centre (which every symmetry of a finite board
    fixes) that take every cell's centre onto a cell's centre, as permutations of the cells."""
    p, z = _lattice(v)
    n = len(p)
    total = p.sum(axis=0)
    up = v.points_up()
    where = {(int(a), int(b), int(c)): i for i, (a, b, c) in enumerate(zip(p[:, 0], p[:, 1], z))}
    maps = []
    for name, m, flips in _point_group(v.geometry):
        image = (n * p - total) @ m.T + total  # n times the image, about the centre
        if (image % n).any():
            continue
        image //= n
        cells = [where.get((int(a), int(b), int(c))) for a, b, c in zip(image[:, 0], image[:, 1], z)]
        if any(c is None for c in cells):
            continue
        perm = np.array(cells, dtype=np.intp)
        if up is not None and any((up[int(perm[i])] != up[i]) != flips for i in range(n)):
            continue
        maps.append((name, perm))
    return maps


@functools.lru_cache(maxsize=64)
def _symmetries(v: Variant) -> tuple[Symmetry, ...]:
    t = v._tables
    n_colors = v.num_colors
    players = [frozenset(cs) for cs in v.players]
    shared = frozenset(v.shared_colors)
    starts = [frozenset(cs) for cs in v.start_cells()]
    ids = range(v.num_placements)
    placement_cells = [t.placement_cells(i) for i in ids]
    piece_of = np.array([t.placement_piece(i) for i in ids], dtype=np.intp)
    width = max(len(cs) for cs in placement_cells)
    padded = np.full((len(placement_cells), width), v.num_cells, dtype=np.intp)
    for i, cs in enumerate(placement_cells):
        padded[i, : len(cs)] = cs
    key_of = {row.tobytes(): i for i, row in enumerate(np.sort(padded, axis=1))}
    out = []
    for geometric, cells in _cell_maps(v):
        # Each placement's image: its cells moved, looked up by the sorted cells.
        moved = np.sort(np.append(cells, v.num_cells)[padded], axis=1)
        images = [key_of.get(row.tobytes()) for row in moved]
        if any(i is None for i in images):
            continue
        placements = np.array(images, dtype=np.intp)
        pieces = _piece_map(v, piece_of, placements)
        if pieces is None:
            continue
        for k in range(n_colors):
            colors = tuple((c + k) % n_colors for c in range(n_colors))
            # Colour 0's first piece alone goes anywhere in Blokus 3D: no shift keeps that.
            if v.geometry == "cube" and k:
                continue
            if any(frozenset(int(cells[c]) for c in starts[c]) != starts[colors[c]] for c in range(n_colors)):
                continue
            if frozenset(colors[c] for c in shared) != shared:
                continue
            images_of_players = [frozenset(colors[c] for c in cs) for cs in players]
            if any(cs not in players for cs in images_of_players):
                continue
            player_map = tuple(players.index(cs) for cs in images_of_players)
            # The players take turns with a shared colour by its pieces' count, not by name.
            if shared and player_map != tuple(range(len(players))):
                continue
            if geometric == "identity":
                name = f"colours +{k}" if k else "identity"
            else:
                name = f"{geometric}, colours +{k}" if k else geometric
            out.append(Symmetry(name, v, cells, placements, colors, player_map, pieces))
    return tuple(out)


def _piece_map(v: Variant, piece_of: npt.NDArray[np.intp], placements: npt.NDArray[np.intp]) -> tuple[int, ...] | None:
    """The piece each piece's placements go to, if each goes to one piece with as many copies."""
    image = np.arange(len(v.pieces), dtype=np.intp)  # a piece that fits nowhere stays itself
    image[piece_of] = piece_of[placements]
    if (image[piece_of] != piece_of[placements]).any() or len(set(image.tolist())) != len(image):
        return None
    pieces = tuple(int(p) for p in image)
    if any(v.pieces[p].copies != v.pieces[q].copies for p, q in enumerate(pieces)):
        return None
    return pieces
