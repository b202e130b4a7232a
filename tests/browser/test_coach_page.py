"""The coach on the solitaire page in headless Chromium: Suggest explains the next
orders with odds and rule sections and selects the first platoon on the board."""

from __future__ import annotations

import re

import pytest

from .conftest import wait_for_kernel_idle, wait_for_widgets, wait_message

pytestmark = pytest.mark.browser
SEED = 11


def test_suggest_shows_orders_with_reasons_and_selects_the_platoon(
    hexclass_server, page, artifacts
):
    page.goto(hexclass_server.url(f"classroom/pages/solitaire.ipynb?seed={SEED}"))
    wait_for_widgets(page)
    page.wait_for_selector(".hexclass-coach", timeout=90_000)
    wait_for_kernel_idle(page)
    page.locator(".hexclass-coach button", has_text="Suggest").first.click()
    page.wait_for_function(
        "() => { const c = document.querySelector('.hexclass-coach');"
        " return !!c && c.querySelector('ol li') !== null; }",
        timeout=60_000,
    )
    text = page.locator(".hexclass-coach").first.inner_text()
    # the whole page (the panel may be redrawn as the selection follows: no scrolling to it)
    page.screenshot(path=str(artifacts / "coach-suggest-turn-1.png"), full_page=True)
    # turn 1: an attack, or, on this board where every post is covered, waiting (the
    # old coach said "the careful plan" or "sitting this turn out")
    assert "Best this turn: the " in text or "Best this turn: waiting this turn" in text
    assert 'CA "' in text and "of thought" in text
    unit = re.search(r"\b([DEF][123]|M[12]|A[123]) (enters|moves)", text)
    if unit:  # a first order that moves a named platoon selects it on the board
        wait_message(page, unit.group(1) + " selected", timeout=90_000)
    else:  # or the coach's first order is the commander's end of the phase
        assert "End the phase" in text
