"""Sygo's quick replay of recorded games (``replay.positions``, its ``recorded_positions``)
against the engine's: the same positions (``State.key()``, ``occupied_sites()``) in the same
order, game by game, over every rules option, with games cut in the middle of a turn."""

from __future__ import annotations

import pytest

from tabletop_lab import load_game
from tabletop_lab.core import Game
from tabletop_lab.errors import IllegalActionError
from tabletop_lab.sim import replay_actions, simulate

#: (options, games, max_actions): every option value; small caps cut games mid-turn
CONFIGS = [
    ({"size": 9}, 40, None),
    ({"size": 7, "growth": "all"}, 30, None),
    ({"size": 6, "balancing": False}, 30, None),
    ({"size": 5}, 60, 23),
    ({"size": 19}, 4, None),
]


def engine_positions(game, actions):
    return [(s.key(), s.occupied_sites()) for s in replay_actions(game, actions) if not s.mid_turn()]


@pytest.mark.parametrize(("options", "n_games", "cap"), CONFIGS)
def test_the_quick_replay_meets_the_engines_positions(options, n_games, cap):
    game = load_game("sygo", **options)
    df = simulate(game, ["random", "random"], n_games, seed=5, progress=False, max_actions=cap, record_actions=True)
    reversals = balancing = cut_mid_turn = 0
    first_growth, n = 2 + game.num_sites, game.num_sites
    for actions in df["actions"]:
        quick = list(game.recorded_positions(actions))
        assert quick == engine_positions(game, actions)
        assert quick == list(Game.recorded_positions(game, actions))  # the shared default: the same replay
        for (before, _), (after, _) in zip(quick, quick[1:]):
            reversals += bool(before[0] & after[1] or before[1] & after[0])  # a stone changed colour
        actions = actions.tolist()
        balancing += any(a >= first_growth and 2 <= b < 2 + n for a, b in zip(actions, actions[1:]))
        cut_mid_turn += bool(actions) and actions[-1] >= first_growth
    assert reversals > 0  # captures happened, on the path that reverses groups
    if options.get("balancing", True) and options["size"] < 19:
        assert balancing > 0  # balancing moves (growth ending in a placement) were replayed
    if cap is not None:
        assert cut_mid_turn > 0  # a game's last turn unfinished: its growth stones are no position


@pytest.mark.parametrize(
    ("actions", "says"),
    [
        ([2, 0, 0, 3], "after the game's end"),  # a stone, two passes, then more
        ([2 + 2 * 9], "not a Sygo action code"),  # one past the last growth code on 3x3
        ([1], "finishes no growth turn"),  # finish before any growth stone
        ([6, 2 + 9 + 0, 0], "passes in the middle of a turn"),  # a growth stone, then a pass
        ([6, 6], "occupied point"),  # b2 twice
        ([6, 2 + 9 + 4], "occupied point"),  # a growth stone on b2 (point 4), where a stone stands
    ],
)
def test_the_quick_replay_refuses_what_no_game_records(actions, says):
    game = load_game("sygo", size=3)
    with pytest.raises(IllegalActionError, match=says):
        list(game.recorded_positions(actions))
