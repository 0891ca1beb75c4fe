"""``tabletop_lab.serve`` without a browser (but one test): the Voila command, the gallery's list of
apps, and a real server (``tabletop_lab.appserver``) probed the way other websites and a careless
user would: foreign Host headers (DNS rebinding), requests carrying another site's Origin or
Referer, more apps than the kernel cap, code sent to a kernel, notebook sources and paths outside
the apps folder, crafted links; and the cull race (a preheated kernel handed to a page)."""

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
    with pytest.raises(FileNotFoundError, match="no Voila apps at"):
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
    write_code_notebook(
        apps / "broken.ipynb",
        "SECRET_SOURCE = 1\nraise RuntimeError('boom')",
        {"title": "B", "description": "b", "game": "g"},
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
        assert request(url, "/voila/render/index.ipynb", host=host)[0] == 200


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
        status, headers, busy = request(url, "/voila/render/linked.ipynb")
        assert status == 503
        assert headers["retry-after"] == "60"
        assert "Busy: try again" in busy and "1 of at most 1 apps" in busy
        assert len(busy) < 2000 and "query: " not in busy
        status, _, gallery = request(url, "/voila/render/index.ipynb")
        assert status == 200 and "tl-app-card" in gallery  # the gallery needs no kernel
    finally:
        shut_down(url, first)
    status, _, again = request(url, "/voila/render/linked.ipynb")
    assert status == 200 and "query: " in again
    shut_down(url, again)


def test_the_gallery_is_answered_from_the_apps_metadata_without_a_kernel(cold_server):
    url, proc = cold_server["url"], cold_server["proc"]
    status, _, page = request(url, "/voila/render/index.ipynb")
    assert status == 200 and "gallery page" not in page  # the notebook did not run
    cards = re.findall(
        r'<a class="tl-app-card" href="([^"]+)"><img alt="" src="([^"]+)"><strong>([^<]*)</strong>', page
    )
    assert [(href, title) for href, _, title in cards] == [("app.ipynb", "A")]
    status, headers, png = request(url, cards[0][1])
    assert status == 200 and headers["content-type"] == "image/png" and png.startswith("\ufffdPNG")
    assert kernels_under(proc) == 0
    status, headers, _ = request(url, "/")
    assert status == 302 and headers["location"] == "/voila/render/index.ipynb"


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


# ----------------------------------------------------------------------------- guards on every path

#: Host names a rebinding page could send; none of them is this server's.
FOREIGN_HOSTS = ["evil.example", "127.0.0.1.evil.example", "localhost.", "0.0.0.0", "127.1", "2130706433"]

#: One path per kind of handler: static files, the tree, a render, the kernel API, file downloads.
EVERY_KIND_OF_PATH = [
    "/",
    "/voila/static/voila.js",
    "/voila/tree",
    "/voila/render/app.ipynb",
    "/voila/api/contents/",
    "/voila/files/x.png",
    "/api/kernels/00000000-0000-0000-0000-000000000000",
    "/voila/api/shutdown/00000000-0000-0000-0000-000000000000",
    "/tabletop/kernel/00000000-0000-0000-0000-000000000000",
    "/voila/templates/lab/static/voila.js",
]


def small_checkout(root: Path) -> Path:
    """``root`` with a gallery and one app that prints "app page"."""
    apps = root / "notebooks" / "apps"
    apps.mkdir(parents=True)
    write_code_notebook(apps / "index.ipynb", "print('gallery page')")
    meta = {"title": "A", "description": "a", "game": "cross_endodoi"}
    write_code_notebook(apps / "app.ipynb", "print('app ' + 'page')", meta)
    return root


@pytest.fixture(scope="module")
def cold_server(tmp_path_factory, start_voila):
    """A guarded server that starts a kernel only when an app is asked for (no pools), so that
    any kernel process under it was started by a request."""
    root = small_checkout(tmp_path_factory.mktemp("cold"))
    proc, url = start_voila(root, max_kernels=4, preheat=0)
    return {"proc": proc, "url": url}


def kernels_under(proc) -> int:
    return len(psutil.Process(proc.pid).children(recursive=True))


@pytest.mark.parametrize("name", FOREIGN_HOSTS)
def test_every_path_refuses_a_host_that_is_not_an_allowed_name(cold_server, name):
    url, port = cold_server["url"], urlsplit(cold_server["url"]).port
    for path in EVERY_KIND_OF_PATH:
        for host in (name, f"{name}:{port}"):
            status, _, body = request(url, path, host=host)
            assert status == 403 and "host name" in body, (host, path, status)
    assert kernels_under(cold_server["proc"]) == 0
    assert request(url, "/voila/static/voila.js")[0] == 200  # the server's own name is answered


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://127.0.0.1:1", "https://localhost.evil.example", "file://"]
)
def test_a_foreign_origin_is_refused_on_any_request_and_starts_nothing(cold_server, origin):
    url = cold_server["url"]
    for method, path in [("GET", "/voila/render/app.ipynb"), ("POST", "/voila/render/app.ipynb")] + [
        ("GET", path) for path in EVERY_KIND_OF_PATH
    ]:
        status, _, body = request(url, path, method=method, headers={"Origin": origin})
        assert status == 403 and "another site" in body, (method, path, status)
    assert kernels_under(cold_server["proc"]) == 0


def test_a_foreign_referer_is_refused_unless_the_user_opens_the_app_in_a_tab(cold_server):
    url = cold_server["url"]
    referer = {"Referer": "http://evil.example/class.html"}
    for method in ("GET", "POST"):
        status, _, body = request(url, "/voila/render/app.ipynb", method=method, headers=referer)
        assert status == 403 and "another site" in body, method
    status, _, _ = request(url, "/voila/render/app.ipynb", method="POST", headers={**referer, **LINK_FROM_ELSEWHERE})
    assert status == 403  # a form posted from another site, even as a navigation
    status, _, _ = request(url, "/voila/render/app.ipynb", headers={**referer, **BACKGROUND[1]})
    assert status == 403  # an iframe
    assert kernels_under(cold_server["proc"]) == 0
    status, _, page = request(url, "/voila/render/app.ipynb", headers={**referer, **LINK_FROM_ELSEWHERE})
    assert status == 200 and "app page" in page  # a link on a class page opens the app
    shut_down(url, page)


def test_the_pages_own_origin_and_referer_are_answered(cold_server):
    url = cold_server["url"]
    own = {"Origin": url, "Referer": f"{url}/voila/render/index.ipynb"}
    status, _, page = request(url, "/voila/render/app.ipynb", headers=own)
    assert status == 200 and "app page" in page
    assert request(url, f"/voila/api/shutdown/{kernel_id(page)}", method="POST", headers=own)[0] == 204


def test_a_websocket_from_a_foreign_origin_is_refused(cold_server):
    url = cold_server["url"]
    status, _, page = render_app(url)
    try:
        for origin in ("http://evil.example", "null"):
            with pytest.raises(HTTPClientError, match="403"):
                asyncio.run(_talk_to_kernel(url, kernel_id(page), "1", origin=origin))
    finally:
        shut_down(url, page)


def test_error_pages_are_short_and_log_no_write_error_traceback(server, artifacts):
    url = server["url"]
    for path, expected in [
        ("/voila/render/missing.ipynb", 404),
        ("/voila/files/app.ipynb", 403),
        ("/voila/tree/missing", 404),
        ("/voila/api/contents/missing.ipynb", 404),
        ("/voila/static/missing.js", 403),
    ]:
        status, _, body = request(url, path)
        assert status == expected, path
        assert "Traceback" not in body and len(body) < 1000, path
    log = (artifacts / f"voila-{urlsplit(url).port}.log").read_text()
    assert "Uncaught exception in write_error" not in log


def test_an_app_that_fails_shows_no_traceback_or_source(server):
    status, _, page = request(server["url"], "/voila/render/broken.ipynb")
    assert "SECRET_SOURCE" not in page and "Traceback" not in page and "boom" not in page
    if status == 200:
        shut_down(server["url"], page)


# ----------------------------------------------------------------------------- the cull race


def kernel_state(url: str, kernel: str) -> int:
    return request(url, f"/tabletop/kernel/{kernel}")[0]


def test_a_preheated_kernel_handed_to_a_page_starts_its_idle_clock_afresh(tmp_path_factory, start_voila, artifacts):
    """Culling every second, after 4 s idle: a kernel that waited in the pool longer than that
    is not culled as it is handed over (the page has 4 s to connect), only later."""
    root = small_checkout(tmp_path_factory.mktemp("cull"))
    _, url = start_voila(root, cull_interval=1, cull_idle_timeout=4)
    log = artifacts / f"voila-{urlsplit(url).port}.log"
    deadline = time.monotonic() + 300  # a guard against hanging, not a speed requirement
    while "Kernel pool of app.ipynb is filled" not in log.read_text():
        assert time.monotonic() < deadline, f"the pool of app.ipynb was never filled; see {log}"
        time.sleep(0.2)
    time.sleep(6)  # the pooled kernel is now idle longer than the cull timeout
    status, _, page = render_app(url)
    assert status == 200 and "app page" in page
    kernel = kernel_id(page)
    assert f"Using pre-heated kernel: {kernel}" in log.read_text()
    time.sleep(2.5)  # two cull rounds
    assert kernel_state(url, kernel) == 200, f"the handed-over kernel was culled; see {log}"
    deadline = time.monotonic() + 60
    while kernel_state(url, kernel) != 404:  # no page ever connected: culled once idle 4 s
        assert time.monotonic() < deadline, "the kernel was never culled"
        time.sleep(0.5)
    assert re.search(rf"Culling 'idle' kernel '\w+' \({kernel}\)", log.read_text())


@pytest.mark.browser
def test_a_page_whose_kernel_dies_says_so_and_offers_to_reload(page, server):
    from playwright.sync_api import expect

    url = server["url"]
    page.goto(f"{url}/voila/render/app.ipynb", timeout=120_000)
    expect(page.get_by_text("app page")).to_be_visible(timeout=60_000)
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page.content()).group(1)
    (process,) = [p for p in psutil.Process(server["proc"].pid).children() if any(kernel in a for a in p.cmdline())]
    process.kill()
    banner = page.locator(".tl-kernel-gone")
    expect(banner).to_contain_text("This app has stopped", timeout=30_000)
    page.locator(".tl-reload").click()
    expect(page.get_by_text("app page")).to_be_visible(timeout=60_000)
    expect(banner).to_have_count(0)
    shut_down(url, page.content())
