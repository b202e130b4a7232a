"""What one side may see of a game, as a state and as JSON (views for hidden information).

In the solitaire and co-op games the only secret in a :class:`~.state.GameState` is the
dice generator (whoever holds it can foresee every roll). The enemy-player variant (CA
p.7) adds the defender's secrets: the force roll, the deployment and the reveal orders
(``defender.py``). Those fields are declared in one place, :data:`~.state.SECRET_FIELDS`,
beside the public ones (:data:`~.state.PUBLIC_FIELDS`, :data:`~.state.LOG_FIELDS`), and
every copy handed out is made by one pure function, :func:`view` (one audience per
call, like boardgame.io's ``playerView``), which assembles it from those lists with each
audience's blank in the secrets: a secret is never copied at all, and a field nobody
declared never comes along.
:func:`attacker_copy` is the game as an attacking seat may hold it:

* sealed dice (they count rolls but cannot make one) and no seed;
* no force roll, no deployment, no reveal orders;
* no event marked ``secret`` for someone else (``defender.SECRET``, a sealed bid), and the
  defender's secret actions and other players' sealed bids
  replaced by :class:`SecretAction` markers, so the action count (the version) still
  matches the store's;
* a pending defender choice without its options (they would show which hidden counters
  are real).

:func:`to_json` and :func:`from_json` carry such a copy between processes (a referee that
holds the whole game and the attackers' kernels that may not): plain JSON with tagged
tuples, maps and the engine's own dataclasses, read back only into those classes.

>>> from hexclass.classroom.combined_arms.game import new_game
>>> g = new_game(7)
>>> back = from_json(to_json(attacker_copy(g)))
>>> back.snapshot()["units"] == g.snapshot()["units"], back.seed
(True, 0)
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

from hexclass.classroom.dice import Dice

from .board import Board
from .enemy_player import Deployment, SecretForces
from .state import (
    LOG_FIELDS,
    PUBLIC_FIELDS,
    SECRET_FIELDS,
    Decision,
    Declaration,
    Event,
    Game,
    GameState,
    MortarTarget,
    Options,
    SeatSpec,
)
from .units import EnemyPost, Platoon
from .victory import Score, ScoreLine

SECRET_ACTIONS = ("Deploy", "ChooseReveals")  # the defender's actions nobody else may read
DEFENDER = "defender"  # the power of the seat commanding the defenders (defender.py)


class SealedDiceError(RuntimeError):
    """A copy of the game without the dice tried to roll: only the full game rolls."""


class SealedDice(Dice):
    """Dice with no generator state: they count rolls but cannot make one."""

    __slots__ = ()

    def __init__(self, rolled: int = 0) -> None:
        self.state = 0
        self.inc = 0
        self.rolled = rolled

    def _next32(self) -> int:
        raise SealedDiceError("this copy of the game cannot roll dice; submit an action")

    def copy(self) -> SealedDice:
        return SealedDice(self.rolled)


@dataclasses.dataclass(frozen=True, slots=True)
class SecretAction:
    """Stands in an attacker's copy for one of the defender's secret actions."""

    seat: str


def is_secret_event(event: Event) -> bool:
    return event.data.get("secret") is not None


def visible_to(event: Event, spec: SeatSpec | None) -> bool:
    """An event is for everyone, for the defender only, or for one seat (a sealed bid)."""
    secret = event.data.get("secret")
    if secret is None:
        return True
    if spec is None:
        return False
    return secret == spec.name or (secret == DEFENDER and DEFENDER in spec.powers)


def sealed_copy(state: GameState) -> GameState:
    """A copy for drawing and odds whose dice cannot roll (no other secret removed)."""
    return view(state, whole=True)


def attacker_copy(state: GameState) -> GameState:
    """The game as an attacking seat (or a spectator) may hold it."""
    return view(state, None)


def seat_copy(state: GameState, seat: str | None) -> GameState:
    """The game as ``seat`` may hold it (see :func:`view`)."""
    return view(state, seat)


def view(state: GameState, seat: str | None = None, *, whole: bool = False) -> GameState:
    """The one way a copy of the game leaves the engine: what one audience may hold.

    ``whole``: the game holder's own copy for drawing and odds: sealed dice that still
    count the rolls, no seed, nothing else left out. Otherwise ``seat``'s view (None: a
    spectator, who sees what the attackers see): the defender keeps its own secrets,
    anyone else gets the defender's left out; nobody keeps the dice (not even their roll
    count, which would tell how often the forces were re-rolled), the seed or others'
    sealed bids; the log is the seat's (:func:`_seat_log`).

    The view is assembled field by field from the lists ``state.py`` declares
    (:data:`~.state.PUBLIC_FIELDS`, :data:`~.state.LOG_FIELDS`,
    :data:`~.state.SECRET_FIELDS`): a secret is blanked before anything is copied, and
    nothing the state holds outside those lists comes along.
    """
    spec = state.seats.get(seat) if seat is not None else None
    defends = spec is not None and DEFENDER in spec.powers
    held = state.__dict__
    fields = {name: held[name] for name in PUBLIC_FIELDS}
    for name, kind in SECRET_FIELDS.items():
        keeps = whole and kind != "dice" or defends and kind == "defender"
        fields[name] = held[name] if keeps else _blank(state, name, seat, whole)
    if whole:
        fields.update({name: held[name] for name in LOG_FIELDS})
    else:
        fields.update(_seat_log(state, seat, spec, defends))
    memo: dict[int, Any] = {id(e): e for e in state.events}  # logged once, never changed
    memo.update((id(a), a) for a in state.actions)
    return GameState.assemble(copy.deepcopy(fields, memo), state._changes)


_DEFAULTS = {f.name: f for f in dataclasses.fields(GameState)}


def _blank(state: GameState, name: str, seat: str | None, whole: bool) -> Any:
    """What a view holds in place of the secret field ``name``: the field's declared
    default unless named here (KeyError: a secret with neither)."""
    if name == "dice":
        return SealedDice(state.dice.rolled if whole else 0)
    if name == "bids":
        return {s: b for s, b in state.bids.items() if s == seat}
    if name == "seed":
        return 0
    f = _DEFAULTS[name]
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    if f.default is dataclasses.MISSING:
        raise KeyError(f"the secret field {name!r} has no default for a view to hold")
    return f.default


def _seat_log(state: GameState, seat: str | None, spec: SeatSpec | None, defends: bool) -> dict:
    """The log as ``seat`` may read it: its events and their marks, the actions with the
    secret ones as markers, and a pending defender choice without its options."""
    events, marks = _visible_events(state, spec)
    actions = [
        a if _action_visible(a, seat, defends) else SecretAction(a.seat) for a in state.actions
    ]
    p = state.pending
    out = {"events": events, "event_marks": marks, "actions": actions, "pending": p}
    if not defends and p is not None and p.power == DEFENDER:
        out["pending"] = Decision(
            p.kind, (), power=p.power, rule=p.rule, prompt="the defender is deciding"
        )
    return out


def _visible_events(state: GameState, spec: SeatSpec | None) -> tuple[list[Event], list[int]]:
    """The events ``spec`` may read, and each action's mark counted in those events only
    (a mark counted in the whole log would tell how many secret events an action made)."""
    if not any(is_secret_event(e) for e in state.events):
        return list(state.events), list(state.event_marks)
    shown: list[Event] = []
    before: list[int] = []  # before[i]: events shown among the first i of the log
    for e in state.events:
        before.append(len(shown))
        if visible_to(e, spec):
            shown.append(e)
    before.append(len(shown))
    return shown, [before[m] for m in state.event_marks]


def _action_visible(action, seat: str | None, defends: bool) -> bool:
    name = type(action).__name__
    if name == "Bid":
        return action.seat == seat
    return defends or name not in SECRET_ACTIONS


# --- JSON -------------------------------------------------------------------------------------

_CLASSES = {
    cls.__name__: cls
    for cls in (
        Decision,
        Declaration,
        Event,
        Game,
        MortarTarget,
        Options,
        SeatSpec,
        EnemyPost,
        Platoon,
        Score,
        ScoreLine,
        SecretAction,
        Deployment,
        SecretForces,
    )
}


def _encode(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, tuple):
        return {"__tuple__": [_encode(x) for x in v]}
    if isinstance(v, list):
        return [_encode(x) for x in v]
    if isinstance(v, frozenset):
        return {"__frozenset__": [_encode(x) for x in sorted(v, key=repr)]}
    if isinstance(v, dict):
        if all(isinstance(k, str) for k in v) and not any(k.startswith("__") for k in v):
            return {k: _encode(x) for k, x in v.items()}
        return {"__map__": [[_encode(k), _encode(x)] for k, x in v.items()]}
    if isinstance(v, Dice):
        return {"__dice__": v.rolled}
    if isinstance(v, Board):
        return {"__board__": v.to_rows(), "road": _encode(tuple(v.road))}
    name = type(v).__name__
    if dataclasses.is_dataclass(v) and name in _CLASSES:
        out = {"__dc__": name}
        for f in dataclasses.fields(v):
            if not f.name.startswith("_"):
                out[f.name] = _encode(getattr(v, f.name))
        return out
    from .actions import ACTION_TYPES, action_to_json

    if name in ACTION_TYPES:
        return {"__action__": action_to_json(v)}
    raise TypeError(f"cannot put a {name} into a public copy of the game")


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "__tuple__" in v:
        return tuple(_decode(x) for x in v["__tuple__"])
    if "__frozenset__" in v:
        return frozenset(_decode(x) for x in v["__frozenset__"])
    if "__map__" in v:
        return {_decode(k): _decode(x) for k, x in v["__map__"]}
    if "__dice__" in v:
        return SealedDice(v["__dice__"])
    if "__board__" in v:
        return Board.from_rows(v["__board__"], _decode(v["road"]))
    if "__action__" in v:
        from .actions import action_from_json

        return action_from_json(v["__action__"])
    if "__dc__" in v:
        cls = _CLASSES.get(v["__dc__"])
        if cls is None:
            raise ValueError(f"unknown class {v['__dc__']!r} in a public copy")
        return cls(**{k: _decode(x) for k, x in v.items() if k != "__dc__"})
    return {k: _decode(x) for k, x in v.items()}


def to_json(state: GameState, with_events: bool = True, defender: bool = False) -> str:
    """A copy made by :func:`attacker_copy` or :func:`sealed_copy`, as JSON text.

    ``with_events=False`` leaves the event log out (send :func:`events_json` of the new
    events instead, so a follower need not read the whole log again at every version).
    """
    if not isinstance(state.dice, SealedDice):
        raise ValueError("only a sealed copy of the game may be written out (its dice roll)")
    if not defender and (
        state.secret is not None
        or state.forces is not None
        or any(type(a).__name__ in SECRET_ACTIONS for a in state.actions)
    ):
        raise TypeError("a secret action or deployment cannot go into a public copy")
    fields = {
        name: _encode(getattr(state, name))
        for name in (*PUBLIC_FIELDS, *LOG_FIELDS, *SECRET_FIELDS)
        if with_events or name != "events"
    }
    return json.dumps(fields, separators=(",", ":"))


def events_json(events: list[Event]) -> str:
    if any(is_secret_event(e) for e in events):
        raise ValueError("a secret event cannot go into a public copy")
    return json.dumps([_encode(e) for e in events], separators=(",", ":"))


def events_from_json(text: str) -> list[Event]:
    return [_decode(e) for e in json.loads(text)]


def from_json(text: str) -> GameState:
    """Read :func:`to_json` text back into a state whose dice cannot roll."""
    data = json.loads(text)
    fields = {k: _decode(v) for k, v in data.items()}
    return GameState(**fields)
