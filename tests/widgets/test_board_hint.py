"""The Board's Hint button and evaluation: the hint in words and marked on the board as clicks
mark a move, the evaluation beside the board when its checkbox is on (the session's own tests
check the values: tests/test_session.py)."""

from __future__ import annotations

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
    cells = board.adapter.action_cells(state, board.session.actions_of(hint.move)[0])
    assert drawn[-1]["selected"] == tuple(cells[:-1]) and cells[-1] in drawn[-1]["targets"]
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
