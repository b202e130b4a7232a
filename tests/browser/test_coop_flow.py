"""Five students acting at once (issue 9), in headless Chromium against ``hexclass serve``.

Two pairs of seats move at the same moment (both accepted: the later order is rebased),
a strict-commander turn ("Not yet" holds until the commander lets the seat go), a pause
(orders and chat stop, the instructor's broadcast still arrives) and a seat link opened
in a second browser (it watches, then takes over). The store is read for the truth.
"""

from __future__ import annotations

import re

import pytest

from hexclass.classroom.combined_arms import Enter, legal_actions
from hexclass.classroom.sessions import GameFollower, create_class, open_store
from hexclass.classroom.sessions.store import INSTRUCTOR, ClassSettings

from .conftest import ACTION_TIMEOUT_MS, button, click_hex, open_page, wait_for_board, wait_message

pytestmark = pytest.mark.browser
SEED = 33
SEATS = ("armour", "D", "E", "F", "support")


def open_seat_page(browser, url, contexts):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    contexts.append(ctx)
    pg = ctx.new_page()
    open_page(pg, url)
    wait_for_board(pg, ".hexclass-seat .hexclass-ca-app canvas")
    return pg


@pytest.fixture
def strict_team(hexclass_server, browser):
    store = open_store(hexclass_server.store)
    links = create_class(
        store,
        teams=1,
        seed=SEED,
        settings=ClassSettings(commander="strict"),
        base_url=hexclass_server.base,
    ).to_json()
    seats = {s["seat"]: s["url"] for s in links["teams"][0]["seats"]}
    contexts = []
    pages = {name: open_seat_page(browser, seats[name], contexts) for name in SEATS}
    game = links["teams"][0]["game_id"]
    follower = GameFollower(store, game)
    yield pages, follower, store, game, seats, contexts
    follower.close()
    for ctx in contexts:
        ctx.close()
    store.close()


def fresh(follower):
    follower.poll(force=True)
    return follower.state


def body_has(pg, text, timeout=ACTION_TIMEOUT_MS):
    pg.wait_for_function("(t) => document.body.innerText.includes(t)", arg=text, timeout=timeout)


def free_entries(state, seat, taken):
    return [
        a
        for a in legal_actions(state, seat)
        if isinstance(a, Enter) and a.to not in taken and a.facing is None
    ]


def wait_version(pg, version: int, timeout=ACTION_TIMEOUT_MS) -> None:
    """Wait until the seat page has drawn the game at ``version`` (its team panel's mark).

    A teammate's move arriving later would write "Team: ..." over this page's message line,
    so a test waits for the page to catch up before it reads that line."""
    pg.wait_for_function(
        "(v) => { const e = document.querySelector('.hexclass-seat [data-version]');"
        " return !!e && Number(e.getAttribute('data-version')) >= v; }",
        arg=version,
        timeout=timeout,
        polling=50,
    )


def both_at_once(pages, follower, first, second):
    """Select on two pages, then click both target hexes back to back (same version)."""
    state = fresh(follower)
    version = follower.version
    for seat, _unit in (first, second):
        wait_version(pages[seat], version)
    taken: set = set()
    orders = {}
    for seat, unit in (first, second):
        a = next(x for x in free_entries(state, seat, taken) if x.unit == unit)
        taken.add(a.to)
        orders[seat] = a
        button(pages[seat], unit)
        wait_message(pages[seat], f"{unit} selected")
    for seat, a in orders.items():  # no wait in between: both pages drew at `version`
        click_hex(pages[seat], a.to)
    for seat, a in orders.items():
        # both orders in: each page has drawn both moves; its message line shows its own
        # move or, if the teammate's arrived after it, that one ("Team: ..."), never a refusal
        wait_version(pages[seat], version + 2)
        line = pages[seat].locator(".hx-message").first.inner_text()
        own = f"{a.unit} enters at {state.label(a.to)}"
        assert own in line or line.startswith("Team:"), line
        assert "board changed" not in line
    fresh(follower)
    assert follower.version == version + 2
    for a in orders.values():
        assert follower.state.units[a.unit].hex == a.to


def test_five_seats_simultaneous_moves_strict_commander_pause_and_a_seat_opened_twice(
    strict_team, browser, artifacts
):
    pages, follower, store, game, seats, contexts = strict_team

    # --- two pairs of simultaneous moves: both accepted, nobody refused as stale
    both_at_once(pages, follower, ("D", "D1"), ("E", "E1"))
    both_at_once(pages, follower, ("F", "F1"), ("support", "M1"))
    for name, pg in pages.items():
        pg.screenshot(path=str(artifacts / f"coop-flow-simultaneous-{name}.png"), full_page=True)

    # --- a strict-commander turn: asking holds the seat, "Not yet" holds, "Let D go" frees
    d, boss = pages["D"], pages["support"]
    d.get_by_placeholder("what you want to do next").fill("D2 to the left flank")
    button(d, "Ask to act next")
    wait_message(d, "queue")
    body_has(d, "Waiting for the commander")
    target = free_entries(fresh(follower), "D", set())[0]
    button(d, target.unit)
    wait_message(d, f"{target.unit} selected")
    click_hex(d, target.to)
    wait_message(d, "wait for the answer")
    boss.get_by_role("button", name="Not yet").wait_for(timeout=90_000)
    button(boss, "Not yet")
    boss.get_by_role("button", name="Not yet").wait_for(state="detached", timeout=90_000)
    click_hex(d, target.to)
    wait_message(d, "not yet")
    fresh(follower)
    assert follower.state.units[target.unit].where == "off"  # nothing went in
    button(d, "Ask to act next")
    boss.get_by_role("button", name="Let D go").wait_for(timeout=90_000)
    button(boss, "Let D go")
    body_has(d, "The commander says go")
    click_hex(d, target.to)  # D2 is still selected from the refused tries
    wait_message(d, re.escape(f"{target.unit} enters at {follower.state.label(target.to)}"))
    d.screenshot(path=str(artifacts / "coop-flow-strict-D.png"), full_page=True)

    # --- pause: orders, chat and queue stop; the instructor's broadcast still arrives
    assert store.set_game_status(game, "paused").ok
    body_has(d, "The instructor has paused the game")
    d.get_by_role("button", name=re.compile("^Send")).wait_for(timeout=90_000)
    d.wait_for_function(
        "() => [...document.querySelectorAll('button')].some("
        "b => b.innerText.startsWith('Send') && b.disabled)",
        timeout=90_000,
    )
    assert store.post_message(game, INSTRUCTOR, "Hold on: think about the wood").ok
    body_has(d, "Hold on: think about the wood")
    later = free_entries(fresh(follower), "E", set())[0]
    button(pages["E"], later.unit)
    click_hex(pages["E"], later.to)
    wait_message(pages["E"], "paused")
    assert store.set_game_status(game, "running").ok
    body_has(d, "Team")  # still alive after resuming
    d.wait_for_function(
        "() => [...document.querySelectorAll('button')].some("
        "b => b.innerText.startsWith('Send') && !b.disabled)",
        timeout=90_000,
    )

    # --- the same seat link opened in a second browser: it watches, then takes over
    second = open_seat_page(browser, seats["D"], contexts)
    body_has(second, "already open in another browser")
    second.screenshot(path=str(artifacts / "coop-flow-seat-twice-viewer.png"), full_page=True)
    button(second, "Take over this seat")
    wait_message(second, "You command this seat from this browser now")
    body_has(d, "taken over in another browser")
    d.screenshot(path=str(artifacts / "coop-flow-seat-twice-taken.png"), full_page=True)
