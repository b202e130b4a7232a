"""The examples in the sessions docstrings run and print what they claim."""

import doctest
import importlib

import pytest

MODULES = ["roles", "sqlite_store", "session", "replay", "locate"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"hexclass.classroom.sessions.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
