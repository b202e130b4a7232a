"""The debrief credits a joint fire to every seat that committed to it (CA p.7), and a
declaration left open for others takes the odds of the fire it joined."""

from __future__ import annotations

import pytest

from hexclass.classroom.combined_arms import DeclareFire, ResolveFire
from hexclass.classroom.combined_arms.fire import fire_odds
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.sessions import create_class, open_console

from .helpers import play


@pytest.fixture
def joint(store):
    """Team 1: A2 (armour) and D1 (D) commit to one fire on 6a; D resolves it."""
    made = create_class(
        store, teams=1, seed=3, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    g = made.teams[0].game_id
    state = store.state(g)
    target = state.board.hex_at("6a")
    odds = fire_odds(state, target, ["A2", "D1"]).pin
    play(store, g, "armour", DeclareFire("armour", target, ("A2",), False))
    play(store, g, "D", DeclareFire("D", target, ("D1",), False))
    play(store, g, "D", ResolveFire("D"))
    return made, float(odds), open_console(store, made.instructor_token).debrief()


def test_a_joint_fire_is_credited_to_every_seat_that_committed(joint):
    _, odds, db = joint
    [fire] = db["fires"].to_dict("records")
    assert fire["seat"] == "armour, D"  # not only D, who rolled it
    assert fire["resolved_by"] == "D"
    assert fire["firers"] == "A2, D1"
    assert fire["pin_odds"] == pytest.approx(odds, abs=1e-4)
    seats = db["seats"].set_index("seat")
    assert seats.loc["armour", "fires"] == 1 and seats.loc["D", "fires"] == 1
    assert seats.loc["E", "fires"] == 0


def test_declarations_take_the_odds_of_the_fire_they_joined(joint):
    _, odds, db = joint
    acts = db["actions"]
    declared = acts[acts.type == "DeclareFire"]
    assert len(declared) == 2
    for text in declared["odds"]:
        assert text is not None and text.startswith(f"pin {odds:.0%}")
    rolled = acts[acts.type == "ResolveFire"].iloc[0]
    assert rolled["odds"] == f"pin {odds:.0%}"
    assert "rolls" in rolled["what"]  # what came of it, from the engine's events


def test_charts_without_data_say_so_instead_of_drawing_empty_axes(store):
    pytest.importorskip("matplotlib")
    made = create_class(store, teams=2, seed=7)
    db = open_console(store, made.instructor_token).debrief()
    for ax in (db.plot_luck(), db.plot_losses(), db.plot("score_known")):
        assert not ax.axison and not ax.patches and not ax.lines
        assert ax.texts[0].get_text() in ("no fires yet", "no turn played yet")
