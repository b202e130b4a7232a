"""The examples in the docstrings of the core modules are run as tests."""

import doctest
import importlib
import pkgutil

import pytest

import classroom.combined_arms

MODULES = ["classroom.hexgrid", "classroom.dice", "classroom.kernel_log"] + [
    m.name for m in pkgutil.iter_modules(classroom.combined_arms.__path__, "classroom.combined_arms.")
] + ["classroom.combined_arms"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
