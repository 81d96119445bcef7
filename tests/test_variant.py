"""Variant configuration: built-ins are data, user specs validate with clear errors and play
through the whole API like a built-in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import blokus
from blokus import Board, Variant
from blokus.errors import InvalidVariantError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def spec(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "tiny",
        "board": {"geometry": "square", "width": 7, "height": 7},
        "colors": ["Blue", "Red"],
        "players": [[0], [1]],
        "start_points": [["a7"], ["g1"]],
        "pieces": {"only": ["1", "2", "I3", "V3", "O"]},
    }
    base.update(changes)
    return base


def test_builtins_are_specs_too() -> None:
    for vid in blokus.variants():
        v = Variant(vid)
        again = Variant(v.spec)
        assert again == v and not again.is_builtin and v.is_builtin
        assert again.num_placements == v.num_placements
        assert Board(again).perft(2) == Board(v).perft(2)


def test_variant_attributes() -> None:
    v = Variant("classic_3")
    assert (v.id, v.sgf_name, v.num_colors, v.num_players) == ("classic_3", "Blokus Three-Player", 4, 3)
    assert v.colors == ("Blue", "Yellow", "Red", "Green")
    assert v.players == ((0,), (1,), (2,)) and v.shared_colors == (3,)
    assert v.start_points() == [["a20"], ["t20"], ["t1"], ["a1"]]
    assert [p.name for p in v.pieces][:4] == ["1", "2", "I3", "V3"] and len(v.pieces) == 21
    assert sum(p.orientations for p in v.pieces) == 91
    j = Variant("junior")
    assert len(j.pieces) == 12 and all(p.copies == 2 for p in j.pieces)
    assert sum(p.size * p.copies for p in j.pieces) == 88


def test_custom_variant_plays_through_the_api() -> None:
    v = Variant(spec(board={"geometry": "square", "width": 7, "height": 7, "holes": ["d4"]}, scoring="basic"))
    assert v.num_cells == 48 and v.cell_index("d4") is None
    b = Board(v)
    assert b.turn == 0
    first = list(b.legal_moves)
    assert first and all("a7" in m.cells for m in first)
    n = 0
    while not b.is_game_over():
        b.push(next(iter(b.legal_moves)))
        n += 1
    assert b.ply == n and b.result().startswith(("B+", "W+", "0"))
    assert all(p <= 0 for p in b.points())  # basic scoring: minus cells left in hand
    while b.ply:
        b.pop()
    assert b == Board(v)
    r = blokus.selfplay(v, games=20, seed=1, threads=2)
    assert r.points.shape == (20, 2) and (r.points <= 0).all()
    assert eval(repr(Board(v, ["a7"])), {"blokus": blokus}) == Board(v, ["a7"])


def test_shared_start_points() -> None:
    s = spec(shared_start_points=["a7", "g1"])
    del s["start_points"]
    b = Board(Variant(s))
    assert {c for m in b.legal_moves for c in m.cells} >= {"a7", "g1"}
    b.push("g1,g2")  # Blue may take either point; a covered one is gone
    assert b.turn == 1 and all("a7" in m.cells for m in b.legal_moves)
    one = spec(shared_start_points=["d4"])
    del one["start_points"]
    b = Board(Variant(one))
    b.push("d4")
    assert b.turn == 0  # Red's only start point is covered: Red is skipped for good


def test_spec_files(tmp_path: Path) -> None:
    toml = Variant.from_file(EXAMPLES / "mini.toml")
    assert toml.id == "mini" and toml.scoring == "basic" and len(toml.pieces) == 12
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(toml.spec))
    assert Variant.from_file(path) == toml
    bad = tmp_path / "bad.toml"
    bad.write_text("id = ")
    with pytest.raises(InvalidVariantError, match=r"bad\.toml"):
        Variant.from_file(bad)
    with pytest.raises(InvalidVariantError, match="cannot read"):
        Variant.from_file(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"start_points": [["a7"], ["h1"]]}, r"start_points\[1\]: h1 is off the board"),
        ({"start_points": [["a7"], ["1g"]]}, r'start_points\[1\]: "1g" is not a cell name'),
        ({"start_points": [["a7"]]}, "start_points: 1 lists for 2 colours"),
        ({"start_points": [["a7"], []]}, r"start_points\[1\]: no start point"),
        ({"pieces": {"only": ["I3", "Q9"]}}, 'pieces.only: unknown piece "Q9"'),
        ({"pieces": {"only": []}}, "pieces.only: the list is empty"),
        ({"pieces": {"copies": 0}}, "pieces.copies: 0 copies"),
        ({"players": [[0], [1], [1]]}, "players: 3 players but only 2 colours"),
        ({"players": [[0], [0]]}, r"players\[1\]: colour 0 is already played"),
        ({"players": [[0], [2]]}, r"players\[1\]: colour 2 does not exist"),
        ({"players": [[0, 1], []]}, r"players\[1\]: a player must play at least one colour"),
        ({"players": [[0]]}, r"colour 1 \(Red\) is played by nobody"),
        ({"colors": []}, "colors: 0 colours given"),
        ({"colors": ["a", "b", "c", "d", "e"]}, "colors: 5 colours given"),
        ({"board": {"geometry": "square", "width": 0, "height": 7}}, "board: 0x7 is not a size"),
        ({"board": {"geometry": "square", "width": 7}}, "board: a square board needs width and height"),
        ({"board": {"geometry": "hex", "width": 7, "height": 7}}, 'board.geometry: unknown geometry "hex"'),
        ({"board": {"geometry": "square", "width": 7, "height": 7, "holes": ["z1"]}}, "board.holes: z1 is off"),
        ({"board": {"geometry": "square", "width": 30, "height": 30}}, "board: 900 cells, at most 512"),
        ({"scoring": "fancy"}, r'scoring: unknown value "fancy" \(known: advanced, basic\)'),
        ({"colours": ["a"]}, "unknown field `colours`"),
        ({"id": ""}, "id: "),
        ({"shared_start_points": ["a1"]}, "give start_points or shared_start_points, not both"),
    ],
)
def test_bad_specs_say_what_is_wrong(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidVariantError, match=message):
        Variant(spec(**changes))


def test_spec_must_be_plain_data() -> None:
    with pytest.raises(InvalidVariantError, match="plain data"):
        Variant(spec(colors=[object()]))
    with pytest.raises(TypeError):
        Variant(3)  # type: ignore[arg-type]
