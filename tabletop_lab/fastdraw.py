"""Cheap Agg redraws for board widgets, shared by every game's renderer.

A widget click redraws the whole figure with Agg, and most of that time goes on text and on
shapes that never change. Two artists cut it down without changing a pixel:

* ``StaticLayer`` draws a list of artists that never move as one stored image, made again only
  when the figure's size or dpi, the axes' placement or the artists' colours change;
* ``CachedText`` (made by ``add_cached_text``) keeps the Agg pixels of each string it has drawn
  and copies them where the same string is drawn again.

On any other renderer (PDF, SVG) both draw their artists normally.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.colors import to_rgba
from matplotlib.text import Text

__all__ = ["CachedText", "StaticLayer", "add_cached_text"]


def add_cached_text(ax: Axes, x: float, y: float, **kwargs) -> CachedText:
    """Like ``ax.text(x, y, "", **kwargs)``, with a ``CachedText``."""
    return ax.add_artist(CachedText(x, y, "", transform=ax.transData, clip_on=False, **kwargs))


def _snapshot(renderer: RendererAgg, artists) -> tuple[np.ndarray, int, int] | None:
    """Draw ``artists`` on a blank canvas like ``renderer``'s and crop what was drawn.

    Returns the RGBA pixels, bottom row first as ``draw_image`` takes them, and the display
    position of their lower left corner; ``None`` if nothing was drawn.
    """
    width, height = int(renderer.width), int(renderer.height)
    scratch = RendererAgg(width, height, renderer.dpi)
    for artist in artists:
        artist.draw(scratch)
    pixels = np.asarray(scratch.buffer_rgba())
    drawn = pixels[..., 3] > 0
    rows, columns = np.flatnonzero(drawn.any(axis=1)), np.flatnonzero(drawn.any(axis=0))
    if not len(rows):
        return None
    top, bottom, left, right = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
    return pixels[top:bottom, left:right][::-1].copy(), int(left), int(height - bottom)


def _blit(renderer: RendererAgg, image: np.ndarray, x: int, y: int) -> None:
    gc = renderer.new_gc()
    renderer.draw_image(gc, x, y, image)
    gc.restore()


class StaticLayer(Artist):
    """Artists that never move, drawn by Agg as one stored image, made again only when the
    figure's size or dpi, the axes' placement or the artists' colours change.

    The artists are not children of the axes (``ax.patches`` and ``ax.texts`` do not list them),
    but belong to its figure and data coordinates. On other renderers they are drawn one by one.
    """

    def __init__(self, ax: Axes, artists: list):
        super().__init__()
        self.set_zorder(0.5)  # below every patch of the axes
        self._artists = artists
        for artist in artists:
            artist.set_figure(ax.figure)
            artist.set_transform(ax.transData)
            if not isinstance(artist, Text):
                artist.set_clip_path(ax.patch)  # as add_patch would
        self._images: dict = {}

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        if type(renderer) is not RendererAgg:
            for artist in self._artists:
                artist.draw(renderer)
            return
        ax = self.axes
        key = (
            renderer.width,
            renderer.height,
            renderer.dpi,
            ax.bbox.bounds,
            tuple(ax.transData.get_affine().get_matrix().flat),
            tuple(tuple(to_rgba(a.get_facecolor())) for a in self._artists if not isinstance(a, Text)),
        )
        if key not in self._images:
            if len(self._images) >= 4:  # one size and dpi at a time, in its three colourings
                self._images.clear()
            self._images[key] = _snapshot(renderer, self._artists)
        if self._images[key] is not None:
            _blit(renderer, *self._images[key])
        self.stale = False


class CachedText(Text):
    """A ``Text`` whose Agg pixels are kept and copied where the same string is drawn again.

    Agg places a string's glyphs at whole-pixel offsets from where the text is anchored, so the
    same string with the same looks, dpi and sub-pixel part of its anchor has the same pixels
    anywhere: they are stored under a key of all that. Rotated, clipped, wrapped, multi-line or
    path-effect texts, and every text on other renderers, are drawn as a plain ``Text``.
    """

    _pixels: dict = {}  # shared by all instances: a key holds everything deciding the pixels
    _MAX_PIXELS = 1024

    def draw(self, renderer) -> None:
        if renderer is not None:
            self._renderer = renderer
        if not self.get_visible() or self.get_text() == "":
            return
        plain = (
            type(renderer) is not RendererAgg
            or self.get_rotation() != 0
            or self.get_clip_on()
            or self.get_wrap()
            or "\n" in self.get_text()
            or self.get_path_effects()
            or self.get_usetex()
        )
        if plain:
            super().draw(renderer)
            return
        x, y = self.get_transform().transform((float(self._x), float(self._y)))
        if not (np.isfinite(x) and np.isfinite(y)):
            return
        whole_x, whole_y = math.floor(x), math.floor(y)
        key = self._key(renderer, x - whole_x, y - whole_y)
        if key not in self._pixels:
            snapshot = _snapshot(renderer, [_PlainDraw(self)])
            if snapshot is not None:
                image, left, bottom = snapshot
                inside = 0 < left and left + image.shape[1] < renderer.width
                if not (inside and 0 < bottom and bottom + image.shape[0] < renderer.height):
                    _blit(renderer, image, left, bottom)  # maybe cut by the canvas edge: not kept
                    self.stale = False
                    return
                snapshot = (image, left - whole_x, bottom - whole_y)
            if len(self._pixels) >= self._MAX_PIXELS:
                self._pixels.clear()
            self._pixels[key] = snapshot
        if self._pixels[key] is not None:
            image, dx, dy = self._pixels[key]
            _blit(renderer, image, whole_x + dx, whole_y + dy)
        self.stale = False

    def _key(self, renderer, fraction_x: float, fraction_y: float) -> tuple:
        patch = self.get_bbox_patch()
        if patch is not None:
            style = patch.get_boxstyle()
            patch = (
                type(style).__name__,
                tuple(sorted(vars(style).items())),
                to_rgba(patch.get_facecolor()),
                to_rgba(patch.get_edgecolor()),
                patch.get_linewidth(),
                patch.get_alpha(),
            )
        return (
            self.get_text(),
            _font_key(self.get_fontproperties()),
            to_rgba(self.get_color()),
            self.get_alpha(),
            self.get_antialiased(),
            self.get_horizontalalignment(),
            self.get_verticalalignment(),
            self.get_fontfeatures(),
            self.get_language(),
            patch,
            renderer.dpi,
            round(fraction_x, 4),
            round(fraction_y, 4),
        )


def _font_key(font) -> tuple:
    """A font as a value: a text's FontProperties may change in place, so it makes no key."""
    return (
        tuple(font.get_family()),
        font.get_style(),
        font.get_variant(),
        font.get_weight(),
        font.get_stretch(),
        font.get_size_in_points(),
        font.get_file(),
        font.get_math_fontfamily(),
    )


class _PlainDraw:
    """Draws a ``CachedText`` as a plain ``Text`` (for ``_snapshot``)."""

    def __init__(self, text: CachedText):
        self.text = text

    def draw(self, renderer) -> None:
        Text.draw(self.text, renderer)
