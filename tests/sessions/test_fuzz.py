"""Fuzz: random actions from random seats, other seats' units, stale versions, pauses.

The test keeps its own model of the game (the engine applied to what the store says it
accepted) and predicts every answer: accepted exactly when the game runs, the version is
current (or older, with every action since taken in the current turn and phase: a
rebase) and the engine allows the action for that seat; otherwise the refusal the store
must give, checked in the store's documented order.
"""

import dataclasses
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import (
    ChooseBroken,
    DeclareFire,
    EndGame,
    Face,
    Move,
    ResolveFire,
    apply,
    check,
    legal_actions,
)
from hexclass.classroom.combined_arms.actions import action_problem
from hexclass.classroom.combined_arms.units import ALL_IDS
from hexclass.classroom.sessions import SQLiteStore, create_class
from hexclass.classroom.sessions.store import Refusal

from .helpers import replayed

SEATS = ("armour", "D", "E", "F", "support")
HEXES = st.tuples(st.integers(-6, 6), st.integers(-2, 10))


def junk(seat):
    """Actions built from random parts: mostly illegal, sometimes nonsense."""
    unit = st.sampled_from(ALL_IDS + ("Z9",))
    return st.one_of(
        st.builds(Move, st.just(seat), unit, HEXES, st.one_of(st.none(), st.integers(-1, 7))),
        st.builds(Face, st.just(seat), unit, st.integers(-1, 7)),
        st.builds(
            DeclareFire, st.just(seat), HEXES, st.lists(unit, min_size=0, max_size=3).map(tuple)
        ),
        st.builds(ResolveFire, st.just(seat)),
        st.builds(EndGame, st.just(seat)),
        st.builds(ChooseBroken, st.just(seat), unit),
    )


def expected_kind(model, status, version, expected, seat, action, phases=()):
    """The store's answer, predicted from the model (None: accepted)."""
    if action_problem(action) is not None:  # malformed (e.g. facing 6): refused first
        return Refusal.BAD_ACTION
    if seat not in SEATS:
        return Refusal.UNKNOWN_SEAT
    if status == "ended" or model.over:
        return Refusal.ENDED
    if status == "paused":
        return Refusal.PAUSED
    if expected != version:
        now = (model.turn, model.phase)
        rebase = 0 <= expected < version and all(p == now for p in phases[expected:])
        if not rebase or check(model, action) is not None:
            return Refusal.STALE
        return None
    if check(model, action) is not None:
        return Refusal.ILLEGAL
    return None


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**20), data=st.data())
def test_nothing_illegal_is_ever_accepted(seed, data):
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(f"{tmp}/fuzz.db")
        made = create_class(store, teams=1, seed=seed)
        game = made.teams[0].game_id
        model = store.state(game)
        phases = []  # (turn, phase) each accepted action was taken in
        status = "running"
        for _ in range(data.draw(st.integers(10, 40), label="steps")):
            kind = data.draw(
                st.sampled_from(["legal", "legal", "legal", "other", "junk", "stale", "pause"]),
                label="kind",
            )
            if kind == "pause":
                new = data.draw(st.sampled_from(["paused", "running", "running", "ended"]))
                if new == "ended" and data.draw(st.integers(0, 5)):
                    new = "running"  # ending is rare, or nothing else would be tested
                if model.over:  # the store ends a finished game by itself
                    status = "ended"
                r = store.set_game_status(game, new)
                assert r.ok == (status != "ended")
                if status != "ended":
                    status = new
                continue
            seat = data.draw(st.sampled_from(SEATS + ("G",)), label="seat")
            version = len(model.actions)
            expected = version
            options = [a for s in SEATS for a in legal_actions(model, s)]
            if kind in ("legal", "stale") and options:
                action = data.draw(st.sampled_from(options), label="action")
                seat = action.seat if kind == "legal" else seat
            elif kind == "other" and options:
                # someone else's legal action, rewritten in this seat's name
                action = dataclasses.replace(data.draw(st.sampled_from(options)), seat=seat)
            else:
                action = data.draw(junk(seat), label="junk")
            if kind == "stale":
                expected = data.draw(st.sampled_from([version - 1, version + 1, 0, version + 7]))
                action = dataclasses.replace(action, seat=seat)
            want = expected_kind(model, status, version, expected, seat, action, phases)
            r = store.submit(game, expected, seat, action)
            if want is None:
                assert r.ok and r.version == version + 1, r
                phases.append((model.turn, model.phase))
                apply(model, action)
            else:
                assert not r.ok and r.kind is want, (want, r)
                if want is Refusal.ILLEGAL:
                    assert r.message == str(check(model, action))
                if want not in (Refusal.UNKNOWN_SEAT, Refusal.BAD_ACTION):
                    assert r.version == version
            # invariants: the log and the model agree, versions contiguous
            assert store.version(game) == len(model.actions)
        steps = store.actions(game)
        assert [s.version for s in steps] == list(range(1, len(model.actions) + 1))
        assert [s.action for s in steps] == model.actions
        assert store.state(game).snapshot() == model.snapshot()
        assert replayed(store, game).snapshot() == model.snapshot()
        assert store.integrity() == []
        store.close()
