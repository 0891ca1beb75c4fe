"""Voila, guarded for a class: what ``tabletop-lab serve`` runs (``python -m tabletop_lab.appserver``).

Any web page a user visits can send requests to a server on the user's machine or network, so
plain Voila lets other websites start kernels, and, through DNS rebinding, read the pages and
drive the widgets. This subclass of ``voila.app.Voila`` answers every request only after
:class:`Guard` has let it through (before any handler runs, static files included):

* **Host**: only an allowed name (``localhost``, ``127.0.0.1``, ``[::1]``, the address the server
  listens on, and each ``--GuardedVoila.allow_hosts`` name) is answered; anything else, such as
  ``evil.example``, ``localhost.`` or ``127.1``, gets 403 (DNS rebinding).
* **Origin**: a request carrying another origin than the page's own (a script on another site:
  ``fetch``, a form, a websocket) gets 403 and starts nothing.
* **Referer and Sec-Fetch**: a request from another site's page gets 403 unless it is the user
  opening the app in a tab (a top-level ``GET`` navigation): a link on a class page still works,
  an ``<iframe>`` or a hidden request does not.
* **A kernel cap**: at most ``CappedKernelManager.max_kernels`` apps are open at once; one more
  app gets a short "busy, try again" page with HTTP 503 and ``Retry-After``. The kernels waiting
  in Voila's pools (preheated) are not open apps: they are counted apart and never culled. A
  kernel handed to a visitor starts its idle clock afresh, so culling cannot take it before the
  page connects.
* **A closed tab frees its kernel**: the page's closing beacon shuts it down at once; an app
  kernel left with no page connected for ``ABANDONED_S`` seconds is shut down too, busy or not
  (the beacon is lost when a page is too busy or the browser crashes; culling takes only idle kernels).
* **A page whose kernel ends says so**: every app page polls ``tabletop/kernel/<id>`` and, once
  its kernel is gone (culled, crashed, server stopped), shows "This app has stopped" with a
  Reload button. Kernels are not restarted behind a page (a restarted kernel has no widgets).
* **Short error pages**: refusals and errors are a line of text, never a traceback.

With ``Voila.token`` set (``tabletop_lab.serve`` sets one whenever the server listens beyond
loopback, passed in ``TABLETOP_TOKEN`` so that it does not show in the process list), every page
and websocket needs it (``?token=...`` once, then a cookie).

Needs Voila (the ``apps`` extra). Used only in the server process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import re
import shutil
import sys
import tempfile
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jupyter_server._tz import utcnow  # the clock the culler compares with
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import url_path_join
from tornado import httputil, web
from traitlets import Float, Integer, List, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

__all__ = ["MAX_KERNELS", "CappedKernelManager", "Guard", "GuardedRenderHandler", "GuardedVoila", "main"]

#: Kernels (open apps) the server runs at once by default: each takes about 100 MB.
MAX_KERNELS = 8

#: Seconds a browser is told to wait before retrying when the server is busy.
RETRY_AFTER_S = 60

#: Seconds an app's kernel keeps running once its last page has disconnected. A closing tab's
#: beacon shuts its kernel at once; a lost beacon (a busy page, a crashed browser) would leave a
#: busy kernel running for ever, since culling takes only idle ones. A page that reconnects in time keeps it.
ABANDONED_S = 20

#: Host names every server answers to (besides the address it listens on and ``allow_hosts``).
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")

#: The environment variable that carries the access token from ``tabletop-lab serve``.
TOKEN_VARIABLE = "TABLETOP_TOKEN"

BUSY_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tabletop_lab: busy, try again</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Busy: try again in a minute</h1>
<p>{message}</p>
<p>Close the tab of an app you no longer use, or wait: apps left without a tab close by
themselves after a few minutes. Then reload this page.</p>
</body></html>
"""

ERROR_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tabletop_lab: {status}</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>{status} {title}</h1><p>{message}</p></body></html>
"""

#: Added to every app page: polls the page's kernel and, once it is gone, says so and offers a reload.
KERNEL_WATCH = """<script>
(function () {
  var config = document.getElementById("jupyter-config-data");
  var match = config && config.textContent.match(/"kernelId":\\s*"([0-9a-f-]{36})"/);
  if (!match) { return; }
  var url = %(url)s + match[1];
  function stopped(why) {
    if (document.querySelector(".tl-kernel-gone")) { return; }
    var box = document.createElement("div");
    box.className = "tl-kernel-gone";
    box.setAttribute("role", "alert");
    box.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:10000;padding:12px;" +
      "background:#fff3cd;border-bottom:2px solid #c69500;font:16px sans-serif;text-align:center";
    box.textContent = "This app has stopped (" + why + "): reload the page to start it again. ";
    var button = document.createElement("button");
    button.className = "tl-reload";
    button.textContent = "Reload";
    button.onclick = function () { location.reload(); };
    box.appendChild(button);
    document.body.appendChild(box);
  }
  function check() {
    fetch(url, {credentials: "same-origin", cache: "no-store"}).then(function (response) {
      if (response.status === 404) { stopped("its kernel has ended"); return null; }
      return response.ok ? response.json() : null;
    }).then(function (state) {
      if (state && !state.alive) { stopped("its kernel has ended"); }
    }).catch(function () { stopped("the server cannot be reached"); });
  }
  setInterval(check, %(every_ms)d);
})();
</script>
"""

#: The longest the first gallery request waits for the cards' pictures, in seconds.
GALLERY_WAIT_S = 60

#: How often an app page asks whether its kernel still runs, in milliseconds.
KERNEL_WATCH_MS = 3000


class Guard:
    """Decides, from its headers alone, whether a request may reach any handler.

    ``allowed`` are the host names (lower case, IPv6 in brackets) the server answers to.
    """

    _HOST = re.compile(r"^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::(\d{1,5}))?$")

    def __init__(self, allowed: set[str]) -> None:
        self.allowed = {name.lower() for name in allowed}

    def refusal(self, request: httputil.HTTPServerRequest) -> str | None:
        """Why ``request`` is refused, or ``None`` to let it through."""
        headers = request.headers
        own = self._host(headers.get("Host", ""))
        if own is None:
            return "this server does not answer to that host name"
        origin = headers.get("Origin")
        if origin is not None and self._origin(origin) != own:
            return "requests from another site's page are refused"
        site = headers.get("Sec-Fetch-Site")
        referer = headers.get("Referer")
        foreign = site in ("cross-site", "same-site") or (referer is not None and self._origin(referer) != own)
        opened_by_user = (
            request.method == "GET"
            and headers.get("Sec-Fetch-Mode") == "navigate"
            and headers.get("Sec-Fetch-Dest") == "document"
        )
        if foreign and not opened_by_user:
            return "apps open only in their own tab, not from another site's page"
        return None

    def _host(self, netloc: str) -> tuple[str, int | None] | None:
        """``(name, port)`` of an allowed ``Host`` value; ``None`` for any other."""
        match = self._HOST.match(netloc.strip().lower())
        if match is None or match.group(1) not in self.allowed:
            return None
        port = int(match.group(2)) if match.group(2) else None
        return match.group(1), port

    def _origin(self, url: str) -> tuple[str, int | None] | None:
        """``(name, port)`` of an http(s) URL on an allowed host, default ports as ``None``."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        if parts.scheme not in ("http", "https"):
            return None
        host = self._host(parts.netloc.rpartition("@")[2])
        if host is None:
            return None
        default = 80 if parts.scheme == "http" else 443
        return host[0], None if host[1] == default else host[1]

    @staticmethod
    def names_for(ip: str, extra: list[str]) -> set[str]:
        """The names a server listening on ``ip`` answers to: loopback, its own address (every
        address of this machine for ``0.0.0.0`` or ``::``), and ``extra``."""
        names = set(LOOPBACK_NAMES) | {name.strip().lower() for name in extra if name.strip()}
        address = ipaddress.ip_address(ip)
        if address.is_unspecified:
            names |= {_bracketed(a) for a in _local_addresses()}
        else:
            names.add(_bracketed(str(address)))
        return names


class RefusedHandler(web.RequestHandler):
    """The answer to a request the :class:`Guard` refused: 403 and one line of text."""

    def initialize(self, reason: str) -> None:
        self.reason = reason

    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"403 Forbidden: {self.reason}\n")


class GuardedApplication(web.Application):
    """Tornado's application, asking the :class:`Guard` before routing any request."""

    def __init__(self, guard: Guard, *args: Any, **kwargs: Any) -> None:
        self.guard = guard
        super().__init__(*args, **kwargs)

    def find_handler(self, request: httputil.HTTPServerRequest, **kwargs: Any) -> web._HandlerDelegate:
        reason = self.guard.refusal(request)
        if reason is not None:
            return self.get_handler_delegate(request, RefusedHandler, {"reason": reason})
        return super().find_handler(request, **kwargs)


class CappedKernelManager(AsyncMappingKernelManager):
    """Refuses an app beyond ``max_kernels`` open ones with HTTP 503 (Voila shows our page).

    An open app is a kernel started for a page, or a preheated kernel handed to one
    (``GuardedVoila`` reports those through ``handed_out``). Kernels waiting in Voila's pools
    (started with ``VOILA_PREHEAT`` in their environment) are not apps and do not count.
    """

    max_kernels = Integer(MAX_KERNELS, config=True, help="Most apps open at once; more get HTTP 503.")
    abandoned_after = Float(
        ABANDONED_S, config=True, help="Seconds an app's kernel runs once its last page has gone (0: until culled)."
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._starting = 0  # kernels asked for by a page and not yet running
        self._apps: set[str] = set()  # kernels serving a page (some may have ended since)
        self._left: dict[str, float] = {}  # when each app kernel's last page disconnected (event-loop time)
        self._checks: set[asyncio.Task] = set()  # shutdowns of abandoned kernels under way

    def notify_disconnect(self, kernel_id: str) -> None:
        """A page's websocket closed: once an app's kernel has had no page for ``abandoned_after``
        seconds, shut it down, busy or not (the closing tab's beacon may never have arrived)."""
        super().notify_disconnect(kernel_id)
        if kernel_id in self._apps and self._kernel_connections.get(kernel_id) == 0 and self.abandoned_after > 0:
            loop = asyncio.get_running_loop()
            self._left[kernel_id] = left = loop.time()
            loop.call_later(self.abandoned_after, self._check_abandoned, kernel_id, left)

    def _check_abandoned(self, kernel_id: str, left: float) -> None:
        task = asyncio.ensure_future(self._shut_down_if_abandoned(kernel_id, left))
        self._checks.add(task)  # kept until done: the loop holds tasks only weakly
        task.add_done_callback(self._checks.discard)

    async def _shut_down_if_abandoned(self, kernel_id: str, left: float) -> None:
        """Shut ``kernel_id`` down if it has had no page since it was left at ``left``."""
        if self._left.get(kernel_id) != left:
            return  # a page came back and left again: that later departure has its own check
        del self._left[kernel_id]
        if kernel_id in self and self._kernel_connections.get(kernel_id) == 0:
            self.log.info("Kernel %s has had no page for %s s: shutting it down", kernel_id, self.abandoned_after)
            try:
                await self.shutdown_kernel(kernel_id, now=True)
            except Exception as exc:  # the culler or the page's beacon took it meanwhile
                self.log.warning("Kernel %s could not be shut down: %s", kernel_id, exc)

    def handed_out(self, kernel_id: str) -> None:
        """A preheated kernel now serves a page: it counts as an app, and its idle clock starts
        now (it has been idle in the pool; culling would take it before the page connects)."""
        self._apps.add(kernel_id)
        self.get_kernel(kernel_id).last_activity = utcnow()

    def apps_open(self) -> int:
        """Kernels serving a page, and those being started for one."""
        self._apps &= set(self.list_kernel_ids())
        return len(self._apps) + self._starting

    def check_capacity(self) -> None:
        """Raise HTTP 503 when ``max_kernels`` apps are open."""
        if (open_apps := self.apps_open()) >= self.max_kernels:
            raise web.HTTPError(
                503, reason=f"This server is running {open_apps} of at most {self.max_kernels} apps at once."
            )

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        for_pool = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        if for_pool or kwargs.get("kernel_id") is not None:  # a pool's kernel, or a restart
            return await super().start_kernel(*args, **kwargs)
        self.check_capacity()
        self._starting += 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        self._apps.add(kernel_id)
        return kernel_id


class GuardedRenderHandler(TornadoVoilaHandler):
    """Voila's render handler with a busy page, short error pages and the kernel watch."""

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        await super().prepare(*args, **kwargs)  # login
        if self.request.method == "GET":  # a preheated kernel is handed out without start_kernel
            self.kernel_manager.check_capacity()
            if self.path_args:
                self.settings["voila"].warm_on_demand(self.path_args[0])

    def write(self, chunk: Any) -> None:
        if self.get_status() == 200 and isinstance(chunk, str) and "</body>" in chunk:
            url = url_path_join(self.base_url, "tabletop", "kernel") + "/"
            watch = KERNEL_WATCH % {"url": f'"{escape(url)}"', "every_ms": KERNEL_WATCH_MS}
            chunk = chunk.replace("</body>", watch + "</body>", 1)
        super().write(chunk)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code == 503:
            self.set_header("Retry-After", str(RETRY_AFTER_S))
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(BUSY_PAGE.format(message=escape(self._reason)))
            return
        _short_error(self, status_code)


class KernelStateHandler(APIHandler):
    """``GET tabletop/kernel/<id>``: ``{"alive": true|false}``, 404 once the kernel is gone. A dead
    kernel is shut down here, so that it does not wait for the culler."""

    @web.authenticated
    async def get(self, kernel_id: str) -> None:
        manager = self.kernel_manager
        if kernel_id not in manager:
            raise web.HTTPError(404)
        alive = await manager.get_kernel(kernel_id).is_alive()
        if not alive:
            await manager.shutdown_kernel(kernel_id, now=True)
        self.finish({"alive": bool(alive)})

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_status(status_code)
        self.finish({"alive": False})


class GalleryHandler(JupyterHandler):
    """The gallery page, answered by the server from the apps' metadata (no kernel); the first
    request waits (at most ``GALLERY_WAIT_S``) for the cards' pictures to be drawn."""

    @web.authenticated
    async def get(self) -> None:
        from .gallery import gallery_html, thumbnail_name
        from .serve import list_apps

        voila = self.settings["voila"]
        with contextlib.suppress(asyncio.TimeoutError, OSError):
            await asyncio.wait_for(asyncio.shield(voila.thumbnails_drawn), GALLERY_WAIT_S)
        folder = url_path_join(self.base_url, "tabletop", "thumbnails")
        apps = list_apps(Path(voila.root_dir).parents[1])
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(gallery_html(apps, lambda app: url_path_join(folder, thumbnail_name(app))))


class ThumbnailHandler(JupyterHandler):
    """``tabletop/thumbnails/<app>.png``: a gallery card's picture."""

    @web.authenticated
    def get(self, name: str) -> None:
        path = self.settings["voila"].thumbnails / name
        if not path.is_file():
            raise web.HTTPError(404)
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", "max-age=3600")
        self.finish(path.read_bytes())


class GuardedVoila(Voila):
    """Voila with the :class:`Guard` in front of every handler, kernels capped and preheated,
    and the gallery (``landing``) answered without a kernel (:class:`GalleryHandler`).

    ``preheat`` kernels per app wait for visitors. Voila would start them all at once, which on
    a small machine delays every app; so Voila's own pools start empty
    (``--VoilaConfiguration.preheat_kernel=True``, pool size 0) and this class fills them one app
    at a time once the gallery's pictures are drawn, each when the previous app's kernels have started and ``preheat_stagger`` more
    seconds have passed (for its notebook to run). Preheating follows demand: apps named in
    ``cold`` get no pool until someone opens one; from then on a kernel waits for the next visitor.
    """

    preheat = Integer(0, config=True, help="Kernels kept waiting per app (needs VoilaConfiguration.preheat_kernel).")
    preheat_stagger = Float(1.0, config=True, help="Seconds between one app's pool filled and the next one's start.")
    landing = Unicode("index.ipynb", config=True, help="The app whose pool fills first.")
    cold = List(Unicode(), config=True, help="Apps (notebook file names) started only when opened.")
    allow_hosts = List(Unicode(), config=True, help="Host names answered besides loopback and the address listened on.")

    def initialize(self, argv: Any = None) -> None:
        super().initialize(argv)
        token = os.environ.pop(TOKEN_VARIABLE, None)  # popped: kernels inherit the environment
        if token:
            self.token = token

    def init_settings(self) -> dict:
        self.voila_configuration.multi_kernel_manager_class = CappedKernelManager
        settings = super().init_settings()
        settings["allow_remote_access"] = True  # the Guard checks Host on every path, before any handler
        if self.voila_configuration.preheat_kernel:
            _report_hand_outs(self.kernel_manager)
            self.kernel_manager.kernel_pools_config = {
                "default": {"pool_size": self.preheat},
                **{notebook: {"pool_size": 0} for notebook in [self.landing, *self.cold]},
            }
            self._filling = asyncio.get_event_loop().create_task(self._fill_pools())  # kept: tasks are weakly held
        return settings

    async def _fill_pools(self) -> None:
        with contextlib.suppress(OSError):  # the gallery's pictures first: the first page most visitors see
            await asyncio.shield(self.thumbnails_drawn)
        manager = self.kernel_manager
        apps = sorted(str(path.relative_to(self.root_dir)) for path in Path(self.root_dir).glob("*.ipynb"))
        apps.sort(key=lambda name: name != self.landing)
        for notebook in apps:
            if notebook == self.landing or notebook in self.cold:
                continue
            manager.fill_if_needed(delay=0, notebook_name=notebook)
            await asyncio.gather(*manager._pools.get(notebook, ()), return_exceptions=True)
            await asyncio.sleep(self.preheat_stagger)

    def warm_on_demand(self, notebook: str) -> None:
        """Someone opened ``notebook``: if it had no pool, keep ``preheat`` kernels for it from now on."""
        pools = getattr(self.kernel_manager, "kernel_pools_config", None)
        if pools is None or notebook == self.landing or pools.get(notebook, {}).get("pool_size") != 0:
            return
        pools[notebook] = {"pool_size": self.preheat}
        self.kernel_manager.fill_if_needed(notebook_name=notebook)

    def init_handlers(self) -> list:
        handlers = [
            (spec[0], GuardedRenderHandler, *spec[2:]) if spec[1] is TornadoVoilaHandler else spec
            for spec in super().init_handlers()
        ]
        ours = [
            (
                url_path_join(self.server_url, r"/tabletop/kernel/(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)"),
                KernelStateHandler,
            ),
            (url_path_join(self.server_url, r"/tabletop/thumbnails/([\w-]+\.png)"), ThumbnailHandler),
            (url_path_join(self.server_url, "/voila/render", re.escape(self.landing)), GalleryHandler),
            (
                self.server_url,
                web.RedirectHandler,
                {"url": url_path_join(self.server_url, "voila/render", self.landing), "permanent": False},
            ),
        ]
        return [*ours, *handlers]

    async def _draw_thumbnails(self) -> None:
        """Draw the gallery's pictures in a process of their own (it loads matplotlib, this one does not)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tabletop_lab.gallery", str(self.thumbnails), str(Path(self.root_dir).parents[1]),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, errors = await process.communicate()
        if process.returncode:
            self.log.error("the gallery's pictures could not be drawn:\n%s", errors.decode(errors="replace")[-2000:])

    def stop(self) -> None:
        shutil.rmtree(self.thumbnails, ignore_errors=True)
        super().stop()

    def start(self) -> None:
        """Voila's ``start``, with the guarded application in place of tornado's."""
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        self.thumbnails = Path(tempfile.mkdtemp(prefix="tabletop_gallery_"))
        self.thumbnails_drawn = asyncio.get_event_loop().create_task(self._draw_thumbnails())
        settings = self.init_settings()
        self.app = GuardedApplication(Guard(Guard.names_for(self.ip, self.allow_hosts)), **settings)
        self.app.settings.update(self.tornado_settings)
        self.app.add_handlers(".*$", self.init_handlers())
        _quiet_error_pages()
        self.listen()


def _report_hand_outs(manager: Any) -> None:
    """Make Voila's pool manager (a subclass Voila builds around ``CappedKernelManager``, so it
    cannot be overridden there) tell the cap each time it hands a preheated kernel to a page."""
    take = manager.get_rendered_notebook

    async def get_rendered_notebook(*args: Any, **kwargs: Any) -> tuple:
        render_task, rendered, kernel_id = await take(*args, **kwargs)
        manager.handed_out(kernel_id)
        return render_task, rendered, kernel_id

    manager.get_rendered_notebook = get_rendered_notebook


def _short_error(handler: web.RequestHandler, status_code: int, **kwargs: Any) -> None:
    """An error page of one line: no template (Voila's handlers have none for errors, so
    ``JupyterHandler.write_error`` failed with "Uncaught exception in write_error"), no traceback."""
    reason = httputil.responses.get(status_code, "Error")
    message = {403: "This is not served.", 404: "There is no such page."}.get(status_code, "Something went wrong.")
    handler.set_header("Content-Type", "text/html; charset=utf-8")
    handler.finish(ERROR_PAGE.format(status=status_code, title=escape(reason), message=message))


def _quiet_error_pages() -> None:
    """Every Jupyter handler answers errors with :func:`_short_error`."""
    JupyterHandler.write_error = _short_error  # the server process only


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _local_addresses() -> list[str]:
    """This machine's IP addresses (interfaces that are up), from ``psutil``."""
    import psutil

    return [
        a.address.split("%")[0]
        for addresses in psutil.net_if_addrs().values()
        for a in addresses
        if a.family.name in ("AF_INET", "AF_INET6")
    ]


def main() -> None:
    GuardedVoila.launch_instance()


if __name__ == "__main__":
    main()
