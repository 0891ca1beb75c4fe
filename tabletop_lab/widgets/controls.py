"""Small parts shared by the widgets: the error log, agent and option pickers, the canvas.

Errors raised inside widget callbacks vanish silently in Jupyter and Voila, so every callback
reports into an ``ErrorLog`` instead: the player's mistakes (``ValueError``s, the engine's
guard) as one line, anything else as a full traceback.
"""

from __future__ import annotations

import functools
import json
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..agents import AGENTS, Agent
from ..core import Game, Option, Result
from ..errors import LapLimitError

__all__ = [
    "HUMAN",
    "ErrorLog",
    "agent_choices",
    "guarded",
    "make_canvas",
    "option_controls",
    "option_value",
    "option_widget",
    "result_text",
    "seat_picker",
]

HUMAN = "human"

#: Agent specs offered by the pickers: budgets small enough to answer within a second or so.
QUICK_SPECS = {"mcts": "mcts:iterations=300", "alphabeta": "alphabeta:depth=3", "ismcts": "ismcts:iterations=300"}


class ErrorLog(widgets.Output):
    """An ``Output`` showing the latest error; CSS class ``tl-errors``.

    It writes ``outputs`` directly rather than using ``with output:``, which loses text when
    called from a thread.
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("tl-errors")

    def show(self, message: str) -> None:
        """Replace what is shown by ``message``."""
        self.outputs = ({"output_type": "stream", "name": "stderr", "text": message.rstrip("\n") + "\n"},)

    def report(self, exc: BaseException) -> None:
        """Show a user error as its message, anything else as a traceback."""
        if isinstance(exc, (ValueError, LapLimitError)):
            self.show(f"{type(exc).__name__}: {exc}")
        else:
            self.show("".join(traceback.format_exception(exc)))

    def clear(self) -> None:
        self.outputs = ()

    @property
    def text(self) -> str:
        """Everything shown, as plain text."""
        return "".join(o.get("text", "") for o in self.outputs)


def guarded(method: Callable) -> Callable:
    """Run a widget callback method, sending any exception to ``self.errors`` (an ErrorLog)."""

    @functools.wraps(method)
    def wrapper(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            self.errors.report(exc)
            return None

    return wrapper


def agent_choices(human: bool = True) -> list[tuple[str, str]]:
    """(label, spec) pairs for a seat picker: "human" first, then every registered agent.

    >>> agent_choices()[:2]
    [('human', 'human'), ('random', 'random')]
    """
    choices = [(HUMAN, HUMAN)] if human else []
    for name in AGENTS:
        spec = QUICK_SPECS.get(name, name)
        label = name if spec == name else f"{name} ({spec.partition(':')[2].replace('=', ' ')})"
        choices.append((label, spec))
    return choices


def seat_picker(seat: int, name: str, value: str | Agent, human: bool = True) -> widgets.Dropdown:
    """A dropdown choosing who plays ``seat``; an unlisted spec or Agent is added as an option.

    CSS class ``tl-seat-<seat>``.
    """
    options = agent_choices(human)
    if isinstance(value, Agent) or value not in [spec for _, spec in options]:
        options.append((value.label if isinstance(value, Agent) else str(value), value))
    picker = widgets.Dropdown(options=options, value=value, description=name, layout=widgets.Layout(width="230px"))
    picker.style.description_width = "60px"
    picker.add_class(f"tl-seat-{seat}")
    return picker


def option_widget(option: Option, value: Any) -> widgets.Widget:
    """A control for one rule option: a checkbox, a dropdown of its choices, or JSON text."""
    common = {"description": option.name, "tooltip": option.doc, "style": {"description_width": "initial"}}
    if option.choices is not None and all(type(c) is bool for c in option.choices):
        return widgets.Checkbox(value=value, indent=False, layout=widgets.Layout(width="auto"), **common)
    if option.choices is not None:
        options = [(json.dumps(c), c) for c in option.choices]
        return widgets.Dropdown(options=options, value=value, layout=widgets.Layout(width="max-content"), **common)
    return widgets.Text(
        value=json.dumps(value), placeholder=option.allowed, layout=widgets.Layout(width="220px"), **common
    )


def option_value(control: widgets.Widget) -> Any:
    """The value a control from ``option_widget`` holds; JSON text is parsed."""
    if isinstance(control, widgets.Text):
        try:
            return json.loads(control.value)
        except json.JSONDecodeError:
            raise ValueError(f"option {control.description}: {control.value!r} is not a JSON value") from None
    return control.value


def option_controls(game: Game) -> dict[str, widgets.Widget]:
    """One control per rule option of ``game``, set to its current value."""
    return {o.name: option_widget(o, game.options[o.name]) for o in game.option_specs}


def make_canvas(figsize: tuple[float, float]) -> Figure:
    """A figure drawn by an ipympl canvas widget (``figure.canvas``), made without pyplot.

    pyplot never learns of the figure, so nothing keeps it alive once the widget is gone, and
    no figure appears outside the widget's layout. The header, toolbar and footer are hidden.
    """
    from ipympl.backend_nbagg import Canvas, FigureManager

    figure = Figure(figsize=figsize)
    canvas = Canvas(figure)
    with warnings.catch_warnings():  # ipympl 0.10's toolbar trips a traitlets deprecation
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        FigureManager(canvas, num=id(figure))  # the canvas sends its frames through its manager
    canvas.header_visible = False
    canvas.toolbar_visible = False
    canvas.footer_visible = False
    canvas.resizable = False
    canvas.capture_scroll = False
    return figure


def result_text(result: Result, name: Callable[[int], str]) -> str:
    """The result in words, ``name`` giving each player's name: "Game over: South wins, 20–16"."""
    scores = "–".join(str(int(s)) if float(s).is_integer() else f"{s:g}" for s in result.scores)
    if result.is_draw:
        text = f"Game over: draw, {scores}"
    else:
        winners = " and ".join(name(p) for p in result.winners)
        text = f"Game over: {winners} win{'s' if len(result.winners) == 1 else ''}, {scores}"
    if result.reason != "standard":
        text += f" ({result.reason})"
    return text
