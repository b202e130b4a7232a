"""The server's log reads cleanly: a page kernel stopped mid-request (a preheated kernel
still waiting for its visitor, a page closed) leaves one line, not a traceback."""

from __future__ import annotations

import pathlib
import urllib.request

import pytest

from hexclass.classroom.sessions import create_class, open_store
from tests.browser.conftest import HexclassServer, wait_until

pytestmark = pytest.mark.browser


def test_stopping_the_server_logs_no_traceback(tmp_path):
    store = open_store(tmp_path / "class.db")
    server = HexclassServer(tmp_path / "class.db")
    try:
        made = create_class(store, teams=1, seed=5, base_url=server.base)
        with urllib.request.urlopen(made.teams[0].seats[0].url, timeout=300) as r:
            assert r.status == 200
        # the preheated pool is waiting for visitors: stopping now stops kernels mid-request
        wait_until(lambda: server.status().get("preheated", 0) >= 1, 300, "a preheated kernel")
    finally:
        store.close()
        server.stop()
    log = pathlib.Path(server.log.name).read_text()
    assert "kernel started" in log and "kernel stopped" in log
    assert "Traceback" not in log and "ZMQError" not in log, log[-3000:]
