"""Malformed input of every kind gets a documented error with a short message, never a crash.

Each case here once escaped as ``RecursionError``, ``UnicodeDecodeError``, Python's 4,300-digit
``ValueError`` or a ``TypeError``, or echoed a whole megabyte back (issue 8). The fuzz stage
(``tests/test_fuzz.py``) tries such inputs on every registered game; these pin the known cases.
"""

from __future__ import annotations

import json

import pytest

from tabletop_lab import GameRecord, load_game
from tabletop_lab.errors import ActionSyntaxError, IllegalActionError, PositionError, RulesError, excerpt

#: An error message that quotes input stays below this many characters (``fuzz.MESSAGE_LIMIT``).
SHORT = 300

VALID = {"game": "cross_endodoi", "holes": [3] * 12, "stores": [0, 0], "to_move": 0}


def short_id(value) -> str:
    """Test ids must stay short, and ``str`` of a 5,000-digit int fails."""
    return excerpt(value, limit=20)


def deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def valid_with(**changes):
    return json.dumps({**VALID, **changes})


@pytest.fixture
def game():
    return load_game("cross_endodoi")


def raises_short(error, call, *args, **kwargs) -> str:
    with pytest.raises(error) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert len(message) < SHORT, message[:SHORT]
    return message


# ----------------------------------------------------------------------------- excerpt


@pytest.mark.parametrize(
    "value",
    ["x" * 1_000_000, b"\xff" * 1000, "\x00" * 500, "é" * 300, 10**5000, -(10**5000), list(range(10**5)), "[" * 10**5],
    ids=short_id,
)
def test_excerpt_is_short_for_any_input(value):
    assert len(excerpt(value)) <= 80
    assert len(excerpt(value, limit=30)) <= 30


def test_excerpt_of_deep_nesting_and_broken_repr():
    deep: list = []
    for _ in range(10_000):
        deep = [deep]

    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    assert excerpt(deep).startswith("[[")
    assert excerpt(Broken()).startswith("<Broken")


def test_excerpt_keeps_short_input_whole():
    assert excerpt("0,1 2") == "'0,1 2'"
    assert excerpt({"a": 1}) == "{'a': 1}"


# ----------------------------------------------------------------------------- positions


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"a":' * 100_000, "nested too deeply"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (bytearray(b"\x80"), "not UTF-8"),
        (valid_with(holes=[0] + [3] * 11).replace("[0,", "[" + "9" * 5000 + ","), "longer than 100 digits"),
        (valid_with(to_move=float("nan")), "NaN is not a JSON number"),
        ('{"game":"cross_endodoi","holes":[1e999,3,3,3,3,3,3,3,3,3,3,3],"stores":[0,0],"to_move":0}', "too large"),
        (None, "must be JSON text"),
        (["{}"], "must be JSON text"),
        ("{" + "x" * 1_000_000, "not valid JSON"),
    ],
    ids=short_id,
)
def test_state_from_json_refuses_with_a_position_error(game, text, phrase):
    assert phrase in raises_short(PositionError, game.state_from_json, text)


@pytest.mark.parametrize(
    ("data", "phrase"),
    [
        ({**VALID, 1: 2, "x": 3}, "unknown key(s) 1, 'x'"),  # mixed-type extra keys could not be sorted
        ({**VALID, "k" * 100_000: 1}, "unknown key"),
        ({**VALID, "game": ["cross_endodoi"]}, "field 'game'"),
        ({**VALID, "holes": [10**5000] + [3] * 11}, "holes[0]"),
        ({**VALID, "holes": [3] * 10**6}, "'holes' must be a list of 12"),
        ({**VALID, "to_move": 10**5000}, "to_move"),
        ({**VALID, "stores": [2**70, 0]}, "stores[0]"),
        ({**VALID, "holes": deep_list(10_000)}, "holes[0][0]"),  # repr() and json.dumps() would recurse
        ({**VALID, "to_move": {"a": {1: 2}}}, "has a key 1 that is not a string"),
        ({**VALID, "stores": {1, 2}}, "stores is a set, not a JSON value"),
        ({**VALID, "to_move": float("inf")}, "to_move is inf"),
    ],
    ids=short_id,
)
def test_state_from_dict_refuses_with_a_position_error(game, data, phrase):
    assert phrase in raises_short(PositionError, game.state_from_dict, data)


def test_check_keys_guards_every_games_parser_against_deep_and_huge_values():
    """Every game's state_from_dict starts with check_keys, so these are refused before any
    game-specific code sees them."""
    from tabletop_lab.core import check_keys

    keys = ("game", "a")
    check_keys({"game": "g", "a": [[1, 2.5, None, True, "x", {"k": (1, 2)}]]}, keys, "g")  # JSON values pass
    for bad in (deep_list(40), 10**101, -(10**101), float("nan"), object(), b"x"):
        raises_short(PositionError, check_keys, {"game": "g", "a": bad}, keys, "g")
    check_keys({"game": "g", "a": deep_list(20)}, keys, "g")


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("9" * 5000 + ",3,3,3,3,3/3,3,3,3,3,3 0-0 0", "larger than the 36 seeds"),
        ("3,3,3,3,3,3/3,3,3,3,3,3 0-" + "1" * 4400 + " 0", "larger than the 36 seeds"),
        ("x" * 1_000_000, "is not a position in notation"),
        (b"3,3,3,3,3,3/3,3,3,3,3,3 0-0 0", "is not a position in notation"),
    ],
    ids=short_id,
)
def test_state_from_notation_refuses_with_a_short_position_error(game, text, phrase):
    assert phrase in raises_short(PositionError, game.state_from_notation, text)


def test_load_position_refuses_what_is_not_text(game):
    assert "is text" in raises_short(PositionError, game.load_position, 5)


# ----------------------------------------------------------------------------- moves


@pytest.mark.parametrize("action", [10**5000, -(10**5000), 2**64], ids=short_id)
def test_huge_action_ints_are_syntax_errors(game, action):
    state = game.new_initial_state()
    raises_short(ActionSyntaxError, state.apply_action, action)
    raises_short(ActionSyntaxError, state.action_to_string, action)
    assert state == game.new_initial_state()


@pytest.mark.parametrize("text", ["9" * 5000, "x" * 1_000_000, "1" * 10**5], ids=short_id)
def test_huge_move_strings_are_short_syntax_errors(game, text):
    state = game.new_initial_state()
    raises_short(ActionSyntaxError, state.apply_move, text)
    assert state == game.new_initial_state()


# ----------------------------------------------------------------------------- options and names


@pytest.mark.parametrize(
    ("name", "options", "phrase"),
    [
        (["x"], {}, "unknown game ['x']"),
        ({"a": 1}, {}, "unknown game"),
        (None, {}, "unknown game None"),
        ("x" * 100_000, {}, "unknown game"),
        ("cross_endodoi", {"first_player": {(1, 2): 3}}, "first_player="),
        ("cross_endodoi", {"first_player": [1]}, "valid values: 0, 1"),
        ("cross_endodoi", {"seeds_per_hole": 10**5000}, "seeds_per_hole=<int of about"),
        ("cross_endodoi", {"max_laps": {1: 2}}, "a positive integer"),
        ("cross_endodoi", {"max_laps": 1.5}, "a positive integer"),
        ("cross_endodoi", {"o" * 100_000: 1}, "unknown option"),
        ("capitals", {"nonexistent_option": 1}, "valid options: eliminated_slot, dismantle_top,"),
        ("capitals", {"max_cycle": 1}, "unknown option 'max_cycle' (did you mean max_cycles?)"),
        ("capitals", {"o" * 1000: 1, "p" * 1000: 2}, "(17 in all; list_games() describes them)"),
    ],
    ids=short_id,
)
def test_load_game_refuses_with_a_rules_error(name, options, phrase):
    assert phrase in raises_short(RulesError, load_game, name, **options)


# ----------------------------------------------------------------------------- records


def record(**changes) -> dict:
    return {"game": "cross_endodoi", "options": {}, "actions": ["1", "7", "2"], **changes}


@pytest.mark.parametrize(
    ("data", "phrase"),
    [
        (record(options=[1]), "'options' must be an object"),
        (record(options="seeds_per_hole"), "'options' must be an object"),
        (record(game=["x"]), "'game' must be a game name"),
        (record(actions=[1, 2]), "'actions' must be a list of action strings"),
        (record(start=5), "'start' must be a position object"),
        (record(seed=-1), "'seed'"),
        (record(result="x" * 100_000), "'result' must be a result object"),
        ({**record(), 1: 2, "z": 3}, "unknown key(s) 1, 'z'"),
        ([1, 2], "a game record is a JSON object"),
    ],
    ids=short_id,
)
def test_a_malformed_record_names_its_field(data, phrase):
    assert phrase in raises_short(PositionError, GameRecord.from_dict, data)


@pytest.mark.parametrize("text", ["[" * 100_000, b"\xff\xfe", "9" * 5000, "{" * 10], ids=short_id)
def test_record_from_json_refuses_with_a_position_error(text):
    raises_short(PositionError, GameRecord.from_json, text)


@pytest.mark.parametrize(
    ("actions", "error", "phrase"),
    [
        (["1", "7", "40"], ActionSyntaxError, "actions[2] = '40' (action 3 of 3)"),
        (["1", "1"], IllegalActionError, "actions[1] = '1' (action 2 of 2)"),
        (["1", "x" * 100_000], ActionSyntaxError, "actions[1]"),
    ],
    ids=short_id,
)
def test_a_tampered_record_says_which_action_failed_and_why(actions, error, phrase):
    message = raises_short(error, GameRecord.from_dict(record(actions=actions)).replay)
    assert phrase in message
    assert "cross_endodoi:" in message  # the engine's reason follows


@pytest.mark.parametrize("name", ["cross_endodoi", "sygo", "sinoda", "sinomilia", "capitals"])
@pytest.mark.parametrize("bad", ["x" * 1000, "9" * 1000, "step a3 a4" * 100])
def test_a_long_bad_action_in_a_record_gets_a_short_message(name, bad):
    with pytest.raises(ActionSyntaxError) as info:
        GameRecord(name, {}, [bad]).replay()
    message = str(info.value)
    assert message.startswith("game record: actions[0] = ") and len(message) < SHORT, (len(message), message)


def test_a_record_tampered_after_loading_is_checked_on_replay():
    rec = GameRecord.from_dict(record())
    rec.options = [("seeds_per_hole", 6)]
    assert "'options'" in raises_short(PositionError, rec.replay)
    rec.options = {"first_player": {(1, 2): 3}}
    raises_short(RulesError, rec.replay)
