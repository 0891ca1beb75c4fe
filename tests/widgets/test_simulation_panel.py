"""SimulationPanel runs ``simulate`` in a thread, then shows win rates and a plot."""

import pytest

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
