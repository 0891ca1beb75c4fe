"""The repository's ``data/`` folder: curated positions and saved study results.

Notebooks run with their own folder as the working directory, so they find data through
the package instead of relative paths::

    data/
      <game>/positions.json     named positions with a description (see ``load_positions``)
      <game>/*.parquet          saved study results, keyed by study and versions (``load_or_run``)

``positions.json`` is ``{"game": <name>, "positions": [entry, ...]}``; each entry has
``name`` (a unique identifier), ``title``, ``description``, ``position`` (notation or JSON
text, as ``Game.load_position`` reads it), and optionally ``options`` (the rules config,
defaults otherwise) and ``move`` (the move the description talks about).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import State, canonical_json
from .errors import DataError, PositionError, RulesError, excerpt
from .registry import load_game
from .resources import shipped_root
from .versions import FIRST_RULES_VERSION, package_version, rules_version

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DATA_DIR",
    "NamedPosition",
    "data_path",
    "load_or_run",
    "load_position",
    "load_positions",
    "read_study",
    "save_study",
]

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


def load_or_run(
    path: Path, run: Callable[[], pd.DataFrame], *, study: Any = None, rerun: bool = False, save: bool = True
) -> pd.DataFrame:
    """Saved study results from ``path`` (Parquet), or fresh ones from ``run()``.

    A saved frame is keyed (``df.attrs["study_key"]``) by ``study``, any JSON value that defines
    the study (games, options, agents, numbers of games, seeds: what ``run`` would do), and by
    the versions it was made under: the package's and the rules version of every game in the
    frame (``tabletop_lab.versions``). It is returned only when that key is today's; otherwise
    (another study, package or rules version) ``run()`` plays the study again, with a
    ``RuntimeWarning`` saying what changed. A file saved before keys were written counts as made
    with no ``study`` under rules version 1 of its games (its package version unknown, so not
    compared). With ``rerun`` it runs in any case. When it runs and ``save`` is true, the
    frame is written to ``path`` (with page checksums) before it is returned; quick runs pass
    ``save=False`` so tiny samples never replace the real study.

    Raises ``DataError`` naming the file when it cannot be read back (damaged, or not Parquet).
    """
    path = Path(path)
    if path.exists() and not rerun:
        saved = read_study(path)
        now = _study_key(study, saved)
        then = saved.attrs.get("study_key") or _unkeyed(saved)
        changed = [part for part in ("study", "rules", "package") if then.get(part) != now[part]]
        if changed == ["package"] and then.get("package") is None:
            changed = []  # saved before keys were written: the package version is not known
        if not changed:
            return saved
        warnings.warn(
            f"{_clip(path.name, 60)}: saved for another {' and '.join(changed)} "
            f"({_clip(_differences(then, now, changed), 160)}); running the study again",
            RuntimeWarning,
            stacklevel=2,
        )
    frame = run()
    frame.attrs["study_key"] = _study_key(study, frame)
    if save:
        save_study(frame, path)
    return frame


def save_study(frame: pd.DataFrame, path: Path) -> None:
    """Write ``frame`` (and its ``attrs``) to ``path`` as Parquet, with page checksums, so a
    damaged file is refused when it is read (``read_study``) rather than read as other rows."""
    from .sim import storable

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    storable(frame).to_parquet(path, index=False, write_page_checksum=True)


def read_study(path: Path) -> pd.DataFrame:
    """The frame saved at ``path``; raises ``DataError`` naming the file when it cannot be read
    back (damaged: pages whose checksum fails, a broken footer; or not Parquet at all)."""
    import pandas as pd

    try:
        return pd.read_parquet(path, page_checksum_verification=True)
    except (OSError, ValueError) as exc:  # pyarrow: OSError, ArrowInvalid; bad text: UnicodeDecodeError
        if not Path(path).is_file():
            raise
        raise DataError(
            f"{excerpt(str(path), limit=120)} is damaged or not a Parquet file, so its saved rows cannot be "
            f"read ({type(exc).__name__}); delete it or run the study again (rerun=True)"
        ) from exc


def _study_key(study: Any, frame: pd.DataFrame) -> dict[str, Any]:
    """The key of a study's frame: its definition, the package version and its games' rules."""
    return {"study": _json_value(study), "package": package_version(), "rules": _rules(_games_in(frame))}


def _unkeyed(frame: pd.DataFrame) -> dict[str, Any]:
    """The key of a frame saved before keys were written (see ``load_or_run``)."""
    return {"study": None, "package": None, "rules": {game: FIRST_RULES_VERSION for game in _games_in(frame)}}


def _games_in(frame: pd.DataFrame) -> list[str]:
    """The games a study's frame holds: its ``game`` column's names and ``attrs["game"]``. A
    numeric ``game`` column numbers games (a frame of rounds, say) and names none."""
    named = "game" in frame.columns and frame["game"].dtype.kind not in "biuf"
    games = set(frame["game"].astype(str).unique()) if named else set()
    if isinstance(frame.attrs.get("game"), str):
        games.add(frame.attrs["game"])
    return sorted(games)


def _rules(games: list[str]) -> dict[str, int | None]:
    """Each game's present rules version; None for a game no longer registered."""
    found: dict[str, int | None] = {}
    for game in games:
        try:
            found[game] = rules_version(game)
        except RulesError:
            found[game] = None
    return found


def _json_value(study: Any) -> Any:
    """``study`` as it reads back from JSON (tuples become lists), so keys compare after a save."""
    try:
        return json.loads(canonical_json(study))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"load_or_run: study must be a JSON value (text, numbers, lists, objects); {exc}") from None


def _differences(then: dict[str, Any], now: dict[str, Any], parts: list[str]) -> str:
    return "; ".join(f"{part} {_short(then.get(part))} then, {_short(now[part])} now" for part in parts)


def _short(value: Any) -> str:
    return _clip(value if isinstance(value, str) else repr(value), 50)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
