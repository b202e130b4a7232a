"""A learner commands the defenders against the attacker bot, in Chromium (CA p.7).

The page is opened under ``hexclass serve``, a deployment is suggested and deployed, and
every enemy phase's choice is answered by clicking until the score is shown. Each click
waits for the kernel to report idle after handling it (the page's template counts the
kernel's idle messages), so the next button is looked up only once the page is rebuilt.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import kernel_idle_count, wait_for_kernel_idle, wait_for_widgets

pytestmark = pytest.mark.browser

TIMEOUT = 90_000
NEXT = re.compile(r"^(Let the attacker play|Reveal \d+ and go on|engage |fire on |hold fire)")


def body(page) -> str:
    return page.evaluate("document.body.innerText")


def click_and_wait(page, locator) -> None:
    """Click, then wait until the kernel has handled the click and gone idle again."""
    wait_for_kernel_idle(page, TIMEOUT)
    before = kernel_idle_count(page)
    locator.click()
    wait_for_kernel_idle(page, TIMEOUT, after=before)


def test_deploy_and_play_a_whole_game_as_the_defender(hexclass_server, page, artifacts):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(
        hexclass_server.url("classroom/pages/defender.ipynb?seed=12&bot=bold"), timeout=TIMEOUT
    )
    wait_for_widgets(page)
    page.get_by_text("real platoons and").first.wait_for(timeout=TIMEOUT)
    deploy = page.get_by_role("button", name="Deploy in secret")
    assert deploy.is_disabled()
    click_and_wait(page, page.get_by_role("button", name="Suggest a deployment"))
    assert "Every constraint is met" in body(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "defender-deployment.png"))
    # a laptop's first screen holds the board, the counts and the Deploy button
    box = deploy.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768, box
    assert "You command the defenders" in body(page)
    click_and_wait(page, deploy)
    for _ in range(400):
        if "Score" in body(page) and "wins)" in body(page):
            break
        buttons = page.locator("button:visible").filter(has_text=NEXT)
        buttons.first.wait_for(timeout=TIMEOUT)
        click_and_wait(page, buttons.first)
    text = body(page)
    assert "handicap" not in text or "bonus" in text
    assert re.search(r"Score -?\d+ \((victory|defeat); 20 wins\)", text)
    assert "Something went wrong" not in text
    page.screenshot(path=str(artifacts / "defender-over.png"), full_page=True)
