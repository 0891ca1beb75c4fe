"""The Sygo app in a real browser: placements, and a growth turn played stone by stone.

Clicks go to a point's pixel on the board's canvas, computed from the board adapter's geometry
(as ``test_apps.hole_fractions`` does for holes); the moves are chosen from the position the
app shows, and everything the app then shows is checked against the engine.
"""

from __future__ import annotations

import random

import pytest
from matplotlib.figure import Figure
from playwright.sync_api import Page, expect
from test_apps import CANVAS_DRAWN, FIRST_WIDGET_MS, STEP_MS, open_app

from tabletop_lab import load_game
from tabletop_lab.widgets import load_adapter

pytestmark = pytest.mark.browser

GAME = load_game("sygo", size=9)  # the app's game


def point_fractions(game) -> dict[str, tuple[float, float]]:
    """Each point's centre as fractions of the canvas from its top left, as the adapter draws it."""
    adapter = load_adapter(game)
    figure = Figure(figsize=adapter.figsize)
    ax = adapter.setup(figure)
    adapter.draw(game.new_initial_state())  # the drawing sets the axes' limits
    ax.apply_aspect()
    size = game.options["size"]
    centres = {}
    for p in range(size * size):
        name = f"{'abcdefghijklmnopqrstuvwxy'[p % size]}{p // size + 1}"
        px, py = ax.transData.transform(adapter.cell_xy(name))
        centres[name] = (px / figure.bbox.width, 1 - py / figure.bbox.height)
    return centres


def test_play_a_placement_and_a_growth_turn_stone_by_stone(page: Page, voila_url, artifacts):
    centres = point_fractions(GAME)
    open_app(page, voila_url, "play_sygo.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    expect(page.locator(".tl-seat-0 select")).to_have_value("human")
    expect(page.locator(".tl-seat-1 select")).not_to_have_value("human")  # an agent replies as Black

    status, moves = board.locator(".tl-status"), board.locator(".tl-moves option")
    position = board.locator(".tl-position input")
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last  # the one taking clicks
    expect(position).to_have_value(GAME.new_initial_state().notation())
    expect(status).to_contain_text("White to move")

    def click(point: str) -> None:
        box = canvas.bounding_box()
        fx, fy = centres[point]
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})

    def agent_replies(after_human, n_moves: int):
        """Wait for Black's reply (move ``n_moves + 1``) and check the position it leads to."""
        expect(moves).to_have_count(n_moves + 2, timeout=STEP_MS)
        expect(status).not_to_contain_text("thinking", timeout=STEP_MS)
        reply = moves.nth(n_moves + 1).inner_text().replace("\xa0", " ")  # the list shows non-breaking spaces
        assert reply.startswith(f"{n_moves + 1}. Black: "), reply
        replied = after_human.clone()
        replied.apply_move(reply.split(": ", 1)[1])  # Black's move is legal after White's
        expect(position).to_have_value(replied.notation(), timeout=STEP_MS)
        return replied

    # Two placements, each answered by the agent: White then has groups to grow.
    rng = random.Random(0)
    state = GAME.new_initial_state()
    for _ in range(2):
        place = rng.choice([m for m in state.legal_moves() if m.startswith("place")])
        n_moves = moves.count()
        click(place.split()[1])
        expect(moves.nth(n_moves)).to_have_text(f"{n_moves}. White: {place}", timeout=STEP_MS)
        after = state.clone()
        after.apply_move(place)
        state = agent_replies(after, n_moves)
        assert state.current_player() == 0
    page.screenshot(path=artifacts / "sygo_after_placements.png", full_page=True)

    # A growth turn of two stones, clicked one by one, then "Finish turn".
    growth = [m for m in state.legal_moves() if m.startswith("grow") and len(m.split()) == 3]
    assert growth, f"White has no two-stone growth in {state.notation()}"
    move = rng.choice(growth)
    first, second = move.split()[1:]
    n_moves = moves.count()
    click(first)
    expect(status).to_contain_text(f"the move goes on after grow {first}", timeout=STEP_MS)
    expect(moves).to_have_count(n_moves)  # the move is not complete yet
    click(second)
    expect(status).to_contain_text(f"the move goes on after grow {first} grow {second}", timeout=STEP_MS)
    page.screenshot(path=artifacts / "sygo_growth_in_progress.png", full_page=True)
    expect(moves).to_have_count(n_moves)
    board.locator(".tl-actions button", has_text="Finish turn").click()
    expect(moves.nth(n_moves)).to_have_text(f"{n_moves}. White: {move}", timeout=STEP_MS)
    after = state.clone()
    after.apply_move(move)
    state = agent_replies(after, n_moves)
    expect(board.locator(".tl-errors")).to_have_text("")
    page.screenshot(path=artifacts / "sygo_after_growth.png", full_page=True)
