"""SimulationPanel runs ``simulate`` in a thread, then shows win rates and a plot."""

import threading

import pytest

from tabletop_lab.agents import agents_for
from tabletop_lab.widgets import SimulationPanel


def test_run_completes_and_fills_the_table():
    panel = SimulationPanel(n_games=30, seed=7)
    assert panel.status.value == "idle"
    assert "tl-sim" in panel._dom_classes and "tl-sim-table" in panel.results_box._dom_classes
    panel.run_button.click()
    df = panel.wait(timeout=120)
    assert len(df) == 30 and set(df["agent_0"]) == {"random", "greedy"}
    assert panel.status.value.startswith("done: 30 games in")
    assert panel.progress.value == panel.progress.max == 30
    assert "Win rates, 30 games" in panel.table.value and "First-player advantage" in panel.table.value
    assert "greedy" in panel.table.value and "random" in panel.table.value
    assert bytes(panel.plot.value).startswith(b"\x89PNG")
    assert not panel.run_button.disabled and panel.errors.text == ""


def test_same_seed_same_results():
    def results(seed):
        panel = SimulationPanel(agents=["random", "random"], n_games=10, seed=seed)
        panel.run()
        return panel.wait(timeout=120)["winners"].tolist()

    assert results(3) == results(3)


def test_a_failing_run_is_reported():
    panel = SimulationPanel(agents=["random", "nobody"], n_games=5)
    panel.run()
    panel.wait(timeout=60)
    assert panel.status.value.startswith("idle")
    assert "unknown agent 'nobody'" in panel.errors.text
    assert panel.results is None and not panel.run_button.disabled


def test_settings_are_checked():
    with pytest.raises(ValueError, match="agents needs 2"):
        SimulationPanel(agents=["random"])


def test_results_come_in_chunks_and_a_new_run_clears_the_old_ones():
    panel = SimulationPanel(agents=["random", "random"], n_games=40, seed=1)
    shown = []
    panel.table.observe(lambda change: shown.append(change["new"]), names="value")
    panel.run()
    df = panel.wait(timeout=120)
    assert len(df) == 40 and list(df["game_id"]) == list(range(40))
    assert sum("Win rates, 10 games" in t for t in shown) == 1  # the first chunk's table came first
    assert "Download the rows (CSV)" in panel.downloads.value and "Parquet" in panel.downloads.value
    shown.clear()
    downloads = []

    def on_downloads(change):
        downloads.append((change["new"], threading.current_thread() is threading.main_thread()))

    panel.downloads.observe(on_downloads, names="value")
    panel.run()  # the old results go at once, in run() itself: the new run's first chunk comes after
    assert len(panel.wait(timeout=120)) == 40
    assert downloads[0] == ("", True) and shown[0] == "" and "Win rates, 10 games" in shown[1]


def test_stop_keeps_the_finished_games():
    panel = SimulationPanel(agents=["mcts:iterations=50", "random"], n_games=1000, seed=2)
    panel.run()
    while panel.results is None:  # the first chunk of 10 games is in
        panel.thread.join(0.05)
    panel.stop()
    df = panel.wait(timeout=120)
    assert 10 <= len(df) < 1000 and list(df["game_id"]) == list(range(len(df)))
    assert panel.status.value.startswith(f"stopped: {len(df):,} of 1,000 games")
    assert not panel.run_button.disabled and panel.stop_button.disabled


@pytest.mark.parametrize("count", [0, -5, 10_000_000])
def test_a_bad_count_of_games_is_refused_with_a_message(count):
    panel = SimulationPanel(n_games=10)
    panel.n_games.value = count
    panel.run_button.click()
    assert "Games must be a whole number from 1 to 1,000,000" in panel.errors.text
    assert panel.thread is None and panel.status.value == "idle"


def test_the_study_shell_offers_every_game_with_its_options_and_seats():
    import tests.toy_games  # noqa: F401  (a game whose player count is an option)

    panel = SimulationPanel(choose_game=True)
    assert panel.game_picker in panel.children
    assert "cross_endodoi" in [value for _, value in panel.game_picker.options]
    assert set(panel.option_controls) == {"seeds_per_hole", "skip_origin", "first_player", "pie_rule"}
    assert [p.description for p in panel.seat_pickers] == ["Agent 1 (South first)", "Agent 2 (North first)"]
    panel.seats.value = "fixed"
    assert [p.description for p in panel.seat_pickers] == ["South", "North"]
    panel.option_controls["seeds_per_hole"].value = 6
    panel.run()
    assert panel.wait(timeout=120).attrs["options"]["seeds_per_hole"] == 6


def test_a_player_count_option_rebuilds_the_seats():
    import tests.toy_games  # noqa: F401

    panel = SimulationPanel("test_nim")
    assert len(panel.seat_pickers) == 2
    panel.option_controls["players"].value = 3
    assert len(panel.seat_pickers) == 3 and len(panel.seats_box.children) == 3
    panel.run()
    df = panel.wait(timeout=120)
    assert {"agent_2", "team_2"} <= set(df.columns)


def test_an_agent_that_fails_mid_run_keeps_the_finished_games():
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

    panel = SimulationPanel(agents=[Breaks(), "random"], n_games=100, seed=4)
    panel.run()
    df = panel.wait(timeout=120)
    assert "out of ideas" in panel.errors.text and "seat" in panel.errors.text
    assert 0 < len(df) < 100 and list(df["game_id"]) == list(range(len(df)))
    assert "Download the rows" in panel.downloads.value


def test_the_seat_pickers_offer_only_agents_that_play_the_game():
    import tests.toy_hidden  # noqa: F401  (registers test_hidden_card)

    panel = SimulationPanel("test_hidden_card")
    offered = [spec.partition(":")[0] for _, spec in panel.seat_pickers[0].options]
    assert offered == agents_for(panel.game) and "greedy" not in offered
    assert [picker.value for picker in panel.seat_pickers] == ["random", "random"]
    assert "greedy" in [spec for _, spec in SimulationPanel().seat_pickers[0].options]


@pytest.mark.parametrize("agents", [["random", "random"], ["random", "greedy"]])  # kernel threads; processes
def test_two_workers_give_the_rows_of_one(agents):
    def rows(workers):
        panel = SimulationPanel(agents=agents, n_games=30, seed=5, workers=workers)
        panel.run()
        return panel.wait(timeout=120).drop(columns="duration_s")

    two = rows(2)
    assert len(two) == 30 and two.equals(rows(1))


def test_the_study_names_teams_and_lists_agents_in_seat_order():
    from tabletop_lab import load_game
    from tabletop_lab.sim import simulate
    from tabletop_lab.widgets.simulation import summarise

    game = load_game("sinoda", players=4, teams="pairs")
    df = simulate(game, ["random", "random", "greedy", "random"], 8, seed=1)
    table, _ = summarise(df)
    rows = [table.index(label) for label in ("random#1</td>", "random#2</td>", "greedy</td>", "random#3</td>")]
    assert rows == sorted(rows)  # as the seats were given, not random#1, random#3, random#2
    assert "team dark: Blue and Green" in table and "team light: Red and Yellow" in table  # not 0 / 1
    panel = SimulationPanel("capitals", agents=["random"] * 4)
    assert panel.options_box.layout.flex_flow == "row wrap"  # Capitals' many options wrap at 1280 px


def test_run_comes_back_only_with_the_final_status():
    panel = SimulationPanel(agents=["mcts:iterations=50", "random"], n_games=1000, seed=2)
    seen = []
    panel.run_button.observe(lambda change: seen.append((change["new"], panel.status.value)), names="disabled")
    panel.run()
    while panel.results is None:
        panel.thread.join(0.05)
    panel.stop()
    panel.wait(timeout=120)
    assert seen[-1][0] is False and seen[-1][1].startswith("stopped:")  # never enabled beside "stopping…"
    assert not [status for disabled, status in seen if not disabled and status.startswith("stopping")]


def test_sinomilia_offers_its_own_heuristic_agent():
    panel = SimulationPanel("sinomilia", agents=["random", "ismcts:iterations=50"])
    specs = [spec.partition(":")[0] for _, spec in panel.seat_pickers[0].options]
    assert "sinomilia_heuristic" in specs
    assert "Heuristic, bluffs 20%" in [label for label, _ in panel.seat_pickers[0].options]
