"""The server's log reads cleanly: a page kernel stopped mid-request (a preheated kernel
still waiting for its visitor, a page closed) leaves one line, not a traceback."""

from __future__ import annotations

import pathlib
import urllib.request

import pytest

from hexclass.classroom.sessions import create_class, open_store
from tests.browser.conftest import HexclassServer, wait_until

pytestmark = pytest.mark.browser


def stopped_quietly(server: HexclassServer) -> str:
    """The server's log, after checking it stopped by itself, every kernel with it, quietly."""
    log = pathlib.Path(server.log.name).read_text()
    assert not server.killed, "the server did not stop on SIGTERM: " + log[-3000:]
    assert server.left_behind == [], log[-3000:]
    assert "leftover" not in log and "was still starting" not in log, log[-3000:]
    assert log.count("hexclass: kernel started") == log.count("hexclass: kernel stopped"), log
    assert "Traceback" not in log and "ZMQError" not in log, log[-3000:]
    return log


def test_stopping_the_server_mid_start_stops_every_kernel_quietly(tmp_path):
    """SIGTERM while a seat page is being drawn, preheated kernels wait for visitors and
    the seat pool is refilling: the starts in flight finish and are stopped with the rest,
    the server exits by itself, and its log holds no traceback."""
    store = open_store(tmp_path / "class.db")
    server = HexclassServer(tmp_path / "class.db")
    try:
        made = create_class(store, teams=1, seed=5, base_url=server.base)
        page = urllib.request.urlopen(made.teams[0].seats[0].url, timeout=300)
        assert page.status == 200  # a seat took a preheated kernel; its page is still drawn
        # a page is handed its kernel once the kernel has answered (classroom/pool_pick.py),
        # by which time the pool may have filled: two more teams make it grow, a few
        # kernels at a time, from 5 to 15
        create_class(store, teams=2, seed=6, base_url=server.base)
        wait_until(lambda: server.status()["starting"] >= 1, 300, "a kernel start", every=0.05)
        server.stop()
        page.close()
    finally:
        store.close()
        server.stop()
    log = stopped_quietly(server)
    assert "kernel started" in log and "kernel stopped" in log
