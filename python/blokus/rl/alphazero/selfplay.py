"""Many games in flight, one network call for all their leaves.

Each game runs on a thread of its own with a :class:`~blokus.bots.MctsBot` searching in Rust
(the GIL released); when a search has gathered its leaves it hands them to the
:class:`Batcher` and waits. The batcher calls the network once every game still playing has
handed in its leaves, so that one call serves ``games x leaves`` positions, and gives each game
back its share. A game's moves depend only on the network and its seed, not on which games
share its calls.

>>> import numpy as np
>>> from blokus.variant import variant
>>> e = Encoding(variant("duo"))
>>> alike = Batcher(lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32)))
>>> jobs = [lambda k=k: self_play_game(GuidedSearch(e, alike.ask, 4, k), 2, k)[1].ply for k in range(3)]
>>> plies = run_threads(alike, jobs)
>>> alike.positions > alike.calls  # the three games' leaves shared calls
True
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from blokus.board import Board
from blokus.bots import GreedyBot, MctsBot
from blokus.rl import observation

from .network import Encoding

if TYPE_CHECKING:
    import numpy.typing as npt

#: ``fn(observations, masks) -> (priors, values relative to the mover)`` on a batch.
Network = Callable[[Any, Any], tuple[Any, Any]]

#: The search's options when a network guides it: no RAVE (the values come from the network,
#: not from playouts).
SEARCH_OPTIONS: dict[str, Any] = {"rave_equivalence": 0.0, "first_play_reduction": 0.1}


@dataclass
class _Request:
    obs: Any
    masks: Any
    result: tuple[Any, Any] | None = None
    error: Exception | None = None


@dataclass
class Batcher:
    """Gathers the leaves of many searches into one call of ``network`` (see the module's
    docstring); counts the calls, the positions and the seconds spent in the network.

    >>> import numpy as np
    >>> calls = []
    >>> def network(obs, masks):
    ...     calls.append(len(obs))
    ...     return np.ones(masks.shape, np.float32), np.full((len(obs), 2), 0.5, np.float32)
    >>> batcher = Batcher(network)
    >>> jobs = [lambda k=k: batcher.ask(np.zeros((k, 1)), np.zeros((k, 3), bool)) for k in (1, 2)]
    >>> results = run_threads(batcher, jobs)
    >>> calls, [r[0].shape for r in results]
    ([3], [(1, 3), (2, 3)])
    """

    network: Network
    calls: int = 0
    positions: int = 0
    seconds: float = 0.0
    _cv: threading.Condition = field(default_factory=threading.Condition)
    _pending: list[_Request] = field(default_factory=list)
    _live: int = 0

    def ask(self, obs: Any, masks: Any) -> tuple[Any, Any]:
        """From a game's thread: the network's answer for its leaves, once all live games
        have asked.

        >>> import numpy as np
        >>> b = Batcher(lambda o, m: (m.astype(np.float32), np.zeros((len(o), 2))))
        >>> run_threads(b, [lambda: b.ask(np.zeros((1, 1)), np.ones((1, 2), bool))[0].tolist()])
        [[[1.0, 1.0]]]
        """
        request = _Request(obs, masks)
        with self._cv:
            self._pending.append(request)
            self._cv.notify_all()
            while request.result is None and request.error is None:
                self._cv.wait()
        if request.error is not None:
            raise request.error
        assert request.result is not None
        return request.result

    def _serve(self) -> None:
        """The calling thread's loop: evaluates batches until no game is live."""
        while True:
            with self._cv:
                while self._live > 0 and len(self._pending) < self._live:
                    self._cv.wait()
                batch, self._pending = self._pending, []
                if not batch and self._live == 0:
                    return
            started = time.perf_counter()
            try:
                priors, values = self.network(
                    np.concatenate([r.obs for r in batch]), np.concatenate([r.masks for r in batch])
                )
                error = None
            except Exception as e:  # noqa: BLE001 - handed to the games, which stop
                error = e
            self.seconds += time.perf_counter() - started
            self.calls += 1
            self.positions += sum(len(r.obs) for r in batch)
            with self._cv:
                at = 0
                for r in batch:
                    k = len(r.obs)
                    if error is None:
                        r.result = (priors[at : at + k], values[at : at + k])
                    else:
                        r.error = error
                    at += k
                self._cv.notify_all()


def run_threads(batcher: Batcher, jobs: Sequence[Callable[[], Any]]) -> list[Any]:
    """Runs ``jobs`` on a thread each while this thread serves their network calls; their
    results in order (the first error is raised once all have stopped).

    >>> import numpy as np
    >>> b = Batcher(lambda o, m: (m, o))
    >>> run_threads(b, [lambda: 1, lambda: 2])
    [1, 2]
    """
    results: list[Any] = [None] * len(jobs)
    errors: list[Exception] = []

    def work(k: int) -> None:
        try:
            results[k] = jobs[k]()
        except Exception as e:  # noqa: BLE001 - raised once every thread has stopped
            errors.append(e)
        finally:
            with batcher._cv:
                batcher._live -= 1
                batcher._cv.notify_all()

    with batcher._cv:
        batcher._live += len(jobs)
    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(len(jobs))]
    for t in threads:
        t.start()
    batcher._serve()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


class GuidedSearch:
    """A :class:`~blokus.bots.MctsBot` whose priors and values come from a network through a
    batcher (``ask(observations, masks)``), with Dirichlet noise on the root's priors when
    ``noise`` is set (self-play explores); a node keeps the ``max_children`` moves of highest
    prior.

    >>> import numpy as np
    >>> from blokus import Board
    >>> from blokus.variant import variant
    >>> e = Encoding(variant("duo"))
    >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
    >>> s = GuidedSearch(e, alike, simulations=16, seed=1)
    >>> sum(m.visits for m in s.analyse(Board("duo")).moves)
    16
    """

    def __init__(
        self,
        encoding: Encoding,
        ask: Network,
        simulations: int,
        seed: int,
        noise: float = 0.0,
        leaves: int = 4,
        seconds: float | None = None,
        max_children: int = 32,
    ) -> None:
        self.encoding, self.ask, self.noise = encoding, ask, noise
        self.rng = np.random.default_rng(seed)
        players = len(encoding.variant.players)
        owners = np.zeros((encoding.colors, players), np.float32)
        for p, colors in enumerate(encoding.variant.players):
            for c in colors:
                owners[c, p] = 1.0 / len(colors)
        self._owners = owners
        self._root = False
        self.bot = MctsBot(
            simulations=simulations,
            seconds=seconds,
            seed=seed,
            evaluator=self._evaluate,
            evaluator_colors=True,
            batch_size=leaves,
            max_children=max_children,
            **SEARCH_OPTIONS,
        )

    def _evaluate(self, obs: Any, masks: Any, colors: Any) -> tuple[Any, Any]:
        priors, relative = self.ask(obs, masks)
        if self._root:
            # The search asks for the root alone, first.
            self._root = False
            if self.noise > 0:
                legal = np.flatnonzero(masks[0])
                p = priors[0, legal] / max(float(priors[0, legal].sum()), 1e-30)
                mixed = (1 - self.noise) * p + self.noise * self.rng.dirichlet(np.full(len(legal), 0.3))
                priors = priors.copy()
                priors[0, legal] = mixed
        c = self.encoding.colors
        index = (np.arange(c)[None, :] - colors[:, None]) % c
        absolute = np.take_along_axis(np.asarray(relative), index, axis=1)
        return priors, absolute @ self._owners

    def analyse(self, board: Board) -> Any:
        """The search of ``board`` from a fresh tree (so that the root gets its noise).

        >>> import numpy as np
        >>> from blokus.variant import variant
        >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
        >>> s = GuidedSearch(Encoding(variant("duo")), alike, simulations=8, seed=1, noise=0.25)
        >>> s.analyse(Board("duo")).best in Board("duo").legal_moves
        True
        """
        self.bot.reset()
        self._root = True
        return self.bot.analyse(board)


@dataclass
class Sample:
    """One position of a self-play game: what the network learns from.

    >>> Sample(np.zeros(1), np.zeros(1, bool), 0, np.array([3]), np.array([1.0])).color
    0
    """

    obs: npt.NDArray[np.uint8]
    mask: npt.NDArray[np.bool_]
    color: int
    ids: npt.NDArray[np.int64]
    shares: npt.NDArray[np.float32]
    #: The search's value of the position for each player, if known.
    root: npt.NDArray[np.float32] | None = None


def outcome(board: Board) -> npt.NDArray[np.float32]:
    """Each player's share of the win of a finished game (1 alone, 1/k among k tied winners).

    >>> b = Board("duo")
    >>> outcome(b).tolist()
    [0.5, 0.5]
    """
    winners = board._core.winners()
    values = np.zeros(board.variant.num_players, np.float32)
    values[winners] = 1.0 / len(winners)
    return values


def margin_value(board: Board, scale: float = 5.0) -> npt.NDArray[np.float32]:
    """Each player's score margin over the best of the others in a finished game, squashed
    into (0, 1) by a logistic of ``scale`` points: a graded outcome, which a network learns
    sooner than the win alone.

    >>> b = Board("duo")
    >>> margin_value(b).tolist()
    [0.5, 0.5]
    """
    scores = np.array(board.scores(), np.float64)
    best_other = np.array([np.delete(scores, p).max() for p in range(len(scores))])
    squashed: npt.NDArray[np.float32] = (1 / (1 + np.exp(-(scores - best_other) / scale))).astype(np.float32)
    return squashed


def self_play_game(search: GuidedSearch, sample_plies: int, seed: int) -> tuple[list[Sample], Board]:
    """One game of the search against itself: the first ``sample_plies`` moves drawn in
    proportion to the visits, the rest the most visited; every position's sample.

    >>> import numpy as np
    >>> from blokus.variant import variant
    >>> e = Encoding(variant("duo"))
    >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
    >>> samples, board = self_play_game(GuidedSearch(e, alike, simulations=2, seed=1), 4, 1)
    >>> len(samples) == board.ply, board.is_game_over()
    (True, True)
    """
    rng = np.random.default_rng(seed)
    board = Board(search.encoding.variant)
    samples = []
    n = board.variant.num_placements
    while not board.is_game_over():
        analysis = search.analyse(board)
        ids = np.array([m.move.id for m in analysis.moves], np.int64)
        visits = np.array([m.visits for m in analysis.moves], np.float32)
        shares = visits / visits.sum()
        mask = np.zeros(n, bool)
        mask[board.legal_moves.ids()] = True
        turn = board.turn
        assert turn is not None
        root = np.array(analysis.value, np.float32)
        samples.append(Sample(observation(board).astype(np.uint8), mask, turn, ids, shares, root))
        if board.ply < sample_plies:
            board.push(int(rng.choice(ids, p=shares)))
        else:
            board.push(analysis.best)
    return samples, board


def score_against_greedy(
    encoding: Encoding, network: Network, games: int, simulations: int, seed: int, max_children: int = 32
) -> tuple[float, float]:
    """The guided search's score against :class:`~blokus.bots.GreedyBot` (each player but
    one greedy; the search plays each seat in turn): the mean of its share of the win over
    ``games`` games played at once, and the seconds they took.

    >>> import numpy as np
    >>> from blokus.variant import variant
    >>> e = Encoding(variant("duo"))
    >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
    >>> score, seconds = score_against_greedy(e, alike, 2, 4, 0)
    >>> 0 <= score <= 1
    True
    """
    batcher = Batcher(network)
    players = encoding.variant.num_players

    def game(k: int) -> float:
        search = GuidedSearch(encoding, batcher.ask, simulations, seed * 1000 + k, max_children=max_children)
        greedy = GreedyBot(seed=seed * 1000 + k)
        seat = k % players
        board = Board(encoding.variant)
        while not board.is_game_over():
            if board.player == seat:
                board.push(search.analyse(board).best)
            else:
                board.push(greedy.choose(board))
        return float(outcome(board)[seat])

    started = time.perf_counter()
    scores = run_threads(batcher, [functools.partial(game, k) for k in range(games)])
    return float(np.mean(scores)), time.perf_counter() - started
