"""The floor page under Voilà's front end and under hexclass' own, on a slow laptop.

    taskset -c 1 .venv/bin/python benchmarks/lite_floor.py --loads 6 --slowdown 4

``seat_page_cpu.py --floor`` found that a Voilà page holding only a board-sized ipycanvas
canvas (``benchmarks/pages/floor.ipynb``) takes seconds on a slow laptop before the canvas
is drawn, most of it fetching and running Voilà's JavaScript (JupyterLab's application, its
federated extensions, the widget manager). How much does a front end of our own save, one
with only the kernel connection, the ipywidgets manager and ipycanvas? ``frontend/`` is
that front end; the hexclass template loads it in place of Voilà's on a page whose
notebook metadata asks for it (``"hexclass": {"front_end": "lite"}``), with the same cells
and outputs.

Two plain Voilà servers on hexclass' template serve the page with preheated kernels
(:class:`~seat_page_cpu.Floor`): (a) ``floor.ipynb`` itself, with Voilà's front end,
exactly as ``seat_page_cpu.py --floor`` does, and (b) a copy whose metadata asks for the
lite front end, with the same options. One
headless Chromium opens them in turn, each load in a fresh context (nothing cached) whose
CPU is slowed ``--slowdown`` times (``Emulation.setCPUThrottlingRate``); the pair's order
alternates, and before every load the script waits until its own processes are idle again
(the pool's next kernel has started and run the notebook, the last page's kernel has been
shut down: each page is left for about:blank, which sends Voilà's shutdown beacon). The
clock runs from the request until the canvas holds the notebook's fill colour (read back
from its pixels: the kernel has drawn on it). Per load it records the load event, the renderer main thread's own CPU
time until the canvas was drawn (``Performance.getMetrics`` in thread ticks, as
``seat_page_cpu.py``), the JavaScript fetched until then (files and bytes, from the
resource timing), the kernel websocket's opening and its widget states' arrival, and the
bytes it received. It prints every load, the medians and the ratio lite / Voilà.

``--profile cpu,trace`` adds, after the timed loads, one load of each page per kind,
profiled and broken down by ``seat_page_cpu.py``'s own ``open_one`` and ``breakdown``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import seat_page_cpu  # noqa: E402
from class_load import CHROMIUM, CHROMIUM_ARGS, PAINTED, descendants  # noqa: E402
from seat_page_cpu import FLOORS, NAVIGATION, RESOURCES, Floor, _short  # noqa: E402

PAGES = {"floor": "floor (canvas only)", "board": "board only"}  # --page: FLOORS' names

# the canvas holds the notebook's fill colour: a few pixels read back, all of that colour
FILLED = """([r, g, b]) => {
    const c = document.querySelector('canvas');
    if (!c || !c.width || !c.height) return false;
    const ctx = c.getContext('2d');
    for (const [x, y] of [[0.5, 0.5], [0.05, 0.05], [0.95, 0.95]]) {
        const d = ctx.getImageData(Math.floor(x * c.width), Math.floor(y * c.height), 1, 1).data;
        if (d[0] !== r || d[1] !== g || d[2] !== b || d[3] !== 255) return false;
    }
    return true;
}"""


def fill_colour(notebook: pathlib.Path) -> list[int]:
    """The RGB of the ``fill_style`` the notebook fills its canvas with."""
    source = "".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"])
    hexa = re.search(r'fill_style\s*=\s*"#([0-9a-fA-F]{6})"', source).group(1)
    return [int(hexa[i : i + 2], 16) for i in (0, 2, 4)]


def tree_jiffies() -> int:
    """CPU time (jiffies) used so far by this process and everything it started (the Voilà
    servers, their kernels, Chromium)."""
    total = 0
    for pid in [os.getpid(), *descendants(os.getpid())]:
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total


def settle(busy: float = 0.1, timeout: float = 60.0) -> float:
    """Wait until this benchmark's processes used less than ``busy`` of a CPU over two 0.5 s
    spans in a row: the kernel the pool started for the last load has run its notebook, the
    last page has gone. Other work on the machine is not waited for (it is reported by the
    load average). How long it took."""
    hz = os.sysconf("SC_CLK_TCK")
    start = time.monotonic()
    calm = 0
    before = tree_jiffies()
    while time.monotonic() - start < timeout and calm < 2:
        time.sleep(0.5)
        after = tree_jiffies()
        calm = calm + 1 if (after - before) / hz / 0.5 < busy else 0
        before = after
    return time.monotonic() - start


def drawn_check(name: str) -> tuple[str, object]:
    """(predicate, its argument) that says the page's canvas is drawn: the floor's canvas
    holds its fill colour; the board has painted pixels (``class_load.PAINTED``, as
    ``seat_page_cpu.py`` waits for a board)."""
    if name == PAGES["floor"]:
        return FILLED, fill_colour(FLOORS[name])
    return PAINTED, "canvas"


def load(browser, url: str, slowdown: float, drawn: tuple[str, object]) -> dict:
    """One load of ``url`` in a fresh context, CPU slowed: request -> canvas drawn (s)."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    got: dict = {"ws_bytes": 0}
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)[:200]))

    def frame(payload):
        got["ws_bytes"] += len(payload)
        raw = payload if isinstance(payload, bytes) else payload.encode()
        if "states_s" not in got and b"update_states" in raw:
            got["states_s"] = round(time.monotonic() - t0, 2)

    def websocket(ws):
        if "/channels" in ws.url:
            got.setdefault("ws_open_s", round(time.monotonic() - t0, 2))
            ws.on("framereceived", frame)

    page.on("websocket", websocket)
    cdp.send("Performance.enable", {"timeDomain": "threadTicks"})  # as seat_page_cpu.open_one
    t0 = time.monotonic()
    page.goto(url, wait_until="commit", timeout=300_000)
    page.wait_for_function(drawn[0], arg=drawn[1], timeout=300_000, polling=50)
    got["drawn_s"] = round(time.monotonic() - t0, 3)
    got["load1"] = os.getloadavg()[0]
    cpu = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    got["main_cpu_s"] = round(cpu.get("TaskDuration", 0.0), 3)
    got["script_cpu_s"] = round(cpu.get("ScriptDuration", 0.0), 3)
    got["js_heap_mib"] = round(cpu.get("JSHeapUsedSize", 0.0) / 2**20, 1)
    got.update({k: round(v / 1000, 2) for k, v in page.evaluate(NAVIGATION).items()})
    scripts = [
        r for r in page.evaluate(RESOURCES)["res"] if _short(r["name"]).endswith((".js", ".mjs"))
    ]
    got["js_files"] = len(scripts)
    got["js_kb"] = round(sum(r["body"] for r in scripts) / 1024)
    got["js_wire_kb"] = round(sum(r["bytes"] for r in scripts) / 1024)
    got["errors"] = errors
    page.goto("about:blank")  # the page's beforeunload asks Voilà to shut its kernel down
    ctx.close()
    return got


def summary(name: str, rows: list[dict]) -> dict:
    def med(key):
        return statistics.median(r[key] for r in rows if r.get(key) is not None)

    return {
        "page": name,
        "drawn_each_s": [r["drawn_s"] for r in rows],
        "drawn_median_s": med("drawn_s"),
        "load_event_median_s": med("load_s"),
        "html_complete_median_s": med("html_s"),
        "ws_open_median_s": med("ws_open_s"),
        "states_median_s": med("states_s"),
        "main_cpu_median_s": med("main_cpu_s"),
        "script_cpu_median_s": med("script_cpu_s"),
        "js_files": sorted({r["js_files"] for r in rows}),
        "js_kb": sorted({r["js_kb"] for r in rows}),
        "js_wire_kb_median": med("js_wire_kb"),
        "ws_kb_median": round(med("ws_bytes") / 1024, 1),
        "load1_each": [round(r["load1"], 2) for r in rows],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--slowdown", type=float, default=4.0, help="CPU slowdown factor (4)")
    ap.add_argument("--loads", type=int, default=6, help="timed loads of each page (6)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed loads of each first (1)")
    ap.add_argument("--profile", default="", metavar="cpu,trace",
                    help="after the timed loads, one more load of each page per kind, profiled by "
                         "seat_page_cpu's open_one and breakdown: 'cpu' (JavaScript samples by file "
                         "and function), 'trace' (the main thread's time by event)")  # fmt: skip
    ap.add_argument("--json", type=pathlib.Path, default=None)
    ap.add_argument("--page", choices=sorted(PAGES), default="floor",
                    help="floor: one canvas (pages/floor.ipynb); board: the seat's board alone "
                         "(pages/board.ipynb)")  # fmt: skip
    args = ap.parse_args(argv)
    name = PAGES[args.page]
    from playwright.sync_api import sync_playwright

    drawn = drawn_check(name)
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="lite-floor-"))
    pages: list[Floor] = []
    try:
        profiles = [kind for kind in args.profile.split(",") if kind]
        pool = args.loads + args.warmup + len(profiles)
        pages.append(Floor(name, pool, workdir))
        pages[0].name = "Voilà front end"
        pages.append(Floor(name, pool, workdir, front_end="lite"))
        pages[1].name = "lite front end"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for i in range(args.warmup + args.loads):
                    for page in pages if i % 2 == 0 else pages[::-1]:
                        waited = settle()
                        row = load(browser, page.url, args.slowdown, drawn)
                        row["settle_s"] = round(waited, 1)
                        if i >= args.warmup:
                            page.rows.append(row)
                        tag = "warm-up" if i < args.warmup else f"load {i - args.warmup + 1}"
                        print(f"  {page.name}, {tag}: {row}", flush=True)
                for kind in profiles:
                    for page in pages:
                        settle()
                        row = seat_page_cpu.open_one(
                            browser, page.url, args.slowdown, profile=kind, board="canvas"
                        )
                        print(f"  {page.name}, profiled ({kind}):", flush=True)
                        print("\n".join(seat_page_cpu.breakdown(row)), flush=True)
            finally:
                browser.close()
    finally:
        for page in pages:
            page.stop()
    out = {page.name: summary(page.name, page.rows) for page in pages}
    out["runs"] = {page.name: page.rows for page in pages}
    voila, lite = (out[page.name] for page in pages)
    for s in (voila, lite):
        print(
            f"{s['page']}: CPU slowed {args.slowdown:g}x, request -> canvas drawn median "
            f"{s['drawn_median_s']:.2f} s (each: {', '.join(f'{t:.2f}' for t in s['drawn_each_s'])}); "
            f"HTML complete {s['html_complete_median_s']:.2f} s, load event {s['load_event_median_s']:.2f} s, "
            f"kernel websocket open {s['ws_open_median_s']:.2f} s, widget states in {s['states_median_s']:.2f} s; "
            f"renderer main thread CPU {s['main_cpu_median_s']:.2f} s (script {s['script_cpu_median_s']:.2f} s, "
            f"not slowed); JavaScript: {s['js_files']} files, {s['js_kb']} KB "
            f"({s['js_wire_kb_median']:.0f} KB on the wire); {s['ws_kb_median']} KB on the websocket; "
            f"load {', '.join(str(x) for x in s['load1_each'])}"
        )  # fmt: skip
    ratio = lite["drawn_median_s"] / voila["drawn_median_s"]
    print(
        f"lite / Voilà, request -> canvas drawn: {ratio:.2f} "
        f"({voila['drawn_median_s'] - lite['drawn_median_s']:.2f} s sooner)"
    )
    out["ratio_lite_voila"] = round(ratio, 3)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
