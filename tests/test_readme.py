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
