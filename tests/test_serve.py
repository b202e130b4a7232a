"""``hexclass serve`` as a server process: signals, a busy port, ``/``, kernel log lines.

Each test starts the real command (Voilà, preheated kernels and all) on a free port and
checks processes by PID in /proc, so a server that leaves a kernel behind fails here.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from hexclass.classroom.gate import SOLITAIRE
from hexclass.classroom.serve import marked_processes, port_problem, voila_command
from hexclass.classroom.sessions import create_class, open_store
from tests.conftest import instructor_opener

ROOT = pathlib.Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class Served:
    """``hexclass serve`` in a subprocess, with its output in a file."""

    def __init__(self, tmp_path: pathlib.Path, *args: str, env: dict | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.store = tmp_path / "class.db"
        self.out = open(tmp_path / "serve.log", "w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hexclass.classroom.cli",
                "serve",
                f"--port={self.port}",
                f"--store={self.store}",
                *args,
            ],
            stdout=self.out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
        )

    def text(self) -> str:
        self.out.flush()
        return pathlib.Path(self.out.name).read_text()

    def status(self) -> dict:
        with urllib.request.urlopen(self.base + "/hexclass/api/status", timeout=60) as r:
            return json.load(r)

    def wait_for(self, what, timeout: float = 300.0, every: float = 0.25):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"hexclass serve exited:\n{self.text()}")
            try:
                got = what()
            except (urllib.error.URLError, OSError, ValueError):
                got = None
            if got:
                return got
            time.sleep(every)
        raise AssertionError(f"timed out waiting; output:\n{self.text()[-3000:]}")

    def ready(self, kernels: int = 1) -> dict:
        """Serving, with at least ``kernels`` kernels up."""
        return self.wait_for(lambda: (s := self.status())["kernels"] >= kernels and s)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.out.close()


@pytest.fixture
def served(tmp_path):
    made = []

    def start(*args, env=None):
        s = Served(tmp_path, *args, env=env)
        made.append(s)
        return s

    yield start
    for s in made:
        s.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_stops_the_server_and_every_kernel(served, sig):
    s = served()
    status = s.ready(kernels=3)  # the preheat pools: seat pages and solitaire
    # a page load starts one more kernel (the home page: no token to check)
    urllib.request.urlopen(s.base + "/voila/render/classroom/pages/home.ipynb", timeout=300).read()
    status = s.wait_for(
        lambda: (
            (st := s.status())["kernels"] >= status["kernels"] + 1 and None not in st["pids"] and st
        )
    )
    pids = [status["server_pid"], *status["pids"]]
    assert len(pids) >= 5 and all(alive(p) for p in pids)
    s.proc.send_signal(sig)
    assert s.proc.wait(180) == 0
    left = [p for p in pids if alive(p)]
    assert left == [], f"still running after {sig.name}: {left}\n{s.text()[-2000:]}"
    assert port_problem("127.0.0.1", s.port) is None  # the port is free again
    assert f"{sig.name}: stopping the server and every kernel" in s.text()


def test_a_busy_port_is_a_clear_error_before_any_address(served):
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "hexclass.classroom.cli", "serve", f"--port={port}"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=180,
        )
    assert out.returncode == 2
    assert f"port {port} on 127.0.0.1 is already in use" in out.stderr
    assert "--port" in out.stderr
    assert "http://" not in out.stdout + out.stderr  # no address Voilà is not on


def test_a_short_instructor_key_is_refused_before_serving():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexclass.classroom.cli",
            "serve",
            f"--port={free_port()}",
            "--instructor-key",
            "short",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 2
    assert "at least 16 characters" in out.stderr and "http://" not in out.stdout


def test_the_kernel_budget_follows_the_memory(tmp_path):
    from hexclass.classroom.serve import KERNEL_MIB, default_max_kernels

    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal: 25165824 kB\nMemAvailable: 16777216 kB\n")  # 16 GiB free
    assert default_max_kernels(str(meminfo)) == 16 * 1024 // 2 // KERNEL_MIB
    meminfo.write_text("MemAvailable: 262144 kB\n")  # 256 MiB: still a few pages
    assert default_max_kernels(str(meminfo)) == 4
    assert default_max_kernels(str(tmp_path / "missing")) == 8


def test_root_is_the_home_page_and_kernels_are_logged_with_counts(served):
    s = served()
    s.ready(kernels=3)
    with urllib.request.urlopen(s.base + "/", timeout=300) as r:
        assert r.url == s.base + "/voila/render/classroom/pages/home.ipynb"
        assert "Instructor console" in r.read().decode()
    text = s.wait_for(lambda: (t := s.text()).count("hexclass: kernel started") >= 3 and t)
    assert f"hexclass is serving: open {s.base}/voila/render/classroom/pages/home.ipynb" in text
    if not os.environ.get("HEXCLASS_INSTRUCTOR_KEY"):  # a key made for this run, printed
        assert re.search(r"^instructor key: [A-Za-z0-9_-]{16,}$", text, re.M)
    started = [line for line in text.splitlines() if "hexclass: kernel started" in line]
    assert len(started) >= 3
    assert all("kernels (" in line and "preheated" in line and "pid " in line for line in started)


def test_a_page_nobody_opens_costs_no_lasting_kernel(served):
    """A page fetched without a browser (curl) is culled after --cull-after."""
    s = served("--cull-after", "4")
    base = s.ready(kernels=3)
    pool = base["kernels"]
    for _ in range(2):
        urllib.request.urlopen(
            s.base + "/voila/render/classroom/pages/home.ipynb", timeout=300
        ).read()
    # each fetch started a kernel of its own
    s.wait_for(lambda: s.status()["started_total"] >= base["started_total"] + 2)
    # back to the pool: the two page kernels stopped, the pool refilled
    s.wait_for(lambda: s.status()["stopped_total"] >= 2)
    after = s.wait_for(lambda: (st := s.status())["kernels"] <= pool and st)
    assert after["with_page"] == 0
    s.wait_for(lambda: "with 0 connections due to" in s.text())  # Jupyter's culler did it


def test_the_seat_pool_follows_the_class(served):
    s = served("--class-size", "6")
    s.ready(kernels=3)
    store = open_store(s.store)
    create_class(store, teams=2)  # 10 seats, the pool is capped at 6
    store.close()
    s.wait_for(lambda: "seat pool set to 6" in s.text())
    s.wait_for(lambda: s.status()["kernels"] >= 7)  # 6 seats + 1 solitaire


def test_a_seat_page_taken_from_a_pool_that_covers_its_class_starts_no_kernel(served):
    """Right after *Create*: the pool holds a kernel for every seat, so a take refills nothing.

    Voilà refills a pool the moment a kernel is taken; that refill started one kernel per
    opened seat beside the pages being drawn (issue 22, the first minute of a lesson).
    """
    s = served("--class-size", "6")
    s.ready(kernels=3)
    store = open_store(s.store)
    links = create_class(store, teams=1, base_url=s.base)  # 5 seats: the pool covers them
    store.close()
    s.wait_for(lambda: "seat pool set to 5" in s.text())
    # every pool kernel started and counted: 2 + 3 seats and the solitaire page
    full = s.wait_for(
        lambda: (st := s.status())["preheated"] == 6 and st["started_total"] == 6 and st
    )
    urllib.request.urlopen(links.teams[0].seats[0].url, timeout=300).read()
    after = s.status()  # a refill would be in the pool already: Voilà adds it as it takes
    assert "seat pool set to 4 (a seat page takes a kernel)" in s.text()
    assert after["preheated"] == 5  # the four seats to come and the solitaire page
    assert after["started_total"] == full["started_total"]  # no kernel started in its place


def test_a_preheated_kernel_that_dies_at_its_start_is_not_handed_to_a_page(served):
    """A pool kernel that never answers and dies is replaced before a page takes it.

    The hook (tests/hooks/dying_kernels) launches the first three pool kernels (the
    solitaire page's and two seats') as processes that exit after 12 s without answering,
    as a kernel whose port another program took does. Handed one, a page got Voilà's
    "Running ..." and never its widgets.
    """
    hook = str(ROOT / "tests" / "hooks" / "dying_kernels")
    path = os.pathsep.join(filter(None, [hook, os.environ.get("PYTHONPATH")]))
    s = served(env={"PYTHONPATH": path, "HEXCLASS_TEST_DYING": "3:12"})
    s.wait_for(lambda: s.status()["started_total"] >= 3)  # all three launched, none dead yet
    with urllib.request.urlopen(s.base + "/voila/render/" + SOLITAIRE, timeout=300) as r:
        page = r.read().decode()
    assert "application/vnd.jupyter.widget-view+json" in page  # its notebook ran
    assert "Kernel died" not in page
    text = s.wait_for(lambda: "hexclass: kernel started" in (t := s.text()) and t)
    assert f"hexclass: a preheated {SOLITAIRE} kernel died before its page took it" in text
    s.wait_for(lambda: s.status()["kernels"] >= 3)  # the pools refilled: a page, 2 seats


def test_a_kernel_started_for_a_page_that_dies_at_its_start_is_started_again(served):
    """The home page has no preheat pool: its kernel is started on request. The hook
    makes that first kernel exit after 3 s without answering (Jupyter's port race). Before,
    Voilà's renderer failed in a task of its own and the request stayed open for ever,
    fed only its keep-alive bytes; now the kernel is started again and the page runs."""
    hook = str(ROOT / "tests" / "hooks" / "dying_kernels")
    path = os.pathsep.join(filter(None, [hook, os.environ.get("PYTHONPATH")]))
    env = {"PYTHONPATH": path, "HEXCLASS_TEST_DYING": "1:3", "HEXCLASS_TEST_DYING_ON_REQUEST": "1"}
    s = served(env=env)
    s.ready(kernels=1)
    url = s.base + "/voila/render/classroom/pages/home.ipynb"
    done = []
    reader = threading.Thread(
        target=lambda: done.append(urllib.request.urlopen(url, timeout=300).read().decode()),
        daemon=True,
    )
    reader.start()
    reader.join(120)  # the old code never ends this request (about 10 s here)
    assert done, f"the page never ended:\n{s.text()[-3000:]}"
    assert done[0].rstrip().endswith("</html>") and "Kernel died" not in done[0]
    assert "hexclass: a kernel started for a page died before answering" in s.text()


def test_sigusr1_writes_the_server_stacks_to_its_log_and_the_server_serves_on(served):
    """``kill -USR1``: every thread's stack, then the pending asyncio tasks; no stop."""
    s = served()
    pid = s.ready(kernels=1)["server_pid"]
    os.kill(pid, signal.SIGUSR1)  # the default action of SIGUSR1 would end the process
    text = s.wait_for(lambda: "asyncio tasks pending (SIGUSR1)" in (t := s.text()) and t)
    dump = text[text.index("Thread 0x") :]
    # faulthandler's stacks, from C. "Current thread" marks the thread the kernel handed
    # the signal to, and only when that thread runs Python: a ZMQ or libuv thread takes it
    # as often as not, and then every thread is plain "Thread" (CI saw it at stop 41).
    assert re.search(r"(Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\)", dump)
    assert "File " in dump
    assert re.search(r"Stack for <Task pending name=.*coro=<", dump)  # each pending task
    assert alive(pid)
    with urllib.request.urlopen(s.base + "/", timeout=300) as r:  # it still serves pages
        assert "Instructor console" in r.read().decode()


def test_a_class_created_changes_the_store_stamp_the_seat_pool_watches(tmp_path):
    from hexclass.classroom.kernel_setup import open_seats, store_stamp

    db = tmp_path / "class.db"
    store = open_store(db)
    try:
        before = store_stamp(str(db))
        assert store_stamp(str(db)) == before  # nothing written: nothing to count again
        create_class(store, teams=2)
        assert store_stamp(str(db)) != before
        assert open_seats(str(db)) == 10
    finally:
        store.close()
    assert store_stamp("postgresql:///school") is None  # counted on a timer instead


def test_an_opened_console_warms_seat_kernels_for_the_class_it_will_create(served):
    """No class in the store yet: the console's New class form is enough to warm 5 seats."""
    s = served("--console-warm", "5")
    s.ready(kernels=3)  # 2 seat kernels (the minimum) + 1 solitaire
    key = re.search(r"^instructor key: (\S+)$", s.text(), re.M).group(1)  # printed at start
    instructor_opener(s.base, key).open(
        s.base + "/voila/render/classroom/pages/instructor.ipynb", timeout=300
    ).read()
    s.wait_for(lambda: "seat pool set to 5" in s.text())
    s.wait_for(lambda: s.status()["preheated"] >= 6)  # 5 seats + 1 solitaire, all started
    # the class it creates: its first seat page takes a warm kernel and none starts for it,
    # as the console's warm seats count the seat pages served since
    store = open_store(s.store)
    links = create_class(store, teams=1, base_url=s.base)
    store.close()
    urllib.request.urlopen(links.teams[0].seats[0].url, timeout=300).read()
    assert "seat pool set to 4 (a seat page takes a kernel)" in s.text()
    assert s.status()["preheated"] == 5


def console_warm_of(cmd: list[str]) -> int:
    [arg] = [a for a in cmd if a.startswith("--HexclassKernelManager.console_warm_seats=")]
    return int(arg.split("=")[1])


def test_an_opened_console_warms_the_whole_class_by_default():
    """Issue 30: 30 seats opened right after *Create* waited p95 14.6 s for their kernels
    with 10 warmed by the console, 1.0 s with the class's 30 (seat_protocol_load.py
    --console-first 60): the console warms as many seats as the class size, unless told."""
    assert console_warm_of(voila_command(8866, "127.0.0.1")) == 30
    assert console_warm_of(voila_command(8866, "127.0.0.1", class_size=12)) == 12
    assert console_warm_of(voila_command(8866, "127.0.0.1", class_size=12, console_warm=5)) == 5


def test_leftover_processes_are_found_by_their_marker(tmp_path):
    marker = "test-" + os.urandom(6).hex()
    env = {**os.environ, "HEXCLASS_SERVER_ID": marker}
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env)
    try:
        deadline = time.monotonic() + 120  # poll: found as soon as /proc shows its environment
        while proc.pid not in marked_processes(marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marked_processes(marker) == [proc.pid]
        assert marked_processes("some-other-server") == []
    finally:
        proc.kill()
        proc.wait()
