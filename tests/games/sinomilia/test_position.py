"""Sinomilia position format (spec 7): round trips and every invalid case of 7.1."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_lab import PositionError, load_game

from .helpers import START, hand_without, load, play, position, random_states

GAME = load_game("sinomilia")

#: Round 2 in play: Orange (start player 1 is Green) to move after Green's moon chip.
PLAY = {
    "game": "sinomilia",
    "round": 2,
    "phase": "play",
    "start_player": 1,
    "to_move": 0,
    "chips": [13, 14],
    "table": [2, 1],
    "hands": [[0, 2, 3, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9]],
    "set": [4, 7],
    "discards": [[1], [0]],
    "changed": [False, False],
    "last_action": 1,
    "last_turn": "moon",
    "last_round_winner": 1,
    "cap_reached": False,
}
#: Over by hand size: Orange holds [2, 9] after round 8.
OVER = {
    "game": "sinomilia",
    "round": 8,
    "phase": "over",
    "start_player": 0,
    "to_move": None,
    "chips": [20, 10],
    "table": [0, 0],
    "hands": [[2, 9], [3, 4, 5, 6, 7, 8, 9]],
    "set": [None, None],
    "discards": [[0, 1, 3, 4, 5, 6, 7, 8], [0, 1, 2]],
    "changed": [False, False],
    "last_action": None,
    "last_turn": "none",
    "last_round_winner": 0,
    "cap_reached": False,
}


def canonical(data):
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize("data", [START, PLAY, OVER], ids=["start", "play", "over"])
def test_valid_positions_round_trip(data):
    state = load(data)
    assert state.to_dict() == data
    assert list(state.to_dict()) == list(START)  # keys in spec order
    assert state.to_json() == canonical(data)
    assert GAME.state_from_json(json.dumps(data, indent=3)).to_json() == canonical(data)
    shuffled = dict(reversed(list(data.items())))
    assert load(shuffled).to_json() == canonical(data)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([{}, {"first_player": 1}, {"round_cap": 3}]))
def test_every_reachable_state_round_trips(seed, options):
    game = load_game("sinomilia", **options)
    for state in random_states(seed, n_games=2, **options):
        text = state.to_json()
        again = game.state_from_json(text)
        assert again == state and again.to_json() == text
        assert again.legal_moves() == state.legal_moves()


def test_loaded_play_position_plays_on():
    state = load(PLAY)
    state.apply_move("pass")  # C3 after Green's moon chip: T = 3, Orange 4 is 1 away, Green 7 is 4 away
    report = state.last_round_report
    assert report.winner == 0 and report.table == 3 and report.moon == 1
    assert state.to_dict()["chips"] == [13 + 3 + 3, 14 - 3]


def test_over_position_is_terminal():
    state = load(OVER)
    assert state.is_terminal() and state.result().reason == "hand" and state.result().winners == (0,)


def without(data, key):
    data = json.loads(json.dumps(data))
    del data[key]
    return data


INVALID = [
    # keys and types
    (without(START, "cap_reached"), "missing key"),
    (position(extra=1), "unknown key"),
    (position(game="sygo"), "'game'"),
    (position(round="1"), "'round'"),
    (position(round=True), "'round'"),
    (position(round=0), "'round'"),
    (position(phase="setting"), "'phase'"),
    (position(start_player=2), "'start_player'"),
    (position(to_move=True), "'to_move'"),
    (position(chips=[15, 15, 0]), "'chips'"),
    (position(chips=[15.0, 15]), r"chips\[0\] must be an integer"),
    (position(table=[0, "0"]), r"table\[1\] must be an integer"),
    (position(hands=[list(range(10))]), "'hands'"),
    (position(hands=[list(range(10)), "0123456789"]), r"hands\[1\] must be a list of cards"),
    (position(hands=[list(range(11)), list(range(10))]), r"hands\[0\] must be a list of cards"),
    (position(set=[10, None]), r"set\[0\] must be a card"),
    (position(set=[False, None]), r"set\[0\] must be a card"),
    (position(discards={}), "'discards'"),
    (position(changed=[0, False]), "'changed'"),
    (position(last_action=2), "'last_action'"),
    (position(last_turn="chip"), "'last_turn'"),
    (position(last_round_winner="0"), "'last_round_winner'"),
    (position(cap_reached=0), "'cap_reached'"),
    # chips
    (position(chips=[-1, 31]), r"chips\[0\] is negative"),
    (position(PLAY, table=[-1, 4]), r"table\[0\] is negative"),
    (position(chips=[15, 14]), "must total 30"),
    (position(PLAY, chips=[10, 11], table=[5, 4]), "holds 9 chips"),
    (position(chips=[14, 15], table=[1, 0]), "empty outside the play phase"),
    (position(OVER, chips=[20, 9], table=[0, 1]), "empty outside the play phase"),
    # cards
    (position(hands=[list(range(9)), list(range(10))]), r"hands\[0\], set\[0\] and discards\[0\]"),
    (position(PLAY, hands=[[0, 2, 3, 4, 5, 6, 7, 8, 9], PLAY["hands"][1]]), r"each card 0\.\.9 exactly once"),
    (position(hands=[list(range(9, -1, -1)), list(range(10))]), "strictly ascending"),
    (position(hands=[[0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9], list(range(10))]), "strictly ascending"),
    (
        position(round=2, last_round_winner=0, hands=[hand_without(9), list(range(10))], discards=[[9], []]),
        "holds the 9",
    ),
    (position(hands=[hand_without(3), list(range(10))], discards=[[3], []]), "at most 0 can be discarded"),
    (position(OVER, round=7), "at most 7 can be discarded"),
    (
        position(round=9, last_round_winner=0, hands=[[8, 9], list(range(10))], discards=[list(range(8)), []]),
        "fewer than 3 cards",
    ),
    # phase set
    (position(set=[None, 3], hands=[list(range(10)), hand_without(3)]), "non-start player has a set card"),
    (position(to_move=1), "player 0 sets next"),
    (position(set=[3, None], hands=[hand_without(3), list(range(10))]), "player 1 sets next"),
    (position(chips=[0, 30]), "pile is 0 in the set phase"),
    (position(changed=[False, True]), "change card is used in the set phase"),
    (position(last_action=0), "last_action must be null in the set phase"),
    (position(last_turn="pass"), "last_turn must be 'none' in the set phase"),
    # phase play
    (position(PLAY, set=[4, None], hands=[PLAY["hands"][0], [1, 2, 3, 4, 5, 6, 7, 8, 9]]), "both set cards"),
    (position(PLAY, to_move=None), "to_move is null in the play phase"),
    (position(PLAY, last_action=None), "last_action is null although an Action was taken"),
    (
        position(PLAY, chips=[15, 15], table=[0, 0], to_move=1, last_turn="none", last_action=0),
        "last_action is set although no chip",
    ),
    (position(PLAY, last_turn="sun", chips=[13, 14], table=[0, 3]), "does not match the table"),
    (position(PLAY, last_turn="change"), "does not match the table or player 1's change card"),
    (position(PLAY, last_turn="none"), "'none' although a turn has been taken"),
    (
        position(PLAY, chips=[15, 15], table=[0, 0], to_move=0, last_turn="none", last_action=None),
        "'none' although a turn has been taken",
    ),
    # phase over
    (position(OVER, to_move=0), "to_move must be null"),
    (
        position(OVER, set=[None, 9], hands=[OVER["hands"][0], [3, 4, 5, 6, 7, 8]]),
        "set card is present although the game is over",
    ),
    (position(OVER, changed=[True, False]), "change card is used although the game is over"),
    (position(OVER, last_action=0), "last_action must be null and last_turn 'none'"),
    (position(OVER, last_turn="pass"), "last_action must be null and last_turn 'none'"),
    (position(OVER, last_round_winner=None), "last_round_winner is null although the game is over"),
    (
        position(OVER, hands=[[2, 8, 9], OVER["hands"][1]], discards=[[0, 1, 3, 4, 5, 6, 7], [0, 1, 2]]),
        "no end condition holds",
    ),
    (position(OVER, cap_reached=True), "cap_reached is true although the game ended by chips or hand"),
    # cap, round winner, last Actor
    (position(cap_reached=True), "cap_reached is true in phase 'set'"),
    (position(PLAY, cap_reached=True), "cap_reached is true in phase 'play'"),
    (position(PLAY, last_round_winner=None), "last_round_winner is null in round 2"),
    (position(PLAY, last_round_winner=0), "start_player differs from last_round_winner"),
    (position(PLAY, last_action=0), "last_action is 0 after a 'moon' turn by player 1"),
    (
        position(PLAY, chips=[0, 30], table=[0, 0], to_move=1, last_turn="none", last_action=None),
        "a pile is 0 before any Action",
    ),
]


@pytest.mark.parametrize(("data", "message"), INVALID, ids=[f"{i}-{m[:30]}" for i, (_, m) in enumerate(INVALID)])
def test_invalid_positions_name_the_problem(data, message):
    with pytest.raises(PositionError, match=message):
        load(data)


def test_round_beyond_the_cap_is_refused():
    with pytest.raises(PositionError, match="round 2 exceeds round_cap 1"):
        load(PLAY, round_cap=1)
    assert load(PLAY, round_cap=2).to_dict() == PLAY


def test_cap_reached_position():
    data = position(OVER, round=3, hands=[list(range(10)), list(range(10))], discards=[[], []], chips=[16, 14])
    data["cap_reached"] = True
    state = load(data, round_cap=3)
    assert state.result().reason == "cap" and state.result().cap_reached and state.result().winners == (0,)
    with pytest.raises(PositionError, match="no end condition"):
        load(data, round_cap=4)  # round 3 < cap 4: the cap cannot have been reached
    with pytest.raises(PositionError, match="no end condition"):
        load({**data, "cap_reached": False}, round_cap=3)  # the cap must be reported


def test_malformed_json_and_non_objects():
    with pytest.raises(PositionError, match="not valid JSON"):
        GAME.state_from_json("{")
    with pytest.raises(PositionError, match="JSON object"):
        GAME.state_from_dict([1, 2])


def test_error_messages_quote_a_short_excerpt():
    with pytest.raises(PositionError) as info:
        load(position(phase="x" * 500))
    assert len(str(info.value)) < 200


def test_curated_positions_play_as_described():
    from tabletop_lab.data import load_position

    payout = load_position("sinomilia", "payout_example")
    payout.apply_move("pass")
    assert payout.to_dict()["chips"] == [14, 16] and payout.last_round_report.paid == 10
    tie = load_position("sinomilia", "tie_example")
    play(tie, "chip moon", "pass")
    assert tie.last_round_report.winner == 0 and tie.last_round_report.decided == "last_action"
    tie2 = load_position("sinomilia", "tie_example_2")
    play(tie2, "pass", "pass")
    assert tie2.last_round_report.winner == 1 and tie2.last_round_report.decided == "last_action"
    moon = load_position("sinomilia", "moon_then_pass")
    moon.apply_move("pass")
    assert moon.last_round_report.winner == 0 and moon.last_round_report.table == 2
    last = load_position("sinomilia", "last_chip")
    last.apply_move("pass")
    assert last.result().reason == "chips" and last.to_dict()["hands"][0] == [8, 9]
