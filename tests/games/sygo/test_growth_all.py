"""Sygo ``growth="all"``: the no-dead-end test (``growth.Turn.completable_all``), its exact search
(``Turn._search_maximal``) against a search of every reachable move, its safety net (the engine
parameter ``all_search_limit``) and replays of games whose stones a small limit cannot prove.

``POSITION`` is the 9x9 position of ``Turn.completable_all``'s docstring; ``FLIPPED`` is it upside
down. The old step 3 (every reachable growth set, 5,000 at most) withheld ``grow i8`` there
although ``grow e9 i8 b6 e6 h6 b3 e3 h3`` is legal; the search offers it. A limit of ``TINY``
states still withholds it, even from a fresh ``legal_actions()`` (no other stone's witness
contains it), which the tests of the safety net use. Enumerating the whole moves there is not
affordable (more than 10,000 growth sets), so stone by stone is compared with ``legal_moves()``
on random small-board positions instead. ``PAST_THE_OLD_LIMIT`` are turns in progress met in
random and greedy play on 9x9 and 13x13 where the old step 3 ran out of its 5,000 sets;
``HARD_TURNS`` are turns where earlier versions of the search ran past the limit.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_lab import EnumerationLimitError, GameRecord, IllegalActionError, RulesError, load_game

from .test_properties import moves_stone_by_stone, random_position

POSITION = "........./.W..W..W./........./........./.W..W..W./........./........W/...BBBBB./...W.W.WB W g 0"
FLIPPED = "...W.W.WB/...BBBBB./........W/........./.W..W..W./........./........./.W..W..W./......... W g 0"
TINY = 5  # all_search_limit: states, fewer than the FLIPPED position's first stone needs
FLIPPED_MOVE = ["grow i8", "grow e9", "grow b6", "grow e6", "grow h6", "grow b3", "grow e3", "grow h3", "finish"]


def position(notation, **params):
    return load_game("sygo", size=9, growth="all", **params).state_from_notation(notation)


def offered(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, texts):
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


# --- the engine parameter -------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, -5, True, 2.5, "5000", [1], 2**70])
def test_bad_search_limits_are_refused_naming_the_parameter(value):
    with pytest.raises(RulesError) as info:
        load_game("sygo", growth="all", all_search_limit=value)
    message = str(info.value)
    assert "all_search_limit" in message and "a positive integer, or None (no limit)" in message


def test_the_search_limit_is_an_engine_parameter_not_a_rule():
    game = load_game("sygo", size=9, growth="all", all_search_limit=None)
    assert "all_search_limit" not in game.options and game.params["all_search_limit"] is None
    assert load_game("sygo").params["all_search_limit"] == 5000
    assert game != load_game("sygo", size=9, growth="all")
    assert "all_search_limit=None" in repr(game)
    assert load_game("sygo", all_search_limit=1).params["all_search_limit"] == 1


# --- exact mode -----------------------------------------------------------------------------


def test_the_search_offers_the_stones_the_old_enumeration_withheld():
    state = position(FLIPPED)
    assert "grow i8" in offered(state)
    play(state, FLIPPED_MOVE)
    assert state.move_history() == ["grow b3 e3 h3 b6 e6 h6 i8 e9"]
    fresh = position(POSITION)
    assert fresh._reason(fresh.string_to_action("grow i2")) is None
    assert "grow i8" not in offered(position(FLIPPED, all_search_limit=TINY))


def test_a_stone_offered_is_accepted_before_the_listing_too():
    """Past the limit, a fresh state still accepts ``grow i2``: its own search cannot prove it,
    but ``legal_actions()`` offers it (a witness found for ``grow e1``), and ``apply_action``
    accepts what is offered."""
    state = position(POSITION, all_search_limit=TINY)
    assert state._reason(state.string_to_action("grow i2")) is not None
    play(state, ["grow i2"])
    assert state.move_in_progress() == ["grow i2"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 5), st.booleans(), st.integers(0, 10**6), st.integers(0, 40))
def test_exact_mode_stone_by_stone_is_the_legal_moves(size, balancing, seed, steps):
    options = {"size": size, "growth": "all", "balancing": balancing, "all_search_limit": None}
    state = random_position(options, seed, steps)
    if state is not None:
        assert sorted(moves_stone_by_stone(state)) == sorted(state.legal_moves())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 5), st.booleans(), st.sampled_from([1, 3]), st.integers(0, 10**6), st.integers(0, 40))
def test_a_tiny_limit_leaves_no_dead_end_and_accepts_exactly_what_it_offers(size, balancing, limit, seed, steps):
    """With a limit of 1 or 3 states the search nearly always gives up, so what is offered
    rests on the witnesses: still no dead end, only legal moves, and ``apply_action`` accepts a
    growth stone exactly when ``legal_actions()`` offers it."""
    options = {"size": size, "growth": "all", "balancing": balancing, "all_search_limit": limit}
    state = random_position(options, seed, steps)
    if state is None:
        return
    assert set(moves_stone_by_stone(state)) <= set(state.legal_moves())
    partial = state
    rng = random.Random(seed)
    while True:
        listed = partial.legal_actions()
        grow = state.geom.points + 2
        for p in range(state.geom.points):
            try:
                partial.clone().apply_action(grow + p)
                accepted = True
            except IllegalActionError:
                accepted = False
            assert accepted == (grow + p in listed), (partial.move_in_progress(), p)
        stones = [a for a in listed if a >= grow]
        if not stones:
            return
        partial = partial.child(rng.choice(stones))


def test_the_list_is_closed_under_the_witnesses_it_found():
    """Found in random play with a limit of 1: ``grow d1`` fails its own check, but a witness found
    for a later stone of the list reaches it, so it is offered (and accepted) too."""
    game = load_game("sygo", size=7, growth="all", all_search_limit=1)
    notation = ".BWWW.W/.WWBW.W/.WWBBWW/BBW.BBW/BWBBBB./BWWBWWW/WWW.BWW W g 1"
    fresh = game.state_from_notation(notation)
    assert fresh._reason(fresh.string_to_action("grow d1")) is not None
    assert "grow d1" in offered(game.state_from_notation(notation))
    assert play(game.state_from_notation(notation), ["grow d1"]).mid_turn()


def test_what_a_replay_foresees_is_offered_too():
    state = position(FLIPPED, all_search_limit=TINY)
    assert "grow i8" not in offered(state)
    state.foresee(FLIPPED_MOVE)
    assert "grow i8" in offered(state)


# --- replays --------------------------------------------------------------------------------


def test_a_record_replays_past_the_search_limit():
    """Played in exact mode, the game replays from its record (``GameRecord`` keeps options, not
    engine parameters) and, move by move, under a limit that refuses the first stone on its own."""
    with pytest.raises(IllegalActionError, match="no maximal growth move"):
        play(position(FLIPPED, all_search_limit=TINY), ["grow i8"])
    state = play(position(FLIPPED, all_search_limit=None), FLIPPED_MOVE + ["pass", "pass"])
    assert state.is_terminal()
    record = GameRecord.from_json(GameRecord.from_state(state).to_json())
    replayed = record.replay()
    assert replayed.history() == state.history() and replayed.notation() == state.notation()
    assert record.replay(upto=3).move_in_progress() == FLIPPED_MOVE[:3]
    assert [s.snapshot() for s in record.states()] == [s.snapshot() for s in _states(state)]
    moves = state.move_history()
    assert moves == ["grow b3 e3 h3 b6 e6 h6 i8 e9", "pass", "pass"]
    by_moves = position(FLIPPED, all_search_limit=TINY)
    for move in moves:
        by_moves.apply_move(move)
    assert by_moves.notation() == state.notation() and by_moves.move_history() == moves


def test_a_record_cut_inside_a_turn_replays():
    state = play(position(FLIPPED, all_search_limit=None), FLIPPED_MOVE[:2])
    replayed = GameRecord.from_state(state).replay()
    assert replayed.move_in_progress() == FLIPPED_MOVE[:2] and replayed.snapshot() == state.snapshot()


def _states(state):
    """Every state from the start, replayed in exact mode (where every stone is provable)."""
    replay = state.game.state_from_dict(state.start_position())
    states = [replay.clone()]
    for action in state.history():
        replay.apply_action(action)
        states.append(replay.clone())
    return states


def test_the_docstring_game_replays():
    state = position(POSITION, all_search_limit=TINY)
    offered(state)
    play(state, ["grow i2", "grow e1", "grow b4", "grow e4", "grow h4", "grow b7", "grow e7", "grow h7", "finish"])
    assert state.move_history() == ["grow e1 i2 b4 e4 h4 b7 e7 h7"]
    assert GameRecord.from_state(state).replay().notation() == state.notation()


def test_foresight_of_an_illegal_or_unfinished_turn_proves_nothing():
    for ahead in (["grow i8"], FLIPPED_MOVE[:-2] + ["finish"], ["grow i8", "grow i8", "finish"], ["pass"], []):
        state = position(FLIPPED, all_search_limit=TINY)
        state.foresee(ahead)
        with pytest.raises(IllegalActionError, match="no maximal growth move"):
            play(state, ["grow i8"])
    state = position(FLIPPED, all_search_limit=TINY)
    state.foresee(iter(FLIPPED_MOVE + ["pass"]))
    play(state, FLIPPED_MOVE)
    assert not state.mid_turn()


# --- the exact pre-check --------------------------------------------------------------------


def partial_turns(options, seed, steps):
    """Turns in progress from random play: (state's turn analysis, node after each valid stone)."""
    state = random_position(options, seed, steps)
    if state is None:
        return
    rng = random.Random(seed)
    turn = state.turn
    while True:
        node = state._current_node()
        for p in range(state.geom.points):
            if turn.grow_problem(node, p) is None:
                yield turn, turn.step(node, p)
        stones = [a for a in state.legal_actions() if state._decode(a)[0] == 3]
        if not stones or rng.random() < 0.3:
            return
        state.apply_action(rng.choice(stones))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.booleans(), st.integers(0, 10**6), st.integers(0, 40))
def test_the_pre_check_and_the_exact_mode_answer_as_a_full_search(size, balancing, seed, steps):
    """Some end passes ``completable`` exactly when a legal move can be reached (so step 2's no
    is exact), and without a limit ``completable_all`` is a search of every reachable move."""
    options = {"size": size, "growth": "all", "balancing": balancing, "all_search_limit": None}
    for turn, node in partial_turns(options, seed, steps):
        reachable = turn._any_moves(node, float("inf"), RuntimeError)
        some_end = any(turn.completable(node, 0, "none" if q is None else "fixed", q) for q in turn.ends(node))
        assert some_end == bool(reachable)
        assert turn.completable_all(node) == any(turn.extension(grown, q) is None for grown, q in reachable)


# --- the exact search -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 7), st.booleans(), st.integers(0, 10**6), st.integers(0, 80))
def test_the_search_finds_a_maximal_move_exactly_when_a_full_search_does(size, balancing, seed, steps):
    """For every end of every turn in progress (the greedy growth before it left out), the
    search returns a reachable, legal, maximal move exactly when one of the reachable moves is
    maximal."""
    options = {"size": size, "growth": "all", "balancing": balancing, "all_search_limit": None}
    for turn, node in partial_turns(options, seed, steps):
        reachable = turn._any_moves(node, float("inf"), RuntimeError)
        for q in turn.ends(node):
            maximal = any(turn.extension(grown, q) is None for grown, end in reachable if end == q)
            grown = turn._search_maximal(node, q, [float("inf")])
            assert (grown is not None) == maximal, (turn.geom.size, node, q)
            if grown is not None:
                assert turn._reachable(node, grown) and turn._ends_legally(grown, q)
                assert turn.extension(grown, q) is None


#: (position, growth stones of a turn in progress, the next stone) met in random and greedy play
#: on 9x9 and 13x13, where the old step 3 ran past its 5,000 growth sets for the next stone
PAST_THE_OLD_LIMIT = [
    (".B.WWBWWW/.WWB..W.B/WBW.WWB.W/W.B..B.BW/..WW..WB./.B..BBWWW/BW..W..WB/.WBBW.BW./.BWW.WWB. W g 0", [], "b6"),
    (".B.WWBWWW/.WWB..W.B/WBW.WWB.W/W.B..B.BW/..WW..WB./.B..BBWWW/BW..W..WB/.WBBW.BW./.BWW.WWB. W g 0", [], "g6"),
    (
        "W..WBW.WB/W.BW.W.W./BW.B..B../.W...W..W/.WBWBW.BW/..WW..BWW/WW..BW..B/.B..WW.../.WWB..BWW W g 0",
        ["e8", "i8"],
        "c6",
    ),
    ("BB.W.WW.B/BWBWB.BWW/.W...WW.B/.BWBWWWBB/W.W.WW..B/W.WW.WBW./.B.BWB.W./BWBW..WBW/.W.WB.W.W W g 0", [], "c3"),
    ("BBBW..BB./BW.BB..W./WBBBB..BB/.B.BBWBBB/..BW..BB./W.BB...BW/WW.W.BWB./WBBB.B.WB/BB.W.B..B W g 0", [], "c8"),
    (
        "......WB...../B..B..WW..W../B......W..W.B/....B.......B/.W.....BB..B./.WW.WWB....BW/.WBBWWB.WW.WW/"
        ".W.......W..W/..WW.....W..W/.BW..WW...WWB/.B......WWW../W.....B....BW/WBB...B.B..BW W g 0",
        ["d4", "g5", "k7"],
        "m3",
    ),
    (
        "WWW.....WWB../.W.WB.WWWWBWW/.WWWBB..W.WWB/WW.BB.WBBWWBB/WW..WWWWBBBB./B..WWWWWW.BBB/B.BWBBB..WWWW/"
        "B.B.BWWB.WW.W/B.B.B.BBBWWBB/B.BB..B.B..../WW.B.WB.BWW../BWWBWWB..WWW./B..B.BB...W.. W g 0",
        ["h7"],
        "l13",
    ),
]


@pytest.mark.parametrize("notation, prefix, stone", PAST_THE_OLD_LIMIT)
def test_past_the_old_limit_the_stone_is_offered_exactly_when_a_maximal_move_follows(notation, prefix, stone):
    game = load_game("sygo", size=notation.index("/"), growth="all")
    state = play(game.state_from_notation(notation), ["grow " + p for p in prefix])
    turn = state.turn
    after = turn.step(state._current_node(), state.geom.index[stone])
    reachable = turn._any_moves(after, float("inf"), RuntimeError)
    maximal = any(turn.extension(grown, q) is None for grown, q in reachable)
    assert ("grow " + stone in offered(state)) == maximal


#: turns in progress met in greedy play on 9x9 and 13x13 where earlier versions of the search ran
#: past the limit: after ``grow c8`` on the first, every legal move is extended by ``b8``, which
#: captures ``a8`` once ``b7`` has grown ``a7`` (some 27,000 states before ``movable``)
HARD_TURNS = [
    ("WWBWB.WWW/B..W..WW./W....B..B/WB..W..../.WWBWW.WW/..W..B.../.B....WBW/WW.BWBW.W/WW..W.... W g 0", [], "c8"),
    (
        "..WWWWW...WBB/.BWW.WWB.WW.B/.WWBBW..WB.WW/WB...W..WW.BW/WW.WW.BB..WW./.B..W.WWW.BW./.WW.B..BBWWWB/"
        "..WBWWWW.W.../WB...B.W..B../WW.WW.BW.WBWW/B.WBWBW..W.WW/..W.BWW.BW.WW/.BW..WWWW..BW W g 0",
        ["l12"],
        "d2",
    ),
    (
        ".W.....WW..../.WBWW.WWW..WW/...BW.WW.W.B./WBWW...BWWBW./WWWB..WW.B.W./.WBWW.WWW..W./....W..WW..B./"
        ".WW..B.B..W.W/.BWB.WWW..W.W/.......B....W/BWW..B.WWBWB./.WBW.WBW..WW./...W.W....B.. W g 0",
        [],
        "g10",
    ),
    (
        "W...WBWW...B./WBWWW..BWW.W./WW.BWW.WWBWWW/.B.WWB.B..WW./WW.B..WW...B./.B.WW..B.WW../.W..BW.WWBWBW/"
        "BWB.WW.B....W/WBBBWBWW.B.WB/W.B...WB.WBW./...W...WWW.B./BWBWBW.B.BWW./.W...WBWW..B. W g 0",
        [],
        "f12",
    ),
]


@pytest.mark.parametrize("notation, prefix, stone", HARD_TURNS)
def test_the_default_limit_decides_the_hardest_turns_met_as_exact_mode(notation, prefix, stone):
    answers = []
    for limit in (5000, None):
        game = load_game("sygo", size=notation.index("/"), growth="all", all_search_limit=limit)
        state = play(game.state_from_notation(notation), ["grow " + p for p in prefix])
        answers.append("grow " + stone in offered(state))
    assert answers[0] == answers[1]


# --- the enumeration limit (spec Decision 14) -----------------------------------------------

#: 14 legal whole moves under growth="all", above 79 "any" growth sets
SMALL = "B..B./.W.B./B.BB./WW.WB/BBB.. B - 0"
#: 761 legal whole moves under growth="all", above 24,928 "any" growth sets
WIDE = "BWB.BB./..BWB../..B..../.BW.BW./BW..W.W/...WW.B/.B.BB.. B - 0"


def fresh(notation, growth="all"):
    return load_game("sygo", size=notation.index("/"), growth=growth).state_from_notation(notation)


def answer(state, limit):
    try:
        return len(state.legal_moves(limit=limit))
    except EnumerationLimitError:
        return "refused"


def test_the_limit_counts_legal_whole_moves_not_the_growth_sets_below_them():
    assert answer(fresh(SMALL), 50) == 14
    assert answer(fresh(SMALL), 14) == 14 and answer(fresh(SMALL), 13) == "refused"
    assert answer(fresh(WIDE, growth="any"), None) > 10_000  # so "all" must not count these
    assert answer(fresh(WIDE), 10_000) == answer(fresh(WIDE), 761) == 761
    assert answer(fresh(WIDE), 760) == "refused"


@pytest.mark.parametrize("notation, count", [(SMALL, 14), (WIDE, 761)])
def test_no_answer_depends_on_what_was_asked_before(notation, count):
    orders = [(count - 1, None, count - 1, count), (None, count, count - 1), (count, count - 1, None)]
    for limits in orders:
        state = fresh(notation)
        state.legal_actions()
        got = [answer(state, limit) for limit in limits]
        assert got == [count if limit is None or limit >= count else "refused" for limit in limits], limits


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 6), st.booleans(), st.booleans(), st.integers(0, 10**6))
def test_the_listed_moves_are_the_growth_sets_no_legal_move_extends(size, balancing, white, seed):
    """On random boards (not only positions of play), the search lists exactly the maximal "any" moves."""
    rng = random.Random(seed)
    rows = "/".join("".join(rng.choice("BBW....." if white else "BWW.....") for _ in range(size)) for _ in range(size))
    try:
        state = load_game("sygo", size=size, growth="all", balancing=balancing).state_from_notation(f"{rows} B - 0")
    except ValueError:
        return  # a group without liberties
    turn = state.turn
    every = turn._any_moves(turn.root, float("inf"), RuntimeError)
    assert sorted(turn.maximal_moves(float("inf"), RuntimeError), key=str) == sorted(
        (move for move in every if turn.extension(*move) is None), key=str
    )
