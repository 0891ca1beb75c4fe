"""The Puzzles app's widget driven in Python: a puzzle answered by clicks on the board, right
and wrong, its line then played out on the board; a difficulty with no puzzles; the seeded order."""

from __future__ import annotations

import asyncio

import pytest

from tabletop_lab.analysis.puzzles import load_puzzles
from tabletop_lab.widgets import PuzzleBoard
from tabletop_lab.widgets.puzzles import ANSWERED, puzzle_games


def click_move(board, move: str) -> None:
    """Make ``move`` as a person does: click each action's cells, or press its button."""
    for action in board.session.actions_of(move):
        cells = board.adapter.action_cells(board.state, action)
        for cell in cells:
            board.click_cell(cell)
        if not cells:
            labels = {a: label for label, a in board._button_actions.items()}
            board.press(labels[action])


def test_every_game_with_puzzles_is_offered():
    assert {"cross_endodoi", "sinoda", "capitals", "sygo", "sinomilia"} <= set(puzzle_games())
    puzzles = PuzzleBoard()
    assert [name for _, name in puzzles.game_picker.options] == puzzle_games()
    easy = len(puzzles.puzzles("cross_endodoi", "easy"))
    assert puzzles.difficulty_picker.options[0] == (f"easy ({easy})", "easy")


@pytest.mark.parametrize("game", ["cross_endodoi", "sinoda"])
def test_the_solution_clicked_is_right_and_its_line_is_played_out(game):
    puzzles = PuzzleBoard(game, "easy")
    puzzle, board = puzzles.puzzle, puzzles.board
    mover = board.adapter.player_name(puzzle.state().current_player())
    assert puzzles.task.value.startswith(f"{mover} to move and ")
    assert f"Difficulty easy ({puzzle.depth} ply" in puzzles.task.value
    assert board.session.line[0].key() == puzzle.state().key() and board.errors.text == ""
    click_move(board, puzzle.solution)
    assert board.errors.text == "" and puzzles.verdict.right
    assert puzzles.verdict_text.value.startswith(f"Right: {puzzle.solution} ")
    assert board.session.move_strings() == list(puzzle.line) and board.session.pos == len(puzzle.line)
    board.session.jump(0)  # the move list walks the line; the board takes no more moves
    click_move(board, puzzle.solution)
    assert ANSWERED in board.errors.text and board.session.move_strings() == list(puzzle.line)


def test_a_wrong_move_is_told_wrong_and_its_refutation_is_played_out():
    puzzles = PuzzleBoard("cross_endodoi", "medium")
    puzzle, board = puzzles.puzzle, puzzles.board
    wrong = next(move for move in puzzle.refutations if move != puzzle.solution)
    click_move(board, wrong)
    refutation = puzzle.refutations[wrong]
    assert not puzzles.verdict.right and puzzles.verdict.line == refutation
    text = puzzles.verdict_text.value
    result = "does not win" if puzzle.goal == "win" else "loses"
    mover = board.adapter.player_name(puzzle.state().current_player())
    assert text.startswith(f"Wrong: {wrong} {result}. The refutation: {mover} {wrong}, ")
    assert board.session.move_strings() == list(refutation) and board.session.pos == len(refutation)
    moves = [label for label, _ in board.moves.options]
    assert len(moves) == len(refutation) + 1 and moves[1].endswith(f": {wrong}")

    puzzles.try_again()  # the puzzle again, unanswered
    assert puzzles.verdict is None and puzzles.verdict_text.value == ""
    assert board.session.move_strings() == [] and board.session.line[0].key() == puzzle.state().key()
    puzzles.play(puzzle.solution)
    assert puzzles.verdict.right
    with pytest.raises(ValueError, match="answered"):
        puzzles.play(puzzle.solution)


def test_show_solution_plays_the_winning_line_from_the_start():
    puzzles = PuzzleBoard("sygo", "medium")
    puzzle, board = puzzles.puzzle, puzzles.board
    puzzles.solution_button.click()
    assert puzzles.errors.text == "" and puzzles.verdict is None
    mover = board.adapter.player_name(puzzle.state().current_player())
    assert puzzles.verdict_text.value.startswith(f"The solution: {mover} {puzzle.solution}")
    assert board.session.move_strings() == list(puzzle.line) and board.session.pos == len(puzzle.line)
    assert not board.session.playable()


def test_a_difficulty_without_puzzles_says_so_and_nothing_breaks():
    offered = {"cross_endodoi": [p for p in load_puzzles("cross_endodoi") if p.difficulty == "easy"]}
    puzzles = PuzzleBoard(puzzles=offered)
    assert puzzles.difficulty == "easy" and puzzles.puzzle is not None
    puzzles.difficulty_picker.value = "hard"
    assert puzzles.puzzle is None and puzzles.board is None and puzzles.board_box.children == ()
    assert puzzles.task.value == "No hard puzzles for Cross-endodoi yet: pick another difficulty."
    assert ("hard (0)", "hard") in puzzles.difficulty_picker.options
    assert all(b.disabled for b in (puzzles.next_button, puzzles.solution_button, puzzles.again_button))
    with pytest.raises(ValueError, match="no hard puzzles for Cross-endodoi yet"):
        puzzles.next()
    puzzles.choose(difficulty="easy")
    assert puzzles.puzzle == puzzles.puzzles()[0] and puzzles.board_box.children == (puzzles.board,)
    assert PuzzleBoard(puzzles=offered, difficulty="expert").puzzle is None


def test_the_order_is_the_seeds_and_next_and_previous_walk_it():
    first, again, other = PuzzleBoard(seed=1), PuzzleBoard(seed=1), PuzzleBoard(seed=2)
    assert first.puzzles("sinoda", "easy") == again.puzzles("sinoda", "easy")
    assert first.puzzles("sinoda", "easy") != other.puzzles("sinoda", "easy")
    order = first.puzzles()
    first.next()
    assert first.puzzle == order[1] and first.counter.value == f"Puzzle 2 of {len(order)}"
    first.previous()
    first.previous()
    assert first.puzzle == order[-1]


def test_a_sinomilia_puzzle_is_seen_by_the_mover_and_told_with_every_moves_value():
    puzzles = PuzzleBoard("sinomilia", "easy")
    puzzle, board = puzzles.puzzle, puzzles.board
    mover = puzzle.state().current_player()
    assert board.session.viewer == mover  # the opponent's card stays hidden
    assert "find the best move this round, in expected chips" in puzzles.task.value
    assert f"beats the next by {puzzle.margin:.2f} chips" in puzzles.task.value
    click_move(board, puzzle.solution)
    best = puzzle.values[puzzle.solution]
    assert puzzles.verdict.right and puzzles.verdict_text.value.startswith(
        f"Right. {puzzle.solution} gains {best:+.2f} chips expected this round. Every move: "
    )
    puzzles.try_again()
    other = next(move for move in puzzle.refutations)
    click_move(puzzles.board, other)
    assert not puzzles.verdict.right and puzzles.verdict_text.value.startswith(
        f"Wrong: the best is {puzzle.solution}. {other} gains {puzzle.values[other]:+.2f} chips"
    )
    assert puzzles.board.session.move_strings() == [other] and puzzles.errors.text == ""


def test_a_link_opens_its_game_and_difficulty_and_a_bad_one_says_why():
    linked = PuzzleBoard.from_query("game=sygo&difficulty=hard", "cross_endodoi")
    assert (linked.game, linked.difficulty) == ("sygo", "hard") and linked.puzzle.difficulty == "hard"
    plain = PuzzleBoard.from_query("", "sinoda")
    assert plain.game == "sinoda" and plain.errors.text == ""
    bad = PuzzleBoard.from_query("game=sygo&difficulty=trivial", "cross_endodoi")
    assert bad.game == "cross_endodoi" and bad.errors.text.startswith(
        "this link cannot be opened: difficulty must be one of easy, medium, hard, expert"
    )


def test_bad_choices_are_refused_in_words():
    with pytest.raises(ValueError, match="no puzzles for 'sygo'; games with puzzles: cross_endodoi"):
        PuzzleBoard("sygo", puzzles={"cross_endodoi": load_puzzles("cross_endodoi")})
    puzzles = PuzzleBoard()
    with pytest.raises(ValueError, match="difficulty must be one of easy, medium, hard, expert, got 'trivial'"):
        puzzles.choose(difficulty="trivial")
    with pytest.raises(ValueError, match="holds a puzzle of 'sygo'"):
        PuzzleBoard(puzzles={"cross_endodoi": load_puzzles("sygo")})


def test_under_an_event_loop_the_line_is_stepped_move_by_move():
    async def play() -> list[int]:
        puzzles = PuzzleBoard("cross_endodoi", "hard")
        puzzles.STEP_SECONDS = 0
        board, puzzle = puzzles.board, puzzles.puzzle
        wrong = next(iter(puzzle.refutations))
        puzzles.play(wrong)
        seen = [board.session.pos]
        for _ in range(50):  # loop turns, not seconds: each step is due at once
            await asyncio.sleep(0)
            if board.session.pos != seen[-1]:
                seen.append(board.session.pos)
        return seen, len(puzzle.refutations[wrong])

    seen, length = asyncio.run(play())
    assert seen == list(range(1, length + 1))


def test_the_board_is_the_play_boards_picture_and_input_without_its_controls():
    board = PuzzleBoard().board

    def shown(widget):
        yield widget
        for child in getattr(widget, "children", ()):
            yield from shown(child)

    parts = list(shown(board))
    assert board.figure.canvas in parts and board.moves in parts and board.action_buttons in parts
    hidden = (board.undo_button, board.seat_row, board.hint_button, board.position_text, board.evaluation_panel)
    assert not any(part in parts for part in hidden)
