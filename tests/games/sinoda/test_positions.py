"""Sinoda position JSON (spec section 6) and action strings (section 7), with every invalid case."""

import copy
import json
import random

import pytest

from tabletop_lab import ActionSyntaxError, IllegalActionError, PositionError, load_game
from tabletop_lab.data import load_positions
from tests.games.sinoda.helpers import load

GAME = load_game("sinoda")

# The spec's start position of the two-player game, verbatim.
START = (
    '{"game":"sinoda","players":2,"to_move":0,"pieces":[["D-3,-1",1,1],["U-2,-1",1,1],["D-2,-1",1,1],'
    '["D1,-1",0,1],["U2,-1",0,1],["D2,-1",0,1],["U-3,0",1,1],["D-3,0",1,1],["U-2,0",1,1],["U1,0",0,1],'
    '["D1,0",0,1],["U2,0",0,1]],"captured":[[],[]]}'
)


def test_start_position_is_the_specs():
    assert GAME.new_initial_state().to_json() == START
    assert GAME.state_from_json(START) == GAME.new_initial_state()
    assert GAME.state_from_json(START).to_json() == START


def test_first_player_shows_in_to_move():
    assert json.loads(load_game("sinoda", first_player=1).new_initial_state().to_json())["to_move"] == 1


def random_states(options: dict, n: int, seed: int):
    game = load_game("sinoda", **options)
    rng = random.Random(seed)
    for _ in range(n):
        state = game.new_initial_state()
        for _ in range(rng.randrange(200)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 4, "teams": "pairs"}, {"players": 6}])
def test_positions_round_trip(options):
    for state in random_states(options, 5, seed=3):
        text = state.to_json()
        again = state.game.state_from_json(text)
        assert again == state and again.to_json() == text
        assert again.legal_moves() == state.legal_moves() and again.result() == state.result()


def test_parser_accepts_any_order_and_whitespace_and_sorts():
    state = next(s for s in random_states({"players": 3}, 20, seed=5) if sum(map(len, s.to_dict()["captured"])) >= 2)
    data = state.to_dict()
    shuffled = copy.deepcopy(data)
    rng = random.Random(1)
    rng.shuffle(shuffled["pieces"])
    for cap in shuffled["captured"]:
        cap.reverse()
    text = json.dumps(dict(reversed(list(shuffled.items()))), indent=2)
    again = state.game.state_from_json(text)
    assert again == state and again.to_json() == state.to_json()


def test_terminal_status_is_computed_not_stored():
    text = json.dumps({"game": "sinoda", "players": 2, "to_move": 1, "pieces": [["U2,0", 0, 1], ["U-2,0", 1, 1]]})
    data = {**json.loads(text), "captured": [[[1, 1]] * 5, [[0, 2]] + [[0, 1]] * 4]}
    state = GAME.state_from_dict(data)
    assert state.is_terminal() and state.result().winners == (1,) and list(state.to_dict()) == list(data)


VALID = {
    "game": "sinoda",
    "players": 2,
    "to_move": 0,
    "pieces": [["U2,0", 0, 3], ["D1,0", 0, 1], ["U-2,0", 1, 2]],
    "captured": [[[1, 1]] * 5, [[0, 1]] * 4],
}


def variant(**changes):
    data = copy.deepcopy(VALID)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "must be a JSON object"),
        ({k: v for k, v in VALID.items() if k != "captured"}, "missing key"),
        (variant(extra=1), "unknown key"),
        (variant(game="sygo"), "'game' must be 'sinoda'"),
        (variant(players=True), "'players' must be an integer"),
        (variant(players=3), "'players' is 3 but the rules config has players=2"),
        (variant(to_move=2), "'to_move' must be a seat 0..1"),
        (variant(to_move=False), "'to_move' must be a seat"),
        (variant(to_move=-1), "'to_move' must be a seat"),
        (variant(pieces={"U2,0": 0}), "'pieces' must be a list"),
        (variant(pieces=[["U2,0", 0]] + VALID["pieces"][1:]), r"pieces\[0\] must be \[cell, player, value\]"),
        (variant(pieces=[["U9,0", 0, 3]] + VALID["pieces"][1:]), r"pieces\[0\]: cell 'U9,0' is not on the board"),
        (variant(pieces=[["U0,4", 0, 3]] + VALID["pieces"][1:]), "not on the board"),
        (variant(pieces=[[7, 0, 3]] + VALID["pieces"][1:]), "cell must be a string"),
        (variant(pieces=VALID["pieces"] + [["U2,0", 1, 1]]), r"pieces\[3\]: two pieces share cell U2,0"),
        (variant(pieces=[["U2,0", 2, 3]] + VALID["pieces"][1:]), "the player must be an integer 0..1"),
        (variant(pieces=[["U2,0", True, 3]] + VALID["pieces"][1:]), "the player must be an integer"),
        (variant(pieces=[["U2,0", 0, 5]] + VALID["pieces"][1:]), "the value must be an integer 1..4"),
        (variant(pieces=[["U2,0", 0, 0]] + VALID["pieces"][1:]), "the value must be an integer 1..4"),
        (variant(pieces=[["U2,0", 0, 2.0]] + VALID["pieces"][1:]), "the value must be an integer"),
        (variant(captured=[[[1, 1]] * 5]), "'captured' must be a list of 2 lists"),
        (variant(captured="none"), "'captured' must be a list of 2 lists"),
        (variant(captured=[[[1, 1]] * 5, {}]), r"captured\[1\] must be a list"),
        (variant(captured=[[[1, 1]] * 4 + [[1]], [[0, 1]] * 4]), r"captured\[0\]\[4\] must be \[owner, value\]"),
        (variant(captured=[[[1, 1]] * 4 + [[2, 1]], [[0, 1]] * 4]), "the owner must be an integer 0..1"),
        (variant(captured=[[[1, 1]] * 4 + [[1, 5]], [[0, 1]] * 4]), "the value must be an integer 1..4"),
        (variant(captured=[[[1, 1]] * 4 + [[0, 1]], [[0, 1]] * 3]), "the owner 0 is the capturer itself"),
        (variant(captured=[[[1, 1]] * 4, [[0, 1]] * 4]), "player 1 has 1 piece.* on the board and 4 captured"),
        (
            variant(captured=[[[1, 1]] * 5, [[0, 1]] * 5]),
            "player 0 has 2 piece.* and 5 captured; the two must add up to 6",
        ),
    ],
)
def test_invalid_positions(data, problem):
    with pytest.raises(PositionError, match=problem):
        GAME.state_from_dict(data)


def test_captured_teammates_are_refused():
    game = load_game("sinoda", players=4, teams="pairs")
    data = game.new_initial_state().to_dict()
    data["pieces"] = [p for p in data["pieces"] if p[0] != game.new_initial_state().pieces_of(2)[0]]
    data["captured"][0] = [[2, 1]]
    with pytest.raises(PositionError, match=r"captured\[0\]\[0\]: the owner 2 is player 0's teammate"):
        game.state_from_dict(data)
    data["captured"][0], data["captured"][1] = [], [[2, 1]]
    assert game.state_from_dict(data).scores() == [0, 1, 0, 0]


def test_nobody_captures_more_than_six():
    # Three players: Blue has 7 pieces, 4 of Red's and 3 of Green's; each owner's count is right.
    game = load_game("sinoda", players=3)
    start = game.new_initial_state()
    pieces = [[c, 0, 1] for c in start.pieces_of(0)] + [[c, 1, 1] for c in start.pieces_of(1)[:2]]
    pieces += [[c, 2, 1] for c in start.pieces_of(2)[:3]]
    data = {"game": "sinoda", "players": 3, "to_move": 0, "pieces": pieces}
    data["captured"] = [[[1, 1]] * 4 + [[2, 1]] * 3, [], []]
    with pytest.raises(PositionError, match=r"captured\[0\] holds 7 pieces; nobody captures more than 6"):
        game.state_from_dict(data)


def test_bad_json_text():
    with pytest.raises(PositionError, match="not valid JSON"):
        GAME.state_from_json('{"game": "sinoda",')
    with pytest.raises(PositionError, match="no text notation"):
        GAME.state_from_notation("U2,0")


# --- action strings ----------------------------------------------------------------------------


def test_listing_order_of_the_start_position():
    # Blue's pieces in canonical order; each: change -, change +, then moves by destination.
    assert GAME.new_initial_state().legal_moves() == [
        "change D1,-1 +",
        "move D1,-1 U1,-1",
        "change U2,-1 +",
        "move U2,-1 D2,-2",
        "change D2,-1 +",
        "change U1,0 +",
        "move U1,0 D0,0",
        "change D1,0 +",
        "move D1,0 U1,1",
        "change U2,0 +",
    ]


def test_listing_order_puts_minus_before_plus_before_moves():
    state = load({"U2,0": (0, 3), "D1,0": (0, 1), "U-2,0": (1, 2)}, [[[1, 1]] * 5, [[0, 1]] * 4])
    own = [m for m in state.legal_moves() if " U2,0 " in m + " "]
    assert own[:2] == ["change U2,0 -", "change U2,0 +"] and all(m.startswith("move U2,0 ") for m in own[2:])
    board = state.game.board
    dests = [board.index[m.split()[2]] for m in own[2:]]
    assert dests == sorted(dests) and len(dests) > 0


def test_action_strings_round_trip_through_ints():
    state = GAME.new_initial_state()
    for action in state.legal_actions():
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.legal_actions() == sorted(state.legal_actions())


@pytest.mark.parametrize(
    "text",
    [
        "",
        "change U2,0",
        "change U2,0 *",
        "change U2,0 ++",
        "change  U2,0 +",
        "change U2,0 + ",
        "Change U2,0 +",
        "move U2,0",
        "move U2,0 U2,-1 U2,-2",
        "move U2,0  U2,-1",
        "move U2,0\tU2,-1",
        "move U2,0 U9,9",
        "move u2,0 U2,-1",
        "move U2,+0 U2,-1",
        "move U02,0 U2,-1",
        "change U-0,0 +",
        "pass",
    ],
)
def test_malformed_action_strings(text):
    state = GAME.new_initial_state()
    with pytest.raises(ActionSyntaxError):
        state.apply_move(text)
    assert state.to_json() == START and state.history() == []


def test_unknown_cells_are_named():
    with pytest.raises(ActionSyntaxError, match="'U9,9' in 'move U2,0 U9,9' is not a cell of this board"):
        GAME.new_initial_state().apply_move("move U2,0 U9,9")


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("change U0,0 +", "U0,0 is empty"),
        ("move U0,0 D0,0", "U0,0 is empty"),
        ("move U-2,0 D-2,0", "U-2,0 holds Red's piece; Blue changes or moves only their own"),
        ("change U2,0 -", "a 1 can only go up"),
        ("move U1,0 D1,0", "D1,0 holds Blue's own piece"),
        ("move U1,0 U0,0", r"wrong length: U0,0 is not exactly 1 step from U1,0 \(it can be reached in 2 or 4 steps\)"),
        (
            "move U1,0 U-3,2",
            "wrong length: U-3,2 is not exactly 1 step from U1,0; a piece showing 1 moves exactly 1 step",
        ),
    ],
)
def test_illegal_moves_name_the_rule_and_change_nothing(move, rule):
    state = GAME.new_initial_state()
    with pytest.raises(IllegalActionError, match=rule):
        state.apply_move(move)
    with pytest.raises(IllegalActionError, match=rule):
        state.parse_move(move)
    assert state.to_json() == START and state.history() == []


def test_nothing_is_legal_after_the_end():
    state = GAME.state_from_dict(
        {"game": "sinoda", "players": 2, "to_move": 0, "pieces": [["U2,0", 0, 1], ["U-2,0", 1, 1]]}
        | {"captured": [[[1, 1]] * 5, [[0, 1]] * 5]}
    )
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_move("change U2,0 +")


def test_action_ints_out_of_range_are_syntax_errors():
    state = GAME.new_initial_state()
    size = state.game.board.size
    for bad in (-1, size * (size + 2)):
        with pytest.raises(ActionSyntaxError, match="out of range"):
            state.apply_action(bad)
        with pytest.raises(ActionSyntaxError):
            state.action_to_string(bad)
    with pytest.raises(ActionSyntaxError):
        state.apply_action(True)


# --- curated positions (data/sinoda/positions.json) -----------------------------------------------


def test_curated_positions_play_as_described():
    positions = load_positions("sinoda")
    opening = positions["opening"].state()
    assert len(opening.legal_moves()) == 10
    assert [m for m in opening.legal_moves() if "D2,-1" in m] == ["change D2,-1 +"]  # boxed in
    example = positions["movement_example"].state()
    assert [m for m in example.legal_moves() if m.startswith("move U2,0 ")] == [positions["movement_example"].move]
    sinoda = positions["win_by_sinoda"].state()
    sinoda.apply_move(positions["win_by_sinoda"].move)
    assert sinoda.result().reason == "sinoda" and sinoda.result().winners == (0,)
    capture = positions["capture_a_three"].state()
    assert "D0,0" not in capture.reachable_cells("U0,0")  # Red's 3 could not take the adjacent 1
    capture.apply_move(positions["capture_a_three"].move)
    assert capture.scores() == [3, 0]
    blocked = positions["teammate_blocks"].state()
    assert not [m for m in blocked.legal_moves() if m.endswith(" D2,0")]
    last = positions["last_piece_ends_it"].state()
    last.apply_move(positions["last_piece_ends_it"].move)
    assert last.result().winners == (0,) and last.scores() == [5, 0, 2]
    assert positions["one_piece_each"].state().result().is_draw
    six = positions["six_triples_midgame"].state()
    assert six.game.teams() == ((0, 2, 4), (1, 3, 5)) and not six.is_terminal()
