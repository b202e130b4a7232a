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
import os
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_load import CHROMIUM, CHROMIUM_ARGS, ROOT, Target, descendants  # noqa: E402

BOARD_DRAWN = "() => [...document.querySelectorAll('canvas')].some(c => c.width > 100)"
HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (0 when it is gone)."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / HZ


def spent(before: dict[int, float], pids: list[int]) -> float:
    """CPU seconds ``pids`` used since ``before`` (a process born since counts from 0)."""
    return sum(cpu_seconds(q) - before.get(q, 0.0) for q in pids)


def chromium_pids() -> list[int]:
    """This script's own Chromium processes (any other Chromium on the machine, a test
    run's, is not counted)."""
    mine = []
    for pid in descendants(os.getpid()):
        try:
            if "chrom" in pathlib.Path(f"/proc/{pid}/comm").read_text():
                mine.append(pid)
        except OSError:
            continue
    return mine


async def measure(server: Target, links: list[str], args) -> list[dict]:
    from playwright.async_api import async_playwright

    opens = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        await asyncio.sleep(args.warm)  # the seat pool starts its kernels
        for url in links:
            before = {pid: cpu_seconds(pid) for pid in server.family() + chromium_pids()}
            start = time.monotonic()
            ctx = await browser.new_context(viewport={"width": 1366, "height": 768})
            page = await ctx.new_page()
            await page.goto(url, timeout=180_000)
            await page.wait_for_function(BOARD_DRAWN, timeout=180_000, polling=100)
            wall = time.monotonic() - start
            opens.append({"wall_s": wall, "server_cpu_s": spent(before, server.family()),
                          "chromium_cpu_s": spent(before, chromium_pids())})  # fmt: skip
            print(f"open {len(opens)}: wall {wall:.2f} s; CPU: server and kernels "
                  f"{opens[-1]['server_cpu_s']:.2f} s, Chromium {opens[-1]['chromium_cpu_s']:.2f} s",
                  flush=True)  # fmt: skip
            await asyncio.sleep(3)
        before = {pid: cpu_seconds(pid) for pid in server.family() + chromium_pids()}
        await asyncio.sleep(args.idle)
        server_share = 100 * spent(before, server.family()) / args.idle
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
        server = Target("this tree", ROOT, pathlib.Path(tmp))
        server.start()
        try:
            made = server.create_class(1, args.seats, 3)
            links = [s["url"] for t in made["teams"] for s in t["seats"]]
            opens = asyncio.run(measure(server, links, args))
        finally:
            server.stop()
    for key in ("wall_s", "server_cpu_s", "chromium_cpu_s"):
        print(f"median {key}: {statistics.median(o[key] for o in opens):.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
