"""What the page needs to draw a variant and to turn a pointer into a placement, computed once
per variant from the library's tables: cell polygons (flat boards) or cube coordinates (Blokus
3D), and for every piece its orientations with the placements each one makes, by the cell the
pointer holds it at.

The page does no geometry of its own: rotating or flipping a piece is a lookup in the tables
made here, and a hovered cell with an orientation names one placement (or, in Blokus 3D, the
few placements of that footprint at different heights).

>>> from blokus.variant import variant
>>> g = board_geometry(variant("duo"))
>>> g["kind"], len(g["cells"]), g["cells"][0]["name"]
('square', 196, 'a1')
>>> x = next(p for p in g["pieces"] if p["name"] == "X")
>>> len(x["orientations"]), x["orientations"][0]["rotate"], len(x["orientations"][0]["placements"]) // 2
(1, 0, 144)
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

from blokus.svg import _Geometry
from blokus.variant import Variant

#: A cell's position for shape comparison: its centre, and for triangles whether it points up.
_Point = tuple[float, ...]


def _round(p: _Point) -> _Point:
    return tuple(round(c, 3) + 0.0 for c in p)


class _Shapes:
    """Cell centres of a variant and the symmetries that turn a shape."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.kind = v.geometry
        coords = v.cell_coords()
        if self.kind == "cube":
            self.points: list[_Point] = [(float(x), float(y), float(z)) for x, y, z in coords]
        else:
            self.geo = _Geometry_for(v)
            up = v.points_up()
            self.points = []
            for cell in range(v.num_cells):
                cx, cy = self.geo.center(cell)
                # Triangles: the direction matters, 1.0 for up (a float, so shapes sort).
                self.points.append((cx, cy, 1.0 if up[cell] else 0.0) if up is not None else (cx, cy))

    def key(self, points: list[_Point]) -> tuple[_Point, ...]:
        if self.kind == "triangle":
            # Centres moved to a bounding box at 0; the direction kept.
            low_x = min(p[0] for p in points)
            low_y = min(p[1] for p in points)
            return tuple(sorted(_round((p[0] - low_x, p[1] - low_y, p[2])) for p in points))
        low = [min(p[i] for p in points) for i in range(len(points[0]))]
        return tuple(sorted(_round(tuple(p[i] - low[i] for i in range(len(p)))) for p in points))

    def rotate(self, points: list[_Point]) -> list[_Point]:
        """A quarter turn (squares, cubes about the vertical axis) or a sixth (triangles)."""
        if self.kind == "cube":
            return [(-p[1], p[0], p[2]) for p in points]
        angle = math.pi / 2 if self.kind == "square" else math.pi / 3
        c, s = math.cos(angle), math.sin(angle)
        turned: list[_Point] = [(p[0] * c - p[1] * s, p[0] * s + p[1] * c) for p in points]
        if self.kind == "triangle":
            return [(x, y, 1.0 - p[2]) for (x, y), p in zip(turned, points)]
        return turned

    def flip(self, points: list[_Point]) -> list[_Point]:
        """A mirror image (left to right); for cubes a half turn about the front-back axis."""
        if self.kind == "cube":
            return [(-p[0], p[1], -p[2]) for p in points]
        return [(-p[0], *p[1:]) for p in points]

    def tilt(self, points: list[_Point]) -> list[_Point]:
        """Cubes only: a quarter turn about the left-right axis (stands a piece up)."""
        return [(p[0], -p[2], p[1]) for p in points]


def _Geometry_for(v: Variant) -> _Geometry:
    """:class:`blokus.svg._Geometry` wants a board only for its variant."""
    from blokus.board import Board

    return _Geometry(Board(v))


def _reference(shapes: _Shapes, cells: list[int]) -> int:
    """The cell a piece is held at: the one nearest its centre (in Blokus 3D, of the column
    nearest the centre, the lowest cube)."""
    pts = [shapes.points[c] for c in cells]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)

    def distance(c: int) -> tuple[float, float, int]:
        p = shapes.points[c]
        lift = p[2] if shapes.kind == "cube" else 0.0
        return (round((p[0] - mx) ** 2 + (p[1] - my) ** 2, 6), lift, c)

    return min(cells, key=distance)


def _pieces(v: Variant, shapes: _Shapes) -> list[dict[str, Any]]:
    tables = v._tables
    by_piece: list[dict[tuple[_Point, ...], dict[str, Any]]] = [{} for _ in v.pieces]
    for pid in range(v.num_placements):
        cells = tables.placement_cells(pid)
        number = tables.placement_piece(pid)
        key = shapes.key([shapes.points[c] for c in cells])
        found = by_piece[number].get(key)
        if found is None:
            ref = _reference(shapes, cells)
            found = {"key": key, "sample": cells, "ref": ref, "placements": []}
            by_piece[number][key] = found
            ref_cell = ref
        else:
            # The reference of this placement: the cell at the sample's reference, moved along.
            ref_cell = _reference(shapes, cells)
        found["placements"].extend((ref_cell, pid))
    out = []
    for piece, orientations in zip(v.pieces, by_piece):
        keys = list(orientations)
        index = {k: i for i, k in enumerate(keys)}

        def turned(
            k: tuple[_Point, ...],
            how: Any,
            orientations: dict[tuple[_Point, ...], dict[str, Any]] = orientations,
            index: dict[tuple[_Point, ...], int] = index,
        ) -> int:
            # From the sample's own centres: turning rounded points would add up the rounding.
            points = [shapes.points[c] for c in orientations[k]["sample"]]
            for _ in range(6):
                points = how(points)
                j = index.get(shapes.key(points))
                if j is not None:
                    return j
            return index[k]

        listed = []
        for k in keys:
            o = orientations[k]
            item: dict[str, Any] = {
                "rotate": turned(k, shapes.rotate),
                "flip": turned(k, shapes.flip),
                "placements": o["placements"],
            }
            ref = o["ref"]
            if shapes.kind == "cube":
                rx, ry, rz = shapes.points[ref]
                item["tilt"] = turned(k, shapes.tilt)
                item["cubes"] = [
                    [int(p[0] - rx), int(p[1] - ry), int(p[2] - rz)]
                    for p in map(shapes.points.__getitem__, o["sample"])
                ]
            else:
                cx, cy = shapes.geo.center(ref)
                item["polygons"] = [
                    [[round(x - cx, 4), round(y - cy, 4)] for x, y in shapes.geo.polygon(c)] for c in o["sample"]
                ]
            listed.append(item)
        out.append(
            {
                "name": piece.name,
                "size": piece.size,
                "copies": piece.copies,
                "index": piece.index,
                "orientations": listed,
            }
        )
    return out


def board_geometry(v: Variant) -> dict[str, Any]:
    """The drawing and the placements of a variant, as the ``setup`` message carries them
    (see the guide's protocol section); computed once per variant.

    >>> from blokus.variant import variant
    >>> g = board_geometry(variant("3d_tower"))
    >>> g["kind"], len(g["columns"]), g["cells"][16]
    ('cube', 16, {'name': 'a1@2', 'xyz': [0, 0, 1]})
    """
    geometry: dict[str, Any] = json.loads(_geometry_json(v))
    return geometry


@functools.lru_cache(maxsize=16)
def _geometry_json(v: Variant) -> str:
    shapes = _Shapes(v)
    out: dict[str, Any] = {"kind": v.geometry}
    if v.geometry == "cube":
        coords = v.cell_coords()
        out["cells"] = [{"name": v.cell_name(c), "xyz": list(coords[c])} for c in range(v.num_cells)]
        out["columns"] = [list(c) for c in v.column_limits() or []]
        xs = [c[0] for c in out["columns"]]
        ys = [c[1] for c in out["columns"]]
        out["width"], out["depth"] = max(xs) + 1, max(ys) + 1
    else:
        geo = shapes.geo
        out["cells"] = [
            {"name": v.cell_name(c), "points": [[round(x, 4), round(y, 4)] for x, y in geo.polygon(c)]}
            for c in range(v.num_cells)
        ]
        out["width"], out["height"] = round(geo.width, 4), round(geo.height, 4)
        out["columns"] = [
            {"label": _label(x), "x": round(geo.column_center(x), 4), "row": x % 2 if geo.up is not None else 0}
            for x in range(geo.columns)
        ]
        out["rows"] = [{"label": str(y + 1), "y": round(geo.row_center(y), 4)} for y in range(geo.rows)]
    out["start"] = v.start_cells()
    out["pieces"] = _pieces(v, shapes)
    return json.dumps(out, separators=(",", ":"))


def _label(x: int) -> str:
    from blokus.text import _column_name

    return _column_name(x)
