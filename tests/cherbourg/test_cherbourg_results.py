"""Each combat result carried out on the units (Cherbourg 5.1.6, 7.0)."""

import pytest

from hexclass.classroom.cherbourg import CherbourgInputError, apply_result, infantry
from hexclass.classroom.cherbourg.crt import parse_result

ATT = (infantry("A1", 4), infantry("A2", 3))
DEF = (infantry("D1", 2, 3), infantry("D2", 2, 2))


def run(code, **kw):
    return apply_result(parse_result(code), ATT, DEF, **kw)


def test_de_eliminates_the_chosen_defender_and_the_rest_retreat():
    a = run("DE AVI", defender_loss="D1")
    assert [u.name for u in a.defenders] == ["D2"] and a.eliminated == ("D1",)
    assert a.defenders_retreat and a.attacker_may_advance and not a.attackers_retreat


def test_dvb_arb_costs_each_side_a_step_and_only_the_attack_falls_back():
    a = run("DVB ARB", defender_loss="D2", attacker_loss="A2")
    assert [u.damaged for u in a.defenders] == [False, True]
    assert [u.damaged for u in a.attackers] == [False, True]
    assert a.attackers_retreat and not a.defenders_retreat and not a.attacker_may_advance


def test_a_second_casualty_eliminates():
    hurt = (infantry("D1", damaged=True),)
    a = apply_result(parse_result("DRB AVI"), ATT, hurt, defender_loss="D1")
    assert a.defenders == () and a.eliminated == ("D1",)
    assert not a.defenders_retreat  # nobody left to retreat
    assert any("may advance" in n for n in a.notes)


def test_ae_eliminates_an_attacker():
    a = run("DVI AE", attacker_loss="A1")
    assert [u.name for u in a.attackers] == ["A2"] and a.attackers_retreat


def test_intact_results_and_stalemate_change_nobody():
    for code in ("DRI AVI", "DVI ARI", "IMP"):
        a = run(code)
        assert a.attackers == ATT and a.defenders == DEF and a.eliminated == ()
    assert not run("IMP").defenders_retreat and not run("IMP").attackers_retreat


def test_the_side_concerned_must_choose_its_victim():
    with pytest.raises(CherbourgInputError, match="defender must choose"):
        run("DRB AVB", attacker_loss="A1")
    with pytest.raises(CherbourgInputError, match="not one of the attacker's units"):
        run("DRB AVB", defender_loss="D1", attacker_loss="D1")


def test_emp_makes_the_attacker_pay_at_least_the_defence_given_up():
    a = run("EMP", emp_defenders=["D1"], emp_attackers=["A1"])  # 3 defence for 4 attack
    assert (
        a.eliminated == ("D1", "A1")
        and a.defenders_retreat
        and [u.name for u in a.attackers] == ["A2"]
    )
    with pytest.raises(CherbourgInputError, match="at least 5 attack points"):
        run("EMP", emp_defenders=["D1", "D2"], emp_attackers=["A1"])  # 5 owed, 4 paid
    with pytest.raises(CherbourgInputError, match="at least one unit"):
        run("EMP")
