"""The repository's ``data/`` folder: curated positions and saved study results.

Notebooks run with their own folder as the working directory, so they find data through
the package instead of relative paths::

    data/
      <game>/positions.json     named positions with a description (see ``load_positions``)
      <game>/*.parquet          saved study results (see ``load_or_run``)

``positions.json`` is ``{"game": <name>, "positions": [entry, ...]}``; each entry has
``name`` (a unique identifier), ``title``, ``description``, ``position`` (notation or JSON
text, as ``Game.load_position`` reads it), and optionally ``options`` (the rules config,
defaults otherwise) and ``move`` (the move the description talks about).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import State
from .errors import PositionError
from .registry import load_game
from .resources import shipped_root

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DATA_DIR", "NamedPosition", "data_path", "load_or_run", "load_position", "load_positions"]

#: The top-level ``data/`` folder of the repository this package lives in, or the installed
#: package's copy of it (``tabletop_lab.resources``).
DATA_DIR = shipped_root() / "data"


def data_path(*parts: str) -> Path:
    """The path of ``parts`` under ``data/``; the file need not exist yet.

    >>> data_path("cross_endodoi", "positions.json").parts[-3:]
    ('data', 'cross_endodoi', 'positions.json')

    Raises ``ValueError`` for an empty path or one that would leave ``data/``.
    """
    if not parts or not all(isinstance(p, str) and p for p in parts):
        raise ValueError(f"data_path needs one or more non-empty path parts, got {parts!r}")
    path = DATA_DIR.joinpath(*parts).resolve()
    if not path.is_relative_to(DATA_DIR):
        raise ValueError(f"data_path: {'/'.join(parts)!r} leads outside {DATA_DIR}")
    return path


@dataclass(frozen=True)
class NamedPosition:
    """One curated position: where it is, under which rules, and why it is worth a look."""

    game: str
    name: str
    title: str
    description: str
    position: str
    options: dict[str, Any] = field(default_factory=dict)
    move: str | None = None

    def state(self) -> State:
        """The position as a fresh state under its own rules config."""
        return load_game(self.game, **self.options).load_position(self.position)


_REQUIRED = ("name", "title", "description", "position")
_OPTIONAL = ("options", "move")


def load_positions(game: str) -> dict[str, NamedPosition]:
    """Every curated position of ``game``, by name, in file order.

    Each entry is checked: its keys, a unique name, a position that loads under its options
    and, when given, a move that is legal there. Raises ``PositionError`` naming the entry.
    """
    path = data_path(game, "positions.json")
    if not path.exists():
        raise FileNotFoundError(f"no curated positions for {game!r}: {path} does not exist")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise PositionError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("game") != game or not isinstance(data.get("positions"), list):
        raise PositionError(f"{path}: expected {{'game': {game!r}, 'positions': [...]}}")
    found: dict[str, NamedPosition] = {}
    for i, entry in enumerate(data["positions"]):
        named = _entry(game, entry, f"{path.name} entry {i}")
        if named.name in found:
            raise PositionError(f"{path.name}: position name {named.name!r} appears twice")
        found[named.name] = named
    return found


def load_position(game: str, name: str) -> State:
    """The curated position ``name`` of ``game`` as a state, e.g. ``load_position("cross_endodoi", "long_relay")``."""
    positions = load_positions(game)
    if name not in positions:
        raise KeyError(f"{game} has no curated position {name!r}; choose from {', '.join(positions)}")
    return positions[name].state()


def load_or_run(path: Path, run: Callable[[], pd.DataFrame], *, rerun: bool = False, save: bool = True) -> pd.DataFrame:
    """Saved study results from ``path`` (Parquet), or fresh ones from ``run()``.

    Reads ``path`` when it exists and ``rerun`` is false. Otherwise calls ``run()`` and, when
    ``save`` is true, writes its DataFrame to ``path`` before returning it. Quick runs pass
    ``save=False`` so tiny samples never replace the real study.
    """
    import pandas as pd

    path = Path(path)
    if path.exists() and not rerun:
        return pd.read_parquet(path)
    frame = run()
    if save:
        from .sim import storable

        path.parent.mkdir(parents=True, exist_ok=True)
        storable(frame).to_parquet(path, index=False)
    return frame


def _entry(game: str, entry: Any, where: str) -> NamedPosition:
    if not isinstance(entry, dict):
        raise PositionError(f"{where}: must be a JSON object")
    missing = [k for k in _REQUIRED if k not in entry]
    unknown = sorted(set(entry) - set(_REQUIRED) - set(_OPTIONAL))
    if missing or unknown:
        raise PositionError(f"{where}: missing key(s) {missing}, unknown key(s) {unknown}")
    named = NamedPosition(game=game, **entry)
    try:
        state = named.state()
        if named.move is not None:
            state.parse_move(named.move)
    except ValueError as exc:
        raise PositionError(f"{where} ({named.name!r}): {exc}") from None
    return named
