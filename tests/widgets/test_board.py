"""The Board widget in-process, with real widgets and a real ipympl canvas (no browser).

Clicks go through the same paths as in a browser: ``click_cell`` / ``handle_click``, and
matplotlib mouse events at the pixel ``cell_centre`` reports. Without a running event loop
agents reply at once; ``test_agent_thinks_in_a_thread_under_a_running_loop`` runs the loop.
"""

import asyncio
import gc
import json
import os

import matplotlib.pyplot as plt
import pytest
from matplotlib.backend_bases import MouseEvent

from tabletop_lab import PositionError, RulesError, load_game
from tabletop_lab.agents import Agent, RandomAgent
from tabletop_lab.widgets import Board

END_GAME = "0,0,0,0,0,1/0,0,0,0,0,0 20-15 0"  # South's 5 ends the game, South wins 21-15


def counts(board):
    view = board.adapter.view
    return [int(t.get_text()) for t in view.count_texts], [int(t.get_text()) for t in view.store_texts]


def click_pixel(board, cell, kind="button_press_event"):
    """Send a matplotlib mouse event at the pixel where ``cell`` is drawn."""
    xf, yf = board.cell_centre(cell)
    canvas = board.figure.canvas
    width, height = canvas.get_width_height()
    MouseEvent(kind, canvas, xf * width, (1 - yf) * height, button=1)._process()


def test_css_classes_of_the_contract():
    board = Board()
    assert "tl-board" in board._dom_classes
    for widget, css in [
        (board.status, "tl-status"),
        (board.moves, "tl-moves"),
        (board.undo_button, "tl-undo"),
        (board.redo_button, "tl-redo"),
        (board.new_game_button, "tl-new-game"),
        (board.position_text, "tl-position"),
        (board.errors, "tl-errors"),
        (board.seat_pickers[0], "tl-seat-0"),
        (board.seat_pickers[1], "tl-seat-1"),
        (board.action_buttons, "tl-actions"),
        (board.choice_row, "tl-choices"),
        (board.handover, "tl-handover"),
        (board.ready_button, "tl-ready"),
        (board.you_label, "tl-you"),
        (board.legend, "tl-legend"),
        (board.options_hint, "tl-options-hint"),
        (board.link, "tl-link"),
    ]:
        assert css in widget._dom_classes


def test_click_plays_the_hole():
    board = Board()
    before = board.state
    board.click_cell(2)
    assert board.state == before.child(2)
    assert board.status.value == "North to move"
    assert [label for label, _ in board.moves.options] == ["start", "1. South: 2"]
    assert counts(board) == (board.state.holes, board.state.stores)
    assert board.position_text.value == board.state.notation()
    assert board.errors.text == ""


def test_mouse_event_at_cell_centre_hits_that_hole():
    board = Board()
    for hole in range(12):
        xf, yf = board.cell_centre(hole)
        assert 0 < xf < 1 and 0 < yf < 1
        assert (yf > 0.5) == (hole < 6)  # South's row in the lower half
    click_pixel(board, 4)
    assert board.state.history() == [4]


def test_handle_click_uses_data_coordinates():
    board = Board()
    board.handle_click(3.6, 0.95)  # column 2 of South's row
    assert board.state.history() == [2]
    board.handle_click(7.5, 1.5)  # North's store: not a cell, ignored
    assert board.state.history() == [2] and board.errors.text == ""


@pytest.mark.parametrize("hole, reason", [(8, "belongs to North"), (0, "is empty")])
def test_illegal_click_is_reported_and_changes_nothing(hole, reason):
    board = Board(position="0,3,3,3,3,3/3,3,3,3,3,6 0-0 0")
    before = board.state
    board.click_cell(hole)
    assert reason in board.errors.text
    assert board.state == before and board.state.history() == []
    assert board.status.value == "South to move"
    board.click_cell(1)  # a legal click afterwards clears the message
    assert board.errors.text == "" and board.state.history() == [1]


def test_legal_holes_are_highlighted():
    board = Board()
    assert board._targets() == frozenset(range(6))
    board.click_cell(1)
    assert board._targets() == frozenset(board.state.legal_actions())
    assert all(h >= 6 for h in board._targets())


def test_hover_previews_the_move():
    board = Board()
    click_pixel(board, 2, "motion_notify_event")
    after = board.state.child(2)
    assert board.hover_label.value.startswith("hole 2:")
    shown = [t.get_text() for t in board.adapter.view.count_texts]
    assert shown == [str(n) if n == 3 else f"3→{n}" for n in after.holes]
    click_pixel(board, 9, "motion_notify_event")  # North's hole: nothing to preview
    assert board.hover_label.value == ""
    assert [t.get_text() for t in board.adapter.view.count_texts] == ["3"] * 12
    assert board.state.history() == []  # hovering never plays


def test_undo_redo():
    board = Board()
    for _ in range(3):
        board.play(str(board.state.legal_actions()[0]))
    line = board.line
    board.undo()
    assert board.state == line[2]
    board.undo()
    assert board.state == line[1]
    board.redo()
    assert board.state == line[2]
    assert board.redo_button.disabled is False
    board.redo()
    assert board.state == line[3] and board.redo_button.disabled is True
    with pytest.raises(ValueError, match="nothing to redo"):
        board.redo()
    board.undo_button.click()
    board.undo_button.click()
    board.undo_button.click()
    assert board.state == line[0] and board.undo_button.disabled is True
    board.undo_button.click()  # disabled in a browser; programmatically it reports
    assert "nothing to undo" in board.errors.text


def test_move_list_jumps_back_and_a_new_move_replaces_the_rest():
    board = Board()
    board.play("2")
    board.play(str(board.state.legal_actions()[0]))
    board.play(str(board.state.legal_actions()[0]))
    line = board.line
    board.moves.value = 1  # clicking "1. South: 2"
    assert board.state == line[1] and len(board.moves.options) == 4
    board.moves.value = 3
    assert board.state == line[3]
    board.moves.value = 0
    other = next(a for a in board.state.legal_actions() if a != 2)
    board.click_cell(other)
    assert [label for label, _ in board.moves.options] == ["start", f"1. South: {other}"]


def test_same_move_keeps_the_line():
    board = Board()
    board.play("2")
    board.play(str(board.state.legal_actions()[0]))
    board.jump(0)
    board.click_cell(2)
    assert len(board.line) == 3 and board.moves.value == 1


def test_new_game_with_options():
    board = Board()
    board.play("2")
    board.option_controls["seeds_per_hole"].value = 6
    board.new_game_button.click()
    assert board.state.notation() == "6,6,6,6,6,6/6,6,6,6,6,6 0-0 0"
    assert board.game.options["seeds_per_hole"] == 6
    assert [label for label, _ in board.moves.options] == ["start"]
    board.new_game(first_player=1)
    assert board.state.current_player() == 1 and board.status.value == "North to move"
    assert board.option_controls["first_player"].value == 1
    assert counts(board) == ([6] * 12, [0, 0])
    with pytest.raises(RulesError):
        board.new_game(seeds_per_hole=4)
    assert board.game.options["seeds_per_hole"] == 6


def test_load_position_through_the_text_box():
    board = Board()
    board.play("2")
    board.position_text.value = "4,4,4,4,4,4/2,2,2,2,2,2 0-0 1"
    board.load_button.click()
    assert board.state.notation() == "4,4,4,4,4,4/2,2,2,2,2,2 0-0 1"
    assert board.errors.text == "" and board.status.value == "North to move"
    assert counts(board) == ([4] * 6 + [2] * 6, [0, 0])
    board.load(json.dumps({"game": "cross_endodoi", "holes": [3] * 12, "stores": [0, 0], "to_move": 0}))
    assert board.state == load_game("cross_endodoi").new_initial_state()


@pytest.mark.parametrize("text", ["4,4,4/2 0-0 1", "3,3,3,3,3,3/3,3,3,3,3,3 1-0 0", "{not json"])
def test_malformed_position_is_shown_and_changes_nothing(text):
    board = Board()
    board.play("2")
    before = board.state
    board.position_text.value = text
    board.load_button.click()
    assert "position" in board.errors.text.lower() and "Error" not in board.errors.text
    assert board.state == before and board.state.history() == [2]
    with pytest.raises(PositionError):
        board.load(text)


def test_result_is_announced_and_play_stops():
    board = Board(position=END_GAME)
    board.click_cell(5)
    # why play stopped, and the score explained: the seed left on the board is South's
    assert board.status.value == (
        "Game over: South wins, 21–15: North has no seeds left to sow; "
        "South gets the 1 seed left on the board (store 20 + 1)"
    )
    assert board._targets() == frozenset()
    board.click_cell(6)
    assert "game is over" in board.errors.text


def test_agent_seat_replies():
    board = Board(seats=["human", "random"], seed=3)
    board.click_cell(2)
    assert len(board.state.history()) == 2
    assert board.status.value == "South to move"
    assert [label.split(":")[0] for label, _ in board.moves.options] == ["start", "1. South", "2. North"]
    board.undo()  # back over the agent's reply to the human's turn
    assert board.state.history() == [] and board.moves.value == 0
    board.redo()
    assert len(board.state.history()) == 2


def test_agents_are_seeded():
    def game(seed):
        board = Board(seats=["random", "random"], seed=seed)
        return board.state.history()

    assert game(1) == game(1)
    assert game(1) != game(2)


def test_agent_seats_refuse_clicks_and_seat_changes_take_effect():
    board = Board(seats=["human", "human"])
    board.play("2")
    board.seat_pickers[1].value = "random"  # North is to move: the new agent replies
    assert board.state.current_player() == 0 and len(board.state.history()) == 2
    board.seat_pickers[0].value = "greedy"  # ... and now South's agent too: a whole game
    assert board.state.is_terminal()
    assert board.status.value.startswith("Game over")
    board.new_game()
    assert board.state.is_terminal()  # agents play again at once
    board.seat_pickers[0].value = "human"
    board.seat_pickers[1].value = "human"
    board.new_game()
    board.seat_pickers[1].value = RandomAgent(seed=0).label  # a listed spec
    board.play("2")
    assert len(board.state.history()) == 2


def test_clicking_for_an_agent_seat_is_refused():
    board = Board(seats=["human", "random"], seed=0)
    board.play("2")  # the agent replies at once
    board.jump(1)  # North (the agent) to move; navigation does not start the agent
    assert board.state.current_player() == 1
    board.click_cell(8)
    assert "plays this seat" in board.errors.text
    board.agent_button.click()
    assert board.state.current_player() == 0


def test_bad_seats_are_refused():
    with pytest.raises(ValueError, match="seats needs 2"):
        Board(seats=["human"])
    with pytest.raises(ValueError, match="unknown agent"):
        Board(seats=["human", "nobody"])


def test_agent_thinks_in_a_thread_under_a_running_loop():
    """In a kernel: the reply comes from a thread and is animated with loop timers."""

    async def scenario():
        board = Board(seats=["human", "random"], seed=5)
        board.click_cell(2)
        assert board.busy and board.status.value == "North (Random) to move: thinking…"
        assert len(board.state.history()) == 1
        titles = set()
        for _ in range(1000):
            if not board.busy:
                break
            titles.add(board.adapter.view.title.get_text())
            await asyncio.sleep(0.005)
        return board, titles

    board, titles = asyncio.run(scenario())
    assert not board.busy and len(board.state.history()) == 2
    assert board.status.value == "South to move"
    assert any(title.startswith("North sows") for title in titles)  # animation frames were shown
    assert board.errors.text == ""


def test_undo_cancels_a_pending_agent_reply():
    async def scenario():
        board = Board(seats=["human", "random"], seed=5)
        board.click_cell(2)
        board.undo()
        await asyncio.sleep(1.5)  # longer than any reply and its animation
        return board

    board = asyncio.run(scenario())
    assert board.state.history() == [] and not board.busy


class BrokenAgent(Agent):
    """An agent with a bug: the board must show its traceback and stay usable."""

    name = "broken"

    def choose_action(self, state):
        raise RuntimeError("the agent crashed")


def test_a_crashing_agent_is_reported():
    board = Board(seats=["human", BrokenAgent()])
    board.click_cell(2)
    assert "RuntimeError: the agent crashed" in board.errors.text
    assert board.status.value == "North (Broken) to move"
    assert board.state.history() == [2] and not board.busy
    board.undo()
    assert board.state.history() == []


def test_a_crashing_agent_is_reported_from_its_thread():
    async def scenario():
        board = Board(seats=["human", BrokenAgent()])
        board.click_cell(2)
        for _ in range(500):
            if not board.busy:
                break
            await asyncio.sleep(0.01)
        return board

    board = asyncio.run(scenario())
    assert not board.busy and "RuntimeError: the agent crashed" in board.errors.text
    assert board.status.value == "North (Broken) to move"


def test_one_figure_per_board_and_no_growth():
    """Clicks redraw the board's one figure; pyplot never sees it and memory stays flat."""
    fignums = plt.get_fignums()
    board = Board()
    canvas = board.figure.canvas
    canvas.syncing_data_url = False  # as once a browser shows the canvas: diffs only
    figure = board.figure

    def play_some():
        for _ in range(10):
            if board.state.is_terminal():
                board.new_game()
            board.click_cell(board.state.legal_actions()[0])
            canvas.draw()
        board.new_game()

    play_some()
    gc.collect()
    before = _rss_mb()
    play_some()
    play_some()
    gc.collect()
    assert board.figure is figure and len(figure.axes) == 1
    assert plt.get_fignums() == fignums
    assert _rss_mb() - before < 30


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_the_pause_button_pauses_and_resumes_the_agents():
    board = Board(seats=["random", "random"], seed=2)  # no loop: the agents play the game out at once
    assert board.state.is_terminal() and board.pause_button.description == "Pause agents"
    board.undo()  # back to a position an agent plays from: they wait there
    board.undo()
    board.pause_button.click()
    assert board.session.paused and board.pause_button.description == "Resume agents"
    before = len(board.state.history())
    board.agent_button.click()  # one move while paused
    assert len(board.state.history()) == before + 1 and board.agent_button.tooltip
    board.pause_button.click()
    assert not board.session.paused and board.state.is_terminal()  # resumed: they play it out


def test_under_the_pie_rule_the_swap_is_a_button_at_its_moment():
    board = Board(load_game("cross_endodoi", pie_rule=True))
    assert board.action_buttons.children == ()  # no swap before the first move
    board.click_cell(1)
    assert [b.description for b in board.action_buttons.children] == ["swap sides"]
    assert "swap sides" in board.status.value
    board.press("swap sides")
    assert board.state.notation() == "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 swapped" and board.state.current_player() == 0
    assert board.action_buttons.children == () and board.errors.text == ""
    assert board.status.value == "South to move: the sides are swapped: sow North's row, holes 6–11"
    board.click_cell(7)  # the first player sows North's row now
    assert board.state.history_strings() == ["1", "swap", "7"]
