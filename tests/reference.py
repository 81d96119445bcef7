"""A deliberately simple legal-move generator, written from RULES.md with cell coordinates and
no bitsets, to cross-check the fast generator in Rust."""

from __future__ import annotations

from typing import Callable

from blokus import Board

Coord = tuple[int, int, int]


def square_edge_neighbours(c: Coord) -> list[Coord]:
    x, y, z = c
    return [(x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z)]


def square_corner_neighbours(c: Coord) -> list[Coord]:
    x, y, z = c
    return [(x + 1, y + 1, z), (x - 1, y + 1, z), (x + 1, y - 1, z), (x - 1, y - 1, z)]


def triangle_edge_neighbours(c: Coord, up: bool) -> list[Coord]:
    """An up triangle shares edges with its left and right neighbours and the cell below; a down
    triangle with left, right and the cell above."""
    x, y, z = c
    return [(x - 1, y, z), (x + 1, y, z), (x, y - 1 if up else y + 1, z)]


def triangle_corner_neighbours(c: Coord, up: bool) -> list[Coord]:
    """RULES.md: of an up triangle (x±2, r), (x±1, r-1), (x±2, r-1), (x±1, r+1), (x, r+1); a down
    triangle mirrors that vertically."""
    x, y, z = c
    d = -1 if up else 1
    return [
        (x - 2, y, z),
        (x + 2, y, z),
        (x - 1, y + d, z),
        (x + 1, y + d, z),
        (x - 2, y + d, z),
        (x + 2, y + d, z),
        (x - 1, y - d, z),
        (x + 1, y - d, z),
        (x, y - d, z),
    ]


NEIGHBOURS: dict[str, tuple[Callable[[Coord, bool], list[Coord]], Callable[[Coord, bool], list[Coord]]]] = {
    "square": (lambda c, up: square_edge_neighbours(c), lambda c, up: square_corner_neighbours(c)),
    "triangle": (triangle_edge_neighbours, triangle_corner_neighbours),
}


def reference_legal_ids(board: Board) -> set[int]:
    """Every placement id that the rules allow for the colour to move, by brute force."""
    color = board.turn
    if color is None:
        return set()
    v = board.variant
    edge, corner = NEIGHBOURS[v.geometry]
    coords = v.cell_coords()
    up_list = v._tables.cells_point_up()
    up = {coords[i]: (up_list[i] if up_list is not None else False) for i in range(len(coords))}
    owner = {coords[i]: c for i, c in enumerate(board.cell_colors()) if c >= 0}
    own = {xy for xy, c in owner.items() if c == color}
    first = color not in board.move_colors()
    starts = {coords[v.cell_index(n) or 0] for n in v.start_points()[color]}
    left = {p.name: 0 for p in v.pieces}
    for p in board.pieces_left(color):
        left[p.name] += 1
    legal = set()
    for pid in range(v.num_placements):
        move = board.parse_move(board.variant._tables.move_text(pid))
        if left[move.piece.name] == 0:
            continue
        cells = [coords[i] for i in move.cell_indices()]
        if any(c in owner for c in cells):
            continue
        if any(n in own for c in cells for n in edge(c, up[c])):
            continue
        if first:
            if not any(c in starts for c in cells):
                continue
        elif not any(n in own for c in cells for n in corner(c, up[c])):
            continue
        legal.add(pid)
    return legal
