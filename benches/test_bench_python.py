"""Python-path benchmarks (pytest-benchmark). Off in the normal test run; run them with
``pytest benches --benchmark-enable``."""

from __future__ import annotations

import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import blokus

VARIANTS = ["duo", "classic", "trigon", "3d_tower"]


def record_games_per_second(benchmark: BenchmarkFixture, games: int) -> None:
    """Adds games/s to the report; without ``--benchmark-enable`` each function runs once,
    untimed, as a check that it works, and there is nothing to record."""
    if benchmark.stats is not None:
        benchmark.extra_info["games_per_second"] = games / benchmark.stats.stats.mean


@pytest.mark.parametrize("variant", VARIANTS)
def test_selfplay_batch_one_thread(benchmark: BenchmarkFixture, variant: str) -> None:
    """Uniform random games played inside Rust, called from Python, one thread."""
    games = 200
    r = benchmark(blokus.selfplay, variant, games=games, seed=1, threads=1)
    assert r.games == games
    record_games_per_second(benchmark, games)


@pytest.mark.parametrize("variant", VARIANTS)
def test_per_move_loop(benchmark: BenchmarkFixture, variant: str) -> None:
    """A Python loop over the API: legal ids as numpy, choose one, push; one game per round."""
    rng = random.Random(1)

    def game() -> int:
        b = blokus.Board(variant)
        while not b.is_game_over():
            ids = b.legal_moves.ids()
            b.push(int(ids[rng.randrange(len(ids))]))
        return b.ply

    plies = benchmark(game)
    assert plies > 0
    record_games_per_second(benchmark, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_per_move_loop_public_api(benchmark: BenchmarkFixture, variant: str) -> None:
    """The same loop over Move objects (`list(legal_moves)`, `push(Move)`)."""
    rng = random.Random(1)

    def game() -> int:
        b = blokus.Board(variant)
        while not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)))
        return b.ply

    assert benchmark(game) > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_env_replay(benchmark: BenchmarkFixture, variant: str) -> None:
    """64 recorded random games stepped through `BatchEnv` (observations and masks written after
    every step); `blokus bench` prints the same work timed in Rust beside it."""
    import numpy as np

    from blokus.rl import BatchEnv

    games = 64
    moves = blokus.selfplay(variant, games=games, seed=5, threads=1, keep_moves=True).moves
    assert moves is not None
    actions = np.zeros((max(len(m) for m in moves), games), dtype=np.int64)
    for g, m in enumerate(moves):
        actions[: len(m), g] = m
    env = BatchEnv(variant, games, threads=1)

    def replay() -> bool:
        env.reset()
        for row in actions:
            env.step(row)
        return bool(env.terminated.all())

    assert benchmark(replay)
    record_games_per_second(benchmark, games)
