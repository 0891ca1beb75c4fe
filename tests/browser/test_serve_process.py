"""``tabletop-lab serve`` as a process: real signals end everything it started, its console says
where to go and little else, and beyond loopback it needs a token, answers its allowed names and
serves under a path prefix (tested on this machine's own non-loopback address)."""

from __future__ import annotations

import http.client
import ipaddress
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tabletop_lab.serve import ROOT

STOP_S = 10  # every process ends this soon after the signal
START_S = 120  # a guard against hanging, not a speed requirement


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, Path, Path]:
    """``tabletop-lab serve`` on a free port in a session of its own; (process, console, log)."""
    port = free_port()
    console, log = tmp_path / "console.txt", tmp_path / "server.log"
    with open(console, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tabletop_lab.cli", "serve", "--port", str(port), "--no-browser"]
            + ["--log", str(log), *args],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TABLETOP_QUICK": "1", "TABLETOP_KERNELS": "0"},
            start_new_session=True,
        )
    proc.port = port
    return proc, console, log


def wait_for(condition, what: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_S
    while not condition():
        assert proc.poll() is None, f"serve ended early; see {log}"
        assert time.monotonic() < deadline, f"{what} never happened; see {log}"
        time.sleep(0.2)


def descendants(proc: subprocess.Popen) -> list[psutil.Process]:
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def kill_all(processes: list[psutil.Process]) -> None:
    for p in processes:
        try:
            p.kill()
        except psutil.Error:
            pass


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_to_serve_ends_every_process_it_started(tmp_path, sig):
    proc, console, log = start_serve(tmp_path)
    started: list[psutil.Process] = []
    try:
        wait_for(lambda: len(descendants(proc)) >= 3, "Voila and two kernels", proc, log)  # Voila, kernels
        started = descendants(proc)
        proc.send_signal(sig)  # to the serve process alone, as `kill` or a closed terminal does
        signalled = time.monotonic()
        proc.wait(timeout=STOP_S)
        left = psutil.wait_procs(started, timeout=max(0.0, signalled + STOP_S - time.monotonic()))[1]
        assert not left, f"still running {STOP_S} s after {sig.name}: {[p.cmdline()[-1] for p in left]}"
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", proc.port)) != 0, "the port still answers"
        assert proc.returncode == 0
    finally:
        kill_all([psutil.Process(proc.pid)] if proc.poll() is None else [])
        kill_all(started)


def test_the_console_says_where_to_go_and_the_rest_goes_to_the_log(tmp_path):
    proc, console, log = start_serve(tmp_path)
    try:
        wait_for(lambda: "Server log" in console.read_text(), "the announcement", proc, log)
        wait_for(lambda: "Kernel started" in log.read_text(), "a kernel start", proc, log)
        time.sleep(2)  # the kernels' warnings have had time to come
        text = console.read_text()
        assert f"http://127.0.0.1:{proc.port}/voila/render/index.ipynb" in text
        assert str(log) in text and "Ctrl-C" in text
        for noise in ("WARNING", "not trusted", "without encryption", "[Voila", "[GuardedVoila"):
            assert noise not in text
        assert len(text.strip().splitlines()) <= 6
        assert "Kernel started" in log.read_text()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=STOP_S + 5)


def own_non_loopback_address() -> str:
    """An IPv4 address of this machine that is not loopback (skips where there is none)."""
    for addresses in psutil.net_if_addrs().values():
        for a in addresses:
            if a.family == socket.AF_INET and not ipaddress.ip_address(a.address).is_loopback:
                return a.address
    pytest.skip("this machine has no non-loopback IPv4 address")


def get(address: str, port: int, path: str, host: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection(address, port, timeout=120)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def test_a_class_server_needs_its_token_answers_its_names_and_serves_under_a_prefix(tmp_path):
    address = own_non_loopback_address()
    proc, console, log = start_serve(
        tmp_path, "--host", "0.0.0.0", "--allow-host", "games.example.org", "--base-url", "/games/", "--preheat", "0"
    )
    port = proc.port
    try:
        wait_for(lambda: "Server log" in console.read_text(), "the announcement", proc, log)
        text = console.read_text()
        match = re.search(rf"http://games\.example\.org:{port}/games/voila/render/index\.ipynb\?token=([\w-]+)", text)
        assert match, text
        token = match.group(1)
        assert len(token) >= 24 and "token" in text
        assert token not in " ".join(psutil.Process(descendants(proc)[0].pid).cmdline())  # not in `ps`
        listening = {
            c.laddr.ip for c in psutil.Process(descendants(proc)[0].pid).net_connections() if c.status == "LISTEN"
        }
        assert "0.0.0.0" in listening
        gallery = "/games/voila/render/index.ipynb"
        for host in ("games.example.org", f"{address}:{port}", f"games.example.org:{port}"):
            status, _ = get(address, port, gallery, host)
            assert status in (302, 403), (host, status)  # no token: the login page or a refusal
            status, page = get(address, port, f"{gallery}?token={token}", host)
            assert status == 200 and 'src="/games/tabletop/thumbnails/play_sygo.png"' in page, (host, status)
        status, app = get(
            address, port, f"/games/voila/render/play_cross_endodoi.ipynb?token={token}", "games.example.org"
        )
        assert status == 200 and 'data-base-url="/games/voila/"' in app  # an app, in a kernel, under the prefix
        for host in ("evil.example", "0.0.0.0", f"127.0.0.1.evil.example:{port}"):
            assert get(address, port, f"{gallery}?token={token}", host)[0] == 403, host
        assert get(address, port, f"/voila/render/index.ipynb?token={token}", f"{address}:{port}")[0] == 404
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=STOP_S + 5)
