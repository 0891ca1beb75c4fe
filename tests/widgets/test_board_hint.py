"""The Board's Hint button and evaluation: the hint in words and marked on the board as clicks
mark a move, the evaluation beside the board when its checkbox is on (the session's own tests
check the values: tests/test_session.py)."""

from __future__ import annotations

import pytest
from matplotlib.backend_bases import MouseEvent

from tabletop_lab.widgets import Board


def test_hint_shows_the_best_move_in_words_and_marks_its_cells(monkeypatch):
    board = Board("sinoda", seats=["human", "random"], seed=2)
    drawn = []
    draw = board.adapter.draw
    monkeypatch.setattr(board.adapter, "draw", lambda state, **marks: (drawn.append(marks), draw(state, **marks)))
    assert not board.hint_button.disabled and board.hint_label.value == ""
    board.hint_button.click()
    hint = board.session.hint_shown
    assert hint is not None and board.hint_label.value.startswith(f"Hint: {hint.move} (")
    state = board.state
    (action,) = board.session.actions_of(hint.move)  # a Sinoda move is one action of two clicks
    cells = board.adapter.action_cells(state, action)
    assert len(cells) == 2 and drawn[-1]["selected"] == cells[:1] and drawn[-1]["targets"] == {cells[1]}
    assert board.hint_button.disabled and board.record().hints == [0]
    assert board.errors.text == ""


def test_hint_when_an_agent_is_to_move_is_refused_in_words():
    board = Board("cross_endodoi", seats=["human", "random"], seed=1)
    board.session.pause()
    board.play(board.state.legal_moves()[0])  # the agent waits
    assert board.hint_button.disabled and "a hint is for a human to move" in board.hint_button.tooltip
    board.hint_button.click()
    assert board.errors.text.startswith("no hint: a hint is for a human to move")


def test_the_evaluation_checkbox_shows_the_win_chance_beside_the_board():
    board = Board("cross_endodoi", seats=["human", "random"], seed=1)
    assert not board.evaluation_box.value and "Evaluation" not in board.evaluation_label.value
    board.evaluation_box.value = True
    value = board.session.evaluation.value
    assert board.session.evaluation_seat == 0 and board.evaluation_bar.value == value
    assert f"win chance {round(100 * value)}%" in board.evaluation_label.value
    board.play(board.state.legal_moves()[0])  # the agent replies at once: a new evaluation
    assert board.session.evaluation.at == 2 and board.evaluation_bar.value == board.session.evaluation.value
    board.evaluation_box.value = False
    assert board.session.evaluation_seat is None and "Evaluation" not in board.evaluation_label.value


def test_review_charts_a_finished_game_under_the_board_and_a_click_on_it_shows_the_move():
    board = Board("cross_endodoi", seats=["random", "random"], seed=6)  # the agents play it out at once
    board.session.REVIEW_SHARE = 10**6  # the least budget a position: a quick test
    chart = board.review_chart
    assert board.state.is_terminal() and not board.review_button.disabled
    assert chart.widget.layout.display == "none"
    board.review_button.click()
    assert board.errors.text == "" and board.review_label.value.startswith("Review: South: ")
    (ax,) = chart.figure.axes
    frame = board.session.review_shown
    assert chart.widget.layout.display is None and len(ax.lines[0].get_xdata()) == len(frame)
    assert board.review_button.disabled
    worst = frame.loc[frame["loss"].idxmax()]
    drawn = []
    draw = board.adapter.draw
    board.adapter.draw = lambda state, **marks: (drawn.append(marks), draw(state, **marks))
    x, y = ax.transData.transform((int(worst["move"]) + 0.3, 0.5))  # nearer this move than the next
    MouseEvent("button_press_event", chart.widget, x, y, button=1)._process()
    assert board.errors.text == "" and board.moves.value == int(worst["move"]) - 1  # the position before it
    assert board.review_label.value.startswith(f"Move {worst['move']}, ") and chart.widget.layout.display is None
    (ax,) = chart.figure.axes  # redrawn, the move on screen marked
    assert list(ax.lines[-1].get_xdata()) == [worst["move"]] * 2
    assert board.review_button.layout.display == "none"  # the game is not over on screen
    better = board.session.actions_of(worst["best_move"])[0]  # a hole: one action, one cell
    assert worst["loss"] > 0 and drawn[-1]["targets"] == {board.adapter.action_cells(board.state, better)[-1]}
    board.moves.value = 0  # the move list picks a move too, and the chart follows
    marked = chart.figure.axes[0].lines[-1]
    assert board.review_label.value.startswith("Move 1, ") and list(marked.get_xdata()) == [1, 1]


def test_plot_review_marks_the_mistakes_for_the_chosen_side():
    import pandas as pd
    from matplotlib.figure import Figure

    from tabletop_lab.plots import plot_review

    table = pd.DataFrame(
        {"move": [1, 2, 3], "player": [0, 1, 0], "value_before": [0.6, 0.3, 0.9], "label": ["best", "mistake", "best"]}
    )
    ax = plot_review(table, ((0,), (1,)), seat=0, name="South", ax=Figure().add_subplot())
    assert list(ax.lines[0].get_ydata()) == [0.6, 0.7, 0.9]  # North's 0.3 is South's 0.7
    assert [tuple(c.get_offsets()[0]) for c in ax.collections] == [(2.0, 0.7)]  # the mistake


@pytest.mark.parametrize(
    "name, options",
    [("capitals", {}), ("cross_endodoi", {}), ("sinoda", {}), ("sinomilia", {}), ("sygo", {"size": 9})],
)
def test_every_game_gives_a_legal_hint_on_its_board(name, options):
    board = Board(name, options=options, seed=0)  # every seat human, as at a table
    if board.handing_over is not None:
        board.ready()
    board.hint()
    hint = board.session.hint_shown
    assert hint is not None and hint.move in board.state.legal_moves()
    assert board.hint_label.value.startswith(f"Hint: {hint.move} (") and board.errors.text == ""
