"""Text pictures of a board, for ``str(board)``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from blokus.board import Board
    from blokus.variant import Variant


def color_letters(variant: Variant) -> list[str]:
    """One character per colour: the initials of the colour names if they differ, else digits."""
    initials = [c[:1].upper() for c in variant.colors]
    if len(set(initials)) == len(initials) and all(i.isalpha() for i in initials):
        return initials
    return [str(i + 1) for i in range(variant.num_colors)]


def _column_name(x: int) -> str:
    name = ""
    n = x + 1
    while n > 0:
        n, r = divmod(n - 1, 26)
        name = chr(ord("a") + r) + name
    return name


def board_text(board: Board) -> str:
    """The board as rows of characters, top row first: a colour letter per covered cell, ``+``
    for a start point still open, ``.`` for an empty cell and a blank where the board has no cell.
    """
    v = board.variant
    letters = color_letters(v)
    coords = v.cell_coords()
    colors = board.cell_colors()
    starts = set()
    if not board.is_game_over():
        for cells in v._tables.start_points():
            starts.update(cells)
    width = max(x for x, _, _ in coords) + 1
    height = max(y for _, y, _ in coords) + 1
    grid = [[" "] * width for _ in range(height)]
    for cell, (x, y, _) in enumerate(coords):
        c = colors[cell]
        grid[y][x] = letters[c] if c >= 0 else ("+" if cell in starts else ".")
    label = len(str(height))
    col_width = max(len(_column_name(width - 1)), 1)
    lines = []
    for y in range(height - 1, -1, -1):
        row = " ".join(ch.rjust(col_width) for ch in grid[y])
        lines.append(f"{y + 1:>{label}} {row}".rstrip())
    header = " ".join(_column_name(x).rjust(col_width) for x in range(width))
    lines.append(" " * (label + 1) + header)
    turn = board.turn
    status = "game over: " + board.result() if turn is None else f"{v.colors[turn]} ({letters[turn]}) to move"
    lines.append(status)
    return "\n".join(lines)
