"""The helpers of Sygo's notebooks, run from the notebooks' own cells on every curated position."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from tabletop_lab import data
from tests.test_notebooks import notebook_namespace

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks" / "sygo"
POSITIONS = data.load_positions("sygo")


@pytest.fixture(scope="module")
def explore():
    return notebook_namespace(
        NOTEBOOKS / "explore.ipynb",
        ["setup", "analysis-logic"],
        MCTS_ITERATIONS=20,
        SEED=0,
        MOVE_LIMIT=2_000,
        EXPERT_BUDGET=30,
        EXPERT_TOP=5,
    )


@pytest.mark.parametrize("name", list(POSITIONS))
def test_explore_analyses_every_curated_position(explore, name):
    state = POSITIONS[name].state()
    result = explore["analyse"](state)
    plt.close("all")
    assert set(result["turns"].index) == set(state.legal_moves())
    if state.is_terminal():
        assert result["choices"].empty and result["search"].empty
        return
    assert set(result["choices"]) <= set(state.legal_moves()) and len(result["choices"]) == 3
    assert result["search"]["visits"].sum() == 20
    expert = result["expert"]  # section 6: the expert's best turns, or why there are none
    if expert is None:
        assert result["expert note"].startswith("No analysis: ")
    else:
        assert expert.best_move in state.legal_moves() and len(expert.moves) <= 5
    for move, row in result["turns"].iterrows():  # each row is what the engine does with that turn
        after = state.clone()
        after.apply_move(move)
        assert row["position after"] == after.notation()
        assert row["score after (W-B)"] == "-".join(map(str, after.scores()))
        assert row["stones added"] >= (move != "pass")


def test_explore_refuses_too_many_turns_with_a_note(explore):
    state = POSITIONS["balancing"].state()  # 89 legal turns
    table, note = explore["turn_table"](state, limit=10)
    assert table.empty and "Too many turns" in note


def test_learn_liberties_helper_matches_a_hand_count():
    learn = notebook_namespace(NOTEBOOKS / "learn.ipynb", ["setup"])
    state = learn["game"].state_from_notation("...../...../..W../...../..... W g 0")
    assert learn["group_liberties"](state, "c3") == {"c2", "b3", "d3", "c4"}
    corner = learn["game"].state_from_notation("...../...../...../WB.../B.B.. W g 0")
    assert learn["group_liberties"](corner, "a1") == {"b1"}  # Black's a1: its last liberty
    assert "suicide" not in (learn["refusal"](corner, "place b1") or "")
