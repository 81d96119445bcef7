"""Many games played inside Rust, on all cores, returned as numpy arrays."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from blokus import _blokus
from blokus.board import Board
from blokus.variant import Variant, VariantLike, variant

if TYPE_CHECKING:
    import numpy.typing as npt


@dataclass(frozen=True)
class SelfplayResult:
    """Results of :func:`selfplay`; row ``i`` is game ``i`` whatever the number of threads."""

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
        return int(self.plies.shape[0])

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def board(self, game: int) -> Board:
        """The final position of one game (needs ``keep_moves=True``)."""
        if self.moves is None:
            raise ValueError("moves were not kept: call selfplay(..., keep_moves=True)")
        return Board(self.variant, self.moves[game])


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
    for every move, ``simulations`` a move, one thread per game). Game ``i`` depends only on ``seed`` and ``i``, so the result
    is the same for any ``threads`` (default: every core). A long run is played in slices of
    about a second: Ctrl-C stops it between two, and ``progress(done, games)`` is called
    after each.
    """
    v = variant(variant_)
    if games < 0:
        raise ValueError(f"games must be >= 0, not {games}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    n_threads = threads if threads is not None else (os.cpu_count() or 1)
    if n_threads < 1:
        raise ValueError(f"threads must be >= 1, not {n_threads}")
    if not isinstance(simulations, int) or simulations < 1:
        raise ValueError(f"simulations must be a whole number >= 1, not {simulations!r}")
    parts: list[_blokus.SelfplayCore] = []
    done = 0
    # A first slice to learn the rate: a game a thread when every move is a search.
    least = n_threads if policy == "mcts" else 64 * n_threads
    size = min(games, least)
    while done < games or not parts:
        n = min(size, games - done)
        r = _blokus.selfplay_games(v._tables, done, n, seed, n_threads, policy, keep_moves, simulations)
        parts.append(r)
        done += n
        if progress is not None:
            progress(done, games)
        size = max(least, int(n / max(r.seconds, 1e-9) * SLICE_SECONDS))
    if len(parts) == 1:
        r = parts[0]
        return SelfplayResult(v, r.points, r.scores, r.plies, r.winners, r.seconds, r.moves)
    moves: list[list[int]] | None = None
    if keep_moves:
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
