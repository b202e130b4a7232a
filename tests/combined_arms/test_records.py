"""Saving, loading and replaying games; malformed files name their field."""

import json

import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, apply, legal_actions, new_game
from hexclass.classroom.combined_arms.actions import action_from_json, action_to_json
from hexclass.classroom.combined_arms.game import RecordError, load, record, replay, save
from hexclass.classroom.combined_arms.positions import (
    Position,
    PositionError,
    position_from_state,
    to_toml,
)

from .helpers import at

P = "player"


def _play(seed, n):
    import random

    g = new_game(seed)
    rng = random.Random(seed)
    for _ in range(n):
        acts = [a for a in legal_actions(g, P) if type(a).__name__ != "EndGame"]
        if g.over or not acts:
            break
        apply(g, rng.choice(acts))
    return g


def test_same_seed_and_actions_give_the_same_game():
    a, b = _play(8, 120), _play(8, 120)
    assert a.snapshot() == b.snapshot()
    assert [e.text for e in a.events] == [e.text for e in b.events]
    assert _play(9, 120).snapshot() != a.snapshot()


def test_save_and_load_round_trip(tmp_path):
    g = _play(3, 150)
    path = tmp_path / "game.json"
    save(g, path)
    again = load(path)
    assert again.snapshot() == g.snapshot()
    assert [e.text for e in again.events] == [e.text for e in g.events]


def test_every_action_type_survives_json():
    g = _play(5, 200)
    for a in g.actions:
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a


def test_malformed_records_name_the_file_and_field(tmp_path):
    g = new_game(2)
    apply(g, Enter(P, "D1", at(g, "1a")))
    data = record(g)
    bad = tmp_path / "bad.json"
    data["seed"] = "x"
    bad.write_text(json.dumps(data))
    with pytest.raises(
        RecordError, match=r"bad\.json: field 'seed' must be a non-negative integer"
    ):
        load(bad)
    data = record(g)
    data["actions"][0]["to"] = "1a"
    bad.write_text(json.dumps(data))
    with pytest.raises(
        RecordError, match=r"field 'actions\[0\]': Enter.to: expected a hex: two whole numbers"
    ):
        load(bad)
    data = record(g)
    data["actions"].append({"type": "Enter", "seat": "player", "unit": "D1", "to": [0, 0]})
    with pytest.raises(
        RecordError, match=r"actions\[1\]' is not legal on replay: .*already entered"
    ):
        replay(data, "mem.json")
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load(bad)


def test_a_game_started_from_a_position_replays_too():
    pos = Position.from_text(
        '[board]\nrows = ["   . . . r . . .", "  . . . . r . . .", "  . . . . r . . . .",'
        '" . . . . . r . . . .", ". . . . . r . . . . .", " . . . . r . . . . .",'
        '"  . . . . r . . . .", "  . . . r . . . .", "   . . . r . . ."]\n'
        '[tracks]\nturn = 3\nphase = "friendly_fire"\n'
        '[[unit]]\nid = "D1"\nhex = "3c"\n[[enemy]]\nhex = "5c"\nplatoon = "real"\n'
    )
    g = new_game(7, position=pos)
    apply(g, EndPhase(P))
    again = replay(record(g))
    assert again.snapshot() == g.snapshot()


def test_position_round_trips_through_toml():
    g = _play(11, 160)
    pos = position_from_state(g, "a study")
    back = Position.from_text(to_toml(pos))
    assert back.data == pos.data


@pytest.mark.parametrize(
    "patch,message",
    [
        ('[[unit]]\nid = "Z9"\nhex = "2c"\n', "field 'unit[0].id': expected a platoon name"),
        ('[[unit]]\nid = "D1"\nhex = "Q9"\n', "field 'unit[0].hex': expected a hex name"),
        (
            '[[unit]]\nid = "D1"\nhex = "2c"\nfacing = 2\n',
            "field 'unit[0].facing': expected no facing",
        ),
        (
            '[[enemy]]\nhex = "5c"\nplatoon = "maybe"\n',
            "field 'enemy[0].platoon': expected 'potential' or 'real'",
        ),
        (
            '[[enemy]]\nhex = "5c"\natg = "real"\n',
            "field 'enemy[0].platoon': expected 'real' wherever",
        ),
        ("[tracks]\nlosses = 9\n", "field 'tracks.losses': expected a whole number from 0 to 7"),
        ("[tracks]\nturn = 0\n", "field 'tracks.turn': expected a whole number from 1 to 20"),
    ],
)
def test_malformed_positions_name_the_field(patch, message):
    rows = (
        '[board]\nrows = ["   . . . r . . .", "  . . . . r . . .", "  . . . . r . . . .",'
        '" . . . . . r . . . .", ". . . . . r . . . . .", " . . . . r . . . . .",'
        '"  . . . . r . . . .", "  . . . r . . . .", "   . . . r . . ."]\n'
    )
    with pytest.raises(PositionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Position.from_text(rows + patch, "study.toml")


def test_bad_board_rows_and_missing_file(tmp_path):
    with pytest.raises(PositionError, match=r"field 'board.rows\[0\]': expected 7 terrain letters"):
        Position.from_text('[board]\nrows = [". .", "", "", "", "", "", "", "", ""]\n', "x.toml")
    with pytest.raises(PositionError, match="no such file"):
        Position.from_toml(tmp_path / "nope.toml")
    f = tmp_path / "broken.toml"
    f.write_text("[board\n")
    with pytest.raises(PositionError, match=r"broken\.toml: not valid TOML"):
        Position.from_toml(f)
