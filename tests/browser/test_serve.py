"""``tabletop_lab.serve`` without a browser: the Voila command, the gallery's list of apps, and a
real server (``tabletop_lab.appserver``) probed the way other websites and a careless user would:
foreign Host headers (DNS rebinding), background requests from other sites' pages, more apps
than the kernel cap, code sent to a kernel, notebook sources and paths outside the apps folder."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import psutil
import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from tabletop_lab.serve import CULL_IDLE_TIMEOUT, MAX_KERNELS, PREHEAT, AppInfo, apps_dir, list_apps, voila_command


def write_notebook(path: Path, meta: dict | None) -> None:
    nb = nbformat.v4.new_notebook()
    if meta is not None:
        nb.metadata["tabletop_lab"] = meta
    nbformat.write(nb, path)


@pytest.fixture
def root(tmp_path):
    """A checkout holding a landing page and two apps of two games."""
    folder = tmp_path / "notebooks" / "apps"
    folder.mkdir(parents=True)
    write_notebook(folder / "index.ipynb", None)
    write_notebook(folder / "play_b.ipynb", {"title": "Play B", "description": "b", "game": "b_game"})
    write_notebook(folder / "study_a.ipynb", {"title": "Study A", "description": "a", "game": "a_game"})
    return tmp_path


def test_voila_command_serves_the_apps_folder_on_localhost_only(root):
    command = voila_command(9123, root=root)
    assert command[3] == str(root / "notebooks" / "apps")
    assert "--port=9123" in command
    assert "--Voila.ip=127.0.0.1" in command
    assert "--Voila.port_retries=0" in command  # the asked port or a failure, never another
    assert "--Voila.open_browser=False" in command
    assert "--Voila.tornado_settings=disable_check_xsrf=True" in command  # closed tabs free kernels
    assert "--Voila.open_browser=True" in voila_command(9123, open_browser=True, root=root)


def test_voila_command_runs_the_guarded_server_with_a_kernel_cap_and_quick_culling(root):
    command = voila_command(9123, root=root)
    assert command[1:3] == ["-m", "tabletop_lab.appserver"]
    assert f"--CappedKernelManager.max_kernels={MAX_KERNELS}" in command
    assert "--CappedKernelManager.max_kernels=2" in voila_command(9123, root=root, max_kernels=2)
    assert f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}" in command
    assert CULL_IDLE_TIMEOUT <= 180  # kernels a foreign page started go within minutes, not 10


def test_voila_command_preheats_a_kernel_per_app_unless_told_not_to(root):
    command = voila_command(9123, root=root)
    assert f"--GuardedVoila.preheat={PREHEAT}" in command and PREHEAT >= 1
    assert "--VoilaConfiguration.preheat_kernel=True" in command
    assert "--VoilaConfiguration.preheat_kernel=False" in voila_command(9123, root=root, preheat=0)
    for preheat in (-1, 9, 1.0, "1"):
        with pytest.raises(ValueError, match="preheat must be an int"):
            voila_command(9123, root=root, preheat=preheat)


@pytest.mark.parametrize("max_kernels", [0, -1, 1.5, True, "8", 10_000])
def test_voila_command_rejects_a_bad_kernel_cap(max_kernels, root):
    with pytest.raises(ValueError, match="max_kernels must be an int"):
        voila_command(9123, root=root, max_kernels=max_kernels)


@pytest.mark.parametrize("port", [0, 65536, -1, "8866", 8866.0, True])
def test_voila_command_rejects_a_bad_port(port, root):
    with pytest.raises(ValueError, match="port must be an int"):
        voila_command(port, root=root)


def test_apps_dir_explains_a_missing_apps_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="clone it"):
        apps_dir(tmp_path)


def test_list_apps_reads_each_notebooks_metadata_sorted_by_game(root):
    assert list_apps(root) == [
        AppInfo("study_a.ipynb", "Study A", "a", "a_game"),
        AppInfo("play_b.ipynb", "Play B", "b", "b_game"),
    ]


@pytest.mark.parametrize(
    "meta", [None, {"title": "T", "description": "D"}, {"title": 1, "description": "D", "game": "g"}]
)
def test_list_apps_names_the_notebook_with_bad_metadata(root, meta):
    write_notebook(root / "notebooks" / "apps" / "broken.ipynb", meta)
    with pytest.raises(ValueError, match=r"broken\.ipynb.*'tabletop_lab'"):
        list_apps(root)


def test_the_repository_apps_are_listed_and_link_existing_notebooks():
    apps = list_apps()
    assert {"play_cross_endodoi.ipynb", "study.ipynb"} <= {app.notebook for app in apps}
    for app in apps:
        assert (apps_dir() / app.notebook).is_file()
        assert app.title and app.description
        nb = json.loads((apps_dir() / app.notebook).read_text())
        assert nb["metadata"]["kernelspec"]["name"] == "python3"


# ----------------------------------------------------------------------------- a real server, probed

#: A render from another site's page without the user opening it: a hidden fetch, an iframe.
BACKGROUND = [
    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty"},
    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"},
    {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"},
]
#: The user following a link from another site to an app: allowed.
LINK_FROM_ELSEWHERE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}


def write_code_notebook(path: Path, code: str, meta: dict | None = None) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(code))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    if meta is not None:
        nb.metadata["tabletop_lab"] = meta
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def server(tmp_path_factory, start_voila):
    """A guarded server, capped at one kernel, of a checkout with a gallery, an app, a notebook
    outside the apps folder and a private file."""
    root = tmp_path_factory.mktemp("checkout")
    apps = root / "notebooks" / "apps"
    apps.mkdir(parents=True)
    write_code_notebook(apps / "index.ipynb", "print('gallery page')")
    write_code_notebook(
        apps / "app.ipynb", "SOURCE_ONLY = 1\nprint('app ' + 'page')", {"title": "A", "description": "a", "game": "g"}
    )
    write_code_notebook(
        apps / "linked.ipynb",
        "from tabletop_lab.widgets.links import page_query\nprint('query: ' + page_query())",
        {"title": "L", "description": "l", "game": "g"},
    )
    write_code_notebook(root / "notebooks" / "outside.ipynb", "print('outside ' + 'page')")
    (root / "private.txt").write_text("private words")
    proc, url = start_voila(root, max_kernels=1)
    return {"proc": proc, "url": url, "root": root}


def request(url: str, path: str, *, host: str | None = None, headers: dict | None = None, method: str = "GET"):
    """``(status, headers, body)`` of one request, with any ``Host`` header."""
    netloc = urlsplit(url).netloc
    connection = http.client.HTTPConnection(*netloc.split(":"), timeout=120)
    try:
        connection.request(
            method, path, body=b"" if method == "POST" else None, headers={"Host": host or netloc, **(headers or {})}
        )
        response = connection.getresponse()
        return (
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            response.read().decode("utf-8", "replace"),
        )
    finally:
        connection.close()


def kernel_id(page: str) -> str:
    match = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    assert match, "the rendered page names its kernel"
    return match.group(1)


def shut_down(url: str, page: str) -> None:
    """Close the app as its tab does when it closes, freeing its kernel."""
    assert request(url, f"/voila/api/shutdown/{kernel_id(page)}", method="POST")[0] == 204


def render_app(url: str, **kwargs):
    return request(url, "/voila/render/app.ipynb", **kwargs)


def test_a_foreign_host_header_is_refused_and_loopback_names_answered(server):
    url = server["url"]
    port = urlsplit(url).port
    for path in ("/", "/voila/render/app.ipynb", "/voila/tree", "/voila/api/contents/"):
        assert request(url, path, host=f"rebind.test:{port}")[0] == 403, path
        assert request(url, path, host="rebind.test")[0] == 403, path
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        assert request(url, "/", host=host)[0] == 200


def test_the_server_listens_on_127_0_0_1_only(server):
    listening = [c.laddr for c in psutil.Process(server["proc"].pid).net_connections("inet") if c.status == "LISTEN"]
    assert listening and all(address.ip == "127.0.0.1" for address in listening)


def test_other_sites_cannot_start_apps_in_the_background(server):
    url = server["url"]
    for headers in BACKGROUND:
        status, _, body = render_app(url, headers=headers)
        assert status == 403 and "another site" in body, headers
    status, _, page = render_app(url, headers=LINK_FROM_ELSEWHERE)  # the cap of 1 is still free
    assert status == 200 and "app page" in page
    shut_down(url, page)


def test_one_app_beyond_the_cap_gets_a_busy_page_until_one_closes(server):
    url = server["url"]
    status, _, first = render_app(url)
    assert status == 200 and "app page" in first
    try:
        status, headers, busy = request(url, "/voila/render/index.ipynb")
        assert status == 503
        assert headers["retry-after"] == "60"
        assert "Busy: try again" in busy and "1 of at most 1 apps" in busy
        assert len(busy) < 2000 and "gallery page" not in busy
    finally:
        shut_down(url, first)
    status, _, again = request(url, "/voila/render/index.ipynb")
    assert status == 200 and "gallery page" in again
    shut_down(url, again)


def test_the_browser_cannot_run_code_in_a_kernel(server):
    """Voila lets widget messages through, never ``execute_request``; and the kernel's websocket
    refuses a rebinding Host or another site's Origin."""
    url = server["url"]
    marker = server["root"] / "executed.txt"
    status, _, page = render_app(url)
    assert status == 200
    try:
        replies = asyncio.run(_talk_to_kernel(url, kernel_id(page), f"open({str(marker)!r}, 'w').write('x')"))
        assert "kernel_info_reply" in replies  # the channel works: the answer to an allowed request came
        assert "execute_reply" not in replies and "execute_input" not in replies
        assert not marker.exists()
        port = urlsplit(url).port
        for host, origin in ((f"rebind.test:{port}", f"http://rebind.test:{port}"), (None, "http://evil.example")):
            with pytest.raises(HTTPClientError, match="403"):
                asyncio.run(_talk_to_kernel(url, kernel_id(page), "1", host=host, origin=origin))
    finally:
        shut_down(url, page)


async def _talk_to_kernel(url: str, kernel: str, code: str, host: str | None = None, origin: str | None = None):
    """Send an ``execute_request`` and a ``kernel_info_request``; the message types seen in 8 s."""
    netloc = urlsplit(url).netloc
    headers = {"Host": host or netloc, "Origin": origin or url}
    socket = await websocket_connect(HTTPRequest(f"ws://{netloc}/api/kernels/{kernel}/channels", headers=headers))
    session = uuid.uuid4().hex

    def message(kind: str, content: dict) -> str:
        header = {
            "msg_id": uuid.uuid4().hex,
            "msg_type": kind,
            "username": "",
            "session": session,
            "date": "",
            "version": "5.3",
        }
        return json.dumps(
            {
                "header": header,
                "parent_header": {},
                "metadata": {},
                "content": content,
                "channel": "shell",
                "buffers": [],
            }
        )

    execute = {
        "code": code,
        "silent": False,
        "store_history": False,
        "user_expressions": {},
        "allow_stdin": False,
        "stop_on_error": True,
    }
    await socket.write_message(message("execute_request", execute))
    await socket.write_message(message("kernel_info_request", {}))
    seen = []
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and "kernel_info_reply" not in seen:
        try:
            text = await asyncio.wait_for(socket.read_message(), 1)
        except TimeoutError:
            continue
        if text is None:
            break
        if isinstance(text, str):
            seen.append(json.loads(text)["header"]["msg_type"])
    await asyncio.sleep(2)  # time for an execute_reply, had the request got through
    while True:
        try:
            text = await asyncio.wait_for(socket.read_message(), 0.5)
        except TimeoutError:
            break
        if text is None:
            break
        if isinstance(text, str):
            seen.append(json.loads(text)["header"]["msg_type"])
    socket.close()
    return seen


@pytest.mark.parametrize(
    "path",
    [
        "/voila/files/app.ipynb",  # a notebook's source
        "/voila/files/index.ipynb",
        "/voila/render/..%2Foutside.ipynb",  # notebooks outside notebooks/apps
        "/voila/render/../outside.ipynb",
        "/voila/render/%2E%2E/outside.ipynb",
        "/voila/files/..%2F..%2Fprivate.txt",
        "/voila/files/../../private.txt",
        "/voila/api/contents/..%2Foutside.ipynb",
        "/voila/tree/..%2F..",
        "/voila/static/..%2F..%2F..%2Fprivate.txt",
    ],
)
def test_sources_and_paths_outside_the_apps_are_not_served(server, path):
    status, _, body = request(server["url"], path)
    assert status in (403, 404), (status, body[:200])
    assert "private words" not in body and "SOURCE_ONLY" not in body and "outside page" not in body


def test_the_contents_api_lists_apps_without_their_sources(server):
    status, _, body = request(server["url"], "/voila/api/contents/app.ipynb?content=1")
    assert status == 200 and json.loads(body)["content"] is None
    assert "SOURCE_ONLY" not in request(server["url"], "/voila/api/contents/?content=1")[2]


def test_a_preheated_app_learns_its_pages_query(server, artifacts):
    """The app's kernel ran before the request (a pool's kernel); ``page_query`` still gets the link."""
    url = server["url"]
    log = artifacts / f"voila-{urlsplit(url).port}.log"
    deadline = time.monotonic() + 300  # a guard against hanging, not a speed requirement
    while "Kernel pool of linked.ipynb is filled" not in log.read_text():  # the server fills pools in turn
        assert time.monotonic() < deadline, f"the pool of linked.ipynb was never filled; see {log}"
        time.sleep(0.2)
    status, _, page = request(url, "/voila/render/linked.ipynb?game=g&move=2")
    assert status == 200 and "query: game=g&amp;move=2" in page
    assert f"Using pre-heated kernel: {kernel_id(page)} for linked.ipynb" in log.read_text()
    shut_down(url, page)


def test_the_serve_command_takes_a_kernel_cap_and_a_preheat():
    from tabletop_lab.cli import _parser

    assert _parser().parse_args(["serve", "--max-kernels", "3"]).max_kernels == 3
    assert _parser().parse_args(["serve"]).max_kernels == MAX_KERNELS
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--max-kernels", "0"])
    assert _parser().parse_args(["serve"]).preheat == PREHEAT
    assert _parser().parse_args(["serve", "--preheat", "0"]).preheat == 0
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--preheat", "9"])
