"""The kernel registry and the random streams: found lazily, switchable off, same results either way."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop_lab.streams
from tabletop_lab import list_games, load_game
from tabletop_lab.agents import MCTSAgent, RandomAgent, make_agent
from tabletop_lab.kernels import playout_kernel, random_rollout, rollout_function, use_kernels
from tabletop_lab.streams import MASK64, choice_index, fresh_stream, fresh_streams, next_draw
from tests import toy_games  # noqa: F401  (registers test_nim)

ROOT = Path(__file__).resolve().parents[1]


def test_streams_doctest():
    result = doctest.testmod(tabletop_lab.streams)
    assert result.attempted > 0 and result.failed == 0


def test_stream_choices_are_uniform_enough():
    counts = [0] * 6
    stream = 123
    for _ in range(60_000):
        stream, draw = next_draw(stream)
        counts[choice_index(draw, 6)] += 1
    assert all(9_400 < c < 10_600 for c in counts)  # 10,000 expected each; 6 standard deviations
    assert 0 <= stream <= MASK64


@settings(max_examples=50)
@given(st.lists(st.integers(0, MASK64), min_size=1, max_size=20))
def test_fresh_streams_is_fresh_stream_of_each_seed(seeds):
    """The runner derives a batch's streams in numpy; RandomAgent one by one in Python."""
    assert fresh_streams(np.array(seeds, np.uint64)).tolist() == [fresh_stream(seed) for seed in seeds]


def test_importing_the_package_and_playing_does_not_load_numba():
    code = (
        "import sys, tabletop_lab\n"
        "state = tabletop_lab.load_game('cross_endodoi').new_initial_state()\n"
        "state.apply_move('2')\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)


@pytest.mark.parametrize("value", ["0", "false", "off"])
def test_the_environment_variable_turns_kernels_off(monkeypatch, value):
    game = load_game("cross_endodoi")
    monkeypatch.setenv("TABLETOP_KERNELS", value)
    assert playout_kernel(game) is None and rollout_function(game) is random_rollout
    monkeypatch.setenv("TABLETOP_KERNELS", "1")
    assert playout_kernel(game) is not None
    assert use_kernels(False) is None
    assert playout_kernel(game) is None
    assert use_kernels(None) is False


@pytest.mark.parametrize("name", [info["name"] for info in list_games()])
def test_every_game_has_a_kernel_that_switches_off(name):
    game = load_game(name)
    assert playout_kernel(game) is not None and rollout_function(game) is not random_rollout
    use_kernels(False)
    try:
        assert playout_kernel(game) is None and rollout_function(game) is random_rollout
    finally:
        use_kernels(None)
    assert playout_kernel(game) is not None


def test_a_game_without_a_kernel_rolls_out_in_python():
    game = load_game("test_nim", pile=12)
    assert playout_kernel(game) is None and rollout_function(game) is random_rollout
    values, stream = random_rollout(game.new_initial_state(), 1000, 7)
    assert sorted(values) == [-1.0, 1.0] and stream != 7


def test_mcts_decides_the_same_with_and_without_kernels():
    state = load_game("cross_endodoi", seeds_per_hole=6).state_from_notation("4,0,5,5,1,0/4,4,4,0,0,4 41-0 1")
    compiled = MCTSAgent(seed=4, iterations=300).analyse(state)
    previous = use_kernels(False)
    try:
        reference = MCTSAgent(seed=4, iterations=300).analyse(state)
    finally:
        use_kernels(previous)
    assert compiled == reference


def test_random_agents_replay_from_their_seed():
    state = load_game("cross_endodoi").new_initial_state()
    a, b = RandomAgent(seed=9), RandomAgent(seed=9)
    assert [a.choose_action(state) for _ in range(20)] == [b.choose_action(state) for _ in range(20)]
    b.reset(9)
    a.reset(9)
    assert a.choose_action(state) == b.choose_action(state) and a.stream == b.stream


def test_without_numba_games_play_in_python(tmp_path):
    """A machine where numba cannot be imported warns once and plays every game in Python."""
    (tmp_path / "numba.py").write_text("raise ImportError('numba is broken here')\n")
    code = (
        "import warnings, tabletop_lab\n"
        "from tabletop_lab.kernels import playout_kernel\n"
        "from tabletop_lab.sim import simulate\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    assert playout_kernel(tabletop_lab.load_game('cross_endodoi')) is None\n"
        "assert 'kernels unavailable' in str(caught[0].message)\n"
        "df = simulate('cross_endodoi', ['random', 'random'], 20, seed=1, progress=False)\n"
        "print(df.final.tolist())\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT, capture_output=True, text=True)
    from tabletop_lab.sim import simulate

    assert out.stdout.strip() == str(
        simulate("cross_endodoi", ["random", "random"], 20, seed=1, progress=False).final.tolist()
    )


def test_a_board_move_never_waits_for_the_compiler(tmp_path):
    """On a machine where a game is not compiled yet, a board's agent searches in Python (the
    same move) while ``python -m tabletop_lab.precompile`` fills numba's cache in the background; once that
    has finished, the board's agents use the kernel, loaded from the cache."""
    code = (
        "import numba\n"
        "from tabletop_lab import kernels\n"
        "from tabletop_lab.games.cross_endodoi import kernel\n"
        "from tabletop_lab.jit import is_compiled\n"
        "from tabletop_lab.widgets import Board\n"
        "def compiled():\n"
        "    return [name for name, f in vars(kernel).items()\n"
        "            if isinstance(f, numba.core.dispatcher.Dispatcher) and f.signatures]\n"
        "first = Board(seats=['mcts:iterations=30', 'human'], seed=5)\n"
        "assert len(first.line) == 2, 'the agent has moved'\n"
        "assert compiled() == [] and not is_compiled('cross_endodoi.games')\n"
        "assert kernels._compiling['cross_endodoi.games'].wait() == 0\n"
        "assert is_compiled('cross_endodoi.games') and is_compiled('cross_endodoi.search')\n"
        "second = Board(seats=['mcts:iterations=30', 'human'], seed=5)\n"
        "assert '_tree_search' in compiled(), compiled()\n"
        "assert second.line[1].history() == first.line[1].history()\n"
        "assert kernels.playout_kernel(second.game) is not None\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    assert list(tmp_path.rglob("*.nbi")), "the background compile filled the cache"


def test_the_wait_announced_is_for_the_paths_and_rules_config_that_will_compile(tmp_path, monkeypatch):
    """Random games wait for the kernel's random games only, search agents for the search too;
    Sygo's ``growth="all"`` compiles an entry of its own, which compiling the defaults does not
    count for. Each figure is the one last measured for that path (``jit.compile_seconds``)."""
    import numba

    from tabletop_lab import kernels
    from tabletop_lab.jit import _compiled_stamp, record_compiled

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kernels, "_compiled", set())
    default, all_growth = load_game("sygo"), load_game("sygo", growth="all")
    random_seat, search_seat = RandomAgent(seed=0), MCTSAgent(iterations=10, seed=0)
    assert kernels.compiled_path_keys(default) == ["sygo.games", "sygo.search"]
    assert kernels.compiled_path_keys(all_growth) == ["sygo.games.growth=all", "sygo.search.growth=all"]
    for key, seconds in (("sygo.games", 19.6), ("sygo.search", 13.0), ("sygo.games.growth=all", 39.3)):
        record_compiled(key, seconds)
    _compiled_stamp("sygo.search").unlink()  # its sources changed since: it compiles again
    _compiled_stamp("sygo.games.growth=all").unlink()
    assert kernels.compile_notice(default, [random_seat]) is None
    assert (
        kernels.compile_notice(default, [random_seat, search_seat]) == "compiling Sygo (about 13 s, once per machine)"
    )
    assert kernels.compile_notice(all_growth, [random_seat]) == "compiling Sygo (about 39 s, once per machine)"
    never_measured = "compiling Sygo (once per machine)"  # its search path has no figure yet
    assert kernels.compile_notice(all_growth, [search_seat]) == never_measured
    assert kernels.compile_notice(default, [make_agent("greedy", game=default)]) is None  # plays in Python


def test_every_module_with_compiled_code_is_hashed_for_the_caches():
    """A kernel split into modules (Sygo's ``kernel_*.py``) invalidates numba's caches when any
    of them changes: every module of the package that compiles with numba is in the digest."""
    from tabletop_lab.jit import _PACKAGE, compiled_sources

    hashed = set(compiled_sources())
    compiling = [path for path in _PACKAGE.rglob("*.py") if "njit" in path.read_text()]
    assert _PACKAGE / "games" / "sygo" / "kernel_maximal.py" in compiling
    assert [path for path in compiling if path not in hashed] == []


def test_caches_are_forgotten_when_code_compiled_into_them_changes(tmp_path):
    """numba checks a cache against its kernel's own file only; ``forget_stale_caches`` also
    watches the shared code and the rules the kernels compile in."""
    from tabletop_lab.jit import forget_stale_caches

    package, elsewhere = tmp_path / "tabletop_lab", tmp_path / "numba_cache"
    kernel = package / "games" / "toy" / "kernel.py"
    kernel.parent.mkdir(parents=True)
    (package / "jit.py").write_text("A = 1\n")
    kernel.write_text("from ...jit import A\n")
    caches = [package / "games" / "toy" / "__pycache__" / "kernel.f-1.py311.nbi",
              elsewhere / "tabletop_lab" / "games" / "kernel.f-1.py311.nbc"]  # fmt: skip
    unrelated = elsewhere / "other_project" / "mod.f-1.py311.nbi"

    def write_caches():
        for path in [*caches, unrelated]:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"machine code")

    write_caches()
    assert forget_stale_caches(package, str(elsewhere))  # no record of what they were built from
    assert not any(path.exists() for path in caches) and unrelated.exists()
    write_caches()
    assert not forget_stale_caches(package, str(elsewhere))  # nothing changed: kept
    assert all(path.exists() for path in caches)
    (package / "jit.py").write_text("A = 2\n")  # shared code the kernel compiles in
    assert forget_stale_caches(package, str(elsewhere))
    assert not any(path.exists() for path in caches) and unrelated.exists()
    write_caches()
    kernel.with_name("rules.py").write_text("B = 3\n")  # a game's rules: its constants
    assert forget_stale_caches(package, str(elsewhere))
    assert not any(path.exists() for path in caches)


def test_an_internal_function_has_no_python_wrapper_and_runs_as_python_from_python(monkeypatch, tmp_path):
    """``jit.internal``: compiled for its compiled callers without the wrapper that calls its
    machine code from Python (first-use compile time), and called from Python it runs its Python
    function (a kernel run as Python, ``.py_func``), not machine code without an entry."""
    from fractions import Fraction

    import numba

    from tabletop_lab.jit import internal, njit

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))  # this test's functions cache there

    @internal
    def twice(x):
        return 2 * x

    @njit
    def caller(x):
        return twice(x) + 1

    assert caller(np.int64(3)) == 7
    (signature,) = twice.signatures
    assert str(signature[0]) == "int64"
    compiled, entry = twice.overloads[signature], caller.overloads[caller.signatures[0]]
    assert compiled.fndesc.llvm_cpython_wrapper_name not in compiled.library.get_llvm_str()
    assert entry.fndesc.llvm_cpython_wrapper_name in entry.library.get_llvm_str()
    assert twice(3) == 6 and twice(Fraction(1, 3)) == Fraction(2, 3)  # Python's: numba compiles no Fraction
    assert twice.signatures == [signature]
