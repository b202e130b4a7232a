"""Positions and saves checked against the rules and their format: file, field and
expectation in every message, and nothing half-loaded."""

import json

import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, apply, new_game
from hexclass.classroom.combined_arms.board import Board
from hexclass.classroom.combined_arms.game import RecordError, load, parse_record, record, replay
from hexclass.classroom.combined_arms.positions import Position, PositionError, board_to_rows
from hexclass.classroom.combined_arms.validate import InputError

from .helpers import at

ROWS = board_to_rows(Board.open_board({"2c": "woods", "3b": "poor"}))
BOARD = "[board]\nrows = [" + ", ".join(json.dumps(r) for r in ROWS) + "]\n"


def units(*specs):
    out = ""
    for spec in specs:
        uid, h, *rest = spec.split()
        out += f'[[unit]]\nid = "{uid}"\nhex = "{h}"\n' + "".join(f"{r}\n" for r in rest)
    return out


# Rule-breaking set-ups: the message carries the engine's own reason (CA "Movement").
@pytest.mark.parametrize(
    "body,field,words",
    [
        (units("A1 4d", "A2 4d"), "unit[1].hex", "A1 is already there"),
        (units("D1 4d", "E1 4d"), "unit[1].hex", "different companies"),
        (units("A1 2c"), "unit[0].hex", "armour may not enter woods"),
        (units("A1 3b"), "unit[0].hex", "armour may not enter poor going"),
        (units("D1 5a"), "unit[0].hex", "side-edge hex"),
        (units("D1 5d") + '[[enemy]]\nhex = "5d"\n', "enemy[0].hex", "without your platoons"),
    ],
)
def test_positions_the_rules_forbid_are_refused(body, field, words):
    with pytest.raises(PositionError) as err:
        Position.from_text(BOARD + body, "study.toml")
    msg = str(err.value)
    assert msg.startswith("study.toml: field '" + field + "'") and words in msg
    assert err.value.field == field


def test_the_same_units_apart_are_fine():
    pos = Position.from_text(BOARD + units("A1 4d", "A2 4e", "D1 4c", "D2 4c", "M1 4c"), "ok")
    assert [u["hex"] for u in pos.data["unit"]] == ["4d", "4e", "4c", "4c", "4c"]


@pytest.mark.parametrize(
    "text,field",
    [
        ('board = "x"\n', "board"),
        (BOARD + '[[unit]]\nid = "D1"\n', "unit[0].hex"),
        (BOARD + '[[unit]]\nid = "D1"\nhex = ["4d"]\n', "unit[0].hex"),
        (BOARD + "[tracks]\nturn = 2.5\n", "tracks.turn"),
        (BOARD + "[tracks]\nlosses = true\n", "tracks.losses"),
        (BOARD + 'position = "x"\n', "board.position"),  # TOML: still inside [board]
        ('position = "x"\n' + BOARD, "position"),
        ("[position]\ntitle = 5\n" + BOARD, "position.title"),
        (
            BOARD + '[mortars]\nfriendly = { hex = "5d", turn = 1, smoke = "false" }\n',
            "mortars.friendly.smoke",
        ),
        (BOARD + '[mortars]\nfriendly = { hex = "5d", turn = true }\n', "mortars.friendly.turn"),
        (
            BOARD + '[tracks]\nturn = 2\n[mortars]\nenemy = { hex = "5d", turn = 5 }\n',
            "mortars.enemy.turn",
        ),
        (BOARD + '[boxes]\nbroken = ["D1", "D1"]\n', "boxes.broken"),
        (BOARD + "[board2]\n", "board2"),
    ],
)
def test_malformed_positions_name_file_and_field(text, field):
    with pytest.raises(PositionError) as err:
        Position.from_text(text, "bad.toml")
    assert f"bad.toml: field '{field}'" in str(err.value)


def test_position_files_that_are_not_text(tmp_path):
    f = tmp_path / "latin1.toml"
    f.write_bytes(BOARD.encode() + b'[position]\ntitle = "caf\xe9"\n')
    with pytest.raises(PositionError, match=r"latin1\.toml: not UTF-8 text"):
        Position.from_toml(f)
    with pytest.raises(PositionError, match="cannot be read"):
        Position.from_toml(tmp_path)  # a directory
    with pytest.raises(PositionError, match="nested too deeply"):
        Position.from_text("x = " + "[" * 5000 + "]" * 5000, "deep.toml")


def _saved(tmp_path):
    g = new_game(4)
    apply(g, Enter("player", "D1", at(g, "1a")))
    apply(g, EndPhase("player"))
    return g, record(g)


@pytest.mark.parametrize(
    "patch,words",
    [
        (lambda d: d.update(actions=5), "field 'actions' must be a list"),
        (lambda d: d.update(actions=[5]), "field 'actions[0]'"),
        (lambda d: d.update(seed=True), "field 'seed'"),
        (lambda d: d.update(options={"easier_game": "yes"}), "field 'options.easier_game'"),
        (lambda d: d.update(options={"esier_game": True}), "field 'options.esier_game'"),
        (lambda d: d.update(options=[1]), "field 'options' must be an object"),
        (lambda d: d.update(seats={"player": 5}), "field 'seats.player'"),
        (
            lambda d: d.update(
                seats={
                    "a": {"units": ["D1", "D2"], "powers": ["command"]},
                    "b": {"units": ["D2", "E1"], "powers": []},
                }
            ),
            "field 'seats.b.units' gives D2 to a second seat (already in 'seats.a')",
        ),
        (
            lambda d: d.update(
                seats={"a": {"units": ["D1"], "powers": ["command"]}, "idle": {"units": []}}
            ),
            "field 'seats.idle' commands nothing",
        ),
        (lambda d: d.update(start={"board": "x"}), "field 'start': field 'board'"),
        (lambda d: d.update(extra=1), "unknown field 'extra'"),
        (lambda d: d["summary"].update(turn=9), "field 'summary.turn' says 9"),
        (lambda d: d["summary"].update(events=1), "field 'summary.events'"),
        (lambda d: d.update(summary="x"), "field 'summary' must be an object"),
        (lambda d: d["actions"][0].update(to=[-3.0, 0.0]), "Enter.to: expected a hex"),
        (lambda d: d["actions"][0].update(too=[-3, 0]), "unknown field 'too'"),
    ],
)
def test_malformed_saves_name_the_field(tmp_path, patch, words):
    _, data = _saved(tmp_path)
    patch(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as err:
        load(path)
    assert str(err.value).startswith(str(path)) and words in str(err.value)


def test_saves_that_are_not_json_text(tmp_path):
    path = tmp_path / "g.json"
    path.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(RecordError, match=r"g\.json: not UTF-8 text \(bad byte at offset 12\)"):
        load(path)
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="nested too deeply"):
        load(path)
    with pytest.raises(RecordError, match="no such file"):
        load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot be read"):
        load(tmp_path)
    with pytest.raises(RecordError, match="not valid JSON"):
        parse_record("1" * 5000, "huge.json")


def test_a_good_save_still_loads_and_matches_its_summary(tmp_path):
    g, data = _saved(tmp_path)
    assert replay(data, check_summary=True).snapshot() == g.snapshot()
    assert replay({**data, "actions": []}).turn == 1  # a cut record replays (the coach)
    del data["summary"]  # older saves without one still load
    assert replay(data).snapshot() == g.snapshot()


def test_every_input_error_is_one_type():
    assert issubclass(PositionError, InputError) and issubclass(RecordError, InputError)
