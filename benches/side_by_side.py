"""Two builds of blokus side by side: random games per second and legal moves listed per second
on every variant, each build in its own Python (a virtual environment with its wheel), rounds
alternating between the builds so that the machine's slow spells fall on both, one thread
pinned to one core. Prints the medians and the ratio of the second build to the first.

    python benches/side_by_side.py NATIVE_PYTHON PORTABLE_PYTHON [--rounds 5] [--seconds 0.4]
        [--cpu 1] [--variant duo ...] [--json out.json]

Each measurement is a fresh process (``python -c``) that grows its run to ``--seconds``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

MEASURE = r"""
import json, sys, time
import blokus
from blokus import _blokus
from blokus.variant import variant

vid, seconds = sys.argv[1], float(sys.argv[2])
v = variant(vid)
blokus.selfplay(v, games=20, seed=1, threads=1)  # warm up (tables built, caches)
n = 50
while True:
    r = blokus.selfplay(v, games=n, seed=7, threads=1)
    if r.seconds >= seconds:
        break
    n = max(2 * n, int(n * seconds / max(r.seconds, 1e-6) * 1.1))
games = n / r.seconds
g = 20
while True:
    moves, dt = _blokus.list_moves(v._tables, g, 3)
    if dt >= seconds:
        break
    g = max(2 * g, int(g * seconds / max(dt, 1e-6) * 1.1))
print(json.dumps({"level": blokus.cpu_level(), "games_per_second": games, "moves_per_second": moves / dt}))
"""


def measure(python: str, variant: str, seconds: float, cpu: int | None) -> dict[str, float | str]:
    cmd = [python, "-c", MEASURE, variant, str(seconds)]
    if cpu is not None:
        cmd = ["taskset", "-c", str(cpu), *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd="/")
    result: dict[str, float | str] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", help="the Python of the first build (the reference, e.g. native)")
    ap.add_argument("second", help="the Python of the second build (e.g. the portable wheel)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.4)
    ap.add_argument("--cpu", type=int, default=1, help="core to pin to (-1: none)")
    ap.add_argument("--variant", action="append")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    cpu = None if args.cpu < 0 else args.cpu
    ids = args.variant or json.loads(
        subprocess.run(
            [args.first, "-c", "import blokus, json; print(json.dumps(blokus.variants()))"],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        ).stdout
    )
    builds = {"first": args.first, "second": args.second}
    runs: dict[str, dict[str, list[dict[str, float | str]]]] = {v: {"first": [], "second": []} for v in ids}
    loads = []
    for r in range(args.rounds):
        loads.append(os.getloadavg()[0])
        for vid in ids:
            # Alternate which build goes first in each round.
            order = ["first", "second"] if r % 2 == 0 else ["second", "first"]
            for b in order:
                runs[vid][b].append(measure(builds[b], vid, args.seconds, cpu))
        print(f"round {r + 1}/{args.rounds} done (load {loads[-1]:.2f})", file=sys.stderr, flush=True)
    loads.append(os.getloadavg()[0])
    levels = {b: runs[ids[0]][b][0]["level"] for b in builds}
    print(f"{args.rounds} rounds, alternating; load average (1 min) {min(loads):.2f}-{max(loads):.2f}")
    print(f"first: {args.first} ({levels['first']}); second: {args.second} ({levels['second']})")
    print(
        f"{'variant':<16}{'games/s first':>14}{'second':>12}{'ratio':>7}   "
        f"{'moves/s first':>14}{'second':>14}{'ratio':>7}   games ratio per round"
    )
    table = []
    for vid in ids:
        row: dict[str, object] = {"variant": vid}
        cells = []
        for key in ("games_per_second", "moves_per_second"):
            a = statistics.median(float(x[key]) for x in runs[vid]["first"])
            b = statistics.median(float(x[key]) for x in runs[vid]["second"])
            row[key] = {"first": a, "second": b, "ratio": b / a}
            cells.append((a, b))
        per_round = [
            float(s["games_per_second"]) / float(f["games_per_second"])
            for f, s in zip(runs[vid]["first"], runs[vid]["second"])
        ]
        row["games_ratio_per_round"] = per_round
        table.append(row)
        (ga, gb), (ma, mb) = cells
        print(
            f"{vid:<16}{ga:>14,.0f}{gb:>12,.0f}{gb / ga:>7.2f}   {ma:>14,.0f}{mb:>14,.0f}{mb / ma:>7.2f}   "
            + " ".join(f"{x:.2f}" for x in per_round)
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"levels": levels, "loads": loads, "rounds": args.rounds, "table": table}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
