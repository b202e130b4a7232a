"""Seat layouts (CA p.7): five seats, six, merged commands, and what the engine enforces."""

import pytest

from hexclass.classroom.combined_arms import (
    CallMortar,
    EndPhase,
    Move,
    check,
    legal_actions,
    new_game,
)
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.units import ALL_IDS
from hexclass.classroom.sessions.roles import (
    DEFAULT_GROUPS,
    Layout,
    LayoutError,
    default_layout,
    five_seat_layout,
    layout_for,
    merged_layout,
    six_seat_layout,
)


def test_five_seats_follow_ca_p7():
    lay = five_seat_layout()
    specs = lay.specs()
    assert lay.names == ("armour", "D", "E", "F", "support")
    assert specs["armour"].units == {"A1", "A2", "A3"}
    assert specs["D"].units == {"D1", "D2", "D3"}
    assert specs["E"].units == {"E1", "E2", "E3"}
    assert specs["F"].units == {"F1", "F2", "F3"}
    # the MMG and mortar player is in overall command
    assert specs["support"].units == {"M1", "M2"}
    assert specs["support"].powers == {"mortars", "command"}
    assert all(not specs[s].powers for s in ("armour", "D", "E", "F"))
    assert lay.commander().name == "support"


def test_six_seats_have_a_separate_commander_without_platoons():
    lay = six_seat_layout()
    specs = lay.specs()
    assert len(lay) == 6
    assert lay.commander().name == "commander"
    assert specs["commander"].units == frozenset()
    assert specs["commander"].powers == {"command"}
    assert specs["support"].powers == {"mortars"}


@pytest.mark.parametrize("players", sorted(DEFAULT_GROUPS))
def test_every_default_layout_gives_each_platoon_and_power_one_owner(players):
    lay = default_layout(players)
    assert len(lay) == players
    owners = [u for s in lay.seats for u in s.units]
    assert sorted(owners) == sorted(ALL_IDS)
    assert len(lay.seats_with("command")) == 1
    assert len(lay.seats_with("mortars")) == 1
    # colours and titles for the pages
    assert all(s.title and s.colour.startswith("#") for s in lay.seats)


def test_merged_layout_puts_command_with_support_unless_told_otherwise():
    lay = merged_layout([["armour", "D"], ["E", "F"], ["support"]])
    assert lay.names == ("armour+D", "E+F", "support")
    assert lay.commander().name == "support"
    custom = merged_layout([["armour", "command"], ["D", "E", "F", "support"]])
    assert custom.commander().name == "armour"
    assert custom.specs()["D+E+F+support"].powers == {"mortars"}


def test_custom_names_and_one_player_seat():
    lay = merged_layout([["armour", "D", "E"], ["F", "support"]], names=["red", "blue"])
    assert lay.names == ("red", "blue")
    assert default_layout(1).names == ("all",)


@pytest.mark.parametrize(
    "groups, words",
    [
        ([["armour"], ["D"], ["E"], ["F"]], "no seat holds support"),
        ([["armour", "D"], ["D", "E"], ["F", "support"]], "'D' is on seats 1 and 2"),
        ([["armour", "tanks"], ["D", "E", "F", "support"]], "unknown command 'tanks'"),
        ([], "expected a list of seats"),
    ],
)
def test_bad_groupings_name_the_problem(groups, words):
    with pytest.raises(LayoutError, match=words):
        merged_layout(groups)


def test_layout_for_rejects_a_bad_count():
    with pytest.raises(LayoutError, match="players: expected 1 to 6, got 7"):
        layout_for(7)


def test_layout_json_round_trip_and_bad_json():
    lay = merged_layout([["armour", "D"], ["E", "F"], ["support"]])
    assert Layout.from_json(lay.to_json()) == lay
    with pytest.raises(LayoutError, match=r"layout\[0\]\.commands"):
        Layout.from_json([{"name": "x", "commands": "armour"}])


def test_engine_enforces_ownership_from_the_layout():
    g = new_game(5, seats=five_seat_layout().specs())
    # E may not move D's platoon; D may
    d_moves = [a for a in legal_actions(g, "D") if a.unit == "D1"]
    assert d_moves
    stolen = Move("E", "D1", d_moves[0].to)
    assert "not commanded by seat 'E'" in str(check(g, stolen))
    # only the commander ends a phase
    assert "only the overall commander" in str(check(g, EndPhase("D")))
    assert check(g, EndPhase("support")) is None


def test_any_fresh_infantry_may_spot_for_the_mortar_seat():
    # CA p.7: the mortar seat may use another seat's fresh infantry platoon as spotter
    g = sketch(
        units={"E1": "4c"},
        enemy={"6c": "real"},
        phase="friendly_fire",
        seats=five_seat_layout().specs(),
    )
    target = g.board.hex_at("6c")
    assert check(g, CallMortar("support", target, "E1")) is None
    assert "does not command the mortars" in str(check(g, CallMortar("E", target, "E1")))


@pytest.mark.parametrize(
    "args,words",
    [
        (dict(seats=5, bid=True), "belong to the enemy-player variant"),
        (dict(seats=5, handicap=2), "belong to the enemy-player variant"),
        (dict(seats=5, enemy_player=True, bid=True), "bidding is for two players"),
        (dict(seats=1, enemy_player=True, bid=True, handicap=3), "sets the handicap"),
    ],
)
def test_a_class_table_that_cannot_be_played_is_refused_with_the_setting(args, words):
    from hexclass.classroom.sessions.roles import LayoutError, class_table

    with pytest.raises(LayoutError, match=words):
        class_table(**args)


def test_class_tables_of_the_enemy_player_variant():
    from hexclass.classroom.sessions.roles import class_table

    layout, options = class_table(5, enemy_player=True, handicap=2)
    assert [s.name for s in layout.seats][-1] == "defender" and len(layout.seats) == 6
    assert options.enemy_player and options.handicap == 2 and not options.auto_decisions
    layout, options = class_table(1, enemy_player=True, bid=True)
    assert [s.name for s in layout.seats] == ["player1", "player2"] and options.bidding
    seats, options = class_table(6, easier=True)
    assert seats == 6 and options.easier_game and not options.enemy_player
