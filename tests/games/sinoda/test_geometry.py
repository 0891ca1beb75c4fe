"""Sinoda boards (spec section 1 and the board-data object of section 5).

The standard boards are checked against the spec's definitions written out independently
here: triangles with all three vertices within the radius, adjacency as shared edges computed
from the vertices (not from the spec's neighbour formulas the engine uses), and the seat
flowers of the table in 1.2.
"""

import copy
import itertools
import pickle

import pytest

from tabletop_lab import IllegalActionError, RulesError, load_game
from tabletop_lab.games.sinoda.geometry import board_data, flower, standard_board, triangle_vertices


def hex_distance(q, r):
    return max(abs(q), abs(r), abs(q + r))


def triangles(radius):
    """Every triangle of the radius-N hexagon as (name, frozenset of vertices)."""
    found = {}
    for q, r in itertools.product(range(-radius - 1, radius + 1), repeat=2):
        for kind in "UD":
            corners = triangle_vertices(kind, q, r)
            if all(hex_distance(*v) <= radius for v in corners):
                found[f"{kind}{q},{r}"] = frozenset(corners)
    return found


@pytest.mark.parametrize(("players", "radius"), [(2, 3), (3, 5), (4, 5), (6, 5)])
def test_standard_boards_are_hexagons_of_triangles(players, radius):
    data = board_data(players)
    expected = triangles(radius)
    assert len(data["cells"]) == 6 * radius * radius == len(expected)
    assert set(data["cells"]) == set(expected)


@pytest.mark.parametrize("radius", [3, 5])
def test_adjacency_is_sharing_an_edge(radius):
    cells = triangles(radius)
    data = board_data(2 if radius == 3 else 6)
    for name, corners in cells.items():
        sharing_edge = {other for other, theirs in cells.items() if len(corners & theirs) == 2}
        touching_corner = {other for other, theirs in cells.items() if len(corners & theirs) == 1}
        assert set(data["adjacency"][name]) == sharing_edge
        assert not touching_corner & set(data["adjacency"][name])  # corners do not count (Decision 7)
        assert 2 <= len(sharing_edge) <= 3


def test_canonical_order_is_r_then_q_then_up_before_down():
    names = board_data(2)["cells"]

    def key(name):
        kind, rest = name[0], name[1:]
        q, r = map(int, rest.split(","))
        return (r, q, kind != "U")

    assert names == sorted(names, key=key)
    assert names[:3] == ["D-1,-3", "U0,-3", "D0,-3"]


def test_flower_is_the_six_triangles_around_a_vertex():
    cells = triangles(5)
    for centre in [(2, 0), (-4, 4), (0, -4)]:
        around = {name for name, corners in cells.items() if centre in corners}
        assert set(flower(*centre)) == around and len(around) == 6
    assert flower(2, 0) == ("U2,0", "U1,0", "U2,-1", "D1,0", "D2,-1", "D1,-1")


@pytest.mark.parametrize(
    ("options", "centres"),
    [
        ({}, [(2, 0), (-2, 0)]),
        ({"players": 3}, [(4, 0), (0, -4), (-4, 4)]),
        ({"players": 4}, [(4, 0), (2, -4), (-4, 0), (-2, 4)]),
        ({"players": 4, "four_player_start": "side"}, [(2, -4), (-4, 0), (-2, 4), (4, 0)]),
        ({"players": 6}, [(4, 0), (4, -4), (0, -4), (-4, 0), (-4, 4), (0, 4)]),
        ({"players": 6, "teams": "triples"}, [(4, 0), (4, -4), (0, -4), (-4, 0), (-4, 4), (0, 4)]),
    ],
)
def test_seat_flowers(options, centres):
    state = load_game("sinoda", **options).new_initial_state()
    for player, centre in enumerate(centres):
        assert set(state.pieces_of(player)) == set(flower(*centre))
    assert all(v == 1 for _, _, v in state.to_dict()["pieces"])  # every piece starts on 1


def test_two_player_start_flowers_are_the_specs_lists():
    state = load_game("sinoda").new_initial_state()
    assert set(state.pieces_of(0)) == {"U2,0", "U1,0", "U2,-1", "D1,0", "D2,-1", "D1,-1"}
    assert set(state.pieces_of(1)) == {"U-2,0", "U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1"}


def test_four_player_start_is_ignored_off_four_players():
    for players in (2, 3, 6):
        corner = load_game("sinoda", players=players).new_initial_state()
        side = load_game("sinoda", players=players, four_player_start="side").new_initial_state()
        assert corner.to_json() == side.to_json()


def test_paths_reach_exactly_the_simple_walks():
    board = standard_board(6)
    centre = board.index["U0,0"]
    # On the honeycomb of triangles: 3 cells at 1 step, 6 at 2, and at 3 steps 9 cells (three of them
    # reached by two paths round a vertex, so two minimal masks each).
    assert len(board.destinations(centre, 1)) == 3
    assert len(board.destinations(centre, 2)) == 6
    three = board.routes[centre][3]
    assert len(three) == 9 and sorted(len(m) for m in three.values()) == [1] * 6 + [2] * 3
    assert centre not in board.destinations(centre, 2)  # no backtracking onto the start


# --- custom boards ------------------------------------------------------------------------

RING = {
    "cells": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"],
    "adjacency": {
        "a": ["b", "d"],
        "b": ["a", "c"],
        "c": ["b", "d"],
        "d": ["c", "a", "e"],
        "e": ["d", "f"],
        "f": ["e", "g"],
        "g": ["f", "h"],
        "h": ["g", "i"],
        "i": ["h", "j"],
        "j": ["i", "k"],
        "k": ["j", "l"],
        "l": ["k", "m"],
        "m": ["l", "n"],
        "n": ["m"],
    },
    "seats": [["a", "b", "c", "e", "f", "g"], ["i", "j", "k", "l", "m", "n"]],
}


def test_a_custom_board_replaces_the_standard_one():
    game = load_game("sinoda", board=RING)
    state = game.new_initial_state()
    assert game.board.names == tuple(RING["cells"])
    assert state.pieces_of(0) == ["a", "b", "c", "e", "f", "g"]
    assert state.to_dict()["pieces"][0] == ["a", 0, 1]


def test_custom_board_paths_never_revisit_the_start():
    # a-b-c-d-a is a square with a tail d-e-f-...: round the square, a 4 on a would come back to a.
    game = load_game("sinoda", board=RING)
    pieces = {"a": (0, 4), "g": (0, 1), "h": (0, 1), "i": (0, 1), "j": (0, 1), "k": (0, 1)}
    pieces |= {c: (1, 1) for c in ("l", "m", "n")}
    data = {"game": "sinoda", "players": 2, "to_move": 0, "pieces": [[c, p, v] for c, (p, v) in pieces.items()]}
    data["captured"] = [[[1, 1], [1, 1], [1, 1]], []]
    state = game.state_from_dict(data)
    # a-b-c-d-e is a simple path; a-d-e-f-g ends on Blue's own piece; a-b-c-d-a revisits the start.
    assert [m for m in state.legal_moves() if m.startswith("move a ")] == ["move a e"]
    with pytest.raises(IllegalActionError, match="never revisits a cell, the start included"):
        state.apply_move("move a a")
    state.apply_move("change a -")
    state.apply_move("change l +")
    # a 3 goes a-b-c-d, a-d-c-b or a-d-e-f
    assert [m for m in state.legal_moves() if m.startswith("move a ")] == ["move a b", "move a d", "move a f"]


def test_four_player_start_is_ignored_for_custom_boards():
    assert (
        load_game("sinoda", board=RING).new_initial_state().to_json()
        == load_game("sinoda", board=RING, four_player_start="side").new_initial_state().to_json()
    )


def test_the_config_keeps_its_own_copy_of_the_board():
    data = copy.deepcopy(RING)
    game = load_game("sinoda", board=data)
    data["cells"].append("z")
    assert "z" not in game.options["board"]["cells"] and game.board.size == 14
    assert pickle.loads(pickle.dumps(game)) == game
    state = game.new_initial_state()
    assert pickle.loads(pickle.dumps(state)) == state


def test_standard_board_data_loads_as_a_custom_board():
    custom = load_game("sinoda", players=4, board=board_data(4, "side")).new_initial_state()
    standard = load_game("sinoda", players=4, four_player_start="side").new_initial_state()
    assert custom.to_json() == standard.to_json()
    assert custom.legal_moves() == standard.legal_moves()


def changed(**parts):
    data = copy.deepcopy(RING)
    for key, value in parts.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def adjacency_with(**entries):
    return {**copy.deepcopy(RING["adjacency"]), **entries}


@pytest.mark.parametrize(
    ("board", "problem"),
    [
        ("small", "option board"),
        (["a"], "option board"),
        (changed(seats=None), r"missing key\(s\) \['seats'\]"),
        ({**RING, "size": 3}, r"unknown key\(s\) \['size'\]"),
        (changed(cells=[]), "non-empty list"),
        (changed(cells="abc"), "non-empty list"),
        (changed(cells=[*RING["cells"][:-1], "n n"]), "without whitespace"),
        (changed(cells=[*RING["cells"], ""]), "without whitespace"),
        (changed(cells=[*RING["cells"], 7]), "without whitespace"),
        (changed(cells=[*RING["cells"], "a"]), "unique; repeated: 'a'"),
        (changed(adjacency=[]), "must map every cell"),
        (changed(adjacency={k: v for k, v in RING["adjacency"].items() if k != "n"}), "without an entry: 'n'"),
        (changed(adjacency=adjacency_with(z=[])), "unknown: 'z'"),
        (changed(adjacency=adjacency_with(n=["m", "zz"])), "names unknown cell 'zz'"),
        (changed(adjacency=adjacency_with(n=["m", "n"])), "self-loops"),
        (changed(adjacency=adjacency_with(n=["m", "a"])), "not symmetric"),
        (changed(adjacency=adjacency_with(n="m")), "must be a list"),
        (changed(adjacency=adjacency_with(n=["m", "m"])), "neighbour twice"),
        (changed(seats=[RING["seats"][0]]), "one list of start cells per player \\(2\\)"),
        (changed(seats=[RING["seats"][0], ["i", "j", "k"]]), "must list 6 start cells"),
        (changed(seats=[RING["seats"][0], ["i", "j", "k", "l", "m", "zz"]]), "seats\\[1\\] names unknown cell"),
        (changed(seats=[RING["seats"][0], ["i", "j", "k", "l", "m", "m"]]), "seats\\[1\\] lists a cell twice"),
        (changed(seats=[RING["seats"][0], ["a", "j", "k", "l", "m", "n"]]), "seats overlap: 'a'"),
    ],
)
def test_invalid_board_data_raises_rules_error(board, problem):
    with pytest.raises(RulesError, match=problem):
        load_game("sinoda", board=board)


def test_an_adjacency_entry_that_is_not_a_list_is_named_whatever_the_order_of_the_entries():
    data = board_data(2)
    data["adjacency"]["U0,-3"] = 5  # read before its own turn, as a neighbour of D-1,-3
    with pytest.raises(RulesError, match=r"adjacency\['U0,-3'\] must be a list of cell names, got 5"):
        load_game("sinoda", board=data)


def long_names(data, length=1000):
    """``data`` with every cell renamed to a name of ``length`` characters."""
    new = {name: f"{name}-{'x' * length}" for name in data["cells"]}
    return {
        "cells": [new[c] for c in data["cells"]],
        "adjacency": {new[c]: [new[n] for n in around] for c, around in data["adjacency"].items()},
        "seats": [[new[c] for c in seat] for seat in data["seats"]],
    }


def broken(data, how):
    data = copy.deepcopy(data)
    cells, adjacency, seats = data["cells"], data["adjacency"], data["seats"]
    if how == "repeated":
        cells += cells[:5]
    elif how == "absent":
        adjacency.clear()
    elif how == "unknown neighbour":
        adjacency[cells[0]].append(cells[0] + "?")
    elif how == "self-loop":
        adjacency[cells[0]].append(cells[0])
    elif how == "not symmetric":
        adjacency[cells[0]].append(cells[-1])
    elif how == "twice":
        adjacency[cells[0]].append(adjacency[cells[0]][0])
    elif how == "unknown start":
        seats[1][0] += "?"
    elif how == "overlap":
        seats[1] = list(seats[0])
    elif how == "whitespace":
        cells[0] += " "
    return data


PROBLEMS = ["repeated", "absent", "unknown neighbour", "self-loop", "not symmetric", "twice", "unknown start",
            "overlap", "whitespace"]  # fmt: skip


@pytest.mark.parametrize("how", PROBLEMS)
def test_messages_about_long_cell_names_quote_excerpts(how):
    with pytest.raises(RulesError) as error:
        load_game("sinoda", board=broken(long_names(board_data(2)), how))
    message = str(error.value)
    assert message.startswith("sinoda: invalid board data") and len(message) < 300, (len(message), message)


def test_seats_must_match_the_player_count():
    with pytest.raises(RulesError, match="per player \\(3\\)"):
        load_game("sinoda", players=3, board=RING)


def test_docstring_examples():
    import doctest

    from tabletop_lab.games.sinoda import geometry

    result = doctest.testmod(geometry)
    assert result.attempted > 0 and result.failed == 0
