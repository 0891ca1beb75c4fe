"""Levels of play: the rungs, the side-by-side matches, where the ladder stops, and the command."""

from __future__ import annotations

import doctest

import pandas as pd
import pytest

import tabletop_lab.data
import tabletop_lab.sim.ladder
from tabletop_lab import load_game, studies
from tabletop_lab.agents import make_agent
from tabletop_lab.cli import main
from tabletop_lab.data import read_study
from tabletop_lab.sim.ladder import LADDER_COLUMNS, head_to_head, ladder, ladder_levels


def test_docstring_examples():
    result = doctest.testmod(tabletop_lab.sim.ladder)
    assert result.attempted > 0 and result.failed == 0


def test_the_rungs_climb_from_random_to_the_expert_at_doubling_budgets():
    sygo = load_game("sygo", size=9)
    assert ladder_levels(sygo)[-1] == f"expert:iterations={make_agent('expert', game=sygo).iterations}"
    assert ladder_levels(sygo, levels=3, budget=800) == [
        "random",
        "greedy",
        "expert:iterations=200",
        "expert:iterations=400",
        "expert:iterations=800",
    ]
    assert ladder_levels(load_game("sinomilia"), levels=2, budget=100) == [
        "random",
        "sinomilia_heuristic",
        "expert:iterations=50",
        "expert:iterations=100",
    ]


@pytest.mark.parametrize(
    ("levels", "budget", "message"),
    [(0, None, "levels must be a positive integer"), (5, 8, "budget 8 cannot be halved 4 times"), (2, 0, "budget")],
)
def test_bad_rungs_are_refused(levels, budget, message):
    with pytest.raises(ValueError, match=message):
        ladder_levels(load_game("sinoda"), levels=levels, budget=budget)


def test_a_head_to_head_seats_each_side_on_whole_teams():
    game = load_game("sinoda", players=4, teams="pairs")
    result = head_to_head(game, "greedy", "random", 4, seed=2)
    assert result["wins"] + result["draws"] + result["losses"] + result["capped"] == result["n"] == 4
    assert result["ci_low"] <= result["rate"] <= result["ci_high"]
    with pytest.raises(ValueError, match="3 teams"):
        head_to_head(load_game("sinoda", players=3), "greedy", "random", 2)


def test_the_ladder_plays_each_rung_against_the_one_below_and_stops_where_it_cannot_tell():
    df = ladder("sinoda", n_games=6, levels=2, budget=40, seed=1, progress=False)
    assert list(df.columns) == LADDER_COLUMNS
    rungs = df.attrs["rungs"]
    assert rungs[:2] == ["random", "greedy"] and len(rungs) == 4
    assert df["agent"].tolist() == rungs[1 : len(df) + 1] and df["opponent"].tolist() == rungs[: len(df)]
    stronger = df["ci_low"] > 0.5
    assert stronger.iloc[:-1].all()  # every rung but the last was shown stronger than the one below
    if df.attrs["stopped"] is None:
        assert len(df) == len(rungs) - 1 and stronger.iloc[-1]
    else:
        assert df.attrs["stopped"] == len(df) and not stronger.iloc[-1]
    again = ladder("sinoda", n_games=6, levels=2, budget=40, seed=1, progress=False)
    pd.testing.assert_frame_equal(df, again)  # seeded


def test_a_rung_shown_weaker_than_the_one_below_stops_the_ladder_too():
    df = ladder("sinomilia", n_games=12, levels=2, budget=2, seed=0, progress=False)  # one simulation a move
    assert df["ci_low"].iloc[0] > 0.5 and df["ci_high"].iloc[1] < 0.5  # the heuristic beats the expert at 1
    assert df.attrs["stopped"] == 2 and len(df) == 2


def test_the_command_prints_the_ladder_and_saves_it_with_the_command(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tabletop_lab.data, "DATA_DIR", tmp_path)
    argv = ["ladder", "sinoda", "--option", "players=4", "--option", "teams=pairs", "--games", "2", "--levels", "1",
            "--budget", "20", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert (
        "Sinoda (players=4, teams=pairs) ladder: random < greedy < expert:iterations=20" in out
        and "level 1: greedy vs random" in out
    )
    saved = read_study(tmp_path / "sinoda" / "ladder_expert_players=4_teams=pairs.parquet")
    key = saved.attrs["study_key"]["study"]
    assert key["command"] == "tabletop-lab " + " ".join(argv)
    assert key["rungs"] == ["random", "greedy", "expert:iterations=20"]
    loaded = studies.load_ladder("sinoda", players=4, teams="pairs")  # what a notebook reads
    pd.testing.assert_frame_equal(loaded, saved)
    assert loaded.attrs["study_key"]["study"]["command"] == key["command"]
    assert studies.load_ladder("sinoda") is None  # the 2-player ladder was never saved here


def test_a_ladder_file_is_named_by_the_options_that_differ_from_the_defaults():
    assert studies.ladder_path("capitals").name == "ladder_expert.parquet"
    assert studies.ladder_path("sygo", size=9).name == "ladder_expert_size=9.parquet"
    assert studies.ladder_path(load_game("sygo", size=9)) == studies.ladder_path("sygo", size=9)
    assert studies.ladder_path("sinoda", teams="pairs", players=4).name == "ladder_expert_players=4_teams=pairs.parquet"
    assert studies.ladder_path("sygo", size=19).name == "ladder_expert.parquet"  # 19×19 is the default


def test_the_ladder_table_reads_each_rung_with_its_record_and_interval():
    rows = [
        [1, "greedy", "random", 15, 1, 3, 1, 20, 0.8, 0.5838, 0.91932],
        [2, "b", "greedy", 24, 1, 15, 0, 40, 0.6125, 0.458, 0.747],
    ]
    table = studies.ladder_table(pd.DataFrame(rows, columns=LADDER_COLUMNS))
    assert list(table.columns) == ["agent", "opponent", "n", "won–drawn–lost", "rate", "interval"]
    assert table.loc[1].tolist() == ["greedy", "random", 20, "15–2–3", "0.800", "[0.584, 0.919]"]
    assert table.loc[2, "rate"] == "0.613"  # rounded as the interval's ends are, not half to even


def test_the_command_refuses_bad_settings_in_one_line(capsys):
    assert main(["ladder", "sinoda", "--levels", "3", "--budget", "2", "--no-save"]) == 2
    assert "budget 2 cannot be halved 2 times" in capsys.readouterr().err
