"""The input boundary: the shape of what users, pages and files hand the engine.

Everything that reaches the rules passes here first, whatever its origin: an action
built in Python, decoded from JSON, or arriving at the co-op store; a position file; a
saved game. This layer checks only *shape* — field types, ranges, unknown keys — and
names the field and what was expected. Whether a well-formed action is *allowed* is the
engine's question (:func:`~.engine.check` and its rule citations), asked only after.

The check of a whole action (:func:`~.actions.action_problem`) lives beside the
action types in :mod:`.actions`, built from the field checks here.

Every refusal is an :class:`InputError` (``ActionFormatError`` for actions,
``PositionError`` for positions, ``RecordError`` for saves), so a caller catches one
type and shows its sentence; nothing is changed when one is raised.

>>> from hexclass.classroom.combined_arms.actions import Face, action_problem
>>> print(action_problem(Face("player", "A1", 2.0)))
Face.facing: expected a corner number 0-5 (a whole number), got 2.0
>>> action_problem(Face("player", "A1", 2)) is None
True

Why hand-written checks and not a validation library: ``benchmarks/validation.py``
(figures in the "Input validation" section of ``docs/performance-notes.md``). Checking a
Python-built action by hand costs a third to a fifth of converting it through msgspec
or pydantic v2, and the engine checks every action a bot or page asks about; msgspec
decodes JSON about 3-4 times faster, but decoding is under a tenth of a replay and
would need every action type written a second time in the library's terms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class InputError(ValueError):
    """Malformed input: says which field is wrong and what was expected there.

    ``source`` is the file (or other origin) when known, ``field`` the dotted path to
    the value, ``expected`` the sentence describing a good value.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        field: str | None = None,
        expected: str | None = None,
    ) -> None:
        super().__init__(message)
        self.source = source
        self.field = field
        self.expected = expected


class ActionFormatError(InputError):
    """An action with a field of the wrong type or range, an unknown key or type."""


# --- field checks: each returns None for a good value, or what was expected ---------------

#: The largest hex coordinate accepted anywhere (the board spans -7..7 by 0..8; anything
#: this far out is refused by the rules as "not on the board", never by a crash).
MAX_COORD = 99
MAX_NAME = 64  # seat and platoon names are short words


def _is_int(v: Any) -> bool:
    return type(v) is int  # bool and float are refused: JSON true and 2.0 are not numbers here


def expect_hex(v: Any) -> str | None:
    if (
        type(v) is tuple
        and len(v) == 2
        and _is_int(v[0])
        and _is_int(v[1])
        and -MAX_COORD <= v[0] <= MAX_COORD
        and -MAX_COORD <= v[1] <= MAX_COORD
    ):
        return None
    return (
        f"a hex: two whole numbers within +-{MAX_COORD} ([q, r] in JSON, a (q, r) tuple in Python)"
    )


def expect_name(v: Any) -> str | None:
    if type(v) is str and 0 < len(v) <= MAX_NAME:
        return None
    return f"a name as text (1-{MAX_NAME} characters)"


def expect_name_or_none(v: Any) -> str | None:
    return None if v is None else (expect_name(v) and expect_name(v) + ", or None")


def expect_hex_or_none(v: Any) -> str | None:
    return None if v is None else (expect_hex(v) and expect_hex(v) + ", or None")


def expect_bid(v: Any) -> str | None:
    # the range itself (0..MAX_BID) is the bidding rule's to refuse (defender.check_bid)
    if _is_int(v) and -1000 <= v <= 1000:
        return None
    return "a whole number of bonus points"


def expect_corner(v: Any) -> str | None:
    if _is_int(v) and 0 <= v <= 5:
        return None
    return "a corner number 0-5 (a whole number)"


def expect_corner_or_none(v: Any) -> str | None:
    if v is None or (_is_int(v) and 0 <= v <= 5):
        return None
    return "a corner number 0-5 (a whole number), or None"


def expect_bool(v: Any) -> str | None:
    if v is True or v is False:
        return None
    return "true or false (a boolean, not text or a number)"


def expect_names(v: Any) -> str | None:
    if type(v) is tuple and len(v) <= 32 and all(expect_name(x) is None for x in v):
        return None
    return "a list of platoon names such as ['D1', 'D2'] (a tuple in Python)"


def expect_hexes(v: Any) -> str | None:
    if type(v) is tuple and len(v) <= 32 and all(expect_hex(x) is None for x in v):
        return None
    return "a list of hexes, each [q, r] with whole numbers (tuples in Python)"


Check = Callable[[Any], "str | None"]

#: What each field of an action may hold, by field name (the same name means the same
#: kind of value in every action type).
FIELD_CHECKS: dict[str, Check] = {
    "seat": expect_name,
    "unit": expect_name,
    "spotter": expect_name,
    "to": expect_hex,
    "target": expect_hex,
    "facing": expect_corner_or_none,
    "smoke": expect_bool,
    "resolve": expect_bool,
    "firers": expect_names,
    "hexes": expect_hexes,
    "platoons": expect_hexes,  # Deploy: the hexes of the defender's real platoons
    "atgs": expect_hexes,
    "points": expect_bid,
}
#: Fields whose rule differs in one action type: ``Face`` must name a corner; the
#: defender's target choices may name nothing (hold fire / no armour target).
TYPE_FIELD_CHECKS: dict[tuple[str, str], Check] = {
    ("Face", "facing"): expect_corner,
    ("ChooseTarget", "unit"): expect_name_or_none,
    ("ChooseMortar", "target"): expect_hex_or_none,
}


def describe(v: Any) -> str:
    """A short repr of a bad value (long values are cut so messages stay readable)."""
    try:
        text = repr(v)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not hide the real error
        text = f"<{type(v).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."
