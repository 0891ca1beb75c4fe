"""Candidate players for a game's expert, measured one against another (issue 22's ideas worth trying).

Each candidate (an agent spec: the expert with other settings, alpha-beta, ...) plays the same
rival side by side (``tabletop_lab.sim.ladder.head_to_head``: seats rotating, draws and games cut
by a cap count half) on the same seeds, so candidates compare game for game at fixed budgets.
The rows (candidate, rival, wins, draws, losses, rate, Wilson interval, seconds, command) are
added to ``data/<game>/expert_candidates.parquet``; a rerun replaces the rows of the setup,
candidates and rival it plays. The setups are ``scripts/acceptance.py``'s.

    .venv/bin/python scripts/expert_candidates.py --setup cross_endodoi-3 --rival mcts:iterations=1000 \\
        --games 100 expert expert:rollout=30 alphabeta:nodes=200000
    .venv/bin/python scripts/expert_candidates.py --table    # the saved rows, as docs/agents.md shows them
    .venv/bin/python scripts/expert_candidates.py --setup cross_endodoi-3 --rival mcts:iterations=1000 \
        --games 50 --by-seat expert                           # each seat apart (printed, not saved)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pandas as pd
from acceptance import SETUPS, saved_rows

from tabletop_lab import load_game
from tabletop_lab.agents import make_agent
from tabletop_lab.data import data_path, read_study, save_study
from tabletop_lab.sim import simulate
from tabletop_lab.sim.ladder import head_to_head

KEY = ["setup", "candidate", "rival"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidates", nargs="*", help="agent specs to measure")
    parser.add_argument("--setup", choices=list(SETUPS))
    parser.add_argument("--rival", help="the agent spec every candidate plays")
    parser.add_argument("--games", type=int, default=100, help="games a candidate (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--table", action="store_true", help="print the saved rows as a Markdown table; play nothing")
    parser.add_argument(
        "--by-seat", action="store_true", help="play --games in each seat apart and print each (two players)"
    )
    args = parser.parse_args(argv)
    if args.table:
        print(table())
        return 0
    if not (args.candidates and args.setup and args.rival):
        parser.error("give the candidates, --setup and --rival (or --table)")
    command = " ".join(["scripts/expert_candidates.py", *(sys.argv[1:] if argv is None else argv)])
    game_name, options, _ = SETUPS[args.setup]
    game = load_game(game_name, **options)
    rival = make_agent(args.rival, game=game).label
    for spec in args.candidates:
        if args.by_seat:
            by_seat(game, spec, args.rival, args.games)
            continue
        start = time.perf_counter()
        result = head_to_head(game, spec, args.rival, args.games, seed=args.seed, workers=args.workers)
        seconds = time.perf_counter() - start
        row = {"setup": args.setup, "candidate": make_agent(spec, game=game).label, "rival": rival, **result,
               "seconds": round(seconds, 1), "command": command}  # fmt: skip
        print(
            f"{args.setup}: {row['candidate']} vs {rival}: {result['rate']:.3f} [{result['ci_low']:.3f}, "
            f"{result['ci_high']:.3f}] w/d/l {result['wins']}/{result['draws']}/{result['losses']} ({seconds:.0f} s)",
            flush=True,
        )
        _save(game_name, pd.DataFrame([row]))
    return 0


def by_seat(game, spec: str, rival: str, n_games: int) -> None:
    """``spec`` against ``rival`` in a two-player game, ``n_games`` in each seat (seed = the seat):
    where a rotating head-to-head's result comes from."""
    for seat in (0, 1):
        seated = [spec, rival] if seat == 0 else [rival, spec]
        df = simulate(game, seated, n_games, seed=seat, seats="fixed", progress=False)
        draws = int(df["draw"].sum())
        wins = sum(seat in winners for winners in df["winners"]) - draws  # a draw lists every player
        print(
            f"{spec} in seat {seat} against {rival}: won {wins}, drew {draws}, lost {n_games - wins - draws}",
            flush=True,
        )


def table() -> str:
    """Every saved candidate row, game by game, as a Markdown table."""
    lines = ["| setup | candidate | rival | games | won / drawn / lost | rate [95% interval] | machine time |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for row in saved_rows("expert_candidates.parquet").itertuples():
        lines.append(
            f"| {row.setup} | `{row.candidate}` | `{row.rival}` | {row.n} | {row.wins} / {row.draws} / {row.losses} "
            f"| {row.rate:.3f} [{row.ci_low:.3f}, {row.ci_high:.3f}] | {row.seconds / 60:.1f} min |"
        )
    return "\n".join(lines)


def _save(game_name: str, rows: pd.DataFrame) -> None:
    path = data_path(game_name, "expert_candidates.parquet")
    if path.exists():
        saved = read_study(path)
        replaced = saved[KEY].apply(tuple, axis=1).isin(rows[KEY].apply(tuple, axis=1))
        rows = pd.concat([saved[~replaced], rows], ignore_index=True)
    save_study(rows, path)


if __name__ == "__main__":
    sys.exit(main())
