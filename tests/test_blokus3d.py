"""Blokus 3D through the Python API: rules, move text with levels, height maps, structures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import blokus
from blokus import Board, Variant
from blokus.errors import IllegalMoveError, InvalidMoveError, InvalidVariantError

STRUCTURES = ["tower", "wall", "steps", "pyramid"]


def test_sixteen_ids() -> None:
    ids = [v for v in blokus.variants() if v.startswith("3d_")]
    assert ids == [f"3d_{s}{m}" for s in STRUCTURES for m in ("", "_3", "_2", "_2x2")]
    for vid in ids:
        v = Variant(vid)
        assert v.geometry == "cube" and len(v.pieces) == 11
        assert sum(p.orientations for p in v.pieces) == 104
        players = 2 if vid.endswith(("_2", "_2x2")) else 3 if vid.endswith("_3") else 4
        assert v.num_players == players


@pytest.mark.parametrize(
    ("variant", "placements", "first"),
    [
        ("3d_tower", 6704, 513),
        ("3d_wall", 7220, 769),
        ("3d_steps", 5984, 1292),
        ("3d_pyramid", 4956, 2153),
        ("3d_tower_3", 5739, None),
        ("3d_wall_2", 4272, None),
        ("3d_pyramid_2x2", 4956, 2153),
    ],
)
def test_counts_from_the_rules(variant: str, placements: int, first: int | None) -> None:
    b = Board(variant)
    assert b.variant.num_placements == placements
    if first is not None:
        assert len(b.legal_moves) == first


def test_rules_of_a_first_and_a_later_piece() -> None:
    b = Board("3d_tower")
    assert b.why_illegal("a1@1,b1@1") is None  # colour 0 goes anywhere on the ground
    assert b.why_illegal("c1@2,d1@2") is not None
    b.push("a1@1,b1@1")
    assert b.why_illegal("a1@2,b1@2") == "first piece off the ground: it must have a cube on level 1"
    assert b.why_illegal("d4@1,d3@1") == "first piece not touching: it must share a face with a cube already placed"
    assert b.why_illegal("c1@2,d1@2") == "unsupported: the cell beneath c1@2 is empty"
    assert b.why_illegal("a1@1,a2@1") == "overlap: a1@1 is already covered"
    assert b.why_illegal("c1@1,d1@1") is None  # beside colour 0's piece, on the ground
    b.push("a2@1,a2@2")
    assert b.turn == 2
    before = b.copy()
    with pytest.raises(IllegalMoveError, match="illegal move c1@2,d1@2 for Red: unsupported"):
        b.push("c1@2,d1@2")
    assert b == before
    b.push("c1@1,d1@1")  # Red's first piece touches Blue's and stands on the ground
    b.push("d2@1,d3@1")  # Green's touches Red's
    assert b.turn == 0
    assert b.why_illegal("c2@1,c3@1") == "piece I2 is already used"
    assert b.why_illegal("c2@1,c3@1,c4@1") == "no face contact: the piece must share a face with a cube of its colour"
    assert b.why_illegal("b2@1,b3@1,b4@1") is None  # a face on Blue's b1
    assert b.why_illegal("b1@2,c1@2,d1@2") is None  # resting on its own cube counts as contact


def test_move_text_with_levels() -> None:
    b = Board("3d_tower")
    m = b.parse_move("B1@1,a1@1,A1@2")
    assert str(m) == "a1@1,b1@1,a1@2" and m.piece.name == "V3"
    with pytest.raises(InvalidMoveError, match=r"above the height limit of its column \(level 8\)"):
        b.parse_move("a1@1,a1@9")
    for bad in ["a1", "a1@0", "a1@", "@1", "e1@1", "a1@1,a1@1"]:
        with pytest.raises(InvalidMoveError):
            b.parse_move(bad)


def test_height_map_and_text() -> None:
    b = Board("3d_tower_2", ["a1@1,b1@1,a1@2"])
    h, tops = b.heights(), b.top_colors()
    assert h.shape == (4, 4) and tops.shape == (4, 4) and h.dtype == np.int32
    assert h[3, 0] == 2 and h[3, 1] == 1 and h.sum() == 3
    assert tops[3, 0] == 0 and tops[0, 0] == -1
    lines = str(b).splitlines()
    assert lines[0] == "4 .6 .6 .6 .6"  # 8 - (4 - 2) levels with two players
    assert lines[3] == "1 B2 B1 .6 .6"
    with pytest.raises(ValueError, match="flat board"):
        Board("duo").heights()


def test_elimination_and_scores() -> None:
    r = blokus.selfplay("3d_steps_2x2", games=20, seed=1, keep_moves=True)
    assert r.moves is not None
    for g in range(20):
        b = r.board(g)
        o = b.outcome()
        assert o is not None
        points = b.points()
        best = max(points)
        owners = {c % 2 for c, p in enumerate(points) if p == best}
        assert set(o.winners) == owners  # the player owning the single best colour wins
        assert b.result() == " ".join(str(p) for p in points)
        visible = [(b.top_colors() == c).sum() for c in range(4)]
        assert points == [int(v) - len(b.pieces_left(c)) for c, v in enumerate(visible)]


def cube_spec(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "id": "hut",
        "board": {"geometry": "cube", "structure": ["44", "45"]},
        "colors": ["Blue", "Red"],
        "players": [[0], [1]],
        "pieces": {"only": ["I2", "V3"]},
    }
    spec.update(changes)
    return spec


def test_user_defined_structure_plays() -> None:
    v = Variant(cube_spec())
    b = Board(v)
    assert v.num_cells == 2 + 2 + 2 + 3  # limits lowered by 4 - 2 = 2 levels with two players
    while not b.is_game_over():
        b.push(next(iter(b.legal_moves)))
    assert b.outcome() is not None
    # With blocked colours skipped, perft(2) counts each first move with every reply of the
    # next colour that can move (here always colour 1, which may start anywhere it touches).
    skip = Board(Variant(cube_spec(blocked="skip")))
    replies = 0
    for first in skip.legal_moves:
        after = skip.copy()
        after.push(first)
        replies += len(after.legal_moves)
    assert skip.perft(2) == replies > 0


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ({"geometry": "cube"}, "needs a structure"),
        ({"geometry": "cube", "structure": []}, "structure"),
        ({"geometry": "cube", "structure": ["22", "2"]}, "structure"),
        ({"geometry": "cube", "structure": ["20"]}, "structure"),
        ({"geometry": "cube", "structure": ["2x"]}, "structure"),
        ({"geometry": "cube", "structure": [".."]}, "structure"),
        ({"geometry": "cube", "structure": ["22"], "width": 2}, "not width, height or holes"),
    ],
)
def test_bad_structures(board: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidVariantError, match=message):
        Variant(cube_spec(board=board))
