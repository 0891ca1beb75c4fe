"""Step through a recorded game: a slider and buttons over its states, drawn by the game's adapter.

The board is one object-oriented matplotlib figure rendered to PNG in an ``Image`` widget, so
the viewer needs no ipympl canvas and makes no pyplot figure.
"""

from __future__ import annotations

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..board_adapter import load_adapter
from ..core import State
from ..records import GameRecord
from ..render import figure_png
from .controls import ErrorLog, guarded

__all__ = ["ReplayViewer"]


class ReplayViewer(widgets.VBox):
    """A viewer over ``record`` (a GameRecord, or a State whose history is replayed).

    CSS classes: root ``tl-replay``, slider ``tl-replay-slider``, buttons ``tl-replay-prev`` and
    ``tl-replay-next``, move label ``tl-replay-move``, picture ``tl-replay-image``.
    """

    def __init__(self, record: GameRecord | State):
        super().__init__()
        self.add_class("tl-replay")
        if isinstance(record, State):
            record = GameRecord.from_state(record)
        if not isinstance(record, GameRecord):
            raise ValueError(f"ReplayViewer needs a GameRecord or a State, got {type(record).__name__}")
        self.record = record
        self.states = record.states()
        self.adapter = load_adapter(self.states[0].game)
        self.figure = Figure(figsize=self.adapter.figsize)
        self.adapter.setup(self.figure)
        self.errors = ErrorLog()
        last = len(self.states) - 1
        self.slider = widgets.IntSlider(value=0, min=0, max=last, description="Action", continuous_update=False)
        self.slider.add_class("tl-replay-slider")
        self.prev_button = widgets.Button(description="Previous", layout=widgets.Layout(width="auto"))
        self.prev_button.add_class("tl-replay-prev")
        self.next_button = widgets.Button(description="Next", layout=widgets.Layout(width="auto"))
        self.next_button.add_class("tl-replay-next")
        self.prev_button.on_click(lambda _: self._step(-1))
        self.next_button.on_click(lambda _: self._step(+1))
        self.move_label = widgets.Label()
        self.move_label.add_class("tl-replay-move")
        width = self.figure.get_figwidth() * self.figure.dpi
        self.image = widgets.Image(format="png", layout=widgets.Layout(width=f"{width:.0f}px"))
        self.image.add_class("tl-replay-image")
        self.slider.observe(lambda change: self._show(change["new"]), names="value")
        self.children = [
            widgets.HBox([self.prev_button, self.slider, self.next_button]),
            self.move_label,
            self.image,
            self.errors,
        ]
        self._show(0)

    @guarded
    def _step(self, delta: int) -> None:
        self.slider.value = min(max(self.slider.value + delta, 0), self.slider.max)

    @guarded
    def _show(self, index: int) -> None:
        state = self.states[index]
        self.adapter.draw(state)
        self.image.value = figure_png(self.figure)
        total = len(self.states) - 1
        if index == 0:
            text = f"start of {total} actions"
        else:
            mover = self.adapter.player_name(self.states[index - 1].current_player())
            text = f"action {index} of {total}: {mover} played {self.record.actions[index - 1]}"
        if state.result() is not None:
            text += f" · {self.adapter.result_words(state)}"
        self.move_label.value = text
        self.prev_button.disabled = index == 0
        self.next_button.disabled = index == total
