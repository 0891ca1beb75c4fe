"""The play session without its view: who may see what, takebacks, the hand-over, Load, records.

The oracle: two deals that differ only in a card hidden from the viewer give the viewer
identical session views (``PlaySession.view()``, everything the screen shows) until the reveal,
for every sequence below: a seat switched to an agent and back, two people handing the screen
over, takebacks, and Load. Agents run under a real event loop where the order of their replies
matters (each reply is one view), else at once.
"""

from __future__ import annotations

import asyncio
import json

import pytest

import tests.toy_hidden
import tests.widgets.toy_secret  # noqa: F401  (registers test_secret_pick)
from tabletop_lab import GameRecord, load_game
from tabletop_lab.errors import PositionError
from tabletop_lab.records import RECORD_VERSION
from tabletop_lab.session import PlaySession
from tests.sinomilia_rounds import PublicAgent, sinomilia_round

GAMES = ("capitals", "cross_endodoi", "sinoda", "sinomilia", "sygo")


def hidden_card(deal: int):
    return load_game("test_hidden_card", cards=4, deal=deal).new_initial_state()


def secret_pick(pick: str):
    return load_game("test_secret_pick").state_from_json(
        json.dumps({"game": "test_secret_pick", "pick": pick, "guess": None})
    )


def trace(start, seats, steps, *, loop: bool = False, seed: int = 3) -> list:
    """Run ``steps`` (callables on the session) on a session from ``start``, agents replying in
    a thread under a running loop when ``loop``; every view shown, with the move of the last
    reveal when it was shown (0: nothing revealed yet), and each step's refusal."""

    async def run():
        session = PlaySession(start.game, seats, start, seed=seed, loop=asyncio.get_running_loop() if loop else None)
        session.THINK_DELAY_SECONDS = 0
        views = [(session.view(), session.reveal_at)]
        session.subscribe(lambda: views.append((session.view(), session.reveal_at)))
        session.run_agents()
        for step in steps:
            while session.busy:
                await asyncio.sleep(0.001)
            try:
                step(session)
            except ValueError as exc:
                views.append(("refused", str(exc)))
        while session.busy:
            await asyncio.sleep(0.001)
        return session, views

    return asyncio.run(run())


def before_reveal(views: list) -> list:
    """The views shown before any reveal."""
    kept = []
    for entry in views:
        if entry[0] != "refused" and entry[1]:
            break
        kept.append(entry)
    return kept


def assert_same_until_reveal(first: list, second: list, viewer: int | None = None) -> None:
    """The viewer's views agree until the reveal (with ``viewer``, only those shown to that seat
    or behind the curtain), and each run shows something before it."""
    a, b = before_reveal(first), before_reveal(second)
    if viewer is not None:
        a = [v for v in a if v[0] == "refused" or v[0].viewer == viewer or v[0].curtain is not None]
        b = [v for v in b if v[0] == "refused" or v[0].viewer == viewer or v[0].curtain is not None]
    assert len(a) > 1 and a == b


def play(move: str):
    return lambda session: session.play_actions(session.actions_of(move))


def seat(index: int, spec):
    return lambda session: session.set_seat(index, spec)


def ready(session):
    session.ready()


def undo(session):
    session.undo()


# --- 1. a seat switched to an agent mid-round, and back ---------------------------------------


@pytest.mark.parametrize("back", [False, True], ids=["to-agent", "and-back"])
def test_switching_your_seat_to_an_agent_never_shows_the_other_card(back):
    steps = [play("chip sun"), seat(0, "random")]
    if back:
        steps += [seat(0, "human"), play("chip moon")]
    runs = [trace(sinomilia_round(green), ["human", PublicAgent(seed=1)], steps, loop=True) for green in (3, 7)]
    for session, views in runs:
        assert session.viewer == 0  # the last human at the screen keeps it
        for view, _ in before_reveal(views):
            assert view.viewer == 0 and view.curtain is None
            assert json.loads(view.position)["set"][1] in ("?", None)
            assert all("set 3" not in m and "set 7" not in m for m in view.moves)
    assert_same_until_reveal(runs[0][1], runs[1][1])
    if not back:  # the agents played on to the end, and everything after the reveal is Orange's view
        session = runs[0][0]
        assert session.state.is_terminal() and session.view().you == "You are Orange (an agent plays your seat)"


def test_switching_the_toy_seat_to_an_agent_and_back_keeps_no_knowledge():
    for steps in ([play("check"), seat(0, "random")], [seat(0, "random"), seat(0, "human"), play("bet")]):
        runs = [trace(hidden_card(deal), ["human", "random"], steps, loop=True) for deal in (4, 7)]  # card 1 vs 3
        assert_same_until_reveal(runs[0][1], runs[1][1])
        for _session, views in runs:
            assert all(entry[0].viewer == 0 for entry in views if entry[0] != "refused")


def test_agents_alone_show_the_last_viewers_view_not_everything():
    session = PlaySession(load_game("test_hidden_card", cards=4, deal=7), ["random", "random"], seed=0)
    assert session.viewer == 0 and session.view().viewer == 0
    human_then_none = PlaySession(load_game("test_secret_pick"), ["random", "human"], seed=0)
    human_then_none.run_agents()
    assert human_then_none.viewer == 1
    human_then_none.set_seat(1, "random")  # the guess reveals, but nobody else takes the screen
    assert human_then_none.state.is_terminal() and human_then_none.viewer == 1


# --- 2. behind the hand-over curtain nothing but Ready works -------------------------------------


def test_behind_the_curtain_only_ready_works():
    session = PlaySession(load_game("sinomilia"), ["human", "human"])
    assert session.handing_over == 0 and session.view().enabled == {"ready"}
    session.ready()
    session.play_actions(session.actions_of("set 6"))
    view = session.view()
    assert view.curtain == 1 and view.enabled == {"ready"}
    assert view.handover == "Hand the screen to Green, then press Ready"
    assert view.moves == () and view.position == "" and view.actions == () and not view.loadable
    refusals = (
        session.undo,
        session.redo,
        lambda: session.jump(0),
        session.new_game,
        session.show_all_cards,
        session.agent_move,
        lambda: session.set_seat(1, "random"),
        lambda: session.load(sinomilia_round(3).to_json()),
        lambda: session.play_actions([0]),
    )
    for refused in refusals:
        with pytest.raises(ValueError, match="hand the screen to Green, who presses Ready first"):
            refused()
        assert session.handing_over == 1 and session.view() == view  # nothing changed, nothing shown
    session.ready()
    assert session.viewer == 1 and "undo" in session.view().enabled


def test_the_curtain_shows_the_same_whatever_the_hidden_cards():
    steps = [ready, play("chip sun"), undo, ready, play("chip moon"), ready, play("pass")]
    runs = [trace(sinomilia_round(green), ["human", "human"], steps) for green in (3, 7)]
    assert_same_until_reveal(runs[0][1], runs[1][1], viewer=0)
    runs = [trace(sinomilia_round(3, orange=orange), ["human", "human"], steps) for orange in (2, 8)]
    assert_same_until_reveal(runs[0][1], runs[1][1], viewer=1)


def test_a_human_taking_a_seat_from_an_agent_gets_the_screen_through_ready():
    session = PlaySession(load_game("test_hidden_card", cards=4, deal=7), ["human", "random"], seed=0)
    session.set_seat(0, "random")  # nobody human: the screen stays Player 0's
    session.new_game()
    session.set_seat(1, "human")
    assert session.viewer == 0 and session.handing_over == 1  # Player 1 must not see Player 0's card


# --- 3. takebacks stop at the last reveal --------------------------------------------------------


@pytest.mark.parametrize("seats", [["human", "agent"], ["human", "human"]])
def test_takebacks_stop_at_the_last_reveal(seats):
    start = sinomilia_round(3, table=(8, 0))  # the next chip ends the round
    specs = [spec if spec == "human" else PublicAgent(seed=0) for spec in seats]
    session = PlaySession(start.game, specs, start)
    if session.handing_over is not None:
        session.ready()
    session.play_actions(session.actions_of("chip sun"))  # round 1 ends: both cards are shown
    assert session.state.to_dict()["round"] == 2 and session.reveal_at == 1
    if session.handing_over is not None:
        session.ready()
    with pytest.raises(ValueError, match=r"Takebacks stop at the last reveal \(move 1\)"):
        session.undo()
    with pytest.raises(ValueError, match="Takebacks stop at the last reveal"):
        session.jump(0)
    assert session.state.to_dict()["round"] == 2 and "undo" in session.view().enabled  # enabled, to say why
    mover = session.state.current_player()
    if session.agents[mover] is None:  # a move after the reveal can be taken back to it, no further
        session.play_actions(session.actions_of("set 0"))
        if session.handing_over is not None:
            session.ready()
        session.undo()
        assert session.pos == 1
        if session.handing_over is not None:
            session.ready()
        with pytest.raises(ValueError, match="Takebacks stop"):
            session.undo()


def test_perfect_information_takebacks_go_back_to_the_start():
    session = PlaySession(load_game("cross_endodoi"), ["human", "random"], seed=1)
    for _ in range(3):
        session.play_actions([session.state.legal_actions()[0]])
    while session.pos:
        session.undo()
    assert session.state.history() == [] and session.reveal_at == 0


def test_the_toy_showdown_is_a_reveal_but_a_fold_is_not():
    game = load_game("test_hidden_card", cards=4, deal=7)
    showdown = PlaySession(game, ["human", "human"])
    fold = PlaySession(game, ["human", "human"])
    for session, moves in ((showdown, ["check", "check"]), (fold, ["bet", "fold"])):
        for move in moves:
            session.ready()
            session.play_actions(session.actions_of(move))
        session.ready() if session.handing_over is not None else None
    assert showdown.reveal_at == 2 and fold.reveal_at == 0  # the second check showed the cards
    with pytest.raises(ValueError, match="Takebacks stop"):
        showdown.undo()
    fold.undo()
    assert fold.state.history_strings() == ["bet"]


# --- 4. what the Position box shows, Load accepts -----------------------------------------------


def test_load_takes_the_viewers_observation_and_deals_the_hidden_cards_from_a_seed():
    start = sinomilia_round(3)
    session = PlaySession(start.game, ["human", PublicAgent(seed=0)], start)
    session.play_actions(session.actions_of("chip sun"))
    text, loadable = session.position_text()
    seen = json.loads(text)
    assert loadable and seen == session.state.observation(0) and seen["set"] == [6, "?"]
    session.load(text, seed=11)
    assert session.notice == "Loaded Orange's view: the cards hidden from it were dealt afresh from seed 11"
    assert session.view().notice == session.notice
    loaded = session.state.observation(0)
    assert {**loaded, "last_round": None} == {**seen, "last_round": None}  # a position has no round report
    cards = {PlaySession(start.game, ["human", "human"], start).state.to_dict()["set"][1]}
    for seed in range(12):
        session.load(text, seed=seed)
        cards.add(session.state.to_dict()["set"][1])
    assert len(cards) > 2  # dealt afresh
    session.load(text)  # no seed given: one is drawn and named
    assert "dealt afresh from seed " in session.notice


@pytest.mark.parametrize("name", GAMES + ("test_hidden_card",))
def test_the_full_position_is_shown_and_loads_when_nothing_is_hidden(name):
    game = load_game(name, cards=4, deal=5) if name == "test_hidden_card" else load_game(name)
    session = PlaySession(game, ["human"] * game.num_players)
    if session.handing_over is not None:
        session.ready()
    if not game.info.perfect_information:
        session.show_all_cards()
    text, loadable = session.position_text()
    assert loadable and text == (session.state.notation() if game.info.has_notation else session.state.to_json())
    session.load(text)
    assert session.state == game.new_initial_state() and session.notice == ""


def test_a_bad_observation_is_refused_and_changes_nothing():
    start = sinomilia_round(3)
    session = PlaySession(start.game, ["human", "human"], start)
    session.ready()
    text, _ = session.position_text()
    with pytest.raises(PositionError, match="view of player 1, not 0"):
        session.load(text.replace('"observer":0', '"observer":1'))
    with pytest.raises(PositionError):
        session.load("not a position")
    assert session.state == start


# --- 5. who looks; "show all cards" and the record -----------------------------------------------


def test_the_viewer_is_the_one_the_screen_was_handed_to():
    session = PlaySession(load_game("test_secret_pick"), ["human", "human"])
    assert session.viewer is None and session.handing_over == 0
    session.ready()
    session.play_actions(session.actions_of("pick teal"))
    assert session.viewer == 0 and session.handing_over == 1
    session.ready()
    assert session.viewer == 1 and session.view().moves == ("1. Picker: pick ?",)


def test_showing_all_cards_is_explicit_and_said_on_screen_and_in_the_record(tmp_path):
    session = PlaySession(load_game("test_secret_pick"), ["random", "human"], seed=0)
    session.run_agents()
    assert session.view().cards_note == "" and not session.record().cards_shown
    assert session.view().moves == ("1. Picker: pick ?",)
    session.show_all_cards()
    view = session.view()
    assert view.viewer is None and view.moves[0] != "1. Picker: pick ?"
    assert view.cards_note == "All cards have been shown in this game"
    session.hide_cards()
    assert session.view().moves == ("1. Picker: pick ?",) and session.view().cards_note  # still said
    record = session.record()
    assert record.cards_shown and record.version == RECORD_VERSION
    record.save(tmp_path / "game.json")
    assert GameRecord.load(tmp_path / "game.json").cards_shown
    old = {k: v for k, v in record.to_dict().items() if k not in ("version", "cards_shown")}
    assert GameRecord.from_dict(old).version == 1 and not GameRecord.from_dict(old).cards_shown
    session.new_game()
    assert session.view().cards_note == "" and not session.record().cards_shown


def test_perfect_information_has_no_cards_to_show():
    session = PlaySession(load_game("cross_endodoi"))
    with pytest.raises(ValueError, match="hides nothing"):
        session.show_all_cards()
    assert "show_all" not in session.view().enabled


def test_a_fixed_viewer_keeps_the_screen_whoever_is_to_move():
    session = PlaySession(load_game("test_secret_pick"), ["human", "human"], viewer=1)
    assert session.viewer == 1 and session.handing_over is None and session.view().curtain is None
    session.play_actions(session.actions_of("pick teal"))
    assert session.viewer == 1 and session.handing_over is None
    assert session.view().moves == ("1. Picker: pick ?",) and session.you_text() == "You are Guesser"
    with pytest.raises(ValueError, match="viewer must be a seat 0..1, got 2"):
        PlaySession(load_game("test_secret_pick"), viewer=2)


def test_a_locked_screen_plays_nothing_and_says_why_but_walks_the_line():
    session = PlaySession(load_game("cross_endodoi"))
    session.play_actions(session.actions_of("2"))
    session.lock("answered: press Try again")
    assert not session.playable() and session.legal_actions() == []
    with pytest.raises(ValueError, match="^answered: press Try again$"):
        session.check_can_play()
    session.jump(0)
    assert session.pos == 0 and not session.playable()
    session.lock("")
    assert session.playable() and session.legal_actions()


# --- 6. the oracle for Load, and for the secret pick -------------------------------------------


def test_load_of_the_same_view_deals_the_same_cards_whatever_the_real_ones():
    def load_view(session):
        session.load(session.position_text()[0], seed=4)

    steps = [play("chip sun"), load_view, play("chip moon")]
    runs = [trace(sinomilia_round(green), ["human", PublicAgent(seed=2)], steps) for green in (3, 7)]
    assert_same_until_reveal(runs[0][1], runs[1][1])
    assert runs[0][0].state == runs[1][0].state  # after Load the games are one


def test_the_guesser_sees_the_same_whatever_was_picked():
    steps = [seat(0, "random"), play("guess teal")]
    runs = [trace(secret_pick(pick), ["human", "human"], [ready, *steps]) for pick in ("teal", "amber")]
    assert_same_until_reveal(runs[0][1], runs[1][1], viewer=1)
    assert runs[0][0].view().status.startswith("Game over")
    assert runs[0][0].reveal_at == 1 and runs[1][0].reveal_at == 1


# --- 7. the state number ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_state_number_rises_with_every_change_and_only_then(name):
    game = load_game(name)
    session = PlaySession(game, ["human"] * game.num_players)
    if session.handing_over is not None:
        session.ready()
    numbers = [session.number]
    session.subscribe(lambda: numbers.append(session.number))
    operations = (
        lambda: session.play_actions([session.state.legal_actions()[0]]),
        session.undo,
        session.redo,
        lambda: session.set_seat(game.num_players - 1, "random"),
    )
    for operation in operations:
        if session.handing_over is not None:
            session.ready()
        before = len(numbers)
        operation()
        assert len(numbers) == before + 1  # one change, heard once
    with pytest.raises(ValueError):
        session.jump(99)  # refused: no change, no number
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert session.view().number == session.number


def test_undo_says_whose_move_it_takes_back():
    """Capitals with two people and two agents: from White (bottom)'s turn, Undo goes back over
    Black (right)'s reply to White (top)'s move, and says so before and after."""
    game = load_game("capitals")
    session = PlaySession(game, ["human", "random", "human", "random"], seed=1)
    assert session.undo_text() == "" and session.view().undo == ""
    first = session.state.legal_moves()[0]
    session.play_actions(session.actions_of(first))
    assert session.state.current_player() == 2  # the agent replied
    expected = f"move 1, White (top)'s {first}, and 1 agent move after it"
    assert session.view().undo == f"Undo takes back {expected}"
    session.undo()
    assert session.notice == f"Took back {expected}" and session.view().notice == session.notice
    assert session.pos == 0


def test_you_are_names_every_human_seat_when_several_but_not_all_are():
    game = load_game("capitals")
    both = PlaySession(game, ["human", "random", "human", "random"], seed=1)
    assert both.you_text() == "You play White (top) and White (bottom)"
    assert PlaySession(game, ["human"] * 4).you_text() == ""  # everyone at the screen
    assert PlaySession(game, ["random", "human", "random", "random"], seed=1).you_text() == "You are Black (right)"


def test_two_agents_can_be_paused_stepped_and_resumed():
    async def run():
        game = load_game("cross_endodoi")
        session = PlaySession(game, ["random", "random"], seed=4, loop=asyncio.get_running_loop())
        session.THINK_DELAY_SECONDS = 0
        session.run_agents()
        session.pause()  # the reply being thought about is dropped
        assert session.paused and not session.busy and "pause" not in session.view().enabled
        assert "resume" in session.view().enabled and session.view().status.endswith(
            "paused (Agent move plays one move, Resume lets the agents go on)"
        )
        paused_at = len(session.state.history())
        await asyncio.sleep(0.2)
        assert len(session.state.history()) == paused_at  # nobody moves while paused
        session.agent_move()  # one move, then they wait again
        while session.busy:
            await asyncio.sleep(0.005)
        assert len(session.state.history()) == paused_at + 1
        await asyncio.sleep(0.1)
        assert len(session.state.history()) == paused_at + 1
        session.resume()
        while session.busy or not session.state.is_terminal():
            await asyncio.sleep(0.005)
        return session

    session = asyncio.run(run())
    assert session.state.is_terminal() and not session.paused


def test_agent_move_says_why_it_does_or_does_not_work():
    game = load_game("cross_endodoi")
    session = PlaySession(game, ["human", "random"], seed=1)
    assert "agent" not in session.view().enabled
    assert session.view().agent.startswith("South is a human seat. Agents move by themselves after a human move")
    session.play_actions(session.actions_of("2"))
    session.undo()  # back to South; jump to North's turn: the agent waits there
    session.jump(1)
    assert "agent" in session.view().enabled and session.view().agent == "Play one move for North (Random)"


# --- hints and the evaluation ----------------------------------------------------------------


def test_a_hint_is_the_analysis_best_move_and_the_record_counts_it():
    from tabletop_lab.analysis import analyse

    session = PlaySession(load_game("cross_endodoi"), ["human", "random"], seed=5)
    assert "hint" in session.view().enabled and session.record().hints == []
    start = session.state
    session.hint()
    found = analyse(start, budget=session.hint_budget(), seed=5)
    hint = session.hint_shown
    assert hint.move == found.best_move and hint.value == found.value and hint.player == 0
    view = session.view()
    assert view.hint_move == found.best_move and view.hint.startswith(f"Hint: {found.best_move} (")
    assert "hint" not in view.enabled  # shown already
    with pytest.raises(ValueError, match="the hint for this position is shown"):
        session.hint()
    record = session.record()
    assert record.hints == [0] and record.version == RECORD_VERSION
    again = GameRecord.from_json(record.to_json())
    assert again.hints == [0] and again.replay().history() == start.history()
    old = {k: v for k, v in record.to_dict().items() if k not in ("version", "hints")}
    assert GameRecord.from_dict(old).hints == []  # records made before hints have none
    session.play_actions(session.actions_of(found.best_move))  # the agent replies at once
    assert session.hint_shown is None and session.view().hint == ""
    session.hint()
    assert session.record().hints == [0, 2]
    session.undo()  # a hint taken back still counts
    assert session.record().hints == [0, 2] and session.hint_shown is None
    session.new_game()
    assert session.record().hints == []


def test_a_record_with_bad_hints_is_refused():
    record = PlaySession(load_game("cross_endodoi")).record().to_dict()
    with pytest.raises(PositionError, match="'hints' must be a list of action counts"):
        GameRecord.from_dict({**record, "hints": [-1]})


def test_no_hint_when_no_human_is_to_move_or_the_game_is_over():
    session = PlaySession(load_game("cross_endodoi"), ["random", "human"], seed=1)  # agents not started yet
    assert "hint" not in session.view().enabled
    with pytest.raises(ValueError, match=r"no hint: a hint is for a human to move, and South \(Random\)"):
        session.hint()
    session = PlaySession(load_game("cross_endodoi"), ["random", "random"], seed=1)
    session.run_agents()
    assert session.state.is_terminal()
    with pytest.raises(ValueError, match="no hint: the game is over"):
        session.hint()
    assert session.record().hints == []


def test_a_sinomilia_hint_reads_only_what_the_player_to_move_sees():
    hints = []
    for green in (3, 7):  # the deals differ only in Green's hidden card
        session = PlaySession(load_game("sinomilia"), ["human", PublicAgent(seed=1)], sinomilia_round(green), seed=2)
        session.hint()
        hints.append(session.hint_shown)
    assert hints[0] == hints[1] and hints[0].move in sinomilia_round(3).legal_moves()


def test_under_a_loop_the_hint_is_searched_in_a_thread_and_dropped_if_the_player_moves():
    async def run():
        session = PlaySession(load_game("cross_endodoi"), ["human", "human"], seed=4, loop=asyncio.get_running_loop())
        session.hint()
        assert session.hinting and session.view().hint == "Hint: searching…"
        while session.hinting:
            await asyncio.sleep(0.01)
        first = session.hint_shown
        session.jump(0)  # the same position again: the hint is forgotten, not counted twice
        session.hint()
        session.play_actions(session.actions_of(session.state.legal_moves()[0]))
        while session.hinting:
            await asyncio.sleep(0.01)
        return first, session

    first, session = asyncio.run(run())
    assert first is not None and session.hint_shown is None and session.record().hints == [0]


def test_the_evaluation_is_the_analysis_value_for_the_chosen_side():
    from tabletop_lab.analysis import analyse

    session = PlaySession(load_game("cross_endodoi"), ["human", "random"], seed=3)
    assert session.evaluation_seat is None and session.view().evaluation == ""  # off by default
    session.set_evaluation(1)
    budget, nodes = session.evaluation_budget(), session.EVALUATION_NODES
    found = analyse(session.state, budget=budget, seed=3, nodes=nodes)
    assert found.player == 0 and session.evaluation.value == pytest.approx(1 - found.value)  # North, the other side
    move = session.state.legal_moves()[0]
    session.play_actions(session.actions_of(move))  # the agent replies at once
    state = session.state
    found = analyse(state, budget=budget, seed=3, nodes=nodes)
    assert session.evaluation.value == pytest.approx(1 - found.value) and session.evaluation.at == 2
    assert session.view().evaluation == f"Evaluation (North): win chance {round(100 * (1 - found.value))}%"
    assert session.view().evaluation_value == session.evaluation.value
    session.set_evaluation(None)
    assert session.evaluation is None and session.view().evaluation == ""
    with pytest.raises(ValueError, match="evaluation seat must be 0..1 or None"):
        session.set_evaluation(2)


def test_the_evaluation_with_hidden_cards_reads_only_the_viewers_view():
    values = []
    for green in (3, 7):  # Green's hidden card differs; Orange (the viewer) is to move
        session = PlaySession(load_game("sinomilia"), ["human", PublicAgent(seed=1)], sinomilia_round(green), seed=2)
        session.set_evaluation(0)
        values.append(session.evaluation.value)
    assert values[0] == values[1] and 0 <= values[0] <= 1


def test_the_review_of_a_finished_game_is_analysis_review_of_its_record():
    from tabletop_lab.analysis import review

    session = PlaySession(load_game("cross_endodoi"), ["random", "random"], seed=6)
    session.REVIEW_SHARE = 10**6  # the least budget, REVIEW_MIN simulations a position: a quick test
    assert session.review_refusal() == "the review comes when the game is over"
    with pytest.raises(ValueError, match="no review: the review comes when the game is over"):
        session.review()
    session.run_agents()
    assert session.state.is_terminal() and "review" in session.view().enabled
    counted = []
    session.subscribe(lambda: counted.append(session.review_progress))
    session.review()
    frame = session.review_shown
    expected = review(session.record(), budget=session.review_budget(), seed=6, progress=False)
    assert frame.equals(expected) and len(frame) == len(session.move_strings())
    assert counted == [None]  # without a loop: one change, the review done
    text = session.view().review
    assert text.startswith("Review: South: ") and "North: " in text and "mistake" in text
    assert "review" not in session.view().enabled and session.view().review_move == ""
    worst = frame.loc[frame["loss"].idxmax()]  # a move that was not the best
    session.jump(int(worst["move"]) - 1)  # the position before it: the move played and the better one
    view = session.view()
    assert session.review_shown is frame and session.reviewed_move()["played"] == worst["played"]
    assert view.review.startswith(
        f"Move {worst['move']}, {session.names(int(worst['player']))} played {worst['played']}"
    )
    assert worst["loss"] > 0 and view.review_move == worst["best_move"]  # random play loses some
    assert f"; better {worst['best_move']} (" in view.review
    other = next(m for m in session.state.legal_moves() if m != worst["played"])
    session.set_seat(0, "human")
    session.set_seat(1, "human")
    session.play_actions(session.actions_of(other))  # another line: the review is of a game no longer shown
    assert session.review_shown is None and session.view().review == "" and session.view().review_move == ""


def test_no_review_with_hidden_cards_unless_all_are_shown():
    session = PlaySession(load_game("test_secret_pick"), ["random", "random"], seed=0)
    session.run_agents()
    assert session.state.is_terminal()
    with pytest.raises(ValueError, match="no review: a review reads every player's cards: press Show all cards"):
        session.review()


def test_no_hint_in_the_middle_of_a_move_of_several_actions():
    session = PlaySession(load_game("sygo", size=9), ["human", "human"], seed=0)
    for move in ("place e5", "place d4", "place c3"):  # Black, White, then Black's group may grow
        session.play_actions(session.actions_of(move))
    grow = next(a for a in session.legal_actions() if session.state.action_to_string(a).startswith("grow"))
    session.play_actions([grow])
    assert session.state.mid_turn() and "hint" not in session.view().enabled
    with pytest.raises(ValueError, match=r"no hint: a move is in progress: finish it or take it back \(Undo\)"):
        session.hint()
