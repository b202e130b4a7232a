"""The Combat Effects Table (Cherbourg 5.1.1, 5.1.5, 5.1.6): ratios, rows, exact odds."""

from fractions import Fraction

import pytest

from hexclass.classroom.cherbourg import (
    COLUMNS,
    CherbourgInputError,
    distribution,
    lookup,
    odds_column,
)
from hexclass.classroom.cherbourg.crt import (
    Part,
    dislodge_chance,
    expected_losses,
    shift,
    win_chance,
)


def col(name):
    return COLUMNS.index(name)


@pytest.mark.parametrize(
    "attack, defence, column",
    [
        (11, 4, "2-1"),  # the example of Cherbourg 5.1.1: 2.75 drops to 2
        (8, 4, "2-1"),  # exact ratio
        (7, 4, "1-1"),  # 1.75 drops to 1
        (12, 4, "3-1"),
        (4, 4, "1-1"),
        (3, 4, "1-2"),  # 0.75: below 1-1, rounded against the attacker
        (2, 4, "1-2"),
        (3, 7, "1-3"),  # 7/3 = 2.33 -> 1-3
        (1, 4, "1-4"),
        (1, 9, "1-4"),  # worse than 1-4 uses the 1-4 column
        (9, 1, "9-1"),
        (40, 4, "9-1"),  # better than 9-1 uses the 9-1 column
    ],
)
def test_force_ratio_drops_the_fraction(attack, defence, column):
    assert COLUMNS[odds_column(attack, defence)] == column


@pytest.mark.parametrize("attack, defence", [(0, 3), (3, 0), (-1, 2), (2.5, 1)])
def test_force_ratio_refuses_impossible_points(attack, defence):
    with pytest.raises(CherbourgInputError, match="Cherbourg 5.1.1|whole number"):
        odds_column(attack, defence)


# Written out by hand from the printed table: how many of the 36 two-dice outcomes give each
# result. Rows weigh 2 (2/12), 4 (3/11), 6 (4/10), 8 (5/9), 10 (6/8) and 6 (7).
EXPECTED = {
    "1-4": {"DVB ARB": 2, "DVI ARI": 4, "DVI ARB": 6, "DVB AE": 8, "DVI AE": 16},
    "1-3": {"DVB ARI": 2, "DVB ARB": 4, "DVI ARI": 6, "DVI ARB": 8, "DVB AE": 10, "DVI AE": 6},
    "1-2": {"IMP": 2, "DVB ARI": 4, "DVB ARB": 6, "DVI ARI": 8, "DVI ARB": 10, "DVB AE": 6},
    "1-1": {"DRI AVB": 2, "IMP": 4, "DVB ARI": 6, "DVB ARB": 8, "DVI ARI": 10, "DVI ARB": 6},
    "2-1": {"DRB AVB": 2, "DRI AVB": 4, "IMP": 6, "DVB ARI": 8, "DVB ARB": 10, "DVI ARI": 6},
    "3-1": {"DRI AVI": 2, "DRB AVB": 4, "DRI AVB": 6, "IMP": 8, "DVB ARI": 10, "DVB ARB": 6},
    "4-1": {"DRB AVI": 2, "DRI AVI": 4, "DRB AVB": 6, "DRI AVB": 8, "IMP": 10, "DVB ARI": 6},
    "5-1": {"EMP": 2, "DRB AVI": 4, "DRI AVI": 6, "DRB AVB": 8, "DRI AVB": 10, "IMP": 6},
    "6-1": {"EMP": 2, "DE AVB": 4, "DRB AVI": 6, "DRI AVI": 8, "DRB AVB": 10, "DRI AVB": 6},
    "7-1": {"EMP": 2, "DE AVB": 10, "DRB AVI": 8, "DRI AVI": 10, "DRB AVB": 6},
    "8-1": {"EMP": 2, "DE AVI": 4, "DE AVB": 14, "DRB AVI": 10, "DRI AVI": 6},
    "9-1": {"EMP": 2, "DE AVI": 10, "DE AVB": 18, "DRB AVI": 6},
}


@pytest.mark.parametrize("name", COLUMNS)
def test_exact_outcome_distribution_per_column(name):
    expected = {code: Fraction(n, 36) for code, n in EXPECTED[name].items()}
    assert sum(EXPECTED[name].values()) == 36
    assert distribution(col(name)) == expected


def test_rows_pair_the_rolls_symmetrically():
    for c in range(len(COLUMNS)):
        for roll in range(2, 7):
            assert lookup(c, roll) == lookup(c, 14 - roll)


def test_a_cell_never_lets_both_sides_win():
    for c in range(len(COLUMNS)):
        for roll in range(2, 13):
            r = lookup(c, roll)
            assert not (r.attacker_wins and r.attacker_retreats)
            # a defender part that holds goes with an attacker part that falls back
            if r.has("DVB") or r.has("DVI"):
                assert r.attacker_retreats
            if r.has("DRB") or r.has("DRI") or r.has("DE"):
                assert r.attacker_wins


def test_one_more_column_never_hurts_the_attacker():
    wins = [win_chance(c) for c in range(len(COLUMNS))]
    assert wins == sorted(wins)
    assert wins[col("1-1")] == Fraction(1, 18) and wins[col("3-1")] == Fraction(1, 3)
    assert wins[col("4-1")] == Fraction(5, 9) and wins[col("5-1")] == Fraction(7, 9)
    assert dislodge_chance(col("6-1")) == 1  # EMP also clears the hex


def test_expected_losses_are_exact():
    # 1-1: attacker steps: ARB 8 + ARB 6 + AVB 2 = 16/36; defender: DVB 6 + DVB 8 = 14/36
    assert expected_losses(col("1-1")) == (Fraction(16, 36), Fraction(14, 36))


@pytest.mark.parametrize("roll", [1, 13, 0, "7"])
def test_lookup_refuses_a_roll_two_dice_cannot_make(roll):
    with pytest.raises(CherbourgInputError, match="Cherbourg 5.1.5"):
        lookup(col("1-1"), roll)


def test_shifts_stay_on_the_table():
    assert shift(col("1-2"), -3) == col("1-4")
    assert shift(col("8-1"), +3) == col("9-1")
    assert COLUMNS[shift(col("3-1"), -2)] == "1-1"


def test_each_result_code_means_what_5_1_6_says():
    r = lookup(col("9-1"), 8)
    assert str(r) == "DE AVB" and r.defender_losses == 2 and r.attacker_losses == 1
    assert Part.DE in r.parts and "eliminated" in r.explain()
    assert lookup(col("1-2"), 2).code == "IMP" and not lookup(col("1-2"), 2).defender_retreats
