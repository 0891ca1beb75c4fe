"""The ``tabletop-lab`` command: simulate, report, ladder, bench, compile, games, serve and notebooks.

::

    tabletop-lab games
    tabletop-lab simulate cross_endodoi --agents random,mcts:iterations=200,c=1.4 --games 200 \\
        --seed 1 --workers 2 --option seeds_per_hole=6 --out results.parquet
    tabletop-lab report sygo --option size=9 --games 1000 --out card.csv
    tabletop-lab ladder sygo --option size=9 --games 40 --workers 2
    tabletop-lab bench --game cross_endodoi --seconds 3
    tabletop-lab bench --game sygo --option size=9
    tabletop-lab compile
    tabletop-lab serve --port 8866 --no-browser
    tabletop-lab serve --host 0.0.0.0 --allow-host games.example.org --base-url /games/
    tabletop-lab notebooks my-notebooks

Bad arguments end with a one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import Game
from .registry import list_games, load_game
from .serve import MAX_KERNELS, PREHEAT

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["main"]

_FORMATS = {".csv": "CSV", ".parquet": "Parquet", ".pq": "Parquet"}
#: ``tabletop_lab.sim.SEATS``, repeated so that the parser does not import pandas.
_SEATS = ("fixed", "rotate", "random")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    args = _parser().parse_args(argv)
    args.argv = None if argv is None else list(argv)
    try:
        return args.command(args)
    except ValueError as exc:
        print(f"tabletop-lab {args.name}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tabletop-lab {args.name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`tabletop-lab games | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's flush at exit would fail too
        return 141


# ----------------------------------------------------------------------------- commands


def _simulate(args: argparse.Namespace) -> int:
    game = load_game(args.game, **_options(args.option))
    out = _output_path(args.out) if args.out else None
    agents = _agent_specs(args.agents) if args.agents else ["random"] * game.num_players
    from .sim import simulate  # pandas and numpy load only for the commands that need them

    df = simulate(
        game,
        agents,
        args.games,
        args.seed,
        workers=args.workers,
        seats=args.seats,
        progress=not args.no_progress,
        batch_size=args.batch_size,
        max_actions=args.max_actions,
    )
    if out is not None:
        _write_table(df, out)
        print(f"wrote {len(df)} games to {out}")
    print(_summary_text(df))
    return 130 if df.attrs["interrupted"] else 0


def _report(args: argparse.Namespace) -> int:
    """The designer's report card (``stats.report_card``) of recorded, evaluated games."""
    game = load_game(args.game, **_options(args.option))
    out = _output_path(args.out) if args.out else None
    agents = _agent_specs(args.agents) if args.agents else ["random"] * game.num_players
    from .sim import simulate  # pandas and numpy load only for the commands that need them
    from .stats import report_card

    df = simulate(
        game,
        agents,
        args.games,
        args.seed,
        workers=args.workers,
        progress=not args.no_progress,
        record_actions=True,
        evaluator=args.evaluator,
    )
    card = report_card(df, seed=args.seed)
    if out is not None:
        _write_table(card, out)
    shown = ", ".join(f"{k}={v}" for k, v in sorted(_options(args.option).items()))
    where = f" ({shown})" if shown else ""
    print(f"{game.info.title}{where}: {len(df)} games of {' vs '.join(df.attrs['agents'])}, seed {args.seed}")
    print(card.drop(columns="definition").to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    for note in card.attrs["notes"]:
        print(f"not measured: {note}")
    if out is not None:
        print(f"wrote {len(card)} metrics to {out}")
    return 130 if df.attrs["interrupted"] else 0


def _write_table(frame, out: Path) -> None:
    """``frame`` to ``out`` as CSV or Parquet, by its suffix (``_output_path`` checked it)."""
    from .sim import storable

    if _FORMATS[out.suffix.lower()] == "CSV":
        frame.to_csv(out, index=False)
    else:
        storable(frame).to_parquet(out, index=False)


def _ladder(args: argparse.Namespace) -> int:
    """Levels of play (``sim.ladder``), printed, and saved with the command under ``data/<game>/``."""
    game = load_game(args.game, **_options(args.option))
    from .data import load_or_run  # pandas loads only here
    from .sim.ladder import ladder, ladder_levels
    from .studies import ladder_path

    rungs = ladder_levels(game, args.levels, args.budget)  # bad settings fail before any game
    command = "tabletop-lab " + " ".join(sys.argv[1:] if args.argv is None else args.argv)
    study = {
        "study": "ladder", "command": command, "game": game.name, "options": dict(game.options), "rungs": rungs,
        "n_games": args.games, "seed": args.seed,
    }  # fmt: skip
    shown = ", ".join(f"{k}={v}" for k, v in sorted(_options(args.option).items()))
    where = f" ({shown})" if shown else ""
    print(f"{game.info.title}{where} ladder: {' < '.join(rungs)}; {args.games} games a rung, seed {args.seed}")

    def run() -> pd.DataFrame:
        return ladder(game, args.games, args.levels, args.budget, args.seed, args.workers, not args.no_progress)

    if args.no_save:
        df = run()
    else:
        path = ladder_path(game)
        df = load_or_run(path, run, study=study, rerun=True)
        df.attrs.setdefault("study_key", {})
    print(_ladder_text(df))
    if not args.no_save:
        print(f"saved to {path} (with the command and the rungs' budgets)")
    return 0


def _ladder_text(df: pd.DataFrame) -> str:
    lines = []
    for row in df.itertuples():
        lines.append(
            f"  level {row.level}: {row.agent} vs {row.opponent}: {row.rate:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]"
            f"  ({row.wins} won, {row.draws + row.capped} drawn or capped, {row.losses} lost of {row.n})"
        )
    stopped = df.attrs.get("stopped")
    lines.append(
        "reached the top" if stopped is None else f"stopped at level {stopped}: not shown stronger than the level below"
    )
    return "\n".join(lines)


def _games(args: argparse.Namespace) -> int:
    for info in list_games():
        players = ", ".join(map(str, info["players"]))
        print(f"{info['name']}  ({info['title']}; players: {players})")
        print(f"    {info['summary']}")
        for option in info["options"]:
            values = option["values"]
            shown = values if isinstance(values, str) else ", ".join(map(json.dumps, values))
            print(f"    --option {option['name']}=VALUE   {option['doc']}")
            print(f"        values: {shown}; default {json.dumps(option['default'])}")
        print()
    return 0


def _bench(args: argparse.Namespace) -> int:
    import pandas as pd

    if args.seconds <= 0:
        raise ValueError(f"--seconds must be positive; got {args.seconds}")
    if args.option and not args.game:
        raise ValueError("--option needs --game: options belong to one game")
    names = [args.game] if args.game else [info["name"] for info in list_games()]
    options = _options(args.option)
    games = [load_game(name, **(options if args.game else {})) for name in names]
    rows = [row for game in games for row in _bench_game(game, args.seconds, args.mcts_iterations)]
    print(f"Python {platform.python_version()}, one process, about {args.seconds:g} s per measure")
    print(pd.DataFrame(rows).fillna("").to_string(index=False))
    print("reference: the Python engine; compiled: the game's kernel (TABLETOP_KERNELS=0 turns kernels off)")
    return 0


def _compile(args: argparse.Namespace) -> int:
    """Compile every game's kernels and searches into numba's cache (``precompile.main``): on a
    new machine the first MCTS move of an app would otherwise wait for the compiler (half a
    minute for Sygo). Each game done is recorded: boards then use its kernel at once. With
    ``--option``, one game's rules config (Sygo's ``growth=all`` compiles code of its own)."""
    from .precompile import main  # numba is loaded only here

    if args.option and not args.game:
        raise ValueError("--option needs --game: options belong to one game")
    options = ["--options", json.dumps(_options(args.option))] if args.option else []
    return main([args.game, *options] if args.game else [])


def _serve(args: argparse.Namespace) -> int:
    from .serve import serve  # Voila and its app notebooks are only needed here

    try:
        return serve(
            port=args.port,
            open_browser=not args.no_browser,
            max_kernels=args.max_kernels,
            preheat=args.preheat,
            host=args.host,
            allow_hosts=args.allow_host,
            base_url=args.base_url,
            token=args.token,
            log=args.log,
        )
    except OSError as exc:
        print(f"tabletop-lab serve: error: {exc}", file=sys.stderr)
        return 1


def _notebooks(args: argparse.Namespace) -> int:
    """Copy the teaching notebooks (the layout of the repository's ``notebooks/``) into a new or
    empty folder, for JupyterLab; they find the data through the package."""
    import shutil

    from .resources import shipped_root

    source, target = shipped_root() / "notebooks", Path(args.dir)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ValueError(f"{args.dir!r} exists and is not an empty folder; name a new one")
    shutil.copytree(source, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    count = sum(1 for _ in target.rglob("*.ipynb"))
    print(f"copied {count} notebooks to {target}; open them with: jupyter lab {target / 'index.ipynb'}")
    return 0


# ----------------------------------------------------------------------------- the parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop-lab", description="Simulate, benchmark and serve tabletop_lab games."
    )
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    sim = commands.add_parser("simulate", help="play many games between agents and summarise them")
    sim.add_argument("game", help="a game name (see `tabletop-lab games`)")
    sim.add_argument(
        "--agents",
        help="one agent spec per seat, comma separated, e.g. random,mcts:iterations=200,c=1.4 "
        "(default: random in every seat)",
    )
    sim.add_argument("--games", type=_positive, default=1000, help="number of games (default 1000)")
    sim.add_argument("--seed", type=_non_negative, default=0, help="root seed (default 0)")
    sim.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    sim.add_argument("--out", help="write one row per game to FILE.csv or FILE.parquet")
    sim.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option; repeat for several"
    )
    sim.add_argument(
        "--seats", choices=_SEATS, default="rotate", help="how agents take seats game by game (default rotate)"
    )
    sim.add_argument("--batch-size", type=_positive, help="games per task (default: about 1%% of the games)")
    sim.add_argument(
        "--max-actions", type=_positive, help="cut games after this many actions (default: the game's cap)"
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    sim.set_defaults(command=_simulate, name="simulate")

    rep = commands.add_parser(
        "report", help="the designer's report card: Ludii's game metrics with bootstrap intervals"
    )
    rep.add_argument("game", help="a game name (see `tabletop-lab games`)")
    rep.add_argument("--agents", help="one agent spec per seat, comma separated (default: random in every seat)")
    rep.add_argument("--games", type=_positive, default=1000, help="number of games (default 1000)")
    rep.add_argument(
        "--seed", type=_non_negative, default=0, help="root seed of the games and the bootstrap (default 0)"
    )
    rep.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    rep.add_argument(
        "--evaluator",
        default="evaluate",
        help="who values each position: evaluate (the game's heuristic, default) or an agent spec "
        "(e.g. expert:iterations=200; two sides only)",
    )
    rep.add_argument("--out", help="write the card to FILE.csv or FILE.parquet")
    rep.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option; repeat for several"
    )
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.set_defaults(command=_report, name="report")

    lad = commands.add_parser(
        "ladder", help="levels of play: random, greedy, the expert at doubling budgets; each plays the one below"
    )
    lad.add_argument("game", help="a game name (see `tabletop-lab games`)")
    lad.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option; repeat for several"
    )
    lad.add_argument("--games", type=_positive, default=40, help="games a rung (default 40)")
    lad.add_argument("--levels", type=_positive, default=4, help="expert budgets, doubling to the top (default 4)")
    lad.add_argument("--budget", type=_positive, help="the top budget, in simulations (default: the expert's)")
    lad.add_argument("--seed", type=_non_negative, default=0, help="root seed (default 0)")
    lad.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    lad.add_argument("--no-save", action="store_true", help="do not save the results under data/<game>/")
    lad.add_argument("--no-progress", action="store_true", help="no progress bar")
    lad.set_defaults(command=_ladder, name="ladder")

    bench = commands.add_parser(
        "bench", help="measure random play, report-card and MCTS speed in one process, reference and compiled paths"
    )
    bench.add_argument("--game", help="one game (default: every game)")
    bench.add_argument("--seconds", type=float, default=2.0, help="seconds per measure (default 2)")
    bench.add_argument(
        "--mcts-iterations", type=_positive, default=1000, help="MCTS simulations per decision (default 1000)"
    )
    bench.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option of --game, e.g. size=9"
    )
    bench.set_defaults(command=_bench, name="bench")

    compile_ = commands.add_parser(
        "compile", help="compile the games' kernels and MCTS searches into numba's cache now (apps start them at once)"
    )
    compile_.add_argument("--game", help="one game (default: every game)")
    compile_.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option of --game; repeat for several"
    )
    compile_.set_defaults(command=_compile, name="compile")

    games = commands.add_parser("games", help="list the games and their rule options")
    games.set_defaults(command=_games, name="games")

    serve = commands.add_parser("serve", help="serve the Voila apps on this machine or to a class")
    serve.add_argument("--port", type=_positive, default=8866, help="port (default 8866)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: every network, token required)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the apps are reached by (e.g. behind a reverse proxy); repeat for several",
    )
    serve.add_argument("--base-url", default="/", help="path prefix of every page, e.g. /games/ (default /)")
    serve.add_argument(
        "--token", help="access token (default: none on 127.0.0.1, a random one printed in the link otherwise)"
    )
    serve.add_argument("--log", help="write the server's log to FILE (default: a file in the temporary folder)")
    serve.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    serve.add_argument(
        "--max-kernels",
        type=_positive,
        default=MAX_KERNELS,
        help=f"apps running at once; one more gets a busy page (default {MAX_KERNELS})",
    )
    serve.add_argument(
        "--preheat",
        type=_int,
        choices=range(9),
        metavar="{0..8}",
        default=PREHEAT,
        help=f"kernels kept ready per app so that it opens at once, ~75 MB each (default {PREHEAT}; 0: none)",
    )
    serve.set_defaults(command=_serve, name="serve")

    notebooks = commands.add_parser("notebooks", help="copy the teaching notebooks into a folder for JupyterLab")
    notebooks.add_argument("dir", metavar="DIR", help="a new (or empty) folder")
    notebooks.set_defaults(command=_notebooks, name="notebooks")
    return parser


def _positive(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _non_negative(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


# ----------------------------------------------------------------------------- Helpers


def _options(items: list[str]) -> dict[str, Any]:
    """``key=value`` strings as rule options; values are JSON (``6``, ``true``) or plain text."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--option {item!r} is not of the form key=value")
        if key in options:
            raise ValueError(f"--option {key} is given twice")
        try:
            options[key] = json.loads(text)
        except json.JSONDecodeError:
            options[key] = text
    return options


def _agent_specs(text: str) -> list[str]:
    """Split ``random,mcts:iterations=200,c=1.4`` into one spec per seat: a piece with ``=``
    but no ``:`` is a further setting of the agent before it."""
    specs: list[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def _output_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in _FORMATS:
        raise ValueError(f"--out {text!r}: the file name must end in {', '.join(_FORMATS)}")
    if not path.parent.is_dir():
        raise ValueError(f"--out {text!r}: folder {str(path.parent)!r} does not exist")
    return path


def _summary_text(df: pd.DataFrame) -> str:
    """Win rates with CIs, then first-player advantage, draws, timeouts and lengths."""
    import pandas as pd

    from . import stats

    if df.empty:
        return "no game finished"
    table = stats.win_rates(df)
    shown = pd.DataFrame(
        {
            "agent": table["agent"],
            "wins": table["wins"],
            "draws": table["draws"],
            "losses": table["losses"],
            "n": table["n"],
            "rate": table["rate"].map("{:.3f}".format),
            "95% CI": [f"[{lo:.3f}, {hi:.3f}]" for lo, hi in zip(table["ci_low"], table["ci_high"])],
        }
    )
    first, draws, timeouts = stats.first_player_advantage(df), stats.draw_rate(df), stats.timeout_rate(df)
    lengths = stats.length_summary(df)
    attrs = df.attrs
    lines = [
        f"{attrs['game']} {json.dumps(attrs['options'])}: {len(df)} games, seed {attrs['seed']}, seats {attrs['seats']}",
        shown.to_string(index=False),
        f"first-player advantage {_interval(first)}  (draws count half)",
        f"draws {_interval(draws)}  (completed games)",
        f"timeouts {_interval(timeouts)}  (cut at {attrs['max_actions']} actions or by a rule cap)",
        f"mean length: {lengths.loc['n_turns', 'mean']:.1f} turns, {lengths.loc['n_actions', 'mean']:.1f} actions",
    ]
    return "\n".join(lines)


def _interval(result: dict) -> str:
    return f"{result['value']:.3f} [{result['ci_low']:.3f}, {result['ci_high']:.3f}] (n={result['n']})"


def _bench_game(game: Game, seconds: float, iterations: int) -> list[dict[str, Any]]:
    """Random-play speed (the bare loop, then through ``simulate``), the report card's speed on
    recorded games and MCTS speed, on the reference path (Python engine) and, where the game
    has a kernel, the compiled one."""
    from . import bench

    rows = []
    for path, compiled in (("reference", False), ("compiled", True)):
        rate = bench.random_play(game, seconds, compiled=compiled)
        if rate is None:
            rows.append({"game": game.name, "path": path, "random games/s": "n/a (no kernel)"})
            continue
        n_games = max(1, round(rate.games_per_s * seconds))
        mcts = bench.mcts_rate(game, seconds, iterations, compiled=compiled)
        rows.append(
            {
                "game": game.name,
                "path": path,
                "random games/s": f"{rate.games_per_s:,.0f}",
                "actions/s": f"{rate.actions_per_s:,.0f}",
                "actions/game": f"{rate.actions_per_game:.1f}",
                "simulate() games/s": f"{bench.simulate_rate(game, n_games, compiled=compiled):,.0f}",
                "report_card() s/1,000 games": f"{bench.report_card_seconds(game, seconds, compiled=compiled):.2f}",
                f"MCTS sims/s ({iterations}/move)": "n/a (no kernel)" if mcts is None else f"{mcts:,.0f}",
            }
        )
    return rows


if __name__ == "__main__":  # python -m tabletop_lab.cli, as the tabletop-lab command
    sys.exit(main())
