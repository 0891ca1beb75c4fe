"""Simulate and save the report-card studies every statistics notebook opens with.

For each game's standard setup (Sygo: 19×19 and 9×9), random self-play and expert self-play
at the reduced budgets of ``tabletop_lab.studies.REPORT_SETUPS``, recorded with actions and
evaluations, saved to ``data/<game>/report_<player>*.parquet`` under the key the notebooks load
them with. Prints how long each part took. One process (``workers=1``); run it with ``nice``.

    python scripts/report_cards.py                 # every game
    python scripts/report_cards.py sygo --rerun    # one game, simulated even when saved
"""

from __future__ import annotations

import argparse
import sys
import time

from tabletop_lab.studies import PLAYERS, REPORT_SETUPS, load_report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games (default: all of {', '.join(REPORT_SETUPS)})")
    parser.add_argument("--rerun", action="store_true", help="simulate even when today's study is saved")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in REPORT_SETUPS]
    if unknown:
        parser.error(f"no report-card study for {unknown[0]!r}; choose from {', '.join(REPORT_SETUPS)}")
    started = time.perf_counter()
    for game in args.games or REPORT_SETUPS:
        for setup in REPORT_SETUPS[game]:
            for player in PLAYERS:
                start = time.perf_counter()
                df = load_report(game, setup.label, player, rerun=args.rerun)
                print(
                    f"{game} {setup.label} {setup.spec(player)}: {len(df)} games, {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    print(f"all done in {(time.perf_counter() - started) / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
