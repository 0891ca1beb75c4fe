"""Screenshots of every game's Play board (start, mid-game, end; the hand-over curtain where
cards are hidden) and of the documentation site's page for one game, in headless Chromium.

    .venv/bin/python scripts/screenshots.py [boards|study|site|all] [--out DIR]

Each picture is a board served by Voila exactly as the Play apps are (``voila_command``, quick
mode), from a scratch folder of one-cell notebooks: the game's Play app seats, its moves from a
seeded random game (so every run draws the same positions), shown at the start, halfway and
after the last move. ``study`` photographs the repository's Study app at 1280 px, for every
game, after a run of 100 games between its first two agents. ``site`` builds the docs (``mkdocs build --strict``, notebooks not
executed) and photographs ``games/sygo.html``. Pictures go to ``test-artifacts/screenshots/``
(git-ignored) unless ``--out`` says otherwise. Needs Debian's ``chromium`` and the ``test`` and
``docs`` extras (``bash scripts/setup.sh test``).
"""

from __future__ import annotations

import argparse
import http.server
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import nbformat
from playwright.sync_api import expect, sync_playwright

from tabletop_lab import load_game
from tabletop_lab.serve import ROOT, voila_command

#: Each game as its Play app opens it: options and seats.
PLAY_APPS = {
    "cross_endodoi": ({}, ["human", "mcts:iterations=300"]),
    "sygo": ({"size": 9}, ["human", "mcts:iterations=100"]),
    "sinoda": ({}, ["human", "mcts:iterations=200"]),
    "sinomilia": ({}, ["human", "sinomilia_heuristic"]),
    "capitals": ({}, ["human", "greedy", "human", "greedy"]),
}
SEED = 7
CANVAS_DRAWN = """board => {
    const canvas = board.querySelector('.tl-board-canvas .jupyter-matplotlib-canvas-div canvas');
    if (!canvas || !canvas.width) return false;
    const blank = document.createElement('canvas');
    blank.width = canvas.width; blank.height = canvas.height;
    return canvas.toDataURL() !== blank.toDataURL();
}"""
BOARD_CODE = """%matplotlib widget
from tabletop_lab.widgets import Board
board = Board({game!r}, options={options!r}, seats={seats!r}, seed={seed})
board.replay({moves!r}, {at})
board"""


def random_game(name: str, options: dict) -> list[str]:
    """The whole moves of a seeded random game of ``name`` (at most 400 moves)."""
    rng = random.Random(SEED)
    state = load_game(name, **options).new_initial_state()
    moves: list[str] = []
    while not state.is_terminal() and len(moves) < 400:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state.apply_move(move)
    return moves


def boards() -> dict[str, str]:
    """Notebook name -> the code of its one cell, for every picture."""
    cells = {}
    for name, (options, seats) in PLAY_APPS.items():
        moves = random_game(name, options)
        stages = {"start": 0, "mid": len(moves) // 2, "end": len(moves)}
        for stage, at in stages.items():
            cells[f"{name}-{stage}"] = BOARD_CODE.format(
                game=name, options=options, seats=seats, seed=SEED, moves=moves[:at], at=at
            )
        if not load_game(name, **options).info.perfect_information:
            at = len(moves) // 2 | 1  # the second seat to move: the screen goes to it
            cells[f"{name}-handover"] = BOARD_CODE.format(
                game=name, options=options, seats=["human", "human"], seed=SEED, moves=moves[:at], at=at
            )
    return cells


def write_checkout(root: Path, cells: dict[str, str]) -> None:
    apps = root / "notebooks" / "apps"
    apps.mkdir(parents=True)
    for stem, code in {"index": "print('screenshots')", **cells}.items():
        nb = nbformat.v4.new_notebook()
        nb.cells.append(nbformat.v4.new_code_cell(code))
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        if stem != "index":
            nb.metadata["tabletop_lab"] = {"title": stem, "description": stem, "game": stem.split("-")[0]}
        nbformat.write(nb, apps / f"{stem}.ipynb")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except OSError as exc:
            if time.monotonic() > deadline:
                raise SystemExit(f"nothing answered at {url} within {seconds:.0f} s") from exc
            time.sleep(0.5)


def photograph_boards(browser, out: Path) -> list[Path]:
    cells = boards()
    saved = []
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        write_checkout(root, cells)
        server, base = serve(root, out)
        try:
            for stem in cells:
                page = browser.new_page(viewport={"width": 1280, "height": 1100})
                page.goto(f"{base}/{stem}.ipynb", timeout=180_000)
                board = page.locator(".tl-board")
                expect(board).to_be_visible(timeout=120_000)
                page.wait_for_function(CANVAS_DRAWN, arg=board.element_handle(), timeout=60_000)
                page.wait_for_timeout(1500)  # an agent's reply, the last picture
                path = out / f"{stem}.png"
                board.screenshot(path=path)
                saved.append(path)
                print(f"{path}: {board.locator('.tl-status').inner_text()}")
                page.close()
        finally:
            server.terminate()
            server.wait(30)
    return saved


def serve(root: Path, out: Path) -> tuple[subprocess.Popen, str]:
    """A Voila server of ``root/notebooks/apps`` in quick mode and its render URL."""
    port = free_port()
    # closed pages keep their kernels until culled: allow one per picture
    command = voila_command(port, root=root, preheat=0, max_kernels=32)
    env = {**os.environ, "TABLETOP_QUICK": "1"}
    with open(out / f"voila-{port}.log", "w") as log:
        server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/voila/render"
    wait_for(f"{base}/index.ipynb")
    return server, base


def photograph_study(browser, out: Path) -> list[Path]:
    server, base = serve(ROOT, out)
    saved = []
    try:
        for name in PLAY_APPS:
            page = browser.new_page(viewport={"width": 1280, "height": 1100})
            page.goto(f"{base}/study.ipynb", timeout=180_000)
            panel = page.locator(".tl-sim")
            expect(panel.locator(".tl-sim-status")).to_have_text("idle", timeout=120_000)
            panel.locator(".tl-sim-game select").select_option(label=load_game(name).info.title)
            page.wait_for_timeout(1000)  # the game's options and seats
            games = panel.locator(".tl-sim-games input")
            games.fill("100")
            games.press("Enter")
            panel.locator(".tl-sim-run").click()
            expect(panel.locator(".tl-sim-status")).to_contain_text("done", timeout=600_000)
            page.wait_for_timeout(1000)  # the plot
            path = out / f"study-{name}.png"
            page.screenshot(path=path, full_page=True)
            saved.append(path)
            print(f"{path}: {panel.locator('.tl-sim-status').inner_text()}")
            page.close()
    finally:
        server.terminate()
        server.wait(30)
    return saved


def photograph_site(browser, out: Path) -> Path:
    env = {**os.environ, "TABLETOP_DOCS_EXECUTE": "false", "TABLETOP_QUICK": "1"}
    mkdocs = Path(sys.executable).with_name("mkdocs")
    subprocess.run([str(mkdocs), "build", "--strict", "--quiet"], cwd=ROOT, env=env, check=True)
    handler = lambda *args: http.server.SimpleHTTPRequestHandler(*args, directory=str(ROOT / "site"))  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        page.goto(f"http://127.0.0.1:{server.server_port}/games/sygo.html")
        page.wait_for_load_state("networkidle")
        path = out / "site-sygo.png"
        page.screenshot(path=path, full_page=False)
        print(f"{path}: {page.title()}")
        return path
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts" / "screenshots")
    parser.add_argument("what", nargs="?", choices=("boards", "study", "site", "all"), default="all")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("no Chromium found: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--disable-gpu", "--no-first-run"])
        if args.what in ("boards", "all"):
            photograph_boards(browser, args.out)
        if args.what in ("study", "all"):
            photograph_study(browser, args.out)
        if args.what in ("site", "all"):
            photograph_site(browser, args.out)
        browser.close()


if __name__ == "__main__":
    main()
