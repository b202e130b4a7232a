"""Errors raised by the CNA model.

Two kinds, both ``ValueError`` subclasses so a widget can catch them together:

* :class:`CNAInputError` -- the input cannot describe anything in the game (a negative
  CPA, a die showing 7, a hex off the map). The message says what was expected.
* :class:`RuleViolation` -- the input is well formed but the rules forbid the action
  (a non-motorized unit pushing past 150% of its CPA, a collapsed unit moving). It
  carries the rule section so the refusal can be shown with its citation.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Real


class CNAInputError(ValueError):
    """An impossible input; the message names what was expected."""


class RuleViolation(ValueError):
    """A well-formed request that the rules forbid.

    ``rule`` is the section that forbids it, e.g. ``"CNA 8.17"``.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.reason = message


def require_int(value: object, what: str, *, minimum: int | None = None) -> int:
    """Return ``value`` if it is a whole number (not a bool) no smaller than ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CNAInputError(f"{what} must be a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise CNAInputError(f"{what} must be at least {minimum}, got {value}")
    return value


def require_cp_amount(value: object, what: str = "a CP amount") -> Fraction:
    """Return a non-negative number of Capability Points as an exact Fraction.

    Costs on the Terrain Effects Chart go down to half a CP (CNA 8.31), so any
    non-negative multiple of 1/2 is accepted; anything else is refused.
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        raise CNAInputError(f"{what} must be a number of CPs, got {value!r}")
    if isinstance(value, float) and value != value:  # NaN
        raise CNAInputError(f"{what} must be a number of CPs, got NaN")
    try:
        amount = Fraction(value)
    except (OverflowError, ValueError) as exc:
        raise CNAInputError(f"{what} must be a finite number of CPs, got {value!r}") from exc
    if amount < 0:
        raise CNAInputError(f"{what} must not be negative, got {value}")
    if (amount * 2).denominator != 1:
        raise CNAInputError(f"{what} must be a whole or half CP (CNA 8.31), got {value}")
    return amount
