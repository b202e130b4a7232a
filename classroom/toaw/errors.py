"""The error raised for impossible supply-model inputs."""

from __future__ import annotations


class SupplyInputError(ValueError):
    """An input the supply model cannot make sense of.

    The message always says what was expected and what arrived, e.g. "supply radius
    must be a whole number from 0 to 100 (TOAW 9.1.7.2), got -1".
    """
