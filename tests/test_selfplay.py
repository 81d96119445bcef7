"""Games played inside Rust: reproducible, independent of threads, consistent with the Board."""

from __future__ import annotations

import numpy as np
import pytest

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
