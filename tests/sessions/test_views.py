"""Seat views hide the dice; scores; who the team is waiting for."""

import json

import pytest

from hexclass.classroom.combined_arms import (
    ChooseBroken,
    DeclareFire,
    EndGame,
    EndPhase,
    apply,
    check,
    fire_odds,
    new_game,
)
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.state import Decision
from hexclass.classroom.combined_arms.units import REAL
from hexclass.classroom.sessions.roles import five_seat_layout, six_seat_layout
from hexclass.classroom.sessions.store import Request
from hexclass.classroom.sessions.views import (
    SealedDiceError,
    known_score,
    projected_score,
    public_copy,
    seat_view,
    waiting_for,
)

LAYOUT = five_seat_layout()


def fire_position(**tracks):
    return sketch(
        units={"E1": "4c", "D1": "4e", "A1": "4d top"},
        enemy={"5d": "real"},
        phase="friendly_fire",
        seats=LAYOUT.specs(),
        **tracks,
    )


def test_a_seat_view_is_plain_data_without_the_dice():
    g = new_game(8, seats=LAYOUT.specs())
    view = seat_view(g, "D", LAYOUT)
    text = json.dumps(view)  # JSON-able throughout
    assert str(g.dice.state) not in text and "dice" not in view
    assert view["my_units"] == ["D1", "D2", "D3"] and view["my_powers"] == []
    mine = [u["id"] for u in view["units"] if u["mine"]]
    assert mine == ["D1", "D2", "D3"]
    assert view["title"].startswith("D Company") and view["colour"] == "#d62728"
    support = seat_view(g, "support", LAYOUT)
    assert support["my_powers"] == ["command", "mortars"]
    with pytest.raises(KeyError, match="no seat 'G'"):
        seat_view(g, "G")


def test_a_public_copy_cannot_roll():
    g = new_game(8, seats=LAYOUT.specs())
    apply(g, EndPhase("support"))  # to the fire phase: nothing rolled yet
    c = public_copy(g)
    assert (c.dice.state, c.dice.inc, c.dice.rolled) == (0, 0, g.dice.rolled)
    assert c.snapshot()["units"] == g.snapshot()["units"]
    with pytest.raises(SealedDiceError):
        apply(c, EndPhase("support"))  # the enemy phase rolls dice
    # the store's own state still rolls
    rolled = g.dice.rolled
    apply(g, EndPhase("support"))
    assert g.turn == 2 and g.dice.rolled > rolled


def test_odds_work_on_a_public_copy():
    g = fire_position()
    c = public_copy(g)
    target = g.board.hex_at("5d")
    assert fire_odds(c, target, ["E1"]) == fire_odds(g, target, ["E1"])


def test_known_score_counts_only_revealed_counters():
    g = new_game(8)
    assert all(p.platoon != REAL for p in g.enemy.values())
    assert known_score(g).total == 0
    seen = sketch(units={"E1": "4c"}, enemy={"5d": "real", "6d": "potential"})
    assert known_score(seen).total == 2  # +2 for the one revealed platoon still in play


def test_projected_score_is_what_ending_now_would_give_and_leaves_the_game_alone():
    g = new_game(8)
    apply(g, EndPhase("player"))
    apply(g, EndPhase("player"))  # now turn 2, before anything moves
    before = g.snapshot()
    proj = projected_score(g)
    assert g.snapshot() == before  # the game's dice did not move
    apply(g, EndGame("player"))  # the real end of the game rolls the same dice
    assert g.result.total == proj.total
    assert g.result.as_rows() == proj.as_rows()


def test_waiting_for_the_commanders_decision():
    g = fire_position()
    g.pending = Decision("break", ("D1", "M1"), prompt="which platoon breaks?")
    w = waiting_for(g, LAYOUT)
    assert [(x.seat, x.why) for x in w] == [("support", "to decide: which platoon breaks?")]
    assert check(g, ChooseBroken("D", "D1")) is not None
    six = six_seat_layout()
    g.seats = six.specs()
    assert [x.seat for x in waiting_for(g, six)] == ["commander"]


def test_waiting_for_an_open_declaration_then_requests_then_ready_seats():
    g = fire_position()
    target = g.board.hex_at("5d")
    apply(g, DeclareFire("E", target, ("E1",), resolve=False))
    w = waiting_for(g, LAYOUT)
    assert [x.seat for x in w] == ["E"] and "others may join" in w[0].why
    g.declaration = None
    req = Request(1, 1, "D", "", 1, "friendly_fire", "waiting", 0.0)
    w = waiting_for(g, LAYOUT, requests=[req])
    assert [(x.seat, x.why) for x in w] == [("support", "to answer D's request to act next")]
    w = waiting_for(g, LAYOUT, ready=frozenset({"armour", "D"}))
    assert [x.seat for x in w] == ["E", "F"]
    w = waiting_for(g, LAYOUT, ready=frozenset({"armour", "D", "E", "F"}))
    assert [(x.seat, x.why) for x in w] == [("support", "to end the Friendly Fire Phase")]
    assert waiting_for(g, LAYOUT, status="paused")[0].seat == "instructor"
    assert waiting_for(g, LAYOUT, status="ended") == []
