"""Hints, the evaluation and the review of a game at one screen (``session.PlaySession``).

They run as the agents do, in a thread under the session's loop (``session_agents.SessionAgents._background``):

* ``hint()`` analyses the position for the human to move at a fixed budget (``hint_budget``:
  the expert's own divided by ``HINT_SHARE``, a few tenths of a second) and shows the best move
  (``hint_shown``); every hint shown is counted in the record (``GameRecord.hints``). With hidden
  information the analysis reads only what the player to move may see (its expert is
  information-set MCTS), and a hint is given only to the seat at the screen.
* ``set_evaluation(seat)`` shows, after each move, the win chance of ``seat``'s side from a
  smaller analysis (``evaluation_budget``). It is off by default: each evaluation is a search
  after every move, on machines whose cores the agents' searches use. It never starts while an
  agent thinks (the value after the agent's reply follows), and with hidden information it
  reads only the viewer's view (the position is redrawn from it when another seat is to move).
* ``review()``, once the game is over, reviews the record (``analysis.review`` at
  ``review_budget`` a position), counting the positions done (``review_progress``). With
  hidden information it is given only while all cards are shown: it reads every mover's view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from . import analysis
from .core import State

__all__ = ["Evaluation", "Hint", "SessionAnalysis"]


@dataclass(frozen=True)
class Hint:
    """The best move for the human to move (``player``) at the position after ``at`` actions:
    ``move`` a whole-move string, ``value`` its win chance for the player's side (exact when
    ``proven``)."""

    player: int
    at: int
    move: str
    value: float
    proven: bool


@dataclass(frozen=True)
class Evaluation:
    """The win chance ``value`` of seat ``seat``'s side at the position after ``at`` actions
    (``proven``: exact, as at the end of the game)."""

    seat: int
    at: int
    value: float
    proven: bool


class SessionAnalysis:
    """Hints, the evaluation and the review of a ``PlaySession`` (its part that asks
    ``tabletop_lab.analysis``; see the session module's docstring). A mixin: it reads the
    session's line, seats and agents, and runs its searches through ``_background``."""

    #: A hint's budget is the expert's own divided by this (at least ``HINT_MIN``): Cross-endodoi
    #: 12,500 simulations, Sinoda 5,000, Sygo and Capitals 2,500, Sinomilia 500; 0.1-0.5 s here.
    HINT_SHARE = 8
    HINT_MIN = 500
    #: The evaluation's budget: the expert's own divided by this (at least ``EVALUATION_MIN``), and
    #: its exact solver's node limit: 0.05-0.2 s a position here.
    EVALUATION_SHARE = 32
    EVALUATION_MIN = 200
    EVALUATION_NODES = 500
    #: The review's budget a position: the expert's own divided by this (at least ``REVIEW_MIN``),
    #: half a hint's: a game of 60 moves in some 5-20 s here.
    REVIEW_SHARE = 16
    REVIEW_MIN = 500

    # --- hints and the evaluation -------------------------------------------------------

    @property
    def hints(self) -> list[int]:
        """The actions played when each hint of this game was shown (one entry per hint; a hint
        still counts when its move is taken back)."""
        return list(self._hints)

    @property
    def hint_shown(self) -> Hint | None:
        """The hint for the position on screen, if one was asked for here."""
        return self._hint

    @property
    def hinting(self) -> bool:
        """True while a hint is being searched."""
        return self._hinting

    def hint_budget(self) -> int:
        """The expert's simulations a hint spends: its own budget over ``HINT_SHARE``."""
        return max(self.HINT_MIN, self._expert_budget() // self.HINT_SHARE)

    def evaluation_budget(self) -> int:
        """The expert's simulations an evaluation spends: its own budget over ``EVALUATION_SHARE``."""
        return max(self.EVALUATION_MIN, self._expert_budget() // self.EVALUATION_SHARE)

    def analysis_seed(self) -> int:
        """The seed of hints and evaluations: the session's (0 when it has none)."""
        return 0 if self.seed is None else self.seed

    def hint_refusal(self) -> str | None:
        """Why a hint cannot be given now, in words (``None``: it can)."""
        state = self._state
        if self.handing_over is not None:
            return f"hand the screen to {self.names(self.handing_over)}, who presses Ready first"
        if state.is_terminal():
            return "the game is over: there is no move to hint"
        if self._busy:
            return f"wait: {self.who(state.current_player())} is thinking"
        player = state.current_player()
        if self._agents[player] is not None:
            return f"a hint is for a human to move, and {self.who(player)} plays this seat"
        if state.mid_turn():
            return "a move is in progress: finish it or take it back (Undo), then ask for a hint"
        if self._hinting:
            return "a hint is being searched"
        if self.hint_shown is not None:
            return "the hint for this position is shown"
        return None

    def hint(self) -> None:
        """Search the best move for the human to move (``hint_budget`` simulations, seeded by
        ``analysis_seed``) and show it (``hint_shown``), counting it in the record; in a thread
        when the session has a loop. Raises ``ValueError`` saying why when no hint can be given."""
        refusal = self.hint_refusal()
        if refusal is not None:
            raise ValueError(f"no hint: {refusal}")
        state, epoch = self._state.clone(), self._epoch
        budget, seed = self.hint_budget(), self.analysis_seed()
        with self._change():
            self._hinting = True
            self._background(
                lambda: analysis.analyse(state, budget=budget, seed=seed),
                lambda found, error: self._hinted(epoch, state, found, error),
            )

    def _hinted(self, epoch: int, state: State, found: Any, error: BaseException | None) -> None:
        with self._change():
            self._hinting = False
            if error is None and epoch == self._epoch:
                at = len(state.history())
                self._hint = Hint(state.current_player(), at, found.best_move, found.value, found.proven)
                self._hints.append(at)
        if error is not None:
            self._report(error)

    def hint_text(self) -> str:
        """The hint in words ("Hint: 4 (win chance 62%)"), or that one is being searched."""
        if self._hinting:
            return "Hint: searching…"
        hint = self.hint_shown
        if hint is None:
            return ""
        return f"Hint: {hint.move} ({_chance(hint.value, hint.proven)})"

    @property
    def evaluation_seat(self) -> int | None:
        """The seat whose side's win chance the evaluation shows (``None``: the evaluation is off)."""
        return self._evaluation_seat

    @property
    def evaluation(self) -> Evaluation | None:
        """The evaluation of the position on screen, once its search is done."""
        found = self._evaluation
        if found is None or self._evaluation_key() != self._evaluated_key:
            return None
        return found

    def set_evaluation(self, seat: int | None) -> None:
        """Show the win chance of ``seat``'s side after every move (``None``: no evaluation)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.game.num_players):
            raise ValueError(f"evaluation seat must be 0..{self.game.num_players - 1} or None, got {seat!r}")
        if len(self.game.teams()) != 2 and seat is not None:
            raise ValueError(f"{self.game.name} has more than two sides: the evaluation shows two sides only")
        with self._change():
            self._evaluation_seat = seat
            self._evaluation = self._evaluated_key = None

    def evaluation_text(self) -> str:
        """The evaluation in words ("Evaluation: South 62%")."""
        seat = self._evaluation_seat
        if seat is None:
            return ""
        found = self.evaluation
        if found is None:
            return f"Evaluation ({self.names(seat)}): …"
        return f"Evaluation ({self.names(seat)}): {_chance(found.value, found.proven)}"

    def _evaluation_key(self) -> tuple | None:
        """What an evaluation now would be of: (seat, the actions played, viewer); ``None``: none now."""
        if self._evaluation_seat is None or self._state.mid_turn() or self.handing_over is not None:
            return None
        return (self._evaluation_seat, tuple(self._state.history()), self.viewer)

    def _evaluate(self) -> None:
        """Start the evaluation of the position on screen, if it is on and none is due or running
        for it; never while an agent thinks."""
        key = self._evaluation_key()
        if key is None or self._busy or self._evaluating == key or self.evaluation is not None:
            return
        seat, _, viewer = key
        state, seed = self._state.clone(), self.analysis_seed()
        if viewer is not None and not state.is_terminal() and state.current_player() != viewer:
            state = state.resample(viewer, random.Random(seed))  # only what the viewer may see
        self._evaluating = key
        budget = self.evaluation_budget()
        self._background(
            lambda: _side_value(state, seat, budget, seed, self.EVALUATION_NODES),
            lambda found, error: self._evaluated(key, found, error),
        )

    def _evaluated(self, key: tuple, found: Any, error: BaseException | None) -> None:
        if self._evaluating == key:
            self._evaluating = None
        if error is not None:
            self._report(error)
            return
        if key != self._evaluation_key():
            self._evaluate()  # the position changed meanwhile: evaluate the new one
            return
        with self._change():
            seat, history, _ = key
            self._evaluation, self._evaluated_key = Evaluation(seat, len(history), *found), key

    def review_budget(self) -> int:
        """The expert's simulations a review spends a position: its own budget over ``REVIEW_SHARE``."""
        return max(self.REVIEW_MIN, self._expert_budget() // self.REVIEW_SHARE)

    @property
    def review_shown(self) -> Any:
        """The review of the game on screen (``analysis.review``'s DataFrame), once made: shown
        while the line ends where the reviewed game did, at any position along it."""
        found = self._review
        if found is None or found[0] != tuple(self._line[-1].history()):
            return None
        return found[1]

    def reviewed_move(self) -> dict | None:
        """The review's row of the move played from the position on screen (its ``move``,
        ``played``, ``best_move``, ``label`` ...), when a review is shown and the screen is at a
        position before the end of the reviewed game, no move in progress."""
        frame = self.review_shown
        if frame is None or self._turn or self._pos + 1 >= len(self._line):
            return None
        rows = frame[frame["move"] == self._pos + 1]
        return None if rows.empty else rows.iloc[0].to_dict()

    @property
    def review_progress(self) -> tuple[int, int] | None:
        """(positions reviewed, positions to review) while a review runs, else ``None``."""
        return self._reviewing

    def review_refusal(self) -> str | None:
        """Why the game cannot be reviewed now, in words (``None``: it can)."""
        if self.handing_over is not None:
            return f"hand the screen to {self.names(self.handing_over)}, who presses Ready first"
        if not self._state.is_terminal():
            return "the review comes when the game is over"
        if self.viewer is not None:
            return "a review reads every player's cards: press Show all cards first"
        if self._reviewing is not None:
            return "the review is being made"
        if self.review_shown is not None:
            return "the review of this game is shown"
        return None

    def review(self) -> None:
        """Review the finished game (``analysis.review`` of ``record()``, ``review_budget``
        simulations a position, seeded by ``analysis_seed``) and show it (``review_shown``); in
        a thread when the session has a loop. Raises ``ValueError`` saying why it cannot."""
        refusal = self.review_refusal()
        if refusal is not None:
            raise ValueError(f"no review: {refusal}")
        record, key = self.record(), tuple(self._state.history())
        budget, seed = self.review_budget(), self.analysis_seed()

        def progress(done: int, total: int) -> None:
            self._on_loop(self._reviewed_part, done, total)

        with self._change():
            self._reviewing = (0, 0)
            self._background(
                lambda: analysis.review(record, budget=budget, seed=seed, progress=progress),
                lambda frame, error: self._reviewed(key, frame, error),
            )

    def _reviewed_part(self, done: int, total: int) -> None:
        """Count a position reviewed; the screen hears of every tenth part of the review only."""
        step = max(1, total // 10)
        if self._reviewing is not None and (done % step == 0 or done == total):
            with self._change():
                self._reviewing = (done, total)

    def _reviewed(self, key: tuple, frame: Any, error: BaseException | None) -> None:
        with self._change():
            self._reviewing = None
            if error is None:
                self._review = (key, frame)
        if error is not None:
            self._report(error)

    def review_text(self) -> str:
        """The review in words: its progress, or each side's mistakes and blunders."""
        if self._reviewing is not None:
            done, total = self._reviewing
            return f"Reviewing: {done} of {total} positions…" if total else "Reviewing…"
        frame = self.review_shown
        if frame is None:
            return ""
        row = self.reviewed_move()
        if row is not None:
            return self._reviewed_move_text(row)
        if self._pos + 1 < len(self._line) or self._turn:
            return ""
        parts = []
        for seat in range(self.game.num_players):
            labels = list(frame.loc[frame["player"] == seat, "label"])
            counts = [f"{labels.count(label)} {label}{'' if labels.count(label) == 1 else 's'}" for label in _MARKED]
            parts.append(f"{self.names(seat)}: {', '.join(counts)}")
        return "Review: " + "; ".join(parts)

    def _better_move(self) -> str:
        """The review's best move at the position on screen when the move played was not it."""
        row = self.reviewed_move()
        if row is None or row["label"] is None or row["played"] == row["best_move"] or not row["loss"] > 0:
            return ""
        return row["best_move"]

    def _reviewed_move_text(self, row: dict) -> str:
        """A reviewed move in words: "Move 12, South played 4: a mistake (it lost 15% of the
        win chance); better 5 (win chance 70%)"."""
        text = f"Move {row['move']}, {self.names(int(row['player']))} played {row['played']}"
        if row["label"] is None:
            return text + ": not valued"
        if row["played"] == row["best_move"] or row["loss"] < 0.005:
            return text + f": {_article(row['label'])} ({_chance(row['best_value'], bool(row['proven']))})"
        loss = f"it lost {round(100 * row['loss'])}% of the win chance"
        better = f"better {row['best_move']} ({_chance(row['best_value'], bool(row['proven']))})"
        return text + f": {_article(row['label'])} ({loss}); {better}"

    def _expert_budget(self) -> int:
        return analysis.expert_budget(self._line[0])


def _side_value(state: State, seat: int, budget: int, seed: int, nodes: int) -> tuple[float, bool]:
    """The win chance of ``seat``'s side at ``state`` (two sides) and whether it is exact: the
    result at the end of the game, else ``analyse``'s value turned to that side."""
    if state.is_terminal():
        return (state.result().returns()[seat] + 1) / 2, True
    found = analysis.analyse(state, budget=budget, seed=seed, nodes=nodes)
    value = found.value if seat in found.side else 1 - found.value
    return value, found.proven


#: The review labels its summary counts.
_MARKED = ("mistake", "blunder")


def _article(label: str) -> str:
    """A review label as a phrase: "the best move", "a good move", "an inaccuracy", "a mistake"."""
    return {"best": "the best move", "good": "a good move", "inaccuracy": "an inaccuracy"}.get(label, f"a {label}")


def _chance(value: float, proven: bool) -> str:
    """A win chance in words: "win chance 62%", or the proven result."""
    if proven and value in (0.0, 0.5, 1.0):
        return {1.0: "a forced win", 0.5: "a forced draw", 0.0: "a forced loss"}[value]
    return f"win chance {round(100 * value)}%"
