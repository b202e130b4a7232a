"""Random playouts: thousands of legal actions, invariants after each, and exact replay."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import Options, apply, check, legal_actions, new_game
from hexclass.classroom.combined_arms.board import ARMOUR_CANNOT_ENTER
from hexclass.classroom.combined_arms.game import record, replay
from hexclass.classroom.combined_arms.units import ALL_IDS, BOARD

P = "player"


def assert_invariants(s, before):
    # every platoon is in exactly one place, and the hex index agrees
    seen = {}
    for h, ids in s.at.items():
        assert ids, "an empty list was left in the hex index"
        for u in ids:
            assert u not in seen, f"{u} in two hexes"
            seen[u] = h
    assert set(s.units) == set(ALL_IDS)
    for u in s.units.values():
        assert (u.where == BOARD) == (u.id in seen)
        if u.where == BOARD:
            assert seen[u.id] == u.hex and u.hex in s.board.hex_set
            assert u.hex not in s.enemy
            if u.is_armour:
                assert u.facing in range(6)
                assert s.board.terrain[u.hex] not in ARMOUR_CANNOT_ENTER
    for ids in s.at.values():
        assert len({u[0] for u in ids if u[0] in "DEF"}) <= 1, "two rifle companies share a hex"
        assert sum(1 for u in ids if u[0] == "A") <= 1, "two armour platoons share a hex"
    assert 0 <= s.losses <= 7 and 0 <= s.ammo <= 7 and 0 <= s.smoke_ammo <= 4
    assert 1 <= s.turn <= 20
    # counters only go away; tallies only grow
    assert set(s.enemy) <= before["posts"]
    for k in (
        "enemy_platoons_broken",
        "atgs_broken",
        "real_platoons_revealed",
        "real_atgs_revealed",
    ):
        assert getattr(s, k) >= before[k]
    for p in s.enemy.values():
        assert not p.empty
        assert p.atg != "real" or p.platoon == "real"


def _tallies(s):
    return {
        "posts": set(s.enemy),
        **{
            k: getattr(s, k)
            for k in (
                "enemy_platoons_broken",
                "atgs_broken",
                "real_platoons_revealed",
                "real_atgs_revealed",
            )
        },
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), data=st.data(), auto=st.booleans())
def test_random_legal_playout_keeps_the_invariants_and_replays_exactly(seed, data, auto):
    g = new_game(seed, Options(auto_decisions=auto))
    steps = 0
    while not g.over and steps < 400:
        acts = legal_actions(g, P)
        assert acts, "a live game always offers an action"
        # favour doing things over ending phases, so games run long
        busy = [a for a in acts if type(a).__name__ not in ("EndPhase", "EndGame")]
        pool = busy if busy and data.draw(st.integers(0, 3)) else acts
        action = data.draw(st.sampled_from(pool))
        assert check(g, action) is None
        before = _tallies(g)
        apply(g, action)
        assert_invariants(g, before)
        steps += 1
    assert replay(record(g)).snapshot() == g.snapshot()


def test_an_illegal_action_leaves_the_state_untouched():
    from hexclass.classroom.combined_arms import IllegalAction, Move

    g = new_game(1)
    snap = g.snapshot()
    try:
        apply(g, Move(P, "D1", (0, 0)))
    except IllegalAction as exc:
        assert "not on the board" in str(exc)
    else:
        raise AssertionError("an illegal move was accepted")
    assert g.snapshot() == snap and g.actions == []


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_fast_payoff_arithmetic_matches_the_itemised_modifiers(seed, data):
    from hexclass.classroom.combined_arms import enemy as ai
    from hexclass.classroom.combined_arms.lines import terrain_mask

    g = new_game(seed)
    hexes = list(g.board.hexes)
    for _ in range(20):
        a, b = data.draw(st.sampled_from(hexes)), data.draw(st.sampled_from(hexes))
        mods = ai.infantry_modifiers(g, a, b)
        fast = ai.infantry_total(g, a, b, terrain_mask(g))
        assert (mods is None and fast is None) or sum(m.value for m in mods) == fast
