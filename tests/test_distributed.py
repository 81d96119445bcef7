"""Selfplay and matches on Ray: the same results as on one machine, whatever the chunks and the
workers lost on the way; and a Ray that talks to this machine only.

One local Ray of two CPUs serves the whole module. Without Ray installed the module is skipped,
unless ``BLOKUS_REQUIRE_RAY=1`` (as in ``.ci/run``, where the test extra installs it).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import blokus
from blokus import distributed
from blokus.cli import main
from blokus.match import GameRecord

# Not imported here: blokus.distributed imports it, after it has made a local Ray keep to 127.0.0.1.
if importlib.util.find_spec("ray") is None:
    if os.environ.get("BLOKUS_REQUIRE_RAY") == "1":
        pytest.fail("BLOKUS_REQUIRE_RAY=1 but ray is not installed (pip install 'blokus[ray]')", pytrace=False)
    pytest.skip("ray is not installed (pip install 'blokus[ray]')", allow_module_level=True)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def cluster() -> Iterator[ModuleType]:
    ray = distributed.connect(num_cpus=2)
    try:
        yield ray
    finally:
        ray.shutdown()


def same_games(a: blokus.SelfplayResult, b: blokus.SelfplayResult) -> bool:
    return a == dataclasses.replace(b, seconds=a.seconds)


@pytest.mark.parametrize(
    "variant,policy,games,seed",
    [
        ("classic", "uniform", 301, 1),
        ("classic", "uniform", 301, 2**64 - 1),
        ("trigon", "greedy", 97, 5),
        ("3d_wall_3", "uniform", 250, 8),
        ("duo", "mcts", 3, 4),
    ],
)
def test_distributed_selfplay_is_the_local_run(
    cluster: ModuleType, variant: str, policy: str, games: int, seed: int
) -> None:
    local = blokus.selfplay(variant, games=games, seed=seed, policy=policy, keep_moves=True, simulations=8)
    seen: list[int] = []
    for chunk in (None, 1 if policy == "mcts" else 7, 64, games, 10 * games):
        seen.clear()
        r = distributed.selfplay(
            variant,
            games,
            seed,
            policy,
            chunk=chunk,
            keep_moves=True,
            simulations=8,
            progress=lambda done, total: seen.append(done),
        )
        assert same_games(r, local), f"chunk {chunk}"
        assert seen[-1] == games and seen == sorted(seen) and r.seconds > 0


def test_a_variant_of_ones_own_and_two_threads_a_task(cluster: ModuleType) -> None:
    v = blokus.Variant.from_file(EXAMPLES / "mini.toml")
    assert not v.is_builtin
    local = blokus.selfplay(v, games=500, seed=3, keep_moves=True)
    r = distributed.selfplay(v, 500, 3, chunk=150, threads_per_task=2, keep_moves=True)
    assert same_games(r, local) and r.variant == v


def test_no_games(cluster: ModuleType) -> None:
    r = distributed.selfplay("duo", 0, 1)
    assert r.games == 0 and r.points.shape == (0, 2)
    s = distributed.selfplay("duo", 0, 1, summary_only=True)
    assert s.games == 0


def _processes(title: bytes) -> list[int]:
    """Pids of the processes whose title starts with ``title`` (Ray names a worker's process
    after the task or actor it runs: ``ray::_play_chunk``, ``ray::_EngineHost.play``)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    line = f.read()
            except OSError:
                continue
            if line.startswith(title):
                pids.append(int(entry))
    return pids


def _gone(pid: int) -> bool:
    """Whether a process has ended (exited, or a zombie its parent has not reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_worker_killed_mid_run_changes_nothing(cluster: ModuleType) -> None:
    killed: list[int] = []

    def kill_a_worker(done: int, total: int) -> None:
        # After the first chunk, a worker playing another chunk is killed.
        deadline = time.monotonic() + 10
        while not killed and time.monotonic() < deadline:
            pids = _processes(b"ray::_play_chunk")
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
            else:
                time.sleep(0.005)

    r = distributed.selfplay("classic", 12_000, 6, chunk=2_000, progress=kill_a_worker)
    assert killed, "no worker was found playing a chunk"
    assert _gone(killed[0]), f"worker {killed[0]} still runs"
    assert same_games(r, blokus.selfplay("classic", games=12_000, seed=6))


def test_summary_only_is_the_summary_of_the_local_run(cluster: ModuleType) -> None:
    local = blokus.selfplay("classic_3", games=3_001, seed=12).summary()
    for chunk in (None, 100, 999):
        s = distributed.selfplay("classic_3", 3_001, 12, chunk=chunk, summary_only=True)
        assert isinstance(s, blokus.SelfplaySummary)
        assert s == dataclasses.replace(local, seconds=s.seconds)
        assert s.table() == local.table()


def test_bad_arguments_are_refused_before_any_work(cluster: ModuleType) -> None:
    with pytest.raises(blokus.InvalidArgumentError, match="chunk must be 1 to"):
        distributed.selfplay("duo", 10, chunk=0)
    with pytest.raises(blokus.InvalidTypeError, match="threads_per_task must be an integer"):
        distributed.selfplay("duo", 10, threads_per_task=1.5)  # type: ignore[call-overload]
    with pytest.raises(blokus.InvalidArgumentError, match=r"threads_per_task is 3, but the largest node .* 2 CPUs"):
        distributed.selfplay("duo", 10, threads_per_task=3)
    with pytest.raises(blokus.InvalidArgumentError, match="policy must be"):
        distributed.selfplay("duo", 10, policy="smart")
    with pytest.raises(blokus.InvalidArgumentError, match="keep_moves"):
        distributed.selfplay("duo", 10, summary_only=True, keep_moves=True)
    with pytest.raises(blokus.InvalidTypeError, match="address must be"):
        distributed.selfplay("duo", 10, address=6379)  # type: ignore[call-overload]
    with pytest.raises(blokus.InvalidArgumentError, match="games must be"):
        distributed.selfplay("duo", -1)
    with pytest.raises(blokus.InvalidTypeError, match="engines are specs"):
        distributed.match([blokus.bots.RandomBot(), "greedy"], "duo", 2)  # type: ignore[list-item]


def _timeless(r: GameRecord) -> GameRecord:
    return dataclasses.replace(r, seconds=(), cpu=())


def test_a_match_on_actors_is_the_local_match(cluster: ModuleType, tmp_path: Path) -> None:
    here = blokus.match(["random", "greedy"], "duo", 6, seed=3, jobs=1, out=tmp_path / "local")
    there = distributed.match(["random", "greedy"], "duo", 6, seed=3, jobs=2, out=tmp_path / "ray")
    assert [_timeless(r) for r in there.records] == [_timeless(r) for r in here.records]
    assert there.summary().splitlines()[:2] == here.summary().splitlines()[:2]
    # The files: the same games, and twogtp's table with the same columns (CPU times aside).
    for name in sorted(os.listdir(tmp_path / "local" / "games")):
        assert (tmp_path / "ray" / "games" / name).read_text() == (tmp_path / "local" / "games" / name).read_text()
    rows = [
        [line.split("\t") for line in (tmp_path / d / "results.dat").read_text().splitlines()] for d in ("local", "ray")
    ]
    assert rows[0][0] == rows[1][0] == ["# Game", "Result", "Length", "PlayerB", "CpuB", "CpuW", "Fast"]
    assert [r[:4] + r[6:] for r in rows[0]] == [r[:4] + r[6:] for r in rows[1]] and len(rows[1]) == 7
    # Resumed on Ray, the match goes on from its file.
    more = distributed.match(["random", "greedy"], "duo", 8, seed=3, jobs=2, out=tmp_path / "ray", resume=True)
    assert len(more.records) == 8 and [r.game for r in more.records] == list(range(8))


def test_an_actor_killed_mid_match_is_started_again_and_the_games_are_the_same(cluster: ModuleType) -> None:
    killed: list[int] = []

    def kill_an_actor(r: blokus.MatchResult) -> None:
        if not killed:
            pids = _processes(b"ray::_EngineHost")
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

    there = distributed.match(["random", "greedy"], "duo", 8, seed=4, jobs=2, progress=kill_an_actor)
    assert killed, "no actor was found"
    here = blokus.match(["random", "greedy"], "duo", 8, seed=4, jobs=1)
    assert [_timeless(r) for r in there.records] == [_timeless(r) for r in here.records]


def test_an_interrupted_match_on_actors_stops_their_engines(cluster: ModuleType, tmp_path: Path) -> None:
    # One actor's engine hangs (the first started; the other actor's is blokus's own), and the
    # match is interrupted when the other's first game is in: the hung engine is killed too.
    marker = tmp_path / "hung-once"
    fake = Path(__file__).resolve().parent / "fake_engine.py"
    spec = f"gtp:{sys.executable} {fake} hang genmove 1 --once {marker}"

    def interrupt(r: blokus.MatchResult) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        distributed.match(["random", spec], "duo", 6, seed=4, jobs=2, timeout=120, progress=interrupt)
    deadline = time.monotonic() + 20
    while _with_marker(str(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marker.exists() and _with_marker(str(marker)) == [], "no engine outlives the match"


def _with_marker(marker: str) -> list[int]:
    """Running processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if marker.encode() in f.read() and not _gone(int(entry)):
                        found.append(int(entry))
            except OSError:
                continue
    return found


def test_the_sprt_stops_a_match_on_actors(cluster: ModuleType) -> None:
    r = distributed.match(["random", "greedy"], "junior", 400, seed=1, jobs=2, sprt=(0, 200))
    assert r.stopped is not None and r.stopped.startswith("sprt") and len(r.records) < 400


def test_the_command_line_on_ray_prints_the_local_statistics(
    cluster: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["selfplay", "--variant", "classic", "--games", "2000", "--seed", "3"]
    assert main(args) == 0
    local = capsys.readouterr().out.splitlines()
    assert main([*args, "--ray", "--chunk", "300"]) == 0
    there = capsys.readouterr().out.splitlines()
    assert "on Ray (2 CPUs" in there[0] and there[1:] == local[1:] and len(local) == 1 + 5 + 5
    assert main(["match", "random", "greedy", "--games", "2", "--ray", "--jobs", "2"]) == 0
    assert capsys.readouterr().out.startswith("duo: 2 games of 2 (1 rounds), seed 0")


def _listening(pids: set[int]) -> list[str]:
    """The local addresses (hex, as /proc/net/tcp shows them) that these processes listen on."""
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                    found.append(fields[1].split(":")[0])
    return found


def test_ray_talks_to_this_machine_only(cluster: ModuleType) -> None:
    assert [n["NodeManagerAddress"] for n in cluster.nodes()] == ["127.0.0.1"]
    ray_processes = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    line = f.read()
            except OSError:
                continue
            if line.startswith(b"ray::") or b"site-packages/ray/" in line:
                ray_processes.add(int(entry))
    ray_processes.add(os.getpid())
    addresses = _listening(ray_processes)
    assert addresses, "found no socket Ray listens on"
    loopback = {"0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"}
    assert set(addresses) <= loopback, f"Ray listens beyond 127.0.0.1: {sorted(set(addresses) - loopback)}"


def test_the_examples_run(cluster: ModuleType) -> None:
    # The module's examples (left out of tests/test_doctests.py because they start Ray).
    import doctest

    result = doctest.testmod(distributed)
    assert result.attempted >= 10 and result.failed == 0, result
