"""The solitaire board as a new player meets it (issue 11), in headless Chromium.

One test per bug found by playing the page, and the one-screen layout at a laptop's
1366x768 and a tablet's 1024x768 (bounding boxes inside the viewport, no scrolling).
Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from hexclass.classroom.combined_arms import new_game

from .conftest import (
    board_geometry,
    button,
    canvas_point,
    click_hex,
    wait_for_widgets,
    wait_message,
)

pytestmark = pytest.mark.browser
REPORTED = 8152597  # the seed of the bug report


def open_board(browser, server, query: str, width=1366, height=768):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.goto(server.url(f"classroom/pages/solitaire.ipynb?{query}"), timeout=120_000)
    wait_for_widgets(page, timeout=120_000)
    page.wait_for_selector(".hexclass-ca-app canvas", timeout=120_000)
    page.wait_for_function("() => document.querySelector('.hx-bar') !== null", timeout=60_000)
    return ctx, page


def inside(box, width, height) -> bool:
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


def wait_phase(page, word: str) -> None:
    page.wait_for_function(
        "(w) => document.querySelector('.hx-pill.now').innerText.includes(w)",
        arg=word,
        timeout=60_000,
    )


def wait_turn(page, turn: int) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('.hx-bar').innerText.includes('Turn ' + t + ' of 20')",
        arg=turn,
        timeout=60_000,
    )


def enter(page, uid: str, h, label: str) -> None:
    button(page, uid)
    wait_message(page, f"{uid} selected")
    click_hex(page, h)
    wait_message(page, re.escape(f"{uid} enters at {label}"))


# --- the page fits -------------------------------------------------------------------------


@pytest.mark.parametrize("width,height", [(1366, 768), (1024, 768)])
def test_board_bar_tracks_and_unit_panel_fit_without_scrolling(
    hexclass_server, browser, artifacts, width, height
):
    ctx, page = open_board(browser, hexclass_server, f"seed={REPORTED}", width, height)
    try:
        button(page, "A1")  # a selected armour platoon shows the biggest unit panel
        wait_message(page, "A1 selected")
        parts = {
            "board": page.locator(".hexclass-ca-app canvas").first,
            "phase bar": page.locator(".hx-bar").first,
            "tracks": page.locator(".hx-side svg[aria-label^='losses']").first,
            "unit panel": page.locator(".hx-panel", has_text="A1 (armour)").first,
            "facing": page.get_by_role("button", name="↘", exact=True).first,
            "off-board tray": page.get_by_role("button", name="D1", exact=True).first,
            "End phase": page.get_by_role("button", name="End phase (e)", exact=True).first,
            "Legend": page.get_by_role("button", name="Legend").first,
            "message": page.locator(".hx-message").first,
        }
        boxes = {name: loc.bounding_box() for name, loc in parts.items()}
        outside = {n: b for n, b in boxes.items() if not inside(b, width, height)}
        page.screenshot(path=str(artifacts / f"board-{width}x{height}.png"))
        assert not outside, f"outside the {width}x{height} viewport: {outside}"
        assert page.evaluate("() => window.scrollY") == 0
        board = boxes["board"]
        assert board["width"] >= (560 if width >= 1366 else 400)  # big enough to play on
        tray = boxes["off-board tray"]
        assert tray["y"] < board["y"] + board["height"]  # beside the board, not below it
    finally:
        ctx.close()


def test_legend_is_one_click_away_and_the_scenario_caption_is_shown(
    hexclass_server, browser, artifacts
):
    ctx, page = open_board(browser, hexclass_server, "scenario=figure3-infantry-movement")
    try:
        page.wait_for_function(
            "() => (document.querySelector('.hx-caption')||{}).innerText?.includes('Figure 3')",
            timeout=90_000,
        )
        page.get_by_role("button", name="Legend").first.click()
        page.wait_for_selector(".hx-legend", state="visible", timeout=90_000)
        text = page.locator(".hx-legend").inner_text()
        assert "woods" in text and "spent" in text and "forward arc" in text
        page.screenshot(path=str(artifacts / "board-legend-1366x768.png"))
    finally:
        ctx.close()


# --- the bugs of the report ------------------------------------------------------------------


def test_a_forbidden_shot_shows_its_rule_and_never_odds(hexclass_server, browser, artifacts):
    local = new_game(REPORTED)
    b = local.board
    ctx, page = open_board(browser, hexclass_server, f"seed={REPORTED}")
    try:
        enter(page, "M1", b.hex_at("1b"), "1b")
        enter(page, "M2", b.hex_at("1c"), "1c")
        button(page, "End phase (e)")
        wait_phase(page, "Fire")
        button(page, "End phase (e)")
        wait_turn(page, 2)
        button(page, "End phase (e)")
        wait_phase(page, "Fire")
        click_hex(page, b.hex_at("1b"))
        wait_message(page, "Firers M1")
        click_hex(page, b.hex_at("1c"))
        assert "no legal target" in wait_message(page, "Firers M1, M2")
        click_hex(page, b.hex_at("4c"))
        text = wait_message(page, "blocked by 3c")
        assert 'CA "Fire Attacks"' in text
        # the side panel and the button may arrive after the message: wait on them too
        expect(page.locator(".hx-side")).to_contain_text("No odds", timeout=90_000)
        assert "pin " not in page.locator(".hx-side").inner_text()  # it showed "pin 97%" here
        expect(page.get_by_role("button", name="Commit fire (f)")).to_be_disabled()
        page.mouse.move(*canvas_point(page, board_geometry(), b.hex_at("4i")))
        page.wait_for_function(
            "() => document.body.innerText.includes('the limit is 5')", timeout=90_000
        )
        page.screenshot(path=str(artifacts / "board-no-legal-target.png"))
    finally:
        ctx.close()


def test_legal_targets_are_lit_and_named(hexclass_server, browser, artifacts):
    ctx, page = open_board(browser, hexclass_server, "scenario=figure6-fire-combat")
    try:
        local = new_game(1)
        click_hex(page, local.board.hex_at("4e"))  # F2
        assert "Legal targets: 5d" in wait_message(page, "Firers F2")
        click_hex(page, local.board.hex_at("5d"))
        wait_message(page, "Press Commit fire")
        page.wait_for_function("() => document.body.innerText.includes('Fire on 5d')")
        assert page.get_by_role("button", name="Commit fire (f)").is_enabled()
        page.screenshot(path=str(artifacts / "board-legal-target.png"))
    finally:
        ctx.close()


def test_selection_is_cleared_at_the_phase_change_and_n_skips_platoons_off_the_board(
    hexclass_server, browser
):
    local = new_game(42)
    rear = [h for h in local.board.friendly_edge if h not in local.board.road_set]
    ctx, page = open_board(browser, hexclass_server, "seed=42")
    try:
        enter(page, "D1", rear[1], local.label(rear[1]))
        button(page, "A2")
        wait_message(page, "A2 selected")
        button(page, "↘")
        wait_message(page, "A2 will face")
        button(page, "End phase (e)")
        wait_phase(page, "Fire")
        page.wait_for_function(
            "() => document.querySelector('.hx-side').innerText.includes('Select one of your platoons')",
            timeout=90_000,
        )
        click_hex(page, rear[1])  # focus the board; D1 has just entered: spent
        wait_message(page, "D1 cannot fire")
        page.keyboard.press("n")
        text = wait_message(page, "No platoon of yours can act")
        assert "A2" not in text
    finally:
        ctx.close()


def test_stacking_with_another_company_names_the_rule(hexclass_server, browser):
    local = new_game(42)
    rear = [h for h in local.board.friendly_edge if h not in local.board.road_set]
    ctx, page = open_board(browser, hexclass_server, "seed=42")
    try:
        enter(page, "D1", rear[1], local.label(rear[1]))
        button(page, "E1")
        wait_message(page, "E1 selected")
        click_hex(page, rear[1])
        text = wait_message(page, "different companies")
        assert 'CA "Movement"' in text
    finally:
        ctx.close()


def test_a_bad_seed_is_named(hexclass_server, browser):
    ctx, page = open_board(browser, hexclass_server, "seed=abc")
    try:
        text = wait_message(page, "is not a seed")
        assert "?seed=abc" in text and "whole number" in text
    finally:
        ctx.close()


def test_end_the_battle_asks_first_and_saves_download_to_the_browser(
    hexclass_server, browser, artifacts
):
    ctx, page = open_board(browser, hexclass_server, "scenario=figure3-infantry-movement")
    try:
        button(page, "End the battle…")
        wait_message(page, "End the battle now")
        assert "Game over" not in page.locator(".hx-bar").inner_text()
        button(page, "Keep playing")
        wait_message(page, "goes on")
        page.get_by_role("tab", name="Game & help").click()
        button(page, "Save game")
        link = page.locator("a.hx-save")
        link.wait_for(timeout=90_000)
        with page.expect_download() as dl:
            link.click()
        assert dl.value.suggested_filename.startswith("combined-arms-seed")
        button(page, "End the battle…")
        wait_message(page, "End the battle now")
        button(page, "Yes, end it")
        page.wait_for_function(
            "() => document.querySelector('.hx-bar').innerText.includes('Game over')",
            timeout=60_000,
        )
    finally:
        ctx.close()
