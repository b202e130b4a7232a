"""A class on ``hexclass serve`` in Chromium: what a seat page receives, and kernel lifecycle.

* Every websocket frame a seat page receives (and sends) is read: the battle's seed,
  the other team's tokens and the instructor's token never appear in them.
* A page closed without a word (no ``beforeunload``, as when a tab crashes) gives its
  kernel back within the reload grace, and the seat is no longer "connected".
* A reloaded seat page is the same seat again, commanding (not watching), and reloads do
  not pile up kernels.
* When the page's kernel dies, or the server stops, the page says so with a banner.
"""

from __future__ import annotations

import os
import pathlib
import re
import signal

import pytest

from hexclass.classroom.sessions import create_class, open_store

from .conftest import (
    HexclassServer,
    open_page,
    process_gone,
    wait_for_board,
    wait_for_kernel_idle,
    wait_until,
)

pytestmark = pytest.mark.browser
SEED = 7_344_421_904_117_735_113  # a 63-bit seed, unmistakable in any frame
GRACE = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory, artifacts):
    s = HexclassServer(
        tmp_path_factory.mktemp("class-server") / "class.db",
        args=("--reload-grace", str(GRACE), "--class-size", "4"),
    )
    yield s
    s.stop()


@pytest.fixture
def team_links(server):
    store = open_store(server.store)
    made = create_class(store, teams=2, seed=SEED, base_url=server.base)
    store.close()
    return made


def frame_text(payload) -> str:
    if isinstance(payload, bytes | bytearray):
        return bytes(payload).decode("utf-8", errors="replace")
    return str(payload)


def kernel_pid(page) -> int:
    """The PID of this page's kernel (its connection file is on the kernel's command line)."""
    kernel_id = page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    )
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = pathlib.Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if f"kernel-{kernel_id}.json".encode() in cmd:
                return int(entry)
    raise AssertionError(f"no process for kernel {kernel_id}")


def test_seat_page_frames_carry_no_seed_and_nothing_of_other_teams(server, browser, team_links):
    mine, other = team_links.teams
    seat = mine.seats[1]  # D company
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    frames: list[str] = []

    def watch(ws):
        ws.on("framereceived", lambda payload: frames.append(frame_text(payload)))
        ws.on("framesent", lambda payload: frames.append(frame_text(payload)))

    page.on("websocket", watch)
    try:
        open_page(page, seat.url)
        wait_for_board(page)
        # use the page a little: open every tab so lazily built panels send their state
        for tab in ("Game log", "Score", "Game & help", "Enemy phase"):
            before = page.evaluate(
                "() => Number(document.documentElement.getAttribute('data-hexclass-idle'))"
            )
            page.get_by_role("tab", name=tab).first.click()
            wait_for_kernel_idle(page, after=before)
        html = page.content()
    finally:
        ctx.close()
    everything = "\n".join(frames)
    assert len(frames) > 20  # the page really talked to its kernel ...
    assert "Team messages" in everything  # ... and the widgets' states came this way
    assert "hexclass-ca-app" in html
    assert str(SEED) not in everything and str(SEED) not in html
    assert "Seed:" not in everything  # no seed field at all
    for s in other.seats:
        assert s.token not in everything and s.token not in html
    assert team_links.instructor_token not in everything
    assert not re.search(r"Team 2\b", everything)  # nothing of the other team


def test_a_closed_page_gives_its_kernel_and_its_presence_back(server, browser, team_links):
    seat = team_links.teams[0].seats[2]  # E company
    game_id = team_links.teams[0].game_id
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    open_page(page, seat.url)
    wait_for_board(page)
    pid = kernel_pid(page)
    store = open_store(server.store)
    try:
        wait_until(lambda: "E" in store.connected(game_id), what="seat E shown connected")
        wait_until(lambda: pid in server.status()["pids"], 120, "the page's kernel in the status")
        wait_until(lambda: server.status()["with_page"] >= 1, 120, "a kernel with a page")
        page.close(run_before_unload=False)  # no beacon: as if the tab crashed
        # the server notices the websocket gone and stops the kernel after the grace
        wait_until(lambda: process_gone(pid), GRACE + 120, "the closed page's kernel stopped")
        # the status tells the truth at once: no dead kernel listed, not even for a moment
        assert pid not in server.status()["pids"]
        wait_until(lambda: "E" not in store.connected(game_id), 120, "seat E shown away")
    finally:
        store.close()
        ctx.close()


def test_reloads_keep_the_seat_and_do_not_pile_up_kernels(server, browser, team_links):
    seat = team_links.teams[0].seats[3]  # F company
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    try:
        open_page(page, seat.url)
        wait_for_board(page)
        pids = {kernel_pid(page)}
        for _ in range(3):
            page.reload(wait_until="commit")
            wait_for_board(page)
            pids.add(kernel_pid(page))
        assert len(pids) == 4  # every load is its own kernel ...
        # ... and the old ones are gone (the beacon on reload, or the grace after it)
        alive_now = wait_until(
            lambda: (
                (left := [p for p in pids if os.path.exists(f"/proc/{p}")])
                and len(left) == 1
                and left
            ),
            timeout=GRACE + 60,
        )
        assert alive_now == [kernel_pid(page)]
        # the reloaded page commands the seat again (it does not stay a watcher)
        page.wait_for_function(
            "() => !document.body.innerText.includes('you are watching')", timeout=60_000
        )
        assert "Team 1" in page.inner_text(".hexclass-seat")
    finally:
        ctx.close()


def test_a_dead_kernel_shows_the_connection_lost_banner(server, browser, team_links):
    seat = team_links.teams[1].seats[0]
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    try:
        open_page(page, seat.url)
        wait_for_board(page)
        assert page.locator("#hexclass-connection-lost").count() == 0
        pid = kernel_pid(page)
        wait_until(lambda: pid in server.status()["pids"], 120, "the page's kernel in the status")
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: process_gone(pid), 120, "the killed kernel's process gone")
        # read at once, long before the server's sweep (every 2 s) has noticed the death
        status = server.status()
        assert pid not in status["pids"]
        assert len(status["pids"]) == status["kernels"]
        banner = page.wait_for_selector("#hexclass-connection-lost", timeout=90_000)
        assert "Reload" in banner.inner_text()
        page.get_by_role("button", name="Reload").click()  # and the reload brings the seat back
        wait_for_board(page)
        assert page.locator("#hexclass-connection-lost").count() == 0
    finally:
        ctx.close()


def test_a_stopped_server_shows_the_banner(browser, tmp_path):
    s = HexclassServer(tmp_path / "class.db", args=("--class-size", "2"))
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    try:
        made = create_class(open_store(s.store), teams=1, base_url=s.base)
        open_page(page, made.teams[0].seats[0].url)
        wait_for_board(page)
        s.proc.send_signal(signal.SIGTERM)
        s.proc.wait(90)
        banner = page.wait_for_selector("#hexclass-connection-lost", timeout=60_000)
        assert "Connection lost" in banner.inner_text()
    finally:
        ctx.close()
        s.stop()
