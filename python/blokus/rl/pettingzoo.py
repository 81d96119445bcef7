"""A PettingZoo AEC environment: one game, one agent per player (``pip install blokus[pettingzoo]``).

Agents are ``player_0`` .. ``player_{n-1}``. Observations are dicts with ``observation`` (int8
planes from the point of view of the colour the agent moves or, when it is not to move, of its
first colour; see :func:`blokus.rl.observation`) and ``action_mask`` (int8, 1 for the legal
placement ids of the agent to move). At the end every agent is rewarded +1 as the sole winner,
0 as a tied winner, -1 otherwise.
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
    """Blokus as a PettingZoo AEC environment."""

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
        n = self.variant.num_placements
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self._first_color = [colors[0] for colors in self.variant.players]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _agent_of_turn(self) -> str:
        player = self.board.player
        return self.possible_agents[player if player is not None else 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.board = Board(self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of_turn()

    def observe(self, agent: str) -> dict[str, Any]:
        p = self._index[agent]
        core = self.board._core
        turn = core.turn
        if turn is not None and core.player == p:
            return {"observation": core.observation(turn), "action_mask": core.legal_mask()}
        mask = np.zeros(self.variant.num_placements, dtype=np.int8)
        return {"observation": core.observation(self._first_color[p]), "action_mask": mask}

    def step(self, action: int | None) -> None:
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
        if self.render_mode == "ansi":
            return str(self.board)
        return None

    def close(self) -> None:
        pass


def env(variant_: VariantLike = "duo", render_mode: str | None = None) -> BlokusEnv:
    """The environment, as PettingZoo's constructors name it."""
    return BlokusEnv(variant_, render_mode)
