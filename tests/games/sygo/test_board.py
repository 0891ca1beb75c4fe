"""Sygo on the generic Board widget: a growth turn stone by stone, Finish and Pass buttons."""

from tabletop_lab.widgets import Board


def test_a_growth_turn_clicked_stone_by_stone_then_finished():
    board = Board("sygo", options={"size": 5})
    for point in ("b3", "b4", "d3", "d4"):  # placements, White and Black in turn
        board.click_cell(point)
    assert board.state.notation() == "...../.B.B./.W.W./...../..... W - 0"
    board.click_cell("c3")  # grows both white groups
    assert board.state.mid_turn() and board.state.move_in_progress() == ["grow c3"]
    labels = [b.description for b in board.action_buttons.children]
    assert labels == ["Finish turn"]
    board.action_buttons.children[0].click()
    assert board.state.notation() == "...../.B.B./.WWW./...../..... B g 0"
    assert board.moves.options[-1][0].endswith("grow c3")
    assert [b.description for b in board.action_buttons.children] == ["Pass"]
    assert board.errors.text == ""


def test_a_refused_click_names_the_rule():
    board = Board("sygo", options={"size": 5})
    board.click_cell("c3")
    board.click_cell("c4")
    board.click_cell("c3")
    assert "occupied" in board.errors.text or "occupied" in board.status.value


def test_hovering_says_whether_a_click_places_or_grows():
    board = Board("sygo", options={"size": 5}, position="...../...../.W.W./...../..... W g 0", seats=["human", "human"])
    board._hover_cell("c3")
    assert board.hover_label.value.startswith("c3: grows your group there")
    board._hover_cell("a5")
    assert board.hover_label.value == "a5: places a new stone"
