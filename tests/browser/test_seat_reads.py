"""What the seat pages read (issue 22), in headless Chromium against ``hexclass serve``.

A joint fire whose two rolls differ reads in full on both committing seats' pages; a
page reloaded after the enemy phase still shows that phase's report; a page closed
without a word (no unload beacon: a crashed tab, a lost network) shows as away on a
teammate's page within 5 s.
"""

from __future__ import annotations

import time

import pytest

from hexclass.classroom.combined_arms import EndPhase
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.sessions import create_class, open_seat, open_store

from .conftest import button, click_hex, open_page, wait_for_board, wait_message

pytestmark = pytest.mark.browser
JOINT_SEED = 2  # on the fire-lane position, A1 rolls 6 (pinned) and E2 rolls 2 (no effect)
SEAT_BOARD = ".hexclass-seat .hexclass-ca-app canvas"


@pytest.fixture
def fire_lane(hexclass_server, browser):
    """A team at the sample game's turn 11 fire phase; ``open(seat)`` opens its page."""
    store = open_store(hexclass_server.store)
    made = create_class(
        store,
        teams=1,
        seed=JOINT_SEED,
        base_url=hexclass_server.base,
        start=load_position("sample-turn11-fire-lane").to_dict(),
    )
    seats = {s.seat: s for s in made.teams[0].seats}
    contexts = []

    def open_seat_page(name):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        contexts.append(ctx)
        page = ctx.new_page()
        open_page(page, seats[name].url)
        wait_for_board(page, SEAT_BOARD)
        return page

    open_seat_page.store, open_seat_page.seats = store, seats
    open_seat_page.game_id = made.teams[0].game_id
    yield open_seat_page
    for ctx in contexts:
        ctx.close()
    store.close()


def hex_named(state, label):
    return next(h for h in state.enemy if state.label(h) == label)


def test_a_joint_fire_shows_both_rolls_on_both_seats(fire_lane, artifacts):
    state = fire_lane.store.state(fire_lane.game_id)
    target = hex_named(state, "6i")
    armour, e = fire_lane("armour"), fire_lane("E")
    click_hex(armour, state.units["A1"].hex)
    click_hex(armour, target)
    wait_message(armour, "Press Commit fire")
    button(armour, "Commit, keep open")
    wait_message(armour, "A1 committed against 6i")
    wait_message(e, "A1 committed against 6i")  # E sees the open declaration
    click_hex(e, state.units["E2"].hex)
    click_hex(e, target)
    wait_message(e, "Press Commit fire")
    button(e, "Commit fire (f)")
    for page in (armour, e):
        text = wait_message(page, "E2 rolls 2")
        assert "Fire on 6i by A1, E2: target pinned" in text, text
        assert "A1 rolls 6, modified 3: target pinned" in text, text
        assert "E2 rolls 2, modified -3: no effect" in text, text
    armour.screenshot(path=str(artifacts / "seat-joint-fire-1366.png"))


def test_a_reloaded_page_shows_the_last_enemy_phase_report(fire_lane, artifacts):
    d = fire_lane("D")
    boss = open_seat(fire_lane.store, fire_lane.seats["support"].token)
    v = fire_lane.store.game(fire_lane.game_id).version
    assert boss.submit(v, EndPhase("support"))  # the commander ends the fire phase
    d.wait_for_selector(".hx-enemy[data-turn='11']", timeout=60_000)
    before = d.inner_text(".hx-enemy .hx-summary")
    d.reload(wait_until="commit")
    wait_for_board(d, SEAT_BOARD)
    d.wait_for_selector(".hx-enemy[data-turn='11']", timeout=60_000)
    assert d.inner_text(".hx-enemy .hx-summary") == before
    assert "has not been played" not in d.inner_text(".hexclass-seat")
    wait_message(d, "Enemy phase, turn 11")  # and the message line says what mattered
    d.screenshot(path=str(artifacts / "seat-after-reload-1366.png"))


def test_a_page_closed_without_a_word_shows_as_away_within_5_s(fire_lane):
    d, e = fire_lane("D"), fire_lane("E")
    here = ".hx-chip[data-seat='D'][data-present='1']"
    away = ".hx-chip[data-seat='D'][data-present='0']"
    e.wait_for_selector(here, timeout=30_000)
    closed = time.monotonic()
    d.close(run_before_unload=False)  # no beacon: the server's reload grace would be 10 s
    e.wait_for_selector(away, timeout=30_000)
    took = time.monotonic() - closed
    print(f"a silently closed seat page showed as away after {took:.1f} s")
    assert took <= 5.0, f"the closed page showed as away after {took:.1f} s"


def test_the_seat_page_fits_1366x768(fire_lane, artifacts):
    page = fire_lane("support")  # the overall commander's page: the most it ever holds
    boss = open_seat(fire_lane.store, fire_lane.seats["support"].token)
    v = fire_lane.store.game(fire_lane.game_id).version
    assert boss.submit(v, EndPhase("support"))  # an enemy phase to report
    page.wait_for_selector(".hx-enemy[data-turn='11']", timeout=60_000)
    e = open_seat(fire_lane.store, fire_lane.seats["E"].token)
    assert e.request_turn("E2 to move up")  # (a new phase empties the queue: asked after)
    page.get_by_role("button", name="Let E go").wait_for(timeout=30_000)
    page.screenshot(path=str(artifacts / "seat-1366x768.png"))
    fold = 768
    for what, sel in (
        ("Let E go", "button:has-text('Let E go')"),
        ("the enemy-phase summary", ".hx-enemy .hx-summary b"),
        ("board", SEAT_BOARD),
        ("message line", ".hx-message"),
        ("End phase", "button:has-text('End phase (e)')"),
        ("the team panel's queue", "button:has-text('Ask to act next')"),
        ("I'm done this phase", 'button:has-text("I\'m done this phase")'),
        ("the Enemy phase tab", ".hexclass-ca-app .lm-TabBar-tab >> text=Enemy phase"),
        ("the team chips", ".hx-chip[data-seat='E']"),
    ):
        box = page.locator(sel).first.bounding_box()
        assert box is not None, what
        assert box["y"] + box["height"] <= fold and box["x"] + box["width"] <= 1366, (what, box)


def test_resume_clears_the_paused_refusal(fire_lane):
    state = fire_lane.store.state(fire_lane.game_id)
    d = fire_lane("D")
    fire_lane.store.set_game_status(fire_lane.game_id, "paused")
    d.wait_for_function("() => document.body.innerText.includes('paused the game')")
    click_hex(d, state.units["D1"].hex)
    click_hex(d, hex_named(state, "6a"))
    wait_message(d, "Press Commit fire")
    button(d, "Commit fire (f)")
    wait_message(d, "the instructor has paused this game")
    fire_lane.store.set_game_status(fire_lane.game_id, "running")
    d.wait_for_function(
        "() => !document.querySelector('.hx-message').innerText.includes('paused')"
        " && !document.querySelector('.hexclass-seat').innerText.includes('paused the game')",
        timeout=30_000,
    )
    assert "resumed" in d.inner_text(".hx-message")
