"""The error the movement model raises for impossible input."""

from __future__ import annotations


class MovementInputError(ValueError):
    """Orders, maps or units the movement model cannot use; the message says which rule
    and what arrived, e.g. "7 is not a movement instruction: use 0 (wait), 1-6 (a
    direction), a centre number above 99 or a 0-prefixed hex number (PBM "Combining
    Admin and Tactical Mode")"."""
