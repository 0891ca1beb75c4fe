"""An nbclient ``NotebookClient`` that fails a cell at once, naming it, when the kernel sits idle
while the cell waits.

nbclient waits up to its ``timeout`` (600 s in the tests) for a cell's reply, whatever the
kernel is doing. A kernel that is busy with the cell may take that long; but a kernel that never
took the request up (no ``busy`` status for it), or that went ``idle`` on it and whose reply never
came, will never answer, and waiting on it only turns a failure into a ten-minute stall.
``WatchedClient`` follows the kernel's status messages for the cell and raises
``StalledCellError`` after ``idle_limit`` seconds of such idleness.
"""

from __future__ import annotations

import asyncio
import time

from nbclient import NotebookClient
from nbclient.util import run_sync

IDLE_LIMIT = 30.0  # seconds a cell may wait on a kernel that is not working on it


class StalledCellError(AssertionError):
    """The kernel sat idle while a cell waited for it."""


class WatchedClient(NotebookClient):
    """``NotebookClient`` whose cells fail, named, after ``idle_limit`` seconds on an idle kernel."""

    idle_limit = IDLE_LIMIT

    def process_message(self, msg, cell, cell_index):
        if msg["msg_type"] == "status":
            self._kernel_state = (msg["content"]["execution_state"], time.monotonic())
        return super().process_message(msg, cell, cell_index)

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        run = super().async_execute_cell(cell, cell_index, execution_count, store_history)
        if cell.cell_type != "code" or not cell.source.strip():
            return await run
        self._kernel_state = ("sent", time.monotonic())  # until the kernel says busy
        task = asyncio.ensure_future(run)
        while True:
            done, _ = await asyncio.wait([task], timeout=1)
            if done:
                return task.result()
            state, since = self._kernel_state
            if state != "busy" and time.monotonic() - since > self.idle_limit:
                task.cancel()
                await asyncio.wait([task], timeout=5)  # let nbclient's pollers unwind
                if task.done() and not task.cancelled():
                    task.exception()  # retrieved, so asyncio does not report it as lost
                what = "never took the request up" if state == "sent" else "went idle on it and its reply never came"
                raise StalledCellError(
                    f"cell {cell_index} (id {cell.get('id')!r}) stalled: the kernel {what} "
                    f"({self.idle_limit:g} s idle while the cell waited). Its source:\n{cell.source[:400]}"
                )

    execute_cell = run_sync(async_execute_cell)  # nbclient binds its own at class level
