"""ReplayViewer steps through a record's states; animate_move makes a bounded HTML animation."""

import random
import re

import pytest

from tabletop_lab import GameRecord, IllegalActionError, load_game
from tabletop_lab.games.cross_endodoi.render import sowing_frames
from tabletop_lab.widgets import ReplayViewer, animate_move


def random_game(seed):
    state = load_game("cross_endodoi").new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def shown(viewer):
    view = viewer.adapter.view
    return [int(t.get_text()) for t in view.count_texts], [int(t.get_text()) for t in view.store_texts]


def test_replay_slider_shows_each_state():
    final = random_game(4)
    record = GameRecord.from_state(final, seed=4)
    viewer = ReplayViewer(record)
    states = record.states()
    assert viewer.slider.max == len(states) - 1 == len(record.actions)
    assert viewer.move_label.value.startswith("start")
    first_png = bytes(viewer.image.value)
    assert first_png.startswith(b"\x89PNG")
    for index in (1, 5, len(states) - 1):
        viewer.slider.value = index
        assert shown(viewer) == (states[index].holes, states[index].stores)
        mover = ("South", "North")[states[index - 1].current_player()]
        assert f"{mover} played {record.actions[index - 1]}" in viewer.move_label.value
    assert "Game over" in viewer.move_label.value
    assert bytes(viewer.image.value) != first_png
    assert viewer.next_button.disabled and not viewer.prev_button.disabled
    viewer.prev_button.click()
    assert viewer.slider.value == len(states) - 2
    viewer.slider.value = 0
    viewer.next_button.click()
    assert viewer.slider.value == 1 and shown(viewer) == (states[1].holes, states[1].stores)


def test_replay_accepts_a_state_and_refuses_other_things():
    final = random_game(5)
    assert ReplayViewer(final).slider.max == len(final.history())
    with pytest.raises(ValueError, match="GameRecord or a State"):
        ReplayViewer("not a record")


def frame_count(html):
    return html.data.count("data:image/png;base64")


def test_animate_move_shows_every_step():
    # South sows hole 5's one seed into empty hole 4 and captures hole 7: start, lift, sow, capture.
    state = load_game("cross_endodoi").state_from_notation("3,3,3,3,0,1/3,2,3,3,3,3 4-2 0")
    html = animate_move(state, 5)
    assert [f.event for f in sowing_frames(state, 5)] == ["start", "lift", "sow", "capture"]
    assert frame_count(html) == 4
    assert frame_count(animate_move(state, "5")) == 4


def test_long_moves_are_thinned():
    state = load_game("cross_endodoi", seeds_per_hole=6).new_initial_state()
    action = max(state.legal_actions(), key=lambda a: len(sowing_frames(state, a)))
    assert len(sowing_frames(state, action)) > 12
    assert frame_count(animate_move(state, action, max_frames=12)) == 12


def test_animate_move_refuses_illegal_moves():
    state = load_game("cross_endodoi").new_initial_state()
    with pytest.raises(IllegalActionError):
        animate_move(state, "8")


def test_animation_needs_no_internet():
    """The player's buttons are text, not icons from a CDN: no external URL in the HTML."""
    html = animate_move(load_game("cross_endodoi").new_initial_state(), 5).data
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.IGNORECASE)
    assert "fa-" not in html and "<link" not in html
    for label, symbol in [("Play", "\u25b6"), ("Pause", "\u23f8"), ("First frame", "\u23ee")]:
        assert re.search(rf'title="{label}"[^>]*>\s*{symbol}', html), label
