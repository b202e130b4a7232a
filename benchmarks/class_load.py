"""A class of 30 on one ``hexclass serve``: time to board, propagation, memory, kernels.

    .venv/bin/python benchmarks/class_load.py                       # 6 x 5 seats, 10 min
    .venv/bin/python benchmarks/class_load.py --play 120            # a shorter first run
    .venv/bin/python benchmarks/class_load.py --baseline 1065222    # also the old main
    .venv/bin/python benchmarks/class_load.py --right-after-create  # 5 seats opened at once

``--right-after-create`` is the first minute of a lesson (issue 22): the instructor's
console is open (a browser context of its own, no token: the *New class* form) for
``--form-seconds`` (20, the instructor filling in the form), a class of 2 teams x 5 seats
is created, and the first team's five seat links are opened within 5 s of it; the figure
is each page's time to board, and the time from *Create* to it.

For each server (this tree, and with ``--baseline COMMIT`` a ``git worktree`` of that
commit run the same way, one after the other in the same run) it:

1. starts ``hexclass serve`` on a free port with a fresh store and creates a class of
   ``--teams`` teams of ``--seats`` seats (that tree's own ``hexclass class new``);
2. opens every seat link in its own headless Chromium context, spread evenly over
   ``--open-within`` seconds, and times each page from ``goto`` until its board canvas
   has pixels (time to board);
3. plays for ``--play`` seconds: a scripted driver (a helper process on that tree's code)
   submits one legal action per team every ``--move-every`` seconds as one of the seats,
   and the time until each open teammate page shows it is the propagation time;
   ``--reload`` of the pages are reloaded once at a random moment (their time to board
   is counted apart) and ``--close`` are closed for good;
4. samples every 5 s the number of kernels and the total RSS of the server's process
   tree, and the machine's load average;
5. closes every page, waits ``--settle`` seconds and counts the kernels left.

Results go to stdout as a table and with ``--json PATH`` as JSON. The machine is shared:
compare the two servers within one run, and read the load average next to the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
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
BOARD = ".hexclass-seat .hexclass-ca-app canvas"
PAINTED = """(sel) => {
    for (const c of document.querySelectorAll(sel)) {
        if (!c.width || !c.height) continue;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < d.length; i += 64) if (d[i] > 0) return true;
    }
    return false;
}"""
SHOWS = """(needle) => {
    const m = document.querySelector('.hx-message');
    return !!m && m.innerText.includes(needle);
}"""

# The driver runs on the served tree's own code (old and new stores differ), one line in,
# one JSON line out: "GAME_ID" -> {"needle": text the teammates will see, "seat": ...}.
DRIVER = r"""
import json, sys
from hexclass.classroom.combined_arms import legal_actions
from hexclass.classroom.sessions import open_store
store = open_store(sys.argv[1])
turn = {}
for line in sys.stdin:
    gid = int(line)
    out = {"needle": None}
    try:
        state = store.state(gid)
        seats = sorted(state.seats)
        k = turn.get(gid, 0)
        turn[gid] = k + 1
        choice = None
        for i in range(len(seats)):
            seat = seats[(k + i) % len(seats)]
            acts = [a for a in legal_actions(state, seat)
                    if type(a).__name__ in ("Enter", "Move", "ChooseRollOrder", "ChooseBroken")]
            if acts:
                choice = (seat, acts[(k * 7) % len(acts)])
                break
        if choice is None:
            for seat in seats:
                acts = [a for a in legal_actions(state, seat) if type(a).__name__ == "EndPhase"]
                if acts:
                    choice = (seat, acts[0])
                    break
        if choice is not None:
            before = len(state.events)
            result = store.submit(gid, len(state.actions), choice[0], choice[1])
            if result:
                after = store.state(gid)
                new = [e for e in after.events[before:] if e.kind != "phase"]
                if new:
                    out = {"needle": new[-1].text, "seat": choice[0]}
    except Exception as exc:
        out = {"needle": None, "error": repr(exc)}
    print(json.dumps(out), flush=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def tree_usage(pid: int) -> tuple[int, float]:
    """(kernel processes, total RSS in MiB) of ``pid`` and everything below it."""
    kernels, rss = 0, 0
    for p in [pid, *descendants(pid)]:
        try:
            status = pathlib.Path(f"/proc/{p}/status").read_text()
            cmd = pathlib.Path(f"/proc/{p}/cmdline").read_bytes()
        except OSError:
            continue
        if is_kernel(cmd):
            kernels += 1
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss += int(line.split()[1])
    return kernels, rss / 1024


def is_kernel(cmdline: bytes) -> bool:
    """A page kernel: ipykernel's launcher, or the sandbox that runs it (issue 23)."""
    return b"ipykernel_launcher" in cmdline or b"classroom.sandbox" in cmdline


def kernel_rss(pid: int) -> list[float]:
    out = []
    for p in descendants(pid):
        try:
            cmd = pathlib.Path(f"/proc/{p}/cmdline").read_bytes()
            status = pathlib.Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        if is_kernel(cmd):
            out += [
                int(ln.split()[1]) / 1024 for ln in status.splitlines() if ln.startswith("VmRSS:")
            ]
    return out


def pct(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


class Target:
    """One server under test: a tree (this one, or a worktree of an older commit)."""

    serve_args: tuple[str, ...] = ()  # more options for ``hexclass serve``

    def __init__(self, name: str, tree: pathlib.Path, workdir: pathlib.Path) -> None:
        self.name, self.tree = name, tree
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.store = workdir / f"{name}.db"
        self.log = open(workdir / f"{name}-serve.log", "w")  # noqa: SIM115
        self.key = secrets.token_urlsafe(16)  # the instructor key (issue 23), for the console
        self.env = {**os.environ, "PYTHONPATH": str(tree), "HEXCLASS_STORE": str(self.store),
                    "HEXCLASS_INSTRUCTOR_KEY": self.key}  # fmt: skip

    def start(self) -> None:
        """``hexclass serve`` (with :attr:`serve_args`) on a fresh store; back once it answers
        and its seat pool has had 15 s to start kernels, as it would before a lesson."""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hexclass.classroom.cli", "serve", f"--port={self.port}",
             f"--store={self.store}", *self.serve_args],
            cwd=self.tree, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/hexclass/api/status", timeout=5)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError(f"{self.name}: server did not start")
        time.sleep(15)

    def family(self) -> list[int]:
        """The server's process and every descendant (its kernels)."""
        return [self.proc.pid, *descendants(self.proc.pid)]

    def create_class(self, teams: int, seats: int, seed: int) -> dict:
        out = subprocess.run(
            [sys.executable, "-m", "hexclass.classroom.cli", "class", "new", "--teams", str(teams),
             "--seats", str(seats), "--seed", str(seed), "--json", "--store", str(self.store),
             "--base-url", self.base],
            cwd=self.tree, env=self.env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return json.loads(out.stdout)

    def driver(self) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-c", DRIVER, str(self.store)],
            cwd=self.tree, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip

    def stop(self) -> None:
        family = self.family()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            pass
        for p in family:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()


async def open_console(browser, target: Target):
    """The instructor's console without a token (the New class form), drawn."""
    ctx = await browser.new_context(viewport={"width": 1366, "height": 768})
    page = await ctx.new_page()
    form = await page.request.get(target.base + "/hexclass/instructor-key")
    if form.ok:  # a server with an instructor key (issue 23): give it, as an instructor would
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', await form.text()).group(1)
        await page.request.post(target.base + "/hexclass/instructor-key",
                                form={"_xsrf": xsrf, "key": target.key}, max_redirects=0)  # fmt: skip
    await page.goto(f"{target.base}/voila/render/classroom/pages/instructor.ipynb",
                    wait_until="commit", timeout=180_000)  # fmt: skip
    await page.wait_for_selector(".jupyter-widgets, .widget-box", timeout=180_000)
    return ctx


async def run_class(target: Target, args) -> dict:
    from playwright.async_api import async_playwright

    state = {}  # page index -> "loading" | "open" | "closed"
    stop_sampling = asyncio.Event()
    result = {"server": target.name, "time_to_board": [], "reload_to_board": [],
              "board_since_create": [], "never_drawn": 0, "propagation": [],
              "propagation_missed": 0, "samples": [], "moves": 0, "driver_errors": 0}  # fmt: skip

    async def sample():
        while not stop_sampling.is_set():
            k, rss = tree_usage(target.proc.pid)
            result["samples"].append(
                {"t": round(time.monotonic() - t0, 1), "kernels": k, "rss_mib": round(rss),
                 "load1": os.getloadavg()[0],
                 "open_pages": sum(1 for v in state.values() if v == "open")}
            )  # fmt: skip
            try:
                await asyncio.wait_for(stop_sampling.wait(), 5)
            except TimeoutError:
                pass

    async def open_board(page, i, url, key):
        state[i] = "loading"
        start = time.monotonic()
        try:
            await page.goto(url, wait_until="commit", timeout=180_000)
            await page.wait_for_function(PAINTED, arg=BOARD, timeout=180_000, polling=200)
            result[key].append(time.monotonic() - start)
            if key == "time_to_board":
                result["board_since_create"].append(time.monotonic() - created_at)
            state[i] = "open"
        except Exception:  # noqa: BLE001 - counted, the run goes on
            result["never_drawn"] += 1
            state[i] = "broken"

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        console = await open_console(browser, target) if args.console else None
        if console is not None:
            await asyncio.sleep(args.form_seconds)  # the instructor fills in the New class form
        created_at = time.monotonic()
        links = target.create_class(args.teams, args.seats, args.seed)
        result["create_s"] = round(time.monotonic() - created_at, 2)
        seats = [(t["game_id"], s["url"]) for t in links["teams"] for s in t["seats"]]
        seats = seats[: args.open] if args.open else seats
        rng = random.Random(args.seed)
        n = result["pages"] = len(seats)
        reload_ids = set(rng.sample(range(n), round(args.reload * n)))
        close_ids = set(rng.sample(sorted(set(range(n)) - reload_ids), round(args.close * n)))
        contexts = [await browser.new_context(viewport={"width": 1366, "height": 768})
                    for _ in range(n)]  # fmt: skip
        pages = [await c.new_page() for c in contexts]
        t0 = time.monotonic()
        sampler = asyncio.create_task(sample())
        opens = []
        for i, (_gid, url) in enumerate(seats):
            opens.append(asyncio.create_task(open_board(pages[i], i, url, "time_to_board")))
            await asyncio.sleep(args.open_within / n)
        await asyncio.gather(*opens)
        result["all_opened_after_s"] = round(time.monotonic() - t0, 1)

        # --- play ---------------------------------------------------------------------------
        driver = target.driver()
        play_end = time.monotonic() + args.play
        events = sorted(
            [(rng.uniform(0.1, 0.9) * args.play, "reload", i) for i in reload_ids]
            + [(rng.uniform(0.1, 0.9) * args.play, "close", i) for i in close_ids]
        )
        play_start = time.monotonic()
        pending: list[asyncio.Task] = []

        async def churn():
            for at, what, i in events:
                await asyncio.sleep(max(0, play_start + at - time.monotonic()))
                if state.get(i) != "open":
                    continue
                if what == "close":
                    state[i] = "closed"
                    await pages[i].close()
                else:
                    pending.append(asyncio.create_task(
                        open_board(pages[i], i, seats[i][1], "reload_to_board")))  # fmt: skip

        async def seen(i, needle, since):
            try:
                await pages[i].wait_for_function(SHOWS, arg=needle, timeout=60_000, polling=100)
                result["propagation"].append(time.monotonic() - since)
            except Exception:  # noqa: BLE001
                if state.get(i) == "open":
                    result["propagation_missed"] += 1

        churner = asyncio.create_task(churn())
        games = sorted({g for g, _ in seats})
        loop = asyncio.get_running_loop()
        while time.monotonic() < play_end:
            for gid in games:
                driver.stdin.write(f"{gid}\n")
                driver.stdin.flush()
                line = await loop.run_in_executor(None, driver.stdout.readline)
                since = time.monotonic()
                out = json.loads(line)
                if out.get("error"):
                    result["driver_errors"] += 1
                if not out.get("needle"):
                    continue
                result["moves"] += 1
                for i, (g, _url) in enumerate(seats):
                    if g == gid and state.get(i) == "open":
                        pending.append(asyncio.create_task(seen(i, out["needle"], since)))
            await asyncio.sleep(args.move_every)
        await churner
        await asyncio.gather(*pending, return_exceptions=True)
        driver.stdin.close()
        driver.wait(30)
        result["kernel_rss_mib"] = sorted(round(r) for r in kernel_rss(target.proc.pid))

        # --- every page closed ------------------------------------------------------------
        for i, pg in enumerate(pages):
            if state.get(i) != "closed":
                await pg.close(run_before_unload=True)
                state[i] = "closed"
        await asyncio.sleep(args.settle)
        stop_sampling.set()
        await sampler
        result["kernels_left_after_close"] = tree_usage(target.proc.pid)[0]
        try:  # this tree's server says how many of them are its preheat pool
            with urllib.request.urlopen(target.base + "/hexclass/api/status", timeout=10) as r:
                status = json.load(r)
            result["pool_after_close"] = status["preheated"]
            result["with_page_after_close"] = status["with_page"]
        except OSError:
            result["pool_after_close"] = None  # the old server has no such report
        for c in contexts:
            await c.close()
        if console is not None:
            await console.close()
        await browser.close()
    return result


def summary(r: dict) -> dict:
    s = r["samples"]
    during = list(s)
    return {
        "server": r["server"],
        "board p50 s": pct(r["time_to_board"], 50),
        "board p95 s": pct(r["time_to_board"], 95),
        "board max s": max(r["time_to_board"], default=None),
        "board since create p95 s": pct(r["board_since_create"], 95),
        "reload board p50 s": pct(r["reload_to_board"], 50),
        "never drawn": r["never_drawn"],
        "propagation p50 s": pct(r["propagation"], 50),
        "propagation p95 s": pct(r["propagation"], 95),
        "propagation missed": r["propagation_missed"],
        "moves": r["moves"],
        "kernels peak": max((x["kernels"] for x in during), default=None),
        "kernels end of play": next(
            (x["kernels"] for x in reversed(during) if x["open_pages"] > 0), None
        ),
        "kernels left after close": r["kernels_left_after_close"],
        "of which preheat pool": r.get("pool_after_close"),
        "RSS peak MiB": max((x["rss_mib"] for x in during), default=None),
        "RSS end of play MiB": next(
            (x["rss_mib"] for x in reversed(during) if x["open_pages"] > 0), None
        ),
        "kernel RSS median MiB": statistics.median(r["kernel_rss_mib"])
        if r["kernel_rss_mib"]
        else None,
        "kernel RSS max MiB": max(r["kernel_rss_mib"], default=None),
        "load1 median": round(statistics.median(x["load1"] for x in during), 1) if during else None,
        "load1 max": round(max(x["load1"] for x in during), 1) if during else None,
    }


def table(rows: list[dict]) -> str:
    keys = list(rows[0])
    width = max(len(k) for k in keys)

    def fmt(v):
        return f"{v:.2f}" if isinstance(v, float) else str(v)

    lines = [f"{'':<{width}}  " + "  ".join(f"{r['server']:>14}" for r in rows)]
    for k in keys[1:]:
        lines.append(f"{k:<{width}}  " + "  ".join(f"{fmt(r[k]):>14}" for r in rows))
    return "\n".join(lines)


def baseline_tree(commit: str, workdir: pathlib.Path) -> pathlib.Path:
    tree = workdir / f"baseline-{commit}"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
        check=True, capture_output=True,
    )  # fmt: skip
    return tree


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--teams", type=int, default=6)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--open-within", type=float, default=60.0, help="seconds to open every page in")
    ap.add_argument("--play", type=float, default=600.0, help="seconds of play (600)")
    ap.add_argument("--move-every", type=float, default=5.0, help="seconds between rounds of moves")
    ap.add_argument("--reload", type=float, default=0.2, help="share of pages reloaded once")
    ap.add_argument("--close", type=float, default=0.1, help="share of pages closed for good")
    ap.add_argument("--settle", type=float, default=30.0, help="seconds after closing every page")
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--baseline", default=None, metavar="COMMIT", help="also run this commit")
    ap.add_argument("--json", type=pathlib.Path, default=None)
    ap.add_argument("--open", type=int, default=0, help="open only the first N seat links")
    ap.add_argument("--console", action="store_true", help="the console open before Create")
    ap.add_argument("--form-seconds", type=float, default=20.0,
                    help="with --console: seconds from the console drawn to Create (20)")  # fmt: skip
    ap.add_argument("--right-after-create", action="store_true",
                    help="2 x 5 seats, console open, 5 seats opened within 5 s of Create")  # fmt: skip
    args = ap.parse_args(argv)
    if args.right_after_create:
        args.teams, args.seats, args.open, args.open_within, args.console = 2, 5, 5, 5.0, True
        args.play, args.reload, args.close, args.settle = 10.0, 0.0, 0.0, 5.0
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="class-load-"))
    targets = []
    if args.baseline:
        targets.append(
            Target(f"main@{args.baseline[:7]}", baseline_tree(args.baseline, workdir), workdir)
        )
    targets.append(Target("this tree", ROOT, workdir))
    results = []
    try:
        for t in targets:
            print(f"--- {t.name}: serving on {t.base} (logs in {workdir})", flush=True)
            t.start()
            try:
                results.append(asyncio.run(run_class(t, args)))
            finally:
                t.stop()
            print(json.dumps(summary(results[-1])), flush=True)
    finally:
        if args.baseline:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force",
                 str(workdir / f"baseline-{args.baseline}")], capture_output=True,
            )  # fmt: skip
    rows = [summary(r) for r in results]
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)},
                                         "summary": rows, "runs": results}, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
