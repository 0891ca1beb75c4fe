"""Sinoda on the Board widget: select a piece, then a destination or a +/- button."""

import pytest

from tabletop_lab import load_game
from tabletop_lab.games.sinoda.board import Adapter
from tabletop_lab.widgets import Board


def test_every_action_takes_two_clicks_and_the_sequences_are_prefix_free():
    state = load_game("sinoda", players=4, teams="pairs").new_initial_state()
    adapter = Adapter(state.game)
    cells = [adapter.action_cells(state, a) for a in state.legal_actions()]
    assert all(len(c) == 2 for c in cells) and len(set(cells)) == len(cells)
    assert ("U4,0", "+") in cells and ("U3,0", "D2,0") in cells


def test_clicking_a_piece_then_a_destination_moves_it():
    board = Board("sinoda")
    board.click_cell("U1,0")
    assert board.state.history() == []
    assert board._targets() == frozenset({"D0,0", "+"})  # a 1 can only go up
    board.click_cell("D0,0")
    assert board.state.history_strings() == ["move U1,0 D0,0"]
    assert board.status.value.startswith("Red")


def test_plus_and_minus_buttons_change_the_value():
    board = Board("sinoda")
    board.click_cell("U2,0")
    board.handle_click(*board.adapter.cell_xy("+"))
    assert board.state.history_strings() == ["change U2,0 +"]
    board.click_cell("U-2,0")
    board.click_cell("+")
    board.click_cell("U2,0")
    assert board._targets() >= {"+", "-"}
    board.click_cell("-")
    assert board.state.history_strings()[-1] == "change U2,0 -"


def test_clicks_hit_the_triangle_under_the_pointer():
    adapter = Adapter(load_game("sinoda", players=6))
    for cell in ("U0,0", "D0,0", "D-5,4", "U4,-1"):
        assert adapter.cell_at(*adapter.cell_xy(cell)) == cell
    assert adapter.cell_at(20.0, 20.0) is None
    with pytest.raises(ValueError, match="select a piece first"):
        adapter.cell_xy("+")


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("U0,0", "U0,0 is empty; Blue must change or move one of their own pieces (rule 3.1)"),
        ("U-2,0", "U-2,0 holds Red's piece; Blue changes or moves only their own (rule 3.1)"),
    ],
)
def test_clicks_on_no_own_piece_are_refused_with_the_rule(cell, reason):
    board = Board("sinoda")
    board.click_cell(cell)
    assert reason in board.errors.text and board.state.history() == []


def test_refusal_of_a_second_click_names_the_rule():
    state = load_game("sinoda").new_initial_state()
    adapter = Adapter(state.game)
    assert "wrong length" in adapter.refusal(state, ("U1,0", "U0,0"))
    assert "a 1 can only go up" in adapter.refusal(state, ("U1,0", "-"))


def test_hover_preview_names_a_capture():
    state = load_game("sinoda").state_from_dict(
        {
            "game": "sinoda",
            "players": 2,
            "to_move": 0,
            "pieces": [["D0,0", 0, 1], ["U0,0", 1, 3]]
            + [[c, 0, 1] for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2", "U1,1")]
            + [[c, 1, 1] for c in ("U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")],
            "captured": [[], []],
        }
    )
    _, text = Adapter(state.game).preview(state, state.string_to_action("move D0,0 U0,0"))
    assert text == "move D0,0 U0,0: captures Red's 3"


def test_win_by_sinoda_is_announced_with_its_arithmetic():
    from tests.games.sinoda.helpers import SINODA_EXAMPLE, load

    state = load(SINODA_EXAMPLE["pieces"], SINODA_EXAMPLE["captured"])
    adapter = Adapter(state.game)
    assert adapter.result_note(state) == ""
    state.apply_move("change U1,0 -")
    assert adapter.result_note(state).startswith("Blue wins by Sinoda: 9 > 5 + (1+1+1) = 8")


def test_refusals_read_in_the_players_words_with_their_rule():
    from tabletop_lab import load_game
    from tests.games.sinoda.helpers import SINODA_EXAMPLE, load

    state = load(SINODA_EXAMPLE["pieces"], SINODA_EXAMPLE["captured"])  # Blue's 1 on U2,0, Red's on U-2,0
    adapter = Adapter(load_game("sinoda"))
    other = adapter.explain(adapter.refusal(state, ("U-2,0",)), state)
    assert other.words == "That piece is Red's: you change or move only your own." and other.rule == "3.1"
    one = adapter.explain(adapter.refusal(state, ("U2,0", "-")), state)
    assert one.words == "A 1 can only go up: values stay within 1–4."
