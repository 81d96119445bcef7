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

Each Ray cell twice: the tasks sending back summaries (``summary_only``), and all the games.
Then where the overhead goes: a task's round trip (chunks of one game) and the bytes of a
chunk's result per game (and of its summary).

Everything runs on this machine, on 127.0.0.1 (see ``blokus.distributed.connect``).
"""

from __future__ import annotations

import argparse
import os
import pickle
import time
from collections.abc import Callable
from functools import partial
from typing import Any

# Before Ray is imported: a local Ray and the simulated cluster keep to 127.0.0.1.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import blokus
from blokus import distributed


def rate(run: Callable[[], Any], games: int, repeats: int) -> tuple[float, float]:
    """Games/s of the fastest of ``repeats`` timed runs, and its seconds (wall clock, start to
    result): the least disturbed by whatever else the machine is doing."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return games / best, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--policy", default="uniform", choices=["uniform", "greedy"])
    parser.add_argument("--seconds", type=float, default=3.0, help="about this long per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell (the fastest counts)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    v, policy, seed = args.variant, args.policy, args.seed

    import ray
    from ray.cluster_utils import Cluster

    blokus.selfplay(v, games=2000, seed=seed, threads=1, policy=policy)  # tables built, caches warm
    probe = blokus.selfplay(v, games=4000, seed=seed, threads=1, policy=policy)
    per_core = probe.games_per_second
    print(f"{v} {policy}: about {per_core:,.0f} games/s on one thread; {os.cpu_count()} cores; load {os.getloadavg()}")

    rows: list[tuple[str, int, float, float, int]] = []

    def games_for(n: int) -> int:
        return int(per_core * n * args.seconds)

    def on_one_machine() -> None:
        for n in (1, 2):
            g = games_for(n)
            r, s = rate(partial(blokus.selfplay, v, games=g, seed=seed, threads=n, policy=policy), g, args.repeats)
            rows.append((f"local selfplay(threads={n})", n, r, s, g))

    on_one_machine()

    def on_ray(label: str, n: int) -> None:
        g = games_for(n)
        # Warm-up: every worker started, blokus imported and the tables built.
        distributed.selfplay(v, g // 4, seed, policy, summary_only=True)
        r, s = rate(partial(distributed.selfplay, v, g, seed, policy, summary_only=True), g, args.repeats)
        rows.append((label + ", summaries back", n, r, s, g))
        r, s = rate(partial(distributed.selfplay, v, g, seed, policy), g, args.repeats)
        rows.append((label + ", all games back", n, r, s, g))
        overheads(label)

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
    local: dict[int, float] = {}
    for label, n, r, _, _ in rows:
        if label.startswith("local"):
            local[n] = max(local.get(n, 0.0), r)
    one_thread = local[1]
    print(f"\n{'run':<40}{'workers':>8}{'games':>10}{'seconds':>9}{'games/s':>11}{'efficiency':>12}{'vs local':>10}")
    for label, n, r, s, g in rows:
        print(f"{label:<40}{n:>8}{g:>10,}{s:>9.2f}{r:>11,.0f}{r / (n * one_thread):>12.1%}{r / local[n]:>10.2f}")
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
