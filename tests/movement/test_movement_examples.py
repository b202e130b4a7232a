"""The source's worked examples, played phase by phase (PBM "Admin movement",
"Combining Admin and Tactical Mode")."""

import pytest

from hexclass.classroom.movement import MovementInputError, Mover, UnitType, run_turn
from hexclass.classroom.movement.scenarios import (
    ESTEL,
    HYCONDEA,
    LOZANO,
    RED,
    diaz,
    jungle,
    village,
)
from hexclass.classroom.movement.world import rectangle


def play(sc, seed=0):
    return run_turn(sc.world, sc.units, seed)


# --- Diaz, Lozano, Hycondea City --------------------------------------------------------------
def test_admin_move_diaz_to_hycondea_takes_two_admin_phases():
    sc = diaz("506,501")
    t = play(sc)
    w = sc.world
    assert t.position("convoy", 2) == w.centres[LOZANO].hex
    assert t.arrival("convoy", w.centres[HYCONDEA].hex) == 4
    assert t.spent["convoy"] == 4  # two admin phases = four land-movement phases for a 12-MP unit
    assert t.chart("convoy")[:4] == "bAbA"


def test_infantry_drives_as_fast_but_spends_only_its_own_phases():
    sc = diaz("506,501", kind=UnitType.INFANTRY)
    t = play(sc)
    assert t.arrival("convoy", sc.world.centres[HYCONDEA].hex) == 4
    assert t.spent["convoy"] == 2


def test_lozano_must_be_named():
    sc = diaz("501")
    t = play(sc)
    assert t.position("convoy", 12) == sc.world.centres[505].hex
    assert "name each centre on the way" in t.events[0].text


def test_tactical_diaz_to_hycondea_takes_six_phases_for_a_12_point_unit():
    sc = diaz("6,6,1,1,6,1")
    t = play(sc)
    assert t.arrival("convoy", sc.world.centres[HYCONDEA].hex) == 6
    slow = play(diaz("6,6,1,1,6,1", kind=UnitType.INFANTRY))
    assert slow.arrival("convoy", sc.world.centres[HYCONDEA].hex) == 12


def test_from_the_road_north_of_diaz_to_the_hex_south_of_hycondea():
    sc = diaz("506,03825", start_north=True)
    t = play(sc)
    assert sc.world.label(t.position("convoy", 4)) == "3825"
    assert t.position("convoy", 2) == sc.world.centres[LOZANO].hex
    hostile = play(diaz("506,03825", start_north=True, lozano_owner=RED))
    assert hostile.position("convoy", 12) == sc.world.routes[0].hexes[1]  # never left
    assert "must be friendly" in hostile.events[0].text


# --- The APC and the infantry at Estel ---------------------------------------------------------
def test_apc_clears_the_village_at_phase_seven_and_the_infantry_drives_in_at_twelve():
    sc = village()
    t = play(sc)
    estel = sc.world.centres[ESTEL].hex
    assert t.arrival("APC", estel) == 7
    assert t.control(ESTEL, 6) == "red" and t.control(ESTEL, 7) == "blue"
    assert t.position("Estel garrison", 7) != estel
    assert t.chart("Infantry") == "·0·0·0·0·0·A"
    assert t.arrival("Infantry", estel) == 12
    assert t.position("APC", 12) == t.position("Infantry", 12) == estel


def test_driving_in_early_meets_the_garrison_at_a_penalty():
    sc = village(infantry="605")
    t = play(sc)
    inf = t.events_for("Infantry")
    assert "drives into hostile units" in inf[0].text and inf[0].phase == 2
    fight = next(e for e in t.events if "wins a round" in e.text and e.phase == 2)
    assert "blue 2, red 6" in fight.text  # 5 - 3 against 3 + 3
    assert t.position("Infantry", 12) != sc.world.centres[ESTEL].hex


def test_apc_told_to_wait_every_other_phase_keeps_pace_with_artillery():
    w = village().world
    from hexclass.classroom.movement.hexmap import from_offset

    start = from_offset(0, 1)
    apc = Mover("apc", "blue", UnitType.MECHANISED, start, "0,3,0,2,0,3,0,2,0,3,0,2")
    gun = Mover("gun", "blue", UnitType.ARTILLERY, start, "3,2,3,2,3,2")
    t = run_turn(w, [apc, gun])
    for p in range(13):
        assert t.position("apc", p) == t.position("gun", p)
    assert t.position("gun", 12) != start


# --- The jungle company ---------------------------------------------------------------------------
def test_jungle_company_reaches_the_capital_the_same_turn():
    sc = jungle()
    t = play(sc)
    capital = sc.world.centres[101].hex
    assert sc.world.label(capital) == "1328"
    assert t.chart("jungle company") == "·→·→·+·→·→·A"  # the river hex takes two points
    assert t.arrival("jungle company", capital) == 12
    assert t.spent["jungle company"] == 6
    assert t.position("jungle company", 5) != capital


def test_too_many_instructions_are_refused():
    with pytest.raises(MovementInputError, match="at most 6 instructions"):
        run_turn(jungle().world, [Mover("x", "blue", UnitType.INFANTRY, (0, 0), "1,1,1,1,1,1,1")])


def test_a_hex_too_dear_for_the_points_left_stops_the_unit():
    t = {**rectangle(3, 3), (1, 0): "mountain"}
    from hexclass.classroom.movement import World

    u = Mover("x", "blue", UnitType.INFANTRY, (0, 0), "0,0,0,0,3")  # 2 MP left, mountain costs 3
    turn = run_turn(World(t), [u])
    assert turn.position("x", 12) == (0, 0)
    assert "needs 3 MP" in turn.events[0].text
