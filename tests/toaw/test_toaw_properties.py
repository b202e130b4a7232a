"""Properties of the supply field over random small maps (hypothesis)."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from toaw_support import naive_field, strip, worlds

from hexclass.classroom.toaw import Rules, Situation, SupplySettings, Terrain, supply_field

SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(worlds())
def test_the_field_equals_the_pure_python_reference(world):
    m, sit, st_ = world
    f = supply_field(m, sit, st_)
    ref = naive_field(m, sit, st_)
    for h in m.hexes():
        assert f.at(h) == pytest.approx(ref.get(h, 0.0), abs=1e-9), (h, st_)
        assert bool(f.supplied[f._rc(h)]) == (h in ref), h


@SLOW
@given(worlds(), st.data())
def test_blocking_a_line_never_raises_supply_anywhere(world, data):
    m, sit, st_ = world
    hexes = list(m.hexes())
    h = data.draw(st.sampled_from(hexes))
    how = data.draw(st.sampled_from(["enemy", "rail", "mud", "bridge", "control"]))
    if how == "enemy":
        assume(h not in sit.friendly_hexes and m.terrain_at(h).name != "WATER")
        blocked = sit.with_enemy(h)
    elif how == "rail":
        blocked = sit.with_rail_damage(h)
    elif how == "mud":
        blocked = sit.with_mud(h)
    elif how == "control":
        blocked = sit.with_control(h, enemy=True)
    else:
        assume(m.hexsides)
        a, b = tuple(data.draw(st.sampled_from(sorted(m.hexsides, key=sorted))))
        blocked = sit.with_bridge_destroyed(a, b)
    before = supply_field(m, sit, st_)
    after = supply_field(m, blocked, st_)
    assert np.all(after.fraction <= before.fraction + 1e-12)
    assert np.all(after.supplied <= before.supplied)


@SLOW
@given(worlds(rules="new"))
def test_without_supply_units_new_supply_never_rises_with_distance(world):
    m, sit, st_ = world
    sit = replace(
        sit, supply_units=frozenset(), sources=tuple(replace(s, strength=100) for s in sit.sources)
    )
    f = supply_field(m, sit, st_)
    traced = f.supplied & np.isfinite(f.distance)
    d, v = f.distance[traced], f.fraction[traced]
    order = np.argsort(d, kind="stable")
    assert np.all(np.diff(v[order]) <= 1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(0, 11), st.integers(1, 6), st.sampled_from(["old", "new"]))
def test_moving_the_source_further_away_never_raises_supply_at_a_hex(q1, extra, radius, rules):
    n = q1 + extra + 2
    target = (0, 0)
    near = supply_field(
        strip(n), Situation().with_source((q1, 0)), SupplySettings(rules=rules, radius=radius)
    )
    far = supply_field(
        strip(n),
        Situation().with_source((q1 + extra + 1, 0)),
        SupplySettings(rules=rules, radius=radius),
    )
    assert far.at(target) <= near.at(target)


@SLOW
@given(worlds(), st.data())
def test_more_sources_or_supply_units_never_lower_supply(world, data):
    m, sit, st_ = world
    land = [h for h in m.hexes() if m.terrain_at(h).name != "WATER"]
    assume(land)
    h = data.draw(st.sampled_from(land))
    if data.draw(st.booleans()):
        assume(sit.source_at(h) is None)
        more = sit.with_source(h, data.draw(st.integers(1, 250)))
    else:
        assume(h not in sit.enemy_units)
        more = sit.with_supply_unit(h)
    before = supply_field(m, sit, st_).fraction
    # a new friendly unit can only unblock hexes, so supply may only rise
    assert np.all(supply_field(m, more, st_).fraction >= before - 1e-12)


@settings(max_examples=40, deadline=None)
@given(
    worlds(
        terrains=[Terrain.OPEN, Terrain.URBAN, Terrain.FOREST, Terrain.HILLS, Terrain.WATER],
        hexsides=False,
    )
)
def test_both_rule_sets_agree_on_who_is_cut_off_when_no_hexsides_or_quarter_rules_apply(world):
    # on terrain both rule sets treat alike, "has a line of communication" means the same
    m, sit, st_ = world
    old = supply_field(m, sit, replace(st_, rules=Rules.OLD))
    new = supply_field(m, sit, replace(st_, rules=Rules.NEW))
    assert np.array_equal(old.supplied, new.supplied)
