"""The experts' acceptance runs (issue 22): each game's expert, at a fixed budget, against its rivals.

    .venv/bin/python scripts/acceptance.py                       # every setup, 100 games a pairing
    nice .venv/bin/python scripts/acceptance.py --setup sinoda-2 --games 20 --workers 1
    .venv/bin/python scripts/acceptance.py --table               # the saved results, as docs/agents.md shows them

A pairing is played side by side (``tabletop_lab.sim.ladder.head_to_head``): every seat of a team
plays the same agent, and the expert holds each team in turn. Draws and games cut by a cap count
half. The rivals are ``greedy`` and ``mcts:iterations=1000`` (Sinomilia, whose cards are hidden:
``ismcts:iterations=1000`` and its heuristic). The targets: at least 90% against the first rival
(greedy; the heuristic in Sinomilia) and 75% against the MCTS rival, the 95% interval's lower end
above 85% and 65%. Results, with the command, the expert's budget and the machine time, are added
to ``data/<game>/acceptance_expert.parquet`` as each pairing ends (one row per setup and rival; a
rerun replaces the rows of the rivals it plays).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

from tabletop_lab import load_game
from tabletop_lab.agents import make_agent
from tabletop_lab.data import data_path, read_study, save_study
from tabletop_lab.sim.ladder import head_to_head

#: setup name -> (game, options, rivals with the rate and interval low end each must beat)
SETUPS = {
    "cross_endodoi-3": ("cross_endodoi", {}, {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)}),
    "cross_endodoi-6": (
        "cross_endodoi",
        {"seeds_per_hole": 6},
        {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)},
    ),
    "sygo-9": ("sygo", {"size": 9}, {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)}),
    "sygo-13": ("sygo", {"size": 13}, {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)}),
    "sinoda-2": ("sinoda", {}, {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)}),
    "sinoda-4": (
        "sinoda",
        {"players": 4, "teams": "pairs"},
        {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)},
    ),
    "capitals": ("capitals", {}, {"greedy": (0.9, 0.85), "mcts:iterations=1000": (0.75, 0.65)}),
    "sinomilia": ("sinomilia", {}, {"sinomilia_heuristic": (0.9, 0.85), "ismcts:iterations=1000": (0.75, 0.65)}),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", action="append", choices=list(SETUPS), help="one setup; repeat (default: all)")
    parser.add_argument("--games", type=int, default=100, help="games a pairing (default 100)")
    parser.add_argument("--expert", default="expert", help="the expert's spec (default: its own budget)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--rival", action="append", help="one rival's spec, as the setup names it; repeat (default: all)"
    )
    parser.add_argument(
        "--table", action="store_true", help="print the saved results as a Markdown table; play nothing"
    )
    args = parser.parse_args(argv)
    if args.table:
        print(table())
        return 0
    command = " ".join(["scripts/acceptance.py", *(sys.argv[1:] if argv is None else argv)])
    for name in args.setup or list(SETUPS):
        game_name, options, rivals = SETUPS[name]
        game = load_game(game_name, **options)
        expert = make_agent(args.expert, game=game)
        unknown = set(args.rival or ()) - set(rivals)
        if unknown:
            parser.error(f"{name}'s rivals are {', '.join(rivals)}; not {', '.join(sorted(unknown))}")
        for rival, (target, low_target) in rivals.items():
            if args.rival and rival not in args.rival:
                continue
            start = time.perf_counter()
            result = head_to_head(game, args.expert, rival, args.games, seed=args.seed, workers=args.workers)
            seconds = time.perf_counter() - start
            passed = result["rate"] >= target and result["ci_low"] > low_target
            verdict = "pass" if passed else "FAIL" if result["ci_high"] < target else "undecided: more games"
            row = {"setup": name, "expert": expert.label, "rival": make_agent(rival, game=game).label, **result,
                   "target": target, "low_target": low_target, "passed": passed, "verdict": verdict,
                   "seconds": round(seconds, 1), "command": command, "options": repr(options)}  # fmt: skip
            print(
                f"{name}: {expert.label} vs {rival}: {result['rate']:.3f} [{result['ci_low']:.3f}, "
                f"{result['ci_high']:.3f}] of {result['n']} ({verdict}; {seconds:.0f} s)",
                flush=True,
            )
            _save(game_name, name, pd.DataFrame([row]))  # each pairing as it ends: a stopped run keeps it
    return 0


def saved_rows(filename: str) -> pd.DataFrame:
    """Every game's saved ``data/<game>/<filename>``, one after another, setups in ``SETUPS`` order."""
    games = dict.fromkeys(game for game, _, _ in SETUPS.values())
    saved = [read_study(path) for game in games if (path := data_path(game, filename)).exists()]
    order = {setup: i for i, setup in enumerate(SETUPS)}
    return pd.concat(saved, ignore_index=True).sort_values("setup", key=lambda s: s.map(order), kind="stable")


def table() -> str:
    """Every saved acceptance row, setup by setup in ``SETUPS`` order, as a Markdown table."""
    rows = saved_rows("acceptance_expert.parquet")
    lines = ["| setup | expert | rival | games | won / drawn / lost | rate [95% interval] | target | verdict | machine time |",
             "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for row in rows.itertuples():
        lines.append(
            f"| {row.setup} | `{row.expert}` | `{row.rival}` | {row.n} | {row.wins} / {row.draws} / {row.losses} "
            f"| {row.rate:.3f} [{row.ci_low:.3f}, {row.ci_high:.3f}] | {row.target:.2f} (low end {row.low_target:.2f}) "
            f"| {row.verdict} | {row.seconds / 60:.0f} min |"
        )
    return "\n".join(lines)


def _save(game_name: str, setup: str, rows: pd.DataFrame) -> None:
    path = data_path(game_name, "acceptance_expert.parquet")
    if path.exists():  # a rerun replaces the rows of its setup and rivals
        saved = read_study(path)
        replaced = (saved["setup"] == setup) & saved["rival"].isin(rows["rival"])
        rows = pd.concat([saved[~replaced], rows], ignore_index=True)
    save_study(rows, path)


if __name__ == "__main__":
    sys.exit(main())
