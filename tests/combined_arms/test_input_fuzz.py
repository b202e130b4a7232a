"""Fuzz the input boundary (hypothesis): malformed actions, positions and saves.

Whatever is thrown at it, the answer is the project's own error type with a sentence
(``InputError`` for shape, ``IllegalAction`` for the rules), the state is unchanged when
it says no, and the co-op store stays readable by another connection.
"""

from __future__ import annotations

import copy
import json
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import IllegalAction, apply, check, legal_actions, new_game
from hexclass.classroom.combined_arms.actions import ACTION_TYPES, action_from_json, action_to_json
from hexclass.classroom.combined_arms.game import parse_record, record, replay
from hexclass.classroom.combined_arms.positions import (
    Position,
    position_from_state,
    state_from_position,
)
from hexclass.classroom.combined_arms.validate import InputError

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEAT = "player"

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["player", "D1", "A1", "5d", "false", "no", "true", "1"]),
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=4), inner, max_size=3),
    ),
    max_leaves=6,
)
good_hex = st.tuples(st.integers(-4, 4), st.integers(0, 8))
value_for = {
    "seat": st.one_of(st.just(SEAT), junk),
    "unit": st.one_of(st.sampled_from(["D1", "A1", "M1", "E1"]), junk),
    "spotter": st.one_of(st.just("D1"), junk),
    "to": st.one_of(good_hex, junk),
    "target": st.one_of(good_hex, junk),
    "facing": st.one_of(st.integers(0, 5), junk),
    "smoke": st.one_of(st.booleans(), junk),
    "resolve": st.one_of(st.booleans(), junk),
    "firers": st.one_of(st.just(("D1",)), junk),
    "hexes": st.one_of(st.lists(good_hex, max_size=2).map(tuple), junk),
    "platoons": st.one_of(st.lists(good_hex, max_size=2).map(tuple), junk),
    "atgs": st.one_of(st.just(()), junk),
    "points": st.one_of(st.integers(0, 5), junk),
}


@st.composite
def built_actions(draw):
    cls = draw(st.sampled_from(sorted(ACTION_TYPES.values(), key=lambda c: c.__name__)))
    names = cls.__slots__
    return cls(*(draw(value_for[n]) for n in names))


@st.composite
def json_actions(draw):
    cls = draw(st.sampled_from(sorted(ACTION_TYPES)))
    names = ACTION_TYPES[cls].__slots__
    data = {"type": draw(st.one_of(st.just(cls), junk))}
    for n in names:
        if draw(st.integers(0, 9)):  # now and then a field is missing
            v = draw(value_for[n])
            data[n] = list(v) if isinstance(v, tuple) else v
    if not draw(st.integers(0, 4)):
        data[draw(st.text(min_size=1, max_size=5))] = draw(junk)  # a misspelt key
    return data


def _base():
    """Turn 1's move phase with a rifle platoon and a tank already on the board."""
    g = new_game(5)
    for uid in ("D1", "A1"):
        apply(g, next(a for a in legal_actions(g, SEAT) if getattr(a, "unit", None) == uid))
    return g


BASE = _base()


def _either_applies_or_refuses_cleanly(state, action):
    before = copy.deepcopy(state.snapshot()), len(state.actions), len(state.events)
    try:
        apply(state, action)
    except (InputError, IllegalAction) as exc:
        assert str(exc)
        assert (state.snapshot(), len(state.actions), len(state.events)) == before
        assert check(state, action) is not None  # check agrees, without raising
        return False
    # accepted: it must survive the JSON the store and saves keep
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
    return True


@FAST
@given(built_actions())
def test_built_actions_are_applied_or_refused_without_a_trace(action):
    _either_applies_or_refuses_cleanly(BASE.copy(), action)


@FAST
@given(json_actions())
def test_json_actions_decode_to_a_checked_action_or_an_input_error(data):
    try:
        action = action_from_json(data)
    except InputError as exc:
        assert str(exc)
        return
    _either_applies_or_refuses_cleanly(BASE.copy(), action)


def _paths(d, prefix=()):
    """Every path into a nested dict/list, for the mutators."""
    yield prefix
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, (*prefix, i))


def _set(d, path, value):
    if not path:
        return value
    d = copy.deepcopy(d)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d


POSITION = position_from_state(replay(record(BASE)), "fuzz").to_dict()
POSITION_PATHS = list(_paths(POSITION))


@FAST
@given(st.sampled_from(POSITION_PATHS), junk)
def test_positions_with_a_bad_value_anywhere_are_refused_by_field(path, value):
    data = _set(POSITION, path, value)
    try:
        pos = Position.from_dict(data, "fuzz.toml")
    except InputError as exc:
        assert str(exc).startswith("fuzz.toml")
        return
    state = state_from_position(pos)  # accepted: it loads and plays
    legal_actions(state, SEAT)


RECORD = record(BASE)
RECORD_PATHS = list(_paths(RECORD))


@FAST
@given(st.sampled_from(RECORD_PATHS), junk)
def test_saves_with_a_bad_value_anywhere_are_refused_by_field(path, value):
    data = _set(RECORD, path, value)
    try:
        state = replay(data, "fuzz.json", check_summary=True)
    except InputError as exc:
        assert str(exc).startswith("fuzz.json")
        return
    assert state.turn >= 1


@FAST
@given(st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
def test_save_bytes_are_json_or_a_record_error(raw):
    try:
        parse_record(raw, "fuzz.json")
    except InputError as exc:
        assert str(exc).startswith("fuzz.json")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(json_actions(), built_actions()), min_size=1, max_size=4))
def test_the_store_refuses_junk_and_another_connection_still_reads_the_game(actions):
    from hexclass.classroom.sessions import SQLiteStore, create_class

    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(f"{tmp}/fuzz.db")
        try:
            game = create_class(store, teams=1, seed=1).teams[0].game_id
            for a in actions:
                seat = a.get("seat") if isinstance(a, dict) else a.seat
                seat = seat if isinstance(seat, str) else "D"
                store.submit(game, store.version(game), seat, a)
            other = SQLiteStore(f"{tmp}/fuzz.db")
            try:
                assert other.state(game).snapshot() == store.state(game).snapshot()
            finally:
                other.close()
        finally:
            store.close()
