"""BPN, the Blokus position notation: a whole position on one line, like FEN in chess.

Four fields separated by spaces::

    duo 14/14/14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14 o -

1. The variant id.
2. The cells, row by row from the top row down, rows separated by ``/``; within a row, cells from
   left to right (only cells the board has: a Trigon row holds its triangles). A colour's cell is
   its letter, a run of empty cells its length. Capital letters mark the cells of each colour's
   last piece (which decides the bonus for ending on the 1-cell piece), small letters the others.
3. The colour to move, by its letter, or ``-`` when the game is over.
4. The colours out of the game (no move left, and known to the engine as such), or ``-``.

Colour letters are the initials of the colour names (``b y r g`` for Blue, Yellow, Red, Green;
``p o`` for Duo's Purple and Orange; ``g o`` for Junior's Green and Orange), or ``a b c d`` when
the initials clash. Everything else (pieces left, pieces placed, whose player moves a shared
colour) follows from the cells, because two pieces of one colour never share an edge.

Blokus 3D: pieces of one colour share faces, so the cells do not say where the pieces are. The
second field lists each colour's pieces instead, in move text: colours in order separated by
``/``, a colour's pieces in the order they were put down separated by ``;`` (its last piece
last), ``-`` for a colour without pieces::

    3d_tower a1@1,b1@1;a1@2,b1@2,c1@2/c1@1,c2@1/-/- y -

The out field matters there: a colour that once could not move stays out even when room opens
later, so an out colour may have a legal move.

>>> import blokus
>>> b = read("duo 14/14/14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14 o -")
>>> b.turn, b.points(), write(b) == b.bpn()
(1, [5, 0], True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from blokus import _blokus
from blokus._arguments import shown
from blokus.errors import InvalidMoveError, InvalidPositionError, InvalidTypeError
from blokus.variant import Variant, VariantLike, variant, variants

if TYPE_CHECKING:
    from blokus.board import Board


def write(board: Board) -> str:
    """The position string of a board.

    >>> import blokus
    >>> write(blokus.Board("classic", ["a20", "t20,t19"]))
    'classic B18Y/19Y/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 r -'
    """
    v = board.variant
    letters = v.color_letters
    turn = board.turn
    to_move = "-" if turn is None else letters[turn]
    out = "".join(letters[c] for c in board.out) or "-"
    placements = board.placements()
    if v.geometry == "cube":
        pieces = "/".join(";".join(str(m) for m in moves) or "-" for moves in placements)
        return f"{v.id} {pieces} {to_move} {out}"
    colors = board.cell_colors()
    # Each colour's last piece comes last.
    capital = {cell for moves in placements if moves for cell in moves[-1].cell_indices()}
    rows = []
    for row in v.rows():
        text = ""
        empty = 0
        for cell in row:
            c = colors[cell]
            if c < 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += letters[c].upper() if cell in capital else letters[c]
        if empty:
            text += str(empty)
        rows.append(text)
    return f"{v.id} {'/'.join(rows)} {to_move} {out}"


_FIELD = re.compile(r"\S+")


def read(text: str, variant_: VariantLike | None = None) -> Board:
    """The board a position string describes. ``variant_`` is needed for variants that are not
    built in (its id must be the string's first field).

    >>> b = read("classic B18Y/19Y/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 r -")
    >>> b.turn, b.points()
    (2, [1, 2, 0, 0])
    >>> read("duo 14 p -")
    Traceback (most recent call last):
    ...
    blokus.errors.InvalidPositionError: invalid BPN at character 7: expected 13 more rows (the board has 14 rows)
    """
    from blokus.board import Board

    if not isinstance(text, str):
        raise InvalidTypeError(f"a position string is a str, not {type(text).__name__}")
    fields = [(m.start(), m.group()) for m in _FIELD.finditer(text)]

    def fail(position: int, message: str) -> InvalidPositionError:
        return InvalidPositionError(f"invalid BPN at character {position + 1}: {message}", position)

    if not fields:
        raise fail(len(text), "expected a variant id, found an empty string")
    at, vid = fields[0]
    if variant_ is not None:
        v = variant(variant_)
        if vid != v.id:
            raise fail(at, f"expected the variant id {v.id!r}, found {shown(vid)}")
    else:
        if vid not in variants():
            ids = variants()
            known = ", ".join(ids[:8]) + f", ... ({len(ids)} ids: blokus.variants())"
            raise fail(at, f"expected a variant id ({known}), found {shown(vid)}")
        v = variant(vid)
    letters = v.color_letters
    names = ", ".join(f"{letter} {name}" for letter, name in zip(letters, v.colors))
    if len(fields) < 4:
        what = [
            "the pieces" if v.geometry == "cube" else "the cells",
            "the colour to move (a colour letter or -)",
            "the colours out (letters or -)",
        ]
        raise fail(len(text), f"expected {what[len(fields) - 1]} after {shown(fields[-1][1])}")
    if len(fields) > 4:
        raise fail(fields[4][0], f"expected the end of the string after the four fields, found {shown(fields[4][1])}")

    at, field = fields[1]
    if v.geometry == "cube":
        placements, where = _read_pieces(v, at, field, fail)
    else:
        placements, where = _read_cells(v, at, field, fail)

    # The colour to move and the colours out.
    at_turn, turn_text = fields[2]
    if turn_text == "-":
        turn: int | None = None
    elif len(turn_text) == 1 and turn_text in letters:
        turn = letters.index(turn_text)
    else:
        raise fail(
            at_turn, f"expected the colour to move ({names}) or '-' when the game is over, found {shown(turn_text)}"
        )
    at_out, out_text = fields[3]
    out: list[int] = []
    if out_text != "-":
        for k, ch in enumerate(out_text):
            if ch not in letters:
                raise fail(at_out + k, f"expected the letters of the colours out ({names}) or '-', found {ch!r}")
            c = letters.index(ch)
            if c in out:
                raise fail(at_out + k, f"colour {ch} is listed twice")
            out.append(c)
    try:
        core = _blokus.BoardCore.from_setup(v._tables, placements, turn, False, sorted(out))
    except InvalidPositionError as e:
        if e.placement is not None:
            color, index = e.placement
            raise fail(where[color][index], str(e)) from None
        if e.kind in ("can_move", "never_out") and e.color is not None:
            raise fail(at_out + out_text.index(letters[e.color]), str(e)) from None
        raise fail(at_turn, str(e)) from None
    board = Board.__new__(Board)
    board._variant = v
    board._core = core
    return board


_Fail = Callable[[int, str], InvalidPositionError]


def _read_cells(v: Variant, at: int, text: str, fail: _Fail) -> tuple[list[list[int]], list[list[int]]]:
    """The placements of each colour from the cells field of a flat board (starting at ``at``),
    and where each piece starts in the string."""
    letters = v.color_letters
    names = ", ".join(f"{letter} {name}" for letter, name in zip(letters, v.colors))
    rows = v.rows()
    colors = [-1] * v.num_cells
    upper = [False] * v.num_cells
    offset = [0] * v.num_cells
    row, col, i = 0, 0, 0

    def row_full_message() -> str:
        return f"row {row + 1} from the top has only {len(rows[row])} cells"

    while i < len(text):
        ch = text[i]
        here = at + i
        if ch == "/":
            if col < len(rows[row]):
                raise fail(
                    here, f"expected {_cells(len(rows[row]) - col)} more in row {row + 1} from the top before '/'"
                )
            row += 1
            col = 0
            if row >= len(rows):
                raise fail(here, f"the board has only {len(rows)} rows")
            i += 1
        elif ch.isdigit() and ch.isascii():
            j = i
            while j < len(text) and text[j].isdigit() and text[j].isascii():
                j += 1
            if text[i] == "0":
                raise fail(here, f"a count of empty cells is 1 or more without leading zeros, not {shown(text[i:j])}")
            if j - i > len(str(len(rows[row]))):
                # More digits than any count of this row has: it cannot fit (and is not read).
                raise fail(
                    here,
                    f"a count of {j - i} digits does not fit in row {row + 1} from the top, which has {len(rows[row])} cells",
                )
            run = int(text[i:j])
            if col + run > len(rows[row]):
                raise fail(
                    here,
                    f"{_cells(run, 'empty cell')} {'does' if run == 1 else 'do'} not fit: only {len(rows[row]) - col} of the {len(rows[row])} cells of row {row + 1} from the top are left",
                )
            col += run
            i = j
        elif ch.lower() in letters:
            if col >= len(rows[row]):
                raise fail(here, f"expected '/' or a space: {row_full_message()}")
            cell = rows[row][col]
            colors[cell] = letters.index(ch.lower())
            upper[cell] = ch.isupper()
            offset[cell] = here
            col += 1
            i += 1
        else:
            raise fail(
                here,
                f"expected a colour letter ({names}; capitals for a last piece), a count of empty cells or '/', found {ch!r}",
            )
    if row < len(rows) - 1 or col < len(rows[row]):
        missing = len(rows) - row - 1
        if col < len(rows[row]):
            detail = f"{_cells(len(rows[row]) - col)} more in row {row + 1} from the top"
        else:
            detail = f"{missing} more row{'s' if missing > 1 else ''}"
        raise fail(at + len(text), f"expected {detail} (the board has {len(rows)} rows)")

    # The pieces: each edge-connected group of one colour's cells.
    groups = v._tables.pieces_of_cells(colors)
    placements: list[list[int]] = [[] for _ in range(v.num_colors)]
    where: list[list[int]] = [[] for _ in range(v.num_colors)]
    last: list[int | None] = [None] * v.num_colors
    for color, cells, placement in groups:
        first = min(offset[c] for c in cells)
        if placement is None:
            raise fail(first, f"the cells {v.cells_text(cells)} of {v.colors[color]} form no piece of {v.id}")
        marks = {upper[c] for c in cells}
        if len(marks) > 1:
            mixed = min(offset[c] for c in cells if upper[c] != upper[cells[0]])
            raise fail(
                mixed,
                f"a piece is all capitals (its colour's last piece) or all small letters; this {v.colors[color]} piece mixes them",
            )
        if upper[cells[0]]:
            if last[color] is not None:
                raise fail(first, f"{v.colors[color]} has two last pieces (capitals); mark one")
            last[color] = len(placements[color])
        placements[color].append(placement)
        where[color].append(first)
    per_color = sum(p.copies for p in v.pieces)
    for color in range(v.num_colors):
        index = last[color]
        if index is None:
            if len(placements[color]) >= per_color:
                raise fail(
                    at,
                    f"{v.colors[color]} has placed all its pieces: expected its last piece in capitals (it decides the bonus)",
                )
            continue
        placements[color].append(placements[color].pop(index))
        where[color].append(where[color].pop(index))
    return placements, where


def _read_pieces(v: Variant, at: int, text: str, fail: _Fail) -> tuple[list[list[int]], list[list[int]]]:
    """The placements of each colour from the pieces field of Blokus 3D (starting at ``at``),
    and where each piece starts in the string."""
    letters = v.color_letters
    lists = text.split("/")
    if len(lists) != v.num_colors:
        names = ", ".join(v.colors)
        if len(lists) > v.num_colors:
            extra = at + len("/".join(lists[: v.num_colors]))
            raise fail(extra, f"expected the end of the pieces after {v.num_colors} colours ({names}), found '/'")
        raise fail(
            at + len(text),
            f"expected the pieces of {v.num_colors} colours ({names}) separated by '/', found {len(lists)}",
        )
    placements: list[list[int]] = [[] for _ in range(v.num_colors)]
    where: list[list[int]] = [[] for _ in range(v.num_colors)]
    start = at
    for color, part in enumerate(lists):
        name = f"{v.colors[color]} ({letters[color]})"
        if part != "-":
            offset = start
            for piece in part.split(";"):
                if not piece:
                    raise fail(
                        offset,
                        f"expected a piece of {name} in move text like a1@1,b1@1 (or '-' alone for none), found nothing",
                    )
                try:
                    placements[color].append(v._tables.parse_move(piece))
                except InvalidMoveError as e:
                    raise fail(
                        offset,
                        f"expected a piece of {name} in move text like a1@1,b1@1 (or '-' alone for none): {e.reason or e}",
                    ) from None
                where[color].append(offset)
                offset += len(piece) + 1
        start += len(part) + 1
    return placements, where


def _cells(n: int, word: str = "cell") -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"
