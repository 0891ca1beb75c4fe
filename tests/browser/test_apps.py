"""The Voila apps in a real browser: the gallery, a game played by clicks, a simulation run.

Each test drives what a person would: it clicks on the board's canvas at a hole's pixel
(computed from the board adapter's geometry), presses buttons, reads labels. Timings are
recorded for the end-of-session report (``conftest.record_timing``), never asserted; a click is
timed inside the page (``TIME_CLICK``), from the mouse press to the frame that shows its result,
so that neither Playwright's round trips nor its polling are counted.
Screenshots go to ``test-artifacts/browser/``.
"""

from __future__ import annotations

import base64
import io
import json
import random
import re
import time
import urllib.error
import urllib.request

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.image import imread, imsave
from playwright.sync_api import Page, expect

from tabletop_lab import load_game
from tabletop_lab.render import figure_png
from tabletop_lab.serve import LANDING, list_apps
from tabletop_lab.widgets import load_adapter
from tabletop_lab.widgets.links import share_query
from tests.browser.conftest import wait_until_preheated

pytestmark = pytest.mark.browser

GOTO_MS = 120_000  # Voila runs the whole notebook before it answers
FIRST_WIDGET_MS = 60_000
STEP_MS = 30_000  # one move, an agent's reply, a short simulation
CLICKS = 10  # moves played by clicks in the play test (latency sample)
# A closed tab's kernel must go well before culling could take it (CULL_IDLE_TIMEOUT, 120 s idle).
SHUTDOWN_S = 60

# True once ipympl has put an image on the board's canvas (the lower of its two canvases).
CANVAS_DRAWN = """board => {
    const canvas = board.querySelector('.tl-board-canvas .jupyter-matplotlib-canvas-div canvas');
    if (!canvas || !canvas.width) return false;
    const blank = document.createElement('canvas');
    blank.width = canvas.width; blank.height = canvas.height;
    return canvas.toDataURL() !== blank.toDataURL();
}"""

# What a move changes on the board: the move list, the status and the canvas image.
BOARD_SNAPSHOT = """board => ({
    moves: board.querySelectorAll('.tl-moves option').length,
    status: board.querySelector('.tl-status').textContent,
    image: board.querySelector('.tl-board-canvas .jupyter-matplotlib-canvas-div canvas').toDataURL(),
})"""

# Keeps every text the status label shows in ``window.tlStatusLog`` (reset it per move).
WATCH_STATUS = """board => {
    const label = board.querySelector('.tl-status');
    window.tlStatusLog = [];
    new MutationObserver(() => window.tlStatusLog.push(label.textContent))
        .observe(label, {subtree: true, childList: true, characterData: true});
}"""

# Times, in the page's clock, what a person sees after pressing the mouse on the board: the
# first frame painted once the move list has grown, and the first frame painted once ipympl has
# copied a picture other than ``window.tlBeforeImage`` onto the board's visible canvas.
# ``window.tlClick`` holds them for the latest press.
TIME_CLICK = """board => {
    const shown = board.querySelector('.tl-board-canvas .jupyter-matplotlib-canvas-div canvas');
    const moves = board.querySelector('.tl-moves');
    const count = () => moves.querySelectorAll('option').length;
    const paintedWhen = (key, changed) => requestAnimationFrame(() => {
        const now = performance.now(), click = window.tlClick;
        if (click && click[key] === null && changed(click)) click[key] = now;
    });
    board.addEventListener('mousedown', event => {
        window.tlClick = {down: event.timeStamp, count: count(), before: window.tlBeforeImage, moves: null, picture: null};
    }, true);
    new MutationObserver(() => paintedWhen('moves', click => count() > click.count))
        .observe(moves, {subtree: true, childList: true});
    const drawImage = CanvasRenderingContext2D.prototype.drawImage;
    CanvasRenderingContext2D.prototype.drawImage = function (...args) {
        const result = drawImage.apply(this, args);
        if (this.canvas === shown) paintedWhen('picture', click => shown.toDataURL() !== click.before);
        return result;
    };
}"""

# ``window.tlClick`` once both times are known.
CLICK_TIMED = "window.tlClick && window.tlClick.moves !== null && window.tlClick.picture !== null && window.tlClick"

# True once the move list grew since ``before``.
MOVES_CHANGED = """([board, before]) => board.querySelectorAll('.tl-moves option').length > before.moves"""

# True once the canvas shows another image than in ``before``.
IMAGE_CHANGED = """([board, before]) =>
    board.querySelector('.tl-board-canvas .jupyter-matplotlib-canvas-div canvas').toDataURL() !== before.image"""


def app_url(base: str, notebook: str) -> str:
    return f"{base}/voila/render/{notebook}"


def open_app(page: Page, base: str, notebook: str) -> float:
    """Open an app once the server has a kernel ready for it; return the seconds from ``goto``
    until its first widget is visible."""
    wait_until_preheated(notebook)
    started = time.perf_counter()
    page.goto(app_url(base, notebook), timeout=GOTO_MS)
    expect(page.locator(".tl-board, .tl-sim").first).to_be_visible(timeout=FIRST_WIDGET_MS)
    expect_no_cell_errors(page)
    return time.perf_counter() - started


def expect_no_cell_errors(page: Page) -> None:
    """Voila (show_tracebacks) renders a failed cell as an error output: there must be none."""
    expect(page.locator('[data-mime-type="application/vnd.jupyter.error"]')).to_have_count(0)
    expect(page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')).to_have_count(0)


def hole_fractions(game_name: str) -> dict[int, tuple[float, float]]:
    """Each cell's centre as fractions of the canvas from its top left, exactly as the board's
    adapter lays out its figure (``Board.cell_centre`` does the same inside the kernel)."""
    adapter = load_adapter(load_game(game_name))
    figure = Figure(figsize=adapter.figsize)
    ax = adapter.setup(figure)
    ax.apply_aspect()
    centres = {}
    for hole in range(12):
        px, py = ax.transData.transform(adapter.cell_xy(hole))
        centres[hole] = (px / figure.bbox.width, 1 - py / figure.bbox.height)
    return centres


def kernel_status(base: str, kernel_id: str) -> int:
    """HTTP status of the server's record of one kernel: 200 while it runs, 404 once gone."""
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


# ----------------------------------------------------------------------------- gallery


def test_gallery_links_every_app(page: Page, voila_url, artifacts, record_timing):
    apps = list_apps()
    assert {"play_cross_endodoi.ipynb", "study.ipynb"} <= {app.notebook for app in apps}

    started = time.perf_counter()  # the server answers the gallery itself: no kernel to wait for
    page.goto(app_url(voila_url, LANDING), timeout=GOTO_MS)
    cards = page.locator(".tl-app-card")
    expect(cards).to_have_count(len(apps), timeout=FIRST_WIDGET_MS)
    record_timing("gallery: goto to cards shown", time.perf_counter() - started)
    expect_no_cell_errors(page)
    for app in apps:
        card = page.locator(f'.tl-app-card[href="{app.notebook}"]')
        expect(card).to_contain_text(app.title)
        expect(card).to_contain_text(app.description)
        thumbnail = card.locator("img")
        expect(thumbnail).to_be_visible()
        assert thumbnail.evaluate("img => img.complete && img.naturalWidth > 0"), f"{app.notebook}: no thumbnail"
    expect(page.get_by_text("jupyter lab notebooks/index.ipynb")).to_be_visible()
    page.screenshot(path=artifacts / "gallery.png", full_page=True)

    for app in apps:
        page.goto(app_url(voila_url, LANDING), timeout=GOTO_MS)
        page.locator(f'.tl-app-card[href="{app.notebook}"]').click()
        page.wait_for_url(f"**/voila/render/{app.notebook}", timeout=GOTO_MS)
        expect(page.locator(".tl-board, .tl-sim").first).to_be_visible(timeout=FIRST_WIDGET_MS)
        expect(page.locator("h1")).to_contain_text(app.title)
        expect_no_cell_errors(page)


# ----------------------------------------------------------------------------- play


def test_a_shared_link_opens_the_play_app_at_its_move(page: Page, voila_url, record_timing):
    """The link a teacher copies ("Link to this position") opens the app on that game at that
    move; the app's kernel was started before the link was asked for (preheated), so the link
    reaches it only through ``page_query``."""
    game = load_game("cross_endodoi", seeds_per_hole=6)
    state = game.new_initial_state()
    for move in ("2", "8"):
        state.apply_move(move)
    link = share_query(game, None, ["2", "8"], 2)
    wait_until_preheated("play_cross_endodoi.ipynb")
    started = time.perf_counter()
    page.goto(app_url(voila_url, "play_cross_endodoi.ipynb") + "?" + link, timeout=GOTO_MS)
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    record_timing("play app: shared link to board drawn", time.perf_counter() - started)
    expect_no_cell_errors(page)
    expect(board.locator(".tl-position input")).to_have_value(state.notation())
    expect(board.locator(".tl-moves option")).to_have_count(3)  # the start and two moves
    expect(board.locator(".tl-status")).to_contain_text("South to move")

    # "Copy link" puts the whole address of this game at this move on the clipboard.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=voila_url)
    board.locator(".tl-copy-link").click()
    expect(board.locator(".tl-copy-link")).to_have_text("Copied", timeout=STEP_MS)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == app_url(voila_url, "play_cross_endodoi.ipynb") + "?" + link


# The alpha of the board's top canvas (ipympl's overlay) in its bottom right corner.
CORNER_ALPHA = """board => {
    const top = board.querySelectorAll('.tl-board-canvas .jupyter-matplotlib-canvas-div canvas')[1];
    return top.getContext('2d').getImageData(top.width - 4, top.height - 4, 1, 1).data[3];
}"""


def test_the_board_has_no_resize_handle(page: Page, voila_url):
    """ipympl draws a resize handle in the canvas's corner when its view is resizable; a board
    keeps its size, so a handle there would be a control that does nothing."""
    open_app(page, voila_url, "play_cross_endodoi.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    page.wait_for_function(f"board => ({CORNER_ALPHA})(board) === 0", arg=board.element_handle(), timeout=STEP_MS)


def test_play_by_clicking_holes(page: Page, voila_url, artifacts, record_timing):
    game = load_game("cross_endodoi")
    centres = hole_fractions(game.name)
    wait_until_preheated("play_cross_endodoi.ipynb")  # as open_app does, before the clock starts
    started = time.perf_counter()
    record_timing("play app: goto to first widget", open_app(page, voila_url, "play_cross_endodoi.ipynb"))
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    record_timing("play app: goto to board drawn", time.perf_counter() - started)
    expect(page.locator(".tl-seat-0 select")).to_have_value("human")
    expect(page.locator(".tl-seat-1 select")).not_to_have_value("human")  # an agent replies

    status, moves = board.locator(".tl-status"), board.locator(".tl-moves option")
    position = board.locator(".tl-position input")
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last  # the one taking clicks
    board.evaluate(WATCH_STATUS)
    board.evaluate(TIME_CLICK)
    rng = random.Random(0)
    for click in range(CLICKS):
        state = game.load_position(position.input_value())
        if state.is_terminal():
            board.locator(".tl-new-game").click()
            state = game.new_initial_state()
            expect(position).to_have_value(state.notation(), timeout=STEP_MS)
            expect(moves).to_have_count(1)
            expect(status).to_have_text("South to move")
        assert state.current_player() == 0, f"South (the human seat) should be to move: {status.inner_text()}"
        hole = rng.choice(state.legal_actions())
        played = state.child(hole)

        box = canvas.bounding_box()
        fx, fy = centres[hole]
        point = {"x": fx * box["width"], "y": fy * box["height"]}
        canvas.hover(position=point)  # as a person's pointer does: the board previews the move
        expect(board.locator(".tl-hover")).not_to_have_text("", timeout=STEP_MS)
        page.wait_for_timeout(300)  # the preview's image follows its label
        before = board.evaluate(BOARD_SNAPSHOT)
        page.evaluate("image => { window.tlStatusLog = []; window.tlBeforeImage = image; }", before["image"])
        canvas.click(position=point)
        times = page.wait_for_function(CLICK_TIMED, timeout=STEP_MS, polling=100).json_value()  # not every frame
        handle = board.element_handle()
        assert page.evaluate(MOVES_CHANGED, [handle, before]) and page.evaluate(IMAGE_CHANGED, [handle, before])
        record_timing("play app: press to move list painted", (times["moves"] - times["down"]) / 1000)
        record_timing("play app: press to new board picture painted", (times["picture"] - times["down"]) / 1000)

        expect(moves.nth(before["moves"])).to_contain_text(f"South: {hole}")
        if played.is_terminal():
            expect(status).to_contain_text("Game over", timeout=STEP_MS)
            continue
        # The agent (North) replies: one more entry, and South is to move again.
        expect(moves).to_have_count(before["moves"] + 2, timeout=STEP_MS)
        expect(moves.nth(before["moves"] + 1)).to_contain_text("North")
        expect(status).not_to_contain_text("thinking", timeout=STEP_MS)
        expect(position).not_to_have_value(played.notation(), timeout=STEP_MS)  # may trail the list
        shown = page.evaluate("window.tlStatusLog")
        assert any(text.startswith("North") and "thinking" in text for text in shown), shown
        replied = game.load_position(position.input_value())
        assert replied.is_terminal() or replied.current_player() == 0
        expect(status).to_contain_text("Game over" if replied.is_terminal() else "South to move")
        if click == 0:
            page.wait_for_timeout(400)  # the canvas image lags the labels a little
            page.screenshot(path=artifacts / "play_after_first_move.png", full_page=True)
    expect(board.locator(".tl-errors")).to_have_text("")
    page.screenshot(path=artifacts / "play.png", full_page=True)


def canvas_pixels(board) -> np.ndarray:
    """The RGB pixels the board's canvas shows."""
    url = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").first.evaluate("c => c.toDataURL()")
    return imread(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))[..., :3]


def fresh_pixels(state, human_to_move: bool) -> np.ndarray:
    """``state`` drawn by a new adapter on a new figure, as the board draws it (legal holes ringed
    when a human is to move)."""
    adapter = load_adapter(state.game)
    figure = Figure(figsize=adapter.figsize)
    adapter.setup(figure)
    targets = frozenset(state.legal_actions()) if human_to_move else frozenset()
    adapter.draw(state, targets=targets)
    return imread(io.BytesIO(figure_png(figure)))[..., :3]


def shown_state(board, start):
    """The state the board shows: ``start`` with the listed moves up to the one selected."""
    labels, selected = board.locator(".tl-moves select").evaluate(
        "s => [[...s.options].map(o => o.textContent), s.selectedIndex]"
    )
    state = start.clone()
    for label in labels[1 : selected + 1]:
        state.apply_move(label.rsplit(":", 1)[1].strip())
    return state


def expect_picture_of_the_state(page: Page, board, start, *, human_to_move: bool = True) -> None:
    """Within ``STEP_MS`` the canvas shows exactly a fresh drawing of the state the board lists."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        state = shown_state(board, start)
        shown, expected = canvas_pixels(board), fresh_pixels(state, human_to_move and not state.is_terminal())
        if shown.shape == expected.shape and np.array_equal(shown, expected):
            return
        if time.monotonic() > deadline:
            differ = (
                "size" if shown.shape != expected.shape else f"{np.mean(np.any(shown != expected, -1)):.1%} of pixels"
            )
            raise AssertionError(f"the picture is not the state's ({differ} differ): {state.notation()}")
        page.wait_for_timeout(200)


def test_the_picture_is_always_the_states(page: Page, voila_url, artifacts):
    """The sequences that once left a stale or mixed picture: a seat switched to human while its
    agent thinks, then New game and a click; Undo and Redo; failed Loads, then a valid Load of a
    finished position; a seat given back to an agent, which replies."""
    game = load_game("cross_endodoi")
    centres = hole_fractions(game.name)
    open_app(page, voila_url, "play_cross_endodoi.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last
    moves, position = board.locator(".tl-moves option"), board.locator(".tl-position input")

    def click_hole(hole):
        box = canvas.bounding_box()
        fx, fy = centres[hole]
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})
        page.mouse.move(0, 0)  # off the board: no hover preview in the picture

    start = game.new_initial_state()
    click_hole(2)
    expect(board.locator(".tl-status")).to_contain_text("thinking", timeout=STEP_MS)
    page.locator(".tl-seat-1 select").select_option("human")
    board.locator(".tl-new-game").click()
    expect(moves).to_have_count(1, timeout=STEP_MS)
    click_hole(3)
    expect(moves).to_have_count(2, timeout=STEP_MS)
    page.wait_for_timeout(1500)  # time for a cancelled reply or its animation to arrive, if it would
    expect_picture_of_the_state(page, board, start)

    click_hole(shown_state(board, start).legal_actions()[0])  # North's, now human
    expect(moves).to_have_count(3, timeout=STEP_MS)
    selected = "([b, i]) => b.querySelector('.tl-moves select').selectedIndex === i"
    board.locator(".tl-undo").click()
    page.wait_for_function(selected, arg=[board.element_handle(), 1], timeout=STEP_MS)
    expect_picture_of_the_state(page, board, start)
    board.locator(".tl-redo").click()
    page.wait_for_function(selected, arg=[board.element_handle(), 2], timeout=STEP_MS)
    expect_picture_of_the_state(page, board, start)

    for bad in ("4,4,4/2 0-0 1", "{not json"):
        position.fill(bad)
        position.press("Enter")
        expect(board.locator(".tl-errors")).not_to_have_text("", timeout=STEP_MS)
    finished = "0,0,0,0,0,0/0,0,0,0,0,2 20-14 0"  # South cannot move: the game is over
    assert game.load_position(finished).is_terminal()
    position.fill(finished)
    position.press("Enter")
    expect(board.locator(".tl-status")).to_contain_text("Game over", timeout=STEP_MS)
    expect(board.locator(".tl-errors")).to_have_text("")
    expect_picture_of_the_state(page, board, game.load_position(finished))

    board.locator(".tl-new-game").click()
    click_hole(1)
    expect(moves).to_have_count(2, timeout=STEP_MS)
    page.locator(".tl-seat-1 select").select_option(index=1)  # an agent for North, to move: it replies
    expect(moves).to_have_count(3, timeout=STEP_MS)
    expect(board.locator(".tl-status")).to_have_text("South to move", timeout=STEP_MS)
    expect_picture_of_the_state(page, board, start)
    page.screenshot(path=artifacts / "play_picture_checks.png", full_page=True)


def test_play_refuses_an_opponent_hole(page: Page, voila_url):
    open_app(page, voila_url, "play_cross_endodoi.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last
    box = canvas.bounding_box()
    fx, fy = hole_fractions("cross_endodoi")[8]  # one of North's holes
    canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})
    expect(board.locator(".tl-errors")).to_contain_text("belongs to North", timeout=STEP_MS)
    expect(board.locator(".tl-moves option")).to_have_count(1)
    expect(board.locator(".tl-status")).to_have_text("South to move")


# ----------------------------------------------------------------------------- study


def test_study_runs_a_simulation(page: Page, voila_url, artifacts, record_timing):
    seconds = open_app(page, voila_url, "study.ipynb")
    record_timing("study app: goto to first widget", seconds)
    panel = page.locator(".tl-sim")
    status = panel.locator(".tl-sim-status")
    expect(status).to_have_text("idle")
    n_games = 400  # a few seconds of random and greedy play: long enough to watch it run
    games = panel.locator(".tl-sim-games input")
    games.fill(str(n_games))
    games.press("Enter")
    agents = [panel.locator(f".tl-seat-{seat} select").input_value() for seat in (0, 1)]

    panel.locator(".tl-sim-run").click()
    expect(status).to_contain_text("running", timeout=STEP_MS)
    expect(panel.locator(".widget-hprogress")).to_be_visible()
    page.screenshot(path=artifacts / "study_running.png", full_page=True)
    expect(status).to_contain_text("done", timeout=120_000)
    expect(status).to_contain_text(f"{n_games} games")
    expect(panel.locator(".widget-hprogress .progress-bar")).to_have_attribute("style", re.compile(r"width: 100%"))
    table = panel.locator(".tl-sim-table")
    expect(table.locator("table").first).to_be_visible()
    for agent in set(agents):  # a picker's words ("Random", "MCTS, 300 playouts"), the table's label ("random")
        expect(table.locator("table").first).to_contain_text(agent.split(",")[0], ignore_case=True)
    expect(panel.locator(".tl-errors")).to_have_text("")
    page.wait_for_timeout(400)
    page.screenshot(path=artifacts / "study.png", full_page=True)


def test_study_compares_two_variants_in_its_variant_lab(page: Page, voila_url, artifacts):
    """The Variant lab tab: Skip origin in variant B only, 20 paired random games, a table of differences."""
    open_app(page, voila_url, "study.ipynb")
    page.get_by_role("tab", name="Variant lab").click()
    lab = page.locator(".tl-variant")
    expect(lab).to_be_visible()
    status = lab.locator(".tl-variant-status")
    expect(status).to_have_text("idle")
    games = lab.locator(".tl-variant-games input")
    games.fill("20")
    games.press("Enter")
    lab.locator(".tl-variant-options-b input[type=checkbox]").first.check()
    lab.locator(".tl-variant-run").click()
    expect(status).to_contain_text("done: 20 paired games", timeout=120_000)
    table = lab.locator(".tl-variant-table table")
    expect(table).to_contain_text("B − A (95% CI)")
    for metric in ("advantage_first", "duration_turns", "lead_change"):
        expect(table).to_contain_text(metric)
    expect(lab.locator(".tl-variant-downloads")).to_contain_text("Download the differences (CSV)")
    expect(lab.locator(".tl-errors")).to_have_text("")
    page.wait_for_timeout(400)
    page.screenshot(path=artifacts / "study_variant_lab.png", full_page=True)


def test_study_stops_on_request_and_when_its_tab_closes(context, voila_url, artifacts, record_timing):
    """Stop keeps the finished games; a run still going when the tab closes ends with its kernel."""
    page = context.new_page()
    open_app(page, voila_url, "study.ipynb")
    panel = page.locator(".tl-sim")
    status = panel.locator(".tl-sim-status")
    games = panel.locator(".tl-sim-games input")
    games.fill("1000000")
    games.press("Enter")
    panel.locator(".tl-sim-run").click()
    expect(status).to_contain_text("left", timeout=STEP_MS)  # running, with an estimate of the time left
    panel.locator(".tl-sim-stop").click()
    expect(status).to_contain_text("stopped:", timeout=STEP_MS)
    expect(panel.locator(".tl-sim-downloads")).to_contain_text("Download the rows")

    panel.locator(".tl-sim-run").click()
    expect(status).to_contain_text("running", timeout=STEP_MS)
    kernel = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    page.close(run_before_unload=True)
    wait_until_kernel_gone(voila_url, kernel, artifacts, record_timing, "study app", processes=True)


def kernel_processes(kernel_id: str) -> list:
    """Processes started for the kernel (its connection file names it), children included."""
    import psutil

    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if any(kernel_id in part for part in proc.info["cmdline"] or ()):
            found.append(proc)
            found += proc.children(recursive=True)
    return [p for p in found if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def wait_until_kernel_gone(base: str, kernel: str, artifacts, record_timing, app: str, processes: bool = False) -> None:
    """Wait until the server has shut ``kernel`` down (and, with ``processes``, every process it
    started has ended); record how long it took. A kernel still there after ``SHUTDOWN_S`` fails
    the test, saying whether the server ever received the shutdown request (its log names it)."""
    closed = time.monotonic()
    while kernel_status(base, kernel) != 404 or (processes and kernel_processes(kernel)):
        if time.monotonic() - closed > SHUTDOWN_S:
            requested = f"Kernel shutdown: {kernel}" in (artifacts / "voila.log").read_text(errors="replace")
            pytest.fail(
                f"kernel {kernel} still runs {SHUTDOWN_S} s after its tab closed; the server "
                f"{'logged' if requested else 'never logged'} its shutdown request (see {artifacts / 'voila.log'})"
            )
        time.sleep(0.5)
    record_timing(f"{app}: tab closed to kernel shut down", time.monotonic() - closed)


# ----------------------------------------------------------------------------- kernels


def test_closing_a_tab_shuts_its_kernel(context, voila_url, artifacts, record_timing):
    """The page's shutdown beacon carries no XSRF token: it works only with the XSRF fix."""
    wait_until_preheated("play_cross_endodoi.ipynb")  # a server still refilling its pools is slow to answer
    page = context.new_page()
    page.goto(app_url(voila_url, "play_cross_endodoi.ipynb"), timeout=GOTO_MS)  # the gallery has no kernel
    expect(page.locator(".tl-board").first).to_be_visible(timeout=FIRST_WIDGET_MS)
    kernel = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    assert kernel_status(voila_url, kernel) == 200

    page.close(run_before_unload=True)
    wait_until_kernel_gone(voila_url, kernel, artifacts, record_timing, "play app")


def test_a_tab_gone_without_its_beacon_frees_its_kernel(context, voila_url, artifacts, record_timing):
    """A page that disappears without running its unload handlers (a crashed browser, a page too
    busy to send the beacon) leaves its kernel with no connection: the server shuts it down."""
    wait_until_preheated("play_cross_endodoi.ipynb")
    page = context.new_page()
    page.goto(app_url(voila_url, "play_cross_endodoi.ipynb"), timeout=GOTO_MS)
    expect(page.locator(".tl-board").first).to_be_visible(timeout=FIRST_WIDGET_MS)
    kernel = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    page.close()  # no beforeunload: no beacon
    wait_until_kernel_gone(voila_url, kernel, artifacts, record_timing, "play app without its beacon")
    assert f"Kernel {kernel} has had no page for" in (artifacts / "voila.log").read_text(errors="replace")


# ----------------------------------------------------------------------------- hidden information

# Everything the page shows as text: labels, the move list, the position box (not in innerText).
PAGE_TEXT = """board => ({
    body: document.body.innerText,
    moves: [...board.querySelectorAll('.tl-moves option')].map(o => o.textContent),
    position: board.querySelector('.tl-position input').value,
})"""


def card_fractions() -> dict[int, tuple[float, float]]:
    """The centre of each card of the bottom hand (the human's, Orange) as fractions of the canvas."""
    game = load_game("sinomilia")
    adapter = load_adapter(game)
    figure = Figure(figsize=adapter.figsize)
    ax = adapter.setup(figure)
    adapter.draw(game.new_initial_state(), viewer=0)  # the drawing sets the axes' limits
    ax.apply_aspect()
    centres = {}
    for card in range(10):
        px, py = ax.transData.transform(adapter.cell_xy(("hand", card)))
        centres[card] = (px / figure.bbox.width, 1 - py / figure.bbox.height)
    return centres


def drawn_for_orange(view: dict, green_card: int) -> np.ndarray:
    """The pixels of Orange's view ``view`` (an observation, before any reveal) drawn by a new
    adapter as the board draws it for Orange to move, Green's hidden card filled in as
    ``green_card``. The same pixels for every possible card: the picture cannot show it."""
    game = load_game("sinomilia")
    unseen = [k for k in range(10) if k not in view["discards"][1] and k != green_card]
    position = {key: value for key, value in view.items() if key not in ("observer", "last_round")}
    position["set"] = [view["set"][0], green_card]
    position["hands"] = [view["hands"][0], unseen]
    state = game.state_from_dict(position)
    adapter = load_adapter(game)
    figure = Figure(figsize=adapter.figsize)
    adapter.setup(figure)
    adapter.draw(state, viewer=0)  # the bottom hand is Orange's: its cards are the targets
    targets = frozenset(cells[0] for a in state.legal_actions() if (cells := adapter.action_cells(state, a)))
    adapter.draw(state, targets=targets, viewer=0)
    return imread(io.BytesIO(figure_png(figure)))[..., :3]


def expect_orange_picture(page: Page, board, view: dict, artifacts) -> None:
    """Within ``STEP_MS`` the canvas shows Orange's view exactly, whatever card Green holds."""
    hidden = [k for k in range(10) if k not in view["discards"][1]]
    drawings = [drawn_for_orange(view, card) for card in hidden]
    assert all(np.array_equal(drawings[0], other) for other in drawings[1:]), "the drawing depends on Green's card"
    deadline = time.monotonic() + STEP_MS / 1000

    def matches(shown: np.ndarray) -> bool:
        """Green's half of the table (the top) exactly; elsewhere all but 0.1% of the pixels:
        the rings of the playable cards overlap, and their drawing order (a set's) may vary."""
        expected = drawings[0]
        if shown.shape != expected.shape:
            return False
        top = int(0.45 * shown.shape[0])
        return np.array_equal(shown[:top], expected[:top]) and np.mean(np.any(shown != expected, -1)) < 0.001

    while not matches(shown := canvas_pixels(board)):
        if time.monotonic() > deadline:
            imsave(artifacts / "sinomilia_picture_shown.png", shown)
            imsave(artifacts / "sinomilia_picture_expected.png", drawings[0])
            raise AssertionError(f"the picture is not Orange's view of {view} (both saved in {artifacts})")
        page.wait_for_timeout(200)


def test_sinomilia_round_never_shows_the_agents_card(page: Page, voila_url, artifacts):
    """Play a round against the agent by clicks and buttons, reading all the page's text after
    every step: until the reveal, Green's card is never in it (its moves read ``set ?`` /
    ``change ?``, the position box is Orange's observation), and the board's picture is exactly
    Orange's view, the same whatever card Green holds; the reveal then shows the card."""
    open_app(page, voila_url, "play_sinomilia.ipynb")
    board = page.locator(".tl-board")
    page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=FIRST_WIDGET_MS)
    expect(page.locator(".tl-seat-0 select")).to_have_value("human")
    expect(page.locator(".tl-seat-1 select")).not_to_have_value("human")
    status, moves, position = (
        board.locator(".tl-status"),
        board.locator(".tl-moves option"),
        board.locator(".tl-position input"),
    )
    canvas = board.locator(".tl-board-canvas .jupyter-matplotlib-canvas-div canvas").last
    seen = []

    def step(act) -> dict:
        """Act, then read the page's text every 200 ms until Orange is to play again or the round
        is over; return Orange's observation (the position box) then."""
        before_moves, before_position = moves.count(), position.input_value()
        act()
        deadline = time.monotonic() + STEP_MS / 1000
        while True:
            shown = board.evaluate(PAGE_TEXT)
            seen.append(shown)
            view = json.loads(shown["position"])
            replied = len(shown["moves"]) > before_moves and shown["position"] != before_position
            if replied and "thinking" not in status.inner_text():
                if view["last_round"] is not None or (view["phase"] == "play" and view["to_move"] == 0):
                    return view
            assert time.monotonic() < deadline, f"the agent did not reply: {status.inner_text()}"
            page.wait_for_timeout(200)

    def click_card(card: int) -> None:
        fx, fy = card_fractions()[card]
        box = canvas.bounding_box()
        canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})
        page.mouse.move(0, 0)  # off the board, towards the buttons, as a person's pointer goes

    view = json.loads(position.input_value())
    assert view["observer"] == 0 and view["phase"] == "set" and view["to_move"] == 0
    view = step(lambda: click_card(4))  # Orange sets the 4; the agent sets its card
    expect(moves.nth(1)).to_contain_text("Orange: set 4")
    page.screenshot(path=artifacts / "sinomilia_after_setting.png", full_page=True)
    for turn in range(12):  # a chip, then passes: the round ends by C2, C3 or C1
        if view["last_round"] is not None:
            break
        expect_orange_picture(page, board, view, artifacts)  # Orange to play: the picture is Orange's view only
        label = "chip (sun)" if turn == 0 else "pass"
        view = step(lambda label=label: board.locator(".tl-action", has_text=label).click())
    report = view["last_round"]
    assert report is not None and report["round"] == 1, "the round should have ended"
    green_card = report["cards"][1]
    page.wait_for_timeout(600)  # the canvas image lags the labels a little
    page.screenshot(path=artifacts / "sinomilia_reveal.png", full_page=True)

    before_reveal = [shown for shown in seen if json.loads(shown["position"])["last_round"] is None]
    assert len(before_reveal) >= 2
    for shown in before_reveal:
        opponent = json.loads(shown["position"])
        assert opponent["observer"] == 0 and opponent["hands"][1] is None and opponent["set"][1] in ("?", None)
        green_moves = [
            m.split(":", 1)[1].strip() for m in shown["moves"] if m.split(":", 1)[0].split(". ")[-1].startswith("Green")
        ]
        assert all(re.fullmatch(r"set \?|change \?|chip sun|chip moon|pass", m) for m in green_moves), green_moves
        assert f"set {green_card}" not in " ".join(green_moves) and f'"set":[4,{green_card}]' not in shown["position"]
        assert "revealed" not in shown["body"]
    revealed = json.loads(seen[-1]["position"])
    assert revealed["last_round"]["cards"] == [4, green_card]  # after the reveal both cards are public
    expect(board.locator(".tl-errors")).to_have_text("")
