"""How often Sygo's ``growth="all"`` no-dead-end test needs its search, and how far it goes (issue 11).

Plays games with the Python engine and counts the calls of ``growth.Turn.completable_all``,
those answered no because no legal move at all can be completed from the node (no end passes
``Turn.completable``: an exact no, found before the search), those that reach its step 3 (the
exact search ``Turn._search_maximal``, at most ``all_search_limit`` states in all), the calls
whose search ran past the limit (the answer no may then be wrong, spec 7.1), and the most states
one search explored. ``--seconds`` stops the run even in the middle of a game. Example::

    PYTHONPATH=. python scripts/sygo_all_budget.py --size 9 --agent greedy --games 40 --seconds 60
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from tabletop_lab import load_game
from tabletop_lab.agents.registry import make_agent
from tabletop_lab.games.sygo.growth import Turn, _OverBudget

counts: Counter = Counter()
searched: set[str] = set()  # what the current completable_all call did


def _some_end(turn: Turn, node) -> bool:
    """Whether any legal move can still be completed from ``node`` (finish or a balancing stone)."""
    return any(turn.completable(node, 0, "none" if q is None else "fixed", q) for q in turn.ends(node))


def _counting(completable_all, search_maximal):
    def counted_completable_all(self, node):
        counts["calls"] += 1
        searched.clear()
        answer = completable_all(self, node)
        counts["no end at all"] += not answer and not _some_end(self, node)
        counts["step 3"] += "step 3" in searched
        counts["past the limit"] += "past the limit" in searched
        return answer

    def counted_search_maximal(self, node, q, budget):
        searched.add("step 3")
        before = budget[0]
        try:
            return search_maximal(self, node, q, budget)
        except _OverBudget:
            searched.add("past the limit")
            raise
        finally:
            counts["largest search"] = max(counts["largest search"], before - budget[0])

    return counted_completable_all, counted_search_maximal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--balancing", choices=("on", "off"), default="on")
    parser.add_argument("--agent", default="random", help="agent spec for both seats (random, greedy, ...)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this much CPU time (even mid-game)")
    parser.add_argument("--limit", type=int, default=5000, help="all_search_limit (0: None, no limit)")
    args = parser.parse_args()
    Turn.completable_all, Turn._search_maximal = _counting(Turn.completable_all, Turn._search_maximal)
    limit = args.limit or None
    game = load_game("sygo", size=args.size, growth="all", balancing=args.balancing == "on", all_search_limit=limit)
    start, played, actions = time.process_time(), 0, 0
    for seed in range(args.games):
        state = game.new_initial_state()
        agents = [make_agent(args.agent, seed=2 * seed + seat, game=game) for seat in range(2)]
        while not state.is_terminal() and time.process_time() - start < args.seconds:
            state.apply_action(agents[state.current_player()].choose_action(state))
            actions += 1
        if not state.is_terminal():
            break  # out of time in the middle of a game
        played += 1
    cpu = time.process_time() - start
    print(
        f"size={args.size} balancing={args.balancing} agent={args.agent} limit={limit} "
        f"games={played} actions={actions} cpu={cpu:.0f}s"
    )
    for key in ("calls", "no end at all", "step 3", "past the limit", "largest search"):
        print(f"  {key}: {counts[key]}")


if __name__ == "__main__":
    main()
