"""Five students on five seat pages share one live game (CA p.7), in headless Chromium.

The class is created in the server's store; each seat opens its own link in its own
browser context (its own Voilà kernel). The test reads the store for the true game
state and checks that every other seat's page shows each move as it happens.
"""

from __future__ import annotations

import re

import pytest

from hexclass.classroom.combined_arms import DeclareFire, check
from hexclass.classroom.sessions import GameFollower, create_class, open_store

from .conftest import (
    button,
    click_hex,
    open_page,
    painted_fraction,
    wait_for_board,
    wait_for_widgets,
    wait_message,
    wait_until,
)

pytestmark = pytest.mark.browser
SEED = 21
SEATS = ("armour", "D", "E", "F", "support")


@pytest.fixture
def team(hexclass_server, browser, artifacts):
    store = open_store(hexclass_server.store)
    links = create_class(store, teams=1, seed=SEED, base_url=hexclass_server.base).to_json()
    seats = {s["seat"]: s for s in links["teams"][0]["seats"]}
    pages, contexts = {}, []
    for name in SEATS:
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(ctx)
        pg = ctx.new_page()
        open_page(pg, seats[name]["url"])
        pages[name] = pg
    for pg in pages.values():
        wait_for_board(pg, ".hexclass-seat .hexclass-ca-app canvas")
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    contexts.append(ctx)
    console = ctx.new_page()
    hexclass_server.give_key(console)  # the console needs the instructor key
    open_page(console, links["instructor"]["url"])
    wait_for_widgets(console)
    console.wait_for_selector(".hx-teams tr[data-team='1']", timeout=90_000)
    pages_with_console = dict(pages)
    follower = GameFollower(store, links["teams"][0]["game_id"])
    yield pages_with_console, follower, links, console
    follower.close()
    for ctx in contexts:
        ctx.close()


def state(follower):
    follower.poll(force=True)
    return follower.state


def everyone_sees(pages, actor, pattern):
    """Each other seat's page reports the move (its board was redrawn with it)."""
    for name, pg in pages.items():
        if name != actor:
            wait_message(pg, pattern)


def enter(pages, follower, seat, uid, h):
    pg = pages[seat]
    button(pg, uid)
    wait_message(pg, f"{uid} selected")
    click_hex(pg, h)
    label = state(follower).label(h)
    wait_message(pg, re.escape(f"{uid} enters at {label}"))
    everyone_sees(pages, seat, re.escape(f"{uid} enters at {label}"))


def moved_on(follower, version: int) -> bool:
    """The store holds an action past ``version`` (read afresh)."""
    state(follower)
    return follower.version > version


def end_phase(pages, follower):
    """The commander ends the phase and answers every choice until the next phase stands.

    Waits for the click to reach the store first: read before it, a fire phase would look
    already ended (the loop below stops at a fire phase or a new turn).
    """
    before, version = state(follower).turn, follower.version
    button(pages["support"], "End phase (e)")
    wait_until(lambda: moved_on(follower, version), 120, "End phase in the store", every=0.1)
    s = state(follower)
    while s.pending is not None or (s.turn == before and s.phase != "friendly_fire"):
        v, what = follower.version, "the next phase"  # the enemy phase still being played
        if s.pending is not None:  # the commander's choice: order of rolls or who breaks
            opt = s.pending.options[0]
            label = (
                " then ".join(s.label(h) for h in opt)
                if s.pending.kind == "roll_order"
                else f"break {opt}"
            )
            pages["support"].get_by_role("button", name=label, exact=True).first.click()
            what = f"the choice {label!r}"
        wait_until(lambda v=v: moved_on(follower, v), 120, what, every=0.1)
        s = state(follower)


def test_five_seats_play_two_turns_together(team, artifacts):
    pages, follower, links, console = team
    s = state(follower)
    for name, pg in pages.items():
        assert painted_fraction(pg, ".hexclass-seat canvas") > 0.5, name
    # a seat cannot touch another seat's platoons: D's page offers no A1 button
    assert pages["D"].get_by_role("button", name="A1", exact=True).count() == 0
    assert pages["D"].get_by_role("button", name="D1", exact=True).count() == 1

    # --- commander arbitration: E asks to act next, the commander lets E go
    pages["E"].get_by_placeholder("what you want to do next").fill("E1 into the open")
    button(pages["E"], "Ask to act next")
    wait_message(pages["E"], "queue")
    pages["support"].get_by_role("button", name="Let E go").wait_for(timeout=90_000)
    button(pages["support"], "Let E go")
    pages["E"].wait_for_function(
        "() => document.body.innerText.includes('granted')", timeout=90_000
    )

    # --- turn 1: every seat brings its platoons on; everyone sees every move
    rear = [h for h in s.board.friendly_edge if h not in s.board.road_set]
    enter(pages, follower, "E", "E1", rear[4])
    enter(pages, follower, "D", "D1", rear[1])
    enter(pages, follower, "D", "D2", rear[2])
    enter(pages, follower, "F", "F1", rear[5])
    enter(pages, follower, "support", "M1", rear[3])
    enter(pages, follower, "armour", "A1", s.board.road[0])
    for name, pg in pages.items():
        pg.screenshot(path=str(artifacts / f"coop-turn1-{name}.png"), full_page=True)
    # a student who is not the commander may not end the phase
    assert pages["D"].get_by_role("button", name="End phase (e)").is_disabled()
    end_phase(pages, follower)  # fire phase
    end_phase(pages, follower)  # recovery, enemy phase, turn 2
    for pg in pages.values():
        pg.wait_for_function(
            "() => document.querySelector('.hx-bar').innerText.includes('Turn 2 of 20')",
            timeout=90_000,
        )

    # --- turn 2: a joint fire declaration by two seats on one hex
    end_phase(pages, follower)  # nothing moves; on to the fire phase
    s = state(follower)
    joint = None
    for a_seat, a_unit in (("D", "D1"), ("D", "D2"), ("support", "M1")):
        for b_seat, b_unit in (("armour", "A1"), ("support", "M1"), ("E", "E1")):
            if a_seat == b_seat:
                continue
            for t in s.enemy:
                if check(s, DeclareFire(a_seat, t, (a_unit,))) is None:
                    probe = s.copy()
                    from hexclass.classroom.combined_arms import apply

                    apply(probe, DeclareFire(a_seat, t, (a_unit,), resolve=False))
                    if check(probe, DeclareFire(b_seat, t, (b_unit,), resolve=False)) is None:
                        joint = (a_seat, a_unit, b_seat, b_unit, t)
                        break
            if joint:
                break
        if joint:
            break
    assert joint, "this seed must give two seats a common target on turn 2"
    a_seat, a_unit, b_seat, b_unit, target = joint
    for seat, unit in ((a_seat, a_unit), (b_seat, b_unit)):
        pg = pages[seat]
        click_hex(pg, s.units[unit].hex)
        wait_message(pg, "Firers")
        click_hex(pg, target)
        pg.wait_for_function("() => document.body.innerText.includes('Fire on ')", timeout=90_000)
        button(pg, "Commit, keep open")
        wait_message(pg, "committed against")
    # the second page's "committed against" may be its team line (the first seat's commit):
    # wait for the store to hold both commits, then check their order
    wait_until(
        lambda: (d := state(follower).declaration) is not None and len(d.firers) == 2,
        120,
        "both seats' commits in the store",
    )
    assert state(follower).declaration.firers == [a_unit, b_unit]
    pages["support"].get_by_role("button", name="Resolve open fire").wait_for(timeout=90_000)
    for name, pg in pages.items():
        pg.screenshot(path=str(artifacts / f"coop-joint-fire-{name}.png"), full_page=True)
    button(pages["support"], "Resolve open fire")
    everyone_sees(pages, "support", "rolls")
    rolls = [
        e
        for e in state(follower).events
        if e.kind == "roll" and e.data.get("purpose") == "friendly fire"
    ]
    assert [r.data["unit"] for r in rolls[-2:]] == [a_unit, b_unit]  # declaration order
    end_phase(pages, follower)
    for pg in pages.values():
        pg.wait_for_function(
            "() => document.querySelector('.hx-bar').innerText.includes('Turn 3 of 20')",
            timeout=90_000,
        )
    for name, pg in pages.items():
        pg.screenshot(path=str(artifacts / f"coop-turn3-{name}.png"), full_page=True)
    # the instructor's console follows the team live, and replays its game step by step
    console.wait_for_function(
        "() => (document.querySelector(\".hx-teams tr[data-team='1'] td.hx-turn\")||{}).innerText?.trim() === '3'",
        timeout=90_000,
    )
    console.screenshot(path=str(artifacts / "coop-instructor-live.png"), full_page=True)
    state(follower)
    version = follower.version
    console.get_by_role("tab", name="Replay").click()
    console.get_by_role("button", name="Reload the log").click()
    console.wait_for_function(
        "(v) => (document.querySelector('.hx-caption')||{}).innerText?.includes(`version ${v} of ${v}`)",
        arg=version,
        timeout=90_000,
    )
    console.get_by_role("button", name="◀ prev").click()
    console.wait_for_function(
        "(v) => document.querySelector('.hx-caption').innerText.includes(`version ${v - 1} of ${v}`)",
        arg=version,
        timeout=90_000,
    )
    console.screenshot(path=str(artifacts / "coop-instructor-replay.png"), full_page=True)

    # chat reaches the whole team
    pages["F"].get_by_placeholder("message to your team").fill("F company ready to move")
    button(pages["F"], "Send")
    for pg in pages.values():
        pg.wait_for_function(
            "() => document.body.innerText.includes('F company ready to move')", timeout=90_000
        )


def test_wrong_or_missing_token_is_refused(hexclass_server, page, artifacts):
    # the server refuses a bad link itself, before any kernel starts (a page of its own)
    page.goto(hexclass_server.url("classroom/pages/seat.ipynb?token=not-a-real-token"))
    page.wait_for_selector("#hexclass-refusal")
    page.wait_for_function(
        "() => document.body.innerText.includes('does not work')", timeout=60_000
    )
    assert page.locator("canvas").count() == 0
    page.screenshot(path=str(artifacts / "coop-refused.png"))
    page.goto(hexclass_server.url("classroom/pages/seat.ipynb"))
    page.wait_for_selector("#hexclass-refusal")
    page.wait_for_function(
        "() => document.body.innerText.includes('does not work')", timeout=60_000
    )
    assert page.locator("canvas").count() == 0


def test_two_teams_of_five_play_to_the_end_with_the_console_following(
    hexclass_server, browser, artifacts
):
    """Ten seat pages and the console: both games reach their final scores on every page."""
    from hexclass.classroom.combined_arms import EndGame, EndPhase
    from hexclass.classroom.sessions import open_console, open_seat

    store = open_store(hexclass_server.store)
    links = create_class(store, teams=2, seed=SEED + 5, base_url=hexclass_server.base).to_json()
    contexts, pages = [], []
    for team in links["teams"]:
        for s in team["seats"]:
            ctx = browser.new_context(viewport={"width": 1300, "height": 950})
            contexts.append(ctx)
            pg = ctx.new_page()
            open_page(pg, s["url"])
            pages.append((team["team"], s["seat"], pg))
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    contexts.append(ctx)
    console = ctx.new_page()
    hexclass_server.give_key(console)  # the console needs the instructor key
    open_page(console, links["instructor"]["url"])
    try:
        for _, _, pg in pages:
            wait_for_board(pg, ".hexclass-seat .hexclass-ca-app canvas")
        wait_for_widgets(console)
        console.wait_for_selector(".hx-teams tr[data-team='2']", timeout=90_000)
        # each team's D seat brings a platoon on by clicking; the rest of the battle is
        # played by the commanders through the store (ending phases; team 2 stops early)
        followers = {}
        for team in links["teams"]:
            d_page = next(pg for t, seat, pg in pages if t == team["team"] and seat == "D")
            f = GameFollower(store, team["game_id"])
            followers[team["team"]] = f
            h = f.state.board.friendly_edge[0]
            button(d_page, "D1")
            wait_message(d_page, "D1 selected")
            click_hex(d_page, h)
            wait_message(d_page, "D1 enters")
            token = next(s["token"] for s in team["seats"] if s["seat"] == "support")
            cmd = open_seat(store, token)
            while not f.state.over:
                f.poll(force=True)
                s = f.state
                if (
                    team["team"] == 2
                    and s.phase == "friendly_move"
                    and s.turn == 6
                    and not s.acted_this_turn
                ):
                    action = EndGame("support")
                elif s.pending is not None:
                    from hexclass.classroom.combined_arms import legal_actions

                    action = legal_actions(s, "support")[0]
                else:
                    action = EndPhase("support")
                assert cmd.submit(f.version, action), action
                f.poll(force=True)
        for t, _seat, pg in pages:
            pg.wait_for_function(
                "() => document.querySelector('.hx-bar').innerText.includes('Game over')",
                timeout=60_000,
                polling=50,
            )
            expected = f"{followers[t].state.result.total} points"
            pg.wait_for_function(  # the score panel may be drawn just after the bar
                "(x) => (document.querySelector('.hx-panel h3')||{}).innerText?.includes(x)",
                arg=expected,
                timeout=60_000,
                polling=50,
            )
        assert followers[1].state.result.turns == 20 and followers[2].state.result.turns == 5
        for t in (1, 2):
            console.wait_for_function(
                "(t) => (document.querySelector(`.hx-teams tr[data-team='${t}']`)||{}).innerText?.includes('ended')",
                arg=t,
                timeout=90_000,
                polling=100,
            )
        pages[0][2].screenshot(
            path=str(artifacts / "coop-game-over-team1-armour.png"), full_page=True
        )
        console.screenshot(path=str(artifacts / "coop-console-both-ended.png"), full_page=True)
        assert open_console(store, links["instructor"]["token"]) is not None
    finally:
        for c in contexts:
            c.close()
