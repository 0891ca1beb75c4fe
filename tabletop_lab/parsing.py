"""Reading untrusted JSON text: one place that turns every way it can fail into ``PositionError``.

``json.loads`` alone lets through ``RecursionError`` (``"[" * 100000``), ``UnicodeDecodeError``
(bytes that are not UTF-8), Python's 4,300-digit ``ValueError`` and ``TypeError`` (not text),
and accepts ``NaN``, ``Infinity`` and ``1e999`` (infinite), which are not JSON numbers. Standard library only.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import PositionError, excerpt

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "check_json_shape", "read_json"]

#: The deepest nesting of lists and objects a position may have: every game's is far shallower,
#: and deeper values make ``repr``, ``json.dumps`` and comparisons raise ``RecursionError``.
MAX_DEPTH = 32

#: The longest integer read from JSON, in digits: no position or record needs more, and
#: Python refuses to convert more than 4,300 anyway.
MAX_DIGITS = 100


def read_json(text: Any, what: str) -> Any:
    """The value of the JSON document ``text`` (``str``, or UTF-8 ``bytes``).

    ``what`` names the document in errors (``"cross_endodoi: position"``, ``"game record"``).
    Raises ``PositionError`` saying what is wrong, quoting at most a short excerpt of the input.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PositionError(
                f"{what} is not UTF-8 text: byte {exc.start} is {excerpt(bytes(text[exc.start : exc.start + 1]))}"
            ) from None
    if not isinstance(text, str):
        raise PositionError(f"{what} must be JSON text (a str), got {type(text).__name__} {excerpt(text)}")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        near = excerpt(text[max(exc.pos - 20, 0) : exc.pos + 20], limit=50)
        raise PositionError(f"{what} is not valid JSON: {exc.msg} at character {exc.pos} (near {near})") from None
    except RecursionError:
        raise PositionError(f"{what} is not valid here: JSON nested too deeply") from None
    except _Refused as exc:
        raise PositionError(f"{what} is not valid here: {exc}") from None


def check_json_shape(value: Any, what: str) -> None:
    """Raise ``PositionError`` unless ``value`` is a JSON value any parser can inspect safely:
    objects with string keys, lists (or tuples), strings, booleans, ``None``, finite floats and
    ints of at most ``MAX_DIGITS`` digits, nested at most ``MAX_DEPTH`` deep.

    Positions given as Python objects skip ``read_json``; ``core.check_keys`` calls this so that
    every game's ``state_from_dict`` is safe from deep nesting and huge numbers. Iterative, so
    it cannot itself exceed the recursion limit.
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        kind = type(item)
        where = (path if len(path) <= 60 else path[:57] + "...") or "the value"
        if kind in (str, bool) or item is None:
            continue
        if kind is int:
            if item.bit_length() > _MAX_BITS:
                raise PositionError(f"{what}: {where} is a number longer than {MAX_DIGITS} digits")
        elif kind is float:
            if not math.isfinite(item):
                raise PositionError(f"{what}: {where} is {item}, not a JSON number")
        elif kind in (dict, list, tuple):
            if depth > MAX_DEPTH:
                raise PositionError(f"{what}: {where} is nested more than {MAX_DEPTH} deep")
            if kind is dict:
                for key, child in item.items():
                    if type(key) is not str:
                        raise PositionError(f"{what}: {where} has a key {excerpt(key)} that is not a string")
                    name = key if key.isidentifier() and len(key) <= 30 else excerpt(key, limit=30)
                    stack.append((child, f"{path}.{name}" if path else name, depth + 1))
            else:
                stack.extend((child, f"{path}[{i}]", depth + 1) for i, child in enumerate(item))
        else:
            raise PositionError(f"{what}: {where} is a {kind.__name__}, not a JSON value")


_MAX_BITS = int(MAX_DIGITS * math.log2(10)) + 1


class _Refused(ValueError):
    """A number ``read_json`` does not accept (json.loads passes it through unchanged)."""


def _refuse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    if len(digits) > MAX_DIGITS + 1:  # one more for a sign
        raise _Refused(
            f"a number of {len(digits)} characters ({excerpt(digits, limit=30)}) is longer than {MAX_DIGITS} digits"
        )
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {excerpt(text, limit=30)} is too large")
    return value
