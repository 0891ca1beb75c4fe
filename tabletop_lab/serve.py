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
one to the next visitor; the pool refills in the background. Waiting kernels cost about 75 MB
each (PSS; ``scripts/server_memory.py`` measures the whole server) and do not count against the cap. ``voila.json`` sets no cell timeout, since a preheated
kernel waits for its visitor inside a cell. :func:`voila_command` is the
one place the command-line flags live; :func:`serve` runs it in the foreground. The gallery, the landing page
that links every app, is ``/voila/render/index.ipynb``: Voila's own root page ``/`` is a plain
file list and cannot be redirected, so ``serve`` prints (and optionally opens) the gallery URL.

:func:`list_apps` reads the title and description every app notebook keeps in its metadata
(``metadata["tabletop_lab"]``), so the gallery lists new apps without being edited.

This module imports only the standard library; Voila itself is the ``notebooks`` extra.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import webbrowser
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import excerpt
from .resources import shipped_root

__all__ = ["AppInfo", "apps_dir", "landing_url", "list_apps", "serve", "voila_command"]

#: The environment variable that hands the access token to the server (``tabletop_lab.appserver``).
TOKEN_VARIABLE = "TABLETOP_TOKEN"

#: The folder of ``voila.json`` and ``notebooks/``: the repository root in a checkout, the
#: package's bundle in an installed wheel (``tabletop_lab.resources``).
ROOT = shipped_root()

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
#: The kinds of app whose kernels wait preheated from the start; the others' once first opened.
PREHEATED_KINDS = ("play", "puzzles")


@dataclass(frozen=True)
class AppInfo:
    """One app of the gallery: its notebook file name and what its card says."""

    notebook: str
    title: str
    description: str
    game: str
    kind: str = "play"  # "play": the card shows a board; "puzzles": a puzzle of game; "study": a chart of saved results
    thumbnail: str | None = None  # a curated position of ``game`` (data/<game>/positions.json) for the card


def apps_dir(root: Path | str | None = None) -> Path:
    """The folder of app notebooks under ``root`` (default: the checkout's, or the installed
    package's copy).

    Raises ``FileNotFoundError`` naming the folder when it holds no landing page.
    """
    folder = Path(root or ROOT) / "notebooks" / "apps"
    if not (folder / LANDING).is_file():
        raise FileNotFoundError(
            f"no Voila apps at {folder} (expected {LANDING} there); reinstall the package "
            '(`pip install "tabletop-lab[apps]"`) or run from a checkout of the repository'
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


def landing_url(port: int, host: str = "127.0.0.1", base_url: str = "/", token: str | None = None) -> str:
    """The gallery's address at ``host`` (a name or an address of this machine)."""
    name = f"[{host}]" if ":" in host else host
    query = f"?token={token}" if token else ""
    return f"http://{name}:{port}{base_url}voila/render/{LANDING}{query}"


def voila_command(
    port: int = 8866,
    *,
    open_browser: bool = False,
    root: Path | str | None = None,
    max_kernels: int = MAX_KERNELS,
    preheat: int = PREHEAT,
    host: str = "127.0.0.1",
    allow_hosts: Sequence[str] = (),
    base_url: str = "/",
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT,
    cull_interval: int = CULL_INTERVAL,
) -> list[str]:
    """The command that serves the apps; run it with the repository root as working directory.

    The server (``tabletop_lab.appserver``, Voila with guards) listens on ``host`` (an IP address
    of this machine, ``0.0.0.0`` for all of them) on exactly ``port`` (it fails rather than take
    another), answers only loopback names, the address it listens on and ``allow_hosts``, under
    the path ``base_url``; it runs at most ``max_kernels`` apps at once, with ``preheat`` kernels
    waiting per app. ``disable_check_xsrf`` lets the page's shutdown request through when a tab
    closes (otherwise refused for lack of an XSRF token, leaving one kernel per closed tab,
    voila #1458; the Origin guard does what the XSRF check would); culling then shuts kernels
    that stay idle ``cull_idle_timeout`` seconds with no page attached, checked every
    ``cull_interval`` seconds. A kernel that dies is not restarted: its page says it stopped.
    ``open_browser`` opens Voila's root file list; :func:`serve` opens the gallery instead.
    """
    if type(port) is not int or not 0 < port < 65536:
        raise ValueError(f"port must be an int in 1..65535, got {port!r}")
    if type(max_kernels) is not int or not 1 <= max_kernels <= 1000:
        raise ValueError(f"max_kernels must be an int in 1..1000, got {max_kernels!r}")
    if type(preheat) is not int or not 0 <= preheat <= 8:
        raise ValueError(f"preheat must be an int in 0..8, got {preheat!r}")
    for name, value in (("cull_idle_timeout", cull_idle_timeout), ("cull_interval", cull_interval)):
        if type(value) is not int or not 1 <= value <= 86_400:
            raise ValueError(f"{name} must be an int in 1..86400 seconds, got {value!r}")
    host = _check_host(host)
    names = [_check_name(name) for name in allow_hosts]
    base_url = _check_base_url(base_url)
    cold = [app.notebook for app in list_apps(root) if app.kind not in PREHEATED_KINDS]  # warmed once opened
    return [
        sys.executable,
        "-m",
        "tabletop_lab.appserver",
        str(apps_dir(root)),
        f"--port={port}",
        f"--Voila.ip={host}",
        "--Voila.port_retries=0",
        f"--Voila.open_browser={open_browser}",
        f"--Voila.base_url={base_url}",
        "--Voila.tornado_settings=disable_check_xsrf=True",
        f"--MappingKernelManager.cull_interval={cull_interval}",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        "--KernelManager.autorestart=False",
        "--VoilaConfiguration.show_tracebacks=False",  # a failing app shows a line, not its source
        f"--CappedKernelManager.max_kernels={max_kernels}",
        f"--VoilaConfiguration.preheat_kernel={preheat > 0}",
        "--VoilaConfiguration.default_pool_size=0",  # the server fills the pools itself, the gallery first
        f"--GuardedVoila.preheat={preheat}",
        f"--GuardedVoila.landing={LANDING}",
        f"--GuardedVoila.allow_hosts={json.dumps(names)}",
        f"--GuardedVoila.cold={json.dumps(cold)}",
    ]


def serve(
    port: int = 8866,
    open_browser: bool = False,
    max_kernels: int = MAX_KERNELS,
    preheat: int = PREHEAT,
    *,
    host: str = "127.0.0.1",
    allow_hosts: Sequence[str] = (),
    base_url: str = "/",
    token: str | None = None,
    log: Path | str | None = None,
) -> int:
    """Run the app server until SIGINT (Ctrl-C), SIGTERM or SIGHUP; return its exit code.

    Prints where to go (the gallery's URL, with the access token when the server listens beyond
    loopback: one is made up unless ``token`` is given) and where the log goes: Voila's own
    messages are written to ``log`` (default: a file in the temporary folder), not to the console.
    Any of those signals stops Voila and then every process it started (its kernels and
    theirs) within 10 s.
    """
    command = voila_command(
        port, max_kernels=max_kernels, preheat=preheat, host=host, allow_hosts=allow_hosts, base_url=base_url
    )
    host, base_url = _check_host(host), _check_base_url(base_url)
    remote = not ipaddress.ip_address(host).is_loopback
    if token is not None and not re.fullmatch(r"[A-Za-z0-9_-]{16,200}", token):
        raise ValueError("token must be 16..200 letters, digits, '-' or '_'")
    if remote and token is None:
        token = secrets.token_urlsafe(24)
    if _port_taken(host, port):
        raise OSError(f"port {port} on {host} is in use; pick another with --port")
    log_path = Path(log) if log is not None else Path(tempfile.gettempdir()) / f"tabletop-lab-serve-{port}.log"
    env = {**os.environ, **({TOKEN_VARIABLE: token} if token else {})}
    urls = [landing_url(port, name, base_url, token) for name in _shown_names(host, allow_hosts)]
    _become_subreaper()
    with _stop_signals() as stopping, open(log_path, "a", encoding="utf-8") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # a terminal's Ctrl-C reaches this process only, which stops the rest
        )
        threading.Thread(
            target=_announce, args=(proc, host, port, urls, log_path, open_browser, remote), daemon=True
        ).start()
        try:
            while proc.poll() is None and not stopping.is_set():
                stopping.wait(0.2)
        finally:
            _stop_tree(proc)
    if stopping.is_set():
        print("tabletop_lab apps: stopped.", flush=True)
        return 0
    print(f"tabletop_lab apps: the server ended (exit code {proc.returncode}); see {log_path}", file=sys.stderr)
    return proc.returncode or 1


# Helpers


def _check_host(host: str) -> str:
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        raise ValueError(
            f"host must be an IP address of this machine (127.0.0.1, 0.0.0.0 for all ...), got {excerpt(host)}"
        ) from None


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name.endswith("."):
        raise ValueError(f"allowed host names are DNS names such as games.example.org, got {excerpt(name)}")
    return name.lower()


def _check_base_url(base_url: str) -> str:
    path = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    if not re.fullmatch(r"(/[A-Za-z0-9._~-]+)*/", path) or "/../" in path or "/./" in path:
        raise ValueError(f"base_url must be a path such as /games/, got {excerpt(base_url)}")
    return path


_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")


def _shown_names(host: str, allow_hosts: Sequence[str]) -> list[str]:
    """The names to print links for: the allowed names, else the address listened on."""
    if allow_hosts:
        return [name.lower() for name in allow_hosts]
    if ipaddress.ip_address(host).is_unspecified:
        return [_primary_address()]
    return [host]


def _primary_address() -> str:
    """This machine's address on its default route (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return sock.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def _port_taken(host: str, port: int) -> bool:
    address = "127.0.0.1" if ipaddress.ip_address(host).is_unspecified else host
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as sock:
        return sock.connect_ex((address, port)) == 0


@contextlib.contextmanager
def _stop_signals() -> Iterator[threading.Event]:
    """An event set by SIGINT, SIGTERM or SIGHUP while the block runs (the old handlers after)."""
    stopping = threading.Event()
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield stopping
        return
    kept = {sig: signal.signal(sig, lambda *_: stopping.set()) for sig in _STOP_SIGNALS}
    try:
        yield stopping
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _become_subreaper() -> None:
    """On Linux, adopt the orphans among this process's descendants (a kernel's own children
    when Voila ends before them), so that :func:`_stop_tree` finds and ends them too."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _stop_tree(proc: subprocess.Popen, grace_s: float = 6.0) -> None:
    """Stop Voila (SIGTERM: it shuts its kernels down), then end every process left that it
    started, within about ``grace_s`` + 2 seconds."""
    import psutil

    def tree() -> list[psutil.Process]:
        with contextlib.suppress(psutil.Error):
            return psutil.Process().children(recursive=True)
        return []

    started = tree()
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    left = [p for p in {*started, *tree()} if p.is_running()]
    for p in left:
        with contextlib.suppress(psutil.Error):
            p.terminate()
    for p in psutil.wait_procs(left, timeout=2)[1]:
        with contextlib.suppress(psutil.Error):
            p.kill()


def _announce(
    proc: subprocess.Popen, host: str, port: int, urls: list[str], log: Path, open_browser: bool, remote: bool
) -> None:
    """Wait until the server accepts connections, then print where to go (and open it)."""
    while proc.poll() is None:
        if _port_taken(host, port):
            lines = ["", "tabletop_lab apps are ready. Open in a web browser:", *(f"    {url}" for url in urls)]
            if remote:
                lines.append("Anyone on the network with this link can play: the token in it is required.")
            lines += [f"Server log: {log}", "Ctrl-C stops the server and every app.", ""]
            print("\n".join(lines), flush=True)
            if open_browser:
                webbrowser.open(urls[0])
            return
        time.sleep(0.2)
