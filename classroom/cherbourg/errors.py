"""The error the Cherbourg model raises for impossible input."""

from __future__ import annotations


class CherbourgInputError(ValueError):
    """Input the Cherbourg model cannot use; the message names the rule and what arrived,
    e.g. "an air strike takes 3 to 10 air points (Cherbourg 6.2), got 12"."""
