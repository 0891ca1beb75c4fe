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

__all__ = ["MAX_DIGITS", "read_json"]

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
