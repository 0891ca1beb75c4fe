"""A crafted link never breaks a Play app: the board opens afresh with a short message that
quotes the link only in bounded excerpts (``errors.excerpt``), never a traceback."""

from __future__ import annotations

import pytest

from tabletop_lab.widgets import Board

GAME = "game=cross_endodoi"

CRAFTED = {
    "nested lists": f"{GAME}&seeds_per_hole=" + "[" * 3000,
    "nested objects": f"{GAME}&seeds_per_hole=" + '{"a":' * 3000,
    "a huge value": f"{GAME}&seeds_per_hole=" + "9" * 30_000,
    "a huge game name": "game=" + "x" * 30_000,
    "a huge option name": f"{GAME}&" + "y" * 30_000 + "=1",
    "a huge position": f"{GAME}&position=" + "1," * 15_000,
    "a huge at": f"{GAME}&move=2&at=" + "9" * 30_000,
    "a value of the wrong type": f"{GAME}&seeds_per_hole=%7B%22a%22%3A1%7D",
}


@pytest.mark.parametrize("query", CRAFTED.values(), ids=CRAFTED.keys())
def test_a_crafted_link_opens_a_fresh_game_with_a_short_message(query):
    board = Board.from_query(query, "cross_endodoi")
    message = board.errors.text
    assert message.startswith("this link cannot be opened: ")
    assert len(message) < 300 and "Traceback" not in message and "Error" not in message
    assert board.game.name == "cross_endodoi" and board.state.history() == []
    assert board.state.notation() == board.game.new_initial_state().notation()
