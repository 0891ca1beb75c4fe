"""Sinomilia's one-round puzzles (data/sinomilia/puzzles.json): they load, each is a decision of
the player to move with a value for every legal move, the solver re-derives a sample exactly,
answers are graded with the values, and malformed ones are refused."""

import json

import pytest

from tabletop_lab.analysis.puzzles import (
    FORMAT_VERSION,
    MARGIN_DIFFICULTIES,
    Puzzle,
    check_answer,
    difficulty,
    load_puzzles,
    read_puzzles,
)
from tabletop_lab.errors import DataError
from tabletop_lab.games.sinomilia.solver import solve_round

#: Puzzles whose round is solved again: the smallest rounds (fewest cards, so a few seconds).
SAMPLE = 2


@pytest.fixture(scope="module")
def puzzles():
    return load_puzzles("sinomilia")


def test_at_least_fifty_proven_decisions_easiest_first(puzzles):
    assert len(puzzles) >= 50
    assert all((p.goal, p.label) == ("best", "proven") for p in puzzles)
    margins = [p.margin for p in puzzles]
    assert margins == sorted(margins, reverse=True) and margins[-1] >= 0.25
    assert {p.difficulty for p in puzzles} <= {name for name, _ in MARGIN_DIFFICULTIES}
    assert any(p.solution.startswith("set") for p in puzzles)  # the round's start: "what should you set?"


def test_every_puzzle_is_a_legal_decision_with_a_value_per_move(puzzles):
    for puzzle in puzzles:
        state = puzzle.state()
        mover = state.current_player()
        assert not state.is_terminal()
        assert set(puzzle.values) == set(state.legal_moves()) and puzzle.solution in state.legal_moves()
        assert puzzle.line == (puzzle.solution,)
        assert puzzle.refutations == {move: (move,) for move in puzzle.values if move != puzzle.solution}
        spent, budget = puzzle.source["spent"], puzzle.source["budget"]
        assert spent[mover] < budget[mover] and puzzle.depth >= 1
        assert puzzle.source["exploitability"] < 0.005 < 0.25 <= puzzle.margin
        # what a viewer shows: the mover's observation, the opponent's set card masked
        seen = state.observation(mover)
        assert seen["hands"][1 - mover] is None and seen["set"][1 - mover] in ("?", None)


def test_a_sample_is_re_derived_exactly_by_the_solver(puzzles):
    """The round solved again at the recorded budget and iterations gives the same values, so the
    same solution and margin; the opponent's card choices changed, the values stay (an information set)."""
    smallest = sorted(puzzles, key=lambda p: (sum(map(len, p.source["hands"])), p.source["seed"]))[:SAMPLE]
    for puzzle in smallest:
        source = puzzle.source
        solved = solve_round(
            *source["hands"],
            tuple(source["chips"]),
            tuple(source["budget"]),
            source["start_player"],
            source["iterations"],
        )
        assert round(solved.exploitability, 6) == source["exploitability"]
        decision = solved.decision(source["moves"])
        values = {move: round(value, 3) for move, value in zip(decision.moves, decision.values)}
        assert values == puzzle.values
        assert max(values, key=values.__getitem__) == puzzle.solution
        other = _other_hidden_card(source)
        if other is not None:
            assert solved.decision(other).values == decision.values


def _other_hidden_card(source):
    """The round's moves with the opponent's set card replaced by another of their hand, or
    ``None`` when the opponent has set nothing yet (the players alternate, the leader first)."""
    moves = source["moves"]
    mover = source["start_player"] if len(moves) % 2 == 0 else 1 - source["start_player"]
    index = 1 if len(moves) % 2 == 0 else 0  # where the opponent's set is
    if len(moves) <= index:
        return None
    card = int(moves[index].split()[1])
    spare = next(k for k in source["hands"][1 - mover] if k != card)
    return [*moves[:index], f"set {spare}", *moves[index + 1 :]]


def test_check_answer_grades_with_every_moves_value(puzzles):
    puzzle = puzzles[0]
    right = check_answer(puzzle, puzzle.solution)
    assert right.right and right.values == puzzle.values and right.value == max(puzzle.values.values())
    wrong_move = min(puzzle.values, key=puzzle.values.__getitem__)
    wrong = check_answer(puzzle, wrong_move)
    assert not wrong.right and wrong.line == (wrong_move,)
    assert wrong.value == puzzle.values[wrong_move] <= right.value - puzzle.margin + 1e-9
    with pytest.raises(ValueError):
        check_answer(puzzle, "set 10")


def test_difficulty_grades_by_margin():
    assert [difficulty(margin=m) for m in (4.8, 2.0, 1.2, 0.6, 0.3)] == ["easy", "easy", "medium", "hard", "expert"]


def test_a_puzzle_round_trips_and_the_other_games_store_no_values(puzzles):
    assert Puzzle.from_dict(puzzles[0].to_dict()) == puzzles[0]
    assert "values" not in load_puzzles("cross_endodoi")[0].to_dict()


def _entry():
    return load_puzzles("sinomilia")[0].to_dict()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: {k: v for k, v in d.items() if k != "values"}, "values must be given for goal best"),
        (
            lambda d: d | {"values": {move: "high" for move in d["values"]}},
            "values must be an object of move -> number",
        ),
        (lambda d: d | {"values": {d["solution"]: 1.0}}, "one number per move"),
        (lambda d: d | {"values": {move: 0.0 for move in d["values"]}}, "largest for the solution"),
        (lambda d: d | {"goal": "most"}, "goal must be win or save or best"),
    ],
)
def test_a_malformed_puzzle_is_refused_clearly(tmp_path, change, message):
    path = tmp_path / "puzzles.json"
    path.write_text(json.dumps({"game": "sinomilia", "format": FORMAT_VERSION, "puzzles": [change(_entry())]}))
    with pytest.raises(DataError, match=message) as caught:
        read_puzzles(path, "sinomilia")
    assert len(str(caught.value)) < 300
