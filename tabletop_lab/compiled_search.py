"""``MCTSAgent``'s search compiled with numba: the same simulations, node for node, in one call.

The Python search (``mcts.py``) spends some 0.1-0.2 ms a simulation on its tree (cloning a
state, applying an action, listing and shuffling legal actions, building ``key()``), as much as
a compiled rollout costs; compiled, the tree takes some 20 us a simulation on Sygo 9x9 (every
node keeps its state array: about 0.9 KB each there, 3.6 KB on 19x19). ``uct_search`` below is
that search on arrays: one shared algorithm, to which a game's kernel hands four small compiled
operations on its array form of a state:

* ``legal(state, rules, out) -> n``: the legal actions in the engine's order (none at the end);
* ``apply(state, action, rules) -> status``: play one action in place (``status < 0``: the
  engine declines it with an ``EngineLimitError``, e.g. a Cross-endodoi sowing past its lap
  limit; the search drops the action, as the Python search does, and ``state`` is spoilt);
* ``player(state, rules)``: ``current_player()``;
* ``rollout(state, budget, stream, rules, values) -> (stream, status)``: what the kernel's
  ``rollout`` returns, the values written to ``values``, ``state`` unchanged (``status < 0``:
  the agent must search in Python).

``rules`` is the game's own tuple of constants and tables, passed through untouched. The first
``key_width`` entries of a state array are its transposition key: equal exactly when the
states' ``key()`` are equal (each kernel proves it for its layout).

**Exactly the Python search.** Same seed, same tree: ``stream = rng.getrandbits(64)`` first in
Python, then the agent's ``random.Random`` state (MT19937) moves into the search, which shuffles
every new node's legal actions as ``random.shuffle`` does (Fisher-Yates drawing with
``_randbelow_with_getrandbits``, ported below), and moves back out after. Expansion pops from
the end of the shuffled list, UCT uses the same float expressions and tie-breaking, rollouts
draw from the same stream, and returns are backed up in the same order, so ``choose_action``,
``analyse()``, ``stats`` and the rng's state afterwards are those of the Python search
(``tests/test_compiled_mcts.py``).

**One compilation per game, cached.** numba's disk cache does not serve a function called
with compiled functions as arguments, nor closures made by a factory: their cache keys hold the
functions' identities, new in every process, so both compile again in every process (checked
with numba 0.68). And a cached function that passes compiled functions as values is refused
("uses dynamic globals": their addresses are embedded). So each game's ``kernel.py`` defines a
small ``@njit`` entry that calls ``uct_search`` with its operations, and ``uct_search`` is
inlined into that entry at numba's IR level (``inline="always"``): the operations become calls
of the entry's own globals, and the entry is an ordinary cached function, compiled once per
machine. numba checks a cached entry against its own file only; ``tabletop_lab.jit`` deletes
the caches when this module changes (``forget_stale_caches``).
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

import numba
import numpy as np

from .core import State
from .jit import copy_into, grown, grown_rows, internal, njit
from .kernels import playout_kernel

#: How a game's entry takes ``uct_search``: inlined into it by numba, so that the game's operations
#: are called as the entry's own globals (passed as values, numba would embed their addresses and
#: refuse to cache the entry).
_inline = numba.njit(cache=True, nogil=True, inline="always")

__all__ = ["uct_search", "mt_shuffle", "search_root", "SearchResult"]

_N, _M = 624, 397
_MASK32 = 0xFFFFFFFF
_MATRIX_A, _UPPER, _LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF
FALLBACK = -1  # uct_search's answer when the engine must search (and raise) itself

# ----------------------------------------------------------------------------- MT19937


@internal
def _genrand_uint32(mt):
    """CPython's ``genrand_uint32`` on ``mt`` (int64[625]: the 624 words, then the index)."""
    i = mt[_N]
    if i >= _N:
        for k in range(_N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        i = 0
    y = mt[i]
    mt[_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK32


@internal
def _randbelow(mt, n):
    """``random.Random._randbelow_with_getrandbits(n)`` for ``1 <= n < 2**32``."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = _genrand_uint32(mt) >> (32 - k)
    while r >= n:
        r = _genrand_uint32(mt) >> (32 - k)
    return r


@njit
def mt_shuffle(mt, x, n):
    """``random.shuffle(x[:n])`` in place, drawing from ``mt``."""
    for i in range(n - 1, 0, -1):
        j = _randbelow(mt, i + 1)
        x[i], x[j] = x[j], x[i]


def mt_from_random(rng: random.Random) -> np.ndarray:
    """The MT19937 state of ``rng`` as ``_genrand_uint32`` keeps it."""
    version, words, _gauss = rng.getstate()
    return np.array(words, np.int64)


def mt_into_random(rng: random.Random, mt: np.ndarray) -> None:
    """Give ``rng`` the MT19937 state ``mt`` (``gauss_next`` as it was)."""
    version, _words, gauss = rng.getstate()
    rng.setstate((version, tuple(int(x) for x in mt), gauss))


# ----------------------------------------------------------------------------- the search


@internal
def _hash(state, width):
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(width):
        h = (h ^ np.uint64(state[i])) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    return np.int64(h >> np.uint64(1))


@internal
def _same_key(a, b, width):
    for i in range(width):
        if a[i] != b[i]:
            return False
    return True


@internal
def _lookup(table, states, state, key_width):
    """(table slot, node) of ``state``'s key; node -1 (and the free slot) when not there."""
    mask = table.shape[0] - 1
    h = _hash(state, key_width) & mask
    while table[h] >= 0:
        if _same_key(states[table[h]], state, key_width):
            return h, table[h]
        h = (h + 1) & mask
    return h, -1


@internal
def _rehashed(table, states, nodes, key_width):
    bigger = np.full(2 * table.shape[0], -1, np.int64)
    for node in range(nodes):
        h, _ = _lookup(bigger, states, states[node], key_width)
        bigger[h] = node
    return bigger


@internal
def _add_actions(node, legal, m, slot, first, n_legal, action, mt):
    """Give node ``node`` its ``m`` legal actions (``legal``), shuffled by ``mt`` as
    ``MCTSAgent._node`` does, stored last first from ``slot``: popping the end of the shuffled
    list is then taking the node's next slot."""
    mt_shuffle(mt, legal, m)
    for i in range(m):
        action[slot + i] = legal[m - 1 - i]
    first[node] = slot
    n_legal[node] = m


@internal
def _uct_slot(edge_visits, total, first, k, visits, c):
    """``mcts._uct_edge``: the slot of the edge maximising mean + c sqrt(ln N / n) among the
    ``k`` from ``first``, the first best; an unvisited one (made earlier in this simulation,
    which came back through a cycle of positions) at once.

    Its own function, not code inlined in ``uct_search``: there this loop ran some 50 times
    slower (25 us for 82 edges), numba's code for the big loop-carried arrays."""
    scale = c * math.sqrt(math.log(visits))
    slot = first
    best_score = -np.inf
    for s in range(first, first + k):
        n = edge_visits[s]
        if n == 0:
            return s
        score = total[s] / n + scale / math.sqrt(n)
        if score > best_score:
            slot, best_score = s, score
    return slot


@internal
def _back_up(values, depth, path_nodes, path_slots, visits, edge_visits, total, player_of, paranoid, root_player, team):
    """Count the simulation at every node of the path and add each chooser's reward to its edge."""
    for i in range(depth + 1):
        visits[path_nodes[i]] += 1
    for i in range(depth):
        s = path_slots[i]
        edge_visits[s] += 1
        chooser = player_of[path_nodes[i]]
        if not paranoid:
            total[s] += values[chooser]
        elif team[chooser]:
            total[s] += values[root_player]
        else:
            total[s] += -values[root_player]


@_inline
def uct_search(
    legal, apply, player, rollout, rules, root, key_width, n_players, max_legal,
    iterations, c, cap, rollout_cap, paranoid, root_player, team, mt, stream, out,
):  # fmt: skip
    """``MCTSAgent._simulate`` from ``root`` for ``iterations`` simulations (see the module
    docstring for the four operations and ``rules``). ``mt`` (the agent's MT19937 state) is
    updated in place. ``team[p]`` is 1 for the root player's team (paranoid search only). A
    simulation stops ``cap`` actions from the root, its rollout after ``rollout_cap`` actions.

    Returns ``(nodes, n_legal, n_edges)`` or ``(FALLBACK, 0, 0)``; ``out`` (``max_legal`` x 3,
    float64) receives the root's slots: its edges in the order made (action, visits, total),
    then its untried actions from last to first (visits 0).
    """
    width = root.shape[0]
    states = np.empty((64, width), np.int64)
    player_of = np.empty(64, np.int64)
    visits = np.zeros(64, np.int64)
    first = np.empty(64, np.int64)  # a node's slots: n_legal of them from first, n_edges used
    n_legal = np.empty(64, np.int64)
    n_edges = np.zeros(64, np.int64)
    size = 64 * max_legal
    action = np.empty(size, np.int64)  # a slot: an edge, or an untried action
    child = np.empty(size, np.int64)
    edge_visits = np.zeros(size, np.int64)
    total = np.zeros(size, np.float64)
    table = np.full(256, -1, np.int64)  # open addressing: node numbers by key
    path_nodes = np.empty(cap + 1, np.int64)
    path_slots = np.empty(cap, np.int64)
    buffer = np.empty(max_legal, np.int64)
    values = np.zeros(n_players, np.float64)
    scratch = np.empty(width, np.int64)
    h, _ = _lookup(table, states, root, key_width)
    table[h] = 0
    copy_into(states[0], root)
    player_of[0] = player(root, rules)
    slots = legal(root, rules, buffer)
    # np.int64, not literal ints: numba compiles a callee once more for each literal argument
    zero = np.int64(0)
    _add_actions(zero, buffer, slots, zero, first, n_legal, action, mt)
    nodes = np.int64(1)
    for _ in range(iterations):
        node = 0
        path_nodes[0] = 0
        depth = 0
        while depth < cap:  # selection and expansion: UCT through known positions until a new one
            k = n_edges[node]
            new = False
            if k < n_legal[node]:  # expand: pop the last untried action
                slot = first[node] + k
                copy_into(scratch, states[node])
                if apply(scratch, action[slot], rules) < 0:  # the engine declines it: never an edge
                    n_legal[node] -= 1
                    for s in range(slot, first[node] + n_legal[node]):
                        action[s] = action[s + 1]
                    continue
                n_edges[node] = k + 1
                h, found = _lookup(table, states, scratch, key_width)
                if found < 0:
                    if nodes == states.shape[0]:
                        states, player_of, visits = grown_rows(states), grown(player_of), grown(visits)
                        first, n_legal, n_edges = grown(first), grown(n_legal), grown(n_edges)
                        visits[nodes:] = 0
                        n_edges[nodes:] = 0
                    if slots + max_legal > action.shape[0]:
                        action, child, edge_visits, total = (
                            grown(action),
                            grown(child),
                            grown(edge_visits),
                            grown(total),
                        )
                        edge_visits[slots:] = 0
                        total[slots:] = 0.0
                    copy_into(states[nodes], scratch)
                    player_of[nodes] = player(scratch, rules)
                    m = legal(scratch, rules, buffer)
                    _add_actions(nodes, buffer, m, slots, first, n_legal, action, mt)
                    slots += m
                    found = nodes
                    nodes += 1
                    table[h] = found
                    if 2 * nodes > table.shape[0]:
                        table = _rehashed(table, states, nodes, key_width)
                    new = True
                child[slot] = found
            else:
                if k == 0:
                    break  # the game is over here
                slot = _uct_slot(edge_visits, total, first[node], k, visits[node], c)
            path_slots[depth] = slot
            depth += 1
            node = child[slot]
            path_nodes[depth] = node
            if new:
                break
        budget = cap - depth
        if rollout_cap < budget:
            budget = rollout_cap
        stream, status = rollout(states[node], budget, stream, rules, values)
        if status < 0:
            return FALLBACK, 0, 0
        _back_up(
            values, depth, path_nodes, path_slots, visits, edge_visits, total, player_of, paranoid, root_player, team
        )
    m = n_legal[0]
    for i in range(m):
        s = first[0] + i
        out[i, 0] = action[s]
        out[i, 1] = edge_visits[s]
        out[i, 2] = total[s]
    return nodes, m, n_edges[0]


# ----------------------------------------------------------------------------- the Python side


class SearchResult(NamedTuple):
    """The root of a compiled search, as ``MCTSAgent`` reads its Python root."""

    edges: list[tuple[int, int, float]]  # (action, visits, total) in the order made
    untried: list[int]  # the root's untried actions, in the order of ``_Node.untried``
    nodes: int


def search_root(
    state: State,
    rng: random.Random,
    iterations: int,
    c: float,
    paranoid: bool,
    cap: int | None = None,
    rollout_cap: int | None = None,
) -> SearchResult | None:
    """``MCTSAgent._simulate(state)`` compiled, or ``None`` (``rng`` untouched) when the game's
    kernel has no tree operations for this state or the engine must search itself. A simulation
    stops and scores ``evaluate()`` ``cap`` actions from the root (default
    ``game.info.max_actions``; ``MCTSAgent``'s ``horizon``), and its rollout after ``rollout_cap``
    actions (default: no limit of its own; ``MCTSAgent``'s ``rollout``)."""
    kernel = playout_kernel(state.game)
    tree = None if kernel is None or not hasattr(kernel, "tree_root") else kernel.tree_root(state)
    if tree is None:
        return None
    game = state.game
    before = rng.getstate()
    stream = np.uint64(rng.getrandbits(64))
    mt = mt_from_random(rng)
    n_players = game.num_players
    root_player = state.current_player()
    team = np.zeros(n_players, np.int64)
    team[list(game.teams()[game.team_of(root_player)])] = 1
    out = np.zeros((tree.max_legal, 3), np.float64)
    nodes, n_legal, n_edges = tree.entry(
        tree.rules, tree.state, tree.key_width, n_players, tree.max_legal, iterations, float(c),
        game.info.max_actions if cap is None else cap, game.info.max_actions if rollout_cap is None else rollout_cap,
        paranoid, root_player, team, mt, stream, out,
    )  # fmt: skip
    if nodes == FALLBACK:
        rng.setstate(before)
        return None
    mt_into_random(rng, mt)
    edges = [(int(a), int(v), float(t)) for a, v, t in out[:n_edges].tolist()]
    untried = [int(a) for a in out[n_edges:n_legal, 0][::-1].tolist()]
    return SearchResult(edges, untried, int(nodes))
