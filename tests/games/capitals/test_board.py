"""The Capitals board adapter: polygon cells, click sequences and buttons."""

from matplotlib.figure import Figure

from tabletop_lab import load_game
from tabletop_lab.board_adapter import load_adapter
from tabletop_lab.games.capitals.board import Adapter

from .helpers import load

HOME = {"a1": 0, "h1": 1, "h8": 2, "a8": 3}


def strings(state, adapter):
    return {state.action_to_string(a): adapter.action_cells(state, a) for a in state.legal_actions()}


def test_every_square_is_found_at_its_centre_and_nowhere_else():
    adapter = load_adapter(load_game("capitals"))
    assert isinstance(adapter, Adapter)
    for name in adapter.polygons:
        assert adapter.cell_at(*adapter.cell_xy(name)) == name
    assert adapter.cell_at(5.0, 0.0) is None  # outside the diamond
    assert adapter.cell_at(0.0, 0.6) == "a1" and adapter.cell_at(0.6, 1.2) == "b1"


def test_click_sequences():
    adapter = Adapter(load_game("capitals"))
    state = load({**HOME, "d4": (0, 0, 2), "c1": 0, "c2": 1, "c4": 3}, cages=[[1], [], [], []])
    cells = strings(state, adapter)
    assert cells["step d4 e5"] == ("d4", "e5") == cells["dismantle d4 e5"]  # the Board asks which
    assert cells["jump c1 c3"] == ("c1", "c3")
    state.apply_action(state.string_to_action("jump c1 c3"))
    assert strings(state, adapter) == {"hop c5": ("c5",), "stop": ()}
    assert adapter.button_label(state, state.string_to_action("stop")) == "stop"


def test_buttons_for_synergy_and_skip():
    adapter = Adapter(load_game("capitals"))
    state = load({**HOME, "d4": 0, "d5": 2}, cages=[[1], [], [], []])
    cells = strings(state, adapter)
    assert cells["transfer"] == () and cells["pass-turn"] == ()


def test_draws_on_a_figure():
    adapter = Adapter(load_game("capitals"))
    ax = adapter.setup(Figure(figsize=adapter.figsize))
    adapter.draw(load(HOME), targets=frozenset({"b2"}), selected=("a1",))
    assert ax.get_title().startswith("Cycle 1")


def test_the_board_widget_plays_a_step_and_a_chain_by_clicks():
    from tabletop_lab.widgets import Board

    board = Board("capitals")
    board.click_cell("c3")
    board.click_cell("d4")
    assert board._state.history_strings() == ["step c3 d4"]
    chain = Board("capitals", position=load({**HOME, "c1": 0, "c2": 1, "c4": 3}))
    for cell in ["c1", "c3", "c5"]:
        chain.click_cell(cell)
    assert chain._state.history_strings() == ["jump c1 c3", "hop c5"] and not chain._state.mid_turn()
    assert chain._state.cages[0] == [1, 3]


def hunger_sacrifice_due():
    """A Hunger cycle: White (top) stepped without capturing and owes a sacrifice (rule 5.2)."""
    state = load({**HOME, "d4": 0, "e4": (0, 0, 2)}, cycle=4)
    state.apply_move("step d4 d5")
    assert state.pending_sacrifice  # the premise
    return state


def test_the_hunger_sacrifice_is_asked_for_in_the_status_and_in_refusals():
    from tabletop_lab.widgets import Board

    board = Board("capitals", seats=["human"] * 4, position=hunger_sacrifice_due())
    assert board.status.value == "White (top) to move: Hunger: choose one of your pieces to sacrifice"
    board.click_cell("c3")  # an empty square
    assert board.errors.text.startswith("Hunger: c3 is empty. Choose one of your pieces to sacrifice.")
    assert "no legal action" not in board.errors.text and "Rule 5.2 Hunger sacrifice" in board.errors.text
    board.click_cell("h1")  # Black's
    assert board.errors.text.startswith("Hunger: the unit on h1 is not yours.")
    board.click_cell("e4")  # a Ram, without sacrifice_from_ram
    assert board.errors.text.startswith("Hunger: e4 is a Ram")
    board.click_cell("d5")
    assert board.state.altars[0] == [0] and board.status.value == "Black (right) to move"


def test_refusals_of_first_and_second_clicks_name_the_reason():
    adapter = Adapter(load_game("capitals"))
    state = load({**HOME, "d4": 0, "e5": 1})
    assert adapter.explain(adapter.refusal(state, ("c3",)), state).words == (
        "There is no piece on c3: click one of your own units first."
    )
    refusal = adapter.explain(adapter.refusal(state, ("h1",)), state)
    assert refusal.words == "The unit on h1 is Black (right)'s: you move only the units you control."
    assert refusal.rule == "1.3"
    step = adapter.explain(adapter.refusal(state, ("d4", "e5")), state)
    assert step.words == "e5 holds an enemy unit: a step never lands on one; capture by jumping over it."
    assert step.rule == "3.1"


def test_the_legend_explains_the_marks():
    legend = Adapter(load_game("capitals")).legend()
    for mark in ("outline", "Ram", "Stars", "Capitals", "Cage", "Altar", "arrows", "HUNGER"):
        assert mark in legend
