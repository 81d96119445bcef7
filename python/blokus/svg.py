"""Pictures of boards as SVG: :func:`board` for squares, triangles and Blokus 3D.

>>> import blokus
>>> b = blokus.Board("duo", ["e10,d11,e11,f11,e12"])
>>> picture = board(b, size=300)
>>> picture.startswith("<svg") and 'width="300"' in picture
True

Blokus 3D has two views: ``"top"``, the columns from above in the colour of their top cubes with
their heights written in them, and ``"iso"``, the cubes in an isometric picture from the front
left corner (a1 nearest):

>>> b = blokus.Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"])
>>> board(b, view="iso").startswith("<svg")
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Union
from xml.sax.saxutils import escape

from blokus import _arguments
from blokus.board import Board, Move
from blokus.errors import BlokusError, InvalidArgumentError, InvalidTypeError
from blokus.text import _column_name

__all__ = ["COLORS", "VIEWS", "board"]

#: The views :func:`board` draws of a Blokus 3D board; flat boards have only ``"top"``.
VIEWS = ("top", "iso")

#: Fill colours by colour name.
COLORS = {
    "Blue": "#2a62c9",
    "Yellow": "#f0c419",
    "Red": "#d7382e",
    "Green": "#33a853",
    "Purple": "#8a4bc4",
    "Orange": "#f08a24",
}
#: Fills of colours whose names are not in :data:`COLORS`, by colour number.
FALLBACK = ["#2a62c9", "#f0c419", "#d7382e", "#33a853", "#8a4bc4", "#f08a24", "#1aa6a6", "#b5487f"]

BACKGROUND = "#f6f4ef"
EMPTY = "#e4e1d9"
GRID = "#c8c4ba"
TEXT = "#55514a"
HIGHLIGHT = "#111111"

#: Colours: a sequence by colour number, or a mapping from colour number or name.
ColorsLike = Union[Sequence[str], Mapping[Union[int, str], str]]

Point = tuple[float, float]


#: What a fill may be: ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa``, a colour name, or
#: ``rgb()``/``rgba()``/``hsl()``/``hsla()`` of numbers. Nothing else reaches the picture, so
#: no value can close an attribute or open an element.
_COLOR = re.compile(
    r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|[a-zA-Z]{1,30}|(?:rgba?|hsla?)\([0-9.,%/ +-]{1,60}\)"
)

#: The widest picture drawn, in pixels.
MAX_SIZE = 100_000


def _color(value: object, which: object) -> str:
    if not isinstance(value, str):
        raise InvalidTypeError(
            f"colour {_arguments.shown(which)}: a fill is a str, not {type(value).__name__}", "colors"
        )
    if _COLOR.fullmatch(value) is None:
        raise InvalidArgumentError(
            f"colour {_arguments.shown(which)}: {_arguments.shown(value)} is not a colour"
            " (#rgb, #rrggbb, a name like red, or rgb(...))",
            "colors",
        )
    return value


def _fills(b: Board, colors: ColorsLike | None) -> list[str]:
    v = b.variant
    fills = [COLORS.get(name, FALLBACK[i % len(FALLBACK)]) for i, name in enumerate(v.colors)]
    if colors is None:
        return fills
    if isinstance(colors, Mapping):
        for key, value in colors.items():
            if isinstance(key, str):
                if key not in v.colors:
                    raise InvalidArgumentError(
                        f"no colour named {_arguments.shown(key)} in {v.id} (colours: {', '.join(v.colors)})", "colors"
                    )
                fills[v.colors.index(key)] = _color(value, key)
            elif isinstance(key, int) and not isinstance(key, bool) and 0 <= key < v.num_colors:
                fills[key] = _color(value, key)
            else:
                raise InvalidArgumentError(f"no colour {_arguments.shown(key)} in {v.id}", "colors")
    else:
        if isinstance(colors, str) or len(colors) != v.num_colors:
            raise InvalidArgumentError(f"give {v.num_colors} colours for {v.id}, one per colour", "colors")
        fills = [_color(c, i) for i, c in enumerate(colors)]
    return fills


def _shade(color: str, factor: float) -> str:
    """A darker shade of a ``#rrggbb`` colour (other colour forms are returned unchanged)."""
    if len(color) != 7 or not color.startswith("#"):
        return color
    try:
        r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return color
    return "#{:02x}{:02x}{:02x}".format(*(int(c * factor) for c in (r, g, b)))


class _Geometry:
    """Cell polygons in picture units (cell side 1 for squares, triangle side 1 for triangles)."""

    def __init__(self, b: Board) -> None:
        v = b.variant
        self.coords = v.cell_coords()
        self.up = v.points_up()
        self.columns = max(x for x, _, _ in self.coords) + 1
        self.rows = max(y for _, y, _ in self.coords) + 1
        if self.up is None:
            self.width, self.height = float(self.columns), float(self.rows)
            self.row_height = 1.0
        else:
            self.row_height = math.sqrt(3) / 2
            self.width = (self.columns + 1) / 2
            self.height = self.rows * self.row_height

    def polygon(self, cell: int) -> list[Point]:
        x, y, _ = self.coords[cell]
        top = (self.rows - 1 - y) * self.row_height
        if self.up is None:
            return [(x, top), (x + 1, top), (x + 1, top + 1), (x, top + 1)]
        left = x / 2
        h = self.row_height
        if self.up[cell]:
            return [(left, top + h), (left + 1, top + h), (left + 0.5, top)]
        return [(left, top), (left + 1, top), (left + 0.5, top + h)]

    def center(self, cell: int) -> Point:
        points = self.polygon(cell)
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    def column_center(self, x: int) -> float:
        return x + 0.5 if self.up is None else x / 2 + 0.5

    def row_center(self, y: int) -> float:
        return (self.rows - 1 - y + 0.5) * self.row_height


def _outline(geo: _Geometry, cells: Sequence[int]) -> list[tuple[Point, Point]]:
    """The edges of a set of cells that no two of them share: the outline of a piece."""
    count: dict[tuple[Point, Point], int] = {}
    for cell in cells:
        points = [(round(px, 6), round(py, 6)) for px, py in geo.polygon(cell)]
        for a, b in zip(points, points[1:] + points[:1]):
            key = (a, b) if a <= b else (b, a)
            count[key] = count.get(key, 0) + 1
    return [edge for edge, n in count.items() if n == 1]


def board(
    board: Board,
    size: float | None = None,
    coordinates: bool = True,
    last_move: bool | Move | None = True,
    colors: ColorsLike | None = None,
    start_points: bool = True,
    view: str = "top",
) -> str:
    """The board as SVG text.

    ``size`` is the picture's width in pixels (the natural size if ``None``); ``coordinates``
    draws column letters and row numbers; ``last_move`` outlines the last move (``True``), a
    given :class:`~blokus.board.Move`, or nothing; ``colors`` overrides fills, as a list by colour
    number or a mapping from colour number or name (``{"Blue": "#00f"}``); ``start_points`` marks
    free start points while the game goes on (flat boards). ``view`` is ``"top"`` or, for Blokus
    3D, ``"iso"``: the columns from above with their heights, or the cubes in an isometric picture.

    >>> import blokus
    >>> b = blokus.Board("duo", ["e10,d11,e11,f11,e12", "j5"])
    >>> picture = board(b, size=200, coordinates=False, colors={"Purple": "#7030a0"})
    >>> picture.startswith("<svg"), "#7030a0" in picture
    (True, True)
    >>> board(b, view="iso")
    Traceback (most recent call last):
    ...
    blokus.errors.BlokusError: view 'iso' is for Blokus 3D; duo is flat, drawn from the top only
    """
    v = board.variant
    if view not in VIEWS:
        raise InvalidArgumentError(
            f"view must be one of {', '.join(map(repr, VIEWS))}, not {_arguments.shown(view)}", "view"
        )
    if size is not None:
        width = _arguments.number(size, "size", 0, MAX_SIZE)
        if width < 1:
            raise InvalidArgumentError(f"size must be at least 1 pixel, not {_arguments.shown(size)}", "size")
    fills = _fills(board, colors)
    move: Move | None = None
    if isinstance(last_move, Move):
        if last_move.variant != v:
            raise BlokusError(f"move {last_move} belongs to {last_move.variant.id}, not {v.id}")
        move = last_move
    elif last_move is True and board.move_stack:
        move = board.peek()
    if v.geometry == "cube":
        from blokus.svg_cube import iso_view, top_view

        draw = top_view if view == "top" else iso_view
        return draw(board, size, coordinates, move, fills)
    if v.geometry not in ("square", "triangle"):
        raise BlokusError(f"pictures of {v.geometry} boards are not drawn yet")
    if view != "top":
        raise BlokusError(f"view {view!r} is for Blokus 3D; {v.id} is flat, drawn from the top only")
    return _flat(board, size, coordinates, move, fills, start_points)


def _svg_open(width: float, vw: float, vh: float, b: Board) -> list[str]:
    """The opening of a picture: the element, the position as a description, the background."""
    height = width * vh / vw
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {vw:.2f} {vh:.2f}">',
        f"<desc>{escape(b.bpn())}</desc>",
        f'<rect x="0" y="0" width="{vw:.2f}" height="{vh:.2f}" fill="{BACKGROUND}"/>',
    ]


def _flat(
    board: Board, size: float | None, coordinates: bool, move: Move | None, fills: list[str], start_points: bool
) -> str:
    """Squares or triangles from above."""
    v = board.variant
    geo = _Geometry(board)
    unit = 24.0 if geo.up is None else 26.0
    margin = 1.2 if coordinates else 0.3
    vw = (geo.width + 2 * margin) * unit
    vh = (geo.height + 2 * margin) * unit
    width = float(size) if size is not None else vw

    def xy(p: Point) -> tuple[str, str]:
        return f"{(p[0] + margin) * unit:.2f}", f"{(p[1] + margin) * unit:.2f}"

    def pt(p: Point) -> str:
        return ",".join(xy(p))

    def line(a: Point, b: Point, extra: str = "") -> str:
        (x1, y1), (x2, y2) = xy(a), xy(b)
        return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"{extra}/>'

    cell_colors = board.cell_colors()
    out = _svg_open(width, vw, vh, board)
    # Cells.
    out.append(f'<g stroke="{GRID}" stroke-width="{unit * 0.04:.2f}" stroke-linejoin="round">')
    for cell in range(v.num_cells):
        c = cell_colors[cell]
        fill = EMPTY if c < 0 else fills[c]
        points = " ".join(pt(p) for p in geo.polygon(cell))
        stroke = "" if c < 0 else f' stroke="{_shade(fills[c], 0.8)}"'
        out.append(f'<polygon points="{points}" fill="{fill}"{stroke}/>')
    out.append("</g>")
    # Piece outlines, so pieces of one colour that touch at corners stay apart.
    out.append(f'<g stroke-width="{unit * 0.09:.2f}" stroke-linecap="round">')
    for color, pieces in enumerate(board.placements()):
        stroke = _shade(fills[color], 0.55)
        for piece in pieces:
            out.extend(line(a, b, f' stroke="{stroke}"') for a, b in _outline(geo, piece.cell_indices()))
    out.append("</g>")
    # Free start points.
    if start_points and not board.is_game_over():
        owners: dict[int, list[int]] = {}
        for color, cells in enumerate(v.start_cells()):
            for cell in cells:
                owners.setdefault(cell, []).append(color)
        for cell, who in sorted(owners.items()):
            if cell_colors[cell] >= 0:
                continue
            fill = fills[who[0]] if len(who) == 1 else TEXT
            cx, cy = xy(geo.center(cell))
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="{unit * 0.2:.2f}" fill="{fill}" stroke="{_shade(fill, 0.6)}" stroke-width="{unit * 0.04:.2f}"/>'
            )
    # The last move.
    if move is not None:
        out.append(f'<g stroke="{HIGHLIGHT}" stroke-width="{unit * 0.16:.2f}" stroke-linecap="round">')
        out.extend(line(a, b) for a, b in _outline(geo, move.cell_indices()))
        out.append("</g>")
        for cell in move.cell_indices():
            cx, cy = xy(geo.center(cell))
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{unit * 0.1:.2f}" fill="{HIGHLIGHT}" fill-opacity="0.55"/>')
    # Coordinates.
    if coordinates:
        font = unit * (0.42 if geo.up is None else 0.36)
        out.append(
            f'<g font-family="sans-serif" font-size="{font:.2f}" fill="{TEXT}" text-anchor="middle" '
            f'dominant-baseline="central">'
        )
        label_y = (geo.height + margin + margin / 2) * unit
        for x in range(geo.columns):
            left = (geo.column_center(x) + margin) * unit
            # Triangle columns are half a cell apart: alternate two lines of labels.
            dy = 0.0 if geo.up is None else (x % 2 - 0.5) * font * 1.05
            out.append(f'<text x="{left:.2f}" y="{label_y + dy:.2f}">{_column_name(x)}</text>')
        label_x = margin / 2 * unit
        for y in range(geo.rows):
            top = (geo.row_center(y) + margin) * unit
            out.append(f'<text x="{label_x:.2f}" y="{top:.2f}">{y + 1}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
