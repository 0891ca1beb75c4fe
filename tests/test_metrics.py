"""The designer's metrics (``tabletop_lab.metrics``) on hand-built games whose values are known,
and ``stats.report_card`` on toy games built so that the lead never changes or changes every move;
recording is the same through the kernels and the engine."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest

import tests.toy_games  # noqa: F401  (registers the toy games)
from tabletop_lab import load_game, metrics
from tabletop_lab.core import Game
from tabletop_lab.kernels import use_kernels
from tabletop_lab.registry import register_game
from tabletop_lab.sim import replay_actions, simulate, storable
from tabletop_lab.sim.batch import final_position
from tabletop_lab.stats import CARD_COLUMNS, CARD_METRICS, report_card
from tests.toy_games import NimGame, NimState


class SeesawState(NimState):
    """Nim whose evaluation favours the player to move, by 1/2: the lead changes every move."""

    def evaluate(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        return [0.5 if player == self.to_move else -0.5 for player in range(self.game.num_players)]


@register_game
class SeesawGame(NimGame):
    info = dataclasses.replace(NimGame.info, name="test_seesaw", title="Seesaw Nim (test)")

    def new_initial_state(self) -> SeesawState:
        return SeesawState(self, self.options["pile"], 0)


def two(values):
    """A two-team value matrix from team 0's values."""
    return metrics.team_values(np.array(values, np.float32), 2)


def toy_games(name, n_games=40, **kwargs):
    kwargs = {"record_actions": True, "evaluator": "evaluate", **kwargs}
    return simulate(name, ["random", "random"], n_games, seed=2, progress=False, **kwargs)


# ----------------------------------------------------------------------------- one game


def test_branching_decisions_and_game_tree_of_known_counts():
    n_legal = np.array([1, 3, 4], np.int32)
    assert metrics.branching_factor(n_legal) == pytest.approx(8 / 3)
    assert metrics.decision_moves(n_legal) == pytest.approx(2 / 3)
    assert metrics.game_tree_log10(n_legal) == pytest.approx(3 * math.log10(8 / 3))
    assert math.isnan(metrics.branching_factor(np.zeros(0, np.int32)))


def test_lead_change_is_0_for_a_steady_lead_and_1_for_a_lead_that_flips_every_move():
    assert metrics.lead_change(two([0.2, 0.3, 0.5, 0.1])) == 0.0
    assert metrics.lead_change(two([0.1, -0.1, 0.1, -0.1])) == 1.0
    assert metrics.lead_change(two([0.0, 0.0, 0.0])) == 0.0  # a tie throughout: the same leaders
    assert metrics.lead_change(two([0.0, 0.5, 0.5])) == 0.5  # tie, then team 0 ahead: one change of two
    assert math.isnan(metrics.lead_change(two([0.3])))


def test_drama_is_how_far_behind_the_winner_was():
    values = two([-0.5, 0.5])  # the winner (team 0) 1.0 behind, then ahead
    assert metrics.drama(values, {0}) == pytest.approx(0.5)
    assert metrics.drama(values, {1}) == pytest.approx(0.5)
    assert metrics.drama(two([0.2, 0.4]), {0}) == 0.0
    assert math.isnan(metrics.drama(values, set()))


def test_decisiveness_is_when_the_winner_passes_every_value_a_loser_had():
    # team 1 peaks at 0.2 (position 1); team 0 first exceeds 0.2 at position 3 of 4
    assert metrics.decisiveness(two([0.0, -0.2, 0.1, 0.5]), {0}) == 0.75
    assert metrics.decisiveness(two([0.1, 0.1]), {0}) == 0.0  # ahead of the loser's best from the start
    assert metrics.decisiveness(two([0.0, 0.0]), {0}) == 1.0  # never ahead: decided at the end
    assert math.isnan(metrics.decisiveness(two([0.0]), {0, 1}))  # a draw has no loser


def test_uncertainty_and_stability_of_known_evaluations():
    assert metrics.uncertainty(two([0.0, 1.0])) == pytest.approx(0.5)
    assert metrics.uncertainty(two([0.0, 0.0])) == 1.0
    assert metrics.stability(two([0.5, -0.5])) == pytest.approx(0.25)
    assert metrics.stability(two([0.3, 0.3, 0.3])) == pytest.approx(0.0)
    three = metrics.team_values(np.array([0.5, 0.0, -0.5, 0.1, 0.1, 0.1], np.float32), 3)
    assert three.shape == (2, 3)
    assert metrics.uncertainty(three) == pytest.approx(((1 - 0.25) + 1) / 2)
    with pytest.raises(ValueError, match="5 values do not make whole positions of 3 teams"):
        metrics.team_values(np.zeros(5), 3)


def test_repetition_and_coverage_of_known_positions():
    assert metrics.repetition(["a", "b", "a", "b"]) == 0.5
    assert metrics.repetition([1, 2, 3]) == 0.0
    assert metrics.coverage([0b0001, 0b0010, 0b0011], 4) == 0.5


# ----------------------------------------------------------------------------- the card


def test_a_lead_that_never_changes():
    """Nim's evaluation is 0 until the end: one tie all game, nothing moves, the winner never ahead."""
    card = report_card(toy_games("test_nim")).set_index("metric")
    assert card.loc["lead_change", "value"] == 0.0
    assert card.loc["stability", "value"] == 0.0
    assert card.loc["uncertainty", "value"] == 1.0
    assert card.loc["decisiveness", "value"] == 1.0
    assert card.loc["drama", "value"] == 0.0
    assert card.loc["repetition", "value"] == 0.0  # the pile only shrinks
    assert card.loc["completion", "value"] == 1.0
    assert card.loc["lead_change", "n"] == 40


def test_a_lead_that_changes_every_move():
    df = toy_games("test_seesaw")
    card = report_card(df).set_index("metric")
    assert card.loc["lead_change", "value"] == 1.0
    assert card.loc["lead_change", "ci_low"] == card.loc["lead_change", "ci_high"] == 1.0
    assert card.loc["uncertainty", "value"] == pytest.approx(0.5)
    stabilities = [np.var(np.resize([0.5, -0.5], n)) for n in df["n_moves"]]
    assert card.loc["stability", "value"] == pytest.approx(np.mean(stabilities))


def test_the_card_has_its_columns_metrics_and_seeded_intervals():
    df = toy_games("test_seesaw", 60)
    card = report_card(df, seed=3)
    assert list(card.columns) == CARD_COLUMNS
    expected = [m for m in CARD_METRICS if m not in ("coverage", "state_space_log10")]  # Nim has no board or bound
    assert card["metric"].tolist() == expected
    assert card["definition"].str.contains("Ludii|Browne").all()
    pd.testing.assert_frame_equal(card, report_card(df, seed=3))
    other = report_card(df, seed=4).set_index("metric")
    assert other.loc["duration_turns", "ci_low"] != card.set_index("metric").loc["duration_turns", "ci_low"]
    bootstrapped = card[~card["metric"].isin(["advantage_first", "drawishness", "completion", "balance"])]
    assert ((bootstrapped.ci_low <= bootstrapped.value) & (bootstrapped.value <= bootstrapped.ci_high)).all()
    some = report_card(df, seed=3, metrics=["drama", "balance"])
    assert some["metric"].tolist() == ["drama", "balance"]
    assert some.set_index("metric").loc["drama"].equals(card.set_index("metric").loc["drama"])  # the same resamples


def test_what_the_frame_lacks_is_absent_with_a_note_saying_what_to_record():
    bare = simulate("test_nim", ["random", "random"], 10, seed=1, progress=False)
    card = report_card(bare)
    assert card["metric"].tolist() == ["balance", "advantage_first", "drawishness", "completion", "duration_turns"]
    notes = " | ".join(card.attrs["notes"])
    assert "branching_factor, decision_moves, game_tree_log10: simulate with record_actions=True" in notes
    assert 'lead_change, drama, uncertainty, stability: simulate with evaluator="evaluate"' in notes
    assert "state_space_log10: test_nim declares no bound" in notes
    unreplayed = report_card(toy_games("test_nim", 5), replay=False)
    assert "repetition" not in unreplayed["metric"].tolist()
    assert "repetition: call report_card with replay=True" in unreplayed.attrs["notes"]


def test_a_game_that_cannot_draw_has_no_drawishness_and_no_board_no_coverage():
    card = report_card(toy_games("sinomilia", 12, evaluator=None))
    assert "drawishness" not in card["metric"].tolist() and "coverage" not in card["metric"].tolist()
    assert not any("drawishness" in note or "coverage" in note for note in card.attrs["notes"])


def test_bad_input_is_refused_by_name():
    df = toy_games("test_nim", 4)
    with pytest.raises(ValueError, match="unknown metric 'fun'; report_card knows balance, advantage_first"):
        report_card(df, metrics=["fun"])
    with pytest.raises(ValueError, match="metrics must be None or a list of metric names; got 'drama'"):
        report_card(df, metrics="drama")
    with pytest.raises(ValueError, match="resamples must be a positive integer; got 0"):
        report_card(df, resamples=0)
    with pytest.raises(ValueError, match="expected a DataFrame from tabletop_lab.sim.simulate"):
        report_card(pd.DataFrame({"x": [1]}))


def test_a_card_reads_the_same_from_parquet(tmp_path):
    df = toy_games("test_seesaw", 20)
    storable(df).to_parquet(tmp_path / "games.parquet")
    back = pd.read_parquet(tmp_path / "games.parquet")
    pd.testing.assert_frame_equal(report_card(back), report_card(df))


# ----------------------------------------------------------------------------- recording


SMALL = {"cross_endodoi": {}, "sinoda": {}, "sinomilia": {}, "capitals": {}, "sygo": {"size": 7}}


@pytest.mark.parametrize("name", list(SMALL))
def test_kernels_record_what_the_engine_records_and_the_actions_replay(name):
    game = load_game(name, **SMALL[name])
    agents = ["random"] * game.num_players
    recorded = simulate(game, agents, 6, seed=8, progress=False, record_actions=True)
    previous = use_kernels(False)
    try:
        in_python = simulate(game, agents, 6, seed=8, progress=False, record_actions=True)
    finally:
        use_kernels(previous)
    for column in ("actions", "n_legal"):
        assert [a.tolist() for a in recorded[column]] == [a.tolist() for a in in_python[column]]
    for row in recorded.itertuples():
        *_, state = replay_actions(game, row.actions)  # the one state, at the end
        assert final_position(state) == row.final and len(row.n_legal) == row.n_actions


def test_three_teams_keep_a_value_each_and_draws_leave_drama_and_decisiveness():
    sinoda = load_game("sinoda", players=3)
    assert len(sinoda.teams()) == 3
    three = simulate(sinoda, ["random"] * 3, 3, seed=1, progress=False, evaluator="evaluate")
    assert (three["values"].map(len) == 3 * three["n_moves"]).all()
    card = report_card(three, metrics=["lead_change", "uncertainty"]).set_index("metric")
    assert 0 < card.loc["lead_change", "value"] < 1 and 0 < card.loc["uncertainty", "value"] < 1
    df = toy_games("cross_endodoi", 60, record_actions=False)
    decided = int((~df["hit_cap"] & ~df["draw"]).sum())
    assert decided < len(df)  # some draws, which drama and decisiveness leave out
    card = report_card(df, metrics=["drama", "decisiveness", "lead_change"]).set_index("metric")
    assert card.loc["drama", "n"] == card.loc["decisiveness", "n"] == decided
    assert card.loc["lead_change", "n"] == len(df)


@pytest.mark.parametrize("name", list(SMALL))
def test_the_games_board_hooks_count_sites_on_the_board(name):
    game = load_game(name, **SMALL[name])
    df = simulate(game, ["random"] * game.num_players, 2, seed=4, progress=False, record_actions=True)
    if game.num_sites is None:
        assert all(s.occupied_sites() is None for s in replay_actions(game, df["actions"].iat[0]))
        return
    counts = [s.occupied_sites().bit_count() for s in replay_actions(game, df["actions"].iat[0]) if not s.mid_turn()]
    assert max(counts) <= game.num_sites and max(counts) > 0


#: Games whose replay for repetition and coverage is their own (Sygo's), and games on the default.
REPLAYED = [("sygo", {"size": 9}, 40), ("sygo", {"size": 19}, 6), ("capitals", {}, 20), ("cross_endodoi", {}, 40)]


@pytest.mark.parametrize(("name", "options", "n_games"), REPLAYED)
def test_repetition_and_coverage_are_the_engines_replay_of_every_game(name, options, n_games, monkeypatch):
    game = load_game(name, **options)
    df = simulate(game, ["random"] * game.num_players, n_games, seed=6, progress=False, record_actions=True)
    asked = {"seed": 1, "metrics": ["repetition", "coverage"], "resamples": 50}
    card = report_card(df, **asked).set_index("metric")
    repeated, covered = [], []
    for actions in df["actions"][~df["hit_cap"]]:  # the engine's states, as the card read them before its hook
        keys, masks = zip(*[(s.key(), s.occupied_sites()) for s in replay_actions(game, actions) if not s.mid_turn()])
        repeated.append(metrics.repetition(keys))
        if game.num_sites is not None:
            covered.append(metrics.coverage(masks, game.num_sites))
    assert card.loc["repetition", "value"] == np.mean(repeated) and card.loc["repetition", "n"] == len(repeated)
    if covered:
        assert card.loc["coverage", "value"] == np.mean(covered)
    monkeypatch.setattr(type(game), "recorded_positions", Game.recorded_positions)  # the engine's replay
    pd.testing.assert_frame_equal(card.reset_index(), report_card(df, **asked))


def test_the_state_space_bounds_count_what_they_say():
    seeds = load_game("cross_endodoi").total_seeds  # in 12 holes and 2 stores, either player to move
    assert load_game("cross_endodoi").state_space_log10() == pytest.approx(math.log10(2 * math.comb(seeds + 13, 13)))
    assert load_game("sygo", size=3).state_space_log10() == pytest.approx(math.log10(3**9 * 2 * 2 * 3))


def sinoda_index(game, position: dict) -> int:
    """A number below Sinoda's bound, distinct for distinct positions, made from exactly the
    fields and ranges ``SinodaGame.state_space_log10`` counts."""
    players, cells = game.num_players, game.board.names
    on = {cell: 1 + player * 4 + value - 1 for cell, player, value in position["pieces"]}
    index = 0
    for cell in cells:
        index = index * (1 + 4 * players) + on.get(cell, 0)
    for capturer, captured in enumerate(position["captured"]):
        for owner in (o for o in range(players) if o != capturer):
            for value in range(1, 5):
                count = captured.count([owner, value])
                assert count <= 6
                index = index * 7 + count
    return index * players + position["to_move"]


@pytest.mark.parametrize("options", [{}, {"players": 4, "teams": "pairs"}])
def test_every_sinoda_position_met_fits_its_bound_distinctly(options):
    game = load_game("sinoda", **options)
    df = simulate(game, ["random"] * game.num_players, 4, seed=3, progress=False, record_actions=True)
    seen: dict[int, str] = {}
    for actions in df["actions"]:
        for state in replay_actions(game, actions):
            if state.is_terminal():
                continue
            index = sinoda_index(game, json.loads(state.to_json()))
            assert (
                0 <= index < 10 ** game.state_space_log10()
                and seen.setdefault(index, state.to_json()) == state.to_json()
            )
    assert len(seen) > 100


def capitals_index(game, position: dict) -> int:
    """A number below Capitals' bound, distinct for distinct positions (the cycle's number aside
    but modulo 4), made from exactly the fields and ranges ``CapitalsGame.state_space_log10``
    counts: the lists are ranked as one sequence of entries cut in nine (stars and bars)."""
    square = {name: i for i, name in enumerate(f"{f}{r}" for r in range(1, 9) for f in "abcdefgh")}
    units = {square[name]: (owner, controller, top) for name, owner, controller, top in position["pieces"]}
    index = 0
    for at in range(64):
        unit = units.get(at)
        if unit is None:
            digit = 0
        elif unit[2] is None:  # a single piece: its owner and controller
            digit = 1 + unit[0] * 4 + unit[1]
        else:  # a Ram: and its top piece's owner
            digit = 17 + (unit[0] * 4 + unit[1]) * 4 + unit[2]
        index = index * 81 + digit
    lists = [*position["cages"], *position["altars"], [owner * 4 + where for owner, where in position["releases"]]]
    entries = list(itertools.chain(*lists))
    n = len(entries)
    assert n <= 36 and all(0 <= entry < 16 for entry in entries)
    bars = list(itertools.accumulate(len(part) for part in lists[:-1]))
    cut = sum(math.comb(bar + j, j + 1) for j, bar in enumerate(bars))  # the bars' places, ranked
    symbols = sum(entry * 16**k for k, entry in enumerate(entries))
    rank = sum(math.comb(m + 8, 8) * 16**m for m in range(n)) + cut * 16**n + symbols
    index = index * sum(math.comb(m + 8, 8) * 16**m for m in range(37)) + rank
    assert all(0 <= k <= 9 for k in position["removed"]) and position["transfers"] <= game.options["transfers_per_turn"]
    for value, radix in [*((k, 10) for k in position["removed"]), ((position["cycle"] - 1) % 4, 4),
                         (position["slot"], 4), (position["actor"], 4), (int(position["extra_turn"]), 2),
                         (position["transfers"], game.options["transfers_per_turn"] + 1),
                         (int(position["pending_sacrifice"]), 2),
                         *((int(flag), 2) for flag in position["altar_filled"] + position["eliminated"])]:  # fmt: skip
        index = index * radix + value
    return index


def test_every_capitals_position_met_fits_its_bound_distinctly():
    game = load_game("capitals", transfers_per_turn=2)
    df = simulate(game, ["random"] * 4, 3, seed=5, progress=False, record_actions=True)
    seen: dict[int, str] = {}
    for actions in df["actions"]:
        for state in replay_actions(game, actions):
            if state.mid_turn():
                continue
            position = json.loads(state.to_json())
            key = json.dumps({**position, "cycle": (position["cycle"] - 1) % 4}, sort_keys=True)
            index = capitals_index(game, position)
            assert 0 <= index < 10 ** game.state_space_log10() and seen.setdefault(index, key) == key
    assert len(seen) > 100


def sinomilia_index(position: dict) -> int:
    """A number below Sinomilia's bound, distinct for distinct positions (the round aside), made
    from exactly the fields and ranges ``SinomiliaGame.state_space_log10`` counts."""
    cards = 0
    for player in (0, 1):
        discards, card = position["discards"][player], position["set"][player]
        assert 9 not in discards and set(position["hands"][player]) == set(range(10)) - set(discards) - {card}
        cards = cards * 2**9 * 11 + sum(1 << c for c in discards) * 11 + (0 if card is None else card + 1)
    chips = CHIP_SPLITS.index((position["chips"][0], *position["table"]))
    flags = [["set", "play", "over"].index(position["phase"]),
             [0, 1, None].index(position["to_move"]), position["start_player"],
             position["changed"][0] * 2 + position["changed"][1], [None, 0, 1].index(position["last_action"]),
             ["none", "pass", "sun", "moon", "change"].index(position["last_turn"]),
             [None, 0, 1].index(position["last_round_winner"]), int(position["cap_reached"])]  # fmt: skip
    index = cards * len(CHIP_SPLITS) + chips
    for value, radix in zip(flags, (3, 3, 2, 4, 3, 5, 3, 2)):
        index = index * radix + value
    return index


#: Sinomilia's chips as (pile 0, sun, moon) on the table: pile 1 holds the rest of the 30.
CHIP_SPLITS = [(p, s, m) for s in range(10) for m in range(10 - s) for p in range(31 - s - m)]


def test_every_sinomilia_position_met_fits_its_bound_distinctly():
    game = load_game("sinomilia")
    assert len(CHIP_SPLITS) == 1375
    df = simulate(game, ["random", "random"], 30, seed=2, progress=False, record_actions=True)
    seen: dict[int, str] = {}
    for actions in df["actions"]:
        for state in replay_actions(game, actions):
            position = json.loads(state.to_json())
            key = json.dumps({k: v for k, v in position.items() if k != "round"}, sort_keys=True)
            index = sinomilia_index(position)
            assert 0 <= index < 10 ** game.state_space_log10() and seen.setdefault(index, key) == key
    assert len(seen) > 1000
