"""Reinforcement learning: a batch of games stepped in Rust into numpy arrays (pgx-style), and
adapters for PettingZoo (:mod:`blokus.rl.pettingzoo`) and Gymnasium (:mod:`blokus.rl.gymnasium`).

Actions are placement ids (``Variant.num_placements`` of them). Observations are drawn from the
point of view of the colour to move: plane ``k`` holds the cells of colour ``(mover + k) mod
colours``, on the board's grid (top row first; off-board points are 0). A colour with no legal
placement is skipped by the rules, so there is no pass action: an unfinished game always has a
legal one. The guide's page "Observations, rewards and actions" has the shapes of every variant.

>>> import numpy as np
>>> env = BatchEnv("duo", batch_size=8, threads=1)
>>> rng = np.random.default_rng(0)
>>> total = np.zeros((8, 2))
>>> while not env.terminated.all():
...     env.step([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.legal_action_mask])
...     total += env.rewards
>>> total[:, 0].tolist(), bool((total.sum(axis=1) == 0).all())
([-1.0, 1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 1.0], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import numpy as np

from blokus import _arguments, _blokus
from blokus.board import Board
from blokus.variant import Variant, VariantLike, variant

if TYPE_CHECKING:
    import numpy.typing as npt

_A = TypeVar("_A", bound=np.generic)

__all__ = ["ILLEGAL_ACTIONS", "BatchEnv", "observation"]

#: What :class:`BatchEnv` can do with an illegal action: raise, or lose the game (pgx's rule).
ILLEGAL_ACTIONS = ("raise", "lose")


class BatchEnv:
    """``batch_size`` games of one variant stepped together in Rust (GIL released).

    The arrays are allocated once and rewritten in place by :meth:`reset` and :meth:`step`:

    - ``observation``: uint8 ``(batch, colours, rows, cols)`` (``(batch, colours, levels, rows, cols)`` in 3D)
    - ``legal_action_mask``: bool ``(batch, placements)``
    - ``rewards``: float32 ``(batch, players)``; on the step that ends a game, +1 for a sole
      winner, 0 for tied winners, -1 for the others; 0 otherwise
    - ``current_player``, ``current_color``: int32 ``(batch,)``, -1 once a game is over
    - ``terminated``: bool ``(batch,)``; ``truncated``: always False (games end by themselves)

    ``illegal_action`` says what an illegal placement does in an unfinished game: ``"raise"``
    (the default) raises :class:`~blokus.errors.IllegalMoveError` and no game changes;
    ``"lose"`` follows pgx: that game ends at once as a loss for the player who chose the
    action (-1 for it, +(players - 1) for each other player: +1 in a two-player game, pgx's
    formula) while the other games step normally. A game lost so keeps its board, and reads
    as finished (``terminated``, no legal action, ``current_player`` -1). An action that is no
    placement id at all (negative, or ``num_actions`` or more) raises either way.

    A finished game ignores its action until it is reset (``reset(mask)`` resets some games).
    The arrays are read-only views (the environment updates a mask row by unsetting the ids it
    set before, so it must be the only writer); copy one to change it.

    Actions are integers (any integer dtype); an array of floats, bools or strings, or of the
    wrong shape, is refused, never cast. The sizes are checked before anything is allocated (a
    batch that does not fit in memory is a ``MemoryError``). One thread at a time: a thread that
    steps or resets while another does gets :class:`~blokus.errors.BusyError`, and the arrays
    change under a reader while a step runs.

    >>> env = BatchEnv("duo", batch_size=4, threads=1)
    >>> env.observation.shape, env.legal_action_mask.shape, env.rewards.shape
    ((4, 2, 14, 14), (4, 13729), (4, 2))
    >>> env.current_player.tolist(), int(env.legal_action_mask[0].sum())
    ([0, 0, 0, 0], 414)
    >>> env.observation.flags.writeable
    False
    """

    def __init__(
        self,
        variant_: VariantLike = "duo",
        batch_size: int = 1024,
        threads: int | None = None,
        illegal_action: str = "raise",
    ) -> None:
        self.variant: Variant = variant(variant_)
        batch_size = _arguments.in_range(batch_size, "batch_size", 1, 2**63 - 1)
        n_threads = _arguments.threads(threads)
        #: What an illegal action does: ``"raise"`` or ``"lose"``.
        self.illegal_action: str = _arguments.choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)
        self._core = _blokus.BatchCore(
            self.variant._tables, batch_size, min(n_threads, batch_size), self.illegal_action
        )
        core = self._core
        self.observation: npt.NDArray[np.uint8] = _read_only(core.observation)
        self.legal_action_mask: npt.NDArray[np.bool_] = _read_only(core.legal_action_mask)
        self.rewards: npt.NDArray[np.float32] = _read_only(core.rewards)
        self.current_player: npt.NDArray[np.int32] = _read_only(core.current_player)
        self.current_color: npt.NDArray[np.int32] = _read_only(core.current_color)
        self.terminated: npt.NDArray[np.bool_] = _read_only(core.terminated)
        self.truncated: npt.NDArray[np.bool_] = _read_only(np.zeros(batch_size, dtype=np.bool_))

    @property
    def batch_size(self) -> int:
        """The number of games stepped together."""
        return len(self._core)

    @property
    def num_actions(self) -> int:
        """The size of the action space: the variant's number of placements."""
        return self.variant.num_placements

    def reset(self, which: npt.ArrayLike | None = None) -> None:
        """Starts every game again, or those where ``which`` (bools, or 0 and 1, one per game)
        is true.

        >>> import numpy as np
        >>> env = BatchEnv("duo", batch_size=2, threads=1)
        >>> env.step([130, 130])
        >>> env.reset([True, False])
        >>> env.current_player.tolist(), [int(m.sum()) for m in env.legal_action_mask]
        ([0, 1], [414, 414])
        """
        self._core.reset(None if which is None else _arguments.flags(which, "which", self.batch_size))

    def step(self, actions: npt.ArrayLike) -> None:
        """Plays one placement id per game. An illegal action in an unfinished game raises
        :class:`~blokus.errors.IllegalMoveError` (its ``game``, ``move``, ``reason``) and no
        game changes, or with ``illegal_action="lose"`` loses that game (see the class).

        >>> from blokus import Board
        >>> env = BatchEnv("duo", batch_size=2, threads=1)
        >>> e10 = Board("duo").parse_move("e10").id
        >>> env.step([e10, e10])
        >>> env.current_player.tolist(), bool(env.legal_action_mask[0, e10])
        ([1, 1], False)
        >>> env.step([e10, e10])
        Traceback (most recent call last):
        ...
        blokus.errors.IllegalMoveError: game 0: action 130 (e10) is not a legal placement: overlap: e10 is already covered

        With ``illegal_action="lose"``, game 0's repeated e10 loses it for Orange (player 1):

        >>> env = BatchEnv("duo", batch_size=2, threads=1, illegal_action="lose")
        >>> env.step([e10, e10])
        >>> env.step([e10, int(np.flatnonzero(env.legal_action_mask[1])[0])])
        >>> env.terminated.tolist(), env.rewards.tolist(), env.current_player.tolist()
        ([True, False], [[1.0, -1.0], [0.0, 0.0]], [-1, 0])
        """
        self._core.step(_arguments.ids(actions, "actions", self.batch_size))


def _read_only(array: npt.NDArray[_A]) -> npt.NDArray[_A]:
    view = array.view()
    view.flags.writeable = False
    return view


def observation(board: Board, color: int | None = None) -> npt.NDArray[np.int8]:
    """The planes of one board from ``color``'s point of view (default: the colour to move), as
    :class:`BatchEnv` draws them: ``(colours, rows, cols)`` int8.

    >>> from blokus import Board
    >>> planes = observation(Board("duo", ["e10"]))
    >>> planes.shape, planes.dtype, int(planes[0].sum()), int(planes[1].sum())
    ((2, 14, 14), dtype('int8'), 0, 1)
    """
    me = board.variant.color(color) if color is not None else (board.turn if board.turn is not None else 0)
    return board._core.observation(me)
