"""Physical control, combat stopping admin moves, pursuit and breakthrough, each on a
small clear map (PBM "Physical Control", "Admin movement", "Pursuit", "Breakthrough")."""

from hexclass.classroom.movement import Centre, Mover, Route, UnitType, World, run_turn
from hexclass.classroom.movement.hexmap import from_offset, step
from hexclass.classroom.movement.world import rectangle

CLEAR = rectangle(5, 6)
RED_AT, BLUE_AT = (2, 2), (2, 3)  # red stands north of blue


def line_world(red_centre: int | None = None):
    """Seven centres 100..106 in a row along row 1, one hex apart."""
    hexes = [from_offset(0, 1)]
    for d in [3, 2, 3, 2, 3, 2]:
        hexes.append(step(hexes[-1], d))
    t = rectangle(8, 4)
    centres = {
        100 + i: Centre(100 + i, f"C{i}", h, "red" if i == red_centre else "blue")
        for i, h in enumerate(hexes)
    }
    routes = tuple(Route(100 + i, 101 + i, (hexes[i], hexes[i + 1])) for i in range(6))
    return World(t, centres, routes)


def test_physical_control_follows_the_units_and_falls_back_to_the_owner():
    w = line_world()
    scout = Mover(
        "scout", "red", UnitType.MECHANISED, from_offset(0, 0), "4,1"
    )  # into C0, then out
    t = run_turn(w, [scout])
    assert t.control(100, 0) == "blue"
    assert t.control(100, 1) == "red"  # red alone in it at the end of phase 1
    assert t.control(100, 2) == "blue"  # left again: the economic owner has it back
    assert any("now controlled by red" in e.text for e in t.events)


def test_both_sides_present_leaves_a_centre_contested():
    w = line_world()
    a = Mover("a", "red", UnitType.INFANTRY, w.centres[100].hex, "", strength=5)
    b = Mover("b", "blue", UnitType.INFANTRY, from_offset(0, 0), "4", strength=5)
    t = run_turn(w, [a, b])
    assert t.control(100, 2) is None  # a drawn fight: nobody controls it


def test_combat_costs_an_admin_mover_one_centre_per_round():
    w = line_world(red_centre=3)
    truck = Mover(
        "truck",
        "blue",
        UnitType.MECHANISED,
        w.centres[100].hex,
        "101,102,103,104,105,106",
        strength=8,
    )
    guard = Mover("guard", "red", UnitType.INFANTRY, w.centres[103].hex, "", strength=1)
    t = run_turn(w, [truck, guard])
    assert t.arrival("truck", w.centres[103].hex) == 6
    assert "blue 5, red 4" in next(e.text for e in t.events if "wins a round" in e.text)
    assert t.control(103, 6) == "blue"
    assert t.position("truck", 12) == w.centres[105].hex  # 5 centres, not 6
    assert "used its 5 admin moves" in t.events_for("truck")[-1].text


def test_no_admin_move_out_of_combat():
    w = line_world(red_centre=3)
    truck = Mover(
        "truck", "blue", UnitType.MECHANISED, w.centres[100].hex, "101,102,103,104", strength=8
    )
    guard = Mover(
        "guard", "red", UnitType.INFANTRY, w.centres[103].hex, "", strength=2
    )  # 5 against 5
    t = run_turn(w, [truck, guard])
    assert all(t.position("truck", p) == w.centres[103].hex for p in range(6, 13))
    assert t.chart("truck")[5:] == "⚔" * 7  # a drawn round every phase


def duel(**blue):
    red = Mover(
        "red",
        "red",
        UnitType.INFANTRY,
        RED_AT,
        "",
        strength=blue.pop("red_strength", 3),
        anti_tank=blue.pop("anti_tank", False),
    )
    kind = blue.pop("kind", UnitType.ARMOUR_NORMAL)
    kw = {"strength": 8, "pursuit": 2, "aggression": 5, "orders": "1"} | blue
    return [Mover("blue", "blue", kind, BLUE_AT, **kw), red]


def test_a_pursued_loser_falls_back_two_hexes_and_the_pursuer_follows_one():
    t = run_turn(World(CLEAR), duel(), seed=1)
    assert t.position("blue", 2) == (2, 1) and t.position("red", 2) == (2, 0)
    assert any("pursues red" in e.text for e in t.events)


def test_low_aggression_or_option_one_does_not_pursue():
    for kw in ({"aggression": 4}, {"pursuit": 1}):
        t = run_turn(World(CLEAR), duel(**kw))
        assert t.position("red", 2) == (2, 1)  # one hex, unpursued
        assert t.position("blue", 2) == RED_AT
        assert not any("pursues" in e.text for e in t.events)


def test_pursuit_rolls_come_from_the_seed_and_use_the_terrain_chance():
    first = run_turn(World(CLEAR), duel(), seed=3)
    again = run_turn(World(CLEAR), duel(), seed=3)
    assert first.events == again.events
    roll = next(e for e in first.events if "rolled" in e.text)
    assert "90%" in roll.text  # clear ground
    jungle = {**CLEAR, (2, 0): "jungle"}
    foot = duel(kind=UnitType.INFANTRY)
    text = next(e.text for e in run_turn(World(jungle), foot, seed=3).events if "rolled" in e.text)
    assert "25%" in text
    tanks = run_turn(World(jungle), duel(), seed=3)  # vehicles enter jungle only by road
    assert any("cannot follow red into jungle" in e.text for e in tanks.events)
    assert not any("rolled" in e.text for e in tanks.events)


def test_breakthrough_ignores_an_enemy_without_anti_tank_weapons():
    t = run_turn(World(CLEAR), duel(pursuit=3, strength=3, orders="1,1,1"))  # a drawn round
    assert t.position("blue", 4) == (2, 0)  # carried on north past the infantry
    assert any("ignores the enemy" in e.text for e in t.events)


def test_anti_tank_weapons_hold_a_breakthrough():
    t = run_turn(World(CLEAR), duel(pursuit=3, strength=3, orders="1,1,1", anti_tank=True))
    assert t.position("blue", 12) == RED_AT
    assert not any("ignores the enemy" in e.text for e in t.events)


def rail_world(installation_owner="blue"):
    """Three centres on a row: 100 and 101 joined by rail and road, 101 and 102 by road,
    and an installation (103) on the road south of 100."""
    hexes = [from_offset(0, 1), from_offset(1, 1), from_offset(2, 1)]
    t = rectangle(4, 4)
    south = from_offset(0, 2)
    centres = {
        100: Centre(100, "Rail A", hexes[0], "blue", rail=True),
        101: Centre(101, "Rail B", hexes[1], "blue", rail=True),
        102: Centre(102, "Road C", hexes[2], "blue"),
        103: Centre(103, "Depot", south, installation_owner, installation=True),
    }
    routes = (
        Route(100, 101, (hexes[0], hexes[1]), rail=True),
        Route(100, 101, (hexes[0], hexes[1])),
        Route(101, 102, (hexes[1], hexes[2])),
        Route(100, 103, (hexes[0], south)),
    )
    return World(t, centres, routes)


def test_rail_moves_need_a_railway_and_road_moves_a_road():
    w = rail_world()
    t = run_turn(w, [Mover("train", "blue", UnitType.INFANTRY, w.centres[100].hex, "-101")])
    assert t.arrival("train", w.centres[101].hex) == 2
    t = run_turn(w, [Mover("train", "blue", UnitType.INFANTRY, w.centres[101].hex, "-102")])
    assert "no rail route" in t.events[0].text
    t = run_turn(w, [Mover("lorry", "blue", UnitType.INFANTRY, w.centres[101].hex, "102")])
    assert t.arrival("lorry", w.centres[102].hex) == 2


def test_an_installation_stays_with_whoever_passed_through_last():
    w = rail_world()
    raider = Mover(
        "raider", "red", UnitType.MECHANISED, from_offset(1, 2), "6,3"
    )  # in, then out again
    t = run_turn(w, [raider])
    depot = w.centres[103].hex
    assert t.position("raider", 1) == depot
    assert t.control(103, 1) == "red" and t.control(103, 12) == "red"  # still red after it left
    assert t.control(100, 12) == "blue"  # an ordinary centre returns to its owner
