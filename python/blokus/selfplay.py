"""Many games played inside Rust, on all cores, returned as numpy arrays.

>>> r = selfplay("duo", games=4, seed=1, threads=1)
>>> r.points.shape, r.plies.shape
((4, 2), (4,))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from blokus import _arguments, _blokus
from blokus.board import Board
from blokus.errors import InvalidArgumentError
from blokus.variant import Variant, VariantLike, variant

if TYPE_CHECKING:
    import numpy.typing as npt


@dataclass(frozen=True)
class SelfplayResult:
    """Results of :func:`selfplay`; row ``i`` is game ``i`` whatever the number of threads.

    It pickles and deep-copies (the variant by its id or spec) to an equal result: compare the
    arrays with ``numpy.array_equal``, as ``==`` does for the fields.

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
) -> SelfplayResult:
    """Plays ``games`` games from the empty board inside Rust with the GIL released.

    ``policy`` is ``"uniform"`` (uniformly random legal moves), ``"greedy"`` (uniformly among
    the moves of the largest piece) or ``"mcts"`` (the search of :class:`blokus.bots.MctsBot`
    for every move, ``simulations`` a move, one thread per game). Game ``i`` depends only on
    ``seed`` and ``i``, so the result is the same for any ``threads`` (1 to ``MAX_THREADS``,
    256; default: every core). A long run is played in slices of about a second: Ctrl-C stops
    it between two, ``progress(done, games)`` is called after each, and memory grows with the
    games done.

    >>> r = selfplay("duo", games=2, seed=3, policy="greedy")
    >>> r.games, r.plies.tolist()
    (2, [30, 27])
    """
    v = variant(variant_)
    games = _arguments.in_range(games, "games", 0, _arguments.MAX_U64)
    seed = _arguments.seed(seed)
    n_threads = _arguments.threads(threads)
    if not isinstance(policy, str) or policy not in ("uniform", "greedy", "mcts"):
        raise InvalidArgumentError(
            f"policy must be 'uniform', 'greedy' or 'mcts', not {_arguments.shown(policy)}", "policy"
        )
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
        r = _blokus.selfplay_games(v._tables, done, n, seed, n_threads, policy, keep, simulations)
        parts.append(r)
        done += n
        if progress is not None:
            progress(done, games)
        size = min(most, max(least, int(n / max(r.seconds, 1e-9) * SLICE_SECONDS)))
    if len(parts) == 1:
        r = parts[0]
        return SelfplayResult(v, r.points, r.scores, r.plies, r.winners, r.seconds, r.moves)
    moves: list[list[int]] | None = None
    if keep:
        moves = []
        for r in parts:
            assert r.moves is not None
            moves.extend(r.moves)
    return SelfplayResult(
        v,
        np.concatenate([r.points for r in parts]),
        np.concatenate([r.scores for r in parts]),
        np.concatenate([r.plies for r in parts]),
        np.concatenate([r.winners for r in parts]),
        sum(r.seconds for r in parts),
        moves,
    )
