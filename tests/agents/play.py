"""Playing whole games between agents, for the agent tests (the real runner lives in tabletop_lab.sim)."""

from tabletop_lab import Game, State
from tabletop_lab.agents import Agent, RandomAgent


def play(state: State, seats: list[Agent]) -> State:
    """Play ``state`` (a copy) to the end, each seat's agent choosing for its player."""
    state = state.clone()
    while not state.is_terminal():
        state.apply_action(seats[state.current_player()].choose_action(state))
    return state


def score_against_random(game: Game, agent: Agent, n_games: int, seed: int = 0) -> float:
    """``agent``'s mean score (win 1, draw 1/2, loss 0) against random players, its seat rotating."""
    total = 0.0
    for index in range(n_games):
        seat = index % game.num_players
        seats = [RandomAgent(seed=seed * 1000 + index * 10 + p) for p in range(game.num_players)]
        agent.reset(seed * 1000 + index)
        seats[seat] = agent
        final = play(game.new_initial_state(), seats)
        total += (final.returns()[seat] + 1) / 2
    return total / n_games


def wins_within(state: State, player: int, actions: int) -> bool:
    """Brute force: can ``player`` force a win within ``actions`` actions, whatever the others do?"""
    if state.is_terminal():
        return state.returns()[player] > 0
    if actions == 0:
        return False
    outcomes = (wins_within(state.child(a), player, actions - 1) for a in state.legal_actions())
    return any(outcomes) if state.current_player() == player else all(outcomes)
