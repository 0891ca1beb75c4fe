"""Sinoda rules: every rule and Decision of docs/rules/sinoda.md, each option, and the rulebook's
two worked examples (movement A/B/C/D, Win by Sinoda).

A slow reference move generator (plain depth-first search over paths, straight from rule 3.1)
checks the engine's precomputed paths and bit masks on random positions of every board.
"""

import json

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tabletop_lab import IllegalActionError, RulesError, load_game
from tests.games.sinoda.helpers import RED_START, SINODA_EXAMPLE, load, moves_of, position, random_positions

# --- the turn: changes ------------------------------------------------------------------------


def test_a_change_turns_a_piece_one_up_or_down_and_keeps_its_cell():
    state = load_game("sinoda").new_initial_state()
    state.apply_move("change U2,0 +")
    assert ["U2,0", 0, 2] in state.to_dict()["pieces"]
    state.apply_move("change U-2,0 +")
    state.apply_move("change U2,0 -")
    assert ["U2,0", 0, 1] in state.to_dict()["pieces"]
    assert state.current_player() == 1


def test_values_do_not_wrap_around():
    state = load(
        {"U2,0": (0, 4), "D1,0": (0, 1), **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2")}, **RED_START}
    )
    legal = state.legal_moves()
    assert "change U2,0 -" in legal and "change U2,0 +" not in legal
    assert "change D1,0 +" in legal and "change D1,0 -" not in legal
    with pytest.raises(IllegalActionError, match="a 4 can only go down"):
        state.apply_move("change U2,0 +")
    with pytest.raises(IllegalActionError, match="a 1 can only go up"):
        state.apply_move("change D1,0 -")


def test_no_pass_a_player_always_has_a_change():
    # Decision 11: even a player whose every piece is boxed in can change a value.
    state = load_game("sinoda").new_initial_state()
    assert "change D2,-1 +" in state.legal_moves() and not moves_of(state, "D2,-1")
    with pytest.raises(Exception):  # noqa: B017 - no pass action exists at all
        state.apply_move("pass")


# --- the turn: moves (rule 3.1, Decision 8) ------------------------------------------------------

# The rulebook's movement example, placed in Blue's corner of the small board. The "2" stands on
# U2,0, a corner triangle whose only neighbours are D2,-1 and D1,0; the "1" stands on D1,0.
#   B = D2,-1 (one step), A = U2,-1 (two steps: B then A), C = D1,-1 (three steps: B, A, C),
#   D = U1,0 (two steps through the 1, four steps round it: B, A, C, D).
EXAMPLE = {"U2,0": (0, 2), "D1,0": (0, 1), **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2")}, **RED_START}


def test_rulebook_movement_example_a_is_the_only_move():
    state = load(EXAMPLE)
    assert moves_of(state, "U2,0") == ["move U2,0 U2,-1"]  # A
    state.apply_move("move U2,0 U2,-1")
    assert ["U2,-1", 0, 2] in state.to_dict()["pieces"]


@pytest.mark.parametrize(
    ("target", "rule"),
    [
        ("D2,-1", r"wrong length: D2,-1 is not exactly 2 steps from U2,0 \(it can be reached in 1 step\)"),  # B
        ("D1,-1", r"wrong length: D1,-1 is not exactly 2 steps from U2,0 \(it can be reached in 3 steps\)"),  # C
        ("U1,0", r"every 2-step path from U2,0 to U1,0 passes through a piece"),  # D
    ],
)
def test_rulebook_movement_example_b_c_d_are_illegal(target, rule):
    state = load(EXAMPLE)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=rule):
        state.apply_move(f"move U2,0 {target}")
    assert state.to_json() == before and state.history() == []


def test_d_is_four_steps_round_the_one():
    # Make the example's piece a 4: going round the 1 (B, A, C, D) reaches D = U1,0.
    state = load({**EXAMPLE, "U2,0": (0, 4)})
    assert "move U2,0 U1,0" in moves_of(state, "U2,0")


def test_no_backtracking_a_two_never_comes_home():
    # Blue's 2 on U1,0 has one open neighbour, D0,0, whose other neighbours are U0,0 and U0,1.
    state = load_game("sinoda").new_initial_state()
    state.apply_move("change U1,0 +")
    state.apply_move("change U-2,0 +")
    assert moves_of(state, "U1,0") == ["move U1,0 U0,0", "move U1,0 U0,1"]
    with pytest.raises(IllegalActionError, match="a path never revisits a cell, the start included"):
        state.apply_move("move U1,0 U1,0")


def test_passing_over_any_piece_is_forbidden_whoever_owns_it():
    # Blue's 2 on D0,0, whose neighbours are U0,0 (Red), U1,0 (Blue) and U0,1 (empty): only the
    # two cells beyond U0,1 can be reached; passing Red's or Blue's own piece is not allowed.
    pieces = {
        "D0,0": (0, 2),
        "U1,0": (0, 1),
        "U0,0": (1, 1),
        **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2")},
    }
    pieces |= {c: (1, 1) for c in ("U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")}
    state = load(pieces)
    assert moves_of(state, "D0,0") == ["move D0,0 D-1,1", "move D0,0 D0,1"]
    assert state.reachable_cells("D0,0") == ["D-1,1", "D0,1"]
    for target in ("D-1,0", "D0,-1", "D1,-1", "D1,0"):
        with pytest.raises(IllegalActionError, match="passes through a piece; no piece may be jumped over"):
            state.apply_move(f"move D0,0 {target}")


def test_moves_end_on_empty_cells_or_opponents_pieces_only():
    pieces = {
        "D0,0": (0, 1),
        "U1,0": (0, 1),
        "U0,0": (1, 2),
        **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2")},
    }
    pieces |= {c: (1, 1) for c in ("U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")}
    state = load(pieces)
    assert moves_of(state, "D0,0") == ["move D0,0 U0,0", "move D0,0 U0,1"]
    with pytest.raises(IllegalActionError, match="U1,0 holds Blue's own piece"):
        state.apply_move("move D0,0 U1,0")


def test_a_move_is_its_start_and_destination_whatever_the_path():
    # Decision 9: two 3-step paths lead from U0,0 to D-1,-1 (round vertex (0,0) either way): one move.
    state = load_game("sinoda", players=6).new_initial_state()
    board = state.game.board
    start, dest = board.index["U0,0"], board.index["D-1,-1"]
    assert len(board.routes[start][3][dest]) == 2
    pieces = {"U0,0": (0, 3), **{c: (0, 1) for c in ("U4,0", "U3,0", "U4,-1", "D3,0", "D4,-1")}}
    others = {c: (p, 1) for p in range(1, 6) for c in state.pieces_of(p)}
    state = load({**pieces, **others}, players=6)
    assert moves_of(state, "U0,0").count("move U0,0 D-1,-1") == 1


def test_only_the_player_to_move_moves_their_own_pieces():
    state = load_game("sinoda").new_initial_state()
    with pytest.raises(IllegalActionError, match="U-2,0 holds Red's piece; Blue changes or moves only their own"):
        state.apply_move("change U-2,0 +")
    with pytest.raises(IllegalActionError, match="U0,0 is empty"):
        state.apply_move("move U0,0 D0,0")


# --- captures -------------------------------------------------------------------------------------


def test_landing_on_an_opponent_captures_it_with_its_value():
    pieces = {
        "D0,0": (0, 1),
        "U1,0": (0, 1),
        "U0,0": (1, 3),
        **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2")},
    }
    pieces |= {c: (1, 1) for c in ("U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")}
    state = load(pieces)
    state.apply_move("move D0,0 U0,0")
    data = state.to_dict()
    assert data["captured"] == [[[1, 3]], []]  # Decision 12: the value at the moment of capture
    assert ["U0,0", 0, 1] in data["pieces"] and ["D0,0", 0, 1] not in data["pieces"]
    assert state.scores() == [3, 0]
    assert state.last_move.captured == (1, 3) and state.last_move.cells == ("D0,0", "U0,0")


def test_captured_pieces_are_sorted_by_owner_then_value():
    captured = [[], [[0, 2]], [[3, 1], [0, 4], [1, 1]], []]
    pieces = {
        **{c: (0, 1) for c in ("U4,0", "U3,0", "U4,-1", "D3,0")},
        **{c: (1, 1) for c in ("D1,-5", "U2,-5", "D2,-5", "U1,-4", "D1,-4")},
        **{c: (2, 1) for c in ("U-4,0", "U-5,0", "U-4,-1", "D-5,0", "D-4,-1", "D-5,-1")},
        **{c: (3, 1) for c in ("U-2,4", "U-3,4", "U-2,3", "D-3,4", "D-2,3")},
    }
    state = load(pieces, captured, players=4)
    assert state.to_dict()["captured"] == [[], [[0, 2]], [[0, 4], [1, 1], [3, 1]], []]


# --- teams (Decision 10) ---------------------------------------------------------------------------

# Four players in pairs: Blue (0) and Green (2) against Red (1) and Yellow (3).
FOUR = load_game("sinoda", players=4, teams="pairs")


def four_pairs(extra: dict, captured=None, to_move: int = 0):
    pieces = {c: (p, 1) for p in range(4) for c in FOUR.new_initial_state().pieces_of(p)}
    return load(extra | pieces, captured, to_move=to_move, players=4, teams="pairs")


def test_teams_layouts():
    assert FOUR.teams() == ((0, 2), (1, 3))
    assert load_game("sinoda", players=6, teams="pairs").teams() == ((0, 3), (1, 4), (2, 5))
    assert load_game("sinoda", players=6, teams="triples").teams() == ((0, 2, 4), (1, 3, 5))
    assert load_game("sinoda", players=3).teams() == ((0,), (1,), (2,))
    assert [load_game("sinoda", **o).utility for o in ({}, {"players": 3}, {"players": 4, "teams": "pairs"})] == [
        "zero_sum",
        "general_sum",
        "team",
    ]


def test_teammates_are_never_changed_moved_or_captured_but_they_block():
    # Green (Blue's teammate) has a piece on D2,0, next to Blue's U3,0.
    start = FOUR.new_initial_state()
    pieces = {c: (p, 1) for p in (0, 1, 3) for c in start.pieces_of(p)}
    pieces |= {"D2,0": (2, 1), **{c: (2, 1) for c in start.pieces_of(2)[1:]}}
    state = load(pieces, players=4, teams="pairs")
    before = state.to_json()
    with pytest.raises(
        IllegalActionError, match="D2,0 holds Green's piece, a teammate's; teammates are never captured"
    ):
        state.apply_move("move U3,0 D2,0")
    with pytest.raises(IllegalActionError, match="a teammate's; nobody changes or moves a teammate's piece"):
        state.apply_move("change D2,0 +")
    assert state.to_json() == before and "move U3,0 D2,0" not in state.legal_moves()
    # A 2 on U3,0 has its three neighbours taken by Blue's own pieces and Green's: it cannot move.
    state.apply_move("change U3,0 +")
    for player in (1, 2, 3):
        state.apply_move(f"change {state.pieces_of(player)[0]} +")
    assert moves_of(state, "U3,0") == []
    with pytest.raises(IllegalActionError, match="every 2-step path from U3,0 to U2,1 passes through a piece"):
        state.apply_move("move U3,0 U2,1")


def test_opponents_are_captured_in_team_games():
    start = FOUR.new_initial_state()
    pieces = {c: (p, 1) for p in range(4) for c in start.pieces_of(p) if c != start.pieces_of(1)[0]}
    pieces["D2,0"] = (1, 2)  # a Red piece next to Blue's U3,0
    state = load(pieces, players=4, teams="pairs")
    state.apply_move("move U3,0 D2,0")
    assert state.to_dict()["captured"][0] == [[1, 2]]


# --- the end (3.2, Decisions 13 and 14) -----------------------------------------------------------


def test_game_ends_when_every_player_has_exactly_one_piece():
    captured = [[[1, 1]] * 5, [[0, 1]] * 5]
    state = load({"U2,0": (0, 1), "U-2,0": (1, 1)}, captured)
    assert state.is_terminal() and state.legal_actions() == [] and state.current_player() == -4
    result = state.result()
    assert (result.winners, result.reason) == ((0, 1), "standard") and state.returns() == [0.0, 0.0]
    # ... and as soon as a capture leaves one piece each
    captured = [[[1, 1]] * 4, [[0, 1]] * 5]
    state = load({"D1,0": (0, 1), "U2,0": (1, 1), "U-2,0": (1, 1)}, captured)
    assert not state.is_terminal()
    state.apply_move("move D1,0 U2,0")
    assert state.is_terminal() and state.scores() == [5, 5] and state.result().winners == (0, 1)


def test_game_ends_when_some_player_has_no_pieces_even_with_three_players():
    # Decision 13: Red's last piece goes, the game ends although Blue and Green play on no more.
    start = load_game("sinoda", players=3).new_initial_state()
    pieces = {c: (p, 1) for p in (0, 2) for c in start.pieces_of(p)}
    pieces["D2,0"] = (0, 1)
    del pieces["U4,0"]
    pieces["U2,0"] = (1, 2)
    captured = [[[1, 1]] * 3, [], [[1, 1]] * 2]
    state = load(pieces, captured, players=3)
    assert not state.is_terminal()
    state.apply_move("move D2,0 U2,0")
    result = state.result()
    assert result.reason == "standard" and result.scores == (5, 0, 2) and result.winners == (0,)


def test_game_ends_when_a_player_has_captured_six_pieces():
    start = load_game("sinoda", players=3).new_initial_state()
    pieces = {c: (p, 1) for p in range(3) for c in start.pieces_of(p)[:3]}
    pieces |= {"D2,0": (0, 1), "U2,0": (1, 1)}
    captured = [[[1, 1]] * 2 + [[2, 1]] * 3, [[0, 1]] * 2, []]
    state = load(pieces, captured, players=3)
    assert not state.is_terminal()
    state.apply_move("move D2,0 U2,0")
    assert state.is_terminal() and len(state.to_dict()["captured"][0]) == 6
    assert state.result().winners == (0,)


def test_the_turn_passes_on_after_a_game_ending_turn():
    captured = [[[1, 1]] * 4, [[0, 1]] * 5]
    state = load({"D1,0": (0, 1), "U2,0": (1, 1), "U-2,0": (1, 1)}, captured)
    state.apply_move("move D1,0 U2,0")
    assert state.to_dict()["to_move"] == 1 and state.is_terminal()


def finished(captured: list, **options):
    """A position where each player's pieces not in ``captured`` stand on their start cells (value 1)."""
    game = load_game("sinoda", **options)
    start = game.new_initial_state()
    taken = [sum(1 for cap in captured for owner, _ in cap if owner == p) for p in range(game.num_players)]
    pieces = {c: (p, 1) for p in range(game.num_players) for c in start.pieces_of(p)[: 6 - taken[p]]}
    return game.state_from_dict(position(pieces, captured, players=game.num_players))


def test_standard_result_highest_score_wins_before_pieces():
    # Red has no pieces left but 7 points against Blue's 6: Red wins (3.3).
    state = finished([[[1, 1]] * 6, [[0, 2], [0, 2], [0, 1], [0, 1], [0, 1]]])
    assert state.is_terminal() and state.scores() == [6, 7] and state.result().winners == (1,)


def test_standard_result_tie_on_points_goes_to_pieces_left():
    state = finished([[[1, 1]] * 6, [[0, 2], [0, 1], [0, 1], [0, 1], [0, 1]]])
    assert state.scores() == [6, 6] and state.result().winners == (0,)  # Blue 1 piece, Red none


def test_tie_breaks_are_only_among_the_top_scores():
    # Decision 16: Red captured 6 (game over). Red and Green tie on 7; Red has 4 pieces, Green 1.
    # Blue has 5 pieces but 0 points and plays no part.
    captured = [[], [[0, 1], [2, 1], [2, 1], [2, 1], [2, 1], [2, 2]], [[1, 4], [1, 3]]]
    state = finished(captured, players=3)
    assert state.scores() == [0, 7, 7] and [len(state.pieces_of(p)) for p in range(3)] == [5, 4, 1]
    assert state.result().winners == (1,) and state.result().reason == "standard"


def test_a_full_tie_is_a_shared_win():
    captured = [[], [[0, 1], [0, 1], [0, 1], [2, 1], [2, 1], [2, 2]], [[1, 4], [1, 2], [1, 1]]]
    state = finished(captured, players=3)
    assert state.scores() == [0, 7, 7] and [len(state.pieces_of(p)) for p in range(3)] == [3, 3, 3]
    result = state.result()
    assert result.winners == (1, 2) and not result.is_draw and state.returns() == [-1.0, 1.0, 1.0]


def test_team_result_lists_every_member_and_never_adds_scores():
    # Yellow has no pieces left. Green tops the scores alone with 6; Blue has 0 but wins with her;
    # Red and Yellow have 5 each (10 together), which counts for nothing.
    captured = [[], [[0, 2], [0, 3]], [[3, 1]] * 6, [[2, 4], [2, 1]]]
    state = finished(captured, players=4, teams="pairs")
    result = state.result()
    assert result.scores == (0, 5, 6, 5) and result.winners == (0, 2) and state.returns() == [1.0, -1.0, 1.0, -1.0]


def test_team_ties_across_teams_go_to_pieces_then_shared():
    # Decision 17: Green has no pieces. Blue and Red tie on 5; Red keeps 5 pieces, Blue 4: Red's team.
    captured = [[[1, 4], [3, 1]], [[2, 1]] * 5, [], [[2, 1], [0, 1], [0, 1]]]
    state = finished(captured, players=4, teams="pairs")
    assert state.scores() == [5, 5, 0, 3] and state.result().winners == (1, 3)
    # One Blue piece fewer captured: Blue and Red tie on pieces too; both teams win: a draw.
    captured = [[[1, 4], [3, 1]], [[2, 1]] * 5, [], [[2, 1], [0, 1]]]
    tied = finished(captured, players=4, teams="pairs")
    assert tied.result().winners == (0, 1, 2, 3) and tied.result().is_draw and tied.returns() == [0.0] * 4


def test_six_player_pairs_tie_leaves_the_third_team_out():
    captured = [[[2, 1], [2, 1], [2, 2]], [[2, 1], [2, 1], [2, 2]], [], [], [], []]
    state = finished(captured, players=6, teams="pairs")
    result = state.result()
    assert result.winners == (0, 1, 3, 4) and not result.is_draw


# --- Win by Sinoda (3.2, Decision 15) --------------------------------------------------------------

SINODA = SINODA_EXAMPLE


def test_rulebook_win_by_sinoda_example():
    state = load(SINODA["pieces"], SINODA["captured"])
    assert state.scores() == [9, 5] and state.material(0) == 4
    assert not state.is_terminal()  # 9 > 5 + 4 fails: equality is not enough (strict)
    state.apply_move("change U1,0 -")  # all three down to 1: 9 > 5 + (1+1+1) = 8
    result = state.result()
    assert (result.winners, result.reason, result.scores) == ((0,), "sinoda", (9, 5))
    assert state.returns() == [1.0, -1.0]
    assert state.sinoda_arithmetic().startswith("Blue wins by Sinoda: 9 > 5 + (1+1+1) = 8")


def test_sinoda_equality_does_not_end_the_game():
    captured = [[[1, 4], [1, 4], [1, 1]], [[0, 2], [0, 2], [0, 1]]]
    state = load({**SINODA["pieces"], "U1,0": (0, 2)}, captured)
    assert state.scores()[0] == state.scores()[1] + state.material(0) and not state.is_terminal()
    assert state.sinoda_arithmetic() is None


def test_sinoda_is_checked_for_either_player_after_any_turn():
    # Red leads 9 to 5 with three 1s left on the board after Red's own change: Red wins at once.
    pieces = {"U2,0": (0, 1), "D1,0": (0, 1), "U1,0": (0, 1), "U-2,0": (1, 1), "U-3,0": (1, 1), "D-3,0": (1, 2)}
    state = load(pieces, [[[1, 2], [1, 2], [1, 1]], [[0, 4], [0, 4], [0, 1]]], to_move=1)
    state.apply_move("change D-3,0 -")
    assert state.result().winners == (1,) and state.result().reason == "sinoda"


def test_standard_end_takes_precedence_over_sinoda():
    # Blue captures Red's last piece with a big lead: both hold, the standard result is used.
    pieces = {"D1,0": (0, 1), "U-2,0": (0, 1), "U2,0": (1, 2)}
    state = load(pieces, [[[1, 1]] * 5, [[0, 1]] * 4])
    assert not state.is_terminal()  # 5 > 4 + 2 fails
    state.apply_move("move D1,0 U2,0")
    assert state.scores() == [7, 4] and state.scores()[0] > state.scores()[1] + state.material(0)
    assert state.result().reason == "standard" and state.result().winners == (0,)


def test_no_sinoda_with_more_than_two_players():
    start = load_game("sinoda", players=3).new_initial_state()
    pieces = {c: (p, 1) for p in range(3) for c in start.pieces_of(p)}
    for cell in start.pieces_of(1)[:3] + start.pieces_of(2)[:2]:
        del pieces[cell]
    state = load(pieces, [[[1, 4]] * 3 + [[2, 4]] * 2, [], []], players=3)
    assert state.scores()[0] > sum(state.scores()[1:]) + state.material(0)
    assert not state.is_terminal()


# --- options ----------------------------------------------------------------------------------------


def test_first_player_takes_the_first_turn():
    assert load_game("sinoda", first_player=1).new_initial_state().current_player() == 1
    six = load_game("sinoda", players=6, teams="triples", first_player=5).new_initial_state()
    assert six.current_player() == 5
    six.apply_move(f"change {six.pieces_of(5)[0]} +")
    assert six.current_player() == 0  # clockwise: 5 then 0


def test_player_counts_and_boards():
    for players, cells in [(2, 54), (3, 150), (4, 150), (6, 150)]:
        game = load_game("sinoda", players=players)
        assert game.num_players == players and game.board.size == cells
        assert len(game.new_initial_state().returns()) == players


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"players": 5}, "players=5 is not allowed; valid values: 2, 3, 4, 6"),
        ({"players": True}, "players=[tT]rue is not allowed"),
        ({"players": 2.0}, "not allowed"),
        ({"teams": "pairs"}, "teams='pairs' needs 4 or 6 players, got players=2"),
        ({"teams": "pairs", "players": 3}, "needs 4 or 6 players"),
        ({"teams": "triples", "players": 4}, "teams='triples' needs 6 players"),
        ({"teams": "trios"}, "valid values"),
        ({"four_player_start": "edge"}, 'valid values: "corner", "side"'),
        ({"first_player": 2}, "first_player=2 is not a seat; with players=2 it must be 0..1"),
        ({"first_player": 4, "players": 4}, "0..3"),
        ({"first_player": 6, "players": 6}, "not allowed"),
        ({"first_player": -1}, "not allowed"),
        ({"board": "large"}, "option board"),
        ({"size": 3}, "unknown option .?size"),
    ],
)
def test_bad_options_raise_rules_error(options, problem):
    with pytest.raises(RulesError, match=problem):
        load_game("sinoda", **options)


def test_harness_configs_cover_every_player_count_team_layout_and_start():
    configs = type(FOUR).harness_configs()
    games = [load_game("sinoda", **c) for c in configs]
    assert {g.num_players for g in games} == {2, 3, 4, 6}
    assert {(g.options["teams"], g.num_players) for g in games} >= {("pairs", 4), ("pairs", 6), ("triples", 6)}
    assert any(g.options["four_player_start"] == "side" and g.num_players == 4 for g in games)
    assert any(g.options["first_player"] != 0 for g in games)


# --- evaluation and questions about a position ----------------------------------------------------


def test_evaluate_favours_the_player_ahead_and_is_bounded():
    state = load(SINODA["pieces"], SINODA["captured"])
    blue, red = state.evaluate()
    assert blue > 0 > red and blue == pytest.approx(-red) and -1 < red < blue < 1
    assert load_game("sinoda").new_initial_state().evaluate() == [0.0, 0.0]


def test_evaluate_counts_threats():
    # A Red 3 stands next to Blue's 1 on D0,0: Blue threatens it, so Blue is ahead.
    pieces = {"D0,0": (0, 1), "U0,0": (1, 3), **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2", "U1,1")}}
    pieces |= {c: (1, 1) for c in ("U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")}
    state = load(pieces)
    assert state.threatened(1) == ["U0,0"] and state.threatened(0) == []
    assert "U0,0" in state.attacked_cells(0)
    blue, red = state.evaluate()
    assert blue > 0 > red


def test_evaluate_is_per_team():
    state = FOUR.new_initial_state()
    values = state.evaluate()
    assert len(values) == 4 and values[0] == values[2] and values[1] == values[3]


def test_terminal_evaluation_is_the_returns():
    state = load({"U2,0": (0, 1), "U-2,0": (1, 1)}, [[[1, 2]] + [[1, 1]] * 4, [[0, 1]] * 5])
    assert state.evaluate() == state.returns() == [1.0, -1.0]


def test_reachable_cells_need_a_piece():
    state = load_game("sinoda").new_initial_state()
    assert state.reachable_cells("U1,0") == ["D0,0"]
    with pytest.raises(ValueError, match="holds no piece"):
        state.reachable_cells("U0,0")


# --- the engine against a plain search over paths -------------------------------------------------


def path_ends(start: str, value: int, neighbours: dict, occupied: set) -> set:
    """The last cells of every path of exactly ``value`` steps from ``start`` that never revisits a
    cell (the start included) and passes only empty cells before its last step."""
    ends = set()

    def walk(here, visited, steps):
        if steps == value:
            ends.add(here)
            return
        if here != start and here in occupied:
            return  # passing through a piece
        for nxt in neighbours[here]:
            if nxt not in visited:
                walk(nxt, visited | {nxt}, steps + 1)

    walk(start, {start}, 0)
    return ends


def reference_moves(data: dict, game) -> list[str]:
    """Rule 3.1 read literally: depth-first search over simple paths of exactly the value."""
    board = game.board
    neighbours = {board.names[c]: [board.names[n] for n in board.neighbours[c]] for c in range(board.size)}
    at = {cell: (p, v) for cell, p, v in data["pieces"]}
    me = data["to_move"]
    team = {p: i for i, members in enumerate(game.teams()) for p in members}
    found = []
    for cell in board.names:
        if at.get(cell, (None,))[0] != me:
            continue
        value = at[cell][1]
        if value > 1:
            found.append(f"change {cell} -")
        if value < 4:
            found.append(f"change {cell} +")
        ends = {d for d in path_ends(cell, value, neighbours, set(at)) if d not in at or team[at[d][0]] != team[me]}
        found += [f"move {cell} {d}" for d in board.names if d in ends]
    return found


CONFIGS = [{}, {"players": 3}, {"players": 4, "teams": "pairs"}, {"players": 6, "teams": "triples"}]


@settings(max_examples=150, deadline=None)
@given(random_positions(CONFIGS), st.integers(0, 10_000))
def test_engine_matches_the_reference_search(case, choice):
    game, data = case
    state = game.state_from_dict(data)
    if state.is_terminal():
        assert state.legal_moves() == []
        return
    event(f"players {game.num_players}, not over")
    canonical = json.loads(state.to_json())
    expected = reference_moves(canonical, game)
    assert state.legal_moves() == expected
    # every move of every own piece to every cell: legal exactly when the reference lists it
    mine = [cell for cell, p, _ in canonical["pieces"] if p == data["to_move"]]
    origin = mine[choice % len(mine)]
    for dest in game.board.names:
        move = f"move {origin} {dest}"
        if move in expected:
            state.parse_move(move)
        else:
            with pytest.raises(IllegalActionError):
                state.parse_move(move)


def test_reference_agrees_on_a_start_position():
    game = load_game("sinoda")
    data = game.new_initial_state().to_dict()
    assert reference_moves(data, game) == game.new_initial_state().legal_moves()
