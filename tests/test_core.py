"""The shared game API: loading games, options, errors, records and state basics."""

import pickle

import pytest

import tabletop_lab
from tabletop_lab import (
    ActionSyntaxError,
    EnumerationLimitError,
    GameInfo,
    GameRecord,
    GameType,
    IllegalActionError,
    PositionError,
    RulesError,
    list_games,
    load_game,
)


def test_unknown_game_names_the_available_ones():
    with pytest.raises(RulesError, match="unknown game 'chess'; available: .*cross_endodoi"):
        load_game("chess")


def test_menus_list_games_by_their_rank_then_by_name(monkeypatch):
    from tabletop_lab import registry

    names = registry.game_names()
    assert names[:5] == ["cross_endodoi", "sygo", "sinoda", "sinomilia", "capitals"]  # GameInfo.menu_rank
    assert names[5:] == sorted(names[5:])  # the rest (test games) rank alike: by name
    first = type("First", (tabletop_lab.Game,), {"info": GameInfo("test_first", "First", "", (2,), menu_rank=0)})
    monkeypatch.setitem(registry._GAMES, "test_first", first)
    assert registry.game_names()[0] == "test_first"


def test_unknown_option_names_the_valid_ones():
    with pytest.raises(
        RulesError, match="valid options: seeds_per_hole, skip_origin, first_player, pie_rule, max_laps"
    ):
        load_game("cross_endodoi", seeds=6)


def test_bad_value_lists_the_valid_values_and_default():
    with pytest.raises(RulesError, match=r"valid values: 3, 6 \(default 3\)"):
        load_game("cross_endodoi", seeds_per_hole=5)


def test_errors_are_value_errors_except_the_engine_limits():
    for error in (
        tabletop_lab.RulesError,
        tabletop_lab.PositionError,
        tabletop_lab.ActionSyntaxError,
        tabletop_lab.IllegalActionError,
    ):
        assert issubclass(error, ValueError)
    assert issubclass(tabletop_lab.ActionSyntaxError, tabletop_lab.ActionError)
    from tabletop_lab.games.cross_endodoi import LapLimitError

    for error in (LapLimitError, tabletop_lab.EnumerationLimitError):  # a game's limit, a shared one
        assert issubclass(error, tabletop_lab.EngineLimitError) and not issubclass(error, ValueError)
    assert issubclass(tabletop_lab.EngineLimitError, RuntimeError)


def test_list_games_describes_options_with_defaults():
    (cross,) = [g for g in list_games() if g["name"] == "cross_endodoi"]
    assert cross["players"] == [2]
    options = {o["name"]: o for o in cross["options"]}
    assert options["seeds_per_hole"]["default"] == 3 and options["seeds_per_hole"]["values"] == [3, 6]
    assert [p["name"] for p in cross["engine_parameters"]] == ["max_laps"]


def test_game_and_state_reprs_evaluate_back():
    game = load_game("cross_endodoi", seeds_per_hole=6, skip_origin=True)
    state = game.new_initial_state()
    state.apply_move("0")
    rebuilt = eval(repr(state), {"load_game": load_game})
    assert rebuilt == state and rebuilt.game == game
    assert repr(load_game("cross_endodoi")) == "load_game('cross_endodoi')"


def test_states_compare_by_position_and_rules():
    a = load_game("cross_endodoi").new_initial_state()
    b = load_game("cross_endodoi").new_initial_state()
    assert a == b
    assert a != load_game("cross_endodoi", skip_origin=True).new_initial_state()
    b.apply_move("0")
    assert a != b


def test_observation_and_information_state_in_a_perfect_information_game():
    state = load_game("cross_endodoi").new_initial_state()
    state.apply_move("3")
    assert state.observation(0) == state.observation(1) == state.to_dict()
    assert state.information_state_string(0).endswith("| 3")
    with pytest.raises(ValueError, match="player must be 0..1"):
        state.observation(2)


def test_record_replays_and_round_trips_through_json(tmp_path):
    state = load_game("cross_endodoi", seeds_per_hole=6).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    record = GameRecord.from_state(state, seed=42, agents=["random", "random"])
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.replay() == state and loaded.replay().history() == state.history()
    assert len(loaded.states()) == len(record.actions) + 1
    assert loaded.replay(upto=1).history() == state.history()[:1]


def test_record_from_a_loaded_position_keeps_its_start():
    game = load_game("cross_endodoi")
    state = game.state_from_notation("2,1,0,0,0,0/0,0,0,0,0,33 0-0 0")
    state.apply_move("1")
    record = GameRecord.from_json(GameRecord.from_state(state).to_json())
    assert record.start == {
        "game": "cross_endodoi",
        "holes": [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 33],
        "stores": [0, 0],
        "to_move": 0,
    }
    assert record.replay() == state


def test_record_with_a_wrong_result_is_refused():
    state = load_game("cross_endodoi").state_from_notation("0,0,0,0,0,0/1,2,3,0,0,0 10-20 0")
    record = GameRecord.from_state(state)
    record.result = {**record.result, "winners": [0]}
    with pytest.raises(PositionError, match="replays to"):
        record.replay()


@pytest.mark.parametrize("text", ["[]", '{"game": "cross_endodoi"}', '{"game":"x","options":{},"actions":[1]}', "nope"])
def test_malformed_records(text):
    with pytest.raises(PositionError):
        GameRecord.from_json(text)


def test_states_pickle_and_clone_independently():
    state = load_game("cross_endodoi").new_initial_state()
    copy = pickle.loads(pickle.dumps(state))
    copy.apply_move("2")
    assert state.history() == [] and state.notation() == "3,3,3,3,3,3/3,3,3,3,3,3 0-0 0"


# --- moves of several actions, game types, the registry (toy games prove the shared machinery) ---


def test_a_whole_move_of_several_actions_is_all_or_nothing():
    import tests.toy_games  # noqa: F401  (registers the toy games)

    state = load_game("test_nim", pile=10, actions_per_turn=2).new_initial_state()
    assert state.legal_moves() == ["1 1", "1 2", "2 1", "2 2"]
    before = state.clone()
    with pytest.raises(IllegalActionError, match="not a whole move"):
        state.apply_move("1")  # the turn is two takes
    with pytest.raises(ActionSyntaxError):
        state.apply_move("1 x")
    assert state == before and state.history() == []
    state.apply_move("2 1")
    assert state.pile == 7 and state.current_player() == 1 and not state.mid_turn()
    assert state.move_history() == ["2 1"]


def test_a_turn_in_progress_is_not_a_position_but_has_a_snapshot():
    import tests.toy_games  # noqa: F401

    state = load_game("test_nim", pile=10, actions_per_turn=2).new_initial_state()
    state.apply_action(2)
    assert state.mid_turn() and state.move_in_progress() == ["2"]
    with pytest.raises(PositionError):
        state.to_dict()
    assert state.snapshot() == {"game": "test_nim", "pile": 8, "to_move": 0, "taken": 1}
    assert state.observation(1) == state.snapshot()
    with pytest.raises(IllegalActionError, match="in progress"):
        state.legal_moves()
    assert state.clone() == state


def test_legal_moves_refuse_beyond_their_limit():
    import tests.toy_games  # noqa: F401

    state = load_game("test_nim", pile=10, actions_per_turn=2, max_take=3).new_initial_state()
    assert len(state.legal_moves()) == 9
    with pytest.raises(EnumerationLimitError, match="more than 5 legal moves"):
        state.legal_moves(limit=5)


def test_game_type_and_teams_are_declared():
    import tests.toy_games  # noqa: F401

    cross = load_game("cross_endodoi")
    assert cross.game_type == GameType("perfect", "zero_sum", 2, 2, 2)
    assert cross.teams() == ((0,), (1,)) and cross.team_of(1) == 1
    nim = load_game("test_nim", players=3)
    assert nim.game_type.num_players == 3 and nim.game_type.utility == "general_sum"
    with pytest.raises(RulesError, match="information must be"):
        GameInfo(name="x", title="x", summary="x", players=(2,), information="partial")


def test_games_are_discovered_and_core_imports_no_game():
    import subprocess
    import sys

    code = (
        "import sys, tabletop_lab.core; assert not any(m.startswith('tabletop_lab.games') for m in sys.modules); "
        "from tabletop_lab import list_games; print([g['name'] for g in list_games()])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "cross_endodoi" in out and "test_" not in out


def test_move_history_in_a_game_of_one_action_per_move():
    state = load_game("cross_endodoi").new_initial_state()
    state.apply_move("2")
    state.apply_move("8")
    assert state.move_history() == ["2", "8"] and state.move_in_progress() == []


def test_a_turn_in_progress_prints_and_reprs_without_error():
    import tests.toy_games  # noqa: F401

    state = load_game("test_nim", pile=10, actions_per_turn=2).new_initial_state()
    state.apply_action(1)
    assert str(state) == '{"game":"test_nim","pile":9,"to_move":0,"taken":1}'
    assert repr(state).startswith("<test_nim move in progress: 1 |")
