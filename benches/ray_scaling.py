"""Selfplay games/s on Ray against the number of workers, beside threads on one machine.

    python benches/ray_scaling.py [--variant classic] [--policy uniform] [--seconds 3] [--repeats 3]

Each cell is the fastest of ``--repeats`` runs of about ``--seconds`` seconds, the games
scaled to the workers: ``selfplay(threads=n)`` locally, for n = 1 and 2;
``blokus.distributed.selfplay`` on a local Ray of 1 and 2 CPUs (one worker a CPU), and on a
simulated cluster of two nodes of one CPU each on this machine (``ray.cluster_utils.Cluster``:
two raylets and object stores, the driver on the first). Ray's start and its workers' first
tasks (importing blokus, building the tables) are left out: a shorter run warms the workers
first. The local cells run first and again last (the machine's load drifts), and the faster
of the two is the reference: efficiency is games/s over n times one local thread's games/s,
"vs local" games/s over ``selfplay(threads=n)``'s.

On a machine that also does other work, games/s say more about the other work than about Ray,
so each cell also counts the CPU seconds its run used, read from /proc: this process's (the
driver, with its Rust threads), Ray's workers', and Ray's own processes' (raylets, GCS,
agents). "CPU eff." is one local thread's CPU per game over the cell's: the share of the CPU
that goes to playing, whatever the load.

Each Ray cell twice: the tasks sending back summaries (``summary_only``), and all the games.
Then where the overhead goes: a task's round trip (chunks of one game) and the bytes of a
chunk's result per game (and of its summary).

Everything runs on this machine, on 127.0.0.1 (see ``blokus.distributed.connect``), Ray's
workers at this process's niceness (``RAY_worker_niceness``; Ray's default is 15).
"""

from __future__ import annotations

import argparse
import os
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

# Before Ray is imported: a local Ray and the simulated cluster keep to 127.0.0.1.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
# Ray runs its workers at nice 15: on a machine that does other work they would get less of
# the CPU than the local runs they are compared with (at this process's niceness). Unless told
# otherwise, they run at this process's niceness here.
os.environ.setdefault("RAY_worker_niceness", str(os.nice(0)))

import blokus
from blokus import distributed

#: Clock ticks a second, the unit of /proc's CPU times.
TICK = os.sysconf("SC_CLK_TCK")

#: Ray's helpers, counted with Ray's own processes rather than with the workers.
AGENTS = (b"ray::DashboardAgent", b"ray::RuntimeEnvAgent")


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by this process (the driver, its Rust threads included), by
    Ray's workers, and by Ray's own processes (raylets, GCS, agents, monitors)."""
    user, system = os.times()[:2]
    out = {"driver": user + system, "workers": 0.0, "ray": 0.0}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read()
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu = (int(fields[11]) + int(fields[12])) / TICK  # utime and stime
        if command.startswith(b"ray::") and not command.startswith(AGENTS):
            out["workers"] += cpu
        elif command.startswith(b"ray::") or b"site-packages/ray/" in command:
            out["ray"] += cpu
    return out


@dataclass
class Cell:
    """One row of the table: the fastest of its runs, and the CPU that run used."""

    label: str
    workers: int
    games: int
    seconds: float
    cpu: dict[str, float]

    @property
    def rate(self) -> float:
        return self.games / self.seconds

    @property
    def cpu_per_game(self) -> float:
        return sum(self.cpu.values()) / self.games


def measure(label: str, workers: int, games: int, repeats: int, run: Callable[[], Any]) -> Cell:
    """The fastest of ``repeats`` runs (the least disturbed by whatever else the machine
    does), with the CPU seconds each part used during it."""
    best: Cell | None = None
    for _ in range(repeats):
        before = cpu_seconds()
        start = time.perf_counter()
        run()
        seconds = time.perf_counter() - start
        after = cpu_seconds()
        cell = Cell(label, workers, games, seconds, {k: max(0.0, after[k] - before[k]) for k in after})
        if best is None or cell.seconds < best.seconds:
            best = cell
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--policy", default="uniform", choices=["uniform", "greedy"])
    parser.add_argument("--seconds", type=float, default=3.0, help="about this long per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell (the fastest counts)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    v, policy, seed, repeats = args.variant, args.policy, args.seed, args.repeats

    import ray
    from ray.cluster_utils import Cluster

    blokus.selfplay(v, games=2000, seed=seed, threads=1, policy=policy)  # tables built, caches warm
    probe = blokus.selfplay(v, games=4000, seed=seed, threads=1, policy=policy)
    per_core = probe.games_per_second
    print(f"{v} {policy}: about {per_core:,.0f} games/s on one thread; {os.cpu_count()} cores; load {os.getloadavg()}")

    cells: list[Cell] = []

    def games_for(n: int) -> int:
        return int(per_core * n * args.seconds)

    def on_one_machine() -> None:
        for n in (1, 2):
            g = games_for(n)
            run = partial(blokus.selfplay, v, games=g, seed=seed, threads=n, policy=policy)
            cells.append(measure(f"local selfplay(threads={n})", n, g, repeats, run))

    def on_ray(label: str, n: int) -> None:
        g = games_for(n)
        # Warm-up: every worker started, blokus imported and the tables built.
        distributed.selfplay(v, g // 4, seed, policy, summary_only=True)
        run = partial(distributed.selfplay, v, g, seed, policy, summary_only=True)
        cells.append(measure(label + ", summaries back", n, g, repeats, run))
        cells.append(
            measure(label + ", all games back", n, g, repeats, partial(distributed.selfplay, v, g, seed, policy))
        )
        overheads(label)

    on_one_machine()
    for n in (1, 2):
        distributed.connect(num_cpus=n)
        on_ray(f"Ray, 1 node, {n} CPU(s)", n)
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level="warning")
    on_ray("Ray, 2 nodes of 1 CPU", 2)
    ray.shutdown()
    cluster.shutdown()
    # Once more at the end, as the machine's load drifts; the faster of the two counts.
    on_one_machine()

    local: dict[int, Cell] = {}
    for c in cells:
        if c.label.startswith("local") and (c.workers not in local or c.rate > local[c.workers].rate):
            local[c.workers] = c
    one = local[1]
    print(
        f"\n{'run':<40}{'workers':>8}{'games':>9}{'seconds':>8}{'games/s':>9}{'efficiency':>11}{'vs local':>9}"
        f"{'CPU us/game':>12}{'CPU eff.':>9}  CPU: workers/Ray/driver"
    )
    for c in cells:
        shares = "/".join(f"{c.cpu[k] / max(sum(c.cpu.values()), 1e-9):.0%}" for k in ("workers", "ray", "driver"))
        print(
            f"{c.label:<40}{c.workers:>8}{c.games:>9,}{c.seconds:>8.2f}{c.rate:>9,.0f}"
            f"{c.rate / (c.workers * one.rate):>11.1%}{c.rate / local[c.workers].rate:>9.2f}"
            f"{c.cpu_per_game * 1e6:>12.1f}{one.cpu_per_game / c.cpu_per_game:>9.1%}  {shares}"
        )
    print(f"load average at the end {os.getloadavg()}")


def overheads(label: str) -> None:
    """What a task costs beside its games, on the Ray running now."""
    v = blokus.Variant("classic")
    n = 200
    start = time.perf_counter()
    distributed.selfplay(v, n, 1, chunk=1)
    per_task = (time.perf_counter() - start) / n
    chunk = blokus.selfplay(v, games=10_000, seed=1, threads=1)
    result_bytes = len(pickle.dumps(chunk)) / chunk.games
    summary_bytes = len(pickle.dumps(chunk.summary()))
    print(
        f"{label}: {per_task * 1e3:.2f} ms a task (chunks of one game); a chunk's result is "
        f"{result_bytes:.0f} bytes a game, its summary {summary_bytes} bytes"
    )


if __name__ == "__main__":
    main()
