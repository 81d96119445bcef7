"""Text pictures of a board, for ``str(board)``.

>>> import blokus
>>> print(blokus.Board("junior", ["e10"]))
14 . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . .
10 . . . . G . . . . . . . . .
 9 . . . . . . . . . . . . . .
 8 . . . . . . . . . . . . . .
 7 . . . . . . . . . . . . . .
 6 . . . . . . . . . . . . . .
 5 . . . . . . . . . + . . . .
 4 . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . .
   a b c d e f g h i j k l m n
Orange (O) to move
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blokus import _blokus

if TYPE_CHECKING:
    from blokus.board import Board
    from blokus.variant import Variant


def color_letters(variant: Variant) -> list[str]:
    """One capital per colour: the variant's colour letters (those of position strings).

    >>> from blokus.variant import variant
    >>> color_letters(variant("duo")), color_letters(variant("classic"))
    (['P', 'O'], ['B', 'Y', 'R', 'G'])
    """
    return [letter.upper() for letter in variant.color_letters]


def _column_name(x: int) -> str:
    """Pentobi's column letters (``a``..``z``, ``aa``, ...), from the core's notation."""
    return _blokus.column_name(x)


def board_text(board: Board) -> str:
    """The board as rows of characters, top row first, with row numbers and column letters.

    A covered cell shows its colour's letter, an open start point ``+``, and a blank means the
    board has no cell there. An empty square is ``.``; on triangle boards an empty triangle is
    ``^`` or ``v`` by the way it points, and columns are not spaced, so the hexagon shows.

    >>> import blokus
    >>> print(board_text(blokus.Board("3d_tower", ["a1@1,b1@1"])))
    4 .8 .8 .8 .8
    3 .8 .8 .8 .8
    2 .8 .8 .8 .8
    1 B1 B1 .8 .8
      a  b  c  d
    Yellow (Y) to move
    """
    v = board.variant
    if v.geometry == "cube":
        return _height_map_text(board)
    letters = color_letters(v)
    coords = v.cell_coords()
    colors = board.cell_colors()
    up = v.points_up()
    starts: set[int] = set()
    if not board.is_game_over():
        for cells in v.start_cells():
            starts.update(cells)
    width = max(x for x, _, _ in coords) + 1
    height = max(y for _, y, _ in coords) + 1
    grid = [[" "] * width for _ in range(height)]
    for cell, (x, y, _) in enumerate(coords):
        c = colors[cell]
        if c >= 0:
            glyph = letters[c]
        elif cell in starts:
            glyph = "+"
        elif up is not None:
            glyph = "^" if up[cell] else "v"
        else:
            glyph = "."
        grid[y][x] = glyph
    label = len(str(height))
    names = [_column_name(x) for x in range(width)]
    if up is None:
        col_width = max(len(n) for n in names)
        sep = " "
        header = [sep.join(n.rjust(col_width) for n in names)]
    else:
        col_width, sep = 1, ""
        depth = max(len(n) for n in names)
        header = ["".join(n.rjust(depth)[i] for n in names) for i in range(depth)]
    lines = []
    for y in range(height - 1, -1, -1):
        row = sep.join(ch.rjust(col_width) for ch in grid[y])
        lines.append(f"{y + 1:>{label}} {row}".rstrip())
    lines.extend(" " * (label + 1) + h for h in header)
    turn = board.turn
    status = "game over: " + board.result() if turn is None else f"{v.colors[turn]} ({letters[turn]}) to move"
    lines.append(status)
    return "\n".join(lines)


def _height_map_text(board: Board) -> str:
    """Blokus 3D from above: per column the colour of its top cube and its height (``B3``),
    ``.`` plus the height limit for an empty column, a blank where there is no column."""
    v = board.variant
    letters = color_letters(v)
    heights = board.heights()
    tops = board.top_colors()
    rows, cols = heights.shape
    limit = [[0] * cols for _ in range(rows)]
    for x, y, top in v.column_limits() or []:
        limit[rows - 1 - y][x] = top
    label = len(str(rows))
    lines = []
    for r in range(rows):
        cells = []
        for x in range(cols):
            if limit[r][x] == 0:
                cells.append("  ")
            elif tops[r, x] < 0:
                cells.append(f".{limit[r][x]}")
            else:
                cells.append(f"{letters[tops[r, x]]}{heights[r, x]}")
        lines.append(f"{rows - r:>{label}} " + " ".join(cells).rstrip())
    lines.append(" " * (label + 1) + " ".join(f"{_column_name(x):<2}" for x in range(cols)).rstrip())
    turn = board.turn
    status = "game over: " + board.result() if turn is None else f"{v.colors[turn]} ({letters[turn]}) to move"
    lines.append(status)
    return "\n".join(lines)
