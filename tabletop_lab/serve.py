"""Serve the Voila apps in ``notebooks/apps/`` on this machine.

Voila runs each app notebook in its own kernel and shows only its outputs. The server serves
the apps folder as its tree, from the repository root so that Voila reads the root
``voila.json`` (code hidden, tracebacks shown). It is Voila guarded against
other websites (``tabletop_lab.appserver``): foreign ``Host`` headers are refused (DNS
rebinding), other sites' pages cannot start apps in the background, at most ``MAX_KERNELS``
apps run at once (one more gets a "busy, try again" page, HTTP 503), and kernels left without
a page are culled after ``CULL_IDLE_TIMEOUT`` seconds.

Apps open in about two seconds because their kernels are **preheated**: the server keeps
``PREHEAT`` started kernels per app, each having run its notebook up to the cell that needs the
page's request (a Play app's shared link: ``tabletop_lab.widgets.links.page_query``), and hands
one to the next visitor; the pool refills in the background. Waiting kernels cost about 150 MB
each and do not count against the cap. ``voila.json`` sets no cell timeout, since a preheated
kernel waits for its visitor inside a cell. :func:`voila_command` is the
one place the command-line flags live; :func:`serve` runs it in the foreground. The gallery, the landing page
that links every app, is ``/voila/render/index.ipynb``: Voila's own root page ``/`` is a plain
file list and cannot be redirected, so ``serve`` prints (and optionally opens) the gallery URL.

:func:`list_apps` reads the title and description every app notebook keeps in its metadata
(``metadata["tabletop_lab"]``), so the gallery lists new apps without being edited.

This module imports only the standard library; Voila itself is the ``notebooks`` extra.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import webbrowser
from dataclasses import dataclass
from pathlib import Path

__all__ = ["AppInfo", "apps_dir", "landing_url", "list_apps", "serve", "voila_command"]

#: The repository root: ``voila.json`` and ``notebooks/`` live here (editable installs).
ROOT = Path(__file__).resolve().parents[1]

#: The app notebook that links all the others.
LANDING = "index.ipynb"

#: Kernels idle this long (seconds) with no page connected are shut down; checked every
#: CULL_INTERVAL seconds. An open app keeps its kernel however long it stays idle.
CULL_IDLE_TIMEOUT = 120
CULL_INTERVAL = 30

#: Apps (kernels, about 100 MB each) running at once; the next one gets a "busy" page.
#: (The same default as ``tabletop_lab.appserver.MAX_KERNELS``, which imports Voila.)
MAX_KERNELS = 8

#: Kernels kept started and waiting for a visitor, per app (0: start one when the app opens).
PREHEAT = 1


@dataclass(frozen=True)
class AppInfo:
    """One app of the gallery: its notebook file name and what its card says."""

    notebook: str
    title: str
    description: str
    game: str
    kind: str = "play"  # "play": the card shows a board; "study": a chart of saved results
    thumbnail: str | None = None  # a curated position of ``game`` (data/<game>/positions.json) for the card


def apps_dir(root: Path | str | None = None) -> Path:
    """The folder of app notebooks under ``root`` (default: this checkout's root).

    Raises ``FileNotFoundError`` with a hint when the folder is missing, as it is when the
    package was installed from a wheel instead of from a checkout.
    """
    folder = Path(root or ROOT) / "notebooks" / "apps"
    if not (folder / LANDING).is_file():
        raise FileNotFoundError(
            f"no Voila apps at {folder} (expected {LANDING} there); the apps ship with the "
            "repository: clone it and install it with `pip install -e .[notebooks]`"
        )
    return folder


def list_apps(root: Path | str | None = None) -> list[AppInfo]:
    """Every app notebook except the landing page, sorted by game then file name.

    Raises ``ValueError`` naming the notebook whose ``tabletop_lab`` metadata is missing or
    incomplete.
    """
    apps = []
    for path in sorted(apps_dir(root).glob("*.ipynb")):
        if path.name == LANDING:
            continue
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("tabletop_lab")
        if not isinstance(meta, dict) or not all(
            isinstance(meta.get(k), str) for k in ("title", "description", "game")
        ):
            raise ValueError(
                f"{path}: notebook metadata needs a 'tabletop_lab' object with string fields "
                f"'title', 'description' and 'game', got {meta!r}"
            )
        apps.append(
            AppInfo(
                path.name,
                meta["title"],
                meta["description"],
                meta["game"],
                meta.get("kind", "play"),
                meta.get("thumbnail"),
            )
        )
    return sorted(apps, key=lambda app: (app.game, app.notebook))


def landing_url(port: int) -> str:
    """The gallery's address on this machine."""
    return f"http://127.0.0.1:{port}/voila/render/{LANDING}"


def voila_command(
    port: int = 8866,
    *,
    open_browser: bool = False,
    root: Path | str | None = None,
    max_kernels: int = MAX_KERNELS,
    preheat: int = PREHEAT,
) -> list[str]:
    """The command that serves the apps; run it with the repository root as working directory.

    The server (``tabletop_lab.appserver``, Voila with guards) listens on 127.0.0.1 only, on
    exactly ``port`` (it fails rather than take another), and runs at most ``max_kernels``
    apps at once, with ``preheat`` kernels waiting per app. ``disable_check_xsrf`` lets the page's shutdown request through when a tab
    closes (otherwise refused for lack of an XSRF token, leaving one kernel per closed tab,
    voila #1458); culling then shuts kernels that stay idle with no page attached.
    ``open_browser`` opens Voila's root file list; :func:`serve` opens the gallery instead.
    """
    if type(port) is not int or not 0 < port < 65536:
        raise ValueError(f"port must be an int in 1..65535, got {port!r}")
    if type(max_kernels) is not int or not 1 <= max_kernels <= 1000:
        raise ValueError(f"max_kernels must be an int in 1..1000, got {max_kernels!r}")
    if type(preheat) is not int or not 0 <= preheat <= 8:
        raise ValueError(f"preheat must be an int in 0..8, got {preheat!r}")
    return [
        sys.executable,
        "-m",
        "tabletop_lab.appserver",
        str(apps_dir(root)),
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        f"--Voila.open_browser={open_browser}",
        "--Voila.tornado_settings=disable_check_xsrf=True",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}",
        f"--CappedKernelManager.max_kernels={max_kernels}",
        f"--VoilaConfiguration.preheat_kernel={preheat > 0}",
        "--VoilaConfiguration.default_pool_size=0",  # the server fills the pools itself, the gallery first
        f"--GuardedVoila.preheat={preheat}",
        f"--GuardedVoila.landing={LANDING}",
    ]


def serve(port: int = 8866, open_browser: bool = False, max_kernels: int = MAX_KERNELS, preheat: int = PREHEAT) -> int:
    """Run the Voila server in the foreground until Ctrl-C; return its exit code.

    Prints the gallery's URL once the server listens and, with ``open_browser``, opens it in
    the default web browser. At most ``max_kernels`` apps run at once; ``preheat`` kernels per
    app wait for a visitor.
    """
    command = voila_command(port, max_kernels=max_kernels, preheat=preheat)
    if _port_taken(port):
        raise OSError(f"port {port} on 127.0.0.1 is in use; pick another with --port")
    proc = subprocess.Popen(command, cwd=ROOT)
    url = landing_url(port)
    threading.Thread(target=_announce, args=(proc, port, url, open_browser), daemon=True).start()
    try:
        return proc.wait()
    except KeyboardInterrupt:  # Voila stops on the same Ctrl-C; wait for it to end its kernels
        return proc.wait()


# Helpers


def _port_taken(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _announce(proc: subprocess.Popen, port: int, url: str, open_browser: bool) -> None:
    """Wait until the server accepts connections, then print (and open) the gallery URL."""
    while proc.poll() is None:
        if _port_taken(port):
            print(f"\ntabletop_lab apps: {url}\n(Ctrl-C stops the server)\n", flush=True)
            if open_browser:
                webbrowser.open(url)
            return
        time.sleep(0.2)
