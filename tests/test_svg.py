"""SVG pictures: well-formed, one shape per cell drawn where the rules put it, colours, the last
move, coordinates and start points; and `blokus render` on the command line."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

import pytest

import blokus
from blokus import Board, sgf, svg
from blokus.cli import main
from blokus.errors import BlokusError

NS = "{http://www.w3.org/2000/svg}"

# The neighbours of a cell by the formulas of docs/RULES.md, to check the pictures' geometry.
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

VARIANTS = blokus.variants()


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def columns_of(v: blokus.Variant) -> list[tuple[int, int]]:
    """The columns of a cube board, row 1 first, then by column."""
    return sorted({(x, y) for x, y, z in v.cell_coords() if z == 0}, key=lambda c: (c[1], c[0]))


def limits_of(v: blokus.Variant) -> list[int]:
    """Height limit per place of the grid, row 1 first, 0 where there is no column."""
    coords = v.cell_coords()
    width = max(x for x, _, _ in coords) + 1
    depth = max(y for _, y, _ in coords) + 1
    limits = [0] * (width * depth)
    for x, y, z in coords:
        limits[y * width + x] = max(limits[y * width + x], z + 1)
    return limits


def played(variant_id: str, plies: int) -> Board:
    b = Board(variant_id)
    for _ in range(plies):
        if b.is_game_over():
            break
        moves = list(b.legal_moves)
        b.push(moves[len(moves) // 2])
    return b


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_one_shape_per_cell_in_its_colour(variant_id: str) -> None:
    b = played(variant_id, 12)
    root = parse(svg.board(b))
    assert root.find(f"{NS}desc") is not None and root.findtext(f"{NS}desc") == b.bpn()
    if b.variant.geometry == "cube":
        # From the top: one square per column, in the colour of its top cube.
        squares = root.find(f"{NS}g")
        assert squares is not None
        fills = [p.get("fill") for p in squares.findall(f"{NS}polygon")]
        tops = [int(t) for t in b.top_colors()[::-1].flatten()]
        heights = b.heights()[::-1].flatten()
        limits = limits_of(b.variant)
        expected = [svg.EMPTY if t < 0 else svg.COLORS[b.variant.colors[t]] for t, x in zip(tops, limits) if x]
        assert fills == expected and len(fills) == len(columns_of(b.variant))
        assert heights.sum() == sum(1 for c in b.cell_colors() if c >= 0)
        return
    cells = root.findall(f"{NS}g/{NS}polygon")
    assert len(cells) == b.variant.num_cells
    corners = 4 if b.variant.geometry == "square" else 3
    assert all(len(p.get("points", "").split()) == corners for p in cells)
    fills = [p.get("fill") for p in cells]
    expected = [svg.EMPTY if c < 0 else svg.COLORS[b.variant.colors[c]] for c in b.cell_colors()]
    assert fills == expected


@pytest.mark.parametrize("geometry", ["square", "triangle"])
def test_cells_touch_in_the_picture_as_in_the_rules(geometry: str) -> None:
    """Edge neighbours share an edge (two corners), corner-only neighbours one corner, other
    cells nothing: the picture draws the board the rules describe."""
    v = blokus.Variant("duo" if geometry == "square" else "trigon_3")
    geo = svg._Geometry(Board(v))
    up = v._tables.cells_point_up()
    coords = v.cell_coords()
    index = {c: i for i, c in enumerate(coords)}
    corners = [{(round(x, 6), round(y, 6)) for x, y in geo.polygon(i)} for i in range(v.num_cells)]
    edge_of, corner_of = NEIGHBOURS[geometry]
    by_corner: dict[tuple[float, float], set[int]] = {}
    for i, cs in enumerate(corners):
        for point in cs:
            by_corner.setdefault(point, set()).add(i)
    for i, cell in enumerate(coords):
        is_up = bool(up[i]) if up is not None else False
        edges = {index[n] for n in edge_of(cell, is_up) if n in index}
        touching = {j for k in corners[i] for j in by_corner[k]} - {i}
        only_corner = {index[n] for n in corner_of(cell, is_up) if n in index}
        assert {j for j in touching if len(corners[i] & corners[j]) == 2} == edges
        assert {j for j in touching if len(corners[i] & corners[j]) == 1} == only_corner


def test_rows_and_columns_run_as_on_the_board() -> None:
    geo = svg._Geometry(Board("duo"))
    v = blokus.Variant("duo")
    a1 = geo.polygon(v.cell_index("a1") or 0)
    n14 = geo.polygon(v.cell_index("n14") or 0)
    # a1 at the bottom left, n14 at the top right (y grows downwards in SVG).
    assert min(x for x, _ in a1) == 0 and max(y for _, y in a1) == 14
    assert max(x for x, _ in n14) == 14 and min(y for _, y in n14) == 0


def test_last_move_outline_and_dots() -> None:
    b = Board("duo", ["e10,d11,e11,f11,e12"])
    root = parse(svg.board(b))
    highlight = [g for g in root.findall(f"{NS}g") if g.get("stroke") == svg.HIGHLIGHT]
    assert len(highlight) == 1
    assert len(highlight[0].findall(f"{NS}line")) == 12  # the outline of the X pentomino
    dots = [c for c in root.findall(f"{NS}circle") if c.get("fill") == svg.HIGHLIGHT]
    assert len(dots) == 5
    plain = parse(svg.board(b, last_move=False))
    assert not [g for g in plain.findall(f"{NS}g") if g.get("stroke") == svg.HIGHLIGHT]
    other = parse(svg.board(b, last_move=b.parse_move("j5")))
    assert len([c for c in other.findall(f"{NS}circle") if c.get("fill") == svg.HIGHLIGHT]) == 1
    assert not [g for g in parse(svg.board(Board("duo"))).findall(f"{NS}g") if g.get("stroke") == svg.HIGHLIGHT]


def test_start_points_coordinates_and_size() -> None:
    b = Board("trigon")
    root = parse(svg.board(b, size=500))
    assert root.get("width") == "500"
    starts = [c for c in root.findall(f"{NS}circle") if c.get("fill") == svg.TEXT]
    assert len(starts) == 6  # shared start points are grey
    labels = [t.text for t in root.iter(f"{NS}text")]
    assert labels[:3] == ["a", "b", "c"] and "ai" in labels and labels[-1] == "18"
    assert len(labels) == 35 + 18
    duo = parse(svg.board(Board("duo")))
    own = [c.get("fill") for c in duo.findall(f"{NS}circle")]
    assert own == [svg.COLORS["Orange"], svg.COLORS["Purple"]]  # by cell number: j5, then e10
    bare = parse(svg.board(Board("duo"), coordinates=False, start_points=False))
    assert not list(bare.iter(f"{NS}text")) and not bare.findall(f"{NS}circle")


def test_custom_colours() -> None:
    b = Board("duo", ["e10", "j5"])
    by_name = svg.board(b, colors={"Purple": "#000000"})
    assert 'fill="#000000"' in by_name and svg.COLORS["Orange"] in by_name
    by_number = svg.board(b, colors={1: "rgb(1,2,3)"})
    assert 'fill="rgb(1,2,3)"' in by_number
    assert 'fill="red"' in svg.board(b, colors=["red", "blue"])
    with pytest.raises(BlokusError, match="no colour named 'Blue' in duo"):
        svg.board(b, colors={"Blue": "#00f"})
    with pytest.raises(BlokusError, match="give 2 colours for duo"):
        svg.board(b, colors=["red"])
    with pytest.raises(BlokusError, match="no colour 5"):
        svg.board(b, colors={5: "red"})


def test_notebooks_show_the_picture() -> None:
    b = Board("classic", ["a20"])
    assert b._repr_svg_() == svg.board(b)


def test_render_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.blksgf"
    sgf.dump(Board("duo", ["e10,d11,e11,f11,e12", "j5", "f9"]), game)
    out = tmp_path / "board.svg"
    assert main(["render", str(game), "-o", str(out), "--size", "200"]) == 0
    picture = out.read_text()
    root = parse(picture)
    assert root.get("width") == "200"
    assert root.findtext(f"{NS}desc") == Board("duo", ["e10,d11,e11,f11,e12", "j5", "f9"]).bpn()
    assert main(["render", str(game), "--move", "1", "--no-coordinates", "--no-last-move"]) == 0
    text = capsys.readouterr().out
    assert parse(text).findtext(f"{NS}desc") == Board("duo", ["e10,d11,e11,f11,e12"]).bpn()
    assert "<text" not in text and svg.HIGHLIGHT not in text
    assert main(["render", "duo 14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14/14/14 o -"]) == 0
    assert re.search(r"<svg ", capsys.readouterr().out)
    assert main(["render", str(game), "--move", "9"]) == 2
    assert "the main line has 3 moves" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.blksgf")]) == 2
    assert "No such file" in capsys.readouterr().err
    broken = tmp_path / "broken.blksgf"
    broken.write_text("(;GM[Blokus Duo];B[a1])")
    assert main(["render", str(broken)]) == 2
    assert "line 1, column 17: move 1 (B[a1]): illegal move a1 for Purple" in capsys.readouterr().err
    assert main(["render", "duo 14 p -"]) == 2
    assert "invalid BPN at character" in capsys.readouterr().err


# --- Blokus 3D ---

RING = {
    "id": "ring",
    "board": {"geometry": "cube", "structure": ["343", "4.4", "353"], "limits_for_players": 4},
    "colors": ["Blue", "Red"],
    "players": [[0], [1]],
    "pieces": {},
}


def test_3d_top_view_writes_heights_and_leaves_missing_columns_blank() -> None:
    b = Board(blokus.Variant(RING), ["a1@1,b1@1", "c1@1,c2@1,c1@2", "a2@1,a3@1,a2@2"])
    root = parse(svg.board(b))
    squares = root.find(f"{NS}g")
    assert squares is not None and len(squares.findall(f"{NS}polygon")) == 8  # b2 is no column
    texts = list(root.iter(f"{NS}text"))
    heights = [t.text for t in texts if t.get("font-weight") == "bold"]
    # Row 1 first, then by column: a1 b1 c1 a2 c2 a3 (b3 and c3 are empty).
    assert heights == ["1", "1", "2", "2", "1", "1"]
    labels = [t.text for t in texts if t.get("font-weight") is None and t.get("fill-opacity") is None]
    assert labels == ["a", "b", "c", "1", "2", "3"]
    # Empty columns show their limits: b3 4, c3 3.
    assert [t.text for t in texts if t.get("fill-opacity") == "0.6"] == ["4", "3"]
    # The last move: its footprint outlined (a2, a3), a dot where its cube is on top (both).
    outline = [g for g in root.findall(f"{NS}g") if g.get("stroke") == svg.HIGHLIGHT]
    assert len(outline) == 1 and len(outline[0].findall(f"{NS}line")) == 6
    assert len([c for c in root.findall(f"{NS}circle") if c.get("fill") == svg.HIGHLIGHT]) == 2


def world_faces(b: Board, root: ET.Element) -> list[tuple[str, str, list[tuple[float, float]]]]:
    """(cell, face, picture points) of every cube face drawn, in drawing order."""
    faces = []
    for g in root.iter(f"{NS}g"):
        cell = g.get("data-cell")
        if cell is None:
            continue
        for p in g.findall(f"{NS}polygon"):
            points = []
            for xy in (p.get("points") or "").split():
                px, py = xy.split(",")
                points.append((float(px), float(py)))
            faces.append((cell, p.get("class") or "", points))
    return faces


def face_corners(x: int, y: int, z: int, face: str) -> list[tuple[int, int, int]]:
    if face == "top":
        return [(x + dx, y + dy, z + 1) for dx in (0, 1) for dy in (0, 1)]
    if face == "front":  # facing row 1 (y down)
        return [(x + dx, y, z + dz) for dx in (0, 1) for dz in (0, 1)]
    assert face == "left"  # facing column a
    return [(x, y + dy, z + dz) for dy in (0, 1) for dz in (0, 1)]


def iso(p: tuple[float, float, float]) -> tuple[float, float]:
    """Isometric projection, up to scale and offset: x to the upper right, y to the upper left."""
    x, y, z = p
    return (x - y) * 3**0.5 / 2, -(x + y) / 2 - z


def clip(subject: list[tuple[float, float]], window: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The intersection of two convex polygons (Sutherland-Hodgman)."""

    def side(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    sign = (
        1.0
        if sum(side(window[i - 1], window[i], window[(i + 1) % len(window)]) for i in range(len(window))) > 0
        else -1.0
    )
    out = subject
    for i in range(len(window)):
        a, b = window[i - 1], window[i]
        points, out = out, []
        for j in range(len(points)):
            p, q = points[j - 1], points[j]
            inside_p, inside_q = sign * side(a, b, p) >= 0, sign * side(a, b, q) >= 0
            if inside_q:
                if not inside_p:
                    out.append(cross(a, b, p, q))
                out.append(q)
            elif inside_p:
                out.append(cross(a, b, p, q))
        if not out:
            break
    return out


def cross(
    a: tuple[float, float], b: tuple[float, float], p: tuple[float, float], q: tuple[float, float]
) -> tuple[float, float]:
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = a, b, p, q
    d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / d
    return x1 + t * (x2 - x1), y1 + t * (y2 - y1)


def area(points: list[tuple[float, float]]) -> float:
    return abs(sum(points[i - 1][0] * points[i][1] - points[i][0] * points[i - 1][1] for i in range(len(points)))) / 2


def depth_at(u: float, v: float, x: int, y: int, z: int, face: str) -> float:
    """How far from the viewer the face's point seen at (u, v) is: x + y - z grows away from the
    viewer, who looks along (1, 1, -1)."""
    s = u / (3**0.5 / 2)  # x - y
    if face == "top":  # on the plane z + 1: x + y follows from v
        return -2 * (v + z + 1) - (z + 1)
    if face == "front":  # on the plane y
        fx = s + y
        return fx + y - (-v - (fx + y) / 2)
    fy = x - s  # on the plane x
    return x + fy - (-v - (x + fy) / 2)


@pytest.mark.parametrize("variant_id", ["3d_tower", "3d_wall", "3d_steps", "3d_pyramid", "3d_pyramid_2", "ring"])
def test_3d_iso_view_draws_what_shows_and_nearer_faces_over_farther_ones(variant_id: str) -> None:
    """Every cube face that is not covered by a neighbouring cube is drawn, where the projection
    puts it, and wherever two faces overlap in the picture the one drawn later is nearer."""
    v = blokus.Variant(RING) if variant_id == "ring" else blokus.Variant(variant_id)
    rng = random.Random(variant_id)
    b = Board(v)
    for plies in range(60):
        if b.is_game_over():
            break
        b.push(rng.choice(list(b.legal_moves)))
        if plies not in (3, 15, 30, 59) and not b.is_game_over():
            continue
        root = parse(svg.board(b, view="iso"))
        coords = v.cell_coords()
        at = {c: i for i, c in enumerate(coords)}
        colors = b.cell_colors()

        def filled(
            p: tuple[int, int, int], at: dict[tuple[int, int, int], int] = at, colors: list[int] = colors
        ) -> bool:
            return p in at and colors[at[p]] >= 0

        faces = world_faces(b, root)
        drawn = {(cell, face) for cell, face, _ in faces}
        expected = set()
        for i, (x, y, z) in enumerate(coords):
            if colors[i] < 0:
                continue
            for face, (dx, dy, dz) in (("top", (0, 0, 1)), ("front", (0, -1, 0)), ("left", (-1, 0, 0))):
                if not filled((x + dx, y + dy, z + dz)):
                    expected.add((v.cell_name(i), face))
        assert drawn == expected
        # The picture's scale and offset, from the first face; then every face where it belongs.
        # (Scale and offset keep the order of points by height, then left to right.)
        place = []
        for cell, face, points in faces:
            x, y, z = coords[v.cell_index(cell) or 0]
            world = sorted((iso(c) for c in face_corners(x, y, z, face)), key=lambda p: (p[1], p[0]))
            place.append((x, y, z, face, points, world))
        shown0 = sorted(place[0][4], key=lambda p: (p[1], p[0]))
        world0 = place[0][5]
        scale = math.dist(shown0[0], shown0[-1]) / math.dist(world0[0], world0[-1])
        ox, oy = shown0[0][0] - world0[0][0] * scale, shown0[0][1] - world0[0][1] * scale
        for x, y, z, face, points, world in place:
            got = sorted(points, key=lambda p: (p[1], p[0]))
            for (u, w), (px, py) in zip(world, got):
                assert abs(ox + u * scale - px) < 0.02 and abs(oy + w * scale - py) < 0.02, (x, y, z, face)
        # Occlusion: later faces are nearer where they overlap.
        for j, (xj, yj, zj, fj, pj, _) in enumerate(place):
            for i in range(j):
                xi, yi, zi, fi, pi, _ = place[i]
                if max(p[0] for p in pi) <= min(p[0] for p in pj) or max(p[0] for p in pj) <= min(p[0] for p in pi):
                    continue
                if max(p[1] for p in pi) <= min(p[1] for p in pj) or max(p[1] for p in pj) <= min(p[1] for p in pi):
                    continue
                common = clip(pi, pj)
                if len(common) < 3 or area(common) < 0.5:
                    continue  # touching along an edge only
                cu = sum(p[0] for p in common) / len(common)
                cv = sum(p[1] for p in common) / len(common)
                u, w = (cu - ox) / scale, (cv - oy) / scale
                assert depth_at(u, w, xj, yj, zj, fj) < depth_at(u, w, xi, yi, zi, fi), (
                    f"{variant_id} ply {b.ply}: {fj} of {(xj, yj, zj)} drawn over {fi} of {(xi, yi, zi)} but farther"
                )


def test_3d_iso_view_marks_the_last_move_and_the_limits() -> None:
    b = Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"])
    root = parse(svg.board(b, view="iso"))
    groups = {g.get("data-cell"): g for g in root.iter(f"{NS}g") if g.get("data-cell")}
    assert set(groups) == {"a1@1", "b1@1", "c1@1", "b1@2", "c1@2"}
    for cell, g in groups.items():
        black = [line for line in g.findall(f"{NS}line") if line.get("stroke") == svg.HIGHLIGHT]
        assert bool(black) == (cell in ("c1@1", "b1@2", "c1@2")), cell
    dots = [c for c in root.iter(f"{NS}circle") if c.get("fill") == svg.HIGHLIGHT]
    assert len(dots) == 2  # on the top faces of b1@2 and c1@2
    # The limit (level 8) of every column with room, as a dashed square.
    assert len([p for p in root.iter(f"{NS}polygon") if p.get("class") == "limit"]) == 16
    plain = parse(svg.board(b, view="iso", last_move=False, coordinates=False))
    assert svg.HIGHLIGHT not in ET.tostring(plain, encoding="unicode") and not list(plain.iter(f"{NS}text"))
    labels = [t.text for t in root.iter(f"{NS}text")]
    assert labels == ["a", "b", "c", "d", "1", "2", "3", "4"]


def test_3d_views_and_notebooks() -> None:
    b = Board("3d_steps", ["a1@1,b1@1"])
    assert b._repr_svg_() == svg.board(b) == svg.board(b, view="top")
    assert 'fill="#000000"' in svg.board(b, view="iso", colors={"Blue": "#000000"})
    with pytest.raises(BlokusError, match="view must be one of 'top', 'iso', not 'side'"):
        svg.board(b, view="side")
    with pytest.raises(BlokusError, match="view 'iso' is for Blokus 3D; duo is flat"):
        svg.board(Board("duo"), view="iso")
    with pytest.raises(BlokusError, match="belongs to duo"):
        svg.board(b, last_move=Board("duo").parse_move("e10"))
    # An empty structure: the floor and the limits, nothing else.
    root = parse(svg.board(Board("3d_pyramid"), view="iso"))
    assert not [g for g in root.iter(f"{NS}g") if g.get("data-cell")]


def test_render_command_for_3d(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = Board("3d_wall", ["a1@1,b1@1", "c1@1,c2@1,c1@2"])
    game = tmp_path / "game.blksgf"
    sgf.dump(b, game)
    assert main(["render", str(game), "--view", "iso", "-o", str(tmp_path / "iso.svg")]) == 0
    root = parse((tmp_path / "iso.svg").read_text())
    assert root.findtext(f"{NS}desc") == b.bpn()
    assert len([g for g in root.iter(f"{NS}g") if g.get("data-cell")]) == 5
    assert main(["render", b.bpn(), "--move", "1"]) == 2
    assert "--move needs a game file" in capsys.readouterr().err
    assert main(["render", b.bpn()]) == 0
    top = parse(capsys.readouterr().out)
    assert [t.text for t in top.iter(f"{NS}text") if t.get("font-weight") == "bold"] == ["1", "1", "2", "1"]
    assert main(["render", str(game), "--move", "1", "--view", "iso"]) == 0
    assert parse(capsys.readouterr().out).findtext(f"{NS}desc") == Board("3d_wall", ["a1@1,b1@1"]).bpn()
