"""The fuzz stage (tabletop_lab.fuzz) for every registered game, and a check that it finds faults."""

from __future__ import annotations

import time

import pytest

from tabletop_lab import PositionError, list_games, load_game
from tabletop_lab.fuzz import CATEGORIES, MESSAGE_LIMIT, fuzz_game

GAMES = [g["name"] for g in list_games()]
#: Every game under its defaults, and rules whose positions and moves have more to parse.
FUZZED = [(name, {}) for name in GAMES] + [("cross_endodoi", {"pie_rule": True})]


@pytest.mark.parametrize(("name", "options"), FUZZED, ids=[f"{n}-{'-'.join(o) or 'default'}" for n, o in FUZZED])
def test_every_game_handles_malformed_input(name, options, capsys):
    counts = fuzz_game(load_game(name, **options), seed=8)
    expected = [c for c in CATEGORIES if c != "notation" or load_game(name).info.has_notation]
    assert list(counts) == expected
    for category, figures in counts.items():
        assert figures["tried"] >= 100, category
        assert figures["handled"] == figures["tried"], category
    with capsys.disabled():
        shown = ", ".join(f"{c} {f['handled']}/{f['tried']}" for c, f in counts.items())
        print(f"\nfuzz {load_game(name, **options)!r} (handled/tried): {shown}")


# ----------------------------------------------------------------------------- the stage finds faults


@pytest.fixture
def state_class():
    return type(load_game("cross_endodoi").new_initial_state())


def test_an_undocumented_exception_fails_with_the_input(monkeypatch):
    game_class = type(load_game("cross_endodoi"))
    original = game_class.state_from_dict

    def fragile(self, data):
        if isinstance(data, dict) and len(data) > 4:
            raise TypeError("extra key crashed the parser")
        return original(self, data)

    monkeypatch.setattr(game_class, "state_from_dict", fragile)
    with pytest.raises(AssertionError, match=r"dict: \{.*TypeError: 'extra key crashed the parser'"):
        fuzz_game(load_game("cross_endodoi"), seed=1, cases=60, hypothesis_examples=0)


def test_a_refused_move_that_changes_the_state_fails(monkeypatch, state_class):
    original = state_class.string_to_action

    def careless(self, text):
        self.stores[0] += 1  # changes the position before refusing
        return original(self, text)

    monkeypatch.setattr(state_class, "string_to_action", careless)
    with pytest.raises(AssertionError, match="refused with ActionSyntaxError but changed the state"):
        fuzz_game(load_game("cross_endodoi"), seed=1, cases=30, hypothesis_examples=0)


def test_a_whole_input_echoed_in_a_message_fails(monkeypatch):
    game_class = type(load_game("cross_endodoi"))

    def echo(self, text):
        raise PositionError(f"bad position {text!r}")

    monkeypatch.setattr(game_class, "state_from_notation", echo)
    with pytest.raises(AssertionError, match=r"notation: .* -> PositionError message of \d+ characters"):
        fuzz_game(load_game("cross_endodoi"), seed=1, cases=60, hypothesis_examples=0)


@pytest.mark.parametrize("length, fails", [(MESSAGE_LIMIT - 1, False), (MESSAGE_LIMIT, True)])
def test_a_message_of_300_characters_fails_even_when_it_quotes_nothing(monkeypatch, length, fails):
    game_class = type(load_game("cross_endodoi"))

    def wordy(self, data):
        raise PositionError(("cross_endodoi: " + "this position is wrong; " * 20)[:length])

    monkeypatch.setattr(game_class, "state_from_dict", wordy)
    if fails:
        with pytest.raises(AssertionError, match=rf"dict: .* -> PositionError message of {MESSAGE_LIMIT} characters"):
            fuzz_game(load_game("cross_endodoi"), seed=1, cases=20, hypothesis_examples=0)
    else:
        fuzz_game(load_game("cross_endodoi"), seed=1, cases=20, hypothesis_examples=0)


def test_a_non_canonical_notation_accepted_fails(monkeypatch):
    game_class = type(load_game("cross_endodoi"))
    original = game_class.state_from_notation
    monkeypatch.setattr(game_class, "state_from_notation", lambda self, text: original(self, text.strip()))
    with pytest.raises(AssertionError, match=r"accepted, but notation\(\) gives"):
        fuzz_game(load_game("cross_endodoi"), seed=1, cases=100, hypothesis_examples=0)


def test_a_hang_fails_within_the_call_limit(monkeypatch):
    game_class = type(load_game("cross_endodoi"))

    def slow(self, text):
        time.sleep(3)

    monkeypatch.setattr(game_class, "state_from_notation", slow)
    with pytest.raises(AssertionError, match=r"no answer within 0.5 s"):
        fuzz_game(load_game("cross_endodoi"), seed=1, cases=5, hypothesis_examples=0, call_limit=0.5)
