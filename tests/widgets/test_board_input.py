"""Board input beyond one click per move, on the toy games (adapters in ``toy_boards``): the
shared polygon hit test, moves of several actions (undo of one action, canonical move strings,
the snapshot in the position box), buttons for actions without a cell, and a choice wherever
clicks complete several actions. Also: game adapters never import ipywidgets."""

import json
import pkgutil
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tabletop_lab.games
from tabletop_lab import load_game
from tabletop_lab.board_adapter import BoardAdapter, load_adapter
from tabletop_lab.core import Game, GameInfo
from tabletop_lab.errors import RulesError
from tabletop_lab.widgets import Board
from tests.toy_hidden import HiddenCardGame
from tests.widgets.toy_boards import HiddenCardBoard, NimBoard, TrapBoard, diamond, triangle

GAME_FOLDERS = [m.name for m in pkgutil.iter_modules(tabletop_lab.games.__path__) if m.ispkg]


# --- the adapter module stays below the widgets ---------------------------------------------


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_a_game_folder_and_its_board_adapter_import_no_widgets(game):
    code = (
        "import importlib, sys\n"
        f"importlib.import_module('tabletop_lab.games.{game}')\n"
        f"try:\n    importlib.import_module('tabletop_lab.games.{game}.board')\n"
        f"except ModuleNotFoundError as exc:\n    assert exc.name == 'tabletop_lab.games.{game}.board', exc\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'ipympl', 'IPython'))\n"
        "assert not leaked, leaked\n"
        "assert 'tabletop_lab.widgets' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_adapter_base_class_is_re_exported_by_the_widgets():
    import tabletop_lab.widgets as widgets

    assert widgets.BoardAdapter is BoardAdapter
    assert type(load_adapter(load_game("cross_endodoi"))).__mro__[1] is BoardAdapter


class NoBoardGame(Game):
    info = GameInfo(name="test_no_board", title="No board", summary="A game nobody drew.", players=(2,))


def test_a_game_without_an_adapter_is_refused_clearly():
    with pytest.raises(RulesError, match="'test_no_board' has no board adapter"):
        load_adapter(NoBoardGame())


# --- polygons: the shared hit test ----------------------------------------------------------


class Tiles(BoardAdapter):
    """Unit squares of a 3x2 grid, each cut along a diagonal into two triangles, and diamonds
    centred on the grid points of another area."""

    polygons = {
        **{(i, j, "low"): [(i, j), (i + 1, j), (i, j + 1)] for i in range(3) for j in range(2)},
        **{(i, j, "high"): [(i + 1, j), (i + 1, j + 1), (i, j + 1)] for i in range(3) for j in range(2)},
        **{("diamond", k): diamond(10 + 2 * k, 1, 1) for k in range(3)},
    }


TILES = Tiles(load_game("cross_endodoi"))


def test_the_centroid_of_each_cell_is_that_cell():
    assert TILES.cell_xy((0, 0, "low")) == pytest.approx((1 / 3, 1 / 3))
    assert TILES.cell_xy(("diamond", 1)) == pytest.approx((12, 1))
    for cell in TILES.polygons:
        assert TILES.cell_at(*TILES.cell_xy(cell)) == cell


def holds(cell, x, y, slack=1e-9) -> bool:
    """Whether the closed triangle ``cell`` of the grid holds ``(x, y)`` (an independent test)."""
    i, j, kind = cell
    u, v = x - i, y - j
    if kind == "low":
        return u >= -slack and v >= -slack and u + v <= 1 + slack
    return u <= 1 + slack and v <= 1 + slack and u + v >= 1 - slack


@given(st.floats(0.001, 2.999), st.floats(0.001, 1.999))
def test_every_point_of_the_triangle_grid_is_in_the_triangle_that_holds_it(x, y):
    cell = TILES.cell_at(x, y)
    assert cell is not None and holds(cell, x, y)  # on an edge, any of the triangles sharing it
    i, j = int(x), int(y)
    if min(abs(x - round(x)), abs(y - round(y)), abs((x - i) + (y - j) - 1)) > 1e-9:  # inside one only
        assert cell == (i, j, "low" if (x - i) + (y - j) < 1 else "high")


@given(st.floats(8.5, 15.5), st.floats(-0.5, 2.5))
def test_a_point_is_in_a_diamond_exactly_when_its_taxicab_distance_to_the_centre_is_at_most_1(x, y):
    inside = [k for k in range(3) if abs(x - (10 + 2 * k)) + abs(y - 1) < 1 - 1e-9]
    outside = all(abs(x - (10 + 2 * k)) + abs(y - 1) > 1 + 1e-9 for k in range(3))
    cell = TILES.cell_at(x, y)
    if inside:
        assert cell == ("diamond", inside[0])
    elif outside:
        assert cell is None


def test_outside_every_polygon_there_is_no_cell():
    assert TILES.cell_at(5, 5) is None and TILES.cell_at(-0.1, 0.5) is None
    with pytest.raises(KeyError, match="no cell"):
        TILES.cell_xy("nowhere")


def test_the_toy_boards_are_hit_where_the_board_draws_their_cells():
    board = Board("test_draw_trap")
    for cell in TrapBoard.polygons:
        x, y = board.adapter.cell_xy(cell)
        assert board.adapter.cell_at(x, y) == cell
    board.handle_click(*triangle(1, 1)[2])  # the triangle's apex, on its edge
    assert board.state.history_strings() == ["fight"]


# --- moves of several actions ---------------------------------------------------------------


def test_a_move_of_two_actions_is_listed_by_its_canonical_string():
    board = Board("test_nim", options={"actions_per_turn": 2, "pile": 10})
    board.click_cell(1)
    assert board.state.mid_turn() and board.status.value == "Player 0 to move: the move goes on after 1"
    assert [label for label, _ in board.moves.options] == ["start"]
    board.click_cell(2)
    assert not board.state.mid_turn() and board.state.current_player() == 1
    assert [label for label, _ in board.moves.options] == ["start", "1. Player 0: 1 2"]
    assert board.errors.text == ""


def test_mid_turn_the_position_box_shows_the_snapshot_read_only():
    board = Board("test_nim", options={"actions_per_turn": 2})
    board.click_cell(2)
    snapshot = board.state.snapshot()
    assert json.loads(board.position_text.value) == snapshot and snapshot["taken"] == 1
    assert board.position_text.disabled and board.load_button.disabled
    board.click_cell(1)
    assert board.position_text.value == board.state.to_json() and not board.position_text.disabled
    assert board.errors.text == ""


def test_undo_takes_back_one_action_of_a_move_in_progress_then_whole_moves():
    board = Board("test_nim", options={"actions_per_turn": 2, "pile": 12})
    board.play("1 1")
    after_first_move = board.state
    board.click_cell(2)
    board.click_cell(2)  # Player 1's move "2 2"
    board.click_cell(1)  # Player 0 starts a move
    assert board.state.move_in_progress() == ["1"]
    board.undo()
    assert board.state == board.line[2] and not board.state.mid_turn()
    assert not board.undo_button.disabled
    board.undo()
    assert board.state == after_first_move and board.line[1] == after_first_move
    board.redo()
    assert board.state.history() == [1, 1, 2, 2]


def test_play_takes_a_whole_move_or_one_action_of_a_move_in_progress():
    board = Board("test_nim", options={"actions_per_turn": 2})
    board.play("2 1")
    assert board.state.history() == [2, 1] and board.moves.options[-1][0] == "1. Player 0: 2 1"
    board.play("1")
    assert board.state.move_in_progress() == ["1"]
    board.play("2")
    assert board.state.history() == [2, 1, 1, 2] and not board.state.mid_turn()


def test_agents_play_whole_moves_of_several_actions():
    board = Board("test_nim", options={"actions_per_turn": 2, "pile": 20}, seats=["human", "random"], seed=1)
    board.play("1 1")
    assert board.state.current_player() == 0 and not board.state.mid_turn()
    assert len(board.line) == 3 and board.moves.options[-1][0].startswith("2. Player 1: ")


# --- actions without a cell, and clicks that complete several actions -----------------------


def test_actions_without_a_cell_are_buttons_that_play_them():
    board = Board("test_draw_trap")
    assert [b.description for b in board.action_buttons.children] == ["offer a draw"]
    board.action_buttons.children[0].click()
    assert board.state.history_strings() == ["draw"] and board.state.is_terminal()
    assert board.action_buttons.children == ()  # refreshed with the state: nothing left to press
    board.undo()
    assert [b.description for b in board.action_buttons.children] == ["offer a draw"]
    board.click_cell("arena")
    assert board.action_buttons.children == ()  # player 1's replies all have cells


def test_clicks_completing_several_actions_ask_which_and_play_the_one_chosen():
    board = Board("test_draw_trap")
    board.click_cell("arena")
    board.click_cell("right")  # reply2, reply3 and reply4 all end here
    assert board.state.history_strings() == ["fight"]  # nothing played silently
    choices = [b.description for b in board.choice_row.children[1:]]
    assert choices == ["reply2", "reply3", "reply4"]
    assert board.choice_row.children[0].value == "Which one?"
    board.choice_row.children[2].click()
    assert board.state.history_strings() == ["fight", "reply3"] and board.choice_row.children == ()
    assert board.errors.text == ""


def test_a_click_completing_one_action_while_longer_ones_go_on_offers_it_and_waits():
    board = Board("test_draw_trap")
    board.click_cell("arena")
    board.click_cell("left")  # completes reply0; reply1 goes on to the right diamond
    assert board.state.history_strings() == ["fight"]
    assert [b.description for b in board.choice_row.children[1:]] == ["reply0"]
    assert board._targets() == frozenset({"right"})
    board.click_cell("right")
    assert board.state.history_strings() == ["fight", "reply1"]
    board.undo()
    board.click_cell("left")
    board.press("reply0")
    assert board.state.history_strings() == ["fight", "reply0"]


def test_a_choice_is_dropped_by_another_click_and_a_stale_label_is_refused():
    board = Board("test_draw_trap")
    board.click_cell("arena")
    board.click_cell("right")
    board.click_cell("left")  # a fresh selection
    assert [b.description for b in board.choice_row.children[1:]] == ["reply0"]
    with pytest.raises(ValueError, match="no button 'reply3'"):
        board.press("reply3")
    assert board.state.history_strings() == ["fight"]


def test_hovering_over_a_shared_cell_names_the_choices_and_previews_nothing():
    board = Board("test_draw_trap")
    board.click_cell("arena")
    board._hover_cell("right")
    assert board.hover_label.value == "a click here offers: reply2, reply3, reply4"
    board._hover_cell(None)
    assert board.hover_label.value == ""


def test_nim_board_cells_are_the_takes():
    state = load_game("test_nim").new_initial_state()
    adapter = NimBoard(state.game)
    assert [adapter.action_cells(state, a) for a in state.legal_actions()] == [(1,), (2,)]


class SameLabelBoard(HiddenCardBoard):
    def button_label(self, state, action: int) -> str:
        return "act"


def test_buttons_with_the_same_label_are_told_apart_by_their_actions(monkeypatch):
    monkeypatch.setattr(HiddenCardGame, "parts", {"board": f"{__name__}:SameLabelBoard"})
    board = Board("test_hidden_card", seats=["human", "random"])
    assert [b.description for b in board.action_buttons.children] == ["act (check)", "act (bet)"]
    board.press("act (bet)")
    assert board.state.history_strings()[0] == "bet"
