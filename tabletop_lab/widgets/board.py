"""A playable board for any game: click to play, agents per seat, undo, move list, positions.

The board is generic; ``tabletop_lab/games/<game>/board.py`` tells it how to draw the game and
which cells a click hits (see ``adapter.py``). It keeps one figure, drawn by an ipympl canvas
and updated in place. Agents think in a thread while a kernel's event loop runs (Jupyter,
Voila), and their moves are animated with loop timers, so the page stays responsive; without
a running loop (scripts, tests) agents reply at once and nothing is animated.

History: ``line`` holds the state at the start of every turn from the start position; the
move list shows it, and clicking an entry jumps there. Undo, redo and jumps move along the
line without erasing it; playing a different move from an earlier position replaces the rest.
Moving along the line never starts an agent; "Agent move" (or a new move) does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Hashable
from typing import Any

import ipywidgets as widgets

from ..agents import Agent, make_agent
from ..core import Game, State
from ..errors import IllegalActionError
from ..registry import load_game
from .adapter import load_adapter
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

__all__ = ["Board"]


class Board(widgets.VBox):
    """A clickable board (CSS class ``tl-board``).

    ``game``: a name or a Game; ``options``: rule options for a game given by name; ``seats``:
    one entry per seat, ``"human"`` or an agent spec (``"random"``, ``"mcts:iterations=200"``, an
    Agent); ``position``: a start position as text (notation or JSON) or a State; ``seed``: seeds
    the agents (seat i gets ``seed + i``); ``animate``: animate agents' moves.

    Programmatic use: ``play(move)``, ``undo()``, ``redo()``, ``jump(turn)``, ``new_game(**options)``,
    ``load(text)``, ``click_cell(cell)``, ``handle_click(x, y)``, ``cell_centre(cell)``, ``state``.
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
        self._clicks: tuple = ()
        self._hover: Hashable | None = None
        self._previewing = False
        self._syncing = False  # set while the move list is being filled

        self.adapter = load_adapter(self.game)
        self.figure = make_canvas(self.adapter.figsize)
        self.ax = self.adapter.setup(self.figure)
        canvas = self.figure.canvas
        canvas.mpl_connect("button_press_event", self._on_press)
        canvas.mpl_connect("motion_notify_event", self._on_motion)
        canvas.mpl_connect("axes_leave_event", self._on_leave)

        n = self.game.num_players
        seats = [HUMAN] * n if seats is None else list(seats)
        if len(seats) != n:
            raise ValueError(f"{self.game.name}: seats needs {n} entries (one per player), got {len(seats)}")
        self._agents: list[Agent | None] = [self._make_agent(i, spec) for i, spec in enumerate(seats)]
        self.seat_pickers = [seat_picker(i, self.adapter.player_name(i), spec) for i, spec in enumerate(seats)]
        for i, picker in enumerate(self.seat_pickers):
            picker.observe(lambda change, seat=i: self._on_seat(seat, change["new"]), names="value")

        self.status = _label("tl-status")
        self.hover_label = _label("tl-hover")
        self.undo_button = self._button("Undo", "tl-undo", self.undo)
        self.redo_button = self._button("Redo", "tl-redo", self.redo)
        self.agent_button = self._button("Agent move", "tl-agent-move", self._continue)
        self.new_game_button = self._button("New game", "tl-new-game", self.new_game)
        self.load_button = self._button("Load", "tl-load", lambda: self.load(self.position_text.value))
        self.option_controls = option_controls(self.game)
        self.position_text = widgets.Text(description="Position", layout=widgets.Layout(width="480px"))
        self.position_text.add_class("tl-position")
        self.moves = widgets.Select(options=[("start", 0)], value=0, rows=14, layout=widgets.Layout(width="200px"))
        self.moves.add_class("tl-moves")
        self.moves.observe(self._on_moves, names="value")

        self.children = [
            self.status,
            widgets.HBox([canvas, widgets.VBox([widgets.Label("Moves"), self.moves])]),
            self.hover_label,
            widgets.HBox([self.undo_button, self.redo_button, self.agent_button]),
            widgets.HBox(self.seat_pickers),
            widgets.HBox([*self.option_controls.values(), self.new_game_button]),
            widgets.HBox([self.position_text, self.load_button]),
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
        """A copy of the position shown."""
        return self._state.clone()

    @property
    def busy(self) -> bool:
        """True while an agent thinks or its move is being animated."""
        return self._busy

    @property
    def line(self) -> list[State]:
        """Copies of the states at the start of each turn, from the start position."""
        return [s.clone() for s in self._line]

    def play(self, move: str) -> None:
        """Play ``move`` (an action string) for whoever is to move; agents then reply.

        Raises the engine's ``ActionSyntaxError`` / ``IllegalActionError``; nothing changes then.
        """
        action = self._state.parse_move(move)
        self._cancel()
        self._play_action(action)
        self.errors.clear()
        self._continue()

    def undo(self) -> None:
        """Back to the start of the current turn, or to the previous turn a human plays."""
        if not self._turn and self._pos == 0:
            raise ValueError("nothing to undo: this is the start position")
        self._cancel()
        if not self._turn:
            self._pos -= 1
            while self._pos > 0 and self._skippable(self._pos):
                self._pos -= 1
        self._go(self._pos)

    def redo(self) -> None:
        """Forward along the line, to the next turn a human plays (or its end)."""
        if self._pos + 1 >= len(self._line):
            raise ValueError("nothing to redo: this is the last position of the line")
        self._cancel()
        pos = self._pos + 1
        while pos + 1 < len(self._line) and self._skippable(pos):
            pos += 1
        self._go(pos)

    def jump(self, turn: int) -> None:
        """Show the position before turn ``turn + 1`` (0 is the start), as the move list does."""
        if type(turn) is not int or not 0 <= turn < len(self._line):
            raise ValueError(f"turn must be 0..{len(self._line) - 1}, got {turn!r}")
        self._cancel()
        self._go(turn)

    def new_game(self, **options: Any) -> None:
        """Start again under the option controls' values, overridden by ``options``."""
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

    def handle_click(self, x: float, y: float) -> None:
        """A click at data coordinates ``(x, y)``, as the canvas reports it."""
        cell = self.adapter.cell_at(x, y)
        if cell is not None:
            self.click_cell(cell)

    @guarded
    def click_cell(self, cell: Hashable) -> None:
        """Click ``cell``: play the action it completes, or select it; refusals go to ``errors``."""
        self._click(cell)

    def cell_centre(self, cell: Hashable) -> tuple[float, float]:
        """Where ``cell`` is on the canvas, as fractions of its width and height from the top left."""
        self.ax.apply_aspect()
        px, py = self.ax.transData.transform(self.adapter.cell_xy(cell))
        box = self.figure.bbox
        return float(px / box.width), float(1 - py / box.height)

    # --- playing ---------------------------------------------------------------------------

    def _click(self, cell: Hashable) -> None:
        state = self._state
        if self._busy:
            raise ValueError(f"wait: {self._who(state.current_player())} is thinking")
        if state.is_terminal():
            raise ValueError("the game is over: start a new game, undo, or load a position")
        player = state.current_player()
        if self._agents[player] is not None:
            raise ValueError(f"{self._who(player)} plays this seat: press 'Agent move', or make the seat human")
        clicks = self._clicks + (cell,)
        matches = self._matching(clicks)
        if not matches and self._clicks:  # a fresh selection replaces the old one
            clicks = (cell,)
            matches = self._matching(clicks)
        self._hover, self._previewing, self.hover_label.value = None, False, ""
        if not matches:
            self._clicks = ()
            self._draw()
            raise IllegalActionError(self.adapter.refusal(state, clicks))
        complete = [a for a in matches if len(self.adapter.action_cells(state, a)) == len(clicks)]
        if complete:
            self._play_action(complete[0])
            self.errors.clear()
            self._continue()
        else:
            self._clicks = clicks
            self._draw()

    def _play_action(self, action: int) -> None:
        """Apply ``action`` (the state is unchanged if that raises) and close the turn if done."""
        text = self._state.action_to_string(action)
        self._state.apply_action(action)
        self._turn.append(text)
        self._clicks = ()
        if self._state.mid_turn():
            return
        label = " ".join(self._turn)
        nxt = self._pos + 1
        if not (nxt < len(self._line) and self._labels[self._pos] == label):  # a new branch
            del self._line[nxt:], self._labels[self._pos :]
            self._line.append(self._state.clone())
            self._labels.append(label)
        self._pos = nxt
        self._turn = []

    def _continue(self) -> None:
        """Let agents play while one is to move (threaded under a running loop), then refresh."""
        try:
            while (agent := self._agent_to_move()) is not None and not self._capped():
                if self._loop is not None:
                    self._think(agent)
                    return
                self._play_action(agent.choose_action(self._state.clone()))
        finally:
            self._refresh()

    def _think(self, agent: Agent) -> None:
        """Ask ``agent`` in a thread; its answer comes back on the loop as ``_agent_replied``."""
        self._busy = True
        epoch, snapshot, loop = self._epoch, self._state.clone(), self._loop

        def work() -> None:
            try:
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
            frames = self.adapter.frames(self._state, action, self.MAX_FRAMES, fine=False) if self.animate else []
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
        self._labels: list[str] = []
        self._go(0)

    def _go(self, pos: int) -> None:
        self._pos = pos
        self._state = self._line[pos].clone()
        self._turn: list[str] = []
        self._clicks = ()
        self._refresh()

    def _skippable(self, pos: int) -> bool:
        """Whether undo/redo pass over ``line[pos]``: an agent moves there and a human plays too."""
        state = self._line[pos]
        humans = any(agent is None for agent in self._agents)
        return humans and not state.is_terminal() and self._agents[state.current_player()] is not None

    # --- drawing and status ----------------------------------------------------------------

    def _refresh(self) -> None:
        self.status.value = self._status_text()  # the labels first: they reach the page before the picture
        self._sync_moves()
        self.position_text.value = _notation(self._state)
        self.undo_button.disabled = self._pos == 0 and not self._turn
        self.redo_button.disabled = self._pos + 1 >= len(self._line)
        self.agent_button.disabled = self._busy or self._agent_to_move() is None
        self._draw()

    def _draw(self, preview: Any = None) -> None:
        self.adapter.draw(
            self._state, targets=self._targets(), selected=self._clicks, preview=preview, viewer=self._viewer()
        )
        canvas = self.figure.canvas
        if getattr(canvas, "syncing_data_url", True):
            canvas.draw_idle()  # no browser view yet: it asks for its first picture itself
        else:
            canvas.draw()  # send the picture now, not after the browser asks back for it

    def _targets(self) -> frozenset:
        if self._busy or not self._human_to_move():
            return frozenset()
        n = len(self._clicks)
        return frozenset(self.adapter.action_cells(self._state, a)[n] for a in self._matching(self._clicks))

    def _status_text(self) -> str:
        state = self._state
        result = state.result()
        if result is not None:
            return result_text(result, self.adapter.player_name)
        player = state.current_player()
        text = f"{self._who(player)} to move"
        if self._busy:
            return text + ": thinking…"
        if self._agent_to_move() is not None and self._capped():
            return text + f": agents stopped at the cap of {self.game.info.max_actions} actions"
        if self._turn:
            return text + ": the turn goes on"
        return text

    def _sync_moves(self) -> None:
        options = [("start", 0)]
        for i, label in enumerate(self._labels, start=1):
            options.append((f"{i}. {self.adapter.player_name(self._line[i - 1].current_player())}: {label}", i))
        self._syncing = True
        try:
            if list(self.moves.options) != options:
                self.moves.options = options
            self.moves.value = self._pos
        finally:
            self._syncing = False

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
        if cell is not None and not self._busy and self._human_to_move():
            clicks = self._clicks + (cell,)
            complete = [
                a for a in self._matching(clicks) if len(self.adapter.action_cells(self._state, a)) == len(clicks)
            ]
            if complete:
                preview, text = self.adapter.preview(self._state, complete[0])
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
        return make_agent(spec, seed=None if self.seed is None else self.seed + seat)

    def _set_game(self, game: Game) -> None:
        """Switch to other rule options: the adapter redraws from scratch on the same figure."""
        self.game = game
        self.figure.clear()
        self.adapter = load_adapter(game)
        if tuple(self.figure.get_size_inches()) != tuple(self.adapter.figsize):
            self.figure.set_size_inches(self.adapter.figsize)
        self.ax = self.adapter.setup(self.figure)

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
        """The seat whose view is drawn: in hidden-information games the human to move, or the
        only human; otherwise (and in spectator games) ``None``, everything."""
        if self.game.info.perfect_information:
            return None
        humans = [seat for seat, agent in enumerate(self._agents) if agent is None]
        if self._human_to_move():
            return self._state.current_player()
        return humans[0] if len(humans) == 1 else None

    def _who(self, player: int) -> str:
        agent = self._agents[player]
        name = self.adapter.player_name(player)
        return name if agent is None else f"{name} ({agent.label})"


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


def _label(css: str) -> widgets.Label:
    label = widgets.Label()
    label.add_class(css)
    return label


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
