"""The Puzzles app in a real browser (Cross-endodoi, the game it opens on).

A person clicks the solution of the first easy puzzle on the board's canvas and is told it is
right; then, on the first medium puzzle (picked in the difficulty menu), clicks a move that
loses and is told so, and the board plays the refutation out move by move: the move list ends
with it, and the picture is then exactly a fresh drawing of the position at its end. A link
naming a game and a difficulty opens them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tabletop_lab.widgets import PuzzleBoard
from tests.browser.test_apps import (
    CANVAS_DRAWN,
    FIRST_WIDGET_MS,
    GOTO_MS,
    STEP_MS,
    app_url,
    expect_no_cell_errors,
    expect_picture_of_the_state,
    hole_fractions,
    open_app,
    wait_until_preheated,
)

pytestmark = pytest.mark.browser

GAME = "cross_endodoi"


def test_a_right_answer_and_a_wrong_one_with_its_refutation_played_out(page: Page, voila_url, artifacts):
    shown = PuzzleBoard(GAME, seed=0)  # the app's puzzles, in the app's order
    easy, medium = shown.puzzles(GAME, "easy")[0], shown.puzzles(GAME, "medium")[0]
    centres = hole_fractions(GAME)
    open_app(page, voila_url, "puzzles.ipynb")
    app = page.locator(".tl-puzzles")
    board = app.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last  # the one taking clicks
    verdict, moves = app.locator(".tl-verdict"), board.locator(".tl-moves option")

    def click_hole(move: str) -> None:
        box = canvas.bounding_box()
        fx, fy = centres[int(move)]
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})
        page.mouse.move(0, 0)  # off the board: no hover preview in the picture

    expect(app.locator(".tl-puzzle-count")).to_have_text(f"Puzzle 1 of {len(shown.puzzles(GAME, 'easy'))}")
    expect(app.locator(".tl-puzzle-task")).to_contain_text("South to move and win. Difficulty easy")
    expect(verdict).to_have_text("")
    click_hole(easy.solution)
    expect(verdict).to_contain_text(f"Right: {easy.solution} wins. The line: South {easy.solution}", timeout=STEP_MS)
    expect(moves).to_have_count(len(easy.line) + 1, timeout=STEP_MS)
    page.screenshot(path=artifacts / "puzzles_right.png", full_page=True)

    count = len(shown.puzzles(GAME, "medium"))
    app.locator(".tl-puzzle-difficulty select").select_option(label=f"medium ({count})")
    expect(app.locator(".tl-puzzle-count")).to_have_text(f"Puzzle 1 of {count}", timeout=STEP_MS)
    expect(verdict).to_have_text("")
    expect(moves).to_have_count(1, timeout=STEP_MS)
    wrong = max(medium.refutations, key=lambda move: len(medium.refutations[move]))  # the longest to play out
    refutation = medium.refutations[wrong]
    assert len(refutation) >= 2, refutation
    click_hole(wrong)
    result = "does not win" if medium.goal == "win" else "loses"
    expect(verdict).to_contain_text(f"Wrong: {wrong} {result}. The refutation: South {wrong}, North ", timeout=STEP_MS)
    expect(moves).to_have_count(len(refutation) + 1, timeout=STEP_MS)
    for i, move in enumerate(refutation, start=1):
        expect(moves.nth(i)).to_contain_text(f": {move}")
    at_end = "([b, i]) => b.querySelector('.tl-moves select').selectedIndex === i"
    page.wait_for_function(at_end, arg=[board.element_handle(), len(refutation)], timeout=STEP_MS)
    expect_picture_of_the_state(page, board, medium.state(), human_to_move=False)
    click_hole(medium.solution)  # answered: the board takes no more moves, and says why
    expect(board.locator(".tl-errors")).to_contain_text("This puzzle is answered", timeout=STEP_MS)
    expect(moves).to_have_count(len(refutation) + 1)
    page.screenshot(path=artifacts / "puzzles_wrong.png", full_page=True)


def test_a_link_opens_the_game_and_difficulty_it_names(page: Page, voila_url):
    shown = PuzzleBoard("sinoda", "medium", seed=0)
    wait_until_preheated("puzzles.ipynb")
    page.goto(app_url(voila_url, "puzzles.ipynb") + "?game=sinoda&difficulty=medium", timeout=GOTO_MS)
    app = page.locator(".tl-puzzles")
    expect(app.locator(".tl-board")).to_be_visible(timeout=FIRST_WIDGET_MS)
    expect_no_cell_errors(page)
    chosen = "s => s.options[s.selectedIndex].text.replace(/\\u00a0/g, ' ')"  # ipywidgets writes no-break spaces
    assert app.locator(".tl-puzzle-game select").evaluate(chosen) == "Sinoda"
    assert app.locator(".tl-puzzle-difficulty select").evaluate(chosen) == f"medium ({len(shown.puzzles())})"
    expect(app.locator(".tl-puzzle-task")).to_contain_text("Difficulty medium")
    expect(app.locator(".tl-errors").last).to_have_text("")  # the widget's own (the board has one too)
