"""Shared helpers for the Sinomilia tests: positions built from the spec's JSON, random play."""

import json
import random

from tabletop_lab import load_game

START = json.loads(
    '{"game":"sinomilia","round":1,"phase":"set","start_player":0,"to_move":0,"chips":[15,15],"table":[0,0],'
    '"hands":[[0,1,2,3,4,5,6,7,8,9],[0,1,2,3,4,5,6,7,8,9]],"set":[null,null],"discards":[[],[]],'
    '"changed":[false,false],"last_action":null,"last_turn":"none","last_round_winner":null,"cap_reached":false}'
)


def position(base=None, **fields):
    """A position dict: ``base`` (default the start position) with ``fields`` replaced."""
    data = json.loads(json.dumps(START if base is None else base))
    data.update(fields)
    return data


def hand_without(*cards):
    return [k for k in range(10) if k not in cards]


def play_round_position(cards, table, to_move, last_turn, last_action, chips, start=0, round=1, changed=(False, False)):
    """A play-phase position of round ``round`` with set ``cards`` and nothing discarded yet."""
    return position(
        round=round,
        phase="play",
        start_player=start,
        to_move=to_move,
        chips=list(chips),
        table=list(table),
        hands=[hand_without(cards[0]), hand_without(cards[1])],
        set=list(cards),
        changed=list(changed),
        last_action=last_action,
        last_turn=last_turn,
        last_round_winner=None if round == 1 else start,
    )


def load(data, **options):
    return load_game("sinomilia", **options).state_from_dict(data)


def play(state, *moves):
    for move in moves:
        state.apply_move(move)
    return state


def random_states(seed, n_games=5, **options):
    """Every state of ``n_games`` seeded random games."""
    rng = random.Random(seed)
    game = load_game("sinomilia", **options)
    for _ in range(n_games):
        state = game.new_initial_state()
        yield state.clone()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            yield state.clone()
