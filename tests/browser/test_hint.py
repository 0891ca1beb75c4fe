"""The Play app's Hint, Evaluation and Review in a real browser (Cross-endodoi against its agent).

Pressing Hint shows the best move in words beside the button ("Hint: 4 (win chance 62%)"), a
legal move of the position on screen, and the button turns off until the position changes;
ticking Evaluation shows the win chance beside the board. In a loaded endgame the hint is the
forced win; the agents then play the game out, Review charts it, and the start picked in the
move list shows its move reviewed (the only one, so the best); a click on the chart goes to a move.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tabletop_lab import load_game
from tests.browser.test_apps import CANVAS_DRAWN, FIRST_WIDGET_MS, STEP_MS, open_app

pytestmark = pytest.mark.browser

#: South to move; sowing hole 5 wins by force (docs/analysis.md).
ENDGAME = "0,0,0,0,0,1/0,0,0,0,0,1 20-14 0"
HINT = re.compile(r"^Hint: (\S+) \((win chance \d+%|a forced win|a forced draw|a forced loss)\)$")


def test_hint_shows_a_legal_best_move_and_the_evaluation_turns_on(page: Page, voila_url, artifacts):
    open_app(page, voila_url, "play_cross_endodoi.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    hint_button, hint_text = board.locator("button.tl-hint"), board.locator(".tl-hint-text")
    expect(hint_button).to_be_enabled()
    hint_button.click()
    expect(hint_text).to_have_text(HINT, timeout=STEP_MS)
    expect(hint_button).to_be_disabled()
    move = HINT.match(hint_text.inner_text()).group(1)
    assert move in load_game("cross_endodoi").new_initial_state().legal_moves()

    evaluation = board.locator(".tl-evaluation")
    expect(evaluation).to_have_text("")
    board.locator(".tl-evaluation-toggle input").check()
    expect(evaluation).to_have_text(re.compile(r"^Evaluation \(South\): win chance \d+%$"), timeout=STEP_MS)
    expect(board.locator(".tl-errors")).to_have_text("")
    page.screenshot(path=artifacts / "hint.png")

    board.locator(".tl-position input").fill(ENDGAME)
    board.locator(".tl-load").click()
    expect(board.locator(".tl-position input")).to_have_value(ENDGAME, timeout=STEP_MS)
    hint_button.click()
    expect(hint_text).to_have_text("Hint: 5 (a forced win)", timeout=STEP_MS)

    review = board.locator("button.tl-review")
    expect(review).to_be_hidden()  # the game is not over
    board.locator(".tl-seat-0 select").select_option(label="Random")  # the agents play the game out
    expect(board.locator(".tl-status")).to_contain_text("Game over", timeout=STEP_MS)
    review.click()
    expect(board.locator(".tl-review-text")).to_contain_text(
        re.compile(r"^Review: South: \d+ mistake"), timeout=STEP_MS
    )
    chart = board.locator(".tl-review-chart .jupyter-matplotlib-canvas-div canvas").last  # the one taking clicks
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    chart.click(position={"x": 0.55 * box["width"], "y": 0.5 * box["height"]})  # a move mid-game
    reviewed = board.locator(".tl-review-text")
    expect(reviewed).to_have_text(re.compile(r"^Move \d+, (South|North) played "), timeout=STEP_MS)
    move = int(re.match(r"Move (\d+)", reviewed.inner_text()).group(1))
    assert board.locator(".tl-moves select").evaluate("s => s.selectedIndex") == move - 1  # the position before it
    board.locator(".tl-moves select").select_option(index=0)  # the start: the first move reviewed
    expect(board.locator(".tl-review-text")).to_contain_text("Move 1, South played 5: the best move", timeout=STEP_MS)
    expect(board.locator(".tl-review-chart")).to_be_visible()
    expect(board.locator(".tl-errors")).to_have_text("")
    page.screenshot(path=artifacts / "review.png")
