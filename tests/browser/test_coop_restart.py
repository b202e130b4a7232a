"""Kill -9 the server mid-game, start it again: the game resumes exactly and the seat is back.

The server (Voilà and every kernel it started) is killed with SIGKILL between two moves;
a new ``hexclass serve`` on the same store must show the same board, and the seat link
must put the student back in their seat to carry on playing.
"""

from __future__ import annotations

import os
import re
import signal
import time

import pytest

from hexclass.classroom.combined_arms import record, replay
from hexclass.classroom.sessions import GameFollower, SQLiteStore, create_class, open_store
from hexclass.classroom.sessions.store import HEARTBEAT_EVERY, PRESENCE_TIMEOUT

from .conftest import (
    HexclassServer,
    button,
    click_hex,
    descendants,
    open_page,
    wait_for_board,
    wait_message,
)

BOARD = ".hexclass-seat .hexclass-ca-app canvas"

pytestmark = pytest.mark.browser


def enter(page, uid, h, label):
    button(page, uid)
    wait_message(page, f"{uid} selected")
    click_hex(page, h)
    wait_message(page, re.escape(f"{uid} enters at {label}"))


def kill_9(server: HexclassServer) -> None:
    family = [server.proc.pid, *descendants(server.proc.pid)]
    for pid in family:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    server.proc.wait(10)
    server.log.close()


def age_the_holder(store_path, game_id: int, seat: str) -> None:
    """Date the killed page's last heartbeat PRESENCE_TIMEOUT + 1 s back, as that much
    silence would: the test need not wait the timeout out (the store's clock is a test's)."""
    past = time.time() - PRESENCE_TIMEOUT - 1
    with SQLiteStore(store_path, clock=lambda: past) as s:
        holder = s.seat_holder(game_id, seat)
        assert holder is not None, "the killed page held the seat"
        assert s.heartbeat(game_id, seat, holder).ok
        assert time.time() - s.presence(game_id)[seat] > PRESENCE_TIMEOUT


# The test opens one seat page at a time: a seat pool of two (not one kernel for each of
# the class's ten seats, started on both servers) leaves the machine to that page.
ONE_PAGE = ("--class-size", "2")


def test_server_killed_mid_game_resumes_identically(browser, tmp_path, artifacts):
    store_path = tmp_path / "class.db"
    server = HexclassServer(store_path, args=ONE_PAGE)
    links = create_class(open_store(store_path), teams=2, seed=17, base_url=server.base).to_json()
    d_link = next(s for s in links["teams"][0]["seats"] if s["seat"] == "D")
    game_id = links["teams"][0]["game_id"]
    ctx = browser.new_context(viewport={"width": 1300, "height": 950})
    page = ctx.new_page()
    try:
        open_page(page, d_link["url"])
        wait_for_board(page, BOARD)
        with GameFollower(open_store(store_path), game_id) as f:
            board = f.state.board
        rear = [h for h in board.friendly_edge if h not in board.road_set]
        enter(page, "D1", rear[0], board.label(rear[0]))
        enter(page, "D2", rear[0], board.label(rear[0]))
        with GameFollower(open_store(store_path), game_id) as f:
            before = f.state.snapshot()
            before_version = f.version
        kill_9(server)  # mid-game: the phase is still open, D3 has not moved
        age_the_holder(store_path, game_id, "D")
    finally:
        if server.proc.poll() is None:
            server.stop()

    # the store file alone holds the game; a new server on it carries on
    restarted = HexclassServer(store_path, port=server.port, args=ONE_PAGE)  # same address
    try:
        with GameFollower(open_store(store_path), game_id) as f:
            assert f.version == before_version
            assert f.state.snapshot() == before
            assert replay(record(f.state)).snapshot() == before
        open_page(page, d_link["url"])  # the student's same link, now served by the new server
        wait_for_board(page, BOARD)
        page.get_by_role("button", name="D3", exact=True).wait_for(state="attached")  # controls
        assert page.get_by_role("button", name="D1", exact=True).count() == 0  # on the board now
        # The killed page never said goodbye, so it still holds seat D; the reloaded page
        # watches until that holder has been silent for PRESENCE_TIMEOUT (dated back above),
        # then takes the seat back by itself (its next heartbeat). Wait for that, not luck.
        page.wait_for_function(
            "() => ![...document.querySelectorAll('button')].some("
            "b => b.innerText.includes('Take over this seat') && b.offsetParent !== null)",
            # a generous margin: on a busy machine a kernel's heartbeat may come late
            timeout=(PRESENCE_TIMEOUT + 4 * HEARTBEAT_EVERY + 90) * 1000,
            polling=200,
        )
        enter(page, "D3", rear[0], board.label(rear[0]))  # and the seat plays on
        with GameFollower(open_store(store_path), game_id) as f:
            assert f.version == before_version + 1
            assert f.state.units["D3"].hex == rear[0]
        page.screenshot(path=str(artifacts / "coop-after-restart.png"), full_page=True)
    finally:
        restarted.stop()
        ctx.close()
