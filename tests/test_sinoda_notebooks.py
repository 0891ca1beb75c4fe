"""Sinoda's explore notebook: its analysis functions on every curated position, against the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop_lab import data
from tabletop_lab.errors import PositionError
from tests.test_notebooks import notebook_namespace

EXPLORE = Path(__file__).resolve().parents[1] / "notebooks" / "sinoda" / "explore.ipynb"
POSITIONS = data.load_positions("sinoda")


@pytest.fixture(scope="module")
def explore():
    return notebook_namespace(EXPLORE, ["setup", "collection", "analysis-logic"], MCTS_ITERATIONS=12, SEED=0)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_explore_analyses_every_curated_position(explore, name):
    state = POSITIONS[name].state()
    pieces, threats = explore["piece_table"](state), explore["threat_table"](state)
    n = state.game.num_players
    assert len(pieces) == sum(len(state.pieces_of(p)) for p in range(n))
    for cell, row in pieces.iterrows():
        assert row["destinations"].split() == state.reachable_cells(cell)
    assert threats["pieces"].tolist() == [len(state.pieces_of(p)) for p in range(n)]
    assert threats["under threat"].tolist() == [" ".join(state.threatened(p)) for p in range(n)]
    evaluation, choices = explore["agent_table"](state)
    assert evaluation["evaluation"].tolist() == state.evaluate()
    if state.is_terminal():
        assert choices.empty
    else:
        assert list(choices.index) == ["greedy", "MCTS max-n", "MCTS paranoid"]
        assert set(choices["move"]) <= set(state.legal_moves())


def test_explore_reads_json_and_refuses_nonsense(explore):
    state = POSITIONS["teammate_blocks"].state()
    assert explore["read_position"](state.to_json(), {"players": 4, "teams": "pairs"}) == state
    with pytest.raises(PositionError, match="not a curated name"):
        explore["read_position"]("no such position")
    with pytest.raises(PositionError):
        explore["read_position"](state.to_json(), {"players": 2})
