"""How long each Play app's agent takes to reply at the app's own setting, as a player sees it.

For each perfect-information app the position after a random first move of the human seat is
typed into the Position box and loaded: the agent to move then replies. The time from pressing
Load to the first frame painted with the agent's move in the move list is recorded
(``record_timing``, reported at the end of the session, never asserted: it depends on the
machine). Sinomilia's reply is timed from the press on a card, as a player sets it. What the
agent played is checked against the engine: its whole move, listed under its seat's name, and
then a human seat to move.
"""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect
from test_apps import CANVAS_DRAWN, FIRST_WIDGET_MS, STEP_MS, card_fractions, open_app

from tabletop_lab import load_game

pytestmark = pytest.mark.browser

SAMPLES = 3  # replies timed per app

#: app notebook -> its game, as the notebook loads it
PERFECT_APPS = {
    "play_cross_endodoi.ipynb": ("cross_endodoi", {}),
    "play_sinoda.ipynb": ("sinoda", {}),
    "play_sygo.ipynb": ("sygo", {"size": 9}),
    "play_capitals.ipynb": ("capitals", {}),
}

# Keeps, in ``window.tlPainted``, the page's time and the move list's length of the first frame
# painted after each change of the list, and in ``window.tlPressed`` the time of the latest press.
WATCH_MOVES = """board => {
    const moves = board.querySelector('.tl-moves');
    window.tlPainted = [];
    new MutationObserver(() => requestAnimationFrame(() => window.tlPainted.push(
        [performance.now(), moves.querySelectorAll('option').length])))
        .observe(moves, {subtree: true, childList: true});
    board.addEventListener('mousedown', event => { window.tlPressed = event.timeStamp; window.tlPainted = []; }, true);
}"""

# Seconds from the latest press to the first frame painted with at least ``count`` moves listed.
REPLY_SECONDS = """count => {
    const painted = window.tlPainted.find(([, listed]) => listed >= count);
    return painted ? (painted[0] - window.tlPressed) / 1000 : null;
}"""


def position_text(state) -> str:
    """The position as the Position box shows it: notation where the game has one, else JSON."""
    return state.notation() if state.game.info.has_notation else state.to_json()


def open_board(page: Page, voila_url: str, notebook: str):
    open_app(page, voila_url, notebook)
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    expect(page.locator(".tl-seat-0 select")).to_have_value("human")
    expect(page.locator(".tl-seat-1 select")).not_to_have_value("human")
    board.evaluate(WATCH_MOVES)
    return board


@pytest.mark.parametrize("notebook", list(PERFECT_APPS))
def test_the_agent_replies_to_a_loaded_position(page: Page, voila_url, record_timing, notebook):
    name, options = PERFECT_APPS[notebook]
    game = load_game(name, **options)
    agent_name = game.info.player_names[1]
    board = open_board(page, voila_url, notebook)
    moves, status = board.locator(".tl-moves option"), board.locator(".tl-status")
    position = board.locator(".tl-position input")
    rng = random.Random(0)
    for _ in range(SAMPLES):
        state = game.new_initial_state()
        state.apply_move(rng.choice(state.legal_moves()))
        assert state.current_player() == 1, "after the human's first move the agent is to move"
        position.fill(position_text(state))
        board.locator(".tl-load").click()
        seconds = page.wait_for_function(REPLY_SECONDS, arg=2, timeout=STEP_MS, polling=100).json_value()
        record_timing(f"{notebook}: Load pressed to the agent's move listed", seconds)

        expect(moves).to_have_count(2)
        expect(moves.nth(1)).to_contain_text(f"{agent_name}:")
        expect(status).not_to_contain_text("thinking", timeout=STEP_MS)
        replied = state.clone()
        listed = moves.nth(1).inner_text().replace("\xa0", " ")  # ipywidgets' Select keeps spaces as no-break ones
        replied.apply_move(listed.rsplit(":", 1)[1].strip())  # a legal whole move
        expect(position).to_have_value(position_text(replied), timeout=STEP_MS)
        assert replied.is_terminal() or replied.current_player() in (0, 2)  # a human seat: no agent moves on
    expect(board.locator(".tl-errors")).to_have_text("")


def test_the_sinomilia_agent_sets_its_card(page: Page, voila_url, record_timing):
    board = open_board(page, voila_url, "play_sinomilia.ipynb")
    moves, position = board.locator(".tl-moves option"), board.locator(".tl-position input")
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last
    for sample in range(SAMPLES):
        if sample:
            board.locator(".tl-new-game").click()
            expect(moves).to_have_count(1, timeout=STEP_MS)
        fx, fy = card_fractions()[4]
        box = canvas.bounding_box()
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})  # Orange sets the 4
        seconds = page.wait_for_function(REPLY_SECONDS, arg=3, timeout=STEP_MS, polling=100).json_value()
        record_timing("play_sinomilia.ipynb: card pressed to the agent's card listed", seconds)
        expect(moves.nth(1)).to_contain_text("Orange: set 4")
        expect(moves.nth(2)).to_contain_text("Green: set ?")  # the agent's card stays hidden
        view = json.loads(position.input_value())
        assert view["set"][0] == 4 and view["hands"][1] is None
    expect(board.locator(".tl-errors")).to_have_text("")
