"""The enemy-player variant's set-up (CA p.7): bids, the secret force roll, deployment.

Each deployment constraint has a small board of its own: an open board with woods only
where the test wants potential enemy counters. Hexes are named row number + column letter
(row 1 is the attackers' rear edge; the road runs through 4f, 5f, 6f, 7e, 8e, 9d).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms.board import Board, generate_board
from hexclass.classroom.combined_arms.enemy_player import (
    Deployment,
    DeploymentField,
    SecretForces,
    check_deployment,
    deployment_problems,
    forces_from_roll,
    legal_deployments,
    roll_secret_forces,
    settle_bids,
    targets,
)
from hexclass.classroom.dice import Dice, LoadedDice


def field_with_woods(*labels: str) -> DeploymentField:
    board = Board.open_board({name: "woods" for name in labels})
    return DeploymentField.of(board)


def dep(fld: DeploymentField, platoons: str, atgs: str = "") -> Deployment:
    hexes = lambda text: frozenset(fld.board.hex_at(n) for n in text.split())  # noqa: E731
    return Deployment(hexes(platoons), hexes(atgs))


def problems(fld, forces, d) -> list[str]:
    return [str(p) for p in deployment_problems(fld, forces, d)]


# --- bids and forces --------------------------------------------------------------------


def test_highest_bid_takes_the_defenders_and_gives_its_bonus():
    result = settle_bids({"ann": 2, "bob": 4, "cy": 3}, Dice(1))
    assert (result.defender, result.bonus, result.tie_rolls) == ("bob", 4, ())


def test_equal_bids_are_settled_by_dice_rolled_again_while_tied():
    # ann and bob tie on 3; first dice 5-5 tie again; then bob's 6 beats ann's 2
    result = settle_bids({"ann": 3, "bob": 3, "cy": 1}, LoadedDice([5, 5, 2, 6]))
    assert result.defender == "bob" and result.bonus == 3
    assert result.tie_rolls == ({"ann": 5, "bob": 5}, {"ann": 2, "bob": 6})


def test_a_bid_must_be_a_whole_number_of_points():
    with pytest.raises(ValueError, match="bob's bid"):
        settle_bids({"ann": 1, "bob": "lots"}, Dice(1))


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (5, 2, (5, 2)),
        (2, 5, (5, 2)),
        (4, 3, (4, 3)),
        (6, 1, (6, 1)),
        (4, 4, None),
        (3, 1, None),
        (6, 5, None),
    ],
)
def test_force_roll_counts_only_one_high_and_one_low_die(a, b, expected):
    forces = forces_from_roll(a, b)
    assert (None if forces is None else (forces.platoons, forces.atgs)) == expected


def test_force_roll_rerolls_both_dice_until_one_is_high_and_one_low():
    forces = roll_secret_forces(LoadedDice([2, 3, 5, 6, 1, 4]))
    assert (forces.platoons, forces.atgs) == (4, 1)
    assert forces.rolls == ((2, 3), (5, 6), (1, 4))


# --- deployment constraints, one board each -------------------------------------------------

# Two rows of posts: 4b 4d | 4h 4j in hexrow 4 and 7b | 7g in hexrow 7 ("|" is the road)
SPREAD = ("4b", "4d", "4h", "4j", "7b", "7g")


def test_a_deployment_meeting_every_constraint_is_legal():
    fld = field_with_woods(*SPREAD)
    assert check_deployment(fld, SecretForces(4, 1), dep(fld, "4b 4h 7b 7g", "4b")) is None


def test_real_platoons_go_only_on_potential_counters():
    fld = field_with_woods(*SPREAD)
    text = problems(fld, SecretForces(4, 1), dep(fld, "4b 4h 7b 5c", "4b"))
    assert any("no potential enemy counter stands at 5c" in t for t in text)


def test_every_real_platoon_must_be_deployed():
    fld = field_with_woods(*SPREAD)
    text = problems(fld, SecretForces(4, 1), dep(fld, "4b 4h 7b", "4b"))
    assert any("exactly 4 real platoons" in t for t in text)


def test_a_real_atg_must_be_with_a_real_platoon():
    fld = field_with_woods(*SPREAD)
    text = problems(fld, SecretForces(4, 1), dep(fld, "4b 4h 7b 7g", "4d"))
    assert any("must be with a real platoon: 4d" in t for t in text)
    assert all(t.startswith('CA p.7 "Enemy Player Variant"') for t in text)


def test_only_two_or_none_of_the_real_platoons_may_be_adjacent():
    # a line of posts 4a-4b-4c left of the road, and 4h 4j to its right
    fld = field_with_woods("4a", "4b", "4c", "4h", "4j")
    forces = SecretForces(4, 1)
    three_in_a_row = dep(fld, "4a 4b 4c 4h", "4a")
    assert any("only 2 or none" in t and "3 do" in t for t in problems(fld, forces, three_in_a_row))
    one_pair = dep(fld, "4a 4b 4h 4j", "4a")  # 4a-4b is one pair; 4h and 4j are apart
    assert not any("only 2 or none" in t for t in problems(fld, forces, one_pair))


def test_at_least_two_real_platoons_on_each_side_of_the_road():
    fld = field_with_woods("4a", "4c", "7a", "4h", "4j", "7h")
    text = problems(fld, SecretForces(4, 1), dep(fld, "4a 4c 7a 4h", "4a"))
    assert any("at least 2 real platoons must be right of the road; 1 is" in t for t in text)


def test_a_side_with_one_post_needs_only_what_it_can_hold():
    # only 4a lies left of the road: the side rule asks for as many as can be had, 1
    fld = field_with_woods("4a", "4h", "4j", "7g", "9f")
    forces = SecretForces(4, 1)
    assert targets(fld, forces).per_side == 1
    assert check_deployment(fld, forces, dep(fld, "4a 4j 7g 9f", "4a")) is None


def test_each_hexrow_with_two_potential_platoons_needs_a_real_one():
    fld = field_with_woods(*SPREAD)
    # hexrow 7 (7b, 7g) left without a real platoon
    text = problems(fld, SecretForces(4, 1), dep(fld, "4b 4d 4h 4j", "4b"))
    assert any("hexrow 7" in t and "needs a real platoon" in t for t in text)


def test_with_too_few_platoons_the_rows_with_most_potential_come_first():
    # five needing hexrows, four real platoons: hexrow 4 (4 posts) outranks the others
    fld = field_with_woods("4a", "4c", "4h", "4j", "5b", "5i", "6b", "6i", "7b", "7g", "8b", "8g")
    forces = SecretForces(4, 1)
    assert targets(fld, forces).platoon_rows == 4
    leaves_out_row_4 = dep(fld, "5b 6i 7b 8g", "5b")
    text = problems(fld, forces, leaves_out_row_4)
    assert any(
        "rows with most potential platoons come first" in t and "hexrow 4" in t for t in text
    )
    assert check_deployment(fld, forces, dep(fld, "4a 5i 6b 7g", "4a")) is None


def test_rows_with_three_potential_atgs_need_a_real_atg():
    fld = field_with_woods(*SPREAD)
    t = targets(fld, SecretForces(4, 1))
    assert t.atg_rows == 1  # hexrow 4 has four potential ATGs, hexrow 7 only two
    text = problems(fld, SecretForces(4, 1), dep(fld, "4b 4h 7b 7g", "7b"))
    assert any("hexrow 4" in t and "needs a real ATG" in t for t in text)


# --- whole boards: generated deployments always pass, broken ones are named -------------


def _field_and_forces(seed: int):
    dice = Dice(seed)
    fld = DeploymentField.of(generate_board(dice).board)
    return fld, roll_secret_forces(dice)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), pick=st.integers(0, 10**6))
def test_legal_deployments_meet_every_constraint(seed, pick):
    fld, forces = _field_and_forces(seed)
    found = list(itertools.islice(legal_deployments(fld, forces), 200))
    assert found, "some deployment must always be legal"
    d = found[pick % len(found)]
    t = targets(fld, forces)
    assert len(d.platoons) == t.platoons and len(d.atgs) == t.atgs
    assert d.atgs <= d.platoons
    assert deployment_problems(fld, forces, d) == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), data=st.data())
def test_each_broken_constraint_is_refused_and_named(seed, data):
    fld, forces = _field_and_forces(seed)
    t = targets(fld, forces)
    posts = sorted(fld.platoon_hexes)
    platoons = frozenset(
        data.draw(st.lists(st.sampled_from(posts), min_size=1, max_size=len(posts), unique=True))
    )
    atg_posts = sorted(fld.atg_hexes)
    atgs = frozenset(
        data.draw(st.lists(st.sampled_from(atg_posts), max_size=3, unique=True))
        if atg_posts
        else ()
    )
    text = " | ".join(problems(fld, forces, Deployment(platoons, atgs)))
    # an independent reading of the hard constraints, to compare with the engine's
    board = fld.board
    adjacent = sum(1 for h in platoons if any(n in platoons for n in board.neighbours_on_board[h]))
    left = sum(1 for h in platoons if fld.side[h] == "left")
    if len(platoons) != t.platoons:
        assert f"exactly {t.platoons} real platoons" in text
    if not atgs <= platoons:
        assert "must be with a real platoon" in text
    if t.adjacency and adjacent not in (0, 2):
        assert "only 2 or none" in text
    if min(left, len(platoons) - left) < t.per_side:
        assert f"at least {t.per_side} real platoons" in text
    if not text:
        assert len(platoons) == t.platoons and atgs <= platoons
