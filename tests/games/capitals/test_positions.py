"""The Capitals position JSON (spec section 8): round trips and every invalid case it lists."""

import copy
import json

import pytest

from tabletop_lab import PositionError, load_game

from .helpers import position

GAME = load_game("capitals")
HOME = {"a1": 0, "h1": 1, "h8": 2, "a8": 3}


def base(**fields):
    return position({**HOME, "d4": 0, "e5": 1}, **fields)


def changed(edit, **fields):
    data = base(**fields)
    edit(data)
    return data


def set_piece(square, unit):
    def edit(data):
        data["pieces"] = [p for p in data["pieces"] if p[0] != square] + [[square, *unit]]

    return edit


CASES = [
    # keys and types
    ("missing key", lambda d: d.pop("cycle"), {}, "missing key"),
    ("extra key", lambda d: d.update(turn=1), {}, "unknown key"),
    ("bool for int", lambda d: d.update(cycle=True), {}, "'cycle' must be an integer"),
    ("int for bool", lambda d: d.update(extra_turn=0), {}, "'extra_turn' must be true or false"),
    ("short list", lambda d: d.update(eliminated=[False] * 3), {}, "'eliminated' must be a list of 4"),
    ("cage entry type", lambda d: d.update(cages=[["1"], [], [], []]), {}, r"cages\[0\]\[0\] must be a player"),
    ("piece shape", lambda d: d["pieces"].append(["b2", 0, 0]), {}, r"must be \[square, owner, controller, top\]"),
    ("release shape", lambda d: d.update(releases=[[0]]), {}, r"releases\[0\]"),
    # pieces
    ("bad square", lambda d: d["pieces"].append(["i9", 0, 0, None]), {}, "'i9' is not a square"),
    ("square twice", lambda d: d["pieces"].append(["d4", 0, 0, None]), {}, "d4 is listed twice"),
    ("owner range", set_piece("b2", [4, 0, None]), {}, "owner must be a player 0..3"),
    ("controller range", set_piece("b2", [0, -1, None]), {}, "controller must be a player 0..3"),
    ("top range", set_piece("b2", [0, 0, 5]), {}, "top must be null or a player"),
    ("owner bool", set_piece("b2", [False, 0, None]), {}, "owner must be a player"),
    ("controller team", set_piece("b2", [0, 1, None]), {}, "not on owner 0's team"),
    ("eliminated controller", set_piece("b2", [2, 2, None]), {"eliminated": [False, False, True, False]},
     "controller 2 is eliminated while their ally is not"),
    ("ram top team", set_piece("b2", [0, 0, 1]), {}, "Ram's top 1 is not on controller 0's team"),
    # counts
    ("count", lambda d: d["removed"].__setitem__(0, d["removed"][0] + 1), {}, "player 0 owns 10 pieces"),
    ("negative removed", lambda d: d["removed"].__setitem__(0, -1), {}, r"removed\[0\] is negative"),
    # cages and capitals
    ("cage own team", lambda d: (d["cages"][0].append(2), d["removed"].__setitem__(2, d["removed"][2] - 1)), {},
     r"cages\[0\] holds a piece of player 0's own team"),
    # turn fields
    ("cycle 0", lambda d: d.update(cycle=0), {}, "cycle must be >= 1"),
    ("cycle beyond cap", lambda d: d.update(cycle=202), {}, "beyond max_cycles"),
    ("cap not at slot start", lambda d: d.update(cycle=201, slot=1, actor=1), {}, "slot start"),
    ("slot range", lambda d: d.update(slot=4), {}, "slot must be 0..3"),
    ("actor", lambda d: d.update(actor=2), {}, "actor 2 does not match slot 0"),
    ("extra turn actor", lambda d: d.update(actor=0, extra_turn=True), {}, "in an extra turn"),
    ("transfers", lambda d: d.update(transfers=2), {}, "exceeds transfers_per_turn"),
    ("sacrifice not hunger", lambda d: d.update(pending_sacrifice=True), {}, "not in a Hunger Epoch"),
    ("sacrifice altar filled", lambda d: d.update(pending_sacrifice=True), {"cycle": 4, "altar_filled": [True] * 4},
     "Altar is already filled"),
    ("sacrifice cage", lambda d: (d.update(pending_sacrifice=True), d["cages"][0].append(1),
                                   d["removed"].__setitem__(1, d["removed"][1] - 1)), {"cycle": 4}, "Cage is not empty"),
    ("releases fixed", None, {}, "prisoner_placement is 'fixed'"),
    ("releases and sacrifice", lambda d: d.update(pending_sacrifice=True, cycle=4), {}, "while pending_sacrifice"),
]  # fmt: skip


def release_base():
    """Player 1 eliminated (h1 taken by White), a White prisoner waiting for player 1's Territory."""
    pieces = {"a1": 0, "h8": 2, "a8": 3, "h1": 0, "d5": (1, 3), "b7": 3}
    return position(pieces, eliminated=[False, True, False, False], releases=[[0, 1]])


@pytest.mark.parametrize(("name", "edit", "fields", "problem"), CASES, ids=[c[0] for c in CASES])
def test_invalid_positions(name, edit, fields, problem):
    if name.startswith("release"):
        data = release_base()
        if edit is not None:
            edit(data)
        game = load_game("capitals", prisoner_placement="fixed") if name == "releases fixed" else GAME
        with pytest.raises(PositionError, match=problem):
            game.state_from_dict(data)
        return
    with pytest.raises(PositionError, match=problem):
        GAME.state_from_dict(changed(edit, **fields))


OUT_1 = {"a1": 0, "h8": 2, "a8": 3, "h1": 0, "d5": (1, 3), "b7": 3}  # player 1 eliminated, h1 taken
ELIMINATED_1 = [False, True, False, False]
DATA_CASES = [
    ("eliminated cage", position(OUT_1, eliminated=ELIMINATED_1, cages=[[], [0], [], []]), r"cages\[1\] must be empty"),
    ("enemy on capital", position({"a1": 0, "h1": 0, "h8": 2, "a8": 3, "e5": 1}), "Capital of player 1, who is not"),
    ("release territory not eliminated", position(OUT_1, eliminated=ELIMINATED_1, releases=[[0, 3]]),
     "territory player 3 must be an eliminated opponent"),
    ("release territory own team", position(OUT_1, eliminated=ELIMINATED_1, releases=[[0, 0]]),
     "territory player 0 must be an eliminated opponent"),
    ("release owner team", position(OUT_1, eliminated=ELIMINATED_1, releases=[[1, 1]]),
     "owner 1 is not on the actor 0's team"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "data", "problem"), DATA_CASES, ids=[c[0] for c in DATA_CASES])
def test_invalid_positions_built_whole(name, data, problem):
    with pytest.raises(PositionError, match=problem):
        GAME.state_from_dict(data)


def test_sacrifice_needs_an_eligible_unit():
    # Player 0's only unit is a Ram: nothing to sacrifice unless sacrifice_from_ram.
    data = position({"h1": 1, "h8": 2, "a8": 3, "d4": (0, 0, 2)}, cycle=4, pending_sacrifice=True)
    with pytest.raises(PositionError, match="controls no unit that may be sacrificed"):
        GAME.state_from_dict(data)
    assert load_game("capitals", sacrifice_from_ram=True).state_from_dict(data).pending_sacrifice


def test_first_release_territory_must_have_room():
    data = release_base()
    for square in ["f1", "g1", "f2", "g2", "h2", "f3", "g3", "h3"]:
        data["pieces"].append([square, 2 if square != "g1" else 0, 2 if square != "g1" else 0, None])
    data["removed"] = [9 - sum(1 for p in data["pieces"] if p[1] == o) - (o == 0) for o in range(4)]
    with pytest.raises(PositionError, match="Territory has no empty square"):
        GAME.state_from_dict(data)


def test_valid_release_position_round_trips_and_asks_for_releases():
    state = GAME.state_from_dict(release_base())
    assert GAME.state_from_json(state.to_json()) == state
    assert all(m.startswith("release ") for m in state.legal_moves())


def test_cap_position_is_terminal():
    data = base(cycle=201)
    state = GAME.state_from_dict(data)
    assert state.is_terminal() and state.result().reason == "cap"
    uncapped = load_game("capitals", max_cycles=None).state_from_dict(base(cycle=5000))
    assert not uncapped.is_terminal()


def test_won_position_is_terminal():
    state = GAME.state_from_dict(position({"a1": 0, "d4": 0}))
    assert state.result().winners == (0, 2) and state.result().reason == "no_pieces"


def test_any_key_order_any_piece_order_and_whitespace():
    data = base(cycle=6, cages=[[1], [], [], []])
    state = GAME.state_from_dict(data)
    shuffled = copy.deepcopy(dict(reversed(list(data.items()))))
    shuffled["pieces"].reverse()
    again = GAME.state_from_json(json.dumps(shuffled, indent=3))
    assert again == state and again.to_json() == state.to_json()
    assert list(json.loads(state.to_json())) == list(data)
    assert [p[0] for p in state.to_dict()["pieces"]] == ["a1", "h1", "d4", "e5", "a8", "h8"]


def test_skip_slot_of_an_eliminated_player_is_no_position():
    data = position({"a1": 0, "h8": 2, "a8": 3, "d4": (1, 3)}, slot=1, actor=1, eliminated=[False, True, False, False])
    with pytest.raises(PositionError, match="does not match slot 1"):
        GAME.state_from_dict(data)
    with pytest.raises(PositionError, match="slot is skipped"):
        load_game("capitals", eliminated_slot="skip").state_from_dict(data)
    assert GAME.state_from_dict(dict(data, actor=3)).current_player() == 3
