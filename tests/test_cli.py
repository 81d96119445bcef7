"""The command line: selfplay, perft and variants print what they promise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import blokus
from blokus import Board
from blokus.cli import main


def test_selfplay_prints_speed_and_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--variant", "classic_2", "--games", "50", "--seed", "3", "--threads", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("classic_2: 50 uniform games in ") and "games/s" in out[0]
    assert [line.split()[0] for line in out[2:6]] == ["Blue", "Yellow", "Red", "Green"]
    assert out[7].startswith("0  Blue+Red") and out[8].startswith("1  Yellow+Green")


def test_ctrl_c_between_slices_ends_selfplay_with_code_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal
    from typing import Any

    from blokus import selfplay as run

    # A real SIGINT, sent from the progress callback once the first slice is done: Python
    # raises KeyboardInterrupt on the way back, before the next slice starts.
    def interrupted_selfplay(*args: Any, **kwargs: Any) -> Any:
        kwargs["progress"] = lambda done, total: signal.raise_signal(signal.SIGINT)
        return run(*args, **kwargs)

    monkeypatch.setattr("blokus.cli.selfplay", interrupted_selfplay)
    assert main(["selfplay", "--variant", "duo", "--games", "100000000", "--threads", "1"]) == 130
    assert capsys.readouterr().err.endswith("blokus: interrupted\n")


def test_perft_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "duo", "--depth", "2"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [(r[0], r[1]) for r in rows] == [("1", "414"), ("2", "171,396")]


def test_perft_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "duo", "--depth", "1", "--moves", "e10;j5"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[2].split()[:2] == ["1", f"{len(Board('duo', ['e10', 'j5']).legal_moves):,}"]


def test_variant_file_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    mini = str(Path(__file__).resolve().parent.parent / "examples" / "mini.toml")
    assert main(["selfplay", "--variant", mini, "--games", "5", "--threads", "1"]) == 0
    assert capsys.readouterr().out.startswith("mini: 5 uniform games")
    assert main(["perft", "--variant", "nope"]) == 2
    assert 'unknown variant "nope"' in capsys.readouterr().err
    assert main(["perft", "--variant", "duo", "--moves", "a1"]) == 2
    assert "illegal move a1 for Purple" in capsys.readouterr().err


@pytest.mark.parametrize("divide", [[], ["--divide"]])
@pytest.mark.parametrize("depth", ["0", "43", "1099511627776", "10" * 15])
def test_perft_refuses_a_depth_past_the_longest_game_at_once(
    divide: list[str], depth: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", "--variant", "duo", "--depth", depth, *divide]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("blokus: --depth: perft depth must be 1 to 42 (a game of duo has at most 42 moves), not ")
    assert len(err.splitlines()) == 1


def test_variants_lists_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    ids = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    # Every id stands apart from the name after it, the longest too.
    assert ids == blokus.variants() and ids[:5] == ["classic", "classic_2", "classic_3", "duo", "junior"]


def test_bench_columns_stay_apart_however_large_the_figures() -> None:
    from blokus.bench import TABLE_HEADER, Row, format_row

    row = Row("trigon_3", 1e6, 2e6, 3e9, 4e9, 2, 210_445_856_681.0)
    line = format_row(row)
    assert line.split() == [
        "trigon_3",
        "1,000,000",
        "2,000,000",
        "3,000,000,000",
        "4,000,000,000",
        "2",
        "210,445,856,681",
    ]
    # Ordinary figures end under their headings.
    ordinary = format_row(Row("classic", 43_329, 83_946, 218_862_769, 299_808_023, 4, 413_588_000))
    assert len(ordinary) == len(TABLE_HEADER)


def test_bench_prints_a_positive_figure_in_every_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page, report = tmp_path / "BENCHMARKS.md", tmp_path / "bench.json"
    args = [
        "bench",
        "--json",
        str(report),
        "--markdown",
        str(page),
        "--variant",
        "duo",
        "--variant",
        "trigon",
        "--seconds",
        "0.02",
        "--threads",
        "2",
        "--rl-games",
        "1",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["duo"], ["trigon"])]
    # The speed table, then the batch environment's (Rust, BatchEnv, their ratio).
    assert [r[0] for r in rows] == ["duo", "trigon", "duo", "trigon"]
    for row in rows[:2]:
        figures = [float(x.replace(",", "")) for x in row[1:]]
        assert len(figures) == 6 and all(x > 0 for x in figures), row
    for row in rows[2:]:
        rust, python = (float(x.replace(",", "")) for x in row[1:3])
        assert rust > 0 and python > 0 and abs(float(row[3].rstrip("%")) - 100 * python / rust) <= 1, row
    # The page and the JSON carry the printed figures.
    figures = json.loads(report.read_text())
    assert [r["variant"] for r in figures["variants"]] == ["duo", "trigon"]
    table = [line for line in page.read_text().splitlines() if line.startswith(("| duo |", "| trigon |"))]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in table]
    assert [c[0] for c in cells] == ["duo", "trigon", "duo", "trigon"]
    assert [c[1:7] for c in cells[:2]] == [row[1:7] for row in rows[:2]]
    # Written again, the page keeps the sections other benchmarks put below its marker.
    from blokus.bench import KEPT

    other = f"{KEPT}\n\n## Search speed beside Pentobi\n\n| duo, empty | 1 | 2 | 3 | 0.50 |\n"
    page.write_text(page.read_text() + "\n" + other)
    assert main([*args[:5], "--variant", "duo", "--seconds", "0.02", "--rl-games", "1"]) == 0
    text = page.read_text()
    assert text.endswith(other) and text.count(KEPT) == 1 and text.startswith("# Benchmarks")


def test_match_prints_scores_and_elo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "m"
    assert main(["match", "greedy", "random", "--games", "4", "--jobs", "1", "--seed", "2", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "duo: 4 games of 4 (2 rounds), seed 2"
    assert [line.split()[0] for line in lines[2:4]] == ["greedy", "random"]
    assert lines[4].startswith("Elo greedy vs random: ")
    assert len((out / "results.dat").read_text().splitlines()) == 5 and len(list((out / "games").iterdir())) == 4
    assert (
        main(["match", "greedy", "random", "--games", "6", "--jobs", "1", "--seed", "2", "--out", str(out), "--resume"])
        == 0
    )
    assert capsys.readouterr().out.startswith("duo: 6 games of 6 (3 rounds)")


def test_a_match_logged_to_a_file_says_how_far_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "greedy", "random", "--games", "20", "--jobs", "1", "--seed", "2"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == [f"blokus match: {n}/20 games" for n in range(2, 20, 2)]
    assert lines[-1].startswith("blokus match: 18/20 games, greedy 1.000 (")


def test_match_sprt_and_equal_time_flags(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "greedy", "random", "--games", "100", "--jobs", "1", "--sprt", "0", "100", "--equal-time", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "stopped early (sprt: H1)" in out and "H1 accepted" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "random"], "a match needs at least two engines, not 1"),
        (["match", "random", "nope"], "unknown bot 'nope'"),
        (
            ["match", "random", "greedy", "--games", "x"],
            "argument --games: expected an integer of at most 30 digits, not 'x'",
        ),
        (["match", "random", "greedy", "--variant", "chess"], 'unknown variant "chess"'),
        (["match", "random", "greedy", "--equal-time", "3"], "--equal-time 3: engines are numbered 1 to 2"),
        (["match", "random", "greedy", "--sprt", "5", "1"], "elo0 < elo1"),
        (["match", "random", "greedy", "--openings", "/no/such/file"], "/no/such/file: No such file or directory"),
        (["match", "random", "greedy", "--timeout", "-1"], "argument --timeout: expected a number of seconds above 0"),
        (["match", "random", "greedy", "--timeout", "inf"], "argument --timeout: expected a number of seconds above 0"),
        (["match", "random", "greedy", "--timeout", "0"], "argument --timeout: expected a number of seconds above 0"),
        (["match", "random", "greedy", "--out", ""], "argument --out/-o: expected a folder, not an empty path"),
        (["match", "random", "greedy", "--opening-plies", "100000"], "opening plies must be 0 to 42 (a game of duo"),
        (["match", "random", "greedy", "--alpha", "1.5"], "argument --alpha: expected a number between 0 and 1"),
        (["match", "random", "greedy", "--jobs", "0"], "argument --jobs/-j: expected 1 to 100000, not 0"),
        (["play", "--seed", str(2**64)], "argument --seed: expected 0 to 18446744073709551615"),
        (["play", "--seconds", "nan"], "argument --seconds: expected a number of seconds above 0"),
        (["analyse", "x.blksgf", "--bot", "mcts:simulations=1e23"], "simulations must be an integer, not float"),
        (["analyse", "x.blksgf", "--bot", "mcts:simulations=True"], "simulations must be an integer, not a bool"),
        (["gtp", "--bot", "mcts:depth=3"], "bot 'mcts' has no option 'depth'"),
        (["gtp", "--bot", "greedy", "--threads", "2"], "bot 'greedy' has no option 'threads'"),
        (["gtp", "--bot", "pentobi-gtp --nobook"], "serves a built-in bot"),
        (["gtp", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    try:
        code = main(args)
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_the_version_is_written_once() -> None:
    # Cargo.toml's workspace version is the package's (maturin reads it) and the extension's.
    import re
    from importlib.metadata import version
    from pathlib import Path

    import blokus

    cargo = (Path(__file__).resolve().parent.parent / "Cargo.toml").read_text()
    match = re.search(r'\[workspace\.package\]\nversion = "([^"]+)"', cargo)
    assert match is not None
    assert blokus.__version__ == version("blokus") == match.group(1)


def test_ray_options_without_ray_say_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from blokus import distributed
    from blokus.errors import MissingDependencyError

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as when it is not installed
    monkeypatch.setenv(distributed.SINGLE_MACHINE, "0")
    for args in (["selfplay", "--games", "10", "--ray"], ["match", "random", "greedy", "--ray", "auto"]):
        assert main(args) == 2
        assert "pip install 'blokus[ray]'" in capsys.readouterr().err
    with pytest.raises(MissingDependencyError) as e:
        distributed.selfplay("duo", 10)
    assert isinstance(e.value, ImportError) and isinstance(e.value, blokus.BlokusError)
    assert main(["selfplay", "--games", "10", "--chunk", "5"]) == 2
    assert "--chunk" in capsys.readouterr().err
