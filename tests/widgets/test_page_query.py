"""``page_query`` in a preheated kernel: it waits for the visitor's request on Voila's query
websocket and takes the link from it, without bringing Voila's server libraries into the kernel
(importing ``voila.utils`` cost about 40 MB in every waiting kernel, most of the idle server).

A real websocket server stands in for Voila's ``voila/query/<kernel id>`` handler; the kernel is
a fresh Python process, so that what it imports is its own."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

from websockets.sync.server import serve

KERNEL = """
import json, sys
from tabletop_lab.widgets import page_query
query = page_query()
heavy = [name for name in ("voila", "jupyter_server", "nbconvert", "jinja2") if name in sys.modules]
print(json.dumps({"query": query, "heavy": heavy}))
"""


def run_preheated_kernel(port: int, kernel_id: str, **env: str) -> dict:
    variables = {
        **os.environ,
        "VOILA_PREHEAT": "True",
        "VOILA_KERNEL_ID": kernel_id,
        "VOILA_APP_IP": "127.0.0.1",
        "VOILA_APP_PORT": str(port),
        "VOILA_SERVER_URL": "/games/",
        **env,
    }
    variables.pop("QUERY_STRING", None)
    done = subprocess.run([sys.executable, "-c", KERNEL], env=variables, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {**json.loads(done.stdout), "stderr": done.stderr}


def test_a_preheated_kernel_gets_the_visitors_link_from_the_query_socket():
    paths = []

    def handler(connection):
        paths.append(connection.request.path)
        connection.send(json.dumps({"QUERY_STRING": "game=sygo&move=place%20e5", "SCRIPT_NAME": "/"}))

    with serve(handler, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.socket.getsockname()[1]
        result = run_preheated_kernel(port, "k-123")
        server.shutdown()
    assert paths == ["/games/voila/query/k-123"]
    assert result["query"] == "game=sygo&move=place%20e5"
    assert result["heavy"] == [], f"the waiting kernel imported {result['heavy']}"


def test_without_a_query_socket_the_kernel_warns_and_opens_no_link():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # bound, never listened on: the connection is refused
    result = run_preheated_kernel(port, "k-1")
    assert result["query"] == ""
    assert "no visitor's request" in result["stderr"]
