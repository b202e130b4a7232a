"""The examples in the movement docstrings run and print what they claim."""

import doctest
import importlib

import pytest

MODULES = ["units", "phasing", "hexmap", "terrain", "orders", "timing"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"hexclass.classroom.movement.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
