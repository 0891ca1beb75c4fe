"""The Sinoda app in a real browser: a value changed and a piece moved by clicks, then a new
three-player game chosen from the options and played by clicks too.

Clicks land on a cell's centre (or a +/- button's), computed from the board adapter's geometry
exactly as the board lays out its figure; the moves are checked against the engine.
"""

from __future__ import annotations

import random
import time

import pytest
from matplotlib.figure import Figure
from playwright.sync_api import Page, expect
from test_apps import CANVAS_DRAWN, FIRST_WIDGET_MS, STEP_MS, open_app

from tabletop_lab import load_game
from tabletop_lab.widgets import load_adapter

pytestmark = pytest.mark.browser


def fractions(state, cells, selected=None) -> dict:
    """Each of ``cells`` (cell names, or "+"/"-" once ``selected`` is picked) as fractions of the
    canvas from its top left, as the board's adapter draws ``state``."""
    adapter = load_adapter(state.game)
    figure = Figure(figsize=adapter.figsize)
    ax = adapter.setup(figure)
    buttons = frozenset(c for c in cells if c in ("+", "-"))
    adapter.draw(state, targets=buttons, selected=(selected,) if selected else ())
    ax.apply_aspect()
    centres = {}
    for cell in cells:
        px, py = ax.transData.transform(adapter.cell_xy(cell))
        centres[cell] = (px / figure.bbox.width, 1 - py / figure.bbox.height)
    return centres


def click_cells(canvas, state, first: str, second: str) -> None:
    """Click ``first`` (a piece), then ``second`` (a destination or a +/- button)."""
    box = canvas.bounding_box()
    for cell, selected in ((first, None), (second, first)):
        fx, fy = fractions(state, [cell], selected)[cell]
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})


def play_by_clicks(page: Page, board, state, move: str, count: int) -> None:
    """Play ``move`` (the human seat's, Blue) by clicks; the list then shows it, then an agent's reply."""
    words = move.split(" ")
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last  # the one taking clicks
    click_cells(canvas, state, words[1], words[2])
    moves = board.locator(".tl-moves option")
    expect(moves.nth(count)).to_contain_text(f"Blue: {move}", timeout=STEP_MS)
    expect(moves).to_have_count(count + state.game.num_players, timeout=STEP_MS)  # every agent replied
    expect(board.locator(".tl-status")).to_have_text("Blue to move", timeout=STEP_MS)


def blue_to_move(page: Page, position, game):
    """The position the box shows once it is Blue's turn again (the box may trail the move list)."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        state = game.load_position(position.input_value())
        if state.current_player() == 0 or state.is_terminal() or time.monotonic() > deadline:
            return state
        page.wait_for_timeout(200)


def test_change_a_value_and_move_by_clicking(page: Page, voila_url, artifacts):
    game = load_game("sinoda")
    open_app(page, voila_url, "play_sinoda.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    expect(board.locator(".tl-seat-0 select")).to_have_value("human")
    expect(board.locator(".tl-seat-1 select")).not_to_have_value("human")  # an agent replies
    position = board.locator(".tl-position input")
    state = game.load_position(position.input_value())
    assert state == game.new_initial_state()

    # Change a value: click Blue's piece on U2,0, then the + button beside it.
    play_by_clicks(page, board, state, "change U2,0 +", 1)
    state = blue_to_move(page, position, game)
    assert state.current_player() == 0 and ("U2,0", 0, 2) in {tuple(p) for p in state.to_dict()["pieces"]}

    # Move a piece: click it, then its destination.
    move = random.Random(0).choice([m for m in state.legal_moves() if m.startswith("move")])
    play_by_clicks(page, board, state, move, 3)
    after = blue_to_move(page, position, game)
    assert move.split(" ")[2] in after.pieces_of(0) or after.is_terminal()
    page.screenshot(path=artifacts / "sinoda_two_players.png", full_page=True)

    # A new game for three players: the options set the player count, the seats follow.
    board.locator(".widget-dropdown", has_text="Players").locator("select").select_option(label="3")
    board.locator(".tl-new-game").click()
    expect(board.locator(".tl-seat-2 select")).to_be_visible(timeout=STEP_MS)
    expect(board.locator(".tl-moves option")).to_have_count(1, timeout=STEP_MS)
    three = load_game("sinoda", players=3).new_initial_state()
    expect(position).to_have_value(three.to_json(), timeout=STEP_MS)
    expect(board.locator(".tl-seat-0 select")).to_have_value("human")
    first = three.pieces_of(0)[0]
    play_by_clicks(page, board, three, f"change {first} +", 1)
    expect(board.locator(".tl-errors")).to_have_text("")
    page.wait_for_timeout(400)  # the canvas image lags the labels a little
    page.screenshot(path=artifacts / "sinoda_three_players.png", full_page=True)
