"""The solitaire page under ``hexclass serve``, played by clicking in headless Chromium.

Every click is mirrored on a local copy of the same seeded game, so the test knows
exactly what the page must show, and checks the page's log against it at the end.
"""

from __future__ import annotations

import re

import pytest

from hexclass.classroom.combined_arms import (
    DeclareFire,
    EndPhase,
    Enter,
    Move,
    apply,
    check,
    fire_odds,
    legal_actions,
    new_game,
)
from hexclass.widgets.ca_board import ARROWS

from .conftest import (
    board_geometry,
    button,
    click_hex,
    painted_fraction,
    wait_for_board,
    wait_for_widgets,
    wait_message,
)
from .conftest import open_page as navigate

pytestmark = pytest.mark.browser
SEED = 11
P = "player"
GEOMETRY = board_geometry()


def open_page(page, server, seed=SEED):
    navigate(page, server.url(f"classroom/pages/solitaire.ipynb?seed={seed}"))
    wait_for_board(page)  # drawn, and the kernel idle after running the page
    page.wait_for_function("() => document.querySelector('.hx-bar') !== null", timeout=60_000)


def end_phase(page, local):
    """End the phase in the page and locally; answer any commander's choice alike."""
    before = local.turn
    button(page, "End phase (e)")
    apply(local, EndPhase(P))
    while local.pending is not None:
        choice = legal_actions(local, P)[0]
        label = (
            " then ".join(local.label(h) for h in choice.hexes)
            if hasattr(choice, "hexes")
            else f"break {choice.unit}"
        )
        page.get_by_role("button", name=label, exact=True).first.wait_for(timeout=90_000)
        button(page, label)
        apply(local, choice)
    if local.turn != before:
        page.wait_for_function(
            "(t) => document.querySelector('.hx-bar').innerText.includes('Turn ' + t + ' of 20')",
            arg=local.turn,
            timeout=90_000,
        )
    else:
        page.wait_for_function(
            "() => document.querySelector('.hx-pill.now').innerText.includes('Fire')",
            timeout=90_000,
        )


def enter(page, local, uid, h, facing=None):
    button(page, uid)
    wait_message(page, f"{uid} selected")
    click_hex(page, h)
    apply(local, Enter(P, uid, h, facing))
    wait_message(page, re.escape(f"{uid} enters at {local.label(h)}"))


def test_two_full_turns_by_clicking(hexclass_server, page, artifacts):
    local = new_game(SEED)
    open_page(page, hexclass_server)
    assert painted_fraction(page) > 0.5  # drawn on client-ready: not a blank canvas
    page.screenshot(path=str(artifacts / "solitaire-01-start.png"), full_page=True)

    # --- turn 1: enter two rifle platoons, an MMG and the armour (road hex, facing down)
    rear = [h for h in local.board.friendly_edge if h not in local.board.road_set]
    enter(page, local, "D1", rear[2])
    enter(page, local, "D2", rear[3])
    enter(page, local, "M1", rear[1])
    enter(page, local, "A1", local.board.road[0], facing=4)
    page.screenshot(path=str(artifacts / "solitaire-02-entered.png"), full_page=True)
    end_phase(page, local)  # to the fire phase
    end_phase(page, local)  # the engine plays recovery and the enemy phase
    assert "Turn 2 of 20" in page.locator(".hx-bar").inner_text()
    page.screenshot(path=str(artifacts / "solitaire-03-turn2.png"), full_page=True)

    # --- turn 2: D1 advances; A1 turns with the facing picker and moves into its new arc
    d1 = local.units["D1"]
    step = max(
        (a for a in legal_actions(local, P) if isinstance(a, Move) and a.unit == "D1"),
        key=lambda a: a.to[1],
    )
    click_hex(page, d1.hex)
    wait_message(page, "D1 selected")
    click_hex(page, step.to)
    apply(local, step)
    wait_message(page, re.escape("D1 moves"))
    turns = [
        a
        for a in legal_actions(local, P)
        if isinstance(a, Move) and a.unit == "A1" and a.facing is not None
    ]
    assert turns, "the armour should have a turn-and-move available"
    turn = max(turns, key=lambda a: a.to[1])
    click_hex(page, local.units["A1"].hex)
    wait_message(page, "A1 selected")
    button(page, ARROWS[turn.facing])
    wait_message(page, "A1 will face")
    click_hex(page, turn.to)
    apply(local, turn)
    wait_message(page, "A1 moves")
    end_phase(page, local)  # to the fire phase

    # --- fire: D2 and M1 on an enemy counter they can both reach, reading the odds first
    targets = [h for h in local.enemy if check(local, DeclareFire(P, h, ("D2", "M1"))) is None]
    firers = ("D2", "M1")
    if not targets:
        firers = ("D2",)
        targets = [h for h in local.enemy if check(local, DeclareFire(P, h, firers)) is None]
    assert targets, "this seed must give turn-2 firers a target"
    target = targets[0]
    for uid in firers:
        click_hex(page, local.units[uid].hex)
        wait_message(page, "Firers")
    click_hex(page, target)
    odds = fire_odds(local, target, list(firers))
    page.wait_for_function("() => document.body.innerText.includes('Fire on ')", timeout=90_000)
    panel = page.locator(".hx-panel", has_text="Fire on ").first.inner_text()
    assert f"{float(odds.pin):.0%}" in panel and "range" in panel
    page.screenshot(path=str(artifacts / "solitaire-04-odds.png"), full_page=True)
    button(page, "Commit fire (f)")
    apply(local, DeclareFire(P, target, firers))
    wait_message(page, "rolls")
    end_phase(page, local)  # enemy phase, then turn 3
    assert "Turn 3 of 20" in page.locator(".hx-bar").inner_text()
    page.screenshot(path=str(artifacts / "solitaire-05-turn3.png"), full_page=True)

    # --- the page's log is exactly the local game's log
    page.get_by_role("tab", name="Game log").click()
    page.wait_for_selector(".hx-log table tr >> nth=2", timeout=90_000)
    shown = page.locator(".hx-log table tr td:nth-child(4)").all_inner_texts()
    expected = [e.text for e in reversed(local.events)][: len(shown)]
    assert shown == expected
    assert any("fire on" in t for t in shown)


def test_resized_window_keeps_clicks_on_the_right_hex(hexclass_server, page, artifacts):
    local = new_game(SEED)
    open_page(page, hexclass_server)
    rear = [h for h in local.board.friendly_edge if h not in local.board.road_set]
    enter(page, local, "D1", rear[0])
    page.set_viewport_size({"width": 560, "height": 900})
    page.wait_for_function(  # the page has laid the board out again for the narrow window
        "(w) => document.querySelector('.hexclass-ca-app canvas').getBoundingClientRect().width < w",
        arg=GEOMETRY.width,
    )
    box = page.locator(".hexclass-ca-app canvas").first.bounding_box()
    assert box["width"] < GEOMETRY.width  # the board really is drawn smaller now
    enter(page, local, "D2", rear[4])
    click_hex(page, local.units["D1"].hex)  # D1 has moved: spent, so it cannot move again
    text = wait_message(page, "D1 has no legal move")
    assert "spent" in text and 'CA "Movement"' in text  # the refusal names its rule
    page.screenshot(path=str(artifacts / "solitaire-06-narrow.png"), full_page=True)


def test_a_late_browser_sees_the_whole_board(hexclass_server, browser, artifacts):
    """Voilà runs the notebook before the browser's canvas exists: the board must be
    repainted when the canvas reports ready, or the late browser sees a blank board."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    open_page(pg, hexclass_server, seed=SEED + 1)
    # a blank board never gets there (the test's timeout), a repainted one soon does
    pg.wait_for_function(
        """() => { const c = document.querySelector('.hexclass-ca-app canvas');
                   const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
                   return n / (c.width * c.height) > 0.5; }""",
        polling=200,
    )
    assert painted_fraction(pg) > 0.5
    pg.screenshot(path=str(artifacts / "solitaire-07-late-browser.png"))
    ctx.close()


def test_an_illegal_click_shows_the_rule_not_a_traceback(hexclass_server, page):
    open_page(page, hexclass_server)
    button(page, "D1")
    wait_message(page, "D1 selected")
    local = new_game(SEED)
    click_hex(page, local.board.hex_at("3c"))
    text = wait_message(page, "CA")
    assert "rear-edge" in text and "Traceback" not in page.content()


def test_play_lesson_renders_as_a_page(hexclass_server, page, artifacts):
    page.goto(hexclass_server.url("lessons/play-combined-arms.ipynb"), timeout=120_000)
    wait_for_widgets(page)
    page.wait_for_selector(".hexclass-ca-app canvas", timeout=90_000)
    assert painted_fraction(page) > 0.5
    button(page, "D1")
    wait_message(page, "D1 selected")
    page.wait_for_function(
        "() => document.body.innerText.includes('Chance to pin')", timeout=90_000
    )
    page.screenshot(path=str(artifacts / "lesson-play-combined-arms.png"), full_page=True)


def test_keyboard_shortcuts_on_the_board(hexclass_server, page, artifacts):
    open_page(page, hexclass_server)
    local = new_game(SEED)
    click_hex(page, local.board.hex_at("5f"))  # focuses the board
    page.keyboard.press("n")  # the next fresh platoon
    wait_message(page, "selected")
    page.keyboard.press("Escape")
    page.keyboard.press("e")  # end the move phase
    page.wait_for_function(
        "() => document.querySelector('.hx-pill.now').innerText.includes('Fire')", timeout=90_000
    )


def test_home_page_links_to_solitaire_and_every_lesson(hexclass_server, page, artifacts):
    import pathlib

    page.goto(hexclass_server.url("classroom/pages/home.ipynb"), timeout=120_000)
    page.wait_for_selector("text=Play Combined Arms (solitaire)", timeout=90_000)
    page.screenshot(path=str(artifacts / "home.png"), full_page=True)
    hrefs = page.locator("a").evaluate_all("els => els.map(e => e.href)")
    lessons = sorted(
        p.name for p in (pathlib.Path(__file__).parents[2] / "lessons").glob("*.ipynb")
    )
    for name in lessons:
        assert any(h.endswith(f"/lessons/{name}") for h in hrefs), name
    page.get_by_text("Play Combined Arms (solitaire)").click()
    page.wait_for_selector(".hexclass-ca-app canvas", timeout=90_000)
    assert "solitaire.ipynb" in page.url
