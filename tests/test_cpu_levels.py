"""Runtime CPU dispatch: every level this CPU supports plays the same games, counts the same
perft and writes the same batch outputs (each level in its own process, forced by
``BLOKUS_CPU_LEVEL``), and a level the CPU lacks, or a name that is no level, is refused when
the extension is imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import blokus
from blokus import _blokus

#: What each level computes: a checksum of random games (uniform and greedy, every rule
#: family, corner generators of each width), perft counts, moves listed along random games,
#: and the batch environment's outputs along replayed games.
PROGRAM = r"""
import hashlib, json
import numpy as np
import blokus
from blokus import _blokus
from blokus.rl import BatchEnv
from blokus.variant import variant

def digest(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]

out = {"level": blokus.cpu_level()}
for vid in ["duo", "junior", "classic_3", "trigon_3", "3d_wall", "3d_tower_2x2"]:
    for policy in ["uniform", "greedy"]:
        r = blokus.selfplay(vid, games=40, seed=11, threads=1, policy=policy, keep_moves=True)
        moves = np.array([m for g in r.moves for m in g], dtype=np.uint32)
        out[f"{vid} {policy}"] = digest(r.points, r.plies, moves)
    out[f"{vid} listed"] = _blokus.list_moves(variant(vid)._tables, 5, 3)[0]
    out[f"{vid} enumerated"] = _blokus.enumerate_moves(variant(vid)._tables, 5, 3)[0]
b = blokus.Board("classic", ["a20", "t20", "t1", "a1"])
out["perft classic"] = [b.perft(d) for d in (1, 2, 3)]
out["perft trigon"] = [blokus.Board("trigon").perft(d) for d in (1, 2)]
env = BatchEnv("duo", batch_size=8, threads=2)
rng = np.random.default_rng(0)
frames = []
while not env.terminated.all():
    acts = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.legal_action_mask]
    env.step(acts)
    frames.append(digest(env.observation, env.legal_action_mask, env.rewards, env.current_player))
out["batch"] = hashlib.sha256("".join(frames).encode()).hexdigest()[:16]
print(json.dumps(out))
"""


def run_at(level: str | None, code: str = PROGRAM) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("BLOKUS_CPU_LEVEL", None)
    if level is not None:
        env["BLOKUS_CPU_LEVEL"] = level
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)


def test_the_chosen_level_is_the_best_the_cpu_supports() -> None:
    supported = _blokus.cpu_levels_supported()
    assert supported[0] in ("x86-64", "aarch64", "arm", "riscv64", "powerpc64", "s390x", "loongarch64")
    if os.environ.get("BLOKUS_CPU_LEVEL") is None:
        assert blokus.cpu_level() == supported[-1]
    else:
        assert blokus.cpu_level() in supported


def test_every_supported_level_computes_the_same() -> None:
    results = {}
    for level in _blokus.cpu_levels_supported():
        r = run_at(level)
        assert r.returncode == 0, r.stderr
        got = json.loads(r.stdout)
        assert got.pop("level") == level
        results[level] = got
    first = next(iter(results.values()))
    for level, got in results.items():
        assert got == first, f"{level} differs from {next(iter(results))}"
    # The program looked at real work (a game checksum of an unplayed game would be constant).
    assert len({v for k, v in first.items() if k.endswith("uniform")}) == 6


def test_short_and_long_names_choose_the_same_level() -> None:
    best = _blokus.cpu_levels_supported()[-1]
    short = best.replace("x86-64-", "") if best.startswith("x86-64-") else best
    r = run_at(short.upper(), "import blokus; print(blokus.cpu_level())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == best


def test_a_name_that_is_no_level_is_refused_at_import() -> None:
    r = run_at("v9", "import blokus")
    assert r.returncode != 0
    assert 'BLOKUS_CPU_LEVEL: unknown CPU level "v9"' in r.stderr
    assert "x86-64-v4" in r.stderr


def test_a_level_the_cpu_lacks_is_refused_at_import() -> None:
    supported = _blokus.cpu_levels_supported()
    lacking = [lv for lv in ("x86-64-v2", "x86-64-v3", "x86-64-v4") if lv not in supported]
    if not lacking:
        pytest.skip("this CPU supports every level")
    r = run_at(lacking[-1], "import blokus")
    assert r.returncode != 0
    assert f"BLOKUS_CPU_LEVEL={lacking[-1]}: this CPU lacks " in r.stderr
    assert f"this CPU runs {supported[-1]} at best" in r.stderr or "portable build" in r.stderr
