"""Two ``hexclass serve`` hosts, one PostgreSQL store: a class played from both at once.

Server 1 and server 2 are separate processes on separate ports (as two Voilà hosts
behind a proxy would be), each with its own kernels and nothing shared but the database
URL. Seat D opens its link on server 1, seat E on server 2; D moves a platoon and E's
page shows it, pushed through LISTEN/NOTIFY to the other host's kernel; then the other
way round.
"""

from __future__ import annotations

import re
import time

import pytest

from hexclass.classroom.sessions import GameFollower, create_class
from hexclass.classroom.sessions.session import seat_url

from .conftest import HexclassServer, button, click_hex, wait_for_board, wait_message

pytestmark = pytest.mark.browser


@pytest.fixture
def two_hosts(pg_url, artifacts):
    servers = []
    try:
        for _ in range(2):
            servers.append(HexclassServer(pg_url, preheat=False))
        yield servers
    finally:
        for s in servers:
            s.stop()


def test_a_move_on_one_host_shows_on_the_other(two_hosts, browser, artifacts, pg_url):
    from hexclass.classroom.sessions.pg_store import PostgresStore

    one, two = two_hosts
    store = PostgresStore(pg_url)
    links = create_class(store, teams=1, base_url=one.base).to_json()
    game_id = links["teams"][0]["game_id"]
    tokens = {s["seat"]: s["token"] for s in links["teams"][0]["seats"]}
    follower = GameFollower(store, game_id)
    pages = {}
    for seat, server in (("D", one), ("E", two)):
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        pg.goto(seat_url(tokens[seat], server.base), wait_until="commit")
        pages[seat] = pg
    try:
        for pg in pages.values():
            wait_for_board(pg, ".hexclass-seat .hexclass-ca-app canvas")
        s = follower.state
        rear = [h for h in s.board.friendly_edge if h not in s.board.road_set]

        def move(seat, uid, h, watcher):
            pg = pages[seat]
            button(pg, uid)
            wait_message(pg, f"{uid} selected")
            t0 = time.monotonic()
            click_hex(pg, h)
            said = re.escape(f"{uid} enters at {s.label(h)}")
            wait_message(pg, said, timeout=60_000)
            # the other host's page shows it: its kernel was pushed the change
            wait_message(pages[watcher], said, timeout=60_000)
            return time.monotonic() - t0

        move("D", "D1", rear[1], watcher="E")
        move("E", "E1", rear[4], watcher="D")
        follower.poll(force=True)
        assert [a.seat for a in follower.live.log] == ["D", "E"]
        assert follower.state.units["D1"].hex == rear[1]
        assert follower.state.units["E1"].hex == rear[4]
        # each host served only its own page's kernel
        for server in two_hosts:
            assert server.status()["kernels"] >= 1
        pages["E"].screenshot(path=str(artifacts / "pg-two-hosts-seat-E.png"))
    finally:
        for pg in pages.values():
            pg.context.close()
        follower.close()
        store.close()
