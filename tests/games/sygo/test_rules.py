"""Sygo rules: every rule and Decision of docs/rules/sygo.md, each option, the position format.

Positions are written in the spec's notation: rows from the top (row N) to row 1, then side,
grown flag and passes. Random-position checks against a brute-force reference are in
``test_properties.py``.
"""

import json

import pytest

from tabletop_lab import ActionSyntaxError, IllegalActionError, PositionError, RulesError, load_game
from tabletop_lab.games.sygo import EnumerationLimitError

from .reference import reference_moves


def position(notation, **options):
    size = len(notation.split("/"))
    return load_game("sygo", size=size, **options).state_from_notation(notation)


def after(notation, move, **options):
    state = position(notation, **options)
    state.apply_move(move)
    return state


def refused(state, move, error, *words):
    """``move`` raises ``error`` whose message has every word, and leaves ``state`` unchanged."""
    before, history = state.key(), state.history()
    with pytest.raises(error) as info:
        state.apply_move(move)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert state.key() == before and state.history() == history
    return str(info.value)


def act(state, *texts):
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def offered(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


# --- setup, options -------------------------------------------------------------------------


def test_start_positions():
    assert load_game("sygo", size=3).new_initial_state().notation() == ".../.../... W - 0"
    start = load_game("sygo").new_initial_state()
    assert start.notation() == "/".join(["." * 19] * 19) + " W - 0"
    assert start.current_player() == 0 and load_game("sygo").info.player_names == ("White", "Black")
    assert load_game("sygo", size=3).new_initial_state().to_json() == (
        '{"game":"sygo","size":3,"board":["...","...","..."],"to_move":0,"grown":false,"passes":0}'
    )


@pytest.mark.parametrize(
    ("option", "value", "listed"),
    [("size", 2, "3..25"), ("size", 26, "3..25"), ("size", True, "3..25"), ("growth", "some", '"all"')],
)
def test_bad_options_list_the_valid_values(option, value, listed):
    with pytest.raises(RulesError, match=option) as info:
        load_game("sygo", **{option: value})
    assert listed in str(info.value)
    with pytest.raises(RulesError, match="true, false"):
        load_game("sygo", balancing=1)


def test_game_info():
    info = load_game("sygo").info
    assert info.players == (2,) and info.has_notation
    assert info.max_actions >= 3 * 25 * 25 + 2  # each action adds a stone, ends a turn that did, or passes


# --- placement (2.3) and capture by reversal (2.1) ------------------------------------------


def test_placement_is_one_stone_not_touching_own_stones():
    state = after("...../...../..W../...../..... B - 0", "place c4")
    assert state.notation() == "...../..B../..W../...../..... W - 0"
    refused(state, "place c2", IllegalActionError, "touches White's stone at c3", "rule 2.3")
    refused(state, "place c4", IllegalActionError, "occupied")


def test_placement_capture_reverses_and_gives_liberties():
    # White b1 is surrounded by black a1, b2, c1 but fills a1's last liberty: a1 turns white.
    state = after("...../...../...../WB.../B.B.. W g 0", "place b1")
    assert state.notation() == "...../...../...../WB.../WWB.. B g 0"
    assert state.last_turn == (1 << 1, 1 << 0)  # b1 added, a1 reversed


def test_placement_suicide_is_illegal_even_with_a_capture_when_nothing_breathes():
    state = position("BBB/BBB/BB. W g 0")
    assert "place c1" not in state.legal_moves()
    refused(state, "place c1", IllegalActionError, "suicide", "rule 2.2")


def test_reversal_never_cascades_and_several_groups_reverse_at_once():
    # c2 fills the last liberty of both black b2 and black c1: both turn white, nothing else changes.
    state = after("...../...../.W.../WB.W./WWBW. W g 0", "grow c2")
    assert state.notation() == "...../...../.W.../WWWW./WWWW. B g 0"


# --- growth (2.4) ------------------------------------------------------------------------------

TWO = "...../...../.W.W./...../..... W g 0"  # white groups b3 and d3 share the liberty c3


def test_one_stone_grows_two_groups_and_a_group_grows_once():
    state = after(TWO, "grow c3")
    assert state.notation() == "...../...../.WWW./...../..... B g 0"
    state = position(TWO)
    refused(state, "grow c3 b2", IllegalActionError, "the group at b3 would grow twice", "2.4.3")
    refused(state, "grow b2 b4", IllegalActionError, "grow twice")
    act(state, "grow c3")
    assert "grow b2" not in offered(state)
    with pytest.raises(IllegalActionError, match="already grown"):
        act(state, "grow b2")


def test_new_stones_may_touch_and_only_start_groups_are_sources():
    state = position(TWO)
    refused(state, "grow c2", IllegalActionError, "not adjacent to a growing group", "2.4.2")
    # b2 grows b3 and d2 grows d3; c2 touches only new stones, so it can never be grown.
    act(state, "grow b2")
    with pytest.raises(IllegalActionError, match="new and reversed stones do not count"):
        act(state, "grow c2")
    state = after("...../...../.W.W./...../..... W g 0", "grow b2 d2")
    assert state.notation() == "...../...../.W.W./.W.W./..... B g 0"
    state = after("...../...../.W..W/...../..... W g 0", "grow c3 d3")  # new stones touch: legal
    assert state.notation() == "...../...../.WWWW/...../..... B g 0"


def test_input_order_is_free_and_canonical_strings_are_emitted():
    one, two = after(TWO, "grow d4 b2"), after(TWO, "grow b2 d4")
    assert one == two and one.history_strings()[-1] == "finish"
    assert "grow b2 d4" in position(TWO).legal_moves() and "grow d4 b2" not in position(TWO).legal_moves()


CLOSE = "...../...../W..../...../BW... W g 0"  # a2 captures a1 and closes the white group b1


def test_capture_closes_the_resulting_group_so_order_matters():
    state = position(CLOSE)
    act(state, "grow a2")
    assert state.snapshot()["groups"] == [
        {"at": "b1", "grown": False, "closed": True},
        {"at": "a3", "grown": True, "closed": True},  # a3 is in the resulting group too
    ]
    assert state.snapshot()["reversed"] == ["a1"]
    assert "grow c1" not in offered(state)
    with pytest.raises(IllegalActionError, match="the group at b1 is closed"):
        act(state, "grow c1")
    # The other order is valid, so the set is legal (Decision 4), whatever order it is written in.
    state = act(position(CLOSE), "grow c1", "grow a2", "finish")
    assert state == after(CLOSE, "grow a2 c1") and state.history_strings()[:2] == ["grow c1", "grow a2"]
    assert state.notation() == "...../...../W..../W..../WWW.. B g 0"


def test_a_set_with_no_valid_order_is_illegal():
    # d1 captures d2, next to the group d3-d4 that c4 grows; c4 captures c3, next to the group
    # a1-c2 that d1 grows: whichever comes first closes the other's group.
    notation = "W..W/.WBW/..WB/WWW. W g 0"
    assert "grow c4 d1" not in reference_moves(notation)
    assert {"grow c4", "grow d1"} <= reference_moves(notation)
    refused(position(notation), "grow c4 d1", IllegalActionError, "in every order", "closed")
    state = act(position(notation), "grow d1")
    assert "grow c4" not in offered(state)


def test_suicide_is_judged_when_the_move_is_complete():
    notation = "...../...../BW.../.BW../WB... W g 0"  # a2 leaves a1-a2 without liberties for a moment
    state = position(notation)
    act(state, "grow a2")
    assert "finish" not in offered(state)
    with pytest.raises(IllegalActionError, match="suicide"):
        act(state, "finish")
    # Only stones that keep the capture of b1-b2 (by c1) possible: not d2 or c3, which would
    # grow c1's only source group c2 elsewhere.
    assert offered(state) == ["grow c1", "grow b4"]
    act(state, "grow c1", "finish")
    assert state == after(notation, "grow c1 a2")
    refused(position(notation), "grow a2", IllegalActionError, "suicide", "rule 2.2")


def test_a_capture_that_leaves_the_merged_captors_without_liberties_is_illegal():
    state = position("BBB/BBB/W.B W g 0")
    assert state.legal_moves() == ["pass"]
    refused(state, "grow b1", IllegalActionError, "suicide")
    assert state.legal_actions() == [0]


def test_illegal_growth_stones_name_their_rule():
    state = position(TWO)
    refused(state, "grow b3", IllegalActionError, "occupied")
    refused(state, "grow a1", IllegalActionError, "not adjacent to a growing group")


# --- balancing (2.5) ---------------------------------------------------------------------------

BAL = "...../...../..B../...../..W.. B - 0"


def test_balancing_move_is_growth_then_a_true_placement():
    state = after(BAL, "grow c2 + place e5")
    assert state.notation() == "....B/...../..B../..B../..W.. W g 0" and state.grown
    refused(position(BAL), "grow c2 + place d2", IllegalActionError, "touches Black's stone at c2", "2.5")
    refused(position(BAL), "grow c2 + place b3", IllegalActionError, "touches Black's stone at c3")
    assert "grow c2" in position(BAL).legal_moves()  # the placement is optional


def test_balancing_is_black_only_while_nothing_has_grown_and_can_be_switched_off():
    refused(position("...../...../..W../...../..B.. W - 0"), "grow c2 + place e5", IllegalActionError, "only Black")
    refused(position("...../...../..B../...../..W.. B g 0"), "grow c2 + place e5", IllegalActionError, "already")
    refused(position(BAL, balancing=False), "grow c2 + place e5", IllegalActionError, "balancing=false")
    state = act(position(BAL), "grow c2")
    assert "place e5" in offered(state)
    assert "place e5" not in offered(act(position(BAL, balancing=False), "grow c2"))


def test_balancing_placement_may_follow_a_capture_that_closed_a_group():
    notation = "...../...../B..../...../WB... B - 0"  # a2 captures a1 and closes b1
    state = act(position(notation), "grow a2")
    assert state.snapshot()["groups"][0]["closed"]
    assert "place e5" in offered(state)
    assert after(notation, "grow a2 + place e5").notation() == "....B/...../B..../B..../BB... W g 0"


def test_the_grown_flag_is_set_by_the_first_growth_and_stays():
    state = position("...../...../..W../...../..B.. W - 0")
    state.apply_move("place a5")
    assert not state.grown
    state.apply_move("grow c2")
    assert state.grown
    state.apply_move("pass")
    state.apply_move("place e5")
    assert state.grown and state.notation().endswith(" g 0")


# --- pass, end, scoring (2.6, 2.7) -----------------------------------------------------------


def test_two_passes_end_the_game_and_a_move_resets_the_counter():
    state = load_game("sygo", size=3).new_initial_state()
    state.apply_move("pass")
    assert state.notation() == ".../.../... B - 1" and not state.is_terminal()
    state.apply_move("place b2")
    assert state.passes == 0
    state.apply_move("pass")
    state.apply_move("pass")
    assert state.is_terminal() and state.current_player() < 0 and state.notation() == ".../.B./... W - 2"
    assert state.legal_actions() == [] and state.legal_moves() == []
    refused(state, "pass", IllegalActionError, "game is over")
    result = state.result()
    assert result.winners == (1,) and result.scores == (0, 9) and result.reason == "standard"
    assert state.returns() == [-1.0, 1.0]


def test_area_scoring_with_neutral_regions_and_draws():
    assert position("W.B/W.B/W.B W g 2").result().winners == (0, 1)  # the middle column touches both
    assert position("W.B/W.B/W.B W g 2").scores() == [3, 3]
    assert position("WW./W../... B g 2").scores() == [9, 0]
    assert position("W.../..../..../...B W g 0").scores() == [1, 1]  # one big region touches both
    assert position("W.../..../..../...B W g 0").result() is None


def test_komi_flips_a_result_and_is_added_to_blacks_score():
    """Spec 8.11: White's 4-3 win is a draw with komi 1 and Black's 4.5-4 win with komi 1.5."""
    finished = "WWB/W.B/W.B W g 2"
    assert position(finished).result().winners == (0,) and position(finished).scores() == [4, 3]
    assert position(finished, komi=0.5).result().winners == (0,)
    assert position(finished, komi=1).result().winners == (0, 1) and position(finished, komi=1).returns() == [0.0, 0.0]
    black_wins = position(finished, komi=1.5)
    assert black_wins.scores() == [4, 4.5] and black_wins.returns() == [-1.0, 1.0]
    assert black_wins.result().scores == (4, 4.5) and black_wins.area_scores() == [4, 3]
    assert position("W.B/W.B/W.B W g 0", komi=2).scores() == [3, 5]  # any position, not only the end


def test_a_half_point_komi_never_draws():
    assert load_game("sygo", size=3).can_draw and load_game("sygo", size=3, komi=2).can_draw
    assert not load_game("sygo", size=3, komi=0.5).can_draw and not load_game("sygo", size=3, komi=2.5).can_draw
    for komi in (0.5, 1.5, 4.5):  # every margin of a 3x3 game, 9 points, differs from a half point
        for notation in ("W.B/W.B/W.B W g 2", "WWB/W.B/W.B W g 2", ".../.B./... W - 2", "WW./W../... B g 2"):
            assert len(position(notation, komi=komi).result().winners) == 1


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (-1, "from 0 to size*size"),
        (0.3, "multiple of 0.5"),
        (True, "multiple of 0.5"),
        ("2.5", "multiple of 0.5"),
        (float("nan"), "multiple of 0.5"),
        (10, "from 0 to size*size = 9"),
        (9.5, "with size=3"),
    ],
)
def test_bad_komi_names_the_option_and_its_bounds(value, words):
    with pytest.raises(RulesError, match="option komi=") as info:
        load_game("sygo", size=3, komi=value)
    assert words in str(info.value) and len(str(info.value)) < 300


def test_komi_up_to_the_board_is_allowed_and_the_evaluation_counts_it():
    assert load_game("sygo", size=3, komi=9).options["komi"] == 9 and load_game("sygo", komi=361.0)
    state = position("W..../...../...../...../....B W g 0")
    assert state.evaluate() == [0.0, 0.0]
    assert position("W..../...../...../...../....B W g 0", komi=2.5).evaluate() == [-0.1, 0.1]
    assert position("...../...../..B../...../..... W g 0", komi=25).evaluate() == [-1.0, 1.0]  # kept in [-1, 1]


def test_komi_travels_with_the_record():
    from tabletop_lab.records import GameRecord

    state = position(".../.../... W - 0", komi=1.5)
    for move in ("place b2", "pass", "pass"):
        state.apply_move(move)
    record = GameRecord.from_json(GameRecord.from_state(state).to_json())
    assert record.options["komi"] == 1.5 and record.replay().scores() == state.scores() == [9, 1.5]


def test_evaluate_is_an_area_estimate_in_range():
    state = position("W..../...../...../...../....B W g 0")
    assert state.evaluate() == [0.0, 0.0]
    lead = position("WW.../WW.../...../...../....B W g 0").evaluate()
    assert lead[0] > 0 and lead[1] == -lead[0] and -1 <= lead[0] <= 1


# --- growth = "all" ------------------------------------------------------------------------


def test_growth_all_requires_a_maximal_set():
    notation = "...../...../.W..W/...../..... W g 0"
    refused(position(notation, growth="all"), "grow b4", IllegalActionError, "not maximal", "growth='all'")
    moves = position(notation, growth="all").legal_moves()
    assert "grow b4 e4" in moves and "grow b4" not in moves
    assert all(m.count(" ") >= 2 for m in moves if m.startswith("grow"))
    # A stone that grows both of two groups is maximal by itself.
    assert "grow c3" in position(TWO, growth="all").legal_moves()
    state = act(position(notation, growth="all"), "grow b4")
    assert "finish" not in offered(state) and "grow e4" in offered(state)


# --- stone by stone (section 7) ----------------------------------------------------------------


def test_a_turn_in_progress_is_not_a_position():
    state = act(position(TWO), "grow b2")
    assert state.mid_turn()
    for method in (state.notation, state.to_dict):
        with pytest.raises(PositionError, match="turn in progress"):
            method()
    snap = state.snapshot()
    assert snap["game"] == "sygo" and snap["stones"] == ["b2"] and snap["board"][3] == ".W..."
    assert "pass" not in offered(state) and offered(state)[0] == "finish"
    twin = state.clone()
    act(twin, "finish")
    assert state.mid_turn() and not twin.mid_turn()
    with pytest.raises(IllegalActionError, match="progress"):
        state.apply_move("pass")


def test_start_of_turn_actions():
    state = position(TWO)
    actions = offered(state)
    assert actions[0] == "pass" and "finish" not in actions
    with pytest.raises(IllegalActionError, match="no growth stone"):
        act(state, "finish")


# --- action strings (section 6) ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "grow", "grow c3 c3", "grow z9", "place", "place c3 d3", "grow c3  d4", "grow c3 +", "Pass", "grow c3 + d4"],
)
def test_malformed_moves_raise_syntax_errors(text):
    refused(position(TWO), text, ActionSyntaxError)


def test_unknown_points_and_repeats_are_named():
    assert "f1" in refused(position(TWO), "grow f1", ActionSyntaxError)
    assert "repeats" in refused(position(TWO), "grow c3 c3", ActionSyntaxError)


def test_listing_order():
    moves = position(TWO).legal_moves()
    assert moves[0] == "pass"
    placements = [m for m in moves if m.startswith("place")]
    assert moves[1 : 1 + len(placements)] == placements
    names = load_game("sygo", size=5).geometry.index
    assert [names[m.split()[1]] for m in placements] == sorted(names[m.split()[1]] for m in placements)
    growth = moves[1 + len(placements) :]
    keys = [(len(m.split()) - 1, [names[p] for p in m.split()[1:]]) for m in growth]
    assert keys == sorted(keys) and growth[0] == "grow b2"
    balancing = position(BAL).legal_moves()
    i = balancing.index("grow c2")
    assert balancing[i + 1] == "grow c2 + place a1"  # extensions follow their set, in point order
    assert balancing[i + 2] == "grow c2 + place b1"


def test_enumeration_limit():
    rows = ["." * 19] * 19
    stones = [list(row) for row in rows]
    for r in range(1, 19, 3):
        for c in range(1, 19, 3):
            stones[r][c] = "W"
    state = load_game("sygo").state_from_notation("/".join("".join(r) for r in stones) + " W g 0")
    with pytest.raises(EnumerationLimitError, match="stone by stone"):
        state.legal_moves()
    assert isinstance(EnumerationLimitError("x"), RuntimeError)
    assert len(state.legal_actions()) > 1  # the stone-by-stone form always works
    grow = [state.action_to_string(a) for a in state.legal_actions() if state.action_to_string(a).startswith("grow")]
    state.apply_move(f"{grow[-1]} {grow[0][5:]}")  # any single move is still cheap to check and play
    assert state.to_move == 1 and state.last_turn[0].bit_count() == 2


# --- positions (section 5) ----------------------------------------------------------------------


def test_round_trips():
    for text in ["WB./.B./... B g 1", ".../.../... W - 2", "W.B/W.B/W.B W g 0"]:
        state = position(text)
        assert state.notation() == text
        assert load_game("sygo", size=3).state_from_json(state.to_json()) == state
        assert json.loads(state.to_json())["board"] == text.split(" ")[0].split("/")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("WB./.B./... B g 1 ", "four fields"),
        ("WB./.B./...  B g 1", "four fields"),
        ("WB./.B./... X g 1", "side"),
        ("WB./.B./... B G 1", "grown flag"),
        ("WB./.B./... B g 3", "passes"),
        ("WB./.B./..x B g 1", "row 1"),
        ("WB./.B/... B g 1", "row 2 has 2 characters"),
        ("..../..../..../.... W - 0", "size=3"),
        ("../.. W - 0", "3..25"),
        ("WB./BB./... W g 0", "White's group at a3 has no liberties"),
        ("BW./WW./... B g 0", "Black's group at a3"),
    ],
)
def test_invalid_notations(text, words):
    with pytest.raises(PositionError, match=words):
        load_game("sygo", size=3).state_from_notation(text)


GOOD = {"game": "sygo", "size": 3, "board": ["...", ".W.", "..."], "to_move": 1, "grown": True, "passes": 0}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"size": 4}, "3 rows but 'size' is 4"),
        ({"size": "3"}, "'size' must be an integer"),
        ({"board": "...", "size": 3}, "list of strings"),
        ({"board": ["...", ".W.", "..X"]}, "'.', 'W' or 'B'"),
        ({"board": ["...", ".W.", "...."]}, "row 1"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": True}, "to_move"),
        ({"grown": 1}, "grown"),
        ({"passes": 3}, "passes"),
        ({"passes": False}, "passes"),
        ({"extra": 1}, "unknown key"),
        ({"game": "go"}, "game"),
    ],
)
def test_invalid_json(change, words):
    game = load_game("sygo", size=3)
    assert game.state_from_dict(GOOD).notation() == ".../.W./... B g 0"
    with pytest.raises(PositionError, match=words):
        game.state_from_dict({**GOOD, **change})
    missing = dict(GOOD)
    del missing["passes"]
    with pytest.raises(PositionError, match="missing"):
        game.state_from_dict(missing)
    with pytest.raises(PositionError, match="size=5"):
        load_game("sygo", size=5).state_from_dict(GOOD)


def test_curated_positions_load_and_their_moves_are_legal():
    from tabletop_lab.data import load_positions

    positions = load_positions("sygo")
    assert len(positions) >= 8
    for entry in positions.values():
        state = entry.state()
        if entry.move is not None:
            state.apply_move(entry.move)
            assert state.move_history()[-1] == entry.move
    assert positions["neutral_middle"].state().result().is_draw
    assert positions["merged_captors_without_liberties"].state().legal_moves() == ["pass"]


def test_undo_last_stone_restores_the_turn_so_far():
    state = act(position(CLOSE), "grow c1", "grow a2")
    state.undo_last_stone()
    assert state == act(position(CLOSE), "grow c1") and state.history_strings() == ["grow c1"]
    state.undo_last_stone()
    assert state == position(CLOSE) and state.notation() == CLOSE and state.history() == []
    with pytest.raises(IllegalActionError, match="no growth turn"):
        state.undo_last_stone()
    act(state, "grow a2")
    state.undo_last_stone()
    assert "grow c1" in offered(state)  # the closure by a2 is gone with it


def test_a_komi_written_as_an_int_is_the_same_game():
    assert load_game("sygo", komi=0) == load_game("sygo") and hash(load_game("sygo", komi=0)) == hash(load_game("sygo"))
    assert hash(load_game("sygo", size=9, komi=3)) == hash(load_game("sygo", size=9, komi=3.0))
    assert type(load_game("sygo", size=9, komi=3).options["komi"]) is float
