"""The shipped puzzles (data/<game>/puzzles.json): they load, their positions and lines are
legal, a sample's uniqueness is proved again, and answers are graded; malformed files are refused."""

import json

import pytest

from tabletop_lab.analysis import puzzles as puzzles_module
from tabletop_lab.analysis.puzzles import (
    FORMAT_VERSION,
    Puzzle,
    check_answer,
    difficulty,
    load_puzzles,
    prove_unique,
    read_puzzles,
)
from tabletop_lab.analysis.solver import Solver
from tabletop_lab.data import data_path
from tabletop_lab.errors import DataError

GAMES = [g for g in ("cross_endodoi", "sinoda", "capitals", "sygo") if data_path(g, "puzzles.json").exists()]
#: Puzzles re-proved per game, the easiest (the file is sorted by depth), and the solver's node limit for it.
SAMPLE = 3
NODES = 20_000


def _settings(game):
    return json.loads(data_path(game, "puzzles.json").read_text())["settings"]


def test_the_first_games_ship_puzzles():
    assert "cross_endodoi" in GAMES and "sinoda" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_shipped_puzzles_load_and_their_lines_are_legal(game):
    puzzles = load_puzzles(game)
    assert len(puzzles) >= 1
    depths = [p.depth for p in puzzles]
    assert depths == sorted(depths)
    for puzzle in puzzles:
        state = puzzle.state()
        assert not state.is_terminal() and not state.mid_turn()
        moves = state.legal_moves(limit=None) if len(puzzle.refutations) < 200 else None
        if moves is not None:
            assert puzzle.solution in moves
            assert set(puzzle.refutations) == set(moves) - {puzzle.solution}
        for line in [puzzle.line, *puzzle.refutations.values()]:
            played = state.clone()
            for move in line:
                assert not played.is_terminal()
                played.apply_move(move)
        assert puzzle.line[0] == puzzle.solution
        assert all(line[0] == move for move, line in puzzle.refutations.items())


@pytest.mark.parametrize("game", GAMES)
def test_a_sample_of_proven_puzzles_is_proved_again(game):
    proven = [p for p in load_puzzles(game) if p.label == "proven"][:SAMPLE]
    for puzzle in proven:
        proof = prove_unique(puzzle.state(), NODES, Solver(puzzle.state().game))
        assert proof is not None, puzzle.position
        assert (proof.solution, proof.goal, proof.label) == (puzzle.solution, puzzle.goal, "proven")
        assert proof.bounds[puzzle.solution].depth == puzzle.depth or puzzle.goal == "save"


@pytest.mark.parametrize("game", [g for g in GAMES if _settings(g).get("mate")])
def test_a_sample_of_mate_search_puzzles_is_verified_again(game):
    """The deep search-verified puzzles the mate search made, verified again at the file's settings."""
    settings = _settings(game)
    deep = [p for p in load_puzzles(game) if p.label == "search-verified" and p.depth >= 3][:SAMPLE]
    assert deep
    for puzzle in deep:
        state = puzzle.state()
        proof = prove_unique(
            state,
            settings["nodes"],
            Solver(state.game),
            settings["margin"],
            settings["mate"],
            mate_nodes=settings["mate_nodes"],
        )
        assert proof is not None, puzzle.position
        assert (proof.solution, proof.label, proof.bounds[puzzle.solution].depth) == (
            puzzle.solution,
            "search-verified",
            puzzle.depth,
        )


@pytest.mark.parametrize("game", GAMES)
def test_a_win_within_three_plies_by_brute_force(game):
    """The first puzzle won within three plies: after the solution, whatever the other side
    plays (every whole move, by the engine alone), a move that ends the game won follows; and
    no move wins at once (else it would be a one-ply puzzle)."""
    puzzle = next((p for p in load_puzzles(game) if p.depth == 3 and p.goal == "win"), None)
    if puzzle is None:
        pytest.skip(f"{game} has no puzzle won within three plies")
    state = puzzle.state()
    mover = state.current_player()
    side = state.game.team_of(mover)

    def won(after):
        return after.is_terminal() and after.returns()[mover] > 0  # a team shares its return

    def wins_within(after, plies):
        if after.is_terminal() or plies == 0:
            return won(after)
        results = (wins_within(_after(after, move), plies - 1) for move in after.legal_moves(limit=None))
        return any(results) if after.game.team_of(after.current_player()) == side else all(results)

    assert wins_within(_after(state, puzzle.solution), 2)
    assert not any(won(_after(state, move)) for move in [puzzle.solution, *puzzle.refutations])


def _after(state, move):
    after = state.clone()
    after.apply_move(move)
    return after


@pytest.mark.parametrize("game", GAMES)
def test_the_quickest_puzzles_by_brute_force(game):
    """A puzzle won within one ply: the solution ends the game won, no other move does (by the engine alone)."""
    quick = [p for p in load_puzzles(game) if p.depth == 1 and p.goal == "win"][:SAMPLE]
    for puzzle in quick:
        state = puzzle.state()
        mover = state.current_player()
        for move in [puzzle.solution, *puzzle.refutations]:
            after = state.clone()
            after.apply_move(move)
            won = after.is_terminal() and after.returns()[mover] > 0
            assert won == (move == puzzle.solution), (puzzle.position, move)


@pytest.mark.parametrize("game", GAMES)
def test_check_answer(game):
    puzzle = load_puzzles(game)[0]
    right = check_answer(puzzle, puzzle.solution)
    assert right.right and right.line == puzzle.line
    wrong_move, refutation = next(iter(puzzle.refutations.items()))
    wrong = check_answer(puzzle, wrong_move)
    assert not wrong.right and wrong.line == refutation and wrong.move == wrong_move


def test_check_answer_refuses_an_illegal_move():
    puzzle = load_puzzles("cross_endodoi")[0]
    with pytest.raises(ValueError):
        check_answer(puzzle, "99")


def test_difficulty_grades_by_depth():
    assert [difficulty(d) for d in (1, 2, 3, 5, 6, 40)] == ["easy", "medium", "medium", "hard", "expert", "expert"]


def _write(tmp_path, document):
    path = tmp_path / "puzzles.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def _good():
    entry = load_puzzles("cross_endodoi")[0].to_dict()
    return {"game": "cross_endodoi", "format": FORMAT_VERSION, "puzzles": [entry]}


def test_a_puzzle_round_trips_through_its_dict():
    puzzle = load_puzzles("cross_endodoi")[0]
    assert Puzzle.from_dict(puzzle.to_dict()) == puzzle


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: "{not json", "not JSON"),
        (lambda d: {"game": "cross_endodoi"}, "'puzzles' list"),
        (lambda d: d | {"format": 99}, "format 99"),
        (lambda d: d | {"game": "sygo"}, "not cross_endodoi"),
        (lambda d: d | {"puzzles": [{"game": "cross_endodoi"}]}, "missing options"),
        (lambda d: d | {"puzzles": [d["puzzles"][0] | {"label": "likely"}]}, "label must be"),
        (lambda d: d | {"puzzles": [d["puzzles"][0] | {"depth": 0}]}, "depth must be"),
        (lambda d: d | {"puzzles": [d["puzzles"][0] | {"line": "5"}]}, "line must be"),
        (lambda d: d | {"puzzles": [7]}, "a JSON object"),
    ],
)
def test_a_malformed_file_is_refused_clearly(tmp_path, change, message):
    path = _write(tmp_path, change(_good()))
    with pytest.raises(DataError, match=message) as caught:
        read_puzzles(path, "cross_endodoi")
    assert len(str(caught.value)) < 300


def test_a_game_without_puzzles_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(puzzles_module, "data_path", lambda game, name: tmp_path / game / name)
    with pytest.raises(DataError, match="no puzzles for 'sinomilia'"):
        load_puzzles("sinomilia")
