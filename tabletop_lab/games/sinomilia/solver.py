"""A one-round Sinomilia solver: counterfactual regret minimisation on a single round.

The round starts from the setting phase with given hands (the cards each player may set: every
hand holds the 9, which always comes back) and piles (which total 30: the table is empty). Its game tree is built once with the rules
engine, so the solver plays exactly the engine's rules: the round ends with its reveal and
payment, and the payoff is the chips each player gains in that round (zero-sum: piles plus table
always hold 30 chips). What follows the round is not valued.

Information sets are the engine's ``information_state_string(player)``: a player's own cards and
the public actions, the opponent's ``set``/``change`` masked. CFR+ (regret matching+ with linear
averaging, alternating updates) gives the average strategy; ``exploitability`` is the mean of the
two best responses' gains against it (0 at a Nash equilibrium). ``RoundSolution.decision``
values each move of one decision by ``reply_values``: the move, then the best reply to the
opponent's solved strategy (the one-round puzzles of ``tabletop_lab.analysis.puzzles``).

Restriction: a full round has millions of play sequences (up to 9 chips, two faces, passes in
between, a change each). The solver therefore gives each player a **chip budget** for the round:
the chips they may spend on Actions (chips played plus the chip a change costs); a player who has
spent it can only pass. The piles themselves (and so the bonus) are the real ones. With budgets of
1-2 chips and hands of 3-4 cards the tree has some thousands of nodes; ``build_round`` refuses
trees above ``max_nodes``. The strategy is an equilibrium of this restricted round.

>>> solution = solve_round([3, 5, 9], [2, 4, 9], chips=(15, 15), budget=(1, 1), iterations=100)
>>> solution.exploitability < 0.05
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...registry import load_game
from .rules import PASS, PHASE_OVER, SUN, SinomiliaState, masked_string

__all__ = [
    "RoundTree",
    "RoundSolution",
    "Decision",
    "round_position",
    "build_round",
    "solve_round",
    "cfr_plus",
    "expected_value",
    "action_values",
    "best_response_value",
    "reply_values",
    "node_after",
    "exploitability",
]


@dataclass
class RoundTree:
    """The round's game tree in flat lists, node 0 the root.

    ``player[n]`` acts at node ``n`` (-1 at a terminal), ``children[n]`` lists ``(action,
    child)`` pairs in legal order, ``payoff[n]`` is player 0's chip gain at a terminal, and
    ``infoset[n]`` indexes ``infosets`` (the information state strings).
    """

    start: SinomiliaState
    player: list[int] = field(default_factory=list)
    children: list[list[tuple[int, int]]] = field(default_factory=list)
    payoff: list[float] = field(default_factory=list)
    infoset: list[int] = field(default_factory=list)
    infosets: list[str] = field(default_factory=list)
    infoset_player: list[int] = field(default_factory=list)
    infoset_actions: list[list[int]] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.player)


def round_position(hand0: list[int], hand1: list[int], chips: tuple[int, int], start_player: int = 0) -> dict:
    """The setting-phase position of a round with these hands and piles (the rest is discarded)."""
    hands = [sorted(hand0), sorted(hand1)]
    for p, hand in enumerate(hands):
        if 9 not in hand or len(hand) < 3 or len(set(hand)) != len(hand) or not set(hand) <= set(range(10)):
            raise ValueError(f"hand {p} must hold 3 or more distinct cards 0..9 including the 9; got {hand}")
    if len(chips) != 2 or any(type(c) is not int or c < 1 for c in chips) or sum(chips) != 30:
        raise ValueError(f"chips must be two piles of at least 1 that total 30; got {chips}")
    discards = [[k for k in range(10) if k not in hand] for hand in hands]
    round_number = max(len(d) for d in discards) + 1
    return {
        "game": "sinomilia",
        "round": round_number,
        "phase": "set",
        "start_player": start_player,
        "to_move": start_player,
        "chips": list(chips),
        "table": [0, 0],
        "hands": hands,
        "set": [None, None],
        "discards": discards,
        "changed": [False, False],
        "last_action": None,
        "last_turn": "none",
        "last_round_winner": None if round_number == 1 else start_player,
        "cap_reached": False,
    }


def build_round(
    hand0: list[int],
    hand1: list[int],
    chips: tuple[int, int] = (15, 15),
    budget: tuple[int, int] = (2, 2),
    start_player: int = 0,
    max_nodes: int = 200_000,
) -> RoundTree:
    """The tree of one round from its setting phase, each player spending at most ``budget``."""
    if len(budget) != 2 or any(type(b) is not int or b < 0 for b in budget):
        raise ValueError(f"budget must be two integers >= 0; got {budget}")
    game = load_game("sinomilia", round_cap=None)
    start = game.state_from_dict(round_position(hand0, hand1, chips, start_player))
    tree = RoundTree(start)
    index: dict[tuple, int] = {}
    first_round = start.round
    before = start.chips[0]

    def add(state: SinomiliaState, spent: tuple[int, int]) -> int:
        node = tree.size
        if node >= max_nodes:
            raise ValueError(f"the round's tree exceeds max_nodes={max_nodes}; use fewer chips or cards")
        tree.player.append(-1)
        tree.children.append([])
        tree.payoff.append(0.0)
        tree.infoset.append(-1)
        if state.phase == PHASE_OVER or state.round != first_round:
            tree.payoff[node] = float(state.chips[0] - before)
            return node
        player = state.current_player()
        # From the round's fixed start, what a player knows is their view of the actions so far:
        # a cheap key; the readable information state string is made once per information set.
        key = (player, tuple(masked_string(a) if m != player else a for a, m in zip(state._history, state._movers)))
        actions = state.legal_actions()
        if spent[player] >= budget[player]:
            actions = [a for a in actions if a < SUN or a == PASS]
        if key not in index:
            index[key] = len(tree.infosets)
            tree.infosets.append(state.information_state_string(player))
            tree.infoset_player.append(player)
            tree.infoset_actions.append(actions)
        tree.player[node] = player
        tree.infoset[node] = index[key]
        for a in actions:
            after = spent if a < SUN or a == PASS else (spent[0] + (player == 0), spent[1] + (player == 1))
            tree.children[node].append((a, add(state.child(a), after)))
        return node

    add(start, (0, 0))
    return tree


@dataclass
class RoundSolution:
    """The average strategy (information state string -> {action string: probability}), its
    exploitability in chips, the value of the round for player 0 under it, and the tree."""

    strategy: dict[str, dict[str, float]]
    exploitability: float
    value: float
    tree: RoundTree
    iterations: int

    def decision(self, moves: list[str]) -> Decision:
        """The decision ``moves`` (action strings from the round's start) lead to, valued by
        ``reply_values``; ``ValueError`` when they leave the tree, end the round, or reach an
        information set the solved strategy's opponent never plays into."""
        tree = self.tree
        actions = [tree.start.string_to_action(move) for move in moves]
        node = node_after(tree, actions)
        if tree.player[node] < 0:
            raise ValueError("these moves end the round: there is no decision to value")
        spent = [0, 0]
        walk = 0
        for action in actions:
            if SUN <= action < PASS:
                spent[tree.player[walk]] += 1
            walk = dict(tree.children[walk])[action]
        infoset = tree.infoset[node]
        average = [list(self.strategy[key].values()) for key in tree.infosets]
        values, reach = _BestResponse(tree, average, tree.player[node]).reply(infoset)
        return Decision(
            player=tree.player[node],
            view=tree.infosets[infoset],
            moves=[tree.start.action_to_string(a) for a in tree.infoset_actions[infoset]],
            values=values,
            probabilities=average[infoset],
            reach=reach,
            spent=(spent[0], spent[1]),
            horizon=_horizon(tree, node),
        )


@dataclass(frozen=True)
class Decision:
    """One decision of a solved round: the ``player`` to move, their ``view`` (the information
    state string: their cards and the round's actions, the opponent's cards masked), their legal
    ``moves`` (listing order), each move's ``values`` (``reply_values``: chips gained in the
    round, for that player), the solved strategy's ``probabilities`` there, ``reach`` (the
    probability, under the solved strategy, of the opponent's play so far, summed over the
    histories the player cannot tell apart; 1 before the opponent has chosen anything but a
    card), the chips each player has ``spent`` of the budget, and ``horizon``: the most turns
    the round can still last."""

    player: int
    view: str
    moves: list[str]
    values: list[float]
    probabilities: list[float]
    reach: float
    spent: tuple[int, int]
    horizon: int


def _horizon(tree: RoundTree, node: int) -> int:
    """The most actions from ``node`` to the end of the round."""
    most, stack = 0, [(node, 0)]
    while stack:
        node, depth = stack.pop()
        if tree.player[node] < 0:
            most = max(most, depth)
        stack.extend((child, depth + 1) for _, child in tree.children[node])
    return most


def solve_round(
    hand0: list[int],
    hand1: list[int],
    chips: tuple[int, int] = (15, 15),
    budget: tuple[int, int] = (2, 2),
    start_player: int = 0,
    iterations: int = 500,
) -> RoundSolution:
    """Run CFR+ for ``iterations`` on the round; see the module docstring."""
    tree = build_round(hand0, hand1, chips, budget, start_player)
    average = cfr_plus(tree, iterations)
    return RoundSolution(
        {
            tree.infosets[i]: {tree.start.action_to_string(a): p for a, p in zip(tree.infoset_actions[i], probs)}
            for i, probs in enumerate(average)
        },
        exploitability(tree, average),
        expected_value(tree, average),
        tree,
        iterations,
    )


def cfr_plus(tree: RoundTree, iterations: int) -> list[list[float]]:
    """The average strategy (per information set, per action) after ``iterations`` of CFR+."""
    if type(iterations) is not int or iterations < 1:
        raise ValueError(f"iterations must be an integer >= 1, got {iterations!r}")
    n_sets = len(tree.infosets)
    regrets = [[0.0] * len(tree.infoset_actions[i]) for i in range(n_sets)]
    totals = [[0.0] * len(tree.infoset_actions[i]) for i in range(n_sets)]
    player_of, children, payoff, infoset_of = tree.player, tree.children, tree.payoff, tree.infoset

    def current(i: int) -> list[float]:
        positive = [r if r > 0 else 0.0 for r in regrets[i]]
        norm = sum(positive)
        return [r / norm for r in positive] if norm > 0 else [1.0 / len(positive)] * len(positive)

    def walk(node: int, traverser: int, reach_own: float, reach_other: float, weight: float) -> float:
        """The value for ``traverser`` at ``node``, updating the traverser's regrets."""
        player = player_of[node]
        if player < 0:
            return payoff[node] if traverser == 0 else -payoff[node]
        i = infoset_of[node]
        sigma = current(i)
        if player != traverser:
            for k, p in enumerate(sigma):
                totals[i][k] += weight * reach_other * p
            return sum(
                p * walk(child, traverser, reach_own, reach_other * p, weight)
                for p, (_, child) in zip(sigma, children[node])
                if p > 0
            )
        values = [
            walk(child, traverser, reach_own * p, reach_other, weight) for p, (_, child) in zip(sigma, children[node])
        ]
        node_value = sum(p * v for p, v in zip(sigma, values))
        row = regrets[i]
        for k, v in enumerate(values):
            row[k] = max(0.0, row[k] + reach_other * (v - node_value))
        return node_value

    for t in range(1, iterations + 1):
        for traverser in (0, 1):
            walk(0, traverser, 1.0, 1.0, float(t))
    average = []
    for row in totals:
        norm = sum(row)
        average.append([x / norm for x in row] if norm > 0 else [1.0 / len(row)] * len(row))
    return average


def action_values(tree: RoundTree, strategy: list[list[float]], infoset: int) -> list[float]:
    """The acting player's expected chip gain for each action of information set ``infoset``,
    the others then playing ``strategy``: each history of the set weighed by the opponent's reach.

    At an equilibrium every action played with positive probability has the best value.
    """
    player = tree.infoset_player[infoset]
    sign = 1.0 if player == 0 else -1.0
    totals = [0.0] * len(tree.infoset_actions[infoset])
    weight = 0.0
    stack = [(0, 1.0)]
    while stack:
        node, reach = stack.pop()
        if tree.player[node] < 0 or reach == 0:
            continue
        i = tree.infoset[node]
        if i == infoset:
            weight += reach
            for k, (_, child) in enumerate(tree.children[node]):
                totals[k] += reach * sign * expected_value(tree, strategy, child)
            continue
        own = tree.player[node] == player
        for p, (_, child) in zip(strategy[i], tree.children[node]):
            stack.append((child, reach if own else reach * p))
    if weight == 0:
        raise ValueError(f"information set {infoset} cannot be reached against this strategy")
    return [t / weight for t in totals]


def expected_value(tree: RoundTree, strategy: list[list[float]], node: int = 0) -> float:
    """Player 0's expected chip gain when both play ``strategy``."""
    if tree.player[node] < 0:
        return tree.payoff[node]
    sigma = strategy[tree.infoset[node]]
    return sum(p * expected_value(tree, strategy, child) for p, (_, child) in zip(sigma, tree.children[node]))


def best_response_value(tree: RoundTree, strategy: list[list[float]], responder: int) -> float:
    """The most ``responder`` can gain against ``strategy`` (the other player's part of it).

    At each of the responder's information sets the action maximises the sum, over the set's
    histories, of the opponent's reach times the value below (perfect recall makes this exact).
    """
    return _BestResponse(tree, strategy, responder).value(0)


def reply_values(tree: RoundTree, strategy: list[list[float]], infoset: int) -> list[float]:
    """The acting player's expected chip gain for each action of information set ``infoset``
    when they play it and then the best response to the opponent's part of ``strategy``: each
    history of the set weighed by the opponent's reach, the opponent's hidden cards averaged over.

    Unlike ``action_values`` this does not take the acting player's own later choices from
    ``strategy``, which CFR leaves uniform where that player never goes; at an equilibrium the
    two agree on every action played with positive probability.
    """
    return _BestResponse(tree, strategy, tree.infoset_player[infoset]).reply(infoset)[0]


class _BestResponse:
    """``responder``'s best response to the other player's part of ``strategy``: ``value(node)``
    is the responder's chip gain below ``node``, ``members`` each of the responder's information
    sets' nodes with the opponent's reach there."""

    def __init__(self, tree: RoundTree, strategy: list[list[float]], responder: int) -> None:
        self.tree, self.strategy, self.responder = tree, strategy, responder
        self.sign = 1.0 if responder == 0 else -1.0
        self.members: dict[int, list[tuple[int, float]]] = {}
        self.choice: dict[int, int] = {}
        self._collect(0, 1.0)

    def _collect(self, node: int, reach_other: float) -> None:
        player = self.tree.player[node]
        if player < 0:
            return
        i = self.tree.infoset[node]
        if player == self.responder:
            self.members.setdefault(i, []).append((node, reach_other))
            for _, child in self.tree.children[node]:
                self._collect(child, reach_other)
        else:
            for p, (_, child) in zip(self.strategy[i], self.tree.children[node]):
                self._collect(child, reach_other * p)

    def value(self, node: int) -> float:
        tree = self.tree
        player = tree.player[node]
        if player < 0:
            return self.sign * tree.payoff[node]
        i = tree.infoset[node]
        if player == self.responder:
            return self.value(tree.children[node][self.best(i)][1])
        return sum(p * self.value(child) for p, (_, child) in zip(self.strategy[i], tree.children[node]) if p > 0)

    def reply(self, i: int) -> tuple[list[float], float]:
        """Each action's value at the responder's information set ``i`` (``reply_values``), and
        the opponent's reach summed over the set's histories."""
        members = [(node, reach) for node, reach in self.members.get(i, []) if reach > 0]
        weight = sum(reach for _, reach in members)
        if weight == 0:
            raise ValueError(f"information set {i} cannot be reached against this strategy")
        totals = [0.0] * len(self.tree.infoset_actions[i])
        for node, reach in members:
            for k, (_, child) in enumerate(self.tree.children[node]):
                totals[k] += reach * self.value(child)
        return [t / weight for t in totals], weight

    def best(self, i: int) -> int:
        """The responder's action at information set ``i``: the best sum over its histories."""
        if i not in self.choice:
            n_actions = len(self.tree.infoset_actions[i])
            totals = [0.0] * n_actions
            for node, reach in self.members[i]:
                if reach > 0:
                    for k, (_, child) in enumerate(self.tree.children[node]):
                        totals[k] += reach * self.value(child)
            self.choice[i] = max(range(n_actions), key=totals.__getitem__)
        return self.choice[i]


def node_after(tree: RoundTree, actions: list[int]) -> int:
    """The node ``actions`` (engine actions from the round's start) lead to; ``ValueError`` when
    one is not in the tree (illegal, or past a player's chip budget)."""
    node = 0
    for n, action in enumerate(actions):
        following = dict(tree.children[node])
        if action not in following:
            where = tree.start.action_to_string(action) if 0 <= action <= PASS else repr(action)
            raise ValueError(f"action {n} ({where}) is not in the round's tree (illegal, or past the chip budget)")
        node = following[action]
    return node


def exploitability(tree: RoundTree, strategy: list[list[float]]) -> float:
    """Mean of both best responses' gains against ``strategy``, in chips (0 at an equilibrium)."""
    return (best_response_value(tree, strategy, 0) + best_response_value(tree, strategy, 1)) / 2
