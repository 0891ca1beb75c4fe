"""The idle app server's memory: PSS summed over `tabletop-lab serve` and every process it
started, once its Play apps' kernels are warm and it has been idle a while.

    .venv/bin/python scripts/server_memory.py [--idle SECONDS] [--preheat N]

PSS (proportional set size) counts a page shared by several processes once in all, so the sum
is what the server really takes from the machine (RSS would count the shared libraries of every
kernel again). It prints one line per process and the total; issue #24's goal is 600 MB.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

from tabletop_lab.serve import ROOT, list_apps


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tree(root: psutil.Process) -> list[psutil.Process]:
    return [root, *root.children(recursive=True)]


def pss_mb(process: psutil.Process) -> float:
    try:
        return process.memory_full_info().pss / 2**20
    except psutil.Error:
        return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=60, help="seconds idle before measuring (default 60)")
    parser.add_argument("--preheat", type=int, default=1, help="kernels kept ready per app (default 1)")
    args = parser.parse_args()
    play_apps = [app for app in list_apps() if app.kind == "play"]
    port = free_port()
    command = [
        str(Path(sys.executable).with_name("tabletop-lab")), "serve", "--no-browser",
        f"--port={port}", f"--preheat={args.preheat}", "--log=/dev/null",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    started = time.monotonic()
    try:
        process = psutil.Process(server.pid)
        gallery = f"http://127.0.0.1:{port}/"
        while True:
            try:
                urllib.request.urlopen(gallery, timeout=5).close()
                break
            except OSError:
                time.sleep(0.5)
        # warm: the server holds one waiting kernel per Play app (a kernel is a python child)
        while sum("ipykernel" in " ".join(p.cmdline()) for p in tree(process)[1:]) < len(play_apps) * args.preheat:
            time.sleep(1)
        warm = time.monotonic() - started
        time.sleep(args.idle)
        total = 0.0
        for member in tree(process):
            mb = pss_mb(member)
            total += mb
            print(f"{mb:8.1f} MB  {' '.join(member.cmdline())[:110]}")
        print(
            f"{total:8.1f} MB  in all ({len(tree(process))} processes; kernels warm after {warm:.0f} s, then {args.idle:.0f} s idle)"
        )
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
