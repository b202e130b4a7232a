"""The facade: creating classes, joining by token, the console, replays and the debrief."""

import json

import pandas as pd
import pytest

from hexclass.classroom.combined_arms import EndPhase, legal_actions
from hexclass.classroom.sessions import (
    AccessRefused,
    InstructorConsole,
    SeatSession,
    class_links,
    create_class,
    default_store_path,
    join,
    open_console,
    open_seat,
)
from hexclass.classroom.sessions.session import team_seeds
from hexclass.classroom.sessions.store import Refusal

from .helpers import first_enter, replayed


def test_create_class_gives_every_link(store):
    made = create_class(store, teams=3, seed=12, seats=6, base_url="https://class.example/")
    assert len(made.teams) == 3
    assert all(len(t.seats) == 6 for t in made.teams)
    assert made.instructor_url == (
        "https://class.example/voila/render/classroom/pages/instructor.ipynb?token="
        + made.instructor_token
    )
    seat = made.teams[2].seats[5]
    assert seat.seat == "commander"
    assert seat.url.endswith(f"/voila/render/classroom/pages/seat.ipynb?token={seat.token}")
    data = made.to_json()
    assert json.loads(json.dumps(data)) == data
    assert len({s["token"] for t in data["teams"] for s in t["seats"]}) == 18
    text = made.as_text()
    assert all(s.url in text for t in made.teams for s in t.seats)
    assert made.instructor_token not in text  # handouts never carry the console link
    assert made.instructor_url in made.instructor_text()
    assert "seed" not in json.dumps(data) + text + made.instructor_text()
    # the same links can be printed again later
    again = class_links(store, made.class_id, "https://class.example")
    assert again.to_json()["teams"] == data["teams"]


def test_one_seed_means_the_same_battle_for_every_team(store):
    made = create_class(store, teams=3, seed=21)
    snaps = [store.state(t.game_id).snapshot() for t in made.teams]
    assert snaps[0] == snaps[1] == snaps[2]
    other = create_class(store, teams=2, seed=21, different_seeds=True)
    assert [t.seed for t in other.teams] == [21, 22]
    assert store.state(other.teams[0].game_id).snapshot() == snaps[0]
    assert store.state(other.teams[1].game_id).snapshot() != snaps[0]
    given = create_class(store, teams=2, seeds=[5, 9])
    assert [t.seed for t in given.teams] == [5, 9]


def test_without_a_seed_every_class_gets_a_random_63_bit_one(store):
    seeds = [create_class(store, teams=2).teams[0].seed for _ in range(4)]
    assert len(set(seeds)) == 4 and all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**40  # four draws below 2**40 out of 2**63: practically never
    made = create_class(store, teams=3, different_seeds=True)
    assert len({t.seed for t in made.teams}) == 3  # independent, not seed + i
    rerun = create_class(store, teams=2, seed=seeds[0])
    assert [t.seed for t in rerun.teams] == [seeds[0]] * 2


def test_a_team_handout_holds_only_that_team(store):
    made = create_class(store, teams=3)
    sheet = made.team_handout(2)
    assert all(s.token in sheet for s in made.teams[1].seats)
    others = [s.token for t in (made.teams[0], made.teams[2]) for s in t.seats]
    assert not any(tok in sheet for tok in others) and made.instructor_token not in sheet
    assert len(made.student_lines()) == 15
    with pytest.raises(KeyError, match="no team 4"):
        made.team_handout(4)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"teams": 0, "seed": 1}, "teams: expected a whole number from 1 to 12"),
        ({"teams": 2, "seed": 1, "seeds": [1, 2]}, "give either seed"),
        ({"teams": 2, "seeds": [1]}, "expected 2 seeds"),
        ({"teams": 2, "seeds": [1, -1]}, r"seeds\[1\]: expected a whole number"),
    ],
)
def test_bad_class_arguments_name_the_field(kwargs, words):
    with pytest.raises(ValueError, match=words):
        team_seeds(**kwargs)


def test_a_seat_token_opens_that_seat_and_nothing_else(store, made):
    link = made.teams[1].seats[2]
    seat = open_seat(store, link.token)
    assert isinstance(seat, SeatSession)
    assert (seat.team, seat.game_id, seat.seat) == (2, link.game_id, "E")
    assert isinstance(join(store, link.token), SeatSession)
    with pytest.raises(AccessRefused, match="seat link") as err:
        open_console(store, link.token)
    assert err.value.kind == "wrong_page"


def test_the_instructor_token_opens_the_console_never_a_seat(store, made):
    console = open_console(store, made.instructor_token)
    assert isinstance(console, InstructorConsole) and console.class_id == made.class_id
    assert isinstance(join(store, made.instructor_token), InstructorConsole)
    with pytest.raises(AccessRefused, match="instructor's link") as err:
        open_seat(store, made.instructor_token)
    assert err.value.kind == "wrong_page"


@pytest.mark.parametrize(
    "token, kind",
    [(None, "missing"), ("", "missing"), ("nope", "unknown"), ("A" * 32, "unknown")],
)
def test_wrong_or_missing_tokens_are_refused_clearly(store, made, token, kind):
    for opener in (join, open_seat, open_console):
        with pytest.raises(AccessRefused) as err:
            opener(store, token)
        assert err.value.kind == kind
        assert "link" in str(err.value)


def test_a_seat_session_acts_only_as_its_own_seat(store, made):
    d = open_seat(store, made.teams[0].seats[1].token)
    state = d.follower().state
    a = first_enter(state, "D")
    assert d.submit(0, a).ok
    e_action = first_enter(store.state(d.game_id), "E")
    r = d.submit(1, e_action)
    assert r.kind is Refusal.WRONG_SEAT
    assert d.legal_actions(store.state(d.game_id)) == legal_actions(store.state(d.game_id), "D")
    view = d.view(store.state(d.game_id))
    assert view["seat"] == "D" and view["version"] == 1


def test_seat_sessions_message_limit_and_commander_only_decisions(store, made):
    seats = {s.seat: open_seat(store, s.token) for s in made.teams[0].seats}
    console = open_console(store, made.instructor_token)
    assert seats["D"].messages_left(1) is None
    assert console.set_messages("written", 1).ok
    assert seats["D"].messages_left(1) == 1
    assert seats["D"].say("D1 to the wood").ok
    assert seats["D"].messages_left(1) == 0
    assert seats["D"].say("again").kind is Refusal.MESSAGE_LIMIT
    req = seats["E"].request_turn("E2 first")
    assert seats["D"].decide(req.value, True).kind is Refusal.NOT_COMMANDER
    assert seats["support"].is_commander and seats["support"].decide(req.value, True).ok


def test_console_pause_resume_end_and_summaries(store, made):
    console = open_console(store, made.instructor_token)
    g1, g2 = (t.game_id for t in made.teams)
    assert console.pause(2).ok
    assert [s.status for s in console.summaries()] == ["running", "paused"]
    assert console.pause().ok
    assert [s.status for s in console.summaries()] == ["paused", "paused"]
    assert console.resume().ok  # the class and every paused team
    assert [s.status for s in console.summaries()] == ["running", "running"]
    assert console.end(1).ok
    assert store.submit(g1, 0, "support", EndPhase("support")).kind is Refusal.ENDED
    assert store.submit(g2, 0, "support", EndPhase("support")).ok
    rows = [s.to_row() for s in console.summaries()]
    assert [(r["team"], r["status"], r["phase"]) for r in rows] == [
        (1, "ended", "over"),  # ended by the rules: revealed and scored
        (2, "running", "friendly_fire"),
    ]
    assert {r["score_projected"] for r in rows} != {None}
    results = console.broadcast("five minutes left")
    assert all(r.ok for r in results)
    assert store.messages(g2)[-1].seat == "instructor"
    with pytest.raises(KeyError, match="no team 9"):
        console.pause(9)


def _play_some(store, game, n=40):
    """Every seat in turn takes its first legal non-ending action; the commander ends phases."""
    seats = ["armour", "D", "E", "F", "support"]
    for i in range(n):
        state = store.state(game)
        if state.over:
            return
        seat = seats[i % 5]
        acts = [a for a in legal_actions(state, seat) if type(a).__name__ not in ("EndGame",)]
        busy = [a for a in acts if not isinstance(a, EndPhase)]
        action = busy[0] if busy and seat != "support" else EndPhase("support")
        if seat != "support" and not busy:
            continue
        assert store.submit(game, len(state.actions), seat, action).ok


def test_replay_step_by_step_matches_the_live_game(store, made):
    console = open_console(store, made.instructor_token)
    g = made.teams[0].game_id
    _play_some(store, g)
    rp = console.replay(1)
    n = len(rp)
    assert n == store.version(g) > 10
    for v in (0, 1, n // 2, n - 1, n, 3):  # jumping about, backwards too
        assert rp.state_at(v).snapshot() == store.state(g, v).snapshot()
    walked = [state.snapshot() for _, state in rp.walk()]
    assert walked[-1] == store.state(g).snapshot() and len(walked) == n + 1
    views = rp.views_at(n)
    assert set(views) == {"armour", "D", "E", "F", "support"}
    assert views["D"]["my_units"] == ["D1", "D2", "D3"]
    assert rp.describe(0) == "the start" and rp.describe(1).startswith("v1 turn 1 ")


def test_debrief_tables_and_exports(store, made, tmp_path):
    g1, g2 = (t.game_id for t in made.teams)
    _play_some(store, g1, 60)
    _play_some(store, g2, 25)
    store.post_message(g1, "D", "go")
    db = open_console(store, made.instructor_token).debrief()
    teams = db["teams"]
    assert list(teams["team"]) == [1, 2]
    assert list(teams["actions"]) == [store.version(g1), store.version(g2)]
    turns = db["turns"]
    assert turns.groupby("team")["actions"].sum().tolist() == [store.version(g1), store.version(g2)]
    t1 = turns[turns.team == 1]
    assert list(t1["turn"]) == list(range(1, len(t1) + 1))
    last = replayed(store, g1)
    assert t1["losses"].iloc[-1] == last.losses
    assert db["seats"].query("team == 1 and seat == 'D'")["messages"].item() == 1
    assert len(db["actions"]) == store.version(g1) + store.version(g2)
    paths = db.export_csv(tmp_path / "out")
    assert sorted(p.name for p in paths) == sorted(
        f"class{made.class_id}-{n}.csv"
        for n in ("teams", "turns", "fires", "activity", "seats", "actions", "messages")
    )
    back = pd.read_csv(tmp_path / "out" / f"class{made.class_id}-turns.csv")
    assert back["score_projected"].tolist() == turns["score_projected"].tolist()
    p = db.export_json(tmp_path / "out" / "debrief.json")
    data = json.loads(p.read_text())
    assert len(data["tables"]["actions"]) == len(db["actions"])
    from hexclass.classroom.combined_arms.game import replay

    assert replay(data["games"]["1"]).snapshot() == last.snapshot()
    ax = db.plot("score_known")
    assert len(ax.get_lines()) == 2
    with pytest.raises(KeyError, match="metric"):
        db.plot("happiness")


def test_default_store_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXCLASS_STORE", str(tmp_path / "x.db"))
    assert default_store_path() == tmp_path / "x.db"
    monkeypatch.delenv("HEXCLASS_STORE")
    assert default_store_path().parts[-2:] == (".hexclass", "class.db")
