"""Games played inside Rust: reproducible, independent of threads, consistent with the Board."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blokus
from blokus import Board


@pytest.mark.parametrize("variant", ["duo", "classic_3", "trigon_3", "3d_wall_3"])
def test_same_results_for_any_number_of_threads(variant: str) -> None:
    runs = [blokus.selfplay(variant, games=30, seed=11, threads=t, keep_moves=True) for t in (1, 2, 3)]
    for r in runs[1:]:
        assert (r.points == runs[0].points).all() and (r.plies == runs[0].plies).all()
        assert (r.winners == runs[0].winners).all() and r.moves == runs[0].moves
    other_seed = blokus.selfplay(variant, games=30, seed=12, threads=1)
    assert not (other_seed.points == runs[0].points).all()


@pytest.mark.parametrize("variant,policy", [("duo", "uniform"), ("trigon_3", "greedy")])
def test_a_long_run_in_slices_is_the_run_in_one_call(
    variant: str, policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from blokus import _blokus

    # blokus.selfplay is the function; its module sets the slice length (0: 64 games a thread).
    monkeypatch.setattr(importlib.import_module("blokus.selfplay"), "SLICE_SECONDS", 0.0)
    seen: list[tuple[int, int]] = []
    sliced = blokus.selfplay(
        variant,
        games=300,
        seed=7,
        threads=2,
        policy=policy,
        keep_moves=True,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert [done for done, _ in seen] == [128, 256, 300] and all(total == 300 for _, total in seen)
    whole = _blokus.selfplay_games(blokus.Variant(variant)._tables, 0, 300, 7, 2, policy, True)
    assert (sliced.points == whole.points).all() and (sliced.scores == whole.scores).all()
    assert (sliced.plies == whole.plies).all() and (sliced.winners == whole.winners).all()
    assert sliced.moves == whole.moves and sliced.seconds > 0
    # Without keep_moves no moves are kept, and the plies are still counted.
    bare = blokus.selfplay(variant, games=300, seed=7, threads=2, policy=policy)
    assert bare.moves is None and (bare.plies == whole.plies).all()


# A small 3D structure where blocked colours are skipped rather than knocked out, so that a
# colour may move again after a turn without a move, with three colours.
SKIPPING_HUT = {
    "id": "skipping_hut",
    "board": {"geometry": "cube", "structure": ["4444", "4444"]},
    "colors": ["Blue", "Red", "Green"],
    "players": [[0], [1], [2]],
    "pieces": {"only": ["I2", "I3", "I4", "L4", "T4"]},
    "blocked": "skip",
}


@pytest.mark.parametrize(
    "variant,policy,games",
    [
        ("classic_2", "uniform", 10),
        ("3d_wall_3", "uniform", 10),
        ("3d_pyramid_2", "uniform", 10),
        ("duo", "greedy", 10),
        ("3d_tower", "greedy", 10),
        ("skipping_hut", "uniform", 200),
        ("skipping_hut", "greedy", 1000),
    ],
)
def test_records_replay_on_the_board(variant: str, policy: str, games: int) -> None:
    # Games end when nobody can move, each colour's turns coming as the rules say: selfplay
    # finds a colour without a move only on its turn (the Board asks after every move).
    v = blokus.Variant(SKIPPING_HUT) if variant == "skipping_hut" else blokus.Variant(variant)
    r = blokus.selfplay(v, games=games, seed=5, threads=2, policy=policy, keep_moves=True)
    colors, players = v.num_colors, v.num_players
    assert r.points.shape == (games, colors) and r.scores.shape == (games, players)
    assert r.winners.shape == (games, players)
    assert r.moves is not None
    moved_after_a_skip = 0
    for moves in r.moves:
        b, skipped = Board(v), set()
        for m in moves:
            mover = b.turn
            assert mover is not None
            moved_after_a_skip += mover in skipped
            skipped.discard(mover)
            b.push(m)
            d = (mover + 1) % colors
            while b.turn is not None and d != b.turn:
                skipped.add(d)
                d = (d + 1) % colors
    if variant == "skipping_hut":
        # A skipped colour moving again is rare under the greedy policy (a few games in a
        # thousand), hence the thousand games.
        assert moved_after_a_skip > 0, "no game where a skipped colour moved again"
    for g in range(games):
        b = r.board(g)
        assert b.is_game_over() and b.ply == r.plies[g] == len(r.moves[g])
        assert b.points() == r.points[g].tolist() and b.scores() == r.scores[g].tolist()
        assert tuple(np.flatnonzero(r.winners[g])) == b.outcome().winners  # type: ignore[union-attr]
    assert r.games_per_second > 0


def test_greedy_plays_a_largest_piece_every_move() -> None:
    r = blokus.selfplay("duo", games=5, seed=3, policy="greedy", keep_moves=True)
    assert r.moves is not None
    for moves in r.moves:
        b = Board("duo")
        for m in moves:
            largest = max(x.piece.size for x in b.legal_moves)
            move = blokus.Move(b.variant, m)
            assert move.piece.size == largest
            b.push(m)
    uniform = blokus.selfplay("duo", games=200, seed=3)
    greedy = blokus.selfplay("duo", games=200, seed=3, policy="greedy")
    assert greedy.points.mean() > uniform.points.mean()


def test_bad_arguments() -> None:
    with pytest.raises(blokus.BlokusError, match="policy"):
        blokus.selfplay("duo", games=1, policy="smart")
    with pytest.raises(ValueError):
        blokus.selfplay("duo", games=-1)
    with pytest.raises(ValueError):
        blokus.selfplay("duo", games=1, threads=0)
    empty = blokus.selfplay("duo", games=0)
    assert empty.points.shape == (0, 2)
    with pytest.raises(ValueError, match="keep_moves"):
        blokus.selfplay("duo", games=1).board(0)


# --- chunks of a run: first=, SelfplayResult.concat, the summary ---


def _split(total: int, cuts: list[int]) -> list[tuple[int, int]]:
    edges = sorted({0, total, *(c % (total + 1) for c in cuts)})
    return [(a, b - a) for a, b in zip(edges, edges[1:])]


@pytest.mark.parametrize("variant,policy", [("duo", "uniform"), ("trigon_3", "greedy"), ("3d_wall_3", "uniform")])
def test_any_split_of_a_run_joins_into_the_run(variant: str, policy: str) -> None:
    whole = blokus.selfplay(variant, games=40, seed=9, threads=2, policy=policy, keep_moves=True)
    for cuts in ([1], [7, 8, 31], [13, 26, 39], list(range(1, 40, 3))):
        parts = [
            blokus.selfplay(variant, games=n, seed=9, threads=1, policy=policy, keep_moves=True, first=first)
            for first, n in _split(40, cuts)
        ]
        joined = blokus.SelfplayResult.concat(parts)
        assert joined == dataclasses.replace(whole, seconds=joined.seconds)
        assert joined.seconds == pytest.approx(sum(p.seconds for p in parts))
    # A chunk is not the start of the run: its games are other games.
    later = blokus.selfplay(variant, games=10, seed=9, policy=policy, first=30)
    assert (later.plies == whole.plies[30:]).all() and not (later.points == whole.points[:10]).all()


def test_mcts_games_split_too() -> None:
    whole = blokus.selfplay("duo", games=3, seed=2, policy="mcts", simulations=8, threads=2)
    parts = [
        blokus.selfplay("duo", games=n, seed=2, policy="mcts", simulations=8, first=f) for f, n in [(0, 1), (1, 2)]
    ]
    assert blokus.SelfplayResult.concat(parts) == dataclasses.replace(whole, seconds=sum(p.seconds for p in parts))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=6), st.integers(0, 2**64 - 1))
def test_hypothesis_any_split_equals_one_run(cuts: list[int], seed: int) -> None:
    whole = blokus.selfplay("junior", games=60, seed=seed, threads=1)
    parts = [blokus.selfplay("junior", games=n, seed=seed, threads=1, first=f) for f, n in _split(60, cuts)]
    joined = blokus.SelfplayResult.concat(parts)
    assert joined == dataclasses.replace(whole, seconds=joined.seconds)
    merged = blokus.SelfplaySummary.merge(p.summary() for p in parts)
    assert merged == dataclasses.replace(whole.summary(), seconds=merged.seconds)


def test_the_last_games_of_the_64_bit_range() -> None:
    top = 2**64 - 1
    r = blokus.selfplay("duo", games=2, seed=1, first=top - 2)
    assert r.games == 2
    with pytest.raises(blokus.InvalidArgumentError, match=r"first \+ games must be at most 2\*\*64 - 1") as e:
        blokus.selfplay("duo", games=3, seed=1, first=top - 2)
    assert e.value.argument == "first"
    for bad, error in [(-1, blokus.InvalidArgumentError), (2**64, blokus.InvalidArgumentError), (1.0, TypeError)]:
        with pytest.raises(error, match="first"):
            blokus.selfplay("duo", games=1, first=bad)  # type: ignore[arg-type]


def test_concat_refuses_what_is_no_split_of_a_run() -> None:
    duo = blokus.selfplay("duo", games=2, seed=1)
    with pytest.raises(blokus.InvalidArgumentError, match=r"results\[1\] is of variant junior, results\[0\] of duo"):
        blokus.SelfplayResult.concat([duo, blokus.selfplay("junior", games=2)])
    with pytest.raises(blokus.InvalidArgumentError, match="keep_moves"):
        blokus.SelfplayResult.concat([duo, blokus.selfplay("duo", games=2, keep_moves=True, first=2)])
    with pytest.raises(blokus.InvalidArgumentError, match="empty"):
        blokus.SelfplayResult.concat([])
    with pytest.raises(blokus.InvalidTypeError, match=r"results\[1\] is a str"):
        blokus.SelfplayResult.concat([duo, "games"])  # type: ignore[list-item]
    with pytest.raises(blokus.InvalidTypeError, match="iterable of SelfplayResult"):
        blokus.SelfplayResult.concat(duo)  # type: ignore[arg-type]
    with pytest.raises(blokus.InvalidArgumentError, match="variant junior"):
        blokus.SelfplaySummary.merge([duo.summary(), blokus.selfplay("junior", games=1).summary()])


def test_the_summary_is_the_statistics_of_the_games() -> None:
    r = blokus.selfplay("classic_3", games=300, seed=4)
    s = r.summary()
    assert s.games == 300 and s.plies == int(r.plies.sum()) and s.plies_mean == pytest.approx(r.plies.mean())
    np.testing.assert_allclose(s.points_mean, r.points.mean(axis=0))
    np.testing.assert_allclose(s.points_std, r.points.std(axis=0))
    assert s.points_min == tuple(r.points.min(axis=0)) and s.points_max == tuple(r.points.max(axis=0))
    np.testing.assert_allclose(s.scores_mean, r.scores.mean(axis=0))
    np.testing.assert_allclose(s.win_rate, r.winners.mean(axis=0))
    # Merging with no games changes nothing; an empty run has a summary too.
    empty = blokus.selfplay("classic_3", games=0).summary()
    assert empty.games == 0 and all(math.isnan(x) for x in empty.points_mean)
    both = blokus.SelfplaySummary.merge([empty, s, empty])
    assert both == dataclasses.replace(s, seconds=both.seconds)
    lines = s.table().splitlines()
    assert lines[0].split() == ["colour", "mean", "points", "std", "min", "max"] and len(lines) == 1 + 4 + 1 + 3
