"""Sinomilia rules: every rule and Decision of docs/rules/sinomilia.md, the rulebook's examples,
the options and the errors. Positions are written as the spec's JSON (see helpers.py)."""

import pytest

from tabletop_lab import ActionSyntaxError, IllegalActionError, RulesError, load_game

from .helpers import START, hand_without, load, play, play_round_position, position

GAME = load_game("sinomilia")


def snapshot(state):
    return state.to_json(), state.history()


# --- setup and options ---------------------------------------------------------------------------


def test_start_position_is_the_spec_example():
    assert GAME.new_initial_state().to_dict() == START
    assert GAME.new_initial_state().current_player() == 0


def test_first_player_option_sets_the_round_1_start_player():
    state = load_game("sinomilia", first_player=1).new_initial_state()
    assert state.to_dict()["start_player"] == 1
    assert state.current_player() == 1


@pytest.mark.parametrize(
    "options", [{"first_player": 2}, {"first_player": True}, {"round_cap": 0}, {"round_cap": 2.0}, {"cap": 3}]
)
def test_bad_options_list_the_valid_values(options):
    with pytest.raises(RulesError, match="valid"):
        load_game("sinomilia", **options)


def test_round_cap_accepts_null_and_positive_ints():
    assert load_game("sinomilia", round_cap=None).options["round_cap"] is None
    assert load_game("sinomilia", round_cap=1).options["round_cap"] == 1
    assert GAME.options == {"first_player": 0, "round_cap": 200}


def test_game_info():
    info = GAME.info
    assert info.players == (2,)
    assert info.player_names == ("Orange", "Green")
    assert info.information == "imperfect" and not info.perfect_information
    assert GAME.game_type.information == "imperfect" and GAME.game_type.utility == "zero_sum"
    assert info.max_actions >= 200 * 25  # a round takes at most 25 actions


# --- setting cards (2.1) ---------------------------------------------------------------------------


def test_start_player_sets_first_then_the_other():
    state = GAME.new_initial_state()
    assert state.legal_moves() == [f"set {k}" for k in range(10)]
    play(state, "set 3")
    assert state.current_player() == 1 and state.to_dict()["phase"] == "set"
    assert state.to_dict()["hands"][0] == hand_without(3)
    assert state.to_dict()["set"] == [3, None]
    play(state, "set 7")
    data = state.to_dict()
    assert data["phase"] == "play" and data["to_move"] == 0 and data["set"] == [3, 7]
    assert data["hands"][1] == hand_without(7)


def test_non_start_player_sets_second_and_start_player_plays_first():
    state = load_game("sinomilia", first_player=1).new_initial_state()
    play(state, "set 2")
    assert state.to_dict()["set"] == [None, 2] and state.current_player() == 0
    play(state, "set 5")
    assert state.current_player() == 1 and state.to_dict()["phase"] == "play"


def test_setting_a_card_not_in_hand_names_the_rule():
    data = position(round=2, start_player=1, to_move=1, last_round_winner=1, hands=[START["hands"][0], hand_without(4)])
    data["discards"] = [[], [4]]
    state = load(data)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"card 4 is not in Green's hand .*section 2.1"):
        state.apply_move("set 4")
    assert snapshot(state) == before
    assert "set 4" not in state.legal_moves()


# --- turns (2.2) ----------------------------------------------------------------------------------


def test_play_listing_order_and_chip_faces():
    state = play(GAME.new_initial_state(), "set 3", "set 7")
    assert state.legal_moves() == ["chip sun", "chip moon"] + [f"change {k}" for k in range(10)] + ["pass"]
    play(state, "chip sun")
    assert state.to_dict()["chips"] == [14, 15] and state.to_dict()["table"] == [1, 0]
    play(state, "chip moon")
    data = state.to_dict()
    assert data["chips"] == [14, 14] and data["table"] == [1, 1]
    assert data["last_action"] == 1 and data["last_turn"] == "moon" and data["to_move"] == 0


def test_change_gives_a_chip_and_swaps_the_card():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "chip sun", "change 2")
    data = state.to_dict()
    assert data["chips"] == [15, 14]  # Green gave Orange one chip; the table is unchanged
    assert data["table"] == [1, 0]
    assert data["set"] == [3, 2] and data["hands"][1] == hand_without(2)
    assert data["changed"] == [False, True]
    assert data["last_action"] == 1 and data["last_turn"] == "change"
    assert not any(m.startswith("change") for m in play(state, "pass").legal_moves())


def test_change_may_set_the_same_card_again():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "change 3")
    data = state.to_dict()
    assert data["set"] == [3, 7] and data["changed"] == [True, False] and data["chips"] == [14, 16]


def test_change_choices_are_the_hand_plus_the_set_card():
    data = play_round_position((4, 9), (0, 0), 0, "none", None, (15, 15), round=2)
    data["hands"] = [[0, 2, 3, 5, 6, 7, 8, 9], [0, 2, 3, 4, 5, 6, 7, 8]]
    data["discards"] = [[1], [1]]
    state = load(data)
    changes = [m for m in state.legal_moves() if m.startswith("change")]
    assert changes == [f"change {k}" for k in (0, 2, 3, 4, 5, 6, 7, 8, 9)]  # 1 is discarded
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="card 1 is neither in Orange's hand"):
        state.apply_move("change 1")
    assert snapshot(state) == before


def test_a_second_change_names_the_once_per_round_rule():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "change 4", "pass")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="once per round"):
        state.apply_move("change 5")
    assert snapshot(state) == before


def test_an_empty_pile_allows_only_pass():
    data = play_round_position((4, 5), (6, 1), 1, "sun", 0, (0, 23))
    state = load(data)
    state.apply_move("pass")  # Green passes; Orange, with no chips, is to move
    assert state.current_player() == 0 and state.legal_moves() == ["pass"]
    before = snapshot(state)
    for move in ("chip sun", "chip moon", "change 5"):
        with pytest.raises(IllegalActionError, match="pile is empty.*Decision 10"):
            state.apply_move(move)
        assert snapshot(state) == before


def test_pass_is_always_legal_even_with_chips():
    state = play(GAME.new_initial_state(), "set 3", "set 7")
    assert "pass" in state.legal_moves()


def test_out_of_turn_actions_name_the_rule():
    state = GAME.new_initial_state()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="out of turn.*setting phase"):
        state.apply_move("chip sun")
    with pytest.raises(IllegalActionError, match="out of turn: it is Orange's turn, not Green's"):
        state.play_as(1, "set 3")
    assert snapshot(state) == before
    play(state, "set 3")
    with pytest.raises(IllegalActionError, match="out of turn: it is Green's turn"):
        state.play_as(0, "set 4")
    state.play_as(1, "set 4")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="out of turn: cards are set only at the start of a round"):
        state.apply_move("set 5")
    assert snapshot(state) == before


@pytest.mark.parametrize("text", ["", "set", "set 10", "set  3", "Set 3", "chip", "chip star", "change", "pass ", 3])
def test_malformed_action_strings(text):
    state = GAME.new_initial_state()
    with pytest.raises(ActionSyntaxError):
        state.apply_move(text)
    assert state.to_dict() == START


def test_action_ints_and_strings():
    state = GAME.new_initial_state()
    strings = [state.action_to_string(a) for a in range(23)]
    assert strings == [f"set {k}" for k in range(10)] + ["chip sun", "chip moon"] + [
        f"change {k}" for k in range(10)
    ] + ["pass"]
    assert [state.string_to_action(s) for s in strings] == list(range(23))
    for bad in (-1, 23, True):
        with pytest.raises(ActionSyntaxError):
            state.action_to_string(bad)


# --- end of the round (2.3) --------------------------------------------------------------------------


def test_c1_the_ninth_chip_ends_the_round_whatever_its_face():
    # Orange's 8 = T after the 9th chip? T = 9: Orange (8) is 1 away, Green (9) 0 away: Green wins.
    state = load(play_round_position((8, 9), (8, 0), 0, "sun", 1, (7, 15)))
    state.apply_move("chip sun")
    report = state.last_round_report
    assert report.table == 9 and report.cards == (8, 9) and report.winner == 1 and report.decided == "distance"
    assert state.to_dict()["round"] == 2 and state.to_dict()["phase"] == "set"


def test_c1_the_ninth_chip_placer_took_the_last_action():
    state = load(play_round_position((9, 9), (7, 1), 0, "moon", 1, (7, 15)))
    state.apply_move("chip moon")  # Orange places the 9th chip: a tie at distance 0, Orange loses
    assert state.last_round_report.winner == 1 and state.last_round_report.decided == "last_action"


def test_c2_two_consecutive_passes_end_the_round():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "pass")
    assert state.to_dict()["phase"] == "play" and state.to_dict()["last_turn"] == "pass"
    play(state, "pass")
    assert state.to_dict()["round"] == 2 and state.last_round_report.table == 0


def test_c2_needs_the_passes_to_be_consecutive():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "pass", "chip sun", "pass")
    assert state.to_dict()["round"] == 1 and state.to_dict()["phase"] == "play"
    play(state, "chip sun", "pass", "pass")
    assert state.to_dict()["round"] == 2


def test_c3_a_pass_right_after_a_moon_chip_ends_the_round():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "chip moon", "pass")
    assert state.to_dict()["round"] == 2
    assert state.last_round_report.table == 1 and state.last_round_report.moon == 1


def test_c3_not_after_a_sun_chip():
    state = play(GAME.new_initial_state(), "set 3", "set 7", "chip sun", "pass")
    assert state.to_dict()["round"] == 1


def test_c3_is_cancelled_by_a_turn_in_between():
    # Decision 8: moon, then a change by the opponent, then a pass: the round goes on.
    state = play(GAME.new_initial_state(), "set 3", "set 7", "chip moon", "change 6", "pass")
    assert state.to_dict()["round"] == 1 and state.to_dict()["last_turn"] == "pass"
    state = play(GAME.new_initial_state(), "set 3", "set 7", "chip moon", "chip sun", "pass")
    assert state.to_dict()["round"] == 1


def test_the_start_players_own_moon_then_passes():
    # Orange moon, Green pass ends it (C3); moon by Orange then Orange cannot pass twice in a row.
    state = play(GAME.new_initial_state(), "set 3", "set 7", "chip moon", "chip moon", "pass")
    assert state.to_dict()["round"] == 2 and state.last_round_report.moon == 2


# --- winner of a round (3.2) -----------------------------------------------------------------------------


def test_rulebook_example_green_4_orange_9_six_chips():
    """Spec 9.1 and the seed's first winner example: Green 2 away, Orange 3 away: Green wins."""
    state = load(play_round_position((9, 4), (3, 3), 0, "moon", 1, (24, 0)))
    state.apply_move("pass")  # C3
    report = state.last_round_report
    assert report.cards == (9, 4) and report.table == 6 and report.moon == 3
    assert report.winner == 1 and report.decided == "distance"
    assert report.owed == 5 + 2 + 3 and report.paid == 10 and report.table_taken == 6
    assert state.to_dict()["chips"] == [14, 16]  # Green receives 16 chips in all


def test_rulebook_tie_example_last_actor_loses():
    """Spec 9.2: both set 6 with 6 chips on the table; Green took the last Action: Orange wins."""
    state = load(play_round_position((6, 6), (5, 0), 1, "sun", 0, (12, 13)))
    play(state, "chip moon", "pass")
    report = state.last_round_report
    assert report.table == 6 and report.winner == 0 and report.decided == "last_action"
    assert state.to_dict()["chips"] == [12 + 3 + 6, 12 - 3]  # 2 + 1 moon chip, plus the table


def test_rulebook_third_example_green_5_orange_7():
    # Both 1 away from 6, Orange took the last Action: Green wins.
    state = load(play_round_position((7, 5), (6, 0), 1, "sun", 0, (12, 12)))
    play(state, "pass", "pass")
    assert state.last_round_report.winner == 1 and state.last_round_report.decided == "last_action"


def test_no_action_tie_the_start_player_wins():
    for first in (0, 1):
        state = play(load_game("sinomilia", first_player=first).new_initial_state(), "set 5", "set 5", "pass", "pass")
        report = state.last_round_report
        assert report.winner == first and report.decided == "no_action" and report.table == 0
        assert state.to_dict()["start_player"] == first


def test_a_change_alone_uses_the_last_action_rule():
    # Decision 6: no chips, one change by Orange, then two passes: both 5 and 5 tie at T=0? use 0 vs 0.
    state = play(GAME.new_initial_state(), "set 4", "set 0", "change 0", "pass", "pass")
    report = state.last_round_report
    assert report.cards == (0, 0) and report.decided == "last_action" and report.winner == 1


def test_distance_beats_the_tie_rules():
    state = play(GAME.new_initial_state(), "set 1", "set 8", "chip sun", "pass", "pass")
    assert state.last_round_report.winner == 0 and state.last_round_report.decided == "distance"


# --- payment (3.3) --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("winner_pile", "bonus"), [(0, 5), (1, 2), (2, 0), (7, 0)])
def test_bonus_is_added_to_base_and_moon_chips(winner_pile, bonus):
    # Green (4) beats Orange (9) at T = 5 with 2 moon chips; Green's pile before payment decides the bonus.
    orange = 30 - 5 - winner_pile
    state = load(play_round_position((9, 4), (3, 2), 0, "moon", 1, (orange, winner_pile)))
    state.apply_move("pass")
    owed = bonus + 2 + 2
    assert state.last_round_report.owed == owed and state.last_round_report.paid == owed
    assert state.to_dict()["chips"] == [orange - owed, winner_pile + owed + 5]


def test_short_payment_pays_what_the_loser_has_and_ends_the_game():
    # Orange owes 2 + 3 but has 2 chips: pays 2, ends on 0 (Decision 3); chips are conserved.
    state = load(play_round_position((9, 5), (2, 3), 0, "moon", 1, (2, 23)))
    state.apply_move("pass")
    report = state.last_round_report
    assert report.owed == 5 and report.paid == 2
    assert state.to_dict()["chips"] == [0, 30]
    assert state.is_terminal() and state.result().reason == "chips" and state.result().winners == (1,)


def test_payment_uses_the_pre_payment_state():
    # Decision 2/4: the winner's pile of 1 earns +2 although the table chips come in too.
    state = load(play_round_position((4, 0), (3, 1), 1, "moon", 0, (1, 25)))
    state.apply_move("pass")  # T = 4: Orange (4) wins
    assert state.last_round_report.owed == 2 + 2 + 1
    assert state.to_dict()["chips"] == [1 + 5 + 4, 25 - 5]


# --- next round (3.4) ---------------------------------------------------------------------------------------


def test_cards_are_discarded_and_9_returns_to_hand():
    state = play(GAME.new_initial_state(), "set 9", "set 2", "chip sun", "pass", "pass")
    data = state.to_dict()
    assert data["discards"] == [[], [2]]
    assert data["hands"] == [list(range(10)), hand_without(2)]
    assert data["set"] == [None, None] and data["changed"] == [False, False]
    assert data["table"] == [0, 0] and data["last_action"] is None and data["last_turn"] == "none"


def test_winner_starts_the_next_round():
    state = play(GAME.new_initial_state(), "set 9", "set 1", "chip sun", "pass", "pass")  # T=1: Green wins
    data = state.to_dict()
    assert data["round"] == 2 and data["start_player"] == 1 and data["to_move"] == 1
    assert data["last_round_winner"] == 1
    assert state.legal_moves() == [f"set {k}" for k in range(10) if k != 1]


def test_change_cards_reset_each_round():
    state = play(GAME.new_initial_state(), "set 9", "set 1", "change 8", "change 2", "pass", "pass")
    assert state.to_dict()["changed"] == [False, False]
    play(state, "set 3", "set 4")
    assert any(m.startswith("change") for m in state.legal_moves())


# --- game end and winner (3.5, 4) --------------------------------------------------------------------------


def test_game_ends_when_a_hand_holds_exactly_two_cards():
    data = play_round_position((7, 9), (0, 0), 0, "none", None, (15, 15), round=8)
    data["hands"][0] = [8, 9]
    data["discards"][0] = [0, 1, 2, 3, 4, 5, 6]
    data["hands"][1] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    state = load(data)
    play(state, "pass", "pass")  # no Action: the start player (Orange) wins the tie? 7 vs 9 at T=0: Orange
    data = state.to_dict()
    assert data["hands"][0] == [8, 9] and data["phase"] == "over" and data["to_move"] is None
    result = state.result()
    assert result.reason == "hand" and not result.cap_reached
    assert result.winners == (0,) and result.scores == (17, 13)


def test_game_end_with_a_9_kept_is_not_a_hand_of_two():
    data = play_round_position((9, 9), (0, 0), 0, "none", None, (15, 15), round=8)
    data["hands"][0] = [7, 8]
    data["discards"][0] = [0, 1, 2, 3, 4, 5, 6]
    state = load(data)
    play(state, "pass", "pass")
    assert not state.is_terminal() and state.to_dict()["hands"][0] == [7, 8, 9]


def test_equal_piles_the_last_round_winner_wins():
    data = position(
        round=9,
        phase="over",
        to_move=None,
        chips=[15, 15],
        hands=[[8, 9], list(range(10))],
        discards=[[0, 1, 2, 3, 4, 5, 6, 7], []],
        last_round_winner=1,
        start_player=0,
    )
    state = load(data)
    assert state.is_terminal() and state.result().winners == (1,) and state.result().reason == "hand"
    assert state.returns() == [-1.0, 1.0]


def test_round_cap_ends_the_game_and_reports_it():
    game = load_game("sinomilia", round_cap=2)
    state = game.new_initial_state()
    play(state, "set 9", "set 9", "pass", "pass")  # Orange wins the no-Action tie: +2
    assert state.to_dict()["round"] == 2 and not state.is_terminal()
    play(state, "set 9", "set 9", "pass", "pass")
    data = state.to_dict()
    assert data["phase"] == "over" and data["cap_reached"] and data["round"] == 2
    result = state.result()
    assert result.reason == "cap" and result.cap_reached and result.winners == (0,) and result.scores == (19, 11)


def test_no_round_cap_plays_on():
    state = load_game("sinomilia", round_cap=None).new_initial_state()
    for _ in range(250):
        play(state, "set 9", "set 9", "chip sun", "pass", "pass")  # the start player acts last and loses
    assert not state.is_terminal() and state.to_dict()["round"] == 251


def test_default_cap_is_200_rounds():
    state = GAME.new_initial_state()
    for _ in range(200):
        play(state, "set 9", "set 9", "chip sun", "pass", "pass")
    assert state.is_terminal() and state.result().cap_reached and state.to_dict()["round"] == 200
    # the piles are 15-15 after each pair of rounds: the last round's winner (Orange) wins
    assert state.result().scores == (15, 15) and state.result().winners == (0,)


def test_chips_are_conserved_in_random_play():
    from .helpers import random_states

    for state in random_states(3, n_games=20):
        data = state.to_dict()
        assert sum(data["chips"]) + sum(data["table"]) == 30


def test_terminal_state_refuses_every_action():
    state = load(
        position(
            round=9,
            phase="over",
            to_move=None,
            chips=[20, 10],
            hands=[[8, 9], list(range(10))],
            discards=[[0, 1, 2, 3, 4, 5, 6, 7], []],
            last_round_winner=0,
        )
    )
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_move("pass")


def test_both_end_conditions_at_once_are_scored_by_chips():
    """Decision 13: Orange ends on 0 chips and with a hand of 2 in the same round."""
    data = play_round_position((7, 2), (1, 1), 0, "moon", 1, (1, 27), start=1, round=8)
    data["hands"][0] = [8, 9]
    data["discards"][0] = [0, 1, 2, 3, 4, 5, 6]
    state = load(data)
    state.apply_move("pass")  # C3: T = 2, Green's 2 wins; Orange owes 3 and pays its last chip
    data = state.to_dict()
    assert data["chips"] == [0, 30] and data["hands"][0] == [8, 9] and data["phase"] == "over"
    result = state.result()
    assert result.winners == (1,) and result.reason == "chips" and not result.cap_reached
