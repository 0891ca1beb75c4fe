"""The Board's seats and what each seat sees: seats follow the player count and the teams, the
pickers offer only agents that support the game, and with hidden information everything the
Board shows comes from the viewing seat (hot-seat play behind a hand-over screen)."""

import json

import ipywidgets as widgets
import pytest
from matplotlib.colors import same_color
from matplotlib.text import Text

import tests.widgets.toy_boards  # noqa: F401  (registers the toy games and their boards)
from tabletop_lab import load_game
from tabletop_lab.agents import agents_for
from tabletop_lab.render import figure_png
from tabletop_lab.testing import check_game
from tabletop_lab.widgets import Board
from tests.widgets.toy_secret import COLOURS

# --- player counts and teams ----------------------------------------------------------------


def picker_specs(board):
    return [picker.value for picker in board.seat_pickers]


def test_new_game_with_more_players_rebuilds_the_seats():
    board = Board("test_nim", seats=["human", "human"])
    board.new_game(players=3)
    assert board.game.num_players == 3 and board.option_controls["players"].value == 3
    assert picker_specs(board) == ["human"] * 3 and list(board.seat_row.children) == board.seat_pickers
    assert [p.description for p in board.seat_pickers] == ["Player 0", "Player 1", "Player 2"]
    assert "tl-seat-2" in board.seat_pickers[2]._dom_classes
    board.play("1")
    board.play("1")
    assert board.state.current_player() == 2  # the seat that raised IndexError before
    board.click_cell(2)
    assert board.state.current_player() == 0 and board.errors.text == ""
    assert board.moves.options[-1][0] == "3. Player 2: 2"
    board.new_game(players=2)
    assert len(board.seat_pickers) == 2 and len(board.seat_row.children) == 2


def test_new_seats_play_as_the_last_seat_did_and_agents_reply_for_them():
    board = Board("test_nim", options={"pile": 30}, seats=["human", "random"], seed=2)
    board.new_game(players=3)
    assert picker_specs(board) == ["human", "random", "random"]
    board.play("1")
    assert board.state.current_player() == 0 and len(board.state.history()) == 3
    board.seat_pickers[2].value = "human"
    board.play("1")
    assert board.state.current_player() == 2


def test_team_labels_name_each_seats_team():
    board = Board("test_team", options={"players": 4, "teams": "alternate"})
    labels = [p.description for p in board.seat_pickers]
    assert labels == ["Player 0, team A", "Player 1, team B", "Player 2, team A", "Player 3, team B"]
    board.new_game(teams="none", players=5)
    assert [p.description for p in board.seat_pickers] == [f"Player {i}" for i in range(5)]
    board.new_game(teams="alternate")
    assert board.seat_pickers[4].description == "Player 4, team A"


def test_a_move_of_two_clicks_on_the_team_board():
    board = Board("test_team", options={"players": 3})
    board.click_cell(("token", 2))
    assert board._targets() == frozenset({("step", 1), ("step", 2)})
    board.click_cell(("step", 2))
    assert board.state.history_strings() == ["2+2"] and board.state.current_player() == 1


def test_pickers_offer_only_agents_that_support_the_game():
    for name in ("test_hidden_card", "test_team", "cross_endodoi"):
        game = load_game(name)
        board = Board(game)
        offered = [spec.partition(":")[0] for _, spec in board.seat_pickers[0].options]
        assert offered == ["human", *agents_for(game)]
    assert "alphabeta" not in agents_for(load_game("test_hidden_card"))


def test_an_agent_that_cannot_play_the_game_is_refused_with_its_reason():
    with pytest.raises(ValueError, match="cannot play test_hidden_card"):
        Board("test_hidden_card", seats=["human", "alphabeta"])


def test_agents_that_stop_supporting_the_game_give_way_to_humans():
    board = Board("test_team", options={"players": 3}, seats=["human", "mcts", "mcts"])
    assert "alphabeta" not in [spec for _, spec in board.seat_pickers[0].options]
    board.new_game(players=4, teams="alternate")
    assert picker_specs(board)[0] == "human" and len(board.seat_pickers) == 4


# --- hidden information ---------------------------------------------------------------------

DEAL = {"cards": 4, "deal": 3 * 4 + 1}  # player 0 holds the ace (3), player 1 the queen (1)
HELD = {0: "ace", 1: "queen"}
ENDINGS = [["check", "check"], ["bet", "call"], ["bet", "fold"], ["check", "bet", "call"], ["check", "bet", "fold"]]


def shown_texts(board) -> list[str]:
    """Every text the board shows: labels, boxes, move list, buttons, and the picture's texts."""
    texts = [board.status.value, board.position_text.value, board.hover_label.value, board.handover_label.value]
    texts += [label for label, _ in board.moves.options]
    rows = [*board.action_buttons.children, *board.choice_row.children]
    texts += [b.description for b in rows if isinstance(b, widgets.Button)]
    texts += [b.value for b in rows if isinstance(b, widgets.Label)]
    texts += board.errors.text.splitlines()
    for text in board.figure.findobj(Text):
        if text.get_visible() and all(a.get_visible() for a in board.figure.axes if text in a.texts):
            texts.append(text.get_text())
    return texts


def assert_honest(board, viewer):
    """Nothing shown names the card of ``viewer``'s opponent unless the showdown showed it."""
    state = board.state
    texts = shown_texts(board)
    if board.position_text.value:
        assert json.loads(board.position_text.value) == state.observation(viewer)
    if not state.showdown():
        assert board.position_text.value != state.to_json()
        hidden = HELD[1 - viewer]
        assert not [t for t in texts if hidden in t], (viewer, texts)


@pytest.mark.parametrize("ending", ENDINGS, ids=" ".join)
def test_hot_seat_play_hands_the_screen_over_and_never_shows_the_opponents_card(ending):
    board = Board("test_hidden_card", options=DEAL, seats=["human", "human"])
    for bet in ending:
        mover = board.state.current_player()
        assert board.handing_over == mover
        assert board.handover_label.value == f"Hand the screen to Player {mover}, then press Ready"
        assert board.handover.layout.display != "none" and board.moves_box.layout.display == "none"
        assert not any(text for text in shown_texts(board) if "card" in text)  # the picture is blank
        assert board.action_buttons.children == () and board.position_text.value == ""
        board.ready_button.click()
        assert board.handing_over is None and board.viewer == mover
        assert HELD[mover] in " ".join(shown_texts(board))  # the player sees their own card
        assert_honest(board, mover)
        button = next(b for b in board.action_buttons.children if b.description == bet)
        button.click()
        assert board.errors.text == ""
    assert board.state.is_terminal() and board.state.history_strings() == ending
    assert board.handing_over is None  # the game is over: the last player keeps the screen
    assert_honest(board, board.viewer)


def test_pressing_during_the_hand_over_is_refused():
    board = Board("test_hidden_card", options=DEAL, seats=["human", "human"])
    board.ready()
    board.press("bet")
    assert board.handing_over == 1
    with pytest.raises(ValueError, match="no button 'call'"):
        board.press("call")
    assert board.state.history_strings() == ["bet"]
    board.ready()
    board.undo()  # back to player 0's turn: the screen goes back too
    assert board.handing_over == 0 and board.state.history() == []


def test_against_an_agent_the_human_views_throughout_without_hand_over():
    for seed in range(4):
        board = Board("test_hidden_card", options=DEAL, seats=["random", "human"], seed=seed)
        while not board.state.is_terminal():
            assert board.handing_over is None and board.viewer == 1
            assert_honest(board, 1)
            board.press(board.action_buttons.children[0].description)
        assert board.viewer == 1
        assert_honest(board, 1)


def test_agents_alone_show_a_seats_view_until_all_cards_are_shown():
    """No human seat: the screen shows seat 0's view, not everything, until "show all cards"."""
    board = Board("test_hidden_card", options=DEAL, seats=["random", "random"], seed=0)
    assert board.state.is_terminal() and board.viewer == 0 and board.handing_over is None
    assert json.loads(board.position_text.value) == board.state.observation(0)
    board.show_all_button.click()
    assert board.viewer is None and board.position_text.value == board.state.to_json()
    assert board.cards_note.value == "All cards have been shown in this game"
    assert board.record().cards_shown


# --- a secret action: the move list and everything else the same whatever was picked --------


def guesser_view(board) -> tuple:
    """Everything the board shows the guesser, hovering over each colour in turn, and the picture."""
    hovers = []
    for colour in COLOURS:
        board._hover_cell(colour)
        hovers.append(board.hover_label.value)
    board._hover_cell(None)
    return shown_texts(board), hovers, figure_png(board.figure)


def test_the_guesser_sees_the_same_board_whatever_was_picked_in_secret():
    views = []
    for colour in COLOURS:
        board = Board("test_secret_pick", seats=["human", "human"])
        board.ready()
        board.click_cell(colour)
        assert board.handing_over == 1
        board.ready()
        assert board.viewer == 1 and board.you_label.value == "You are Guesser"
        assert [label for label, _ in board.moves.options] == ["start", "1. Picker: pick ?"]
        assert json.loads(board.position_text.value)["pick"] == "?"
        views.append(guesser_view(board))
        board.click_cell(colour)  # a right guess: the game is over and the pick is shown
        assert board.status.value == "Game over: Guesser wins, 0–1"
        assert board.moves.options[1][0] == "1. Picker: pick ?"  # as the guesser saw it then
    assert views[0] == views[1] == views[2]
    assert all("?" in text for text in views[0][0] if text.startswith("pick"))


def test_the_picker_sees_their_own_pick():
    board = Board("test_secret_pick", seats=["human", "random"], seed=0)
    board.click_cell("teal")
    assert board.moves.options[1][0] == "1. Picker: pick teal" and board.viewer == 0


def test_the_secret_pick_game_passes_the_conformance_harness():
    report = check_game(load_game("test_secret_pick"), n_games=12, seed=3)
    assert report["games"] == 12 and report["hidden_varied"] > 0


def test_sinomilia_hot_seat_each_player_gets_their_own_cards_after_the_hand_over():
    """A real game whose cells depend on the side drawn (the viewer's hand at the bottom): the
    first view after Ready already offers the new viewer's cards, and masks the other's card."""
    board = Board("sinomilia", seats=["human", "human"])
    board.ready()
    board.click_cell(("hand", 3))  # Orange sets card 3
    board.ready()
    assert board.viewer == 1 and board.status.value.startswith("Green to move")
    assert board._targets() and all(cell[0] == "hand" for cell in board._targets())
    assert [b.description for b in board.action_buttons.children] == []  # the cards are cells, not buttons
    rings = [p for p in board.ax.patches if same_color(p.get_edgecolor(), "#1b9e77")]
    assert len(rings) == len(board._targets())  # the first picture rings them already
    assert [label for label, _ in board.moves.options] == ["start", "1. Orange: set ?"]
    assert json.loads(board.position_text.value)["set"][0] == "?"


def test_pickers_and_the_status_name_agents_in_words_and_fit_them():
    board = Board("capitals", seats=["human", "mcts:iterations=300", "human", "random"])
    labels = [label for label, _ in board.seat_pickers[1].options]
    assert labels[:3] == ["human", "Random", "Greedy"] and "MCTS, 300 playouts" in labels
    assert not [label for label in labels if ":" in label or "=" in label]  # no raw settings
    assert all(p.layout.width == "max-content" and p.style.description_width == "initial" for p in board.seat_pickers)
    sinomilia = Board("sinomilia", seats=["human", "sinomilia_heuristic:bluff=0.5"])
    assert "Heuristic, bluffs 50%" in [label for label, _ in sinomilia.seat_pickers[1].options]
    cross = Board(seats=["random", "human"], seed=1)
    assert cross.session.who(0) == "South (Random)"


def test_seats_name_teams_as_the_picture_does():
    board = Board("sinoda", options={"players": 4, "teams": "pairs"})
    assert [p.description for p in board.seat_pickers] == [
        "Blue, team dark",
        "Red, team light",
        "Green, team dark",
        "Yellow, team light",
    ]
    assert "team light" in " ".join(t.get_text() for t in board.ax.texts)  # the picture's panel says the same


def test_options_read_as_names_and_choices_not_json_text():
    import ipywidgets as widgets

    cross = Board()
    first = cross.option_controls["first_player"]
    assert isinstance(first, widgets.Dropdown) and [label for label, _ in first.options] == ["South", "North"]
    sinoda = Board("sinoda")
    board_option = sinoda.option_controls["board"]
    assert isinstance(board_option, widgets.Dropdown) and board_option.options == (("Standard", "standard"),)
    capitals = Board("capitals")
    cycles = capitals.option_controls["max_cycles"]
    assert isinstance(cycles, widgets.Dropdown) and cycles.value == 200 and ("no cap", None) in cycles.options
    cycles.value = None
    capitals.new_game()
    assert capitals.game.options["max_cycles"] is None
    sinomilia = Board("sinomilia", seats=["human", "random"])
    assert isinstance(sinomilia.option_controls["round_cap"], widgets.Dropdown)
