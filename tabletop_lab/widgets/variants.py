"""The variant lab: what a rule option does to a game's report card, measured on paired games.

A ``VariantLab`` picks a game, two option sets (variant A and variant B), an agent per seat and
the number of games; Run plays both variants on the same seeds in a worker thread, in chunks
(``simulation.chunk_sizes``; chunk ``k`` of both variants is seeded ``chunk_seed(seed, k)``),
and after each chunk shows ``stats.compare_variants``: each metric's value under A and B and
their difference with a paired bootstrap interval, as a table and a figure. Stop ends the run
after the games in progress and keeps the games both variants finished. The differences
download as CSV, the games of both variants as Parquet. Like ``SimulationPanel``, the thread
only sets widget values.
"""

from __future__ import annotations

import io
import threading
import time
import warnings
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from ..core import Game
from ..registry import list_games, load_game
from ..render import figure_png
from .controls import ErrorLog, guarded, option_controls, option_value, seat_picker
from .simulation import _TABLE_STYLE, BackgroundRun, _duration, _team_namer, chunk_seed, chunk_sizes, data_link

__all__ = ["VariantLab", "MAX_VARIANT_GAMES"]

MAX_VARIANT_GAMES = 20_000  # per variant: every chunk recomputes the card, replaying the games
VARIANTS = ("a", "b")
FIGURE_WIDTH = 6.4  # inches, drawn at 100 dpi and shown at that size
#: Metrics counted in turns, actions or digits, plotted apart from the shares and values.
_COUNTS = ("duration_turns", "branching_factor", "game_tree_log10", "state_space_log10")


class VariantLab(BackgroundRun, widgets.VBox):
    """Compare two option sets of one game on the same seeds (CSS class ``tl-variant``).

    ``game``: a name or a Game (default: the first game menus list); ``options_a`` and
    ``options_b`` preset the two variants (default: the game's options for both). ``evaluate``
    records each position's evaluation (``simulate(evaluator="evaluate")``), which the value
    metrics need and which plays every game in Python; the agents change seats every game
    (``simulate(seats="rotate")``), alike in both variants. ``results`` is the latest
    ``compare_variants`` table, ``games`` the two variants' frames. ``run()``, ``stop()`` and
    ``wait()`` as in ``SimulationPanel``; status (``tl-variant-status``): ``idle``,
    ``running k/n…``, ``done: n paired games in s``, ``stopped: k of n paired games in s``.
    """

    run_noun = "comparison"

    def __init__(
        self,
        game: str | Game | None = None,
        *,
        options_a: dict | None = None,
        options_b: dict | None = None,
        agents: list | None = None,
        n_games: int = 100,
        seed: int = 0,
        evaluate: bool = True,
    ):
        super().__init__()
        self.add_class("tl-variant")
        games = [(g["title"], g["name"]) for g in list_games()]
        game = games[0][1] if game is None else game
        self.game = load_game(game, **(options_a or {})) if isinstance(game, str) else game
        if self.game.name not in [name for _, name in games]:  # a test game, not in menus
            games.append((self.game.info.title, self.game.name))
        style = {"description_width": "initial"}
        self.game_picker = widgets.Dropdown(options=games, value=self.game.name, description="Game")
        self.game_picker.add_class("tl-variant-game")
        self.game_picker.observe(lambda change: self._ui(self._on_game), names="value")
        self.options_boxes = {}
        for side in VARIANTS:
            box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
            box.add_class(f"tl-variant-options-{side}")
            self.options_boxes[side] = box
        self.seats_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.seats_box.add_class("tl-variant-seats")
        self.n_games = widgets.IntText(value=n_games, description="Games per variant", style=style)
        self.n_games.add_class("tl-variant-games")
        self.seed = widgets.IntText(value=seed, description="Seed", style=style)
        self.seed.add_class("tl-variant-seed")
        for control in (self.n_games, self.seed):
            control.layout.width = "200px"
        self.evaluate = widgets.Checkbox(
            value=evaluate, description="Evaluate positions (value metrics; slower)", indent=False
        )
        self.evaluate.add_class("tl-variant-evaluate")
        self.run_button = widgets.Button(description="Run", button_style="primary")
        self.run_button.add_class("tl-variant-run")
        self.run_button.on_click(lambda _: self._ui(self.run))
        self.stop_button = widgets.Button(description="Stop", disabled=True)
        self.stop_button.add_class("tl-variant-stop")
        self.stop_button.on_click(lambda _: self._ui(self.stop))
        self.progress = widgets.IntProgress(value=0, min=0, max=2 * n_games, layout=widgets.Layout(width="320px"))
        self.status = widgets.Label("idle")
        self.status.add_class("tl-variant-status")
        self.table = widgets.HTML()
        self.table.add_class("tl-variant-table")
        self.plot = widgets.Image(
            format="png", layout=widgets.Layout(width=f"{FIGURE_WIDTH * 100:.0f}px", display="none")
        )
        self.downloads = widgets.HTML()
        self.downloads.add_class("tl-variant-downloads")
        self.errors = ErrorLog()
        self.results = None
        self.games: tuple[Any, Any] | None = None
        self.thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._build_settings(agents, {"a": options_a or {}, "b": options_b or {}})
        self.children = [
            self.game_picker,
            widgets.HTML("<b>Variant A</b>"),
            self.options_boxes["a"],
            widgets.HTML("<b>Variant B</b>"),
            self.options_boxes["b"],
            self.seats_box,
            widgets.HBox([self.n_games, self.seed, self.evaluate]),
            widgets.HBox([self.run_button, self.stop_button, self.progress, self.status]),
            self.table,
            self.plot,
            self.downloads,
            self.errors,
        ]

    # --- running -------------------------------------------------------------------------

    def run(self) -> threading.Thread:
        """Start a run of both variants in a thread; refuse while one runs. Raises
        ``ValueError`` for a count of games outside 1..MAX_VARIANT_GAMES, bad options, or
        variants that seat different numbers of players, before anything starts."""
        if self.running:
            raise ValueError("a comparison is already running: stop it first")
        n_games = self.n_games.value
        if not 1 <= n_games <= MAX_VARIANT_GAMES:
            raise ValueError(
                f"Games per variant must be a whole number from 1 to {MAX_VARIANT_GAMES:,}; got {n_games:,}"
            )
        variants = {side: self._chosen_game(side) for side in VARIANTS}
        if variants["a"].num_players != variants["b"].num_players:
            raise ValueError(
                f"variant A seats {variants['a'].num_players} players and B {variants['b'].num_players}: "
                "compare option sets that seat the same players"
            )
        agents = [picker.value for picker in self.seat_pickers]
        self.errors.clear()
        self.results, self.games = None, None
        self.table.value = self.downloads.value = ""
        self.plot.layout.display = "none"
        self._stop.clear()
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.progress.max, self.progress.value = 2 * n_games, 0
        self.status.value = f"running 0/{n_games:,} paired games"
        settings = (variants, agents, n_games, self.seed.value, self.evaluate.value)
        self.thread = threading.Thread(target=self._work, args=settings, name="tl-variants", daemon=True)
        self.thread.start()
        return self.thread

    def _work(self, variants: dict, agents: list, n_games: int, seed: int, evaluate: bool) -> None:
        import pandas as pd  # pandas and scipy load on the first run, not with the page

        from ..sim import simulate

        started = time.perf_counter()
        frames: dict[str, list] = {side: [] for side in VARIANTS}
        played = 0
        try:
            for k, size in enumerate(chunk_sizes(n_games)):
                pair = {}
                for i, side in enumerate(VARIANTS):
                    base = 2 * played + i * size
                    with warnings.catch_warnings():
                        warnings.filterwarnings("ignore", "simulation interrupted", RuntimeWarning)
                        df = simulate(
                            variants[side],
                            agents,
                            size,
                            seed=chunk_seed(seed, k),
                            record_actions=True,
                            evaluator="evaluate" if evaluate else None,
                            progress=lambda done, _total, base=base: self._progress(base + done, n_games, started),
                        )
                    pair[side] = df
                    if df.attrs["interrupted"]:
                        break
                if len(pair) == 2:  # only the games both variants finished are pairs
                    both = np.intersect1d(pair["a"]["game_id"], pair["b"]["game_id"])
                    for side, df in pair.items():
                        df = df[df["game_id"].isin(both)].reset_index(drop=True)
                        df["game_id"] += played
                        frames[side].append(df)
                    played += len(both)
                if played:
                    self._show({side: pd.concat(frames[side], ignore_index=True) for side in VARIANTS}, seed)
                if self._stop.is_set() or len(pair) < 2 or pair["b"].attrs["interrupted"]:
                    break
            self._offer_downloads()
            took = time.perf_counter() - started
            self.status.value = (
                f"done: {played:,} paired games in {took:.1f} s"
                if played == n_games
                else f"stopped: {played:,} of {n_games:,} paired games in {took:.1f} s"
            )
        except Exception as exc:
            self._offer_downloads()  # the pairs of the chunks before the failing one
            self.errors.report(exc)
            self.status.value = "idle: the run failed, see the message below"
        finally:
            self.stop_button.disabled = True
            self.run_button.disabled = False

    def _progress(self, done: int, n_games: int, started: float) -> None:
        if self._stop.is_set():
            raise KeyboardInterrupt  # simulate() keeps the games finished so far
        self.progress.value = done
        total = 2 * n_games
        left = (time.perf_counter() - started) / done * (total - done) if done else None
        self.status.value = f"running {done // 2:,}/{n_games:,} paired games" + (
            f", about {_duration(left)} left" if left else ""
        )

    def _show(self, frames: dict, seed: int) -> None:
        from ..stats import compare_variants

        table = compare_variants(frames["a"], frames["b"], seed=seed)
        self.games = (frames["a"], frames["b"])
        self.results = table
        self.table.value, self.plot.value = summarise_variants(table)
        self.plot.layout.display = None

    def _offer_downloads(self) -> None:
        if self.results is not None:
            self.downloads.value = variant_downloads(self.results, dict(zip(VARIANTS, self.games)), self.game.name)

    # --- settings ------------------------------------------------------------------------

    def _on_game(self) -> None:
        if self.running:
            self.game_picker.value = self.game.name
            raise ValueError("stop the running comparison before changing the game")
        self.game = load_game(self.game_picker.value)
        self._build_settings(None, {"a": {}, "b": {}})

    def _build_settings(self, agents: list | None, options: dict[str, dict]) -> None:
        """Two sets of option controls (``controls.option_controls``) and the seat pickers."""
        self.option_controls = {}
        for side in VARIANTS:
            controls = option_controls(load_game(self.game.name, **{**self.game.options, **options[side]}))
            for control in controls.values():
                control.observe(lambda change: self._ui(self._on_option), names="value")
            self.option_controls[side] = controls
            self.options_boxes[side].children = list(controls.values())
        self._build_seats(agents)

    def _build_seats(self, agents: list | None) -> None:
        n = self.game.num_players
        agents = list(agents) if agents is not None else ["random"] * n
        if len(agents) != n:
            raise ValueError(f"{self.game.name}: agents needs {n} entries (one per seat), got {len(agents)}")
        team_name = _team_namer(self.game)
        names = self.game.info.player_names
        self.seat_pickers = [
            seat_picker(
                i,
                f"Agent {i + 1} ({names[i] if i < len(names) else f'Player {i}'} first)",
                spec,
                human=False,
                game=self.game,
                team_name=team_name,
            )
            for i, spec in enumerate(agents)
        ]
        self.seats_box.children = self.seat_pickers

    def _on_option(self) -> None:
        game = self._chosen_game("a")
        if game.num_players != self.game.num_players:
            self.game = game
            self._build_seats(None)
        self.game = game

    def _chosen_game(self, side: str) -> Game:
        values = {name: option_value(control) for name, control in self.option_controls[side].items()}
        return load_game(self.game.name, **values)

    @guarded
    def _ui(self, action) -> None:
        action()


def summarise_variants(table: Any) -> tuple[str, bytes]:
    """An HTML table of ``compare_variants`` (each metric under A and B, B − A with its 95%
    interval, n) with its notes, and a PNG figure of the differences: shares and values in
    one panel, counts (turns, branching, log10 sizes) in another."""
    from .. import plots

    shown = table[["metric", "value_a", "value_b", "n"]].copy()
    shown["value_a"] = [_number(v) for v in table["value_a"]]
    shown["value_b"] = [_number(v) for v in table["value_b"]]
    shown.insert(
        3,
        "B − A (95% CI)",
        [f"{_number(r.difference)} [{_number(r.ci_low)}, {_number(r.ci_high)}]" for r in table.itertuples()],
    )
    shown = shown.rename(columns={"value_a": "A", "value_b": "B"})
    html = (
        _TABLE_STYLE
        + f"<h4>Variant B against variant A, {int(table['n'].max()) if len(table) else 0:,} paired games</h4>"
        + shown.to_html(index=False, border=0, classes="tl-sim-results")
        + "".join(f"<p><small>{note}</small></p>" for note in table.attrs.get("notes", []))
    )
    groups = [g for g in (table[~table["metric"].isin(_COUNTS)], table[table["metric"].isin(_COUNTS)]) if len(g)]
    figure = Figure(figsize=(FIGURE_WIDTH, 1.2 + 0.32 * len(table) + 0.8 * len(groups)), dpi=100, layout="constrained")
    if groups:
        axes = figure.subplots(len(groups), 1, height_ratios=[len(g) for g in groups], squeeze=False)[:, 0]
        for ax, group in zip(axes, groups):
            plots.plot_variant_differences(group, ax=ax)
        if len(groups) == 2:
            axes[1].set_title("Counts: turns, actions per decision, log10 sizes", fontsize="medium")
        axes[0].legend(loc="lower right", fontsize="small")
    return html, figure_png(figure)


def variant_downloads(table: Any, frames: dict, name: str) -> str:
    """Links that download the differences (CSV) and both variants' games (Parquet, a
    ``variant`` column saying which)."""
    import pandas as pd

    from ..sim import storable

    games = pd.concat([storable(frames[side]).assign(variant=side.upper()) for side in VARIANTS], ignore_index=True)
    buffer = io.BytesIO()
    games.to_parquet(buffer)
    return " · ".join(
        [
            data_link(
                table.to_csv(index=False).encode(), f"{name}_variants.csv", "text/csv", "Download the differences (CSV)"
            ),
            data_link(
                buffer.getvalue(),
                f"{name}_variant_games.parquet",
                "application/octet-stream",
                "Download the games (Parquet)",
            ),
        ]
    )


def _number(x: float) -> str:
    return "–" if x != x else f"{x:.3g}"
