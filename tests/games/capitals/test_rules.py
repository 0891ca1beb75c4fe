"""Capitals rules: every rule, Decision and option of docs/rules/capitals.md.

Positions are built with ``helpers.load``: the named units, everything else at its default.
"""

import json

import pytest

from tabletop_lab import ActionSyntaxError, IllegalActionError, PositionError, RulesError, load_game

from .helpers import load, units

GAME = load_game("capitals")
START = (  # spec section 8
    '{"game":"capitals","cycle":1,"slot":0,"actor":0,"extra_turn":false,"transfers":0,"pending_sacrifice":false,'
    '"releases":[],"altar_filled":[false,false,false,false],"eliminated":[false,false,false,false],"pieces":['
    '["a1",0,0,null],["b1",0,0,null],["c1",0,0,null],["f1",1,1,null],["g1",1,1,null],["h1",1,1,null],'
    '["a2",0,0,null],["b2",0,0,null],["c2",0,0,null],["f2",1,1,null],["g2",1,1,null],["h2",1,1,null],'
    '["a3",0,0,null],["b3",0,0,null],["c3",0,0,null],["f3",1,1,null],["g3",1,1,null],["h3",1,1,null],'
    '["a6",3,3,null],["b6",3,3,null],["c6",3,3,null],["f6",2,2,null],["g6",2,2,null],["h6",2,2,null],'
    '["a7",3,3,null],["b7",3,3,null],["c7",3,3,null],["f7",2,2,null],["g7",2,2,null],["h7",2,2,null],'
    '["a8",3,3,null],["b8",3,3,null],["c8",3,3,null],["f8",2,2,null],["g8",2,2,null],["h8",2,2,null]],'
    '"cages":[[],[],[],[]],"altars":[[],[],[],[]],"removed":[0,0,0,0]}'
)
# Kings of the hill: each player keeps a piece on their own Capital unless a test needs otherwise.
HOME = {"a1": 0, "h1": 1, "h8": 2, "a8": 3}


def board(**pieces):
    return {**HOME, **{k.replace("_", ""): v for k, v in pieces.items()}}


def refused(state, move, error, match):
    before, history = state.to_json(), state.history()
    with pytest.raises(error, match=match):
        state.apply_move(move)
    assert state.to_json() == before and state.history() == history


# --- seats, teams, turns -------------------------------------------------------------------------


def test_start_position_and_info():
    state = GAME.new_initial_state()
    assert state.to_json() == START
    data = state.to_dict()
    assert list(data) == [
        "game", "cycle", "slot", "actor", "extra_turn", "transfers", "pending_sacrifice", "releases",
        "altar_filled", "eliminated", "pieces", "cages", "altars", "removed",
    ]  # fmt: skip
    assert data["pieces"][:4] == [["a1", 0, 0, None], ["b1", 0, 0, None], ["c1", 0, 0, None], ["f1", 1, 1, None]]
    assert len(data["pieces"]) == 36 and state.current_player() == 0
    assert GAME.teams() == ((0, 2), (1, 3))
    assert GAME.info.players == (4,)
    assert GAME.info.player_names == ("White (top)", "Black (right)", "White (bottom)", "Black (left)")


def test_turns_run_clockwise_and_cycles_count():
    state = GAME.new_initial_state()
    for player, move in zip([0, 1, 2, 3], ["step c3 d4", "step f3 e4", "step f6 e5", "step c6 d5"]):
        assert state.current_player() == player
        state.apply_move(move)
    assert (state.cycle, state.slot, state.current_player()) == (2, 0, 0)


@pytest.mark.parametrize(("cycle", "hunger"), [(1, False), (3, False), (4, True), (8, True), (9, False)])
def test_every_fourth_cycle_is_hunger(cycle, hunger):
    assert load(board(), cycle=cycle).is_hunger_cycle is hunger


# --- steps and Rams --------------------------------------------------------------------------------


def test_step_to_an_empty_neighbour():
    state = load(board(d4=0))
    state.apply_move("step d4 e5")
    assert units(state)["e5"] == (0, 0, None) and "d4" not in units(state)
    assert state.current_player() == 1


def test_step_onto_allied_single_forms_a_ram_controlled_by_the_bottom():
    state = load(board(d4=0, e5=2))
    state.apply_move("step d4 e5")
    assert units(state)["e5"] == (2, 2, 0)


@pytest.mark.parametrize(
    ("extra", "move", "rule"),
    [
        ({"d4": 0, "e5": 0}, "step d4 e5", "own unit"),
        ({"d4": 0, "e5": 1}, "step d4 e5", "enemy unit"),
        ({"d4": 0, "e5": (2, 2, 0)}, "step d4 e5", "stacks of three"),
        ({"d4": (0, 0, 2), "e5": 2}, "step d4 e5", "Ram steps only onto empty"),
        ({"d4": 1}, "step d4 e5", "controlled by Black"),
        ({}, "step d4 e5", "no piece on d4"),
    ],
)
def test_illegal_steps_name_the_rule(extra, move, rule):
    refused(load(board(**extra)), move, IllegalActionError, rule)


def test_ram_steps_and_dismantles():
    state = load(board(d4=(0, 0, 2)))
    moves = state.legal_moves()
    assert "step d4 e5" in moves and "dismantle d4 e5" in moves
    state.apply_move("dismantle d4 e5")
    assert units(state)["d4"] == (0, 0, None) and units(state)["e5"] == (2, 2, None)


@pytest.mark.parametrize(("option", "controller"), [("revert", 2), ("keep", 0)])
def test_dismantle_top(option, controller):
    state = load(board(d4=(0, 0, 2)), {"dismantle_top": option})
    state.apply_move("dismantle d4 e5")
    assert units(state)["e5"] == (2, controller, None)


def test_dismantled_top_of_an_eliminated_owner_goes_to_the_ally():
    pieces = {"h1": 1, "a8": 3, "d4": (0, 0, 2), "b2": 0}
    state = load(pieces, eliminated=[False, False, True, False])
    state.apply_move("dismantle d4 e5")
    assert units(state)["e5"] == (2, 0, None)


def test_dismantle_needs_an_empty_neighbour():
    around = {sq: 2 * (i % 2) for i, sq in enumerate(["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"])}
    state = load(board(d4=(0, 0, 2), **around))
    assert not any(m.startswith("dismantle d4") for m in state.legal_moves())
    refused(state, "dismantle d4 e5", IllegalActionError, "not empty")


# --- jump chains ---------------------------------------------------------------------------------------


def test_friendly_jump_leaves_the_unit():
    state = load(board(c3=0, d4=2))
    state.apply_move("jump c3 e5")
    assert units(state)["d4"] == (2, 2, None) and units(state)["e5"] == (0, 0, None)
    assert state.cages == [[], [], [], []]


def test_hostile_chain_captures_into_the_cage_in_jump_order():
    state = load(board(c1=0, c2=1, c4=3))
    assert {"jump c1 c3", "jump c1 c3 c5"} <= set(state.legal_moves())
    state.apply_move("jump c1 c3 c5")
    assert state.cages[0] == [1, 3]
    assert "c2" not in units(state) and "c4" not in units(state) and units(state)["c5"] == (0, 0, None)


def test_hunger_captures_go_to_the_altar():
    state = load(board(c1=0, c2=1), cycle=4)
    state.apply_move("jump c1 c3")
    assert state.altars[0] == [1] and state.cages[0] == [] and state.altar_filled[0]


def test_chain_jump_by_jump():
    state = load(board(c1=0, c2=1, c4=3))
    state.apply_action(state.string_to_action("jump c1 c3"))
    assert state.mid_turn() and state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["hop c5", "stop"]
    with pytest.raises(PositionError, match="turn in progress"):
        state.to_dict()
    assert state.snapshot()["turn_in_progress"]["chain"]["landings"] == ["c3"]
    state.apply_action(state.string_to_action("hop c5"))  # no way on: the chain ends by itself
    assert not state.mid_turn() and state.cages[0] == [1, 3] and state.current_player() == 1


def test_stop_ends_a_chain_early_and_captures():
    state = load(board(c1=0, c2=1, c4=3))
    state.apply_action(state.string_to_action("jump c1 c3"))
    state.apply_action(state.string_to_action("stop"))
    assert state.cages[0] == [1] and units(state)["c4"] == (3, 3, None)


def test_whole_chain_and_jump_by_jump_agree():
    a = load(board(c1=0, c2=1, c4=3))
    b = a.clone()
    a.apply_move("jump c1 c3 c5")
    for text in ["jump c1 c3", "hop c5"]:
        b.apply_action(b.string_to_action(text))
    assert a == b


def test_friendly_and_hostile_jumps_do_not_mix():
    state = load(board(c1=0, c2=2, c4=1))
    assert "jump c1 c3 c5" not in state.legal_moves()
    refused(state, "jump c1 c3 c5", IllegalActionError, "may not be mixed")


def test_a_unit_is_jumped_once_per_chain():
    state = load(ring())
    for text in ["jump c3 e3", "hop e5"]:  # over d3, then e4
        state.apply_action(state.string_to_action(text))
    before = state.legal_actions()
    with pytest.raises(IllegalActionError, match="already jumped"):
        state.apply_action(state.string_to_action("hop e3"))  # over e4 again
    assert state.legal_actions() == before and state.mid_turn()
    refused(load(ring()), "jump c3 e3 e5 e3", IllegalActionError, "already jumped")


def test_enemy_ram_cannot_be_the_first_jump():
    state = load(board(c3=0, d4=(1, 1, 3)))
    refused(state, "jump c3 e5", IllegalActionError, "only after an earlier jump")


def test_ram_attack_takes_the_top_and_ends_the_chain():
    state = load(board(c1=0, c2=1, d4=(1, 1, 3), f6=1))
    state.apply_move("jump c1 c3 e5")
    assert units(state)["d4"] == (1, 1, None) and state.cages[0] == [1, 3]
    assert not state.mid_turn() and state.current_player() == 1


@pytest.mark.parametrize(("option", "after_hostile"), [("any", True), ("friendly", False)])
def test_ram_attack_after(option, after_hostile):
    hostile = load(board(c1=0, c2=1, d4=(1, 1, 3)), {"ram_attack_after": option})
    assert ("jump c1 c3 e5" in hostile.legal_moves()) is after_hostile
    friendly = load(board(c1=0, c2=2, d4=(1, 1, 3)), {"ram_attack_after": option})
    assert "jump c1 c3 e5" in friendly.legal_moves()


def test_capture_removal_only_changes_what_a_chain_in_progress_shows():
    # Landings keep the starting square's parity, captured squares never do: removal timing
    # cannot change which chains are legal, only the board shown mid-chain.
    results = {}
    for option in ("end_of_chain", "immediate"):
        state = load(board(c1=0, c2=1, c4=3), {"capture_removal": option})
        state.apply_action(state.string_to_action("jump c1 c3"))
        shown = {p[0] for p in state.snapshot()["pieces"]}
        assert ("c2" in shown) is (option == "end_of_chain")
        state.apply_action(state.string_to_action("hop c5"))
        results[option] = units(state)
    assert results["end_of_chain"] == results["immediate"]


def ring():
    """A piece on c3 that can jump round a ring of allies and come back: c3-e3-e5-c5-c3."""
    return board(c3=0, d3=2, e4=2, d5=2, c4=2)


def test_a_chain_may_not_end_on_its_start_by_default():
    moves = load(ring()).legal_moves()
    assert "jump c3 e3 e5 c5" in moves and "jump c3 e3 e5 c5 c3" not in moves
    state = load(ring())
    for text in ["jump c3 e3", "hop e5", "hop c5"]:
        state.apply_action(state.string_to_action(text))
    # hopping back onto c3 would leave the piece stuck on its start: not offered (no dead ends)
    assert not state.mid_turn()  # c3 was the only way on, so the chain ended by itself on c5
    refused(load(ring()), "jump c3 e3 e5 c5 c3", IllegalActionError, "stuck on its starting square")


def test_a_chain_may_pass_through_its_start():
    state = load({**ring(), "b3": 2})  # from c3 the piece can go on over b3 to a3
    moves = state.legal_moves()
    assert "jump c3 e3 e5 c5 c3 a3" in moves and "jump c3 e3 e5 c5 c3" not in moves
    for text in ["jump c3 e3", "hop e5", "hop c5", "hop c3"]:
        state.apply_action(state.string_to_action(text))
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["hop a3"]  # no stop on the start
    with pytest.raises(IllegalActionError, match="may not end there"):
        state.apply_action(state.string_to_action("stop"))


def test_chain_end_on_start_allows_it():
    state = load(ring(), {"chain_end_on_start": True})
    assert "jump c3 e3 e5 c5 c3" in state.legal_moves()
    state.apply_move("jump c3 e3 e5 c5 c3")
    assert units(state)["c3"] == (0, 0, None)


def test_every_prefix_of_a_chain_is_a_move():
    moves = load(ring()).legal_moves()
    for chain in ["jump c3 e3", "jump c3 e3 e5", "jump c3 e3 e5 c5"]:
        assert chain in moves


# --- Ram jumps -------------------------------------------------------------------------------------------


def test_ram_makes_one_jump_over_an_enemy_ram_destroying_it():
    state = load(board(c3=(0, 0, 2), d4=(1, 1, 3), f6=1))
    state.apply_move("jump c3 e5")
    assert "d4" not in units(state) and state.cages[0] == [3, 1]
    assert not state.mid_turn()


def test_ram_jump_is_never_a_chain():
    state = load(board(c1=(0, 0, 2), c2=1, c4=3))
    moves = state.legal_moves()
    assert "jump c1 c3" in moves and "jump c1 c3 c5" not in moves


def test_ram_jump_none():
    state = load(board(c3=(0, 0, 2), d4=1), {"ram_jump": "none"})
    assert not any(m.startswith("jump c3") for m in state.legal_moves())
    refused(state, "jump c3 e5", IllegalActionError, "ram_jump='none'")


# --- skip, Synergy ------------------------------------------------------------------------------------------


def test_skip_only_when_nothing_else():
    stuck = load(board(), altars=[[], [], [], []])  # a1 corner piece boxed in? no: give it room
    assert "skip" not in stuck.legal_moves()
    refused(stuck, "skip", IllegalActionError, "skip is legal only")
    boxed = load({"a1": 0, "a2": 1, "b1": 1, "b2": 3, "a3": 1, "c1": 3, "c3": 1, "h8": 2, "a8": 3, "h1": 1})
    assert boxed.legal_moves() == ["skip"]


@pytest.mark.parametrize(("adjacency", "synergy"), [(8, True), (4, False)])
def test_synergy_adjacency(adjacency, synergy):
    state = load(board(d4=0, e5=2), {"synergy_adjacency": adjacency}, cages=[[1], [], [], []])
    assert state.has_synergy() is synergy
    assert ("transfer" in state.legal_moves()) is synergy


def test_transfer_moves_the_oldest_prisoner_and_keeps_the_turn():
    state = load(board(d4=0, d5=2), cages=[[1, 3], [], [], []])
    state.apply_move("transfer")
    assert state.cages[0] == [3] and state.cages[2] == [1]
    assert state.current_player() == 0 and state.transfers == 1
    refused(state, "transfer", IllegalActionError, "at most 1 transfer")


def test_transfers_per_turn():
    state = load(board(d4=0, d5=2), {"transfers_per_turn": 2}, cages=[[1, 3, 1], [], [], []])
    state.apply_move("transfer")
    state.apply_move("transfer")
    assert "transfer" not in state.legal_moves()
    assert "transfer" not in load(board(d4=0, d5=2), {"transfers_per_turn": 0}, cages=[[1], [], [], []]).legal_moves()


def test_transfer_and_pass_need_synergy_and_a_prisoner():
    refused(load(board(d4=0, d6=2), cages=[[1], [], [], []]), "transfer", IllegalActionError, "needs Synergy")
    refused(load(board(d4=0, d5=2)), "pass-turn", IllegalActionError, "needs a piece in your Cage")


@pytest.mark.parametrize(("cost", "altar", "removed"), [("altar", [1], 0), ("removed", [], 1)])
def test_pass_turn_gives_the_ally_an_extra_turn(cost, altar, removed):
    state = load(board(d4=0, d5=2), {"pass_turn_cost": cost}, cages=[[1], [], [], []])
    before = state.to_dict()["removed"][1]
    state.apply_move("pass-turn")
    assert state.altars[0] == altar and state.to_dict()["removed"][1] == before + removed
    assert (state.current_player(), state.extra_turn, state.slot) == (2, True, 0)
    assert state.altar_filled[0] is (cost == "altar")
    state.apply_move("step h8 g7")
    assert (state.current_player(), state.slot, state.extra_turn) == (1, 1, False)


@pytest.mark.parametrize("chain", [False, True])
def test_pass_turn_chain(chain):
    state = load(board(d4=0, d5=2), {"pass_turn_chain": chain}, cages=[[1], [], [3], []])
    state.apply_move("pass-turn")
    assert ("pass-turn" in state.legal_moves()) is chain
    if chain:
        state.apply_move("pass-turn")
        assert (state.current_player(), state.extra_turn) == (0, True)
    else:
        refused(state, "pass-turn", IllegalActionError, "cannot be passed on")


# --- Capitals and elimination ----------------------------------------------------------------------------


def test_entering_a_capital_eliminates_and_clears_the_territory():
    # Player 1 (h1) has units in their Territory (g2, Ram g3) and outside (d5); their Cage holds a prisoner.
    pieces = {"a1": 0, "h8": 2, "a8": 3, "g2": 1, "g3": (1, 1, 3), "d5": 1, "g1": 0, "b7": 3}
    state = load(pieces, cages=[[], [0], [], []], options=None)
    removed = list(state.removed)
    state.apply_move("step g1 h1")
    assert state.eliminated == [False, True, False, False]
    here = units(state)
    assert "g2" not in here and "g3" not in here and here["h1"] == (0, 0, None)
    assert here["d5"] == (1, 3, None)  # control handed to the ally
    assert state.removed[1] == removed[1] + 2 and state.removed[3] == removed[3] + 1
    assert state.cages[1] == [] and state.releases == [(0, 1)]
    assert state.current_player() == 0  # the actor places the prisoner
    assert state.legal_moves() == sorted(f"release {sq}" for sq in ["f1", "g1", "f2", "g2", "h2", "f3", "g3", "h3"])
    refused(state, "release a2", IllegalActionError, "not in Black \\(right\\)'s Territory")
    state.apply_move("release g2")
    assert units(state)["g2"] == (0, 0, None)
    assert (state.slot, state.current_player()) == (1, 3)  # player 1 is out: the ally plays the slot


def test_fixed_prisoner_placement_and_overflow():
    pieces = {"a1": 0, "h8": 2, "a8": 3, "g1": 0, "b7": 3, **{sq: 0 for sq in ["f1", "f2", "g2", "h2", "f3", "g3"]}}
    pieces["h3"] = 2
    state = load(pieces, {"prisoner_placement": "fixed"}, cages=[[], [0, 2], [], []])
    state.apply_move("step g1 h1")
    # g1 is the only empty square of the Territory: the older prisoner goes there, the other leaves.
    assert units(state)["g1"] == (0, 0, None) and state.releases == []
    assert state.current_player() == 3  # slot 1's player is out: the ally plays it


@pytest.mark.parametrize(("option", "eliminated"), [("any_landing", True), ("final_square", False)])
def test_capital_entry(option, eliminated):
    # c1 jumps b1 (ally) to a1? a1 is own; use Black's h1: f1 over g1 lands h1, then h1 over h2 to h3.
    pieces = {"a1": 0, "h8": 2, "a8": 3, "f1": 0, "g1": 2, "h2": 2, "b7": 3, "d5": 1}
    state = load(pieces, {"capital_entry": option})
    state.apply_move("jump f1 h1 h3")
    assert state.eliminated[1] is eliminated


@pytest.mark.parametrize(("slot_option", "actor"), [("ally", 3), ("skip", 2)])
def test_eliminated_slot(slot_option, actor):
    pieces = {"a1": 0, "h8": 2, "a8": 3, "b7": 3, "d4": 0, "h1": 0}
    state = load(pieces, {"eliminated_slot": slot_option}, eliminated=[False, True, False, False])
    state.apply_move("step d4 d5")
    assert state.current_player() == actor


def test_both_capitals_win():
    pieces = {"a1": 0, "h8": 2, "b7": (3, 1), "g1": 0, "d4": 1}
    state = load(pieces, eliminated=[False, False, False, True])
    state.apply_move("step g1 h1")
    result = state.result()
    assert result.winners == (0, 2) and result.reason == "capitals"
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]


@pytest.mark.parametrize(("scoring", "black", "white_before"), [("each_team", 1, -1), ("winner_only", 0, 0)])
def test_no_pieces_win_and_scores(scoring, black, white_before):
    # Black's last unit is c2: capturing it wins. White: 3 caged Black pieces (+6), one own piece
    # sacrificed on an Altar (-1). Black: one White piece on an Altar (+1, unless winner_only).
    pieces = {"a1": 0, "h8": 2, "c1": 0, "c2": 1}
    state = load(pieces, {"altar_scoring": scoring}, cages=[[1, 3], [], [], []], altars=[[0], [0], [], []])
    # before the end nobody has won: no Cage term, and under winner_only no Altar term either
    assert state.scores() == [white_before, black, white_before, black]
    state.apply_move("jump c1 c3")
    result = state.result()
    assert result.winners == (0, 2) and result.reason == "no_pieces" and not result.cap_reached
    assert state.scores() == [5, black, 5, black] and list(result.scores) == [5, black, 5, black]


def test_both_teams_winning_at_once_goes_to_the_actor():
    # Player 0 captures Black's last unit while White already has no other unit... White keeps c3.
    state = load({"c1": 0, "c2": 1, "h8": 2}, eliminated=[False, False, False, False])
    state.apply_move("jump c1 c3")
    assert state.result().winners == (0, 2)


def test_cap_ends_in_a_draw():
    game = load_game("capitals", max_cycles=1)
    state = game.new_initial_state()
    for move in ["step c3 d4", "step f3 e4", "step f6 e5", "step c6 d5"]:
        state.apply_move(move)
    result = state.result()
    assert result.winners == (0, 1, 2, 3) and result.reason == "cap" and result.cap_reached
    assert (state.cycle, state.slot) == (2, 0) and state.legal_actions() == []
    assert game.state_from_json(state.to_json()).is_terminal()


# --- options and positions ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"eliminated_slot": "none"}, {"transfers_per_turn": -1}, {"transfers_per_turn": True}, {"max_cycles": 0},
     {"synergy_adjacency": 6}, {"chain_end_on_start": 1}, {"players": 4}],
)  # fmt: skip
def test_bad_options(options):
    with pytest.raises(RulesError):
        load_game("capitals", **options)


def test_position_round_trips():
    state = load(board(d4=(0, 0, 2)), cycle=5, cages=[[1], [], [3], []], altars=[[0], [], [], [1]])
    again = GAME.state_from_json(json.dumps(state.to_dict(), indent=2))
    assert again == state and again.to_json() == state.to_json()
    shuffled = dict(reversed(list(state.to_dict().items())))
    shuffled["pieces"] = list(reversed(shuffled["pieces"]))
    assert GAME.state_from_dict(shuffled).to_json() == state.to_json()


# --- more Decisions, syntax, evaluation ---------------------------------------------------------------


def test_no_long_jumps_decision_6():
    state = load(board(c1=0, c2=1))
    for text in ["jump c1 c4", "jump c1 c5", "jump c1 d2"]:
        refused(state, text, ActionSyntaxError, "not two squares")
    refused(state, "jump c1 c3 c6", ActionSyntaxError, "not two squares from c3")


def test_ram_jumps_over_a_friendly_unit_decision_11():
    state = load(board(c3=(0, 0, 2), d4=2))
    state.apply_move("jump c3 e5")
    assert units(state)["e5"] == (0, 0, 2) and units(state)["d4"] == (2, 2, None)


def test_ram_captures_go_to_the_altar_in_hunger_decision_12():
    state = load(board(c3=(0, 0, 2), d4=(1, 1, 3), f6=1), cycle=8)
    state.apply_move("jump c3 e5")
    assert state.altars[0] == [3, 1] and state.cages[0] == [] and state.altar_filled[0]


@pytest.mark.parametrize(
    "text",
    ["", "step", "step d4", "step d4 e5 ", "step  d4 e5", "Step d4 e5", "step d4 z9", "step d4 f6", "hop", "stop now",
     "jump", "release", "transfer 1", "pass", "dismantle d4 d6", 3],
)  # fmt: skip
def test_malformed_actions(text):
    state = load(board(d4=0))
    with pytest.raises(ActionSyntaxError):
        state.apply_move(text)
    with pytest.raises(ActionSyntaxError):
        state.string_to_action(text)
    assert state.history() == []


def test_game_type_and_team_points():
    assert GAME.game_type.utility == "team" and GAME.info.multi_action_moves
    assert GAME.team_points(1, [5, 2, 5, 2]) == 2
    assert GAME.info.max_actions >= 200 * 4  # a capped game of one action per turn fits


def test_evaluate_is_shared_by_teammates_and_follows_material():
    ahead = load(board(c3=0, d3=0, e3=2), cages=[[1], [], [], []]).evaluate()
    assert ahead[0] == ahead[2] > 0 and ahead[1] == ahead[3] == -ahead[0]
    assert all(-1 <= v <= 1 for v in ahead)
    behind = load(board(c6=1, d6=3, e6=3)).evaluate()
    assert behind[0] < 0
    won = load({"a1": 0, "c1": 0, "c2": 1})
    won.apply_move("jump c1 c3")
    assert won.evaluate() == [1.0, -1.0, 1.0, -1.0]


def test_illegal_moves_after_the_end():
    state = load({"a1": 0, "c1": 0, "c2": 1})
    state.apply_move("jump c1 c3")
    assert state.legal_moves() == [] and state.current_player() == -4
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_move("step a1 b2")
