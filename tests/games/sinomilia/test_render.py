"""Sinomilia renderer and board adapter: what each seat's picture shows, and never the hidden card."""

import random

from matplotlib.figure import Figure
from matplotlib.text import Text

from tabletop_lab import load_game
from tabletop_lab.games.sinomilia import render
from tabletop_lab.games.sinomilia.board import Adapter
from tabletop_lab.games.sinomilia.rules import SUN

from .helpers import play, random_states

GAME = load_game("sinomilia")


def texts(ax):
    return [(t.get_gid(), t.get_text()) for t in ax.findobj(Text) if t.get_text()]


def card_texts(ax, gid):
    return sorted(int(text) for g, text in texts(ax) if g == gid)


def test_draw_makes_a_figure_and_a_status_line():
    ax = render.draw(GAME.new_initial_state())
    assert isinstance(ax.figure, Figure)
    assert ax.get_title() == "Round 1: Orange to set a card"
    assert card_texts(ax, "hand-0") == list(range(10)) and card_texts(ax, "hand-1") == list(range(10))


def test_a_viewer_sees_own_cards_and_the_opponents_backs():
    state = play(GAME.new_initial_state(), "set 4", "set 6", "chip sun")
    ax = render.draw(state, viewer=1)
    assert card_texts(ax, "hand-1") == [0, 1, 2, 3, 4, 5, 7, 8, 9] and card_texts(ax, "set-1") == [6]
    assert card_texts(ax, "hand-0") == [] and card_texts(ax, "set-0") == []
    assert ax.get_title() == "Round 1: Green (you) to play"
    everything = render.draw(state)
    assert card_texts(everything, "set-0") == [4] and card_texts(everything, "set-1") == [6]


def test_the_report_shows_the_reveal():
    state = play(GAME.new_initial_state(), "set 4", "set 6", "chip moon", "pass")
    ax = render.draw(state, viewer=1)
    (report,) = [text for gid, text in texts(ax) if gid == "report"]
    assert "Orange 4, Green 6" in report and "T = 1, M = 1" in report and "Orange wins" in report


def test_pictures_never_depend_on_the_opponents_hidden_card():
    rng = random.Random(4)
    states = [s for s in random_states(8, n_games=3) if not s.is_terminal()]
    for state in rng.sample(states, 8):
        for viewer in (0, 1):
            shown = texts(render.draw(state, viewer=viewer))
            for seed in range(2):
                twin = state.resample(viewer, random.Random(seed))
                assert texts(render.draw(twin, viewer=viewer)) == shown
            opponent = 1 - viewer
            assert not [t for g, t in shown if g in (f"hand-{opponent}", f"set-{opponent}")]


def test_game_over_title():
    state = load_game("sinomilia", round_cap=1).new_initial_state()
    play(state, "set 9", "set 9", "pass", "pass")
    assert render.draw(state).get_title() == "Game over after round 1 (the round cap): Orange wins, 17-13"
    assert (
        render.result_words(state) == "Game over after round 1 (the round cap): Orange wins with 17 chips to Green's 13"
    )
    assert Adapter(state.game).result_words(state) == render.result_words(state)


def test_board_cells_round_trip_and_choose_set_and_change():
    adapter = Adapter(GAME)
    adapter.setup(Figure(figsize=adapter.figsize))
    state = GAME.new_initial_state()
    adapter.draw(state, viewer=0, targets=frozenset(("hand", k) for k in range(10)))
    cells = [adapter.action_cells(state, a) for a in state.legal_actions()]
    assert cells == [(("hand", k),) for k in range(10)]
    for ((cell,),) in zip(cells):
        assert adapter.cell_at(*adapter.cell_xy(cell)) == cell
    assert adapter.cell_at(*adapter.cell_xy("set")) == "set"
    assert adapter.cell_at(9.5, 6.5) is None
    play(state, "set 3", "set 5")
    adapter.draw(state, viewer=0)
    by_string = {state.action_to_string(a): adapter.action_cells(state, a) for a in state.legal_actions()}
    assert by_string["change 3"] == ("set",) and by_string["change 7"] == (("hand", 7),)
    assert by_string["chip sun"] == by_string["chip moon"] == by_string["pass"] == ()
    assert adapter.button_label(state, 10) == "chip (sun)" and adapter.button_label(state, 22) == "pass"
    adapter.draw(state, viewer=1)  # Orange to move but Green's view: Orange's actions are buttons
    assert all(adapter.action_cells(state, a) == () for a in state.legal_actions())


def test_board_refusals_name_the_rule():
    adapter = Adapter(GAME)
    adapter.setup(Figure(figsize=adapter.figsize))
    state = play(GAME.new_initial_state(), "set 3", "set 5", "change 4", "pass")
    adapter.draw(state, viewer=0)
    assert "once per round" in adapter.refusal(state, (("hand", 6),))
    state = play(GAME.new_initial_state(), "set 9", "set 2", "chip sun", "pass", "pass")  # Green's 2 is discarded
    adapter.draw(state, viewer=1)
    assert state.current_player() == 1
    assert "card 2 is not in Green's hand" in adapter.refusal(state, (("hand", 2),))


def test_state_png_draws_through_the_shared_dispatch():
    from tabletop_lab.render import state_png

    assert state_png(GAME.new_initial_state(), viewer=1)[:8] == b"\x89PNG\r\n\x1a\n"


def test_refusals_read_in_the_players_words():
    adapter = Adapter(GAME)
    state = GAME.new_initial_state()
    refusal = adapter.explain(f"sinomilia: 'sun' is illegal: {state._illegal_reason(SUN)}", state)
    assert refusal.words.startswith("First set a card: click one of your hand's cards.") and refusal.rule == "2.1"
