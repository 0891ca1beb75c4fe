"""Simulation: play seeded games between agents, one pandas row per game (``simulate``).

>>> from tabletop_lab.sim import simulate
>>> df = simulate("cross_endodoi", ["random", "greedy"], 20, seed=1, progress=False)
>>> len(df), sorted(set(df.agent_0))
(20, ['greedy', 'random'])
"""

from .batch import AgentError, Batch, play_batch
from .frame import frame_game, replay_actions, storable
from .match import match_result, play_match
from .runner import REPLAYS, SEATS, WorkerLostError, play_game, simulate
from .tournament import tournament

__all__ = [
    "simulate",
    "play_game",
    "play_batch",
    "storable",
    "frame_game",
    "replay_actions",
    "AgentError",
    "WorkerLostError",
    "Batch",
    "SEATS",
    "REPLAYS",
    "play_match",
    "match_result",
    "tournament",
]
