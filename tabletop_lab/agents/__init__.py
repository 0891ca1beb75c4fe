"""Agents: random, greedy (one ply), UCT MCTS and alpha-beta; ``make_agent`` builds one from text.

>>> from tabletop_lab import load_game
>>> state = load_game("cross_endodoi").new_initial_state()
>>> make_agent("greedy", seed=0).choose_action(state) in state.legal_actions()
True
"""

from .alphabeta import AlphaBetaAgent
from .base import Agent, RandomAgent
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .registry import AGENTS, make_agent

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "MCTSAgent", "AlphaBetaAgent", "AGENTS", "make_agent"]
