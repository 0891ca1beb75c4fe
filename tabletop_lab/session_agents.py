"""The agents' turns in a game at one screen (``session.PlaySession``), mixed into the session.

Without an asyncio ``loop`` an agent answers at once. With one, it thinks in a thread, started
``THINK_DELAY_SECONDS`` after the last move so its picture shows first, and answers on the loop;
``animate`` may show the move before it is played. Every pending reply carries the session's
``epoch``: any change of position raises it (``_cancel``), so a late reply is forgotten rather
than played on the wrong position. Hints, evaluations and reviews use ``_background`` the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .agents import Agent
from .kernels import ready_kernels_only

__all__ = ["SessionAgents"]


class SessionAgents:
    """The agents' part of a ``PlaySession``: a mixin that reads the session's state, seats and
    loop, and plays through its ``_play_action`` and ``_change``."""

    THINK_DELAY_SECONDS = 0.2  # before an agent starts searching, so the last move shows at once

    def _on_loop(self, call: Callable[..., None], *args: Any) -> None:
        """``call(*args)`` on the session's loop (from a thread), or at once without one."""
        if self.loop is None:
            call(*args)
            return
        try:
            self.loop.call_soon_threadsafe(call, *args)
        except RuntimeError:  # the loop is closed: the kernel is gone
            pass

    def _background(self, work: Callable[[], Any], done: Callable[[Any, BaseException | None], None]) -> None:
        """``done(work(), None)`` (or ``done(None, error)``): at once without a loop, else
        ``work`` in a thread and ``done`` on the loop."""
        if self.loop is None:
            try:
                outcome = (work(), None)
            except Exception as exc:
                outcome = (None, exc)
            done(*outcome)
            return

        def run() -> None:
            try:
                with ready_kernels_only():
                    outcome = (work(), None)
            except Exception as exc:
                outcome = (None, exc)
            self._on_loop(done, *outcome)

        threading.Thread(target=run, name="tl-session-analysis", daemon=True).start()

    # --- agents --------------------------------------------------------------------------

    def run_agents(self, *, once: bool = False) -> None:
        """Let agents play while one is to move and the cap is not reached (in a thread when the
        session has a loop, else at once); while paused, nothing, or one move when ``once``."""
        if self.agent_to_move() is None or self.capped() or (self._paused and not once):
            return
        with self._change():
            while (agent := self.agent_to_move()) is not None and not self.capped():
                if self.loop is not None:
                    self._think(agent)
                    return
                with ready_kernels_only():
                    action = agent.choose_action(self._state.clone())
                self._play_action(action)
                if self._paused:
                    return

    def _think(self, agent: Agent) -> None:
        """Ask ``agent`` in a thread; its answer comes back on the loop as ``_agent_replied``."""
        self._busy = True
        self._dirty = True
        epoch, snapshot, loop = self._epoch, self._state.clone(), self.loop

        def work() -> None:
            try:
                with ready_kernels_only():
                    outcome = (agent.choose_action(snapshot), None)
            except Exception as exc:
                outcome = (None, exc)
            try:
                loop.call_soon_threadsafe(self._agent_replied, epoch, *outcome)
            except RuntimeError:  # the loop is closed: the kernel is gone
                pass

        def start() -> None:
            if epoch == self._epoch:
                threading.Thread(target=work, name="tl-session-agent", daemon=True).start()

        # Start once the last move's picture is out: a search meanwhile would slow the drawing.
        loop.call_later(self.THINK_DELAY_SECONDS, start)

    def _agent_replied(self, epoch: int, action: int | None, error: BaseException | None) -> None:
        if epoch != self._epoch:
            return
        if error is not None:
            with self._change():
                self._busy = False
            self._report(error)
            return
        if self.animate is not None and self.perfect:  # frames show the whole state: never with hidden cards
            try:
                self.animate(self._state.clone(), action, lambda: self._agent_played(epoch, action))
            except Exception as exc:
                with self._change():
                    self._busy = False
                self._report(exc)
        else:
            self._agent_played(epoch, action)

    def _agent_played(self, epoch: int, action: int) -> None:
        if epoch != self._epoch:
            return
        try:
            with self._change():
                self._busy = False
                self._play_action(action)
                self.run_agents()
        except Exception as exc:
            self._report(exc)

    def is_current(self, epoch: int) -> bool:
        return epoch == self._epoch

    @property
    def epoch(self) -> int:
        """Raised whenever a pending agent reply or its animation is forgotten."""
        return self._epoch

    def _report(self, exc: BaseException) -> None:
        if self.on_error is None:
            raise exc
        self.on_error(exc)

    def _cancel(self) -> None:
        """Forget a pending agent reply or animation."""
        self._epoch += 1
        if self._busy:
            self._busy = False
            self._dirty = True
