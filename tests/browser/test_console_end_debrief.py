"""The console ends a game by the rules, and the debrief is made to be projected.

Under ``hexclass serve`` in headless Chromium: two teams fire (team 1 a joint fire by
two seats), the instructor ends team 1 from the console (two clicks), the live table
and an open seat page of team 1 show the engine's final score and verdict, and the
debrief built afterwards says the same. Its charts and tables must lie inside the viewport at 1366x768 and 1920x1080
(bounding boxes, no horizontal scrolling, no cell clipped), with no raw column names,
True/False or Unix times on show. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from hexclass.classroom.combined_arms import DeclareFire, EndPhase, ResolveFire, legal_actions
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.sessions import create_class, open_store

from .conftest import wait_for_widgets

pytestmark = pytest.mark.browser
PAGE = "classroom/pages/instructor.ipynb"
SIZES = ((1366, 768), (1920, 1080))


def play(store, gid, seat, action):
    r = store.submit(gid, store.version(gid), seat, action)
    assert r.ok, r


def fight(store, made) -> None:
    """Team 1: A2 and D1 fire together on 6a (D rolls); team 2: D1 alone on 6a, then on."""
    g1, g2 = (t.game_id for t in made.teams)
    target = store.state(g1).board.hex_at("6a")
    play(store, g1, "armour", DeclareFire("armour", target, ("A2",), False))
    play(store, g1, "D", DeclareFire("D", target, ("D1",), False))
    play(store, g1, "D", ResolveFire("D"))
    play(store, g2, "D", DeclareFire("D", target, ("D1",), True))
    state = store.state(g2)
    while state.turn < 14 and not state.over:  # team 2 plays on: a score line over turns
        pending = state.pending is not None
        play(
            store,
            g2,
            "support",
            legal_actions(state, "support")[0] if pending else EndPhase("support"),
        )
        state = store.state(g2)


def cell(page, team: int, column: str) -> str:
    return page.locator(f".hx-teams tr[data-team='{team}'] td.hx-{column}").inner_text().strip()


# What lies outside the viewport, or is clipped, in the debrief (an empty list when all fits).
OUTSIDE = """() => {
    const W = window.innerWidth, H = window.innerHeight, out = [];
    const root = document.querySelector('.hexclass-debrief');
    const items = root.querySelectorAll('table, img, .hx-db-chart, .hx-db-none, h3');
    for (const el of items) {
        const r = el.getBoundingClientRect();
        if (r.width === 0) continue;
        const name = el.tagName + (el.dataset.table || el.dataset.chart || el.className || '');
        if (r.left < -0.5 || r.right > W + 0.5) out.push(`${name}: x ${r.left}..${r.right} of ${W}`);
        if (el.tagName === 'IMG' && (r.height > H || !el.naturalWidth))
            out.push(`${name}: height ${r.height} of ${H}, loaded ${el.naturalWidth}`);
    }
    for (const c of root.querySelectorAll('th, td')) {
        if (c.scrollWidth > c.clientWidth + 1) out.push(`cell clipped: ${c.innerText}`);
    }
    for (let el = root; el; el = el.parentElement) {  // the page scrolls; nothing cuts it off
        const s = getComputedStyle(el), r = el.getBoundingClientRect();
        if (/(hidden|clip)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1)
            out.push(`clipped by ${el.className}: ${el.scrollHeight} > ${el.clientHeight}`);
    }
    if (document.documentElement.scrollWidth > W + 1)
        out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
    return out;
}"""


# Resolves once nothing above the debrief clips it, or once the layout has stopped
# changing for 10 frames (then OUTSIDE says what is clipped), or after 600 frames.
SETTLED = """() => new Promise(done => {
    const root = document.querySelector('.hexclass-debrief');
    const clipping = () => {
        const out = [];
        for (let el = root; el; el = el.parentElement) {
            if (/(hidden|clip)/.test(getComputedStyle(el).overflowY))
                out.push(el.scrollHeight - el.clientHeight);
        }
        return out;
    };
    let last = '', same = 0, frames = 0;
    const step = () => {
        const now = clipping();
        same = now.join() === last ? same + 1 : 0;
        last = now.join();
        if (now.every(d => d <= 1) || same >= 10 || ++frames > 600) done();
        else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
})"""


def settled(page) -> None:
    """Wait for the page to lay itself out again after a viewport change: Lumino sizes
    the shell's panels in its own message loop after the resize event, so just after a
    tall viewport they may still hold the old height for a frame or more."""
    page.evaluate(SETTLED)


def test_console_end_then_a_debrief_that_fits_the_projector(hexclass_server, browser, artifacts):
    server = hexclass_server
    store = open_store(server.store)
    ctx = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page = ctx.new_page()
    try:
        start = load_position("sample-turn11-fire-lane").to_dict()
        made = create_class(store, teams=2, seed=3, start=start, base_url=server.base)
        fight(store, made)
        g1 = made.teams[0].game_id

        seat_page = ctx.new_page()  # team 1's D seat, open while the instructor ends
        seat_page.goto(made.teams[0].seats[1].url)
        wait_for_widgets(seat_page)
        seat_page.wait_for_selector(".hexclass-seat canvas", timeout=120_000)

        server.give_key(page)  # the console needs the instructor key (docs/security.md)
        page.goto(made.instructor_url)
        wait_for_widgets(page)
        page.wait_for_selector(".hx-teams tr[data-team='2']", timeout=60_000)

        # End team 1 (the team picker starts on team 1): ask, then confirm
        page.get_by_role("button", name="End game", exact=True).click()
        page.get_by_role("button", name="Click again to end team 1").click()
        page.wait_for_function(
            "() => (document.querySelector(\".hx-teams tr[data-team='1'] td.hx-status\")"
            " || {}).innerText?.includes('points')",
            timeout=30_000,
        )
        state = store.state(g1)
        assert state.over and state.result is not None  # the engine's end: revealed, scored
        verdict = f"{'Victory' if state.result.won else 'Defeat'}: {state.result.total} points"
        assert verdict in cell(page, 1, "status")
        assert cell(page, 1, "known") == cell(page, 1, "projected") == str(state.result.total)
        assert cell(page, 2, "status").startswith("running")
        page.screenshot(path=artifacts / "console-ended-team1.png", full_page=True)
        # the seat reads the same final score and verdict (its score panel)
        seat_page.wait_for_function(
            "(v) => document.body.textContent.includes(v)", arg=verdict, timeout=30_000
        )
        seat_page.screenshot(path=artifacts / "seat-after-console-end.png", full_page=True)

        # the debrief, built after the end, reads the same result
        page.get_by_role("tab", name="Debrief").click()
        page.get_by_role("button", name="Build the debrief").click()
        page.wait_for_selector(".hx-debrief-built", timeout=60_000)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.hexclass-debrief img')]"
            ".every(i => i.complete && i.naturalWidth > 0)",
            timeout=30_000,
        )
        results = page.locator(".hx-db-results tr[data-team='1']").inner_text()
        assert verdict in results and "ended by the instructor" in results
        fires = page.locator("table[data-table='fires']").inner_text()
        assert "armour, D" in fires  # the joint fire credited to both seats
        assert re.search(r"\d+%", fires) and "0." not in fires  # odds as percentages
        assert page.locator(".hexclass-debrief [data-chart='score'] img").count() == 1
        assert page.locator(".hexclass-debrief [data-chart='luck'] img").count() == 1
        text = page.locator(".hexclass-debrief").inner_text()
        for raw in ("score_known", "pin_luck", "game_id", "True", "False", "nan"):
            assert raw not in text
        assert not re.search(r"\b1[7-9]\d{8}(\.\d+)?\b", text)  # no Unix timestamps

        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(
                "([w, h]) => window.innerWidth === w && window.innerHeight === h",
                arg=[width, height],
                timeout=10_000,
            )
            settled(page)
            outside = page.evaluate(OUTSIDE)
            assert outside == [], f"{width}x{height}: {outside}"
            page.locator(".hx-db-results").scroll_into_view_if_needed()
            page.screenshot(path=artifacts / f"debrief-{width}x{height}.png")
            # the whole debrief at the same width (Voila scrolls inside the page)
            tall = page.evaluate(
                "() => Math.ceil(document.querySelector('.hexclass-debrief')"
                ".getBoundingClientRect().height) + 200"
            )
            page.set_viewport_size({"width": width, "height": max(height, tall)})
            page.locator(".hx-db-results").scroll_into_view_if_needed()
            page.screenshot(path=artifacts / f"debrief-{width}x{height}-whole.png")
    finally:
        ctx.close()
        store.close()
