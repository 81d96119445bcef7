"""``blokus bench``: games/s, legal moves/s and perft speed per variant, on one thread and on
every core; the batch environment stepped from Rust and from Python; and the same games
through blokus-rl when it is installed.

Legal moves are counted two ways along random games: listed from each position (what
``Board.legal_moves`` does; a game's positions are kept, then listed one after another and
timed together, since a clock read per position would cost about a tenth of the listing) and
enumerated from the caches an incremental playout keeps.

The batch environment replays the same random games (recorded by :func:`blokus.selfplay`) in
Rust alone and through :class:`blokus.rl.BatchEnv`, writing every observation and legal action
mask after every step, so the two figures differ by what Python and the binding cost.

>>> import io
>>> out = io.StringIO()
>>> figures = run(["duo"], seconds=0.01, threads=1, rl_games=0, out=out)
>>> [row["variant"] for row in figures["variants"]], "games/s" in out.getvalue()
(['duo'], True)
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import Callable, TextIO

import blokus
from blokus import _arguments, _blokus
from blokus.board import Board
from blokus.progress import Progress
from blokus.selfplay import selfplay
from blokus.variant import variant

#: A perft depth per variant that takes a fraction of a second to seconds.
PERFT_DEPTH = {"duo": 3, "junior": 3, "classic": 4, "classic_2": 4, "classic_3": 4}


@dataclass
class Row:
    """One variant's figures: one line of the speed table.

    >>> r = measure("junior", seconds=0.01, threads=1)
    >>> r.variant, r.perft_depth, r.games_per_second_1 > 0, r.moves_per_second > 0
    ('junior', 3, True, True)
    """

    variant: str
    games_per_second_1: float
    games_per_second_all: float
    moves_per_second: float
    enumerated_per_second: float
    perft_depth: int
    perft_nodes_per_second: float


#: The header of the speed table; columns are separated by at least one space, however wide
#: a figure grows (trigon's perft passes ten billion nodes a second).
TABLE_HEADER = (
    f"{'variant':<13} {'games/s 1 thr':>13} {'games/s all':>12} {'moves/s listed':>15}"
    f" {'in playouts':>13} {'perft':>6} {'nodes/s':>15}"
)


def format_row(r: Row) -> str:
    """One line of the speed table, aligned under `TABLE_HEADER`.

    >>> print(format_row(Row("duo", 120000, 240000, 4e8, 3.9e8, 3, 2.5e8)))
    duo                 120,000      240,000     400,000,000   390,000,000      3     250,000,000
    """
    return (
        f"{r.variant:<13} {r.games_per_second_1:>13,.0f} {r.games_per_second_all:>12,.0f}"
        f" {r.moves_per_second:>15,.0f} {r.enumerated_per_second:>13,.0f} {r.perft_depth:>6}"
        f" {r.perft_nodes_per_second:>15,.0f}"
    )


def _timed_rate(run: Callable[[int], float], seconds: float, start: int, runs: int = 1) -> float:
    """Runs `run(n)` (which returns elapsed seconds) with n grown until it takes `seconds`;
    the median rate of `runs` runs of that length (a machine whose speed wanders moves one run
    more than the median of three)."""
    n = start
    while True:
        dt = run(n)
        if dt >= seconds or n >= 10_000_000:
            break
        n = max(n * 2, int(n * seconds / max(dt, 1e-6) * 1.1))
    rates = sorted([n / dt] + [n / run(n) for _ in range(runs - 1)])
    return rates[len(rates) // 2]


def measure(variant_id: str, seconds: float, threads: int) -> Row:
    """Measures one variant's row: every rate for about ``seconds`` each (perft once).

    >>> r = measure("duo", seconds=0.01, threads=2)
    >>> r.variant, r.games_per_second_all > 0, r.perft_nodes_per_second > 0
    ('duo', True, True)
    """
    v = variant(variant_id)
    one = _timed_rate(lambda n: selfplay(v, games=n, seed=1, threads=1).seconds, seconds, 20, 3)
    allc = _timed_rate(lambda n: selfplay(v, games=n, seed=2, threads=threads).seconds, seconds, 20 * threads)

    games_n = 20
    while True:
        moves, dt = _blokus.list_moves(v._tables, games_n, 3)
        if dt >= seconds:
            break
        games_n = max(games_n * 2, int(games_n * seconds / max(dt, 1e-6) * 1.1))
    moves_rate = moves / dt
    games_n = 20
    while True:
        enumerated, dt = _blokus.enumerate_moves(v._tables, games_n, 3)
        if dt >= seconds or games_n >= 1_000_000:
            break
        games_n = max(games_n * 2, int(games_n * seconds / max(dt, 1e-6) * 1.1))
    enumerated_rate = enumerated / max(dt, 1e-9)
    depth = PERFT_DEPTH.get(v.id, 2)
    board = Board(v)
    t0 = time.perf_counter()
    nodes = board.perft(depth)
    perft_rate = nodes / (time.perf_counter() - t0)
    return Row(v.id, one, allc, moves_rate, enumerated_rate, depth, perft_rate)


def blokus_rl_comparison(games: int, progress: Progress) -> list[tuple[str, float]] | None:
    """Random classic games through blokus-rl's environment and through ours, side by side.

    >>> import io
    >>> rows = blokus_rl_comparison(2, Progress(4, io.StringIO(), enabled=False))
    >>> rows is None or rows[1][0] == "blokus: PettingZoo AEC loop"  # None without blokus-rl
    True
    """
    try:
        from blokus_rl import BlokusEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    import numpy as np

    rng = np.random.default_rng(0)

    def aec_loop(env: object) -> float:
        t0 = time.perf_counter()
        for g in range(games):
            env.reset(seed=g)  # type: ignore[attr-defined]
            for _agent in env.agent_iter():  # type: ignore[attr-defined]
                obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
                if term or trunc:
                    env.step(None)  # type: ignore[attr-defined]
                else:
                    legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
                    env.step(int(legal[rng.integers(len(legal))]))  # type: ignore[attr-defined]
        return games / (time.perf_counter() - t0)

    rows = [("blokus-rl: PettingZoo AEC loop", aec_loop(BlokusEnv()))]
    progress.step("blokus-rl")
    from blokus.rl.pettingzoo import env as our_env

    rows.append(("blokus: PettingZoo AEC loop", aec_loop(our_env("classic"))))
    progress.step("blokus AEC loop")
    pyrng = random.Random(0)
    list(Board("classic").legal_moves)  # builds the variant's Move objects once, untimed
    t0 = time.perf_counter()
    for _ in range(games):
        b = Board("classic")
        while not b.is_game_over():
            b.push(pyrng.choice(list(b.legal_moves)))
    rows.append(("blokus: Board loop over Move objects", games / (time.perf_counter() - t0)))
    t0 = time.perf_counter()
    for _ in range(games):
        b = Board("classic")
        while not b.is_game_over():
            ids = b.legal_moves.ids()
            b.push(int(ids[pyrng.randrange(len(ids))]))
    rows.append(("blokus: Board loop over legal_moves.ids()", games / (time.perf_counter() - t0)))
    progress.step("blokus Board loops")
    # Grown to half a second of play, like the table above: a thousand games (20 ms) let a
    # hiccup of the machine move the figure by a quarter.
    rate = _timed_rate(lambda n: selfplay("classic", games=n, seed=4, threads=1).seconds, 0.5, 1000)
    rows.append(("blokus: selfplay batch, 1 thread", rate))
    progress.step("blokus selfplay")
    return rows


#: Games in the batch environment's benchmark.
BATCH_GAMES = 256


def batch_env_rates(variant_id: str, games: int = BATCH_GAMES, rounds: int = 3) -> tuple[float, float]:
    """Games/s of a batch of ``games`` random games replayed on one thread, best of ``rounds``:
    ``(Rust, Python)``.

    >>> rust, python = batch_env_rates("duo", games=8, rounds=1)
    >>> rust > 0 and python > 0
    True
    """
    import numpy as np

    from blokus.rl import BatchEnv

    v = variant(variant_id)
    moves = selfplay(v, games=games, seed=5, threads=1, keep_moves=True).moves
    assert moves is not None
    actions = np.zeros((max(len(m) for m in moves), games), dtype=np.int64)
    for g, m in enumerate(moves):
        actions[: len(m), g] = m
    env = BatchEnv(v, games, threads=1)
    rust, python = float("inf"), float("inf")
    for _ in range(rounds):
        rust = min(rust, _blokus.time_batch_replay(v._tables, actions, 1))
        env.reset()
        t0 = time.perf_counter()
        for row in actions:
            env.step(row)
        python = min(python, time.perf_counter() - t0)
        assert env.terminated.all()
    return games / rust, games / python


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), else what the platform says.

    >>> isinstance(cpu_model(), str) and cpu_model() != ""
    True
    """
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith(("model name", "Model", "Hardware")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, object]:
    """What a benchmark's figures depend on besides the code: the machine, the CPU level the
    hot loops run at, the versions, the date.

    >>> m = machine()
    >>> m["cpu_level"] in m["cpu_levels_supported"]
    True
    """
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "machine": platform.machine(),
        "system": platform.system(),
        "cpu_level": _blokus.cpu_level(),
        "cpu_levels_supported": _blokus.cpu_levels_supported(),
        "blokus": blokus.__version__,
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def run(
    variants: list[str],
    seconds: float,
    threads: int | None,
    rl_games: int,
    out: TextIO | None = None,
    progress_stream: TextIO | None = None,
    json_path: str | None = None,
    markdown_path: str | None = None,
) -> dict[str, object]:
    """Measures every figure, prints the tables to ``out`` and, with ``json_path``, writes
    them as JSON with :func:`machine` (for comparing machines and engines), and with
    ``markdown_path`` as a page (:func:`markdown`); returns that JSON's contents.

    >>> import io, json, os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> json_path, page = os.path.join(folder, "bench.json"), os.path.join(folder, "BENCHMARKS.md")
    >>> figures = run(["junior"], seconds=0.01, threads=1, rl_games=0, out=io.StringIO(), json_path=json_path,
    ...               markdown_path=page)
    >>> with open(json_path) as f:
    ...     json.load(f) == figures
    True
    >>> with open(page) as f:
    ...     f.readline()
    '# Benchmarks\\n'
    """
    # The streams are looked up when called, not when the module is imported, so that a
    # redirected sys.stdout (or a test's capture) is the one written to.
    out = out or sys.stdout
    progress_stream = progress_stream or sys.stderr
    threads = _arguments.threads(threads)
    bar = Progress(2 * len(variants) + 4, progress_stream, progress_stream.isatty())
    rows = []
    for vid in variants:
        rows.append(measure(vid, seconds, threads))
        bar.step(vid)
    batch_rows = []
    for vid in variants:
        batch_rows.append((vid, *batch_env_rates(vid)))
        bar.step(f"{vid} batch environment")
    comparison = blokus_rl_comparison(rl_games, bar)
    bar.close()
    info = machine()
    levels = ", ".join(_blokus.cpu_levels_supported())
    print(
        f"blokus {blokus.__version__}, CPU level {_blokus.cpu_level()} (this CPU supports {levels});"
        f" {cpu_model()}, {os.cpu_count()} cores\n",
        file=out,
    )
    print(
        f"uniform random games from the empty board (one thread: the median of three runs);"
        f" {threads} thread(s) for 'all cores'",
        file=out,
    )
    print(TABLE_HEADER, file=out)
    for r in rows:
        print(format_row(r), file=out)
    print(
        f"\nbatch environment, {BATCH_GAMES} random games replayed on one thread with every observation"
        " and mask written, games/s:",
        file=out,
    )
    print(f"{'variant':<14}{'Rust':>12}{'BatchEnv':>12}{'Python/Rust':>13}", file=out)
    for vid, rust, python in batch_rows:
        print(f"{vid:<14}{rust:>12,.0f}{python:>12,.0f}{python / rust:>13.0%}", file=out)
    if comparison is None:
        print("blokus-rl is not installed: pip install blokus-rl for a side-by-side run", file=out)
    else:
        print(f"\nclassic, random games through Python ({rl_games} games per loop), games/s:", file=out)
        for name, rate in comparison:
            print(f"  {name:<48}{rate:>12,.1f}", file=out)
    report: dict[str, object] = {
        "machine": info,
        "threads": threads,
        "seconds_per_measurement": seconds,
        "variants": [asdict(r) for r in rows],
        "batch_env": [
            {"variant": vid, "batch_games": BATCH_GAMES, "rust_games_per_second": rust, "python_games_per_second": py}
            for vid, rust, py in batch_rows
        ],
        "blokus_rl": None
        if comparison is None
        else [{"loop": name, "games_per_second": rate, "games": rl_games} for name, rate in comparison],
    }
    if json_path is not None:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    if markdown_path is not None:
        kept = ""
        if os.path.exists(markdown_path):
            with open(markdown_path, encoding="utf-8") as f:
                old = f.read()
            # The page's sections written by other benchmarks (the search's speed beside
            # Pentobi's) stay: they are measured by other means, with Pentobi installed.
            if KEPT in old:
                kept = "\n" + old[old.index(KEPT) :]
        with open(markdown_path, "w", encoding="utf-8") as f:
            f.write(markdown(report) + kept)
    return report


#: Where a benchmark page's sections written by other benchmarks start; a page rewritten by
#: :func:`run` keeps everything from this line on.
KEPT = "<!-- sections below are written by other benchmarks -->"


def markdown(report: dict[str, object]) -> str:
    """A benchmark page in Markdown from what :func:`run` returns (``blokus bench --markdown``):
    the machine, then the tables that ``blokus bench`` prints.

    >>> page = markdown({"machine": {"blokus": "1.0", "cpu": "X", "cores": 2, "cpu_level": "x86-64-v3",
    ...     "date": "2026-12-01", "load_average": [0.5, 0.5, 0.5], "python": "3.11"}, "threads": 2,
    ...     "seconds_per_measurement": 1.0, "variants": [{"variant": "duo", "games_per_second_1": 1000.0,
    ...     "games_per_second_all": 1900.0, "moves_per_second": 1e8, "enumerated_per_second": 9e7,
    ...     "perft_depth": 3, "perft_nodes_per_second": 5e8}], "batch_env": [], "blokus_rl": None})
    >>> print(page.splitlines()[-1])
    | duo | 1,000 | 1,900 | 100,000,000 | 90,000,000 | 3 | 500,000,000 |
    """
    m = report["machine"]
    assert isinstance(m, dict)
    load = m.get("load_average")
    lines = [
        "# Benchmarks",
        "",
        "Written by `blokus bench --markdown docs/BENCHMARKS.md`; rerun it to measure your machine"
        " (`blokus bench --json FILE` keeps the same figures for comparing machines).",
        "",
        f"blokus {m['blokus']} at CPU level {m['cpu_level']}; {m['cpu']}, {m['cores']} cores;"
        f" Python {m['python']}; {m['date']}"
        + (f"; load average {load[0]:.2f} at the end" if isinstance(load, list) and load else "")
        + f". {report['seconds_per_measurement']} s per measurement.",
    ]
    lines += [
        "",
        f"Uniformly random games from the empty board (one thread: the median of three runs;"
        f" 'all cores': {report['threads']} threads); legal moves listed from each position of such"
        " games, and enumerated from the caches a random game keeps; perft from the empty board.",
        "",
        "| variant | games/s, 1 thread | games/s, all cores | moves/s listed | moves/s in playouts"
        " | perft depth | perft nodes/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows = report["variants"]
    assert isinstance(rows, list)
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['games_per_second_1']:,.0f} | {r['games_per_second_all']:,.0f}"
            f" | {r['moves_per_second']:,.0f} | {r['enumerated_per_second']:,.0f} | {r['perft_depth']}"
            f" | {r['perft_nodes_per_second']:,.0f} |"
        )
    batch = report.get("batch_env") or []
    assert isinstance(batch, list)
    if batch:
        lines += [
            "",
            f"Batch environment: {batch[0]['batch_games']} random games replayed on one thread with every"
            " observation and mask written, games/s.",
            "",
            "| variant | Rust | BatchEnv (Python) | Python/Rust |",
            "|---|---:|---:|---:|",
        ]
        for b in batch:
            rust, py = b["rust_games_per_second"], b["python_games_per_second"]
            lines.append(f"| {b['variant']} | {rust:,.0f} | {py:,.0f} | {py / rust:.0%} |")
    rl = report.get("blokus_rl")
    if isinstance(rl, list) and rl:
        lines += ["", "Classic random games through Python, games/s:", "", "| loop | games/s |", "|---|---:|"]
        lines += [f"| {r['loop']} | {r['games_per_second']:,.1f} |" for r in rl]
    return "\n".join(lines) + "\n"
