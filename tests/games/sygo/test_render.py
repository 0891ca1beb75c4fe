"""Sygo renderer and board adapter: positions (mid-turn too) draw without error, with their marks."""

from matplotlib.collections import PatchCollection
from matplotlib.patches import Circle, Rectangle

from tabletop_lab import load_game
from tabletop_lab.games.sygo import render
from tabletop_lab.games.sygo.board import Adapter


def position(notation):
    return load_game("sygo", size=len(notation.split("/"))).state_from_notation(notation)


def stones_drawn(ax, colour):
    face = render.STONE[colour][0]
    return sum(
        len(c.get_paths())
        for c in ax.collections
        if isinstance(c, PatchCollection) and len(c.get_paths()) and _hex(c.get_facecolor()[0]) == face
    )


def _hex(rgba):
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])


def test_every_stone_is_drawn_with_coordinates():
    state = position("...../..B../.W.W./...../..... W g 0")
    ax = render.draw(state)
    assert stones_drawn(ax, "W") == 2 and stones_drawn(ax, "B") == 1
    labels = {t.get_text() for t in ax.texts}
    assert {"a", "e", "1", "5"} <= labels
    assert "White to move" in ax.get_title()


def test_last_turn_stones_and_reversed_stones_are_marked():
    state = position("...../...../W..../...../BW... W g 0")
    state.apply_move("grow a2 c1")
    ax = render.draw(state)
    dots = [p for p in ax.patches if isinstance(p, Circle) and p.get_facecolor()[:3] == (214 / 255, 39 / 255, 40 / 255)]
    assert sorted(d.center for d in dots) == [(0, 1), (2, 0)]  # a2 and c1
    squares = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_width() < 0.5]
    assert [(s.get_x() + 0.17, s.get_y() + 0.17) for s in squares] == [(0, 0)]  # a1, reversed


def test_a_growth_turn_in_progress_is_drawn_with_numbers_and_closed_groups():
    state = position("...../...../W..../...../BW... W g 0")
    state.apply_action(state.string_to_action("grow a2"))
    ax = render.draw(state, legal=True)
    assert "1" in {t.get_text() for t in ax.texts} and "growing" in ax.get_title()
    assert len([line for line in ax.lines if line.get_color() == render.CLOSED]) == 4  # two crosses


def test_overlays():
    state = position("...../..B../.W.W./...../..... B g 0")
    ax = render.draw(state, liberties="b3", territory=True, heat={"a1": 3, "e5": 1}, highlight=["c1"])
    liberty_dots = [p for p in ax.patches if isinstance(p, Circle) and p.get_radius() == 0.15]
    assert len(liberty_dots) == 4
    assert len([p for p in ax.patches if isinstance(p, Rectangle) and p.get_width() == 1]) == 2
    assert any(isinstance(p, Circle) and p.center == (2, 0) and not p.get_fill() for p in ax.patches)


def test_adapter_cells_and_buttons():
    game = load_game("sygo", size=5)
    state = game.state_from_notation("...../...../.W.W./...../..... W g 0")
    adapter = Adapter(game)
    assert adapter.cell_at(*adapter.cell_xy("c3")) == "c3" and adapter.cell_at(7, 7) is None
    cells = {adapter.action_cells(state, a) for a in state.legal_actions()}
    assert () in cells and ("c3",) in cells
    assert adapter.button_label(state, 0) == "Pass"
    state.apply_action(state.string_to_action("grow c3"))
    assert adapter.action_cells(state, 1) == () and adapter.button_label(state, 1) == "Finish turn"
    from matplotlib.figure import Figure

    figure = Figure(figsize=adapter.figsize)
    adapter.setup(figure)
    adapter.draw(state, targets=frozenset({"c2"}))
    assert adapter.ax.get_title().startswith("White growing")


def test_refusals_name_the_rule():
    game = load_game("sygo", size=5)
    adapter = Adapter(game)
    state = game.state_from_notation("...../...../.W.W./...../..... W g 0")
    assert "occupied" in adapter.refusal(state, ("b3",))
    state.apply_action(state.string_to_action("grow c3"))
    assert "already grown" in adapter.refusal(state, ("b2",))
    assert "not adjacent to a growing group" in adapter.refusal(state, ("a1",))
    assert adapter.legend()


def territory_squares(ax, colour):
    return sum(len(c.get_paths()) for c in ax.collections if c.get_gid() == f"territory-{colour}")


def test_the_end_says_stones_and_territory_and_marks_the_territory():
    """Rule 2.7 and the worked example 8.8: the count behind each score, and its points shown."""
    black = position(".../.B./... W - 2")
    assert render.result_words(black) == (
        "Game over: Black wins, 9–0: Black 1 stone + 8 territory, White 0 stones + 0 territory"
    )
    ax = render.draw(black)
    assert territory_squares(ax, "B") == 8 and territory_squares(ax, "W") == 0
    assert ax.get_title().replace("\n", " ").startswith("Game over: Black wins, 9–0")
    drawn = position("W.B/W.B/W.B W g 2")  # the middle column touches both colours: nobody's
    assert (
        render.result_words(drawn)
        == "Game over: a draw, 3–3: White 3 stones + 0 territory, Black 3 stones + 0 territory"
    )
    assert territory_squares(render.draw(drawn), "W") == territory_squares(render.draw(drawn), "B") == 0
    white = position("WW./W../... B g 2")
    assert render.result_words(white).startswith("Game over: White wins, 9–0: White 3 stones + 6 territory")
    assert Adapter(white.game).result_words(white) == render.result_words(white)


def test_komi_is_shown_beside_the_scores_and_counted_in_the_result():
    """Decision 15: the status line names the komi after the scores; the end adds it to Black's count."""
    game = load_game("sygo", size=3, komi=1.5)
    playing = game.state_from_notation("WWB/W.B/W.B B g 0")
    assert render.status_text(playing) == "Black to move · White 4 – Black 4.5 (komi 1.5)"
    assert render.status_text(position("WWB/W.B/W.B B g 0")) == "Black to move · White 4 – Black 3"
    over = game.state_from_notation("WWB/W.B/W.B W g 2")
    assert render.result_words(over) == (
        "Game over: Black wins, 4.5–4: Black 3 stones + 0 territory + 1.5 komi, White 4 stones + 0 territory"
    )
    assert Adapter(game).result_words(over) == render.result_words(over)


def test_territory_is_marked_only_when_the_game_is_over():
    ax = render.draw(position("WW./W../... B g 0"))
    assert territory_squares(ax, "W") == 0


def test_growth_and_placement_points_are_told_apart_before_the_click():
    """At the start of a turn a click on a point next to a group of the mover grows it; on a
    point touching none places a stone: the rings differ (issue: the same ring everywhere)."""
    from matplotlib.figure import Figure

    game = load_game("sygo", size=5)
    state = game.state_from_notation("...../...../.W.W./...../..... W g 0")
    adapter = Adapter(game)
    adapter.setup(Figure(figsize=adapter.figsize))
    targets = frozenset(
        adapter.action_cells(state, a)[0] for a in state.legal_actions() if adapter.action_cells(state, a)
    )
    adapter.draw(state, targets=targets)
    gids = {p.get_gid() for p in adapter.ax.patches if p.get_gid()}
    assert "grow c3" in gids and "grow b2" in gids  # next to White's stones: growth
    assert "place a1" in gids and "place e5" in gids  # touching no white stone: a placement
    assert not {"place c3", "grow a1"} & gids
    grown = {g.split()[1] for g in gids if g.startswith("grow ")}
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert grown == {t for t in targets if f"grow {t}" in legal}
    assert "dashed blue ring" in adapter.legend()


def test_refusals_read_in_the_players_words():
    game = load_game("sygo", size=5)
    adapter = Adapter(game)
    state = game.state_from_notation("...../...../.W.W./...../..... W g 0")
    assert adapter.explain(adapter.refusal(state, ("b3",)), state).words == "Point b3 is taken: choose an empty point."
    state.apply_action(state.string_to_action("grow c3"))
    refusal = adapter.explain(adapter.refusal(state, ("a1",)), state)
    assert refusal.words.startswith("Point a1 touches none of your groups") and refusal.rule == "2.4.2"
