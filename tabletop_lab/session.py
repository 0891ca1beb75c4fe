"""A game being played at one screen: history, takebacks, seats, who looks, agents, hand-over.

``PlaySession`` is the Play board without its pictures: plain Python, no widgets, so every rule
about what may be done and who may see what lives here once and is tested once, for every
game. A view (``widgets.Board``) draws ``session.view()`` (a ``SessionView``) whenever the
session's ``number`` changes, and sends the user's clicks back as calls; it decides nothing.

History: ``line`` holds the position at the start of every move from the start position; undo,
redo and jumps move along it without erasing it; playing a different move from an earlier
position replaces the rest. In a move of several actions Undo takes back one action at a time.

Hidden information (games whose ``info.information`` is ``"imperfect"``):

* The *viewer* is the last human seat at the screen: the only human, or the one the screen was
  handed to (``ready``). With no human seat the screen keeps that viewer's view; nothing shows
  everything unless someone presses "show all cards" (``show_all_cards``), and then the game
  says so (``cards_shown``, on screen and in its ``record()``).
* When the seat that should look (the human to move, or a human when the viewer's seat is an
  agent's) is not the viewer, the screen is curtained until that player presses Ready, and
  nothing but Ready works.
* A session made with a ``viewer`` keeps that seat at the screen for good: its view is shown
  whoever is to move, and nobody is handed the screen (a puzzle seen from the side to move).
* Takebacks stop at the last reveal (``State.reveals``): what was shown cannot be unseen.
* The position text is the full position when the viewer sees all of it, else the viewer's
  observation; ``load`` accepts either, dealing an observation's hidden cards afresh from a
  seed it names (``Game.state_from_observation``).

Agents: ``run_agents`` lets agents play while one is to move; given an asyncio ``loop`` they
think in a thread and answer on the loop (``animate`` may show the move before it is played),
else they answer at once. A move never waits for numba's compiler (``kernels.ready_kernels_only``),
nor does a hint, an evaluation or a review in a thread.

The agents' turns (``session_agents.SessionAgents``) and hints, the evaluation and the review
(``session_analysis.SessionAnalysis``) are mixed into this class; both run in a thread under a loop.

An exercise around the board (``widgets.PuzzleBoard``) may ``lock`` the screen's moves, saying
why, while the line on screen is only for looking at.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .agents import Agent, make_agent
from .core import Game, State, canonical_json
from .errors import ActionError, PositionError
from .parsing import read_json
from .records import GameRecord
from .registry import game_names, load_game
from .session_agents import SessionAgents
from .session_analysis import Evaluation, Hint, SessionAnalysis

__all__ = ["HUMAN", "Evaluation", "Hint", "PlaySession", "SessionView"]

HUMAN = "human"


@dataclass(frozen=True)
class SessionView:
    """Everything the screen shows of a session at state ``number``, as the viewer may see it.

    ``curtain``: the seat the screen must be handed to (then nothing else is shown); ``moves``:
    the move list as the viewer saw each move, ``at`` its selected entry; ``position``: the
    position text (``loadable`` when Load takes it back); ``actions``: the strings of the
    actions the viewer may play now; ``enabled``: the controls that work now.
    """

    number: int
    viewer: int | None
    curtain: int | None
    status: str
    you: str
    handover: str
    moves: tuple[str, ...]
    at: int
    position: str
    loadable: bool
    actions: tuple[str, ...]
    enabled: frozenset[str]
    cards_note: str
    notice: str
    undo: str = ""
    agent: str = ""
    hint: str = ""
    hint_move: str = ""
    review: str = ""
    review_move: str = ""
    evaluation: str = ""
    evaluation_value: float | None = None


class PlaySession(SessionAgents, SessionAnalysis):
    """One game at one screen; ``seats``: per seat ``"human"`` or an agent spec or Agent; seat i's
    agent is seeded with ``seed + i``. ``names`` names the seats (default: the game's names),
    ``result_words`` words a finished game's result for the status line, ``doing`` what the
    player to move must do when it is more than a move (default: nothing said). ``viewer``: with
    hidden information, the seat at the screen for good (see the module's docstring)."""

    def __init__(
        self,
        game: Game,
        seats: list | None = None,
        start: State | None = None,
        *,
        seed: int | None = None,
        loop: Any = None,
        names: Callable[[int], str] | None = None,
        result_words: Callable[[State], str] | None = None,
        doing: Callable[[State], str] | None = None,
        viewer: int | None = None,
    ):
        if viewer is not None and (type(viewer) is not int or not 0 <= viewer < game.num_players):
            raise ValueError(f"{game.name}: viewer must be a seat 0..{game.num_players - 1}, got {viewer!r}")
        self.game = game
        self.seed = seed
        self.loop = loop
        self.names = names or (lambda seat: _seat_name(self.game, seat))
        self.result_words = result_words or (lambda state: f"Game over: {state.result()}")
        self.doing = doing or (lambda state: "")
        self.number = 0
        self.notice = ""  # what the last operation wants said (a takeback refused, cards dealt)
        self.animate: Callable[[State, int, Callable[[], None]], None] | None = None
        self.on_error: Callable[[BaseException], None] | None = None
        self._listeners: list[Callable[[], None]] = []
        self._depth = 0
        self._dirty = False
        self._epoch = 0
        self._busy = False
        self._locked = ""  # why the screen may not play now (``lock``); "" when it may
        self._paused = False  # agents wait: Agent move plays one move, resume() lets them go on
        self._hinting = False  # a hint is being searched
        self._evaluation_seat: int | None = None  # whose win chance the evaluation shows (None: off)
        self._evaluation: Evaluation | None = None
        self._evaluating: tuple | None = None  # the key of the position being evaluated
        self._evaluated_key: tuple | None = None  # the key of ``_evaluation``
        self._reviewing: tuple[int, int] | None = None  # (positions done, in all) while a review runs
        specs = [HUMAN] * game.num_players if seats is None else list(seats)
        if len(specs) != game.num_players:
            raise ValueError(f"{game.name}: seats needs {game.num_players} entries (one per player), got {len(specs)}")
        self._agents = [self._make_agent(i, spec) for i, spec in enumerate(specs)]
        self.specs = specs
        humans = self.humans()
        self._screen: int | None = humans[0] if len(humans) == 1 else 0 if not humans else None
        self._fixed_viewer = viewer
        if viewer is not None:
            self._screen = viewer
        self._reset(start.clone() if start is not None else game.new_initial_state())

    # --- what the screen shows -----------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change (once per operation, with ``number`` raised)."""
        self._listeners.append(listener)

    @property
    def state(self) -> State:
        """A copy of the true state (mid-turn in a move of several actions): not for the screen."""
        return self._state.clone()

    @property
    def line(self) -> list[State]:
        return [s.clone() for s in self._line]

    @property
    def pos(self) -> int:
        return self._pos

    @property
    def turn(self) -> list[int]:
        """The actions of the move in progress."""
        return list(self._turn)

    @property
    def busy(self) -> bool:
        """True while an agent thinks or its move is being shown."""
        return self._busy

    @property
    def agents(self) -> list[Agent | None]:
        return list(self._agents)

    @property
    def perfect(self) -> bool:
        return self.game.info.perfect_information

    @property
    def showing_all(self) -> bool:
        """True while "show all cards" is on (hidden-information games)."""
        return self._showing_all

    @property
    def cards_shown(self) -> bool:
        """True once someone showed all cards in this game: its record says so."""
        return self._cards_shown

    @property
    def reveal_at(self) -> int:
        """The move that last revealed hidden cards (0: none yet): takebacks stop after it."""
        return self._floor[0]

    @property
    def viewer(self) -> int | None:
        """The seat whose view is shown; ``None``: everything (perfect information, or all cards shown)."""
        if self.perfect or self._showing_all:
            return None
        return self._screen

    @property
    def handing_over(self) -> int | None:
        """The seat the screen must be handed to before anything shows, if any."""
        if self.perfect or self._showing_all or self._fixed_viewer is not None:
            return None
        wanted = self._wanted_screen()
        return None if wanted == self._screen else wanted

    @property
    def paused(self) -> bool:
        """True while agents wait (``pause``): ``agent_move`` plays one agent move at a time."""
        return self._paused

    def pause(self) -> None:
        """Stop agents from moving on their own (a thinking agent's reply is dropped)."""
        self._check_screen()
        with self._change():
            self._cancel()
            self._paused = True
            self._dirty = True

    def resume(self) -> None:
        """Let agents move on their own again, starting now if one is to move."""
        self._check_screen()
        with self._change():
            self._paused = False
            self._dirty = True
            self.run_agents()

    def agent_text(self) -> str:
        """Why "Agent move" does or does not work now, in words (for its tooltip)."""
        state = self._state
        if state.is_terminal():
            return "The game is over"
        if self._busy:
            return f"{self.who(state.current_player())} is thinking"
        if self._agents[state.current_player()] is None:
            return (
                f"{self.names(state.current_player())} is a human seat. Agents move by themselves after a human "
                "move; Agent move plays an agent's turn when they wait (after Undo, a jump, or Pause)"
            )
        if self.capped():
            return f"Agents stopped at the cap of {self.game.info.max_actions} actions"
        return f"Play one move for {self.who(state.current_player())}"

    def humans(self) -> list[int]:
        return [seat for seat, agent in enumerate(self._agents) if agent is None]

    def human_to_move(self) -> bool:
        return not self._state.is_terminal() and self._agents[self._state.current_player()] is None

    def agent_to_move(self) -> Agent | None:
        return None if self._state.is_terminal() else self._agents[self._state.current_player()]

    def capped(self) -> bool:
        return len(self._state.history()) >= self.game.info.max_actions

    def playable(self) -> bool:
        """Whether the screen may play a move now (a human to move, the screen theirs, no agent
        busy, not ``lock``-ed)."""
        return not self._locked and not self._busy and self.human_to_move() and self.handing_over is None

    def legal_actions(self) -> list[int]:
        """The actions the screen may play now (none unless ``playable``)."""
        return self._state.legal_actions() if self.playable() else []

    def can(self, control: str) -> bool:
        """Whether ``control`` works now: undo, redo, jump, agent, pause, resume, ready, load, new,
        seats, show_all, hide."""
        if self.handing_over is not None:
            return control == "ready"
        if control == "undo":  # at the last reveal it stays enabled, to say why it goes no further
            return bool(self._turn) or self._pos > 0
        if control == "redo":
            return self._pos + 1 < len(self._line)
        if control == "agent":
            return not self._busy and self.agent_to_move() is not None and not self.capped()
        if control == "pause":
            return not self._paused and any(agent is not None for agent in self._agents)
        if control == "resume":
            return self._paused
        if control == "load":
            return not self._state.mid_turn()
        if control == "show_all":
            return not self.perfect and not self._showing_all
        if control == "hide":
            return self._showing_all
        if control == "hint":
            return self.hint_refusal() is None
        if control == "review":
            return self.review_refusal() is None
        return control in ("jump", "new", "seats", "evaluation")

    def move_strings(self) -> list[str]:
        """The canonical strings of the line's moves (what a shared link lists)."""
        return [labels[None] for labels in self._labels]

    def move_labels(self) -> list[str]:
        """Each move of the line as the viewer saw it, numbered and with its mover."""
        viewer = self.viewer
        return [
            f"{i}. {self.names(self._line[i - 1].current_player())}: {labels.get(viewer, labels[None])}"
            for i, labels in enumerate(self._labels, start=1)
        ]

    def position_text(self) -> tuple[str, bool]:
        """The position as text and whether Load takes it: the full position when the viewer sees
        all of it, else the viewer's observation; mid-turn the engine's snapshot (not loadable)."""
        state, viewer = self._state, self.viewer
        if self.handing_over is not None:
            return "", False
        if state.mid_turn():
            snapshot = state.snapshot() if viewer is None else state.observation(viewer)
            return canonical_json(snapshot), False
        if viewer is None or state.observation(viewer) == state.snapshot():
            return (state.notation() if self.game.info.has_notation else state.to_json()), True
        return canonical_json(state.observation(viewer)), True

    def seen(self, start: State, actions: list[int]) -> list[str]:
        """The strings of ``actions`` played from ``start`` as the viewer saw them."""
        return _seen(start, actions, self.viewer)

    def who(self, player: int) -> str:
        agent = self._agents[player]
        name = self.names(player)
        return name if agent is None else f"{name} ({agent.display_name})"

    def status_text(self) -> str:
        state = self._state
        if state.is_terminal():
            return self.result_words(state)
        text = f"{self.who(state.current_player())} to move"
        if self._busy:
            return text + ": thinking…"
        if self.agent_to_move() is not None and self.capped():
            return text + f": agents stopped at the cap of {self.game.info.max_actions} actions"
        if self.agent_to_move() is not None and self._paused:
            return text + ": paused (Agent move plays one move, Resume lets the agents go on)"
        if self._turn and self.handing_over is None:
            so_far = " ".join(self.seen(self._line[self._pos], self._turn))
            return text + f": the move goes on after {so_far}"
        note = self.doing(state) if self.handing_over is None else ""
        return text + f": {note}" if note else text

    def you_text(self) -> str:
        """Whose seat is the user's: the only human's, or the viewer's with hidden information;
        with several human seats (but not all) the seats the people at the screen play."""
        humans = self.humans()
        if self.handing_over is not None:
            return ""
        if self.perfect:
            if 1 < len(humans) < self.game.num_players:
                names = [self.names(seat) for seat in humans]
                return "You play " + ", ".join(names[:-1]) + " and " + names[-1]
            seat = humans[0] if len(humans) == 1 else None
        else:
            seat = self._screen
        if seat is None:
            return ""
        return f"You are {self.names(seat)}" + ("" if seat in humans else " (an agent plays your seat)")

    def view(self) -> SessionView:
        """What the screen shows now (``number`` included): the view draws nothing else."""
        curtain = self.handing_over
        position, loadable = self.position_text()
        hidden = curtain is not None
        controls = (
            "undo",
            "redo",
            "jump",
            "agent",
            "pause",
            "resume",
            "ready",
            "load",
            "new",
            "seats",
            "show_all",
            "hide",
            "hint",
            "evaluation",
            "review",
        )
        hint, evaluation = self.hint_shown, self.evaluation
        return SessionView(
            number=self.number,
            viewer=self.viewer,
            curtain=curtain,
            status=self.status_text(),
            you=self.you_text(),
            handover="" if curtain is None else f"Hand the screen to {self.names(curtain)}, then press Ready",
            moves=() if hidden else tuple(self.move_labels()),
            at=self._pos,
            position=position,
            loadable=loadable and not hidden,
            actions=tuple(self._state.action_to_string(a) for a in self.legal_actions()),
            enabled=frozenset(c for c in controls if self.can(c)),
            cards_note="All cards have been shown in this game" if self._cards_shown else "",
            notice="" if hidden else self.notice,
            undo="" if hidden else self.undo_text(),
            agent="" if hidden else self.agent_text(),
            hint="" if hidden else self.hint_text(),
            hint_move="" if hidden or hint is None else hint.move,
            review="" if hidden else self.review_text(),
            review_move="" if hidden else self._better_move(),
            evaluation="" if hidden else self.evaluation_text(),
            evaluation_value=None if hidden or evaluation is None else evaluation.value,
        )

    # --- operations ----------------------------------------------------------------------

    def check_can_play(self) -> None:
        """Raise ``ValueError`` saying why the screen cannot play now, if it cannot."""
        state = self._state
        if self._locked:
            raise ValueError(self._locked)
        if self._busy:
            raise ValueError(f"wait: {self.who(state.current_player())} is thinking")
        if state.is_terminal():
            raise ValueError("the game is over: start a new game, undo, or load a position")
        player = state.current_player()
        if self._agents[player] is not None:
            raise ValueError(f"{self.who(player)} plays this seat: press 'Agent move', or make the seat human")
        self._check_screen()

    def play_actions(self, actions: list[int]) -> None:
        """Play ``actions`` (from ``actions_of``) for whoever is to move, then agents reply; the
        screen's clicks check ``check_can_play`` first."""
        self._check_screen()
        with self._change():
            self._cancel()
            for action in actions:
                self._play_action(action)
            self.run_agents()

    def actions_of(self, move: str) -> list[int]:
        """The actions ``move`` takes from the current state (checked legal), or the engine's error:
        a whole move, or one action's string (which may start a move of several actions)."""
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

    def lock(self, reason: str = "") -> None:
        """Refuse the screen's moves, saying ``reason`` (an answered puzzle, whose line is for
        looking at), or take them again with ``""``; walking along the line still works."""
        with self._change():
            self._locked = reason

    def ready(self) -> None:
        """The player the screen was handed to is at the screen: show the game from their seat."""
        seat = self.handing_over
        if seat is None:
            raise ValueError("nobody is waiting for the screen")
        with self._change():
            self._screen = seat
            self.notice = ""

    def undo(self) -> None:
        """Take back the last action of a move in progress, or go back to the previous move a
        human plays; never past the last reveal."""
        self._check_screen()
        if not self._turn and self._pos == 0:
            raise ValueError("nothing to undo: this is the start position")
        target = self._takeback_target()
        if target is None:
            raise ValueError(self._reveal_note())
        said = self.undo_text()
        with self._change():
            self._cancel()
            self._go(*target)
            self.notice = said.replace("Undo takes back", "Took back", 1)

    def undo_text(self) -> str:
        """What Undo would take back now, in words ("Undo takes back move 5, White (bottom)'s
        step a1 b2, and 2 agent moves after it"); "" when it takes back nothing."""
        target = self._takeback_target() if (self._turn or self._pos) else None
        if target is None:
            return ""
        viewer = self.viewer
        if self._turn:
            last = self.seen(self._line[self._pos], self._turn)[-1]
            return f"Undo takes back {self.names(self._line[self._pos].current_player())}'s {last}"
        pos = target[0]
        mover = self.names(self._line[pos].current_player())
        label = self._labels[pos].get(viewer, self._labels[pos][None])
        after = self._pos - pos - 1
        text = f"Undo takes back move {pos + 1}, {mover}'s {label}"
        if after:
            text += f", and {after} agent move{'s' if after > 1 else ''} after it"
        return text

    def redo(self) -> None:
        """Forward along the line, to the next move a human plays (or its end)."""
        self._check_screen()
        if self._pos + 1 >= len(self._line):
            raise ValueError("nothing to redo: this is the last position of the line")
        pos = self._pos + 1
        while pos + 1 < len(self._line) and self._skippable(pos):
            pos += 1
        with self._change():
            self._cancel()
            self._go(pos)

    def jump(self, turn: int) -> None:
        """Go to the position before move ``turn + 1`` (0 is the start); not before the last reveal."""
        self._check_screen()
        if type(turn) is not int or not 0 <= turn < len(self._line):
            raise ValueError(f"turn must be 0..{len(self._line) - 1}, got {turn!r}")
        if (turn, 0) < self._floor:
            raise ValueError(self._reveal_note())
        with self._change():
            self._cancel()
            self._go(turn)

    def replay(self, moves: list[str], at: int | None = None) -> None:
        """From the start position, play ``moves`` (whole moves) as the line, agents silent, and
        go to the position before move ``at + 1`` (default: after the last)."""
        with self._change():
            self._cancel()
            self._reset(self._line[0])
            try:
                for move in moves:
                    for action in self.actions_of(move):
                        self._play_action(action)
            finally:
                end = len(self._line) - 1
                self._go(end if at is None else max(min(at, end), self._floor[0]))

    def set_seat(self, seat: int, spec: str | Agent) -> None:
        """Let ``spec`` (``"human"`` or an agent) play ``seat``; an agent to move starts."""
        self._check_screen()
        if spec is self.specs[seat] or (isinstance(spec, str) and spec == self.specs[seat]):
            return
        agent = self._make_agent(seat, spec)
        with self._change():
            self._agents[seat] = agent
            self.specs[seat] = spec
            if not self._state.is_terminal() and self._state.current_player() == seat:
                self._cancel()
                self.run_agents()

    def show_all_cards(self) -> None:
        """Show everything, every seat's cards: the game then says so, on screen and in its record."""
        self._check_screen()
        if self.perfect:
            raise ValueError(f"{self.game.name} hides nothing: every card is shown already")
        with self._change():
            self._showing_all = self._cards_shown = True

    def hide_cards(self) -> None:
        """Back to the viewer's view (the game still says that all cards were shown)."""
        with self._change():
            self._showing_all = False

    def new_game(self, game: Game | None = None) -> None:
        """Start again, under ``game`` (other rule options) if given: the seats follow its player
        count (new seats play as the last did; agents that cannot play it give way to humans)."""
        self._check_screen()
        with self._change():
            self._cancel()
            if game is not None and game != self.game:
                self._set_game(game)
            self._reset(self.game.new_initial_state())
            self.run_agents()

    def load(self, text: str, seed: int | None = None) -> None:
        """Play on from ``text``: a position (notation or JSON), or, with hidden information, the
        viewer's observation, whose hidden cards are dealt afresh from ``seed`` (drawn and named
        when not given). Raises ``PositionError`` if malformed; nothing changes then."""
        self._check_screen()
        note = ""
        try:
            state = self.game.load_position(text)
        except PositionError:
            viewer = self.viewer
            dealer = type(self.game).state_from_observation
            if self.perfect or viewer is None or dealer is Game.state_from_observation:
                raise  # nothing to deal: the position's own error says what is wrong
            data = read_json(text, f"{self.game.name} position")
            seed = random.SystemRandom().randrange(2**32) if seed is None else seed
            state = self.game.state_from_observation(data, viewer, random.Random(seed))
            note = f"Loaded {self.names(viewer)}'s view: the cards hidden from it were dealt afresh from seed {seed}"
        with self._change():
            self._cancel()
            self._reset(state)
            self.notice = note
            self.run_agents()

    def agent_move(self) -> None:
        """Let the agent to move play (one move while paused): walking along the line never
        starts one (nor does the cap)."""
        self._check_screen()
        with self._change():
            self._cancel()
            self.run_agents(once=True)

    def record(self) -> GameRecord:
        """The game so far as a record; ``cards_shown`` when all cards were shown in it."""
        labels = [agent.label if agent is not None else HUMAN for agent in self._agents]
        record = GameRecord.from_state(self._state, seed=self.seed, agents=labels)
        record.cards_shown = self._cards_shown
        record.hints = list(self._hints)
        return record

    # --- internals -----------------------------------------------------------------------

    @contextlib.contextmanager
    def _change(self) -> Iterator[None]:
        """Group the changes of one operation: ``number`` rises once and listeners hear once."""
        self._depth += 1
        self._dirty = True
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._dirty:
                self._depth = 1  # an evaluation made at once (no loop) joins this operation
                try:
                    self._evaluate()
                finally:
                    self._depth = 0
                self._dirty = False
                self.number += 1
                for listener in list(self._listeners):
                    listener()

    def _check_screen(self) -> None:
        seat = self.handing_over
        if seat is not None:
            raise ValueError(f"hand the screen to {self.names(seat)}, who presses Ready first")

    def _wanted_screen(self) -> int | None:
        """The seat that should be at the screen: the human to move; else the viewer if human,
        else a human seat; with no human seat, the last viewer (nobody takes the screen)."""
        humans = self.humans()
        if not humans:
            return self._screen
        if self.human_to_move():
            return self._state.current_player()
        return self._screen if self._screen in humans else humans[0]

    def _make_agent(self, seat: int, spec: str | Agent) -> Agent | None:
        if isinstance(spec, str) and spec == HUMAN:
            return None
        return make_agent(spec, seed=None if self.seed is None else self.seed + seat, game=self.game)

    def supports(self, spec: str | Agent) -> bool:
        """Whether ``spec`` can play this game."""
        try:
            self._make_agent(0, spec)
        except ValueError:
            return False
        return True

    def _set_game(self, game: Game) -> None:
        old = list(self.specs)
        self.game = game
        extra = old[-1] if isinstance(old[-1], str) else HUMAN
        specs = (old + [extra] * game.num_players)[: game.num_players]
        specs = [spec if self.supports(spec) else HUMAN for spec in specs]
        self._agents = [self._make_agent(i, spec) for i, spec in enumerate(specs)]
        self.specs = specs
        if self._screen is not None and self._screen >= game.num_players:
            self._screen = self._fixed_viewer = None

    def _reset(self, start: State) -> None:
        self._line = [start.clone()]
        self._labels: list[dict] = []  # per move: its label for each viewer (None: everything)
        self._floor = (0, 0)  # (pos, actions into the move) of the last reveal: takebacks stop there
        self._showing_all = self._cards_shown = False
        self._hints: list[int] = []  # the actions played at each hint shown
        self._review: tuple[tuple, Any] | None = None  # (the game's actions, its review)
        self.notice = ""
        self._go(0)

    def _go(self, pos: int, turn: list[int] | tuple = ()) -> None:
        """Go to ``line[pos]`` with the actions ``turn`` of a move in progress played on it."""
        state = self._line[pos].clone()
        for action in turn:
            state.apply_action(action)
        self._pos, self._state, self._turn = pos, state, list(turn)
        self._hint = None
        self.notice = ""

    def _takeback_target(self) -> tuple[int, list[int]] | None:
        """Where Undo goes: one action back in a move in progress, else the previous position a
        human plays from; ``None`` when that is before the last reveal."""
        if self._turn:
            target = (self._pos, self._turn[:-1])
        elif self._pos == 0:
            return None
        else:
            pos = self._pos - 1
            while pos > 0 and self._skippable(pos):
                pos -= 1
            target = (pos, [])
        return target if (target[0], len(target[1])) >= self._floor else None

    def _reveal_note(self) -> str:
        pos, _ = self._floor
        return f"Takebacks stop at the last reveal (move {pos}): what was shown cannot be taken back"

    def _skippable(self, pos: int) -> bool:
        """Whether undo/redo pass over ``line[pos]``: an agent moves there and a human plays too."""
        state = self._line[pos]
        humans = any(agent is None for agent in self._agents)
        return humans and not state.is_terminal() and self._agents[state.current_player()] is not None

    def _single_action(self, text: str) -> list[int]:
        action = self._state.string_to_action(text)
        self._state.clone().apply_action(action)  # IllegalActionError naming the rule
        return [action]

    def _play_action(self, action: int) -> None:
        """Apply ``action`` (the state is unchanged if that raises) and close the move if done."""
        reveals = not self.perfect and self._state.reveals(action)
        self._state.apply_action(action)
        self._turn.append(action)
        self._hint = None
        self.notice = ""
        self._dirty = True
        if reveals:  # what was shown stays shown: takebacks stop here
            self._floor = (self._pos, len(self._turn))
        if self._state.mid_turn():
            return
        start, nxt = self._line[self._pos], self._pos + 1
        if not (nxt < len(self._line) and self._line[nxt].history() == self._state.history()):  # a new branch
            del self._line[nxt:], self._labels[self._pos :]
            self._line.append(self._state.clone())
            self._labels.append(self._move_labels(start, self._turn))
        if self._floor == (self._pos, len(self._turn)):  # the move's last action revealed
            self._floor = (nxt, 0)
        self._pos, self._turn = nxt, []

    def _move_labels(self, start: State, actions: list[int]) -> dict:
        """The move's canonical string (key ``None``) and, with hidden information, how each seat saw it."""
        labels: dict[int | None, str] = {None: start._move_string(actions)}
        if not self.perfect:
            for seat in range(self.game.num_players):
                labels[seat] = " ".join(_seen(start, actions, seat))
        return labels


def _seen(start: State, actions: list[int], viewer: int | None) -> list[str]:
    """The strings of ``actions`` played from ``start`` as seat ``viewer`` saw them (all: ``None``)."""
    state, seen = start.clone(), []
    for action in actions:
        seen.append(state.action_to_string(action) if viewer is None else state.observed_action_string(action, viewer))
        state.apply_action(action)
    return seen


def _seat_name(game: Game, seat: int) -> str:
    names = game.info.player_names
    return names[seat] if seat < len(names) else f"Player {seat}"


def resolve_game(game: str | Game | None, options: dict | None, position: Any) -> Game:
    """The game a board plays: ``game`` (a name or Game) under ``options``, or a State's own game;
    with neither, the first game menus list."""
    if game is None:
        game = position.game.name if isinstance(position, State) else game_names()[0]
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
