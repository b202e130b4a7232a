"""``hexclass class new`` and ``hexclass class links``, run as a user would (a subprocess)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from hexclass.classroom.sessions import SQLiteStore, open_console, open_seat

ROOT = pathlib.Path(__file__).resolve().parents[2]


def hexclass(*args, env_store=None):
    env = dict(os.environ)
    env.pop("HEXCLASS_STORE", None)
    if env_store is not None:
        env["HEXCLASS_STORE"] = str(env_store)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "hexclass.classroom.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )


def test_class_new_json_prints_every_link_and_the_tokens_work(tmp_path):
    db = tmp_path / "c.db"
    out = hexclass("class", "new", "--teams", "2", "--seed", "9", "--store", str(db), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["store"] == str(db)
    assert data["instructor"]["url"] == (
        "http://127.0.0.1:8866/voila/render/classroom/pages/instructor.ipynb?token="
        + data["instructor"]["token"]
    )
    assert "seed" not in json.dumps(data)  # seeds: the instructor console only
    with SQLiteStore(db) as store:
        assert [g.seed for g in store.games(data["class_id"])] == [9, 9]
        assert open_console(store, data["instructor"]["token"]).class_id == data["class_id"]
        for t in data["teams"]:
            assert [s["seat"] for s in t["seats"]] == ["armour", "D", "E", "F", "support"]
            for s in t["seats"]:
                assert s["url"].endswith(
                    f"/voila/render/classroom/pages/seat.ipynb?token={s['token']}"
                )
                seat = open_seat(store, s["token"])
                assert (seat.team, seat.seat) == (t["team"], s["seat"])


def test_class_new_plain_list_six_seats_different_seeds_and_env_store(tmp_path):
    db = tmp_path / "env.db"
    out = hexclass(
        "class", "new", "--teams", "2", "--seed", "5", "--seats", "6", "--different-seeds",
        "--base-url", "https://school.example/", env_store=db,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert (
        "Instructor console (keep this link to yourself): https://school.example/voila/render/"
        in text
    )
    assert "seed" not in text.lower()  # the console is the only place seeds are shown
    assert "team 1: each student" in text and "team 2: each student" in text
    assert text.count("/seat.ipynb?token=") == 12
    assert "Overall command" in text and f"Store: {db}" in text
    # the console link comes before the handouts, never inside one
    handouts = text.split("=== Team handouts")[1]
    assert "instructor.ipynb" not in handouts
    assert db.exists()
    with SQLiteStore(db) as store:
        [c] = store.classes()
        assert [g.seed for g in store.games(c.id)] == [5, 6]
        token, seats = store.tokens(c.id)
        assert token in text and all(t in text for g in seats.values() for t in g.values())
    again = hexclass("class", "links", "--class", str(c.id), "--json", env_store=db)
    assert again.returncode == 0 and json.loads(again.stdout)["instructor"]["token"] == token


def test_class_new_without_a_seed_draws_a_random_one_per_class(tmp_path):
    db = tmp_path / "r.db"
    for _ in range(2):
        out = hexclass("class", "new", "--teams", "2", "--store", str(db))
        assert out.returncode == 0, out.stderr
    out = hexclass("class", "new", "--teams", "3", "--different-seeds", "--store", str(db))
    assert out.returncode == 0, out.stderr
    with SQLiteStore(db) as store:
        seeds = [[g.seed for g in store.games(c.id)] for c in store.classes()]
    (a1, a2), (b1, b2), different = seeds
    assert a1 == a2 and b1 == b2 and a1 != b1  # one battle per class, a new one each time
    assert len(set(different)) == 3  # --different-seeds: one random seed per team
    assert all(s >= 2**40 for s in (a1, b1, *different))  # not from a small range


def test_handouts_are_one_file_per_team_plus_a_student_list(tmp_path):
    db, out_dir = tmp_path / "h.db", tmp_path / "handouts"
    out = hexclass("class", "new", "--teams", "2", "--store", str(db), "--handouts", str(out_dir))
    assert out.returncode == 0, out.stderr
    with SQLiteStore(db) as store:
        [c] = store.classes()
        instructor, seats = store.tokens(c.id)
        games = store.games(c.id)
    team1 = (out_dir / f"class{c.id}-team-1.txt").read_text()
    team2 = (out_dir / f"class{c.id}-team-2.txt").read_text()
    students = (out_dir / f"class{c.id}-students.txt").read_text().splitlines()
    for text, mine, theirs in ((team1, games[0], games[1]), (team2, games[1], games[0])):
        assert all(tok in text for tok in seats[mine.id].values())
        assert not any(tok in text for tok in seats[theirs.id].values())
        assert instructor not in text and "seed" not in text.lower()
    assert len(students) == 10 and all(line.count("\t") == 2 for line in students)
    assert instructor not in "\n".join(students)


@pytest.mark.parametrize(
    "args, words",
    [
        (["class", "new", "--seed", "1"], "the following arguments are required: --teams"),
        (["class", "new", "--teams", "0", "--seed", "1"], "--teams: the number of teams must be"),
        (["class", "new", "--teams", "two", "--seed", "1"], "expected a whole number, got 'two'"),
        (["class", "new", "--teams", "1", "--seed", "-1"], "--seed: a seed must be from 0"),
        (["class", "new", "--teams", "1", "--seed", "1", "--seats", "7"], "--seats must be"),
        (["class", "new", "--teams", "1", "--seed", "1", "--base-url", "ftp://x"], "http://"),
        (
            ["class", "new", "--teams", "1", "--seed", "1", "--message-limit", "2"],
            "--message-limit applies only with --message-mode written",
        ),
        (["class", "links", "--class", "4"], "--class: there is no class 4"),
    ],
)
def test_bad_arguments_are_usage_errors_without_a_traceback(tmp_path, args, words):
    out = hexclass(*args, "--store", str(tmp_path / "c.db"))
    assert out.returncode == 2
    assert words in out.stderr
    assert "usage: hexclass class" in out.stderr
    assert "Traceback" not in out.stderr


def test_an_unusable_store_path_is_a_usage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    out = hexclass("class", "new", "--teams", "1", "--seed", "1", "--store", str(blocker / "c.db"))
    assert out.returncode == 2
    assert "--store: cannot open" in out.stderr and "Traceback" not in out.stderr


def test_a_file_that_is_not_a_database_is_a_usage_error(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    out = hexclass("class", "new", "--teams", "1", "--seed", "1", "--store", str(junk))
    assert out.returncode == 2
    assert "--store: cannot open" in out.stderr and "Traceback" not in out.stderr
    assert junk.read_bytes() == b"this is not sqlite" * 100  # left as it was
