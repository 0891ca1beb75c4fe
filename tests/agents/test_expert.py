"""The ``expert`` of every game: registered by the game, legal, reproducible, within its time, and
strict about its settings. Nothing here depends on the machine's speed: ``seconds`` is checked
only against a generous upper bound, never for what the search finds in the time."""

import pickle
import time

import pytest

from tabletop_lab import load_game
from tabletop_lab.agents import AGENTS, agents_for, make_agent
from tabletop_lab.agents.base import MAX_ITERATIONS, MAX_SECONDS
from tabletop_lab.agents.expert import ExpertAgent, HiddenExpertAgent
from tabletop_lab.kernels import use_kernels

#: (game, options, random actions played before the position searched)
SETUPS = [
    ("cross_endodoi", {}, 6),
    ("cross_endodoi", {"seeds_per_hole": 6}, 0),
    ("sygo", {"size": 5}, 7),
    ("sinoda", {}, 10),
    ("sinoda", {"players": 4, "teams": "pairs"}, 20),
    ("capitals", {}, 8),
    ("sinomilia", {}, 3),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}" for name, options, _ in SETUPS]
#: A small budget, for speed: the contract does not depend on it.
SMALL = "iterations=100"


def position(name, options, n_actions, seed=0):
    game = load_game(name, **options)
    state = game.new_initial_state()
    agent = make_agent("random", seed=seed)
    for _ in range(n_actions):
        state.apply_action(agent.choose_action(state))
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize(("name", "options", "n_actions"), SETUPS, ids=IDS)
def test_every_game_registers_an_expert_that_its_pickers_list(name, options, n_actions):
    from tabletop_lab.widgets.controls import agent_choices

    game = load_game(name, **options)
    assert "expert" in agents_for(game) and "expert" not in AGENTS  # the game's own, not a shared agent
    agent = make_agent("expert", seed=1, game=game)
    assert isinstance(agent, (ExpertAgent, HiddenExpertAgent)) and agent.name == "expert"
    assert agent.unsupported_reason(game) is None
    assert "expert" in [spec.partition(":")[0] for _, spec in agent_choices(game=game)]
    assert "iterations" in agent.label  # results record the budget it played with


@pytest.mark.parametrize(("name", "options", "n_actions"), SETUPS, ids=IDS)
def test_plays_legal_actions_only_and_leaves_the_state_alone(name, options, n_actions):
    state = position(name, options, n_actions)
    agent = make_agent(f"expert:{SMALL}", seed=3, game=state.game)
    for _ in range(4):
        if state.is_terminal():
            break
        before = state.clone()
        action = agent.choose_action(state)
        assert action in state.legal_actions()
        assert state == before and state.history() == before.history()
        state.apply_action(action)


@pytest.mark.parametrize(("name", "options", "n_actions"), SETUPS, ids=IDS)
def test_same_budget_and_seed_give_the_same_choices(name, options, n_actions):
    state = position(name, options, n_actions, seed=1)
    game = state.game
    first = make_agent(f"expert:{SMALL}", seed=7, game=game)
    second = make_agent(f"expert:{SMALL}", seed=7, game=game)
    assert first.analyse(state) == second.analyse(state)
    assert [first.choose_action(state) for _ in range(3)] == [second.choose_action(state) for _ in range(3)]


def test_the_same_seed_and_budget_play_the_same_whole_game():
    from tabletop_lab.sim import simulate

    runs = [
        simulate("sinoda", ["expert:iterations=60", "greedy"], 2, seed=5, progress=False, record_actions=True)
        for _ in range(2)
    ]
    assert [a.tolist() for a in runs[0]["actions"]] == [a.tolist() for a in runs[1]["actions"]]


@pytest.mark.parametrize(("name", "options", "n_actions"), SETUPS, ids=IDS)
def test_a_time_budget_is_an_upper_bound(name, options, n_actions):
    """``seconds`` caps the time a move takes (bound generous: a loaded machine is slow, never early)."""
    state = position(name, options, n_actions)
    game = state.game
    make_agent(f"expert:{SMALL}", seed=0, game=game).choose_action(state)  # compile, or load the cache, first
    agent = make_agent("expert:seconds=0.2", seed=0, game=game)
    assert agent.settings()["seconds"] == 0.2
    start = time.perf_counter()
    action = agent.choose_action(state)
    assert time.perf_counter() - start < 0.2 + 3.0
    assert action in state.legal_actions()


def test_a_time_budget_is_an_upper_bound_in_python_too():
    """Kernels off: the search runs in Python, until the deadline."""
    state = position("sinoda", {}, 4)
    previous = use_kernels(False)
    try:
        agent = make_agent("expert:seconds=0.1", seed=0, game=state.game)
        start = time.perf_counter()
        assert agent.choose_action(state) in state.legal_actions()
        assert time.perf_counter() - start < 0.1 + 3.0
    finally:
        use_kernels(previous)


def test_a_board_waits_for_no_compiler(monkeypatch):
    """While a board's kernel compiles in the background the expert searches in Python, which
    would take minutes for a large budget: it stops at ``WAITING_SECONDS`` instead."""
    import tabletop_lab.agents.expert as expert_module

    state = position("sinoda", {}, 4)
    monkeypatch.setattr(expert_module, "playout_kernel", lambda game: None)
    monkeypatch.setattr(expert_module, "compiling_in_background", lambda game: True)
    agent = make_agent(f"expert:iterations={MAX_ITERATIONS}", seed=0, game=state.game)
    previous = use_kernels(False)  # the search below runs in Python, as it does on such a board
    try:
        start = time.perf_counter()
        assert agent.choose_action(state) in state.legal_actions()
        assert time.perf_counter() - start < expert_module.WAITING_SECONDS + 5.0
    finally:
        use_kernels(previous)
    assert agent.seconds is None and agent.settings()["iterations"] == MAX_ITERATIONS  # its budget is kept


BAD_SETTINGS = [
    ("iterations=0", "iterations must be an integer >= 1 and <= 1000000"),
    (f"iterations={MAX_ITERATIONS + 1}", "iterations must be an integer >= 1"),
    ("iterations=2.5", "iterations must be an integer"),
    ("seconds=0", "seconds must be a number > 0"),
    ("seconds=-1", "seconds must be a number > 0"),
    (f"seconds={MAX_SECONDS * 10}", f"seconds must be a number > 0 and <= {MAX_SECONDS}"),
    ("c=-1", "c must be a number >= 0"),
]


@pytest.mark.parametrize(("name", "options", "n_actions"), SETUPS, ids=IDS)
@pytest.mark.parametrize(("setting", "message"), BAD_SETTINGS, ids=[s for s, _ in BAD_SETTINGS])
def test_bad_settings_are_refused_naming_the_setting_and_its_bounds(name, options, n_actions, setting, message):
    game = load_game(name, **options)
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        make_agent(f"expert:{setting}", game=game)


@pytest.mark.parametrize("setting", ["horizon=0", "rollout=-1", "horizon=true", "paranoid=3", "depth=3"])
def test_bad_cut_offs_and_unknown_settings_are_refused(setting):
    with pytest.raises(ValueError, match=setting.partition("=")[0]):
        make_agent(f"expert:{setting}", game=load_game("sinoda"))


def test_an_expert_plays_its_own_game_only():
    sinoda, cross = load_game("sinoda"), load_game("cross_endodoi")
    expert = make_agent("expert", game=sinoda)
    with pytest.raises(ValueError, match="expert for sinoda only"):
        make_agent(expert, game=cross)
    with pytest.raises(ValueError, match="cannot play cross_endodoi"):
        expert.choose_action(cross.new_initial_state())
    with pytest.raises(ValueError, match="unknown agent 'expert'.*a game's own, given game="):
        make_agent("expert")


@pytest.mark.parametrize(("name", "options", "n_actions"), SETUPS, ids=IDS)
def test_an_expert_survives_pickling(name, options, n_actions):
    """Process pools send agents to their workers."""
    game = load_game(name, **options)
    agent = make_agent(f"expert:{SMALL}", seed=2, game=game)
    copy = pickle.loads(pickle.dumps(agent))
    assert type(copy) is type(agent) and copy.settings() == agent.settings()
