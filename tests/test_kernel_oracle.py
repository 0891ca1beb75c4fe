"""The kernel oracle: every compiled kernel checked action by action in its engine, from
positions random play rarely reaches.

The differential tests (``tests/games/<game>/test_kernel.py``) compare whole random games from
the start: strong where random play goes, blind where it rarely goes. Here each kernel plays
random games from the curated positions of ``data/<game>/positions.json`` (under every harness
config that loads them), from positions met in play under every harness config (mid-turn
states and finished games included), and from arbitrary positions drawn by hypothesis; the
engine then checks every action the kernel took (``testing.check_kernel_game``): legal, with
as many legal actions as the kernel counted, to the same end, final position and result.
The last test breaks one rule in a copy of a kernel and shows the oracle failing.
"""

from __future__ import annotations

import inspect
import json
import random
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tabletop_lab import PositionError, RulesError, load_game, streams
from tabletop_lab.games.sygo.rules import FIRST_PLACE
from tabletop_lab.kernels import playout_kernel
from tabletop_lab.testing import check_kernel_game
from tests.games.capitals.test_kernel import crowded_positions
from tests.games.sinoda.helpers import random_positions
from tests.games.sinomilia.test_kernel import play_or_set_positions
from tests.games.sygo.test_kernel import arbitrary_positions

pytest.importorskip("numba", reason="the kernels need numba (a dependency of tabletop-lab)")

GAMES = ["capitals", "cross_endodoi", "sinoda", "sinomilia", "sygo"]
DATA = Path(__file__).resolve().parents[1] / "data"
CAP = 3000
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def kernel_of(game):
    kernel = playout_kernel(game)
    assert kernel is not None, f"{game.name} has a kernel for {game.options}"
    return kernel


def streams_of(seed: int, players: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2**64, players, dtype=np.uint64)


def check(state, seed: int, cap: int = CAP) -> int:
    game = state.game
    return check_kernel_game(kernel_of(game), state, streams_of(seed, game.num_players), cap)


def curated(name: str):
    """Each curated position under each harness config that loads it (the position's own options win)."""
    entries = json.loads((DATA / name / "positions.json").read_text())["positions"]
    configs = load_game(name).harness_configs()
    for entry in entries:
        for config in configs:
            try:
                game = load_game(name, **{**config, **entry.get("options", {})})
                yield entry["name"], game.load_position(entry["position"])
            except (PositionError, RulesError):
                continue


def in_play(name: str, n: int, seed: int):
    """States met by seeded random play under every harness config: each game cut at a random
    point of its length (mid-turn states included), the first one of a config at its end."""
    rng = random.Random(seed)
    for config in load_game(name).harness_configs():
        game = load_game(name, **config)
        for k in range(n):
            state = game.new_initial_state()
            while not state.is_terminal() and len(state.history()) < game.info.max_actions:
                state.apply_action(rng.choice(state.legal_actions()))
            history = state.history()
            cut = len(history) if k == 0 else rng.randrange(len(history))
            state = game.new_initial_state()
            for action in history[:cut]:
                state.apply_action(action)
            yield state


@pytest.mark.parametrize("name", GAMES)
def test_kernels_play_the_engines_rules_from_the_curated_positions(name):
    checked = 0
    for i, (_, state) in enumerate(curated(name)):
        for seed in range(3):
            checked += check(state, 1000 * i + seed)
    assert checked > 0


@pytest.mark.parametrize("name", GAMES)
def test_kernels_play_the_engines_rules_from_positions_met_in_play(name):
    states = list(in_play(name, 12, seed=len(name)))
    assert any(s.is_terminal() for s in states)
    if name in ("capitals", "sygo"):
        assert any(s.mid_turn() for s in states)
    for i, state in enumerate(states):
        check(state, i)


# ----------------------------------------------------------------------------- arbitrary positions


@SETTINGS
@given(
    holes=st.lists(st.integers(0, 30), min_size=12, max_size=12),
    to_move=st.integers(0, 1),
    skip_origin=st.booleans(),
    max_laps=st.sampled_from([3, 100]),
    seed=st.integers(0, 2**32),
)
def test_cross_endodoi_from_arbitrary_positions(holes, to_move, skip_origin, max_laps, seed):
    """Piles that sow whole rounds, both origins, and a lap limit short enough to be hit (REPLAY)."""
    total = sum(holes)
    seeds_per_hole = 3 if total <= 36 else 6
    if total > 72:
        holes = [h * 72 // total for h in holes]
    game = load_game("cross_endodoi", seeds_per_hole=seeds_per_hole, skip_origin=skip_origin, max_laps=max_laps)
    stores = [12 * seeds_per_hole - sum(holes), 0]
    check(game.state_from_dict({"game": "cross_endodoi", "holes": holes, "stores": stores, "to_move": to_move}), seed)


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_capitals_from_arbitrary_positions(data, seed):
    check(data.draw(crowded_positions()), seed)


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_sinoda_from_arbitrary_positions(data, seed):
    configs = load_game("sinoda").harness_configs()
    game, position = data.draw(random_positions(configs))
    check(game.state_from_dict(position), seed)


@SETTINGS
@given(data=st.data(), first_player=st.integers(0, 1), seed=st.integers(0, 2**32))
def test_sinomilia_from_arbitrary_positions(data, first_player, seed):
    position, round_cap = data.draw(play_or_set_positions())
    game = load_game("sinomilia", round_cap=round_cap, first_player=first_player)
    try:
        state = game.state_from_dict(position)
    except PositionError:
        assume(False)
    check(state, seed)


@SETTINGS
@given(data=st.data(), stones=st.integers(0, 3), seed=st.integers(0, 2**32))
def test_sygo_from_arbitrary_positions(data, stones, seed):
    """Crowded boards, and growth turns already begun on them (``stones`` growth stones played)."""
    state = data.draw(arbitrary_positions())
    first_growth = FIRST_PLACE + state.game.options["size"] ** 2
    rng = random.Random(seed)
    for _ in range(stones):
        growing = [a for a in state.legal_actions() if a >= first_growth]
        if not growing:
            break
        state.apply_action(rng.choice(growing))
    check(state, seed)


# ----------------------------------------------------------------------------- a broken kernel


def _copy_of(module, name: str, old: str, new: str):
    """A Python copy of the kernel function ``name`` (its ``.py_func`` source) with ``old``
    replaced by ``new``, in the module's namespace: a kernel with one rule changed."""
    source = textwrap.dedent(inspect.getsource(getattr(module, name).py_func))
    assert source.count(old) == 1, f"{name} no longer says {old!r}"
    namespace = dict(vars(module))
    exec(compile(source.replace(old, new).replace("@njit\n", "", 1), module.__file__, "exec"), namespace)
    return namespace[name]


@pytest.mark.parametrize("broken", [False, True])
def test_the_oracle_catches_a_kernel_with_one_rule_flipped(monkeypatch, broken):
    """Cross-endodoi's kernel played in Python (``.py_func``) with its sowing copied: as it is,
    the oracle passes; with one rule flipped (where a pile of whole rounds of the ring ends:
    rule 2.2, step 4, a rare case in random play), the oracle fails."""
    from tabletop_lab.games.cross_endodoi import kernel

    rule, flipped = "if rest == 0:  # the last seed ended a whole round", "if rest == 1:"
    sow = _copy_of(kernel, "_sow", rule, flipped if broken else rule)
    monkeypatch.setattr(kernel, "_sow", sow)
    monkeypatch.setattr(kernel, "_play", kernel._play.py_func)
    monkeypatch.setattr(kernel, "_random_games", kernel._random_games.py_func)
    monkeypatch.setattr(kernel, "next_draw", lambda stream: streams.next_draw(int(stream)))  # the Python twins
    monkeypatch.setattr(kernel, "choice_index", streams.choice_index)
    states = [  # piles of whole rounds and one seed more (a ring of 12), and of exactly two rounds of 11
        load_game("cross_endodoi").load_position("0,13,0,0,0,0/3,3,3,3,3,3 2-3 0"),
        load_game("cross_endodoi", skip_origin=True).load_position("0,0,22,0,0,0/2,2,2,2,2,2 2-0 0"),
        *(s for _, s in curated("cross_endodoi")),
    ]
    if broken:
        with pytest.raises(AssertionError, match="cross_endodoi"):
            for i, state in enumerate(states):
                check(state, i)
    else:
        assert sum(check(state, i) for i, state in enumerate(states)) > 100
