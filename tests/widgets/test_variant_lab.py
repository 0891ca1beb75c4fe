"""VariantLab plays two option sets of a game on the same seeds in a thread and shows
``stats.compare_variants``: a table of differences with intervals, a figure, downloads."""

import base64
import io

import pandas as pd
import pytest

import tests.toy_games  # noqa: F401  (registers test_nim, whose pile and players are options)
from tabletop_lab.stats import VARIANT_COLUMNS, compare_variants
from tabletop_lab.widgets import VariantLab


def lab(**kwargs):
    settings = {"options_b": {"pile": 7}, "n_games": 20, "seed": 3, **kwargs}
    return VariantLab("test_nim", **settings)


def test_a_run_shows_each_metrics_difference_and_offers_the_rows():
    panel = lab()
    assert "tl-variant" in panel._dom_classes and panel.status.value == "idle"
    assert panel.option_controls["a"]["pile"].value == "10" and panel.option_controls["b"]["pile"].value == "7"
    panel.run_button.click()
    table = panel.wait(timeout=120)
    assert panel.status.value.startswith("done: 20 paired games in") and panel.errors.text == ""
    assert list(table.columns) == VARIANT_COLUMNS and "duration_turns" in table["metric"].tolist()
    a, b = panel.games
    assert len(a) == len(b) == 20 and a["seed"].tolist() == b["seed"].tolist()
    assert '"pile":10' in str(a["options"].iat[0]) and '"pile":7' in str(b["options"].iat[0])
    pd.testing.assert_frame_equal(table, compare_variants(a, b, seed=3))  # the lab's seed draws the resamples
    assert "B − A (95% CI)" in panel.table.value and "drama" in panel.table.value
    assert bytes(panel.plot.value).startswith(b"\x89PNG")
    assert panel.progress.value == panel.progress.max == 40
    assert not panel.run_button.disabled and panel.stop_button.disabled
    csv = panel.downloads.value.split('href="data:text/csv;base64,')[1].split('"')[0]
    rows = pd.read_csv(io.BytesIO(base64.b64decode(csv)))
    assert rows["metric"].tolist() == table["metric"].tolist() and list(rows.columns) == VARIANT_COLUMNS
    assert "Download the games (Parquet)" in panel.downloads.value


def test_the_same_settings_give_the_same_differences():
    def differences():
        panel = lab(n_games=15)
        panel.run()
        return panel.wait(timeout=120)

    pd.testing.assert_frame_equal(differences(), differences())


def test_variants_that_seat_different_players_are_refused_with_a_message():
    panel = lab(options_b={"players": 3})
    panel.run_button.click()
    assert "variant A seats 2 players and B 3" in panel.errors.text
    assert panel.thread is None and panel.status.value == "idle"


@pytest.mark.parametrize("count", [0, 50_000])
def test_a_bad_count_of_games_is_refused_with_a_message(count):
    panel = lab(n_games=count)
    panel.run_button.click()
    assert "Games per variant must be a whole number from 1 to 20,000" in panel.errors.text
    assert panel.thread is None


def test_a_player_count_option_of_variant_a_rebuilds_the_seats():
    panel = lab()
    panel.option_controls["a"]["players"].value = 3
    assert len(panel.seat_pickers) == 3 and len(panel.seats_box.children) == 3


def test_stop_keeps_the_games_both_variants_finished():
    panel = lab(agents=["mcts:iterations=30", "random"], n_games=1000, evaluate=False)
    panel.run()
    while panel.results is None:  # the first chunk of 10 pairs is in
        panel.thread.join(0.05)
    panel.stop()
    panel.wait(timeout=120)
    a, b = panel.games
    assert 10 <= len(a) == len(b) < 1000 and a["seed"].tolist() == b["seed"].tolist()
    assert list(a["game_id"]) == list(range(len(a)))
    assert panel.status.value.startswith(f"stopped: {len(a):,} of 1,000 paired games")
    assert "drama" not in panel.results["metric"].tolist()  # no evaluations recorded
    assert not panel.run_button.disabled and panel.stop_button.disabled


def test_an_agent_that_fails_mid_run_keeps_the_pairs_finished_before():
    from tabletop_lab.agents import RandomAgent

    class Breaks(RandomAgent):
        """Plays randomly, then raises in its 300th decision."""

        name = "breaks"
        calls = 0

        def choose_action(self, state):
            Breaks.calls += 1
            if Breaks.calls == 300:
                raise RuntimeError("out of ideas")
            return super().choose_action(state)

    panel = lab(agents=[Breaks(), "random"], n_games=100, evaluate=False)
    panel.run()
    panel.wait(timeout=120)
    assert "out of ideas" in panel.errors.text and panel.status.value.startswith("idle: the run failed")
    a, b = panel.games
    assert 0 < len(a) == len(b) < 100 and len(a) % 10 == 0  # whole chunks of 10 pairs
    assert "Download the differences (CSV)" in panel.downloads.value and not panel.run_button.disabled
