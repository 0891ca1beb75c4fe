"""The examples in the Sinomilia modules' docstrings run and say what they claim."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["tabletop_lab.games.sinomilia.solver", "tabletop_lab.games.sinomilia.render"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
