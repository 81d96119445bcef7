"""AlphaZero on the library's own parts: self-play with the Rust search guided by a network
(JAX), many games in flight so that one network call serves a batch of leaves, a replay
buffer, training, checkpoints and a bot that plays from them (extra ``blokus[learn]``).

Train with ``python -m blokus.rl.alphazero --variant duo --minutes 10 --out runs/duo``; play
with the bot spec ``az:checkpoint=runs/duo,simulations=64`` anywhere a bot spec goes
(``blokus match``, ``blokus gtp --bot``, ``blokus play``, the GUI), or from Python:

>>> import tempfile
>>> from pathlib import Path
>>> from blokus import Board
>>> from blokus.rl.alphazero.network import Encoding, NetConfig, init, save
>>> with tempfile.TemporaryDirectory() as d:
...     e = Encoding(Board("duo").variant)
...     save(Path(d), e, NetConfig(8, 1), init(e, NetConfig(8, 1), 0), {})
...     bot = AzBot(d, simulations=16, seed=1)
...     bot.choose(Board("duo")) in Board("duo").legal_moves
True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from blokus import _arguments
from blokus.board import Board, Move
from blokus.bots import Analysis, _check_playing, _seconds
from blokus.errors import InvalidArgumentError

if TYPE_CHECKING:
    from .selfplay import GuidedSearch

__all__ = ["AzBot"]

#: The simulations a move of an :class:`AzBot` given neither simulations nor a time.
DEFAULT_SIMULATIONS = 64


class AzBot:
    """The search guided by a trained network: the checkpoint folder a training run wrote
    (``network.json`` and ``params.npz``), ``simulations`` a move or ``seconds``, whichever
    ends first (a ``seconds`` given to :meth:`choose`, as the match runner and GTP clocks do,
    takes the place of the bot's own; with a time and no ``simulations``, the time alone
    bounds the search, and with neither, 64 simulations a move), the search gathering ``leaves`` leaves a network call
    (each call then serves more simulations, but the tree grows in fewer steps: at 64
    simulations a move, 2 leaves play about as well as 1 in half the time, and 8 clearly worse).
    Plays the variant it was trained for; the same moves for the same seed. Loading compiles
    the network (a second or so), so that no move's budget goes to the compiler.

    >>> AzBot("/nonexistent")
    Traceback (most recent call last):
    ...
    blokus.errors.InvalidArgumentError: az: no network in /nonexistent (network.json and params.npz are missing)
    """

    name = "az"

    def __init__(
        self,
        checkpoint: str | Path,
        simulations: int | None = None,
        seconds: float | None = None,
        seed: int | None = 0,
        leaves: int = 2,
    ) -> None:
        from . import network

        self.simulations = (
            None if simulations is None else _arguments.in_range(simulations, "simulations", 1, _arguments.MAX_U64)
        )
        self.seconds = None if seconds is None else _seconds(seconds)
        self.leaves = _arguments.in_range(leaves, "leaves", 1, 4096)
        self.seed = 0 if seed is None else _arguments.in_range(seed, "seed", 0, _arguments.MAX_U64)
        self.checkpoint = Path(str(checkpoint))
        try:
            v, config, params, extra = network.load(self.checkpoint)
            self.max_children = int(extra.get("train", {}).get("max_children", 32))
        except (FileNotFoundError, ValueError, KeyError, TypeError) as e:
            raise InvalidArgumentError(f"az: {e}") from None
        self.variant = v
        self.encoding = network.Encoding(v)
        self._model = network.Model(self.encoding, config)
        self._params = params
        self._search: GuidedSearch | None = None
        self._warm_up()

    def _warm_up(self) -> None:
        """Has JAX compile the network now, on the empty board, so that the first move's
        budget goes to the search and not to the compiler."""
        import numpy as np

        from blokus.rl import observation

        board = Board(self.variant)
        mask = np.zeros((1, self.variant.num_placements), bool)
        mask[0, board.legal_moves.ids()] = True
        self._model.predict(self._params, observation(board)[None].astype(np.uint8), mask)

    def _guided(self, board: Board, seconds: float | None) -> GuidedSearch:
        from .selfplay import GuidedSearch

        if board.variant != self.variant:
            raise InvalidArgumentError(
                f"az: the network of {self.checkpoint} plays {self.variant.id}, not {board.variant.id}"
            )
        budget = seconds if seconds is not None else self.seconds
        simulations = self.simulations
        if simulations is None and budget is None:
            simulations = DEFAULT_SIMULATIONS
        search = self._search
        if search is None or search.bot.seconds != budget or search.bot.simulations != simulations:
            self._search = search = GuidedSearch(
                self.encoding,
                lambda obs, masks: self._model.predict(self._params, obs, masks),
                simulations,
                self.seed,
                leaves=self.leaves,
                seconds=budget,
                max_children=self.max_children,
            )
        return search

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        """The guided search's analysis of the position (see :meth:`blokus.bots.MctsBot.analyse`).

        >>> import tempfile
        >>> from blokus.rl.alphazero.network import Encoding, NetConfig, init, save
        >>> with tempfile.TemporaryDirectory() as d:
        ...     e = Encoding(Board("duo").variant)
        ...     save(Path(d), e, NetConfig(8, 1), init(e, NetConfig(8, 1), 0), {})
        ...     a = AzBot(d, simulations=16).analyse(Board("duo"))
        >>> sum(m.visits for m in a.moves)
        16
        """
        _check_playing(board)
        return self._guided(board, seconds).analyse(board)  # type: ignore[no-any-return]

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        """The most visited move of :meth:`analyse`.

        >>> import tempfile
        >>> from blokus.rl.alphazero.network import Encoding, NetConfig, init, save
        >>> with tempfile.TemporaryDirectory() as d:
        ...     e = Encoding(Board("duo").variant)
        ...     save(Path(d), e, NetConfig(8, 1), init(e, NetConfig(8, 1), 0), {})
        ...     AzBot(d, simulations=8).choose(Board("duo")) in Board("duo").legal_moves
        True
        """
        return self.analyse(board, seconds).best

    def reset(self) -> None:
        """A new game (the search starts every move from a fresh tree, so nothing to forget).

        >>> AzBot.reset.__name__
        'reset'
        """

    def __repr__(self) -> str:
        return f"AzBot(checkpoint={str(self.checkpoint)!r}, simulations={self.simulations}, seed={self.seed})"
