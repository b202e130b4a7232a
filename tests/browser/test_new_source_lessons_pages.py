"""The Cherbourg and movement-timing lessons as Voilà pages in headless Chromium: each
renders, answers one real interaction, and leaves a screenshot in
test-artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import canvas_point, painted_fraction, settle, wait_for_widgets

pytestmark = pytest.mark.browser

TIMEOUT = 90_000


def wait_for_text(page, text: str) -> None:
    page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=TIMEOUT)


def test_cherbourg_lesson_recomputes_the_column_and_rolls(voila, page, artifacts):
    page.goto(voila.url("lessons/cherbourg-combat-table.ipynb"), timeout=TIMEOUT)
    wait_for_widgets(page)
    wait_for_text(page, "11 to 4, fraction dropped: 2-1")  # the explorer's first working
    box = page.locator(
        ".hexclass-cherbourg-crt .widget-inline-hbox:has-text('attack points') input"
    ).first
    box.fill("12")
    box.press("Enter")
    wait_for_text(page, "12 to 4, fraction dropped: 3-1")
    wait_for_text(page, "rises by 8/36")  # 3-1 to 4-1, exact
    page.get_by_role("button", name="Roll 2d6").click()
    wait_for_text(page, "on 3-1:")
    assert "Cherbourg 5.1.6" in page.evaluate("document.body.innerText")
    # A self-check: a wrong pick gets its own hint and another try, not the answer.
    check = page.locator(
        ".widget-vbox:has(> .widget-html:has-text('13 attack points against 5'))"
    ).first
    check.scroll_into_view_if_needed()
    check.locator("label:has-text('3-1') input").check()
    check.get_by_role("button", name="Check").click()
    wait_for_text(page, "Rounding 2.6 up helps the attacker")
    assert "Try again" in check.inner_text() and "The answer is" not in check.inner_text()
    check.locator("label:has-text('2-1') input").check()
    check.get_by_role("button", name="Check").click()
    wait_for_text(page, "13/5 = 2.6 and the fraction is dropped")
    page.locator(".hexclass-cherbourg-crt").evaluate("e => e.scrollIntoView({block: 'start'})")
    settle(page)
    page.screenshot(path=str(artifacts / "lesson-cherbourg-combat-table.png"))


def test_movement_lesson_adds_an_order_with_a_canvas_click(voila, page, artifacts):
    from hexclass.classroom.movement.hexmap import step
    from hexclass.classroom.movement.scenarios import ESTEL
    from hexclass.widgets.movement_timing import PhaseTimingLab

    page.goto(voila.url("lessons/movement-timing.ipynb"), timeout=TIMEOUT)
    wait_for_widgets(page)
    selector = ".hexclass-movement-timing canvas"
    page.wait_for_selector(selector, timeout=TIMEOUT)
    page.wait_for_function(
        "s => { const c = document.querySelector(s); return c && c.width > 100; }",
        arg=selector,
        timeout=TIMEOUT,
    )
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function(
        """s => { const c = document.querySelector(s);
                  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                  let n = 0; for (let i = 3; i < d.length; i += 400) if (d[i] > 0) n++;
                  return n > 50; }""",
        arg=selector,
        timeout=TIMEOUT,
    )
    assert "not under friendly control" not in page.evaluate("document.body.innerText")
    lab = PhaseTimingLab()
    beyond = step(lab.world.centres[ESTEL].hex, 3)  # one hex past Estel for the APC
    page.mouse.click(*canvas_point(page, lab.board, beyond, selector))
    # The APC now drives on past Estel; the village falls back to red at the end of phase 8
    # and the infantry's drive on phase 12 stops in an unfriendly village.
    wait_for_text(page, "which is not under friendly control")
    plan = page.locator(".hexclass-movement-timing input[type=text]").first
    expect(plan).to_have_value("3,2,3,2,3,2,3,3", timeout=90_000)
    assert painted_fraction(page, selector) > 0.5
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    settle(page)
    page.screenshot(path=str(artifacts / "lesson-movement-timing.png"))
