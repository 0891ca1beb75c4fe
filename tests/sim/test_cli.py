"""The tabletop-lab command: through main([...]) and once as the installed console script."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from tabletop_lab import cli, load_game
from tabletop_lab.cli import main
from tabletop_lab.sim import SEATS, simulate

SCRIPT = Path(sys.executable).with_name("tabletop-lab")
ROOT = Path(__file__).resolve().parents[2]


def comparable(df: pd.DataFrame) -> pd.DataFrame:
    """A simulate frame as it reads back from CSV: categories as plain values, tuples as text, no durations."""
    out = df.drop(columns="duration_s").copy()
    for column in out.columns:
        if isinstance(out[column].dtype, pd.CategoricalDtype):
            out[column] = out[column].astype(object)
    for column in ("winners", "winner_agents"):
        out[column] = out[column].map(str)
    return out


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_simulate_writes_the_rows_of_simulate(tmp_path, capsys, suffix):
    out = tmp_path / f"games{suffix}"
    code = main(
        ["simulate", "cross_endodoi", "--agents", "random,mcts:iterations=20,c=1.4", "--games", "12", "--seed", "4",
         "--option", "seeds_per_hole=6", "--seats", "fixed", "--out", str(out), "--no-progress"]
    )  # fmt: skip
    assert code == 0
    expected = simulate(
        load_game("cross_endodoi", seeds_per_hole=6),
        ["random", "mcts:iterations=20,c=1.4"],
        12,
        4,
        seats="fixed",
        progress=False,
    )
    if suffix == ".csv":
        written = pd.read_csv(out).drop(columns="duration_s")
        assert_frame_equal(written, comparable(expected), check_dtype=False)
    else:
        written = pd.read_parquet(out)
        assert written.winners.map(tuple).tolist() == expected.winners.tolist()
        assert written.winner_agents.map(tuple).tolist() == expected.winner_agents.tolist()
        lists = ["duration_s", "winners", "winner_agents"]
        assert_frame_equal(written.drop(columns=lists), expected.drop(columns=lists), check_dtype=False)
    printed = capsys.readouterr().out
    assert f"wrote 12 games to {out}" in printed
    assert "mcts(iterations=20,c=1.4)" in printed and "95% CI" in printed and "first-player advantage" in printed
    assert '"seeds_per_hole": 6' in printed


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_report_prints_the_card_and_writes_it(tmp_path, capsys, suffix):
    from tabletop_lab.stats import CARD_COLUMNS, report_card

    out = tmp_path / f"card{suffix}"
    argv = ["report", "cross_endodoi", "--agents", "random,greedy", "--games", "16", "--seed", "3",
            "--option", "seeds_per_hole=6", "--out", str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    card = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
    assert list(card.columns) == CARD_COLUMNS
    game = load_game("cross_endodoi", seeds_per_hole=6)
    df = simulate(game, ["random", "greedy"], 16, seed=3, progress=False, record_actions=True, evaluator="evaluate")
    expected = report_card(df, seed=3)
    assert card["metric"].tolist() == expected["metric"].tolist()
    assert card["value"].to_numpy() == pytest.approx(expected["value"].to_numpy())
    printed = capsys.readouterr().out
    assert "Cross-endodoi (seeds_per_hole=6): 16 games of random vs greedy, seed 3" in printed
    assert "lead_change" in printed and f"wrote {len(card)} metrics to {out}" in printed


def test_report_values_positions_by_an_agent_when_asked(capsys):
    from tabletop_lab.stats import report_card

    argv = [
        "report",
        "cross_endodoi",
        "--games",
        "4",
        "--seed",
        "1",
        "--evaluator",
        "mcts:iterations=10",
        "--no-progress",
    ]
    assert main(argv) == 0
    df = simulate("cross_endodoi", ["random", "random"], 4, seed=1, progress=False, record_actions=True,
                  evaluator="mcts:iterations=10")  # fmt: skip
    drama = report_card(df, seed=1).set_index("metric").loc["drama", "value"]
    assert f"drama {drama:.4g}".split() == next(line.split()[:2] for line in capsys.readouterr().out.splitlines()
                                                 if line.split()[:1] == ["drama"])  # fmt: skip


def test_simulate_defaults_to_random_players(capsys):
    assert main(["simulate", "cross_endodoi", "--games", "5", "--no-progress"]) == 0
    assert "random#1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "go"], "unknown game 'go'"),
        (["simulate", "cross_endodoi", "--option", "seeds_per_hole=4"], "seeds_per_hole=4 is not allowed"),
        (["simulate", "cross_endodoi", "--option", "seeds_per_hole"], "not of the form key=value"),
        (["simulate", "cross_endodoi", "--agents", "random"], "needs 2 agents"),
        (["simulate", "cross_endodoi", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["simulate", "cross_endodoi", "--out", "games.xlsx"], "must end in .csv"),
        (["simulate", "cross_endodoi", "--out", "/no/such/folder/games.csv"], "does not exist"),
        (["report", "go"], "unknown game 'go'"),
        (["report", "cross_endodoi", "--out", "card.xlsx"], "must end in .csv"),
        (["bench", "--game", "go"], "unknown game 'go'"),
        (["bench", "--seconds", "0"], "--seconds must be positive"),
    ],
)
def test_bad_values_give_one_line_and_exit_code_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [[], ["simulate"], ["simulate", "cross_endodoi", "--games", "0"], ["simulate", "cross_endodoi", "--seats", "swap"],
     ["serve", "--port", "x"], ["fly"]],
)  # fmt: skip
def test_malformed_command_lines_are_argparse_errors(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_the_parser_offers_every_seating():
    assert cli._SEATS == SEATS


def test_games_lists_every_game_and_option(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "cross_endodoi" in out
    for option in load_game("cross_endodoi").options:
        assert f"--option {option}=" in out


def test_bench_reports_each_measure_on_both_paths(capsys):
    assert main(["bench", "--game", "cross_endodoi", "--seconds", "0.05", "--mcts-iterations", "20"]) == 0
    out = capsys.readouterr().out
    header, *rows = out.splitlines()[1:4]
    columns = (
        "path",
        "random games/s",
        "actions/s",
        "simulate() games/s",
        "report_card() s/1,000 games",
        "MCTS sims/s (20/move)",
    )
    for column in columns:
        assert column in header
    assert [row.split()[:2] for row in rows] == [["cross_endodoi", "reference"], ["cross_endodoi", "compiled"]]
    for row in rows:
        assert all(float(n.replace(",", "")) > 0 for n in row.split()[2:])


def test_compile_fills_the_kernel_and_the_compiled_search(capsys):
    from tabletop_lab.games.cross_endodoi import kernel
    from tabletop_lab.kernels import use_kernels

    assert main(["compile", "--game", "cross_endodoi"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("cross_endodoi: compiled in ")
    assert kernel._tree_search.signatures  # the compiled MCTS entry, which a search then loads at once
    previous = use_kernels(False)
    try:
        assert main(["compile", "--game", "cross_endodoi"]) == 0
    finally:
        use_kernels(previous)
    assert "no compiled kernel" in capsys.readouterr().out


def test_compile_takes_one_game_s_rules_options(capsys):
    from tabletop_lab import precompile

    assert main(["compile", "--game", "cross_endodoi", "--option", "seeds_per_hole=6"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("cross_endodoi: compiled in ")
    assert main(["compile", "--option", "seeds_per_hole=6"]) == 2
    assert "--option needs --game" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        precompile.main(["cross_endodoi", "sygo", "--options", '{"size": 9}'])
    assert "--options needs exactly one game" in capsys.readouterr().err


#: Run in a process whose numba cache is a fresh folder: what a person waiting for a compile sees.
FIRST_USE = """
import sys
from tabletop_lab.sim import simulate
from tabletop_lab.widgets import SimulationPanel

simulate("cross_endodoi", ["random", "random"], 4, progress=True)
print("-- greedy --", file=sys.stderr, flush=True)
simulate("cross_endodoi", ["greedy", "greedy"], 2, progress=True)  # no kernel plays: no compile
panel = SimulationPanel(agents=["random", "mcts:iterations=5"], n_games=4, seed=1)
panel.run()
print("panel:", panel.status.value)
panel.wait(600)
"""


def test_first_use_says_what_compiles_and_how_long_it_took_last_time(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT), "TABLETOP_KERNELS": "1"}

    def run(*args):
        done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-2000:]
        return done

    stamps = [tmp_path / f"tabletop_lab-compiled-cross_endodoi.{path}.sha256" for path in ("games", "search")]

    def measured():  # what the last compile measured of each path, as it wrote it
        return [float(stamp.with_suffix(".seconds").read_text()) for stamp in stamps]

    first = run("-m", "tabletop_lab.cli", "compile", "--game", "cross_endodoi").stdout
    assert "cross_endodoi: compiling Cross-endodoi (once per machine)" in first  # nothing measured yet
    games, search = measured()
    assert f"(random games {games:.1f} s, search {search:.1f} s)" in first
    assert "compiling" not in run("-m", "tabletop_lab.cli", "compile", "--game", "cross_endodoi").stdout
    for stamp in stamps:
        stamp.unlink()  # as when the sources change: the next use compiles again, for about as long
    about = f"compiling Cross-endodoi (about {games + search:.0f} s, once per machine)"
    assert about in run("-m", "tabletop_lab.cli", "compile", "--game", "cross_endodoi").stdout
    for stamp in stamps:
        stamp.unlink()
    games, search = measured()
    shown = run("-c", FIRST_USE)
    random_bar, greedy_bar = shown.stderr.split("-- greedy --")
    # random games wait for the first path only; the panel's MCTS seat for both (the first was
    # compiled by the simulation above, but not recorded: the wait it announces is an upper bound)
    assert f"cross_endodoi: compiling Cross-endodoi (about {games:.0f} s, once per machine)" in random_bar
    assert "compiling" not in greedy_bar
    about = f"about {games + search:.0f} s"
    assert f"panel: running 0/4: compiling Cross-endodoi ({about}, once per machine)" in shown.stdout


def test_serve_reports_a_busy_port(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--no-browser"]) == 1
    err = capsys.readouterr().err
    assert f"port {port}" in err and "Traceback" not in err


def test_console_script(tmp_path):
    out = tmp_path / "games.csv"
    done = subprocess.run(
        [str(SCRIPT), "simulate", "cross_endodoi", "--games", "8", "--out", str(out), "--no-progress"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(pd.read_csv(out)) == 8
    bad = subprocess.run([str(SCRIPT), "simulate", "nope"], capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "unknown game 'nope'" in bad.stderr and "Traceback" not in bad.stderr
    assert "8 games" in done.stdout


def test_bench_takes_options_and_searches_hidden_information_with_ismcts(capsys):
    assert (
        main(["bench", "--game", "sinomilia", "--option", "round_cap=3", "--seconds", "0.05", "--mcts-iterations", "5"])
        == 0
    )
    reference = capsys.readouterr().out.splitlines()[2]
    assert reference.split()[:2] == ["sinomilia", "reference"]
    assert float(reference.split()[-1].replace(",", "")) > 0  # IS-MCTS simulations/s
    assert main(["bench", "--option", "size=9"]) == 2
    assert "--option needs --game" in capsys.readouterr().err
