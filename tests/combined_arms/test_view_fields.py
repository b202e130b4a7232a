"""Every field of a game state is declared public, log, derived or secret, and a seat's
view is assembled from those declarations alone (issue 28): a field declared secret is
never copied into a view that may not hold it, and a field nobody declared never reaches
one."""

from __future__ import annotations

import dataclasses

import pytest

from hexclass.classroom.combined_arms import public
from hexclass.classroom.combined_arms.defender import DEFENDER
from hexclass.classroom.combined_arms.public import attacker_copy, from_json, seat_copy, to_json
from hexclass.classroom.combined_arms.public import view as view_of
from hexclass.classroom.combined_arms.state import (
    DERIVED_FIELDS,
    LOG_FIELDS,
    PUBLIC_FIELDS,
    SECRET_FIELDS,
    GameState,
)

from .test_seat_view import deployed

LISTS = {
    "public": PUBLIC_FIELDS,
    "log": LOG_FIELDS,
    "derived": DERIVED_FIELDS,
    "secret": tuple(SECRET_FIELDS),
}


def test_every_field_of_the_state_is_declared_exactly_once():
    fields = [f.name for f in dataclasses.fields(GameState)]
    where = {name: [k for k, names in LISTS.items() if name in names] for name in fields}
    assert {n: w for n, w in where.items() if len(w) != 1} == {}
    assert sorted(n for names in LISTS.values() for n in names) == sorted(fields)


class _Uncopyable:
    def __deepcopy__(self, memo):
        raise AssertionError("a secret was copied into a view")


def test_a_field_newly_declared_secret_never_reaches_a_view_that_may_not_hold_it(monkeypatch):
    """Declaring ``setup`` a defender's secret is all it takes to keep it out of the
    attackers' views: it is not copied (the value refuses to be) and they hold its default."""
    g = deployed()
    monkeypatch.setattr(public, "PUBLIC_FIELDS", tuple(n for n in PUBLIC_FIELDS if n != "setup"))
    monkeypatch.setitem(SECRET_FIELDS, "setup", "defender")
    g.setup = {"plan": _Uncopyable()}
    for seat in ("player", None):
        assert view_of(g, seat).setup == {}
    with pytest.raises(AssertionError, match="secret was copied"):
        seat_copy(g, DEFENDER)  # the defender holds its own secret


def test_an_attribute_nobody_declared_never_reaches_a_view():
    g = deployed()
    g.stash = _Uncopyable()  # e.g. a cache a module left on the state
    for seat in ("player", DEFENDER, None):
        assert not hasattr(seat_copy(g, seat), "stash")
    assert not hasattr(view_of(g, whole=True), "stash")


def test_a_field_left_out_of_the_declarations_stops_the_view(monkeypatch):
    g = deployed()
    monkeypatch.setattr(public, "PUBLIC_FIELDS", tuple(n for n in PUBLIC_FIELDS if n != "result"))
    with pytest.raises(ValueError, match="declared fields; not \\['result'\\]"):
        attacker_copy(g)


def test_a_view_s_derived_fields_are_made_afresh():
    g = deployed()
    g.rifle_mask()
    c = attacker_copy(g)
    assert c.board is g.board and c._rifle_mask is None and c.uid != g.uid
    assert c.rifle_mask() == g.rifle_mask()
    back = from_json(to_json(c))
    assert set(vars(back)) <= set(vars(c)) and back.snapshot()["units"] == g.snapshot()["units"]
