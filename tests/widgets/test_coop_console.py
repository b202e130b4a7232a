"""The instructor console's handlers, driven directly against a temporary store.

A second store connection plays the part of the seat kernels: it submits actions, posts
messages and sends heartbeats, and the console must see them through its follower.
"""

from __future__ import annotations

import csv
import json
import re

import ipywidgets as W
import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, legal_actions
from hexclass.classroom.sessions import Refusal, create_class, open_store
from hexclass.classroom.sessions.debrief import _COLUMNS
from hexclass.widgets.coop_console import (
    InputError,
    InstructorApp,
    NewClassForm,
    instructor_page,
    page_base_url,
    parse_whole,
)

SEED = 5
BASE = "http://class.example:9000"


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "class.db")
    yield s
    s.close()


@pytest.fixture
def made(store):
    return create_class(store, teams=2, seed=SEED, base_url=BASE)


@pytest.fixture
def seats(tmp_path, made):
    """Another connection on the same file: what the seat kernels do."""
    s = open_store(tmp_path / "class.db")
    yield s
    s.close()


@pytest.fixture
def app(store, made):
    a = InstructorApp(store, made.instructor_token, base_url=BASE, poll=False)
    yield a
    a.follower.close()


def game_id(made, team):
    return made.teams[team - 1].game_id


def row(app, team) -> dict[str, str]:
    """The live table's cells for ``team``, tags stripped, keyed by column class."""
    html = app.live.table.value
    m = re.search(rf"<tr data-team='{team}'>(.*?)</tr>", html, re.S)
    assert m, f"no row for team {team}"
    cells = re.findall(r"<td class='hx-(\w+)[^']*'>(.*?)</td>", m.group(1), re.S)
    return {k: " ".join(re.sub(r"<[^>]+>", " ", v).split()) for k, v in cells}


def widgets_in(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from widgets_in(child)


def button(root, description):
    found = [
        w for w in widgets_in(root) if isinstance(w, W.Button) and w.description == description
    ]
    assert found, f"no button {description!r}"
    return found[0]


def enter_d1(store, gid):
    """D enters its first platoon at the first hex the engine allows; returns the action."""
    state = store.state(gid)
    action = next(a for a in legal_actions(state, "D") if isinstance(a, Enter))
    assert store.submit(gid, state_version(store, gid), "D", action)
    return action


def state_version(store, gid):
    return len(store.state(gid).actions)


def end_phase(store, gid):
    assert store.submit(gid, state_version(store, gid), "support", EndPhase("support"))


def play_a_turn(store, gid):
    """Enter D1, end the move and fire phases: the game reaches turn 2 (3 actions)."""
    action = enter_d1(store, gid)
    end_phase(store, gid)
    end_phase(store, gid)
    return action


# --- the live table -------------------------------------------------------------------------------


def test_table_lists_every_team_at_the_start(app):
    for team in (1, 2):
        r = row(app, team)
        assert r["turn"] == "1"
        assert r["phase"] == "Friendly Move Phase"
        assert r["status"] == "running"
        assert r["version"] == "0"
        assert r["seed"] == str(SEED)
        assert "not yet done" in r["waiting"]
    assert "Score (team sees)" in app.live.table.value
    assert "Score projected" in app.live.table.value


def test_table_follows_a_seat_submitting_through_the_store(app, made, seats):
    assert app.poll_once() is False  # nothing happened yet: no redraw
    play_a_turn(seats, game_id(made, 1))
    seats.heartbeat(game_id(made, 1), "D", "browser-1")
    assert app.poll_once() is True
    one, two = row(app, 1), row(app, 2)
    assert (one["turn"], one["phase"], one["version"]) == ("2", "Friendly Move Phase", "3")
    assert one["connected"] == "1/5: D"
    assert (two["turn"], two["version"], two["connected"]) == ("1", "0", "0/5: –")
    assert one["known"] == "0" and one["projected"].isdigit()
    assert app.poll_once() is False


def test_pause_and_resume_one_team_and_the_class(app, made, seats):
    button(app.widget, "Pause team").click()  # the dropdown starts on team 1
    assert row(app, 1)["status"] == "paused"
    assert row(app, 2)["status"] == "running"
    assert "instructor" in row(app, 1)["waiting"]
    refused = seats.submit(game_id(made, 1), 0, "support", EndPhase("support"))
    assert not refused and refused.kind == Refusal.PAUSED
    button(app.widget, "Resume team").click()
    assert row(app, 1)["status"] == "running"

    button(app.widget, "Pause class").click()
    assert [row(app, t)["status"] for t in (1, 2)] == ["paused", "paused"]
    assert "whole class paused" in app.live.header.value
    button(app.widget, "Resume class").click()
    assert [row(app, t)["status"] for t in (1, 2)] == ["running", "running"]
    assert "whole class paused" not in app.live.header.value


def test_ending_a_game_asks_first(app, made, store):
    app.live.team_pick.value = 2
    app.live.on_end()
    assert store.game(game_id(made, 2)).status == "running"
    assert "again" in app.live.end_button.description
    app.live.on_end()
    assert store.game(game_id(made, 2)).status == "ended"
    result = store.state(game_id(made, 2)).result  # ended by the rules: revealed, scored
    verdict = "Victory" if result.won else "Defeat"
    assert row(app, 2)["status"] == f"ended {verdict} : {result.total} points"  # tags stripped
    assert row(app, 2)["known"] == row(app, 2)["projected"] == str(result.total)
    assert f"{verdict}: {result.total} points" in app.live.notice.value
    r = app.replay  # the replay's last step is the instructor's end, in words
    r.load(2)
    assert r.version == 1 and "The instructor" in r.step_html.value
    assert "Score" in r.step_html.value  # the engine's score event
    assert row(app, 1)["status"] == "running"
    assert app.live.end_button.description == "End game"


def test_message_rules_and_bad_limit(app, made, store):
    app.live.mode.value = "written"
    app.live.limit.value = "two"
    app.live.on_messages()
    assert "hx-msg-bad" in app.live.notice.value and "whole number" in app.live.notice.value
    assert store.class_info(made.class_id).settings.message_mode == "free"
    app.live.limit.value = "2"
    app.live.on_messages()
    s = store.class_info(made.class_id).settings
    assert (s.message_mode, s.message_limit) == ("written", 2)
    assert "2 per seat per turn" in app.live.header.value
    app.live.mode.value = "free"
    app.live.on_messages()
    s = store.class_info(made.class_id).settings
    assert (s.message_mode, s.message_limit) == ("free", None)


def test_broadcast_reaches_every_team(app, made, store):
    app.live.broadcast_text.value = "   "
    app.live.on_broadcast()
    assert "hx-msg-bad" in app.live.notice.value
    assert all(store.messages(t.game_id) == [] for t in made.teams)
    app.live.broadcast_text.value = "Ten minutes left"
    button(app.widget, "Send to every team").click()
    for t in made.teams:
        [m] = store.messages(t.game_id)
        assert (m.seat, m.text) == ("instructor", "Ten minutes left")
    assert app.live.broadcast_text.value == ""


def test_a_failing_handler_shows_the_error_inline(app, monkeypatch):
    def broken(team=None):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(app.console, "pause", broken)
    button(app.widget, "Pause class").click()  # no exception escapes
    assert "disk on fire" in app.live.notice.value


# --- the replay ------------------------------------------------------------------------------------


def test_replay_steps_through_versions(app, made, seats):
    gid = game_id(made, 1)
    action = enter_d1(seats, gid)
    assert seats.post_message(gid, "D", "D1 is in")
    end_phase(seats, gid)
    end_phase(seats, gid)
    r = app.replay
    r.load(1)
    assert (r.slider.max, r.version) == (3, 3)
    label = r.state.label(action.to)

    r.go(1)
    assert r.view.state.units["D1"].hex == action.to
    assert "version 1 of 3" in r.caption.value
    assert "Enter" in r.step_html.value and label in r.step_html.value
    assert "D1 is in" in r.seat_html.value  # sent before the next action

    r.go(2)
    assert "Friendly Fire Phase" in r.step_html.value  # the event EndPhase produced

    r.go(0)
    assert r.view.state.units["D1"].hex is None
    assert "the start" in r.step_html.value
    assert "D1 is in" not in r.seat_html.value  # not yet sent
    r.go(-4)
    assert r.version == 0
    r.go(99)
    assert r.version == 3


def test_replay_seat_view_rings_that_seats_platoons(app, made, seats):
    enter_d1(seats, game_id(made, 1))
    r = app.replay
    r.load(1)
    r.seat_pick.value = "D"
    assert r.view.hl.own_units == {"D1", "D2", "D3"}
    assert "D Company" in r.seat_html.value and "D1 " in r.seat_html.value
    r.seat_pick.value = "armour"
    assert r.view.hl.own_units == {"A1", "A2", "A3"}
    r.seat_pick.value = r.seat_pick.options[0][1]  # everyone
    assert r.view.hl.own_units == frozenset()


def test_replay_of_another_team(app, made, seats):
    play_a_turn(seats, game_id(made, 1))
    app.replay.team_pick.value = 2
    assert app.replay.slider.max == 0
    assert "Team 2" in app.replay.caption.value


def test_the_replay_follows_the_live_game(app, made, seats):
    gid = game_id(made, 1)
    r = app.replay
    r.load(1)
    assert (r.slider.max, r.version) == (0, 0)
    enter_d1(seats, gid)  # a seat kernel plays; the console only polls
    assert seats.post_message(gid, "D", "D1 is in")
    app.poll_once()
    assert (r.slider.max, r.version) == (1, 1)  # at the end: it moved on with the game
    assert "D1 is in" in r.seat_html.value  # the chat beside the replay
    r.go(0)
    end_phase(seats, gid)
    app.poll_once()
    assert (r.slider.max, r.version) == (2, 0)  # looking back: it stays where it was


# --- the debrief -----------------------------------------------------------------------------------


def test_debrief_panel_shows_how_the_teams_fought(app, made, seats):
    play_a_turn(seats, game_id(made, 1))
    d = app.debrief
    d.build()
    html = d.body.value
    for title in ("Results", "Who acted and who waited", "The biggest swings", "Fires taken"):
        assert title in html
    assert html.count("data:image/png;base64,") == 1  # the score line; no fire: no luck chart
    assert "no fires yet" in html
    for raw in ("score_known", "pin_luck", "game_id", "True", "False"):
        assert raw not in html  # raw tables only in the exports
    side = d.side_by_side.value
    assert "At the end of turn 1" in side and "Score the team sees" in side
    assert "Team 1" in side and "Team 2" in side


def test_debrief_exports_csv_and_json_next_to_the_store(app, made, seats, tmp_path):
    play_a_turn(seats, game_id(made, 1))
    d = app.debrief
    d.build()
    assert "Results" in d.body.value and "<table" in d.body.value
    assert "data:image/png;base64," in d.body.value
    paths = d.export_csv()
    folder = tmp_path / f"class{made.class_id}-debrief"
    assert {p.parent for p in paths} == {folder}
    by_name = {p.name.split("-", 1)[1]: p for p in paths}
    with open(by_name["teams.csv"]) as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == _COLUMNS["teams"]
    assert [(r["team"], r["actions"]) for r in rows] == [("1", "3"), ("2", "0")]
    with open(by_name["turns.csv"]) as f:
        assert next(csv.reader(f)) == _COLUMNS["turns"]
    assert d.downloads.value.count("data:text/csv;base64,") == 7
    path = d.export_json()
    data = json.loads(path.read_text())
    assert path.parent == folder
    assert set(data["tables"]) == {
        "teams", "turns", "fires", "activity", "seats", "actions", "messages"
    }  # fmt: skip
    assert [a["type"] for a in data["tables"]["actions"]] == ["Enter", "EndPhase", "EndPhase"]
    assert "data:application/json;base64," in d.downloads.value


def test_debrief_in_words_with_a_joint_fire(tmp_path):
    from hexclass.classroom.combined_arms import DeclareFire, ResolveFire
    from hexclass.classroom.combined_arms.scenarios import load_position

    store = open_store(tmp_path / "fire.db")
    start = load_position("sample-turn11-fire-lane").to_dict()
    made = create_class(store, teams=2, seed=3, start=start, base_url=BASE)
    g = made.teams[0].game_id
    target = store.state(g).board.hex_at("6a")
    for seat, action in (
        ("armour", DeclareFire("armour", target, ("A2",), False)),
        ("D", DeclareFire("D", target, ("D1",), False)),
        ("D", ResolveFire("D")),
    ):
        assert store.submit(g, store.version(g), seat, action)
    app = InstructorApp(store, made.instructor_token, base_url=BASE, poll=False)
    try:
        app.debrief.build()
        html = app.debrief.body.value
        assert html.count("data:image/png;base64,") == 2  # the score line and the fire chart
        fires = re.search(r"data-table='fires'>(.*?)</table>", html, re.S).group(1)
        assert "armour, D" in fires and "A2, D1 → 6a" in fires
        odds = app.debrief.debrief["fires"]["pin_odds"].iloc[0]
        assert f"{odds:.0%}" in fires and str(odds) not in html  # a percentage, not 0.6667
        assert "1 fire at" in html and "were expected" in html  # judgement and luck in words
        assert re.search(r"\d\d:\d\d–\d\d:\d\d", html)  # clock times
        assert not re.search(r"\b1[7-9]\d{8}\b", html)  # never a Unix timestamp
    finally:
        app.follower.close()
        store.close()


def test_debrief_with_no_turn_played_says_so(app):
    app.debrief.build()
    html = app.debrief.body.value
    assert "no turn played yet" in html and "no fires yet" in html
    assert "data:image/png" not in html  # no chart drawn around nothing
    assert app.debrief.side_by_side.value == ""


# --- tokens ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["seat", "unknown", "malformed", "missing", "empty"])
def test_wrong_tokens_are_refused_without_controls(store, made, which):
    token = {
        "seat": made.teams[1].seats[2].token,
        "unknown": "A" * 32,
        "malformed": "<script>",
        "missing": None,
        "empty": "",
    }[which]
    a = InstructorApp(store, token, poll=False)
    assert a.console is None and a.refusal
    assert isinstance(a.widget, W.HTML)
    assert "does not open the instructor console" in a.widget.value
    assert "<script>" not in a.widget.value
    if which == "seat":
        assert "seat link" in a.refusal


def test_page_without_token_is_the_new_class_form(store, made):
    w = instructor_page({}, store=store, base_url=BASE)
    assert button(w, "Create the class")
    assert made.instructor_token not in repr(w)  # never lists existing classes


def test_page_with_a_seat_token_is_a_refusal(store, made):
    w = instructor_page({"token": made.teams[0].seats[0].token}, store=store, base_url=BASE)
    assert isinstance(w, W.HTML) and "seat link" in w.value
    assert not any(isinstance(x, W.Button) for x in widgets_in(w))


def test_page_with_the_instructor_token_is_the_console(store, made):
    w = instructor_page({"token": made.instructor_token}, store=store, base_url=BASE)
    assert "hexclass-console" in w._dom_classes


# --- the New class form ----------------------------------------------------------------------------


def test_new_class_form_refuses_bad_input_inline(store):
    form = NewClassForm(store, BASE)
    for teams, seed, limit, mode in (
        ("0", "1", "", "free"),
        ("many", "1", "", "free"),
        ("2", "-3", "", "free"),
        ("2", "1", "3", "free"),  # a limit needs written messages
        ("2", "1", "x", "written"),
    ):
        form.teams.value, form.seed.value, form.limit.value = teams, seed, limit
        form.mode.value = mode
        form.on_create()
        assert "hx-msg-bad" in form.notice.value, (teams, seed, limit, mode)
    assert store.classes() == []
    assert not form.create_button.disabled


def test_new_class_form_creates_the_class_and_lists_every_link(store):
    form = NewClassForm(store, BASE)
    form.teams.value, form.seed.value = "3", "40"
    form.seed_mode.value = "different"
    form.seats.value = 6
    form.mode.value, form.limit.value = "written", "1"
    form.easier.value = True
    button(form.widget, "Create the class").click()
    [info] = store.classes()
    games = store.games(info.id)
    assert [g.seed for g in games] == [40, 41, 42]
    assert all(len(g.layout) == 6 and g.options.easier_game for g in games)
    assert (info.settings.message_mode, info.settings.message_limit) == ("written", 1)
    text = next(w for w in widgets_in(form.widget) if isinstance(w, W.Textarea)).value
    links = form.links
    urls = [s.url for t in links.teams for s in t.seats]
    assert len(urls) == 18 and all(u.startswith(BASE + "/") for u in urls)
    for u in urls:
        assert u in text
    # the copyable handouts carry neither the console link nor a seed
    assert links.instructor_token not in text and "seed" not in text.lower()
    html = "".join(w.value for w in widgets_in(form.widget) if isinstance(w, W.HTML))
    assert all(f"href='{u}'" in html for u in urls)
    assert f"href='{links.instructor_url}'" in html
    assert form.create_button.disabled  # a second click cannot make a second class


def test_new_class_form_with_an_empty_seed_draws_a_random_one(store):
    form = NewClassForm(store, BASE)
    assert form.seed.value == ""
    form.teams.value = "2"
    button(form.widget, "Create the class").click()
    [info] = store.classes()
    seeds = [g.seed for g in store.games(info.id)]
    assert seeds[0] == seeds[1] and seeds[0] >= 0
    html = "".join(w.value for w in widgets_in(form.widget) if isinstance(w, W.HTML))
    assert f"(seed {seeds[0]})" in html  # the console shows it to the instructor


def test_parse_whole():
    assert parse_whole(" 12 ", "Teams", 1, 60) == 12
    assert parse_whole("", "Limit", 0, 9, blank=None) is None
    for bad in ("", "1.5", "-1", "61", "ten"):
        with pytest.raises(InputError, match="Teams"):
            parse_whole(bad, "Teams", 1, 60)


def test_page_base_url_from_voila_env():
    env = {"VOILA_REQUEST_URL": "http://10.0.0.5:8866/voila/render/x.ipynb?token=t",
           "VOILA_BASE_URL": "/"}  # fmt: skip
    assert page_base_url(env) == "http://10.0.0.5:8866"
    assert page_base_url({"SERVER_NAME": "lab", "SERVER_PORT": "80"}) == "http://lab:80"
    assert page_base_url({}) == "http://127.0.0.1:8866"


def test_new_class_form_creates_an_enemy_player_class(store):
    """CA p.7: five attacker seats and a student defender, with a handicap bonus."""
    form = NewClassForm(store, BASE)
    assert form.handicap.layout.display == "none"  # shown only when a student defends
    form.teams.value, form.seed.value = "2", "7"
    form.defence.value = "player"
    assert form.handicap.layout.display == ""
    form.seats.value, form.handicap.value = 5, "2"
    button(form.widget, "Create the class").click()
    [info] = store.classes()
    games = store.games(info.id)
    assert all(g.options.enemy_player and g.options.handicap == 2 for g in games)
    assert [s.seat for s in form.links.teams[0].seats][-1] == "defender"
    assert len(form.links.teams[0].seats) == 6


def test_new_class_form_refuses_bidding_for_a_team(store):
    form = NewClassForm(store, BASE)
    form.teams.value = "1"
    form.defence.value = "player"
    form.seats.value, form.bid.value = 5, True
    form.on_create()
    assert "Defenders: bidding is for two players" in form.notice.value
    assert store.classes() == []
    form.seats.value = 1
    form.on_create()
    [info] = store.classes()
    assert [s.seat for s in form.links.teams[0].seats] == ["player1", "player2"]


def test_the_console_shows_each_defenders_deployment_live(store, tmp_path):
    """The instructor sees the student defender's secret deployment (CA p.7) as it is
    made; the summary row that goes to CSV does not carry it."""
    import random

    from hexclass.classroom.combined_arms.defender import ai_choice
    from hexclass.classroom.sessions import open_console
    from hexclass.classroom.sessions.roles import class_table
    from hexclass.widgets.coop_console import LivePanel

    layout, options = class_table(5, enemy_player=True)
    links = create_class(store, 1, 11, seats=layout, options=options)
    console = open_console(store, links.instructor_token)
    panel = LivePanel(console, console.follower())
    panel.poll_once()
    panel.refresh()
    assert "secret deployments" not in panel.table.value  # nothing deployed yet
    game_id = links.teams[0].seats[0].game_id
    state = store.state(game_id)
    deploy = ai_choice(state, "defender", random.Random(1))
    referee = open_store(store.path)  # the referee's own connection, as in another process
    assert referee.submit(game_id, len(state.actions), "defender", deploy)
    referee.close()
    panel.poll_once()
    first = sorted(state.label(h) for h in deploy.platoons)[0]
    assert "Team 1</b>: real platoons at" in panel.table.value and first in panel.table.value
    assert all("deployment" not in k for k in console.follower().table()[0])
