"""The analysis as the explore notebooks show it: a summary in words, the table of moves and a
bar figure of the best moves' win chances, the same in every game's notebook.

>>> from tabletop_lab import load_game
>>> from tabletop_lab.analysis import analyse
>>> state = load_game("cross_endodoi").state_from_notation("0,0,0,0,0,1/0,0,0,0,0,1 20-14 0")
>>> print(summary(analyse(state, budget=200), ("South", "North")))
**Best move: `5`**, a win chance of 100% for South (proven: a forced result, not an estimate). **The line:** `5` → `11` → `4` → `10` → `3`
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .position import Analysis

__all__ = ["summary", "moves_table", "plot_moves", "FIGURE_MOVES"]

#: The most moves in ``plot_moves``'s figure (the best first).
FIGURE_MOVES = 8


def _side_name(found: Analysis, names: Sequence[str]) -> str:
    """The side to move, by name: its player, or its team (``"Red, Yellow and Orange"``)."""
    named = [names[p] if p < len(names) else f"player {p}" for p in found.side]
    return " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


def summary(found: Analysis, names: Sequence[str] = ()) -> str:
    """One Markdown paragraph: the best move, its win chance for the side to move (``names``:
    the players' names, by seat), whether it is proven, and the best line."""
    certainty = "proven: a forced result, not an estimate" if found.proven else "an estimate of the search"
    line = " → ".join(f"`{move}`" for move in found.line)
    return (
        f"**Best move: `{found.best_move}`**, a win chance of {found.value:.0%} for "
        f"{_side_name(found, names)} ({certainty}). **The line:** {line}"
    )


def moves_table(found: Analysis) -> Any:
    """``found.to_frame()`` indexed by move, with ``value`` named ``win chance`` (as people read it)."""
    return found.to_frame().set_index("move").rename(columns={"value": "win chance"})


def plot_moves(found: Analysis, names: Sequence[str] = (), top: int = FIGURE_MOVES, ax: Any = None) -> Any:
    """Horizontal bars of the win chance of the best ``top`` valued moves, best at the top;
    proven moves green, estimates blue, a dashed line at an even chance. Returns the Axes."""
    import matplotlib.pyplot as plt

    shown = [m for m in found.moves if m.value is not None][:top]
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 0.45 * len(shown) + 1.4), layout="constrained")
    labels = [m.move for m in shown][::-1]
    values = [m.value for m in shown][::-1]
    colours = ["tab:green" if m.proven else "tab:blue" for m in shown][::-1]
    bars = ax.barh(labels, values, color=colours)
    ax.bar_label(bars, labels=[f"{v:.0%}" for v in values], padding=2, fontsize="small")
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlim(0, 1.12)
    ax.set_xlabel(f"win chance for {_side_name(found, names)} (green: proven)")
    ax.set_title(f"The expert's view ({found.budget:,} simulations, seed {found.seed})", fontsize="medium")
    return ax
