"""Seats opened without browsers: the server's own capacity, stage by stage.

    .venv/bin/python benchmarks/seat_protocol_load.py --seats 30 --within 60
    .venv/bin/python benchmarks/seat_protocol_load.py --curve 15,30,60,90 --within 60
    .venv/bin/python benchmarks/seat_protocol_load.py --curve 30,60 --baseline 20ac706
    .venv/bin/python benchmarks/seat_protocol_load.py --seats 30 --warm 120 --follow 120
    .venv/bin/python benchmarks/seat_protocol_load.py --seats 30 --console-first 60 --console-warm 30

``class_load.py`` opens real Chromium pages, so its figures mix the students' laptops with
the school server (on this machine both share two cores). Here each seat is a small
client that speaks to ``hexclass serve`` what a seat page's browser speaks, and nothing
else runs beside the server:

1. ``GET`` the seat link and read the whole answer: Voilà starts (or takes from its pool)
   a kernel, runs the page's notebook and streams the page; the cookies it sets are kept
   (the server binds the kernel's websocket to the page that started it);
2. read the kernel id from the page's ``jupyter-config-data``;
3. open the kernel's websocket (with the ``v1.kernel.websocket.jupyter.org`` subprotocol,
   as the page's browser does; ``--legacy`` without), open the widget manager's control comm
   (``jupyter.widget.control``) and ask for every widget's state (``request_states``),
   as the page's widget manager does before it draws anything;
4. stop the clock when the ``update_states`` reply has arrived: the widget states are
   delivered, which is all the server does for a first paint.

Per seat it records the time to the render's first byte, the render complete (the
notebook executed), the websocket open and the states delivered, from the moment the
request was sent, with the number of widget models, the bytes received and whether the
seat's kernel came from the preheat pool or was started for the request (read from the
server's log). Seats are opened evenly over ``--within`` seconds, on a fresh server and
class for each count of ``--curve`` (so ``--within 60`` makes the counts seats per
minute); the report gives p50/p95 per stage, the failures, and the load average (1 min)
sampled every 2 s while the seats open.

``--warm SECONDS`` waits, after creating the class, until the seat pool has started a kernel
per seat (up to the pool's ceiling) and 10 s more, or that long: the links handed out a minute or two after
*Create*, rather than opened at once.

``--follow SECONDS`` keeps every seat's websocket open after the opens and reads it on, as
a page's widget manager does, then plays that long: a driver (``class_load.py``'s, on the
served tree's code) makes one legal move per game every ``--move-every`` seconds in the
store, and each open seat of the game is timed from the store taking the move until the
seat's message line shows it (an update of that HTML widget on the seat's websocket).
It reports propagation p50/p95, the moves no seat showed, and the longest silence of a
socket while playing (a page's kernel sends something at least every few seconds: its
presence check).

``--console-first SECONDS`` opens the instructor's console (the key given on the server's
key form, the page fetched, its websocket kept open) that long before creating the class,
as an instructor who makes the class on the console does, and opens the seats right after
*Create*: the server warms ``--console-warm`` seat kernels while a console is open.

``--baseline COMMIT`` runs a ``git worktree`` of that commit the same way before this
tree, count by count, in the same run (the worktree is removed at the end). Clients close
their sockets at the end (their kernels are then given back by the server's reload
grace, as for a closed page).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import pathlib
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from http.cookies import SimpleCookie

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import class_load  # noqa: E402
from class_load import ROOT, Target, baseline_tree, pct  # noqa: E402
from jupyter_server.services.kernels.connection.base import (  # noqa: E402
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

CONFIG = re.compile(
    r'<script id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*</script>', re.S
)


CONTROL_VERSION = "1.0.0"  # ipywidgets' widget control protocol (its major must match)


V1 = "v1.kernel.websocket.jupyter.org"  # the websocket subprotocol a page's browser asks for
LEGACY = False  # --legacy: ask for no subprotocol (JSON text, and binary frames with buffers)


def jupyter_message(session: str, msg_type: str, content: dict, metadata=None) -> str | bytes:
    """One shell message as the websocket carries it: a v1 frame (the channel and the
    message's parts behind 8-byte offsets), or with ``LEGACY`` JSON text."""
    header = {
        "msg_id": uuid.uuid4().hex,
        "username": "load",
        "session": session,
        "msg_type": msg_type,
        "version": "5.3",
        "date": "",
    }
    msg = {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}
    if not LEGACY:
        return serialize_msg_to_ws_v1(msg, "shell", pack=lambda part: json.dumps(part).encode())
    return json.dumps({**msg, "channel": "shell", "buffers": []})


def frame_message(frame: str | bytes) -> dict:
    """A message from the kernel's websocket (header, msg_type and content): a v1 frame,
    or with ``LEGACY`` JSON text or the legacy binary form with buffers (a count, the
    offsets, then the JSON and the buffers)."""
    if isinstance(frame, str):
        return json.loads(frame)
    if not LEGACY:
        _channel, parts = deserialize_msg_from_ws_v1(frame)
        header = json.loads(parts[0])
        return {
            "header": header,
            "msg_type": header.get("msg_type"),
            "content": json.loads(parts[3]),
        }
    (n,) = struct.unpack("!I", frame[:4])
    offsets = struct.unpack(f"!{n}I", frame[4 : 4 + 4 * n])
    end = offsets[1] if n > 1 else len(frame)
    return json.loads(frame[offsets[0] : end].decode())


def cookie_header(response) -> str:
    jar = SimpleCookie()
    for raw in response.headers.get_list("Set-Cookie"):
        jar.load(raw)
    return "; ".join(f"{k}={m.value}" for k, m in jar.items())


async def open_seat(url: str, ws_base: str, follow: bool = False, cookies: str = "") -> dict:
    """One seat opened as a browser would, timed stage by stage (seconds from the request).
    With ``follow`` the websocket stays open, read on by a :class:`SeatReader` (``reader``).
    ``cookies`` go with the page's request and its websocket's (the instructor's key)."""
    out: dict = {"url_tail": url[-6:]}
    t0 = time.monotonic()
    first: list[float] = []

    def on_chunk(chunk: bytes) -> None:
        if not first:
            first.append(time.monotonic() - t0)
        body.append(chunk)

    body: list[bytes] = []
    client = AsyncHTTPClient()
    response = await client.fetch(
        HTTPRequest(url, request_timeout=600, streaming_callback=on_chunk,
                    headers={"Cookie": cookies} if cookies else None),
        raise_error=False,
    )  # fmt: skip
    out["status"] = response.code
    out["ttfb"] = first[0] if first else None
    out["render"] = time.monotonic() - t0
    if response.code != 200:
        return out
    page = b"".join(body).decode("utf-8", "replace")
    out["page_kb"] = len(page.encode()) / 1024
    config = CONFIG.search(page)
    if config is None:
        out["status"] = "no kernel id in the page"
        return out
    kernel = out["kernel"] = json.loads(config.group(1))["kernelId"]
    session = uuid.uuid4().hex
    ws = await websocket_connect(
        HTTPRequest(
            f"{ws_base}/api/kernels/{kernel}/channels?session_id={session}",
            headers={"Cookie": "; ".join(c for c in (cookies, cookie_header(response)) if c)},
            request_timeout=600,
        ),
        max_message_size=64 * 1024 * 1024,
        subprotocols=None if LEGACY else [V1],
    )
    out["ws"] = time.monotonic() - t0
    comm = uuid.uuid4().hex
    for msg_type, content, metadata in (
        ("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}},
         {"version": CONTROL_VERSION}),
        ("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, None),
    ):  # fmt: skip
        message = jupyter_message(session, msg_type, content, metadata)
        await ws.write_message(message, binary=isinstance(message, bytes))
    received = 0
    while True:
        frame = await asyncio.wait_for(ws.read_message(), 600)
        if frame is None:
            out["status"] = "websocket closed before the states came"
            break
        received += len(frame)
        msg = frame_message(frame)
        data = msg.get("content", {}).get("data", {})
        if msg.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
            out["states"] = time.monotonic() - t0
            out["models"] = len(data.get("states", {}))
            out["state_kb"] = len(json.dumps(data.get("states", {})).encode()) / 1024
            break
    out["bytes"] = received
    if follow and "states" in out:
        out["reader"] = SeatReader(ws)
    else:
        ws.close()
    return out


TAGS = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """What a person reads in a piece of HTML: no tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(TAGS.sub(" ", text)).split())


class SeatReader:
    """Reads a seat's kernel websocket until it closes, as a page's widget manager does
    (a client that stops reading is, after a while, closed by the server for not answering
    its pings), keeping the message line's texts as they arrive (wall-clock time)."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.frames: list[float] = []  # arrival of every frame (time.time())
        self.lines: list[tuple[float, str]] = []  # the message line's texts, in order
        self.closed_at: float | None = None
        self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        while True:
            frame = await self.ws.read_message()
            now = time.time()
            if frame is None:
                self.closed_at = now
                return
            self.frames.append(now)
            raw = frame if isinstance(frame, bytes) else frame.encode()
            if b"hx-message" not in raw or (LEGACY and isinstance(frame, bytes)):
                continue  # the message line is an HTML widget's value (no buffers)
            data = frame_message(frame).get("content", {}).get("data", {})
            value = data.get("state", {}).get("value") if data.get("method") == "update" else None
            if isinstance(value, str) and "hx-message" in value:
                self.lines.append((now, plain(value)))

    def seen(self, needle: str, since: float) -> float | None:
        """Seconds from ``since`` until a message line with ``needle`` arrived (None: not yet)."""
        needle = plain(needle)
        for at, text in self.lines:
            if at >= since and needle in text:
                return at - since
        return None

    def longest_gap(self, start: float, end: float) -> float:
        """The longest silence of the socket between ``start`` and ``end`` (seconds)."""
        marks = [
            start,
            *(t for t in self.frames if start < t < end),
            min(end, self.closed_at or end),
        ]
        return max(b - a for a, b in zip(marks, marks[1:]))

    def close(self) -> None:
        self.ws.close()


async def open_class(urls: list[tuple[int, str]], base: str, within: float, follow: bool = False):
    # tornado's client runs 10 requests at a time and queues the rest; a class's students
    # do not wait for each other's pages
    AsyncHTTPClient.configure(None, max_clients=max(10, len(urls)))
    ws_base = base.replace("http://", "ws://")
    gap = within / max(1, len(urls))

    async def one(i: int, url: str) -> dict:
        await asyncio.sleep(i * gap)
        try:
            return await open_seat(url, ws_base, follow)
        except Exception as exc:  # noqa: BLE001 - a seat that fails is counted, not fatal
            return {"status": f"{type(exc).__name__}: {exc}"}

    return await asyncio.gather(*(one(i, u) for i, (_g, u) in enumerate(urls)))


async def open_console(target: Target) -> dict:
    """The instructor's console (the *New class* form), opened as the instructor's browser
    opens it: the key given on the server's key form (its cookie kept), the page fetched,
    its kernel's websocket opened and kept (the server warms seats while a console lives)."""
    client = AsyncHTTPClient()
    form = await client.fetch(target.base + "/hexclass/instructor-key", raise_error=False)
    jar = cookie_header(form)
    if form.code == 200:
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.body.decode()).group(1)
        given = await client.fetch(
            HTTPRequest(target.base + "/hexclass/instructor-key", method="POST",
                        body=urllib.parse.urlencode({"_xsrf": xsrf, "key": target.key}),
                        headers={"Cookie": jar}, follow_redirects=False),
            raise_error=False,
        )  # fmt: skip
        jar = "; ".join(c for c in (jar, cookie_header(given)) if c)
    url = f"{target.base}/voila/render/classroom/pages/instructor.ipynb"
    return await open_seat(url, target.base.replace("http://", "ws://"), follow=True, cookies=jar)


STAGES = ("ttfb", "render", "ws", "states")

# class_load's driver (one legal action per game and line, as one of its seats, on the
# served tree's own code), which also says when the store took the action (wall clock)
DRIVER = (
    class_load.DRIVER.replace("import json, sys", "import json, sys, time")
    .replace("            if result:\n", "            at = time.time()\n            if result:\n")
    .replace('"seat": choice[0]}', '"seat": choice[0], "at": at}')
)
assert '"at": at' in DRIVER and "at = time.time()" in DRIVER


async def play(target: Target, rows: list[dict], links: list[tuple[int, str]], args) -> dict:
    """Moves made in every game by a driver while the seats' readers follow: the time from
    the store taking a move to each open seat of its game showing it on its message line."""
    readers = [(gid, r.get("reader")) for (gid, _u), r in zip(links, rows)]
    games = sorted({gid for gid, rd in readers if rd is not None})
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(target.store)], cwd=target.tree,
                              env=target.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    loop = asyncio.get_running_loop()
    watches: list[tuple[SeatReader, str, float]] = []
    out = {"moves": 0, "driver_errors": 0}
    start = time.time()
    try:
        while time.time() - start < args.follow:
            for gid in games:
                driver.stdin.write(f"{gid}\n")
                driver.stdin.flush()
                answer = json.loads(await loop.run_in_executor(None, driver.stdout.readline))
                out["driver_errors"] += bool(answer.get("error"))
                if answer.get("needle"):
                    out["moves"] += 1
                    watches += [(rd, answer["needle"], answer["at"]) for g, rd in readers
                                if g == gid and rd is not None and rd.closed_at is None]  # fmt: skip
            await asyncio.sleep(args.move_every)
        await asyncio.sleep(args.move_every)  # the last moves' news arrive
    finally:
        driver.stdin.close()
        await loop.run_in_executor(None, driver.wait, 30)
    end = time.time()
    seen = [rd.seen(needle, at) for rd, needle, at in watches]
    live = [rd for _g, rd in readers if rd is not None]
    out["propagation"] = [t for t in seen if t is not None]
    out["missed"] = sum(1 for t in seen if t is None)
    missed = {
        needle: round(end - at, 1) for (_rd, needle, at), t in zip(watches, seen) if t is None
    }
    out["missed_needles"] = dict(list(missed.items())[:8])  # needle -> seconds it was given
    out["closed_during_play"] = sum(
        1 for rd in live if rd.closed_at is not None and rd.closed_at > start
    )
    out["longest_silence_s"] = round(max((rd.longest_gap(start, end) for rd in live), default=0), 1)
    for rd in live:
        rd.close()
    return out


def summarise(seats: int, rows: list[dict], loads: list[float]) -> dict:
    ok = [r for r in rows if "states" in r]
    out = {
        "seats": seats,
        "delivered": len(ok),
        "failed": [r["status"] for r in rows if "states" not in r],
    }
    for stage in STAGES:
        values = [r[stage] for r in ok if r.get(stage) is not None]
        out[f"{stage}_p50"], out[f"{stage}_p95"] = pct(values, 50), pct(values, 95)
    out["models_median"] = pct([r["models"] for r in ok], 50)
    out["kb_median"] = pct([r["bytes"] / 1024 for r in ok], 50)
    out["state_kb_median"] = pct([r["state_kb"] for r in ok], 50)
    out["page_kb_median"] = pct([r["page_kb"] for r in ok if "page_kb" in r], 50)
    out["from_pool"] = sum(1 for r in ok if r.get("kernel_from") == "pool")
    out["started_for_page"] = sum(1 for r in ok if r.get("kernel_from") == "started")
    out["load_median"] = round(statistics.median(loads), 1) if loads else None
    out["load_max"] = round(max(loads), 1) if loads else None
    return out


STARTED = re.compile(r"hexclass: kernel started (\w+) pid \S+ for (.+?); ")


def kernel_origins(log: pathlib.Path) -> dict[str, str]:
    """Kernel id prefix -> "pool" (preheated before its visitor came) or "started" (for
    the request itself), from the server's own log lines."""
    out = {}
    for m in STARTED.finditer(log.read_text(errors="replace")):
        out[m.group(1)] = "pool" if m.group(2) == "the preheat pool" else "started"
    return out


async def sample_load(stop: asyncio.Event, into: list[float]) -> None:
    while not stop.is_set():
        into.append(os.getloadavg()[0])
        try:
            await asyncio.wait_for(stop.wait(), 2)
        except TimeoutError:
            pass


async def run_seats(target: Target, seats: list[tuple[int, str]], args):
    """Open the seats (the load average sampled meanwhile); with ``--follow``, then play."""
    loads: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_load(stop, loads))
    try:
        rows = await open_class(seats, target.base, args.within, follow=args.follow > 0)
    finally:
        stop.set()
        await sampler
    followed = None
    if args.follow > 0:
        play_loads: list[float] = []
        stop = asyncio.Event()
        sampler = asyncio.create_task(sample_load(stop, play_loads))
        try:
            followed = await play(target, rows, seats, args)
        finally:
            stop.set()
            await sampler
            for r in rows:
                if r.get("reader") is not None:
                    r.pop("reader").close()
        followed["load_median"] = round(statistics.median(play_loads), 1) if play_loads else None
        followed["load_max"] = round(max(play_loads), 1) if play_loads else None
    return rows, loads, followed


def make_class(target: Target, seats: int, seed: int) -> list[tuple[int, str]]:
    links, teams = [], -(-seats // 5)
    while teams > 0:  # a class has at most 12 teams: more seats are several classes
        made = target.create_class(min(teams, 12), 5, seed + len(links))
        links += [(t["game_id"], s["url"]) for t in made["teams"] for s in t["seats"]]
        teams -= 12
    return links[:seats]


async def console_then_seats(target: Target, seats: int, args):
    """``--console-first``: the instructor's console opened that long before *Create*, and
    kept open while the seats open, as in a lesson where the class is made on the console."""
    console = await open_console(target)
    if "states" not in console:
        raise RuntimeError(f"the instructor console did not open: {console.get('status')}")
    try:
        await asyncio.sleep(args.console_first)
        pool = len(kernel_origins(target.log_path)) - 1  # less the solitaire page's
        links = await asyncio.get_running_loop().run_in_executor(
            None, make_class, target, seats, args.seed
        )
        rows, loads, followed = await run_seats(target, links, args)
    finally:
        if console.get("reader") is not None:
            console.pop("reader").close()
    return rows, loads, followed, pool


def run_count(seats: int, target: Target, args) -> dict:
    target.start()
    warmed: tuple[float, int | None] = (0.0, None)
    pool_at_create = None
    try:
        if args.console_first > 0:
            rows, loads, followed, pool_at_create = asyncio.run(
                console_then_seats(target, seats, args)
            )
        else:
            links = make_class(target, seats, args.seed)
            warmed = wait_for_pool(target, min(seats, args.class_size or 30), args.warm)
            rows, loads, followed = asyncio.run(run_seats(target, links, args))
    finally:
        target.stop()
    origins = kernel_origins(target.log_path)
    for r in rows:
        if "kernel" in r:
            r["kernel_from"] = origins.get(r["kernel"][:8], "unknown")
    out = {"server": target.name, **summarise(seats, rows, loads), "rows": rows}
    if followed is not None:
        times = followed["propagation"]
        out["follow"] = {**followed, "p50": pct(times, 50), "p95": pct(times, 95)}
    out["pool_at_create"] = pool_at_create
    return {**out, "pool_before_s": warmed[0], "pool_ready_before": warmed[1]}


def wait_for_pool(target: Target, want: int, seconds: float) -> tuple[float, int]:
    """With ``--warm``: wait (at most ``seconds``) until ``want`` seat kernels have been
    started for the pool (the server's log says so) and 10 s more for them to run the
    page's imports, as when the links are handed out a while after the class was created.
    Returns the seconds waited and the pool kernels started by then."""
    t0, started = time.monotonic(), 0
    while seconds > 0:
        started = len(kernel_origins(target.log_path)) - 1  # less the solitaire page's
        if started >= want:
            time.sleep(min(10, max(0, seconds - (time.monotonic() - t0))))
            break
        if time.monotonic() - t0 >= seconds:
            break
        time.sleep(1)
    return round(time.monotonic() - t0, 1), started


def line(r: dict, within: float) -> str:
    cells = " ".join(f"{s} {r[f'{s}_p50']:.2f}/{r[f'{s}_p95']:.2f}" for s in STAGES if r[f"{s}_p50"] is not None)  # fmt: skip
    text = (
        f"{r['server']:>14} {r['seats']:3d} seats within {within:.0f} s: {r['delivered']} delivered "
        f"({r['from_pool']} from the pool, {r['started_for_page']} started for the page); "
        f"p50/p95 s: {cells}; {r['models_median']} models, {r['kb_median']:.0f} KB received "
        f"({r['state_kb_median']:.0f} KB of states, page {r['page_kb_median']:.0f} KB); "
        f"load {r['load_median']} (max {r['load_max']})"
    )
    if r.get("pool_at_create") is not None:
        text += (
            f"; console opened before Create, {r['pool_at_create']} pool kernels started by Create"
        )
    if r.get("pool_before_s"):
        text += f"; opened {r['pool_before_s']} s after Create, {r['pool_ready_before']} pool kernels started"
    if r["failed"]:
        text += f"; failed: {r['failed']}"
    f = r.get("follow")
    if f is not None:
        p50 = "—" if f["p50"] is None else f"{f['p50']:.2f}"
        p95 = "—" if f["p95"] is None else f"{f['p95']:.2f}"
        text += (
            f"\n{'':>14} followed: {f['moves']} moves, propagation p50/p95 {p50}/{p95} s "
            f"({len(f['propagation'])} shown, {f['missed']} missed); longest silence of a socket "
            f"{f['longest_silence_s']} s, {f['closed_during_play']} closed; driver errors "
            f"{f['driver_errors']}; load {f['load_median']} (max {f['load_max']})"
        )
    return text


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seats", type=int, default=30, help="seats opened (one count)")
    ap.add_argument("--curve", default="", help="several counts in turn, e.g. 15,30,60,90")
    ap.add_argument("--within", type=float, default=60.0, help="seconds over which they open")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--baseline", default=None, metavar="COMMIT",
                    help="also run a git worktree of this commit, count by count")  # fmt: skip
    ap.add_argument("--class-size", type=int, default=0,
                    help="hexclass serve --class-size (the seat pool's ceiling; default: the server's)")  # fmt: skip
    ap.add_argument("--console-first", type=float, default=0.0, metavar="SECONDS",
                    help="open the instructor console this long before creating the class "
                         "(kept open), then open the seats at once")  # fmt: skip
    ap.add_argument("--console-warm", type=int, default=0,
                    help="hexclass serve --console-warm (default: the server's)")  # fmt: skip
    ap.add_argument("--warm", type=float, default=0.0,
                    help="after creating the class, wait up to this long for the seat pool to fill")  # fmt: skip
    ap.add_argument("--follow", type=float, default=0.0, metavar="SECONDS",
                    help="after the opens, keep every seat's websocket and play this long: "
                         "propagation to the seats of each game")  # fmt: skip
    ap.add_argument("--move-every", type=float, default=5.0,
                    help="with --follow: seconds between rounds of moves (one per game)")  # fmt: skip
    ap.add_argument("--json", type=pathlib.Path, help="write the results here too")
    ap.add_argument("--legacy", action="store_true",
                    help="open the kernel websockets without a subprotocol (the legacy form; "
                         "a page's browser asks for v1)")  # fmt: skip
    args = ap.parse_args(argv)
    global LEGACY
    LEGACY = args.legacy
    counts = [int(c) for c in args.curve.split(",") if c] or [args.seats]
    results = []
    with tempfile.TemporaryDirectory(prefix="hexclass-protocol-") as tmp:
        workdir = pathlib.Path(tmp)
        trees = [("this tree", ROOT)]
        if args.baseline:
            trees.insert(0, (f"main@{args.baseline[:7]}", baseline_tree(args.baseline, workdir)))
        try:
            for n in counts:
                for name, tree in trees:
                    fname = f"{name.split('@')[0].replace(' ', '-')}-{n}"
                    target = Target(fname, tree, workdir)
                    target.serve_args = (
                        *(("--class-size", str(args.class_size)) if args.class_size else ()),
                        *(("--console-warm", str(args.console_warm)) if args.console_warm else ()),
                    )
                    target.name, target.log_path = name, workdir / f"{fname}-serve.log"
                    r = run_count(n, target, args)
                    results.append(r)
                    print(line(r, args.within), flush=True)
        finally:
            if args.baseline:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(workdir / f"baseline-{args.baseline}")], capture_output=True)  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, "runs": results}, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
