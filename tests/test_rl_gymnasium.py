"""The Gymnasium environments follow Gymnasium 1.x: its own checker passes without a warning, and
the vector environment gives what Gymnasium's SyncVectorEnv over the single one gives."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from blokus.errors import IllegalMoveError, InvalidArgumentError

gym = pytest.importorskip("gymnasium")

from gymnasium.spaces import Discrete  # noqa: E402
from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from blokus.rl.gymnasium import ENV_ID, BlokusEnv, BlokusVectorEnv  # noqa: E402


@pytest.mark.parametrize("variant", ["duo", "classic_3", "trigon_3", "3d_pyramid_2"])
def test_gymnasiums_checker_passes_without_a_warning(variant: str) -> None:
    # Made through the registry, so the environment has a spec and every check runs.
    env = gym.make(ENV_ID, variant_=variant).unwrapped
    assert isinstance(env, BlokusEnv) and env.spec is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


def test_a_whole_game_through_gymnasium_make() -> None:
    # gymnasium.make wraps the environment in its passive checker and order enforcer.
    env = gym.make(ENV_ID, variant_="classic_2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        obs, info = env.reset(seed=2)
        env.action_space.seed(2)
        rewards, steps, terminated = [], 0, False
        while not terminated:
            assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()  # never a pass
            player = info["current_player"]
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample(mask=info["action_mask"]))
            assert env.observation_space.contains(obs) and truncated is False
            rewards.append((player, reward))
            steps += 1
    # Only the last step is rewarded, to the player who made it; info has both players'.
    assert all(r == 0.0 for _, r in rewards[:-1])
    last_player, last_reward = rewards[-1]
    assert last_reward == info["rewards"][last_player] and sorted(info["rewards"].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert info["current_player"] == -1 and not info["action_mask"].any()
    # A finished game ignores its action until reset.
    obs2, reward, terminated, truncated, _ = env.step(0)
    assert (obs2 == obs).all() and reward == 0.0 and terminated and not truncated


def test_an_illegal_action_loses_or_raises() -> None:
    env = BlokusEnv("classic")
    env.reset()
    _, reward, terminated, _, info = env.step(0)  # not on Blue's start point
    assert (reward, terminated, info["rewards"].tolist()) == (-1.0, True, [-1.0, 3.0, 3.0, 3.0])
    strict = BlokusEnv("classic", illegal_action="raise")
    strict.reset()
    with pytest.raises(IllegalMoveError, match="no start point"):
        strict.step(0)
    env.reset()
    assert isinstance(env.action_space, Discrete)
    with pytest.raises(IllegalMoveError, match="no placement"):
        env.step(env.action_space.n)


def test_the_vector_env_is_a_sync_vector_env_of_single_games() -> None:
    # Same actions (a tenth of them illegal) into BlokusVectorEnv and into Gymnasium's own
    # SyncVectorEnv over BlokusEnv, both with next-step autoreset: every output is the same.
    n = 5
    ours = BlokusVectorEnv("duo", num_envs=n, threads=2)
    theirs = SyncVectorEnv([lambda: BlokusEnv("duo") for _ in range(n)], autoreset_mode=AutoresetMode.NEXT_STEP)
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.single_action_space == theirs.single_action_space
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space

    def same(a: tuple[object, ...], b: tuple[object, ...]) -> None:
        for x, y in zip(a, b, strict=True):
            if isinstance(x, np.ndarray) and x.dtype.kind == "f":
                assert np.array_equal(x, np.asarray(y))  # rewards: float32 here, float64 there
            else:
                assert data_equivalence(x, y, exact=True), (x, y)

    same(ours.reset(seed=1), theirs.reset(seed=1))
    ours.action_space.seed(1)
    rng = np.random.default_rng(1)
    _, infos = ours.reset()
    theirs.reset()
    ended = 0
    assert isinstance(ours.single_action_space, Discrete)
    for step in range(400):
        actions = ours.action_space.sample(mask=tuple(infos["action_mask"]))
        wild = rng.random(n) < 0.1
        actions[wild] = rng.integers(0, ours.single_action_space.n, int(wild.sum()))
        out = ours.step(actions)
        same(out, theirs.step(actions))
        infos = out[4]
        ended += int(out[2].sum())
        if step in (50, 51, 200):
            mask = np.arange(n) % 2 == step % 2
            same(ours.reset(options={"reset_mask": mask}), theirs.reset(options={"reset_mask": mask.copy()}))
    assert ended >= n


def test_the_vector_env_checks_its_reset_mask() -> None:
    envs = BlokusVectorEnv("duo", num_envs=2, threads=1)
    envs.reset()
    with pytest.raises(InvalidArgumentError, match="at least one true"):
        envs.reset(options={"reset_mask": np.zeros(2, dtype=bool)})
    with pytest.raises(InvalidArgumentError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.ones(3, dtype=bool)})


def test_gymnasium_vector_env() -> None:
    env = gym.make_vec(ENV_ID, num_envs=4, variant_="duo", threads=2)
    assert isinstance(env, BlokusVectorEnv)
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
