"""Fixtures for the browser tests: a Voila server of the apps, Debian's Chromium, offline pages.

The server is started exactly as users start it (``tabletop_lab.serve.voila_command``) on a
free port of 127.0.0.1, in quick mode; stopping it also stops every kernel it started. Its log, the screenshots and the measured timings go to
``test-artifacts/browser/`` (git-ignored); Playwright's own failure artifacts go to
``test-artifacts/playwright/`` unless ``--output`` says otherwise.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from tabletop_lab.serve import ROOT, voila_command

ARTIFACTS = ROOT / "test-artifacts" / "browser"

#: Flags for a closed network: no update checks, sync or first-run pages; no GPU in CI.
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-gpu",
]

#: Anything not served by our Voila (Font Awesome's CDN, ...) is refused at once.
EXTERNAL = re.compile(r"^(?!https?://127\.0\.0\.1[:/])[a-z]+://")

SERVER_START_S = 90

_timings: dict[str, list[float]] = {}
# The voila_url fixture's server process id (an environment variable, since test modules import
# this file under another module name than pytest's and would see another global).
SESSION_SERVER_PID = "TABLETOP_TEST_VOILA_PID"


def pytest_configure(config):
    # pytest-playwright empties its --output folder at start: keep it apart from ours.
    if config.getoption("--output", default=None) == "test-results":
        config.option.output = str(ROOT / "test-artifacts" / "playwright")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    exe = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not exe:
        pytest.fail("no Chromium found: apt-get install -y chromium (never `playwright install`)")
    args = [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS]
    return {**browser_type_launch_args, "executable_path": exe, "args": args}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # Voila scrolls inside the page, so full-page screenshots show the viewport: make it tall.
    return {**browser_context_args, "viewport": {"width": 1280, "height": 1400}}


@pytest.fixture
def context(context):
    """pytest-playwright's browser context, refusing requests to other hosts as a machine
    without internet would."""
    context.route(EXTERNAL, lambda route: route.abort())
    return context


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def voila_url(artifacts):
    """Base URL of a Voila server of ``notebooks/apps`` started for this session."""
    port = _free_port()
    log = artifacts / "voila.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            # the suite opens apps faster than the default cap of 8 frees them: pytest-playwright
            # closes its pages without the unload beacon, so their kernels stay ABANDONED_S more seconds
            voila_command(port, max_kernels=32),
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TABLETOP_QUICK": "1"},  # kernels inherit it
            start_new_session=True,  # a Ctrl-C of pytest reaches pytest only; teardown stops Voila
        )
        try:
            _wait_for_port(proc, port, log)
            os.environ[SESSION_SERVER_PID] = str(proc.pid)
            yield f"http://127.0.0.1:{port}"
        finally:
            _stop(proc)


@pytest.fixture(scope="module")
def start_voila(artifacts):
    """``start_voila(root, **options)`` serves ``root/notebooks/apps`` exactly as users do
    (``voila_command(port, root=root, **options)``, working directory ``root``) and returns the
    server process and its base URL; every server is stopped, with its kernels, after the module."""
    servers = []

    def start(root: Path, **options) -> tuple[subprocess.Popen, str]:
        port = _free_port()
        log = artifacts / f"voila-{port}.log"
        with open(log, "w") as out:
            proc = subprocess.Popen(
                voila_command(port, root=root, **options),
                cwd=root,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        servers.append(proc)
        _wait_for_port(proc, port, log)
        return proc, f"http://127.0.0.1:{port}"

    yield start
    for proc in servers:
        _stop(proc)


@pytest.fixture(scope="session")
def record_timing():
    """``record_timing(name, seconds)`` keeps a measurement for the end-of-session report."""
    return lambda name, seconds: _timings.setdefault(name, []).append(seconds)


def pytest_terminal_summary(terminalreporter):
    """Print the measured timings (never asserted) and save them as JSON beside the screenshots."""
    if not _timings:
        return
    summary = {
        name: {
            "n": len(values),
            "median_ms": round(1000 * statistics.median(values), 1),
            "min_ms": round(1000 * min(values), 1),
            "max_ms": round(1000 * max(values), 1),
        }
        for name, values in _timings.items()
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(json.dumps(summary, indent=2) + "\n")
    terminalreporter.section("browser timings (not asserted)")
    for name, row in summary.items():
        terminalreporter.write_line(
            f"{name}: median {row['median_ms']} ms (min {row['min_ms']}, max {row['max_ms']}, n={row['n']})"
        )
    terminalreporter.write_line(f"saved to {ARTIFACTS / 'timings.json'}")


def wait_until_preheated(notebook: str, timeout_s: float = 120) -> bool:
    """Wait until the session's server has a preheated kernel waiting for ``notebook`` (its log
    says that app's pool was filled more often than it handed a kernel out); False at the timeout.

    Timings then measure an app opened on a server that has been up a few seconds, as a user
    meets it, rather than one still refilling the pools of the apps the previous tests opened
    one after another."""
    log = ARTIFACTS / "voila.log"
    used = re.compile(rf"Using pre-heated kernel: \S+ for {re.escape(notebook)}")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if text.count(f"Kernel pool of {notebook} is filled") > len(used.findall(text)):
            return _wait_until_kernels_idle(deadline)
        time.sleep(0.2)
    return False


def _wait_until_kernels_idle(deadline: float) -> bool:
    """Wait until the session server's kernels use almost no CPU for a second: a preheated
    kernel has then run its notebook up to the cell that waits for a visitor."""
    kernels = psutil.Process(int(os.environ[SESSION_SERVER_PID])).children(recursive=True)
    for kernel in kernels:
        kernel.cpu_percent(None)
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        busy = sum(kernel.cpu_percent(None) for kernel in kernels if kernel.is_running())
        if busy > 10:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= 1:
            return True
    return False


# Helpers


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(proc: subprocess.Popen, port: int, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Voila did not start on port {port}; see {log}") from None
            time.sleep(0.2)


def _stop(proc: subprocess.Popen) -> None:
    """Stop Voila and every kernel it started.

    jupyter_client starts each kernel in a session of its own, so the kernels are not in
    Voila's process group: Voila shuts them down on SIGTERM, and any that outlive it are
    killed here.
    """
    kernels = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None else []
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for kernel in psutil.wait_procs(kernels, timeout=10)[1]:
        kernel.kill()
