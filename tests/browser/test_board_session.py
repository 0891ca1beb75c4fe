"""The Play board shows one session state at a time, in a real browser (Sinomilia against its agent).

Every part of the board carries the number of the session state it shows (CSS ``tl-n-<N>``):
the picture, the status line, the move list and the action buttons, and the board itself last.
A ``MutationObserver`` records the numbers after every DOM change while a round is played: no
part is ever behind the board, and whenever the board turns to N every part shows N (no picture
or status left behind; the parts of the next state may arrive before the board's own number).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_apps import CANVAS_DRAWN, FIRST_WIDGET_MS, STEP_MS, card_fractions, open_app

pytestmark = pytest.mark.browser

# Records, after every DOM change in the board, the state number each part shows.
RECORD_NUMBERS = """board => {
    const number = el => el ? ([...el.classList].find(c => c.startsWith('tl-n-')) || '') : 'missing';
    const parts = {canvas: '.tl-board-canvas', status: '.tl-status', moves: '.tl-moves', actions: '.tl-actions'};
    window.tlNumbers = [];
    const record = () => {
        const seen = {board: number(board)};
        for (const [name, css] of Object.entries(parts)) seen[name] = number(board.querySelector(css));
        window.tlNumbers.push(seen);
    };
    record();
    new MutationObserver(record).observe(board, {subtree: true, attributes: true, childList: true, characterData: true});
}"""


def test_every_part_shows_the_state_the_board_says(page: Page, voila_url):
    open_app(page, voila_url, "play_sinomilia.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    board.evaluate(RECORD_NUMBERS)
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last
    status = board.locator(".tl-status")
    fx, fy = card_fractions()[4]
    box = canvas.bounding_box()
    canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})  # Orange sets the 4
    page.mouse.move(0, 0)
    expect(board.locator(".tl-moves option")).to_have_count(3, timeout=STEP_MS)  # the agent set its card
    expect(status).not_to_contain_text("thinking", timeout=STEP_MS)
    for label in ("chip (sun)", "pass"):
        if not board.locator(".tl-action", has_text=label).count():
            break
        count = board.locator(".tl-moves option").count()
        board.locator(".tl-action", has_text=label).click()
        expect(board.locator(".tl-moves option")).not_to_have_count(count, timeout=STEP_MS)
        expect(status).not_to_contain_text("thinking", timeout=STEP_MS)
    page.wait_for_timeout(500)  # the last changes reach the page
    records = page.evaluate("window.tlNumbers")
    numbers = {record["board"] for record in records}
    assert len(numbers) >= 4, numbers  # the card, the agent's thinking and reply, a chip ...

    def number(tag: str) -> int:
        return int(tag.removeprefix("tl-n-"))

    # The parts of state N+1 may arrive while the board still says N, never after it: no part is
    # ever behind the board, and the moment the board says N, every part shows N.
    tagged = [record for record in records if all(record.values())]
    behind = [r for r in tagged if any(number(v) < number(r["board"]) for v in r.values())]
    assert not behind, behind[:5]
    turned = [r for prev, r in zip(tagged, tagged[1:]) if r["board"] != prev["board"]]
    assert len(turned) >= 3 and all(len(set(r.values())) == 1 for r in turned), turned[:5]
    final = records[-1]
    assert len(set(final.values())) == 1 and final["board"].startswith("tl-n-")
