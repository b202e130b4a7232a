"""Actions: the only way a game changes. Each is a small frozen value naming its seat.

Hexes are ``(q, r)`` tuples (see ``classroom.hexgrid``); ``Board.label`` and
``Board.hex_at`` convert to and from names such as ``"C5"``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from functools import cache

from classroom.hexgrid import Hex


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
class ChooseRollOrder:
    """Say in which order the hexes under fire are rolled for."""

    seat: str
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class ChooseBroken:
    """Say which infantry platoon in the hex is broken as losses pass 7 to 0."""

    seat: str
    unit: str


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
        ChooseRollOrder,
        ChooseBroken,
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
    | ChooseRollOrder
    | ChooseBroken
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


class ActionFormatError(ValueError):
    pass


_HEX_FIELDS = {"to", "target"}


def action_from_json(data: dict):
    """Inverse of :func:`action_to_json`; names the field that is wrong."""
    if not isinstance(data, dict) or "type" not in data:
        raise ActionFormatError(f"an action must be an object with a 'type', got {data!r}")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ActionFormatError(
            f"unknown action type {data['type']!r}; expected one of {sorted(ACTION_TYPES)}"
        )
    kwargs = {}
    for f in _fields_of(cls):
        if f.name not in data:
            if f.default is not MISSING:
                continue
            raise ActionFormatError(f"{cls.__name__} needs field {f.name!r}")
        v = data[f.name]
        try:
            if f.name in _HEX_FIELDS:
                v = _hex(v)
            elif f.name == "hexes":
                v = tuple(_hex(x) for x in v)
            elif f.name == "firers":
                v = tuple(str(x) for x in v)
        except (TypeError, ValueError) as exc:
            raise ActionFormatError(f"{cls.__name__}.{f.name}: {exc}") from None
        kwargs[f.name] = v
    return cls(**kwargs)


@cache
def _fields_of(cls) -> tuple:
    return fields(cls)


def _hex(v) -> Hex:
    if not (isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, int) for x in v)):
        raise ValueError(f"expected a hex as [q, r] integers, got {v!r}")
    return (v[0], v[1])
