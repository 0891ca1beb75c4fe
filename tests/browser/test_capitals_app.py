"""The Capitals app in a real browser: a step and a chain of two jumps played by clicking squares.

Same server and browser fixtures as ``test_apps.py``. The clicks land on the centres of the
diamond squares, computed from the board adapter's geometry as the board lays out its figure.
"""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure
from playwright.sync_api import Page, expect

from tabletop_lab import load_game
from tabletop_lab.widgets import load_adapter
from tests.browser.test_apps import CANVAS_DRAWN, FIRST_WIDGET_MS, STEP_MS, expect_no_cell_errors, open_app

pytestmark = pytest.mark.browser

#: White (top) to move. Its b2 may step to c2, or capture Black's c3 and e5 in the chain
#: b2-d4-f6, which can go no further from f6.
POSITION = (
    '{"game":"capitals","cycle":1,"slot":0,"actor":0,"extra_turn":false,"transfers":0,"pending_sacrifice":false,'
    '"releases":[],"altar_filled":[false,false,false,false],"eliminated":[false,false,false,false],'
    '"pieces":[["a1",0,0,null],["h1",1,1,null],["b2",0,0,null],["b3",0,0,null],["c3",1,1,null],["c5",2,2,null],'
    '["e5",3,3,null],["a8",3,3,null],["h8",2,2,null]],"cages":[[],[],[],[]],"altars":[[],[],[],[]],'
    '"removed":[6,7,7,7]}'
)


def square_fractions() -> dict[str, tuple[float, float]]:
    """Each square's centre as fractions of the canvas from its top left."""
    adapter = load_adapter(load_game("capitals"))
    figure = Figure(figsize=adapter.figsize)
    ax = adapter.setup(figure)
    ax.apply_aspect()
    centres = {}
    for square in adapter.polygons:
        px, py = ax.transData.transform(adapter.cell_xy(square))
        centres[square] = (px / figure.bbox.width, 1 - py / figure.bbox.height)
    return centres


def after(start, move: str):
    state = start.clone()
    state.apply_move(move)
    return state


def test_capitals_step_and_two_jump_chain_by_clicking(page: Page, voila_url, artifacts):
    game = load_game("capitals")
    start = game.load_position(POSITION)
    centres = square_fractions()
    open_app(page, voila_url, "play_capitals.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    for seat in (1, 3):  # every seat a person: no agent moves in between
        page.locator(f".tl-seat-{seat} select").select_option("human")
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last  # the one taking clicks
    position, moves = board.locator(".tl-position input"), board.locator(".tl-moves option")
    stop = board.locator(".tl-actions button", has_text="stop")

    def load_start():
        position.fill(POSITION)
        board.locator(".tl-load").click()
        expect(position).to_have_value(start.to_json(), timeout=STEP_MS)
        expect(moves).to_have_count(1, timeout=STEP_MS)

    def click(square: str):
        box = canvas.bounding_box()
        fx, fy = centres[square]
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})

    load_start()  # a step: the piece, then its square
    click("b2")
    click("c2")
    expect(position).to_have_value(after(start, "step b2 c2").to_json(), timeout=STEP_MS)
    expect(moves.last).to_contain_text("step b2 c2")

    load_start()  # a chain: the piece, then one click per landing
    click("b2")
    click("d4")
    expect(stop).to_be_visible(timeout=STEP_MS)  # mid-chain: it may stop here
    expect(position).to_be_disabled()  # a turn in progress is not a position
    click("f6")
    expect(position).to_have_value(after(start, "jump b2 d4 f6").to_json(), timeout=STEP_MS)
    expect(moves.last).to_contain_text("jump b2 d4 f6")
    expect(stop).to_have_count(0)
    page.screenshot(path=artifacts / "capitals_chain.png", full_page=True)

    load_start()  # the stop button ends a chain after its first jump
    click("b2")
    click("d4")
    stop.click()
    expect(position).to_have_value(after(start, "jump b2 d4").to_json(), timeout=STEP_MS)
    expect(moves.last).to_contain_text("jump b2 d4")
    expect(board.locator(".tl-errors")).to_have_text("")
    expect_no_cell_errors(page)
