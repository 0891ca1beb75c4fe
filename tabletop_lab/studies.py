"""The report-card studies: recorded games of random play and of expert self-play on each
game's standard setup (Sygo on 19×19 and 9×9), which every statistics notebook opens with.

The definitions live here once, so that ``scripts/report_cards.py`` (which simulates and saves
them) and the notebooks (which load them) key the saved frames (``data.load_or_run``) the same
way. The expert plays with a reduced budget, stated in ``REPORT_SETUPS``: its full budget costs
0.3 to 0.5 s a move, too much for a hundred recorded games per game on a shared two-core
machine. Every game is recorded with ``record_actions=True, evaluator="evaluate"``, so
``stats.report_card`` can give all its metrics.

The levels-of-play ladders (``tabletop-lab ladder``, ``sim.ladder``) are saved here too, one file
a game and setup (``ladder_path``); the notebooks only load them (``load_ladder``): a ladder
takes from minutes to an hour, so a notebook never climbs one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .data import data_path, load_or_run, read_study
from .registry import load_game

if TYPE_CHECKING:
    from pathlib import Path

    import pandas as pd

    from .core import Game

__all__ = [
    "OPTION_SEED",
    "OPTION_STUDIES",
    "OptionStudy",
    "PLAYERS",
    "QUICK_GAMES",
    "REPORT_SETUPS",
    "REPORT_SEED",
    "ReportSetup",
    "absent_metrics",
    "ladder_path",
    "ladder_table",
    "load_ladder",
    "load_option_games",
    "option_effects",
    "paired_base",
    "load_report",
    "report_games",
    "side_by_side",
]

#: The two kinds of play a report card compares.
PLAYERS = ("random", "expert")
#: The seed of every report-card study.
REPORT_SEED = 2026
#: Games per player in quick mode (the notebook tests): tiny samples, always simulated, never saved.
QUICK_GAMES = {"random": 12, "expert": 2}
#: The expert's budget in quick mode.
QUICK_EXPERT = "expert:iterations=20"


@dataclass(frozen=True)
class ReportSetup:
    """One setup of a game's report card: its rules options, the games played by each kind of
    player and the expert's (reduced) budget, as an agent spec."""

    label: str
    options: dict[str, Any] = field(default_factory=dict)
    n_random: int = 2000
    n_expert: int = 150
    expert: str = "expert:iterations=2000"

    def spec(self, player: str) -> str:
        """The agent spec every seat plays for ``player`` ("random" or "expert")."""
        _check_player(player)
        return "random" if player == "random" else self.expert

    def n_games(self, player: str) -> int:
        """The number of games ``player`` plays in the full study."""
        _check_player(player)
        return self.n_random if player == "random" else self.n_expert

    def path(self, game: str, player: str) -> Path:
        """Where the study of ``player`` on this setup is saved: ``data/<game>/report_<player>.parquet``,
        with the options in the name when they are not the standard setup's."""
        _check_player(player)
        suffix = "".join(f"_{k}={v}" for k, v in self.options.items())
        return data_path(game, f"report_{player}{suffix}.parquet")


#: Each game's report-card setups, the standard setup first. Budgets were chosen so that the
#: whole set runs in about 25 minutes in one process (``scripts/report_cards.py``).
REPORT_SETUPS: dict[str, tuple[ReportSetup, ...]] = {
    "cross_endodoi": (ReportSetup("standard", n_expert=200, expert="expert:iterations=10000"),),
    "sinomilia": (ReportSetup("standard", n_expert=100, expert="expert:iterations=200"),),
    "sinoda": (ReportSetup("standard", n_expert=150, expert="expert:iterations=1000"),),
    "capitals": (ReportSetup("standard", n_random=1000, n_expert=120, expert="expert:iterations=500"),),
    "sygo": (
        ReportSetup("19×19", n_random=500, n_expert=30, expert="expert:iterations=200"),
        ReportSetup("9×9", {"size": 9}, n_expert=120, expert="expert:iterations=1000"),
    ),
}


def _check_player(player: str) -> None:
    if player not in PLAYERS:
        raise ValueError(f"player must be one of {', '.join(PLAYERS)}; got {player!r}"[:300])


def _setup(game: str, label: str) -> ReportSetup:
    if game not in REPORT_SETUPS:
        raise ValueError(f"no report-card study for {game!r}; known: {', '.join(REPORT_SETUPS)}"[:300])
    for setup in REPORT_SETUPS[game]:
        if setup.label == label:
            return setup
    labels = ", ".join(s.label for s in REPORT_SETUPS[game])
    raise ValueError(f"{game} has no report-card setup {label!r}; choose from {labels}"[:300])


def report_games(
    game: str, options: dict[str, Any], spec: str, n_games: int, seed: int = REPORT_SEED, *, progress: Any = False
) -> pd.DataFrame:
    """``n_games`` recorded self-play games of ``spec`` (every seat) on ``game`` with ``options``,
    with actions and the game's evaluation of every position (what ``stats.report_card`` reads)."""
    from .sim import simulate  # sim imports data: imported here, not above

    rules = load_game(game, **options)
    return simulate(
        rules,
        [spec] * rules.num_players,
        n_games,
        seed=seed,
        progress=progress,
        record_actions=True,
        evaluator="evaluate",
    )


def load_report(
    game: str, label: str, player: str, *, quick: bool = False, rerun: bool = False, progress: Any = False
) -> pd.DataFrame:
    """The recorded games of ``player`` ("random" or "expert") on ``game``'s setup ``label``:
    loaded from ``data/`` when saved under today's key, else simulated (and saved). With
    ``quick`` a tiny sample (``QUICK_GAMES``, the expert at ``QUICK_EXPERT``) is simulated and
    never saved, so a test run cannot replace the real study."""
    setup = _setup(game, label)
    spec = QUICK_EXPERT if quick and player == "expert" else setup.spec(player)
    n_games = QUICK_GAMES[player] if quick else setup.n_games(player)
    study = {
        "report": player,
        "options": setup.options,
        "agent": spec,
        "n_games": n_games,
        "seed": REPORT_SEED,
        "record_actions": True,
        "evaluator": "evaluate",
    }

    def run() -> pd.DataFrame:
        return report_games(game, setup.options, spec, n_games, progress=progress)

    return load_or_run(setup.path(game, player), run, study=study, rerun=rerun or quick, save=not quick)


def ladder_path(game: str | Game, **options: Any) -> Path:
    """Where ``tabletop-lab ladder`` saves the ladder of ``game`` (a name with its ``options``, or
    a loaded game): ``data/<game>/ladder_expert.parquet``, with ``_k=v`` in the name for each
    option that differs from its default (``ladder_expert_size=9.parquet``)."""
    rules = load_game(game, **options) if isinstance(game, str) else load_game(game.name, **game.options, **options)
    defaults = {spec.name: spec.default for spec in rules.option_specs}
    changed = {k: v for k, v in sorted(rules.options.items()) if k in defaults and defaults[k] != v}
    tag = "".join(f"_{k}={json.dumps(v).strip(chr(34))}" for k, v in changed.items())
    return data_path(rules.name, f"ladder_expert{tag}.parquet")


def load_ladder(game: str, **options: Any) -> pd.DataFrame | None:
    """The saved ladder of ``game`` under ``options`` (``ladder_path``; one row per rung played,
    ``sim.ladder``'s columns and attrs, the command in ``attrs["study_key"]``), or ``None`` when
    none is saved: it is never simulated here."""
    path = ladder_path(game, **options)
    return read_study(path) if path.is_file() else None


def ladder_table(df: pd.DataFrame) -> pd.DataFrame:
    """A saved ladder for reading, one row per level: the agent, the rung below it, the games,
    the record (won–drawn–lost, capped games counted drawn), the rate and its 95% interval, the
    numbers as text with three decimals."""
    table = df.set_index("level")[["agent", "opponent", "n"]].copy()
    drawn = df["draws"] + df["capped"]
    table["won–drawn–lost"] = [f"{w}–{d}–{lost}" for w, d, lost in zip(df["wins"], drawn, df["losses"])]
    table["rate"] = [f"{rate:.3f}" for rate in df["rate"]]  # text, rounded as the interval is (0.6125: 0.613)
    table["interval"] = [f"[{low:.3f}, {high:.3f}]" for low, high in zip(df["ci_low"], df["ci_high"])]
    return table


#: The seed of every option study: each variant plays the base setup's seeds.
OPTION_SEED = 2027


@dataclass(frozen=True)
class OptionStudy:
    """A game's rule options under skilled play: the expert's self-play (at ``expert``, the
    report card's reduced budget) on the ``base`` setup and on each variant, ``n_games`` each on
    the same seeds, so that a variant seating as many players as the base pairs with it game by
    game (``stats.compare_variants``). ``variants`` maps a label to its options (over the
    base's); ``unmeasured`` says why an option has no variant."""

    base: dict[str, Any]
    expert: str
    n_games: int
    variants: dict[str, dict[str, Any]]
    unmeasured: dict[str, str] = field(default_factory=dict)

    def setups(self) -> dict[str, dict[str, Any]]:
        """Every setup's options by label, the base ("standard") first."""
        return {"standard": dict(self.base), **{k: {**self.base, **v} for k, v in self.variants.items()}}


_CAP = "a safety cap on endless games, not a rule to play by (completion shows whether it bites)"

#: Each game's option study: every option at each other listed value, a numeric one at a few.
OPTION_STUDIES: dict[str, OptionStudy] = {
    "cross_endodoi": OptionStudy(
        {}, "expert:iterations=10000", 100,
        {"seeds_per_hole=6": {"seeds_per_hole": 6}, "skip_origin": {"skip_origin": True},
         "first_player=1": {"first_player": 1}, "pie_rule": {"pie_rule": True}},
    ),
    "sinomilia": OptionStudy({}, "expert:iterations=200", 100, {"first_player=1": {"first_player": 1}},
                             {"round_cap": _CAP}),
    "capitals": OptionStudy(
        {}, "expert:iterations=500", 100,
        {**{f"{name}={value}": {name: value} for name, value in (
            ("eliminated_slot", "skip"), ("dismantle_top", "keep"), ("capture_removal", "immediate"),
            ("chain_end_on_start", True), ("ram_attack_after", "friendly"), ("ram_jump", "none"),
            ("synergy_adjacency", 4), ("transfers_per_turn", 0), ("transfers_per_turn", 2),
            ("pass_turn_cost", "removed"), ("pass_turn_chain", True), ("capital_entry", "final_square"),
            ("elimination_is_attack", False), ("sacrifice_from_ram", True), ("prisoner_placement", "fixed"),
            ("altar_scoring", "winner_only"), ("hunger_first", "alternate"))}},
        {"max_cycles": _CAP},
    ),
    "sygo": OptionStudy(
        {"size": 9}, "expert:iterations=1000", 60,
        {"balancing=False": {"balancing": False}, "size=7": {"size": 7}, "size=13": {"size": 13},
         # White's mean margin in the 60 standard games, 2.4 points, to the half point; and a half
         # point above their median margin, 20 points
         "komi=2.5": {"komi": 2.5}, "komi=20.5": {"komi": 20.5}},
        {"growth": 'growth="all" is searched by the Python engine: one skilled 9×9 game took 541 s '
                   "(expert:iterations=1000), so it is measured under random play only"},
    ),
    "sinoda": OptionStudy(
        {}, "expert:iterations=1000", 40,
        {"first_player=1": {"first_player": 1}, "players=3": {"players": 3}, "players=4": {"players": 4},
         "players=4, four_player_start=side": {"players": 4, "four_player_start": "side"},
         "players=4, teams=pairs": {"players": 4, "teams": "pairs"}, "players=6": {"players": 6},
         "players=6, teams=pairs": {"players": 6, "teams": "pairs"},
         "players=6, teams=triples": {"players": 6, "teams": "triples"}},
        {"board": "a board is a design of its own (any cells and adjacency), not one alternative to measure"},
    ),
}  # fmt: skip


def load_option_games(
    game: str, *, quick: bool = False, rerun: bool = False, progress: Any = False
) -> dict[str, pd.DataFrame]:
    """The option study of ``game`` (``OPTION_STUDIES``): each setup's recorded expert games by
    label, the base ("standard") first. Each setup is loaded from
    ``data/<game>/options_expert/<label>.parquet`` when saved under today's key, else simulated
    (and saved, so an interrupted study keeps its finished setups). With ``quick`` a tiny sample
    (``QUICK_GAMES["expert"]`` games at ``QUICK_EXPERT``) is simulated and never saved."""
    if game not in OPTION_STUDIES:
        raise ValueError(f"no option study for {game!r}; known: {', '.join(OPTION_STUDIES)}"[:300])
    plan = OPTION_STUDIES[game]
    spec = QUICK_EXPERT if quick else plan.expert
    n_games = QUICK_GAMES["expert"] if quick else plan.n_games
    frames = {}
    for label, options in plan.setups().items():
        study = {"options": options, "agent": spec, "n_games": n_games, "seed": OPTION_SEED,
                 "record_actions": True, "evaluator": "evaluate"}  # fmt: skip
        path = data_path(game, "options_expert", re.sub(r"[^\w=.-]+", "_", label) + ".parquet")
        frames[label] = load_or_run(
            path,
            lambda options=options: report_games(game, options, spec, n_games, OPTION_SEED, progress=progress),
            study=study,
            rerun=rerun or quick,
            save=not quick,
        )
    return frames


def paired_base(game: str, label: str) -> str | None:
    """The setup of ``game``'s option study that variant ``label`` is compared with: of the
    setups before it seating as many players, the one whose options differ in fewest names
    (the standard setup first); ``None`` when none seats as many (its card stands alone)."""
    setups = OPTION_STUDIES[game].setups()
    if label not in setups:
        raise ValueError(f"{game}'s option study has no setup {label!r}; choose from {', '.join(setups)}"[:300])
    labels = list(setups)
    rules = {name: load_game(game, **options) for name, options in setups.items()}
    players = rules[label].num_players
    earlier = [name for name in labels[: labels.index(label)] if rules[name].num_players == players]
    if not earlier:
        return None
    options = rules[label].options
    return min(earlier, key=lambda name: sum(options[k] != v for k, v in rules[name].options.items()))


def option_effects(
    game: str, frames: dict[str, pd.DataFrame], metrics: list[str], seed: int = 0, resamples: int = 2000
) -> pd.DataFrame:
    """What each variant of ``game``'s option study (``frames``, from ``load_option_games``) does
    to ``metrics`` against its ``paired_base``: one row per variant and metric, with the paired
    bootstrap of ``stats.compare_variants`` (columns ``variant, base`` then its columns). A
    variant without a base (another number of players) has no rows."""
    import pandas as pd

    from .stats import compare_variants

    rows = []
    for label in list(frames)[1:]:
        base = paired_base(game, label)
        if base is None:
            continue
        table = compare_variants(frames[base], frames[label], seed, metrics=metrics, resamples=resamples)
        rows.append(table.assign(variant=label, base=base))
    if not rows:
        return pd.DataFrame(columns=["variant", "base", "metric"])
    table = pd.concat(rows, ignore_index=True)
    return table[["variant", "base", *[c for c in table.columns if c not in ("variant", "base")]]]


def side_by_side(cards: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Report cards (``stats.report_card``) side by side for reading: one row per metric any of
    them has, its short definition (the card's, without its source), and per card "value [ci_low,
    ci_high]" (a value alone where there is no interval; blank where the card lacks the metric)."""
    import pandas as pd

    from .stats import CARD_METRICS

    present = [m for m in CARD_METRICS if any(m in set(card["metric"]) for card in cards.values())]
    table = pd.DataFrame({"metric": present, "definition": [_short(CARD_METRICS[m]) for m in present]})
    for label, card in cards.items():
        rows = card.set_index("metric")
        table[f"{label} ({int(card['n'].max()):,} games)"] = [
            _interval_text(rows.loc[m]) if m in rows.index else "" for m in present
        ]
    return table.set_index("metric")


def absent_metrics(card: pd.DataFrame) -> list[str]:
    """The metrics of ``stats.CARD_METRICS`` a card lacks, each with why: the card's note when the
    data could not give it, else that the game cannot have it (docs/metrics.md says which)."""
    from .stats import CARD_METRICS

    notes = {note.split(":")[0]: note for note in card.attrs.get("notes", [])}
    said = {m: note for names, note in notes.items() for m in names.split(", ")}
    reasons = {
        "drawishness": "the game cannot end in a draw",
        "coverage": "the game counts no board sites (Game.num_sites; docs/metrics.md says why)",
    }
    return [
        said.get(m, f"{m}: {reasons.get(m, 'the game cannot have it')}")
        for m in CARD_METRICS
        if m not in set(card["metric"])
    ]


def _short(definition: str) -> str:
    """A card definition without its source and aggregation: the part before "(Ludii ...",
    "(after ..." or "(Game. ..."."""
    return re.split(r" \((?:Ludii|after|Game\.)", definition)[0]


def _interval_text(row: Any) -> str:
    value, low, high = (float(row[k]) for k in ("value", "ci_low", "ci_high"))
    if low != low:  # NaN: no interval (the state-space bound)
        return _number(value)
    return f"{_number(value)} [{_number(low)}, {_number(high)}]"


def _number(x: float) -> str:
    """A card value as the table shows it: three decimals below 10, one below 100, else none."""
    return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}" if abs(x) < 100 else f"{x:.0f}"
