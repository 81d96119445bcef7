"""Many games played inside Rust, on all cores, returned as numpy arrays.

>>> r = selfplay("duo", games=4, seed=1, threads=1)
>>> r.points.shape, r.plies.shape
((4, 2), (4,))
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TypeVar

import numpy as np

from blokus import _arguments, _blokus
from blokus.board import Board
from blokus.errors import InvalidArgumentError, InvalidTypeError
from blokus.variant import Variant, VariantLike, variant

if TYPE_CHECKING:
    import numpy.typing as npt


_T = TypeVar("_T")


def _parts(items: object, kind: type[_T], name: str) -> list[_T]:
    """The non-empty list of ``kind`` in the iterable argument ``name``, or a clear error."""
    if isinstance(items, (kind, str, bytes)) or not isinstance(items, Iterable):
        raise InvalidTypeError(f"{name} must be an iterable of {kind.__name__}, not {type(items).__name__}", name)
    parts = list(items)
    if not parts:
        raise InvalidArgumentError(f"{name} is empty: there is nothing to join", name)
    for k, p in enumerate(parts):
        if not isinstance(p, kind):
            raise InvalidTypeError(f"{name}[{k}] is a {type(p).__name__}, not a {kind.__name__}", name)
    return parts


@dataclass(frozen=True)
class SelfplayResult:
    """Results of :func:`selfplay`; row ``i`` is game ``i`` whatever the number of threads.

    It pickles and deep-copies (the variant by its id or spec) to an equal result: compare the
    arrays with ``numpy.array_equal``, as ``==`` does for the fields (``==`` compares
    ``seconds`` too, so two runs of the same games differ; compare the arrays, or
    :meth:`summary`, to check that two runs played the same games).

    >>> r = selfplay("duo", games=3, seed=7, threads=2)
    >>> import numpy as np
    >>> np.array_equal(r.points, selfplay("duo", games=3, seed=7, threads=1).points)
    True
    >>> r.points.tolist(), r.winners.tolist()
    ([[47, 60], [61, 60], [53, 37]], [[False, True], [True, False], [True, False]])
    """

    variant: Variant
    #: Points per colour, shape (games, colours).
    points: npt.NDArray[np.int32]
    #: Score per player, shape (games, players).
    scores: npt.NDArray[np.int32]
    #: Moves played per game, shape (games,).
    plies: npt.NDArray[np.uint32]
    #: Whether each player is among the winners, shape (games, players).
    winners: npt.NDArray[np.bool_]
    #: Wall-clock seconds spent playing.
    seconds: float
    #: Placement ids of each game, if asked for with ``keep_moves=True``.
    moves: list[list[int]] | None

    @property
    def games(self) -> int:
        """The number of games played."""
        return int(self.plies.shape[0])

    @property
    def games_per_second(self) -> float:
        """Games played per second of the run (``inf`` for a run too short to time)."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def board(self, game: int) -> Board:
        """The final position of one game (needs ``keep_moves=True``).

        >>> r = selfplay("duo", games=2, seed=1, keep_moves=True)
        >>> b = r.board(1)
        >>> b.is_game_over(), b.points() == r.points[1].tolist()
        (True, True)
        """
        if self.moves is None:
            raise InvalidArgumentError("moves were not kept: call selfplay(..., keep_moves=True)")
        index = _arguments.in_range(game, "game", 0, self.games - 1) if self.games else None
        if index is None:
            raise InvalidArgumentError("no games were played", "game")
        return Board(self.variant, self.moves[index])

    def summary(self) -> SelfplaySummary:
        """The run's summary statistics (what ``blokus selfplay`` prints), merged exactly with
        those of other runs by :meth:`SelfplaySummary.merge`.

        >>> s = selfplay("duo", games=10, seed=1).summary()
        >>> s.games, s.plies, s.points_sum
        (10, 289, (604, 560))
        """
        # In 64 bits: a chunk's sums of squares stay far below 2**63 for any chunk that fits
        # in memory; summaries add up in Python's unbounded integers.
        wide = self.points.astype(np.int64)
        none = (0,) * wide.shape[1]
        return SelfplaySummary(
            variant=self.variant,
            games=self.games,
            plies=int(self.plies.sum(dtype=np.uint64)),
            points_sum=_ints(wide.sum(axis=0)),
            points_squares=_ints((wide * wide).sum(axis=0)),
            points_min=_ints(wide.min(axis=0)) if self.games else none,
            points_max=_ints(wide.max(axis=0)) if self.games else none,
            scores_sum=_ints(self.scores.astype(np.int64).sum(axis=0)),
            wins=_ints(self.winners.sum(axis=0, dtype=np.int64)),
            seconds=self.seconds,
        )

    @classmethod
    def concat(cls, results: Iterable[SelfplayResult]) -> SelfplayResult:
        """Chunks of one run joined in order: ``selfplay(v, a, s)`` then ``selfplay(v, b, s,
        first=a)`` concatenated equal ``selfplay(v, a + b, s)`` (seconds add up).

        >>> parts = [selfplay("duo", games=3, seed=1), selfplay("duo", games=2, seed=1, first=3)]
        >>> SelfplayResult.concat(parts).plies.tolist() == selfplay("duo", games=5, seed=1).plies.tolist()
        True
        """
        parts = _parts(results, SelfplayResult, "results")
        v = parts[0].variant
        for k, r in enumerate(parts):
            if r.variant != v:
                raise InvalidArgumentError(
                    f"results[{k}] is of variant {r.variant.id}, results[0] of {v.id}: chunks of one run share the variant",
                    "results",
                )
        kept = {r.moves is not None for r in parts}
        if len(kept) > 1:
            raise InvalidArgumentError("some results kept their moves and others did not (keep_moves)", "results")
        moves: list[list[int]] | None = None
        if kept == {True}:
            moves = [m for r in parts for m in (r.moves or [])]
        return cls(
            v,
            np.concatenate([r.points for r in parts]),
            np.concatenate([r.scores for r in parts]),
            np.concatenate([r.plies for r in parts]),
            np.concatenate([r.winners for r in parts]),
            sum(r.seconds for r in parts),
            moves,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SelfplayResult):
            return NotImplemented
        arrays = ("points", "scores", "plies", "winners")
        return (
            self.variant == other.variant
            and all(np.array_equal(getattr(self, a), getattr(other, a)) for a in arrays)
            and self.seconds == other.seconds
            and self.moves == other.moves
        )


def _ints(values: Iterable[object]) -> tuple[int, ...]:
    return tuple(int(x) for x in values)  # type: ignore[call-overload]  # numpy integers


@dataclass(frozen=True)
class SelfplaySummary:
    """Summary statistics of selfplay games, kept as exact integers so that the summaries of
    any split of a run merge (:meth:`merge`) into the summary of the whole run: what a run too
    large to keep every game returns (``blokus.distributed.selfplay(..., summary_only=True)``)
    and what ``blokus selfplay`` prints.

    >>> s = selfplay("duo", games=10, seed=1).summary()
    >>> SelfplaySummary.merge([s, s]).games, len(s.points_mean)
    (20, 2)
    """

    variant: Variant
    games: int
    #: Moves played, over all games.
    plies: int
    #: Per colour: the sum of its points over the games, of their squares, the least and most
    #: (0 when there are no games).
    points_sum: tuple[int, ...]
    points_squares: tuple[int, ...]
    points_min: tuple[int, ...]
    points_max: tuple[int, ...]
    #: Per player: the sum of its scores, and the games it is among the winners of.
    scores_sum: tuple[int, ...]
    wins: tuple[int, ...]
    #: Wall-clock seconds spent playing (added up over the parts merged).
    seconds: float

    @classmethod
    def merge(cls, summaries: Iterable[SelfplaySummary]) -> SelfplaySummary:
        """The summary of the games of all these summaries (of one variant), exactly.

        >>> a = selfplay("duo", games=4, seed=1).summary()
        >>> b = selfplay("duo", games=6, seed=1, first=4).summary()
        >>> whole = SelfplaySummary.merge([a, b])
        >>> whole.games, whole.points_sum == selfplay("duo", games=10, seed=1).summary().points_sum
        (10, True)
        """
        parts = _parts(summaries, SelfplaySummary, "summaries")
        for k, s in enumerate(parts):
            if s.variant != parts[0].variant:
                raise InvalidArgumentError(
                    f"summaries[{k}] is of variant {s.variant.id}, summaries[0] of {parts[0].variant.id}",
                    "summaries",
                )
        played = [s for s in parts if s.games] or parts[:1]

        def add(field: str) -> tuple[int, ...]:
            return tuple(sum(column) for column in zip(*(getattr(s, field) for s in parts)))

        return cls(
            variant=parts[0].variant,
            games=sum(s.games for s in parts),
            plies=sum(s.plies for s in parts),
            points_sum=add("points_sum"),
            points_squares=add("points_squares"),
            points_min=tuple(min(column) for column in zip(*(s.points_min for s in played))),
            points_max=tuple(max(column) for column in zip(*(s.points_max for s in played))),
            scores_sum=add("scores_sum"),
            wins=add("wins"),
            seconds=sum(s.seconds for s in parts),
        )

    @property
    def games_per_second(self) -> float:
        """Games a second of play."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def plies_mean(self) -> float:
        """Mean moves a game (0 without games)."""
        return self.plies / self.games if self.games else 0.0

    @property
    def points_mean(self) -> tuple[float, ...]:
        """Mean points per colour (NaN without games)."""
        return tuple(s / self.games if self.games else math.nan for s in self.points_sum)

    @property
    def points_std(self) -> tuple[float, ...]:
        """Standard deviation of the points per colour, over the games (as ``numpy.std``)."""
        n = self.games
        if not n:
            return tuple(math.nan for _ in self.points_sum)
        # Exact in integers until the one division: no cancellation however many games.
        return tuple(math.sqrt((n * q - s * s) / (n * n)) for s, q in zip(self.points_sum, self.points_squares))

    @property
    def scores_mean(self) -> tuple[float, ...]:
        """Mean score per player (NaN without games)."""
        return tuple(s / self.games if self.games else math.nan for s in self.scores_sum)

    @property
    def win_rate(self) -> tuple[float, ...]:
        """Per player, the share of games it is among the winners of (a tie counts for each)."""
        return tuple(w / self.games if self.games else math.nan for w in self.wins)

    def table(self) -> str:
        """The statistics as ``blokus selfplay`` prints them below its first line: per colour
        mean points, std, min and max; per player mean score and wins.

        >>> print(selfplay("duo", games=10, seed=1).summary().table())
        colour     mean points     std   min   max
        Purple           60.40    4.90    49    65
        Orange           56.00    8.31    46    75
        player      mean score    wins  (a tie counts as a win for each tied player)
        0  Purple        60.40   90.0%
        1  Orange        56.00   10.0%
        """
        v = self.variant
        lines = [f"{'colour':<10}{'mean points':>12}{'std':>8}{'min':>6}{'max':>6}"]
        for c, name in enumerate(v.colors):
            lines.append(
                f"{name:<10}{self.points_mean[c]:>12.2f}{self.points_std[c]:>8.2f}"
                f"{self.points_min[c]:>6}{self.points_max[c]:>6}"
            )
        lines.append(f"{'player':<10}{'mean score':>12}{'wins':>8}  (a tie counts as a win for each tied player)")
        for p in range(v.num_players):
            names = "+".join(v.colors[c] for c in v.players[p])
            lines.append(f"{p:<3}{names:<7}{self.scores_mean[p]:>12.2f}{self.win_rate[p]:>8.1%}")
        return "\n".join(lines)


#: How :func:`selfplay` may choose moves.
POLICIES = ("uniform", "greedy", "mcts")

#: Seconds of play per call into Rust in a long run: between calls Ctrl-C is seen and
#: ``progress`` is told.
SLICE_SECONDS = 1.0


def selfplay(
    variant_: VariantLike = "classic",
    games: int = 1000,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "uniform",
    keep_moves: bool = False,
    progress: Callable[[int, int], object] | None = None,
    simulations: int = 200,
    first: int = 0,
) -> SelfplayResult:
    """Plays ``games`` games from the empty board inside Rust with the GIL released.

    ``policy`` is ``"uniform"`` (uniformly random legal moves), ``"greedy"`` (uniformly among
    the moves of the largest piece) or ``"mcts"`` (the search of :class:`blokus.bots.MctsBot`
    for every move, ``simulations`` a move, one thread per game). Game ``i`` depends only on
    ``seed`` and ``i``, so the result is the same for any ``threads`` (1 to ``MAX_THREADS``,
    256; default: every core). A long run is played in slices of about a second: Ctrl-C stops
    it between two, ``progress(done, games)`` is called after each, and memory grows with the
    games done.

    ``first`` is the number of the first game: the call plays games ``first`` to ``first +
    games - 1`` of the run, so chunks of a run played anywhere join into the whole run
    (:meth:`SelfplayResult.concat`).

    >>> r = selfplay("duo", games=2, seed=3, policy="greedy")
    >>> r.games, r.plies.tolist()
    (2, [30, 27])
    >>> second = selfplay("duo", games=1, seed=3, policy="greedy", first=1)
    >>> second.plies.tolist()
    [27]
    """
    v = variant(variant_)
    games = _arguments.in_range(games, "games", 0, _arguments.MAX_U64)
    first = _arguments.in_range(first, "first", 0, _arguments.MAX_U64)
    if first + games > _arguments.MAX_U64:
        raise InvalidArgumentError(
            f"first + games must be at most 2**64 - 1 (games are numbered by 64-bit numbers), not {first} + {games}",
            "first",
        )
    seed = _arguments.seed(seed)
    n_threads = _arguments.threads(threads)
    policy = _arguments.choice(policy, "policy", POLICIES)
    simulations = _arguments.in_range(simulations, "simulations", 1, 10**9)
    keep = bool(keep_moves)
    most = _blokus.MAX_GAMES_PER_CALL
    parts: list[_blokus.SelfplayCore] = []
    done = 0
    # A first slice to learn the rate: a game a thread when every move is a search.
    least = n_threads if policy == "mcts" else 64 * n_threads
    size = min(games, least, most)
    while done < games or not parts:
        n = min(size, games - done)
        r = _blokus.selfplay_games(v._tables, first + done, n, seed, n_threads, policy, keep, simulations)
        parts.append(r)
        done += n
        if progress is not None:
            progress(done, games)
        size = min(most, max(least, int(n / max(r.seconds, 1e-9) * SLICE_SECONDS)))
    return SelfplayResult.concat(
        SelfplayResult(v, r.points, r.scores, r.plies, r.winners, r.seconds, r.moves) for r in parts
    )
