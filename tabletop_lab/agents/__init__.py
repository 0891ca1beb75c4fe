"""Agents: random, greedy (one ply), UCT MCTS and alpha-beta; ``make_agent`` builds one from text."""

from .base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
