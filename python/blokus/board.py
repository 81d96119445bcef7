"""The game: :class:`Board`, :class:`Move`, the live :class:`LegalMoves` view and :class:`Outcome`.

>>> b = Board("duo")
>>> b.push("e10,d11,e11,f11,e12")
>>> b.turn, len(b.legal_moves), b.peek().piece.name
(1, 414, 'X')
>>> b.pop() == Move.from_text("duo", "e12,e11,e10,d11,f11")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from blokus import _arguments, _blokus
from blokus.errors import (
    InvalidArgumentError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidTypeError,
)
from blokus.variant import Piece, Variant, VariantLike, variant

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: What :meth:`Board.push` and friends accept: a :class:`Move`, move text, or a placement id
#: (any integer, numpy's too, but not a bool).
MoveLike = Union["Move", str, int]


class Move:
    """A placement of one piece: small, immutable, hashable, picklable.

    ``str(move)`` is the canonical Pentobi text (cells sorted by row, then column); ``move.id``
    the dense placement id (the RL action); ``move.piece`` the :class:`Piece`; ``move.cells`` the
    cell names.

    >>> m = Board("duo").parse_move("e12,d11,e11,f11,e10")
    >>> m, m.id, m.piece.name
    (<Move e10,d11,e11,f11,e12 (X, id 11976)>, 11976, 'X')
    >>> m.cells
    ('e10', 'd11', 'e11', 'f11', 'e12')
    """

    __slots__ = ("_id", "_variant")

    def __init__(self, variant: Variant, id: int) -> None:
        if not isinstance(variant, Variant):
            raise InvalidTypeError(f"a move's variant is a Variant, not {type(variant).__name__}", "variant")
        self._variant = variant
        self._id = _checked_id(variant, id)

    @classmethod
    def from_text(cls, variant_: VariantLike, text: str) -> Move:
        """Parses Pentobi move text (any cell order, any case).

        >>> Move.from_text("duo", "E12,d11,e11,f11,e10")
        <Move e10,d11,e11,f11,e12 (X, id 11976)>
        """
        v = variant(variant_)
        return cls(v, v._tables.parse_move(_text(text)))

    @property
    def id(self) -> int:
        """The dense placement id (the RL action), stable within a major version (CHANGELOG.md)."""
        return self._id

    @property
    def variant(self) -> Variant:
        """The variant the move belongs to."""
        return self._variant

    @property
    def piece(self) -> Piece:
        """The piece placed."""
        return self._variant.pieces[self._variant._tables.placement_piece(self._id)]

    @property
    def cells(self) -> tuple[str, ...]:
        """Cell names, in canonical order."""
        return tuple(str(self).split(","))

    def cell_indices(self) -> list[int]:
        """Cell numbers, increasing.

        >>> Move.from_text("duo", "a1,b1").cell_indices()
        [0, 1]
        """
        return self._variant._tables.placement_cells(self._id)

    def __str__(self) -> str:
        return self._variant._tables.move_text(self._id)

    def __repr__(self) -> str:
        return f"<Move {self} ({self.piece.name}, id {self._id})>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._id == other._id and self._variant == other._variant

    def __hash__(self) -> int:
        return hash((self._variant.id, self._id))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (self._variant, self._id))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Move:
        return self  # immutable


def _checked_id(v: Variant, id: object) -> int:
    """A placement id of ``v``: any integer but a bool, in range; else
    :class:`~blokus.errors.InvalidMoveError` (:class:`~blokus.errors.InvalidTypeError` for no
    integer)."""
    n = _arguments.integer(id, "a placement id")
    if not 0 <= n < v._num_placements:
        raise InvalidMoveError(f"no placement {_arguments.shown(n)} in {v.id} (ids are 0..{v._num_placements - 1})")
    return n


def _scoring(scoring: object) -> str | None:
    if scoring is None or (isinstance(scoring, str) and scoring in ("advanced", "basic")):
        return scoring
    raise InvalidArgumentError(f"scoring must be 'advanced' or 'basic', not {_arguments.shown(scoring)}", "scoring")


def _text(text: object) -> str:
    """Move text: a str (a lone surrogate in it is refused by the engine, as text that names no
    placement)."""
    if not isinstance(text, str):
        raise InvalidTypeError(f"move text is a str, not {type(text).__name__}", "text")
    return text


def _moves_of(v: Variant) -> list[Move]:
    """Every placement of `v` as a :class:`Move`, in id order (built once per variant)."""
    moves: list[Move] | None = v._moves
    if moves is None:
        new = object.__new__
        moves = []
        for i in range(v.num_placements):
            m = new(Move)
            m._variant = v
            m._id = i
            moves.append(m)
        v._moves = moves
    return moves


class LegalMoves:
    """The legal moves of a board's colour to move: a live view (it follows the board).

    >>> moves = Board("duo").legal_moves
    >>> len(moves), "e10" in moves, "a1" in moves
    (414, True, False)
    >>> next(iter(moves))
    <Move e10 (1, id 130)>
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        # A game loop lists a hundred moves a turn: they come from the variant's table of
        # every placement, so no Move is built twice.
        return iter(self._board._core.legal_items(_moves_of(self._board.variant)))

    def __len__(self) -> int:
        return self._board._core.count_moves()

    def __bool__(self) -> bool:
        return self._board._core.turn is not None

    def __contains__(self, move: object) -> bool:
        """Whether ``move`` is a legal move here: anything that is no move of this variant (a
        bool, a float, text that names no placement, another variant's move) is not."""
        if isinstance(move, bool):
            return False
        try:
            return self._board.is_legal(move)  # type: ignore[arg-type]  # anything else is refused
        except (InvalidMoveError, InvalidTypeError):
            return False

    def ids(self) -> npt.NDArray[np.uint32]:
        """The legal placement ids as a numpy array.

        >>> Board("duo").legal_moves.ids()[:3]
        array([130, 317, 316], dtype=uint32)
        """
        return self._board._core.legal_ids()

    def __repr__(self) -> str:
        moves = list(self)
        shown = ", ".join(str(m) for m in moves[:5])
        more = f", ... ({len(moves)} moves)" if len(moves) > 5 else ""
        return f"<LegalMoves [{shown}{more}]>"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    >>> b = Board("duo")
    >>> while not b.is_game_over():
    ...     b.push(next(iter(b.legal_moves)))
    >>> o = b.outcome()
    >>> o.winners, o.scores, o.result
    ((0,), (69, 30), 'B+39')
    """

    #: Players with the highest score (several on a tie).
    winners: tuple[int, ...]
    #: Score per player.
    scores: tuple[int, ...]
    #: Points per colour.
    points: tuple[int, ...]
    #: Pentobi's result line.
    result: str


class Board:
    """A Blokus game: the position, whose turn it is, and the moves played.

    A board is mutable, so it is not hashable (as in python-chess): use :meth:`zobrist_hash`
    as the key of a transposition table. It pickles and deep-copies (by its variant, the setup
    it started from and its moves) to an equal board.

    >>> b = Board("duo")
    >>> len(b.legal_moves)
    414
    >>> b.push("e10,d11,e11,f11,e12")
    >>> b.turn, b.variant.colors[b.turn]
    (1, 'Orange')
    >>> Board("duo", ["e10,d11,e11,f11,e12"])
    blokus.Board('duo', moves=['e10,d11,e11,f11,e12'])
    """

    __slots__ = ("_core", "_variant")

    def __init__(self, variant_: VariantLike = "classic", moves: Iterable[MoveLike] = ()) -> None:
        self._variant = variant(variant_)
        self._core = _blokus.BoardCore(self._variant._tables)
        for m in moves:
            self.push(m)

    @property
    def variant(self) -> Variant:
        """The variant being played."""
        return self._variant

    @property
    def turn(self) -> int | None:
        """The colour to move (colours that cannot move are skipped); ``None`` at the end."""
        return self._core.turn

    @property
    def player(self) -> int | None:
        """The player who moves the colour to move (in ``classic_3`` the shared colour rotates)."""
        return self._core.player

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the colour to move: a live view that follows the board."""
        return LegalMoves(self)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, oldest first."""
        return [Move(self._variant, i) for i in self._core.moves()]

    @property
    def ply(self) -> int:
        """Number of moves played."""
        return self._core.ply

    def placements(self) -> list[list[Move]]:
        """The pieces on the board, per colour, in the order they were put down (the setup's,
        then the moves'); each colour's last piece comes last.

        >>> Board("duo", ["e10,d11,e11,f11,e12", "j5"]).placements()[1]
        [<Move j5 (1, id 65)>]
        """
        return [[Move(self._variant, i) for i in ids] for ids in self._core.placements()]

    @property
    def out(self) -> tuple[int, ...]:
        """The colours out of the game: they had no move on a turn and never move again (in
        Blokus 3D, even if room opens later)."""
        return tuple(self._core.out)

    def has_move(self, color: int) -> bool:
        """Whether ``color`` has a legal placement here, its turn or not.

        >>> b = Board("duo")
        >>> b.has_move(0), b.has_move(1)
        (True, True)
        """
        return self._core.has_move(self._variant.color(color))

    def move_colors(self) -> list[int]:
        """The colour that played each move of :attr:`move_stack`.

        >>> Board("classic", ["a20", "t20", "t1"]).move_colors()
        [0, 1, 2]
        """
        return self._core.move_colors()

    def parse_move(self, text: str) -> Move:
        """The move that move text names (it need not be legal here).

        >>> Board("duo").parse_move("F11,e10,e12,d11,e11")
        <Move e10,d11,e11,f11,e12 (X, id 11976)>
        """
        return Move(self._variant, self._variant._tables.parse_move(_text(text)))

    def _id(self, move: MoveLike) -> int:
        return _placement_id(self._variant, move)

    @classmethod
    def from_setup(
        cls,
        variant_: VariantLike,
        pieces: Sequence[Iterable[MoveLike]],
        turn: int = 0,
        out: Iterable[int] = (),
    ) -> Board:
        """A game that starts from pieces put on the board, not played: ``pieces[c]`` are the
        placements of colour ``c`` (its last one decides the bonus for ending on the 1-cell
        piece), ``turn`` the colour to move (or, if it cannot move, the next one that can), and
        ``out`` the colours already out of the game.

        The pieces need not have been placed by the rules, nor in order, but must make a board
        of the game: no overlaps, no more copies of a piece than a colour has, and on flat
        boards no two pieces of a colour sharing an edge, in Blokus 3D nothing empty beneath a
        cube; else :class:`~blokus.errors.InvalidPositionError`. A colour out of the game has no
        legal move, except in Blokus 3D, where a colour that once could not move stays out even
        when room opens later.

        >>> b = Board.from_setup("duo", [["e10,d11,e11,f11,e12"], ["j5"]])
        >>> b.turn, len(b.move_stack)
        (0, 0)
        >>> b = Board.from_setup("3d_tower", [["a1@1,b1@1"], [], ["a1@2,b1@2,b1@3"]], turn=1, out=[1])
        >>> b.turn
        2
        """
        v = variant(variant_)
        turn = _arguments.integer(turn, "turn")
        if not 0 <= turn < v.num_colors:
            raise InvalidPositionError(
                f"{v.id} has no colour {_arguments.shown(turn)} (colours are 0..{v.num_colors - 1})"
            )
        colors = sorted({_arguments.integer(c, "out") for c in out})
        if any(not 0 <= c < v.num_colors for c in colors):
            bad = next(c for c in colors if not 0 <= c < v.num_colors)
            raise InvalidPositionError(
                f"{v.id} has no colour {_arguments.shown(bad)} (colours are 0..{v.num_colors - 1})"
            )
        ids = [[_placement_id(v, m) for m in ms] for ms in pieces]
        return cls._from_core(v, _blokus.BoardCore.from_setup(v._tables, ids, turn, True, colors))

    @classmethod
    def from_bpn(cls, text: str, variant: VariantLike | None = None, moves: Iterable[MoveLike] = ()) -> Board:
        """The board a position string (BPN, see :meth:`bpn`) describes, then ``moves`` played.

        ``variant`` is needed only for variants that are not built in. A string that describes
        no position raises :class:`~blokus.errors.InvalidPositionError`, whose ``position`` is
        the index of the character at fault.

        >>> Board.from_bpn("duo 14/14/14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14 o -").turn
        1
        """
        from blokus import bpn

        board = bpn.read(text, variant)
        for m in moves:
            board.push(m)
        return board

    def bpn(self) -> str:
        """The position as one line (BPN): variant, cells row by row from the top (capitals mark
        each colour's last piece), colour to move, colours out.

        >>> b = Board("duo", ["e10,d11,e11,f11,e12"])
        >>> b.bpn()
        'duo 14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14/14/14 o -'
        """
        from blokus import bpn

        return bpn.write(self)

    @classmethod
    def _from_core(cls, v: Variant, core: _blokus.BoardCore) -> Board:
        b = cls.__new__(cls)
        b._variant = v
        b._core = core
        return b

    def _start(self) -> Board | None:
        """The board the game started from, if it is a setup rather than the empty board."""
        start = self._core.start()
        empty = _blokus.BoardCore(self._variant._tables)
        if start.turn == empty.turn and start.out == empty.out and max(start.cell_colors()) < 0:
            return None
        return Board._from_core(self._variant, start)

    def is_legal(self, move: MoveLike) -> bool:
        """Whether the move is legal here; :class:`~blokus.errors.InvalidMoveError` if it names
        no placement of the variant.

        >>> b = Board("duo")
        >>> b.is_legal("e10"), b.is_legal("a1")
        (True, False)
        """
        return self._core.is_legal(self._id(move))

    def why_illegal(self, move: MoveLike) -> str | None:
        """``None`` if the move is legal, else the rule it breaks, e.g. ``"overlap: e10 is already covered"``.

        >>> b = Board("duo", ["e10"])
        >>> b.why_illegal("e10")
        'overlap: e10 is already covered'
        >>> b.why_illegal("j5") is None
        True
        """
        reason = self._core.why_illegal(self._id(move))
        return None if reason is None else reason[1]

    def push(self, move: MoveLike) -> None:
        """Plays a move for the colour to move: a :class:`Move`, move text, or a placement id
        (any integer, numpy's too, not a bool). Raises
        :class:`~blokus.errors.IllegalMoveError` (board unchanged, with the rule broken in
        ``reason`` and ``cell``) if it is not legal, :class:`~blokus.errors.InvalidMoveError` if
        it names no placement.

        >>> b = Board("duo")
        >>> b.push("e10,d11,e11,f11,e12")
        >>> b.push("j5")
        >>> b.move_stack
        [<Move e10,d11,e11,f11,e12 (X, id 11976)>, <Move j5 (1, id 65)>]
        >>> b.push("e10")
        Traceback (most recent call last):
        ...
        blokus.errors.IllegalMoveError: illegal move e10 for Purple: overlap: e10 is already covered
        """
        if type(move) is int and 0 <= move < self._variant._num_placements:
            self._core.push(move)
        elif isinstance(move, str):
            self._core.push_text(move)
        else:
            self._core.push(self._id(move))

    def pop(self) -> Move:
        """Takes back the last move and returns it.

        >>> b = Board("duo", ["e10", "j5"])
        >>> b.pop(), b.move_stack
        (<Move j5 (1, id 65)>, [<Move e10 (1, id 130)>])
        """
        id = self._core.pop()
        if id is None:
            raise IndexError("pop from a board with no moves")
        return Move(self._variant, id)

    def peek(self) -> Move:
        """The last move played.

        >>> Board("duo", ["e10", "j5"]).peek()
        <Move j5 (1, id 65)>
        """
        moves = self._core.moves()
        if not moves:
            raise IndexError("peek at a board with no moves")
        return Move(self._variant, moves[-1])

    def copy(self) -> Board:
        """An independent copy (moves included).

        >>> b = Board("duo", ["e10"])
        >>> c = b.copy()
        >>> c.push("j5")
        >>> b.ply, c.ply
        (1, 2)
        """
        return Board._from_core(self._variant, self._core.copy())

    __copy__ = copy

    def is_game_over(self) -> bool:
        """Whether the game is over: no colour has a legal move.

        >>> Board("duo").is_game_over()
        False
        """
        return self._core.turn is None

    def points(self, scoring: str | None = None) -> list[int]:
        """Points per colour: cells placed plus bonuses (``"advanced"``), or minus cells left
        in hand (``"basic"``); the variant's default if not given.

        >>> b = Board("duo", ["e10,d11,e11,f11,e12"])
        >>> b.points(), b.points("basic")
        ([5, 0], [-84, -89])
        """
        return self._core.points(_scoring(scoring))

    def scores(self, scoring: str | None = None) -> list[int]:
        """Score per player: the points of its colours (a shared colour counts for nobody).

        >>> Board("classic_2", ["a20,b20", "t20"]).scores()
        [2, 1]
        """
        return self._core.scores(_scoring(scoring))

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on; then winners, scores, points and result line.

        >>> Board("duo").outcome() is None
        True
        """
        if not self.is_game_over():
            return None
        scores = self.scores()
        return Outcome(
            winners=tuple(self._core.winners()),
            scores=tuple(scores),
            points=tuple(self.points()),
            result=self.result(),
        )

    def result(self) -> str:
        """Pentobi's result line: ``B+3``, ``W+2``, ``0``, or every colour's points.

        >>> b = Board("duo", ["e10,d11,e11,f11,e12", "j5"])
        >>> b.result()
        'B+4'
        """
        return self._core.result_line()

    def perft(self, depth: int) -> int:
        """Number of move sequences of length ``depth`` from here (0 up to the most moves a game
        has). It counts on a copy of the board without the GIL, and stops with
        ``KeyboardInterrupt`` on Ctrl-C.

        >>> b = Board("duo")
        >>> b.perft(1), b.perft(2)
        (414, 171396)
        """
        return self._core.perft(_arguments.perft_depth(self._variant, depth))

    def pieces_left(self, color: int) -> list[Piece]:
        """The pieces a colour still has (a piece with two copies left appears twice).

        >>> b = Board("junior", ["e10"])
        >>> [p.name for p in b.pieces_left(0)][:4]
        ['1', '2', '2', 'I3']
        """
        left = self._core.pieces_left()[self._variant.color(color)]
        return [p for p, n in zip(self._variant.pieces, left) for _ in range(n)]

    def heights(self) -> npt.NDArray[np.int32]:
        """Blokus 3D: cubes per column as a ``(rows, cols)`` array, back row first (0 where a
        column is empty or missing).

        >>> Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"]).heights()
        array([[0, 0, 0, 0],
               [0, 0, 0, 0],
               [0, 0, 0, 0],
               [1, 2, 2, 0]], dtype=int32)
        """
        return self._height_map()[0]

    def top_colors(self) -> npt.NDArray[np.int32]:
        """Blokus 3D: the colour of each column's top cube, ``(rows, cols)``, back row first
        (-1 where a column is empty or missing).

        >>> Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"]).top_colors()
        array([[-1, -1, -1, -1],
               [-1, -1, -1, -1],
               [-1, -1, -1, -1],
               [ 0,  1,  1, -1]], dtype=int32)
        """
        return self._height_map()[1]

    def _height_map(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        hm = self._core.height_map()
        if hm is None:
            raise InvalidArgumentError(f"{self._variant.id} is a flat board; only Blokus 3D boards have heights")
        return hm

    def top_cubes(self) -> list[int | None]:
        """Blokus 3D: the top cube (a cell number) of each column, in the order of
        :meth:`Variant.column_limits`; ``None`` for an empty column.

        >>> b = Board("3d_tower", ["a1@1,b1@1"])
        >>> [b.variant.cell_name(c) for c in b.top_cubes() if c is not None]
        ['a1@1', 'b1@1']
        """
        return self._core.top_cubes()

    def cell_colors(self) -> list[int]:
        """The colour on each cell by cell number, -1 where empty.

        >>> b = Board("duo", ["e10", "j5"])
        >>> [(b.variant.cell_name(c), color) for c, color in enumerate(b.cell_colors()) if color >= 0]
        [('j5', 1), ('e10', 0)]
        """
        return self._core.cell_colors()

    def __eq__(self, other: object) -> bool:
        """Boards are equal when their variants, positions and moves are."""
        return isinstance(other, Board) and self._variant == other._variant and self._core == other._core

    #: A board is mutable: a set or dict would lose it after a move (use :meth:`zobrist_hash`).
    __hash__ = None  # type: ignore[assignment]

    def zobrist_hash(self) -> int:
        """A 64-bit key of the position, for transposition tables: the same for the same
        position however it was reached (by moves, in any order, or as a setup) and from run to
        run; it covers each colour's cells, pieces in hand and last piece, the colours out and
        the colour to move (not the moves that led there).

        >>> a = Board("duo", ["e10", "j5", "f9,f8"])
        >>> b = Board.from_setup("duo", [["e10", "f9,f8"], ["j5"]], turn=1)
        >>> a.zobrist_hash() == b.zobrist_hash()
        True
        """
        return self._core.hash

    def __reduce__(self) -> tuple[Any, ...]:
        # By the variant (its id or spec), the setup it started from, and the moves.
        start = self._start()
        setup = None if start is None else (start._core.placements(), start._core.turn, start._core.out)
        return (_rebuild, (self._variant, setup, self._core.moves()))

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()  # the variant is immutable and shared

    def __str__(self) -> str:
        from blokus.text import board_text

        return board_text(self)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (shown by notebooks)."""
        from blokus import svg

        return svg.board(self)

    def __repr__(self) -> str:
        v = self._variant
        name = repr(v.id) if v.is_builtin else repr(v.spec)
        moves = [str(m) for m in self.move_stack]
        more = f", moves={moves!r}" if moves else ""
        start = self._start()
        if start is not None:
            spec = "" if v.is_builtin else f", {name}"
            return f"blokus.Board.from_bpn({start.bpn()!r}{spec}{more})"
        return f"blokus.Board({name}{more})"


def _rebuild(v: Variant, setup: tuple[list[list[int]], int | None, list[int]] | None, moves: list[int]) -> Board:
    """The board :meth:`Board.__reduce__` describes."""
    if setup is None:
        core = _blokus.BoardCore(v._tables)
    else:
        placements, turn, out = setup
        core = _blokus.BoardCore.from_setup(v._tables, placements, turn, False, out)
    for id in moves:
        core.push(id)
    return Board._from_core(v, core)


def _placement_id(v: Variant, move: object) -> int:
    if isinstance(move, Move):
        if move._variant is not v and move._variant != v:
            raise InvalidMoveError(f"move {move} belongs to {move.variant.id}, not {v.id}")
        return move._id
    if isinstance(move, str):
        return v._tables.parse_move(move)
    try:
        return _checked_id(v, move)
    except InvalidTypeError:
        raise InvalidTypeError(
            f"a move is a Move, move text or a placement id, not {type(move).__name__}", "move"
        ) from None
