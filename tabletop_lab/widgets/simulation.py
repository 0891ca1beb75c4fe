"""Run a simulation from a notebook or Voila app without blocking it: agents per seat, a Run button,
a progress bar, then win rates with Wilson 95% intervals, first-player advantage and lengths.

``simulate`` runs in a worker thread; the thread only sets widget values (never ``with output:``,
which loses output from threads), so the kernel keeps answering clicks meanwhile.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..core import Game
from ..registry import load_game
from ..render import figure_png
from .controls import ErrorLog, guarded, seat_picker

__all__ = ["SimulationPanel"]

PLOT_SIZE = (6.0, 3.2)  # inches, drawn at 100 dpi
_TABLE_STYLE = (
    "<style>.tl-sim-results th, .tl-sim-results td {padding: 2px 10px; text-align: right}"
    " .tl-sim-results {border-collapse: collapse; margin-bottom: 8px}</style>"
)


class SimulationPanel(widgets.VBox):
    """Simulate games of ``game`` between the agents picked per seat (CSS class ``tl-sim``).

    After a run, ``results`` holds the DataFrame of ``simulate`` (one row per game). ``run()``
    starts a run and returns its thread; ``wait()`` joins it and returns the results.
    Status (``tl-sim-status``): ``idle``, ``running k/n``, ``done: n games in s``.
    """

    def __init__(
        self,
        game: str | Game = "cross_endodoi",
        *,
        options: dict | None = None,
        agents: list | None = None,
        n_games: int = 200,
        seed: int = 0,
        workers: int = 1,
    ):
        super().__init__()
        self.add_class("tl-sim")
        self.game = load_game(game, **(options or {})) if isinstance(game, str) else game
        n = self.game.num_players
        agents = ["random", "greedy"][:n] + ["random"] * (n - 2) if agents is None else list(agents)
        if len(agents) != n:
            raise ValueError(f"{self.game.name}: agents needs {n} entries (one per seat), got {len(agents)}")
        names = self.game.info.player_names
        self.seat_pickers = [
            seat_picker(i, names[i] if i < len(names) else f"Player {i}", spec, human=False)
            for i, spec in enumerate(agents)
        ]
        style = {"description_width": "initial"}
        self.n_games = widgets.BoundedIntText(value=n_games, min=1, max=10_000_000, description="Games", style=style)
        self.n_games.add_class("tl-sim-games")
        self.seed = widgets.IntText(value=seed, description="Seed", style=style)
        self.seed.add_class("tl-sim-seed")
        self.workers = widgets.BoundedIntText(
            value=workers, min=1, max=os.cpu_count() or 1, description="Workers", style=style
        )
        self.workers.add_class("tl-sim-workers")
        self.seats = widgets.Dropdown(
            options=["rotate", "fixed", "random"], value="rotate", description="Seats", style=style
        )
        self.seats.add_class("tl-sim-seats")
        for control in (self.n_games, self.seed, self.workers, self.seats):
            control.layout.width = "160px"
        self.run_button = widgets.Button(description="Run", button_style="primary")
        self.run_button.add_class("tl-sim-run")
        self.run_button.on_click(lambda _: self._on_run())
        self.progress = widgets.IntProgress(value=0, min=0, max=n_games, layout=widgets.Layout(width="320px"))
        self.status = widgets.Label("idle")
        self.status.add_class("tl-sim-status")
        self.table = widgets.HTML()
        self.plot = widgets.Image(format="png", layout=widgets.Layout(width=f"{PLOT_SIZE[0] * 100}px", display="none"))
        self.results_box = widgets.VBox([self.table, self.plot])
        self.results_box.add_class("tl-sim-table")
        self.errors = ErrorLog()
        self.results = None
        self.thread: threading.Thread | None = None
        self.children = [
            widgets.HBox(self.seat_pickers),
            widgets.HBox([self.n_games, self.seed, self.workers, self.seats]),
            widgets.HBox([self.run_button, self.progress, self.status]),
            self.results_box,
            self.errors,
        ]

    def run(self) -> threading.Thread:
        """Start a run with the current settings in a thread; refuse while one is running."""
        if self.thread is not None and self.thread.is_alive():
            raise ValueError("a simulation is already running")
        agents = [picker.value for picker in self.seat_pickers]
        n_games, seed, workers, seats = self.n_games.value, self.seed.value, self.workers.value, self.seats.value
        self.errors.clear()
        self.run_button.disabled = True
        self.progress.max, self.progress.value = n_games, 0
        self.status.value = f"running 0/{n_games}"
        self.thread = threading.Thread(
            target=self._work, args=(agents, n_games, seed, workers, seats), name="tl-simulation", daemon=True
        )
        self.thread.start()
        return self.thread

    def wait(self, timeout: float | None = None):
        """Wait for the running simulation (if any) and return ``results``."""
        if self.thread is not None:
            self.thread.join(timeout)
            if self.thread.is_alive():
                raise TimeoutError(f"the simulation is still running after {timeout} s")
        return self.results

    @guarded
    def _on_run(self) -> None:
        self.run()

    def _work(self, agents: list, n_games: int, seed: int, workers: int, seats: str) -> None:
        from ..sim import simulate  # pandas and scipy load on the first run, not with the board

        started = time.perf_counter()
        try:
            df = simulate(self.game, agents, n_games, seed=seed, workers=workers, seats=seats, progress=self._progress)
            table, png = summarise(df)
        except Exception as exc:
            self.errors.report(exc)
            self.status.value = "idle: the run failed, see the message below"
            return
        finally:
            self.run_button.disabled = False
        self.results = df
        self.table.value = table
        self.plot.value = png
        self.plot.layout.display = None  # shown once it has a picture (no broken-image icon before)
        self.status.value = f"done: {len(df)} games in {time.perf_counter() - started:.1f} s"

    def _progress(self, done: int, total: int) -> None:
        self.progress.value = done
        self.status.value = f"running {done}/{total}"


def summarise(df: Any) -> tuple[str, bytes]:
    """HTML tables (win rates with Wilson 95% intervals, first-player advantage, game length)
    and a PNG plot of the win rates, from a ``simulate`` DataFrame."""
    from .. import plots, stats

    rates = stats.win_rates(df)
    shown = rates[["agent", "wins", "draws", "losses", "n"]].copy()
    shown["rate, draws half (95% CI)"] = [f"{r.rate:.1%} [{r.ci_low:.1%}, {r.ci_high:.1%}]" for r in rates.itertuples()]
    first = stats.first_player_advantage(df)
    html = (
        _TABLE_STYLE
        + f"<h4>Win rates, {len(df)} games</h4>"
        + shown.to_html(index=False, border=0, classes="tl-sim-results")
        + f"<p>First-player advantage (draws count half): {first['value']:.1%} "
        f"[{first['ci_low']:.1%}, {first['ci_high']:.1%}], n = {first['n']}</p>"
        + "<h4>Game length</h4>"
        + stats.length_summary(df)
        .reset_index()
        .to_html(index=False, border=0, classes="tl-sim-results", float_format=lambda x: f"{x:.1f}")
    )
    figure = Figure(figsize=PLOT_SIZE, dpi=100, layout="constrained")
    plots.plot_win_rates(rates, ax=figure.add_subplot())
    return html, figure_png(figure)
