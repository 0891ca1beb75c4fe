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
* **A kernel cap**: at most ``CappedKernelManager.max_kernels`` kernels run at once; one more
  app gets a short "busy, try again" page with HTTP 503 and ``Retry-After``.

Tokens: the server listens on 127.0.0.1 only and answers only loopback Host names, so no other
machine, and no page of another site, can reach a kernel; a token would matter only on another
interface, which ``tabletop_lab.serve`` does not offer.

Needs Voila (the ``notebooks`` extra). Used only in the server process.
"""

from __future__ import annotations

from html import escape
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer
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
    """Refuses to start a kernel beyond ``max_kernels`` with HTTP 503 (Voila shows our page)."""

    max_kernels = Integer(MAX_KERNELS, config=True, help="Most kernels running at once; more get HTTP 503.")

    _starting = 0  # kernels asked for and not yet running: they count against the cap

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        if kwargs.get("kernel_id") is None:  # a restart of a running kernel is never refused
            running = len(self.list_kernel_ids()) + self._starting
            if running >= self.max_kernels:
                raise web.HTTPError(
                    503, reason=f"This server is running {running} of at most {self.max_kernels} apps at once."
                )
        self._starting += 1
        try:
            return await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1


class GuardedRenderHandler(TornadoVoilaHandler):
    """Voila's render handler, refusing other sites' background requests, with a busy page."""

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        await super().prepare(*args, **kwargs)  # the Host check and login
        headers = self.request.headers
        site = headers.get("Sec-Fetch-Site")
        opened_by_user = headers.get("Sec-Fetch-Mode") == "navigate" and headers.get("Sec-Fetch-Dest") == "document"
        if site not in (None, "same-origin", "none") and not opened_by_user:
            raise web.HTTPError(403, reason="apps open only in their own tab, not from another site's page")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code != 503:
            super().write_error(status_code, **kwargs)
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Retry-After", str(RETRY_AFTER_S))
        self.finish(BUSY_PAGE.format(message=escape(self._reason)))


class GuardedVoila(Voila):
    """Voila with the Host check on, the render handler guarded and kernels capped."""

    def init_settings(self) -> dict:
        self.voila_configuration.multi_kernel_manager_class = CappedKernelManager
        settings = super().init_settings()
        settings["allow_remote_access"] = False
        return settings

    def init_handlers(self) -> list:
        return [
            (spec[0], GuardedRenderHandler, *spec[2:]) if spec[1] is TornadoVoilaHandler else spec
            for spec in super().init_handlers()
        ]


def main() -> None:
    GuardedVoila.launch_instance()


if __name__ == "__main__":
    main()
