"""A game from another distribution: registered only through the ``tabletop_lab.games`` entry
point, it draws, plays on a Board and in ``simulate()`` with its own renderer, board adapter and
agent (``tests/plugin_game``, which lives outside ``tabletop_lab/games/``).

The test installs a real entry point: a ``*.dist-info`` folder with ``entry_points.txt`` on the
path of a fresh interpreter, where ``importlib.metadata`` finds it as it finds any installed
distribution's.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAYS = """
import sys
from tabletop_lab import list_games, load_game
from tabletop_lab.agents import agents_for, make_agent
from tabletop_lab.render import renderer
from tabletop_lab.sim import simulate
from tabletop_lab.testing import check_game
from tabletop_lab.widgets import Board

assert "tests.plugin_game" not in sys.modules  # nothing but the entry point names the game
assert "test_race" in [g["name"] for g in list_games(include_tests=True)]
game = load_game("test_race")
assert renderer(game).__name__ == "tests.plugin_game.render"
assert game.new_initial_state()._repr_png_()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
assert agents_for(game) == ["random", "greedy", "mcts", "alphabeta", "ismcts", "race_perfect"]
check_game(game)  # the conformance harness plays it like any other game

board = Board("test_race", seats=["human", "race_perfect"], seed=1)
board.click_cell(1)  # +1 leaves 6 to go, a multiple of 3: the agent has no winning move, plays +1
assert board.state.history_strings() == ["+1", "+1"], board.errors.text
board.click_cell(4)  # +2 leaves 3 to go: the agent again has none
assert board.state.history_strings() == ["+1", "+1", "+2", "+1"], board.errors.text
board.handle_click(*board.adapter.cell_xy(7))  # a click on square 7: +2 reaches the target
assert board.state.is_terminal() and board.state.result().winners == (0,), board.errors.text
assert board.errors.text == ""

df = simulate("test_race", ["race_perfect", "random"], 10, seed=1, progress=False)
first = df[df.agent_0 == "race_perfect"]
assert len(first) == 5 and all(w == ("race_perfect",) for w in first.winner_agents)  # 7 is won moving first
print("ok")
"""


def test_a_game_registered_by_entry_point_draws_and_plays_on_a_board_and_in_simulate(tmp_path):
    info = tmp_path / "race_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: race-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tabletop_lab.games]\ntest_race = tests.plugin_game.rules:RaceGame\n")
    path = os.pathsep.join([str(tmp_path), str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path, "TABLETOP_KERNELS": "0", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", PLAYS], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


def test_without_the_entry_point_the_game_is_unknown():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_KERNELS": "0"}
    code = (
        "from tabletop_lab import list_games; print('test_race' in [g['name'] for g in list_games(include_tests=True)])"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
