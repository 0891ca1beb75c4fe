"""simulate() and play_game(): rows, determinism across executors, seating, caps, errors, interrupts."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

from tabletop_lab import IllegalActionError, data, load_game, versions
from tabletop_lab.agents import Agent, GreedyAgent, RandomAgent, make_agent
from tabletop_lab.games.cross_endodoi import LapLimitError
from tabletop_lab.kernels import use_kernels
from tabletop_lab.sim import batch, play_game, replay_actions, simulate, storable
from tabletop_lab.sim.runner import _generate_state

from .helpers import TURNS, AddUpGame

AGENTS = ["random", "greedy"]


def run(n_games=40, **kwargs):
    kwargs.setdefault("progress", False)
    return simulate("cross_endodoi", kwargs.pop("agents", AGENTS), n_games, kwargs.pop("seed", 5), **kwargs)


def same_rows(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal except for the wall-clock durations."""
    assert_frame_equal(a.drop(columns="duration_s"), b.drop(columns="duration_s"))


class IllegalAgent(Agent):
    """Sows the opponent's first hole: always illegal in Cross-endodoi."""

    name = "cheat"

    def choose_action(self, state):
        return 6 if state.current_player() == 0 else 0


# ----------------------------------------------------------------------------- rows


def test_one_row_per_game_with_the_documented_columns():
    df = run(30)
    assert list(df.columns) == [
        "game_id", "game", "options", "seed", "agent_0", "agent_1", "team_0", "team_1", "first_player", "winners",
        "winner_agents", "returns_0", "returns_1", "score_0", "score_1", "reason", "n_turns", "n_moves", "n_actions",
        "hit_cap", "duration_s", "final", "draw",
    ]  # fmt: skip
    assert list(df.game_id) == list(range(30))
    assert (df.game == "cross_endodoi").all()
    assert json.loads(df.options[0]) == load_game("cross_endodoi").options
    assert df.seed.is_unique
    for row in df.itertuples():
        game = load_game("cross_endodoi")
        final = game.state_from_notation(row.final)
        assert final.is_terminal()
        result = final.result()
        assert row.winners == result.winners
        assert row.winner_agents == tuple((row.agent_0, row.agent_1)[s] for s in row.winners)
        assert [row.returns_0, row.returns_1] == result.returns()
        assert [row.score_0, row.score_1] == final.scores()
        assert row.draw == result.is_draw
        assert row.n_turns == row.n_actions > 0  # one action per turn in Cross-endodoi
        assert row.duration_s > 0
    assert df.attrs == {
        "game": "cross_endodoi",
        "options": load_game("cross_endodoi").options,
        "agents": ["random", "greedy"],
        "seed": 5,
        "seats": "rotate",
        "max_actions": 1000,
        "n_games": 30,
        "evaluator": None,
        "interrupted": False,
        "package_version": versions.package_version(),
        "rules_version": 1,
    }


def test_a_row_seed_replays_its_game_with_play_game():
    df = run(6)
    for row in df.itertuples():
        by_seat = [RandomAgent() if label == "random" else GreedyAgent() for label in (row.agent_0, row.agent_1)]
        record = play_game(load_game("cross_endodoi"), by_seat, seed=row.seed)
        assert len(record.actions) == row.n_actions
        assert record.replay().notation() == row.final
        assert tuple(record.result["winners"]) == row.winners
        assert record.agents == [row.agent_0, row.agent_1]


@pytest.mark.parametrize("options", [{}, {"seeds_per_hole": 6, "skip_origin": True, "first_player": 1}])
@pytest.mark.parametrize("max_actions", [None, 20])
def test_random_games_are_the_same_with_and_without_kernels(options, max_actions):
    """Random against random runs in the compiled kernel: the rows are the Python engine's."""
    game = load_game("cross_endodoi", **options)
    compiled = simulate(game, ["random", "random"], 400, 3, seats="random", max_actions=max_actions, progress=False)
    use_kernels(False)
    try:
        reference = simulate(
            game, ["random", "random"], 400, 3, seats="random", max_actions=max_actions, progress=False
        )
    finally:
        use_kernels(None)
    same_rows(compiled, reference)
    assert compiled.hit_cap.any() == (max_actions is not None)


def test_the_engines_guard_errors_are_the_same_with_and_without_kernels():
    game = load_game("cross_endodoi", max_laps=2)
    with pytest.raises(LapLimitError) as compiled:
        simulate(game, ["random", "random"], 50, seed=1, progress=False)
    use_kernels(False)
    try:
        with pytest.raises(LapLimitError) as reference:
            simulate(game, ["random", "random"], 50, seed=1, progress=False)
    finally:
        use_kernels(None)
    assert str(compiled.value) == str(reference.value)
    assert "max_laps=2" in str(compiled.value)


def test_a_random_game_row_replays_with_play_game():
    df = simulate("cross_endodoi", ["random", "random"], 30, seed=2, progress=False)
    for row in df.itertuples():
        record = play_game(load_game("cross_endodoi"), [RandomAgent(), RandomAgent()], seed=row.seed)
        assert record.replay().notation() == row.final and len(record.actions) == row.n_actions
        assert tuple(record.result["winners"]) == row.winners


def test_rows_are_compact():
    """Categoricals and small integers: under 100 bytes a row (it was about 430 with lists and strings)."""
    df = simulate("cross_endodoi", ["random", "random"], 2000, progress=False)
    assert df.memory_usage(deep=True).sum() / len(df) < 100
    assert df.winners.dtype == "category" and df.agent_0.dtype == "category" and df.n_actions.dtype == "int32"


def test_play_game_starts_from_a_position_without_changing_it():
    state = load_game("cross_endodoi").state_from_notation("0,0,0,0,1,1/1,0,0,0,0,0 17-16 0")
    before = state.clone()
    record = play_game(state, ["random", "random"], seed=3)
    assert state == before and state.history() == []
    assert record.start == state.to_dict()
    assert record.replay().is_terminal()
    assert record == play_game(state, ["random", "random"], seed=3)  # same seed, same game


def test_turns_and_actions_are_counted_apart_in_multi_action_turns():
    df = simulate(AddUpGame(), ["random", "random", "greedy"], 12, seed=1, progress=False)
    assert (df.n_turns == TURNS).all()
    assert (df.n_actions == 2 * TURNS).all()
    assert [c for c in df.columns if c.startswith("returns_")] == ["returns_0", "returns_1", "returns_2"]
    assert df.attrs["agents"] == ["random#1", "random#2", "greedy"]  # equal labels made distinct
    # each seat's total equals its score: the row is consistent with the game's own result
    for row in df.itertuples():
        best = max(row.score_0, row.score_1, row.score_2)
        assert row.winners == tuple(s for s, v in enumerate((row.score_0, row.score_1, row.score_2)) if v == best)


# ----------------------------------------------------------------------------- determinism


def test_recorded_actions_are_the_games_actions_and_change_no_row():
    recorded = run(12, record_actions=True)
    assert list(recorded.columns)[-2:] == ["actions", "n_legal"]
    same_rows(recorded.drop(columns=["actions", "n_legal"]), run(12))
    same_rows(recorded, run(12, record_actions=True, workers=2, batch_size=5))
    game = load_game("cross_endodoi")
    for row in recorded.itertuples():
        assert row.actions.dtype == np.int32 and row.n_legal.dtype == np.int32
        by_seat = [RandomAgent() if label == "random" else GreedyAgent() for label in (row.agent_0, row.agent_1)]
        counts = []
        for final in replay_actions(game, row.actions):  # one state, advanced: the final one at the end
            counts.append(len(final.legal_actions()))
        assert counts[:-1] == row.n_legal.tolist() and len(row.actions) == row.n_actions
        assert final.history_strings() == play_game(game, by_seat, seed=row.seed).actions
        assert final.notation() == row.final


def test_kernels_record_random_games_as_the_engine_does():
    recorded = run(30, agents=["random", "random"], record_actions=True)
    same_rows(recorded.drop(columns=["actions", "n_legal"]), run(30, agents=["random", "random"]))
    previous = use_kernels(False)
    try:
        in_python = run(30, agents=["random", "random"], record_actions=True)
    finally:
        use_kernels(previous)
    for name in ("actions", "n_legal"):
        assert [a.tolist() for a in recorded[name]] == [a.tolist() for a in in_python[name]]
    assert recorded.actions.map(len).tolist() == recorded.n_actions.tolist()


def test_evaluator_keeps_each_positions_value_for_side_0():
    df = run(6, evaluator="evaluate", record_actions=True)
    game = load_game("cross_endodoi")
    for row in df.itertuples():
        assert row.values.dtype == np.float32 and len(row.values) == row.n_moves
        states = replay_actions(game, row.actions)
        expected = [state.evaluate()[0] for state in states][: row.n_moves]
        assert row.values.tolist() == pytest.approx(expected, abs=1e-6)
    assert df.attrs["evaluator"] == "evaluate"


def test_an_evaluator_alone_records_values_only():
    df = run(4, evaluator="evaluate")
    assert list(df.columns)[-1] == "values" and "actions" not in df.columns
    assert df["values"].map(len).tolist() == df.n_moves.tolist()


def test_an_agent_evaluator_keeps_its_searched_value_for_side_0_reproducibly():
    spec = "mcts:iterations=40"
    df = run(3, evaluator=spec, record_actions=True)
    game = load_game("cross_endodoi")
    searcher = make_agent(spec, game=game)
    for row in df.itertuples():
        assert len(row.values) == row.n_moves and np.all(np.abs(row.values) <= 1)
        states = replay_actions(game, row.actions)  # every action is a move in Cross-endodoi
        searcher.reset((row.seed + 3 * batch._GOLDEN) & batch._MASK63)  # the stream after both seats'
        for state, value in zip(states, row.values, strict=False):
            rows = [r for r in searcher.analyse(state) if r["visits"]]
            mean = sum(r["value"] * r["visits"] for r in rows) / sum(r["visits"] for r in rows)
            assert value == pytest.approx(mean if state.current_player() == 0 else -mean, abs=1e-6)
    assert df.attrs["evaluator"] == spec
    same_rows(run(3, evaluator=spec, record_actions=True), df)  # seeded: the same values again


def test_a_bad_evaluator_is_refused_naming_what_it_may_be():
    with pytest.raises(
        ValueError, match="evaluator must be None, evaluate or an agent spec: unknown agent 'nonsense'"
    ) as caught:
        run(2, evaluator="nonsense")
    assert len(str(caught.value)) < 300
    with pytest.raises(ValueError, match="agent 'random' has no search to value positions"):
        run(2, evaluator="random")
    with pytest.raises(ValueError, match="an agent evaluator needs two sides; sinoda here has 4 teams"):
        simulate(load_game("sinoda", players=4), ["random"] * 4, 1, evaluator="mcts:iterations=5", progress=False)


def test_record_actions_must_be_a_bool():
    with pytest.raises(ValueError, match="record_actions must be True or False"):
        run(2, record_actions="yes")


def test_rows_do_not_depend_on_workers_or_batch_size():
    serial = run(60, batch_size=7)
    same_rows(serial, run(60, batch_size=60))
    same_rows(serial, run(60, workers=2, batch_size=4))


@pytest.mark.parametrize("game", ["cross_endodoi", "sinomilia"])
def test_kernel_batches_in_threads_give_the_engines_rows(game):
    def random_games(**kwargs):
        return simulate(game, ["random", "random"], 300, seed=9, progress=False, batch_size=17, **kwargs)

    previous = use_kernels(False)
    try:
        engine = random_games()
    finally:
        use_kernels(previous)
    same_rows(engine, random_games(workers=3))  # threads, each playing its batches in the kernel


def test_rows_of_a_shorter_run_are_the_prefix_of_a_longer_one():
    same_rows(run(10, seats="random"), run(25, seats="random").iloc[:10])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**128), spawned=st.integers(0, 2), n_words=st.integers(0, 300))
def test_game_seeds_are_numpys_seed_sequence_output(seed, spawned, n_words):
    sequence = np.random.SeedSequence(seed).spawn(3)[spawned]
    assert (_generate_state(sequence, n_words) == sequence.generate_state(n_words, np.uint64)).all()


def test_another_seed_gives_other_games():
    assert not run(20, seed=1).seed.isin(run(20, seed=2).seed).any()
    assert run(20, seed=1).final.tolist() != run(20, seed=2).final.tolist()


def test_rows_are_the_same_on_a_dask_cluster():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(host="127.0.0.1", dashboard_address=None, n_workers=2, processes=True)
    with cluster, distributed.Client(cluster) as client:
        on_dask = run(30, batch_size=4, executor=client.get_executor())
    same_rows(run(30), on_dask)


def test_the_callers_agents_are_not_changed():
    agent = RandomAgent(seed=99)
    state_before = agent.rng.getstate()
    run(5, agents=[agent, "greedy"])
    assert agent.seed == 99 and agent.rng.getstate() == state_before


# ----------------------------------------------------------------------------- seats


def test_fixed_seats_keep_the_given_order():
    df = run(10, seats="fixed")
    assert (df.agent_0 == "random").all() and (df.agent_1 == "greedy").all()


def test_rotating_seats_cycle_game_by_game():
    df = run(10, seats="rotate")
    assert df.agent_0.tolist() == ["random", "greedy"] * 5
    assert df.agent_1.tolist() == ["greedy", "random"] * 5


def test_rotation_over_three_seats():
    df = simulate(AddUpGame(), ["random", "greedy", "mcts:iterations=5"], 6, progress=False)
    labels = df.attrs["agents"]
    for g, row in df.iterrows():
        assert [row[f"agent_{s}"] for s in range(3)] == [labels[(s - g) % 3] for s in range(3)]


def test_random_seats_are_seeded_permutations():
    df = run(40, seats="random")
    pairs = set(zip(df.agent_0, df.agent_1))
    assert pairs == {("random", "greedy"), ("greedy", "random")}
    same_rows(df, run(40, seats="random"))


# ----------------------------------------------------------------------------- caps and errors


def test_games_cut_by_max_actions_have_no_result():
    df = run(10, max_actions=5)
    assert df.hit_cap.all() and (df.n_actions == 5).all()
    assert (df.reason == "cap").all()
    assert df.winners.map(len).eq(0).all() and df.winner_agents.map(len).eq(0).all()
    assert (df.returns_0 == 0).all() and (df.returns_1 == 0).all()
    assert not df.draw.any()
    record = play_game(load_game("cross_endodoi"), ["random", "random"], seed=1, max_actions=3)
    assert len(record.actions) == 3 and record.result is None


def test_an_illegal_action_names_the_agent_seat_game_and_seed():
    with pytest.raises(IllegalActionError) as error:
        run(4, agents=["random", IllegalAgent()], seats="fixed")
    message = str(error.value)
    assert "'cheat' in seat 1" in message and "game 0" in message and "illegal action 0" in message
    seed = int(run(1, agents=["random", "random"]).seed[0])
    assert f"(seed {seed})" in message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_games": 0}, "n_games must be a positive integer"),
        ({"n_games": 2.5}, "n_games must be a positive integer"),
        ({"agents": ["random"]}, "needs 2 agents"),
        ({"agents": "random"}, "one agent or spec per seat"),
        ({"agents": ["random", "nobody"]}, "unknown agent 'nobody'"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": 3}, "game must be a game name"),
        ({"seats": "swap"}, "seats must be one of fixed, rotate, random"),
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"workers": 0}, "workers must be a positive integer"),
        ({"batch_size": True}, "batch_size must be a positive integer"),
        ({"max_actions": 0}, "max_actions must be a positive integer"),
        ({"progress": "yes"}, "progress must be True, False or a callable"),
        ({"executor": "pool"}, "executor must be a concurrent.futures.Executor"),
    ],
)
def test_bad_input_is_refused_before_any_game(kwargs, message):
    args = {"game": "cross_endodoi", "agents": AGENTS, "n_games": 3, "progress": False}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        simulate(args.pop("game"), args.pop("agents"), args.pop("n_games"), **args)


# ----------------------------------------------------------------------------- progress and interrupts


def test_a_progress_callable_counts_games():
    seen = []
    run(25, batch_size=10, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(10, 25), (20, 25), (25, 25)]


def test_an_interrupted_run_keeps_the_finished_games():
    def stop_after_three_batches(done, total):
        if done >= 15:
            raise KeyboardInterrupt

    with pytest.warns(RuntimeWarning, match="kept the 15 of 50 games"):
        df = run(50, batch_size=5, progress=stop_after_three_batches)
    assert df.attrs["interrupted"] is True
    same_rows(df, run(15))


def test_an_interrupted_pool_run_keeps_finished_games_only():
    def stop(done, total):
        raise KeyboardInterrupt

    with pytest.warns(RuntimeWarning, match="interrupted"):
        df = run(40, batch_size=5, workers=2, progress=stop)
    assert df.attrs["interrupted"] is True
    assert 5 <= len(df) <= 40 and len(df) % 5 == 0  # whole batches
    full = run(40)
    # Compared as plain frames: pandas 3 turns a game_id column that happens to be a run of
    # numbers into a RangeIndex (int64) on set_index, and leaves other ids int32.
    same_rows(df, full[full.game_id.isin(df.game_id)].reset_index(drop=True))


def test_each_seat_gets_its_own_seed():
    """Two copies of one agent must not share a random stream."""
    a, b = RandomAgent(), RandomAgent()
    play_game(load_game("cross_endodoi"), [a, b], seed=11)
    assert a.seed != b.seed
    again = RandomAgent()
    play_game(load_game("cross_endodoi"), [again, RandomAgent()], seed=11)
    assert again.seed == a.seed


# ----------------------------------------------------------------------------- toy games: teams, hidden cards


def test_team_games_give_identical_rows_with_one_or_two_workers_and_stats_by_team_and_seat():
    import tests.toy_team  # noqa: F401  (registers test_team)
    from tabletop_lab import stats

    game = load_game("test_team", players=4, teams="alternate")
    agents = ["greedy", "random", "random", "random"]
    one = simulate(game, agents, 40, seed=3, progress=False)
    two = simulate(game, agents, 40, seed=3, progress=False, workers=2)
    same_rows(one, two)
    assert [one[f"team_{s}"].iloc[0] for s in range(4)] == [0, 1, 0, 1]
    by_team = stats.win_rates(one, by="team")
    assert by_team["n"].tolist() == [40, 40] and by_team["wins"].sum() == 40  # one team wins each game
    by_seat = stats.win_rates(one, by="seat")
    assert by_seat["seat"].tolist() == [0, 1, 2, 3] and by_seat["wins"].sum() == 80  # both members win


def test_hidden_information_games_run_with_agents_that_support_them():
    import tests.toy_hidden  # noqa: F401  (registers test_hidden_card)

    df = simulate("test_hidden_card", ["ismcts:iterations=30", "random"], 10, seed=1, progress=False)
    assert len(df) == 10 and not df["hit_cap"].any()
    with pytest.raises(
        ValueError,
        match="cannot play test_hidden_card.*hidden information.*agents for test_hidden_card: random, ismcts",
    ):
        simulate("test_hidden_card", ["mcts", "random"], 10, progress=False)


def test_frames_save_to_parquet_through_storable(tmp_path):
    df = run(20, max_actions=30, record_actions=True)
    path = tmp_path / "games.parquet"
    storable(df).to_parquet(path)
    back = pd.read_parquet(path)
    assert back.actions.map(list).tolist() == df.actions.map(list).tolist()
    assert back.n_legal.map(list).tolist() == df.n_legal.map(list).tolist()
    assert back.winners.map(tuple).tolist() == df.winners.tolist()
    assert back.winner_agents.map(tuple).tolist() == df.winner_agents.tolist()
    saved = data.load_or_run(tmp_path / "study.parquet", lambda: df)  # studies save their frames
    assert saved is df and (tmp_path / "study.parquet").exists()


def test_seats_draw_from_unrelated_streams():
    """Each seat's seed is the game's seed plus a multiple of the stream's step: unmixed, seat 1
    drew seat 0's numbers one place later in about a quarter of games (random players in lockstep)."""
    from tabletop_lab.agents import RandomAgent
    from tabletop_lab.sim.batch import reset_agents
    from tabletop_lab.streams import next_draw

    def draws(agent, k=12):
        stream, out = agent.stream, []
        for _ in range(k):
            stream, draw = next_draw(stream)
            out.append(draw)
        return out

    for seed in range(2000):
        seats = [RandomAgent(), RandomAgent(), RandomAgent()]
        reset_agents(seats, seed * 7919)
        sequences = [draws(agent) for agent in seats]
        for a in range(3):
            for b in range(3):
                if a != b:
                    assert not set(sequences[a][:6]) & set(sequences[b]), (seed, a, b)
