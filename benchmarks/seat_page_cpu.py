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
widget models and bytes sent before the board was drawn, and the renderer's main thread
its own CPU time until then (``Performance.getMetrics`` in thread ticks: the throttling's
pauses and the machine's other work are not in it, so it compares two pages on a busy
machine). It prints the medians.

``--floor`` also serves two pages of ``benchmarks/pages/`` with plain Voilà on the same
template and preheated kernels, and opens each after every seat link of this tree, in turn,
in the same slowed browser: ``floor.ipynb`` (one canvas the board's size, filled when the
browser is ready: Voilà's front end, the widget manager and ipycanvas, nothing of hexclass),
the part of the time no change to the seat page can remove; and ``board.ipynb`` (the seat's
board alone, drawn as the seat draws it), what a page that sent its board before its panels
could reach.

``--profile cpu,trace`` adds, after the timed loads, one load of another seat link per
kind, profiled, and prints where its time went: the page's milestones (first byte, HTML
complete, load event, kernel websocket open, widget states asked and delivered), the
renderer's script, style and layout time (``Performance.getMetrics``), every file fetched
(the resource timing: bytes, start and end), and either the JavaScript CPU samples by
file and function (``cpu``: the ``Profiler`` domain) or the main thread's self time by
trace event (``trace``: compiling, evaluating, style, layout, paint). A profiled load is
slower than a timed one and is not counted in the median.
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
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_load import (  # noqa: E402
    BOARD,
    CHROMIUM,
    CHROMIUM_ARGS,
    PAINTED,
    ROOT,
    Target,
    baseline_tree,
    free_port,
)

FLOORS = {  # name: notebook
    "floor (canvas only)": ROOT / "benchmarks" / "pages" / "floor.ipynb",
    "board only": ROOT / "benchmarks" / "pages" / "board.ipynb",
}


class Floor:
    """Plain Voilà serving one notebook of :data:`FLOORS` on hexclass' template, ``loads``
    kernels preheated (each has run the notebook before its page is asked for, as a seat's
    pool kernel has)."""

    def __init__(
        self, name: str, loads: int, workdir: pathlib.Path, front_end: str = "voila"
    ) -> None:
        """``front_end="lite"`` serves a copy of the notebook whose metadata asks the
        hexclass template for hexclass' own front end (``frontend/``), on a port of its own,
        so that ``benchmarks/lite_floor.py`` opens the same page under both."""
        from hexclass.classroom.serve import TEMPLATES

        self.name = name
        self.rows: list[dict] = []
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        notebook = FLOORS[name]
        if front_end != "voila":
            nb = json.loads(notebook.read_text())
            nb["metadata"].setdefault("hexclass", {})["front_end"] = front_end
            (workdir / front_end).mkdir(exist_ok=True)
            notebook = workdir / front_end / notebook.name
            notebook.write_text(json.dumps(nb))
        self.log = open(workdir / f"{notebook.stem}-{front_end}-voila.log", "w")  # noqa: SIM115
        env = {**os.environ, "JUPYTER_PATH": str(TEMPLATES)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={self.port}",
             "--Voila.ip=127.0.0.1", "--template=hexclass", "--preheat_kernel=True",
             f"--VoilaKernelManager.default_pool_size={loads}", "--VoilaKernelManager.fill_delay=0"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "voila/api/shutdown", timeout=5)
            except urllib.error.HTTPError:  # the server answers (405 to a GET): it is up
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(10 + 5 * loads)  # the preheated kernels start and run the notebook

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


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


NAVIGATION = """() => {
    const nav = performance.getEntriesByType('navigation')[0] || {};
    return {html_s: nav.responseEnd || 0, load_s: nav.loadEventEnd || 0};
}"""
RESOURCES = """() => {
    const nav = performance.getEntriesByType('navigation')[0] || {};
    const res = performance.getEntriesByType('resource').map(e => ({
        name: e.name, kind: e.initiatorType, start: e.startTime, end: e.responseEnd,
        bytes: e.transferSize, body: e.decodedBodySize}));
    return {now: performance.now(), res,
            nav: {first_byte: nav.responseStart, html_end: nav.responseEnd,
                  dom_ready: nav.domContentLoadedEventEnd, load: nav.loadEventEnd}};
}"""


def open_one(browser, url: str, slowdown: float, profile: str = "", board: str = BOARD) -> dict:
    """One seat link in a fresh context: request -> board painted (seconds), with the
    widget models and bytes the kernel websocket brought before it. With ``profile``
    ("cpu" or "trace") also where the page's time went (:func:`breakdown`)."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    got = {"bytes": 0, "models": None}
    marks: dict[str, float] = {}

    def frame(payload):
        got["bytes"] += len(payload)
        raw = payload if isinstance(payload, bytes) else payload.encode()
        if got["models"] is None and b"update_states" in raw:
            marks.setdefault("states", time.monotonic() - t0)
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

    def sent(payload):
        raw = payload if isinstance(payload, bytes) else payload.encode()
        if b"request_states" in raw:
            marks.setdefault("request_states", time.monotonic() - t0)

    def websocket(ws):
        if "/channels" in ws.url:
            marks.setdefault("ws_open", time.monotonic() - t0)
            ws.on("framereceived", frame)
            ws.on("framesent", sent)

    page.on("websocket", websocket)
    console: list[str] = []
    if profile:
        page.on("console", lambda m: console.append(f"{m.type}: {m.text[:160]}"))
    if profile == "cpu":
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 500})
        cdp.send("Profiler.start")
    elif profile == "trace":
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    # durations in the main thread's own CPU time: what the page cost, whatever the load
    cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
    t0 = time.monotonic()
    page.goto(url, wait_until="commit", timeout=300_000)
    page.wait_for_function(PAINTED, arg=board, timeout=300_000, polling=50 if profile else 100)
    got["board_s"] = time.monotonic() - t0
    got["load1"] = os.getloadavg()[0]
    cpu = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    got["main_cpu_s"] = round(cpu.get("TaskDuration", 0.0), 3)
    got["script_cpu_s"] = round(cpu.get("ScriptDuration", 0.0), 3)
    nav = page.evaluate(NAVIGATION)  # the page's own milestones, seconds from the request
    got.update({k: round(v / 1000, 2) for k, v in nav.items()})
    if profile:
        got["marks"] = {k: round(v, 2) for k, v in marks.items()}
        got["metrics"] = {
            m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]
        }
        if profile == "cpu":
            got["cpu_profile"] = cdp.send("Profiler.stop")["profile"]
        else:
            got["trace"] = browser.stop_tracing()
        got["timing"] = page.evaluate(RESOURCES)
        got["console"] = console
    ctx.close()
    return got


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute",
                    "v8", "loading", "blink.user_timing"]  # fmt: skip


def _short(url: str) -> str:
    """A resource's name without the server: ``voila/static/9484.voila.js``."""
    tail = url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0]
    return tail if len(tail) < 70 else "…" + tail[-69:]


def resource_lines(timing: dict) -> list[str]:
    """What the page fetched: totals by kind, then every file of more than 20 KB."""
    nav, res = timing["nav"], timing["res"]
    lines = [
        "  page (ms from the request): first byte {first_byte:.0f}, HTML complete {html_end:.0f}, "
        "DOM ready {dom_ready:.0f}, load event {load:.0f}".format(**nav)
    ]
    kinds: dict[str, list] = {}
    for r in res:
        ext = _short(r["name"]).rsplit(".", 1)[-1] if "." in _short(r["name"])[-6:] else r["kind"]
        kinds.setdefault(ext, []).append(r)
    for ext, rows in sorted(kinds.items(), key=lambda kv: -sum(r["body"] for r in kv[1])):
        lines.append(
            f"  {ext:>8}: {len(rows):3d} files, {sum(r['body'] for r in rows) / 1024:7.0f} KB "
            f"({sum(r['bytes'] for r in rows) / 1024:.0f} KB on the wire), "
            f"{min(r['start'] for r in rows):.0f}–{max(r['end'] for r in rows):.0f} ms"
        )
    for r in sorted(res, key=lambda r: r["start"]):
        if r["body"] > 20 * 1024:
            lines.append(
                f"    {r['start']:6.0f}–{r['end']:6.0f} ms {r['body'] / 1024:6.0f} KB  {_short(r['name'])}"
            )
    return lines


def cpu_lines(profile: dict, top: int = 12) -> list[str]:
    """The sampled JavaScript profile: self time by file and by function."""
    nodes = {n["id"]: n["callFrame"] for n in profile["nodes"]}
    by_node: dict[int, float] = {}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"][1:] + [0]):
        by_node[sample] = by_node.get(sample, 0.0) + delta / 1e6
    by_file: dict[str, float] = {}
    by_func: dict[str, float] = {}
    for node, sec in by_node.items():
        frame = nodes[node]
        where = _short(frame["url"]) if frame["url"] else frame["functionName"] or "(native)"
        by_file[where] = by_file.get(where, 0.0) + sec
        name = f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}"
        by_func[name] = by_func.get(name, 0.0) + sec
    total = sum(by_file.values())
    lines = [f"  sampled: {total:.2f} s"]
    for title, table in (("by file", by_file), ("by function", by_func)):
        lines.append(f"  {title}:")
        for name, sec in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"    {sec:6.2f} s {100 * sec / total:4.0f} %  {name}")
    return lines


def trace_lines(trace: bytes, top: int = 16) -> list[str]:
    """The renderer's main thread from a trace: self time by event (script evaluation,
    compilation, style, layout, paint …) and how busy it was."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}  # fmt: skip
    spans = [
        e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in mains and "dur" in e
    ]
    if not spans:
        return ["  (no main-thread events in the trace)"]
    thread = max(mains, key=lambda m: sum(1 for e in spans if (e["pid"], e["tid"]) == m))
    spans = sorted(
        (e for e in spans if (e["pid"], e["tid"]) == thread), key=lambda e: (e["ts"], -e["dur"])
    )
    self_us: dict[str, float] = {}
    stack: list[list] = []  # [end, name, time of its children, duration]
    busy, start = 0.0, spans[0]["ts"]

    def pop_until(ts):
        while stack and stack[-1][0] <= ts:
            end, name, child, dur = stack.pop()
            self_us[name] = self_us.get(name, 0.0) + dur - child

    for e in spans:
        pop_until(e["ts"])
        if stack:
            stack[-1][2] += e["dur"]
        else:
            busy += e["dur"]
        stack.append([e["ts"] + e["dur"], e["name"], 0.0, e["dur"]])
    pop_until(float("inf"))
    end = max(e["ts"] + e["dur"] for e in spans)
    lines = [
        f"  main thread busy {busy / 1e6:.2f} s of {(end - start) / 1e6:.2f} s traced; self time:"
    ]
    for name, us in sorted(self_us.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"    {us / 1e6:6.2f} s  {name}")
    return lines


def breakdown(row: dict) -> list[str]:
    """Where one profiled load's time went, as lines of text."""
    m = row["metrics"]
    lines = [
        f"  board {row['board_s']:.2f} s; websocket open {row['marks'].get('ws_open')}, states "
        f"asked {row['marks'].get('request_states')}, delivered {row['marks'].get('states')} s; "
        f"renderer: script {m.get('ScriptDuration', 0):.2f} s, style {m.get('RecalcStyleDuration', 0):.2f} s, "
        f"layout {m.get('LayoutDuration', 0):.2f} s, all tasks {m.get('TaskDuration', 0):.2f} s; "
        f"JS heap {m.get('JSHeapUsedSize', 0) / 2**20:.0f} MiB, {m.get('Nodes', 0):.0f} DOM nodes"
    ]
    lines += resource_lines(row["timing"])
    kinds: dict[str, int] = {}
    for text in row.get("console", []):
        kinds[text.split(":", 1)[0]] = kinds.get(text.split(":", 1)[0], 0) + 1
    lines.append(f"  console: {kinds or 'nothing'}; first: {row.get('console', [])[:3]}")
    if "cpu_profile" in row:
        lines += cpu_lines(row["cpu_profile"])
    if "trace" in row:
        lines += trace_lines(row["trace"])
    return lines


def keep(row: dict, stem: pathlib.Path) -> None:
    """A profiled load's raw profile (``.cpuprofile``) or trace (``.json``), for DevTools."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    if "cpu_profile" in row:
        stem.with_suffix(".cpuprofile").write_text(json.dumps(row["cpu_profile"]))
    if "trace" in row:
        stem.with_suffix(".json").write_bytes(row["trace"])
    stem.with_suffix(".timing.json").write_text(json.dumps(row["timing"], indent=1))


def run(target: Target, args, floors: tuple[Floor, ...] = ()) -> list[dict]:
    """The timed loads of ``target``'s seat links (each followed by one load of every page of
    ``floors``, kept in its ``rows``), then the profiled ones."""
    from playwright.sync_api import sync_playwright

    profiles = [p for p in args.profile.split(",") if p]
    target.start()
    try:
        links = target.create_class(1, 5, args.seed)
        urls = [s["url"] for s in links["teams"][0]["seats"]]
        timed, profiled = urls[: args.loads], urls[args.loads :][: len(profiles)]
        pool_ready(target, len(timed) + len(profiled))
        rows = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for url in timed:
                rows.append(open_one(browser, url, args.slowdown))
                print(f"  {target.name}: {rows[-1]}", flush=True)
                for floor in floors:
                    floor.rows.append(open_one(browser, floor.url, args.slowdown, board="canvas"))
                    print(f"  {floor.name}: {floor.rows[-1]}", flush=True)
            for url, kind in zip(profiled, profiles):
                row = open_one(browser, url, args.slowdown, profile=kind)
                print(f"  {target.name}, profiled ({kind}):", flush=True)
                print("\n".join(breakdown(row)), flush=True)
                if args.keep:
                    keep(row, args.keep / f"{target.name.split('@')[0].replace(' ', '-')}-{kind}")
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
    ap.add_argument("--profile", default="", metavar="cpu,trace",
                    help="after the timed loads, one more load each, profiled: 'cpu' (JavaScript "
                         "samples by file and function), 'trace' (the main thread's time by event)")  # fmt: skip
    ap.add_argument("--keep", type=pathlib.Path, default=None, metavar="DIR",
                    help="with --profile: write the raw profiles and traces here (DevTools opens them)")  # fmt: skip
    ap.add_argument("--floor", action="store_true",
                    help="after each of this tree's loads, one of a page with only a canvas and one with only the board")  # fmt: skip
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
    floors: list[Floor] = []
    try:
        for t in targets:
            if args.floor and t.tree == ROOT:
                floors = [Floor(name, args.loads, workdir) for name in FLOORS]
            results[t.name] = run(t, args, tuple(floors) if t.tree == ROOT else ())
        for floor in floors:
            results[floor.name] = floor.rows
    finally:
        for floor in floors:
            floor.stop()
        if args.baseline:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(workdir / f"baseline-{args.baseline}")], capture_output=True)  # fmt: skip
    for name, rows in results.items():
        times = [r["board_s"] for r in rows]
        cpu = statistics.median(r["main_cpu_s"] for r in rows)
        script = statistics.median(r["script_cpu_s"] for r in rows)
        loads = ", ".join(f"{r['load1']:.1f}" for r in rows)
        print(
            f"{name}: CPU slowed {args.slowdown:g}x, request -> board drawn median "
            f"{statistics.median(times):.2f} s (each: {', '.join(f'{t:.2f}' for t in times)}); "
            f"{rows[0]['models']} widget models, {statistics.median(r['bytes'] for r in rows) / 1024:.0f} KB "
            f"on the kernel websocket before the board; renderer main thread CPU median "
            f"{cpu:.2f} s (script {script:.2f} s, not slowed); HTML complete "
            f"{statistics.median(r['html_s'] for r in rows):.2f} s, load event (Voilà starts "
            f"its app) {statistics.median(r['load_s'] for r in rows):.2f} s; load {loads}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
