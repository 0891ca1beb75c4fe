"""``tabletop_lab.analysis``: ``analyse`` finds and proves forced wins, gives proven moves their
exact values, the same analysis from the same seed and only the mover's view in Sinomilia;
``review`` has a row per whole move labelled by its loss; bad input gets clear errors.

The forced wins are checked against a brute force written here (every whole move, no pruning,
no table), in positions met near the end of seeded random games. Budgets are fixed (never time).
"""

from __future__ import annotations

import random

import pytest

from tabletop_lab import ActionError, GameRecord, PositionError, load_game
from tabletop_lab.analysis import COLUMNS, THRESHOLDS, Solver, analyse, label_for, review, solvable

BUDGET = 300  # the expert's simulations: small, the exact search does the work near the end


def _after(state, move):
    after = state.clone()
    after.apply_move(move)
    return after


def _value(state, side):
    """The result of a finished game for ``side`` (a team index): 1, 0.5 or 0."""
    result = state.result()
    if result.is_draw:
        return 0.5
    return 1.0 if state.game.team_of(result.winners[0]) == side else 0.0


def exact(state, side, plies):
    """``side``'s exact value of ``state`` if every line is decided within ``plies`` whole moves
    (or the side to move forces a win, or its opponent one, within them); else ``None``."""
    if state.is_terminal():
        return _value(state, side)
    if plies == 0:
        return None
    mine = state.game.team_of(state.current_player()) == side
    decisive = 1.0 if mine else 0.0
    values = []
    for move in state.legal_moves():  # a decisive move settles the position: stop there
        value = exact(_after(state, move), side, plies - 1)
        if value == decisive:
            return decisive
        values.append(value)
    if None in values:
        return None
    return max(values) if mine else min(values)


def forced_win(state, plies):
    """Whether the player to move forces a win within ``plies`` whole moves."""
    return exact(state, state.game.team_of(state.current_player()), plies) == 1.0


def endgame_positions(name, games, last, **options):
    """Positions of the last ``last`` moves before the end of ``games`` seeded random games."""
    game = load_game(name, **options)
    positions = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        seen = [state.clone()]
        while not state.is_terminal():
            state.apply_move(rng.choice(state.legal_moves()))
            seen.append(state.clone())
        positions += seen[-last - 1 : -1]
    return positions


@pytest.mark.parametrize(
    ("name", "options", "games", "last", "least"),
    [
        ("cross_endodoi", {}, 12, 8, 20),
        ("sinoda", {}, 4, 3, 5),
        ("capitals", {}, 4, 3, 4),
        ("sygo", {"size": 5}, 6, 4, 10),
    ],
)
def test_every_forced_win_within_three_moves_of_the_mover_is_found_and_proven(name, options, games, last, least):
    positions = endgame_positions(name, games, last=last, **options)
    wins = [p for p in positions if forced_win(p, 5)]  # a win in 1, 2 or 3 moves of the player to move
    assert len(wins) >= least, f"{name}: too few forced wins to test ({len(wins)})"
    for position in wins:
        found = analyse(position, budget=BUDGET, seed=1)
        assert found.proven and found.value == 1.0, position
        side = position.game.team_of(position.current_player())
        assert exact(_after(position, found.best_move), side, 4) == 1.0  # the move found wins by force
        assert found.moves[0].move == found.best_move and found.moves[0].proven
        assert found.moves[0].depth <= 5


@pytest.mark.parametrize(
    ("name", "options", "games", "least"),
    [("cross_endodoi", {}, 6, 20), ("sinoda", {}, 6, 20), ("sinoda", {"players": 4, "teams": "pairs"}, 2, 8)],
)
def test_proven_moves_have_their_exact_values(name, options, games, least):
    checked = 0
    for position in endgame_positions(name, games, last=4, **options):
        side = position.game.team_of(position.current_player())
        found = analyse(position, budget=BUDGET, seed=2)
        for entry in found.moves:
            if entry.proven:
                checked += 1
                assert exact(_after(position, entry.move), side, entry.depth - 1) == entry.value, (position, entry)
            else:
                assert entry.value is None or 0.0 <= entry.value <= 1.0
        listed = {entry.move for entry in found.moves}
        assert listed == set(position.legal_moves()) and found.move_count == len(listed)
    assert checked >= least


def test_the_same_seed_gives_the_same_analysis_and_another_seed_may_not():
    state = endgame_positions("sinoda", 1, last=30)[0]
    first = analyse(state, budget=500, seed=4, nodes=0)
    assert analyse(state, budget=500, seed=4, nodes=0) == first
    assert first.best_move in state.legal_moves() and first.line[0] == first.best_move
    assert first.simulations >= first.budget == 500
    others = {analyse(state, budget=500, seed=s, nodes=0).moves for s in range(5, 8)}
    assert others != {first.moves}  # the seed reaches the search


def test_multi_action_moves_are_whole_moves():
    game = load_game("sygo", size=5)
    state, rng = game.new_initial_state(), random.Random(3)
    for _ in range(6):
        state.apply_move(rng.choice(state.legal_moves()))
    found = analyse(state, budget=400, seed=0, nodes=0)
    legal = state.legal_moves()
    assert found.move_count == len(legal) and sorted(m.move for m in found.moves) == sorted(legal)
    actions = {m.move: len(_after(state, m.move).history()) - len(state.history()) for m in found.moves}
    assert any(actions[m.move] > 1 for m in found.moves if m.visits)  # searched moves of several actions
    assert analyse(state, budget=400, seed=0, nodes=0, top=5).moves == found.moves[:5]
    replay = state.clone()
    for move in found.line:  # the line plays out move by move
        replay.apply_move(move)


def test_capitals_values_are_for_the_movers_team():
    state = load_game("capitals").new_initial_state()
    found = analyse(state, budget=400, seed=0, nodes=50)
    assert found.side == (0, 2) and found.player == 0 and found.solver_nodes > 0
    assert found.best_move in state.legal_moves()
    frame = found.to_frame()
    assert list(frame.columns) == ["move", "value", "visits", "depth", "proven"]
    assert list(frame["move"]) == [m.move for m in found.moves] and frame["value"].between(0, 1).all()


def test_no_exact_search_where_there_is_no_single_result_to_prove():
    state = load_game("sinoda", players=3).new_initial_state()
    found = analyse(state, budget=300, seed=0)
    assert found.side == (0,) and found.solver_nodes == 0 and not any(m.proven for m in found.moves)
    assert solvable(state.game) is not None and "3 sides" in solvable(state.game)
    with pytest.raises(ValueError, match="cannot be solved exactly"):
        Solver(state.game)


def test_sinomilia_analysis_reads_only_what_the_player_to_move_sees():
    game = load_game("sinomilia")
    analyses = []
    for hidden in (6, 2):
        state = game.new_initial_state()
        state.apply_move("set 4")
        state.apply_move(f"set {hidden}")
        assert state.observation(0)["set"] == [4, "?"]
        analyses.append(analyse(state, budget=300, seed=9))
    assert analyses[0] == analyses[1]
    assert not analyses[0].proven and analyses[0].solver_nodes == 0


def test_bad_input_is_refused_clearly():
    game = load_game("cross_endodoi")
    state = game.new_initial_state()
    over = endgame_positions("cross_endodoi", 1, last=1)[0]
    over.apply_move(over.legal_moves()[0])
    cases = [
        ((over,), {}, "game is over"),
        (("0,0,0",), {}, "must be a tabletop_lab State"),
        ((state,), {"budget": 0}, "budget must be an integer >= 1"),
        ((state,), {"budget": 10**7}, "budget must be an integer >= 1 and <= 1000000"),
        ((state,), {"budget": 2.5}, "budget must be an integer"),
        ((state,), {"seconds": -1}, "seconds must be a number > 0"),
        ((state,), {"seconds": 0}, "seconds must be a number > 0"),
        ((state,), {"seconds": 1, "budget": 100}, "give seconds or budget, not both"),
        ((state,), {"top": 0}, "top must be an integer >= 1"),
        ((state,), {"seed": "x"}, "seed must be an integer"),
        ((state,), {"nodes": -5}, "nodes must be an integer >= 0"),
    ]
    for args, kwargs, message in cases:
        with pytest.raises(ValueError, match=message) as caught:
            analyse(*args, **kwargs)
        assert len(str(caught.value)) < 300
    growing = load_game("sygo", size=5).new_initial_state()
    growing.apply_move("place a1")
    growing.apply_move("place e5")
    growing.apply_action(growing.string_to_action("grow b1"))  # the first stone of a growth move
    with pytest.raises(ValueError, match="a move is in progress"):
        analyse(growing)


# ----------------------------------------------------------------------------- review


def _random_record(name, seed, moves, **options):
    game = load_game(name, **options)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal() and len(state.move_history()) < moves:
        state.apply_move(rng.choice(state.legal_moves()))
    return GameRecord.from_state(state, seed=seed), state


@pytest.mark.parametrize(("name", "options"), [("cross_endodoi", {}), ("sygo", {"size": 5})])
def test_review_has_a_row_per_whole_move_labelled_by_its_loss(name, options):
    record, final = _random_record(name, 3, 12, **options)
    frame = review(record, budget=200, nodes=200, seed=1, progress=False)
    moves = final.move_history()
    assert name != "sygo" or len(record.actions) > len(moves)  # growth moves take several actions
    assert list(frame.columns) == list(COLUMNS)
    assert list(frame["played"]) == moves and list(frame["move"]) == list(range(1, len(moves) + 1))
    for row in frame.itertuples():
        before = record.replay(upto=row.action)
        assert not before.mid_turn() and before.current_player() == row.player
        assert row.best_move in before.legal_moves()
        assert row.value_before == row.best_value and 0 <= row.value_after <= 1
        assert row.loss >= 0 and row.label == label_for(row.loss)
        if row.played == row.best_move:
            assert row.loss == 0
        else:
            assert row.loss == pytest.approx(max(0.0, row.best_value - row.played_value))
    if final.is_terminal():  # the last move's value after is the game's result for its mover
        last = frame.iloc[-1]
        winners = final.result().winners
        assert last.value_after in (0.0, 0.5, 1.0) and (last.value_after == 1.0) == (last.player in winners)
    counted = []
    again = review(record, budget=200, nodes=200, seed=1, progress=lambda done, total: counted.append((done, total)))
    assert again.equals(frame)  # the same seed, the same review
    assert counted[-1][0] == counted[-1][1] == len(moves) + (not final.is_terminal())  # positions analysed


def test_review_labels_follow_the_documented_thresholds():
    assert [label_for(x) for x in (0.0, 0.019, 0.02, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 1.0)] == [
        "best", "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]  # fmt: skip
    assert dict(THRESHOLDS) == {"best": 0.02, "good": 0.05, "inaccuracy": 0.10, "mistake": 0.20}


def test_review_refuses_bad_input_clearly():
    record, _ = _random_record("cross_endodoi", 1, 4)
    broken = GameRecord(game=record.game, options=record.options, actions=[*record.actions, "99"])
    cases = [
        ("not a record", {}, PositionError, "record must be a GameRecord"),
        ({"game": "cross_endodoi"}, {}, PositionError, "at least 'game', 'options' and 'actions'"),
        (broken, {}, ActionError, r"actions\[4\]"),
        (record, {"budget": 0}, ValueError, "budget must be an integer >= 1"),
        (record, {"nodes": -1}, ValueError, "nodes must be an integer >= 0"),
        (record, {"progress": "yes"}, ValueError, "progress must be True, False or a callable"),
    ]
    for given, kwargs, error, message in cases:
        with pytest.raises(error, match=message) as caught:
            review(given, **{"progress": False, **kwargs})
        assert len(str(caught.value)) < 300


def test_the_notebooks_view_of_an_analysis():
    """``view``: the summary names the best move, its side and its line; the table is indexed by
    move with a ``win chance``; the figure has one bar per valued move shown, best at the top."""
    import matplotlib.pyplot as plt

    from tabletop_lab.analysis.view import moves_table, plot_moves, summary

    state = load_game("cross_endodoi").state_from_notation("0,0,0,0,0,1/0,0,0,0,0,1 20-14 0")
    found = analyse(state, budget=BUDGET)
    text = summary(found, state.game.info.player_names)
    assert f"`{found.best_move}`" in text and "100%" in text and "proven" in text
    assert state.game.info.player_names[0] in text
    table = moves_table(found)
    assert list(table.index) == [m.move for m in found.moves] and table.loc[found.best_move, "win chance"] == 1.0
    sinoda = load_game("sinoda", players=4, teams="pairs").new_initial_state()
    found, names = analyse(sinoda, budget=BUDGET, top=12), sinoda.game.info.player_names
    assert f"{names[found.side[0]]} and {names[found.side[1]]}" in summary(found, names)  # a team of two
    six = load_game("sinoda", players=6, teams="triples").new_initial_state()
    assert f"for {names[0]}, {names[2]} and {names[4]}" in summary(analyse(six, budget=BUDGET, top=3), names)
    ax = plot_moves(found, top=5)
    heights = [bar.get_width() for bar in ax.patches]
    valued = [m.value for m in found.moves if m.value is not None][:5]
    assert heights == valued[::-1] and len(heights) == 5
    plt.close("all")
