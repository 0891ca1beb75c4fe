"""The Cross-endodoi renderer and the generic dispatch: what is drawn matches the state.

``sowing_frames`` (drawn from the engine's trace of a move) is checked against the engine: its
last frame must be ``state.child(action)``, one seed a frame, on random positions under every
rules config. The seed-by-seed reference the trace is checked against is in the engine's tests.
"""

import doctest
import importlib
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import same_color
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch

from tabletop_lab import IllegalActionError, RulesError, load_game
from tabletop_lab.games.cross_endodoi import LapLimitError, render
from tabletop_lab.render import draw, renderer, state_png

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def random_state(seed, plies, **options):
    state = load_game("cross_endodoi", **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def shown_counts(ax_view):
    return [t.get_text() for t in ax_view.count_texts], [t.get_text() for t in ax_view.store_texts]


@pytest.mark.parametrize(
    "module",
    [
        "tabletop_lab.render",
        "tabletop_lab.games.cross_endodoi.render",
        "tabletop_lab.board_adapter",
        "tabletop_lab.widgets.controls",
        "tabletop_lab.widgets.links",
    ],
)
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_rendering_uses_no_pyplot():
    """Drawing and PNGs work with the object-oriented API alone: pyplot is never imported."""
    code = (
        "import sys\n"
        "from tabletop_lab import load_game\n"
        "from tabletop_lab.render import draw, state_png\n"
        "s = load_game('cross_endodoi').new_initial_state(); s.apply_move('2')\n"
        "assert state_png(s).startswith(b'\\x89PNG')\n"
        "assert s._repr_png_().startswith(b'\\x89PNG')\n"
        "draw(s)\n"
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_state_png_and_repr_png():
    state = random_state(1, 5)
    assert state_png(state).startswith(PNG_MAGIC)
    assert state._repr_png_().startswith(PNG_MAGIC)


def test_dispatch_draws_on_a_given_axes():
    figure = Figure(figsize=render.FIGSIZE)
    ax = figure.add_axes(render.AXES_RECT)
    assert draw(random_state(2, 3), ax) is ax
    assert renderer("cross_endodoi") is render


def test_dispatch_refuses_games_without_renderer():
    import tests.toy_games  # noqa: F401  (registers test_nim, which brings no renderer)

    with pytest.raises(RulesError, match="game 'test_nim' has no renderer"):
        renderer("test_nim")
    with pytest.raises(RulesError, match="unknown game 'no_such_game'"):
        renderer("no_such_game")


@pytest.mark.parametrize("seed", range(5))
def test_drawn_counts_match_the_state(seed):
    state = random_state(seed, 2 * seed + 1, seeds_per_hole=6)
    view = render.BoardView(Figure().add_axes(render.AXES_RECT))
    view.update(state)
    holes, stores = shown_counts(view)
    assert holes == [str(n) for n in state.holes]
    assert stores == [str(n) for n in state.stores]
    dots = len(view.seeds.get_offsets())
    assert dots == sum(min(n, render.MAX_DOTS) for n in state.holes) + sum(min(n, 72) for n in state.stores)


def test_holes_are_laid_out_as_seen_from_south():
    assert render.hole_xy(0)[0] < render.hole_xy(5)[0]  # South's row left to right
    assert render.hole_xy(11)[0] < render.hole_xy(6)[0]  # North's row reads 11..6
    assert render.hole_xy(0)[1] < render.hole_xy(11)[1]  # South at the bottom
    for hole in range(12):
        assert render.hole_xy(hole)[0] == render.hole_xy(11 - hole)[0]  # opposite holes face each other
        assert render.hole_at(*render.hole_xy(hole)) == hole
    assert render.hole_at(0.5, 1.5) is None and render.hole_at(7.5, 1.5) is None  # stores
    with pytest.raises(ValueError, match="hole must be"):
        render.hole_xy(12)


def test_highlight_rings_exactly_the_given_holes():
    state = random_state(3, 4)
    ax = draw(state, highlight=state.legal_actions())
    view = render.BoardView(ax)  # a second view on a fresh axes must behave the same
    view.update(state, highlight=state.legal_actions())
    for hole, patch in enumerate(view.hole_patches):
        assert same_color(patch.get_edgecolor(), render.TARGET) == (hole in state.legal_actions())


def test_preview_shows_counts_before_and_after():
    state = load_game("cross_endodoi").new_initial_state()
    after = state.child(2)
    view = render.BoardView(Figure().add_axes(render.AXES_RECT))
    view.update(state, preview=after)
    for hole, text in enumerate(view.count_texts):
        expected = "3" if after.holes[hole] == 3 else f"3→{after.holes[hole]}"
        assert text.get_text() == expected


def lap_arrows(view):
    return [p for p in view.ax.patches if isinstance(p, FancyArrowPatch)]


def test_last_move_draws_one_arrow_per_lap_and_marks_the_capture():
    # South sows hole 5 (1 seed, clockwise) into empty hole 4; hole 7 across holds 2: capture 3.
    state = load_game("cross_endodoi").state_from_notation("3,3,3,3,0,1/3,2,3,3,3,3 4-2 0")
    state.apply_move("5")
    report = state.last_move
    assert report.captured == 3 and report.capture_hole == 7
    view = render.BoardView(Figure().add_axes(render.AXES_RECT))
    view.update(state)
    assert len(lap_arrows(view)) == len(report.laps) == 1
    assert any(t.get_text() == "×" for t in view.ax.texts)
    assert "captured 3" in view.title.get_text()
    view.update(state, show_last_move=False)  # the marks of the last update are gone
    assert not lap_arrows(view) and not any(t.get_text() == "×" for t in view.ax.texts)


def test_a_relay_draws_every_lap():
    state = next(  # a move of several laps
        s for s in (random_state(seed, 3) for seed in range(40)) if 1 < len(s.last_move.laps) <= render.MAX_LAPS_DRAWN
    )
    laps = len(state.last_move.laps)
    assert laps > 1
    view = render.BoardView(Figure().add_axes(render.AXES_RECT))
    view.update(state)
    assert len(lap_arrows(view)) == laps
    assert {str(i) for i in range(1, laps + 1)} <= {t.get_text() for t in view.ax.texts}


def test_title_announces_turn_and_result():
    game = load_game("cross_endodoi")
    assert render.status_text(game.new_initial_state()) == "South to move"
    state = game.state_from_notation("0,0,0,0,0,1/0,0,0,0,0,0 20-15 0")
    state.apply_move("5")  # North then has no seed: South gets the last one, 21-15
    assert render.status_text(state).startswith("South wins, 21–15: North has no seeds left to sow")
    drawn = game.state_from_notation("0,0,0,0,0,0/0,0,0,0,0,0 18-18 1")
    assert render.status_text(drawn) == "a draw, 18–18: North has no seeds left to sow"


def test_the_result_names_the_winner_with_the_winners_score_first():
    game = load_game("cross_endodoi")
    won = game.state_from_notation("0,0,0,0,0,0/0,0,0,0,0,0 17-19 0")
    assert render.result_words(won) == "Game over: North wins, 19–17: South has no seeds left to sow"
    assert render.result_words(game.state_from_notation("0,0,0,0,0,0/1,2,0,0,0,3 20-10 0")).startswith(
        "Game over: South wins, 20–16: South has no seeds left to sow; North gets the 6 seeds"
    )


# ----------------------------------------------------------------------------- sowing frames


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
    seeds_per_hole=st.sampled_from([3, 6]),
    skip_origin=st.booleans(),
    first_player=st.sampled_from([0, 1]),
)
def test_sowing_frames_end_where_the_engine_does(seed, plies, seeds_per_hole, skip_origin, first_player):
    state = random_state(seed, plies, seeds_per_hole=seeds_per_hole, skip_origin=skip_origin, first_player=first_player)
    total = state.game.total_seeds
    for action in state.legal_actions():
        child = state.child(action)
        frames = render.sowing_frames(state, action)
        assert frames[0].holes == tuple(state.holes) and frames[0].event == "start"
        assert frames[-1].holes == tuple(child.holes)
        assert frames[-1].stores == tuple(child.stores)
        report = child.last_move
        lifts = [f for f in frames if f.event == "lift"]
        assert [(f.hole, f.in_hand) for f in lifts] == [(lap.origin, lap.seeds) for lap in report.laps]
        assert [f.event == "capture" for f in frames].count(True) == (report.captured > 0)
        in_hand = 0
        for frame in frames:
            assert sum(frame.holes) + sum(frame.stores) + frame.in_hand == total  # no seed lost
            if frame.event == "sow":
                assert frame.in_hand == in_hand - 1  # one seed per frame
            in_hand = frame.in_hand


def test_sowing_frames_refuse_illegal_moves():
    state = load_game("cross_endodoi").new_initial_state()
    with pytest.raises(IllegalActionError, match="belongs to North"):
        render.sowing_frames(state, 7)


def test_sowing_frames_respect_the_lap_limit():
    state = load_game("cross_endodoi", max_laps=1).new_initial_state()
    relaying = [
        a
        for a in state.legal_actions()
        if len(load_game("cross_endodoi").new_initial_state().child(a).last_move.laps) > 1
    ]
    assert relaying
    with pytest.raises(LapLimitError):
        state.child(relaying[0])
    with pytest.raises(LapLimitError):
        render.sowing_frames(state, relaying[0])


def long_relay(min_laps: int = 4):
    """A position whose last move is a relay of at least ``min_laps`` laps (found by seeded play)."""
    return next(s for s in (random_state(seed, 3) for seed in range(400)) if len(s.last_move.laps) >= min_laps)


def test_a_long_relay_is_read_lap_by_lap():
    state = long_relay()
    laps = state.last_move.laps
    view = render.BoardView(Figure().add_axes(render.AXES_RECT))
    view.update(state, lap=2)
    shown = {p.get_gid() for p in lap_arrows(view)}
    assert "lap 2" in shown and {"lap 1 faint", "lap 3 faint"} <= shown  # the lap and, faint, its neighbours
    assert not {g for g in shown if g.startswith("lap ") and g not in ("lap 1 faint", "lap 2", "lap 3 faint")}
    numbers = [t.get_text() for t in view.ax.texts if t.get_text().isdigit() and t.get_bbox_patch() is not None]
    assert "2" in numbers and "4" not in numbers  # one number: the lap shown
    lap = laps[1]
    assert (
        view.title.get_text()
        .replace("\n", " ")
        .startswith(
            f"Lap 2 of {len(laps)}: {lap.seeds} seed{'s' if lap.seeds != 1 else ''} from hole {lap.origin} to hole {lap.last}"
        )
    )
    with pytest.raises(ValueError, match="laps are 1"):
        view.update(state, lap=len(laps) + 1)


def test_the_board_steps_through_the_last_relay():
    from tabletop_lab.widgets import Board

    state = long_relay()
    laps = len(state.last_move.laps)
    board = Board(seats=["human", "human"])
    board.replay([str(action) for action in state.history()])
    assert board.state == state and board.adapter.steps(board.state) == laps
    assert board.step_row.layout.display is None and board.step_label.value == f"The last move, lap by lap: {laps} laps"
    board.step_next.click()
    assert board.adapter.step == 1 and board.step_label.value == f"Lap 1 of {laps}" and board.step_prev.disabled
    assert board.adapter.view.title.get_text().startswith(f"Lap 1 of {laps}")
    board.step_next.click()
    assert board.adapter.step == 2 and not board.step_prev.disabled
    board.step_all.click()
    assert board.adapter.step is None and " sowed " in board.adapter.view.title.get_text()
    board.click_cell(board.state.legal_actions()[0])  # the next move shows whole
    assert board.adapter.step is None
