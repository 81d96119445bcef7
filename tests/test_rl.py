"""RL interfaces: the batch environment, PettingZoo's API test, and the Gymnasium vector env."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np
import pytest

import blokus
from blokus.errors import IllegalMoveError
from blokus.rl import BatchEnv, observation

if TYPE_CHECKING:
    import numpy.typing as npt


def random_actions(env: BatchEnv, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(env.batch_size, dtype=np.int64)
    for g, mask in enumerate(env.legal_action_mask):
        legal = np.flatnonzero(mask)
        if legal.size:
            out[g] = rng.choice(legal)
    return out


@pytest.mark.parametrize("variant", ["duo", "classic_3", "trigon_3", "3d_pyramid_2x2"])
def test_batch_env_matches_boards(variant: str) -> None:
    env = BatchEnv(variant, batch_size=6, threads=2)
    boards = [blokus.Board(variant) for _ in range(6)]
    rng = np.random.default_rng(5)
    seen_end = np.zeros(6, dtype=bool)
    step = 0
    while not env.terminated.all():
        step += 1
        if step in (5, 9, 14):
            # Some games start again mid-way: their mask rows must lose every old id.
            which = rng.random(6) < 0.5
            env.reset(which)
            for reset in np.flatnonzero(which).tolist():
                boards[reset] = blokus.Board(variant)
        for g, b in enumerate(boards):
            assert env.terminated[g] == b.is_game_over()
            assert env.current_color[g] == (-1 if b.turn is None else b.turn)
            assert env.current_player[g] == (-1 if b.player is None else b.player)
            assert set(np.flatnonzero(env.legal_action_mask[g]).tolist()) == set(b.legal_moves.ids().tolist())
            assert (env.observation[g] == observation(b)).all()
        actions = random_actions(env, rng)
        for g, b in enumerate(boards):
            if not b.is_game_over():
                b.push(int(actions[g]))
        env.step(actions)
        for g, b in enumerate(boards):
            if b.is_game_over() and not seen_end[g]:
                seen_end[g] = True
                o = b.outcome()
                assert o is not None
                expected = [
                    (1.0 if len(o.winners) == 1 else 0.0) if p in o.winners else -1.0
                    for p in range(b.variant.num_players)
                ]
                assert env.rewards[g].tolist() == expected
            elif not b.is_game_over():
                assert not env.rewards[g].any()
    assert seen_end.all() and not env.truncated.any()


def test_batch_env_outputs_are_read_only() -> None:
    env = BatchEnv("duo", batch_size=2, threads=1)
    for name in [
        "observation",
        "legal_action_mask",
        "rewards",
        "current_player",
        "current_color",
        "terminated",
        "truncated",
    ]:
        array = getattr(env, name)
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
    mask = env.legal_action_mask.copy()
    mask[0] = False
    assert env.legal_action_mask[0].any()


def test_batch_env_rejects_illegal_actions_and_resets() -> None:
    env = BatchEnv("duo", batch_size=3, threads=1)
    before = env.observation.copy()
    legal = int(np.flatnonzero(env.legal_action_mask[0])[0])
    illegal = int(np.flatnonzero(~env.legal_action_mask[1])[0])
    with pytest.raises(IllegalMoveError, match="game 1"):
        env.step([legal, illegal, legal])
    assert (env.observation == before).all()
    env.step([legal, legal, legal])
    assert env.current_color.tolist() == [1, 1, 1]
    env.reset(np.array([False, True, False]))
    assert env.current_color.tolist() == [1, 0, 1]
    env.reset()
    assert (env.observation == before).all()


@pytest.mark.parametrize(
    "mask",
    [
        lambda env: env.terminated,
        lambda env: env.terminated[:],
        lambda env: np.asarray(env.terminated),
        lambda env: env.terminated.view(),
    ],
)
def test_the_terminated_array_resets_the_finished_games(mask: Callable[[BatchEnv], npt.ArrayLike]) -> None:
    env = BatchEnv("duo", batch_size=4, threads=1)
    rng = np.random.default_rng(5)
    # Every game played to its end, then two started again.
    while not env.terminated.all():
        env.step([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in env.legal_action_mask])
    env.reset([False, False, True, True])
    assert env.terminated.tolist() == [True, True, False, False]
    env.reset(mask(env))
    assert env.terminated.tolist() == [False] * 4
    assert [int(m.sum()) for m in env.legal_action_mask] == [414] * 4


def test_observation_is_from_the_movers_point_of_view() -> None:
    b = blokus.Board("duo", ["e10"])
    obs = observation(b)
    assert obs.shape == (2, 14, 14)
    # Orange to move: plane 0 is Orange (empty), plane 1 Purple with e10 (row 10 = index 4).
    assert obs[0].sum() == 0 and obs[1].sum() == 1 and obs[1, 14 - 10, 4] == 1


def test_pettingzoo_api() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from blokus.rl.pettingzoo import env

    api_test(env("duo"), num_cycles=200)
    api_test(env("classic_3"), num_cycles=100)


def test_pettingzoo_plays_a_whole_game() -> None:
    pytest.importorskip("pettingzoo")
    from blokus.rl.pettingzoo import env

    e = env("classic_2")
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        if term or trunc:
            final[agent] = float(reward)
            e.step(None)
            continue
        assert e.board.player == int(agent.split("_")[1])
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == e.board.ply and e.board.is_game_over()
    scores = e.board.scores()
    if scores[0] == scores[1]:
        assert final == {"player_0": 0.0, "player_1": 0.0}
    else:
        winner = int(np.argmax(scores))
        assert final == {f"player_{winner}": 1.0, f"player_{1 - winner}": -1.0}


def test_gymnasium_vector_env() -> None:
    pytest.importorskip("gymnasium")
    from blokus.rl.gymnasium import BlokusVectorEnv

    env = BlokusVectorEnv("duo", num_envs=4, threads=2)
    obs, infos = env.reset(seed=0)
    assert obs.shape == (4, 2, 14, 14) and env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        done_before = ~masks.any(axis=1)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminated].any()
        assert (rewards[terminated] != 0).all() or (infos["rewards"][terminated] == 0).any()
        # A finished game is reset on the next step: a fresh board, colour 0 to move.
        assert (infos["current_player"][done_before] == 0).all()
        assert (infos["action_mask"][done_before].sum(axis=1) == 414).all()
        finished += int(terminated.sum())
        assert not truncated.any()
    assert finished >= 4


def test_a_variant_without_placements_is_refused() -> None:
    # A hexagon of edge 1 has no room for a six-triangle piece: no action at all, so no game
    # for any adapter to play.
    spec = {
        "id": "tiny",
        "board": {"geometry": "triangle", "edge": 1},
        "colors": ["A"],
        "players": [[0]],
        "shared_start_points": ["a1"],
        "pieces": {"only": ["I6"]},
    }
    with pytest.raises(blokus.InvalidVariantError, match="pieces: no piece fits the board of 6 cells") as e:
        blokus.Variant(spec)
    assert e.value.field == "pieces"
