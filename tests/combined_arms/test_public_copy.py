"""What an attacking seat may hold of a game (CA p.7 hidden information), and its JSON."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import EndPhase, Options, apply
from hexclass.classroom.combined_arms.actions import Deploy
from hexclass.classroom.combined_arms.bot import make_policy
from hexclass.classroom.combined_arms.defender import (
    DEFENDER,
    ai_choice,
    defender_seat,
    deploy_actions,
)
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.public import (
    SealedDiceError,
    SecretAction,
    attacker_copy,
    from_json,
    sealed_copy,
    to_json,
)
from hexclass.classroom.combined_arms.state import SOLITAIRE_SEATS

SEATS = {**SOLITAIRE_SEATS, DEFENDER: defender_seat()}
# more examples for a deeper search: HEXCLASS_PROPERTY_EXAMPLES=200 pytest ...
EXAMPLES = int(os.environ.get("HEXCLASS_PROPERTY_EXAMPLES", "12"))


def variant_game(seed: int):
    return new_game(seed, Options(auto_decisions=True, enemy_player=True), SEATS)


def two_deployments(g):
    """Two legal deployments with different real platoons."""
    first = next(deploy_actions(g, DEFENDER))
    other = next(d for d in deploy_actions(g, DEFENDER) if d.platoons != first.platoons)
    return first, other


def test_two_secret_deployments_look_the_same_to_the_attackers():
    g1, g2 = variant_game(21), variant_game(21)
    d1, d2 = two_deployments(g1)
    apply(g1, d1)
    apply(g2, d2)
    assert to_json(attacker_copy(g1)) == to_json(attacker_copy(g2))
    # and still after a quiet turn in which nothing is revealed
    for g in (g1, g2):
        apply(g, EndPhase("player"))
        apply(g, EndPhase("player"))
    assert g1.pending is not None and g1.pending.kind == "reveals"
    assert g1.pending.options != g2.pending.options  # the defender sees different choices
    assert to_json(attacker_copy(g1)) == to_json(attacker_copy(g2))


def test_the_attackers_copy_has_no_seed_no_dice_and_no_secret():
    g = variant_game(4)
    apply(g, ai_choice(g, DEFENDER, random.Random(0)))
    c = attacker_copy(g)
    assert (c.seed, c.secret, c.forces, c.dice.rolled) == (0, None, None, 0)
    assert isinstance(c.actions[0], SecretAction)
    assert not any(e.data.get("secret") for e in c.events)
    with pytest.raises(SealedDiceError):
        c.dice.d6()
    text = to_json(c)
    for label in sorted(g.label(h) for h in g.secret.platoons):
        assert f"real platoons at {label}" not in text and f" {label};" not in text


def test_only_sealed_copies_are_written_out():
    with pytest.raises(ValueError, match="sealed"):
        to_json(variant_game(4))


def test_a_copy_read_back_is_the_same_position_at_every_stage_of_a_game():
    g = variant_game(9)
    attacker, rng = make_policy("bold", 9), random.Random(9)
    for n in range(400):
        if g.over:
            break
        mine = g.phase == "deployment" or (g.pending is not None and g.pending.power == DEFENDER)
        apply(g, ai_choice(g, DEFENDER, rng) if mine else attacker.act(g, "player"))
        if n % 25 == 0 or g.over:
            c = attacker_copy(g)
            back = from_json(to_json(c))
            assert back.snapshot() == c.snapshot()
            assert [e.text for e in back.events] == [e.text for e in c.events]
    assert g.over


def test_a_solitaire_copy_keeps_everything_but_the_dice():
    g = new_game(2)
    apply(g, EndPhase("player"))
    c = sealed_copy(g)
    back = from_json(to_json(c))
    assert back.snapshot() == c.snapshot() and back.actions == g.actions


def test_reading_refuses_classes_it_does_not_know():
    text = to_json(sealed_copy(new_game(2)))
    data = json.loads(text)
    data["result"] = {"__dc__": "Popen", "args": "rm"}
    with pytest.raises(ValueError, match="unknown class 'Popen'"):
        from_json(json.dumps(data))


def test_a_secret_action_cannot_be_written_into_a_public_copy():
    g = variant_game(4)
    apply(g, ai_choice(g, DEFENDER, random.Random(0)))
    c = sealed_copy(g)  # sealed dice, but the secrets are still there
    assert isinstance(c.actions[0], Deploy)
    with pytest.raises(TypeError, match="secret action or deployment"):
        to_json(c)


# --- non-interference (CA p.7): the attackers' copy depends only on what was revealed -----


def _public_defender(g):
    """The defender's answers that are legal whatever the deployment: reveal nothing by
    choice, hold the mortars, engage the first target offered (targets come only from
    revealed counters, which both games share while the test compares them)."""
    from hexclass.classroom.combined_arms.defender import choice_actions

    p = g.pending
    if p.kind in ("reveals", "mortar_target"):
        return next(
            a
            for a in choice_actions(g, DEFENDER)
            if not (a.hexes if p.kind == "reveals" else a.target)
        )
    return next(choice_actions(g, DEFENDER))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(1, 10_000),
    pick=st.integers(0, 2**32),
    policy=st.sampled_from(["bold", "steady", "random"]),
)
def test_two_deployments_look_the_same_until_a_counter_tells_them_apart(seed, pick, policy):
    """Two secret deployments of the same forces, the same attacker orders (chosen from the
    attackers' own copy) and the same public answers: while every revealed counter agrees,
    the attackers' copies are the same JSON, byte for byte."""
    games = [variant_game(seed), variant_game(seed)]
    rng = random.Random(pick)
    deployments = [ai_choice(games[0], DEFENDER, rng) for _ in range(8)]
    second = next((d for d in deployments[1:] if d != deployments[0]), None)
    assume(second is not None)
    apply(games[0], deployments[0])
    apply(games[1], second)
    attacker = make_policy(policy, seed)
    for _ in range(600):
        if games[0].enemy != games[1].enemy:
            break  # a reveal told them apart: the copies may differ from here on
        views = [to_json(attacker_copy(g)) for g in games]
        assert views[0] == views[1]
        if games[0].over:
            break
        g = games[0]
        if g.pending is not None and g.pending.power == DEFENDER:
            actions = [_public_defender(g) for g in games]
        else:
            action = attacker.act(from_json(views[0]), "player")
            actions = [action, action]
        for g, a in zip(games, actions):
            apply(g, a)
