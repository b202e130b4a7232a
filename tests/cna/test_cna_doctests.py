"""The docstring examples in hexclass.classroom.cna run and pass."""

import doctest
import importlib
import pkgutil

import pytest

import hexclass.classroom.cna

MODULES = [
    m.name for m in pkgutil.iter_modules(hexclass.classroom.cna.__path__, "hexclass.classroom.cna.")
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
