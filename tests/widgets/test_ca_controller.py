"""The board controller, without a browser: one test per bug found by playing the page.

Each test replays what a player did (issue 11) on a small position or the reported
seed and checks what the controller does, says or offers.
"""

from __future__ import annotations

import pytest

from hexclass.classroom.combined_arms import DeclareFire, apply, check, new_game, query
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.widgets.ca_controller import BoardController, LocalGame

P = "player"


def ctl(state) -> BoardController:
    return BoardController(LocalGame(state), P)


def at(state, name):
    return state.board.hex_at(name)


# --- odds for illegal shots -------------------------------------------------------------------


def reported_turn_two():
    """?seed=8152597: M1 and M2 enter at 1b and 1c, then the turn-2 fire phase."""
    s = new_game(8152597)
    c = ctl(s)
    c.select("M1")
    c.click(at(s, "1b"))
    c.select("M2")
    c.click(at(s, "1c"))
    c.end_phase()  # to the fire phase
    c.end_phase()  # the enemy plays; turn 2
    c.end_phase()  # to the turn-2 fire phase
    assert (s.turn, s.phase) == (2, "friendly_fire")
    return s, c


def test_blocked_line_shows_the_rule_and_no_odds():
    s, c = reported_turn_two()
    c.click(at(s, "1b"))
    c.click(at(s, "1c"))
    c.click(at(s, "4c"))
    odds, why = c.odds()
    assert odds is None  # the page showed "pin 97% (35/36)" here
    assert why == check(s, DeclareFire(P, at(s, "4c"), ("M1", "M2")))
    assert c.message.bad and "blocked by 3c" in c.message.text
    assert 'CA "Fire Attacks"' in c.message.text
    assert not c.enabled()["commit"]


def test_a_group_with_no_legal_target_is_told_so_and_every_target_names_its_rule():
    s, c = reported_turn_two()
    c.click(at(s, "1b"))
    c.click(at(s, "1c"))
    assert "no legal target" in c.message.text
    reasons = c.target_map()
    assert reasons and all(why is not None for why in reasons.values())
    assert "limit is 5" in c.hover_text(at(s, "4i"))
    assert "pin" not in c.hover_text(at(s, "4i"))


def test_out_of_range_target_gets_the_limit_not_odds():
    s = sketch(units={"D1": "1d"}, enemy={"7d": "potential"}, phase="friendly_fire")
    c = ctl(s)
    c.click(at(s, "1d"))
    c.click(at(s, "7d"))
    assert c.odds()[0] is None
    assert "6 hexes from D1; the limit is 5" in c.message.text


def test_the_legal_targets_lit_are_exactly_the_engines():
    s = sketch(
        {"4c": "woods"},
        {"D1": "3d", "D2": "3e"},
        {"5d": "real", "5c": "potential", "5f": "real"},
        phase="friendly_fire",
    )
    c = ctl(s)
    c.click(at(s, "3d"))
    lit = {h for h, why in c.target_map().items() if why is None}
    assert lit == set(query.legal_fire_targets(s, P, ["D1"]))
    assert lit and lit != set(s.enemy)
    legal = sorted(lit)[0]
    c.click(legal)
    odds, why = c.odds()
    assert why is None and odds == query.fire_odds(s, P, legal, ["D1"])
    assert c.enabled()["commit"]
    assert c.commit_fire()
    assert legal in s.engaged and c.group == [] and c.target is None


# --- stale facing and selection ----------------------------------------------------------------


def test_facing_chosen_for_one_armour_never_turns_another():
    # ?seed=42: A2 given ↘ (corner 5) in the move phase, then A1 selected in the fire phase
    s = sketch(units={"A1": "3c bottom", "A2": "3f bottom"}, enemy={"8h": "real"})
    c = ctl(s)
    c.click(at(s, "3f"))
    c.set_facing(5)
    assert c.shown_facing() == 5
    c.click(at(s, "3c"))  # A1 selected in the same phase: its own facing
    assert c.selected == "A1" and c.facing is None and c.shown_facing() == s.units["A1"].facing
    c.click(at(s, "3f"))
    c.set_facing(5)
    c.end_phase()
    c.click(at(s, "3c"))
    assert c.selected == "A1"
    before = s.units["A1"].facing
    c.key("ArrowLeft")
    assert s.units["A1"].facing == (before + 1) % 6  # turned from A1's facing, not from A2's ↘
    assert s.units["A2"].facing == 4


def test_a_selection_never_carries_into_the_next_phase_or_turn():
    s = sketch(units={"D2": "3d", "D3": "3e"}, enemy={"9g": "potential"})
    c = ctl(s)
    c.select("D3")
    c.end_phase()
    assert c.selected is None and c.group == []
    c.click(at(s, "3d"))  # fire phase: gathers D2
    assert c.group == ["D2"]
    c.end_phase()  # enemy phase, then turn 2
    assert s.turn == 2 and c.selected is None and c.group == []


def test_a_stale_selection_does_not_move_the_wrong_platoon():
    # D3 selected in an earlier turn; clicking D2's hex must select D2, not move D3 there
    s = sketch(units={"D2": "3d", "D3": "3e"}, enemy={"9g": "potential"})
    c = ctl(s)
    c.select("D3")
    c.end_phase()
    c.end_phase()
    assert (s.turn, s.phase) == (2, "friendly_move")
    c.click(at(s, "3d"))
    assert c.selected == "D2"
    assert s.label(s.units["D3"].hex) == "3e"


def test_after_a_move_clicking_a_friend_selects_it():
    s = sketch(units={"D2": "3d", "D3": "3f"}, enemy={"9g": "potential"})
    c = ctl(s)
    c.select("D3")
    c.click(at(s, "3e"))
    assert s.label(s.units["D3"].hex) == "3e"
    c.click(at(s, "3d"))  # D3 is spent now: a click on D2's hex selects D2
    assert c.selected == "D2" and s.label(s.units["D3"].hex) == "3e"


def test_n_in_the_fire_phase_never_picks_platoons_off_the_board():
    s = sketch(units={"A1": "3c bottom", "D1": "3e", "D2": "2e spent"}, enemy={"6e": "real"})
    c = ctl(s)
    c.end_phase()
    seen = set()
    for _ in range(6):
        c.key("n")
        seen.add(c.selected)
    assert seen == {"A1", "D1"}  # not A2/A3 (off the board), not spent D2
    assert all(s.units[u].on_board and s.units[u].fresh for u in seen)


def test_n_in_the_move_phase_offers_platoons_that_can_enter():
    s = sketch(units={"D1": "3e spent"})
    c = ctl(s)
    c.key("n")
    assert c.selected != "D1" and s.units[c.selected].where == "off"


# --- illegal stacking cites the rule ------------------------------------------------------------


def test_clicking_another_companys_platoon_names_the_stacking_rule():
    s = sketch(units={"D1": "3d", "E1": "4d"})
    c = ctl(s)
    c.select("D1")
    c.click(at(s, "4d"))
    assert 'CA "Movement"' in c.message.text and "different companies" in c.message.text
    assert s.label(s.units["D1"].hex) == "3d"
    assert c.selected == "E1"  # and the platoon clicked is now in hand


def test_armour_onto_armour_names_the_rule():
    s = sketch(units={"A1": "3d bottom", "A2": "4d bottom"})
    c = ctl(s)
    c.select("A1")
    c.click(at(s, "4d"))
    assert "A2 is already there" in c.message.text and c.message.bad


def test_a_click_on_a_hex_the_platoon_may_not_enter_names_the_rule():
    s = sketch({"4d": "woods"}, {"A1": "3d bottom"})
    c = ctl(s)
    c.select("A1")
    c.click(at(s, "4d"))
    assert c.message.bad and "armour may not enter woods" in c.message.text


# --- the engine decides: End phase, mortars, the battle -------------------------------------------


def test_end_phase_honours_the_open_fire_rule():
    s = sketch(units={"D1": "4d", "D2": "4e"}, enemy={"5d": "real"}, phase="friendly_fire")
    c = ctl(s)
    apply(s, DeclareFire(P, at(s, "5d"), ("D1",), resolve=False))
    assert not c.enabled()["end_phase"]
    assert not c.end_phase()
    assert "resolve the committed fire" in c.message.text and s.phase == "friendly_fire"
    assert c.enabled()["resolve"] and c.resolve()
    assert c.enabled()["end_phase"]


def test_mortar_mode_is_offered_only_when_the_engine_would_take_a_call():
    s = sketch(units={"D1": "3d", "D2": "4f"}, enemy={"6d": "real"}, phase="friendly_fire")
    c = ctl(s)
    assert c.enabled()["mortar"]
    c.click(at(s, "4f"))
    c.click(at(s, "6d"))
    assert c.commit_fire()
    assert not c.enabled()["mortar"]
    c.set_mode("mortar")
    assert c.mode == "fire" and "before any platoon fires" in c.message.text


def test_mortar_odds_only_for_a_call_the_engine_accepts():
    s = sketch(units={"D1": "3d", "D2": "5d"}, enemy={"6d": "real"}, phase="friendly_fire")
    c = ctl(s)
    c.set_mode("mortar")
    c.click(at(s, "3d"))
    assert c.spotter == "D1"
    c.click(at(s, "6d"))  # next to D2 (5d): the mortars may not target it
    assert c.mortar_preview()[0] is None and "next to your platoon D2" in c.message.text
    assert not c.enabled()["call_mortar"]


def test_end_the_battle_asks_first():
    s = sketch(units={"D1": "3d"}, turn=3)
    c = ctl(s)
    assert not c.end_game()
    assert c.confirming_end and not s.over
    c.cancel_end()
    assert not c.confirming_end and not s.over
    c.end_game()
    assert c.end_game(confirmed=True) and s.over


def test_every_refusal_names_its_rule():
    s = sketch(units={"D1": "3d spent"}, enemy={"5d": "real"})
    c = ctl(s)
    c.select("D1")
    c.withdraw()
    assert c.message.bad and c.message.text.startswith('CA "')


@pytest.mark.parametrize("key", ["e", "f", "w", "x", "m", "n", "Escape", "ArrowLeft"])
def test_no_key_changes_the_game_while_a_choice_is_awaited(key):
    from hexclass.classroom.combined_arms.state import Decision

    s = sketch(units={"D1": "3d", "A1": "3e bottom"})
    s.pending = Decision("break", ("D1",), rule='CA "Enemy Fire"', prompt="which?")
    c = ctl(s)
    c.select("A1")
    n = len(s.actions)
    c.key(key)
    assert len(s.actions) == n
