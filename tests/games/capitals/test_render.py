"""The Capitals renderer: what it draws for positions, Rams, Cages and Altars, Hunger and chains."""

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Polygon

from tabletop_lab.games.capitals import render
from tabletop_lab.render import state_png

from .helpers import load

HOME = {"a1": 0, "h1": 1, "h8": 2, "a8": 3}


def discs(ax, radius=render.PIECE_R):
    return [p for p in ax.patches if isinstance(p, Circle) and p.radius >= radius * 0.85]


def test_diamond_geometry():
    assert render.square_xy("a1") == (0.0, 0.0) and render.square_xy("h8") == (0.0, 14.0)
    assert render.square_polygon("a1") == [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]
    ax = Figure(figsize=render.FIGSIZE).add_axes(render.AXES_RECT)
    view = render.BoardView(ax)
    assert len(view.cells) == 64 and [tuple(p) for p in view.cells[0].get_xy()[:4]] == render.square_polygon("a1")
    assert ax.yaxis_inverted()  # y points down: a1 at the top


def test_a_view_replaces_what_it_showed():
    ax = Figure(figsize=render.FIGSIZE).add_axes(render.AXES_RECT)
    view = render.BoardView(ax)
    view.update(load({**HOME, "d4": 0}), highlight=["d5"])
    first = len(ax.patches)
    view.update(load({**HOME, "d4": 0}), highlight=["d5"])
    assert len(ax.patches) == first
    view.update(load(HOME))
    assert len(discs(ax)) == 4 and len(ax.patches) < first


def test_pieces_rams_cages_and_altars_are_drawn():
    state = load({**HOME, "d4": (0, 0, 2)}, cages=[[1, 3], [], [], []], altars=[[], [0], [], []])
    ax = render.draw(state)
    assert len(discs(ax)) == 4 + 2  # four singles, and a Ram as two stacked discs
    small = [p for p in ax.patches if isinstance(p, Circle) and p.radius < 0.2]
    assert len(small) == 3  # two caged pieces and one on an Altar
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("▲") == 3 and texts.count("▼") == 3  # upright for players 0/1, flipped for 2/3
    assert "White (top)" in texts and "Cage 2" in texts and "Altar 1" in texts  # counted beside each corner


def test_every_file_and_rank_is_labelled_on_both_its_edges():
    labels = render._square_labels()  # drawn once, in the board's static layer
    texts = [t.get_text() for t in labels]
    assert all(texts.count(file) == 2 for file in "abcdefgh")
    assert all(texts.count(rank) == 2 for rank in "12345678")
    x, y = render.square_xy("c1")
    assert any(t.get_text() == "c" and t.get_position() == (x + 0.85, y - 0.85) for t in labels)  # beside c1
    x, y = render.square_xy("h5")
    assert any(t.get_text() == "5" and t.get_position() == (x + 0.85, y + 0.85) for t in labels)  # beside h5


def test_title_shows_cycle_turn_and_hunger():
    calm = render.draw(load(HOME, cycle=3))
    assert calm.get_title() == "Cycle 3 · White (top) to move"
    hunger = render.draw(load(HOME, cycle=4))
    assert "HUNGER EPOCH" in hunger.get_title()
    assert any(t.get_text() == "HUNGER" for t in hunger.texts)


def test_targets_and_selection_are_outlined():
    ax = render.draw(load(HOME), highlight=["d4", "e5"], selected=["c3"])
    outlined = [p for p in ax.patches if isinstance(p, Polygon) and p.get_linewidth() == 3]
    assert len(outlined) == 3


def test_last_move_and_chain_in_progress_paths():
    state = load({**HOME, "c1": 0, "c2": 1, "c4": 3})
    state.apply_action(state.string_to_action("jump c1 c3"))
    assert state.mid_turn()
    ax = render.draw(state)  # drawn from the snapshot: the chain so far
    assert len([p for p in ax.patches if isinstance(p, FancyArrowPatch)]) == 1
    assert "chain in progress" in ax.get_title()
    state.apply_action(state.string_to_action("hop c5"))
    ax = render.draw(state)
    assert len([p for p in ax.patches if isinstance(p, FancyArrowPatch)]) == 2
    assert len([p for p in render.draw(state, show_last_move=False).patches if isinstance(p, FancyArrowPatch)]) == 0


def test_result_in_title_and_png():
    state = load({"a1": 0, "c1": 0, "c2": 1})
    state.apply_move("jump c1 c3")
    title = render.draw(state).get_title()
    assert "White wins: Black has no pieces left on the board" in title.replace("\n", " ")
    assert "no_pieces" not in title and all(len(line) <= 80 for line in title.split("\n"))  # wrapped to fit
    assert state_png(state)[:4] == b"\x89PNG"


def test_result_words_say_why_then_the_game_points():
    state = load({"a1": 0, "c1": 0, "c2": 1})
    state.apply_move("jump c1 c3")  # Black's last unit is caged: +2 for White
    assert render.result_words(state) == (
        "Game over: White wins: Black has no pieces left on the board. Game points: White 2 (1 caged × 2), Black 0"
    )
    pieces = {"a1": 0, "h8": 2, "g1": 0, "d5": (1, 1), "b7": (3, 1)}
    state = load(pieces, altars=[[1], [], [0], []], eliminated=[False, False, False, True])
    state.apply_move("step g1 h1")  # the second Black Capital falls
    assert render.result_words(state) == (
        "Game over: White wins: both Black Capitals have fallen (Black (right)'s and Black (left)'s). "
        "Game points: White 0 (+1 on the Altars, −1 own on the Altars), Black 0"
    )
    capped = load(HOME, cycle=201)
    assert capped.result().is_draw
    assert render.result_words(capped).startswith("Game over: a draw: the cycle cap was reached after cycle 200.")


def test_the_board_says_the_result_in_the_games_words():
    from tabletop_lab.board_adapter import load_adapter

    state = load({"a1": 0, "c1": 0, "c2": 1})
    state.apply_move("jump c1 c3")
    assert load_adapter(state.game).result_words(state) == render.result_words(state)


def test_docstring_examples():
    import doctest

    result = doctest.testmod(render)
    assert result.attempted > 0 and result.failed == 0
