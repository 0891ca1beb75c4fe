"""The notebooks run headless in quick mode, are stored without outputs, and their helpers work.

Each notebook under ``notebooks/`` (apps included) is one test, marked ``notebook``: it is
executed with nbclient in a fresh kernel whose environment has ``TABLETOP_QUICK=1`` and whose
working directory is the notebook's folder, as Jupyter would run it; any cell error fails it,
and so does a cell that waits on an idle kernel for 30 s (``tests.notebook_client``).
A learn notebook runs with one more cell at its end (``LESSON_BOARDS``): every live board a
lesson checks with ``quiz.played`` must accept the move the lesson asks for, made by clicks and
buttons as a reader makes it, and the check must then say the reader got it right.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from packaging.version import Version

from tabletop_lab import data, load_game, quiz
from tabletop_lab.agents import GreedyAgent
from tabletop_lab.errors import PositionError
from tests.notebook_client import StalledCellError, WatchedClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
IDS = [str(p.relative_to(ROOT / "notebooks")) for p in NOTEBOOKS]


def test_notebooks_exist():
    names = set(IDS)
    for expected in (
        "index.ipynb",
        "cross_endodoi/learn.ipynb",
        "cross_endodoi/explore.ipynb",
        "cross_endodoi/statistics.ipynb",
        "sinomilia/learn.ipynb",
        "sinomilia/explore.ipynb",
        "sinomilia/statistics.ipynb",
        "apps/play_sinomilia.ipynb",
        "capitals/learn.ipynb",
        "capitals/explore.ipynb",
        "capitals/statistics.ipynb",
        "apps/play_capitals.ipynb",
        "sygo/learn.ipynb",
        "sygo/explore.ipynb",
        "sygo/statistics.ipynb",
        "apps/play_sygo.ipynb",
        "apps/puzzles.ipynb",
    ):
        assert expected in names


# ----------------------------------------------------------------------------- execution

LESSON_BOARDS = """
from tabletop_lab import quiz as _quiz


def _click_through(board, move):
    # Make ``move`` as a reader would: click the cells of each of its actions, or press its button.
    for action in board.session.actions_of(move):
        cells = board.adapter.action_cells(board.state, action)
        for cell in cells:
            board.click_cell(cell)  # a refused click goes to board.errors, and the check below fails
        if not cells or action in board._choice_actions.values():  # a button, or a choice the clicks left open
            labels = {a: label for label, a in {**board._button_actions, **board._choice_actions}.items()}
            assert action in labels, f"{move!r}: no button for {board.state.action_to_string(action)!r}"
            board.press(labels[action])


_asked = _quiz.board_questions()
assert _asked, "no lesson has a live board checked with quiz.played"
for _board, _moves in _asked:
    _move = sorted(_moves)[0]
    assert not _quiz.played(_board, _moves), f"{_move!r}: the check says right before any move"
    _board.session.check_can_play()  # the reader's seat is to move: a human seat, the game not over
    _click_through(_board, _move)
    _verdict = _quiz.played(_board, _moves)
    assert _verdict, f"the board did not take {_move!r} by clicks: {_verdict} {_board.errors}"
print("lesson boards that accept the moves their lessons ask for, clicked:", len(_asked))
"""


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("TABLETOP_QUICK", "1")  # the kernel inherits this environment
    nb = nbformat.read(path, as_version=4)
    if path.name == "learn.ipynb":
        nb.cells.append(nbformat.v4.new_code_cell(LESSON_BOARDS))
    client = WatchedClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError, or StalledCellError, naming the cell
    ran = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in ran)
    errors = [o for cell in ran for o in cell.outputs if o.output_type == "error"]
    assert not errors


def test_the_kernel_is_not_one_that_leaves_requests_unread():
    """ipykernel 7.0 to 7.3 send each shell reply raw on the socket whose stream reads the
    requests; a request arriving during that send can stay unread, the kernel idle and the cell
    waiting (ipykernel PR 1529, fixed in 7.4). pyproject.toml excludes them."""
    version = Version(importlib.metadata.version("ipykernel"))
    assert not Version("7.0") <= version < Version("7.4"), (
        f"ipykernel {version} can stall a notebook: install 7.4 or later"
    )
    assert "!=7.3.*" in (ROOT / "pyproject.toml").read_text()


def test_a_cell_the_kernel_never_takes_up_fails_naming_it():
    """A request the kernel never reads leaves it idle: the cell fails after the idle limit, named,
    instead of waiting out the 600 s timeout."""
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("x = 1", id="first"), nbformat.v4.new_code_cell("y = x + 1", id="dropped")]
    )
    client = WatchedClient(nb, timeout=600, kernel_name="python3")
    client.idle_limit = 2
    with client.setup_kernel():
        client.execute_cell(nb.cells[0], 0)  # a kernel that answers is left alone
        assert nb.cells[0].execution_count == 1
        client.kc.execute = lambda *args, **kwargs: "a-request-the-kernel-never-saw"  # as if the request were lost
        with pytest.raises(
            StalledCellError, match=r"cell 1 \(id 'dropped'\) stalled: the kernel never took the request up"
        ):
            client.execute_cell(nb.cells[1], 1)


# ----------------------------------------------------------------------------- hygiene


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_is_stored_clean(path):
    """No outputs or execution counts in git, and stable cell ids (``nbstripout --keep-id``)."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    ids = [cell.get("id") for cell in nb.cells]
    assert all(ids) and len(set(ids)) == len(ids), "every cell needs its own stable id"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {cell.id} has outputs"
            assert cell.execution_count is None, f"cell {cell.id} has an execution count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_parameters_cell_comes_first(path):
    """The quick-mode convention: a ``parameters`` cell, when there is one, is the first code cell."""
    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    tagged = [i for i, cell in enumerate(code) if "parameters" in cell.metadata.get("tags", [])]
    assert tagged in ([], [0])
    if tagged:
        assert "TABLETOP_QUICK" in code[1].source, "the cell after the parameters applies quick mode"


# ----------------------------------------------------------------------------- quiz


def test_quiz_right_answers():
    assert quiz.check(9, expected=9)
    assert quiz.check("9", expected=9)  # a hole typed as text is the same hole
    assert quiz.check([5, "3", 4], expected={3, 4, 5})  # any collection answers a set question
    assert quiz.check((1, 2), expected=[1, 2])
    assert "Correct" in repr(quiz.check(21, expected=21))


def test_quiz_wrong_answers_never_raise():
    for answer in (8, "nine", {9}, [9, 9], object(), {"a": 1}, 9.5):
        verdict = quiz.check(answer, expected=9)
        assert not verdict and isinstance(verdict, quiz.Verdict)
    assert not quiz.check([2, 1], expected=[1, 2])  # order matters for a list question
    assert not quiz.check({3, 4}, expected={3, 4, 5})


def test_quiz_messages():
    wrong = quiz.check(8, expected=9, hint="Count again.")
    assert "you answered 8" in repr(wrong) and "Count again." in repr(wrong) and "9" not in repr(wrong)
    assert "The engine says 9" in repr(quiz.check(8, expected=9, reveal=True))
    unanswered = quiz.check(..., expected={3, 4})
    assert not unanswered and "No answer yet" in repr(unanswered)
    assert "No answer yet" in repr(quiz.check(None, expected=1))
    assert "{3, 4, 10}" in repr(quiz.check(..., expected={10, 3, 4}, reveal=True))  # sets shown sorted
    assert "&lt;b&gt;" in quiz.check("<b>", expected="x")._repr_html_()  # answers are escaped in HTML


def test_quiz_played_checks_the_first_move_on_a_board():
    from tabletop_lab.widgets import Board

    board = Board("cross_endodoi", position="2,0,0,0,3,0/3,3,3,0,0,3 10-9 0")
    assert not quiz.played(board, "0") and "No move yet" in repr(quiz.played(board, "0"))
    board.play("4")
    wrong = quiz.played(board, {"0"}, hint="An even pile goes right.")
    assert not wrong and "you played '4'" in repr(wrong) and "An even pile goes right." in repr(wrong)
    board.undo()  # a move taken back is not held against the reader
    assert "No move yet" in repr(quiz.played(board, "0"))
    board.play("0")
    board.play("8")  # only the first move counts
    assert quiz.played(board, "0") and quiz.played(board, ["0", "4"])
    assert any(b is board and moves == {"0", "4"} for b, moves in quiz.board_questions())  # the last ask
    with pytest.raises(ValueError, match="'1' is not a legal move"):
        quiz.played(board, "1")  # hole 1 is empty at the start: the lesson would ask the impossible


def test_quiz_checks_engine_answers():
    start = load_game("cross_endodoi").new_initial_state()
    expected = {a for a in start.legal_actions() if start.child(a).last_move.captured}
    assert quiz.check({3, 4, 5}, expected=expected)
    assert not quiz.check({0, 1, 2}, expected=expected)


# ----------------------------------------------------------------------------- data


def test_data_path_stays_inside_data():
    path = data.data_path("cross_endodoi", "positions.json")
    assert path == data.DATA_DIR / "cross_endodoi" / "positions.json" and path.exists()
    for bad in [(), ("",), ("..", "pyproject.toml"), ("cross_endodoi", "..", "..", "x")]:
        with pytest.raises(ValueError):
            data.data_path(*bad)


def test_every_curated_position_loads():
    positions = data.load_positions("cross_endodoi")
    assert len(positions) >= 8
    for name, named in positions.items():
        state = named.state()
        assert state.game.options == load_game("cross_endodoi", **named.options).options
        assert named.title and len(named.description) > 40
        if named.move is not None:
            assert named.move in state.legal_moves(), name
    assert data.load_position("cross_endodoi", "opening") == load_game("cross_endodoi").new_initial_state()
    with pytest.raises(KeyError, match="opening"):
        data.load_position("cross_endodoi", "no_such_position")


def _after(name: str):
    named = data.load_positions("cross_endodoi")[name]
    state = named.state()
    return state, state.child(state.parse_move(named.move))


def test_curated_descriptions_are_true():
    """The facts each description states, checked with the engine."""
    _, after = _after("long_relay")
    assert len(after.last_move.laps) == 39 and after.last_move.captured == 0
    _, after = _after("big_capture")
    assert after.last_move.captured == 20 and len(after.last_move.laps) == 2
    trap, after = _after("greedy_trap")
    assert after.last_move.captured == 5 and GreedyAgent(seed=0).choose_action(trap) == 7
    _, after = _after("one_move_from_end")
    assert after.is_terminal() and after.scores() == [21, 15]
    ending, _ = _after("drawn_ending")
    assert [m for m in ending.legal_moves() if ending.child(int(m)).is_terminal()] == ["8", "9"]
    assert all(ending.child(a).result().is_draw for a in (8, 9))
    origin, after = _after("long_lap_origin")
    assert after.last_move.captured == 11 and after.last_move.capture_hole == 10
    skipping = load_game("cross_endodoi", seeds_per_hole=6, skip_origin=True).load_position(origin.notation())
    assert skipping.child(1).last_move.laps[0].last == 2 and skipping.child(1).last_move.laps[0].relay
    over = data.load_position("cross_endodoi", "game_over")
    assert over.is_terminal() and over.result().scores == (22, 14)


START = "3,3,3,3,3,3/3,3,3,3,3,3 0-0 0"


def _file(*entries: dict) -> str:
    return json.dumps({"game": "cross_endodoi", "positions": list(entries)})


def _entry(**changes) -> dict:
    return {"name": "x", "title": "t", "description": "d", "position": START, **changes}


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "not valid JSON"),
        (json.dumps({"game": "sygo", "positions": []}), "expected"),
        (_file({"name": "x"}), "missing key"),
        (_file(_entry(colour=1)), "unknown key"),
        (_file(_entry(position=START[:-1] + "2")), "'x'"),
        (_file(_entry(move="7")), "illegal"),
        (_file(_entry(options={"seeds_per_hole": 6})), "must hold 72"),
        (_file(_entry(), _entry()), "twice"),
    ],
)
def test_bad_positions_file_is_refused_clearly(tmp_path, monkeypatch, content, message):
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    (tmp_path / "cross_endodoi").mkdir()
    (tmp_path / "cross_endodoi" / "positions.json").write_text(content)
    with pytest.raises(PositionError, match=message):
        data.load_positions("cross_endodoi")


def test_missing_positions_file(tmp_path, monkeypatch):
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="sygo"):
        data.load_positions("sygo")


def test_load_or_run(tmp_path):
    path = tmp_path / "study" / "results.parquet"
    calls = []

    def run():
        calls.append(len(calls))
        return pd.DataFrame({"run": [len(calls)], "winners": [[0, 1]]})

    first = data.load_or_run(path, run)  # nothing saved yet: runs and saves
    assert path.exists() and calls == [0]
    again = data.load_or_run(path, run)  # saved: loads without running
    assert calls == [0] and again["run"].tolist() == first["run"].tolist() == [1]
    assert list(again["winners"][0]) == [0, 1]
    fresh = data.load_or_run(path, run, rerun=True)  # rerun: runs and overwrites
    assert fresh["run"].tolist() == [2] and pd.read_parquet(path)["run"].tolist() == [2]
    quick = data.load_or_run(path, run, rerun=True, save=False)  # quick runs never overwrite
    assert quick["run"].tolist() == [3] and pd.read_parquet(path)["run"].tolist() == [2]


# ----------------------------------------------------------------------------- explore's analysis

EXPLORE = ROOT / "notebooks" / "cross_endodoi" / "explore.ipynb"
POSITIONS = data.load_positions("cross_endodoi")


def notebook_namespace(path: Path, cell_ids: list[str], **parameters) -> dict:
    """Run the named code cells of a notebook (IPython magics left out) in a fresh namespace."""
    cells = {cell.id: cell for cell in nbformat.read(path, as_version=4).cells}
    namespace = dict(parameters)
    for cell_id in cell_ids:
        source = "\n".join(line for line in cells[cell_id].source.splitlines() if not line.startswith("%"))
        exec(compile(source, f"{path.name}[{cell_id}]", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def explore():
    return notebook_namespace(
        EXPLORE,
        ["setup", "analysis-logic"],
        MCTS_ITERATIONS=40,
        ALPHABETA_DEPTH=2,
        EXPERT_BUDGET=50,
        SEED=0,
        MOVE=None,
    )


@pytest.mark.parametrize("name", list(POSITIONS))
def test_explore_analyses_every_curated_position(explore, name):
    """Every curated position, finished ones included, runs through explore's analysis and sections."""
    import matplotlib.pyplot as plt

    named = POSITIONS[name]
    state = named.state()
    result = explore["analyse"](state, named.move)
    shown = explore["sections"](result, named)
    plt.close("all")
    assert list(result["moves"].index) == state.legal_moves()
    assert set(shown) == {"position", "moves", "closeup", "agents", "searches", "board", "expert", "play"}
    sections = ("closeup", "agents", "searches", "board", "expert")
    if state.is_terminal():
        assert result["move"] is None and result["choices"].empty and result["searches"].empty
        assert result["expert"] is None and all(shown[section] == [explore["GAME_OVER"]] for section in sections)
    else:
        assert result["move"] == (named.move or state.legal_moves()[0])
        assert len(result["choices"]) == 3 and set(result["choices"]) <= set(state.legal_moves())
        assert result["searches"]["MCTS visits"].sum() == 40
        assert len(shown["closeup"]) == 2 and len(shown["searches"]) == 2
        summary, table, _ = shown["expert"]
        assert f"`{result['expert'].best_move}`" in summary.data and set(table.index) == set(state.legal_moves())


# ----------------------------------------------------------------------------- scripts/run_studies.py


@pytest.mark.notebook
@pytest.mark.parametrize("only, expected", [(None, True), (["skilled", "ladder"], ["skilled", "ladder"])])
def test_run_studies_sets_rerun(tmp_path, only, expected):
    """The script runs a study notebook with RERUN overridden (everything, or the named studies)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_studies", ROOT / "scripts" / "run_studies.py")
    run_studies = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_studies)
    study = nbformat.v4.new_notebook()
    parameters = nbformat.v4.new_code_cell("RERUN = False", id="parameters", metadata={"tags": ["parameters"]})
    record = nbformat.v4.new_code_cell("open('rerun.json', 'w').write(__import__('json').dumps(RERUN))", id="record")
    study.cells = [parameters, record]
    path = tmp_path / "study.ipynb"
    nbformat.write(study, path)
    run_studies.run_study(path, only=only)
    assert json.loads((tmp_path / "rerun.json").read_text()) == expected
    assert nbformat.read(path, as_version=4).cells[0].source == "RERUN = False"  # the notebook is left untouched
