"""What a new user reads and sees on the Cross-endodoi board: the picture is always the state's,
messages go when their cause goes, and the labels say what is what (issue: the apps as a new
user finds them)."""

import asyncio
import io

import numpy as np
from matplotlib.figure import Figure
from matplotlib.image import imread

import tests.widgets.toy_boards  # noqa: F401  (registers the toy games and their boards)
from tabletop_lab.board_adapter import load_adapter
from tabletop_lab.render import figure_png
from tabletop_lab.widgets import Board

END_GAME = "0,0,0,0,0,1/0,0,0,0,0,0 20-15 0"


def pixels(figure) -> np.ndarray:
    return imread(io.BytesIO(figure_png(figure)))


def assert_picture_is_the_states(board):
    """The board's figure has exactly the pixels of a fresh drawing of its state."""
    adapter = load_adapter(board.game)
    fresh = Figure(figsize=adapter.figsize)
    adapter.setup(fresh)
    adapter.draw(board.state, targets=board._targets(), viewer=board.viewer)
    assert np.array_equal(pixels(board.figure), pixels(fresh))


# --- the picture ----------------------------------------------------------------------------


def test_the_picture_follows_new_game_load_seats_and_undo_redo():
    board = Board(seats=["human", "human"])
    board.play("2")
    board.play("8")
    assert_picture_is_the_states(board)
    board.undo()
    assert_picture_is_the_states(board)
    board.redo()
    assert_picture_is_the_states(board)
    board.new_game(seeds_per_hole=6)
    assert_picture_is_the_states(board)
    board.new_game(seeds_per_hole=3)
    for bad in ("4,4,4/2 0-0 1", "{not json", "3,3,3,3,3,3/3,3,3,3,3,3 1-0 0"):
        board.position_text.value = bad
        board.load_button.click()
    board.position_text.value = END_GAME
    board.load_button.click()
    assert board.errors.text == "" and board.state.notation() == END_GAME
    assert_picture_is_the_states(board)
    board.click_cell(5)  # the game ends
    assert_picture_is_the_states(board)
    board.seat_pickers[1].value = "random"
    board.undo()
    assert_picture_is_the_states(board)


def test_the_picture_is_the_states_after_a_cancelled_agent_reply():
    """Switch the thinking agent's seat to human, start a new game, click: nothing of the
    cancelled reply (or its animation) reaches the picture."""

    async def scenario():
        board = Board(seats=["human", "random"], seed=5)
        board.click_cell(2)
        assert board.busy
        board.seat_pickers[1].value = "human"
        board.new_game()
        board.click_cell(3)
        await asyncio.sleep(1.0)  # longer than the reply and its animation would take
        return board

    board = asyncio.run(scenario())
    assert board.state.history() == [3] and not board.busy
    assert board.adapter.view.title.get_text().startswith("South sowed hole 3: ")
    assert_picture_is_the_states(board)


def test_frames_in_quick_succession_are_sent_whole():
    """A diff the browser drops leaves a mixed picture; frames close together are whole."""
    board = Board()
    canvas = board.figure.canvas
    canvas.syncing_data_url = False  # as once a browser shows the canvas
    board.click_cell(2)
    board.click_cell(8)
    assert canvas._current_image_mode == "full"
    canvas._last_frame -= 2 * canvas.FULL_FRAME_GAP  # a pause: the browser has the last frame
    board.click_cell(3)
    assert canvas._current_image_mode == "diff"


# --- messages -------------------------------------------------------------------------------


def test_the_game_is_over_message_goes_with_undo():
    board = Board(position=END_GAME)
    board.click_cell(5)
    board.click_cell(6)
    assert board.errors.text.startswith("the game is over")
    board.undo()
    assert board.errors.text == ""


def test_the_wait_message_goes_when_the_agent_has_replied():
    async def scenario():
        board = Board(seats=["human", "random"], seed=5, animate=False)
        board.click_cell(2)
        board.click_cell(3)  # too early
        assert board.errors.text.startswith("wait: North (Random) is thinking")
        for _ in range(500):
            if not board.busy:
                break
            await asyncio.sleep(0.01)
        return board

    board = asyncio.run(scenario())
    assert not board.busy and len(board.state.history()) == 2 and board.errors.text == ""


def test_messages_show_no_exception_class_names():
    board = Board()
    board.click_cell(8)
    assert board.errors.text.startswith("Hole 8 belongs to North: you sow from your own row, holes 0–5.")
    assert "Error" not in board.errors.text
    board.position_text.value = "{not json"
    board.load_button.click()
    assert "not valid JSON" in board.errors.text and "PositionError" not in board.errors.text


def test_a_refusal_reads_in_the_players_words_with_the_rule_behind_a_why():
    """The engine's message names rule 2.1; the board words it for the player and folds the
    rule (its section of docs/rules/cross_endodoi.md) and the engine's message under "why?"."""
    board = Board()
    board.click_cell(8)
    shown = board.errors.value
    assert "Hole 8 belongs to North: you sow from your own row, holes 0–5." in shown
    assert '<details class="tl-why"' in shown and ">why?</summary>" in shown
    assert "Rule 2.1 The move (docs/rules/cross_endodoi.md)" in shown
    assert "picks one of their own holes" in shown  # the rule's own text, from the rules page
    assert "The engine: cross_endodoi: &#x27;8&#x27; is illegal" in shown  # still there, folded
    assert "<pre" not in shown and "Error" not in shown  # no console box, no exception class
    board.load("3,0,3,3,3,3/3,3,3,3,3,3 3-0 0")
    board.click_cell(1)
    assert board.errors.text.startswith("Hole 1 is empty: choose one of your holes that holds seeds.")


def test_a_message_that_is_no_refusal_by_the_rules_shows_as_it_is():
    board = Board(position=END_GAME)
    board.click_cell(5)
    board.click_cell(6)
    assert board.errors.text.startswith("the game is over: start a new game") and "why?" not in board.errors.text


def test_a_bug_is_one_line_with_its_traceback_folded():
    board = Board()
    board.errors.report(RuntimeError("the agent crashed"))
    assert board.errors.value.startswith('<details class="tl-bug">')
    assert "a bug, not your mistake): the agent crashed</summary>" in board.errors.value


def test_enter_in_the_position_box_loads():
    board = Board()
    board.position_text.value = "4,4,4,4,4,4/2,2,2,2,2,2 0-0 1"
    board.position_text._handle_string_msg(None, {"event": "submit"}, None)  # what Enter sends
    assert board.state.notation() == "4,4,4,4,4,4/2,2,2,2,2,2 0-0 1" and board.errors.text == ""


# --- labels ---------------------------------------------------------------------------------


def test_the_user_is_told_their_seat():
    assert Board(seats=["human", "random"]).you_label.value == "You are South"
    assert Board(seats=["greedy", "human"]).you_label.value == "You are North"
    board = Board(seats=["human", "human"])
    assert board.you_label.value == ""
    board.seat_pickers[0].value = "random"  # South's agent plays: North is the one human
    assert board.you_label.value == "You are North"


def test_the_legend_and_the_status_are_shown_once():
    board = Board()
    assert "Green rings" in board.legend.value and "×" in board.legend.value
    board.click_cell(2)
    assert board.status.value == "North to move"
    title = board.adapter.view.title.get_text()
    assert title.startswith("South sowed hole 2: ") and "to move" not in title  # said once, by the status


def test_option_labels_are_readable_and_a_changed_option_is_pointed_out():
    board = Board()
    assert board.option_controls["seeds_per_hole"].description == "Seeds per hole"
    assert board.options_hint.value == ""
    board.option_controls["seeds_per_hole"].value = 6
    assert board.options_hint.value == "Changed options apply from the next New game"
    board.option_controls["seeds_per_hole"].value = 3
    assert board.options_hint.value == ""
    board.option_controls["skip_origin"].value = True
    board.new_game()
    assert board.options_hint.value == "" and board.game.options["skip_origin"] is True


def test_the_hover_preview_goes_when_the_mouse_leaves_the_figure():
    board = Board()
    board._hover_cell(2)
    assert board.hover_label.value.startswith("hole 2:")
    event = {"type": "figure_leave", "x": 0, "y": 0, "button": 0, "buttons": 0, "modifiers": []}
    board.figure.canvas.handle_event(event)  # what the browser sends when the mouse leaves
    assert board.hover_label.value == ""
    assert [t.get_text() for t in board.adapter.view.count_texts] == ["3"] * 12


# --- shareable links ------------------------------------------------------------------------


def test_a_link_opens_the_same_game_at_the_same_move():
    board = Board(options={"seeds_per_hole": 6}, seats=["human", "human"])
    for _ in range(4):
        board.play(str(board.state.legal_actions()[0]))
    board.undo()
    query = board.share_query
    assert query.startswith("game=cross_endodoi&seeds_per_hole=6&move=") and query.endswith("&at=3")
    assert f'href="?{query.replace("&", "&amp;")}"' in board.link.value
    assert "text-decoration: underline" in board.link.value  # it looks like a link
    opened = Board.from_query("?" + query, seats=["human", "random"])
    assert opened.state == board.state and opened.line == board.line
    assert [label for label, _ in opened.moves.options] == [label for label, _ in board.moves.options]
    assert opened.state.history() == board.state.history()  # the agent did not move on its own


def test_a_link_keeps_a_loaded_start_position():
    board = Board(position="4,4,4,4,4,4/2,2,2,2,2,2 0-0 1")
    board.play("8")
    opened = Board.from_query(board.share_query)
    assert opened.line[0].notation() == "4,4,4,4,4,4/2,2,2,2,2,2 0-0 1" and opened.state == board.state


def test_a_bad_link_opens_a_fresh_game_and_says_why():
    for query, reason in [
        ("game=cross_endodoi&seeds_per_hole=5", "seeds_per_hole=5 is not allowed"),
        ("game=cross_endodoi&speed=3", "'speed', which is no option"),
        ("game=nonsense", "unknown game"),
        ("game=cross_endodoi&move=2&at=9", "at='9' must be a move number 0..1"),
    ]:
        board = Board.from_query(query)
        assert reason in board.errors.text and board.errors.text.startswith("this link cannot be opened")
        assert board.state.history() == [] and board.game.options["seeds_per_hole"] == 3
    board = Board.from_query("game=cross_endodoi&move=2&move=2")  # North cannot sow South's hole
    assert "belongs to South" in board.errors.text and board.state.history() == [2]
    assert Board.from_query("").errors.text == ""


def test_no_link_with_hidden_information():
    board = Board("test_hidden_card", seats=["human", "random"])
    assert board.share_query == "" and "href" not in board.link.value
    assert board.link.value.startswith("<small>No link to this position: a link lists the moves")  # says why


def test_an_app_with_its_own_options_opens_links_under_the_links_options():
    board = Board(options={"seeds_per_hole": 6}, seats=["human", "human"])
    board.play("2")
    opened = Board.from_query(board.share_query, "cross_endodoi", options={"skip_origin": True})
    assert opened.game.options == board.game.options and opened.state == board.state
    fresh = Board.from_query("", "cross_endodoi", options={"skip_origin": True})
    assert fresh.game.options["skip_origin"] is True
