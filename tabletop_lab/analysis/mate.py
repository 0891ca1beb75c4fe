"""A mate search: proves exactly, through the engine, whether a side forces a win within N plies.

The exact solver (``solver.py``) bounds every result, so it must search every move of both
sides to the full depth, and in games with a few dozen moves a position and long games ahead
(Sinoda, Capitals) its node limit stops it a ply or two in. A forced win within N plies asks
less: where the winning side moves, one move that keeps the win is enough; only the defender's
moves must all be searched. So does the refutation of a win: one defence suffices where the
defender moves. ``MateSearch.wins_within(state, side, plies, nodes)`` answers it with good move
ordering (moves ending the game won first, then the move that decided this position at a
shallower depth, then the moves that decided its siblings, the "killers"), true or false
**proven**, or ``None`` when the node limit comes first.

Depth counts **whole moves** (plies) of any player, as the solver's does: the actions of a move
of several actions (Capitals' jump chains) are searched one by one and only the action that
completes a move uses up a ply. A side is a team (``Game.teams()``): in a two-player game the
player, in Capitals the pair, whose partner's turns are the side's turns too. In a game where
the sides alternate, a win within 3 plies is "our move, any reply, our winning move"; a
Capitals pass-turn (the ally's extra turn) puts two turns of one side in a row.

What it proves is kept (per side and position: the fewest plies a win was proven within, the
most a win was refuted within) and holds for every position of the game, so one search may be
reused for later positions, as the solver may.
"""

from __future__ import annotations

from ..core import Game, State
from .solver import solvable

__all__ = ["MateSearch"]


class _OutOfNodes(Exception):
    """The node limit is reached."""


class MateSearch:
    """Forced wins within a number of plies, proven or refuted exactly, for one game.

    ``total_nodes`` counts the positions expanded in all calls.

    >>> from tabletop_lab import load_game
    >>> state = load_game("cross_endodoi").state_from_notation("0,0,0,0,1,1/0,0,0,0,0,1 20-13 0")
    >>> search = MateSearch(state.game)
    >>> [search.wins_within(state, 0, plies, nodes=1000) for plies in (3, 5)]
    [False, True]
    """

    def __init__(self, game: Game):
        reason = solvable(game)
        if reason is not None:
            raise ValueError(f"{game.name} has no exact mate search: {reason}")
        self.game = game
        teams = game.teams()
        self._side = {p: i for i, team in enumerate(teams) for p in team}
        self._member = [team[0] for team in teams]  # every member of a side shares its return
        #: (side, key) -> the fewest plies within which ``side`` is proven to force a win.
        self._won: dict[tuple, int] = {}
        #: (side, key) -> the most plies within which ``side`` is proven not to force a win.
        self._held: dict[tuple, int] = {}
        #: (side, key) -> the action that decided the position last (a win kept, or a defence).
        self._best: dict[tuple, int] = {}
        #: (side, plies, attacking) -> the actions that decided positions there lately, newest first.
        self._killers: dict[tuple, list[int]] = {}
        self._limit = 0
        self.total_nodes = 0

    def side_of(self, player: int) -> int:
        """The index in ``game.teams()`` of ``player``'s side."""
        return self._side[player]

    def wins_within(self, state: State, side: int, plies: int, nodes: int) -> bool | None:
        """Whether ``side`` (an index of ``game.teams()``) forces a win from ``state`` within
        ``plies`` whole moves, whoever is to move, proven exactly; ``None`` when ``nodes``
        positions expanded in this call were not enough (what was proven is kept)."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1 (an index of {self.game.name}'s teams), got {side!r}")
        if plies < 0:
            raise ValueError(f"plies must be >= 0, got {plies!r}")
        self._limit = self.total_nodes + nodes
        try:
            return self._wins(state, side, plies)
        except _OutOfNodes:
            return None

    def quickest(self, state: State, side: int, most: int, nodes: int) -> tuple[int | None, bool]:
        """The fewest plies (``1..most``) within which ``side`` forces a win from ``state``, and
        whether the search finished: ``(None, True)`` when ``side`` is proven not to within
        ``most``, ``(None, False)`` when ``nodes`` positions ran out first (deepening a ply at a
        time, every call of one budget)."""
        self._limit = self.total_nodes + nodes
        try:
            for plies in range(1, most + 1):
                if self._wins(state, side, plies):
                    return plies, True
        except _OutOfNodes:
            return None, False
        return None, True

    def line(self, state: State, side: int, plies: int, nodes: int) -> tuple[str, ...]:
        """A forced winning line for ``side`` from ``state`` (a win within ``plies`` proven), as
        whole-move strings: the side's quickest win each move, the defender's longest resistance
        (its reply after which the win needs the most plies), to the end. Shorter where a step's
        proof needs more than ``nodes`` positions; empty where no win is proven."""
        line: list[str] = []
        state = state.clone()
        while plies > 0 and not state.is_terminal():
            attacking = self._side[state.current_player()] == side
            options = []
            for move in state.legal_moves(limit=None):
                after = state.clone()
                after.apply_move(move)
                needed = self._needed(after, side, plies - 1, nodes)
                if needed is None:
                    if attacking:
                        continue
                    return tuple(line)  # a defence this search cannot see through: stop
                options.append((needed, move, after))
            if not options:
                break
            plies, move, state = (min if attacking else max)(options, key=lambda option: option[0])
            line.append(move)
        return tuple(line)

    def _needed(self, state: State, side: int, most: int, nodes: int) -> int | None:
        """The plies ``side`` needs to force a win from ``state`` (0: won), ``None`` if not proven within ``most``."""
        if state.is_terminal():
            return 0 if state.returns()[self._member[side]] > 0 else None
        return self.quickest(state, side, most, nodes)[0]

    def _wins(self, state: State, side: int, plies: int) -> bool:
        if state.is_terminal():
            return state.returns()[self._member[side]] > 0
        if plies == 0:
            return False
        key = (side, state.key())
        if self._won.get(key, plies + 1) <= plies:
            return True
        if self._held.get(key, -1) >= plies:
            return False
        if self.total_nodes >= self._limit:
            raise _OutOfNodes
        self.total_nodes += 1
        attacking = self._side[state.current_player()] == side
        deciding = None
        for action, child in self._ordered(state, key, side, plies, attacking):
            left = plies if child.mid_turn() else plies - 1
            if self._wins(child, side, left) == attacking:
                deciding = action
                break
        won = attacking if deciding is not None else not attacking
        if deciding is not None:
            self._best[key] = deciding
            killers = self._killers.setdefault((side, plies, attacking), [])
            if deciding in killers:
                killers.remove(deciding)
            killers.insert(0, deciding)
            del killers[2:]
        if won:
            self._won[key] = min(self._won.get(key, plies), plies)
        else:
            self._held[key] = max(self._held.get(key, plies), plies)
        return won

    def _ordered(self, state: State, key: tuple, side: int, plies: int, attacking: bool):
        """The children of ``state`` as (action, child), likeliest to decide first: the attacker's
        moves that end the game won, the position's last deciding action, the killers, the rest.
        The attacker's children are all made first (to find the wins); the defender's one by one,
        as one defence is often enough."""
        actions = state.legal_actions()
        first = [self._best.get(key), *self._killers.get((side, plies, attacking), ())]
        order = list(dict.fromkeys(a for a in first if a is not None and a in actions))
        order += [a for a in actions if a not in order]
        if not attacking:
            for action in order:
                yield action, state.child(action)
            return
        children = [(action, state.child(action)) for action in order]
        member = self._member[side]
        children.sort(key=lambda pair: not (pair[1].is_terminal() and pair[1].returns()[member] > 0))
        yield from children
