"""The query API answers only what the engine's ``check`` answers (CA rules, once)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import (
    DeclareFire,
    EndPhase,
    Enter,
    Exploit,
    Face,
    Move,
    Withdraw,
    apply,
    check,
    legal_actions,
    new_game,
    query,
)
from hexclass.classroom.combined_arms.fire import fire_odds as raw_fire_odds
from hexclass.classroom.combined_arms.intent import action_for
from hexclass.classroom.combined_arms.reasons import IllegalAction
from hexclass.classroom.combined_arms.units import ALL_IDS

from .helpers import at, sketch

P = "player"


def random_walk(seed: int, steps: int):
    """A game played ``steps`` actions on by random legal actions (ends phases now and then)."""
    rng = random.Random(seed)
    state = new_game(seed % 97)
    for _ in range(steps):
        if state.over:
            break
        acts = legal_actions(state, P)
        ends = [a for a in acts if isinstance(a, EndPhase)]
        others = [a for a in acts if not isinstance(a, EndPhase) and type(a).__name__ != "EndGame"]
        a = rng.choice(others) if others and rng.random() < 0.8 else (ends or acts)[0]
        apply(state, a)
    return state


# --- fire_odds refuses exactly what check refuses --------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 70),
    group=st.lists(st.sampled_from(sorted(ALL_IDS)), min_size=0, max_size=4),
    pick=st.integers(0, 50),
)
def test_fire_odds_refuses_iff_check_refuses_with_the_same_reason(seed, steps, group, pick):
    state = random_walk(seed, steps)
    hexes = sorted(state.enemy) + [state.board.hexes[pick % len(state.board.hexes)]]
    target = hexes[pick % len(hexes)]
    why = check(state, DeclareFire(P, target, tuple(group)))
    try:
        odds = query.fire_odds(state, P, target, group)
    except IllegalAction as exc:
        assert why is not None, "odds refused a shot the engine allows"
        assert exc.reason == why  # the same typed reason: rule section and sentence
        return
    assert why is None, f"odds given for a refused shot: {why}"
    committed = state.declaration.firers if state.declaration else []
    assert odds == raw_fire_odds(state, target, [*committed, *group])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 70))
def test_fire_targets_agree_with_check_for_every_enemy_hex(seed, steps):
    state = random_walk(seed, steps)
    group = [u.id for u in state.on_board()][:2]
    answers = query.fire_targets(state, P, group)
    assert set(answers) >= set(state.enemy)
    for h, why in answers.items():
        assert why == check(state, DeclareFire(P, h, tuple(group)))


def test_the_blocked_line_of_the_bug_report_gets_no_odds():
    # M1 at 1b and M2 at 1c fire on 4c past a wood at 3c (issue 11: "pin 97% (35/36)")
    s = sketch(
        {"3c": "woods"},
        {"M1": "1b", "M2": "1c"},
        {"4c": "potential"},
        phase="friendly_fire",
    )
    with pytest.raises(IllegalAction) as exc:
        query.fire_odds(s, P, at(s, "4c"), ["M1", "M2"])
    assert exc.value.reason.rule == 'CA "Fire Attacks"'
    assert "blocked by 3c" in exc.value.reason.message
    assert query.legal_fire_targets(s, P, ["M1", "M2"]) == []


def test_out_of_range_target_names_the_limit_not_odds():
    s = sketch(units={"D1": "1d"}, enemy={"8d": "potential"}, phase="friendly_fire")
    odds, why = query.fire_odds_or_reason(s, P, at(s, "8d"), ["D1"])
    assert odds is None and "the limit is 5" in why.message


def test_odds_joining_an_open_declaration_count_the_committed_firers():
    s = sketch(units={"D1": "4d", "D2": "4e"}, enemy={"5d": "real"}, phase="friendly_fire")
    apply(s, DeclareFire(P, at(s, "5d"), ("D1",), resolve=False))
    odds = query.fire_odds(s, P, at(s, "5d"), ["D2"])
    assert [a.unit for a in odds.attacks] == ["D1", "D2"]
    with pytest.raises(IllegalAction, match="already committed"):
        query.fire_odds(s, P, at(s, "5d"), ["D1"])


def test_armour_may_turn_to_join_an_open_declaration_and_the_legal_list_says_so():
    # CA "Friendly Fire": fresh armour may take any facing in the fire phase, and a
    # group is committed before it is resolved; only a committed firer may not turn
    s = sketch(units={"D1": "4d", "A1": "4e top"}, enemy={"5d": "real"}, phase="friendly_fire")
    apply(s, DeclareFire(P, at(s, "5d"), ("D1",), resolve=False))
    turns = [a for a in legal_actions(s, P) if isinstance(a, Face) and a.unit == "A1"]
    assert len(turns) == 5 and all(check(s, a) is None for a in turns)
    join = DeclareFire(P, at(s, "5d"), ("A1",), resolve=False)
    assert "turn it first" in check(s, join).message  # 5d is behind A1 as it faces
    turned = [s.copy() for _ in turns]
    for c, a in zip(turned, turns):
        apply(c, a)
    ready = [c for c in turned if check(c, join) is None]
    assert ready  # some facing brings 5d into A1's arc, so A1 can join the fire
    apply(ready[0], join)
    assert not [a for a in legal_actions(ready[0], P) if isinstance(a, Face)]


# --- one mapping from intention to action -----------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_every_legal_move_is_the_mapping_of_its_own_intention(seed, steps):
    state = random_walk(seed, steps)
    for a in legal_actions(state, P):
        if isinstance(a, (Enter, Move)):
            assert action_for(state, P, a.unit, a.to, a.facing) == a
        elif isinstance(a, (Withdraw, Exploit)):
            verb = type(a).__name__.lower()
            assert action_for(state, P, a.unit, verb=verb) == a
        elif isinstance(a, Face):
            assert action_for(state, P, a.unit, facing=a.facing) == a


def test_naming_the_present_facing_is_keeping_it():
    s = sketch(units={"A1": "3d bottom"})
    facing = s.units["A1"].facing
    assert action_for(s, P, "A1", at(s, "4d"), facing) == Move(P, "A1", at(s, "4d"), None)
    assert action_for(s, P, "D1", at(s, "1d"), 3) == Enter(P, "D1", at(s, "1d"), None)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_unit_actions_are_the_legal_actions_of_that_platoon(seed, steps):
    state = random_walk(seed, steps)
    every = legal_actions(state, P)
    for uid in ("D1", "A1", "M2", "F3"):
        mine = list(query.unit_actions(state, P, uid))
        assert all(check(state, a) is None for a in mine)
        expected = [
            a
            for a in every
            if getattr(a, "unit", None) == uid
            or (isinstance(a, DeclareFire) and a.firers == (uid,) and a.resolve)
        ]
        assert sorted(map(repr, mine)) == sorted(map(repr, expected))


def test_move_targets_follow_the_chosen_facing():
    s = sketch(units={"A1": "3d bottom"})
    keep = query.move_targets(s, P, "A1")
    assert all(a.facing is None for a in keep.values())
    turned = query.move_targets(s, P, "A1", facing=0)
    assert turned and all(a.facing == 0 for a in turned.values())
    assert set(turned) != set(keep)


def test_ready_units_in_the_fire_phase_never_include_platoons_off_the_board():
    s = sketch(units={"D1": "4d", "A1": "3c top"}, enemy={"6d": "real"}, phase="friendly_fire")
    ready = query.ready_units(s, P)
    assert "A2" not in ready and "A3" not in ready  # off the board
    assert set(ready) <= {"D1", "A1"}


def test_pending_roll_order_says_why_the_order_matters():
    from hexclass.classroom.combined_arms.state import Decision

    s = sketch(units={"D1": "4d", "D2": "4e", "E1": "4c"}, losses=6)
    s.pending = Decision(
        "roll_order",
        ((at(s, "4d"), at(s, "4c")), (at(s, "4c"), at(s, "4d"))),
        context=("enemy fire", at(s, "5d")),
        rule='CA "Enemy Fire"',
        prompt="in which order?",
    )
    choice = query.pending_decision(s, P)
    assert choice.mine and [label for label, _ in choice.options] == ["4d then 4c", "4c then 4d"]
    assert "passes 7" in choice.why and "stands at 6" in choice.why
    assert all(check(s, a) is None for _, a in choice.options)
