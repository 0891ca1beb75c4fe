"""The growth rules of one Sygo turn (spec 2.4, 2.5 and section 7) on bitboards.

A ``Turn`` analyses the position at the start of a turn once: the mover's start groups, their
liberties, ``src(p)`` for every point (a bitmask over start-group numbers), and the opponent's
groups with their liberties. A ``Node`` is the effect of a valid prefix of growth stones: the
stones added, which start groups are grown and closed, which opponent groups are reversed,
and the board as it stands. ``Turn.step`` adds one stone.

**Order without trying k! orders.** An opponent group ``H`` is reversed exactly when its last
liberty is filled, so the final position does not depend on the order; the order only decides
closure. A start group ``G`` is closed early only by the capture of an opponent group it
touches (any other route into the resulting group goes through a new stone next to ``G``, so
``G`` has grown already). A set is therefore orderable iff every stone touches some start group,
no start group touches two stones, no stone grows a group grown or closed before the set, and
for every captured ``H`` each stone growing a group next to ``H`` comes no later than the last
of ``H``'s liberties. ``Turn.order`` builds such an order from the back: any stone whose
constraints are already settled by the stones placed after it can go last. Availability only
grows as stones are placed behind, so this greedy choice never gets stuck when an order exists
(O(k^2) per set, times the captured groups).

**No dead ends.** Orderable sets are closed under subsets (restrict the order). The final
position fails only by suicide: some mover group ``Z`` without liberties. ``Z`` has no empty
neighbour, so no later stone touches it; only reversing an opponent group next to ``Z`` (all its
remaining liberties filled, the balancing placement possibly being the last) can change it.
``Turn.completable`` branches on exactly those captures, so it decides whether a partial turn
can still end legally; in practice it returns at once, since most stones leave no such ``Z``.
Under ``growth="all"`` a partial turn is completable when a maximal legal move can still be
reached from it (``Turn.completable_all``): a greedy growth usually finds one; otherwise an
exact search, start group by start group, decides (``Turn._search_maximal``: its cuts and why
they are exact). It keeps a limit on the states it explores as a safety net (``search_limit``,
default 5,000; ``None``: none), never reached in measured play; deciding it is NP-hard in
general (``Turn.completable_all`` says why, and what the search costs).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import NamedTuple

from .bitboard import Geometry, bit_points

__all__ = ["SEARCH_LIMIT", "Node", "Turn"]

#: The default limit of ``Turn.completable_all``'s search (states explored), a safety net: the
#: engine parameter ``all_search_limit`` of ``rules.SygoGame``.
SEARCH_LIMIT = 5000


def _too_many(limit: int) -> str:
    return (
        f"sygo: more than {limit} legal whole moves here; play stone by stone with "
        "legal_actions(), or raise the limit (legal_moves(limit=...))"
    )


class _OverBudget(Exception):
    """A search of growth sets went past its budget."""


class Node(NamedTuple):
    """What the growth stones played so far (a valid prefix) have done."""

    added: int  # growth stones, as a point mask
    grown: int  # start groups grown, as a bitmask over start-group numbers
    closed: int  # start groups closed by a capture
    captured: int  # opponent groups reversed, as a bitmask over opponent-group numbers
    mover: int  # the mover's stones now
    opponent: int  # the opponent's stones now


class Turn:
    """The start of a turn: groups, liberties and sources, plus the growth rules on top of them."""

    def __init__(
        self,
        geom: Geometry,
        mover: int,
        opponent: int,
        balancing: bool,
        all_growth: bool,
        search_limit: int | None = SEARCH_LIMIT,
    ):
        self.geom = geom
        self.balancing = balancing  # a balancing placement may end a growth turn
        self.all_growth = all_growth
        self.search_limit = float("inf") if search_limit is None else search_limit  # completable_all's step 3
        self.root = Node(0, 0, 0, 0, mover, opponent)
        empty = geom.full & ~(mover | opponent)
        self.groups = geom.groups(mover)
        self.src = [0] * geom.points
        growable = 0
        for number, group in enumerate(self.groups):
            liberties = geom.liberties(group, empty)
            growable |= liberties
            for p in bit_points(liberties):
                self.src[p] |= 1 << number
        self.growable = growable
        self._maximal: list[tuple[int, int | None]] | None = None
        self.witnesses: list[tuple[int, int | None]] = []  # maximal moves found (growth="all")

    # The opponent's side of the analysis, made only when a stone is added (not for passes and
    # placements that need no capture check).

    @cached_property
    def opponent_groups(self) -> list[int]:
        return self.geom.groups(self.root.opponent)

    @cached_property
    def opponent_liberties(self) -> list[int]:
        empty = self.geom.full & ~(self.root.mover | self.root.opponent)
        return [self.geom.liberties(h, empty) for h in self.opponent_groups]

    @cached_property
    def touching(self) -> list[int]:
        """The start groups next to each opponent group, as group bits."""
        touching = []
        for h in self.opponent_groups:
            around = self.geom.dilate(h)
            touching.append(sum(1 << n for n, g in enumerate(self.groups) if g & around))
        return touching

    @cached_property
    def liberty_of(self) -> dict[int, list[int]]:
        """For each liberty of an opponent group, the opponent groups it is a liberty of."""
        found: dict[int, list[int]] = {}
        for number, liberties in enumerate(self.opponent_liberties):
            for p in bit_points(liberties):
                found.setdefault(p, []).append(number)
        return found

    # --- single stones ------------------------------------------------------------------------

    def step(self, node: Node, p: int) -> Node:
        """The node after growth stone ``p`` (already checked by ``grow_problem``)."""
        bit = 1 << p
        added = node.added | bit
        mover = node.mover | bit
        captured = self._captures(p, added, node.captured)
        closed, opponent = node.closed, node.opponent
        if captured:
            reversed_stones = self.stones_of(captured)
            mover |= reversed_stones
            opponent &= ~reversed_stones
            resulting = self.geom.flood(bit, mover)
            closed |= sum(1 << n for n, g in enumerate(self.groups) if g & resulting)
        return Node(added, node.grown | self.src[p], closed, node.captured | captured, mover, opponent)

    def _captures(self, p: int, filled: int, already: int) -> int:
        captured = 0
        for h in self.liberty_of.get(p, ()):
            if not (already >> h) & 1 and not self.opponent_liberties[h] & ~filled:
                captured |= 1 << h
        return captured

    def stones_of(self, opponent_bits: int) -> int:
        stones = 0
        for h in bit_points(opponent_bits):
            stones |= self.opponent_groups[h]
        return stones

    def grow_problem(self, node: Node, p: int) -> tuple[str, int] | None:
        """Why ``p`` cannot be the next growth stone: (rule word, group number or -1), else None."""
        if ((node.mover | node.opponent) >> p) & 1:
            return ("occupied", -1)
        sources = self.src[p]
        if not sources:
            return ("no source", -1)
        if sources & node.grown:
            return ("grown", (sources & node.grown).bit_length() - 1)
        if sources & node.closed:
            return ("closed", (sources & node.closed).bit_length() - 1)
        return None

    # --- whole sets ---------------------------------------------------------------------------

    def position(self, filled: int) -> tuple[int, int]:
        """(mover, opponent) after the stones ``filled`` (growth plus any placement), in any order."""
        mover = self.root.mover | filled
        opponent = self.root.opponent
        for h, liberties in enumerate(self.opponent_liberties):
            if not liberties & ~filled:
                mover |= self.opponent_groups[h]
                opponent &= ~self.opponent_groups[h]
        return mover, opponent

    def dead(self, mover: int, opponent: int) -> int:
        """The mover's stones in groups without liberties (suicide, rule 2.2)."""
        return self.geom.groups_without_liberties(mover, self.geom.full & ~(mover | opponent))

    def placement_problem(self, mover_after_growth: int, opponent: int, q: int) -> int | None:
        """-1 if ``q`` is occupied, the mover's stone it touches, or None when ``q`` is a placement point."""
        if ((mover_after_growth | opponent) >> q) & 1:
            return -1
        touching = self.geom.neighbour_mask[q] & mover_after_growth
        return (touching & -touching).bit_length() - 1 if touching else None

    def order(self, node: Node, extra: int) -> list[int] | None:
        """A valid order of the growth stones ``extra`` after ``node``, or None if there is none."""
        stones = bit_points(extra)
        used = node.grown | node.closed
        src = self.src
        for p in stones:
            sources = src[p]
            if not sources or sources & used:
                return None
            used |= sources
        constraints = []
        for h, liberties in enumerate(self.opponent_liberties):
            if (node.captured >> h) & 1:
                continue
            remaining = liberties & ~node.added
            if remaining & ~extra:
                continue  # not captured by this set
            touching = self.touching[h]
            blockers = 0
            for p in stones:
                if src[p] & touching and not (remaining >> p) & 1:
                    blockers |= 1 << p
            if blockers:
                constraints.append((remaining, blockers))
        if not constraints:
            return stones
        backwards = []
        later = 0
        left = stones
        while left:
            for p in left:
                bit = 1 << p
                if all(not blockers & bit or remaining & later for remaining, blockers in constraints):
                    break
            else:
                return None
            backwards.append(p)
            later |= 1 << p
            left = [s for s in left if s != p]
        return backwards[::-1]

    def completable(self, node: Node, extra: int = 0, placement: str = "any", q: int | None = None) -> bool:
        """Whether growth stones including ``extra`` can follow ``node`` and end the turn legally
        (rule 2.2 checked on the final position) under ``"any"``.

        ``placement``: ``"none"`` (the turn ends with finish), ``"fixed"`` (it ends by placing
        ``q``) or ``"any"`` (finish, or any balancing placement when ``self.balancing``).
        ``extra`` must be orderable after ``node``. See the module docstring for why branching
        on the captures next to one group without liberties is exhaustive.
        """
        free_placement = placement == "any" and self.balancing
        seen: set[tuple[int, int | None]] = set()
        geom = self.geom

        def search(extra: int, q: int | None) -> bool:
            if (extra, q) in seen:
                return False
            seen.add((extra, q))
            filled = node.added | extra
            if not filled:
                return False  # a growth move adds at least one growth stone
            mover, opponent = self.position(filled)
            q_bit = 0
            if q is not None:
                if self.placement_problem(mover, opponent, q) is not None:
                    return False  # more growth never makes a placement point good again
                q_bit = 1 << q
                mover, opponent = self.position(filled | q_bit)
            dead = self.dead(mover, opponent)
            if not dead:
                return True
            around = geom.dilate(geom.flood(dead & -dead, mover)) & opponent
            for h, stones in enumerate(self.opponent_groups):
                if not stones & around:
                    continue
                remaining = self.opponent_liberties[h] & ~filled & ~q_bit
                wider = extra | remaining
                if self.order(node, wider) is not None and search(wider, q):
                    return True
                if q is None and free_placement:
                    for r in bit_points(remaining):
                        narrower = extra | (remaining & ~(1 << r))
                        if self.order(node, narrower) is not None and search(narrower, r):
                            return True
            return False

        return search(extra, q if placement == "fixed" else None)

    # --- enumeration --------------------------------------------------------------------------

    def moves(self, node: Node, limit: int, error: type[Exception]) -> list[tuple[int, int | None]]:
        """Every legal way to end the turn from ``node``: (growth set, placement or None), in the
        spec's listing order (size, then point list; each set followed by its balancing
        extensions). Under ``growth="all"`` only the maximal ones. Raises ``error`` beyond ``limit``."""
        if self.all_growth:
            found = [(grown, q) for grown, q in self.maximal_moves(limit, error) if self._reachable(node, grown)]
        else:
            found = self._any_moves(node, limit, error)
        return sorted(
            found, key=lambda move: (move[0].bit_count(), bit_points(move[0]), -1 if move[1] is None else move[1])
        )

    def _reachable(self, node: Node, grown: int) -> bool:
        return grown & node.added == node.added and self.order(node, grown & ~node.added) is not None

    def _any_moves(self, node: Node, limit: int, error: type[Exception]) -> list[tuple[int, int | None]]:
        found: list[tuple[int, int | None]] = []
        candidates = [p for p in bit_points(self.growable) if self.grow_problem(node, p) is None]

        def collect(extra: int) -> None:
            filled = node.added | extra
            mover, opponent = self.position(filled)
            dead = self.dead(mover, opponent)
            if not dead:
                found.append((filled, None))
            if self.balancing:
                for q in self.placements(mover, opponent, filled, dead):
                    found.append((filled, q))
            if len(found) > limit:
                raise error(_too_many(limit))

        def extend(start: int, extra: int, used: int) -> None:
            for i in range(start, len(candidates)):
                p = candidates[i]
                sources = self.src[p]
                if sources & used:
                    continue
                wider = extra | (1 << p)
                if self.order(node, wider) is None:
                    continue
                collect(wider)
                extend(i + 1, wider, used | sources)

        if node.added:
            collect(0)
        extend(0, 0, node.grown | node.closed)
        return found

    def placements(self, mover: int, opponent: int, filled: int, dead: int) -> list[int]:
        """Balancing placements legal after the growth ``filled`` (board ``mover``/``opponent``)."""
        geom = self.geom
        empty = geom.full & ~(mover | opponent)
        near_mover = geom.dilate(mover)
        legal = []
        for q in bit_points(empty & ~near_mover):
            q_bit = 1 << q
            capturing = any(not self.opponent_liberties[h] & ~(filled | q_bit) for h in self.liberty_of.get(q, ()))
            if capturing:
                after_mover, after_opponent = self.position(filled | q_bit)
                if not self.dead(after_mover, after_opponent):
                    legal.append(q)
            elif not dead and geom.neighbour_mask[q] & empty:
                legal.append(q)
        return legal

    def maximal_moves(self, limit: int, error: type[Exception]) -> list[tuple[int, int | None]]:
        """The legal moves under ``growth="all"``: the "any" moves no legal move strictly extends
        with the same placement, found for each end by the exact search of ``_maximal_sets``
        (never by listing the "any" moves, which can be far more). Raises ``error`` when there
        are more than ``limit``; the whole list, once found, is kept for the turn, so no answer
        depends on what was asked before (spec Decision 14)."""
        if self._maximal is None:
            found: list[tuple[int, int | None]] = []
            for q in self.ends(self.root):
                for grown in self._maximal_sets(self.root, q, [float("inf")], every=True):
                    found.append((grown, q))
                    if len(found) > limit:
                        raise error(_too_many(limit))
            self._maximal = found
        return self._maximal

    def completable_all(self, node: Node) -> bool:
        """Under ``growth="all"``: whether a maximal legal move can still be reached from ``node``.

        1. A maximal move already known this turn (``self.witnesses``) that is reachable from
           ``node`` settles it.
        2. For the plain end, then each balancing placement, that ``completable`` passes, grow
           greedily: add any stone that keeps that end in sight, until none can be added. The set
           reached is legal and maximal among the moves reachable from ``node``; if no legal move
           at all extends it (``extension``), it is a witness. When no end passes, no legal move
           at all can be reached, so none that is maximal: the answer is no, exactly.
        3. Otherwise, for each end that passes, an exact search (``_search_maximal``) looks for a
           maximal move reachable from ``node``, deciding the start groups one by one (grow by
           one of its points, or stay idle) with cuts that drop what cannot hold a maximal move.
           It counts the states it explores, in all, against ``search_limit`` (the engine
           parameter ``all_search_limit``, 5,000 by default; ``None``: no limit), a safety net:
           past it the answer is no, so the stone that led here is not offered, a cautious choice
           that never leaves a dead end (the witness that made the turn so far completable stays
           reachable), and a move with that stone can still be played as a whole-move string or
           replayed from a record (``SygoState._move_actions`` and ``SygoState.foresee`` add the
           move they check to the witnesses).

        Why a safety net. What can follow a prefix depends only on its set of stones ``A``: the
        start groups it closed without growing them are the ungrown ones next to an opponent group
        it captured. A set maximal among the legal moves reachable from ``node`` is extended by a
        legal move only through such a group (grown before the capture) or through the capture
        of an opponent group that ``A`` partly filled (``A`` makes it happen earlier). Ruling out
        the first alone is NP-hard in the board size: let ``A`` capture groups ``H_i``, each next
        to an ungrown group ``G_i`` whose only liberty ``g_i`` also touches a group ``X_i``, and let
        the other liberties of the ``X``'s each touch three ``X``'s. Each ``g_i`` can be grown
        before the capture, so a reachable move is maximal iff every ``X_i`` grows, iff its
        stones cover the ``X``'s exactly: planar exact cover by 3-sets (Dyer and Frieze, 1986).
        No search can promise to finish quickly on such constructions; real positions are not
        like them.

        What it costs. Step 3 used to enumerate every growth set reachable from ``node`` (5,000
        at most): on the 9x9 position ``........./.W..W..W./........./........./.W..W..W./
        ........./........W/...BBBBB./...W.W.WB W g 0`` (one string) it met 5^6 sets after
        ``grow i2`` and refused the stone, though ``grow e1 b4 e4 h4 b7 e7 h7 i2`` is legal. The
        search of ``_search_maximal`` settles that position in 13 states. Measured with ``scripts/sygo_all_budget.py`` (random and greedy play on 9x9,
        13x13 and 19x19, 40 games or 45 s of CPU each), where the old enumeration ran out in
        0-38% (random) and 29-85% (greedy) of the calls that reached it, the search never
        reached the limit: its largest run took 513 states in random play and 3,627 in greedy
        play on 13x13 (some 0.3 s); most take a few states.
        """
        if self.witnessed(node):
            return True
        ends = []
        for q in self.ends(node):
            placement = "none" if q is None else "fixed"
            if self.completable(node, 0, placement, q):
                ends.append(q)
                grown = node.added | self._grow_greedily(node, placement, q)
                if self.extension(grown, q) is None:
                    self.witnesses.append((grown, q))
                    return True
        if not ends:
            return False
        budget = [self.search_limit]
        try:
            for q in ends:
                grown = self._search_maximal(node, q, budget)
                if grown is not None:
                    self.witnesses.append((grown, q))
                    return True
        except _OverBudget:
            pass
        return False

    def witnessed(self, node: Node) -> bool:
        """Whether a maximal move known this turn (``self.witnesses``) can be reached from ``node``."""
        return any(self._reachable(node, grown) for grown, _ in self.witnesses)

    def ends(self, node: Node) -> list[int | None]:
        """The ways the turn in progress at ``node`` might end: finish (None), then, when the
        balancing move is available, every point that can still be the balancing stone (empty,
        not next to the mover's stones: growth only adds to them)."""
        if not self.balancing:
            return [None]
        return [None, *bit_points(self.geom.full & ~(node.mover | node.opponent) & ~self.geom.dilate(node.mover))]

    @cached_property
    def quiet(self) -> int:
        """The quiet growth points: no opponent stone next to them, some empty point next to them,
        and every empty point next to them grows only groups that they grow themselves. The stone
        of a quiet point ``x`` stays in a group with a liberty (the empty points next to it can
        no longer be grown once it has grown their groups), it joins only its sources, and it
        captures nothing, so any legal move that grows none of ``src(x)`` is extended by ``x``
        (placed first). See ``_search_maximal``."""
        geom, src = self.geom, self.src
        empty = geom.full & ~(self.root.mover | self.root.opponent)
        quiet = 0
        for x in bit_points(self.growable):
            around = geom.neighbour_mask[x]
            if around & self.root.opponent or not around & empty:
                continue
            if all(not src[e] & ~src[x] for e in bit_points(around & empty)):
                quiet |= 1 << x
        return quiet

    @cached_property
    def group_liberties(self) -> list[int]:
        """The growth points of each start group (its liberties at the turn's start)."""
        empty = self.geom.full & ~(self.root.mover | self.root.opponent)
        return [self.geom.liberties(group, empty) for group in self.groups]

    def _search_maximal(self, node: Node, q: int | None, budget: list[float]) -> int | None:
        """The growth set of a legal move ending with ``q`` (None: finish), reachable from
        ``node`` and maximal (``extension`` finds none), or None if there is none: the first of
        ``_maximal_sets`` (quiet points deduplicated)."""
        return next(self._maximal_sets(node, q, budget, every=False), None)

    def _maximal_sets(self, node: Node, q: int | None, budget: list[float], every: bool) -> Iterator[int]:
        """The growth sets of the legal moves ending with ``q`` (None: finish), reachable from
        ``node`` and maximal (``extension`` finds none): an exact search, group by group, that
        counts the states it explores against ``budget[0]`` and raises ``_OverBudget`` past it.
        With ``every`` it yields each such set once (for ``maximal_moves``); without, it may
        skip sets equal to one yielded but for interchangeable quiet points (see below), which
        is enough to decide whether one exists.

        Each start group still neither grown nor closed either grows by one of its growth points
        (every source of that point grows with it) or stays idle (does not grow this turn); a
        group that cannot grow from ``node`` at all is idle from the start. Three cuts keep the
        search small, each exact:

        * a state from which no legal move can be completed at all (``completable``) is dropped;
        * a state is dropped when some point ``x`` extends every legal move below it. Its
          sources are all closed or idle: no move below grows them, so ``x`` placed first is a
          valid start, and it joins only groups closed or grown already. Each opponent group
          next to it either keeps a liberty that no move below fills (a point next to no start
          group, or next to one grown, closed or idle), so ``x`` changes no capture, or loses
          its last liberty to ``x`` in every move below in an order where each start group next
          to it has grown by then (``captured_last``; some growth stones may have to come
          before ``x``, when that changes no capture harmfully, ``movable``), so the capture
          closes no group that still has to grow. And the group ``x`` joins (the stones it
          touches now, any group it reverses, more later) keeps such a liberty: the move plus
          ``x`` is legal;
        * two quiet points (``quiet``) with the same sources are interchangeable, so only the
          first is tried: swapping them changes no capture, no order, no group's liberties and
          no move that could extend the set, since no stone next to either can then be grown.

        The groups are decided in number order, except that those whose choice can settle the
        second cut for a point whose sources cannot grow come first (the groups next to its
        opponent neighbours, the sources of their other liberties and of the other liberties of
        the opponent groups those groups' growth points touch); the order changes only the time
        the search takes.
        """
        geom, src, liberties = self.geom, self.src, self.group_liberties
        placement = "none" if q is None else "fixed"
        q_bit = 0 if q is None else 1 << q
        near_q = 0 if q is None else geom.neighbour_mask[q] | q_bit  # no growth stone of the move there
        quiet = 0 if every else self.quiet & ~near_q
        empty = geom.full & ~(node.mover | node.opponent)
        free = empty & ~near_q
        extenders = [
            (x, src[x], [h for h in self.liberty_of.get(x, ()) if not (node.captured >> h) & 1])
            for x in bit_points(self.growable & free)
            if not src[x] & node.grown
        ]
        blocked = node.grown | node.closed
        idle_closed = node.closed & ~node.grown  # and the groups that cannot grow at all:
        for g in range(len(self.groups)):
            if not (blocked >> g) & 1 and not self._choices(node, liberties[g] & free, 0, blocked, 0):
                idle_closed |= 1 << g
        # The groups first whose choice can settle the second cut for a point whose sources
        # cannot grow (see the docstring).
        first = 0
        for x, sources, walls in extenders:
            if not sources & ~idle_closed:
                for h in walls:
                    first |= self.touching[h]
                    for e in bit_points(self.opponent_liberties[h] & empty & ~(1 << x)):
                        first |= src[e]
                    for y in bit_points(self.touching[h]):  # and of the groups its growth stones touch
                        for p in bit_points(liberties[y] & empty):
                            for k in self.liberty_of.get(p, ()):
                                for e in bit_points(self.opponent_liberties[k] & empty & ~(1 << p)):
                                    first |= src[e]
        first &= ~(blocked | idle_closed)
        sequence = bit_points(first) + [g for g in range(len(self.groups)) if not ((first | idle_closed) >> g) & 1]

        def extended(extra: int, used: int, idle: int) -> bool:
            stuck = idle | idle_closed
            filled = node.added | extra

            def kept_empty(points: int) -> bool:  # whether no move below fills one of them
                return any(not src[e] or src[e] & (used | idle) for e in bit_points(points & empty & ~extra & ~q_bit))

            def captured_last(h: int, bit: int) -> int | None:
                """If ``x`` (``bit``) fills the last liberty of opponent group ``h`` in every move
                below, in an order where each start group next to ``h`` grows before the capture
                or never: the growth stones that must then come first (before ``x``), as a point
                set; otherwise None. ``x`` comes first but for them, the other liberties of ``h``
                are filled after it; a group next to ``h`` grows by one of them, or by a stone of
                the prefix while one of them is not in the prefix, or by a stone moved first."""
                others = self.opponent_liberties[h] & ~bit
                if others & ~filled or self.geom.dilate(self.opponent_groups[h]) & q_bit:
                    return None
                moved = 0
                for y in bit_points(self.touching[h] & ~stuck):
                    stone = grower(y)
                    if stone is None:
                        return None
                    if not ((others >> stone) & 1 or ((node.added >> stone) & 1 and others & extra)):
                        moved |= 1 << stone
                return moved

            def grower(y: int) -> int | None:  # the growth stone of start group y
                return next((s for s in bit_points(filled) if (src[s] >> y) & 1), None)

            def movable(k: int, stone: int, sources: int, moved: int) -> bool:
                """Whether moving ``stone`` to the front of the order with the others of ``moved``
                keeps the capture of opponent group ``k`` (a liberty of which it is) harmless:
                ``k`` keeps a liberty, or every group next to ``k`` grows by one of its liberties
                (so is grown when ``k`` is captured, whenever that is) or never grows, and if the
                moved stones are all its liberties none is a source of ``x`` (which the capture
                would close before ``x`` is placed)."""
                around = self.opponent_liberties[k]
                if kept_empty(around & ~(1 << stone)):
                    return True
                if not around & ~moved and self.touching[k] & sources:
                    return False
                for y in bit_points(self.touching[k] & ~stuck):
                    other = grower(y)
                    if other is None or not (around >> other) & 1:
                        return False
                return True

            for x, sources, walls in extenders:
                if sources & ~stuck:
                    continue
                bit = 1 << x
                reversed_stones = moved = 0
                for h in walls:
                    if kept_empty(self.opponent_liberties[h] & ~bit):
                        continue
                    before = captured_last(h, bit)
                    if before is None:
                        break
                    moved |= before
                    reversed_stones |= self.opponent_groups[h]
                else:
                    if not all(
                        movable(k, stone, sources, moved)
                        for stone in bit_points(moved)
                        for k in self.liberty_of.get(stone, ())
                    ):
                        continue
                    zone = geom.flood(bit, node.mover | extra | bit | reversed_stones)
                    if kept_empty(geom.spread(zone) & ~bit):
                        return True
            return False

        def search(extra: int, used: int, idle: int, start: int) -> Iterator[int]:
            budget[0] -= 1
            if budget[0] < 0:
                raise _OverBudget
            if extended(extra, used, idle):
                return
            if (node.added | extra) and not self.completable(node, extra, placement, q):
                return  # (with no stone yet, completable has no growth move to judge)
            for i in range(start, len(sequence)):
                g = sequence[i]
                if not ((used | idle) >> g) & 1:
                    choices = self._choices(node, liberties[g] & free & ~extra, extra, used | idle, quiet)
                    if choices:
                        break
                    idle |= 1 << g  # it cannot grow below
            else:
                filled = node.added | extra
                if filled and self._ends_legally(filled, q) and self.extension(filled, q) is None:
                    yield filled
                return
            for p in choices:
                yield from search(extra | 1 << p, used | src[p], idle, i + 1)
            yield from search(extra, used, idle | 1 << g, i + 1)

        return search(0, blocked, idle_closed & ~blocked, 0)

    def _choices(self, node: Node, points: int, extra: int, blocked: int, quiet: int) -> list[int]:
        """The points of ``points`` that can be added to the growth stones ``extra`` after ``node``
        (sources not in ``blocked``, an order exists), dropping a quiet point whose sources
        are those of a quiet point before it."""
        choices, seen = [], set()
        for p in bit_points(points):
            sources = self.src[p]
            if sources & blocked or self.order(node, extra | 1 << p) is None:
                continue
            if (quiet >> p) & 1:
                if sources in seen:
                    continue
                seen.add(sources)
            choices.append(p)
        return choices

    def _ends_legally(self, filled: int, q: int | None) -> bool:
        """Whether the growth set ``filled`` ends legally by ``q`` (None: finish): the placement
        is allowed and no group of the mover is left without liberties."""
        mover, opponent = self.position(filled)
        if q is not None:
            if self.placement_problem(mover, opponent, q) is not None:
                return False
            mover, opponent = self.position(filled | 1 << q)
        return not self.dead(mover, opponent)

    def _grow_greedily(self, node: Node, placement: str, q: int | None) -> int:
        extra, used, added = 0, node.grown | node.closed, True
        while added:
            added = False
            for p in bit_points(self.growable & ~node.added & ~extra):
                sources = self.src[p]
                if sources & used or p == q:
                    continue
                wider = extra | (1 << p)
                if self.order(node, wider) is not None and self.completable(node, wider, placement, q):
                    extra, used, added = wider, used | sources, True
        return extra

    def extension(self, grown: int, q: int | None) -> int | None:
        """A stone that some legal move with growth set ⊋ ``grown`` and placement ``q`` adds, or None."""
        used = 0
        for p in bit_points(grown):
            used |= self.src[p]
        for p in bit_points(self.growable & ~grown):
            if self.src[p] & used:
                continue
            if p == q:
                continue
            wider = grown | (1 << p)
            if self.order(self.root, wider) is None:
                continue
            if self.completable(self.root, wider, "fixed" if q is not None else "none", q):
                return p
        return None
