"""Voila, guarded for a desktop: what ``tabletop-lab serve`` runs (``python -m tabletop_lab.appserver``).

Any web page the user visits can send requests to a server on 127.0.0.1, so plain Voila lets
other websites start kernels (one per request to ``/voila/render/...``) and, through DNS
rebinding, read the pages and drive the widgets. This subclass of ``voila.app.Voila`` adds:

* **Host check**: ``allow_remote_access`` is off, so only requests whose ``Host`` is a
  loopback address or ``localhost`` are answered; ``Host: rebind.test`` gets 403. (Voila
  itself turns it on, and ``--Voila.tornado_settings=allow_remote_access=False`` on the
  command line would pass the *string* ``"False"``, which is true.)
* **No renders for other sites**: a browser's request to render an app is refused (403)
  when it comes from another site's page (``Sec-Fetch-Site``) and is not the user opening
  the app in a tab, such as a hidden ``fetch`` or an ``<iframe>``.
* **A kernel cap**: at most ``CappedKernelManager.max_kernels`` apps are open at once; one more
  app gets a short "busy, try again" page with HTTP 503 and ``Retry-After``. With preheated
  kernels (``tabletop_lab.serve`` turns them on), the kernels waiting in Voila's pools, one per
  app, are not open apps: they are started ahead of the user, counted apart, and never culled;
  an open app is culled as before once its tab is gone.

Tokens: the server listens on 127.0.0.1 only and answers only loopback Host names, so no other
machine, and no page of another site, can reach a kernel; a token would matter only on another
interface, which ``tabletop_lab.serve`` does not offer.

Needs Voila (the ``notebooks`` extra). Used only in the server process.
"""

from __future__ import annotations

import asyncio
from html import escape
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Integer, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

__all__ = ["MAX_KERNELS", "CappedKernelManager", "GuardedRenderHandler", "GuardedVoila", "main"]

#: Kernels (open apps) the server runs at once by default: each takes about 100 MB.
MAX_KERNELS = 8

#: Seconds a browser is told to wait before retrying when the server is busy.
RETRY_AFTER_S = 60

BUSY_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tabletop_lab: busy, try again</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Busy: try again in a minute</h1>
<p>{message}</p>
<p>Close the tab of an app you no longer use, or wait: apps left without a tab close by
themselves after a few minutes. Then reload this page.</p>
</body></html>
"""


class CappedKernelManager(AsyncMappingKernelManager):
    """Refuses an app beyond ``max_kernels`` open ones with HTTP 503 (Voila shows our page).

    An open app is a kernel started for a page, or a preheated kernel handed to one
    (``GuardedVoila`` reports those through ``handed_out``). Kernels waiting in Voila's pools
    (started with ``VOILA_PREHEAT`` in their environment) are not apps and do not count.
    """

    max_kernels = Integer(MAX_KERNELS, config=True, help="Most apps open at once; more get HTTP 503.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._starting = 0  # kernels asked for by a page and not yet running
        self._apps: set[str] = set()  # kernels serving a page (some may have ended since)

    def handed_out(self, kernel_id: str) -> None:
        """A preheated kernel now serves a page."""
        self._apps.add(kernel_id)

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
    """Voila's render handler, refusing other sites' background requests, with a busy page."""

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        await super().prepare(*args, **kwargs)  # the Host check and login
        headers = self.request.headers
        site = headers.get("Sec-Fetch-Site")
        opened_by_user = headers.get("Sec-Fetch-Mode") == "navigate" and headers.get("Sec-Fetch-Dest") == "document"
        if site not in (None, "same-origin", "none") and not opened_by_user:
            raise web.HTTPError(403, reason="apps open only in their own tab, not from another site's page")
        if self.request.method == "GET":  # a preheated kernel is handed out without start_kernel
            self.kernel_manager.check_capacity()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code != 503:
            super().write_error(status_code, **kwargs)
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Retry-After", str(RETRY_AFTER_S))
        self.finish(BUSY_PAGE.format(message=escape(self._reason)))


class GuardedVoila(Voila):
    """Voila with the Host check on, the render handler guarded, kernels capped and preheated.

    ``preheat`` kernels per app wait for visitors. Voila would start them all at once, which on
    a small machine delays the first page, the gallery, behind every app's kernel; so Voila's own
    pools start empty (``--VoilaConfiguration.preheat_kernel=True``, pool size 0) and this class
    fills them one app at a time, the gallery first, each when the previous app's kernels have
    started and ``preheat_stagger`` more seconds have passed (for its notebook to run).
    """

    preheat = Integer(0, config=True, help="Kernels kept waiting per app (needs VoilaConfiguration.preheat_kernel).")
    preheat_stagger = Float(1.0, config=True, help="Seconds between one app's pool filled and the next one's start.")
    landing = Unicode("index.ipynb", config=True, help="The app whose pool fills first.")

    def init_settings(self) -> dict:
        self.voila_configuration.multi_kernel_manager_class = CappedKernelManager
        settings = super().init_settings()
        settings["allow_remote_access"] = False
        if self.voila_configuration.preheat_kernel:
            _report_hand_outs(self.kernel_manager)
            self.kernel_manager.kernel_pools_config = {"default": {"pool_size": self.preheat}}
            self._filling = asyncio.get_event_loop().create_task(self._fill_pools())  # kept: tasks are weakly held
        return settings

    async def _fill_pools(self) -> None:
        manager = self.kernel_manager
        apps = sorted(str(path.relative_to(self.root_dir)) for path in Path(self.root_dir).glob("*.ipynb"))
        apps.sort(key=lambda name: name != self.landing)
        for notebook in apps:
            manager.fill_if_needed(delay=0, notebook_name=notebook)
            await asyncio.gather(*manager._pools.get(notebook, ()), return_exceptions=True)
            await asyncio.sleep(self.preheat_stagger)

    def init_handlers(self) -> list:
        return [
            (spec[0], GuardedRenderHandler, *spec[2:]) if spec[1] is TornadoVoilaHandler else spec
            for spec in super().init_handlers()
        ]


def _report_hand_outs(manager: Any) -> None:
    """Make Voila's pool manager (a subclass Voila builds around ``CappedKernelManager``, so it
    cannot be overridden there) tell the cap each time it hands a preheated kernel to a page."""
    take = manager.get_rendered_notebook

    async def get_rendered_notebook(*args: Any, **kwargs: Any) -> tuple:
        render_task, rendered, kernel_id = await take(*args, **kwargs)
        manager.handed_out(kernel_id)
        return render_task, rendered, kernel_id

    manager.get_rendered_notebook = get_rendered_notebook


def main() -> None:
    GuardedVoila.launch_instance()


if __name__ == "__main__":
    main()
