"""The Study shell: simulate games of any game without blocking the page, with results as they come in.

A ``SimulationPanel`` picks a game (optionally), its rule options, an agent per seat, the number
of games, a seed and workers; Run plays the games in a worker thread, in chunks, and after each
chunk refreshes the win rates (Wilson 95% intervals), first-player advantage and lengths; Stop
ends the run after the games in progress and keeps the finished ones; the rows download as CSV
or Parquet. The thread only sets widget values (never ``with output:``, which loses output from
threads), so the kernel keeps answering clicks meanwhile. When the page closes, Voila shuts the
kernel down and the run with it.

Chunk ``k`` of a run seeded ``s`` is ``simulate(..., seed=SeedSequence(s, spawn_key=(k,)))``, and
the chunk sizes depend on the number of games only, so the same settings give the same rows.
"""

from __future__ import annotations

import base64
import html
import io
import os
import threading
import time
import warnings
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from ..agents import agents_for, make_agent
from ..core import Game
from ..kernels import compile_notice
from ..registry import list_games, load_game
from ..render import figure_png
from .controls import ErrorLog, guarded, option_controls, option_value, seat_picker

__all__ = ["SimulationPanel", "MAX_GAMES", "chunk_sizes", "chunk_seed", "data_link"]

PLOT_SIZE = (6.0, 3.2)  # inches, drawn at 100 dpi
MAX_GAMES = 1_000_000  # per run: a bigger study belongs in a script (tabletop-lab simulate)
DOWNLOAD_CSV_ROWS = 200_000  # beyond this the CSV data link gets too big for a browser; Parquet only
_TABLE_STYLE = (
    "<style>.tl-sim-results th, .tl-sim-results td {padding: 2px 10px; text-align: right}"
    " .tl-sim-results {border-collapse: collapse; margin-bottom: 8px}</style>"
)
_SEATING = {"rotate": "agents change seats every game", "fixed": "each agent keeps its seat", "random": "shuffled"}


def chunk_sizes(n_games: int) -> list[int]:
    """How a run of ``n_games`` is cut: a small first chunk for early results, then doubling
    chunks up to a tenth of the run (at least 1 game each).

    >>> chunk_sizes(100)
    [10, 10, 10, 10, 10, 10, 10, 10, 10, 10]
    >>> chunk_sizes(1000)[:5], sum(chunk_sizes(1000))
    ([10, 20, 40, 80, 100], 1000)
    """
    sizes, size, left = [], 10, n_games
    largest = max(10, n_games // 10)
    while left > 0:
        sizes.append(min(size, left))
        left -= sizes[-1]
        size = min(size * 2, largest)
    return sizes


def chunk_seed(seed: int, k: int) -> int:
    """The ``simulate`` seed of chunk ``k`` of a run seeded ``seed`` (a non-negative int64)."""
    return int(np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(1, np.uint64)[0] >> 1)


class BackgroundRun:
    """Stop, ``running`` and ``wait`` of a panel whose Run plays games in ``self.thread``,
    checking ``self._stop`` between chunks and writing to ``self.status`` and ``self.results``."""

    #: What a run is called in the messages ("simulation", "comparison").
    run_noun = "run"

    def stop(self) -> None:
        """End the run after the games in progress; the finished games are kept."""
        if self.running:
            self._stop.set()
            self.status.value = "stopping after the games in progress…"

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def wait(self, timeout: float | None = None):
        """Wait for the run in progress (if any) and return ``results``."""
        if self.thread is not None:
            self.thread.join(timeout)
            if self.thread.is_alive():
                raise TimeoutError(f"the {self.run_noun} is still running after {timeout} s")
        return self.results


class SimulationPanel(BackgroundRun, widgets.VBox):
    """Simulate games between the agents picked per seat (CSS class ``tl-sim``).

    ``game``: a name or a Game (default: the first game menus list). ``choose_game=True`` adds a
    game picker listing every registered game. ``results`` holds the
    rows played so far (a ``simulate`` DataFrame). ``run()`` starts a run and returns its thread,
    ``stop()`` asks it to end, ``wait()`` joins it and returns the results. Status
    (``tl-sim-status``): ``idle``, ``running k/n, about s left``, ``done: n games in s``,
    ``stopped: k of n games in s``.
    """

    run_noun = "simulation"

    def __init__(
        self,
        game: str | Game | None = None,
        *,
        options: dict | None = None,
        agents: list | None = None,
        n_games: int = 200,
        seed: int = 0,
        workers: int = 1,
        choose_game: bool = False,
    ):
        super().__init__()
        self.add_class("tl-sim")
        games = [(g["title"], g["name"]) for g in list_games()]
        game = games[0][1] if game is None else game
        self.game = load_game(game, **(options or {})) if isinstance(game, str) else game
        style = {"description_width": "initial"}
        if self.game.name not in [name for _, name in games]:  # a test game, not in menus
            games.append((self.game.info.title, self.game.name))
        self.game_picker = widgets.Dropdown(options=games, value=self.game.name, description="Game")
        self.game_picker.add_class("tl-sim-game")
        self.game_picker.observe(lambda change: self._ui(self._on_game), names="value")
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))  # wraps at 1280 px
        self.options_box.add_class("tl-sim-options")
        self.seats_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.seats_box.add_class("tl-sim-seat-box")
        self.n_games = widgets.IntText(value=n_games, description="Games", style=style)
        self.n_games.add_class("tl-sim-games")
        self.seed = widgets.IntText(value=seed, description="Seed", style=style)
        self.seed.add_class("tl-sim-seed")
        self.workers = widgets.BoundedIntText(
            value=workers, min=1, max=os.cpu_count() or 1, description="Workers", style=style
        )
        self.workers.add_class("tl-sim-workers")
        self.seats = widgets.Dropdown(
            options=[(f"{mode}: {text}", mode) for mode, text in _SEATING.items()],
            value="rotate",
            description="Seats",
            style=style,
            layout=widgets.Layout(width="max-content"),  # its long choices are never cut off
        )
        self.seats.add_class("tl-sim-seats")
        self.seats.observe(lambda change: self._relabel_seats(), names="value")
        for control in (self.n_games, self.seed, self.workers):
            control.layout.width = "160px"
        self.run_button = widgets.Button(description="Run", button_style="primary")
        self.run_button.add_class("tl-sim-run")
        self.run_button.on_click(lambda _: self._ui(self.run))
        self.stop_button = widgets.Button(description="Stop", disabled=True)
        self.stop_button.add_class("tl-sim-stop")
        self.stop_button.on_click(lambda _: self._ui(self.stop))
        self.progress = widgets.IntProgress(value=0, min=0, max=n_games, layout=widgets.Layout(width="320px"))
        self.status = widgets.Label("idle")
        self.status.add_class("tl-sim-status")
        self.table = widgets.HTML()
        self.plot = widgets.Image(format="png", layout=widgets.Layout(width=f"{PLOT_SIZE[0] * 100}px", display="none"))
        self.downloads = widgets.HTML()
        self.downloads.add_class("tl-sim-downloads")
        self.results_box = widgets.VBox([self.table, self.plot, self.downloads])
        self.results_box.add_class("tl-sim-table")
        self.errors = ErrorLog()
        self.results = None
        self.thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._build_settings(agents)
        self.children = [
            *([self.game_picker] if choose_game else []),
            self.options_box,
            self.seats_box,
            widgets.HBox([self.n_games, self.seed, self.workers, self.seats]),
            widgets.HBox([self.run_button, self.stop_button, self.progress, self.status]),
            self.results_box,
            self.errors,
        ]

    # --- running -------------------------------------------------------------------------

    def run(self) -> threading.Thread:
        """Start a run with the current settings in a thread; refuse while one is running.

        Raises ``ValueError`` for a count of games outside 1..MAX_GAMES or bad options before
        anything starts; the run's own errors (an agent that cannot play) go to ``errors``.
        """
        if self.running:
            raise ValueError("a simulation is already running: stop it first")
        n_games = self.n_games.value
        if not 1 <= n_games <= MAX_GAMES:
            raise ValueError(f"Games must be a whole number from 1 to {MAX_GAMES:,}; got {n_games:,}")
        self.game = self._chosen_game()
        agents = [picker.value for picker in self.seat_pickers]
        self.errors.clear()
        self._clear_results()
        self._stop.clear()
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.progress.max, self.progress.value = n_games, 0
        self.status.value = f"running 0/{n_games:,}" + (
            f": {notice}" if (notice := _compile_notice(self.game, agents)) else ""
        )
        settings = (agents, n_games, self.seed.value, self.workers.value, self.seats.value)
        self.thread = threading.Thread(target=self._work, args=settings, name="tl-simulation", daemon=True)
        self.thread.start()
        return self.thread

    def _work(self, agents: list, n_games: int, seed: int, workers: int, seats: str) -> None:
        import pandas as pd  # pandas and scipy load on the first run, not with the board

        from ..sim import simulate

        started = time.perf_counter()
        frames: list = []
        try:
            for k, size in enumerate(chunk_sizes(n_games)):
                done = sum(len(f) for f in frames)
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", "simulation interrupted", RuntimeWarning)
                    df = simulate(
                        self.game,
                        agents,
                        size,
                        seed=chunk_seed(seed, k),
                        seats=seats,
                        workers=workers,  # threads when the compiled kernel plays, else processes
                        progress=lambda finished, _total, base=done: self._progress(base + finished, n_games, started),
                    )
                df["game_id"] += done
                frames.append(df)
                stopped = self._stop.is_set() or df.attrs["interrupted"]
                combined = pd.concat(frames, ignore_index=True)
                combined.attrs.update(df.attrs, seed=seed, n_games=n_games, interrupted=stopped)
                self._show(combined, final=False)
                if stopped:
                    break
        except Exception as exc:
            finished = getattr(exc, "finished", None)  # an AgentError keeps the games finished before it
            if finished is not None and len(finished):
                finished["game_id"] += sum(len(f) for f in frames)
                frames.append(finished)
            if frames:  # earlier chunks count too when the failing chunk finished no game
                self._show(pd.concat(frames, ignore_index=True), final=True)
            self.errors.report(exc)
            self.status.value = "idle: the run failed, see the message below"
            self.run_button.disabled = False
            return
        finally:
            self.stop_button.disabled = True
        try:  # Run comes back only with the final status: never beside "stopping…"
            played = sum(len(f) for f in frames)
            if played:
                self._show(self.results, final=True)
            took = time.perf_counter() - started
            if played < n_games:
                self.status.value = f"stopped: {played:,} of {n_games:,} games in {took:.1f} s"
            else:
                self.status.value = f"done: {played:,} games in {took:.1f} s"
        finally:
            self.run_button.disabled = False

    def _progress(self, done: int, total: int, started: float) -> None:
        if self._stop.is_set():
            raise KeyboardInterrupt  # simulate() keeps the games finished so far
        self.progress.value = done
        left = (time.perf_counter() - started) / done * (total - done) if done else None
        self.status.value = f"running {done:,}/{total:,}" + (f", about {_duration(left)} left" if left else "")

    def _show(self, df: Any, final: bool) -> None:
        self.results = df
        self.table.value, png = summarise(df)
        self.plot.value = png
        self.plot.layout.display = None  # shown once it has a picture (no broken-image icon before)
        if final:
            self.downloads.value = download_links(df, self.game.name)

    def _clear_results(self) -> None:
        self.results = None
        self.table.value = self.downloads.value = ""
        self.plot.layout.display = "none"

    # --- settings ------------------------------------------------------------------------

    def _on_game(self) -> None:
        if self.running:
            self.game_picker.value = self.game.name
            raise ValueError("stop the running simulation before changing the game")
        self.game = load_game(self.game_picker.value)
        self._build_settings(None)

    def _build_settings(self, agents: list | None) -> None:
        """Option controls and one agent picker per seat for ``self.game``."""
        self.option_controls = option_controls(self.game)
        for control in self.option_controls.values():
            control.observe(lambda change: self._ui(self._on_option), names="value")
        self.options_box.children = list(self.option_controls.values())
        self._build_seats(agents)

    def _build_seats(self, agents: list | None) -> None:
        n = self.game.num_players
        if agents is None:
            defaults = [name for name in ("random", "greedy") if name in agents_for(self.game)]
            agents = (defaults + ["random"] * n)[:n]
        agents = list(agents)
        if len(agents) != n:
            raise ValueError(f"{self.game.name}: agents needs {n} entries (one per seat), got {len(agents)}")
        team_name = _team_namer(self.game)
        self.seat_pickers = [
            seat_picker(i, "", spec, human=False, game=self.game, team_name=team_name) for i, spec in enumerate(agents)
        ]
        self.seats_box.children = self.seat_pickers
        self._relabel_seats()

    def _relabel_seats(self) -> None:
        """Seat names when agents keep their seats; "Agent k" (first seat in brackets) otherwise."""
        names = self.game.info.player_names
        for i, picker in enumerate(self.seat_pickers):
            seat = names[i] if i < len(names) else f"Player {i}"
            picker.description = seat if self.seats.value == "fixed" else f"Agent {i + 1} ({seat} first)"
            picker.style.description_width = "initial"

    def _on_option(self) -> None:
        game = self._chosen_game()
        if game.num_players != self.game.num_players:
            self.game = game
            self._build_seats(None)
        self.game = game

    def _chosen_game(self) -> Game:
        values = {name: option_value(control) for name, control in self.option_controls.items()}
        return load_game(self.game.name, **values)

    @guarded
    def _ui(self, action) -> None:
        action()


def summarise(df: Any) -> tuple[str, bytes]:
    """HTML tables (win rates by agent, and by team in team games, with Wilson 95% intervals,
    first-player advantage, game length) and a PNG plot of the win rates, from a ``simulate``
    DataFrame."""
    from .. import plots, stats

    rates = _in_seat_order(stats.win_rates(df), df)
    html = _TABLE_STYLE + f"<h4>Win rates, {len(df):,} games</h4>" + _rates_html(rates, "agent")
    if "team_0" in df.columns and df.filter(like="team_").iloc[0].nunique() < df.filter(like="agent_").shape[1]:
        html += "<h4>By team</h4>" + _rates_html(_team_names(stats.win_rates(df, by="team"), df), "team")
    first = stats.first_player_advantage(df)
    html += (
        f"<p>First-player advantage (draws count half): {first['value']:.1%} "
        f"[{first['ci_low']:.1%}, {first['ci_high']:.1%}], n = {first['n']:,}</p>"
        + "<h4>Game length</h4>"
        + _lengths(stats.length_summary(df))
        .reset_index()
        .to_html(index=False, border=0, classes="tl-sim-results", float_format=lambda x: f"{x:.1f}")
    )
    figure = Figure(figsize=PLOT_SIZE, dpi=100, layout="constrained")
    plots.plot_win_rates(rates, ax=figure.add_subplot())
    return html, figure_png(figure)


def _in_seat_order(rates: Any, df: Any) -> Any:
    """The agents' rows in the order of the seats they were given (random#1, random#2 ...)."""
    seats = [df[f"agent_{i}"].iloc[0] for i in range(df.filter(like="agent_").shape[1])]
    order = {label: i for i, label in enumerate(seats)}
    return rates.sort_values("agent", key=lambda column: column.map(lambda a: order.get(a, len(order))))


def _team_names(rates: Any, df: Any) -> Any:
    """Team numbers as names: the team's name on the board and its seats ("team dark: Blue and Green")."""
    game = load_game(df["game"].iloc[0], **_options(df))
    namer = _team_namer(game)
    names = game.info.player_names
    first = df.iloc[0]
    seats = df.filter(like="team_").shape[1]

    def name(team: int) -> str:
        members = [names[i] if i < len(names) else f"Player {i}" for i in range(seats) if first[f"team_{i}"] == team]
        return f"{namer(int(team))}: {' and '.join(members)}"

    rates = rates.copy()
    rates["team"] = rates["team"].map(name)
    return rates


def _options(df: Any) -> dict:
    import json

    options = df["options"].iloc[0]
    return json.loads(options) if isinstance(options, str) else dict(options or {})


def _team_namer(game: Game):
    """How the game's board names its teams, "team A" ... for a game without a board."""
    from ..board_adapter import load_adapter
    from ..errors import RulesError

    try:
        return load_adapter(game).team_name
    except RulesError:
        return lambda team: f"team {chr(ord('A') + team)}"


def _lengths(table: Any) -> Any:
    """The length table without rows that repeat the turns (moves and actions of one-action turns)."""
    same = [m for m in table.index[1:] if table.loc[m].equals(table.loc["n_turns"])]
    return table.drop(index=same).rename(index=lambda m: m.removeprefix("n_"))


def _rates_html(rates: Any, key: str) -> str:
    shown = rates[[key, "wins", "draws", "losses", "n"]].copy()
    shown["rate, draws half (95% CI)"] = [f"{r.rate:.1%} [{r.ci_low:.1%}, {r.ci_high:.1%}]" for r in rates.itertuples()]
    return shown.to_html(index=False, border=0, classes="tl-sim-results")


def download_links(df: Any, name: str) -> str:
    """Links that download the rows as CSV and Parquet (data URLs: the server serves no files)."""
    from ..sim import storable

    links = []
    if len(df) <= DOWNLOAD_CSV_ROWS:
        links.append(data_link(df.to_csv(index=False).encode(), f"{name}.csv", "text/csv", "Download the rows (CSV)"))
    buffer = io.BytesIO()
    storable(df).to_parquet(buffer)  # winners' tuples as lists: Parquet cannot store them as categories
    links.append(
        data_link(buffer.getvalue(), f"{name}.parquet", "application/octet-stream", "Download the rows (Parquet)")
    )
    return " · ".join(links)


def data_link(data: bytes, filename: str, mime: str, text: str) -> str:
    """An HTML link that downloads ``data`` as ``filename`` (a data URL: the server serves no files)."""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<a download="{html.escape(filename)}" href="data:{mime};base64,{encoded}">{html.escape(text)}</a>'


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _compile_notice(game: Game, agents: list) -> str | None:
    """The compile a run of ``agents`` will wait for first, if any (``kernels.compile_notice``)."""
    try:
        seated = [make_agent(spec, game=game) for spec in agents]
    except ValueError:
        return None  # the run reports the agent that cannot play
    return compile_notice(game, seated)
