"""Small helpers shared by the Combined Arms tests."""

from hexclass.classroom.combined_arms import apply, check
from hexclass.classroom.combined_arms.positions import sketch

__all__ = ["sketch", "at", "reason", "ok", "apply"]


def at(state, name):
    """The hex called ``name`` (e.g. "5e") on this state's board."""
    return state.board.hex_at(name)


def reason(state, action) -> str:
    """The refusal text for an action that must be illegal."""
    why = check(state, action)
    assert why is not None, f"{action} was expected to be illegal"
    return str(why)


def ok(state, action) -> None:
    why = check(state, action)
    assert why is None, f"{action} refused: {why}"
