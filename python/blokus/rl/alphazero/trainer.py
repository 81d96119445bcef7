"""The training loop of :mod:`blokus.rl.alphazero`: self-play, a replay buffer, gradient
steps, evaluation against the greedy bot, checkpoints and ``metrics.jsonl``.

An iteration plays ``games`` self-play games (all in flight at once, see
:mod:`~blokus.rl.alphazero.selfplay`), adds their positions to the buffer, takes enough
gradient steps that each new position is drawn about ``reuse`` times (each time under a random
symmetry of the board), scores the search against :class:`~blokus.bots.GreedyBot`, writes the
checkpoint and appends one line to ``metrics.jsonl``.

With ``overlap`` (the default) the gradient steps run on a thread of their own while the
iteration's games and scoring run on another, so that both cores work: neither half keeps
two busy alone. The steps then train for the positions the previous iteration added, and the
games and the score are those of the network as the iteration began (the one the previous
iteration trained). An iteration with no steps due (a run's first, or the first after resuming
a checkpoint written without ``overlap``) trains after its games, on its own positions, and
leaves their steps due as well. Either way a run with one seed is the same run every time.

>>> TrainConfig().network
NetConfig(filters=32, blocks=1, value_hidden=64, size_prior=1.0)
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from blokus.progress import Progress
from blokus.rl.symmetry import Symmetry, symmetries
from blokus.variant import Variant

from . import network as net
from .network import _savez
from .selfplay import (
    CountedNetwork,
    GuidedSearch,
    Sample,
    margin_value,
    outcome,
    score_against_greedy,
    self_play_games,
)


@dataclass(frozen=True)
class TrainConfig:
    """The trainer's settings (the defaults are tuned for Duo on two CPU cores).

    >>> TrainConfig().simulations
    32
    """

    #: Search simulations a self-play move.
    simulations: int = 32
    #: Self-play games an iteration (all in flight together).
    games: int = 32
    #: Leaves a search gathers before it asks the network.
    leaves: int = 4
    #: The first plies of a self-play game are drawn in proportion to the visits.
    sample_plies: int = 8
    #: The weight of the Dirichlet noise on the root's priors in self-play.
    noise: float = 0.25
    #: The moves of highest prior a search node keeps.
    max_children: int = 48
    #: The value target: the game's outcome, mixed with this weight of the search's value of
    #: the position (less noisy than one game's outcome).
    search_value: float = 0.0
    #: The outcome's share given by the score margin (see
    #: :func:`~blokus.rl.alphazero.selfplay.margin_value`) rather than by the win.
    margin: float = 0.5
    #: Positions kept for training.
    buffer: int = 50_000
    #: Positions a gradient step.
    batch: int = 256
    #: Times each new position is drawn for training, on average.
    reuse: float = 16.0
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    #: Games against the greedy bot an iteration, and the search's simulations in them.
    eval_games: int = 20
    eval_simulations: int = 64
    network: net.NetConfig = field(default_factory=lambda: net.NetConfig(filters=32, blocks=1))
    #: Train on a thread of its own while the self-play games are played (see the module's
    #: docstring); ``False``: one after the other, each iteration training for its own games.
    overlap: bool = True


class ReplayBuffer:
    """The last ``capacity`` positions of self-play, as fixed-size numpy arrays (masks as
    bits, visit shares as the searched moves' ids and shares); with ``augment``, each sampled
    position is seen under a random symmetry of the board (:mod:`blokus.rl.symmetry`).

    >>> from blokus.variant import variant
    >>> e = net.Encoding(variant("duo"))
    >>> buf = ReplayBuffer(e, 10, 48)
    >>> s = Sample(np.zeros((2, 14, 14), np.uint8), np.ones(13729, bool), 0, np.array([1, 2]), np.array([0.5, 0.5]))
    >>> buf.add([s] * 12, [np.array([1.0, 0.0], np.float32)] * 12)
    >>> len(buf), buf.total
    (10, 12)
    """

    def __init__(
        self, encoding: net.Encoding, capacity: int, moves: int, augment: bool = True, search_value: float = 0.0
    ) -> None:
        e = encoding
        self.search_value = search_value
        #: The board's distinct symmetries (the identity first), one drawn for each sample.
        self.symmetries = _distinct(symmetries(e.variant)) if augment else ()
        self.encoding, self.capacity, self.moves = e, capacity, moves
        obs_shape = (e.colors, e.levels, e.rows, e.cols) if e.levels > 1 else (e.colors, e.rows, e.cols)
        placements = e.variant.num_placements
        self.arrays: dict[str, np.ndarray[Any, Any]] = {
            "obs": np.zeros((capacity, *obs_shape), np.uint8),
            "mask": np.zeros((capacity, (placements + 7) // 8), np.uint8),
            "ids": np.zeros((capacity, moves), np.int64),
            "shares": np.zeros((capacity, moves), np.float32),
            "value": np.zeros((capacity, e.colors), np.float32),
            "points": np.zeros((capacity, e.colors), np.float32),
        }
        self._cells = float(sum(p.size * p.copies for p in e.variant.pieces))
        self.total = 0

    def __len__(self) -> int:
        return min(self.total, self.capacity)

    def add(
        self,
        samples: list[Sample],
        values: list[np.ndarray[Any, Any]],
        points: list[np.ndarray[Any, Any]] | None = None,
    ) -> None:
        """Adds positions with each player's outcome of their game (``values``, one per
        sample; mixed with the search's value of the position, ``search_value`` of it, when the
        sample has it) and each colour's final points (``points``, one per sample; zeros if not
        given), stored per colour relative to the position's mover.

        >>> from blokus.variant import variant
        >>> buf = ReplayBuffer(net.Encoding(variant("duo")), 4, 8)
        >>> s = Sample(np.zeros((2, 14, 14), np.uint8), np.ones(13729, bool), 1, np.array([1]), np.array([1.0]))
        >>> buf.add([s], [np.array([1.0, 0.0], np.float32)])
        >>> buf.arrays["value"][0].tolist()  # colour 1 to move: its own value first
        [0.0, 1.0]
        """
        a = self.arrays
        c = self.encoding.colors
        for n, (s, v) in enumerate(zip(samples, values)):
            k = self.total % self.capacity
            a["obs"][k] = s.obs
            a["mask"][k] = np.packbits(s.mask)
            m = min(len(s.ids), self.moves)
            a["ids"][k] = 0
            a["shares"][k] = 0.0
            a["ids"][k, :m] = s.ids[:m]
            a["shares"][k, :m] = s.shares[:m]
            colors = (s.color + np.arange(c)) % c
            players = self.encoding.player_of[colors]
            if s.root is not None:
                v = (1 - self.search_value) * v + self.search_value * s.root
            a["value"][k] = np.where(players >= 0, v[np.maximum(players, 0)], 0.0)
            a["points"][k] = 0.0 if points is None else 10 * points[n][colors] / self._cells
            self.total += 1

    def sample(self, rng: np.random.Generator, size: int) -> dict[str, Any]:
        """A training batch: the network's inputs, masks, dense visit shares and value targets.

        >>> from blokus.variant import variant
        >>> e = net.Encoding(variant("duo"))
        >>> buf = ReplayBuffer(e, 10, 48)
        >>> s = Sample(np.zeros((2, 14, 14), np.uint8), np.ones(13729, bool), 0, np.array([1]), np.array([1.0]))
        >>> buf.add([s], [np.array([1.0, 0.0], np.float32)])
        >>> b = buf.sample(np.random.default_rng(0), 4)
        >>> b["planes"].shape, b["policy"].sum(axis=1).tolist(), b["value"][0].tolist()
        ((4, 14, 14, 4), [1.0, 1.0, 1.0, 1.0], [1.0, 0.0])
        """
        e = self.encoding
        at = rng.integers(0, len(self), size)
        a = self.arrays
        placements = e.variant.num_placements
        mask = np.unpackbits(a["mask"][at], axis=1, count=placements).astype(bool)
        policy = np.zeros((size, placements), np.float32)
        np.add.at(policy, (np.arange(size)[:, None], a["ids"][at]), a["shares"][at])
        obs = a["obs"][at]
        if self.symmetries:
            # Each position under a symmetry drawn at random (its planes are relative to the
            # mover, so only the grid points and placements move; values stay in place).
            which = rng.integers(0, len(self.symmetries), size)
            for k, sym in enumerate(self.symmetries):
                rows = np.flatnonzero(which == k)
                if k > 0 and len(rows):
                    obs[rows] = sym.apply_to_observation(obs[rows])
                    mask[rows] = sym.apply_to_actions(mask[rows])
                    policy[rows] = sym.apply_to_actions(policy[rows])
        planes, pieces = e.inputs(obs, mask)
        weight = np.broadcast_to(e.owned, (size, e.colors))
        return {
            "planes": planes,
            "pieces": pieces,
            "mask": mask,
            "policy": policy,
            "value": a["value"][at],
            "points": a["points"][at],
            "value_weight": np.ascontiguousarray(weight),
        }

    def save(self, path: Path) -> None:
        """Writes the buffer to ``path`` (replaced whole).

        >>> import tempfile
        >>> from blokus.variant import variant
        >>> buf = ReplayBuffer(net.Encoding(variant("duo")), 4, 8)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     buf.save(Path(d) / "b.npz")
        ...     again = ReplayBuffer(net.Encoding(variant("duo")), 4, 8)
        ...     again.load(Path(d) / "b.npz")
        >>> again.total
        0
        """
        temp = path.with_suffix(".tmp.npz")
        _savez(temp, total=np.array(self.total), **self.arrays)
        temp.replace(path)

    def load(self, path: Path) -> None:
        """Reads a buffer :meth:`save` wrote (of the same variant and size; else ``ValueError``).

        >>> import tempfile
        >>> from blokus.variant import variant
        >>> with tempfile.TemporaryDirectory() as d:
        ...     ReplayBuffer(net.Encoding(variant("duo")), 4, 8).save(Path(d) / "b.npz")
        ...     ReplayBuffer(net.Encoding(variant("duo")), 5, 8).load(Path(d) / "b.npz")
        Traceback (most recent call last):
        ...
        ValueError: .../b.npz: the buffer's obs has shape (4, 2, 14, 14), not (5, 2, 14, 14)
        """
        with np.load(path) as data:
            for k in self.arrays:
                if data[k].shape != self.arrays[k].shape:
                    raise ValueError(f"{path}: the buffer's {k} has shape {data[k].shape}, not {self.arrays[k].shape}")
                self.arrays[k][...] = data[k]
            self.total = int(data["total"])


class Trainer:
    """Trains a network for ``variant`` into ``out`` (resuming from the checkpoint there).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     config = TrainConfig(simulations=4, games=2, eval_games=2, eval_simulations=4,
    ...                          network=net.NetConfig(8, 1))
    ...     t = Trainer("duo", Path(d), config, seed=1, quiet=True)
    ...     line = t.iteration()
    ...     sorted(line)[:4], t.iterations, (Path(d) / "network.json").is_file()
    (['eval_games', 'eval_seconds', 'games', 'iteration'], 1, True)
    """

    def __init__(
        self, variant_: Variant | str, out: Path, config: TrainConfig, seed: int = 0, quiet: bool = False
    ) -> None:
        import jax
        import optax

        from blokus.variant import variant

        self.out, self.quiet = Path(out), quiet
        self.out.mkdir(parents=True, exist_ok=True)
        self.iterations, self.seconds, self.seed = 0, 0.0, seed
        #: Gradient steps due for positions already in the buffer (``overlap``).
        self.steps_due = 0
        resumed = (self.out / "network.json").is_file()
        if resumed:
            v, netconfig, params, extra = net.load(self.out)
            config = TrainConfig(**{**extra["train"], "network": netconfig})
            self.iterations, self.seconds, self.seed = extra["iteration"], extra["seconds"], extra["seed"]
            self.steps_due = int(extra.get("steps_due", 0))
        else:
            v = variant(variant_)
        self.config = config
        self.encoding = net.Encoding(v)
        self.model = net.Model(self.encoding, config.network)
        if not resumed:
            params = net.init(self.encoding, config.network, seed)
        self.params = jax.tree_util.tree_map(jax.numpy.asarray, params)
        self.optimizer = optax.adamw(config.learning_rate, weight_decay=config.weight_decay)
        self.opt_state = self.optimizer.init(self.params)
        self.buffer = ReplayBuffer(
            self.encoding, config.buffer, min(max(64, config.simulations), 1024), search_value=config.search_value
        )
        if resumed:
            self.opt_state = _load_tree(self.out / "optimizer.npz", self.opt_state)
            self.buffer.load(self.out / "buffer.npz")
        self.rng = np.random.default_rng([self.seed, self.iterations])
        optimizer, loss = self.optimizer, self.model.loss

        def step(params: Any, opt_state: Any, batch: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
            (_, parts), grads = jax.value_and_grad(loss, has_aux=True)(params, batch)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, parts

        self._step = jax.jit(step)

    def network(self, obs: Any, masks: Any) -> tuple[Any, Any]:
        """The current network on a batch (what the searches call): priors and values
        relative to the mover (see :meth:`~blokus.rl.alphazero.network.Model.predict`).

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as d:
        ...     t = Trainer("duo", Path(d), TrainConfig(network=net.NetConfig(4, 0)), quiet=True)
        ...     priors, values = t.network(np.zeros((1, 2, 14, 14), np.uint8), np.ones((1, 13729), bool))
        >>> priors.shape, values.shape
        ((1, 13729), (1, 2))
        """
        return self.model.predict(self.params, obs, masks)

    def iteration(self) -> dict[str, Any]:
        """One iteration (see the module's docstring); returns its line of ``metrics.jsonl``
        (the class's example runs one).

        >>> Trainer.iteration.__name__
        'iteration'
        """
        c = self.config
        started = time.perf_counter()
        base = int(self.rng.integers(2**62))
        # The games and the score use the network as it is now, whatever the steps change.
        params = self.params
        network = CountedNetwork(lambda obs, masks: self.model.predict(params, obs, masks))
        due = self.steps_due if c.overlap else 0
        with ThreadPoolExecutor(1) as pool:
            training = pool.submit(self._train, due)
            games, selfplay_seconds = self._self_play(network, base)
            if c.overlap:
                score, eval_seconds = self._score(network.network)
            self.params, self.opt_state, losses, train_seconds = training.result()
        new = 0
        for samples, values, points in games:
            self.buffer.add(samples, [values] * len(samples), [points] * len(samples))
            new += len(samples)
        new_steps = max(1, round(new * c.reuse / c.batch))
        if due == 0:  # nothing trained beside the games: train for them now
            self.params, self.opt_state, losses, train_seconds = self._train(new_steps)
        if c.overlap:
            self.steps_due = new_steps
        else:
            score, eval_seconds = self._score(self.network)
        steps = due or new_steps
        self.iterations += 1
        seconds = time.perf_counter() - started
        self.seconds += seconds
        line = {
            "iteration": self.iterations,
            "positions": self.buffer.total,
            "new_positions": new,
            "games": c.games,
            "steps": steps,
            "seconds": round(seconds, 2),
            "selfplay_seconds": round(selfplay_seconds, 2),
            "network_seconds": round(network.seconds, 2),
            "network_positions": network.positions,
            "network_calls": network.calls,
            "train_seconds": round(train_seconds, 2),
            "eval_seconds": round(eval_seconds, 2),
            "total_seconds": round(self.seconds, 2),
            "loss_policy": float(np.mean([x["policy"] for x in losses])),
            "loss_value": float(np.mean([x["value"] for x in losses])),
            "loss_score": float(np.mean([x["score"] for x in losses])),
            "loss": float(np.mean([x["total"] for x in losses])),
            "score_vs_greedy": score,
            "eval_games": c.eval_games,
        }
        self.checkpoint()
        with open(self.out / "metrics.jsonl", "a") as f:
            f.write(json.dumps(line) + "\n")
        return line

    def _self_play(self, network: CountedNetwork, base: int) -> tuple[list[tuple[Any, Any, Any]], float]:
        """The iteration's self-play games, each as its samples, its value targets and its
        points, and the seconds they took."""
        c = self.config
        started = time.perf_counter()
        progress = Progress(c.games, sys.stderr, enabled=not self.quiet and sys.stderr.isatty())
        searches = [
            GuidedSearch(
                self.encoding, network, c.simulations, base + k, c.noise, c.leaves, max_children=c.max_children
            )
            for k in range(c.games)
        ]
        played = self_play_games(
            searches,
            c.sample_plies,
            [base + k for k in range(c.games)],
            lambda _: progress.step(f"iteration {self.iterations + 1}: self-play"),
        )
        progress.close()
        games = [
            (
                samples,
                (1 - c.margin) * outcome(board) + c.margin * margin_value(board),
                np.array(board.points(), np.float32),
            )
            for samples, board in played
        ]
        return games, time.perf_counter() - started

    def _train(self, steps: int) -> tuple[Any, Any, list[dict[str, float]], float]:
        """``steps`` gradient steps from the current network on batches of the buffer: the
        new parameters and optimiser state, each step's losses, and the seconds they took
        (the trainer's own network is left as it was; its random numbers move on)."""
        started = time.perf_counter()
        params, opt_state, losses = self.params, self.opt_state, []
        for _ in range(steps):
            batch = self.buffer.sample(self.rng, self.config.batch)
            params, opt_state, parts = self._step(params, opt_state, batch)
            losses.append({k: float(v) for k, v in parts.items()})
        return params, opt_state, losses, time.perf_counter() - started

    def _score(self, network: Any) -> tuple[float, float]:
        """The score of the search with ``network`` against the greedy bot, and its seconds."""
        c = self.config
        return score_against_greedy(
            self.encoding, network, c.eval_games, c.eval_simulations, self.seed * 7919 + self.iterations, c.max_children
        )

    def checkpoint(self) -> None:
        """Writes the network, the optimiser's state and the buffer into the output folder;
        a trainer made on that folder resumes from them.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as d:
        ...     Trainer("duo", Path(d), TrainConfig(network=net.NetConfig(4, 0)), quiet=True).checkpoint()
        ...     sorted(p.name for p in Path(d).iterdir())
        ['buffer.npz', 'network.json', 'optimizer.npz', 'params.npz']
        """
        train = {k: v for k, v in asdict(self.config).items() if k != "network"}
        extra = {
            "iteration": self.iterations,
            "seconds": self.seconds,
            "seed": self.seed,
            "steps_due": self.steps_due,
            "train": train,
        }
        self.buffer.save(self.out / "buffer.npz")
        _save_tree(self.out / "optimizer.npz", self.opt_state)
        net.save(
            self.out, self.encoding, self.config.network, {k: np.asarray(v) for k, v in self.params.items()}, extra
        )

    def run(self, minutes: float) -> None:
        """Iterations until ``minutes`` have passed (the one under way is finished), with a
        line per iteration on stderr.

        >>> import tempfile
        >>> config = TrainConfig(simulations=2, games=2, eval_games=1, eval_simulations=2, network=net.NetConfig(4, 0))
        >>> with tempfile.TemporaryDirectory() as d:
        ...     t = Trainer("duo", Path(d), config, quiet=True)
        ...     t.run(0.001)
        ...     t.iterations
        1
        """
        deadline = time.perf_counter() + minutes * 60
        while time.perf_counter() < deadline:
            line = self.iteration()
            if not self.quiet:
                print(
                    f"iteration {line['iteration']}: {line['positions']} positions, loss {line['loss']:.3f}"
                    f" (policy {line['loss_policy']:.3f}, value {line['loss_value']:.3f}, points {line['loss_score']:.3f}),"
                    f" {100 * line['score_vs_greedy']:.0f}% against greedy, {line['seconds']:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )


def _save_tree(path: Path, tree: Any) -> None:
    import jax

    leaves = jax.tree_util.tree_leaves(tree)
    temp = path.with_suffix(".tmp.npz")
    np.savez(temp, *[np.asarray(x) for x in leaves])
    temp.replace(path)


def _load_tree(path: Path, like: Any) -> Any:
    import jax

    with np.load(path) as data:
        leaves = [jax.numpy.asarray(data[f"arr_{k}"]) for k in range(len(data.files))]
    return jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(like), leaves)


def _distinct(group: tuple[Symmetry, ...]) -> tuple[Symmetry, ...]:
    """One symmetry for each distinct map of the board (Trigon's colour shifts alone move
    nothing a network sees)."""
    seen: dict[bytes, Symmetry] = {}
    for sym in group:
        seen.setdefault(sym.cells.tobytes() + sym.placements.tobytes(), sym)
    return tuple(seen.values())
