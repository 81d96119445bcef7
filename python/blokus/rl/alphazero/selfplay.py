"""Many games in flight, one network call for all their leaves.

Every game has a :class:`GuidedSearch`; :meth:`GuidedSearch.analyse_together` searches one
position of each game at once with :func:`blokus.bots.analyse_together`: the searches run in
Rust on threads of their own, and once every search still running has gathered its leaves,
one call of the network serves them all, about ``games x leaves`` positions. The games move
in step, a move each per call of ``analyse_together``. A game's moves depend only on the
network and its seed, not on which games share its calls.

>>> import numpy as np
>>> from blokus.variant import variant
>>> e = Encoding(variant("duo"))
>>> network = CountedNetwork(lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32)))
>>> played = self_play_games([GuidedSearch(e, network, 4, k) for k in range(3)], 2, [0, 1, 2])
>>> network.positions > network.calls  # the three games' leaves shared calls
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from blokus.board import Board
from blokus.bots import GreedyBot, MctsBot, analyse_together
from blokus.rl import observation

from .network import Encoding

if TYPE_CHECKING:
    import numpy.typing as npt

#: ``fn(observations, masks) -> (priors, values relative to the mover)`` on a batch.
Network = Callable[[Any, Any], tuple[Any, Any]]

#: The search's options when a network guides it: no RAVE (the values come from the network,
#: not from playouts), and every kept move considered from a node's first simulation (no
#: progressive widening: the network's priors do the narrowing, as they did when it was measured).
SEARCH_OPTIONS: dict[str, Any] = {"rave_equivalence": 0.0, "first_play_reduction": 0.1, "first_children": 0}


@dataclass
class CountedNetwork:
    """A network that counts its calls, the positions they held and the seconds they took.

    >>> import numpy as np
    >>> n = CountedNetwork(lambda o, m: (m, o))
    >>> _ = n(np.zeros((3, 1)), np.zeros((3, 2)))
    >>> n.calls, n.positions
    (1, 3)
    """

    network: Network
    calls: int = 0
    positions: int = 0
    seconds: float = 0.0

    def __call__(self, obs: Any, masks: Any) -> tuple[Any, Any]:
        started = time.perf_counter()
        try:
            return self.network(obs, masks)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1
            self.positions += len(obs)


class GuidedSearch:
    """A :class:`~blokus.bots.MctsBot` whose priors and values come from a network
    (``ask(observations, masks)``), with Dirichlet noise on the root's priors when ``noise`` is
    set (self-play explores); a node keeps the ``max_children`` moves of highest prior.

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
        simulations: int | None,
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
        # The network reaches the search through analyse_together, not as the bot's evaluator.
        self.bot = MctsBot(
            simulations=simulations,
            seconds=seconds,
            seed=seed,
            batch_size=leaves,
            max_children=max_children,
            **SEARCH_OPTIONS,
        )

    def _noisy_root(self, priors: Any, mask: Any) -> None:
        """Mixes Dirichlet noise into the root's ``priors`` (in place) if ``noise`` is set."""
        if self.noise > 0:
            legal = np.flatnonzero(mask)
            p = priors[legal] / max(float(priors[legal].sum()), 1e-30)
            priors[legal] = (1 - self.noise) * p + self.noise * self.rng.dirichlet(np.full(len(legal), 0.3))

    def _per_player(self, relative: Any, colors: Any) -> Any:
        """Each player's value from the network's values per colour relative to the mover."""
        c = self.encoding.colors
        index = (np.arange(c)[None, :] - colors[:, None]) % c
        return np.take_along_axis(np.asarray(relative), index, axis=1) @ self._owners

    def analyse(self, board: Board) -> Any:
        """The search of ``board`` from a fresh tree (so that the root gets its noise).

        >>> import numpy as np
        >>> from blokus.variant import variant
        >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
        >>> s = GuidedSearch(Encoding(variant("duo")), alike, simulations=8, seed=1, noise=0.25)
        >>> s.analyse(Board("duo")).best in Board("duo").legal_moves
        True
        """
        return GuidedSearch.analyse_together([self], [board])[0]

    @staticmethod
    def analyse_together(searches: Sequence[GuidedSearch], boards: Sequence[Board]) -> list[Any]:
        """Each board searched by its search from a fresh tree, all at once, one network call
        serving the leaves of every search (:func:`blokus.bots.analyse_together`); the first
        search's network serves all, and the searches' budgets and leaves must be the same.
        Each gets the analysis :meth:`analyse` would give it alone.

        >>> import numpy as np
        >>> from blokus.variant import variant
        >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
        >>> searches = [GuidedSearch(Encoding(variant("duo")), alike, 8, seed=k, noise=0.25) for k in range(2)]
        >>> alone = searches[1].analyse(Board("duo"))
        >>> searches[1].rng = np.random.default_rng(1)  # the noise drawn again
        >>> GuidedSearch.analyse_together(searches, [Board("duo")] * 2)[1] == alone
        True
        """
        if not searches:
            return []
        ask = searches[0].ask

        def evaluate(obs: Any, masks: Any, colors: Any, which: Any) -> tuple[Any, Any]:
            priors, relative = ask(obs, masks)
            priors = np.array(priors, np.float32)
            for row, k in enumerate(which):
                # A search's first call is its root alone.
                if searches[k]._root:
                    searches[k]._root = False
                    searches[k]._noisy_root(priors[row], masks[row])
            return priors, searches[0]._per_player(relative, colors)

        for search in searches:
            search.bot.reset()
            search._root = True
        return analyse_together([s.bot for s in searches], boards, evaluate)


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


def self_play_games(
    searches: Sequence[GuidedSearch],
    sample_plies: int,
    seeds: Sequence[int],
    finished: Callable[[int], None] | None = None,
) -> list[tuple[list[Sample], Board]]:
    """A game of each search against itself, all in step (one
    :meth:`GuidedSearch.analyse_together` a move): the first ``sample_plies`` moves drawn in
    proportion to the visits (by a generator of the game's seed), the rest the most visited;
    each game's samples and final board. ``finished(k)`` is called as game ``k`` ends.

    >>> import numpy as np
    >>> from blokus.variant import variant
    >>> e = Encoding(variant("duo"))
    >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
    >>> games = self_play_games([GuidedSearch(e, alike, simulations=2, seed=k) for k in (1, 2)], 4, [1, 2])
    >>> [(len(samples) == board.ply, board.is_game_over()) for samples, board in games]
    [(True, True), (True, True)]
    """
    rngs = [np.random.default_rng(seed) for seed in seeds]
    boards = [Board(search.encoding.variant) for search in searches]
    samples: list[list[Sample]] = [[] for _ in searches]
    n = boards[0].variant.num_placements if boards else 0
    live = [k for k, board in enumerate(boards) if not board.is_game_over()]
    while live:
        analyses = GuidedSearch.analyse_together([searches[k] for k in live], [boards[k] for k in live])
        for k, analysis in zip(live, analyses):
            board = boards[k]
            ids = np.array([m.move.id for m in analysis.moves], np.int64)
            visits = np.array([m.visits for m in analysis.moves], np.float32)
            shares = visits / visits.sum()
            mask = np.zeros(n, bool)
            mask[board.legal_moves.ids()] = True
            turn = board.turn
            assert turn is not None
            root = np.array(analysis.value, np.float32)
            samples[k].append(Sample(observation(board).astype(np.uint8), mask, turn, ids, shares, root))
            if board.ply < sample_plies:
                board.push(int(rngs[k].choice(ids, p=shares)))
            else:
                board.push(analysis.best)
            if board.is_game_over() and finished is not None:
                finished(k)
        live = [k for k in live if not boards[k].is_game_over()]
    return list(zip(samples, boards))


def self_play_game(search: GuidedSearch, sample_plies: int, seed: int) -> tuple[list[Sample], Board]:
    """One game of :func:`self_play_games`.

    >>> import numpy as np
    >>> from blokus.variant import variant
    >>> e = Encoding(variant("duo"))
    >>> alike = lambda o, m: (m.astype(np.float32), np.full((len(o), 2), 0.5, np.float32))
    >>> samples, board = self_play_game(GuidedSearch(e, alike, simulations=2, seed=1), 4, 1)
    >>> len(samples) == board.ply, board.is_game_over()
    (True, True)
    """
    return self_play_games([search], sample_plies, [seed])[0]


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
    started = time.perf_counter()
    players = encoding.variant.num_players
    searches = [
        GuidedSearch(encoding, network, simulations, seed * 1000 + k, max_children=max_children) for k in range(games)
    ]
    greedy = [GreedyBot(seed=seed * 1000 + k) for k in range(games)]
    boards = [Board(encoding.variant) for _ in range(games)]
    seats = [k % players for k in range(games)]
    while True:
        for k, board in enumerate(boards):
            while not board.is_game_over() and board.player != seats[k]:
                board.push(greedy[k].choose(board))
        live = [k for k, board in enumerate(boards) if not board.is_game_over()]
        if not live:
            break
        for k, analysis in zip(
            live, GuidedSearch.analyse_together([searches[k] for k in live], [boards[k] for k in live])
        ):
            boards[k].push(analysis.best)
    scores = [float(outcome(board)[seat]) for board, seat in zip(boards, seats)]
    return float(np.mean(scores)), time.perf_counter() - started
