"""A deliberately simple legal-move generator, written from RULES.md with cell coordinates and
no bitsets, to cross-check the fast generator in Rust."""

from __future__ import annotations

from blokus import Board

Coord = tuple[int, int, int]


def square_edge_neighbours(c: Coord) -> list[Coord]:
    x, y, z = c
    return [(x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z)]


def square_corner_neighbours(c: Coord) -> list[Coord]:
    x, y, z = c
    return [(x + 1, y + 1, z), (x - 1, y + 1, z), (x + 1, y - 1, z), (x - 1, y - 1, z)]


NEIGHBOURS = {"square": (square_edge_neighbours, square_corner_neighbours)}


def reference_legal_ids(board: Board) -> set[int]:
    """Every placement id that the rules allow for the colour to move, by brute force."""
    color = board.turn
    if color is None:
        return set()
    v = board.variant
    edge, corner = NEIGHBOURS[v.geometry]
    coords = v.cell_coords()
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
        if any(n in own for c in cells for n in edge(c)):
            continue
        if first:
            if not any(c in starts for c in cells):
                continue
        elif not any(n in own for c in cells for n in corner(c)):
            continue
        legal.add(pid)
    return legal
