"""The examples in the package's docstrings run and say what they claim."""

import doctest
import importlib

import pytest

MODULES = ["tabletop_lab", "tabletop_lab.core", "tabletop_lab.testing"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
