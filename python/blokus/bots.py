"""Bots: anything that picks a move for a board, behind one small protocol.

A bot has a ``name``, ``choose(board, seconds=None)`` (a legal move for the colour to move, not
played), ``analyse(board, seconds=None)`` (the same choice with the numbers behind it) and
``reset()`` (a new game begins). Built-in bots, an engine over GTP (:class:`blokus.gtp.GtpBot`)
and a user's own class are interchangeable: the GTP server serves any of them and the match
runner plays any of them.

>>> from blokus import Board, bots
>>> bot = bots.RandomBot(seed=1)
>>> isinstance(bot, bots.Bot)
True
>>> b = Board("duo")
>>> b.push(bot.choose(b))
>>> b.ply
1

Two optional attributes extend the protocol, and every built-in bot has them:

- ``seed``: assigning it restarts the bot's random numbers. The match runner assigns one per game
  to bots that have the attribute, so that a game depends only on the match's seed and its
  number, whatever process plays it; ``reset()`` alone keeps the random numbers going, as
  Pentobi's ``clear_board`` does.
- ``seconds`` (the argument of ``choose`` and ``analyse``): the time to spend on this move, or
  ``None`` for the bot's own setting. The GTP server passes what the controller's clock allows
  (``time_settings``/``time_left``), the match runner's equal-time mode the other engine's mean
  time per move. Bots that do not search (random, greedy) ignore it.
"""

from __future__ import annotations

import inspect
import random
import re
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from blokus import _arguments
from blokus.board import Board, Move, _moves_of
from blokus.errors import GameOverError, InvalidBotSpecError

if TYPE_CHECKING:
    import numpy.typing as npt

    from blokus import _blokus


#: An evaluator for :class:`MctsBot`: ``fn(observations, masks) -> (priors, values or None)``.
Evaluator = Callable[..., Any]


@dataclass(frozen=True)
class RootMove:
    """What a bot thinks of one move from the position it analysed.

    >>> from blokus import Board
    >>> a = MctsBot(simulations=100, seed=1).analyse(Board("duo"))
    >>> top = a.moves[0]
    >>> top.move == a.best, top.visits > 0, 0 <= top.value <= 1
    (True, True, True)
    """

    move: Move
    #: Simulations (or other work) spent on the move; 0 for bots that do not search.
    visits: int
    #: Estimated win probability, in [0, 1], of the player who makes the move.
    value: float


@dataclass(frozen=True)
class Analysis:
    """A bot's analysis of a position: its choice and the numbers behind it.

    >>> from blokus import Board
    >>> a = GreedyBot(seed=0).analyse(Board("duo"))
    >>> a.best.piece.size, a.value, a.pv == (a.best,)
    (5, (0.5, 0.5), True)
    """

    #: Every move the bot considered, the best first.
    moves: tuple[RootMove, ...]
    #: Estimated win probability of each player (index = player).
    value: tuple[float, ...]
    #: Principal variation: the line of play the bot expects, starting with ``best``.
    pv: tuple[Move, ...]
    #: The move the bot chooses.
    best: Move


@runtime_checkable
class Bot(Protocol):
    """The bots' protocol (``isinstance(x, Bot)`` checks that the methods are there).

    >>> isinstance(RandomBot(), Bot), isinstance(object(), Bot)
    (True, False)
    >>> class FirstMoveBot:
    ...     name = "first"
    ...     def choose(self, board, seconds=None):
    ...         return next(iter(board.legal_moves))
    ...     def analyse(self, board, seconds=None):
    ...         best = self.choose(board)
    ...         return Analysis((RootMove(best, 1, 0.5),), (0.5, 0.5), (best,), best)
    ...     def reset(self):
    ...         pass
    >>> isinstance(FirstMoveBot(), Bot)
    True
    """

    @property
    def name(self) -> str:
        """A short name for tables and GTP's ``name`` (``"random"``, ``"greedy"``)."""
        ...

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        """A legal move for the colour to move; the board is left as it is. ``seconds`` is the
        time to spend, ``None`` for the bot's own setting. Raises
        :class:`~blokus.errors.GameOverError` if the game is over.

        >>> from blokus import Board
        >>> b = Board("duo")
        >>> m = GreedyBot(seed=1).choose(b)
        >>> m in b.legal_moves, b.ply
        (True, 0)
        """
        ...

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        """Like :meth:`choose`, with the numbers behind the choice (``best`` is the move
        chosen).

        >>> from blokus import Board
        >>> a = RandomBot(seed=2).analyse(Board("junior"))
        >>> a.best == a.pv[0] == a.moves[0].move, len(a.moves) == len(Board("junior").legal_moves)
        (True, True)
        """
        ...

    def reset(self) -> None:
        """A new game begins: forget what was learnt about the last one.

        >>> from blokus import Board
        >>> bot = MctsBot(simulations=50, seed=1)
        >>> m = bot.choose(Board("duo"))
        >>> bot.reset()
        >>> bot.choose(Board("duo")) in Board("duo").legal_moves
        True
        """
        ...


def _check_playing(board: Board) -> None:
    if board.is_game_over():
        raise GameOverError(
            f"the game is over ({board.variant.id}, {board.ply} moves: {board.result()}); no move to choose"
        )


def _neutral(board: Board) -> tuple[float, ...]:
    """The win probabilities of a bot that does not evaluate: all players alike."""
    n = board.variant.num_players
    return (1.0 / n,) * n


class RandomBot:
    """Uniformly random among the legal moves; the same moves for the same seed.

    >>> from blokus import Board
    >>> b = Board("classic")
    >>> str(RandomBot(seed=7).choose(b)) == str(RandomBot(seed=7).choose(b))
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    @property
    def seed(self) -> int | None:
        """The seed the random numbers started from; assigning one restarts them."""
        return self._seed

    @seed.setter
    def seed(self, seed: int | None) -> None:
        self._seed = _valid_seed(seed)
        self._rng = random.Random(seed)

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        """A legal move drawn uniformly (without listing the moves).

        >>> from blokus import Board
        >>> RandomBot(seed=5).choose(Board("duo")) == RandomBot(seed=5).choose(Board("duo"))
        True
        """
        _check_playing(board)
        id = board._core.sample_move(self._rng.getrandbits(63))
        assert id is not None
        return _moves_of(board.variant)[id]

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        """The choice, with every other legal move beside it; no visits, even values.

        >>> from blokus import Board
        >>> a = RandomBot(seed=5).analyse(Board("duo"))
        >>> a.value, a.moves[0].visits
        ((0.5, 0.5), 0)
        """
        best = self.choose(board, seconds)
        value = _neutral(board)
        mover = value[0]
        others = [RootMove(m, 0, mover) for m in board.legal_moves if m != best]
        return Analysis((RootMove(best, 0, mover), *others), value, (best,), best)

    def reset(self) -> None:
        """Nothing to forget: the random numbers go on (assign :attr:`seed` to restart them).

        >>> bot = RandomBot(seed=5)
        >>> bot.reset()
        >>> bot.seed
        5
        """

    def __repr__(self) -> str:
        return f"RandomBot(seed={self._seed!r})"


class GreedyBot:
    """The largest piece that can be placed, the best placed of them by a simple positional
    score, and uniformly at random among equals; the same moves for the same seed.

    The score (two of the features the search's priors use, see ``Features`` in the Rust
    crate): on flat boards, the new attach cells the move opens for its colour plus
    the usable attach cells of opponents it covers; in Blokus 3D, the columns the move newly
    tops plus the opponents' top cubes it covers. (The ``greedy`` policy of
    :func:`blokus.selfplay` plays the largest piece without the score.)

    >>> from blokus import Board
    >>> GreedyBot(seed=3).choose(Board("junior")).piece.size
    5
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._sizes: tuple[_blokus.TablesCore, npt.NDArray[np.int64]] | None = None

    @property
    def seed(self) -> int | None:
        """The seed the random numbers started from; assigning one restarts them."""
        return self._seed

    @seed.setter
    def seed(self, seed: int | None) -> None:
        self._seed = _valid_seed(seed)
        self._rng = random.Random(seed)

    def _largest(self, board: Board) -> npt.NDArray[np.uint32]:
        """The legal placement ids of the largest piece that has one."""
        tables = board.variant._tables
        if self._sizes is None or self._sizes[0] is not tables:
            v = board.variant
            piece_size = [p.size for p in v.pieces]
            sizes = np.array([piece_size[tables.placement_piece(i)] for i in range(v.num_placements)], dtype=np.int64)
            self._sizes = (tables, sizes)
        ids = board.legal_moves.ids()
        sizes = self._sizes[1][ids]
        result: npt.NDArray[np.uint32] = ids[sizes == sizes.max()]
        return result

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        """A move of the largest piece that fits, the best by the positional score.

        >>> from blokus import Board
        >>> b = Board("duo", ["e10,d11,e11,f11,e12"])
        >>> GreedyBot(seed=1).choose(b).piece.size
        5
        """
        _check_playing(board)
        ids = [int(i) for i in self._largest(board)]
        features = board._core.features(ids)
        scores = (features[:, 1] + features[:, 2]).tolist()
        best = max(scores)
        top = [i for i, s in zip(ids, scores) if s == best]
        return _moves_of(board.variant)[top[self._rng.randrange(len(top))]]

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        """The choice first, then every other legal move, larger pieces first; no visits, even values.

        >>> from blokus import Board
        >>> a = GreedyBot(seed=1).analyse(Board("duo"))
        >>> a.moves[0].move == a.best, [m.move.piece.size for m in a.moves[:3]], a.moves[-1].move.piece.size
        (True, [5, 5, 5], 1)
        """
        best = self.choose(board, seconds)
        value = _neutral(board)
        mover = value[0]
        moves = sorted(board.legal_moves, key=lambda m: (m != best, -m.piece.size))
        return Analysis(tuple(RootMove(m, 0, mover) for m in moves), value, (best,), best)

    def reset(self) -> None:
        """Nothing to forget: the random numbers go on (assign :attr:`seed` to restart them).

        >>> bot = GreedyBot(seed=1)
        >>> bot.reset()
        >>> bot.seed
        1
        """

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self._seed!r})"


def _between(low: float, high: float) -> Callable[[Any, str], float]:
    return lambda value, name: _arguments.real(value, name, low, high)


def _each(read: Callable[[Any, str], float]) -> Callable[[Any, str], list[float]]:
    return lambda values, name: [read(x, f"{name}[{i}]") for i, x in enumerate(values)]


def _by_piece(read: Callable[[Any, str], float]) -> Callable[[Any, str], dict[str, float]]:
    return lambda values, name: {str(k): read(x, f"{name}[{k!r}]") for k, x in dict(values).items()}


def _count(low: int) -> Callable[[Any, str], int]:
    return lambda value, name: _arguments.in_range(value, name, low, 2**32 - 1)


#: The search's tuning options, each with how its value is read (checked, never cast). The
#: bounds are wide (the tuned values sit well inside them) but keep every number meaningful:
#: an exploration of 1e308 or a playout weight of 1e300 is refused when the bot is made, not
#: when it first searches. Together the playouts' weights must also keep the variant's pieces
#: within a spread the playouts can draw from (checked when the bot meets the variant).
_TUNING: dict[str, Callable[[Any, str], Any]] = {
    "exploration": _between(0, 100),
    "first_play_reduction": _between(-1, 1),
    "rave_equivalence": _between(0, 1e9),
    "expand_after": _count(0),
    "max_children": _count(1),
    "first_children": _count(0),
    "widening": _between(0, 1e6),
    "prior_weights": _each(_between(-100, 100)),
    "piece_weights": _by_piece(_between(-100, 100)),
    "playout_piece_weights": _by_piece(_between(-12, 12)),
    "size_bias": _between(-3, 3),
    "margin_weight": _between(0, 1),
    "max_nodes": _count(1),
    "tournament": lambda v, name: _arguments.in_range(v, name, 1, 255),
    "local": _arguments.flag,
    "replies": _arguments.flag,
}
#: The options that take several numbers (a spec gives options of one number).
_LISTED = ("prior_weights", "piece_weights", "playout_piece_weights")


class MctsBot:
    """Monte Carlo tree search in Rust: PUCT over a tree shared by ``threads`` threads (the GIL
    released), priors from cheap move features, values from playouts biased toward large
    pieces (and on flat boards toward answers to the last moves), one value per player (teams
    and ``classic_3``'s shared colour included), and the subtree of the moves played kept from
    one move to the next. Plays every variant.

    The budget per move is ``seconds`` or ``simulations``, whichever ends first (one second if
    neither is given); a ``seconds`` passed to :meth:`choose` (the match runner's equal time, a
    GTP clock) takes the place of the bot's own. One thread with a seed always plays the same
    moves; ``seed=None`` draws one. With ``pace`` (0 to 1; 0, the default, spends the budget
    on every move alike) the early moves get more of the time and the late ones less, a
    little under the budget each over a game (:meth:`seconds_for`; at equal time against Pentobi 0.7 won in
    Duo and lost in Blokus Two-Player, ``docs/STRENGTH.md``): ``MctsBot(seconds=0.1, pace=0.7)``.

    >>> from blokus import Board
    >>> bot = MctsBot(simulations=300, seed=1)
    >>> a = bot.analyse(Board("duo"))
    >>> a.best in Board("duo").legal_moves and a.moves[0].move == a.best
    True
    >>> sum(m.visits for m in a.moves)
    300

    **Evaluators** (what AlphaZero-style training needs): with ``evaluator=fn``, the search
    gathers up to ``batch_size`` leaves (spread over the tree by counting the simulations under
    way as losses) and calls ``fn(observations, masks)`` once for them, taking the GIL only for
    the call. ``observations`` is uint8 ``(batch, colours, rows, cols)`` (``(batch, colours,
    levels, rows, cols)`` in Blokus 3D) from each leaf's mover's point of view, as
    :class:`blokus.rl.BatchEnv` draws them; ``masks`` is bool ``(batch, placements)``, the legal
    moves. ``fn`` returns ``(priors, values)``: priors ``(batch, placements)`` (only the legal
    moves' are used, normalised; all zero: alike) and values ``(batch, players)``, each
    player's win probability, or ``None`` to have a playout value each leaf. With
    ``evaluator_boards=True``, ``fn(observations, masks, boards)`` also gets each leaf as a
    :class:`~blokus.Board` (slow, for tests and experiments); with ``evaluator_colors=True``,
    ``fn(observations, masks, colors)`` gets each leaf's colour to move, int32 ``(batch,)``
    (what a network whose values are relative to the mover needs to give them back per player).
    With evaluators the search runs on one thread; :func:`analyse_together` searches many
    boards at once, one evaluator call serving the leaves of them all.

    >>> import numpy as np
    >>> def alike(observations, masks, colors):
    ...     return np.zeros(masks.shape, np.float32), np.full((len(colors), 2), 0.5, np.float32)
    >>> a = MctsBot(simulations=64, seed=1, evaluator=alike, evaluator_colors=True).analyse(Board("duo"))
    >>> sum(m.visits for m in a.moves)
    64

    The rest of the options tune the search (see ``SearchConfig`` in the Rust crate):
    ``exploration``, ``first_play_reduction``, ``rave_equivalence``, ``expand_after``, ``max_children``
    (the most moves a node keeps, those of the highest priors), ``first_children`` and ``widening``
    (progressive widening: a node considers its best ``first_children`` kept moves at first, and its
    best ``widening * sqrt(n)`` once ``n`` simulations have gone through it, if that is more;
    ``first_children=0`` considers them all at once: ``MctsBot(seconds=0.1, max_children=64,
    first_children=16, widening=1)``),
    ``prior_weights`` (one weight per move feature), ``piece_weights`` (piece name -> weight in
    the prior), ``size_bias``, ``playout_piece_weights`` and ``local`` (of the playouts: on flat
    boards, whether a move covering the cells the other players' last moves opened is preferred),
    ``replies`` (flat boards, on by default: whether the playouts play the last good reply to the
    move just made, learned from the search's own playouts; ``MctsBot(seconds=0.1, replies=False)``
    searches without them),
    ``margin_weight`` and ``max_nodes``. Each is checked when the bot is made, within wide bounds
    (``exploration`` 0 to 100, ``size_bias`` -3 to 3, ``playout_piece_weights`` -12 to 12,
    ``margin_weight`` 0 to 1, ...; the error names the option and its bounds); the playouts'
    weights together must also keep a variant's pieces within a spread the playouts can draw
    from, which is checked when the bot first meets the variant.
    """

    name = "mcts"
    #: The tuning options a bot spec can give (those of one number):
    #: ``mcts:seconds=0.1,max_children=24``.
    spec_tuning: ClassVar[tuple[str, ...]] = tuple(k for k in _TUNING if k not in _LISTED)

    def __init__(
        self,
        seconds: float | None = None,
        simulations: int | None = None,
        threads: int = 1,
        seed: int | None = None,
        evaluator: Evaluator | None = None,
        batch_size: int = 8,
        evaluator_boards: bool = False,
        evaluator_colors: bool = False,
        pace: float = 0.0,
        **tuning: Any,
    ) -> None:
        if seconds is not None:
            seconds = _seconds(seconds)
        self.pace = _between(0, 1)(pace, "pace")
        if simulations is not None:
            simulations = _arguments.in_range(simulations, "simulations", 1, _arguments.MAX_U64)
        threads = _arguments.in_range(threads, "threads", 1, _arguments.MAX_THREADS)
        unknown = set(tuning) - set(_TUNING)
        if unknown:
            raise ValueError(f"unknown option {sorted(unknown)[0]!r} (options: {', '.join(_TUNING)})")
        if evaluator is not None and not callable(evaluator):
            raise TypeError(f"the evaluator must be callable, not {type(evaluator).__name__}")
        batch_size = _arguments.in_range(batch_size, "batch_size", 1, 4096)
        self.evaluator = evaluator
        self.batch_size = batch_size
        self.evaluator_boards = bool(evaluator_boards)
        self.evaluator_colors = bool(evaluator_colors)
        if self.evaluator_boards and self.evaluator_colors:
            raise ValueError("evaluator_boards and evaluator_colors cannot both be set")
        self.seconds = None if seconds is None else float(seconds)
        self.simulations = simulations
        self.threads = threads
        self._tuning = {k: _TUNING[k](v, k) for k, v in tuning.items()}
        # Piece weights are given by piece name; the search takes them by index.
        self._piece_tuning: dict[str, Any] = {
            k: self._tuning.pop(k) for k in ("piece_weights", "playout_piece_weights") if k in self._tuning
        }
        self._search: tuple[_blokus.TablesCore, _blokus.SearchCore] | None = None
        self.seed = seed

    @property
    def seed(self) -> int | None:
        """The seed of the search's random numbers; assigning one starts the search afresh."""
        return self._seed

    @seed.setter
    def seed(self, seed: int | None) -> None:
        self._seed = _valid_seed(seed)
        self._search = None

    def _core(self, board: Board) -> _blokus.SearchCore:
        from blokus import _blokus

        tables = board.variant._tables
        if self._search is None or self._search[0] is not tables:
            seed = self._seed if self._seed is not None else random.SystemRandom().randrange(2**63)
            options: dict[str, object] = dict(self._tuning)
            for key, by_name in self._piece_tuning.items():
                unknown = set(by_name) - {p.name for p in board.variant.pieces}
                if unknown:
                    raise ValueError(f"{key}: no piece {sorted(unknown)[0]!r} in {board.variant.id}")
                options[key] = [float(by_name.get(p.name, 0.0)) for p in board.variant.pieces]
            core = _blokus.SearchCore(tables, threads=self.threads, seed=seed, options=options)
            self._search = (tables, core)
            _moves_of(board.variant)  # made once per variant: here, inside the first move's budget
        return self._search[1]

    def _budget(self, seconds: float | None, board: Board) -> tuple[int | None, float | None]:
        if seconds is None and self.seconds is None and self.simulations is None:
            return None, 1.0
        return self.simulations, self.seconds_for(board, seconds)

    def seconds_for(self, board: Board, seconds: float | None = None) -> float | None:
        """The time the bot gives the move at ``board``: ``seconds`` (else its own) scaled by
        ``pace``; ``None`` when only ``simulations`` bound the search.

        With ``pace=p``, a colour's first move gets ``1 + p`` times the budget, the move by
        which it has placed a third of its pieces (its 8th in Duo) the budget itself, and later
        moves less, along the same line, down to a tenth of it. The early moves, which shape
        the game, get the time that the late ones, with few moves to choose from, do not need;
        over a game the moves take a little under the budget each (0.8-0.9 of it in Duo).

        >>> from blokus import Board
        >>> bot = MctsBot(seconds=0.1, pace=0.5)
        >>> round(bot.seconds_for(Board("duo")), 6), bot.seconds_for(Board("duo"), 1.0)
        (0.15, 1.5)
        >>> MctsBot(seconds=0.1).seconds_for(Board("duo"))
        0.1
        """
        if seconds is None:
            if self.seconds is None:
                return None
            seconds = self.seconds
        seconds = _seconds(seconds)
        if not self.pace or board.turn is None:
            return seconds
        placed = 1 - len(board.pieces_left(board.turn)) / sum(p.copies for p in board.variant.pieces)
        return seconds * max(PACE_FLOOR, 1 + self.pace * (1 - placed / PACE_MIDDLE))

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        """Searches the position (``seconds``, else the bot's own limits) and returns the root's moves by visits.

        >>> from blokus import Board
        >>> a = MctsBot(simulations=200, seed=1).analyse(Board("duo"))
        >>> sum(m.visits for m in a.moves) >= 200, a.best in Board("duo").legal_moves
        (True, True)
        """
        _check_playing(board)
        asked = time.perf_counter()
        simulations, budget = self._budget(seconds, board)
        core = self._core(board)
        if budget is not None:
            # The time counts from the call: making the search (a variant's first move) is in it.
            budget = max(budget - (time.perf_counter() - asked), 0.0)
        if self.evaluator is None:
            moves, value, pv, _, _, _ = core.run(board._core, simulations, budget)
        else:
            evaluator = self.evaluator

            def evaluate(observations: Any, masks: Any, paths: list[list[int]], colors: Any) -> Any:
                if self.evaluator_colors:
                    return evaluator(observations, masks, colors)
                if not self.evaluator_boards:
                    return evaluator(observations, masks)
                boards = []
                for path in paths:
                    leaf = board.copy()
                    for id in path:
                        leaf.push(id)
                    boards.append(leaf)
                return evaluator(observations, masks, boards)

            moves, value, pv, _, _, _ = core.run_evaluated(board._core, evaluate, self.batch_size, simulations, budget)
        return _analysis(board, moves, value, pv)

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        """The most visited move of :meth:`analyse`.

        >>> from blokus import Board
        >>> b = Board("duo")
        >>> MctsBot(simulations=100, seed=3).choose(b) == MctsBot(simulations=100, seed=3).choose(b)
        True
        """
        return self.analyse(board, seconds).best

    def reset(self) -> None:
        """A new game: the search forgets its tree.

        >>> bot = MctsBot(simulations=50, seed=1)
        >>> bot.reset()
        >>> bot.seed
        1
        """
        if self._search is not None:
            self._search[1].clear()

    def __repr__(self) -> str:
        options = [
            f"{k}={v!r}"
            for k, v in [("seconds", self.seconds), ("simulations", self.simulations), ("pace", self.pace or None)]
            if v is not None
        ]
        options += [f"threads={self.threads}", f"seed={self._seed!r}"]
        tuning: dict[str, Any] = {**self._tuning, **self._piece_tuning}
        options += [f"{k}={v!r}" for k, v in tuning.items()]
        return f"MctsBot({', '.join(options)})"


def _analysis(board: Board, moves: list[tuple[int, int, float, float]], value: list[float], pv: list[int]) -> Analysis:
    """The search core's analysis of ``board`` as an :class:`Analysis`."""
    table = _moves_of(board.variant)
    player = board.player
    assert player is not None
    # An untried move is shown with the position's value for its player.
    roots = tuple(RootMove(table[i], n, v if n > 0 else value[player]) for i, n, v, _ in moves)
    return Analysis(roots, tuple(value), tuple(table[i] for i in pv), roots[0].move)


def analyse_together(bots: Sequence[MctsBot], boards: Sequence[Board], evaluator: Evaluator) -> list[Analysis]:
    """Each board searched by its bot, all at once, with ``evaluator`` called on the leaves of
    every search together: the searches run on threads of their own, and once every search
    still running has gathered its leaves (up to the bots' ``batch_size`` each), one call of
    ``evaluator(observations, masks, colors, searches)`` serves them all. The arguments are
    those an :class:`MctsBot` evaluator gets with ``evaluator_colors=True``, plus ``searches``,
    int64 ``(batch,)``: the index in ``bots`` of each leaf's search. It returns ``(priors,
    values)`` as there. What many games in flight need (self-play), with no thread of Python's
    in the way. The bots' own evaluators are not used; their budgets and batch sizes must be
    the same. A search's result depends on its bot's seed and the evaluator's answers only,
    not on which searches share the calls.

    >>> import numpy as np
    >>> from blokus import Board
    >>> def alike(observations, masks, colors, searches):
    ...     return np.zeros(masks.shape, np.float32), np.full((len(searches), 2), 0.5, np.float32)
    >>> bots = [MctsBot(simulations=32, seed=k) for k in range(3)]
    >>> boards = [Board("duo") for _ in bots]
    >>> [sum(m.visits for m in a.moves) for a in analyse_together(bots, boards, alike)]
    [32, 32, 32]
    """
    if len(bots) != len(boards):
        raise ValueError(f"{len(bots)} bots for {len(boards)} boards: one bot a board")
    if not callable(evaluator):
        raise TypeError(f"the evaluator must be callable, not {type(evaluator).__name__}")
    if not bots:
        return []
    for k, (bot, board) in enumerate(zip(bots, boards)):
        if not isinstance(bot, MctsBot):
            raise TypeError(f"bot {k} is a {type(bot).__name__}, not an MctsBot")
        if (bot.simulations, bot.seconds, bot.batch_size) != (bots[0].simulations, bots[0].seconds, bots[0].batch_size):
            raise ValueError(f"bot {k}'s simulations, seconds or batch_size differ from bot 0's")
        if bot.pace:
            raise ValueError(f"bot {k} has a pace: searches together share one budget, not paced by position")
        _check_playing(board)
    from blokus import _blokus

    asked = time.perf_counter()
    simulations, budget = bots[0]._budget(None, boards[0])  # unpaced: the same for every board
    cores = [bot._core(board) for bot, board in zip(bots, boards)]
    if budget is not None:
        # As in MctsBot.analyse, the time counts from the call.
        budget = max(budget - (time.perf_counter() - asked), 0.0)

    def evaluate(observations: Any, masks: Any, paths: list[list[int]], colors: Any, searches: Any) -> Any:
        return evaluator(observations, masks, colors, searches)

    infos = _blokus.run_evaluated_together(
        cores, [b._core for b in boards], evaluate, bots[0].batch_size, simulations, budget
    )
    return [_analysis(board, moves, value, pv) for board, (moves, value, pv, _, _, _) in zip(boards, infos)]


def playout_values(board: Board, playouts: int = 64, seed: int = 0) -> tuple[float, ...]:
    """Each player's mean value (1 for a sole win, a share of a tie, a little for the score
    margin, as the search values games) over ``playouts`` games played on from ``board`` by the
    search's playout policy, in Rust: a Monte Carlo estimate of the position.

    >>> from blokus import Board
    >>> values = playout_values(Board("duo"), 100)
    >>> len(values) == 2 and abs(sum(values) - 1) < 0.01
    True
    """
    if not isinstance(playouts, int) or not 0 < playouts <= 10**7:
        raise ValueError(f"playouts must be a whole number from 1 to 10**7, not {playouts!r}")
    return tuple(board._core.playout_values(playouts, _valid_seed(seed) or 0))


def _valid_seed(seed: int | None) -> int | None:
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _arguments.MAX_U64
    ):
        raise InvalidBotSpecError(f"a seed is a whole number from 0 to 2**64 - 1, not {_arguments.shown(seed)}")
    return seed


#: The most seconds a bot may be given for a move (about 11 days), and the least a clock gives
#: a move however little time is left (what the GTP server asks of its bot, what GtpBot sends an
#: engine, and what the match runner gives at equal time): a search needs a few milliseconds.
MAX_SECONDS = 1e6
MIN_SECONDS = 0.01
#: ``MctsBot(pace=...)``: the share of its pieces a colour has placed when its moves get the
#: plain budget (7 of Duo's 21), and the least share of the budget a late move gets.
PACE_MIDDLE = 0.33
PACE_FLOOR = 0.1


def _seconds(seconds: object) -> float:
    """Seconds for a move: a finite number above 0, at most :data:`MAX_SECONDS`."""
    return _arguments.number(seconds, "seconds", 0, MAX_SECONDS)


def az(
    checkpoint: str, simulations: int | None = None, seconds: float | None = None, seed: int | None = 0, leaves: int = 2
) -> Bot:
    """The search guided by a network trained by :mod:`blokus.rl.alphazero`
    (:class:`blokus.rl.alphazero.AzBot`; the bot spec ``az:checkpoint=DIR,simulations=64``).
    Needs JAX (``pip install 'blokus[learn]'``).

    >>> az("/nonexistent")
    Traceback (most recent call last):
    ...
    blokus.errors.InvalidArgumentError: az: no network in /nonexistent (network.json and params.npz are missing)
    """
    try:
        import jax  # noqa: F401
    except ImportError:
        raise InvalidBotSpecError("bot 'az' needs JAX: pip install 'blokus[learn]'") from None
    from blokus.rl.alphazero import AzBot

    return AzBot(checkpoint, simulations=simulations, seconds=seconds, seed=seed, leaves=leaves)


#: The built-in bots by the name a spec gives them (``greedy:seed=3``).
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot, "az": az}


_BUILTIN_SPEC = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?::\S*)?")


def is_gtp_spec(spec: str) -> bool:
    """Whether a spec names a GTP engine rather than a built-in bot: it starts with ``gtp:``,
    or it is not a bot name with options (it has a space, a path, a dash: a command line).

    >>> is_gtp_spec("greedy:seed=3"), is_gtp_spec("pentobi-gtp --nobook"), is_gtp_spec("gtp:./mybot")
    (False, True, True)
    """
    text = spec.strip()
    return text.startswith("gtp:") or _BUILTIN_SPEC.fullmatch(text) is None


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The bot name and options of a built-in bot's spec (``name[:key=value,...]``).

    >>> parse_spec("mcts:seconds=0.1,threads=2")
    ('mcts', {'seconds': 0.1, 'threads': 2})
    """
    text = spec.strip()
    if is_gtp_spec(text):
        raise InvalidBotSpecError(f"{spec!r} is a GTP command line, not a built-in bot")
    name, _, rest = text.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise InvalidBotSpecError(f"bot spec {spec!r}: an option is key=value, not {item!r}")
        options[key] = _option_value(value)
    return name, options


def gtp_command(spec: str) -> list[str]:
    """The program and arguments of a GTP engine's spec (``gtp:`` prefix optional).

    >>> gtp_command("gtp:pentobi-gtp --nobook --game duo")
    ['pentobi-gtp', '--nobook', '--game', 'duo']
    """
    text = spec.strip()
    if text.startswith("gtp:"):
        text = text[4:]
    try:
        args = shlex.split(text)
    except ValueError as e:
        raise InvalidBotSpecError(f"GTP command line {spec!r}: {e}") from None
    if not args:
        raise InvalidBotSpecError(f"GTP command line {spec!r} names no program")
    return args


def from_spec(spec: str, *, timeout: float | None = 60.0) -> Bot:
    """The bot a spec names: a built-in bot with options (``random``, ``greedy:seed=3``,
    ``mcts:seconds=0.1,threads=2``), or a GTP engine's command line, started now and wrapped
    in a :class:`~blokus.gtp.GtpBot` (``gtp:./mybot``, or any command line with a space, a path
    or a dash in the program name: ``pentobi-gtp --nobook --level 1``). ``timeout`` is the GTP
    engine's time to answer a command. Raises :class:`~blokus.errors.InvalidBotSpecError` for
    a spec that names no bot or gives it an option it does not take.

    >>> from_spec("greedy:seed=3")
    GreedyBot(seed=3)
    >>> from_spec("greedy:depth=2")
    Traceback (most recent call last):
    ...
    blokus.errors.InvalidBotSpecError: bot 'greedy' has no option 'depth' (its options: seed)
    """
    if is_gtp_spec(spec):
        from blokus import gtp

        return gtp.GtpBot(gtp.Engine.popen(gtp_command(spec), timeout=timeout))
    name, options = parse_spec(spec)
    factory = BOTS.get(name)
    if factory is None:
        raise InvalidBotSpecError(
            f"unknown bot {name!r} (built in: {', '.join(BOTS)}; a GTP engine is 'gtp:COMMAND' or a command line)"
        )
    params = inspect.signature(factory).parameters
    named = [k for k, p in params.items() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    takes = [*named, *getattr(factory, "spec_tuning", ())]
    for key in options:
        if key not in takes:
            known = ", ".join(takes) or "none"
            raise InvalidBotSpecError(f"bot {name!r} has no option {key!r} (its options: {known})")
    try:
        return factory(**options)
    except (TypeError, ValueError) as e:  # a bad option value: the bot's own words
        raise InvalidBotSpecError(f"bot spec {spec!r}: {e}") from None


__all__ = [
    "BOTS",
    "Analysis",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "RootMove",
    "analyse_together",
    "from_spec",
    "gtp_command",
    "is_gtp_spec",
    "parse_spec",
    "playout_values",
]
