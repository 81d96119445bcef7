"""SVG pictures: well-formed, one shape per cell drawn where the rules put it, colours, the last
move, coordinates and start points; and `blokus render` on the command line."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import blokus
from blokus import Board, sgf, svg
from blokus.cli import main
from blokus.errors import BlokusError
from reference import NEIGHBOURS

NS = "{http://www.w3.org/2000/svg}"
VARIANTS = blokus.variants()


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


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
    cells = root.findall(f"{NS}g/{NS}polygon")
    assert len(cells) == b.variant.num_cells
    corners = 4 if b.variant.geometry == "square" else 3
    assert all(len(p.get("points", "").split()) == corners for p in cells)
    fills = [p.get("fill") for p in cells]
    expected = [svg.EMPTY if c < 0 else svg.COLORS[b.variant.colors[c]] for c in b.cell_colors()]
    assert fills == expected
    assert root.find(f"{NS}desc") is not None and root.findtext(f"{NS}desc") == b.bpn()


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
