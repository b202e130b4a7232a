"""The enemy-player variant lesson as a Voilà page in headless Chromium: a real click on
the deployment lab's board marks a real platoon and the engine's refusals appear; a
self-check answered wrong gives its hint and another try; a screenshot is saved to
test-artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

import pytest

from tests.browser.conftest import settle, wait_for_widgets

pytestmark = pytest.mark.browser

TIMEOUT = 120_000


def body_text(page) -> str:
    return page.evaluate("document.body.innerText")


def wait_for_text(page, text: str) -> None:
    page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=TIMEOUT)


def click_hex(page, canvas, board, h) -> None:
    """Click the centre of hex ``h`` on ``canvas``, scaled to the element's size."""
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    bx, by = board.centre(h)
    page.mouse.click(
        box["x"] + bx * box["width"] / board.width, box["y"] + by * box["height"] / board.height
    )


def test_variant_lesson_deploys_with_a_canvas_click_and_checks_an_answer(voila, page, artifacts):
    from hexclass.classroom.combined_arms.defender_game import DefenderGame
    from hexclass.widgets.variant_lesson import DeploymentLab

    page.goto(voila.url("lessons/enemy-player-variant.ipynb"), timeout=TIMEOUT)
    wait_for_widgets(page)
    wait_for_text(page, "For instructors")  # the last cell has run
    wait_for_text(page, "deploy exactly 4 real platoons (you have placed 0)")
    assert "Never real in a legal deployment: 6h" in body_text(page)  # the engine's count
    assert "real platoons at" in body_text(page)  # the defender-only log, in the what-if
    page.wait_for_function(
        "() => { const c = document.querySelector('canvas'); return c && c.width > 100; }",
        timeout=TIMEOUT,
    )
    lab_board = DeploymentLab(seed=6).view.board  # the widget's own geometry
    four_a = DefenderGame(6).state.board.hex_at("4a")
    click_hex(page, page.locator("canvas").first, lab_board, four_a)
    wait_for_text(page, "deploy exactly 4 real platoons (you have placed 1)")
    assert "Placed: 1 platoons (4a)" in body_text(page)

    # A self-check: a wrong pick gets its hint and another try, not the answer.
    check = page.locator(
        ".widget-vbox:has(> .widget-html:has-text('the post at 4a has a potential ATG'))"
    ).first
    check.scroll_into_view_if_needed()
    check.locator("label:has-text('1 in 3') input").check()
    check.get_by_role("button", name="Check").click()
    wait_for_text(page, "That is the chance without the +1")
    assert "Try again" in check.inner_text() and "The answer is" not in check.inner_text()

    page.get_by_text("Try it: deploy in secret").first.evaluate(
        "e => e.scrollIntoView({block: 'start'})"
    )
    settle(page)
    page.screenshot(path=str(artifacts / "lesson-enemy-player-variant.png"))
    page.get_by_text("Why the constraints make deployments calculable").first.evaluate(
        "e => e.scrollIntoView({block: 'start'})"
    )
    settle(page)
    page.screenshot(path=str(artifacts / "lesson-enemy-player-variant-counts.png"))
