"""Each lesson as a Voilà page in headless Chromium: it renders, one widget answers a real
click, and a screenshot is saved to test-artifacts/screenshots/ for a person to look at.

Canvas clicks are aimed with the same board geometry the widget uses (a HexBoard built
here in the test process), scaled to the canvas element's size on the page.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_for_widgets

pytestmark = pytest.mark.browser

TIMEOUT = 60_000


def open_lesson(voila, page, name: str, canvases: int = 0) -> None:
    page.goto(voila.url(f"lessons/{name}.ipynb"), timeout=TIMEOUT)
    wait_for_widgets(page)
    page.wait_for_function(
        "n => document.querySelectorAll('canvas').length >= n", arg=canvases, timeout=TIMEOUT
    )


def click_hex(page, canvas_index: int, board, h) -> None:
    """Click the centre of hex ``h`` on the page's ``canvas_index``-th canvas."""
    canvas = page.locator("canvas").nth(canvas_index)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    bx, by = board.centre(h)
    page.mouse.click(
        box["x"] + bx * box["width"] / board.width, box["y"] + by * box["height"] / board.height
    )


def body_text(page) -> str:
    return page.evaluate("document.body.innerText")


def wait_for_text(page, text: str) -> None:
    page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=TIMEOUT)


def scroll_to_top(page, text: str) -> None:
    """Scroll so the element holding ``text`` sits at the top of the viewport."""
    page.get_by_text(text).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def first_image_src(page) -> str:
    return page.evaluate("document.querySelector('.widget-image').src")


def canvas_is_painted(page, index: int) -> bool:
    """True if the canvas holds more than one colour (a blank canvas is uniform)."""
    return page.evaluate(
        """i => { const c = document.querySelectorAll('canvas')[i];
                  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                  const seen = new Set();
                  for (let k = 0; k < d.length; k += 4 * 97) seen.add(d[k] + ',' + d[k+1] + ',' + d[k+2]);
                  return seen.size > 3; }""",
        index,
    )


def test_sequence_lesson_picks_a_unit_with_a_real_canvas_click(voila, page, artifacts):
    from widgets.cna_sequence import SkirmishMap

    open_lesson(voila, page, "cna-sequence-of-play", canvases=1)
    assert "Initiative Determination Stage" in body_text(page)
    page.get_by_role("button", name="Next ▶").first.click()
    wait_for_text(page, "II.A Naval Convoy Schedule Phase")
    board = SkirmishMap().board
    click_hex(page, 0, board, (0, 3))  # the Italian recce battalion
    wait_for_text(page, "Selected Italian recce bn")
    for h in [(1, 2), (2, 2), (3, 2)]:
        click_hex(page, 0, board, h)
    wait_for_text(page, "path of 3 hexes")
    page.locator(".widget-dropdown:has-text('Assault on') select").select_option("1st KRRC")
    page.get_by_role("button", name="Move", exact=True).click()
    wait_for_text(page, "2nd Line Light Trucks Reacts to")  # Player B's answer to the move
    assert "1st KRRC may not React" in body_text(page)
    assert canvas_is_painted(page, 0)
    scroll_to_top(page, "A good first move")
    page.screenshot(path=str(artifacts / "lesson-cna-sequence-of-play.png"))


def test_cohesion_lesson_replays_a_worked_example(voila, page, artifacts):
    open_lesson(voila, page, "cna-capability-and-cohesion")
    button = page.get_by_role("button", name="6.21: CPA 15 spends 18")
    button.scroll_into_view_if_needed()
    before = body_text(page)
    assert "Three CPs over the CPA earn 3 DPs" not in before and "−3 / +0" not in before
    plot = first_image_src(page)  # the log sheet's cohesion plot
    button.click()
    wait_for_text(page, "Three CPs over the CPA earn 3 DPs")  # the example's note
    wait_for_text(page, "−3 / +0")  # the log-sheet row: 3 DPs, no RPs this stage
    page.wait_for_function(  # the cohesion plot was redrawn
        "old => document.querySelector('.widget-image').src !== old", arg=plot, timeout=TIMEOUT
    )
    scroll_to_top(page, "Inputs for the row buttons")
    page.screenshot(path=str(artifacts / "lesson-cna-capability-and-cohesion.png"))


def test_supply_lesson_places_a_supply_unit_with_a_real_canvas_click(voila, page, artifacts):
    from classroom.toaw import Rules
    from classroom.toaw.hexmap import offset_to_axial
    from widgets.toaw_supply import SupplyMapLab

    open_lesson(voila, page, "toaw-supply", canvases=2)
    page.get_by_role("button", name="supply unit").first.click()
    lab = SupplyMapLab()
    target = offset_to_axial(10, 2)  # on the coast road, east of the railhead
    before = lab.shown(Rules.NEW, target)
    assert "1 supply unit(s)" not in body_text(page)
    click_hex(page, 1, lab.boards[Rules.NEW], target)
    wait_for_text(page, "1 supply unit(s)")
    wait_for_text(page, f"new rules, hex {target}")
    lab.place("supply unit", target)
    assert lab.shown(Rules.NEW, target) > before  # the page now shows the raised number
    assert canvas_is_painted(page, 0) and canvas_is_painted(page, 1)
    scroll_to_top(page, "Hover a hex to read why")
    page.screenshot(path=str(artifacts / "lesson-toaw-supply.png"))
