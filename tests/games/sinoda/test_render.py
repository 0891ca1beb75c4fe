"""The Sinoda renderer: what is drawn matches the state (pieces, values, panel, marks, overlays)."""

import doctest
import random
import subprocess
import sys

import pytest
from matplotlib.colors import same_color
from matplotlib.patches import FancyArrowPatch

from tabletop_lab import load_game
from tabletop_lab.games.sinoda import render
from tabletop_lab.games.sinoda.rules import PLAYER_NAMES
from tabletop_lab.render import draw, renderer, state_png
from tests.games.sinoda.helpers import RED_FIVE, SINODA_EXAMPLE, load, position
from tests.games.sinoda.test_geometry import RING


def random_state(seed, plies, **options):
    state = load_game("sinoda", **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def by_gid(ax, prefix):
    artists = list(ax.patches) + list(ax.collections) + list(ax.texts)
    return {a.get_gid(): a for a in artists if (a.get_gid() or "").startswith(prefix)}


def test_docstring_examples():
    result = doctest.testmod(render)
    assert result.attempted > 0 and result.failed == 0


def test_dispatch_and_png():
    state = random_state(1, 20)
    assert renderer("sinoda") is render
    assert state_png(state).startswith(b"\x89PNG")
    assert draw(state).figure is not None


def test_rendering_uses_no_pyplot():
    code = (
        "import sys\n"
        "from tabletop_lab import load_game\n"
        "from tabletop_lab.render import state_png\n"
        "s = load_game('sinoda', players=6, teams='triples').new_initial_state()\n"
        "assert state_png(s).startswith(b'\\x89PNG')\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 4, "teams": "pairs"}, {"players": 6}])
def test_every_piece_is_a_d4_in_its_owners_colour_showing_its_value(options):
    state = random_state(3, 60, **options)
    ax = render.draw(state)
    pieces = by_gid(ax, "piece ")
    data = state.to_dict()["pieces"]
    assert sorted(pieces) == sorted(f"piece {cell}" for cell, _, _ in data)
    for cell, player, value in data:
        patch = pieces[f"piece {cell}"]
        assert same_color(patch.get_facecolor(), render.COLOURS[player])
        apex = render.centroid(patch.get_xy()[:3])
        shown = [t.get_text() for t in ax.texts if t.get_position() == pytest.approx(apex)]
        assert shown == [str(value)]


def test_team_games_edge_pieces_in_team_colours():
    state = load_game("sinoda", players=6, teams="pairs").new_initial_state()
    ax = render.draw(state)
    for player in range(6):
        team = state.game.team_of(player)
        for cell in state.pieces_of(player):
            assert same_color(by_gid(ax, f"piece {cell}")[f"piece {cell}"].get_edgecolor(), render.TEAM_EDGES[team])
    texts = [t.get_text() for t in ax.texts]
    assert "Blue (team dark)" in texts and "Yellow (team dark)" in texts and "Red (team light)" in texts


def test_panel_shows_points_pieces_and_captured_pieces():
    state = load(SINODA_EXAMPLE["pieces"], SINODA_EXAMPLE["captured"])
    ax = render.draw(state)
    texts = [t.get_text() for t in ax.texts]
    assert "9 points · 3 on board" in texts and "5 points · 3 on board" in texts
    # six captured d4s (three per player), drawn smaller, with their values
    small = [p for p in ax.patches if p.get_gid() is None and p.get_zorder() == 3]
    assert len(small) == 6
    assert sorted(t.get_text() for t in ax.texts if t.get_fontsize() < 9 and t.get_text().isdigit()) == sorted("441221")


def test_last_move_is_marked():
    state = load_game("sinoda").new_initial_state()
    assert not by_gid(render.draw(state), "last")
    state.apply_move("change U2,0 +")
    assert list(by_gid(render.draw(state), "last")) == ["last change U2,0"]
    state.apply_move("move U-2,0 D-2,0")
    marks = by_gid(render.draw(state), "last")
    assert isinstance(marks["last move"], FancyArrowPatch)
    assert not by_gid(render.draw(state, show_last_move=False), "last")


def test_a_capture_is_crossed():
    state = load(
        {"D0,0": (0, 1), "U0,0": (1, 3), **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2", "U1,1")}} | RED_FIVE
    )
    state.apply_move("move D0,0 U0,0")
    assert "capture" in by_gid(render.draw(state), "capture")


def test_reachable_overlay_shades_the_pieces_destinations():
    state = load_game("sinoda").new_initial_state()
    ax = render.draw(state, reachable="U1,0")
    shade = by_gid(ax, "reachable")["reachable"]
    assert len(shade.get_paths()) == len(state.reachable_cells("U1,0")) == 1
    assert "reachable from U1,0" in by_gid(ax, "reachable from")


def test_attacked_overlay_rings_threatened_pieces():
    pieces = {"D0,0": (0, 1), "U0,0": (1, 3), **{c: (0, 1) for c in ("U-1,2", "U0,2", "U-2,2", "U-3,2", "U1,1")}}
    state = load(pieces | RED_FIVE)
    ax = render.draw(state, attacked_by=0)
    assert len(by_gid(ax, "attacked")["attacked"].get_paths()) == len(state.attacked_cells(0))
    assert list(by_gid(ax, "threatened")) == ["threatened U0,0"]


def test_highlight_and_selected():
    ax = render.draw(load_game("sinoda").new_initial_state(), highlight=["D0,0", "U1,1"], selected="U1,0")
    assert set(by_gid(ax, "highlight")) == {"highlight D0,0", "highlight U1,1"}
    assert list(by_gid(ax, "selected")) == ["selected U1,0"]


def test_status_text():
    assert render.status_text(load_game("sinoda", first_player=1).new_initial_state()) == "Red to move"
    state = load(SINODA_EXAMPLE["pieces"], SINODA_EXAMPLE["captured"])
    state.apply_move("change U1,0 -")
    assert render.status_text(state) == "Blue wins by Sinoda: 9 > 5 + (1+1+1) = 8"
    drawn = load({"U2,0": (0, 1), "U-2,0": (1, 1)}, [[[1, 1]] * 5, [[0, 1]] * 5])
    assert render.status_text(drawn) == (
        "Game over: a draw: Blue and Red tie with 5 points and 1 piece left each (every player is down to one piece)"
    )
    won = load({"U2,0": (0, 1), "U-2,0": (1, 1)}, [[[1, 2]] + [[1, 1]] * 4, [[0, 1]] * 5])
    assert (
        render.status_text(won)
        == f"Game over: {PLAYER_NAMES[0]} wins with 6 points (every player is down to one piece)"
    )
    assert render.draw(won).get_title().replace("\n", " ") == render.status_text(won)  # wrapped to fit


def finished(captured: list, **options):
    """Each player's pieces not in ``captured`` on their start cells (value 1)."""
    game = load_game("sinoda", **options)
    start = game.new_initial_state()
    taken = [sum(1 for cap in captured for owner, _ in cap if owner == p) for p in range(game.num_players)]
    pieces = {c: (p, 1) for p in range(game.num_players) for c in start.pieces_of(p)[: 6 - taken[p]]}
    return game.state_from_dict(position(pieces, captured, players=game.num_players))


def test_result_words_say_why_how_and_the_points_captured_per_player():
    """Rules 3.2 (why it ended) and 3.3 (the winner, the tie-break by pieces left, teams)."""
    tie = finished([[[1, 1]] * 6, [[0, 2], [0, 1], [0, 1], [0, 1], [0, 1]]])
    assert render.result_words(tie) == (
        "Game over: Blue wins with 6 points and more pieces left (1) than Red, who also has 6 "
        "(Red has no pieces left). Points captured: Blue 6, Red 6"
    )
    shared = finished([[], [[0, 1], [0, 1], [0, 1], [2, 1], [2, 1], [2, 2]], [[1, 4], [1, 2], [1, 1]]], players=3)
    assert render.result_words(shared) == (
        "Game over: Red and Green share the win with 7 points and 3 pieces left each (Red captured 6 pieces). "
        "Points captured: Blue 0, Red 7, Green 7"
    )
    team = finished([[], [[0, 2], [0, 3]], [[3, 1]] * 6, [[2, 4], [2, 1]]], players=4, teams="pairs")
    assert render.result_words(team).startswith("Game over: team dark wins: Green with 6 points (Yellow has no pieces")
    sinoda = load(SINODA_EXAMPLE["pieces"], SINODA_EXAMPLE["captured"])
    sinoda.apply_move("change U1,0 -")
    assert render.result_words(sinoda).startswith("Game over: Blue wins by Sinoda: 9 > 5 + (1+1+1) = 8; Red cannot")
    assert render.result_words(sinoda).endswith("Points captured: Blue 9, Red 5")


def test_custom_boards_with_other_names_are_drawn_on_a_ring():
    game = load_game("sinoda", board=RING)
    polygons = render.cell_polygons(game.board)
    assert set(polygons) == set(RING["cells"]) and all(len(p) == 3 for p in polygons.values())
    ax = render.draw(game.new_initial_state())
    assert len(by_gid(ax, "piece ")) == 12
