"""A learner commands the defenders against the attacker bot, in Chromium (CA p.7).

The page is opened under Voilà, a deployment is suggested and deployed, and every enemy
phase's choice is answered by clicking until the score is shown. Each click waits for
the page to change (the kernel's answer), never for a fixed time.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import wait_for_widgets

pytestmark = pytest.mark.browser

TIMEOUT = 90_000
NEXT = re.compile(r"^(Let the attacker play|Reveal \d+ and go on|engage |fire on |hold fire)")


def body(page) -> str:
    return page.evaluate("document.body.innerText")


def click_and_wait(page, locator) -> None:
    before = body(page)
    locator.click()
    page.wait_for_function("t => document.body.innerText !== t", arg=before, timeout=TIMEOUT)


def test_deploy_and_play_a_whole_game_as_the_defender(voila, page, artifacts):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(voila.url("classroom/pages/defender.ipynb?seed=12&bot=bold"), timeout=TIMEOUT)
    wait_for_widgets(page)
    page.get_by_text("real platoons and").first.wait_for(timeout=TIMEOUT)
    deploy = page.get_by_role("button", name="Deploy in secret")
    assert deploy.is_disabled()
    click_and_wait(page, page.get_by_role("button", name="Suggest a deployment"))
    assert "Every constraint is met" in body(page)
    page.screenshot(path=str(artifacts / "defender-deployment.png"))
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
