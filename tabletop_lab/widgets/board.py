"""A playable board for any game: click to play, agents per seat, undo, move list, positions.

The board is generic; ``tabletop_lab/games/<game>/board.py`` tells it how to draw the game and
which cells a click hits (see ``tabletop_lab/board_adapter.py``). It keeps one figure, drawn by an ipympl canvas
and updated in place. Agents think in a thread while a kernel's event loop runs (Jupyter,
Voila), and their moves are animated with loop timers, so the page stays responsive; without
a running loop (scripts, tests) agents reply at once and nothing is animated. A move never
waits for numba's compiler: agents think in Python, the same moves, until a game's kernel is
compiled in the background (``kernels.ready_kernels_only``).

History: ``line`` holds the position at the start of every move from the start position; the
move list shows each move by its canonical string, and clicking an entry jumps there. Undo,
redo and jumps move along the line without erasing it; playing a different move from an
earlier position replaces the rest. Moving along the line never starts an agent; "Agent move"
(or a new move) does. In a move of several actions, Undo takes back one action at a time.

Input: a click sequence picks an action (see ``board_adapter``); actions without a cell are
buttons; when clicks complete several actions a row of buttons asks which one.

Hidden information: in games whose ``info.information`` is ``"imperfect"`` everything shown
(status, picture, move list, position box, hover, buttons) comes from one viewing seat: the
human to move, or the only human. Between two humans the board hides the game behind a
"Hand the screen to ..." panel until that player presses Ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import threading
import warnings
from collections.abc import Hashable
from typing import Any

import ipywidgets as widgets

from ..agents import Agent, make_agent
from ..board_adapter import load_adapter
from ..core import Game, State, canonical_json
from ..errors import ActionError, IllegalActionError
from ..kernels import ready_kernels_only
from ..registry import load_game
from .controls import (
    HUMAN,
    ErrorLog,
    guarded,
    make_canvas,
    option_controls,
    option_value,
    result_text,
    seat_picker,
)
from .links import parse_query, share_query

__all__ = ["Board"]


class Board(widgets.VBox):
    """A clickable board (CSS class ``tl-board``).

    ``game``: a name or a Game; ``options``: rule options for a game given by name; ``seats``:
    one entry per seat, ``"human"`` or an agent spec (``"random"``, ``"mcts:iterations=200"``, an
    Agent); ``position``: a start position as text (notation or JSON) or a State; ``seed``: seeds
    the agents (seat i gets ``seed + i``); ``animate``: animate agents' moves.

    Programmatic use: ``play(move)``, ``press(label)``, ``ready()``, ``undo()``, ``redo()``,
    ``jump(turn)``, ``new_game(**options)``, ``load(text)``, ``click_cell(cell)``,
    ``handle_click(x, y)``, ``cell_centre(cell)``, ``state``.
    """

    FRAME_SECONDS = 0.1  # per animation frame
    THINK_DELAY_SECONDS = 0.2  # before an agent starts searching, so the last move shows at once
    MAX_FRAMES = 8  # per animated move

    def __init__(
        self,
        game: str | Game = "cross_endodoi",
        *,
        options: dict | None = None,
        seats: list | None = None,
        position: str | State | None = None,
        seed: int | None = None,
        animate: bool = True,
    ):
        super().__init__()
        self.add_class("tl-board")
        self.game = _resolve_game(game, options, position)
        self.seed = seed
        self.animate = animate
        self.errors = ErrorLog()
        self._loop = _running_loop()
        self._epoch = 0  # bumped to drop a pending agent reply or animation
        self._busy = False
        self._clicks: tuple = ()  # cells clicked so far towards an action
        self._choices: list[int] = []  # actions the clicks complete, when the user must pick one
        self._screen: int | None = None  # hidden information: the seat that last pressed Ready
        self._curtained: list = []  # the figure's artists hidden during a hand-over
        self._drawn_viewer: Any = _NOBODY  # the seat the adapter last drew for
        self._hover: Hashable | None = None
        self._previewing = False
        self._syncing = False  # set while the move list is being filled
        self._button_actions: dict[str, int] = {}
        self._choice_actions: dict[str, int] = {}
        self._button_cache: dict[tuple[str, str], widgets.Button] = {}

        self.adapter = load_adapter(self.game)
        self.figure = make_canvas(self.adapter.figsize)
        self.ax = self.adapter.setup(self.figure)
        canvas = self.figure.canvas
        canvas.mpl_connect("button_press_event", self._on_press)
        canvas.mpl_connect("motion_notify_event", self._on_motion)
        canvas.mpl_connect("axes_leave_event", self._on_leave)
        canvas.mpl_connect("figure_leave_event", self._on_leave)

        n = self.game.num_players
        seats = [HUMAN] * n if seats is None else list(seats)
        if len(seats) != n:
            raise ValueError(f"{self.game.name}: seats needs {n} entries (one per player), got {len(seats)}")
        self.seat_row = widgets.HBox(layout=_wrapping())
        self._set_seats(seats)

        self.status = _label("tl-status")
        self.you_label = _label("tl-you")
        self.you_label.style.font_weight = "bold"
        self.you_label.layout.margin = "0 0 0 2em"  # apart from the status: two facts, not one sentence
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
        self.undo_button = self._button("Undo", "tl-undo", self.undo)
        self.redo_button = self._button("Redo", "tl-redo", self.redo)
        self.agent_button = self._button("Agent move", "tl-agent-move", self._continue)
        self.new_game_button = self._button("New game", "tl-new-game", self.new_game)
        self.load_button = self._button("Load", "tl-load", lambda: self.load(self.position_text.value))
        self.option_controls = option_controls(self.game)
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

        self.children = [
            widgets.HBox([self.status, self.you_label]),
            self.handover,
            widgets.HBox([canvas, self.moves_box]),
            self.hover_label,
            self.legend,
            self.action_buttons,
            self.choice_row,
            widgets.HBox([self.undo_button, self.redo_button, self.agent_button]),
            self.seat_row,
            widgets.HBox([*self.option_controls.values(), self.new_game_button, self.options_hint], layout=_wrapping()),
            widgets.HBox([self.position_text, self.load_button]),
            self.link,
            self.errors,
        ]
        if isinstance(position, State):
            start = position.clone()
        elif position is not None:
            start = self.game.load_position(position)
        else:
            start = self.game.new_initial_state()
        self._reset_line(start)
        self._continue()

    # --- programmatic API ------------------------------------------------------------------

    @property
    def state(self) -> State:
        """A copy of the state shown (mid-turn while a move of several actions is in progress)."""
        return self._state.clone()

    @property
    def busy(self) -> bool:
        """True while an agent thinks or its move is being animated."""
        return self._busy

    @property
    def line(self) -> list[State]:
        """Copies of the positions at the start of each move, from the start position."""
        return [s.clone() for s in self._line]

    @property
    def viewer(self) -> int | None:
        """The seat whose view everything shown comes from; ``None``: everything is shown."""
        return self._viewer()

    @property
    def handing_over(self) -> int | None:
        """The seat the screen must be handed to before the game shows (hot-seat hidden information)."""
        return self._handover_to()

    def play(self, move: str) -> None:
        """Play ``move`` for whoever is to move, then agents reply: a whole move (as in
        ``legal_moves()``), or one action's string (which may start a move of several actions).

        Raises the engine's ``ActionSyntaxError`` / ``IllegalActionError``; nothing changes then.
        """
        actions = self._actions_of(move)
        self._cancel()
        for action in actions:
            self._play_action(action)
        self.errors.clear()
        self._continue()

    def press(self, label: str) -> None:
        """Press the button labelled ``label``: one of the choices a click sequence left open, or
        an action without a cell."""
        action = self._choice_actions.get(label, self._button_actions.get(label))
        if action is None:
            shown = ", ".join([*self._choice_actions, *self._button_actions]) or "none"
            raise ValueError(f"no button {label!r} now; buttons: {shown}")
        self._check_can_play()
        self._play_and_continue(action)

    def ready(self) -> None:
        """The player the screen was handed to is ready: show the game from their seat."""
        seat = self._handover_to()
        if seat is None:
            raise ValueError("nobody is waiting for the screen")
        self._screen = seat
        self._refresh()

    def undo(self) -> None:
        """Take back the last action of a move in progress, or go back to the previous move a
        human plays."""
        if not self._turn and self._pos == 0:
            raise ValueError("nothing to undo: this is the start position")
        self._cancel()
        if self._turn:
            self._go(self._pos, self._turn[:-1])
            return
        self._pos -= 1
        while self._pos > 0 and self._skippable(self._pos):
            self._pos -= 1
        self._go(self._pos)

    def redo(self) -> None:
        """Forward along the line, to the next move a human plays (or its end)."""
        if self._pos + 1 >= len(self._line):
            raise ValueError("nothing to redo: this is the last position of the line")
        self._cancel()
        pos = self._pos + 1
        while pos + 1 < len(self._line) and self._skippable(pos):
            pos += 1
        self._go(pos)

    def jump(self, turn: int) -> None:
        """Show the position before move ``turn + 1`` (0 is the start), as the move list does."""
        if type(turn) is not int or not 0 <= turn < len(self._line):
            raise ValueError(f"turn must be 0..{len(self._line) - 1}, got {turn!r}")
        self._cancel()
        self._go(turn)

    def new_game(self, **options: Any) -> None:
        """Start again under the option controls' values, overridden by ``options``; a change
        of the player count rebuilds the seats."""
        values = {name: option_value(control) for name, control in self.option_controls.items()}
        values.update(options)
        game = load_game(self.game.name, **values, **self.game.params)  # RulesError: nothing changes
        self._cancel()
        if game != self.game:
            self._set_game(game)
        for name, control in self.option_controls.items():
            control.value = (
                game.options[name] if not isinstance(control, widgets.Text) else json.dumps(game.options[name])
            )
        self._reset_line(game.new_initial_state())
        self.errors.clear()
        self._continue()

    def load(self, text: str) -> None:
        """Play on from a position given as notation or JSON; raises ``PositionError`` if malformed."""
        state = self.game.load_position(text)
        self._cancel()
        self._reset_line(state)
        self.errors.clear()
        self._continue()

    @classmethod
    def from_query(cls, query: str, game: str | Game = "cross_endodoi", **kwargs: Any) -> Board:
        """The board a shared link's query describes (see ``share_query``), at the move it shows;
        ``kwargs`` as for ``Board`` (seats, seed, options ...); a link's game is played under the
        link's own rule options only (``options`` are for ``game``). A query naming no game opens
        ``game`` afresh; a bad link does too, saying what is wrong with it in ``errors``."""
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
        self._cancel()
        self._reset_line(self._line[0])
        try:
            for move in moves:
                for action in self._actions_of(move):
                    self._play_action(action)
        finally:
            self._go(len(self._line) - 1 if at is None else min(at, len(self._line) - 1))

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

    # --- playing ---------------------------------------------------------------------------

    def _check_can_play(self) -> None:
        """Raise ``ValueError`` saying why the user cannot play now, if they cannot."""
        state = self._state
        if self._busy:
            raise ValueError(f"wait: {self._who(state.current_player())} is thinking")
        if state.is_terminal():
            raise ValueError("the game is over: start a new game, undo, or load a position")
        player = state.current_player()
        if self._agents[player] is not None:
            raise ValueError(f"{self._who(player)} plays this seat: press 'Agent move', or make the seat human")
        handover = self._handover_to()
        if handover is not None:
            raise ValueError(f"hand the screen to {self.adapter.player_name(handover)}, who presses Ready first")

    def _click(self, cell: Hashable) -> None:
        self._check_can_play()
        state = self._state
        clicks = self._clicks + (cell,)
        matches = self._matching(clicks)
        if not matches and self._clicks:  # a fresh selection replaces the old one
            clicks = (cell,)
            matches = self._matching(clicks)
        self._hover, self._previewing, self.hover_label.value = None, False, ""
        if not matches:
            self._clicks, self._choices = (), []
            self._refresh()
            raise IllegalActionError(self.adapter.refusal(state, clicks))
        complete = [a for a in matches if len(self.adapter.action_cells(state, a)) == len(clicks)]
        if complete and len(matches) == 1:
            self._play_and_continue(complete[0])
        else:  # more clicks to come, or a choice between the actions these clicks complete
            self._clicks, self._choices = clicks, complete
            self._refresh()

    def _play_and_continue(self, action: int) -> None:
        self._cancel()
        self._play_action(action)
        self.errors.clear()
        self._continue()

    def _actions_of(self, move: str) -> list[int]:
        """The actions ``move`` takes from the state shown (checked legal), or the engine's error."""
        state = self._state
        if not state.mid_turn():
            after = state.clone()
            try:
                after.apply_move(move)
                return after.history()[len(state.history()) :]
            except ActionError as move_error:
                try:
                    return self._single_action(move)
                except ActionError:
                    raise move_error from None
        return self._single_action(move)

    def _single_action(self, text: str) -> list[int]:
        action = self._state.string_to_action(text)
        self._state.clone().apply_action(action)  # IllegalActionError naming the rule
        return [action]

    def _play_action(self, action: int) -> None:
        """Apply ``action`` (the state is unchanged if that raises) and close the move if done."""
        self._state.apply_action(action)
        self._turn.append(action)
        self._clicks, self._choices = (), []
        self.errors.clear()  # "wait: ... is thinking" and the like are answered now
        if self._state.mid_turn():
            return
        start, nxt = self._line[self._pos], self._pos + 1
        if not (nxt < len(self._line) and self._line[nxt].history() == self._state.history()):  # a new branch
            del self._line[nxt:], self._labels[self._pos :]
            self._line.append(self._state.clone())
            self._labels.append(self._move_labels(start, self._turn))
        self._pos, self._turn = nxt, []

    def _continue(self) -> None:
        """Let agents play while one is to move (threaded under a running loop), then refresh."""
        try:
            while (agent := self._agent_to_move()) is not None and not self._capped():
                if self._loop is not None:
                    self._think(agent)
                    return
                with ready_kernels_only():
                    action = agent.choose_action(self._state.clone())
                self._play_action(action)
        finally:
            self._refresh()

    def _think(self, agent: Agent) -> None:
        """Ask ``agent`` in a thread; its answer comes back on the loop as ``_agent_replied``."""
        self._busy = True
        epoch, snapshot, loop = self._epoch, self._state.clone(), self._loop

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
                threading.Thread(target=work, name="tl-board-agent", daemon=True).start()

        # Start once the last move's picture is out: a search running meanwhile would slow the
        # drawing down (both need the interpreter).
        loop.call_later(self.THINK_DELAY_SECONDS, start)

    @guarded
    def _agent_replied(self, epoch: int, action: int | None, error: Exception | None) -> None:
        if epoch != self._epoch:
            return
        with self._settle_on_error():
            if error is not None:
                raise error
            # Frames show the whole state: never in games with hidden information.
            animate = self.animate and self.game.info.perfect_information
            frames = self.adapter.frames(self._state, action, self.MAX_FRAMES, fine=False) if animate else []
        self._show_frame(epoch, action, frames, 0)

    @guarded
    def _show_frame(self, epoch: int, action: int, frames: list, i: int) -> None:
        """Show frame ``i`` of the agent's move, or play the move after the last frame."""
        if epoch != self._epoch:
            return
        with self._settle_on_error():
            if i < len(frames):
                self.adapter.draw_frame(self._state, frames[i])
                self.figure.canvas.draw_idle()
                self._loop.call_later(self.FRAME_SECONDS, self._show_frame, epoch, action, frames, i + 1)
                return
            self._busy = False
            self._play_action(action)
        self._continue()

    @contextlib.contextmanager
    def _settle_on_error(self):
        """On an error, stop waiting for the agent and show the position as it is."""
        try:
            yield
        except Exception:
            self._busy = False
            self._refresh()
            raise

    def _cancel(self) -> None:
        """Forget a pending agent reply or animation."""
        self._epoch += 1
        self._busy = False

    # --- history ---------------------------------------------------------------------------

    def _reset_line(self, start: State) -> None:
        self._line = [start.clone()]
        self._labels: list[dict] = []  # per move: its label for each viewer (None: everything)
        self._go(0)

    def _go(self, pos: int, turn: list[int] | tuple = ()) -> None:
        """Show ``line[pos]`` with the actions ``turn`` of a move in progress played on it."""
        state = self._line[pos].clone()
        for action in turn:
            state.apply_action(action)
        self._pos, self._state, self._turn = pos, state, list(turn)
        self._clicks, self._choices = (), []
        self.errors.clear()  # a message about the state left ("the game is over") is stale now
        self._refresh()

    def _skippable(self, pos: int) -> bool:
        """Whether undo/redo pass over ``line[pos]``: an agent moves there and a human plays too."""
        state = self._line[pos]
        humans = any(agent is None for agent in self._agents)
        return humans and not state.is_terminal() and self._agents[state.current_player()] is not None

    def _move_labels(self, start: State, actions: list[int]) -> dict:
        """The move's canonical string (key ``None``) and, with hidden information, how each seat saw it."""
        labels: dict[int | None, str] = {None: start._move_string(actions)}
        if not self.game.info.perfect_information:
            for seat in range(self.game.num_players):
                labels[seat] = " ".join(_seen(start, actions, seat))
        return labels

    # --- drawing and status ----------------------------------------------------------------

    def _refresh(self) -> None:
        hidden = self._handover_to() is not None
        self.status.value = self._status_text()  # the labels first: they reach the page before the picture
        self.you_label.value = self._you_text()
        self.legend.value = f"<small>{html.escape(self.adapter.legend())}</small>"
        self._sync_options_hint()
        self._sync_handover()
        self._sync_moves(hidden)
        self._sync_position(hidden)
        self._sync_link()
        self.undo_button.disabled = self._pos == 0 and not self._turn
        self.redo_button.disabled = self._pos + 1 >= len(self._line)
        self.agent_button.disabled = self._busy or self._agent_to_move() is None
        self._draw()
        self._sync_buttons(hidden)  # after the drawing: cells may depend on the side drawn

    def _draw(self, preview: Any = None) -> None:
        hidden = self._handover_to() is not None
        if hidden and not self._curtained:  # nothing of the last viewer's picture stays
            self._curtained = [a for a in self.figure.get_children()[1:] if a.get_visible()]
            for artist in self._curtained:
                artist.set_visible(False)
        elif not hidden:
            for artist in self._curtained:
                artist.set_visible(True)
            self._curtained = []
            viewer = self._viewer()
            if viewer != self._drawn_viewer:  # lay out the viewer's side before asking for its cells
                self.adapter.draw(self._state, viewer=viewer)
                self._drawn_viewer = viewer
            self.adapter.draw(
                self._state, targets=self._targets(), selected=self._clicks, preview=preview, viewer=viewer
            )
        canvas = self.figure.canvas
        if getattr(canvas, "syncing_data_url", True):
            canvas.draw_idle()  # no browser view yet: it asks for its first picture itself
        else:
            canvas.draw()  # send the picture now, not after the browser asks back for it

    def _targets(self) -> frozenset:
        if self._busy or not self._human_to_move() or self._handover_to() is not None:
            return frozenset()
        n = len(self._clicks)
        targets = set()
        for action in self._matching(self._clicks):
            cells = self.adapter.action_cells(self._state, action)
            if len(cells) > n:
                targets.add(cells[n])
        return frozenset(targets)

    def _status_text(self) -> str:
        state = self._state
        result = state.result()
        if result is not None:
            note = self.adapter.result_note(state)
            return result_text(result, self.adapter.player_name) + (f": {note}" if note else "")
        player = state.current_player()
        text = f"{self._who(player)} to move"
        if self._busy:
            return text + ": thinking…"
        if self._agent_to_move() is not None and self._capped():
            return text + f": agents stopped at the cap of {self.game.info.max_actions} actions"
        if self._turn and self._handover_to() is None:
            so_far = " ".join(_seen(self._line[self._pos], self._turn, self._viewer()))
            return text + f": the move goes on after {so_far}"
        return text

    def _you_text(self) -> str:
        """Whose seat is the user's: the only human's, or the viewer's in hidden-information games."""
        humans = [seat for seat, agent in enumerate(self._agents) if agent is None]
        seat = humans[0] if len(humans) == 1 else self._viewer() if self._handover_to() is None else None
        return "" if seat is None else f"You are {self.adapter.player_name(seat)}"

    def _sync_options_hint(self) -> None:
        try:
            changed = any(option_value(c) != self.game.options[name] for name, c in self.option_controls.items())
        except ValueError:  # unreadable text in a control: a change too
            changed = True
        self.options_hint.value = "Changed options apply from the next New game" if changed else ""

    def _sync_handover(self) -> None:
        seat = self._handover_to()
        if seat is None:
            self.handover_label.value = ""
            self.handover.layout.display = "none"
        else:
            self.handover_label.value = f"Hand the screen to {self.adapter.player_name(seat)}, then press Ready"
            self.handover.layout.display = None

    def _sync_moves(self, hidden: bool) -> None:
        viewer = self._viewer()
        if hidden:
            options = [("hidden until Ready", self._pos)]
        else:
            options = [("start", 0)]
            for i, labels in enumerate(self._labels, start=1):
                mover = self.adapter.player_name(self._line[i - 1].current_player())
                options.append((f"{i}. {mover}: {labels.get(viewer, labels[None])}", i))
        self._syncing = True
        try:
            if list(self.moves.options) != options:
                self.moves.options = options
            self.moves.value = self._pos
        finally:
            self._syncing = False
        self.moves_box.layout.display = "none" if hidden else None

    def _sync_position(self, hidden: bool) -> None:
        """The position as text; what the viewer may see with hidden information; mid-turn the
        engine's snapshot of the move in progress, read-only (it is not a position to load)."""
        state, viewer = self._state, self._viewer()
        if hidden:
            text = ""
        elif viewer is not None:
            text = canonical_json(state.observation(viewer))
        elif state.mid_turn():
            text = canonical_json(state.snapshot())
        else:
            text = _notation(state)
        self.position_text.value = text
        self.position_text.disabled = self.load_button.disabled = hidden or state.mid_turn()

    @property
    def share_query(self) -> str:
        """This game at this move as a URL query (``Board.from_query`` opens it); empty with hidden
        information, where the moves would tell what a seat may not see."""
        if not self.game.info.perfect_information:
            return ""
        start = self._line[0]
        position = _notation(start) if start.start_position() is not None else None
        moves = [labels[None] for labels in self._labels]
        return share_query(self.game, position, moves, self._pos)

    def _sync_link(self) -> None:
        """A link to this page with the game at this move: opened, or copied with the browser's
        "Copy link" (no script needed)."""
        query = self.share_query
        self.link.value = (
            f'<a href="?{html.escape(query)}" target="_blank" title="Opens this game at this move">'
            f"Link to this position</a> {_COPY_LINK}"
            if query
            else ""
        )

    def _sync_buttons(self, hidden: bool) -> None:
        """A button per legal action without a cell, and one per action the clicks complete."""
        state = self._state
        playable = not hidden and not self._busy and self._human_to_move()
        actions = [a for a in state.legal_actions() if not self.adapter.action_cells(state, a)] if playable else []
        labels = [self.adapter.button_label(state, a) for a in actions]
        if len(set(labels)) < len(labels):  # a label names one action: tell them apart by their strings
            labels = [f"{label} ({state.action_to_string(a)})" for label, a in zip(labels, actions)]
        self._button_actions = dict(zip(labels, actions))
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
        if cell is not None and not self._busy and self._human_to_move() and self._handover_to() is None:
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
        if not self._syncing and change["new"] != self._pos:
            self.jump(change["new"])

    @guarded
    def _on_seat(self, seat: int, spec: str | Agent) -> None:
        self._agents[seat] = self._make_agent(seat, spec)
        self.errors.clear()
        if not self._state.is_terminal() and self._state.current_player() == seat:
            self._cancel()
            self._continue()
        else:
            self._refresh()

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

    def _make_agent(self, seat: int, spec: str | Agent) -> Agent | None:
        if isinstance(spec, str) and spec == HUMAN:
            return None
        return make_agent(spec, seed=None if self.seed is None else self.seed + seat, game=self.game)

    def _set_seats(self, specs: list) -> None:
        """An agent (``None`` for a human) and a picker per seat; raises before changing anything."""
        agents = [self._make_agent(i, spec) for i, spec in enumerate(specs)]
        self._agents = agents
        self.seat_pickers = [
            seat_picker(i, self.adapter.player_name(i), spec, game=self.game) for i, spec in enumerate(specs)
        ]
        for i, picker in enumerate(self.seat_pickers):
            picker.observe(lambda change, seat=i: self._on_seat(seat, change["new"]), names="value")
        self.seat_row.children = self.seat_pickers

    def _set_game(self, game: Game) -> None:
        """Switch to other rule options: the adapter redraws from scratch on the same figure, and
        the seats follow the player count (new seats play as the last one did; agents that do not
        support the new game give way to humans)."""
        old = [picker.value for picker in self.seat_pickers]
        self.game = game
        self.figure.clear()
        self._curtained, self._drawn_viewer = [], _NOBODY
        self.adapter = load_adapter(game)
        if tuple(self.figure.get_size_inches()) != tuple(self.adapter.figsize):
            self.figure.set_size_inches(self.adapter.figsize)
        self.ax = self.adapter.setup(self.figure)
        extra = old[-1] if isinstance(old[-1], str) else HUMAN
        specs = (old + [extra] * game.num_players)[: game.num_players]
        self._set_seats([spec if self._supports(spec) else HUMAN for spec in specs])

    def _supports(self, spec: str | Agent) -> bool:
        try:
            self._make_agent(0, spec)
        except ValueError:
            return False
        return True

    def _matching(self, clicks: tuple) -> list[int]:
        """Legal actions whose click sequence starts with ``clicks``."""
        n = len(clicks)
        return [
            a for a in self._state.legal_actions() if tuple(self.adapter.action_cells(self._state, a)[:n]) == clicks
        ]

    def _agent_to_move(self) -> Agent | None:
        return None if self._state.is_terminal() else self._agents[self._state.current_player()]

    def _human_to_move(self) -> bool:
        return not self._state.is_terminal() and self._agents[self._state.current_player()] is None

    def _capped(self) -> bool:
        return len(self._state.history()) >= self.game.info.max_actions

    def _viewer(self) -> int | None:
        """The seat whose view is shown: ``None`` (everything) in perfect-information games and
        among agents alone; else the human to move, the only human, or the last who had the screen."""
        if self.game.info.perfect_information:
            return None
        humans = [seat for seat, agent in enumerate(self._agents) if agent is None]
        if not humans:
            return None
        if self._human_to_move():
            return self._state.current_player()
        return self._screen if self._screen in humans else humans[0]

    def _handover_to(self) -> int | None:
        """With hidden information and two or more humans: the seat to hand the screen to, while
        the one who had it last is another."""
        if self.game.info.perfect_information or sum(agent is None for agent in self._agents) < 2:
            return None
        viewer = self._viewer()
        return None if viewer == self._screen else viewer

    def _who(self, player: int) -> str:
        agent = self._agents[player]
        name = self.adapter.player_name(player)
        return name if agent is None else f"{name} ({agent.label})"


_NOBODY = object()  # no drawing yet


def _seen(start: State, actions: list[int], viewer: int | None) -> list[str]:
    """The strings of ``actions`` played from ``start`` as seat ``viewer`` saw them (all: ``None``)."""
    state, seen = start.clone(), []
    for action in actions:
        seen.append(state.action_to_string(action) if viewer is None else state.observed_action_string(action, viewer))
        state.apply_action(action)
    return seen


def _resolve_game(game: str | Game, options: dict | None, position: Any) -> Game:
    if isinstance(position, State):
        if options:
            raise ValueError("options cannot be given with a State position: the state's game has its own")
        if (game if isinstance(game, str) else game.name) != position.game.name:
            raise ValueError(f"position is a {position.game.name} state, but the board's game is {game!r}")
        return position.game
    if isinstance(game, Game):
        return load_game(game.name, **{**game.options, **game.params, **(options or {})}) if options else game
    if not isinstance(game, str):
        raise ValueError(f"game must be a name or a Game, got {game!r}")
    return load_game(game, **(options or {}))


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
