"""The gallery: the landing page that links every app, built from the app notebooks' metadata.

The app server answers the gallery itself (``tabletop_lab.appserver``), without a kernel: the
page is plain HTML from :func:`gallery_html`, and the cards' pictures are PNG files that one
short-lived process draws when the server starts (``python -m tabletop_lab.gallery FOLDER``),
so that the server never loads matplotlib or pandas. The gallery notebook
(``notebooks/apps/index.ipynb``, for JupyterLab) shows the same page with the pictures inline.

:func:`gallery_html` needs only the standard library; :func:`thumbnail_png` draws with the
rendering layer.
"""

from __future__ import annotations

import base64
import os
import sys
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from .serve import AppInfo, list_apps

if TYPE_CHECKING:
    from .analysis.puzzles import Puzzle

__all__ = ["gallery_html", "inline_gallery_html", "thumbnail_png", "write_thumbnails"]

TITLE = "tabletop_lab"

INTRO = (
    "Pick an app below. The teaching notebooks (rules, exploration, statistics) are not served "
    "here: Voila only runs apps. Copy them out with <code>tabletop-lab notebooks my-notebooks</code> "
    "and open them in JupyterLab, or from a checkout of the repository run "
    "<code>jupyter lab notebooks/index.ipynb</code>."
)

STYLE = """<style>
.tl-gallery {display: flex; flex-wrap: wrap; gap: 16px;}
.tl-app-card {display: flex; flex-direction: column; gap: 6px; width: 320px; padding: 12px;
  border: 1px solid #ccc; border-radius: 6px; color: inherit; text-decoration: none; line-height: 1.4;}
.tl-app-card:hover {border-color: #1f77b4; background: #f5f9fc;}
.tl-app-card img {width: 100%; height: auto;}
.tl-app-card strong {font-size: 1.1em; color: #1f77b4;}
</style>"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>{style}</head>
<body style="font-family: sans-serif; margin: 2em;">
<h1>{title}</h1>
<p>{intro}</p>
{cards}
</body></html>
"""


def cards_html(apps: list[AppInfo], picture: Callable[[AppInfo], str]) -> str:
    """The cards, one per app; ``picture(app)`` is its image's ``src``. Links are relative to the
    gallery's own address, so they work under any server prefix."""
    cards = "".join(
        f'<a class="tl-app-card" href="{escape(app.notebook)}">'
        f'<img alt="" src="{escape(picture(app))}">'
        f"<strong>{escape(app.title)}</strong><span>{escape(app.description)}</span></a>"
        for app in apps
    )
    return STYLE + f'<div class="tl-gallery">{cards}</div>'


def gallery_html(apps: list[AppInfo], picture: Callable[[AppInfo], str]) -> str:
    """The whole gallery page."""
    return PAGE.format(title=TITLE, style="", intro=INTRO, cards=cards_html(apps, picture))


def inline_gallery_html(root: Path | str | None = None) -> str:
    """The cards with their pictures inline (``data:`` URLs), for the gallery notebook."""
    apps = list_apps(root)
    pictures = {app.notebook: base64.b64encode(thumbnail_png(app)).decode("ascii") for app in apps}
    return cards_html(apps, lambda app: f"data:image/png;base64,{pictures[app.notebook]}")


def thumbnail_png(app: AppInfo) -> bytes:
    """A play app's card shows a telling position of its game (its ``thumbnail``), a puzzles
    app's card the first puzzle of its game, a study app's card the saved skill ladder of its
    game: what each app is about, at a glance."""
    from . import data, plots
    from .analysis.puzzles import load_puzzles
    from .registry import load_game
    from .render import figure_png, state_png

    if app.kind == "study":
        import pandas as pd
        from matplotlib.figure import Figure

        figure = Figure(figsize=(6, 4.5), layout="constrained")
        plots.plot_tournament(pd.read_parquet(data.data_path(app.game, "ladder.parquet")), ax=figure.add_subplot())
        return figure_png(figure)
    if app.kind == "puzzles":
        return _puzzle_png(load_puzzles(app.game)[0])
    state = data.load_position(app.game, app.thumbnail) if app.thumbnail else load_game(app.game).new_initial_state()
    return state_png(state)


def _puzzle_png(puzzle: Puzzle) -> bytes:
    """A puzzle's position as its board shows it, the task its title, the solution marked as a
    hint is."""
    from matplotlib.figure import Figure

    from .board_adapter import load_adapter
    from .render import figure_png

    state = puzzle.state()
    solved = state.clone()
    solved.apply_move(puzzle.solution)
    adapter = load_adapter(state.game)
    figure = Figure(figsize=adapter.figsize)
    ax = adapter.setup(figure)
    selected, targets = adapter.move_marks(state, solved.history()[len(state.history()) :])
    adapter.draw(state, selected=selected, targets=targets)
    goal = "win" if puzzle.goal == "win" else "save the game"
    ax.set_title(f"Puzzle: {adapter.player_name(state.current_player())} to move and {goal}", fontsize=11)
    return figure_png(figure)


def thumbnail_name(app: AppInfo) -> str:
    """The file name of ``app``'s picture in the thumbnails folder."""
    return Path(app.notebook).stem + ".png"


def write_thumbnails(folder: Path | str, root: Path | str | None = None) -> dict[str, str]:
    """Draw every app's picture into ``folder`` (each file appears whole: written, then renamed);
    return the apps whose picture could not be drawn, with the reason (their cards show none)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    failed = {}
    for app in list_apps(root):
        try:
            png = thumbnail_png(app)
        except (ValueError, OSError) as exc:  # an unknown game or position, a missing study file
            failed[app.notebook] = str(exc)
            continue
        part = folder / (thumbnail_name(app) + ".part")
        part.write_bytes(png)
        os.replace(part, folder / thumbnail_name(app))
    return failed


if __name__ == "__main__":  # python -m tabletop_lab.gallery FOLDER [ROOT]: what the app server runs
    for notebook, reason in write_thumbnails(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None).items():
        print(f"{notebook}: no picture: {reason}", file=sys.stderr)
