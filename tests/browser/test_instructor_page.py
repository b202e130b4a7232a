"""The instructor page under ``hexclass serve``, in headless Chromium.

Create a class from the page's form, open the console with the instructor link, watch
the live table follow actions submitted by this test process through the store (as a
seat kernel would), pause a team from the browser, step the replay, and check that a
seat link or an unknown token gets a refusal and no controls.
"""

from __future__ import annotations

import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, legal_actions
from hexclass.classroom.sessions import open_store

from .conftest import painted_fraction, wait_for_widgets

pytestmark = pytest.mark.browser
PAGE = "classroom/pages/instructor.ipynb"


def cell(page, team: int, column: str) -> str:
    return page.locator(f".hx-teams tr[data-team='{team}'] td.hx-{column}").inner_text().strip()


def wait_cell(page, team: int, column: str, text: str, timeout: float = 15_000) -> None:
    page.wait_for_function(
        """([team, column, text]) => {
            const td = document.querySelector(`.hx-teams tr[data-team='${team}'] td.hx-${column}`);
            return td && td.innerText.trim() === text;
        }""",
        arg=[team, column, text],
        timeout=timeout,
    )


def submit_turn(store, gid: int) -> None:
    """What a team's seats would do: D1 enters, then the commander ends two phases."""
    state = store.state(gid)
    enter = next(a for a in legal_actions(state, "D") if isinstance(a, Enter))
    assert store.submit(gid, 0, "D", enter)
    assert store.submit(gid, 1, "support", EndPhase("support"))
    assert store.submit(gid, 2, "support", EndPhase("support"))


def token_of(url: str) -> str:
    return url.split("token=", 1)[1]


def create_two_teams(page, server, artifacts) -> tuple[str, list[list[str]]]:
    server.give_key(page)  # the instructor page opens only with the instructor key
    page.goto(server.url(PAGE))
    wait_for_widgets(page)
    page.wait_for_selector(".hexclass-new-class")
    page.get_by_label("Teams").fill("2")
    page.get_by_label("Seed").fill("31")
    page.get_by_label("Class name").fill("Browser test")
    page.get_by_role("button", name="Create the class").click()
    page.wait_for_selector(".hx-links[data-team='2']", timeout=90_000)
    page.screenshot(path=artifacts / "instructor-created.png", full_page=True)
    console = page.locator(".hx-console-link a").first.get_attribute("href")
    teams = [
        page.locator(f".hx-links[data-team='{t}'] a").evaluate_all("els => els.map(e => e.href)")
        for t in (1, 2)
    ]
    return console, teams


def test_create_watch_pause_replay_and_refuse(hexclass_server, page, artifacts):
    server = hexclass_server
    console, teams = create_two_teams(page, server, artifacts)
    assert console.startswith(server.base + "/voila/render/" + PAGE + "?token=")
    assert [len(t) for t in teams] == [5, 5]
    store = open_store(server.store)
    try:
        # every link shown on the page is a real token in the server's store
        info = store.lookup_token(token_of(console))
        assert info.kind == "instructor"
        assert store.class_info(info.class_id).name == "Browser test"
        for team, urls in enumerate(teams, 1):
            for url in urls:
                assert url.startswith(server.base + "/voila/render/classroom/pages/seat.ipynb")
                seat = store.lookup_token(token_of(url))
                assert seat.kind == "seat" and store.game(seat.game_id).team == team
        games = {g.team: g.id for g in store.games(info.class_id)}
        assert [g.seed for g in store.games(info.class_id)] == [31, 31]

        # the console lists both teams at turn 1
        page.goto(console)
        wait_for_widgets(page)
        page.wait_for_selector(".hx-teams tr[data-team='2']", timeout=90_000)
        assert page.locator(".hx-teams tr[data-team]").count() == 2
        for t in (1, 2):
            assert (cell(page, t, "turn"), cell(page, t, "version")) == ("1", "0")
            assert cell(page, t, "phase") == "Friendly Move Phase"
        page.screenshot(path=artifacts / "instructor-live-start.png", full_page=True)

        # team 1 plays a turn through the store; the table follows, team 2 does not move
        submit_turn(store, games[1])
        wait_cell(page, 1, "version", "3")
        assert (cell(page, 1, "turn"), cell(page, 1, "phase")) == ("2", "Friendly Move Phase")
        assert (cell(page, 2, "turn"), cell(page, 2, "version")) == ("1", "0")
        page.screenshot(path=artifacts / "instructor-live-after-turn.png", full_page=True)

        # pause team 1 from the browser: the store and the table both say so
        page.get_by_role("button", name="Pause team", exact=True).click()
        wait_cell(page, 1, "status", "paused")
        assert store.game(games[1]).status == "paused"
        assert cell(page, 2, "status") == "running"
        page.screenshot(path=artifacts / "instructor-live-paused.png", full_page=True)
        page.get_by_role("button", name="Resume team", exact=True).click()
        wait_cell(page, 1, "status", "running")

        # the replay: team 1's log, step back to version 1 and look as seat D
        page.get_by_role("tab", name="Replay").click()
        page.get_by_role("button", name="Reload the log").click()
        page.wait_for_function(
            "() => (document.querySelector('.hx-caption')||{}).innerText?.includes('version 3 of 3')",
            timeout=90_000,
        )
        page.get_by_role("button", name="◀ prev").click()
        page.get_by_role("button", name="◀ prev").click()
        page.wait_for_function(
            "() => document.querySelector('.hx-caption').innerText.includes('version 1 of 3')",
            timeout=90_000,
        )
        page.wait_for_function(
            "() => (document.querySelector('.hx-step')||{}).innerText?.includes('Enter')"
        )
        page.get_by_label("Seat view").select_option(label="D Company (D1-D3)")
        page.wait_for_function(
            "() => document.querySelector('.hx-seat-view').innerText.includes('D Company')",
            timeout=90_000,
        )
        page.wait_for_function(  # the replay board redrawn for the seat's view
            """(sel) => { const c = document.querySelector(sel);
                       const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                       let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
                       return n / (c.width * c.height) > 0.3; }""",
            arg=".hexclass-replay canvas",
            polling=200,
        )
        assert painted_fraction(page, ".hexclass-replay canvas") > 0.3
        page.screenshot(path=artifacts / "instructor-replay.png", full_page=True)

        # a seat link on the console page: a refusal, no console and no buttons
        page.goto(server.url(PAGE) + "?token=" + token_of(teams[0][1]))
        page.wait_for_selector(".hx-refusal", timeout=60_000)
        text = page.locator(".hx-refusal").inner_text()
        assert "does not open the instructor console" in text and "seat link" in text
        assert page.locator(".hexclass-console").count() == 0
        assert page.locator("button").count() == 0
        assert "Traceback" not in page.content()
        page.screenshot(path=artifacts / "instructor-refused-seat.png", full_page=True)

        page.goto(server.url(PAGE) + "?token=" + "Z" * 32)
        page.wait_for_selector(".hx-refusal", timeout=60_000)
        assert "no seat or class has this token" in page.locator(".hx-refusal").inner_text()
        assert page.locator("button").count() == 0
    finally:
        store.close()
