"""Agents: random, greedy (one ply), UCT MCTS, alpha-beta, information-set MCTS, and the classes a
game makes its ``expert`` from (``expert_class``, ``hidden_expert_class``).

``make_agent`` builds one from text; ``agents_for(game)`` names those that can play a game
(each agent class says why it cannot, in ``unsupported_reason(game)``).

>>> from tabletop_lab import load_game
>>> state = load_game("cross_endodoi").new_initial_state()
>>> make_agent("greedy", seed=0).choose_action(state) in state.legal_actions()
True
"""

from .alphabeta import AlphaBetaAgent
from .base import Agent, RandomAgent
from .expert import ExpertAgent, HiddenExpertAgent, expert_class, hidden_expert_class
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .registry import AGENTS, agents_for, make_agent

__all__ = [
    "Agent",
    "RandomAgent",
    "GreedyAgent",
    "MCTSAgent",
    "AlphaBetaAgent",
    "ISMCTSAgent",
    "ExpertAgent",
    "HiddenExpertAgent",
    "expert_class",
    "hidden_expert_class",
    "AGENTS",
    "agents_for",
    "make_agent",
]
