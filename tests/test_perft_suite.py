"""The perft suite shipped with the package: every built-in variant has its four positions, each
position's moves give its BPN, and its shallow counts are what the engine counts (from the
moves and from the BPN), what the reference generator counts, and what ``blokus perft --suite``
checks. The deeper counts run from the command line only (they take seconds each)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from blokus import Board, variants
from blokus.cli import main
from blokus.errors import InvalidArgumentError, InvalidTypeError
from blokus.perft import SUITE_PATH, PerftPosition, divide, dump_suite, load_suite, reference_perft

SUITE = load_suite()
#: Depths the tests count for every position.
SHALLOW = 2


def ids(p: PerftPosition) -> str:
    return f"{p.variant}-{p.name}"


def test_the_suite_ships_inside_the_package() -> None:
    import blokus

    assert Path(blokus.__file__).resolve().parent in SUITE_PATH.parents
    assert SUITE_PATH.is_file()


def test_every_builtin_variant_has_the_four_positions() -> None:
    by_variant: dict[str, list[str]] = {}
    for p in SUITE:
        by_variant.setdefault(p.variant, []).append(p.name)
    assert by_variant == {v: ["empty", "opening", "middle", "end"] for v in variants()}


def test_end_positions_have_colours_out_and_a_colour_to_move() -> None:
    for p in SUITE:
        if p.name == "end":
            board = p.board()
            assert board.out, ids(p)
            assert board.turn is not None, ids(p)
            assert p.bpn.split()[-1] != "-", ids(p)


def test_classic_3_has_positions_with_the_shared_colour_to_move() -> None:
    shared = [p for p in SUITE if p.variant == "classic_3" and p.board().turn == 3]
    assert {p.name for p in shared} >= {"opening", "middle"}
    # The shared colour is played by the players in turn, so its player differs between them.
    assert len({p.board().player for p in shared}) >= 1


def test_positions_are_where_their_names_say() -> None:
    for p in SUITE:
        n = Board(p.variant).variant.num_colors
        if p.name == "empty":
            assert p.moves == [], ids(p)
        elif p.name == "opening":
            # Four moves per colour, or fewer where games are short (Blokus 3D).
            assert 0 < len(p.moves) <= 4 * n + 2, ids(p)
    for v in variants():
        plies = [len(p.moves) for p in SUITE if p.variant == v]
        assert plies == sorted(plies) and len(set(plies)) == 4, v


def test_every_position_counts_to_several_depths() -> None:
    for p in SUITE:
        assert len(p.counts) >= 2 or (p.counts and p.counts[-1] == 0), ids(p)
        assert p.reference_depth == min(2, len(p.counts)), ids(p)


@pytest.mark.parametrize("p", SUITE, ids=ids)
def test_shallow_counts_from_the_moves_and_from_the_bpn(p: PerftPosition) -> None:
    board = p.board()
    assert board.bpn() == p.bpn
    from_bpn = Board.from_bpn(p.bpn)
    for depth, expected in enumerate(p.counts[:SHALLOW], start=1):
        assert board.perft(depth) == expected, depth
        assert from_bpn.perft(depth) == expected, depth


#: The reference tests every placement of the variant at every node above the leaves, so
#: depth 2 costs about ``perft(1) * placements`` tests: where that is more than this (the empty
#: boards and the openings of the larger boards: up to a minute each), the tests
#: confirm depth 1 only; the suite's script confirmed depth 2 of every position when it wrote them.
REFERENCE_BUDGET = 3_000_000


@pytest.mark.parametrize("p", SUITE, ids=ids)
def test_the_reference_generator_confirms_the_shallow_counts(p: PerftPosition) -> None:
    board = p.board()
    cheap = p.counts[0] * board.variant.num_placements <= REFERENCE_BUDGET
    for depth in range(1, (p.reference_depth if cheap else 1) + 1):
        assert reference_perft(board, depth) == p.counts[depth - 1], depth


def test_the_reference_confirms_depth_2_of_most_positions() -> None:
    cheap = [p for p in SUITE if p.counts[0] * Board(p.variant).variant.num_placements <= REFERENCE_BUDGET]
    assert len(cheap) >= 2 * len(SUITE) // 3


def test_the_reference_perft_follows_the_turn_order_through_colours_out() -> None:
    # An end position of a four-colour game where the turn skips colours that are out.
    p = next(p for p in SUITE if p.variant == "classic" and p.name == "end")
    board = p.board()
    assert reference_perft(board, 3) == board.perft(3)


def test_divide_adds_up_and_names_each_first_move() -> None:
    p = next(p for p in SUITE if p.variant == "trigon_3" and p.name == "middle")
    board = p.board()
    d = divide(board, 2)
    assert sum(d.values()) == p.counts[1]
    assert sorted(m.id for m in d) == sorted(int(i) for i in board.legal_moves.ids())
    for m, n in list(d.items())[:5]:
        after = board.copy()
        after.push(m)
        assert n == after.perft(1)


@pytest.mark.parametrize("count", [divide, reference_perft])
@pytest.mark.parametrize("depth", [-1, 43, 2**40, 2**70])
def test_divide_and_the_reference_refuse_depths_out_of_range(count: Callable[[Board, int], object], depth: int) -> None:
    low = 1 if count is divide else 0
    message = rf"perft depth must be {low} to 42 \(a game of duo has at most 42 moves\), not "
    with pytest.raises(InvalidArgumentError, match=message) as e:
        count(Board("duo"), depth)
    assert e.value.argument == "depth"


def test_divide_refuses_depth_zero() -> None:
    with pytest.raises(InvalidArgumentError, match="depth must be 1 to 42"):
        divide(Board("duo"), 0)


@pytest.mark.parametrize("count", [divide, reference_perft])
@pytest.mark.parametrize("depth", [True, 1.0, "1"])
def test_divide_and_the_reference_take_whole_numbers_only(count: Callable[[Board, int], object], depth: object) -> None:
    with pytest.raises(InvalidTypeError, match="depth must be an integer"):
        count(Board("duo"), depth)  # type: ignore[arg-type]


def test_cli_checks_the_suite_and_prints_nodes_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--suite", "--variant", "junior", "--variant", "3d_tower_2", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith(("junior ", "3d_tower_2 "))]
    assert len(lines) == 8 and all(line.endswith("ok") for line in lines)
    assert "nodes/s" in out and "every count matches the suite" in out


def test_cli_exits_1_and_prints_a_count_that_differs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = next(p for p in SUITE if p.variant == "duo" and p.name == "opening")
    wrong = PerftPosition(p.variant, p.name, p.bpn, p.moves, [p.counts[0], p.counts[1] + 1], 0)
    path = tmp_path / "suite.json"
    dump_suite([wrong], path)
    assert main(["perft", "--suite", str(path)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out
    assert f"perft(2): the suite says {p.counts[1] + 1:,}, counted {p.counts[1]:,}" in out


def test_cli_reports_moves_that_do_not_give_the_bpn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = next(p for p in SUITE if p.variant == "duo" and p.name == "opening")
    path = tmp_path / "suite.json"
    dump_suite([PerftPosition(p.variant, p.name, p.bpn, p.moves[:-1], p.counts[:1], 0)], path)
    assert main(["perft", "--suite", str(path)]) == 1
    assert "the moves give duo " in capsys.readouterr().out


def test_cli_refuses_a_file_that_is_not_a_suite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"positions": []}))
    assert main(["perft", "--suite", str(path)]) == 2
    assert "not a perft suite" in capsys.readouterr().err
    assert main(["perft", "--suite", "--variant", "nonesuch"]) == 2
    assert "no positions of it" in capsys.readouterr().err


def test_cli_divide_prints_each_first_move_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "duo", "--moves", "e10,d11,e11,f11,e12", "--depth", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    board = Board("duo", ["e10,d11,e11,f11,e12"])
    rows = [line for line in lines if ": " in line and not line.startswith("duo")]
    assert len(rows) == board.perft(1)
    texts = [r.split(": ")[0] for r in rows]
    assert texts == sorted(texts)
    assert sum(int(r.split(": ")[1]) for r in rows) == board.perft(2)
    assert lines[-1].startswith(f"{board.perft(1)} moves, {board.perft(2)} nodes")


def test_cli_perft_from_a_bpn(capsys: pytest.CaptureFixture[str]) -> None:
    p = next(p for p in SUITE if p.variant == "3d_wall" and p.name == "end")
    assert main(["perft", "--bpn", p.bpn, "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert f"{p.counts[1]:,}" in out
    assert main(["perft", "--bpn", p.bpn, "--moves", "a1@1"]) == 2
