"""Pictures of Blokus 3D boards, for :func:`blokus.svg.board`: the columns from above
(:func:`top_view`) and the cubes in an isometric picture (:func:`iso_view`).

>>> import blokus
>>> from blokus import svg
>>> b = blokus.Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"])
>>> "<text" in svg.board(b, view="top") and "<polygon" in svg.board(b, view="iso")
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from blokus.board import Board, Move
from blokus.svg import EMPTY, GRID, HIGHLIGHT, TEXT, _shade, _svg_open
from blokus.text import _column_name

__all__ = ["iso_view", "top_view"]

Point = tuple[float, float]
Column = tuple[int, int]

#: Brightness of the faces of a cube in the isometric view: the top in full colour, the left
#: (facing column a) and front (facing row 1) faces darker, as if lit from above and the left.
TOP, LEFT, FRONT = 1.0, 0.84, 0.66


class _Cubes:
    """What both views need: the structure, and whose cube and which piece each cell holds."""

    def __init__(self, b: Board) -> None:
        v = b.variant
        self.coords = v.cell_coords()
        self.cell_at = {c: i for i, c in enumerate(self.coords)}
        limits = v.column_limits() or []
        self.limit: dict[Column, int] = {(x, y): limit for x, y, limit in limits}
        self.columns = [(x, y) for x, y, _ in limits]
        self.width = max(x for x, _ in self.columns) + 1
        self.depth = max(y for _, y in self.columns) + 1
        self.color = b.cell_colors()
        tops = b.top_cubes()
        self._top = dict(zip(self.columns, tops))
        self._height = {
            column: 0 if top is None else self.coords[top][2] + 1 for column, top in zip(self.columns, tops)
        }
        # Pieces numbered across colours, so neighbouring cubes tell whether they are one piece.
        self.piece = [-1] * v.num_cells
        k = 0
        for moves in b.placements():
            for move in moves:
                for cell in move.cell_indices():
                    self.piece[cell] = k
                k += 1

    def cell(self, x: int, y: int, z: int) -> int | None:
        """The cell at a place, if the structure has it."""
        return self.cell_at.get((x, y, z))

    def filled(self, x: int, y: int, z: int) -> bool:
        cell = self.cell_at.get((x, y, z))
        return cell is not None and self.color[cell] >= 0

    def height(self, column: Column) -> int:
        return self._height[column]

    def top(self, column: Column) -> int | None:
        """The top cube of a column, if it has one."""
        return self._top[column]


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on a ``#rrggbb`` fill."""
    if len(fill) == 7 and fill.startswith("#"):
        try:
            r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
        except ValueError:
            return "#ffffff"
        return "#1b1a17" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
    return "#ffffff"


def top_view(board: Board, size: float | None, coordinates: bool, move: Move | None, fills: Sequence[str]) -> str:
    """The columns from above: each in the colour of its top cube with its height written in it
    (and its height limit small in the corner), an empty column in the board colour with its
    height limit in grey, a missing column left out. Pieces are outlined where the top cubes of neighbouring columns belong to
    different pieces; the last move's columns are outlined in black, with a dot in each column
    whose top cube it placed.

    >>> import blokus
    >>> b = blokus.Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"])
    >>> import re
    >>> picture = top_view(b, 200, True, b.peek(), ["#2a62c9", "#f0c419", "#d7382e", "#33a853"])
    >>> picture.startswith("<svg"), re.findall(r'font-weight="bold"[^>]*>([0-9]+)<', picture)
    (True, ['1', '2', '2'])
    """
    cubes = _Cubes(board)
    unit = 28.0
    margin = 1.2 if coordinates else 0.3
    vw = (cubes.width + 2 * margin) * unit
    vh = (cubes.depth + 2 * margin) * unit
    width = float(size) if size is not None else vw

    def corner(x: float, y: float) -> Point:
        """Picture coordinates of a corner of the grid, (x, y) with y counted from row 1 up."""
        return (x + margin) * unit, (cubes.depth - y + margin) * unit

    def square(column: Column) -> str:
        x, y = column
        points = [corner(x, y + 1), corner(x + 1, y + 1), corner(x + 1, y), corner(x, y)]
        return " ".join(f"{px:.2f},{py:.2f}" for px, py in points)

    def side(column: Column, dx: int, dy: int) -> tuple[Point, Point]:
        """The side of a column's square toward a neighbour."""
        x, y = column
        if dx:
            edge = x + (1 if dx > 0 else 0)
            return corner(edge, y), corner(edge, y + 1)
        edge = y + (1 if dy > 0 else 0)
        return corner(x, edge), corner(x + 1, edge)

    def line(a: Point, b: Point, extra: str = "") -> str:
        return f'<line x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" y2="{b[1]:.2f}"{extra}/>'

    out = _svg_open(width, vw, vh, board)
    tops = {column: cubes.top(column) for column in cubes.columns}
    out.append(f'<g stroke="{GRID}" stroke-width="{unit * 0.04:.2f}" stroke-linejoin="round">')
    for column in cubes.columns:
        top = tops[column]
        if top is None:
            out.append(f'<polygon points="{square(column)}" fill="{EMPTY}"/>')
        else:
            fill = fills[cubes.color[top]]
            out.append(f'<polygon points="{square(column)}" fill="{fill}" stroke="{_shade(fill, 0.8)}"/>')
    out.append("</g>")
    # Piece outlines: between columns whose top cubes are of different pieces.
    out.append(f'<g stroke-width="{unit * 0.09:.2f}" stroke-linecap="round">')
    for column in cubes.columns:
        top = tops[column]
        if top is None:
            continue
        stroke = _shade(fills[cubes.color[top]], 0.55)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            other = tops.get((column[0] + dx, column[1] + dy))
            if other is None or cubes.piece[other] != cubes.piece[top]:
                a, b = side(column, dx, dy)
                out.append(line(a, b, f' stroke="{stroke}"'))
    out.append("</g>")
    # Heights, and the limits of empty columns.
    out.append('<g font-family="sans-serif" text-anchor="middle" dominant-baseline="central">')
    for column in cubes.columns:
        x, y = column
        cx, cy = corner(x + 0.5, y + 0.5)
        top = tops[column]
        if top is None:
            out.append(
                f'<text x="{cx:.2f}" y="{cy:.2f}" font-size="{unit * 0.32:.2f}" fill="{TEXT}" '
                f'fill-opacity="0.6">{cubes.limit[column]}</text>'
            )
        else:
            ink = _ink(fills[cubes.color[top]])
            out.append(
                f'<text x="{cx:.2f}" y="{cy:.2f}" font-size="{unit * 0.5:.2f}" font-weight="bold" '
                f'fill="{ink}">{cubes.height(column)}</text>'
            )
            # The limit, small in the corner: how much room the column has left.
            lx, ly = corner(x + 0.84, y + 0.82)
            out.append(
                f'<text x="{lx:.2f}" y="{ly:.2f}" font-size="{unit * 0.22:.2f}" fill="{ink}" '
                f'fill-opacity="0.75">{cubes.limit[column]}</text>'
            )
    out.append("</g>")
    # The last move: its footprint outlined, a dot where its cube is on top.
    if move is not None:
        footprint = {(cubes.coords[c][0], cubes.coords[c][1]) for c in move.cell_indices()}
        out.append(f'<g stroke="{HIGHLIGHT}" stroke-width="{unit * 0.16:.2f}" stroke-linecap="round">')
        for column in sorted(footprint):
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if (column[0] + dx, column[1] + dy) not in footprint:
                    a, b = side(column, dx, dy)
                    out.append(line(a, b))
        out.append("</g>")
        mine = set(move.cell_indices())
        for column in sorted(footprint):
            if tops[column] in mine:
                cx, cy = corner(column[0] + 0.2, column[1] + 0.2)
                out.append(
                    f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{unit * 0.09:.2f}" fill="{HIGHLIGHT}" fill-opacity="0.7"/>'
                )
    if coordinates:
        out.append(
            f'<g font-family="sans-serif" font-size="{unit * 0.42:.2f}" fill="{TEXT}" text-anchor="middle" '
            f'dominant-baseline="central">'
        )
        for x in range(cubes.width):
            cx, cy = corner(x + 0.5, -margin / 2)
            out.append(f'<text x="{cx:.2f}" y="{cy:.2f}">{_column_name(x)}</text>')
        for y in range(cubes.depth):
            cx, cy = corner(-margin / 2, y + 0.5)
            out.append(f'<text x="{cx:.2f}" y="{cy:.2f}">{y + 1}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the isometric view ---

COS30 = math.sqrt(3) / 2

#: The faces drawn of a cube, by the direction they face: the corners of the face (offsets from
#: the cube's lowest corner) and, per edge, the neighbour that shares the edge in the face's plane.
_Face = tuple[str, float, tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]
FACES: tuple[_Face, ...] = (
    # name, brightness, corners, neighbour across each edge (edge i runs from corner i to i + 1)
    ("top", TOP, ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)), ((0, -1, 0), (1, 0, 0), (0, 1, 0), (-1, 0, 0))),
    ("front", FRONT, ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)), ((0, 0, -1), (1, 0, 0), (0, 0, 1), (-1, 0, 0))),
    ("left", LEFT, ((0, 0, 0), (0, 1, 0), (0, 1, 1), (0, 0, 1)), ((0, 0, -1), (0, 1, 0), (0, 0, 1), (0, -1, 0))),
)
#: Where a face looks: the cell in front of it, which hides it when filled.
FACING = {"top": (0, 0, 1), "front": (0, -1, 0), "left": (-1, 0, 0)}


def _project(x: float, y: float, z: float) -> Point:
    """Isometric picture coordinates (y down) of a point; the corner of a1 nearest the viewer."""
    return (x - y) * COS30, -(x + y) * 0.5 - z


def iso_view(board: Board, size: float | None, coordinates: bool, move: Move | None, fills: Sequence[str]) -> str:
    """The cubes from the front left corner (a1 nearest), above: the structure's floor in the
    board colour, every cube with its top, left and front faces shaded, drawn back to front so
    nearer cubes hide farther ones. Pieces are outlined (cubes of one piece are not); the last
    move's cubes are outlined in black, with a dot on each top face that shows. The height limit
    of a column with room is a dashed square at that height, hidden like a face.

    Each cube is a group ``<g data-cell="b1@2">`` of its faces that show (polygons of class
    ``top``, ``left`` or ``front``) and its outline.

    >>> import blokus
    >>> b = blokus.Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"])
    >>> picture = iso_view(b, 200, True, b.peek(), ["#2a62c9", "#f0c419", "#d7382e", "#33a853"])
    >>> picture.startswith("<svg"), picture.count("data-cell")
    (True, 5)
    """
    cubes = _Cubes(board)
    unit = 26.0
    pad = 0.5
    label_gap = 0.8
    # The picture's extent: every column up to its limit, and the labels.
    points = [
        _project(x + dx, y + dy, z)
        for (x, y), limit in cubes.limit.items()
        for dx in (0, 1)
        for dy in (0, 1)
        for z in (0, limit)
    ]
    if coordinates:
        points += [_project(x + 0.5, -label_gap - 0.3, 0) for x in range(cubes.width)]
        points += [_project(-label_gap - 0.3, y + 0.5, 0) for y in range(cubes.depth)]
    left = min(p[0] for p in points) - pad
    top = min(p[1] for p in points) - pad
    vw = (max(p[0] for p in points) + pad - left) * unit
    vh = (max(p[1] for p in points) + pad - top) * unit
    width = float(size) if size is not None else vw

    def xy(x: float, y: float, z: float) -> tuple[str, str]:
        u, w = _project(x, y, z)
        return f"{(u - left) * unit:.2f}", f"{(w - top) * unit:.2f}"

    def pts(*corners: tuple[float, float, float]) -> str:
        return " ".join(",".join(xy(*c)) for c in corners)

    out = _svg_open(width, vw, vh, board)
    out.append(f'<g fill="{EMPTY}" stroke="{GRID}" stroke-width="{unit * 0.03:.2f}" stroke-linejoin="round">')
    for x, y in cubes.columns:
        out.append(f'<polygon points="{pts((x, y, 0), (x + 1, y, 0), (x + 1, y + 1, 0), (x, y + 1, 0))}"/>')
    out.append("</g>")

    mine = set(move.cell_indices()) if move is not None else set()
    names = [board.variant.cell_name(cell) for cell in range(board.variant.num_cells)]
    # Back to front: nearer the viewer means smaller x + y and larger z; unit cubes that overlap
    # in the picture always differ in z - x - y, so this order is exact. The height limit of a
    # column that has room is drawn as a dashed ceiling, the top face of an empty cube at the
    # highest level, in the same order.
    items: list[tuple[int, int, int, int | None]] = [
        (x, y, z, cell) for cell, (x, y, z) in enumerate(cubes.coords) if cubes.color[cell] >= 0
    ]
    items += [(x, y, limit - 1, None) for (x, y), limit in cubes.limit.items() if not cubes.filled(x, y, limit - 1)]
    items.sort(key=lambda item: item[2] - item[0] - item[1])
    seam = unit * 0.03
    edge_width = unit * 0.06
    for x, y, z, maybe in items:
        if maybe is None:
            ceiling = pts((x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1))
            out.append(
                f'<polygon class="limit" points="{ceiling}" fill="none" stroke="{TEXT}" stroke-opacity="0.3" '
                f'stroke-width="{unit * 0.025:.2f}" stroke-dasharray="{unit * 0.08:.2f} {unit * 0.08:.2f}"/>'
            )
            continue
        cell = maybe
        fill = fills[cubes.color[cell]]
        piece = cubes.piece[cell]
        last = cell in mine
        out.append(f'<g data-cell="{names[cell]}">')
        for name, light, corners, across in FACES:
            fx, fy, fz = FACING[name]
            if cubes.filled(x + fx, y + fy, z + fz):
                continue  # hidden by the neighbour in front of this face
            face_fill = _shade(fill, light)
            corner_text = pts(*((x + cx, y + cy, z + cz) for cx, cy, cz in corners))
            out.append(
                f'<polygon class="{name}" points="{corner_text}" fill="{face_fill}" stroke="{face_fill}" '
                f'stroke-width="{seam:.2f}" stroke-linejoin="round"/>'
            )
            # Outline the face where the neighbouring face in its plane is another piece's or
            # does not show.
            for i, (nx, ny, nz) in enumerate(across):
                n = cubes.cell(x + nx, y + ny, z + nz)
                same = (
                    n is not None
                    and cubes.piece[n] == piece
                    and not cubes.filled(x + nx + fx, y + ny + fy, z + nz + fz)
                )
                if same:
                    continue
                a, b = corners[i], corners[(i + 1) % 4]
                stroke = HIGHLIGHT if last else _shade(fill, 0.45)
                w = edge_width * (1.6 if last else 1.0)
                (x1, y1), (x2, y2) = xy(x + a[0], y + a[1], z + a[2]), xy(x + b[0], y + b[1], z + b[2])
                out.append(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="{w:.2f}" '
                    f'stroke-linecap="round"/>'
                )
            if last and name == "top":
                cx, cy = xy(x + 0.5, y + 0.5, z + 1)
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{unit * 0.1:.2f}" fill="{HIGHLIGHT}" fill-opacity="0.7"/>')
        out.append("</g>")
    if coordinates:
        out.append(
            f'<g font-family="sans-serif" font-size="{unit * 0.42:.2f}" fill="{TEXT}" text-anchor="middle" '
            f'dominant-baseline="central">'
        )
        for x in range(cubes.width):
            cx, cy = xy(x + 0.5, -label_gap, 0)
            out.append(f'<text x="{cx}" y="{cy}">{_column_name(x)}</text>')
        for y in range(cubes.depth):
            cx, cy = xy(-label_gap, y + 0.5, 0)
            out.append(f'<text x="{cx}" y="{cy}">{y + 1}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
