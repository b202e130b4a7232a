"""The enemy-player variant in play (CA p.7): reveals without dice, the defender's choices.

Positions are small sketches turned into variant games by :func:`variant`, which names
the real counters (everything else placed as "potential" is a dummy).
"""

from __future__ import annotations

import random

import pytest

from hexclass.classroom.combined_arms import EndPhase, Options, apply, check
from hexclass.classroom.combined_arms.actions import (
    ChooseMortar,
    ChooseReveals,
    ChooseTarget,
    Deploy,
    Enter,
)
from hexclass.classroom.combined_arms.defender import DEFENDER, ai_choice, defender_seat
from hexclass.classroom.combined_arms.enemy_player import Deployment
from hexclass.classroom.combined_arms.fire import friendly_modifiers
from hexclass.classroom.combined_arms.game import new_game, record, replay
from hexclass.classroom.combined_arms.public import attacker_copy, seat_copy, to_json
from hexclass.classroom.combined_arms.state import SOLITAIRE_SEATS
from hexclass.classroom.combined_arms.units import REAL
from hexclass.classroom.dice import LoadedDice

from .helpers import at, reason, sketch

P = "player"
D = DEFENDER
SEATS = {**SOLITAIRE_SEATS, D: defender_seat()}
FIRE = {"phase": "friendly_fire", "turn": 2}


def variant(state, real: str, atgs: str = "", handicap: int = 0):
    """Make a sketched position a variant game whose real counters stand at ``real``."""
    state.options = Options(auto_decisions=True, enemy_player=True, handicap=handicap)
    state.seats = dict(SEATS)
    hexes = lambda text: frozenset(at(state, n) for n in text.split())  # noqa: E731
    state.secret = Deployment(hexes(real), hexes(atgs))
    return state


def end_fire_phase(state, faces=()):
    state.dice = LoadedDice(faces)
    apply(state, EndPhase(P))


def decide(state, action):
    assert check(state, action) is None, check(state, action)
    apply(state, action)


def answer_as_the_ai(state):
    """Answer every waiting defender choice the way the AI would."""
    while state.pending is not None and state.pending.power == D:
        decide(state, ai_choice(state, D))


def reveal_rolls(state):
    return [e for e in state.events if e.kind == "roll" and "reveal" in e.data.get("purpose", "")]


# --- set-up in the engine ------------------------------------------------------------------


def test_a_variant_game_waits_for_the_secret_deployment_before_turn_1():
    g = new_game(5, Options(enemy_player=True), SEATS)
    assert g.phase == "deployment" and g.forces.platoons in (4, 5, 6)
    entry = Enter(P, "D1", g.board.friendly_edge[0])
    assert "Secret Deployment" in str(check(g, entry))
    wrong = Deploy(D, tuple(sorted(g.enemy))[:1])
    assert 'CA p.7 "Enemy Player Variant": deploy exactly' in str(check(g, wrong))
    assert "only the defender" in str(check(g, Deploy(P, ())))
    decide(g, ai_choice(g, D, random.Random(1)))
    assert (g.phase, g.turn) == ("friendly_move", 1)
    assert check(g, entry) is None


def test_the_force_roll_and_deployment_are_marked_secret_in_the_log():
    g = new_game(5, Options(enemy_player=True), SEATS)
    decide(g, ai_choice(g, D, random.Random(1)))
    secret = [e for e in g.events if e.data.get("secret") == D]
    assert [e.text.split()[0] for e in secret] == ["secret", "real"]
    public = " ".join(e.text for e in g.events if e.data.get("secret") != D)
    for h in g.secret.platoons:
        assert g.label(h) not in public


# --- reveals ------------------------------------------------------------------------------


def test_an_adjacent_attacker_reveals_the_counter_from_the_deployment_not_a_die():
    s = sketch(units={"D1": "4c", "D2": "4e"}, enemy={"5c": "potential", "5e": "potential"}, **FIRE)
    variant(s, real="5c")
    end_fire_phase(s, faces=[1, 6, 6, 6])  # mortars unavailable; 5c's fire misses
    decide(s, ChooseReveals(D, ()))
    answer_as_the_ai(s)
    assert s.enemy[at(s, "5c")].platoon == REAL  # real: revealed though not chosen
    assert at(s, "5e") not in s.enemy  # a dummy: removed
    assert reveal_rolls(s) == []


def test_a_hidden_real_counter_stays_hidden_unless_the_defender_reveals_it():
    s = sketch(units={"D1": "3c"}, enemy={"5c": "potential", "6f": "potential"}, **FIRE)
    variant(s, real="5c 6f")
    end_fire_phase(s, faces=[1, 6, 6, 6])
    assert s.pending.kind == "reveals" and set(s.pending.options) == {at(s, "5c"), at(s, "6f")}
    decide(s, ChooseReveals(D, (at(s, "6f"),)))
    assert s.enemy[at(s, "5c")].platoon == "potential"
    assert s.enemy[at(s, "6f")].platoon == REAL


def test_only_hidden_real_counters_may_be_revealed_by_choice():
    s = sketch(units={"D1": "3c"}, enemy={"5c": "potential", "6f": "potential"}, **FIRE)
    variant(s, real="5c")
    end_fire_phase(s, faces=[1])
    assert "only hidden real platoons" in reason(s, ChooseReveals(D, (at(s, "6f"),)))
    assert "belongs to the defender" in reason(s, ChooseReveals(P, ()))


def test_a_spent_counter_may_be_revealed_on_activation_and_then_recovers():
    s = sketch(units={"D1": "3c"}, enemy={"5c": "potential spent"}, **FIRE)
    variant(s, real="5c")
    end_fire_phase(s, faces=[1])
    decide(s, ChooseReveals(D, (at(s, "5c"),)))
    post = s.enemy[at(s, "5c")]
    assert post.platoon == REAL and post.fresh


def test_the_unrevealed_bonus_holds_even_with_an_attacker_adjacent():
    s = sketch(units={"D1": "4c", "D2": "3c"}, enemy={"5c": "potential"}, **FIRE)
    solitaire = [m.value for m in friendly_modifiers(s, s.units["D2"], at(s, "5c"))]
    variant(s, real="5c")
    live = friendly_modifiers(s, s.units["D2"], at(s, "5c"))
    assert +1 not in solitaire
    assert any(m.value == +1 and "Enemy Player Variant" in m.rule for m in live)


# --- the defender's targets ------------------------------------------------------------------


def test_the_defender_picks_which_infantry_hex_a_revealed_platoon_engages():
    # 5c sees D1 at 3b and E1 at 3e (not adjacent): two single-hex choices at least
    s = sketch(units={"D1": "3b", "E1": "3e"}, enemy={"5c": "real"}, **FIRE)
    variant(s, real="5c")
    end_fire_phase(s, faces=[1, 6])  # mortar unavailable; then the fire roll misses
    assert s.pending.kind == "infantry_target"
    assert "not one the post can engage" in reason(s, ChooseTarget(D, hexes=(at(s, "7a"),)))
    decide(s, ChooseTarget(D, hexes=(at(s, "3e"),)))
    shots = [
        e
        for e in s.events
        if e.kind == "roll" and e.data.get("purpose") == "enemy fire on infantry"
    ]
    assert [e.data["target"] for e in shots] == [at(s, "3e")]


def test_the_defender_picks_the_armour_target():
    s = sketch(units={"A1": "4b top", "A2": "4d top"}, enemy={"5c": "real+atg"}, **FIRE)
    variant(s, real="5c", atgs="5c")
    end_fire_phase(s, faces=[1, 6])
    assert s.pending.kind == "armour_target" and set(s.pending.options) == {"A1", "A2"}
    decide(s, ChooseTarget(D, unit="A2"))
    shot = next(e for e in s.events if e.data.get("purpose") == "enemy fire on armour")
    assert shot.data["unit"] == "A2"


# --- mortars -----------------------------------------------------------------------------


def test_mortars_may_hold_fire_and_then_fire_the_next_turn():
    s = sketch(units={"D1": "2c", "D2": "2d"}, enemy={"6c": "potential", "7d": "potential"}, **FIRE)
    variant(s, real="6c")
    end_fire_phase(s, faces=[6])  # available: the defender is asked before activation
    assert s.pending.kind == "mortar_target" and None in s.pending.options
    assert "spotted hex" in reason(s, ChooseMortar(D, at(s, "5e")))
    decide(s, ChooseMortar(D, None))
    assert s.enemy_mortar is None
    decide(s, ChooseReveals(D, ()))
    # next turn: holding fire did not use up the mortars, so they roll again
    apply(s, EndPhase(P))
    end_fire_phase(s, faces=[6])
    assert any("enemy mortars: rolls 6" in e.text for e in s.events[-8:])


def test_a_dummy_counter_cannot_spot_for_the_mortars():
    s = sketch(units={"D1": "2c"}, enemy={"6c": "potential"}, **FIRE)
    variant(s, real="")
    s.secret = Deployment(frozenset(), frozenset())
    end_fire_phase(s, faces=[6])
    # still asked (see the next test), but holding fire is the only answer
    assert s.pending.kind == "mortar_target" and s.pending.options == (None,)
    assert "spotted hex" in reason(s, ChooseMortar(D, at(s, "2c")))
    decide(s, ChooseMortar(D, None))
    assert s.enemy_mortar is None


def mortars_available(real: str):
    s = sketch(units={"D1": "2c", "D2": "2d"}, enemy={"6c": "potential", "7d": "potential"}, **FIRE)
    variant(s, real=real)
    end_fire_phase(s, faces=[6])
    return s


def test_the_attackers_cannot_tell_whether_a_real_platoon_spots_for_the_mortars():
    """CA p.7: only real platoons spot, so a skipped question or a "nothing spotted" line
    would tell the attackers that every counter in sight is a dummy."""
    spotting, blind = mortars_available(real="6c"), mortars_available(real="")
    assert spotting.pending.options != blind.pending.options  # the defender's own choices
    assert to_json(attacker_copy(spotting)) == to_json(attacker_copy(blind))
    for s in (spotting, blind):
        decide(s, ChooseMortar(D, None))
    assert to_json(attacker_copy(spotting)) == to_json(attacker_copy(blind))


def test_the_mortars_spotter_is_told_to_the_defender_only():
    s = mortars_available(real="6c")
    target = next(h for h in s.pending.options if h is not None)
    decide(s, ChooseMortar(D, target))
    assert s.enemy_mortar.hex == target and s.enemy_mortar.spotter is None
    mine = [e for e in s.events if e.data.get("spotter") is not None]
    assert [e.data["secret"] for e in mine] == [D]
    public = attacker_copy(s)
    assert not any("spotter" in e.data or "6c" in e.text for e in public.events)
    assert public.enemy_mortar.spotter is None
    defended = seat_copy(s, D)
    assert any("6c spots for the mortars" in e.text for e in defended.events)


# --- the score ----------------------------------------------------------------------------


def test_the_handicap_bonus_counts_towards_the_attackers_victory():
    s = sketch(units={"D1": "3c"}, enemy={"8a": "real"}, turn=2)
    variant(s, real="8a", handicap=5)
    from hexclass.classroom.combined_arms.victory import score_state

    plain = score_state(s, 2)
    assert plain.lines[-1].label.startswith("handicap bonus") and plain.lines[-1].points == 5


# --- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 11])
def test_whole_variant_games_replay_exactly(seed):
    from hexclass.classroom.combined_arms.bot import make_policy

    g = new_game(seed, Options(auto_decisions=True, enemy_player=True, handicap=2), SEATS)
    attacker, rng = make_policy("bold", seed), random.Random(seed)
    for _ in range(3000):
        if g.over:
            break
        mine = g.phase == "deployment" or (g.pending is not None and g.pending.power == D)
        apply(g, ai_choice(g, D, rng) if mine else attacker.act(g, P))
    assert g.over and g.result is not None
    assert any(line.label.startswith("handicap") for line in g.result.lines)
    assert replay(record(g)).snapshot() == g.snapshot()


# --- bidding in a two-player game ------------------------------------------------------------


def two_player_game(seed: int = 8):
    from hexclass.classroom.combined_arms.defender import bidder_seat

    seats = {"player1": bidder_seat("player1"), "player2": bidder_seat("player2")}
    return new_game(seed, Options(auto_decisions=True, enemy_player=True, bidding=True), seats)


def test_the_higher_sealed_bid_takes_the_defenders_and_gives_the_bonus():
    from hexclass.classroom.combined_arms.actions import Bid
    from hexclass.classroom.combined_arms.public import seat_copy

    g = two_player_game()
    assert g.phase == "bidding" and g.forces is None
    decide(g, Bid("player1", 3))
    other = seat_copy(g, "player2")
    assert other.bids == {} and not any("bid 3" in e.text for e in other.events)
    assert "each player bids once" in reason(g, Bid("player1", 4))
    decide(g, Bid("player2", 1))
    assert DEFENDER in g.seats["player1"].powers and "command" in g.seats["player2"].powers
    assert g.options.handicap == 3 and g.phase == "deployment" and g.forces is not None
    assert "player1 commands the defenders" in " ".join(e.text for e in g.events)
    assert replay(record(g)).snapshot() == g.snapshot()


def test_equal_bids_are_settled_by_the_game_dice_and_logged():
    from hexclass.classroom.combined_arms.actions import Bid

    g = two_player_game()
    decide(g, Bid("player1", 2))
    g.dice = LoadedDice([4, 4, 1, 6] + [5, 2])  # tie, tie again, player2 wins; then forces 5-2
    decide(g, Bid("player2", 2))
    assert DEFENDER in g.seats["player2"].powers and g.options.handicap == 2
    settled = next(e.text for e in g.events if "commands the defenders" in e.text)
    assert "tie dice player1 4, player2 4; tie dice player1 1, player2 6" in settled


@pytest.mark.parametrize("points", [-1, 41, True, "3"])
def test_a_bid_is_a_whole_number_of_points_within_reach(points):
    from hexclass.classroom.combined_arms.actions import Bid

    g = two_player_game()
    assert "whole number of bonus points" in reason(g, Bid("player1", points))
