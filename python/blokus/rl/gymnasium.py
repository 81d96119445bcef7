"""Gymnasium environments over :class:`blokus.rl.BatchEnv` (``pip install blokus[gymnasium]``):
:class:`BlokusEnv`, one game, and :class:`BlokusVectorEnv`, many games stepped together in Rust.

One policy plays every colour (self-play; there is no built-in opponent). They follow Gymnasium
1.x: ``reset(seed=, options=) -> (obs, info)`` and ``step(action) -> (obs, reward, terminated,
truncated, info)``. The observation is the planes of :class:`~blokus.rl.BatchEnv` (uint8, plane
``k`` the colour ``k`` turns after the one to move) and the action a placement id. The reward of
a step goes to the player who acted: on the step that ends the game +1 if it is the sole winner,
0 for a shared win, -1 for a loss; 0 on every other step. ``info["rewards"]`` holds every
player's reward of the step (the only place where the players who did not make the last move
learn how the game ended), ``info["action_mask"]`` the legal placement ids (int8, as
``action_space.sample(mask=...)`` takes it) and ``info["current_player"]`` the player to move
(-1 once the game is over). ``truncated`` is always false: every game ends by itself.

There is no pass action: the rules skip a colour that has no legal placement, so whenever the
game is not over the mask has a legal action for the colour to move, and the next observation
may be a later colour's (``info["current_player"]`` says whose).

Every action of the action space is accepted, as Gymnasium expects: by default
(``illegal_action="lose"``, pgx's rule) an illegal placement ends the game at once as a loss
for the player who chose it (-1 for it, +(players - 1) for each other player);
``illegal_action="raise"`` raises :class:`~blokus.errors.IllegalMoveError` instead.

Importing the module registers :data:`ENV_ID` with Gymnasium: ``gymnasium.make(ENV_ID,
variant_="classic")`` makes a :class:`BlokusEnv`, ``gymnasium.make_vec(ENV_ID, num_envs=64)`` a
:class:`BlokusVectorEnv` (its ``vector_entry_point``).

>>> import gymnasium
>>> envs = gymnasium.make_vec(ENV_ID, num_envs=4, variant_="duo")
>>> obs, infos = envs.reset(seed=0)
>>> type(envs).__name__, obs.shape, infos["action_mask"].shape, envs.single_action_space
('BlokusVectorEnv', (4, 2, 14, 14), (4, 13729), Discrete(13729))
>>> gymnasium.make(ENV_ID, variant_="trigon").observation_space
Box(0, 1, (4, 18, 35), uint8)
"""

from __future__ import annotations

from typing import Any, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from blokus import _arguments
from blokus.errors import InvalidArgumentError
from blokus.rl import BatchEnv
from blokus.variant import VariantLike

__all__ = ["ENV_ID", "BlokusEnv", "BlokusVectorEnv"]

#: The id the environments are registered under.
ENV_ID = "blokus/Blokus-v0"


def _spaces(batch: BatchEnv) -> tuple[spaces.Space[npt.NDArray[np.uint8]], spaces.Discrete]:
    """One game's observation and action spaces."""
    box = spaces.Box(0, 1, batch.observation.shape[1:], dtype=np.uint8)
    return cast("spaces.Space[npt.NDArray[np.uint8]]", box), spaces.Discrete(batch.num_actions)


class BlokusEnv(gym.Env[npt.NDArray[np.uint8], np.int64]):
    """One game as a Gymnasium environment, one policy playing every colour.

    >>> import numpy as np
    >>> env = BlokusEnv("junior")
    >>> obs, info = env.reset(seed=1)
    >>> terminated = False
    >>> while not terminated:
    ...     action = env.action_space.sample(mask=info["action_mask"])
    ...     obs, reward, terminated, truncated, info = env.step(action)
    >>> reward in (-1.0, 0.0, 1.0), info["current_player"], float(info["rewards"].sum())
    (True, -1, 0.0)
    """

    metadata = {"render_modes": []}  # noqa: RUF012 - an instance variable of Env

    def __init__(self, variant_: VariantLike = "duo", illegal_action: str = "lose") -> None:
        self._batch = BatchEnv(variant_, 1, threads=1, illegal_action=illegal_action)
        self.observation_space, self.action_space = _spaces(self._batch)

    def _info(self) -> dict[str, Any]:
        b = self._batch
        return {
            "action_mask": b.legal_action_mask[0].astype(np.int8),
            "current_player": int(b.current_player[0]),
            "rewards": b.rewards[0].copy(),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Starts the game again from the empty board; returns the observation and the info.
        ``seed`` seeds :attr:`np_random` (the game has no randomness); ``options`` are not used.

        >>> env = BlokusEnv("duo")
        >>> obs, info = env.reset(seed=0)
        >>> obs.shape, info["current_player"], int(info["action_mask"].sum())
        ((2, 14, 14), 0, 414)
        """
        super().reset(seed=seed)
        self._batch.reset()
        return self._batch.observation[0].copy(), self._info()

    def step(self, action: np.int64 | int) -> tuple[npt.NDArray[np.uint8], float, bool, bool, dict[str, Any]]:
        """Plays placement ``action`` for the colour to move. Once the game is over it ignores
        its action (reward 0, still terminated) until :meth:`reset`.

        >>> env = BlokusEnv("duo")
        >>> obs, info = env.reset()
        >>> obs, reward, terminated, truncated, info = env.step(130)
        >>> reward, terminated, truncated, info["current_player"]
        (0.0, False, False, 1)
        >>> obs, reward, terminated, truncated, info = env.step(130)  # e10 again: Orange loses
        >>> reward, terminated, info["rewards"].tolist()
        (-1.0, True, [1.0, -1.0])
        """
        b = self._batch
        acting = int(b.current_player[0])
        b.step([_arguments.integer(action, "action")])
        reward = float(b.rewards[0, acting]) if acting >= 0 else 0.0
        return b.observation[0].copy(), reward, bool(b.terminated[0]), False, self._info()


class BlokusVectorEnv(gym.vector.VectorEnv[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games stepped together in Rust, with next-step autoreset: the step after a
    sub-environment terminates starts it again (its action is ignored, its reward 0). Each
    sub-environment behaves as a :class:`BlokusEnv` in Gymnasium's ``SyncVectorEnv``, infos
    included (each key has its ``_key`` mask).

    >>> import numpy as np
    >>> envs = BlokusVectorEnv("junior", num_envs=2, threads=1)
    >>> obs, infos = envs.reset()
    >>> done = np.zeros(2, dtype=bool)
    >>> _ = envs.action_space.seed(1)
    >>> while not done.all():
    ...     actions = envs.action_space.sample(mask=tuple(infos["action_mask"]))
    ...     obs, rewards, terminated, truncated, infos = envs.step(actions)
    ...     done |= terminated
    >>> rewards.dtype, bool(truncated.any())
    (dtype('float32'), False)
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012 - an instance variable of VectorEnv

    def __init__(
        self,
        variant_: VariantLike = "duo",
        num_envs: int = 16,
        threads: int | None = None,
        illegal_action: str = "lose",
    ) -> None:
        self._batch = BatchEnv(variant_, num_envs, threads, illegal_action=illegal_action)
        num_envs = self._batch.batch_size
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(self._batch)
        shape = self._batch.observation.shape[1:]
        self.observation_space = spaces.Box(0, 1, (num_envs, *shape), dtype=np.uint8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self._batch.num_actions))
        self._needs_reset = np.zeros(num_envs, dtype=np.bool_)

    def _infos(self, which: npt.NDArray[np.bool_] | None = None) -> dict[str, Any]:
        """The infos of every sub-environment, or (as ``SyncVectorEnv`` gives them after a
        partial reset) of those in ``which``, the others' rows zero."""
        b = self._batch
        infos: dict[str, Any] = {
            "action_mask": b.legal_action_mask.astype(np.int8),
            "current_player": b.current_player.astype(np.int64),
            "rewards": b.rewards.copy(),
        }
        has = np.ones(self.num_envs, dtype=np.bool_) if which is None else which.copy()
        for key in list(infos):
            infos[key][~has] = 0
            infos[f"_{key}"] = has.copy()
        return infos

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Starts every game again, or with ``options={"reset_mask": mask}`` (numpy bools, one
        per sub-environment) those where ``mask`` is true; returns the observations and the
        infos. An int ``seed`` seeds :attr:`np_random` (the games have no randomness).

        >>> import numpy as np
        >>> envs = BlokusVectorEnv("duo", num_envs=2)
        >>> obs, infos = envs.reset()
        >>> infos["current_player"].tolist(), infos["action_mask"].sum(axis=1).tolist()
        ([0, 0], [414, 414])
        >>> _ = envs.step(np.array([130, 130]))
        >>> obs, infos = envs.reset(options={"reset_mask": np.array([False, True])})
        >>> infos["_current_player"].tolist(), infos["current_player"].tolist()
        ([False, True], [0, 0])
        """
        if isinstance(seed, int):
            super().reset(seed=seed)
        mask = None if options is None else options.get("reset_mask")
        if mask is None:
            self._batch.reset()
            self._needs_reset[:] = False
            return self._batch.observation.copy(), self._infos()
        which = _arguments.flags(mask, "options['reset_mask']", self.num_envs)
        if not which.any():
            raise InvalidArgumentError(
                "options['reset_mask'] must have at least one true entry", "options['reset_mask']"
            )
        self._batch.reset(which)
        self._needs_reset[which] = False
        return self._batch.observation.copy(), self._infos(which)

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Plays one placement id per sub-environment; a finished one starts again instead
        (next-step autoreset).

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


if ENV_ID not in gym.registry:
    gym.register(
        id=ENV_ID,
        entry_point="blokus.rl.gymnasium:BlokusEnv",
        vector_entry_point="blokus.rl.gymnasium:BlokusVectorEnv",
    )
