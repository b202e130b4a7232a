"""A seat page on a slow laptop: Chromium with its CPU slowed down, request -> board drawn.

    .venv/bin/python benchmarks/seat_page_cpu.py --slowdown 4 --loads 3
    .venv/bin/python benchmarks/seat_page_cpu.py --slowdown 4 --loads 3 --baseline 20ac706

A school Chromebook runs JavaScript several times slower than this machine. For each server
(this tree, and with ``--baseline COMMIT`` a ``git worktree`` of that commit first, in the
same run) the script starts ``hexclass serve`` with a fresh store, creates a class of one
team of five and lets the seat pool fill; then it opens ``--loads`` different seat links,
one after the other, each in a fresh headless Chromium context (nothing cached, as a first
visit) whose CPU is slowed ``--slowdown`` times (the DevTools protocol's
``Emulation.setCPUThrottlingRate``). The clock runs from the request until the board
canvas has pixels; the frames the page's kernel websocket received until then give the
widget models and bytes sent before the board was drawn. It prints the median.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_load import BOARD, CHROMIUM, CHROMIUM_ARGS, PAINTED, ROOT, Target, baseline_tree  # noqa: E402


def pool_ready(target: Target, want: int, timeout: float = 180) -> int:
    """Wait until ``want`` seat kernels are preheated (or the timeout); how many are."""
    deadline = time.monotonic() + timeout
    ready = 0
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(target.base + "/hexclass/api/status", timeout=10) as r:
                ready = json.load(r).get("preheated", 0)
        except OSError:
            ready = 0
        if ready >= want:
            break
        time.sleep(1)
    return ready


def open_one(browser, url: str, slowdown: float) -> dict:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    got = {"bytes": 0, "models": None}

    def frame(payload):
        got["bytes"] += len(payload)
        if got["models"] is None and b"update_states" in (
            payload if isinstance(payload, bytes) else payload.encode()
        ):
            text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
            start = text.find("{")
            try:  # a text frame is the whole message; a binary one has its JSON after offsets
                msg = json.loads(text[start:]) if isinstance(payload, str) else None
            except ValueError:
                msg = None
            if msg is None:
                got["models"] = text.count('"model_name"')
            else:
                got["models"] = len(msg["content"]["data"]["states"])

    page.on(
        "websocket", lambda ws: ws.on("framereceived", frame) if "/channels" in ws.url else None
    )
    t0 = time.monotonic()
    page.goto(url, wait_until="commit", timeout=300_000)
    page.wait_for_function(PAINTED, arg=BOARD, timeout=300_000, polling=100)
    got["board_s"] = time.monotonic() - t0
    got["load1"] = os.getloadavg()[0]
    ctx.close()
    return got


def run(target: Target, args) -> list[dict]:
    from playwright.sync_api import sync_playwright

    target.start()
    try:
        links = target.create_class(1, 5, args.seed)
        urls = [s["url"] for s in links["teams"][0]["seats"]][: args.loads]
        pool_ready(target, len(urls))
        rows = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for url in urls:
                rows.append(open_one(browser, url, args.slowdown))
                print(f"  {target.name}: {rows[-1]}", flush=True)
            browser.close()
        return rows
    finally:
        target.stop()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--slowdown", type=float, default=4.0, help="CPU slowdown factor (4)")
    ap.add_argument("--loads", type=int, default=3, help="seat links opened, one at a time (≤ 5)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--baseline", default=None, metavar="COMMIT", help="also run this commit first")
    ap.add_argument("--json", type=pathlib.Path, default=None)
    args = ap.parse_args(argv)
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="seat-page-cpu-"))
    targets = []
    if args.baseline:
        tree = baseline_tree(args.baseline, workdir)
        targets.append(Target(f"main@{args.baseline[:7]}", tree, workdir))
    targets.append(Target("this tree", ROOT, workdir))
    results = {}
    try:
        for t in targets:
            results[t.name] = run(t, args)
    finally:
        if args.baseline:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(workdir / f"baseline-{args.baseline}")], capture_output=True)  # fmt: skip
    for name, rows in results.items():
        times = [r["board_s"] for r in rows]
        loads = ", ".join(f"{r['load1']:.1f}" for r in rows)
        print(
            f"{name}: CPU slowed {args.slowdown:g}x, request -> board drawn median "
            f"{statistics.median(times):.2f} s (each: {', '.join(f'{t:.2f}' for t in times)}); "
            f"{rows[0]['models']} widget models, {statistics.median(r['bytes'] for r in rows) / 1024:.0f} KB "
            f"on the kernel websocket before the board; load {loads}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
