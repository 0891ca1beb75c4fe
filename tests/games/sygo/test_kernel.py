"""The compiled Sygo kernel against the Python engine (the reference), game by game.

Every kernel game must be the game the Python engine plays from the same random streams: same
actions (checked one by one on a sample), same final position, same lengths (turns, moves,
actions), same scores, winners and outcome. The engine plays some 100 to 1,500 random games a
second on the small boards, so the comparison runs 10,703 games over every rules config (sizes 3
to 7 with both growth options and both balancing settings, 9x9 with three, 13x13 and 19x19 with
the default rules), not 10^5: the file takes some 25 s of CPU, most of it in the Python engine,
plus 30-40 s to compile the kernel where numba has not cached it yet. Rollouts from
positions met in play (between turns and in the middle of growth turns) and from arbitrary
positions give the same values and streams as ``random_rollout``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabletop_lab import PositionError, load_game
from tabletop_lab.core import canonical_json
from tabletop_lab.kernels import CUT, FINISHED, playout_kernel, random_rollout, use_kernels
from tabletop_lab.sim import simulate
from tests.kernel_reference import reference_game

pytest.importorskip("numba", reason="the kernels need numba (a dependency of tabletop-lab)")

CAP = 2000
RULES = [{"growth": g, "balancing": b} for g, b in itertools.product(("any", "all"), (True, False))]
#: (size, rules, games): every rules config on the small boards, the default rules on big ones
CONFIGS = (
    [(3, rules, 2000 if rules["growth"] == "any" else 1000) for rules in RULES]
    + [(4, rules, 800 if rules["growth"] == "any" else 400) for rules in RULES]
    + [(5, rules, 600 if rules["growth"] == "any" else 250) for rules in RULES]
    + [(7, rules, 150 if rules["growth"] == "any" else 50) for rules in RULES]
    + [(9, RULES[0], 120), (9, RULES[1], 60), (9, RULES[2], 10), (13, RULES[0], 10), (19, RULES[0], 3)]
)


def config_id(config):
    size, rules, _ = config
    return f"{size}-{rules['growth']}-{'bal' if rules['balancing'] else 'nobal'}"


def kernel_of(game):
    kernel = playout_kernel(game)
    assert kernel is not None, "Sygo has a kernel for every config"
    return kernel


def python_game(game, streams, cap=CAP):
    """The reference (``tests.kernel_reference``): the final state and its moves."""
    state, _, moves = reference_game(game, streams, cap)
    return state, moves


def final_text(state):
    return canonical_json(state.snapshot()) if state.mid_turn() else state.notation()


def seeds(n, seed):
    return np.random.default_rng(seed).integers(0, 2**64, size=(n, 2), dtype=np.uint64)


def assert_same_games(game, streams, played, cap=CAP):
    for g in range(len(streams)):
        state, moves = python_game(game, streams[g], cap)
        assert played.final[g].decode() == final_text(state)
        assert played.n_actions[g] == len(state.history())
        assert played.n_moves[g] == played.n_turns[g] == moves
        assert played.outcome[g] == (FINISHED if state.is_terminal() else CUT)
        assert played.scores[g].tolist() == state.scores()
        if state.is_terminal():
            assert [p for p in range(2) if played.winners[g] >> p & 1] == list(state.result().winners)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_kernel_game_is_the_engines_game(config):
    size, rules, n_games = config
    game = load_game("sygo", size=size, **rules)
    streams = seeds(n_games, size * 10 + len(str(rules)))
    played = kernel_of(game).random_games(game, streams, CAP)
    assert (played.outcome == FINISHED).all()
    assert_same_games(game, streams, played)


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] in (4, 5)], ids=config_id)
def test_kernel_actions_are_the_engines_actions(config):
    size, rules, _ = config
    game = load_game("sygo", size=size, **rules)
    kernel = kernel_of(game)
    for streams in seeds(40, 7):
        state, _ = python_game(game, streams)
        assert kernel.recorded_game(game.new_initial_state(), streams, CAP).actions == state.history()


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r['growth']}-{r['balancing']}")
def test_games_cut_at_max_actions_stop_there(rules):
    """Cut games end between turns or in the middle of a growth turn (then the final text is
    the engine's snapshot of the turn in progress)."""
    game = load_game("sygo", size=5, **rules)
    streams = seeds(300, 3)
    kinds = set()
    for cap in (3, 8, 15):
        played = kernel_of(game).random_games(game, streams, cap)
        assert_same_games(game, streams, played, cap)
        kinds |= {text[:1] for text in played.final[played.outcome == CUT].tolist()}
    assert b"{" in kinds and kinds - {b"{"}  # cut in the middle of a turn, and between turns


def positions_in_play(game, n, seed):
    """States met by random play, terminal ones and ones in the middle of a growth turn included."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < n:
        state, _ = python_game(game, rng.integers(0, 2**64, 2, dtype=np.uint64), cap=int(rng.integers(0, 60)))
        found.append(state)
    return found


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] in (3, 5)], ids=config_id)
def test_rollouts_match_the_python_rollout(config):
    size, rules, _ = config
    game = load_game("sygo", size=size, **rules)
    kernel = kernel_of(game)
    states = positions_in_play(game, 60, 11)
    assert any(s.mid_turn() for s in states) and any(s.is_terminal() for s in states)
    for i, state in enumerate(states):
        for budget in (0, 3, CAP):
            stream = (i * 0x9E3779B97F4A7C15 + budget) % 2**64
            assert kernel.rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)


#: (size, rules, games) with a komi: whole, half-point, and as large as the board
KOMI_CONFIGS = [
    (5, {"growth": "any", "balancing": True, "komi": 2.5}, 400),
    (5, {"growth": "all", "balancing": True, "komi": 3}, 150),
    (4, {"growth": "any", "balancing": False, "komi": 0.5}, 300),
    (7, {"growth": "any", "balancing": True, "komi": 49.0}, 60),
]


@pytest.mark.parametrize("config", KOMI_CONFIGS, ids=lambda c: f"{c[0]}-{c[1]['growth']}-komi={c[1]['komi']}")
def test_kernel_games_with_komi_are_the_engines_games(config):
    """Decision 15: the same games, Black's scores with the komi added, the winners decided with it."""
    size, rules, n_games = config
    game = load_game("sygo", size=size, **rules)
    streams = seeds(n_games, size * 10 + 7)
    played = kernel_of(game).random_games(game, streams, CAP)
    assert_same_games(game, streams, played)
    without = load_game("sygo", size=size, **{**rules, "komi": 0})
    plain = kernel_of(without).random_games(without, streams, CAP)
    assert (played.final == plain.final).all()  # random play does not read the komi
    assert (played.scores[:, 0] == plain.scores[:, 0]).all()
    assert (played.scores[:, 1] == plain.scores[:, 1] + rules["komi"]).all()
    assert (played.winners != plain.winners).any()  # the premise: the komi decided some games
    if rules["komi"] % 1:  # a half point: no draw
        assert (played.winners != 3).all()


@pytest.mark.parametrize("config", KOMI_CONFIGS[:3], ids=lambda c: f"{c[0]}-{c[1]['growth']}-komi={c[1]['komi']}")
def test_rollouts_with_komi_match_the_python_rollout(config):
    """Finished rollouts are decided with the komi and cut ones evaluated with it (``komi_lead``)."""
    size, rules, _ = config
    game = load_game("sygo", size=size, **rules)
    kernel = kernel_of(game)
    states = positions_in_play(game, 40, 13)
    assert any(s.is_terminal() for s in states)
    for i, state in enumerate(states):
        for budget in (0, 3, CAP):
            stream = (i * 0x9E3779B97F4A7C15 + budget) % 2**64
            assert kernel.rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)


@st.composite
def arbitrary_positions(draw):
    """A position of any stones on a 3x3 to 5x5 board, under any rules config."""
    size = draw(st.integers(3, 5))
    cells = draw(st.lists(st.sampled_from(".WB"), min_size=size * size, max_size=size * size))
    to_move, grown, passes = draw(st.sampled_from("WB")), draw(st.sampled_from("g-")), draw(st.sampled_from("01"))
    game = load_game("sygo", size=size, growth=draw(st.sampled_from(["any", "all"])), balancing=draw(st.booleans()))
    rows = ["".join(cells[r * size : (r + 1) * size]) for r in range(size)]
    try:
        return game.state_from_notation(f"{'/'.join(rows)} {to_move} {grown} {passes}")
    except PositionError:  # a group without liberties: no legal play leads there
        assume(False)


@settings(max_examples=150, deadline=None)
@given(state=arbitrary_positions(), stream=st.integers(0, 2**64 - 1))
def test_rollouts_match_from_arbitrary_positions(state, stream):
    assert kernel_of(state.game).rollout(state, 30, stream) == random_rollout(state.clone(), 30, stream)


def test_simulate_gives_the_same_rows_with_and_without_the_kernel():
    game = load_game("sygo", size=5)
    compiled = simulate(game, ["random", "random"], 40, seed=5, progress=False)
    use_kernels(False)
    try:
        reference = simulate(game, ["random", "random"], 40, seed=5, progress=False)
    finally:
        use_kernels(None)
    columns = [c for c in reference.columns if c != "duration_s"]
    assert compiled[columns].equals(reference[columns])


def test_the_kernel_leaves_its_inputs_alone():
    game = load_game("sygo", size=5, growth="all")
    kernel = kernel_of(game)
    for state in [s for s in positions_in_play(game, 40, 2) if s.mid_turn()][:3]:
        before = state.clone()
        witnesses = list(state.turn.witnesses)
        kernel.rollout(state, CAP, 5)
        assert state == before and state.history() == before.history() and state.stones == before.stones
        assert state.turn.witnesses == witnesses
    streams = seeds(5, 1)
    copy = streams.copy()
    kernel.random_games(game, streams, CAP)
    assert (streams == copy).all()


def test_the_kernel_plays_only_the_default_search_limit():
    """Its ``growth="all"`` search has the default limit built in: the engine plays any other."""
    assert playout_kernel(load_game("sygo", size=5, growth="all", all_search_limit=None)) is None
    assert playout_kernel(load_game("sygo", size=5, growth="all", all_search_limit=40)) is None
    assert playout_kernel(load_game("sygo", size=5, growth="all", all_search_limit=5000)) is not None
    assert playout_kernel(load_game("sygo", size=5, all_search_limit=None)) is not None  # "any" never searches


def test_rollouts_match_where_the_growth_all_search_decides(monkeypatch):
    """Turns whose legal stones need the exact search of ``growth="all"`` (``_search_maximal``):
    the positions of ``test_growth_all`` where the old enumeration or an earlier search ran past
    its limit."""
    from tabletop_lab.games.sygo.growth import Turn

    from .test_growth_all import FLIPPED, HARD_TURNS, PAST_THE_OLD_LIMIT

    searches = []
    search = Turn._search_maximal
    monkeypatch.setattr(Turn, "_search_maximal", lambda *args: searches.append(args[2]) or search(*args))
    for notation, prefix, _ in [(FLIPPED, [], None), *PAST_THE_OLD_LIMIT, *HARD_TURNS]:
        game = load_game("sygo", size=notation.index("/"), growth="all")
        state = game.state_from_notation(notation)
        for point in prefix:
            state.apply_action(state.string_to_action("grow " + point))
        for budget in (1, 40):
            for stream in range(3):
                assert kernel_of(game).rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)
    assert searches  # the engine's lists needed the search, so the kernel's did (same answers, same order)
