"""Every game as a PettingZoo AEC environment with action masks (``env(name, **options)``).

>>> from tabletop_lab.interop.pettingzoo import env
>>> e = env("cross_endodoi", seeds_per_hole=3)
>>> e.reset(seed=0)
>>> observation, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, observation["action_mask"].tolist()
('player_0', [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
>>> e.step(2)
>>> e.agent_selection
'player_1'

Agents are ``player_0 .. player_{n-1}``, the game's seats. Each observation is a dict: the
seat's ``observation_tensor`` as float32 in a ``Box(0, 1)`` and an int8 ``action_mask`` over
``num_distinct_actions()`` (all zeros for an agent that is not to act, as PettingZoo's classic
environments do). Rewards come at the end: ``State.returns()``, teammates alike. A move of
several actions is several steps of the same agent. A game still running after
``GameInfo.max_actions`` actions (or ``max_actions``) is truncated. ``render_mode="ansi"`` renders the position's
text (``str(state)``).

Bad input gets PettingZoo's documented responses, through its standard wrappers as in its
classic environments: an illegal action ends the game with -1 for the agent that took it and 0
for the others (``TerminateIllegalWrapper``; the game state is left unchanged), an action
outside the action space fails ``AssertOutOfBoundsWrapper``'s assertion, and calls out of
order are refused by ``OrderEnforcingWrapper``. Unknown or ill-typed options raise the game's
``RulesError`` naming the option.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core import State, positive_int
from ..errors import RulesError, excerpt
from ..registry import load_game

__all__ = ["env", "raw_env"]

RENDER_MODES = ("ansi",)


def env(name: str, render_mode: str | None = None, max_actions: int | None = None, **options: Any) -> AECEnv:
    """The AEC environment of game ``name`` under ``options``, wrapped as PettingZoo's classic
    environments are (illegal actions end the game, out-of-range actions and calls out of order
    are refused). ``max_actions`` truncates a game (default: the game's ``GameInfo.max_actions``)."""
    environment = raw_env(name, render_mode=render_mode, max_actions=max_actions, **options)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):
    """The unwrapped environment: ``state`` is the live ``tabletop_lab`` state."""

    def __init__(self, name: str, render_mode: str | None = None, max_actions: int | None = None, **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RulesError(
                f"{name}: option render_mode={excerpt(render_mode)} is not allowed; valid values: 'ansi', None"
            )
        if max_actions is not None and not positive_int(max_actions):
            raise RulesError(
                f"{name}: option max_actions={excerpt(max_actions)} is not allowed; valid values: a positive integer or None"
            )
        self.game = load_game(name, **options)
        self.max_actions = max_actions or self.game.info.max_actions
        self.render_mode = render_mode
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"tabletop_lab_{name}", "is_parallelizable": False}
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        (length,) = self.game.observation_tensor_shape()
        actions = self.game.num_distinct_actions()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=(length,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.state: State = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game from the initial position (the games have no chance: ``seed`` changes nothing)."""
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict:
        player = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[self.state.legal_actions()] = 1
        tensor = np.asarray(self.state.observation_tensor(player), dtype=np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))  # raises, the state unchanged, on an illegal action
        if self.state.is_terminal():
            self.rewards = dict(zip(self.agents, self.state.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
        elif len(self.state.history()) >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (render_mode='ansi' gives text)")
            return None
        return str(self.state)

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return self.metadata["name"]
