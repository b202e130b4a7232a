"""Questions a page, a bot or a lesson asks the engine, in the style of python-chess.

Everything here is answered by :func:`~.engine.check` (or by code ``check`` itself
calls), so nothing outside the engine decides what is legal:

* :func:`unit_actions` — the legal actions of one platoon, generated lazily;
* :func:`move_targets` — where the selected platoon may go with the facing chosen;
* :func:`fire_targets` — every enemy hex and, for a group of firers, ``None`` if the
  group may fire on it or the :class:`~.reasons.Illegal` reason it may not;
* :func:`fire_odds` — the exact odds of a declaration, *refusing* (raising
  :class:`~.reasons.IllegalAction` with the very reason ``check`` gives) for any group
  the engine would refuse, so no page can show odds for a forbidden shot;
* :func:`pending_decision` — the commander's choice the engine waits on, with each
  option's action and, for a roll order, why the order matters;
* :func:`ready_units` — the platoons that can do something in this phase;
* :func:`~.intent.action_for` — the one mapping from a click intention (platoon, hex,
  facing, verb) to an action.

:class:`Query` binds a state and a seat, like ``chess.Board``'s ``legal_moves``:

>>> from hexclass.classroom.combined_arms import new_game
>>> q = Query(new_game(seed=3), "player")
>>> [q.state.label(h) for h in sorted(q.move_targets("D1"), key=lambda h: h[0])][:3]
['1a', '1b', '1c']
>>> str(next(iter(q.fire_targets(["D1"]).values())))  # not the fire phase: the rule, named
'CA "Sequence of Play": platoons fire only in the Friendly Fire Phase; it is now the Friendly Move Phase'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hexclass.classroom.hexgrid import Hex

from . import fire as _fire
from . import movement
from .actions import (
    ChooseBroken,
    ChooseRollOrder,
    DeclareFire,
    Enter,
    Face,
    Move,
)
from .engine import check, mortar_call_problem, seat_problem, why_order_matters
from .intent import action_for, infer_verb
from .reasons import Illegal, IllegalAction
from .units import BOARD

__all__ = [
    "Query",
    "Choice",
    "action_for",
    "infer_verb",
    "unit_actions",
    "move_targets",
    "fire_targets",
    "legal_fire_targets",
    "fire_odds",
    "fire_odds_or_reason",
    "pending_decision",
    "ready_units",
    "mortar_problem",
    "enemy_shots",
    "score_now",
]


# --- one platoon -----------------------------------------------------------------------------


def unit_actions(state, seat: str, unit_id: str) -> Iterator:
    """Every legal action of one platoon now, generated lazily (each passes ``check``).

    Movement phase: enter, move (armour: every facing), withdraw, exploit.
    Fire phase: turning armour (``Face``) and one-firer declarations (``resolve=True``).
    """
    unit = state.units.get(unit_id)
    if unit is None:
        return
    if state.phase == "friendly_move":
        for verb, h, f in movement.destinations(state, unit):
            a = action_for(state, seat, unit_id, h, f, verb)
            if check(state, a) is None:
                yield a
    elif state.phase == "friendly_fire":
        if unit.is_armour:
            for f in range(6):
                a = Face(seat, unit_id, f)
                if check(state, a) is None:
                    yield a
        for t in _candidate_targets(state):
            a = DeclareFire(seat, t, (unit_id,), True)
            if check(state, a) is None:
                yield a


def move_targets(state, seat: str, unit_id: str, facing: int | None = None) -> dict[Hex, object]:
    """Hex -> the Enter/Move action that takes the platoon there with ``facing``.

    For armour already on the board ``facing=None`` (or its present corner) keeps the
    facing; entering armour needs a corner. Other platoons ignore ``facing``.
    """
    unit = state.units.get(unit_id)
    if unit is None or state.phase != "friendly_move":
        return {}
    out = {}
    for a in unit_actions(state, seat, unit_id):
        if isinstance(a, Enter):
            want = facing if unit.is_armour else None
        elif isinstance(a, Move):
            keep = not unit.is_armour or facing is None or facing == unit.facing
            want = None if keep else facing
        else:
            continue
        if a.facing == want:
            out[a.to] = a
    return out


def ready_units(state, seat: str) -> list[str]:
    """This seat's platoons that have at least one legal action in the present phase."""
    s = state.seats.get(seat)
    if s is None:
        return []
    return [uid for uid in sorted(s.units) if next(unit_actions(state, seat, uid), None)]


# --- fire ----------------------------------------------------------------------------------


def _candidate_targets(state) -> list[Hex]:
    decl = state.declaration
    if decl is not None:
        return [decl.target]
    return sorted(state.enemy, key=lambda h: (h[1], h[0]))


def fire_targets(state, seat: str, firers: Iterable[str]) -> dict[Hex, Illegal | None]:
    """Each enemy hex -> None if ``firers`` may fire on it together now, else the reason.

    Every answer is ``check(DeclareFire(...))``: the group is judged as the engine
    judges it (forward arcs, lines of fire, range, companies, the open declaration).
    """
    group = tuple(firers)
    hexes = sorted(state.enemy, key=lambda h: (h[1], h[0]))
    if state.declaration is not None and state.declaration.target not in state.enemy:
        hexes.append(state.declaration.target)
    return {h: check(state, DeclareFire(seat, h, group)) for h in hexes}


def legal_fire_targets(state, seat: str, firers: Iterable[str]) -> list[Hex]:
    """The enemy hexes ``firers`` may fire on together now."""
    return [h for h, why in fire_targets(state, seat, firers).items() if why is None]


def fire_odds(state, seat: str, target: Hex, firers: Iterable[str]) -> _fire.FireOdds:
    """Exact odds of ``firers`` declaring on ``target`` — only for a shot the engine allows.

    Raises :class:`IllegalAction` carrying ``check``'s own :class:`Illegal` otherwise.
    Joining an open declaration, the odds count the platoons already committed too.
    """
    action = DeclareFire(seat, target, tuple(firers))
    why = check(state, action)
    if why is not None:
        raise IllegalAction(why, action)
    committed = list(state.declaration.firers) if state.declaration is not None else []
    return _fire.fire_odds(state, target, [*committed, *action.firers])


def fire_odds_or_reason(
    state, seat, target, firers
) -> tuple[_fire.FireOdds | None, Illegal | None]:
    """(odds, None) for a legal shot, (None, reason) for one the engine refuses."""
    try:
        return fire_odds(state, seat, target, firers), None
    except IllegalAction as exc:
        return None, exc.reason


def mortar_problem(state, seat: str) -> Illegal | None:
    """Why this seat may not call the mortars at all now (before spotter and hex), or None."""
    return seat_problem(state, seat) or mortar_call_problem(state, state.seats[seat])


# --- the commander's choices ---------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A decision the engine is waiting on, as a page shows it."""

    kind: str  # "roll_order" or "break"
    prompt: str
    rule: str
    mine: bool  # may this seat answer it?
    options: tuple[tuple[str, object], ...]  # (label, action)
    why: str = ""  # why the choice matters, in plain words


def pending_decision(state, seat: str) -> Choice | None:
    """The choice the engine waits on, with an action for each option; None if none."""
    p = state.pending
    if p is None:
        return None
    s = state.seats.get(seat)
    mine = s is not None and p.power in s.powers
    options = []
    for opt in p.options:
        if p.kind == "roll_order":
            options.append((" then ".join(state.label(h) for h in opt), ChooseRollOrder(seat, opt)))
        else:
            options.append((f"break {opt}", ChooseBroken(seat, opt)))
    return Choice(p.kind, p.prompt, p.rule, mine, tuple(options), why_order_matters(state))


# --- bound to a state and a seat -----------------------------------------------------------


@dataclass
class Query:
    """The questions above for one state and seat (the state may change between calls)."""

    state: object
    seat: str

    def check(self, action) -> Illegal | None:
        return check(self.state, action)

    def action_for(self, unit_id, to=None, facing=None, verb=None):
        return action_for(self.state, self.seat, unit_id, to, facing, verb)

    def why_not(self, unit_id, to=None, facing=None, verb=None) -> Illegal | None:
        return check(self.state, self.action_for(unit_id, to, facing, verb))

    def unit_actions(self, unit_id) -> Iterator:
        return unit_actions(self.state, self.seat, unit_id)

    def move_targets(self, unit_id, facing=None) -> dict:
        return move_targets(self.state, self.seat, unit_id, facing)

    def ready_units(self) -> list[str]:
        return ready_units(self.state, self.seat)

    def fire_targets(self, firers) -> dict:
        return fire_targets(self.state, self.seat, firers)

    def legal_fire_targets(self, firers) -> list:
        return legal_fire_targets(self.state, self.seat, firers)

    def fire_odds(self, target, firers):
        return fire_odds(self.state, self.seat, target, firers)

    def fire_odds_or_reason(self, target, firers):
        return fire_odds_or_reason(self.state, self.seat, target, firers)

    def pending_decision(self) -> Choice | None:
        return pending_decision(self.state, self.seat)

    def mortar_problem(self) -> Illegal | None:
        return mortar_problem(self.state, self.seat)

    def on_board(self, unit_id) -> bool:
        u = self.state.units.get(unit_id)
        return u is not None and u.where == BOARD


# --- reading the engine's log ----------------------------------------------------------------

# The purposes the engine gives its enemy fire rolls (enemy.py); only the engine names them.
_ENEMY_SHOTS = ("enemy fire on infantry", "enemy fire on armour")


def enemy_shots(events) -> list[tuple[Hex, Hex, bool]]:
    """(firing hex, target hex, hit) for each enemy fire roll among ``events``."""
    out = []
    for e in events:
        d = e.data
        if e.kind == "roll" and d.get("purpose") in _ENEMY_SHOTS and d.get("target") is not None:
            out.append((d["hex"], d["target"], d.get("total", 0) >= d.get("need", 2)))
    return out


# --- the score as it stands ----------------------------------------------------------------


def score_now(state):
    """CA "Victory" counted on what is known now: the turns played so far, and only the
    enemy counters already revealed (unrevealed ones are tested when the battle ends, so
    they count nothing yet). After the battle, the final score."""
    from .victory import score_state

    if state.result is not None:
        return state.result
    return score_state(state, max(0, state.turn - 1))
