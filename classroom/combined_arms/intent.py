"""The one mapping from what a player means to the action that says it.

A click on the board, a bot's plan and the engine's own list of legal moves all start
from the same intention: *this platoon, to that hex, facing that corner* (and perhaps a
verb: enter, move, withdraw, exploit, face). :func:`action_for` turns it into the
action the engine checks. Nothing else in the project builds movement actions from
verbs, so a page, a bot and ``legal_actions`` can never disagree about what a click
means.

>>> from hexclass.classroom.combined_arms import new_game
>>> g = new_game(seed=3)
>>> action_for(g, "player", "D1", to=g.board.hex_at("1a"))
Enter(seat='player', unit='D1', to=(-3, 0), facing=None)
>>> action_for(g, "player", "A1", to=g.board.hex_at("1a"), facing=4)
Enter(seat='player', unit='A1', to=(-3, 0), facing=4)
"""

from __future__ import annotations

from hexclass.classroom.hexgrid import Hex

from .actions import Enter, Exploit, Face, Move, Withdraw
from .units import OFF

VERBS = ("enter", "move", "withdraw", "exploit", "face")


def infer_verb(state, unit_id: str, to: Hex | None) -> str:
    """The verb a plain click means: enter from off the board, move on it, face in fire."""
    unit = state.units[unit_id]
    if state.phase == "friendly_fire":
        return "face"
    if unit.where == OFF:
        return "enter"
    return "move"


def action_for(
    state,
    seat: str,
    unit_id: str,
    to: Hex | None = None,
    facing: int | None = None,
    verb: str | None = None,
):
    """The action for ``unit_id`` doing ``verb`` (inferred if None) to ``to``, facing ``facing``.

    Facing (CA "Movement"): only armour has one. For a move, naming the corner the
    armour already faces is the same as keeping it (``facing=None``), which is what
    reversing and the 2-hex road move need; infantry facings are dropped.
    """
    verb = verb or infer_verb(state, unit_id, to)
    unit = state.units[unit_id]
    armour = unit.is_armour
    if verb == "enter":
        return Enter(seat, unit_id, to, facing if armour else None)
    if verb == "move":
        keep = not armour or facing is None or facing == unit.facing
        return Move(seat, unit_id, to, None if keep else facing)
    if verb == "withdraw":
        return Withdraw(seat, unit_id)
    if verb == "exploit":
        return Exploit(seat, unit_id)
    if verb == "face":
        return Face(seat, unit_id, facing)
    raise ValueError(f"unknown verb {verb!r}; expected one of {', '.join(VERBS)}")
