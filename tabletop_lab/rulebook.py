"""The rules pages (``docs/rules/<game>.md``) as the apps quote them: a refusal's "why?".

The engines' messages name the rule they apply, as "(rule 2.1)", "(rule 2.4.3: one stone per
group)" or "(Decision 10)": the section numbers of ``docs/rules/<game>.md``. ``rule_reference``
finds that reference in a message, ``section`` reads the section it names from the game's rules
page (the checkout's, or the copy a wheel ships: ``tabletop_lab.resources``): its heading and
text (``None`` when the page has no such section; the app then cites the page and the number).

Standard library and ``resources`` only (no rendering, widgets or Jupyter).
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .resources import shipped_root

__all__ = ["Section", "rule_reference", "rules_page", "section", "without_reference"]

#: A parenthesis naming a rule: "(rule 2.1)", "(rules 2.2-2.3)", "(rule 2.4, Decision 3)",
#: "(Decision 10)", "(spec section 6)". Its first number is the reference.
_REFERENCE = re.compile(
    r"\s*\((?:[^()]*?\b)?(?:rules?|section|Decision)\s+(?P<number>[0-9]+(?:\.[0-9]+)*)[^()]*\)",
)
_DECISION = re.compile(r"\bDecision\s+(?P<number>[0-9]+)\b")
_RULE = re.compile(r"\b(?:rules?|section)\s+(?P<number>[0-9]+(?:\.[0-9]+)*)")


class Section(NamedTuple):
    """A section of a rules page: ``ref`` as cited ("2.1", "Decision 10"), its ``heading`` and ``text``."""

    ref: str
    heading: str
    text: str


def rules_page(game: str) -> str:
    """The rules page of ``game`` as the repository cites it.

    >>> rules_page("sygo")
    'docs/rules/sygo.md'
    """
    return f"docs/rules/{game}.md"


def rule_reference(message: str) -> str | None:
    """The rule a message cites: a section number ("2.1"), else "Decision N"; ``None`` if none.

    >>> rule_reference("hole 3 is empty; a move must lift at least one seed (rule 2.1)")
    '2.1'
    >>> rule_reference("teammates are never captured (Decision 10)")
    'Decision 10'
    >>> rule_reference("closed: a capture merged it (rule 2.4, Decision 3)")
    '2.4'
    >>> rule_reference("wait: North is thinking") is None
    True
    """
    for part in re.findall(r"\(([^()]*)\)", message):
        rule = _RULE.search(part)
        if rule:
            return rule["number"]
        decision = _DECISION.search(part)
        if decision:
            return f"Decision {decision['number']}"
    return None


def without_reference(message: str) -> str:
    """``message`` without its parenthesised rule references.

    >>> without_reference("hole 3 is empty; a move must lift at least one seed (rule 2.1)")
    'hole 3 is empty; a move must lift at least one seed'
    """
    return _REFERENCE.sub("", message).strip()


def section(game: str, ref: str, limit: int = 900) -> Section | None:
    """The section ``ref`` of ``game``'s rules page (a deeper number falls back to its section:
    "2.4.3" reads 2.4), its text cut to about ``limit`` characters; ``None`` when the page is
    not at hand or has no such section."""
    text = _page(game)
    if text is None:
        return None
    if ref.startswith("Decision "):
        found = _decision(text, ref.split()[1])
    else:
        found = None
        parts = ref.split(".")
        while parts and found is None:
            found = _heading(text, ".".join(parts))
            parts.pop()
    if found is None:
        return None
    heading, body = found
    body = body.strip()
    if len(body) > limit:
        body = body[:limit].rsplit(" ", 1)[0] + " …"
    return Section(ref, heading, body)


@functools.cache
def _page(game: str) -> str | None:
    path = shipped_root() / "docs" / "rules" / f"{game}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _heading(text: str, number: str) -> tuple[str, str] | None:
    """The heading "## 2. Rules" / "### 2.1 The move" numbered ``number`` and the text up to the next heading."""
    pattern = re.compile(rf"^(#{{2,4}}) ({re.escape(number)}\.?) (?P<title>.+)$", re.MULTILINE)
    match = pattern.search(text)
    if match is None:
        return None
    rest = text[match.end() :]
    following = re.search(r"^#{2,4} ", rest, re.MULTILINE)
    heading = f"{number} {match['title'].strip()}"
    return heading, rest[: following.start()] if following else rest


def _decision(text: str, number: str) -> tuple[str, str] | None:
    """Decision ``number``: the item "N. **Title.** text" of the Decisions section."""
    item = re.search(rf"^{number}\. \*\*(?P<title>[^*]+)\*\*(?P<body>.*?)(?=^[0-9]+\. \*\*|^#|\Z)", text, re.M | re.S)
    if item is None:
        return None
    title = item["title"].strip().rstrip(".")
    return f"Decision {number}: {title}", re.sub(r"\s+", " ", item["body"])
