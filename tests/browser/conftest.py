"""Browser-test fixtures: a real Voilà server on loopback and Debian's headless Chromium.

Screenshots go to ``test-artifacts/screenshots/`` (git-ignored) so a person can look at them.
"""

from __future__ import annotations

import os
import pathlib
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def wait_until(check, timeout: float = 120.0, what: str = "the condition", every: float = 0.25):
    """Poll ``check`` until it returns something true and return that (never a fixed sleep).

    The deadline is generous on purpose (a busy machine, 2.5x slower than ours); the
    failure names ``what`` was awaited and the last value seen.
    """
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"{what}: not reached within {timeout:.0f} s (last seen: {got!r})")


def settle(page) -> None:
    """Wait until the browser has painted two frames (after a scroll, before a screenshot)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has exited: absent, or a zombie its parent may reap now.

    A killed multi-threaded process shows "Z" as soon as its main thread exits, but its
    parent can reap it only once every other thread has gone too.
    """
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X") and threads == [str(pid)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VoilaServer:
    """``voila`` serving the repository root on a free loopback port."""

    def __init__(self, root: pathlib.Path, env: dict[str, str] | None = None, args=()) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        self.log = open(ROOT / "test-artifacts" / f"voila-{self.port}.log", "w")  # noqa: SIM115
        cmd = [
            sys.executable,
            "-m",
            "voila",
            str(root),
            "--no-browser",
            f"--port={self.port}",
            "--Voila.ip=127.0.0.1",
            "--ServerApp.open_browser=False",
            *args,
        ]
        self.proc = subprocess.Popen(
            cmd,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
            cwd=root,
        )
        self._wait()

    ready_path = "/"

    def _wait(self, timeout: float = 180.0) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"voila exited with {self.proc.returncode}; see {self.log.name}")
            try:
                urllib.request.urlopen(self.base + self.ready_path, timeout=5)
                return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("voila did not start in time")

    def url(self, path: str) -> str:
        return f"{self.base}/voila/render/{path}"

    killed = False  # whether stop() had to kill the server: it did not stop on SIGTERM in time
    left_behind: list[int] = []  # processes below it still running after it exited

    def stop(self, timeout: float = 60.0) -> None:
        """Stop the server and every kernel it started (kernels run in their own sessions).

        SIGTERM first; the server gets ``timeout`` seconds to stop its kernels itself
        (a busy machine is slow), then it and everything below it is killed.
        """
        if self.log.closed:
            return  # stopped already
        family = descendants(self.proc.pid)
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.killed = True
            self.proc.kill()
            self.proc.wait()
        self.left_behind = [pid for pid in family if not process_gone(pid)]
        for pid in family:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()


def cmdline(pid: int) -> bytes:
    try:
        return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test gets the stacks of every ``hexclass serve`` still running."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when in ("setup", "call"):
        for server in list(HexclassServer.running):
            title = f"hexclass serve on port {server.port}: stacks (SIGUSR1)"
            report.sections.append((title, server.stacks()))


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture(scope="session")
def voila(artifacts, tmp_path_factory):
    store = tmp_path_factory.mktemp("store") / "class.db"
    server = VoilaServer(ROOT, env={"HEXCLASS_STORE": str(store)})
    yield server
    server.stop()


# Generous limits: a Voilà page streams while its notebook runs, so on a busy two-core
# machine (eight engineers' test runs at once) a first paint can take a minute. Tests
# wait on readiness (the page's widgets, the board drawn, the kernel idle), never on a
# fixed sleep, and no step fails on Playwright's 30 s default.
NAVIGATION_TIMEOUT_MS = 180_000
ACTION_TIMEOUT_MS = 90_000
READY_TIMEOUT_MS = 180_000


def _with_generous_timeouts(browser):
    """Make every context from ``browser`` wait as long as a loaded machine needs."""
    new_context = browser.new_context

    def patient_context(*args, **kwargs):
        ctx = new_context(*args, **kwargs)
        ctx.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        ctx.set_default_timeout(ACTION_TIMEOUT_MS)
        return ctx

    browser.new_context = patient_context  # tests open pages in contexts of their own
    return browser


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (scripts/test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield _with_generous_timeouts(b)
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    pg = ctx.new_page()
    yield pg
    ctx.close()


def open_page(page, url: str) -> None:
    """Navigate without waiting for the whole streamed page (Voilà sends it as cells run)."""
    page.goto(url, wait_until="commit", timeout=NAVIGATION_TIMEOUT_MS)


def wait_for_widgets(page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait until Voilà has executed the notebook and rendered its widgets."""
    page.wait_for_selector(".jupyter-widgets, .widget-box, canvas", timeout=timeout)
    page.wait_for_function(
        "() => !document.querySelector('#loading') || document.querySelector('#loading').style.display === 'none'",
        timeout=timeout,
    )


def wait_for_board(
    page, selector: str = ".hexclass-ca-app canvas", timeout: float = READY_TIMEOUT_MS
) -> None:
    """Wait until the page's board canvas is drawn (some pixels painted) and the kernel idle."""
    wait_for_widgets(page, timeout)
    page.wait_for_function(
        """(sel) => {
            for (const c of document.querySelectorAll(sel)) {
                if (!c.width || !c.height) continue;
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                for (let i = 3; i < d.length; i += 64) if (d[i] > 0) return true;
            }
            return false;
        }""",
        arg=selector,
        timeout=timeout,
        polling=250,
    )
    wait_for_kernel_idle(page, timeout)


def kernel_idle_count(page) -> int:
    """How many times the page's kernel has reported idle (hexclass pages only; else -1)."""
    return page.evaluate(
        "() => { const v = document.documentElement.getAttribute('data-hexclass-idle');"
        " return v === null ? -1 : Number(v); }"
    )


def wait_for_kernel_idle(page, timeout: float = READY_TIMEOUT_MS, after: int | None = None) -> None:
    """Wait until the kernel is idle (after ``after`` idle reports, if given).

    Pages served by plain ``voila`` (not ``hexclass serve``) carry no status: no wait.
    """
    if kernel_idle_count(page) < 0 and after is None:
        return
    page.wait_for_function(
        """(after) => {
            const r = document.documentElement;
            const n = Number(r.getAttribute('data-hexclass-idle') || -1);
            return r.getAttribute('data-hexclass-kernel') === 'idle' && (after === null || n > after);
        }""",
        arg=after,
        timeout=timeout,
        polling=100,
    )


class HexclassServer(VoilaServer):
    """``hexclass serve`` itself (preheated kernels and all) on a free loopback port."""

    def __init__(
        self, store: pathlib.Path, preheat: bool = True, port: int | None = None, args=()
    ) -> None:
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        self.store = store
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(ROOT / "test-artifacts" / f"hexclass-serve-{self.port}.log", "a")  # noqa: SIM115
        cmd = [
            sys.executable,
            "-m",
            "hexclass.classroom.cli",
            "serve",
            f"--port={self.port}",
            f"--store={store}",
        ]
        if not preheat:
            cmd.append("--no-preheat")
        cmd.extend(args)
        self.key = "test-key-" + secrets.token_urlsafe(12)  # the instructor key
        env = {**os.environ, "HEXCLASS_INSTRUCTOR_KEY": self.key}
        self.proc = subprocess.Popen(
            cmd, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT, env=env
        )
        self._wait()
        HexclassServer.running.append(self)

    running: list[HexclassServer] = []  # servers started and not stopped, for stacks()

    def stop(self, timeout: float = 60.0) -> None:
        if self in HexclassServer.running:
            HexclassServer.running.remove(self)
        super().stop(timeout)

    def stacks(self, timeout: float = 10.0, most: int = 40_000) -> str:
        """The server's thread stacks and pending tasks (``kill -USR1``), read from its log.

        Sent when a browser test fails (``pytest_runtest_makereport``): a server that
        stopped answering shows where it is stuck in the test output, not only in a log
        file of a CI machine that is gone.
        """
        child = [
            p for p in descendants(self.proc.pid) if b"hexclass.classroom.server" in cmdline(p)
        ]
        if self.log.closed or not child:
            return "(the server is not running)"
        path = pathlib.Path(self.log.name)
        start = path.stat().st_size
        os.kill(child[0], signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline and "asyncio tasks pending" not in text:
            time.sleep(0.2)
            with path.open(errors="replace") as f:
                f.seek(start)
                text = f.read()
        if "asyncio tasks pending" not in text:
            text += f"\n(no task list within {timeout:.0f} s: the event loop is not running)"
        return text[-most:]

    def give_key(self, page) -> None:
        """Give the instructor key through the server's form, as an instructor would.

        The cookie it sets lands in ``page``'s browser context, so the instructor page
        then opens in every page of that context.
        """
        form = page.request.get(self.base + "/hexclass/instructor-key")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.text()).group(1)
        done = page.request.post(
            self.base + "/hexclass/instructor-key",
            form={"_xsrf": xsrf, "key": self.key},
            max_redirects=0,
        )
        assert done.status == 302, done.text()

    ready_path = "/hexclass/api/status"

    def status(self) -> dict:
        """Kernel counts and PIDs from the server (see ``hexclass.classroom.server.StatusHandler``)."""
        import json

        with urllib.request.urlopen(self.base + self.ready_path, timeout=60) as r:
            return json.load(r)


# The session's server keeps at most two teams' worth of preheated seat kernels (the most
# pages a test opens at once). By default (30) it would preheat a kernel for every seat of
# every class the tests leave running in its store (thirty idle kernels, each started for
# nothing on two cores); tests/test_serve.py checks the pool's sizing itself.
SESSION_CLASS_SIZE = 10


@pytest.fixture(scope="session")
def hexclass_server(artifacts, tmp_path_factory):
    server = HexclassServer(
        tmp_path_factory.mktemp("serve") / "class.db",
        args=("--class-size", str(SESSION_CLASS_SIZE)),
    )
    yield server
    server.stop()


def canvas_point(page, board, h, selector: str = ".hexclass-ca-app canvas"):
    """Page coordinates of hex ``h``'s centre on a HexBoard drawn in ``selector``."""
    box = page.locator(selector).first.bounding_box()
    x, y = board.centre(h)
    return box["x"] + x * box["width"] / board.width, box["y"] + y * box["height"] / board.height


def painted_fraction(page, selector: str = ".hexclass-ca-app canvas") -> float:
    """Share of the canvas's pixels that are not transparent (0 for a blank canvas)."""
    return page.evaluate(
        """(sel) => {
            const c = document.querySelector(sel);
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
            return n / (c.width * c.height);
        }""",
        selector,
    )


# --- helpers for pages showing the Combined Arms board (solitaire, seats, lessons) -----------

_GEOMETRY = None


def board_geometry():
    """The CA board's canvas geometry (the same for every page that shows the board)."""
    global _GEOMETRY
    if _GEOMETRY is None:
        from hexclass.widgets.ca_board import CABoardView

        _GEOMETRY = CABoardView().board
    return _GEOMETRY


def message(page) -> str:
    """The board's message line (what the last click did, or why it was refused)."""
    return page.locator(".hx-message").first.inner_text()


def wait_message(page, pattern: str, timeout: float = ACTION_TIMEOUT_MS) -> str:
    """Wait until the message line matches the regular expression ``pattern``."""
    page.wait_for_function(
        "(p) => { const m = document.querySelector('.hx-message'); return !!m && new RegExp(p).test(m.innerText); }",
        arg=pattern,
        timeout=timeout,
        polling=20,
    )
    return message(page)


def click_hex(page, h) -> None:
    page.mouse.click(*canvas_point(page, board_geometry(), h))


def button(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).first.click()
