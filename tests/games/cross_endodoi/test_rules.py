"""Cross-endodoi rules: every rule and decision of docs/rules/cross_endodoi.md.

Positions are written in the spec's notation ``h0..h5/h6..h11 S-N P``. A slow, literal
seed-by-seed reference sower (``reference_move``) checks the engine's fast lap arithmetic, and
the trace of a move that drawings and animations use (its laps, ``lap_path``), on random
positions.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_lab import (
    ActionSyntaxError,
    IllegalActionError,
    PositionError,
    RulesError,
    load_game,
)
from tabletop_lab.games.cross_endodoi import LapLimitError
from tabletop_lab.games.cross_endodoi.rules import lap_path

GAME = load_game("cross_endodoi")


def play(notation: str, hole: str, **options):
    state = load_game("cross_endodoi", **options).state_from_notation(notation)
    state.apply_move(hole)
    return state


def reference_move(holes, stores, mover, hole, skip_origin, max_laps):
    """The spec's section 2.2-2.3 read literally, one seed at a time: the holes, the stores and
    each lap's (origin, seeds, holes sown seed by seed); None if too many laps."""
    holes, stores = list(holes), list(stores)
    origin = hole
    laps = []
    for _ in range(max_laps):
        seeds, holes[origin] = holes[origin], 0
        step = -1 if seeds % 2 else 1
        where = origin
        path = []
        for _ in range(seeds):
            where = (where + step) % 12
            if skip_origin and where == origin:
                where = (where + step) % 12
            before = holes[where]
            holes[where] += 1
            path.append(where)
        laps.append((origin, seeds, tuple(path)))
        if before >= 1:
            origin = where
            continue
        across = 11 - where
        if where // 6 == mover and holes[across]:
            stores[mover] += holes[across] + 1
            holes[across] = holes[where] = 0
        return holes, stores, laps
    return None


# --- setup ---------------------------------------------------------------------------------


def test_start_positions():
    assert GAME.new_initial_state().notation() == "3,3,3,3,3,3/3,3,3,3,3,3 0-0 0"
    assert load_game("cross_endodoi", first_player=1).new_initial_state().notation().endswith(" 1")
    six = load_game("cross_endodoi", seeds_per_hole=6).new_initial_state()
    assert six.to_json() == '{"game":"cross_endodoi","holes":[6,6,6,6,6,6,6,6,6,6,6,6],"stores":[0,0],"to_move":0}'


def test_south_moves_holes_0_to_5_and_north_6_to_11():
    state = GAME.new_initial_state()
    assert state.legal_actions() == [0, 1, 2, 3, 4, 5]
    state.apply_move("0")
    assert state.current_player() == 1
    assert state.legal_moves() == [str(h) for h in range(6, 12) if state.holes[h]]


# --- sowing ----------------------------------------------------------------------------------


def test_odd_count_sows_clockwise():
    # 1 seed from hole 3 goes clockwise to hole 2 (empty): no relay; 2 is South's, 9 opposite is empty.
    state = play("0,0,0,1,0,5/0,0,0,0,0,30 0-0 0", "3")
    assert state.notation() == "0,0,1,0,0,5/0,0,0,0,0,30 0-0 1"
    assert [lap.direction for lap in state.last_move.laps] == [-1]


def test_even_count_sows_counter_clockwise():
    # 2 seeds from hole 3 go to holes 4 and 5; 5 was empty and opposite 6 is empty: stop.
    state = play("0,0,0,2,0,0/0,4,0,0,0,30 0-0 0", "3")
    assert state.notation() == "0,0,0,0,1,1/0,4,0,0,0,30 0-0 1"
    assert [lap.direction for lap in state.last_move.laps] == [1]


def test_counter_clockwise_crosses_from_south_row_into_north_row():
    # 2 seeds from hole 5 go to 6 and 7 (North's): no capture on the opponent's side.
    state = play("0,0,0,0,0,2/0,0,0,0,0,34 0-0 0", "5")
    assert state.holes[6:8] == [1, 1]
    assert state.stores == [0, 0]


def test_relay_lifts_the_last_hole_and_takes_direction_from_its_parity():
    # Hole 1: 1 seed clockwise to hole 0 which held 2 -> relay 3 seeds clockwise: 11, 10, 9.
    state = play("2,1,0,0,0,0/0,0,0,0,0,33 0-0 0", "1")
    laps = state.last_move.laps
    assert [(lap.origin, lap.seeds, lap.direction, lap.last) for lap in laps] == [(1, 1, -1, 0), (0, 3, -1, 9)]
    assert [lap.relay for lap in laps] == [True, False]
    assert state.notation() == "0,0,0,0,0,0/0,0,0,1,1,34 0-0 1"


def test_relay_counts_seeds_dropped_earlier_in_the_same_lap():
    # 13 seeds clockwise from hole 6: one round of 12 (hole 6 itself included), then hole 5 again.
    # Hole 5 was empty before the lap but got a seed in the first round, so the last seed relays.
    state = play("0,0,0,0,0,0/13,0,0,0,0,23 0-0 1", "6")
    first = state.last_move.laps[0]
    assert (first.origin, first.seeds, first.direction, first.last, first.relay) == (6, 13, -1, 5, True)
    assert state.last_move.laps[1].origin == 5 and state.last_move.laps[1].seeds == 2


def test_long_lap_sows_its_own_origin_by_default():
    # 12 seeds counter-clockwise from hole 0: the 12th lands in hole 0 itself, which was emptied.
    # The lap stops there; hole 0 is South's and opposite hole 11 now holds 1 + 0 seeds: capture.
    state = play("12,0,0,0,0,0/0,0,0,0,0,0 24-0 0", "0")
    assert len(state.last_move.laps) == 1
    assert state.last_move.captured == 2
    assert state.notation() == "0,1,1,1,1,1/1,1,1,1,1,0 26-0 1"


def test_skip_origin_passes_over_the_origin():
    # With skip_origin the 12th seed goes to hole 1, which got a seed in this lap: relay from 1.
    state = play("12,0,0,0,0,0/0,0,0,0,0,0 24-0 0", "0", skip_origin=True)
    first = state.last_move.laps[0]
    assert (first.last, first.relay) == (1, True)
    assert state.last_move.laps[1].origin == 1 and state.last_move.laps[1].seeds == 2


def test_skip_origin_changes_nothing_for_short_laps():
    for notation, hole in [("3,3,3,3,3,3/3,3,3,3,3,3 0-0 0", "2"), ("2,1,0,0,0,0/0,0,0,0,0,33 0-0 0", "1")]:
        assert play(notation, hole).notation() == play(notation, hole, skip_origin=True).notation()


# --- captures --------------------------------------------------------------------------------


def test_capture_takes_the_opposite_hole_and_the_capturing_seed():
    # 1 seed from hole 3 clockwise to empty hole 2 (South's); opposite is hole 9 with 4 seeds.
    state = play("0,0,0,1,0,5/0,0,0,4,0,26 0-0 0", "3")
    assert state.notation() == "0,0,0,0,0,5/0,0,0,0,0,26 5-0 1"
    assert (state.last_move.captured, state.last_move.capture_hole) == (5, 9)


def test_no_capture_when_the_opposite_hole_is_empty():
    state = play("0,0,0,1,0,5/0,0,0,0,0,30 0-0 0", "3")
    assert state.stores == [0, 0] and state.holes[2] == 1
    assert state.last_move.captured == 0 and state.last_move.capture_hole is None


def test_no_capture_in_the_opponents_row():
    # North sows 2 seeds from hole 11 counter-clockwise into holes 0 and 1, both South's and empty;
    # hole 1's opposite (10) holds seeds, but the landing is not North's own hole: nothing is taken.
    state = play("0,0,0,0,0,0/0,0,0,0,4,2 30-0 1", "11")
    assert state.holes[:2] == [1, 1] and state.holes[10] == 4
    assert state.stores == [30, 0]


def test_north_captures_in_its_own_row():
    # North: 1 seed from hole 8 clockwise to empty hole 7; opposite hole 4 holds 6.
    state = play("1,1,1,1,6,1/0,0,1,0,0,24 0-0 1", "8")
    assert state.stores == [0, 7]
    assert state.holes[4] == 0 and state.holes[7] == 0


# --- the end -----------------------------------------------------------------------------------


def test_game_ends_when_the_player_to_move_has_an_empty_row():
    # South sows its last seed into North's row; South has nothing left to move next time round.
    state = play("0,0,0,0,0,2/0,0,0,0,0,0 30-4 0", "5")
    assert not state.is_terminal()  # North to move and has seeds
    state.apply_move("7")  # 1 seed from 7 clockwise into 6 (empty, opposite 5 empty): stop
    assert state.is_terminal()
    assert state.legal_actions() == [] and state.legal_moves() == []
    # South cannot move: the 2 seeds on the board go to North.
    assert state.scores() == [30, 6]
    result = state.result()
    assert (result.winners, result.scores, result.reason) == ((0,), (30, 6), "standard")
    assert state.returns() == [1.0, -1.0]


def test_remaining_seeds_stay_in_the_terminal_position():
    state = GAME.state_from_notation("0,0,0,0,0,0/1,2,3,0,0,0 10-20 0")
    assert state.is_terminal() and state.current_player() == -4
    assert state.notation() == "0,0,0,0,0,0/1,2,3,0,0,0 10-20 0"  # not moved by the engine
    assert state.scores() == [10, 26]


def test_equal_final_scores_are_a_draw():
    state = GAME.state_from_notation("0,0,0,0,0,0/1,1,1,1,1,1 18-12 0")
    result = state.result()
    assert result.winners == (0, 1) and result.is_draw
    assert state.returns() == [0.0, 0.0]
    six = load_game("cross_endodoi", seeds_per_hole=6).state_from_notation("0,0,0,0,0,0/0,0,0,0,0,0 36-36 1")
    assert six.result().scores == (36, 36) and six.returns() == [0.0, 0.0]


def test_scores_before_the_end_are_the_stores():
    state = GAME.state_from_notation("3,3,3,3,3,0/3,3,3,3,3,0 2-4 0")
    assert state.scores() == [2, 4] and state.result() is None and state.returns() == [0.0, 0.0]


# --- the lap guard -------------------------------------------------------------------------------


def test_lap_guard_raises_and_leaves_the_position_unchanged():
    game = load_game("cross_endodoi", max_laps=1)
    state = game.state_from_notation("2,1,0,0,0,0/0,0,0,0,0,33 0-0 0")  # needs 2 laps
    with pytest.raises(LapLimitError, match="max_laps=1"):
        state.apply_move("1")
    assert state.notation() == "2,1,0,0,0,0/0,0,0,0,0,33 0-0 0" and state.history() == []
    assert "max_laps" not in game.options and game.params["max_laps"] == 1
    load_game("cross_endodoi", max_laps=2).state_from_notation("2,1,0,0,0,0/0,0,0,0,0,33 0-0 0").apply_move("1")


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "rule"),
    [("7", "belongs to North"), ("2", "hole 2 is empty")],
)
def test_illegal_moves_name_the_rule(move, rule):
    state = GAME.state_from_notation("3,3,0,3,3,3/3,3,3,3,3,6 0-0 0")
    with pytest.raises(IllegalActionError, match=rule):
        state.apply_move(move)
    assert state.notation() == "3,3,0,3,3,3/3,3,3,3,3,6 0-0 0"


def test_moving_after_the_end_is_illegal():
    state = GAME.state_from_notation("0,0,0,0,0,0/1,2,3,0,0,0 10-20 0")
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_move("0")


@pytest.mark.parametrize("text", ["", "3\n", "01", "12", "-1", "+1", " 3", "3 ", "a", "1.0", "٣"])
def test_malformed_moves(text):
    state = GAME.new_initial_state()
    with pytest.raises(ActionSyntaxError):
        state.apply_move(text)
    assert state.history() == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("3,3,3,3,3,3/3,3,3,3,3,3 0-0 2", "notation"),
        ("3,3,3,3,3,3/3,3,3,3,3,3  0-0 0", "notation"),
        ("03,3,3,3,3,3/3,3,3,3,3,3 0-0 0", "notation"),
        ("3,3,3,3,3/3,3,3,3,3,3,3 0-0 0", "notation"),
        ("3,3,3,3,3,3/3,3,3,3,3,3 0-0 0\n", "notation"),
        ("3,3,3,3,3,3/3,3,3,3,3,4 0-0 0", "37 seeds"),
        ("6,6,6,6,6,6/6,6,6,6,6,6 0-0 0", "72 seeds"),
    ],
)
def test_malformed_notation(text, problem):
    with pytest.raises(PositionError, match=problem):
        GAME.state_from_notation(text)


def test_six_seed_positions_need_72_seeds():
    six = load_game("cross_endodoi", seeds_per_hole=6)
    assert six.state_from_notation("6,6,6,6,6,6/6,6,6,6,6,6 0-0 0").notation() == "6,6,6,6,6,6/6,6,6,6,6,6 0-0 0"
    with pytest.raises(PositionError, match="must hold 72"):
        six.state_from_notation("3,3,3,3,3,3/3,3,3,3,3,3 0-0 0")


START = {"game": "cross_endodoi", "holes": [3] * 12, "stores": [0, 0], "to_move": 0}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"holes": [3] * 11}, "12 integers"),
        ({"stores": [0, 0, 0]}, "2 integers"),
        ({"holes": [True] + [3] * 11}, r"holes\[0\] must be an integer"),
        ({"holes": [-1, 7] + [3] * 10}, r"holes\[0\] is negative"),
        ({"stores": [0.0, 0]}, "must be an integer"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": False}, "to_move"),
        ({"game": "sygo"}, "'game'"),
        ({"extra": 1}, "unknown key"),
    ],
)
def test_malformed_json_positions(change, problem):
    with pytest.raises(PositionError, match=problem):
        GAME.state_from_dict({**START, **change})


def test_json_position_missing_key_and_bad_text():
    with pytest.raises(PositionError, match="missing key"):
        GAME.state_from_dict({"game": "cross_endodoi", "holes": [3] * 12, "stores": [0, 0]})
    with pytest.raises(PositionError, match="not valid JSON"):
        GAME.state_from_json("{holes")
    assert GAME.state_from_json(json.dumps(START, indent=3)) == GAME.new_initial_state()


@pytest.mark.parametrize(
    "options",
    [
        {"seeds_per_hole": 4},
        {"seeds_per_hole": 3.0},
        {"skip_origin": 1},
        {"first_player": True},
        {"max_laps": 0},
        {"laps": 3},
    ],
)
def test_bad_options_raise_rules_error(options):
    with pytest.raises(RulesError):
        load_game("cross_endodoi", **options)


# --- the engine against the literal reference -------------------------------------------------------


@st.composite
def positions(draw):
    seeds_per_hole = draw(st.sampled_from([3, 6]))
    slots = draw(st.lists(st.integers(0, 13), min_size=12 * seeds_per_hole, max_size=12 * seeds_per_hole))
    counts = [slots.count(i) for i in range(14)]
    mover = draw(st.integers(0, 1))
    skip = draw(st.booleans())
    return seeds_per_hole, skip, counts[:12], counts[12:], mover


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 5))
def test_engine_matches_the_literal_reference(position, choice):
    seeds_per_hole, skip, holes, stores, mover = position
    game = load_game("cross_endodoi", seeds_per_hole=seeds_per_hole, skip_origin=skip, max_laps=500)
    state = game.state_from_dict({"game": "cross_endodoi", "holes": holes, "stores": stores, "to_move": mover})
    legal = state.legal_actions()
    assert state.is_terminal() == (not legal)
    if not legal:
        return
    hole = legal[choice % len(legal)]
    expected = reference_move(holes, stores, mover, hole, skip, 500)
    if expected is None:
        with pytest.raises(LapLimitError):
            state.apply_action(hole)
        return
    state.apply_action(hole)
    assert (state.holes, state.stores, state.to_move) == (expected[0], expected[1], 1 - mover)
    assert sum(state.holes) + sum(state.stores) == 12 * seeds_per_hole
    report = state.last_move
    assert report.hole == hole and report.player == mover
    assert report.captured == expected[1][mover] - stores[mover]
    assert all(lap.relay for lap in report.laps[:-1]) and not report.laps[-1].relay
    # the engine's trace of the move, which drawings and animations show seed by seed
    assert [(lap.origin, lap.seeds, lap_path(lap.origin, lap.seeds, skip)) for lap in report.laps] == expected[2]


# --- the pie rule (rule 2.5, Decisions 13 and 14) ------------------------------------------------

PIE = load_game("cross_endodoi", pie_rule=True)
#: Spec 5.1's example: South opened with 1, and North may swap now.
OFFER = "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 offered"


def test_the_swap_is_offered_once_right_after_the_first_move():
    state = PIE.new_initial_state()
    assert state.notation() == "3,3,3,3,3,3/3,3,3,3,3,3 0-0 0 first" and "swap" not in state.legal_moves()
    state.apply_move("1")
    assert state.notation() == OFFER
    assert state.legal_moves() == ["7", "8", "9", "10", "11", "swap"] and state.legal_actions()[-1] == 12
    declined = state.child(state.string_to_action("7"))
    assert declined.notation().endswith(" kept") and "swap" not in declined.legal_moves()
    declined.apply_move(declined.legal_moves()[0])
    assert declined.notation().endswith(" kept") and "swap" not in declined.legal_moves()


def test_the_swap_keeps_the_board_and_gives_the_first_player_the_other_side():
    state = PIE.state_from_notation(OFFER)
    assert state.current_player() == 1
    state.apply_move("swap")
    assert state.notation() == "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 swapped"
    assert state.to_move == 1 and state.current_player() == 0  # North's side, now player 0's
    assert state.legal_moves() == ["7", "8", "9", "10", "11"] and state.last_move is None
    assert [state.seat_of(side) for side in (0, 1)] == [1, 0]
    state.apply_move("7")
    assert state.to_move == 0 and state.current_player() == 1 and state.notation().endswith(" swapped")


def test_with_north_first_south_may_swap():
    state = load_game("cross_endodoi", pie_rule=True, first_player=1).new_initial_state()
    state.apply_move("6")
    assert state.current_player() == 0 and state.legal_moves()[-1] == "swap"
    state.apply_move("swap")
    assert state.to_move == 0 and state.current_player() == 1  # North's first mover now sows South's row


@pytest.mark.parametrize(
    ("game", "position", "rule"),
    [
        (GAME, "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1", "only under the option pie_rule=true"),
        (PIE, "3,3,3,3,3,3/3,3,3,3,3,3 0-0 0 first", "which is still to be made"),
        (PIE, "5,1,0,4,4,0/0,5,5,5,2,0 0-5 0 kept", "the swap was declined"),
        (PIE, "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 swapped", "swapped already"),
        (PIE, "0,0,0,0,0,0/1,2,0,0,0,3 20-10 0 offered", "game is over"),
    ],
)
def test_a_swap_out_of_place_is_refused_naming_rule_2_5(game, position, rule):
    state = game.state_from_notation(position)
    with pytest.raises(IllegalActionError, match=rule) as refused:
        state.apply_move("swap")
    assert "(rule 2." in str(refused.value) and len(str(refused.value)) < 300
    assert state.notation() == position and state.history() == []


@pytest.mark.parametrize("text", ["Swap", "swap ", "swaps", "12"])
def test_malformed_swaps(text):
    with pytest.raises(ActionSyntaxError):
        PIE.state_from_notation(OFFER).apply_move(text)


def test_after_a_swap_each_player_scores_the_side_they_play():
    # Spec 7.3's end, the sides swapped: South's side wins 20-16, and player 1 plays South.
    state = PIE.state_from_notation("0,0,0,0,0,0/1,2,0,0,0,3 20-10 0 swapped")
    assert state.scores() == [16, 20] and state.result().winners == (1,) and state.returns() == [-1.0, 1.0]
    kept = PIE.state_from_notation("0,0,0,0,0,0/1,2,0,0,0,3 20-10 0 kept")
    assert kept.scores() == [20, 16] and kept.returns() == [1.0, -1.0]
    ahead = PIE.state_from_notation("0,0,0,0,0,4/1,1,1,1,1,1 26-0 1 swapped")  # South's side 26 ahead
    assert ahead.evaluate() == [-26 / 36, 26 / 36]


def test_the_player_who_swapped_wins_with_the_side_taken_over():
    state = PIE.state_from_notation("0,0,0,0,1,0/0,0,1,0,0,0 20-14 1 offered")
    state.apply_move("swap")  # North's player takes South, 20 in store; the first player plays North
    state.apply_move("8")  # 1 seed clockwise into empty hole 7: North captures hole 4's seed, 2 in all
    assert state.is_terminal() and state.notation() == "0,0,0,0,0,0/0,0,0,0,0,0 20-16 0 swapped"
    assert state.result().winners == (1,) and state.scores() == [16, 20]


@pytest.mark.parametrize("stage", ["first", "offered", "kept", "swapped"])
def test_positions_round_trip_with_their_stage(stage):
    text = f"5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 {stage}"
    state = PIE.state_from_notation(text)
    assert state.notation() == text and state.pie == stage
    data = json.loads(state.to_json())
    assert list(data) == ["game", "holes", "stores", "to_move", "pie"] and data["pie"] == stage
    again = PIE.state_from_json(state.to_json())
    assert again == state and again.to_json() == state.to_json() and again.current_player() == state.current_player()
    assert (PIE.state_from_notation(text.replace(stage, "kept")) == state) == (stage == "kept")  # the stage is in key()


def test_spec_json_example_after_a_swap():
    state = PIE.state_from_notation(OFFER)
    state.apply_move("swap")
    assert state.to_json() == (
        '{"game":"cross_endodoi","holes":[5,1,0,4,4,4,0,4,4,4,1,5],"stores":[0,0],"to_move":1,"pie":"swapped"}'
    )


@pytest.mark.parametrize(
    ("game", "text"),
    [
        (PIE, "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1"),  # the stage is required
        (PIE, "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 declined"),
        (PIE, "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1  swapped"),
        (PIE, "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 swapped "),
        (GAME, OFFER),  # and refused without the option
    ],
)
def test_malformed_pie_notation(game, text):
    with pytest.raises(PositionError, match="notation"):
        game.state_from_notation(text)


@pytest.mark.parametrize(
    ("game", "data", "problem"),
    [
        (PIE, START, "missing key"),
        (PIE, {**START, "pie": "declined"}, "field 'pie' must be one of first, offered, kept, swapped"),
        (PIE, {**START, "pie": 1}, "field 'pie'"),
        (GAME, {**START, "pie": "kept"}, "unknown key"),
    ],
)
def test_malformed_pie_json(game, data, problem):
    with pytest.raises(PositionError, match=problem):
        game.state_from_dict(data)


def test_a_recorded_game_with_a_swap_replays():
    from tabletop_lab import GameRecord
    from tabletop_lab.sim import play_game

    record = next(r for seed in range(100) if "swap" in (r := play_game(PIE, ["random", "random"], seed=seed)).actions)
    assert record.actions[1] == "swap"
    again = GameRecord.from_json(record.to_json())
    final = again.replay()
    assert final.is_terminal() and final.notation().endswith(" swapped")
    assert final.result().to_dict() == record.result and final.history_strings() == record.actions


def test_greedy_takes_over_a_side_far_ahead():
    from tabletop_lab.agents import make_agent

    state = PIE.state_from_notation("0,0,0,0,0,4/1,1,1,1,1,1 26-0 1 offered")  # South's first move captured 26
    for spec in ("greedy", "alphabeta:depth=2", "mcts:iterations=200", "expert:iterations=500"):
        assert make_agent(spec, seed=1, game=PIE).choose_action(state) == 12, spec
