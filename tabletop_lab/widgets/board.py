"""A playable board for any game: the view of a ``PlaySession`` (``tabletop_lab/session.py``).

The session holds the game: history, takebacks, seats, who looks at the screen, what they may
see, agents and the hand-over, and raises ``number`` with every change. The board draws one
session state at a time (``session.view()``) and sends clicks back as calls; it decides no rule.
Each of the picture, the status line, the move list and the action buttons carries the state
number it shows as a CSS class ``tl-n-<number>``, and the board itself last, so that a page
whose board says N shows state N in every part (the picture is sent first).

The game's ``board.py`` tells the board how to draw it and which cells a click hits (see
``tabletop_lab/board_adapter.py``). It keeps one figure, drawn by an ipympl canvas and updated
in place. Under a running event loop (Jupyter, Voila) agents think in a thread and their moves
are animated with loop timers (perfect information only), so the page stays responsive; without
one (scripts, tests) agents reply at once and nothing is animated.

Input: a click sequence picks an action (see ``board_adapter``); actions without a cell are
buttons; when clicks complete several actions a row of buttons asks which one.

Hint (``PlaySession.hint``) shows the best move for the human to move in words beside the
button and on the board, marked as clicks would mark it: its first cells selected, its last
ringed as a target. The "Evaluation" checkbox (off by default: a search after every move, see
``PlaySession``) shows beside the board the win chance of the side of the seat at the screen
(the first human seat, else the first seat) as a bar and in words. Review, once the game is
over (``PlaySession.review``), charts that side's win probability by move, with the
inaccuracies, mistakes and blunders marked (``review_chart.ReviewChart``, under the board); a
move clicked on the chart or picked in the move list then shows the position before it, the
move played and its label in words, and the better move marked on the board as a hint is.
"""

from __future__ import annotations

import asyncio
import html
import json
import warnings
from collections.abc import Hashable
from typing import Any

import ipywidgets as widgets

from ..agents import Agent
from ..board_adapter import load_adapter
from ..core import Game, State
from ..errors import IllegalActionError
from ..records import GameRecord
from ..registry import load_game
from ..session import PlaySession, SessionView, resolve_game
from .controls import (
    ErrorLog,
    guarded,
    make_canvas,
    option_controls,
    option_value,
    seat_picker,
)
from .links import parse_query, share_query
from .review_chart import ReviewChart

__all__ = ["Board"]


class Board(widgets.VBox):
    """A clickable board (CSS class ``tl-board``).

    ``game``: a name or a Game (by default the first game menus list); ``options``: rule options for a game given by name; ``seats``:
    one entry per seat, ``"human"`` or an agent spec (``"random"``, ``"mcts:iterations=200"``, an
    Agent); ``position``: a start position as text (notation or JSON) or a State; ``seed``: seeds
    the agents (seat i gets ``seed + i``); ``animate``: animate agents' moves; ``viewer``: with
    hidden information, the seat whose view is shown for good, never handed over (see
    ``PlaySession``); ``controls=False`` shows the picture, the status, the move list and the
    input rows only (no takebacks, seats, options, position, hint or evaluation): a board for an
    exercise that has its own controls around it (``PuzzleBoard``).

    Programmatic use: ``play(move)``, ``press(label)``, ``ready()``, ``undo()``, ``redo()``,
    ``jump(turn)``, ``new_game(**options)``, ``load(text)``, ``show_all_cards()``, ``hide_cards()``,
    ``record()``, ``click_cell(cell)``, ``handle_click(x, y)``, ``cell_centre(cell)``, ``show_step(delta)``
    (a long move step by step), ``state``;
    ``session`` is the ``PlaySession`` it draws.
    """

    FRAME_SECONDS = 0.1  # per animation frame
    MAX_FRAMES = 8  # per animated move

    def __init__(
        self,
        game: str | Game | None = None,
        *,
        options: dict | None = None,
        seats: list | None = None,
        position: str | State | None = None,
        seed: int | None = None,
        animate: bool = True,
        viewer: int | None = None,
        controls: bool = True,
    ):
        super().__init__()
        self.add_class("tl-board")
        game = resolve_game(game, options, position)
        if isinstance(position, State):
            start = position.clone()
        elif position is not None:
            start = game.load_position(position)
        else:
            start = None
        self.errors = ErrorLog()
        self.adapter = load_adapter(game)
        # refusals by the rules in the player's words, the rule behind a "why?"
        self.errors.explain = lambda message: self.adapter.explain(message, self.session.state)
        self.session = PlaySession(
            game,
            seats,
            start,
            seed=seed,
            loop=_running_loop(),
            names=lambda seat: self.adapter.player_name(seat),
            result_words=self._result_words,
            doing=lambda state: self.adapter.status_note(state),
            viewer=viewer,
        )
        self.session.on_error = self.errors.report
        if animate:
            self.session.animate = self._animate
        self.animate = animate
        self._clicks: tuple = ()  # cells clicked so far towards an action
        self._choices: list[int] = []  # actions the clicks complete, when the user must pick one
        self._curtained: list = []  # the figure's artists hidden during a hand-over
        self._drawn_viewer: Any = _NOBODY  # the seat the adapter last drew for
        self._drawn_game = game
        self._hover: Hashable | None = None
        self._previewing = False
        self._syncing = False  # set while widgets are set from the session
        self._button_actions: dict[str, int] = {}
        self._choice_actions: dict[str, int] = {}
        self._button_cache: dict[tuple[str, str], widgets.Button] = {}
        self._view: SessionView | None = None

        self.figure = make_canvas(self.adapter.figsize)
        self.ax = self.adapter.setup(self.figure)
        canvas = self.figure.canvas
        canvas.add_class("tl-board-canvas")  # apart from the review chart's canvas
        canvas.mpl_connect("button_press_event", self._on_press)
        canvas.mpl_connect("motion_notify_event", self._on_motion)
        canvas.mpl_connect("axes_leave_event", self._on_leave)
        canvas.mpl_connect("figure_leave_event", self._on_leave)

        self.seat_row = widgets.HBox(layout=_wrapping())
        self._make_seat_pickers()
        self.status = _label("tl-status")
        self.you_label = _label("tl-you")
        self.you_label.style.font_weight = "bold"
        self.you_label.layout.margin = "0 0 0 2em"  # apart from the status: two facts, not one sentence
        self.notice = _label("tl-notice")
        self.cards_note = _label("tl-cards-shown")
        self.cards_note.style.font_weight = "bold"
        self.legend = widgets.HTML(layout=widgets.Layout(max_width="820px"))  # wraps, unlike a Label
        self.legend.add_class("tl-legend")
        self.options_hint = _label("tl-options-hint")
        self.handover_label = widgets.Label()
        self.ready_button = self._button("Ready", "tl-ready", self.ready)
        self.handover = widgets.HBox([self.handover_label, self.ready_button])
        self.handover.add_class("tl-handover")
        self.hover_label = _label("tl-hover")
        self.action_buttons = widgets.HBox()
        self.action_buttons.add_class("tl-actions")
        self.choice_row = widgets.HBox()
        self.choice_row.add_class("tl-choices")
        self.step_label = _label("tl-step-label")
        self.step_prev = self._button("‹ Previous", "tl-step-prev", lambda: self.show_step(-1))
        self.step_next = self._button("Next ›", "tl-step-next", lambda: self.show_step(+1))
        self.step_all = self._button("Whole move", "tl-step-all", lambda: self.show_step(None))
        self.step_row = widgets.HBox([self.step_label, self.step_prev, self.step_next, self.step_all])
        self.step_row.add_class("tl-steps")
        self.undo_button = self._button("Undo", "tl-undo", self.undo)
        self.redo_button = self._button("Redo", "tl-redo", self.redo)
        self.agent_button = self._button("Agent move", "tl-agent-move", self.session.agent_move)
        self.hint_button = self._button("Hint", "tl-hint", self.hint)
        self.hint_label = _label("tl-hint-text")
        self.evaluation_box = widgets.Checkbox(
            value=False,
            description="Evaluation",
            indent=False,
            tooltip="Show the win chance after every move (a short search each time)",
            layout=widgets.Layout(width="auto"),
        )
        self.evaluation_box.add_class("tl-evaluation-toggle")
        self.evaluation_box.observe(lambda change: self._on_evaluation(change["new"]), names="value")
        self.evaluation_bar = widgets.FloatProgress(
            value=0.5, min=0.0, max=1.0, orientation="vertical", layout=widgets.Layout(height="240px", width="24px")
        )
        self.evaluation_bar.add_class("tl-evaluation-bar")
        self.evaluation_label = widgets.HTML(layout=widgets.Layout(width="110px"))
        self.evaluation_label.add_class("tl-evaluation")
        self.review_button = self._button("Review", "tl-review", self.review)
        self.review_label = _label("tl-review-text")
        self.review_chart = ReviewChart(self._pick_reviewed)
        self.evaluation_panel = widgets.VBox([self.evaluation_box, self.evaluation_bar, self.evaluation_label])
        self.pause_button = self._button("Pause agents", "tl-pause", self._toggle_pause)
        self.show_all_button = self._button("Show all cards", "tl-show-all", self._toggle_cards)
        self.new_game_button = self._button("New game", "tl-new-game", self.new_game)
        self.load_button = self._button("Load", "tl-load", lambda: self.load(self.position_text.value))
        self.option_controls = option_controls(game)
        for control in self.option_controls.values():
            control.observe(lambda _change: self._sync_options_hint(), names="value")
        self.position_text = widgets.Text(description="Position", layout=widgets.Layout(width="480px"))
        self.position_text.add_class("tl-position")
        self.link = widgets.HTML()  # an anchor the browser resolves against the app's own address
        self.link.add_class("tl-link")
        with warnings.catch_warnings():  # on_submit (Enter) is deprecated in ipywidgets 8 but the only Enter hook
            warnings.simplefilter("ignore", DeprecationWarning)
            self.position_text.on_submit(lambda _text: self._ui(lambda: self.load(self.position_text.value)))
        self.moves = widgets.Select(options=[("start", 0)], value=0, rows=14, layout=widgets.Layout(width="200px"))
        self.moves.add_class("tl-moves")
        self.moves.observe(self._on_moves, names="value")
        self.moves_box = widgets.VBox([widgets.Label("Moves"), self.moves])

        status_row = widgets.HBox([self.status, self.you_label])
        self.children = [
            status_row,
            widgets.HBox([self.cards_note, self.notice]),
            self.handover,
            widgets.HBox([canvas, self.evaluation_panel, self.moves_box]),
            self.hover_label,
            self.legend,
            self.action_buttons,
            self.choice_row,
            self.step_row,
            widgets.HBox(
                [
                    self.undo_button,
                    self.redo_button,
                    self.agent_button,
                    self.pause_button,
                    self.show_all_button,
                    self.hint_button,
                    self.hint_label,
                    self.review_button,
                    self.review_label,
                ]
            ),
            self.review_chart.widget,
            self.seat_row,
            widgets.HBox([*self.option_controls.values(), self.new_game_button, self.options_hint], layout=_wrapping()),
            widgets.HBox([self.position_text, self.load_button]),
            self.link,
            self.errors,
        ]
        if not controls:
            self.children = [
                status_row,
                self.handover,
                widgets.HBox([canvas, self.moves_box]),
                self.hover_label,
                self.legend,
                self.action_buttons,
                self.choice_row,
                self.step_row,
                self.errors,
            ]
        self.session.subscribe(self._on_session)
        self._render()
        self.session.run_agents()

    # --- programmatic API ------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def seed(self) -> int | None:
        return self.session.seed

    @property
    def state(self) -> State:
        """A copy of the state played (mid-turn while a move of several actions is in progress)."""
        return self.session.state

    @property
    def _state(self) -> State:
        return self.session._state

    @property
    def busy(self) -> bool:
        """True while an agent thinks or its move is being animated."""
        return self.session.busy

    @property
    def line(self) -> list[State]:
        """Copies of the positions at the start of each move, from the start position."""
        return self.session.line

    @property
    def viewer(self) -> int | None:
        """The seat whose view everything shown comes from; ``None``: everything is shown."""
        return self.session.viewer

    @property
    def handing_over(self) -> int | None:
        """The seat the screen must be handed to before the game shows (hot-seat hidden information)."""
        return self.session.handing_over

    def play(self, move: str) -> None:
        """Play ``move`` for whoever is to move, then agents reply: a whole move (as in
        ``legal_moves()``), or one action's string (which may start a move of several actions).

        Raises the engine's ``ActionSyntaxError`` / ``IllegalActionError``; nothing changes then.
        """
        self.session.play_actions(self.session.actions_of(move))

    def press(self, label: str) -> None:
        """Press the button labelled ``label``: one of the choices a click sequence left open, or
        an action without a cell."""
        action = self._choice_actions.get(label, self._button_actions.get(label))
        if action is None:
            shown = ", ".join([*self._choice_actions, *self._button_actions]) or "none"
            raise ValueError(f"no button {label!r} now; buttons: {shown}")
        self.session.check_can_play()
        self.session.play_actions([action])

    def ready(self) -> None:
        """The player the screen was handed to is ready: show the game from their seat."""
        self.session.ready()

    def undo(self) -> None:
        """Take back the last action of a move in progress, or go back to the previous move a
        human plays; never past the last reveal of hidden cards."""
        self.session.undo()

    def redo(self) -> None:
        """Forward along the line, to the next move a human plays (or its end)."""
        self.session.redo()

    def jump(self, turn: int) -> None:
        """Show the position before move ``turn + 1`` (0 is the start), as the move list does."""
        self.session.jump(turn)

    def hint(self) -> None:
        """Show the best move for the human to move (counted in the record); ``ValueError`` when
        no hint can be given (no human to move, the game over ...)."""
        self.session.hint()

    def review(self) -> None:
        """Review the finished game and chart it under the board; ``ValueError`` when the game
        is not over (or its cards are hidden)."""
        self.session.review()

    def set_evaluation(self, on: bool) -> None:
        """Turn the evaluation beside the board on or off, as its checkbox does."""
        self.evaluation_box.value = on

    def show_all_cards(self) -> None:
        """Show every seat's cards; the game says so from then on, on screen and in its record."""
        self.session.show_all_cards()

    def hide_cards(self) -> None:
        """Back to the viewer's own view."""
        self.session.hide_cards()

    def record(self) -> GameRecord:
        """The game so far as a ``GameRecord`` (``cards_shown`` if all cards were shown)."""
        return self.session.record()

    def new_game(self, **options: Any) -> None:
        """Start again under the option controls' values, overridden by ``options``; a change
        of the player count rebuilds the seats."""
        values = {name: option_value(control) for name, control in self.option_controls.items()}
        values.update(options)
        game = load_game(self.game.name, **values, **self.game.params)  # RulesError: nothing changes
        self.session.new_game(game)
        for name, control in self.option_controls.items():
            control.value = (
                game.options[name] if not isinstance(control, widgets.Text) else json.dumps(game.options[name])
            )

    def load(self, text: str) -> None:
        """Play on from a position given as notation or JSON, or from the viewer's observation the
        Position box shows (hidden cards dealt afresh); raises ``PositionError`` if malformed."""
        self.session.load(text)

    @classmethod
    def from_query(cls, query: str, game: str | Game | None = None, **kwargs: Any) -> Board:
        """The board a shared link's query describes (see ``share_query``), at the move it shows;
        ``kwargs`` as for ``Board`` (seats, seed, options ...); a link's game is played under the
        link's own rule options only (``options`` are for ``game``). A query naming no game opens
        ``game`` (by default the first game menus list) afresh; a bad link does too, saying what is wrong with it in ``errors``."""
        try:
            shared = parse_query(query) if "game=" in query else None
            if shared is not None:
                linked = {key: value for key, value in kwargs.items() if key != "options"}
                board = cls(shared["game"], options=shared["options"], position=shared["position"], **linked)
        except ValueError as exc:  # an unknown game or option, a malformed position ...
            board = cls(game, **kwargs)
            board.errors.show(f"this link cannot be opened: {exc}")
            return board
        if shared is None:
            return cls(game, **kwargs)
        board._ui(lambda: board.replay(shared["moves"], shared["at"]))  # an illegal move: shown in errors
        return board

    def replay(self, moves: list[str], at: int | None = None) -> None:
        """From the start position, play ``moves`` (whole moves) as the line, agents silent, and
        show the position before move ``at + 1`` (default: after the last)."""
        self.session.replay(moves, at)

    def handle_click(self, x: float, y: float) -> None:
        """A click at data coordinates ``(x, y)``, as the canvas reports it."""
        cell = self.adapter.cell_at(x, y)
        if cell is not None:
            self.click_cell(cell)

    @guarded
    def click_cell(self, cell: Hashable) -> None:
        """Click ``cell``: play the action it completes, select it, or offer the actions it
        completes as choices; refusals go to ``errors``."""
        self._click(cell)

    def cell_centre(self, cell: Hashable) -> tuple[float, float]:
        """Where ``cell`` is on the canvas, as fractions of its width and height from the top left."""
        self.ax.apply_aspect()
        px, py = self.ax.transData.transform(self.adapter.cell_xy(cell))
        box = self.figure.bbox
        return float(px / box.width), float(1 - py / box.height)

    @property
    def share_query(self) -> str:
        """This game at this move as a URL query (``Board.from_query`` opens it); empty with hidden
        information, where the moves would tell what a seat may not see."""
        if not self.game.info.perfect_information:
            return ""
        start = self.session.line[0]
        position = _notation(start) if start.start_position() is not None else None
        return share_query(self.game, position, self.session.move_strings(), self.session.pos)

    # --- input -----------------------------------------------------------------------------

    def _click(self, cell: Hashable) -> None:
        self.session.check_can_play()
        state = self._state
        clicks = self._clicks + (cell,)
        matches = self._matching(clicks)
        if not matches and self._clicks:  # a fresh selection replaces the old one
            clicks = (cell,)
            matches = self._matching(clicks)
        self._hover, self._previewing, self.hover_label.value = None, False, ""
        if not matches:
            self._clicks, self._choices = (), []
            self._render()
            raise IllegalActionError(self.adapter.refusal(state, clicks))
        complete = [a for a in matches if len(self.adapter.action_cells(state, a)) == len(clicks)]
        if complete and len(matches) == 1:
            self.session.play_actions([complete[0]])
        else:  # more clicks to come, or a choice between the actions these clicks complete
            self._clicks, self._choices = clicks, complete
            self._render()

    def _matching(self, clicks: tuple) -> list[int]:
        """Legal actions of the screen whose click sequence starts with ``clicks``."""
        n, state = len(clicks), self._state
        return [a for a in self.session.legal_actions() if tuple(self.adapter.action_cells(state, a)[:n]) == clicks]

    def _targets(self) -> frozenset:
        n = len(self._clicks)
        targets = set()
        for action in self._matching(self._clicks):
            cells = self.adapter.action_cells(self._state, action)
            if len(cells) > n:
                targets.add(cells[n])
        return frozenset(targets)

    def show_step(self, delta: int | None) -> None:
        """Step through the last move (a relay's laps): ``+1`` the next step (the first one from
        the whole move), ``-1`` the one before, ``None`` the whole move again."""
        total = self.adapter.steps(self._state)
        if not total:
            raise ValueError("the last move has no steps to show one by one")
        if delta is None:
            self.adapter.step = None
        else:
            current = self.adapter.step or (0 if delta > 0 else total + 1)
            self.adapter.step = min(max(current + delta, 1), total)
        self._render()

    def _sync_steps(self) -> None:
        total = 0 if self.session.handing_over is not None else self.adapter.steps(self._state)
        self.step_row.layout.display = None if total else "none"
        if not total:
            self.step_label.value = ""
            return
        name, step = self.adapter.step_name(), self.adapter.step
        self.step_label.value = (
            f"The last move, {name} by {name}: {total} {name}s"
            if step is None
            else f"{name.capitalize()} {step} of {total}"
        )
        self.step_prev.disabled = step == 1
        self.step_next.disabled = step == total
        self.step_all.disabled = step is None

    def _toggle_pause(self) -> None:
        if self.session.paused:
            self.session.resume()
        else:
            self.session.pause()

    def _toggle_cards(self) -> None:
        if self.session.showing_all:
            self.hide_cards()
        else:
            self.show_all_cards()

    def _animate(self, state: State, action: int, done) -> None:
        """Show the agent's ``action`` frame by frame with loop timers, then ``done()`` plays it."""
        frames = self.adapter.frames(state, action, self.MAX_FRAMES, fine=False)
        epoch = self.session.epoch
        loop = self.session.loop

        def show(i: int) -> None:
            if not self.session.is_current(epoch):
                return
            if i < len(frames):
                try:
                    self.adapter.draw_frame(state, frames[i])
                    self.figure.canvas.draw_idle()
                except Exception as exc:  # play the move anyway: the board stays usable
                    self.errors.report(exc)
                    done()
                    return
                loop.call_later(self.FRAME_SECONDS, show, i + 1)
                return
            done()

        show(0)

    # --- drawing ---------------------------------------------------------------------------

    def _result_words(self, state: State) -> str:
        return self.adapter.result_words(state)

    def _on_session(self) -> None:
        """The session changed: forget the clicks towards an action, and draw its new state."""
        self._clicks, self._choices = (), []
        self.adapter.step = None  # a new position shows its whole last move
        self.errors.clear()  # a message about the state left ("the game is over") is stale now
        if self.session.game is not self._drawn_game:
            self._set_game(self.session.game)
        self._render()

    def _render(self) -> None:
        """Draw the session's state: the picture first, then the texts and controls, each tagged
        with the state number."""
        view = self._view = self.session.view()
        hidden = view.curtain is not None
        self._draw()
        self._sync_buttons(hidden)
        self._sync_steps()
        self.status.value = view.status
        self.you_label.value = view.you
        self.notice.value = view.notice
        self.cards_note.value = view.cards_note
        self.legend.value = f"<small>{html.escape(self.adapter.legend())}</small>"
        self._sync_options_hint()
        self.handover_label.value = view.handover
        self.handover.layout.display = "none" if view.curtain is None else None
        self._sync_moves(view, hidden)
        self.position_text.value = view.position
        self.position_text.disabled = self.load_button.disabled = not (view.loadable and "load" in view.enabled)
        self._sync_link()
        enabled = view.enabled
        self.undo_button.disabled = "undo" not in enabled
        self.undo_button.tooltip = view.undo or "Nothing to take back"
        self.redo_button.disabled = "redo" not in enabled
        self.agent_button.disabled = "agent" not in enabled
        self.agent_button.tooltip = view.agent
        self.hint_button.disabled = "hint" not in enabled
        self.hint_button.tooltip = self.session.hint_refusal() or "Show the best move here (counted in the record)"
        self.hint_label.value = view.hint
        self._sync_evaluation(view)
        self._sync_review(view)
        self.pause_button.description = "Resume agents" if self.session.paused else "Pause agents"
        self.pause_button.disabled = not ({"pause", "resume"} & enabled)
        self.pause_button.tooltip = (
            "Agents wait; Agent move plays one move at a time"
            if not self.session.paused
            else "Let the agents move by themselves again"
        )
        self.new_game_button.disabled = "new" not in enabled
        self.show_all_button.layout.display = "none" if self.game.info.perfect_information else None
        self.show_all_button.description = "Hide cards" if self.session.showing_all else "Show all cards"
        self.show_all_button.disabled = not ({"show_all", "hide"} & enabled)
        self._syncing = True
        try:
            for seat, picker in enumerate(self.seat_pickers):
                if picker.value is not self.session.specs[seat] and picker.value != self.session.specs[seat]:
                    picker.value = self.session.specs[seat]  # a refused change goes back
                picker.disabled = "seats" not in enabled
        finally:
            self._syncing = False
        for widget in (self.figure.canvas, self.status, self.moves, self.action_buttons, self):
            _tag(widget, view.number)  # the board last: once it says N, every part shows N

    def _draw(self, preview: Any = None) -> None:
        hidden = self.session.handing_over is not None
        if hidden and not self._curtained:  # nothing of the last viewer's picture stays
            self._curtained = [a for a in self.figure.get_children()[1:] if a.get_visible()]
            for artist in self._curtained:
                artist.set_visible(False)
        elif not hidden:
            for artist in self._curtained:
                artist.set_visible(True)
            self._curtained = []
            viewer, state = self.session.viewer, self._state
            if viewer != self._drawn_viewer:  # lay out the viewer's side before asking for its cells
                self.adapter.draw(state, viewer=viewer)
                self._drawn_viewer = viewer
            selected, targets = self._clicks, self._targets()
            marked = self._view.hint_move or self._view.review_move if self._view is not None else ""
            if not selected and marked:
                selected, targets = self.adapter.move_marks(state, self.session.actions_of(marked))
            self.adapter.draw(state, targets=targets, selected=selected, preview=preview, viewer=viewer)
        canvas = self.figure.canvas
        if getattr(canvas, "syncing_data_url", True):
            canvas.draw_idle()  # no browser view yet: it asks for its first picture itself
        else:
            canvas.draw()  # send the picture now, not after the browser asks back for it

    def _sync_evaluation(self, view: SessionView) -> None:
        two_sides = len(self.game.teams()) == 2
        self.evaluation_panel.layout.display = None if two_sides and view.curtain is None else "none"
        on = self.session.evaluation_seat is not None
        self.evaluation_bar.layout.visibility = "visible" if on else "hidden"
        if view.evaluation_value is not None:
            self.evaluation_bar.value = view.evaluation_value
        self.evaluation_label.value = (
            f'<div style="line-height: 1.3"><small>{html.escape(view.evaluation)}</small></div>'
        )

    def _sync_review(self, view: SessionView) -> None:
        over = self.session.state.is_terminal() and view.curtain is None
        self.review_button.layout.display = None if over and len(self.game.teams()) == 2 else "none"
        self.review_label.layout.display = None if view.review else "none"
        self.review_button.disabled = "review" not in view.enabled
        self.review_button.tooltip = self.session.review_refusal() or "Chart the win chance by move, mistakes marked"
        self.review_label.value = view.review
        frame = self.session.review_shown if view.curtain is None else None
        seat, row = self._evaluation_seat(), self.session.reviewed_move()
        self.review_chart.show(
            frame, self.game.teams(), seat, self.adapter.player_name(seat), None if row is None else row["move"]
        )

    @guarded
    def _pick_reviewed(self, move: int) -> None:
        """A move clicked on the review's chart: show the position before it."""
        self.jump(move - 1)

    def _evaluation_seat(self) -> int:
        """Whose side the evaluation shows: the seat at the screen, the first human's, or the first."""
        humans = self.session.humans()
        viewer = self.session.viewer
        return viewer if viewer is not None else humans[0] if humans else 0

    @guarded
    def _on_evaluation(self, on: bool) -> None:
        self.session.set_evaluation(self._evaluation_seat() if on else None)

    def _sync_options_hint(self) -> None:
        try:
            changed = any(option_value(c) != self.game.options[name] for name, c in self.option_controls.items())
        except ValueError:  # unreadable text in a control: a change too
            changed = True
        self.options_hint.value = "Changed options apply from the next New game" if changed else ""

    def _sync_moves(self, view: SessionView, hidden: bool) -> None:
        if hidden:
            options = [("hidden until Ready", view.at)]
        else:
            options = [("start", 0), *((label, i) for i, label in enumerate(view.moves, start=1))]
        self._syncing = True
        try:
            if list(self.moves.options) != options:
                self.moves.options = options
            self.moves.value = view.at
        finally:
            self._syncing = False
        self.moves_box.layout.display = "none" if hidden else None

    def _sync_link(self) -> None:
        """A link to this page with the game at this move: opened, or copied with the browser's
        "Copy link" (no script needed)."""
        query = self.share_query
        if query:
            self.link.value = (
                f'<a href="?{html.escape(query)}" target="_blank" title="Opens this game at this move" '
                f'style="{_LINK_STYLE}">Link to this position</a> {_COPY_LINK}'
            )
        else:  # hidden information: the moves would tell what a seat may not see
            self.link.value = (
                "<small>No link to this position: a link lists the moves, and they would show "
                "the cards a player may not see.</small>"
            )

    def _sync_buttons(self, hidden: bool) -> None:
        """A button per legal action without a cell, and one per action the clicks complete."""
        state = self._state
        actions = [a for a in self.session.legal_actions() if not self.adapter.action_cells(state, a)]
        labels = [self.adapter.button_label(state, a) for a in actions]
        if len(set(labels)) < len(labels):  # a label names one action: tell them apart by their strings
            labels = [f"{label} ({state.action_to_string(a)})" for label, a in zip(labels, actions)]
        self._button_actions = dict(zip(labels, actions))
        playable = self.session.playable()
        self._choice_actions = {state.action_to_string(a): a for a in self._choices} if playable else {}
        self.action_buttons.children = [self._cached_button("action", label) for label in self._button_actions]
        choices = [self._cached_button("choice", label) for label in self._choice_actions]
        self.choice_row.children = [widgets.Label("Which one?"), *choices] if choices else []

    def _cached_button(self, row: str, label: str) -> widgets.Button:
        """The button ``label`` of ``row`` (made once: widgets are costly to create)."""
        key = (row, label)
        if key not in self._button_cache:
            self._button_cache[key] = self._button(label, f"tl-{row}", lambda: self.press(label))
        return self._button_cache[key]

    # --- events ----------------------------------------------------------------------------

    @guarded
    def _on_press(self, event) -> None:
        if event.inaxes is self.ax and event.xdata is not None:
            self.handle_click(event.xdata, event.ydata)

    @guarded
    def _on_motion(self, event) -> None:
        inside = event.inaxes is self.ax and event.xdata is not None
        self._hover_cell(self.adapter.cell_at(event.xdata, event.ydata) if inside else None)

    @guarded
    def _on_leave(self, event) -> None:
        self._hover_cell(None)

    def _hover_cell(self, cell: Hashable | None) -> None:
        """Preview the action a click on ``cell`` would complete; redraw only when that changes."""
        if cell == self._hover:
            return
        self._hover = cell
        preview, text = None, ""
        if cell is not None and self.session.playable():
            clicks = self._clicks + (cell,)
            state = self._state
            complete = [a for a in self._matching(clicks) if len(self.adapter.action_cells(state, a)) == len(clicks)]
            if len(complete) == 1:
                preview, text = self.adapter.preview(state, complete[0])
            elif complete:
                text = "a click here offers: " + ", ".join(state.action_to_string(a) for a in complete)
        self.hover_label.value = text
        if preview is not None or self._previewing:
            self._previewing = preview is not None
            self._draw(preview)

    @guarded
    def _on_moves(self, change) -> None:
        if not self._syncing and change["new"] != self.session.pos:
            try:
                self.jump(change["new"])
            except ValueError:
                self._render()  # the list goes back to where the game is
                raise

    @guarded
    def _on_seat(self, seat: int, spec: str | Agent) -> None:
        if self._syncing:
            return
        try:
            self.session.set_seat(seat, spec)
        except ValueError:
            self._render()  # the picker goes back to who plays the seat
            raise

    @guarded
    def _ui(self, action) -> None:
        action()

    def _button(self, text: str, css: str, action) -> widgets.Button:
        """A text-only button (no icons: Font Awesome is missing offline) running ``action``."""
        button = widgets.Button(description=text, layout=widgets.Layout(width="auto"))
        button.add_class(css)
        button.on_click(lambda _button: self._ui(action))
        return button

    # --- helpers ---------------------------------------------------------------------------

    def _make_seat_pickers(self) -> None:
        specs = self.session.specs
        self.seat_pickers = [
            seat_picker(i, self.adapter.player_name(i), spec, game=self.game, team_name=self.adapter.team_name)
            for i, spec in enumerate(specs)
        ]
        for i, picker in enumerate(self.seat_pickers):
            picker.observe(lambda change, seat=i: self._on_seat(seat, change["new"]), names="value")
        self.seat_row.children = self.seat_pickers

    def _set_game(self, game: Game) -> None:
        """Other rule options: the adapter redraws from scratch on the same figure, and the seat
        pickers follow the session's seats."""
        self._drawn_game = game
        self.figure.clear()
        self._curtained, self._drawn_viewer = [], _NOBODY
        self.adapter = load_adapter(game)
        if tuple(self.figure.get_size_inches()) != tuple(self.adapter.figsize):
            self.figure.set_size_inches(self.adapter.figsize)
        self.ax = self.adapter.setup(self.figure)
        self._make_seat_pickers()


def _tag(widget: widgets.DOMWidget, number: int) -> None:
    """Mark ``widget`` as showing session state ``number`` (CSS class ``tl-n-<number>``)."""
    classes = tuple(c for c in widget._dom_classes if not c.startswith("tl-n-"))
    widget._dom_classes = (*classes, f"tl-n-{number}")


_NOBODY = object()  # no drawing yet


def _notation(state: State) -> str:
    return state.notation() if state.game.info.has_notation else state.to_json()


# Copies the link beside it, made absolute against the page's address, to the clipboard (browsers
# allow it on 127.0.0.1 and https pages, after a click). An inline handler sees document.URL, a
# string, as ``URL``: hence ``window.URL``.
_COPY_LINK = (
    '<button class="tl-copy-link" title="Copy the link to the clipboard" onclick="'
    "navigator.clipboard.writeText(new window.URL(this.previousElementSibling.getAttribute('href'), location.href).href)"
    ".then(() => { this.textContent = 'Copied'; }, () => { this.textContent = 'Copy failed: use the link'; })"
    '">Copy link</button>'
)


#: An anchor that looks like one whatever the page's stylesheet (Voila's resets links' colour).
_LINK_STYLE = "color: #1565c0; text-decoration: underline; cursor: pointer"


def _wrapping() -> widgets.Layout:
    """A row that wraps onto more lines rather than run past the page's edge (many options or seats)."""
    return widgets.Layout(flex_flow="row wrap")


def _label(css: str) -> widgets.Label:
    label = widgets.Label()
    label.add_class(css)
    return label


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
