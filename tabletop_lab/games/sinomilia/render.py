"""Draw a Sinomilia table with matplotlib, as one seat sees it.

The viewer sits at the bottom (Orange when everything is shown), the opponent at the top; data
coordinates x 0..10, y 0..7::

    y 6.3   opponent: name, start marker, pile, change card     discards
    y 5.3   opponent's hand (face down for a viewer)  [set card]
    y 3.5   the table: sun chips, moon chips, T and M            last round's report
    y 1.7   viewer's hand (face up)                    [set card]
    y 0.7   viewer: name, start marker, pile, change card        discards

``draw`` reads only ``state.observation(viewer)`` when a viewer is given, so the opponent's set
card and hand are never in the picture: their hand is drawn as backs (its size is public) and
their set card as a back until the round's report reveals it. Text artists of cards carry a
``gid`` (``"hand-<player>"``, ``"set-<player>"``, ``"discard-<player>"``) so tests can read them.
"""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyBboxPatch

from ...board_adapter import wrap_title
from .rules import PLAYER_NAMES, SinomiliaState

__all__ = ["AXES_RECT", "FIGSIZE", "draw", "card_xy", "set_card_xy", "status_text", "report_text"]

FIGSIZE = (8.0, 5.6)
AXES_RECT = (0.0, 0.0, 1.0, 0.92)  # the top strip holds the title
XLIM, YLIM = (0.0, 10.0), (0.0, 7.0)
CARD_W, CARD_H = 0.48, 0.8
HAND_Y = {"bottom": 1.7, "top": 5.3}
INFO_Y = {"bottom": 0.55, "top": 6.45}
COLOURS = ("#e67e22", "#27ae60")  # Orange, Green
BACK = "#5d6d7e"
SUN, MOON = "#f4c542", "#34495e"
FELT = "#f3efe6"
FELT_INK = "#222222"  # text on the felt: dark whatever the page around the table


def card_xy(slot: int, side: str) -> tuple[float, float]:
    """The centre of hand slot ``slot`` (0..9, card k sits in slot k) on ``side`` (bottom/top).

    >>> card_xy(0, "bottom"), card_xy(9, "top")
    ((0.6, 1.7), (6.0, 5.3))
    """
    return (round(0.6 + 0.6 * slot, 2), HAND_Y[side])


def set_card_xy(side: str) -> tuple[float, float]:
    """The centre of the set card's place on ``side``."""
    return (7.2, HAND_Y[side])


def draw(state: SinomiliaState, ax: Axes | None = None, *, viewer: int | None = None, title: str | None = None) -> Axes:
    """Draw ``state`` for seat ``viewer`` (``None``: everything face up) and return the axes.

    A pure function of its inputs; a new ``Figure`` is made when ``ax`` is None.
    """
    if ax is None:
        ax = Figure(figsize=FIGSIZE).add_axes(AXES_RECT)
    data = state.to_dict() if viewer is None else state.observation(viewer)
    report = state.last_round_report
    bottom = 0 if viewer is None else viewer
    ax.set_xlim(*XLIM)
    ax.set_ylim(*YLIM)
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()
    ax.add_patch(FancyBboxPatch((0.1, 0.1), 9.8, 6.8, boxstyle="round,pad=0.05", fc=FELT, ec="#b8a98a", lw=1.5))
    for player, side in ((bottom, "bottom"), (1 - bottom, "top")):
        _draw_player(ax, data, player, side)
    _draw_table(ax, data)
    if report is not None:
        ax.text(
            8.3,
            3.5,
            report_text(report),
            ha="center",
            va="center",
            fontsize=8,
            gid="report",
            linespacing=1.4,
            color=FELT_INK,
        )
    ax.set_title(
        wrap_title(title if title is not None else status_text(state, viewer), ax.figure.get_figwidth()), fontsize=11
    )
    return ax


def _draw_player(ax: Axes, data: dict, player: int, side: str) -> None:
    colour = COLOURS[player]
    hand, card = data["hands"][player], data["set"][player]
    discards = data["discards"][player]
    y = INFO_Y[side]
    label = PLAYER_NAMES[player] + ("  (start player)" if data["start_player"] == player else "")
    ax.text(0.3, y, label, ha="left", va="center", fontsize=10, fontweight="bold", color=colour)
    ax.text(3.3, y, f"pile {data['chips'][player]}", ha="left", va="center", fontsize=9, color=FELT_INK)
    used = data["changed"][player]
    ax.add_patch(Circle((4.8, y), 0.16, fc=MOON if used else SUN, ec="#555", lw=0.8))
    ax.text(5.05, y, "change used" if used else "change ready", ha="left", va="center", fontsize=8, color=FELT_INK)
    ax.text(
        6.9, y, "discards " + (" ".join(map(str, discards)) or "-"), ha="left", va="center", fontsize=8, color=FELT_INK
    )
    if hand is None:  # the opponent's hand, seen from the other seat: backs, as many as they hold
        held = 10 - len(discards) - (card is not None)
        for slot in range(held):
            _card(ax, card_xy(slot, side), None, colour, f"hand-{player}")
    else:
        for k in hand:
            _card(ax, card_xy(k, side), k, colour, f"hand-{player}")
    x, yy = set_card_xy(side)
    ax.text(x, yy + CARD_H / 2 + 0.15, "set card", ha="center", va="bottom", fontsize=7, color=FELT_INK)
    if card is None:
        ax.add_patch(
            FancyBboxPatch(
                (x - CARD_W / 2, yy - CARD_H / 2),
                CARD_W,
                CARD_H,
                boxstyle="round,pad=0.03",
                fc="none",
                ec="#999",
                ls="--",
            )
        )
    else:
        _card(ax, (x, yy), None if card == "?" else card, colour, f"set-{player}")


def _card(ax: Axes, xy: tuple[float, float], value: int | None, colour: str, gid: str) -> None:
    """A card at ``xy``: face up with ``value``, or its back when ``value`` is None."""
    x, y = xy
    face = "white" if value is not None else BACK
    ax.add_patch(
        FancyBboxPatch(
            (x - CARD_W / 2, y - CARD_H / 2), CARD_W, CARD_H, boxstyle="round,pad=0.03", fc=face, ec=colour, lw=2
        )
    )
    if value is not None:
        ax.text(x, y, str(value), ha="center", va="center", fontsize=13, fontweight="bold", color=colour, gid=gid)


def _draw_table(ax: Axes, data: dict) -> None:
    sun, moon = data["table"]
    for i in range(sun + moon):
        face = SUN if i < sun else MOON
        ax.add_patch(Circle((1.0 + 0.5 * i, 3.5), 0.2, fc=face, ec="#555", lw=0.8))
    ax.text(
        0.6,
        2.9,
        f"table: {sun} sun, {moon} moon   (T = {sun + moon}, M = {moon})",
        ha="left",
        va="center",
        fontsize=9,
        color=FELT_INK,
    )


def status_text(state: SinomiliaState, viewer: int | None = None) -> str:
    """One line: the round and who is to act, or the result."""
    data = state.to_dict()
    result = state.result()
    if result is not None:
        how = {"chips": "a pile is empty", "hand": "a hand is down to 2 cards", "cap": "the round cap"}[result.reason]
        c0, c1 = result.scores
        return f"Game over after round {data['round']} ({how}): {PLAYER_NAMES[result.winners[0]]} wins, {c0}-{c1}"
    mover = PLAYER_NAMES[data["to_move"]]
    doing = "to set a card" if data["phase"] == "set" else "to play"
    you = " (you)" if viewer is not None and viewer == data["to_move"] else ""
    return f"Round {data['round']}: {mover}{you} {doing}"


def result_words(state: SinomiliaState) -> str:
    """The end in words: why the game ended, who wins, and the chips each side holds (the
    winner's first; equal piles go to the last round's winner)."""
    result = state.result()
    if result is None:
        raise ValueError("sinomilia: the game is not over, so it has no result to word")
    how = {"chips": "a pile is empty", "hand": "a hand is down to 2 cards", "cap": "the round cap"}[result.reason]
    winner = result.winners[0]
    chips = result.scores
    text = (
        f"Game over after round {state.to_dict()['round']} ({how}): {PLAYER_NAMES[winner]} wins with "
        f"{chips[winner]} chips to {PLAYER_NAMES[1 - winner]}'s {chips[1 - winner]}"
    )
    if chips[0] == chips[1]:
        text += f" (equal piles: {PLAYER_NAMES[winner]} won the last round)"
    return text


def report_text(report) -> str:
    """The latest round's reveal and payout in a few lines."""
    o, g = report.cards
    how = {"distance": "closer", "last_action": "tie: last Actor loses", "no_action": "tie, no Action: start player"}
    winner, loser = PLAYER_NAMES[report.winner], PLAYER_NAMES[1 - report.winner]
    return (
        f"Round {report.round} revealed\nOrange {o}, Green {g}\nT = {report.table}, M = {report.moon}\n"
        f"{winner} wins ({how[report.decided]})\n{loser} paid {report.paid} of {report.owed}\n"
        f"{winner} took {report.table_taken} from the table"
    )
