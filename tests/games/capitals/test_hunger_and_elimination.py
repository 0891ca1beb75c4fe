"""Capitals: the Hunger sacrifice (5.2), releases, eliminations and the turn order around them."""

import pytest

from tabletop_lab import IllegalActionError, PositionError

from .helpers import load, units

HOME = {"a1": 0, "h1": 1, "h8": 2, "a8": 3}


def board(**pieces):
    return {**HOME, **pieces}


def test_non_attacking_move_in_hunger_sacrifices_the_oldest_prisoner():
    state = load(board(d4=0), cycle=4, cages=[[1, 3], [], [], []])
    state.apply_move("step d4 d5")
    assert state.cages[0] == [3] and state.altars[0] == [1] and state.altar_filled[0]
    assert state.current_player() == 1


def test_no_sacrifice_outside_hunger_or_after_an_attack_or_when_filled():
    calm = load(board(d4=0), cycle=3, cages=[[1], [], [], []])
    calm.apply_move("step d4 d5")
    assert calm.altars[0] == []
    attack = load(board(c1=0, c2=1), cycle=4, cages=[[3], [], [], []])
    attack.apply_move("jump c1 c3")
    assert attack.altars[0] == [1] and attack.cages[0] == [3]  # the capture filled the Altar
    filled = load(board(d4=0), cycle=4, cages=[[1], [], [], []], altar_filled=[True, False, False, False])
    filled.apply_move("step d4 d5")
    assert filled.cages[0] == [1] and filled.altars[0] == []


def test_empty_cage_asks_for_a_sacrifice_of_an_own_single_piece():
    state = load(board(d4=0, e4=(0, 0, 2)), cycle=4)
    state.apply_move("step d4 d5")
    assert state.pending_sacrifice and state.current_player() == 0 and not state.mid_turn()
    assert state.legal_moves() == ["sacrifice a1", "sacrifice d5"]  # not the Ram on e4
    for move, rule in [("sacrifice e4", "sacrifice_from_ram"), ("sacrifice h1", "not yours"),
                       ("sacrifice c3", "no piece"), ("step d5 d6", "only 'sacrifice")]:  # fmt: skip
        with pytest.raises(IllegalActionError, match=rule):
            state.apply_move(move)
    again = state.game.state_from_json(state.to_json())
    assert again == state
    state.apply_move("sacrifice d5")
    assert state.altars[0] == [0] and "d5" not in units(state) and not state.pending_sacrifice
    assert state.current_player() == 1 and state.altar_filled[0]


def test_sacrifice_from_ram_takes_the_top():
    state = load(board(d4=0, e4=(0, 0, 2)), {"sacrifice_from_ram": True}, cycle=4)
    state.apply_move("step d4 d5")
    assert "sacrifice e4" in state.legal_moves()
    state.apply_move("sacrifice e4")
    assert state.altars[0] == [2] and units(state)["e4"] == (0, 0, None)


def test_nothing_to_sacrifice_skips_it():
    state = load({"h1": 1, "h8": 2, "a8": 3, "e4": (0, 0, 2)}, cycle=4)
    state.apply_move("step e4 e5")
    assert not state.pending_sacrifice and state.current_player() == 1


def test_sacrificing_the_last_unit_loses():
    state = load({"h1": 1, "a8": 3, "d4": 0}, cycle=4)
    state.apply_move("step d4 d5")
    state.apply_move("sacrifice d5")
    assert state.result().winners == (1, 3) and state.result().reason == "no_pieces"


def test_skip_and_pass_turn_count_as_non_attacking():
    boxed = {"a1": 0, "a2": 1, "b1": 1, "b2": 3, "a3": 1, "c1": 3, "c3": 1, "h8": 2, "a8": 3, "h1": 1}
    state = load(boxed, cycle=4, cages=[[1], [], [], []])
    assert state.legal_moves() == ["skip"]
    state.apply_move("skip")
    assert state.altars[0] == [1]


def test_pass_turn_removed_in_hunger_then_a_chosen_sacrifice_is_one_move():
    state = load(board(d4=0, d5=2), {"pass_turn_cost": "removed"}, cycle=4, cages=[[1], [], [], []])
    moves = state.legal_moves()
    assert "pass-turn sacrifice d4" in moves and "pass-turn" not in moves
    state.apply_action(state.string_to_action("pass-turn"))
    assert state.mid_turn() and state.pending_sacrifice
    with pytest.raises(PositionError, match="turn in progress"):
        state.to_dict()
    assert state.move_in_progress() == ["pass-turn"]
    state.apply_action(state.string_to_action("sacrifice d4"))
    assert (state.current_player(), state.extra_turn) == (2, True) and state.altars[0] == [0]
    whole = load(board(d4=0, d5=2), {"pass_turn_cost": "removed"}, cycle=4, cages=[[1], [], [], []])
    whole.apply_move("pass-turn sacrifice d4")
    assert whole == state
    with pytest.raises(IllegalActionError, match="sacrifice must be named"):
        load(board(d4=0, d5=2), {"pass_turn_cost": "removed"}, cycle=4, cages=[[1], [], [], []]).apply_move("pass-turn")


@pytest.mark.parametrize(("is_attack", "sacrificed"), [(True, False), (False, True)])
def test_elimination_is_attack(is_attack, sacrificed):
    # Hunger: White steps onto h1 (no capture). Player 1 had nothing caged: no releases.
    pieces = {"a1": 0, "h8": 2, "a8": 3, "g1": 0, "d5": 1, "b7": 3}
    state = load(pieces, {"elimination_is_attack": is_attack}, cycle=4, cages=[[3], [], [], []])
    state.apply_move("step g1 h1")
    assert state.eliminated[1]
    assert (state.altars[0] == [3]) is sacrificed


def test_sacrifice_after_releases_when_elimination_is_no_attack():
    pieces = {"a1": 0, "h8": 2, "a8": 3, "g1": 0, "d5": 1, "b7": 3}
    state = load(pieces, {"elimination_is_attack": False}, cycle=4, cages=[[], [0], [], []])
    state.apply_move("step g1 h1")
    assert state.releases == [(0, 1)] and not state.pending_sacrifice
    state.apply_move("release g2")
    assert state.pending_sacrifice and state.current_player() == 0


def test_won_game_drops_the_prisoners():
    # Player 3 is out already; taking h1 eliminates player 1 too: White wins, 1's prisoners leave.
    pieces = {"a1": 0, "h8": 2, "g1": 0, "d5": (1, 1), "b7": (3, 1)}
    state = load(pieces, cages=[[], [0, 2], [], []], eliminated=[False, False, False, True])
    removed = list(state.removed)
    state.apply_move("step g1 h1")
    assert state.result().reason == "capitals" and state.releases == []
    assert state.removed[0] == removed[0] + 1 and state.removed[2] == removed[2] + 1
    # the ally is eliminated too, so player 1's units outside the Territory stay as they are
    assert units(state)["d5"] == (1, 1, None) and units(state)["b7"] == (3, 1, None)


def test_releases_oldest_first_and_controlled_by_owner_or_ally():
    # Player 2 is out; a released piece of player 2 goes to player 0's control.
    pieces = {"a1": 0, "a8": 3, "g1": 0, "d5": 1, "b7": 3, "c4": (2, 0)}
    state = load(pieces, cages=[[], [2, 0], [], []], eliminated=[False, False, True, False])
    state.apply_move("step g1 h1")
    assert state.releases == [(2, 1), (0, 1)]
    state.apply_move("release f1")
    state.apply_move("release f2")
    here = units(state)
    assert here["f1"] == (2, 0, None) and here["f2"] == (0, 0, None)


# hunger_first = "alternate" (section 2, Decision 27): Black opens the Epochs of cycles 8, 16, ...

ALTERNATE = {"hunger_first": "alternate"}
QUIET = board(d4=0, e4=1, d5=2, e5=3)  # each player has a piece that can step without capturing


@pytest.mark.parametrize("cycle, slot, hunger", [(4, 0, True), (4, 3, True), (5, 0, False), (8, 0, False),
                                                 (8, 1, True), (8, 3, True), (9, 0, True), (9, 1, False),
                                                 (1, 0, False), (16, 0, False), (17, 0, True), (12, 0, True)])  # fmt: skip
def test_alternate_epochs_of_cycles_8_16_run_from_slot_1_to_the_next_slot_0(cycle, slot, hunger):
    state = load(QUIET, ALTERNATE, cycle=cycle, slot=slot, actor=slot)
    assert state.is_hunger_cycle == hunger
    assert load(QUIET, cycle=cycle, slot=slot, actor=slot).is_hunger_cycle == (cycle % 4 == 0)


def test_alternate_black_pays_first_in_cycle_8_and_white_last_in_cycle_9():
    state = load(QUIET, ALTERNATE, cycle=8, cages=[[1], [0], [3], [2]])
    for move, payer in [("step d4 c4", None), ("step e4 f4", 1), ("step d5 d6", 2), ("step e5 f5", 3)]:
        state.apply_move(move)
        paid = [p for p in range(4) if state.altars[p]]
        assert paid == ([] if payer is None else list(range(1, payer + 1)))
    assert (state.cycle, state.slot) == (9, 0)
    assert state.altar_filled == [False, True, True, True]  # the Epoch's marks last to its end
    state.apply_move("step c4 c5")
    assert state.altars == [[1], [0], [3], [2]] and state.altar_filled == [False] * 4  # wiped after slot 0
    state.apply_move("step f4 g4")
    assert state.cages[1] == [] and state.altars[1] == [0]  # cycle 9's slot 1 is no longer Hunger


def test_alternate_leaves_the_epoch_of_cycle_4_to_white():
    state = load(QUIET, ALTERNATE, cycle=4, cages=[[1], [0], [3], [2]])
    state.apply_move("step d4 c4")
    assert state.altars[0] == [1] and state.altar_filled[0]


def test_alternate_extra_turn_in_the_epochs_last_slot_owes_no_second_sacrifice():
    pieces = board(d4=0, e5=2, g5=1)  # d4 and e5 touch: Synergy
    state = load(pieces, ALTERNATE, cycle=9, cages=[[1], [], [], []], altar_filled=[False, True, True, True],
                 altars=[[], [0], [3], [0]])  # fmt: skip
    state.apply_move("pass-turn")  # its price fills player 0's Altar
    assert state.current_player() == 2 and state.extra_turn
    state.apply_move("step e5 e6")
    assert state.altars[2] == [3] and not state.pending_sacrifice  # player 2 paid in cycle 8 already
    assert (state.slot, state.altar_filled) == (1, [False] * 4)


def test_hunger_first_refuses_other_values():
    from tabletop_lab import RulesError, load_game

    with pytest.raises(RulesError, match="hunger_first"):
        load_game("capitals", hunger_first="black")


def test_alternate_positions_owe_a_sacrifice_only_inside_an_epoch():
    owing = {"pending_sacrifice": True, "altar_filled": [False, True, True, True]}
    assert load(board(d5=0), ALTERNATE, cycle=9, **owing).legal_moves() == ["sacrifice a1", "sacrifice d5"]
    with pytest.raises(PositionError, match="slot 0 of cycle 8 is not in a Hunger Epoch"):
        load(board(d5=0), ALTERNATE, cycle=8, **owing)


def test_alternate_a_mark_from_before_a_black_opened_epoch_does_not_excuse_its_sacrifice():
    pieces = board(d4=0, e5=2, g5=1, b6=3)  # d4 and e5 touch: Synergy
    state = load(pieces, ALTERNATE, cycle=8, cages=[[1, 3], [0], [3], [2]])
    state.apply_move("pass-turn")  # slot 0 of cycle 8, outside the Epoch: its price fills player 0's Altar
    assert state.altar_filled[0] and not state.is_hunger_cycle
    state.apply_move("step e5 e6")  # the ally's extra turn ends slot 0; the Epoch opens, the mark is wiped
    assert (state.slot, state.altar_filled) == (1, [False] * 4)
    for move in ["step g5 g6", "step e6 e7", "step b6 b7"]:
        state.apply_move(move)
    assert (state.cycle, state.slot, state.is_hunger_cycle) == (9, 0, True)
    state.apply_move("step d4 d3")  # the Epoch's last slot: player 0 owes a sacrifice
    assert state.altars[0] == [1, 3] and state.cages[0] == []
