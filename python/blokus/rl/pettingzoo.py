"""A PettingZoo AEC environment: one game, one agent per player (``pip install blokus[pettingzoo]``).

Agents are ``player_0`` .. ``player_{n-1}``. Observations are dicts with ``observation`` (int8
planes from the point of view of the colour the agent moves or, when it is not to move, of its
first colour; see :func:`blokus.rl.observation`) and ``action_mask`` (int8, 1 for the legal
placement ids of the agent to move), PettingZoo's classic format. In Blokus 3D the planes are
``(colours * levels, rows, cols)``, as PettingZoo wants at most three dimensions: plane ``k *
levels + z`` is level ``z + 1`` of the ``k``-th colour from the mover. At the end every agent is
rewarded +1 as the sole winner, 0 as a tied winner, -1 otherwise.

There is no pass: the rules skip a colour that cannot move, so the agent selected is always one
with a legal placement (in ``classic_2`` an agent may be selected twice running). An illegal
action raises :class:`~blokus.errors.IllegalMoveError` and changes nothing. ``pettingzoo.test``'s
``api_test`` and ``seed_test`` pass; ``api_test`` (PettingZoo 1.27) still warns of any Dict
observation (removed since, Farama-Foundation/PettingZoo#1391) and of the empty board's zeros.

>>> import numpy as np
>>> rng = np.random.default_rng(3)
>>> e = env("duo")
>>> e.reset()
>>> final = {}
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         final[agent] = reward
...     e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
>>> final, e.board.result()
({'player_0': 1.0, 'player_1': -1.0}, 'B+14')
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from blokus import _arguments
from blokus.board import Board
from blokus.errors import InvalidArgumentError
from blokus.variant import VariantLike, variant

__all__ = ["BlokusEnv", "env"]


class BlokusEnv(AECEnv[str, dict[str, Any], int]):
    """Blokus as a PettingZoo AEC environment.

    >>> e = BlokusEnv("classic_3")
    >>> e.possible_agents, e.metadata["name"]
    (['player_0', 'player_1', 'player_2'], 'blokus_v0')
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "blokus_v0", "is_parallelizable": False}

    def __init__(self, variant_: VariantLike = "duo", render_mode: str | None = None) -> None:
        super().__init__()
        self.variant = variant(variant_)
        if render_mode not in (None, "ansi"):
            raise InvalidArgumentError(
                f"render_mode must be None or 'ansi', not {_arguments.shown(render_mode)}", "render_mode"
            )
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.variant.num_players)]
        self.board = Board(self.variant)
        shape = self.board._core.observation(0).shape
        # Blokus 3D's levels folded into the planes: at most three dimensions.
        self._shape: tuple[int, ...] = (shape[0] * shape[1], *shape[2:]) if len(shape) == 4 else shape
        n = self.variant.num_placements
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, self._shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self._first_color = [colors[0] for colors in self.variant.players]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: ``observation`` planes and ``action_mask``.

        >>> env("duo").observation_space("player_0")["observation"].shape
        (2, 14, 14)
        >>> env("3d_pyramid_2").observation_space("player_0")["observation"].shape  # 2 colours x 2 levels
        (4, 8, 8)
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: ``Discrete`` over the placement ids.

        >>> env("duo").action_space("player_1")
        Discrete(13729)
        """
        return self.action_spaces[agent]

    def _agent_of_turn(self) -> str:
        player = self.board.player
        return self.possible_agents[player if player is not None else 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game from the empty board (``seed`` and ``options`` are not used: the game has no randomness).

        >>> e = env("duo")
        >>> e.reset()
        >>> e.agents, e.agent_selection
        (['player_0', 'player_1'], 'player_0')
        """
        self.board = Board(self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of_turn()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation; its mask is all zeros unless it is to move.

        >>> e = env("duo")
        >>> e.reset()
        >>> int(e.observe("player_0")["action_mask"].sum()), int(e.observe("player_1")["action_mask"].sum())
        (414, 0)
        """
        p = self._index[agent]
        core = self.board._core
        turn = core.turn
        if turn is not None and core.player == p:
            return {"observation": core.observation(turn).reshape(self._shape), "action_mask": core.legal_mask()}
        mask = np.zeros(self.variant.num_placements, dtype=np.int8)
        return {"observation": core.observation(self._first_color[p]).reshape(self._shape), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Plays the agent's action, a placement id (``None`` once the agent is done).

        >>> e = env("duo")
        >>> e.reset()
        >>> e.step(130)
        >>> e.agent_selection, e.board.move_stack
        ('player_1', [<Move e10 (1, id 130)>])
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidArgumentError(f"{agent} is to move and must give an action", "action")
        # Any integer (numpy's too); a float or a bool is refused, never cast.
        self.board.push(_arguments.integer(action, "action"))
        self._cumulative_rewards[agent] = 0.0
        core = self.board._core
        player = core.player
        if player is None:
            rewards = core.rewards()
            for p, a in enumerate(self.agents):
                self.rewards[a] = rewards[p]
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            # Rewards are all zero until the end: nothing to accumulate.
            self.agent_selection = self.possible_agents[player]

    def render(self) -> str | None:
        """The board as text with ``render_mode='ansi'``, else ``None``.

        >>> e = env("duo", render_mode="ansi")
        >>> e.reset()
        >>> print(e.render().splitlines()[-1])
        Purple (P) to move
        """
        if self.render_mode == "ansi":
            return str(self.board)
        return None

    def close(self) -> None:
        """Nothing to release.

        >>> e = env("duo")
        >>> e.reset()
        >>> e.close()
        >>> e.board.ply
        0
        """


def env(variant_: VariantLike = "duo", render_mode: str | None = None) -> BlokusEnv:
    """The environment, as PettingZoo's constructors name it.

    >>> e = env("trigon_3")
    >>> e.variant.id, len(e.possible_agents)
    ('trigon_3', 3)
    """
    return BlokusEnv(variant_, render_mode)
