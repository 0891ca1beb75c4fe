"""Shareable boards: a game, its options, a start position and the moves played, as a URL query.

A teacher copies the Play app's link; opening it (``Board.from_query``) shows the same game at
the same move. Only what differs from the defaults is written::

    >>> from tabletop_lab import load_game
    >>> game = load_game("cross_endodoi", seeds_per_hole=6)
    >>> query = share_query(game, None, ["2", "8"], 1)
    >>> query
    'game=cross_endodoi&seeds_per_hole=6&move=2&move=8&at=1'
    >>> parse_query(query)
    {'game': 'cross_endodoi', 'options': {'seeds_per_hole': 6}, 'position': None, 'moves': ['2', '8'], 'at': 1}
"""

from __future__ import annotations

import json
import os
import warnings
from urllib.parse import parse_qs, urlencode

from ..core import Game
from ..errors import excerpt
from ..registry import game_class

__all__ = ["page_query", "parse_query", "share_query"]

_FIELDS = ("game", "position", "move", "at")


def share_query(game: Game, position: str | None, moves: list[str], at: int) -> str:
    """The query for ``game`` from ``position`` (text, or ``None`` for the initial one) with
    ``moves`` played and move ``at`` shown (0: the start)."""
    fields: list[tuple[str, str]] = [("game", game.name)]
    for spec in game.option_specs:
        value = game.options[spec.name]
        if not (type(value) is type(spec.default) and value == spec.default):
            fields.append((spec.name, json.dumps(value)))
    if position is not None:
        fields.append(("position", position))
    fields += [("move", move) for move in moves]
    if at != len(moves):
        fields.append(("at", str(at)))
    return urlencode(fields)


def page_query() -> str:
    """The query of the page this app was opened with; empty outside Voila.

    Voila gives a kernel its request's query in ``QUERY_STRING``. A preheated kernel (started
    and run up to this call before anyone asked for the app) learns it only when a visitor
    arrives: it waits for that moment (:func:`_wait_for_visitor`), so the cells above this call
    run ahead of the visitor and those below run with their link.
    """
    if os.environ.get("VOILA_PREHEAT") == "True":
        _wait_for_visitor()
    return os.environ.get("QUERY_STRING", "")


def _wait_for_visitor() -> None:
    """Block until Voila hands this preheated kernel to a visitor, then put the visitor's
    request (``QUERY_STRING`` and the rest) in the environment.

    This is what ``voila.utils.get_query_string`` does (Voila 0.5: its ``voila/query/<kernel
    id>`` websocket sends the request as a JSON object once the kernel is handed over), without
    importing ``voila.utils``, which brings jupyter_server, nbconvert and jinja2 into the kernel:
    about 40 MB in every waiting kernel, against 7 MB for websockets' client.
    """
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    env = os.environ
    base_url = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    host = f"{env.get('VOILA_APP_IP', '127.0.0.1')}:{env.get('VOILA_APP_PORT', '8866')}"
    url = f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{host}{base_url}voila/query/{env.get('VOILA_KERNEL_ID')}"
    try:
        with connect(url, open_timeout=5) as socket:
            request = socket.recv()
    except (TimeoutError, OSError, WebSocketException) as exc:  # no Voila (a kernel started by hand)
        warnings.warn(f"no visitor's request from {url}: {exc}", RuntimeWarning, stacklevel=3)
        return
    env.update(json.loads(request))


def parse_query(query: str) -> dict:
    """What ``share_query`` wrote: game, options, position, moves and ``at``; ``ValueError`` saying
    what is wrong otherwise (an unknown game or option, a value that is not JSON, a bad ``at``),
    quoting the link only in short excerpts (``errors.excerpt``): a crafted link is not echoed."""
    fields = parse_qs(query.lstrip("?"), keep_blank_values=True)
    names = fields.pop("game", [])
    if len(names) != 1:
        raise ValueError("the link names no game (game=...)")
    cls = game_class(names[0])
    options = {}
    known = {spec.name for spec in cls.option_specs + cls.param_specs}
    for name, values in fields.items():
        if name in _FIELDS:
            continue
        if name not in known:
            raise ValueError(f"the link sets {excerpt(name)}, which is no option of {names[0]}")
        try:
            options[name] = json.loads(values[-1])
        except (ValueError, RecursionError):  # RecursionError: a crafted link nests thousands of [
            raise ValueError(f"the link's {name}={excerpt(values[-1])} is not a value") from None
    moves = fields.get("move", [])
    at = fields.get("at", [str(len(moves))])[-1]
    if not (at.isdigit() and len(at) <= 6 and int(at) <= len(moves)):
        raise ValueError(f"the link's at={excerpt(at)} must be a move number 0..{len(moves)}")
    position = fields.get("position", [None])[-1]
    return {"game": names[0], "options": options, "position": position, "moves": moves, "at": int(at)}
