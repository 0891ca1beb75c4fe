"""The examples in the package's docstrings run and say what they claim."""

import doctest
import importlib

import pytest

MODULES = [
    "tabletop_lab",
    "tabletop_lab.core",
    "tabletop_lab.errors",
    "tabletop_lab.registry",
    "tabletop_lab.testing",
    "tabletop_lab.interop.openspiel",
    "tabletop_lab.interop.pettingzoo",
    "tabletop_lab.sim.match",
    "tabletop_lab.sim.tournament",
    "tabletop_lab.agents.registry",
    "tabletop_lab.analysis",
    "tabletop_lab.analysis.position",
    "tabletop_lab.analysis.review",
    "tabletop_lab.analysis.puzzles",
    "tabletop_lab.analysis.solver",
    "tabletop_lab.analysis.view",
    "tabletop_lab.render",
    "tabletop_lab.metrics",
    "tabletop_lab.games.sygo.rules",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_readme_examples():
    from pathlib import Path

    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
