"""The PettingZoo environment passes PettingZoo's own tests with warnings turned into errors."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.spaces import Dict
from pettingzoo.test import api_test, seed_test

from blokus.rl.pettingzoo import env

#: What pettingzoo.test.api_test (1.27) says of every correct environment like ours, turned
#: back from errors into nothing. The first two are said of any Dict observation (the classic
#: format, ``observation`` and ``action_mask``) unless the environment's name is on a list of
#: PettingZoo's own; PettingZoo has since removed both (Farama-Foundation/PettingZoo#1391). The
#: third is said of the empty board at the start, whose planes are zeros.
NOT_OURS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation numpy array is all zeros.",
)


@pytest.mark.parametrize(("variant", "cycles"), [("duo", 200), ("classic_3", 100), ("trigon_3", 60), ("3d_wall_2", 60)])
def test_pettingzoo_api_test_passes_with_warnings_as_errors(variant: str, cycles: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in NOT_OURS:
            warnings.filterwarnings("ignore", message=re.escape(message) + "$", category=UserWarning)
        api_test(env(variant), num_cycles=cycles)


def test_pettingzoo_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(lambda: env("duo"), num_cycles=50)


@pytest.mark.parametrize("variant", ["classic_2", "classic_3", "3d_pyramid_2"])
def test_every_observation_is_in_its_space(variant: str) -> None:
    # Numpy arrays of the declared shapes and dtypes, for every agent at every step.
    e = env(variant)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        for a in e.agents:
            o = e.observe(a)
            space = e.observation_space(a)
            assert isinstance(space, Dict)
            assert set(o) == {"observation", "action_mask"}
            assert all(isinstance(o[k], np.ndarray) and o[k].dtype == space[k].dtype for k in o)
            assert space.contains(o)
            assert o["action_mask"].any() == (a == agent and not terminated)  # never a pass
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_pettingzoo_plays_a_whole_game() -> None:
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
