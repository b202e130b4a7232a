"""Each audience's copy of the game is made by one function, ``public.view``, built without
the secrets ``state.SECRET_FIELDS`` declares (issue 28): no seed, no dice generator, no
deployment field or other attribute the state does not declare."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hexclass.classroom.combined_arms import apply
from hexclass.classroom.combined_arms.defender import DEFENDER, ai_choice, deployment_field
from hexclass.classroom.combined_arms.enemy_player import DeploymentField
from hexclass.classroom.combined_arms.public import (
    SealedDice,
    attacker_copy,
    sealed_copy,
    seat_copy,
    view,
)
from hexclass.classroom.combined_arms.state import SECRET_FIELDS, GameState

from .test_public_copy import variant_game

DECLARED = {f.name for f in dataclasses.fields(GameState)}


def deployed(seed: int = 4):
    g = variant_game(seed)
    deployment_field(g)  # it used to be left on the state as an undeclared attribute
    apply(g, ai_choice(g, DEFENDER, random.Random(0)))
    return g


@pytest.mark.parametrize("seat", ["player", DEFENDER, None])
def test_a_seats_copy_holds_no_seed_no_dice_and_nothing_undeclared(seat):
    g = deployed()
    assert g.seed != 0 and g.dice.rolled > 0
    c = seat_copy(g, seat)
    assert set(vars(c)) <= DECLARED  # nothing stashed on the state comes along
    assert not any(isinstance(v, DeploymentField) for v in vars(c).values())
    assert c.seed == 0 and type(c.dice) is SealedDice
    assert (c.dice.state, c.dice.inc, c.dice.rolled) == (0, 0, 0)
    assert c.uid != g.uid


def test_the_game_itself_keeps_nothing_undeclared_either():
    g = deployed()
    assert set(vars(g)) <= DECLARED
    assert deployment_field(g) is deployment_field(g.copy())  # kept per board, not per state
    assert deployment_field(g).platoon_hexes == DeploymentField.of(g.board).platoon_hexes


def test_every_declared_secret_is_left_out_of_an_attackers_copy_by_its_blank():
    g = deployed()
    g.bids = {"player": 3, "other": 5}
    c = attacker_copy(g)
    blanks = {"seed": 0, "forces": None, "secret": None, "reveal_orders": frozenset()}
    for name in SECRET_FIELDS:
        if name in blanks:
            assert getattr(c, name) == blanks[name], name
    assert c.bids == {} and seat_copy(g, "player").bids == {"player": 3}


def test_the_defender_keeps_its_own_secrets_and_the_whole_copy_keeps_all_but_the_dice():
    g = deployed()
    d = seat_copy(g, DEFENDER)
    assert (d.forces, d.secret, d.reveal_orders) == (g.forces, g.secret, g.reveal_orders)
    w = sealed_copy(g)
    assert (w.forces, w.secret, w.bids) == (g.forces, g.secret, g.bids)
    assert w.seed == 0 and w.dice.rolled == g.dice.rolled and type(w.dice) is SealedDice


class _Uncopyable:
    """A secret that fails loudly if anything tries to copy it."""

    def __deepcopy__(self, memo):
        raise AssertionError("a secret was copied into a view")


def test_a_view_is_built_without_the_secrets_not_cleaned_of_them():
    g = deployed()
    g.forces = g.secret = _Uncopyable()
    for seat in ("player", None):
        c = view(g, seat)
        assert c.forces is None and c.secret is None
    assert isinstance(g.forces, _Uncopyable)  # the game itself is untouched
    with pytest.raises(AssertionError, match="secret was copied"):
        seat_copy(g, DEFENDER)  # the defender's view does copy its own
