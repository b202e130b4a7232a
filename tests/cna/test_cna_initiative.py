"""Initiative (CNA 7.1x): die + rating, ties rolled again, a seeded generator passed in."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexclass.classroom.cna.errors import CNAInputError
from hexclass.classroom.cna.initiative import (
    InitiativeDeclarations,
    Role,
    Side,
    determine_initiative,
    initiative_from_rolls,
    sides_for_roles,
)
from hexclass.classroom.dice import Dice

EVEN = {Side.AXIS: 0, Side.COMMONWEALTH: 0}


class ScriptedDie:
    """A die that shows the given faces in order."""

    def __init__(self, faces):
        self.faces = iter(faces)

    def d6(self):
        return next(self.faces)


def test_same_seed_same_result():
    ratings = {Side.AXIS: 1, Side.COMMONWEALTH: 3}
    for seed in range(20):
        a = determine_initiative(ratings, random.Random(seed))
        b = determine_initiative(ratings, random.Random(seed))
        assert a == b
    assert determine_initiative(ratings, Dice(9)) == determine_initiative(ratings, Dice(9))


def test_different_seeds_give_both_winners():
    winners = {determine_initiative(EVEN, random.Random(s)).winner for s in range(40)}
    assert winners == set(Side)


def test_ties_are_rolled_again():
    result = determine_initiative(EVEN, ScriptedDie([3, 3, 6, 6, 2, 5]))
    assert len(result.rounds) == 3
    assert [r.tied for r in result.rounds] == [True, True, False]
    assert result.winner is Side.COMMONWEALTH


def test_a_tie_counts_totals_not_faces():
    # Axis rating 1 rolls 3 (4); Commonwealth rating 3 rolls 1 (4): a tie, roll again.
    ratings = {Side.AXIS: 1, Side.COMMONWEALTH: 3}
    result = determine_initiative(ratings, ScriptedDie([3, 1, 6, 1]))
    assert result.rounds[0].tied and result.winner is Side.AXIS


def test_explain_lists_every_round_with_the_rule():
    lines = determine_initiative(EVEN, ScriptedDie([2, 2, 1, 4])).explain()
    assert len(lines) == 2 and "roll again" in lines[0] and lines[1].endswith("(CNA 7.14)")


def test_given_rolls_must_end_with_the_only_untied_round():
    with pytest.raises(CNAInputError, match="ties roll again"):
        initiative_from_rolls(EVEN, [(2, 2)])
    with pytest.raises(CNAInputError, match="only the last"):
        initiative_from_rolls(EVEN, [(1, 2), (3, 4)])


@pytest.mark.parametrize("bad", [0, 7, 2.5, True])
def test_a_die_face_must_be_one_to_six(bad):
    with pytest.raises(CNAInputError):
        initiative_from_rolls(EVEN, [(bad, 3)])
    with pytest.raises(CNAInputError):
        determine_initiative(EVEN, ScriptedDie([bad, 3]))


def test_ratings_are_needed_for_both_sides():
    with pytest.raises(CNAInputError, match="one Initiative Rating for each side"):
        determine_initiative({Side.AXIS: 1}, random.Random(1))
    with pytest.raises(CNAInputError, match="whole number"):
        determine_initiative({Side.AXIS: "1", Side.COMMONWEALTH: 1}, random.Random(1))


def test_the_generator_must_be_passed_in():
    with pytest.raises(CNAInputError, match="seeded die source"):
        determine_initiative(EVEN, object())


def test_the_holder_chooses_a_or_b_and_the_other_side_takes_the_rest():
    assert sides_for_roles(Side.AXIS, Role.B) == {Role.B: Side.AXIS, Role.A: Side.COMMONWEALTH}
    plan = InitiativeDeclarations(Side.COMMONWEALTH, (Role.B, Role.B, Role.B))
    assert plan.player(2, Role.A) is Side.AXIS
    assert plan.back_to_back() == []
    with pytest.raises(CNAInputError):
        InitiativeDeclarations(Side.AXIS, (Role.A, Role.B))
    with pytest.raises(CNAInputError):
        plan.player(4, Role.A)


@given(
    st.integers(0, 5),
    st.integers(0, 5),
    st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=30),
)
def test_winner_has_the_higher_total_in_the_deciding_round(axis_rating, cw_rating, pairs):
    ratings = {Side.AXIS: axis_rating, Side.COMMONWEALTH: cw_rating}
    faces = [f for pair in pairs for f in pair] + [6, 1, 1, 6] * 10
    die = ScriptedDie(faces)
    try:
        result = determine_initiative(ratings, die)
    except StopIteration:  # pragma: no cover - the padding always ends the ties
        raise AssertionError("ran out of faces") from None
    last = result.rounds[-1]
    assert all(r.tied for r in result.rounds[:-1])
    winner_total = last.axis_total if result.winner is Side.AXIS else last.commonwealth_total
    loser_total = last.commonwealth_total if result.winner is Side.AXIS else last.axis_total
    assert winner_total > loser_total
