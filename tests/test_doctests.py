"""The examples in the docstrings of the core modules are run as tests."""

import doctest
import importlib
import pkgutil

import pytest

import hexclass.classroom.combined_arms

MODULES = (
    ["hexclass.classroom.hexgrid", "hexclass.classroom.dice", "hexclass.classroom.kernel_log"]
    + [
        m.name
        for m in pkgutil.iter_modules(
            hexclass.classroom.combined_arms.__path__, "hexclass.classroom.combined_arms."
        )
    ]
    + ["hexclass.classroom.combined_arms"]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
