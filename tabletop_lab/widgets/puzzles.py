"""Puzzles on a board: pick a game and a difficulty, play the move, see why it is right or wrong.

``PuzzleBoard`` shows one puzzle of ``analysis.puzzles`` at a time on a ``Board`` (the Play
app's, without its controls), so the move is drawn and played by clicks exactly as in the Play
app, through the game's board adapter. Once a move is played, ``check_answer`` grades it and
the board plays out the line that shows why: the winning line when right, the refutation when
wrong. A puzzle of one round valued in expected chips (goal ``"best"``, Sinomilia's) is told
with every move's value instead, and the board shows the move played. Under a running event loop (Jupyter, Voila) the line's moves follow each other every
``STEP_SECONDS``; without one (scripts, tests) the board goes to the line's end at once. The line
is also listed in words, and the board's move list walks back and forth along it; further moves
are refused (``PlaySession.lock``) until "Try again" or another puzzle.

The puzzles of each game and difficulty come in an order shuffled from ``seed``: the same seed,
the same order, and no state outside the widget. One Board is made per game and kept (widgets
are costly to make); a game with hidden information is shown from the side to move
(``Board(viewer=...)``), as such a puzzle asks what that player should do with what they see.
"""

from __future__ import annotations

import html
import random
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets

from ..analysis.puzzles import DIFFICULTIES, Puzzle, Verdict, check_answer, load_puzzles
from ..data import data_path
from ..registry import game_class, game_names
from .board import Board
from .controls import ErrorLog, guarded

__all__ = ["PuzzleBoard", "puzzle_games"]

#: What a click on the board says once the puzzle is answered.
ANSWERED = "This puzzle is answered: press Try again, or pick another puzzle"


def puzzle_games() -> list[str]:
    """The games that ship puzzles (``data/<game>/puzzles.json``), in menu order."""
    return [name for name in game_names() if data_path(name, "puzzles.json").exists()]


class PuzzleBoard(widgets.VBox):
    """The Puzzles app's widget (CSS class ``tl-puzzles``); see the module's docstring.

    ``game``: the game shown first (default: the first with puzzles); ``difficulty``: one of
    ``DIFFICULTIES`` (default: the game's easiest that has puzzles); ``seed``: the order;
    ``puzzles``: the puzzles offered, by game (default: every game's shipped ones), for a lesson
    that shows a few.

    Programmatic use: ``choose(game, difficulty)``, ``next()``, ``previous()``, ``play(move)``
    (as clicks would), ``show_solution()``, ``try_again()``; ``puzzle`` (``None`` when the
    difficulty has none), ``verdict`` (after a move), ``board`` (the Board shown).
    """

    STEP_SECONDS = 0.8  # between the moves of a line played out

    def __init__(
        self,
        game: str | None = None,
        difficulty: str | None = None,
        *,
        seed: int = 0,
        puzzles: dict[str, list[Puzzle]] | None = None,
    ):
        super().__init__()
        self.add_class("tl-puzzles")
        self.seed = seed
        self._puzzles = {name: load_puzzles(name) for name in puzzle_games()} if puzzles is None else dict(puzzles)
        if not self._puzzles:
            raise ValueError("no puzzles to show: no game ships data/<game>/puzzles.json, or puzzles is empty")
        for name, offered in self._puzzles.items():
            strays = [puzzle.game for puzzle in offered if puzzle.game != name]
            if strays:
                raise ValueError(f"puzzles[{name!r}] holds a puzzle of {strays[0]!r}")
        self._boards: dict[str, Board] = {}
        self.game = game if game is not None else next(iter(self._puzzles))
        self.difficulty = difficulty or ""
        self.index = 0
        self.puzzle: Puzzle | None = None
        self.verdict: Verdict | None = None
        self._done = False  # answered, or the solution shown: the board's moves are for looking at
        self._playing = 0  # raised whenever a line being played out must stop
        self._syncing = False
        self.errors = ErrorLog()
        self.game_picker = widgets.Dropdown(
            options=[(game_class(name).info.title, name) for name in self._puzzles], description="Game"
        )
        self.game_picker.add_class("tl-puzzle-game")
        self.game_picker.observe(lambda change: self._pick(change["new"], None), names="value")
        self.difficulty_picker = widgets.Dropdown(description="Difficulty")
        self.difficulty_picker.add_class("tl-puzzle-difficulty")
        self.difficulty_picker.observe(lambda change: self._pick(None, change["new"]), names="value")
        self.previous_button = _button("‹ Previous", "tl-puzzle-previous", lambda: self._ui(self.previous))
        self.next_button = _button("Next puzzle ›", "tl-puzzle-next", lambda: self._ui(self.next))
        self.solution_button = _button("Show solution", "tl-puzzle-solution", lambda: self._ui(self.show_solution))
        self.again_button = _button("Try again", "tl-puzzle-again", lambda: self._ui(self.try_again))
        self.counter = _text("tl-puzzle-count")
        self.task = _text("tl-puzzle-task")
        self.verdict_text = _text("tl-verdict")
        self.board_box = widgets.VBox()
        self.children = [
            widgets.HBox([self.game_picker, self.difficulty_picker, self.counter]),
            widgets.HBox([self.previous_button, self.next_button, self.solution_button, self.again_button]),
            self.task,
            self.verdict_text,
            self.board_box,
            self.errors,
        ]
        self.choose(self.game, difficulty)

    @classmethod
    def from_query(cls, query: str, game: str | None = None, **kwargs: Any) -> PuzzleBoard:
        """The widget a link opens (``?game=sygo&difficulty=hard``, the page's ``page_query()``):
        its game and difficulty, each by default ``game`` and the game's easiest; ``kwargs`` as
        for ``PuzzleBoard``. A link naming a game or difficulty it has not opens the defaults and
        says what is wrong in ``errors``."""
        fields = parse_qs(query)
        linked = {name: fields[name][-1] for name in ("game", "difficulty") if fields.get(name)}
        try:
            return cls(linked.get("game", game), linked.get("difficulty"), **kwargs)
        except ValueError as exc:
            puzzles = cls(game, **kwargs)
            puzzles.errors.show(f"this link cannot be opened: {exc}")
            return puzzles

    @property
    def board(self) -> Board | None:
        """The board of the puzzle shown (``None`` when the difficulty has no puzzles)."""
        return self._boards.get(self.game) if self.puzzle is not None else None

    def puzzles(self, game: str | None = None, difficulty: str | None = None) -> list[Puzzle]:
        """The puzzles of ``game`` at ``difficulty`` (default: those shown), in the seed's order."""
        game, difficulty = game or self.game, difficulty or self.difficulty
        chosen = [puzzle for puzzle in self._puzzles[game] if puzzle.difficulty == difficulty]
        random.Random(f"{self.seed}/{game}/{difficulty}").shuffle(chosen)
        return chosen

    def choose(self, game: str | None = None, difficulty: str | None = None) -> None:
        """Show the first puzzle of ``game`` at ``difficulty`` (each by default the one shown; at
        first, the game's easiest difficulty that has puzzles). A difficulty without puzzles says
        so. Raises ``ValueError`` for a game without puzzles or an unknown difficulty."""
        game = self.game if game is None else game
        if game not in self._puzzles:
            raise ValueError(f"no puzzles for {game!r}; games with puzzles: {', '.join(self._puzzles)}")
        names = [name for name, _ in DIFFICULTIES]
        if difficulty is None:
            difficulty = self.difficulty or next((n for n in names if self.puzzles(game, n)), names[0])
        if difficulty not in names:
            raise ValueError(f"difficulty must be one of {', '.join(names)}, got {difficulty!r}")
        self.game, self.difficulty, self.index = game, difficulty, 0
        self._syncing = True
        try:
            self.game_picker.value = game
            self.difficulty_picker.options = [(f"{n} ({len(self.puzzles(game, n))})", n) for n in names]
            self.difficulty_picker.value = difficulty
        finally:
            self._syncing = False
        self._show()

    def next(self) -> None:
        """The next puzzle of this game and difficulty (after the last, the first again)."""
        self._move_by(+1)

    def previous(self) -> None:
        """The puzzle before (before the first, the last)."""
        self._move_by(-1)

    def play(self, move: str) -> None:
        """Play ``move`` (a whole move) on the board, as clicks would: it is graded at once;
        ``ValueError`` once the puzzle is answered."""
        board = self._shown_board()
        board.session.check_can_play()
        board.play(move)

    def show_solution(self) -> None:
        """Play out the winning line from the puzzle's position, its moves listed in words."""
        board, puzzle = self._shown_board(), self.puzzle
        self._done = True
        self.verdict_text.value = html.escape("The solution: " + self._words(puzzle.line))
        self._play_out(board, puzzle.line, at=0)

    def try_again(self) -> None:
        """Put the puzzle back on the board, unanswered."""
        self._shown_board()
        self._show()

    # --- internals -------------------------------------------------------------------------

    def _shown_board(self) -> Board:
        if self.board is None:
            raise ValueError(self._none())
        return self.board

    def _move_by(self, step: int) -> None:
        count = len(self.puzzles())
        if not count:
            raise ValueError(self._none())
        self.index = (self.index + step) % count
        self._show()

    def _show(self) -> None:
        """Show puzzle ``index`` of the chosen game and difficulty, unanswered."""
        self._playing += 1
        self.verdict, self._done = None, True  # until the puzzle is on the board: no answer yet
        self.verdict_text.value = ""
        puzzles = self.puzzles()
        for button in (self.previous_button, self.next_button, self.solution_button, self.again_button):
            button.disabled = not puzzles
        if not puzzles:
            self.puzzle = None
            self.counter.value = ""
            none = self._none()
            self.task.value = html.escape(none[0].upper() + none[1:] + ".")
            self.board_box.children = []
            return
        self.puzzle = puzzle = puzzles[self.index]
        board, game = self._board_for(puzzle), puzzle.state().game
        if board.game != game:  # other rule options: the board redraws for them
            board.session.new_game(game)
        board.load(puzzle.position)
        self._done = False
        board.session.lock("")
        self.counter.value = f"Puzzle {self.index + 1} of {len(puzzles)}"
        self.task.value = html.escape(self._task(board, puzzle))
        self.board_box.children = [board]

    def _board_for(self, puzzle: Puzzle) -> Board:
        """The game's board, made the first time (a hidden-information game seen by the mover)."""
        if puzzle.game not in self._boards:
            state = puzzle.state()
            viewer = None if state.game.info.perfect_information else state.current_player()
            board = Board(state.game, position=state, viewer=viewer, controls=False)
            board.session.subscribe(lambda: self._on_session(board))
            self._boards[puzzle.game] = board
        return self._boards[puzzle.game]

    def _task(self, board: Board, puzzle: Puzzle) -> str:
        mover = board.adapter.player_name(puzzle.state().current_player())
        if puzzle.goal == "best":  # a decision of one round, valued in expected chips (Sinomilia)
            budget, spent = puzzle.source.get("budget"), puzzle.source.get("spent")
            limit = f"; each player may spend at most {budget[0]} chips on Actions this round" if budget else ""
            if spent and any(spent):
                names = (board.adapter.player_name(p) for p in range(len(spent)))
                limit += " (spent so far: " + ", ".join(f"{n} {k}" for n, k in zip(names, spent)) + ")"
            return (
                f"{mover} to move: find the best move this round, in expected chips{limit}. "
                f"Difficulty {puzzle.difficulty} (the best beats the next by {puzzle.margin:.2f} chips); "
                "proven: every move's value solved exactly for the round."
            )
        goal = "to move and win" if puzzle.goal == "win" else "to move: save the game (every other move loses)"
        how = (
            "proven: every move solved exactly"
            if puzzle.label == "proven"
            else "search-verified: no other move was found to win at the search's budget"
        )
        plies = f"{puzzle.depth} {'ply' if puzzle.depth == 1 else 'plies'}"
        return f"{mover} {goal}. Difficulty {puzzle.difficulty} ({plies}); {how}."

    def _on_session(self, board: Board) -> None:
        """The board changed: its first move, once played, is the answer."""
        if board is not self.board or self._done or not board.session.move_strings():
            return
        self._done = True
        move = board.session.move_strings()[0]
        self.verdict = verdict = check_answer(self.puzzle, move)
        if verdict.values is not None:  # every move valued: say what each is worth
            worth = ", ".join(f"{m} {v:+.2f}" for m, v in sorted(verdict.values.items(), key=lambda mv: -mv[1]))
            verdict_word = "Right" if verdict.right else f"Wrong: the best is {self.puzzle.solution}"
            self.verdict_text.value = html.escape(
                f"{verdict_word}. {move} gains {verdict.value:+.2f} chips expected this round. Every move: {worth}."
            )
            self._play_out(board, verdict.line, at=1)
            return
        if verdict.right:
            result = "wins" if self.puzzle.goal == "win" else "saves the game"
            text = f"Right: {move} {result}. The line: "
        else:
            result = "loses" if self.puzzle.goal == "save" else "does not win"
            text = f"Wrong: {move} {result}. The refutation: "
        self.verdict_text.value = html.escape(text + self._words(verdict.line))
        self._play_out(board, verdict.line, at=1)

    def _play_out(self, board: Board, line: tuple[str, ...], at: int) -> None:
        """Put ``line`` on the board from the puzzle's position, shown from move ``at`` on and
        stepped to its end (at once without an event loop); the board takes no moves meanwhile."""
        self._playing += 1
        token, session = self._playing, board.session
        session.lock(ANSWERED)
        session.replay(list(line), at)
        if session.loop is None:
            session.jump(len(line))
            return

        def step() -> None:
            if token != self._playing or session.pos >= len(line):
                return
            try:
                session.jump(session.pos + 1)
            except ValueError as exc:
                self.errors.report(exc)
                return
            session.loop.call_later(self.STEP_SECONDS, step)

        session.loop.call_later(self.STEP_SECONDS, step)

    def _words(self, line: tuple[str, ...]) -> str:
        """``line`` from the puzzle's position in words: each move with its mover, then the result."""
        adapter, state = self._boards[self.game].adapter, self.puzzle.state()
        said = []
        for move in line:
            said.append(f"{adapter.player_name(state.current_player())} {move}")
            state.apply_move(move)
        end = f". {adapter.result_words(state).rstrip('.')}." if state.is_terminal() else "."
        return ", ".join(said) + end

    def _none(self) -> str:
        title = game_class(self.game).info.title
        return f"no {self.difficulty} puzzles for {title} yet: pick another difficulty"

    @guarded
    def _pick(self, game: str | None, difficulty: str | None) -> None:
        if not self._syncing:
            self.choose(game, difficulty)

    @guarded
    def _ui(self, action: Any) -> None:
        action()


def _button(text: str, css: str, action: Any) -> widgets.Button:
    """A text-only button (no icons: Font Awesome is missing offline)."""
    button = widgets.Button(description=text, layout=widgets.Layout(width="auto"))
    button.add_class(css)
    button.on_click(lambda _button: action())
    return button


def _text(css: str) -> widgets.HTML:
    """A line of text that wraps (unlike a Label), with a CSS class for tests."""
    text = widgets.HTML(layout=widgets.Layout(max_width="820px"))
    text.add_class(css)
    return text
