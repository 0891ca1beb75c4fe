"""The hidden-information oracle in a real browser: two deals that differ only in cards the viewer
may not see look the same to the viewer, byte for byte, until the reveal.

Two Play Sinomilia apps are served, alike but for the deal: Green (start player) has set its card,
7 in one and 2 in the other (its hand holds the rest), and Orange is to set; both seats are people
at one screen. Orange takes the screen (Ready), sets the 4 by a click and the hand-over curtain comes down. Everything the
page received from its kernel over the websocket until then (every widget's state and every
state of the page's widgets, the random widget ids numbered in order of appearance), the page's
text and the board's pixels must be identical in both: nothing in them depends on Green's cards.
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tabletop_lab import load_game
from tests.browser.test_apps import (
    CANVAS_DRAWN,
    FIRST_WIDGET_MS,
    GOTO_MS,
    STEP_MS,
    app_url,
    card_fractions,
    expect_no_cell_errors,
)
from tests.browser.test_serve import write_code_notebook

pytestmark = pytest.mark.browser

GREEN_CARDS = (7, 2)
FIGURE_NUMBER = re.compile(r"Figure \d+")
# A widget of ipympl's, in an update_states or comm_open message: ``"<widget N>": {"model_name": ...``.
CANVAS = re.compile(r'"(<widget \d+>)": \{"model_name": "\w+", "model_module": "jupyter-matplotlib"')
WIDGET_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}(?![0-9a-f])")

# One deal's app: the position after Green's ``set {card}``, two people at the screen.
APP_CODE = """%matplotlib widget
from tabletop_lab.widgets import Board
Board("sinomilia", position={position!r}, seats=["human", "human"])"""


def deal_checkout(root: Path) -> Path:
    """``root`` with a gallery and one Play Sinomilia app per card of ``GREEN_CARDS``."""
    apps = root / "notebooks" / "apps"
    apps.mkdir(parents=True)
    write_code_notebook(apps / "index.ipynb", "print('gallery page')")
    for card in GREEN_CARDS:
        state = load_game("sinomilia", first_player=1).new_initial_state()
        state.apply_move(f"set {card}")
        meta = {"title": f"Deal {card}", "description": "a deal", "game": "sinomilia"}
        write_code_notebook(apps / f"deal_{card}.ipynb", APP_CODE.format(position=state.to_json()), meta)
    return root


def kernel_messages(payload: bytes | str) -> list[dict]:
    """The Jupyter messages of one websocket frame: JSON text, or the binary
    ``v1.kernel.websocket.jupyter.org`` framing (offsets, then channel, header, parent header,
    metadata, content and buffers)."""
    if isinstance(payload, str):
        message = json.loads(payload)
        return [{"channel": message.get("channel"), "msg_type": message["header"]["msg_type"],
                 "content": message["content"], "buffers": []}]  # fmt: skip
    count = struct.unpack_from("<Q", payload, 0)[0]
    offsets = [*struct.unpack_from(f"<{count}Q", payload, 8), len(payload)]
    parts = [payload[offsets[i] : offsets[i + 1]] for i in range(count)]
    header, content = json.loads(parts[1]), json.loads(parts[4])
    return [{"channel": parts[0].decode(), "msg_type": header["msg_type"], "content": content, "buffers": parts[5:]}]


def widget_traffic(frames: list) -> list:
    """What the widgets received, in order: each message to a widget, with each widget id (a
    random uuid, as a comm id, an ``IPY_MODEL_`` reference or a key of ``update_states``) replaced
    by its number of appearance and matplotlib's figure numbers (object addresses) left out.
    The canvas's own transport (ipympl's image frames, diff or full, its cursor) follows the
    browser's timing, not the game, so its messages are left out here: its pixels are compared."""
    numbers: dict[str, int] = {}

    def number(match: re.Match) -> str:
        return f"<widget {numbers.setdefault(match.group(0), len(numbers))}>"

    traffic, canvases = [], set()
    for frame in frames:
        for message in kernel_messages(frame):
            if message["msg_type"] not in ("comm_open", "comm_msg", "comm_close"):
                continue
            content = FIGURE_NUMBER.sub("Figure", WIDGET_ID.sub(number, json.dumps(message["content"])))
            canvases.update(CANVAS.findall(content))
            comm = json.loads(content)["comm_id"]
            if comm not in canvases:
                traffic.append((message["msg_type"], content, [bytes(b) for b in message["buffers"]]))
    return traffic


def what_orange_gets(page: Page, base: str, green_card: int, show_all: bool = False) -> dict:
    """Open the deal where Green set ``green_card`` (``show_all``: and press "Show all cards"),
    set Orange's 4 by a click, and return what reached Orange's page once Green is to move
    (behind the hand-over curtain, unless all cards are shown): the kernel's widget traffic, the
    page's text, the position box and the board's pixels."""
    frames: list = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(app_url(base, f"deal_{green_card}.ipynb"), timeout=GOTO_MS)
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    expect_no_cell_errors(page)
    expect(board).to_contain_text("Hand the screen to Orange")  # two people: Orange takes the screen first
    board.locator(".tl-ready").click()
    position = board.locator(".tl-position input")
    expect(position).not_to_have_value("", timeout=STEP_MS)
    assert json.loads(position.input_value())["observer"] == 0, "Orange should be at the screen"
    if show_all:
        board.locator(".tl-show-all").click()
        expect(board.locator(".tl-show-all")).to_have_text("Hide cards", timeout=STEP_MS)
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last
    fx, fy = card_fractions()[4]
    box = canvas.bounding_box()
    canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})
    page.mouse.move(0, 0)
    expect(board.locator(".tl-status")).to_contain_text("Green to move", timeout=STEP_MS)
    page.wait_for_timeout(1500)  # the last pictures and updates arrive
    return {
        "traffic": widget_traffic(frames),
        "text": page.locator("body").inner_text(),
        "position": position.input_value(),
        "pixels": board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").first.evaluate(
            "c => c.toDataURL()"
        ),
    }


def test_two_deals_look_the_same_to_orange_until_the_reveal(context, tmp_path_factory, start_voila):
    _, url = start_voila(deal_checkout(tmp_path_factory.mktemp("deals")), preheat=0)
    seven, two = (what_orange_gets(context.new_page(), url, card) for card in GREEN_CARDS)
    assert seven["traffic"], "no widget traffic was recorded"
    assert "Hand the screen to Green" in seven["text"] and "7" not in seven["position"]
    for part in ("text", "position", "pixels"):
        assert seven[part] == two[part], f"the {part} Orange sees depends on Green's cards"
    assert len(seven["traffic"]) == len(two["traffic"])
    for index, (a, b) in enumerate(zip(seven["traffic"], two["traffic"])):
        assert a == b, f"kernel message {index} ({a[0]}) to Orange's page depends on Green's cards: {a[1][:200]}"


def test_the_oracle_sees_a_card_once_all_cards_are_shown(context, tmp_path_factory, start_voila):
    """The same comparison with "Show all cards" pressed before the move: now Green's card is on
    the screen, and the oracle must tell the deals apart."""
    _, url = start_voila(deal_checkout(tmp_path_factory.mktemp("shown")), preheat=0)
    seven, two = (what_orange_gets(context.new_page(), url, card, show_all=True) for card in GREEN_CARDS)
    assert seven["traffic"] != two["traffic"] and seven["pixels"] != two["pixels"]
