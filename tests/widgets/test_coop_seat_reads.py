"""What a seat page reads (issue 22), each seat in its own "kernel" over one SQLite store.

A joint fire's every roll on every seat, the message line's priority, a pause that is
taken back on resume, and the enemy-phase report rebuilt from the log on a reload.
"""

from __future__ import annotations

import re

from hexclass.classroom.combined_arms import DeclareFire, EndPhase, Enter, legal_actions
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.widgets.coop_seat import SeatApp

JOINT_SEED = 2  # on the fire-lane position, A1 rolls 6 (pinned) and E2 rolls 2 (no effect)


def make(kernels, **kw):
    return kernels.team(**kw)  # tests/widgets/conftest.py


def line(seat: SeatApp) -> str:
    """The seat's own message line (without the team line under it)."""
    m = re.search(r'<div class="hx-line">(.*?)</div>', seat.app.message.value, re.S)
    return m.group(1) if m else re.sub(r"<[^>]+>", "", seat.app.message.value)


def hex_named(state, label):
    return next(h for h in state.enemy if state.label(h) == label)


def enters(seat: SeatApp, avoid=()):
    return [
        a
        for a in legal_actions(seat.game.state, seat.session.seat)
        if isinstance(a, Enter) and a.to not in avoid
    ]


def test_a_joint_fire_shows_every_firers_roll_on_every_seat(kernels):
    tokens = make(
        kernels, seed=JOINT_SEED, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    armour, e, d = kernels(tokens["armour"]), kernels(tokens["E"]), kernels(tokens["D"])
    target = hex_named(armour.game.state, "6i")
    armour.app.group, armour.app.target = ["A1"], target
    armour.app.on_commit_fire(keep_open=True)  # A1 committed; E may join (CA p.7)
    e.poll_once()
    e.app.group, e.app.target = ["E2"], target
    e.app.on_commit_fire()  # E2 joins and the declaration is rolled
    rolls = [x for x in e.game.state.events if x.kind == "roll" and x.data.get("unit")]
    assert [r.data["outcome"] for r in rolls[-2:]] == [["target pinned"], ["no effect"]]
    for seat in (armour, d):
        seat.poll_once()
    for seat in (armour, e, d):
        text = seat.app.message.value
        assert "A1 rolls 6, modified 3: target pinned" in text, (seat.session.seat, text)
        assert "E2 rolls 2, modified -3: no effect" in text, (seat.session.seat, text)
        assert "Fire on 6i by A1, E2: target pinned" in text, (seat.session.seat, text)
    # both committing seats read it as their own result, not as a teammate's news
    assert "A1 rolls 6" in line(armour) and "A1 rolls 6" in line(e)


def test_a_teammates_move_does_not_overwrite_my_confirmation(kernels):
    tokens = make(kernels)
    d, e = kernels(tokens["D"]), kernels(tokens["E"])
    mine = enters(d)[0]
    assert d.app.act(mine)
    said = line(d)
    assert f"{mine.unit} enters" in said
    theirs = enters(e, avoid={mine.to})[0]
    assert e.app.act(theirs)
    d.poll_once()  # E's move arrives 50 ms later
    assert line(d) == said  # my confirmation stays on my line ...
    assert f"{theirs.unit} enters" in d.app.message.value  # ... E's move is under it
    # a refusal to me replaces it; my next own result replaces the refusal
    d.app.on_board_click(theirs.to)
    assert "belongs to E Company" in line(d) and "hx-msg-bad" in d.app.message.value
    e.poll_once()
    other = enters(d, avoid={mine.to, theirs.to})[0]
    assert d.app.act(other) and f"{other.unit} enters" in line(d)


def test_a_teammates_move_shows_on_a_line_that_holds_nothing_of_mine(kernels):
    tokens = make(kernels)
    d, e = kernels(tokens["D"]), kernels(tokens["E"])
    theirs = enters(e)[0]
    assert e.app.act(theirs)
    d.poll_once()
    assert f"Team: {theirs.unit} enters" in line(d)


def test_after_the_enemy_phase_the_line_shows_what_mattered(kernels):
    tokens = make(
        kernels, seed=JOINT_SEED, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    boss, d = kernels(tokens["support"]), kernels(tokens["D"])
    assert boss.app.act(EndPhase("support"))
    state = boss.game.state
    enemy = [x for x in state.events if x.phase == "enemy"]
    assert enemy, "the enemy phase was played"
    d.poll_once()
    for seat in (boss, d):
        said = line(seat)
        assert said.startswith("Enemy phase, turn 11, what mattered"), said
        assert enemy[-1].text not in said or enemy[-1].kind != "enemy"
        html = seat.app.enemy_html.value
        assert "what mattered" in html and html.index("hx-summary") < html.index("<ol>")


def test_resume_takes_back_the_paused_refusal(kernels):
    tokens = make(kernels)
    d = kernels(tokens["D"])
    store = d.session.store
    store.set_game_status(d.session.game_id, "paused")
    d.poll_once()
    assert not d.app.act(enters(d)[0])
    assert "paused" in line(d)
    store.set_game_status(d.session.game_id, "running")
    d.poll_once()
    assert "paused" not in line(d) and "paused" not in d.header.value
    assert "resumed" in line(d)
    assert d.app.act(enters(d)[0])


def test_a_reloaded_page_shows_the_last_enemy_phase(kernels):
    tokens = make(
        kernels, seed=JOINT_SEED, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    boss = kernels(tokens["support"])
    assert boss.app.act(EndPhase("support"))
    report = boss.app.enemy_html.value
    assert "turn 11" in report
    again = kernels(tokens["D"])  # a page opened (or reloaded) after the enemy phase
    assert again.app.enemy_html.value == report
    assert "has not been played" not in again.app.enemy_html.value


def test_a_hover_caption_goes_when_the_phase_changes(kernels):
    tokens = make(kernels)
    d, boss = kernels(tokens["D"]), kernels(tokens["support"])
    d.app.on_hover(enters(d)[0].to)
    assert d.app.hover_html.value
    assert boss.app.act(EndPhase("support"))
    d.poll_once()
    assert d.app.hover_html.value == ""


def test_fire_declared_alone_still_reads_committed(kernels):
    tokens = make(
        kernels, seed=JOINT_SEED, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    armour = kernels(tokens["armour"])
    armour.app.act(
        DeclareFire("armour", hex_named(armour.game.state, "6i"), ("A1",), resolve=False)
    )
    assert "committed against 6i" in line(armour)


def test_a_page_whose_browser_stops_ticking_leaves_and_comes_back(kernels):
    tokens = make(kernels)
    d = kernels(tokens["D"])
    store, game = d.session.store, d.session.game_id
    now = [100.0]
    d.clock = lambda: now[0]

    def wait(seconds):  # the page's loop looks every 50 ms; 0.5 s steps will do
        for _ in range(int(seconds / 0.5)):
            now[0] += 0.5
            d.poll_once()

    d.poll_once()
    assert d.pulse.playing  # the page tells the browser's timer to run
    d.pulse.value += 1  # a tick from the browser
    assert "D" in store.connected(game)
    wait(2.5)
    assert "D" in store.connected(game) and not d.away  # a slow tick is not a closed page
    wait(1.0)  # 3.5 s without a tick: the browser has gone
    assert d.away and "D" not in store.connected(game)
    wait(10)
    assert "D" not in store.connected(game)  # no heartbeat while away
    d.pulse.value += 1  # the browser is back (a network blip)
    assert not d.away and "D" in store.connected(game)


def test_a_busy_kernel_does_not_take_queued_ticks_for_a_closed_page(kernels):
    tokens = make(kernels)
    d = kernels(tokens["D"])
    now = [100.0]
    d.clock = lambda: now[0]
    d.poll_once()
    d.pulse.value += 1
    now[0] += 6.0  # the kernel was busy for 6 s (the coach thinking), ticks queued
    d.poll_once()
    assert not d.away and "D" in d.session.store.connected(d.session.game_id)


def test_a_page_that_never_ticked_keeps_its_heartbeat(kernels):
    tokens = make(kernels)
    d = kernels(tokens["D"])
    now = [100.0]
    d.clock = lambda: now[0]
    for _ in range(5):
        now[0] += 4.0
        d.poll_once()
    assert not d.away and "D" in d.session.store.connected(d.session.game_id)


def test_an_ended_game_reads_the_engines_score_on_every_seat(kernels):
    from hexclass.classroom.combined_arms import EndGame

    tokens = make(
        kernels, seed=JOINT_SEED, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    boss, d = kernels(tokens["support"]), kernels(tokens["D"])
    assert boss.app.act(EndPhase("support"))  # into turn 12's move phase
    d.poll_once()
    assert boss.app.act(EndGame("support")), line(boss)
    boss.poll_once()  # the page's loop redraws the team panel after its own order
    d.poll_once()
    result = d.game.state.result
    assert result is not None
    verdict = "Victory" if result.won else "Defeat"
    for seat in (boss, d):
        assert f"Score {result.total}" in line(seat), line(seat)
        assert f"{verdict}, {result.total} points" in seat.header.value


def test_chat_caught_up_before_an_order_is_drawn(kernels):
    tokens = make(kernels)
    d, e = kernels(tokens["D"]), kernels(tokens["E"])
    assert e.session.say("E1 going left")
    assert d.app.act(enters(d)[0])  # the order's catch-up reads E's message first
    assert "E1 going left" in d.chat_log.value


def test_what_mattered_is_read_from_the_events_data():
    from hexclass.classroom.combined_arms import new_game
    from hexclass.classroom.combined_arms.state import Event
    from hexclass.widgets.ca_reports import mattered

    state = new_game(3)
    h = next(iter(state.enemy))
    where = state.label(h)
    events = [
        Event(11, "enemy", "enemy", f"{where}: spent counters become fresh", {"hex": h}),
        Event(11, "enemy", "reveal", "…", {"target": h, "what": "ATGs", "outcome": ["real ATGs"]}),
        Event(
            11,
            "enemy",
            "roll",
            "miss",
            {"purpose": "enemy fire on infantry", "total": 1, "need": 2},
        ),
        Event(
            11,
            "enemy",
            "roll",
            "a hit",
            {"purpose": "enemy fire on infantry", "total": 3, "need": 2},
        ),
        Event(11, "enemy", "losses", "infantry losses 0 -> 2 (+2)", {}),
    ]
    assert mattered(state, events) == [
        f"{where} ATGs revealed: real ATGs",
        "a hit",
        "infantry losses 0 -> 2 (+2)",
    ]


def test_a_seat_busy_with_its_own_click_still_sees_every_roll_of_a_teammates_fire(kernels):
    start = load_position("sample-turn11-fire-lane").to_dict()
    tokens = make(kernels, seed=JOINT_SEED, start=start)
    armour, e, d = kernels(tokens["armour"]), kernels(tokens["E"]), kernels(tokens["D"])
    target = hex_named(armour.game.state, "6i")
    d.app.on_board_click(d.game.state.units["D1"].hex)  # D gathers a firer: its own line
    said = line(d)
    assert "D1" in said
    armour.app.act(DeclareFire("armour", target, ("A1",), resolve=False))
    e.poll_once()
    assert e.app.act(DeclareFire("E", target, ("E2",), resolve=True))
    d.poll_once()
    assert line(d) == said  # D's own line stays ...
    text = d.app.message.value  # ... and the team line has the whole fire
    assert "A1 rolls 6, modified 3: target pinned" in text
    assert "E2 rolls 2, modified -3: no effect" in text
