"""An nbclient ``NotebookClient`` that fails a cell at once, naming it, when the kernel sits idle
while the cell waits.

nbclient waits up to its ``timeout`` (600 s in the tests) for a cell's reply, whatever the
kernel is doing. A kernel that is busy with the cell may take that long; but a kernel that never
took the request up (no ``busy`` status for it), or that went ``idle`` on it and whose reply never
came, will never answer, and waiting on it only turns a failure into a ten-minute stall.
``WatchedClient`` follows the kernel's status messages for the cell and raises
``StalledCellError`` after ``idle_limit`` seconds of such idleness.

The stalls the explore notebooks showed had that look (the kernel idle, nbclient waiting) but
were on this side: the kernel's reply had arrived and sat in the client's shell socket, and the
asyncio poller waiting on that socket was never woken. ZeroMQ signals a socket's file
descriptor on an edge, and a wake-up can be missed; its documentation asks the user of the
descriptor to check ``ZMQ_EVENTS`` rather than rely on the signal alone, and pyzmq's asyncio
socket, on reading ``EVENTS``, runs the receives that are ready. So once a second, while a cell
runs, ``WatchedClient`` reads ``EVENTS`` of the shell and IOPub sockets: a reply left waiting is
taken within a second. Measured on the 2-core machine: at three stalls the shell socket held
the reply (``EVENTS`` had ``POLLIN``) and the cell completed the moment ``EVENTS`` was read; a
stall left alone waited 120 s. ``scripts/stress_notebooks.py`` (20 runs of each explore
notebook): 5 stalls in 100 runs with the watch alone, 0 in 100 with ``EVENTS`` read.
"""

from __future__ import annotations

import asyncio
import time

import zmq
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbclient.util import run_sync

IDLE_LIMIT = 30.0  # seconds a cell may wait on a kernel that is not working on it


class StalledCellError(AssertionError):
    """The kernel sat idle while a cell waited for it."""


class WatchedClient(NotebookClient):
    """``NotebookClient`` whose cells fail, named, after ``idle_limit`` seconds on an idle kernel.

    nbclient already checks once a second, while a cell runs, that the kernel is alive
    (``_async_poll_kernel_alive``); the sockets' ``EVENTS`` are read and the watch is made there,
    and a stalled cell is ended the way nbclient ends a cell whose kernel died, then reported
    as a ``StalledCellError``.
    """

    idle_limit = IDLE_LIMIT

    def process_message(self, msg, cell, cell_index):
        if msg["msg_type"] == "status":
            self._kernel_state = (msg["content"]["execution_state"], time.monotonic())
        return super().process_message(msg, cell, cell_index)

    async def _async_poll_kernel_alive(self) -> None:
        while True:
            await asyncio.sleep(1)
            try:
                await self._async_check_alive()
            except DeadKernelError:
                self.task_poll_for_reply.cancel()
                return
            for channel in (self.kc.shell_channel, self.kc.iopub_channel):
                channel.socket.get(zmq.EVENTS)  # services a missed wake-up: a waiting reply is received
            state, since = self._kernel_state
            if state != "busy" and time.monotonic() - since > self.idle_limit:
                self._stalled = state
                self.task_poll_for_reply.cancel()  # async_execute_cell then raises DeadKernelError
                return

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        self._kernel_state, self._stalled = ("sent", time.monotonic()), None  # "sent" until the kernel says busy
        try:
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        except DeadKernelError:
            if self._stalled is None:
                raise
            what = (
                "never took the request up" if self._stalled == "sent" else "went idle on it and its reply never came"
            )
            raise StalledCellError(
                f"cell {cell_index} (id {cell.get('id')!r}) stalled: the kernel {what} "
                f"({self.idle_limit:g} s idle while the cell waited). Its source:\n{cell.source[:400]}"
            ) from None

    execute_cell = run_sync(async_execute_cell)  # nbclient binds its own at class level
