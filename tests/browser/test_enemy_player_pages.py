"""Enemy-player games in Chromium (CA p.7): two students bid, one deploys in secret, they
play to the end; a team of five plays against a student defender. The attackers' pages
are watched frame by frame on their websockets: nothing of the deployment, the force
roll or the seed may arrive before the final reveal.

``hexclass serve`` runs the referee; every wait is on something the page shows.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from hexclass.classroom.combined_arms import Options
from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.roles import enemy_player_layout
from hexclass.classroom.sessions.session import seat_url
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from tests.browser.conftest import (
    HexclassServer,
    kernel_idle_count,
    wait_for_kernel_idle,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser

TIMEOUT = 120_000
SECRETS = (
    "real platoons at",
    "secret force roll",
    "PLT+ATG",
    "will reveal on activation",
    "Your secret forces",
    "spots for the mortars",
)


def body(page) -> str:
    return page.evaluate("document.body.innerText")


def wait_text(page, text: str) -> None:
    page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=TIMEOUT)


def click(page, name: str) -> None:
    page.get_by_role("button", name=name).first.click(timeout=TIMEOUT)


def record_frames(page) -> list[str]:
    """Every websocket frame the page receives, as text (binary frames decoded loosely)."""
    frames: list[str] = []

    def on_ws(ws):
        def keep(payload):
            frames.append(payload if isinstance(payload, str) else payload.decode("latin-1"))

        ws.on("framereceived", keep)

    page.on("websocket", on_ws)
    return frames


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module: each test makes a class of its own in its store."""
    store = tmp_path_factory.mktemp("enemy-player") / "class.db"
    SQLiteStore(store).close()
    srv = HexclassServer(store, preheat=False)
    yield srv
    srv.stop()


def open_seat_page(browser, server, token: str):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    frames = record_frames(page)
    page.goto(seat_url(token, server.base), timeout=TIMEOUT)
    wait_for_widgets(page, TIMEOUT)
    return context, page, frames


DEFENDER_CHOICE = re.compile(r"^(Reveal \d+ and go on|engage |fire on |hold fire)")


def play_turn_one_through(attacker, defender) -> None:
    """The attacker ends both phases; the defender answers until turn 2 begins.

    The defender's buttons are redrawn as each choice is decided, so each click is
    tried briefly and the loop looks again at what both pages show.
    """
    click(attacker, "End phase (e)")
    wait_text(attacker, "Fire Phase")
    click(attacker, "End phase (e)")
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        text = body(attacker)
        if "Turn 2" in text and "Move Phase" in text:
            return
        choice = defender.locator("button:visible").filter(has_text=DEFENDER_CHOICE).first
        idle = kernel_idle_count(defender)
        try:
            choice.click(timeout=5_000)  # waits for a choice to be shown
        except PlaywrightTimeout:
            continue  # no choice waiting just now, or it was redrawn: look again
        wait_for_kernel_idle(defender, TIMEOUT, after=idle)  # the click has been handled
    raise AssertionError("turn 2 never began")


def test_two_players_bid_deploy_and_play_to_the_end(browser, server, artifacts):
    store = SQLiteStore(server.store)
    made = create_class(
        store,
        teams=1,  # and a random 63-bit seed, never to be found in the frames
        seats=enemy_player_layout(1, bidding=True),
        options=Options(auto_decisions=True, enemy_player=True, bidding=True),
    )
    seed = store.game(made.teams[0].game_id).seed
    tokens = {s.seat: s.token for s in made.teams[0].seats}
    c1, one, _ = open_seat_page(browser, server, tokens["player1"])
    c2, two, frames = open_seat_page(browser, server, tokens["player2"])
    try:
        for page, points in ((one, "3"), (two, "1")):
            wait_text(page, "Bid for command of the defenders")
            page.locator("input[type=number]").first.fill(points)
            page.locator("input[type=number]").first.press("Tab")
            click(page, "Bid in secret")
        wait_text(one, "real platoons and")  # player1 bid more: the defenders are theirs
        wait_text(one, "you command the defenders (enemy-player game")
        click(one, "Suggest a deployment")
        wait_text(one, "Every constraint is met")
        one.evaluate("window.scrollTo(0, 0)")
        one.screenshot(path=str(artifacts / "enemy-player-deploy.png"))
        box = one.get_by_role("button", name="Deploy in secret").bounding_box()
        assert box["y"] + box["height"] <= 768, box  # the defender's first screen
        click(one, "Deploy in secret")
        wait_text(two, "End phase (e)")  # player2 attacks, with the board
        play_turn_one_through(two, one)
        click(two, "End the battle…")
        click(two, "Yes, end it")
        wait_text(two, "Game over")
        wait_text(one, "wins)")
        two.screenshot(path=str(artifacts / "enemy-player-attacker-end.png"), full_page=True)
        early = frames[: len(frames)]  # everything the attacker's page received
        text = "\n".join(early)
        for secret in SECRETS:
            assert secret not in text, secret
        assert str(seed) not in text
    finally:
        c1.close()
        c2.close()


def test_a_team_of_five_against_a_student_defender(browser, server, artifacts):
    store = SQLiteStore(server.store)
    made = create_class(
        store,
        teams=1,
        seats=enemy_player_layout(5),
        options=Options(enemy_player=True, handicap=2),
    )
    tokens = {s.seat: s.token for s in made.teams[0].seats}
    seed = store.game(made.teams[0].game_id).seed
    contexts, pages, all_frames = [], {}, {}
    try:
        for seat in ("defender", "support", "D"):
            c, p, f = open_seat_page(browser, server, tokens[seat])
            contexts.append(c)
            pages[seat], all_frames[seat] = p, f
        defender = pages["defender"]
        wait_text(defender, "real platoons and")
        click(defender, "Suggest a deployment")
        wait_text(defender, "Every constraint is met")
        click(defender, "Deploy in secret")
        for seat in ("support", "D"):
            wait_text(pages[seat], "Friendly Move Phase")
        wait_text(defender, "The attackers are moving")
        defender.get_by_role("button", name="Deploy in secret").wait_for(state="hidden")
        wait_for_kernel_idle(defender, TIMEOUT)
        assert "you command the defenders" in body(defender)
        assert "wait for your enemy phase" in body(defender)
        assert not defender.get_by_role("button", name="Let the attacker play").is_visible()
        defender.screenshot(path=str(artifacts / "enemy-player-class-defender.png"))
        play_turn_one_through(pages["support"], defender)
        wait_text(pages["D"], "Turn 2")  # the other attacker follows the game
        pages["D"].screenshot(path=str(artifacts / "enemy-player-team-seat.png"), full_page=True)
        for seat in ("support", "D"):
            text = "\n".join(all_frames[seat])
            for secret in SECRETS:
                assert secret not in text, (seat, secret)
            assert str(seed) not in text
    finally:
        for c in contexts:
            c.close()
