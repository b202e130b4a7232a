"""Each lesson as a Voilà page in headless Chromium: it renders, one widget answers a real
click, and a screenshot is saved to test-artifacts/screenshots/ for a person to look at.

Canvas clicks are aimed with the same board geometry the widget uses (a HexBoard built
here in the test process), scaled to the canvas element's size on the page.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import settle, wait_for_widgets

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
    settle(page)


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
    from hexclass.widgets.cna_sequence import SkirmishMap

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
    from hexclass.classroom.toaw import Rules
    from hexclass.classroom.toaw.explain import hex_name
    from hexclass.classroom.toaw.hexmap import offset_to_axial
    from hexclass.widgets.toaw_supply import SupplyMapLab

    open_lesson(voila, page, "toaw-supply", canvases=2)
    page.get_by_role("button", name="supply unit").first.click()
    lab = SupplyMapLab()
    target = offset_to_axial(10, 2)  # on the coast road, east of the railhead
    before = lab.shown(Rules.NEW, target)
    assert "1 supply unit(s)" not in body_text(page)
    click_hex(page, 1, lab.boards[Rules.NEW], target)
    wait_for_text(page, "1 supply unit(s)")
    wait_for_text(page, f"new rules, hex {hex_name(target)}")
    lab.place("supply unit", target)
    assert lab.shown(Rules.NEW, target) > before  # the page now shows the raised number
    assert canvas_is_painted(page, 0) and canvas_is_painted(page, 1)
    scroll_to_top(page, "Hover a hex to read why")
    page.screenshot(path=str(artifacts / "lesson-toaw-supply.png"))


def test_fire_and_odds_lesson_replays_a_quoted_decision(voila, page, artifacts):
    open_lesson(voila, page, "ca-fire-and-odds", canvases=2)
    assert "Chance to pin 6f" in body_text(page)  # the shot builder's first shot
    page.get_by_role("button", name="Turn 15 (1 in 9)").click()
    wait_for_text(page, "the engine gives 11% (1/9)")
    assert "Broken only if A2's fire fails first" in body_text(page)
    assert canvas_is_painted(page, 1)
    scroll_to_top(page, "The sample game's decisions, on the board")
    page.screenshot(path=str(artifacts / "lesson-ca-fire-and-odds.png"))


def test_defenders_mind_lesson_plays_the_enemy_phase(voila, page, artifacts):
    open_lesson(voila, page, "ca-defenders-mind", canvases=1)
    assert "Post #1 of 2: 4e" in body_text(page)
    page.get_by_role("button", name="Play the enemy phase").click()
    wait_for_text(page, "The engine's enemy phase (dice seed 1)")
    wait_for_text(page, "reveal test for the platoon in 4e")
    assert canvas_is_painted(page, 0)
    scroll_to_top(page, "The live defender")
    page.screenshot(path=str(artifacts / "lesson-ca-defenders-mind.png"))


def test_team_lesson_steps_a_first_turn(voila, page, artifacts):
    open_lesson(voila, page, "ca-playing-as-a-team", canvases=1)
    step = page.get_by_role("button", name="Next step ▶")
    step.click()
    wait_for_text(
        page, "Refused: CA p.7 \"Co-operative Team Play\": A1 is not commanded by seat 'D'"
    )
    step.click()
    wait_for_text(page, "A1 enters at 1d")
    assert canvas_is_painted(page, 0)
    scroll_to_top(page, "A guided first turn")
    page.screenshot(path=str(artifacts / "lesson-ca-playing-as-a-team.png"))


def test_play_lesson_what_if_and_log_are_live_on_the_page(voila, page, artifacts):
    page.goto(voila.url("lessons/play-combined-arms.ipynb"), timeout=TIMEOUT)
    wait_for_widgets(page)
    page.wait_for_selector(".hexclass-ca-app canvas", timeout=TIMEOUT)
    wait_for_text(page, "Chance to pin 5d: 44%")  # the what-if starts with A2 on 3c (4/9)
    page.locator(".widget-dropdown:has-text('A2 stands in') select").select_option("2b")
    wait_for_text(page, "Chance to pin 5d: 56%")  # hatches open, no woods beside the line
    page.get_by_role("button", name="Show the latest events").click()
    wait_for_text(page, "what happened")
    overflowing = page.evaluate(
        "() => [...document.querySelectorAll('pre')].filter(p => p.scrollWidth > p.clientWidth + 1).length"
    )
    assert overflowing == 0  # worked-example output wraps instead of running off the page
    scroll_to_top(page, "What if the tanks stood elsewhere?")
    page.screenshot(path=str(artifacts / "lesson-play-combined-arms-what-if.png"))
