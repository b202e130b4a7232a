"""Each accepted action's own events (``GameState.event_marks``), in the game and in a
seat's public copy: a seat reads its own order's result by its version (issue 22)."""

from __future__ import annotations

import json
import random

from hexclass.classroom.combined_arms import EndPhase, Options, apply, try_apply
from hexclass.classroom.combined_arms.bot import make_policy
from hexclass.classroom.combined_arms.defender import DEFENDER, ai_choice, defender_seat
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.public import (
    attacker_copy,
    from_json,
    sealed_copy,
    seat_copy,
    to_json,
    visible_to,
)
from hexclass.classroom.combined_arms.state import SOLITAIRE_SEATS

SEATS = {**SOLITAIRE_SEATS, DEFENDER: defender_seat()}


def played(seed: int, steps: int = 400):
    g = new_game(seed, Options(auto_decisions=True))
    bot = make_policy("bold", seed)
    for _ in range(steps):
        if g.over:
            break
        apply(g, bot.act(g, "player"))
    return g


def variant_played(seed: int, steps: int = 120):
    g = new_game(seed, Options(auto_decisions=True, enemy_player=True), SEATS)
    attacker, rng = make_policy("bold", seed), random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        mine = g.phase == "deployment" or (g.pending is not None and g.pending.power == DEFENDER)
        apply(g, ai_choice(g, DEFENDER, rng) if mine else attacker.act(g, "player"))
    return g


def test_each_action_owns_the_events_logged_from_it_to_the_next():
    g = new_game(5)
    setup = len(g.events)
    apply(g, EndPhase("player"))  # the move phase ends: the fire phase begins
    first = len(g.events)
    assert try_apply(g, EndPhase("player")) is None  # the enemy phase is played after it
    assert g.event_marks == [setup, first]
    assert g.events_of(1) == g.events[setup:first]
    assert g.events_of(2) == g.events[first:]
    assert any(e.phase == "enemy" for e in g.events_of(2))
    assert not any(e.phase == "enemy" for e in g.events_of(1))
    assert g.events_of(0) is None and g.events_of(3) is None


def test_a_whole_game_is_cut_into_its_actions_without_gap_or_overlap():
    g = played(3)
    n = len(g.actions)
    assert n > 20 and len(g.event_marks) == n
    pieces = [e for v in range(1, n + 1) for e in g.events_of(v)]
    assert pieces == g.events[g.event_marks[0] :]
    assert g.event_marks == sorted(g.event_marks)


def test_a_refused_action_leaves_no_mark():
    g = new_game(5)
    assert try_apply(g, EndPhase("someone else")) is not None
    assert g.event_marks == [] and g.actions == []


def test_a_copy_keeps_the_marks_and_they_travel_in_its_json():
    g = played(4, steps=30)
    back = from_json(to_json(sealed_copy(g)))
    assert back.event_marks == g.event_marks
    assert [e.text for e in back.events_of(len(g.actions))] == [
        e.text for e in g.events_of(len(g.actions))
    ]


def test_a_copy_published_before_the_marks_still_loads_and_says_it_has_none():
    g = played(4, steps=10)
    data = json.loads(to_json(sealed_copy(g)))
    del data["event_marks"]
    old = from_json(json.dumps(data))
    assert old.snapshot() == sealed_copy(g).snapshot()
    assert old.events_of(1) is None and old.action_span(len(g.actions)) is None


def test_an_attackers_copy_counts_its_marks_in_the_events_it_may_read():
    g = variant_played(9)
    assert any(not visible_to(e, None) for e in g.events)  # the defender's secret events
    c = attacker_copy(g)
    for v in range(1, len(g.actions) + 1):
        assert c.events_of(v) == [e for e in g.events_of(v) if visible_to(e, None)]
    # the defender's own copy, read back from its JSON, by marks of its own
    d = from_json(to_json(seat_copy(g, DEFENDER), defender=True))
    spec = g.seats[DEFENDER]
    for v in range(1, len(g.actions) + 1):
        assert d.events_of(v) == [e for e in g.events_of(v) if visible_to(e, spec)]
