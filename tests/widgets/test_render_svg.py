"""States draw as SVG with page themes: the ground and the default ink follow the theme, the
board and its pieces never do, and ``"auto"`` binds the page colours to CSS variables."""

import random
import re
import xml.etree.ElementTree as ET

import pytest

from tabletop_lab import RulesError, load_game
from tabletop_lab.render import THEMES, state_svg
from tests.toy_games import NimGame

GAMES = ["capitals", "cross_endodoi", "sinoda", "sinomilia", "sygo"]


def played(name, plies=6, seed=1):
    state = load_game(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def in_light(svg, colours):
    """``svg`` with its page colours ``colours`` (theme key to colour text) drawn as the light
    theme's; matplotlib leaves out a black fill, so a black one is left out here too."""
    for key, colour in colours.items():
        svg = svg.replace(colour, THEMES["light"][key])
    return svg.replace('style="fill: #000000" ', "")


@pytest.mark.parametrize("name", GAMES)
def test_every_theme_is_valid_svg_and_the_same_each_time(name):
    state = played(name)
    for theme in ("light", "dark", "auto"):
        svg = state_svg(state, theme=theme)
        root = ET.fromstring(svg.encode())
        assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("class") == "tabletop-board"
        assert svg == state_svg(state, theme=theme), f"{name} {theme}: not deterministic"


@pytest.mark.parametrize("name", GAMES)
def test_dark_is_light_with_other_page_colours_only(name):
    state = played(name)
    light, dark = state_svg(state, theme="light"), state_svg(state, theme="dark")
    assert THEMES["dark"]["page"] in dark and THEMES["dark"]["page"] not in light
    assert in_light(dark, THEMES["dark"]) == in_light(light, {}), "something beside the page colours changed"


@pytest.mark.parametrize("name", GAMES)
def test_auto_binds_the_page_colours_to_the_pages_theme(name):
    state = played(name)
    svg = state._repr_svg_()
    assert svg == state_svg(state)
    assert "prefers-color-scheme: dark" in svg and 'data-jp-theme-light="false"' in svg
    assert 'data-md-color-scheme="slate"' in svg
    style = re.search(r"\n  <style>.*?</style>", svg, re.S)
    variables = {"page": "var(--tabletop-page, #ffffff)", "ink": "var(--tabletop-ink, #000000)"}
    assert all(v in svg for v in variables.values())
    unstyled = svg[: style.start()] + svg[style.end() :]
    assert in_light(unstyled, variables) == in_light(state_svg(state, theme="light"), {})


def test_a_game_without_a_renderer_has_no_svg():
    state = NimGame().new_initial_state()
    assert state._repr_svg_() is None and state._repr_png_() is None


def test_an_unknown_theme_is_refused():
    with pytest.raises(RulesError, match="theme must be one of light, dark or auto") as caught:
        state_svg(load_game("cross_endodoi").new_initial_state(), theme="x" * 1000)
    assert len(str(caught.value)) < 300
