"""MkDocs hooks of the documentation site (``mkdocs.yml``): pages that stay in step with the code.

* Markers in the pages become tables built from the registry: ``<!-- games -->`` (every game,
  its players, information, actions and tensor), ``<!-- options: NAME -->`` (a game's rule options
  and engine parameters) and ``<!-- agents -->`` (every agent, its settings and the games it plays).
* ``<!-- board: NAME -->`` becomes the game's starting position drawn as SVG, inline, so that
  its page colours follow the site's light/dark switch (``render.state_svg``, theme ``auto``).
* The notebooks (``notebooks/``, outside ``docs/``) join the site for mkdocs-jupyter to render;
  ``TABLETOP_DOCS_EXECUTE=true`` runs them first (``scripts/docs.sh`` does, in quick mode).
* ``DocstringMarkdown`` (a griffe extension) fences docstrings' ``>>>`` examples as Python
  sessions and turns reStructuredText simple tables into Markdown tables.

"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import griffe
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # document this checkout, whichever tabletop_lab is installed
import tabletop_lab  # noqa: E402,F401 (now: MkDocs takes its own entry off sys.path after loading hooks)

_MARKER = re.compile(r"<!-- (games|agents|options: ([a-z_]+)) -->")
_BOARD = re.compile(r"<!-- board: ([a-z_]+) -->")


def _game_names() -> list[str]:
    """The library's games in menu order (the test suite's toy games left out)."""
    from tabletop_lab.registry import list_games

    return [row["name"] for row in list_games()]


@event_priority(100)  # before mkdocs-jupyter reads the files
def on_files(files: Files, config) -> Files:
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        relative = path.relative_to(ROOT).as_posix()
        if not relative.startswith("notebooks/apps/"):
            files.append(File(relative, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    markdown = _MARKER.sub(lambda match: _table(match.group(1), match.group(2)), markdown)
    markdown = _BOARD.sub(lambda match: _board(match.group(1)), markdown)
    return markdown


def _board(name: str) -> str:
    """The starting position of game ``name`` as an inline SVG figure (no XML declaration)."""
    from tabletop_lab.registry import load_game
    from tabletop_lab.render import state_svg

    svg = state_svg(load_game(name).new_initial_state())
    svg = svg[svg.index("<svg") :].replace(
        "<svg ",
        f'<svg role="img" aria-label="The starting position of {name}" style="max-width: 100%; height: auto" ',
        1,
    )
    return f'<figure class="board" markdown="0">\n{svg}\n</figure>'


class DocstringMarkdown(griffe.Extension):
    """Docstrings as Markdown: ``>>>`` examples fenced, reStructuredText simple tables as tables."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(rst_tables(obj.docstring.value))


def fence_doctests(text: str) -> str:
    """``text`` with every doctest example (up to a blank line) fenced as ``pycon``, which
    Markdown would otherwise read as nested quotes.

    >>> fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2").split("\\n")
    ['Intro.', '', '```pycon', '>>> 1 + 1', '2', '```']
    """
    out, inside, indent = [], False, ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


_BORDER = re.compile(r"^ *=+( +=+)+ *$")


def rst_tables(text: str) -> str:
    """``text`` with each reStructuredText simple table (``===  ===`` borders, a header row)
    rewritten as a Markdown table; a row whose first column is empty continues the row above.

    >>> print(rst_tables("==  ===\\nA   B\\n==  ===\\n1   one\\n    more\\n==  ==="))
    | A | B |
    |---|---|
    | 1 | one more |
    """
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        border = lines[i]
        ends = [j for j in range(i + 1, len(lines)) if lines[j] == border]
        if not _BORDER.match(border) or len(ends) < 2:
            out.append(border)
            i += 1
            continue
        spans = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
        header, end = ends[0], ends[1]
        rows: list[list[str]] = []
        for line in lines[i + 1 : header] + [None] + lines[header + 1 : end]:
            if line is None:
                rows.append(None)
                continue
            cells = [line[a : b if k < len(spans) - 1 else None].strip() for k, (a, b) in enumerate(spans)]
            if rows and rows[-1] is not None and not cells[0]:
                rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells)]
            elif any(cells):
                rows.append(cells)
        for row in rows:
            out.append("|---" * len(spans) + "|" if row is None else "| " + " | ".join(row) + " |")
        i = end + 1
    return "\n".join(out)


# ----------------------------------------------------------------------------- tables


def _table(kind: str, game: str | None) -> str:
    if kind == "games":
        return _games_table()
    if kind == "agents":
        return _agents_table()
    return _options_table(game)


def _games_table() -> str:
    from tabletop_lab.registry import load_game

    rows = [
        "| Game | Players | Information | Result | Actions | Observation tensor |",
        "|---|---|---|---|---|---|",
    ]
    for name in _game_names():
        game = load_game(name)
        info = game.info
        rows.append(
            f"| [{info.title}](games/{name}.md) | {', '.join(map(str, info.players))} | {info.information} "
            f"| {info.utility.replace('_', '-')} | {game.num_distinct_actions():,} | {game.observation_tensor_shape()} |"
        )
    return "\n".join(rows) + "\n\n(Actions and tensor under the default options.)"


def _options_table(name: str) -> str:
    from tabletop_lab.registry import load_game

    game = load_game(name)
    rows = ["| Option | Default | Values | Meaning |", "|---|---|---|---|"]
    for kind, specs in (("rule option", game.option_specs), ("engine parameter", game.param_specs)):
        for spec in specs:
            values = ", ".join(f"`{_json(v)}`" for v in spec.choices) if spec.choices else spec.allowed
            note = "" if kind == "rule option" else " *(engine parameter, not a rule)*"
            rows.append(f"| `{spec.name}` | `{_json(spec.default)}` | {values} | {_cell(spec.doc)}{note} |")
    return "\n".join(rows)


def _agents_table() -> str:
    from tabletop_lab.agents.registry import AGENTS
    from tabletop_lab.registry import load_game

    rows = ["| Agent | Settings (defaults) | Plays | What it does |", "|---|---|---|---|"]
    for name, cls in AGENTS.items():
        parameters = [p for p in inspect.signature(cls).parameters.values() if p.name != "seed"]
        settings = ", ".join(f"`{p.name}={p.default!r}`" for p in parameters) or "none"
        plays = [g for g in _game_names() if cls.unsupported_reason(load_game(g)) is None]
        summary = (inspect.getdoc(cls) or "").split("\n\n")[0].replace("\n", " ")
        rows.append(f"| `{name}` | {settings} | {', '.join(plays) or 'none'} | {_cell(summary)} |")
    return "\n".join(rows)


def _json(value) -> str:
    import json

    return json.dumps(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
