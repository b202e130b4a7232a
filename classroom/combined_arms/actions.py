"""Actions: the only way a game changes. Each is a small frozen value naming its seat.

Hexes are ``(q, r)`` tuples (see ``hexclass.classroom.hexgrid``); ``Board.label`` and
``Board.hex_at`` convert to and from names such as ``"C5"``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import Any

from hexclass.classroom.hexgrid import Hex

from .validate import FIELD_CHECKS, TYPE_FIELD_CHECKS, ActionFormatError, Check, describe

__all__ = [  # the action types, their JSON form, and the shape check they all pass
    "ACTION_TYPES",
    "Action",
    "ActionFormatError",
    "CallMortar",
    "Bid",
    "ChooseBroken",
    "ChooseMortar",
    "ChooseReveals",
    "ChooseRollOrder",
    "ChooseTarget",
    "Deploy",
    "DeclareFire",
    "EndGame",
    "EndGameNow",
    "EndPhase",
    "Enter",
    "Exploit",
    "Face",
    "Move",
    "ResolveFire",
    "Withdraw",
    "action_from_json",
    "action_problem",
    "action_to_json",
    "validate_action",
]


@dataclass(frozen=True, slots=True)
class Enter:
    """Bring a platoon onto one of the 7 rear-edge hexes (armour: also the 2-hex road entry)."""

    seat: str
    unit: str
    to: Hex
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Move a platoon one hex (armour: turn then move into its arc, reverse, or 2 road hexes).

    For armour, ``facing`` is the corner faced after the move; leaving it None keeps
    the current facing (needed to reverse or to use the road bonus).
    """

    seat: str
    unit: str
    to: Hex
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Move back off the board from a rear-edge hex, never to return."""

    seat: str
    unit: str


@dataclass(frozen=True, slots=True)
class Exploit:
    """Advance off the board from one of the 3 central enemy rear-edge hexes."""

    seat: str
    unit: str


@dataclass(frozen=True, slots=True)
class Face:
    """Turn fresh armour to face another corner in the fire phase (it stays fresh)."""

    seat: str
    unit: str
    facing: int


@dataclass(frozen=True, slots=True)
class CallMortar:
    """Call your mortars (high explosive, or smoke) onto a hex spotted by ``spotter``."""

    seat: str
    target: Hex
    spotter: str
    smoke: bool = False


@dataclass(frozen=True, slots=True)
class DeclareFire:
    """Commit platoons to fire on one hex; joins the open declaration on that hex.

    With ``resolve`` the whole declaration is rolled at once; otherwise it stays open
    for others to join until a :class:`ResolveFire`.
    """

    seat: str
    target: Hex
    firers: tuple[str, ...]
    resolve: bool = True


@dataclass(frozen=True, slots=True)
class ResolveFire:
    """Roll every attack of the open declaration, in the order they were declared."""

    seat: str


@dataclass(frozen=True, slots=True)
class EndPhase:
    """Finish the current friendly phase; the engine then plays what follows."""

    seat: str


@dataclass(frozen=True, slots=True)
class EndGame:
    """End the battle before this turn starts and count the score (CA "Victory")."""

    seat: str


@dataclass(frozen=True, slots=True)
class EndGameNow:
    """End the battle where it stands, in any phase, and count the score (CA "Victory").

    The instructor's end of a class game, sent on the team's behalf in the overall
    commander's name: an open fire declaration is dropped unrolled, a waiting choice
    lapses, then every unrevealed counter is tested and the score counted, as
    :class:`EndGame` does between turns. Seat pages are never offered it.
    """

    seat: str


@dataclass(frozen=True, slots=True)
class ChooseRollOrder:
    """Say in which order the hexes under fire are rolled for."""

    seat: str
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class ChooseBroken:
    """Say which infantry platoon in the hex is broken as losses pass 7 to 0."""

    seat: str
    unit: str


@dataclass(frozen=True, slots=True)
class Bid:
    """The handicap bonus a player would grant the attackers to command the defenders."""

    seat: str
    points: int


@dataclass(frozen=True, slots=True)
class Deploy:
    """The defender's secret deployment (CA p.7): hexes of the real platoons and ATGs."""

    seat: str
    platoons: tuple[Hex, ...]
    atgs: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseReveals:
    """The hidden real counters the defender reveals on activation this enemy phase."""

    seat: str
    hexes: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    """The defender's target for a revealed post: an armour ``unit``, or infantry ``hexes``."""

    seat: str
    unit: str | None = None
    hexes: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseMortar:
    """The defender's mortar target, or None to hold fire (then they may fire next turn)."""

    seat: str
    target: Hex | None = None


ACTION_TYPES = {
    cls.__name__: cls
    for cls in (
        Enter,
        Move,
        Withdraw,
        Exploit,
        Face,
        CallMortar,
        DeclareFire,
        ResolveFire,
        EndPhase,
        EndGame,
        EndGameNow,
        ChooseRollOrder,
        ChooseBroken,
        Bid,
        Deploy,
        ChooseReveals,
        ChooseTarget,
        ChooseMortar,
    )
}
Action = (
    Enter
    | Move
    | Withdraw
    | Exploit
    | Face
    | CallMortar
    | DeclareFire
    | ResolveFire
    | EndPhase
    | EndGame
    | EndGameNow
    | ChooseRollOrder
    | ChooseBroken
    | Bid
    | Deploy
    | ChooseReveals
    | ChooseTarget
    | ChooseMortar
)


def action_to_json(action) -> dict:
    """A plain-JSON form: ``{"type": "Move", "seat": ..., "to": [q, r], ...}``."""
    out = {"type": type(action).__name__}
    for f in _fields_of(type(action)):  # fields hold only str, int, bool, None and tuples
        out[f.name] = _jsonable(getattr(action, f.name))
    return out


def _jsonable(v):
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


# JSON fields that hold tuples in Python: a hex, or a list of hexes / names.
_HEX_FIELDS = frozenset({"to", "target"})
_LIST_FIELDS = {"hexes": True, "platoons": True, "atgs": True, "firers": False}  # hexes?


def action_from_json(data: Any):
    """Inverse of :func:`action_to_json`: a checked action, or :class:`ActionFormatError`.

    Strict: unknown keys, missing fields, text where a boolean is meant (``"no"``) and
    fractions where a whole number is meant are all refused, naming the field.

    >>> action_from_json({"type": "DeclareFire", "seat": "p", "target": [0, 4],
    ...                   "firers": ["D1"], "resolve": "no"})
    Traceback (most recent call last):
    ...
    hexclass.classroom.combined_arms.validate.ActionFormatError: DeclareFire.resolve: expected true or false (a boolean, not text or a number), got 'no'
    """
    if type(data) is not dict:
        raise ActionFormatError(
            f"an action must be a JSON object with a 'type', got {describe(data)}",
            field="(action)",
            expected="an object",
        )
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if type(kind) is str else None
    if cls is None:
        raise ActionFormatError(
            f"unknown action type {describe(kind)}; expected one of {', '.join(ACTION_TYPES)}",
            field="type",
            expected="an action type",
        )
    names = _field_names(cls)
    unknown = [k for k in data if k != "type" and k not in names]
    if unknown:
        raise ActionFormatError(
            f"{cls.__name__}: unknown field {describe(unknown[0])}; "
            f"expected only {', '.join(('type',) + names)}",
            field=str(unknown[0]),
            expected="a known field",
        )
    kwargs = {}
    for f in _fields_of(cls):
        if f.name not in data:
            if f.default is not MISSING:
                continue
            raise ActionFormatError(
                f"{cls.__name__} needs field {f.name!r}", field=f.name, expected="present"
            )
        kwargs[f.name] = _from_json_value(f.name, data[f.name])
    return validate_action(cls(**kwargs))


def _from_json_value(name: str, v):
    """JSON arrays become the tuples the dataclasses hold; nothing else is converted."""
    if name in _HEX_FIELDS:
        return tuple(v) if type(v) is list else v
    if name in _LIST_FIELDS and type(v) is list:
        if _LIST_FIELDS[name]:
            return tuple(tuple(x) if type(x) is list else x for x in v)
        return tuple(v)
    return v


@cache
def _fields_of(cls) -> tuple:
    return fields(cls)


@cache
def _field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


# --- the shape check: each field of an action against the checks of .validate ----------

_SPECS: dict[type, tuple[tuple[str, Check], ...]] = {}


def _spec(cls: type) -> tuple[tuple[str, Check], ...]:
    spec = tuple(
        (f.name, TYPE_FIELD_CHECKS.get((cls.__name__, f.name)) or FIELD_CHECKS[f.name])
        for f in fields(cls)
    )
    _SPECS[cls] = spec
    return spec


def action_problem(action: Any) -> ActionFormatError | None:
    """What is malformed about ``action`` (as an error to raise or show), or None.

    Shape only: a well-formed action may still be illegal (ask :func:`~.engine.check`).
    """
    cls = type(action)
    spec = _SPECS.get(cls)
    if spec is None:
        if ACTION_TYPES.get(cls.__name__) is not cls:
            return ActionFormatError(
                f"expected a Combined Arms action (one of {', '.join(ACTION_TYPES)}), "
                f"got {cls.__name__}",
                field="type",
                expected="a Combined Arms action",
            )
        spec = _spec(cls)
    for name, check in spec:
        value = getattr(action, name)
        expected = check(value)
        if expected is not None:
            return ActionFormatError(
                f"{cls.__name__}.{name}: expected {expected}, got {describe(value)}",
                field=name,
                expected=expected,
            )
    return None


def validate_action(action: Any):
    """``action`` itself if well-formed; raises :class:`ActionFormatError` otherwise."""
    problem = action_problem(action)
    if problem is not None:
        raise problem
    return action
