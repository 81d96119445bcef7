"""The README's tour runs as written, and its claims in comments hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_tour_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    blocks = python_blocks()
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)


def test_tour_comments_are_true() -> None:
    import blokus

    b = blokus.Board("duo")
    assert (b.turn, b.player) == (0, 0) and len(b.legal_moves) == 414
    m = b.parse_move("E12,d11,e11,f11,e10")
    assert (str(m), m.id, m.piece.name) == ("e10,d11,e11,f11,e12", 11976, "X")
    b.push(m)
    b.push("j5")
    assert b.why_illegal("e10,f10") == "overlap: e10 is already covered"
    assert str(b.pop()) == "j5"


def test_records_positions_and_pictures_comments_are_true() -> None:
    import blokus
    from blokus import sgf, svg

    block = next(b for b in python_blocks() if "sgf.loads(" in b)
    start = block.index('"""') + 3
    text = block[start : block.index('"""', start)]
    game = sgf.loads(text)
    assert (game.variant.id, game.players, game.date) == ("duo", ["Ann", "Bob"], "2024-05-01")
    assert [str(n.move) for n in game.mainline()] == ["e10,d11,e11,f11,e12", "j5", "f9"]
    node = game.children[0]
    assert node.comment == "the X"
    assert [str(m) for m in node.children[1].board().move_stack] == ["e10,d11,e11,f11,e12", "j5,j6"]
    b = blokus.Board("duo", ["e10,d11,e11,f11,e12", "j5,j6", "f9"])
    assert b.bpn() == "duo 14/14/4p9/3ppp8/4p9/5P8/14/14/9O4/9O4/14/14/14/14 o -"
    c = blokus.Board.from_bpn(b.bpn())
    assert (c.turn, c.points() == b.points()) == (1, True)
    assert svg.board(b, size=400).startswith("<svg")
    examples = re.findall(r"^((?:duo|classic|trigon_3|3d_\w+) \S+ \S+ \S+)\s", README, flags=re.M)
    for line in examples:
        if "..." not in line:
            assert blokus.Board.from_bpn(line).bpn() == line
    assert blokus.Board("classic", ["a20", "t20,t19"]).bpn() in examples
    # Blokus 3D: the examples are positions of the game, as described.
    moves = ["a1@1,b1@1", "c1@1,b1@2,c1@2", "d1@1,d2@1", "d3@1,d4@1", "a2@1,a1@2,a2@2"]
    assert blokus.Board("3d_tower", moves).bpn() in examples
    assert "3d_tower -/-/-/- b -" in examples and blokus.Board("3d_tower").bpn() == "3d_tower -/-/-/- b -"
    out = blokus.Board.from_bpn("3d_tower a1@1,b1@1/-/-/- r y")
    assert out.turn == 2 and blokus.Board.from_bpn("3d_tower a1@1,b1@1/-/-/- y -").turn == 1
    ended = blokus.selfplay("3d_steps_2", games=1, seed=0, keep_moves=True).board(0)
    assert ended.bpn().endswith(" - by")
    tower = blokus.Board("3d_tower", ["a1@1,b1@1", "c1@1,b1@2,c1@2"])
    assert svg.board(tower, view="iso").count("data-cell") == 5
    found = re.search(r"^\(;GM\[Blokus 3D.*?\)\n", README, flags=re.M | re.S)
    assert found is not None
    record = found.group()
    game = sgf.loads(record)
    assert sgf.dumps(game) == record
    board = game.end().board()
    assert board._core.out == [1] and [str(m) for m in board.move_stack] == ["a1@3,a1@4"]
