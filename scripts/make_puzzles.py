"""Write data/<game>/puzzles.json: positions from games of the expert where exactly one move wins
or saves the game, each proven or search-verified (see tabletop_lab/analysis/puzzles.py).

    nice .venv/bin/python scripts/make_puzzles.py cross_endodoi --count 60 --seed 1

It plays games of the expert at a small budget (``--iterations``), a move in ``--explore`` of
them at random so the games differ, then looks at the last ``--window`` positions of each game,
latest first, and keeps those where the solver proves within ``--nodes`` positions that exactly
one move reaches the best result (a win, or a draw where every other move loses). With
``--margin`` and ``--mate N``, where the solver runs out of nodes the mate search (within
``--mate-nodes`` positions) looks for the one move that forces the quickest win within N plies,
every other move proven not to win within ``--margin`` plies more (search-verified). At most
``--per-game`` puzzles come from one game, at most ``--most-easy`` one-ply ones in all, a
position only once. The same arguments give the same file.

    nice .venv/bin/python scripts/make_puzzles.py sinoda --count 60 --seed 1 --games 200 --window 8 \
        --nodes 2000 --margin 2 --mate 5 --mate-nodes 50000 --most-easy 20

Sinomilia (hidden cards) has one-round puzzles instead:

    nice .venv/bin/python scripts/make_puzzles.py sinomilia --count 60 --seed 1 --per-game 3

Each round of the expert's games whose hands hold at most ``--max-hand`` cards is solved by
CFR+ (``--cfr-iterations``, each player spending at most ``--budget`` chips on Actions), and
every decision the game reached in it, the setting of the cards first, is a puzzle when one move
beats every other by at least ``--min-margin`` chips (``RoundSolution.decision``), the solved
strategy's exploitability is at most ``--tolerance`` chips, and the opponent's play so far has a
probability of at least ``--min-reach`` under it (below, what the player should believe about
the hidden card is the solver's noise).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from tabletop_lab import load_game
from tabletop_lab.agents import make_agent
from tabletop_lab.analysis.mate import MateSearch
from tabletop_lab.analysis.puzzles import FORMAT_VERSION, Puzzle, best_line, prove_unique
from tabletop_lab.analysis.solver import Solver
from tabletop_lab.data import data_path
from tabletop_lab.errors import EnumerationLimitError, PositionError
from tabletop_lab.versions import package_version, rules_version

#: The rules config puzzles are played under, where a game's default is too big for the solver.
OPTIONS = {"sygo": {"size": 5}}
#: Games of hidden cards, whose puzzles are one-round decisions valued by the round solver.
HIDDEN = ("sinomilia",)
_COMMON = ("count", "seed", "games", "iterations", "explore", "per_game")
#: The settings each kind of puzzle file records (the others do not apply to it).
SEARCH_SETTINGS = (*_COMMON, "window", "nodes", "margin")
HIDDEN_SETTINGS = (*_COMMON, "max_hand", "budget", "cfr_iterations", "min_margin", "min_reach", "tolerance")


def notation(state) -> str:
    """The position as the game's text notation, else its JSON."""
    try:
        return state.notation()
    except PositionError:
        return state.to_json()


def play(game, agent, seed: int, explore: float) -> list:
    """The positions between whole moves of one game of ``agent`` against itself, and the end."""
    rng = random.Random(seed)
    agent.reset(seed)
    state = game.new_initial_state()
    positions = []
    while not state.is_terminal():
        if not state.mid_turn():
            positions.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if rng.random() < explore else agent.choose_action(state))
    return positions


def expert_line(state, agent, plies: int) -> tuple[str, ...]:
    """The expert's play from ``state`` for at most ``plies`` whole moves."""
    state = state.clone()
    line: list[str] = []
    while len(line) < plies and not state.is_terminal():
        state.apply_action(agent.choose_action(state))
        if not state.mid_turn():
            line.append(state.move_history()[-1])
    return tuple(line)


def expert_move(state, agent):
    """The position after the expert's whole move from ``state``."""
    state = state.clone()
    state.apply_action(agent.choose_action(state))
    while state.mid_turn():
        state.apply_action(agent.choose_action(state))
    return state


def defended_line(state, agent, plies: int, mate: MateSearch, side: int, nodes: int) -> tuple[str, ...]:
    """The expert's play from ``state``, where ``side`` is proven not to force a win within
    ``plies`` whole moves, for at most that many: the defender plays the expert's move where
    the mate search proves that it still holds, else the first move that does, so that the line
    shows a defence that works; it stops where no move is proven to hold within ``nodes``."""
    state = state.clone()
    line: list[str] = []
    while len(line) < plies and not state.is_terminal():
        left = plies - len(line) - 1
        after = expert_move(state, agent)
        if mate.side_of(state.current_player()) != side and mate.wins_within(after, side, left, nodes) is not False:
            for move in state.legal_moves(limit=None):
                after = state.clone()
                after.apply_move(move)
                if mate.wins_within(after, side, left, nodes) is False:
                    break
            else:
                break
        state = after
        line.append(state.move_history()[-1])
    return tuple(line)


def puzzle_at(state, seed: int, ply: int, args, solver: Solver, mate: MateSearch, agent) -> Puzzle | None:
    """The puzzle of ``state`` when its solution is proven unique (or search-verified), else ``None``."""
    nodes = args.mate_nodes or args.nodes
    proof = prove_unique(state, args.nodes, solver, args.margin, args.mate, mate, nodes)
    if proof is None:
        return None
    line = {}
    for move, bound in proof.bounds.items():
        after = state.clone()
        after.apply_move(move)
        plies = max(bound.depth, proof.bounds[proof.solution].depth) - 1
        if proof.search == "mate" and move == proof.solution:  # the forced win the mate search proved
            line[move] = (move, *mate.line(after, mate.side_of(state.current_player()), plies, nodes))
        elif bound.proven and proof.search == "solver":
            line[move] = (move, *best_line(after, plies, args.nodes, solver))
        elif args.mate:  # proven not to win within the plies searched: a defence that holds
            line[move] = (move, *defended_line(after, agent, plies, mate, mate.side_of(state.current_player()), nodes))
        else:  # no proof to follow: how the expert answers it
            line[move] = (move, *expert_line(after, agent, plies))
    solution = proof.solution
    others = [bound.depth for move, bound in proof.bounds.items() if move != solution]
    return Puzzle(
        game=state.game.name,
        options=dict(state.game.options),
        position=notation(state),
        solution=solution,
        line=line.pop(solution),
        refutations=line,
        label=proof.label,
        goal=proof.goal,
        depth=proof.bounds[solution].depth if proof.goal == "win" else max(others),
        source={"seed": seed, "ply": ply},
    )


def round_puzzles(game, agent, seed: int, args, seen: set) -> list[Puzzle]:
    """The one-round puzzles of one Sinomilia game of ``agent`` (see the module's docstring):
    the set decisions first, then the later ones, each round in order; ``seen`` holds the
    decisions already used (a round's cards and piles, and the player's view)."""
    from tabletop_lab.games.sinomilia.solver import solve_round

    positions = play(game, agent, seed, args.explore)
    starts = [i for i, state in enumerate(positions) if state.to_dict()["set"] == [None, None]]
    found = []
    for first, end in zip(starts, [*starts[1:], len(positions)]):
        start = positions[first].to_dict()
        hands, chips, leader = start["hands"], start["chips"], start["start_player"]
        if max(len(hand) for hand in hands) > args.max_hand:
            continue
        solved = solve_round(*hands, tuple(chips), tuple(args.budget), leader, args.cfr_iterations)
        if solved.exploitability > args.tolerance:
            print(f"  round {start['round']}: exploitability {solved.exploitability:.4f}, skipped", flush=True)
            continue
        before = len(positions[first].history_strings())
        for ply in range(first, end):
            state = positions[ply]
            source = {"seed": seed, "ply": ply, "round": state.round, "hands": hands, "chips": chips}
            source |= {"start_player": leader, "moves": state.history_strings()[before:]}
            try:
                decision = solved.decision(source["moves"])
            except ValueError:  # past a budget, or play the solved opponent never makes
                continue
            key = (canonical(hands), canonical(chips), leader, decision.view)
            puzzle = None if key in seen else round_puzzle(state, source, solved, decision, args)
            if puzzle is not None:
                found.append((key, puzzle))
    found.sort(key=lambda pair: len(pair[1].source["moves"]) > 1)  # the two set decisions first (stable)
    kept = found[: args.per_game]
    seen.update(key for key, _ in kept)
    return [puzzle for _, puzzle in kept]


def round_puzzle(state, source: dict, solved, decision, args) -> Puzzle | None:
    """The puzzle of one decision of a solved round, when one move is best by ``--min-margin``
    chips and the opponent's play so far is likely enough (``--min-reach``), else ``None``."""
    if len(decision.moves) < 2 or decision.reach < args.min_reach:
        return None
    assert decision.moves == state.legal_moves(), source  # the budget leaves every legal move here
    values = {move: round(value, 3) for move, value in zip(decision.moves, decision.values)}
    solution = max(values, key=values.__getitem__)
    if values[solution] - max(v for move, v in values.items() if move != solution) < args.min_margin:
        return None
    return Puzzle(
        game=state.game.name,
        options=dict(state.game.options),
        position=notation(state),
        solution=solution,
        line=(solution,),
        refutations={move: (move,) for move in values if move != solution},
        label="proven",
        goal="best",
        depth=decision.horizon,
        source=source
        | {
            "budget": list(args.budget),
            "spent": list(decision.spent),
            "iterations": args.cfr_iterations,
            "exploitability": round(solved.exploitability, 6),
            "reach": round(decision.reach, 4),
        },
        values=values,
    )


def canonical(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--count", type=int, default=60, help="puzzles wanted (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument("--games", type=int, default=400, help="the most games played (default 400)")
    parser.add_argument("--iterations", type=int, default=200, help="the expert's simulations per action")
    parser.add_argument("--explore", type=float, default=0.1, help="share of random actions (default 0.1)")
    parser.add_argument("--window", type=int, default=12, help="positions looked at per game, from its end")
    parser.add_argument("--per-game", type=int, default=2, help="most puzzles from one game (default 2)")
    parser.add_argument("--nodes", type=int, default=20_000, help="solver node limit per position")
    parser.add_argument(
        "--margin",
        type=int,
        default=None,
        help="accept search-verified puzzles: others searched this many plies deeper",
    )
    parser.add_argument(
        "--mate",
        type=int,
        default=0,
        help="where the solver stops, find forced wins within this many plies by the mate search (needs --margin)",
    )
    parser.add_argument("--mate-nodes", type=int, default=None, help="the mate search's node limit (default --nodes)")
    parser.add_argument(
        "--most-easy",
        type=int,
        default=None,
        help="keep at most this many easy (one-ply) puzzles, so that the file spans the difficulties",
    )
    hidden = parser.add_argument_group("sinomilia (one-round puzzles)")
    hidden.add_argument("--max-hand", type=int, default=4, help="most cards in a hand of a solved round (default 4)")
    hidden.add_argument("--budget", type=int, nargs=2, default=[2, 2], help="chips each player may spend (default 2 2)")
    hidden.add_argument("--cfr-iterations", type=int, default=500, help="CFR+ iterations per round (default 500)")
    hidden.add_argument("--min-margin", type=float, default=0.25, help="chips the solution must win by (default 0.25)")
    hidden.add_argument("--min-reach", type=float, default=0.05, help="least probability of the opponent's play so far")
    hidden.add_argument("--tolerance", type=float, default=0.005, help="most exploitability of a solved round, chips")
    args = parser.parse_args(argv)
    if args.mate and args.margin is None:
        parser.error("--mate needs --margin: the mate search's puzzles are search-verified")
    game = load_game(args.game, **OPTIONS.get(args.game, {}))
    agent = make_agent(f"expert:iterations={args.iterations}", game=game)
    puzzles: list[Puzzle] = []
    seen: set = set()
    started = time.perf_counter()
    played = 0
    for seed in range(args.seed, args.seed + args.games):
        if len(puzzles) >= args.count:
            break
        played += 1
        if args.game in HIDDEN:
            puzzles.extend(round_puzzles(game, agent, seed, args, seen)[: args.count - len(puzzles)])
            print(f"game {seed}: {len(puzzles)} puzzles, {time.perf_counter() - started:.0f} s", flush=True)
            continue
        positions = play(game, agent, seed, args.explore)
        found = 0
        solver = Solver(game)  # what they prove holds for every position of the game
        mate = MateSearch(game)
        for ply in range(len(positions) - 1, max(len(positions) - 1 - args.window, -1), -1):
            state = positions[ply]
            if state.key() in seen or found >= args.per_game or len(puzzles) >= args.count:
                continue
            seen.add(state.key())
            try:
                puzzle = puzzle_at(state, seed, ply, args, solver, mate, agent)
            except EnumerationLimitError:  # a position (or one of its lines) with too many moves to list
                puzzle = None
            if puzzle is not None and puzzle.difficulty == "easy" and args.most_easy is not None:
                if sum(p.difficulty == "easy" for p in puzzles) >= args.most_easy:
                    puzzle = None
            if puzzle is not None:
                puzzles.append(puzzle)
                found += 1
        print(
            f"game {seed}: {len(positions)} moves, {len(puzzles)} puzzles, {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    if args.game in HIDDEN:  # easiest (largest margin) first
        puzzles.sort(key=lambda p: (-p.margin, p.source["seed"], p.source["ply"]))
    else:
        puzzles.sort(key=lambda p: (p.depth, p.source["seed"], p.source["ply"]))
    used = HIDDEN_SETTINGS if args.game in HIDDEN else SEARCH_SETTINGS
    document = {
        "game": args.game,
        "format": FORMAT_VERSION,
        "command": "scripts/make_puzzles.py " + " ".join(argv),
        "settings": {k: v for k, v in vars(args).items() if k in used} | {"games_played": played},
        "versions": {"tabletop_lab": package_version(), "rules": rules_version(args.game)},
        "puzzles": [p.to_dict() for p in puzzles],
    }
    path = data_path(args.game, "puzzles.json")
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(puzzles)} puzzles to {path} from {played} games in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
