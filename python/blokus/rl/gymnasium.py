"""A Gymnasium vector environment over :class:`blokus.rl.BatchEnv` (``pip install blokus[gymnasium]``).

One policy plays every colour (self-play). Each sub-environment's observation is drawn from the
point of view of the colour to move; the reward of a step goes to the player who acted: +1 when
its move ends the game and it is the sole winner, 0 for a shared win or while the game goes on,
-1 when it lost. ``infos["action_mask"]`` holds the legal placement ids of every sub-environment,
``infos["current_player"]`` the player to move and ``infos["rewards"]`` every player's reward.
Finished sub-environments reset on the next step (Gymnasium's next-step autoreset).

>>> import numpy as np
>>> envs = BlokusVectorEnv("duo", num_envs=4)
>>> obs, infos = envs.reset(seed=0)
>>> obs.shape, infos["action_mask"].shape, envs.single_action_space
((4, 2, 14, 14), (4, 13729), Discrete(13729))
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from blokus.rl import BatchEnv
from blokus.variant import VariantLike

__all__ = ["BlokusVectorEnv"]


class BlokusVectorEnv(gym.vector.VectorEnv[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games stepped together in Rust.

    >>> import numpy as np
    >>> envs = BlokusVectorEnv("junior", num_envs=2, threads=1)
    >>> obs, infos = envs.reset()
    >>> rng = np.random.default_rng(1)
    >>> done = np.zeros(2, dtype=bool)
    >>> while not done.all():
    ...     actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
    ...     obs, rewards, terminated, truncated, infos = envs.step(actions)
    ...     done |= terminated
    >>> rewards.dtype, bool(truncated.any())
    (dtype('float32'), False)
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012 - an instance variable of VectorEnv

    def __init__(self, variant_: VariantLike = "duo", num_envs: int = 16, threads: int | None = None) -> None:
        self._batch = BatchEnv(variant_, num_envs, threads)
        num_envs = self._batch.batch_size
        self.num_envs = num_envs
        n = self._batch.num_actions
        shape = self._batch.observation.shape[1:]
        self.single_observation_space = spaces.Box(0, 1, shape, dtype=np.uint8)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = spaces.Box(0, 1, (num_envs, *shape), dtype=np.uint8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n))
        self._needs_reset = np.zeros(num_envs, dtype=np.bool_)

    def _infos(self) -> dict[str, Any]:
        b = self._batch
        return {
            "action_mask": b.legal_action_mask.copy(),
            "current_player": b.current_player.copy(),
            "rewards": b.rewards.copy(),
        }

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Starts every game again; returns the observations and the infos (``seed`` and ``options`` are not used: the games need no randomness).

        >>> envs = BlokusVectorEnv("duo", num_envs=2)
        >>> obs, infos = envs.reset()
        >>> infos["current_player"].tolist(), infos["action_mask"].sum(axis=1).tolist()
        ([0, 0], [414, 414])
        """
        self._batch.reset()
        self._needs_reset[:] = False
        return self._batch.observation.copy(), self._infos()

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Plays one placement id per sub-environment; a finished one starts again instead (next-step autoreset).

        >>> import numpy as np
        >>> envs = BlokusVectorEnv("duo", num_envs=2)
        >>> obs, infos = envs.reset()
        >>> obs, rewards, terminated, truncated, infos = envs.step(np.array([130, 130]))
        >>> rewards.tolist(), terminated.tolist(), infos["current_player"].tolist()
        ([0.0, 0.0], [False, False], [1, 1])
        """
        b = self._batch
        resetting = self._needs_reset.copy()
        acting = b.current_player.copy()
        b.step(actions)  # finished games ignore their action
        if resetting.any():
            b.reset(resetting)
        rows = np.arange(self.num_envs)
        rewards = np.where(acting >= 0, b.rewards[rows, np.maximum(acting, 0)], 0).astype(np.float32)
        rewards[resetting] = 0.0
        terminated = b.terminated.copy()
        self._needs_reset = terminated.copy()
        return b.observation.copy(), rewards, terminated, b.truncated.copy(), self._infos()
