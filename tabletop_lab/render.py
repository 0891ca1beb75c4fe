"""Draw any game's state: dispatch to the game's renderer (``Game.part("render")``) and make PNGs.

Every game's renderer module provides ``draw(state, ax=None, **opts) -> Axes`` (a pure
function of its inputs, drawing on a new ``matplotlib.figure.Figure`` when ``ax`` is None),
``FIGSIZE`` and ``AXES_RECT``. Only the object-oriented matplotlib API is used here, never
pyplot, so drawing makes no figure that pyplot would keep alive.

Drawings come as PNG or as SVG (crisp at any size). SVG has page themes: the ground around the
board and the ink of text drawn in matplotlib's default colour (titles, status lines) follow
``theme``, the board and its pieces never do. ``"auto"`` draws them as CSS variables that follow
the page showing the picture: JupyterLab's theme (``body[data-jp-theme-light]``) and the docs
site's switch (``data-md-color-scheme``) when the SVG is part of the page, else the browser's
colour scheme (``prefers-color-scheme``), as inside an ``<img>``, which is how JupyterLab shows
an ``image/svg+xml`` output.
"""

from __future__ import annotations

import io
from types import ModuleType
from typing import Any

import matplotlib

from .core import Game, State
from .errors import RulesError, excerpt
from .registry import game_class

__all__ = ["THEMES", "draw", "figure_png", "figure_svg", "renderer", "state_png", "state_svg"]

#: The page colours of each SVG theme: ``page`` behind the board, ``ink`` for text in the default colour.
THEMES = {"light": {"page": "#ffffff", "ink": "#000000"}, "dark": {"page": "#1e1e1e", "ink": "#e6e6e6"}}

#: What ``"auto"`` draws the page colours with before binding them to CSS variables: colours no
#: renderer uses, so that only the page colours are rebound.
_AUTO = {"page": "#fdfcfb", "ink": "#010203"}

#: The CSS that binds the page colours: the browser's scheme, overridden by the page's own theme
#: (JupyterLab's, the docs site's), whose colours the board's ground and ink then take.
_AUTO_STYLE = """
.tabletop-board {{ --tabletop-page: {light[page]}; --tabletop-ink: {light[ink]}; }}
@media (prefers-color-scheme: dark) {{ .tabletop-board {{ --tabletop-page: {dark[page]}; --tabletop-ink: {dark[ink]}; }} }}
body[data-jp-theme-light="true"] .tabletop-board, body[data-jp-theme-light="false"] .tabletop-board {{
  --tabletop-page: var(--jp-layout-color0); --tabletop-ink: var(--jp-ui-font-color0); }}
[data-md-color-scheme="default"] .tabletop-board, [data-md-color-scheme="slate"] .tabletop-board {{
  --tabletop-page: var(--md-default-bg-color); --tabletop-ink: var(--md-default-fg-color); }}
""".format(light=THEMES["light"], dark=THEMES["dark"])


def renderer(game: Game | str) -> ModuleType:
    """The renderer module of ``game`` (a Game or a game name).

    >>> renderer("cross_endodoi").__name__
    'tabletop_lab.games.cross_endodoi.render'
    """
    cls = game_class(game) if isinstance(game, str) else type(game)
    module = cls.part("render")
    if module is None:
        raise RulesError(f"game {cls.info.name!r} has no renderer")
    return module


def draw(state: State, ax: Any = None, **opts: Any):
    """Draw ``state`` with its game's renderer on ``ax`` (a new figure when None); returns the Axes.

    ``opts`` are the renderer's keywords, for example ``highlight=`` and ``show_last_move=``.
    """
    return renderer(state.game).draw(state, ax, **opts)


def state_png(state: State, **opts: Any) -> bytes:
    """``state`` drawn as PNG bytes, on a throw-away figure.

    >>> from tabletop_lab import load_game
    >>> state_png(load_game("cross_endodoi").new_initial_state())[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    return figure_png(draw(state, **opts).figure)


def figure_png(figure: Any, dpi: float | None = None) -> bytes:
    """The PNG bytes of a matplotlib figure (rendered with Agg, whatever its canvas)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def state_svg(state: State, theme: str = "auto", **opts: Any) -> str:
    """``state`` drawn as SVG text, its page colours in ``theme``: ``"light"``, ``"dark"`` or
    ``"auto"`` (following the page that shows it; see the module docstring). ``opts`` are the
    renderer's keywords. The text is the same for the same drawing (no date, fixed ids).

    >>> from tabletop_lab import load_game
    >>> state_svg(load_game("cross_endodoi").new_initial_state(), theme="dark")[:5]
    '<?xml'
    """
    if theme not in (*THEMES, "auto"):
        raise RulesError(f"theme must be one of {', '.join(THEMES)} or auto, got {excerpt(theme)}")
    colours = _AUTO if theme == "auto" else THEMES[theme]
    ink = colours["ink"]
    page_colours = {"figure.facecolor": colours["page"], "text.color": ink, "axes.labelcolor": ink}
    with matplotlib.rc_context({**page_colours, "xtick.color": ink, "ytick.color": ink}):
        svg = figure_svg(draw(state, **opts).figure)
    if theme == "auto":
        svg = svg.replace(_AUTO["page"], f"var(--tabletop-page, {THEMES['light']['page']})")
        svg = svg.replace(_AUTO["ink"], f"var(--tabletop-ink, {THEMES['light']['ink']})")
        svg = svg.replace("<defs>", f"<defs>\n  <style>{_AUTO_STYLE}</style>", 1)
    return svg.replace("<svg ", '<svg class="tabletop-board" ', 1)


def figure_svg(figure: Any) -> str:
    """The SVG text of a matplotlib figure, the same for the same drawing: no date in its
    metadata, and the ids matplotlib makes up salted with a fixed string."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "tabletop_lab"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()
