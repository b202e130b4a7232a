"""The docstring examples in classroom.cna run and pass."""

import doctest
import importlib
import pkgutil

import pytest

import classroom.cna

MODULES = [m.name for m in pkgutil.iter_modules(classroom.cna.__path__, "classroom.cna.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
