"""Where the CPU of a seat open goes: the server and its kernels against the browser.

    .venv/bin/python benchmarks/seat_open_cpu.py               # one team of 5, one page at a time
    .venv/bin/python benchmarks/seat_open_cpu.py --seats 3 --warm 30

``class_load.py`` runs its Chromium pages on the server's own two cores, which a class
does not (each student's laptop draws its own page). This script starts ``hexclass serve``
with a fresh store, creates one team of ``--seats`` seats, waits ``--warm`` seconds for the
seat pool, then opens the seat links **one at a time** in headless Chromium. For each open
it reads the CPU time (``/proc/PID/stat``, user + system) of the server's process tree and
of Chromium's processes from the request until the board's canvas has pixels, and prints
the wall time and the two CPU times. After the last open it waits ``--idle`` seconds and
gives each process's share of a core with every page open and idle.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
BOARD_DRAWN = "() => [...document.querySelectorAll('canvas')].some(c => c.width > 100)"
HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (0 when it is gone)."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / HZ


def children(pid: int) -> list[int]:
    """Every descendant of ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            parent = int(
                pathlib.Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]
            )
        except OSError:
            continue
        if parent == pid:
            found += [int(entry), *children(int(entry))]
    return found


def spent(before: dict[int, float], pids: list[int]) -> float:
    """CPU seconds ``pids`` used since ``before`` (a process born since counts from 0)."""
    return sum(cpu_seconds(q) - before.get(q, 0.0) for q in pids)


def chromium_pids() -> list[int]:
    out = subprocess.run(["pgrep", "-f", "chromium"], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, workdir: pathlib.Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.store = workdir / "class.db"
        self.env = {**os.environ, "HEXCLASS_STORE": str(self.store),
                    "HEXCLASS_INSTRUCTOR_KEY": "seat-open-cpu-benchmark"}  # fmt: skip
        self.log = open(workdir / "serve.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hexclass", "serve", f"--port={self.port}", f"--store={self.store}"],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        for _ in range(480):
            try:
                urllib.request.urlopen(self.base + "/hexclass/api/status", timeout=3)
                return
            except OSError:
                time.sleep(0.5)
        raise RuntimeError("the server did not start")

    def links(self, seats: int) -> list[str]:
        out = subprocess.run(
            [sys.executable, "-m", "hexclass", "class", "new", "--teams", "1", "--seats", str(seats),
             "--seed", "3", "--json", "--store", str(self.store), "--base-url", self.base],
            cwd=ROOT, env=self.env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return [s["url"] for t in json.loads(out.stdout)["teams"] for s in t["seats"]]

    def tree(self) -> list[int]:
        return [self.proc.pid, *children(self.proc.pid)]

    def stop(self) -> None:
        family = self.tree()
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            pass
        for pid in family:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        self.log.close()


async def measure(server: Server, links: list[str], args) -> list[dict]:
    from playwright.async_api import async_playwright

    opens = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        await asyncio.sleep(args.warm)  # the seat pool starts its kernels
        for url in links:
            before = {pid: cpu_seconds(pid) for pid in server.tree() + chromium_pids()}
            start = time.monotonic()
            ctx = await browser.new_context(viewport={"width": 1366, "height": 768})
            page = await ctx.new_page()
            await page.goto(url, timeout=180_000)
            await page.wait_for_function(BOARD_DRAWN, timeout=180_000, polling=100)
            wall = time.monotonic() - start
            opens.append({"wall_s": wall, "server_cpu_s": spent(before, server.tree()),
                          "chromium_cpu_s": spent(before, chromium_pids())})  # fmt: skip
            print(f"open {len(opens)}: wall {wall:.2f} s; CPU: server and kernels "
                  f"{opens[-1]['server_cpu_s']:.2f} s, Chromium {opens[-1]['chromium_cpu_s']:.2f} s",
                  flush=True)  # fmt: skip
            await asyncio.sleep(3)
        before = {pid: cpu_seconds(pid) for pid in server.tree() + chromium_pids()}
        await asyncio.sleep(args.idle)
        server_share = 100 * spent(before, server.tree()) / args.idle
        chromium_share = 100 * spent(before, chromium_pids()) / args.idle
        print(f"idle with {len(links)} pages open, {args.idle:.0f} s: server and kernels "
              f"{server_share:.1f} % of a core, Chromium {chromium_share:.1f} %")  # fmt: skip
        await browser.close()
    return opens


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--warm", type=float, default=25.0, help="seconds for the seat pool first")
    ap.add_argument("--idle", type=float, default=20.0, help="seconds of idle pages measured")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="seat-open-cpu-") as tmp:
        server = Server(pathlib.Path(tmp))
        try:
            opens = asyncio.run(measure(server, server.links(args.seats), args))
        finally:
            server.stop()
    for key in ("wall_s", "server_cpu_s", "chromium_cpu_s"):
        print(f"median {key}: {statistics.median(o[key] for o in opens):.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
