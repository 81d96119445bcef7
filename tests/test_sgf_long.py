"""Long records: reading, walking, writing and drawing them is work in proportion to their size.

Work is counted, not timed: the moves the engine is asked to play (each move of a line once
per read or walk, however long the line), and the lines of the package's Python code that run
(twice the nodes, twice the lines; a walk to the root from every node would make it four)."""

from __future__ import annotations

import functools
import os
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any, Callable

import pytest

import blokus
from blokus import Board, sgf
from blokus.cli import main

# Every 100 nodes: a move of each colour, then a setup that takes both pieces back, then comments.
ROUND = [";B[e10]", ";W[j5]", ";AE[e10][j5]PL[B]", *[";C[x]"] * 97]
PLIES = [1, 2, *[0] * 98]  # the moves on the board after each node of a round


def long_line(nodes: int) -> str:
    """A Duo record with a main line of ``nodes`` nodes after the root, as :func:`sgf.dumps` writes it."""
    assert nodes % len(ROUND) == 0
    return "(;GM[Blokus Duo]CA[UTF-8]\n" + "\n".join(ROUND * (nodes // len(ROUND))) + ")\n"


def nested(depth: int) -> str:
    """A Duo record whose one move is followed by ``depth`` variations, each inside the last."""
    return "(;GM[Blokus Duo];B[e10]" + "(;C[x]" * depth + ")" * depth + ")"


@pytest.fixture
def plays(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the moves the engine plays and the setups it builds."""
    counts: Counter[str] = Counter()
    push = Board.push
    from_setup = Board.from_setup.__func__  # type: ignore[attr-defined]

    def counted_push(board: Board, move: Any) -> None:
        counts["moves"] += 1
        push(board, move)

    def counted_setup(cls: type[Board], *args: Any, **kwargs: Any) -> Board:
        counts["setups"] += 1
        board: Board = from_setup(cls, *args, **kwargs)
        return board

    monkeypatch.setattr(Board, "push", counted_push)
    monkeypatch.setattr(Board, "from_setup", classmethod(counted_setup))
    return counts


def test_a_long_main_line_plays_each_move_once_per_read_and_per_walk(plays: Counter[str]) -> None:
    nodes = 200_000
    text = long_line(nodes)
    once = {"moves": 2 * nodes // len(ROUND), "setups": nodes // len(ROUND)}
    game = sgf.loads(text)
    assert plays == once
    plays.clear()
    end = game.end().board()
    assert plays == once and end.ply == 0 and end.turn == 0
    plays.clear()
    plies = []
    last = None
    for last in game.mainline_boards():
        plies.append(last[1].ply)
    assert plays == once and plies == PLIES * (nodes // len(ROUND))
    assert last is not None and last[0] is game.end() and last[1].bpn() == end.bpn()
    plays.clear()
    assert sgf.dumps(game) == text
    assert plays == {}


def test_deeply_nested_variations_play_their_move_once(plays: Counter[str]) -> None:
    depth = 100_000
    game = sgf.loads(nested(depth))
    assert plays == {"moves": 1}
    end = game.end()
    assert end.comment == "x" and end.board().ply == 1 and plays == {"moves": 2}
    assert sum(1 for _ in game.walk()) == depth + 2 and plays == {"moves": 3}
    assert sgf.dumps(game).count(";C[x]") == depth


def lines_run(work: Callable[[], object]) -> int:
    """How many lines of the package's Python code ``work`` runs."""
    package = os.path.dirname(blokus.__file__)
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if not frame.f_code.co_filename.startswith(package):
            return None  # no lines of other code
        if event == "line":
            count += 1
        return trace

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        work()
    finally:
        sys.settrace(before)
    return count


def use(path: Path) -> None:
    """Reads, walks, writes and draws a record, as a user of a long file would."""
    game = sgf.load(path)
    for _ in game.mainline_boards():
        pass
    for _ in game.walk():
        pass
    game.end().board()
    _ = [node.color for node in game.mainline()], game.end().ply(), game.end().is_mainline()
    sgf.dumps(game)
    assert main(["render", str(path), "-o", str(path.with_suffix(".svg"))]) == 0
    assert main(["render", str(path), "--move", "1", "-o", str(path.with_suffix(".svg"))]) == 0


@pytest.mark.parametrize(("record", "size"), [(long_line, 300), (nested, 300)], ids=["main line", "nested"])
def test_work_grows_in_proportion_to_the_nodes(record: Callable[[int], str], size: int, tmp_path: Path) -> None:
    lines: list[int] = []
    for n in (size, 2 * size):
        path = tmp_path / f"{n}.blksgf"
        path.write_text(record(n), encoding="utf-8")
        use(path)  # once first, so what is built once (tables, caches) is not counted
        lines.append(lines_run(functools.partial(use, path)))
    small, large = lines
    assert small > 10 * size, lines  # the work was counted at all
    assert large < 2.1 * small, lines


def peak_memory(read: Callable[[], object]) -> int:
    """The most memory Python held while ``read`` ran, in bytes (the regex engine's too)."""
    import tracemalloc

    tracemalloc.start()
    try:
        read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("escape", ["\\]", "\\\\", "\\x", "\\\n"])
def test_a_value_of_escapes_costs_about_the_memory_of_plain_text(escape: str) -> None:
    count = 1_000_000
    plain = "(;GM[Blokus Duo]C[" + "ab" * count + "])"
    escaped = "(;GM[Blokus Duo]C[" + escape * count + "])"
    value = "" if escape == "\\\n" else escape[1] * count
    assert sgf.loads(escaped).comment == value
    assert peak_memory(lambda: sgf.loads(escaped)) < 3 * peak_memory(lambda: sgf.loads(plain))
