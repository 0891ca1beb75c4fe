"""Simulate and save the option studies: every rule option of every game under skilled play.

For each game of ``tabletop_lab.studies.OPTION_STUDIES``, the expert's self-play (at the report
card's reduced budget) on the standard setup and on each variant, on the same seeds, recorded
with actions and evaluations, saved setup by setup to ``data/<game>/options_expert/`` under the
key the statistics notebooks load them with. Prints how long each setup took. One process;
run it with ``nice``.

    python scripts/option_studies.py                  # every game, cheapest first
    python scripts/option_studies.py capitals --rerun # one game, simulated even when saved
"""

from __future__ import annotations

import argparse
import sys
import time

from tabletop_lab.studies import OPTION_STUDIES, load_option_games

#: The games in the order they run: the cheapest first, so a stopped run has the most done.
ORDER = ("sinomilia", "cross_endodoi", "capitals", "sygo", "sinoda")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help=f"games (default: all, in the order {', '.join(ORDER)})"
    )
    parser.add_argument("--rerun", action="store_true", help="simulate even when today's study is saved")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in OPTION_STUDIES]
    if unknown:
        parser.error(f"no option study for {unknown[0]!r}; choose from {', '.join(OPTION_STUDIES)}")
    started = time.perf_counter()
    for game in args.games or ORDER:
        start = time.perf_counter()
        frames = load_option_games(game, rerun=args.rerun)
        games = sum(len(df) for df in frames.values())
        print(f"{game}: {len(frames)} setups, {games} games, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"all done in {(time.perf_counter() - started) / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
