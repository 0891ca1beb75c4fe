"""Small parts shared by the widgets: the error log, agent and option pickers, the canvas.

Errors raised inside widget callbacks vanish silently in Jupyter and Voila, so every callback
reports into an ``ErrorLog`` instead: the player's mistakes (``ValueError``s) and the engine's
limits (``EngineLimitError``) as one line (a refusal by the rules in the player's words, its
rule under a "why?"), anything else as a bug: one line, its traceback folded under it.
"""

from __future__ import annotations

import functools
import html
import json
import math
import time
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..agents import AGENTS, Agent, agents_for, make_agent
from ..board_adapter import Refusal, result_text
from ..core import Game, Option
from ..errors import EngineLimitError
from ..rulebook import rules_page, section

__all__ = [
    "HUMAN",
    "ErrorLog",
    "agent_choices",
    "guarded",
    "make_canvas",
    "option_controls",
    "option_value",
    "option_label",
    "option_widget",
    "result_text",
    "seat_picker",
]

HUMAN = "human"

#: Agent specs offered by the pickers: budgets small enough to answer within a second or so.
QUICK_SPECS = {"mcts": "mcts:iterations=300", "alphabeta": "alphabeta:depth=3", "ismcts": "ismcts:iterations=300"}


class ErrorLog(widgets.HTML):
    """The latest message for the user, in the page's own font (no console box); CSS class
    ``tl-errors``.

    A refusal by the rules reads in the player's words, with a "why?" that opens the rule behind
    it (its section of ``docs/rules/<game>.md``) and the engine's own message: ``explain``, when
    set (a board sets its adapter's), turns a message into a ``Refusal``. Anything that is not
    the user's mistake is a bug: a line saying so, the traceback folded under it.
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("tl-errors")
        self.explain: Callable[[str], Refusal | None] | None = None
        self._text = ""

    def show(self, message: str) -> None:
        """Replace what is shown by ``message``: a refusal by the rules in the player's words."""
        refusal = self.explain(message) if self.explain is not None else None
        if refusal is not None:
            self.refuse(refusal)
            return
        message = message.rstrip("\n")
        self._set(f'<span class="tl-message" style="{_MESSAGE_STYLE}">{html.escape(message)}</span>', message)

    def refuse(self, refusal: Refusal) -> None:
        """Show ``refusal``: its words, then "why?" folding the rule and the engine's message."""
        page = rules_page(refusal.game)
        found = section(refusal.game, refusal.rule) if refusal.rule else None
        if refusal.rule is None:
            cited = f"The rules: {page}"
        elif refusal.rule.startswith("Decision"):
            cited = f"{found.heading if found else refusal.rule} ({page}, Decisions)"
        else:
            cited = f"Rule {found.heading if found else refusal.rule} ({page})"
        body = f"<b>{html.escape(cited)}</b>"
        if found is not None and found.text:
            body += f'<div style="white-space: pre-line">{html.escape(found.text)}</div>'
        body += f"<div><small>The engine: {html.escape(refusal.message)}</small></div>"
        self._set(
            f'<span class="tl-message tl-refusal" style="{_MESSAGE_STYLE}">{html.escape(refusal.words)}</span> '
            f'<details class="tl-why" style="display: inline-block; vertical-align: top">'
            f'<summary style="{_LINK_STYLE}" title="The rule behind this">why?</summary>'
            f'<div style="max-width: 720px; margin: 0.3em 0 0.5em 1em">{body}</div></details>',
            f"{refusal.words}\nwhy? {cited}: {refusal.message}",
        )

    def report(self, exc: BaseException) -> None:
        """Show a user error as its message (no exception class: those are for programmers),
        anything else as a bug, its traceback folded."""
        if isinstance(exc, (ValueError, EngineLimitError)):
            self.show(str(exc))
            return
        trace = "".join(traceback.format_exception(exc))
        self._set(
            f'<details class="tl-bug"><summary style="{_MESSAGE_STYLE}">Something went wrong inside '
            f"tabletop_lab (a bug, not your mistake): {html.escape(str(exc))}</summary>"
            f'<pre style="font-size: 0.8em">{html.escape(trace)}</pre></details>',
            trace,
        )

    def clear(self) -> None:
        self._set("", "")

    def _set(self, value: str, text: str) -> None:
        self._text = text
        self.value = value

    @property
    def text(self) -> str:
        """Everything shown, as plain text (a refusal's "why?" included)."""
        return self._text


_MESSAGE_STYLE = "color: #b3261e"
_LINK_STYLE = "display: inline; cursor: pointer; color: #1565c0; text-decoration: underline"


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


def agent_choices(human: bool = True, game: Game | None = None) -> list[tuple[str, str]]:
    """(label, spec) pairs for a seat picker: "human" first, then every agent that supports
    ``game`` (its own agents too), labelled in words (``Agent.display_name``).

    >>> agent_choices()[:3]
    [('human', 'human'), ('Random', 'random'), ('Greedy', 'greedy')]
    >>> agent_choices()[3]
    ('MCTS, 300 playouts', 'mcts:iterations=300')
    """
    choices = [(HUMAN, HUMAN)] if human else []
    for name in AGENTS if game is None else agents_for(game):
        spec = QUICK_SPECS.get(name, name)
        choices.append((make_agent(spec, game=game).display_name, spec))
    return choices


def seat_picker(
    seat: int,
    name: str,
    value: str | Agent,
    human: bool = True,
    game: Game | None = None,
    team_name: Callable[[int], str] | None = None,
) -> widgets.Dropdown:
    """A dropdown choosing who plays ``seat``; an unlisted spec or Agent is added as an option.

    Only agents that support ``game`` are listed; when ``game`` has teams of two or more, the
    label names the seat's team as ``team_name`` does (the board's adapter: "Blue, team dark";
    by default "team A"). CSS class ``tl-seat-<seat>``.
    """
    options = agent_choices(human, game)
    if isinstance(value, Agent) or value not in [spec for _, spec in options]:
        options.append((_spec_words(value, game), value))
    label = name
    if game is not None and any(len(team) > 1 for team in game.teams()):
        team = game.team_of(seat)
        label = f"{name}, {team_name(team) if team_name else 'team ' + chr(ord('A') + team)}"
    # as wide as its longest entry and its label: nothing is cut off ("Black (right), tea…")
    picker = widgets.Dropdown(
        options=options, value=value, description=label, layout=widgets.Layout(width="max-content")
    )
    picker.style.description_width = "initial"
    picker.add_class(f"tl-seat-{seat}")
    return picker


def _spec_words(value: str | Agent, game: Game | None) -> str:
    """An agent or spec in words for a picker; a spec no agent is made from shows as it is."""
    if isinstance(value, Agent):
        return value.display_name
    try:
        return make_agent(value, game=game).display_name
    except ValueError:
        return str(value)


def option_label(name: str) -> str:
    """An option's name as people read it.

    >>> option_label("seeds_per_hole")
    'Seeds per hole'
    """
    return name.replace("_", " ").capitalize()


#: The values a cap (an option of a positive integer or null, such as ``round_cap``) offers.
CAP_VALUES = (10, 20, 50, 100, 200, 500, 1000)


def option_widget(option: Option, value: Any, game: Game | None = None) -> widgets.Widget:
    """A control for one rule option: a checkbox, a dropdown, or (for other values) JSON text.

    Labelled for people ("Seeds per hole"), with the option's description as tooltip. Choices
    of a seat (``first_player``) show the players' names; a cap that may be ``null``
    (``round_cap``, ``max_cycles``) is a dropdown of round numbers and "no cap"; a structured
    option whose default is a name (Sinoda's ``board``) offers that name (and the value set,
    when it is another), its data being given in code.
    """
    common = {
        "description": option_label(option.name),
        "tooltip": option.doc,
        "style": {"description_width": "initial"},
    }
    dropdown = {"layout": widgets.Layout(width="max-content"), **common}
    if option.choices is not None and all(type(c) is bool for c in option.choices):
        return widgets.Checkbox(value=value, indent=False, layout=widgets.Layout(width="auto"), **common)
    if option.choices is not None:
        if option.name == "first_player" and game is not None:
            names = game.info.player_names
            options = [(names[c] if c < len(names) else f"Player {c}", c) for c in option.choices]
        else:
            options = [(c if isinstance(c, str) else json.dumps(c), c) for c in option.choices]
        return widgets.Dropdown(options=options, value=value, **dropdown)
    if _nullable_count(option):
        values = sorted({*CAP_VALUES, option.default, *([value] if value is not None else [])})
        options = [("no cap", None), *((str(v), v) for v in values)]
        return widgets.Dropdown(options=options, value=value, **dropdown)
    if isinstance(option.default, str):
        options = [(option.default.capitalize(), option.default)]
        if value != option.default:
            options.append(("as set in code" if not isinstance(value, str) else value, value))
        return widgets.Dropdown(options=options, value=value, **dropdown)
    return widgets.Text(
        value=json.dumps(value), placeholder=option.allowed, layout=widgets.Layout(width="220px"), **common
    )


def _nullable_count(option: Option) -> bool:
    """An option of a positive integer or ``None`` (a cap): its check takes both, not a text."""
    check = option.check
    if check is None or type(option.default) is not int:
        return False
    try:
        return bool(check(None)) and bool(check(1)) and not check("x")
    except Exception:
        return False


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
    return {o.name: option_widget(o, game.options[o.name], game) for o in game.option_specs}


def make_canvas(figsize: tuple[float, float]) -> Figure:
    """A figure drawn by an ipympl canvas widget (``figure.canvas``), made without pyplot.

    pyplot never learns of the figure, so nothing keeps it alive once the widget is gone, and
    no figure appears outside the widget's layout. The header, toolbar and footer are hidden.
    """
    from ipympl.backend_nbagg import FigureManager

    figure = Figure(figsize=figsize)
    canvas = _canvas_class()(figure)
    with warnings.catch_warnings():  # ipympl 0.10's toolbar trips a traitlets deprecation
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        FigureManager(canvas, num=id(figure))  # the canvas sends its frames through its manager
    canvas.header_visible = False
    canvas.toolbar_visible = False
    canvas.footer_visible = False
    canvas.resizable = False
    canvas.capture_scroll = False
    return figure


@functools.cache
def _canvas_class() -> type:
    """ipympl's canvas, sending whole frames when frames follow each other closely.

    ipympl sends a frame as the pixels changed since the last one (a "diff"), and the browser
    loads each frame's PNG asynchronously, replacing the image being loaded when the next frame
    arrives: a dropped diff leaves the picture mixed from two positions (old seeds, a title
    printed over another), and the mode of the next frame can be misread. A whole frame replaces
    everything, so after any frame sent less than ``FULL_FRAME_GAP`` seconds ago the next is whole.
    """
    from ipympl.backend_nbagg import Canvas

    class FrameSafeCanvas(Canvas):
        FULL_FRAME_GAP = 1.0
        _last_frame = -math.inf

        def _handle_message(self, object, content, buffers):
            super()._handle_message(object, content, buffers)
            if content["type"] == "initialized":
                # ipympl 0.10's view turns ``resizable`` on once its comm is live, just before
                # it says "initialized", and draws a resize handle that does nothing here: the
                # kernel's False, sent again, takes it away
                self.resizable = False
                self.send_state("resizable")

        def get_diff_image(self):
            now = time.monotonic()
            if now - self._last_frame < self.FULL_FRAME_GAP:
                self._force_full = True
            image = super().get_diff_image()
            if image is not None:
                self._last_frame = now
            return image

    return FrameSafeCanvas
