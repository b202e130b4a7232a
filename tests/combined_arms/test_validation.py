"""The input boundary: malformed actions are refused by field, before any rule, and
change nothing (``hexclass.classroom.combined_arms.validate``)."""

import copy

import pytest

from hexclass.classroom.combined_arms import (
    CallMortar,
    ChooseBroken,
    ChooseRollOrder,
    DeclareFire,
    EndPhase,
    Enter,
    Face,
    Move,
    apply,
    check,
    try_apply,
)
from hexclass.classroom.combined_arms.actions import (
    ActionFormatError,
    action_from_json,
    action_to_json,
)
from hexclass.classroom.combined_arms.reasons import ACTION_FORM
from hexclass.classroom.combined_arms.validate import InputError

from .helpers import at, sketch

P = "player"


def fire_phase():
    return sketch(
        {"5d": "crest"},
        {"D1": "4d", "D2": "4e", "A1": "3c"},
        {"5d": "real"},
        phase="friendly_fire",
    )


def move_phase():
    return sketch({}, {"A1": "3c"}, {"6d": "potential"})


# (how to build it, the field named, a word of the expectation); each would either crash
# the engine, half-apply, or be accepted with a wrong meaning if it got past the boundary
BUILT = [
    (lambda s: Enter(P, "D3", (-3.0, 0.0)), "Enter.to", "whole numbers"),
    (lambda s: Enter(P, "D3", [-3, 0]), "Enter.to", "tuple"),
    (lambda s: Enter(P, "D3", (0, 0, 0)), "Enter.to", "two whole numbers"),
    (lambda s: Enter(P, "D3", (True, 0)), "Enter.to", "whole numbers"),
    (lambda s: Enter(P, "D3", "1a"), "Enter.to", "hex"),
    (lambda s: Enter(P, "A2", (0, 0), 2.0), "Enter.facing", "corner"),
    (lambda s: Enter(P, "A2", (0, 0), 6), "Enter.facing", "0-5"),
    (lambda s: Move(P, ["A1"], at(s, "4c")), "Move.unit", "name"),
    (lambda s: Move(P, "A1", at(s, "4c"), "1"), "Move.facing", "corner"),
    (lambda s: Move(None, "A1", at(s, "4c")), "Move.seat", "name"),
    (lambda s: Move(P, "", at(s, "4c")), "Move.unit", "name"),
    (lambda s: EndPhase(["player"]), "EndPhase.seat", "name"),
]
BUILT_FIRE = [
    (lambda s: Face(P, "A1", 2.0), "Face.facing", "corner"),
    (lambda s: Face(P, "A1", None), "Face.facing", "corner"),
    (lambda s: Face(P, "A1", True), "Face.facing", "corner"),
    (lambda s: DeclareFire(P, at(s, "5d"), "D1"), "DeclareFire.firers", "list"),
    (lambda s: DeclareFire(P, at(s, "5d"), ["D1"]), "DeclareFire.firers", "tuple"),
    (lambda s: DeclareFire(P, at(s, "5d"), ("D1",), "no"), "DeclareFire.resolve", "true or false"),
    (lambda s: DeclareFire(P, at(s, "5d"), ("D1",), 0), "DeclareFire.resolve", "boolean"),
    (lambda s: DeclareFire(P, list(at(s, "5d")), ("D1",)), "DeclareFire.target", "hex"),
    (lambda s: CallMortar(P, at(s, "5d"), "D1", "false"), "CallMortar.smoke", "true or false"),
    (lambda s: CallMortar(P, at(s, "5d"), ("D1",)), "CallMortar.spotter", "name"),
    (lambda s: ChooseRollOrder(P, [at(s, "4d")]), "ChooseRollOrder.hexes", "list of hexes"),
    (lambda s: ChooseBroken(P, {"D1"}), "ChooseBroken.unit", "name"),
]


def _unchanged(state, action, field, words):
    before = copy.deepcopy(state.snapshot()), len(state.actions), len(state.events)
    why = check(state, action)
    assert why is not None and why.rule == ACTION_FORM and field in why.message
    assert words in why.message
    assert try_apply(state, action) == why
    with pytest.raises(ActionFormatError, match=field.replace(".", r"\.")) as err:
        apply(state, action)
    assert isinstance(err.value, InputError) and err.value.field == field.split(".")[1]
    assert (state.snapshot(), len(state.actions), len(state.events)) == before


@pytest.mark.parametrize("build,field,words", BUILT)
def test_malformed_built_actions_are_refused_in_the_move_phase(build, field, words):
    s = move_phase()
    _unchanged(s, build(s), field, words)


@pytest.mark.parametrize("build,field,words", BUILT_FIRE)
def test_malformed_built_actions_are_refused_in_the_fire_phase(build, field, words):
    s = fire_phase()
    _unchanged(s, build(s), field, words)


def test_face_with_a_float_no_longer_turns_the_tank_before_failing():
    s = fire_phase()
    facing = s.units["A1"].facing
    with pytest.raises(ActionFormatError):
        apply(s, Face(P, "A1", 2.0))
    assert s.units["A1"].facing == facing and s.actions == []


def test_well_formed_but_illegal_actions_still_get_the_rule():
    s = fire_phase()
    why = check(s, Face(P, "A1", s.units["A1"].facing))
    assert why.rule == 'CA "Fire Attacks"' and "already faces" in why.message


JSON_BAD = [
    ({"type": "EndPhase", "seat": P, "sear": P}, "unknown field 'sear'"),
    ({"type": "Move", "seat": P, "unit": "A1", "to": [0, 3], "facng": 1}, "unknown field 'facng'"),
    (
        {"type": "DeclareFire", "seat": P, "target": [0, 4], "firers": ["D1"], "resolve": "no"},
        "DeclareFire.resolve: expected true or false",
    ),
    (
        {"type": "CallMortar", "seat": P, "target": [0, 4], "spotter": "D1", "smoke": "false"},
        "CallMortar.smoke: expected true or false",
    ),
    (
        {"type": "DeclareFire", "seat": P, "target": [0, 4], "firers": "D1"},
        "DeclareFire.firers: expected a list of platoon names",
    ),
    (
        {"type": "DeclareFire", "seat": P, "target": [0, 4], "firers": [1, 2]},
        "DeclareFire.firers: expected a list of platoon names",
    ),
    ({"type": "Enter", "seat": P, "unit": "D1", "to": [-3.0, 0.0]}, "Enter.to: expected a hex"),
    ({"type": "Enter", "seat": P, "unit": "D1", "to": [10**40, 0]}, "Enter.to: expected a hex"),
    ({"type": "Face", "seat": P, "unit": "A1", "facing": "2"}, "Face.facing: expected a corner"),
    ({"type": "Face", "seat": P, "unit": "A1"}, "Face needs field 'facing'"),
    (
        {"type": "ChooseRollOrder", "seat": P, "hexes": [[0, 1], [1, "x"]]},
        "ChooseRollOrder.hexes: expected a list of hexes",
    ),
    ({"type": ["Move"], "seat": P}, "unknown action type ['Move']"),
    ({"type": "Teleport", "seat": P}, "unknown action type 'Teleport'"),
    (["Move"], "an action must be a JSON object"),
    (None, "an action must be a JSON object"),
]


@pytest.mark.parametrize("data,message", JSON_BAD)
def test_malformed_json_actions_name_the_field(data, message):
    with pytest.raises(ActionFormatError) as err:
        action_from_json(data)
    assert message in str(err.value)


def test_json_round_trip_keeps_defaults_and_tuples():
    a = DeclareFire(P, (0, 4), ("D1", "D2"), False)
    assert action_from_json(action_to_json(a)) == a
    assert (
        action_from_json(
            {"type": "DeclareFire", "seat": P, "target": [0, 4], "firers": ["D1"]}
        ).resolve
        is True
    )


def test_long_bad_values_are_cut_in_the_message():
    with pytest.raises(ActionFormatError) as err:
        action_from_json({"type": "EndPhase", "seat": "x" * 10_000})
    assert len(str(err.value)) < 300
