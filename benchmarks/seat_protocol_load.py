"""Seats opened without browsers: the server's own capacity, stage by stage.

    .venv/bin/python benchmarks/seat_protocol_load.py --seats 30 --within 60
    .venv/bin/python benchmarks/seat_protocol_load.py --curve 10,30,60 --within 60 --json out.json

``class_load.py`` opens real Chromium pages, so its figures mix the students' laptops with
the school server (on this machine both share two cores). Here each seat is a small
client that speaks to ``hexclass serve`` what a seat page's browser speaks, and nothing
else runs beside the server:

1. ``GET`` the seat link and read the whole answer: Voilà starts (or takes from its pool)
   a kernel, runs the page's notebook and streams the page; the cookies it sets are kept
   (the server binds the kernel's websocket to the page that started it);
2. read the kernel id from the page's ``jupyter-config-data``;
3. open the kernel's websocket, open the widget manager's control comm
   (``jupyter.widget.control``) and ask for every widget's state (``request_states``),
   as the page's widget manager does before it draws anything;
4. stop the clock when the ``update_states`` reply has arrived: the widget states are
   delivered, which is all the server does for a first paint.

Per seat it records the time to the render's first byte, the render complete (the
notebook executed), the websocket open and the states delivered, from the moment the
request was sent, with the number of widget models and the bytes received. Seats are
opened evenly over ``--within`` seconds, on a fresh server and class for each count of
``--curve``; the report gives p50/p95 per stage, the failures, and the load average.
Clients close their sockets at the end (their kernels are then given back by the server's
reload grace, as for a closed page).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import re
import struct
import sys
import tempfile
import time
import uuid
from http.cookies import SimpleCookie

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_load import ROOT, Target, pct  # noqa: E402
from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

CONFIG = re.compile(
    r'<script id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*</script>', re.S
)


CONTROL_VERSION = "1.0.0"  # ipywidgets' widget control protocol (its major must match)


def jupyter_message(session: str, msg_type: str, content: dict, metadata=None) -> str:
    """One shell message in the websocket's JSON form (no subprotocol)."""
    return json.dumps(
        {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "username": "load",
                "session": session,
                "msg_type": msg_type,
                "version": "5.3",
                "date": "",
            },
            "parent_header": {},
            "metadata": metadata or {},
            "content": content,
            "channel": "shell",
            "buffers": [],
        }
    )


def frame_message(frame: str | bytes) -> dict:
    """A message from the kernel's websocket: JSON text, or the binary form with buffers
    (a count, the offsets, then the JSON and the buffers)."""
    if isinstance(frame, str):
        return json.loads(frame)
    (n,) = struct.unpack("!I", frame[:4])
    offsets = struct.unpack(f"!{n}I", frame[4 : 4 + 4 * n])
    end = offsets[1] if n > 1 else len(frame)
    return json.loads(frame[offsets[0] : end].decode())


def cookie_header(response) -> str:
    jar = SimpleCookie()
    for raw in response.headers.get_list("Set-Cookie"):
        jar.load(raw)
    return "; ".join(f"{k}={m.value}" for k, m in jar.items())


async def open_seat(url: str, ws_base: str) -> dict:
    """One seat opened as a browser would, timed stage by stage (seconds from the request)."""
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
        HTTPRequest(url, request_timeout=600, streaming_callback=on_chunk), raise_error=False
    )
    out["status"] = response.code
    out["ttfb"] = first[0] if first else None
    out["render"] = time.monotonic() - t0
    if response.code != 200:
        return out
    page = b"".join(body).decode("utf-8", "replace")
    config = CONFIG.search(page)
    if config is None:
        out["status"] = "no kernel id in the page"
        return out
    kernel = json.loads(config.group(1))["kernelId"]
    session = uuid.uuid4().hex
    ws = await websocket_connect(
        HTTPRequest(
            f"{ws_base}/api/kernels/{kernel}/channels?session_id={session}",
            headers={"Cookie": cookie_header(response)},
            request_timeout=600,
        ),
        max_message_size=64 * 1024 * 1024,
    )
    out["ws"] = time.monotonic() - t0
    comm = uuid.uuid4().hex
    await ws.write_message(
        jupyter_message(
            session,
            "comm_open",
            {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}},
            {"version": CONTROL_VERSION},
        )
    )
    await ws.write_message(
        jupyter_message(
            session, "comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}
        )
    )
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
            break
    out["bytes"] = received
    ws.close()
    return out


async def open_class(urls: list[str], base: str, within: float) -> list[dict]:
    ws_base = base.replace("http://", "ws://")
    gap = within / max(1, len(urls))

    async def one(i: int, url: str) -> dict:
        await asyncio.sleep(i * gap)
        try:
            return await open_seat(url, ws_base)
        except Exception as exc:  # noqa: BLE001 - a seat that fails is counted, not fatal
            return {"status": f"{type(exc).__name__}: {exc}"}

    return await asyncio.gather(*(one(i, u) for i, u in enumerate(urls)))


STAGES = ("ttfb", "render", "ws", "states")


def summarise(seats: int, rows: list[dict], load: tuple) -> dict:
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
    out["load_average_after"] = load
    return out


def run_count(seats: int, args, workdir: pathlib.Path) -> dict:
    target = Target(f"protocol-{seats}", ROOT, workdir)
    target.start()
    try:
        teams = -(-seats // 5)
        made = target.create_class(teams, 5, args.seed)
        urls = [s["url"] for t in made["teams"] for s in t["seats"]][:seats]
        rows = asyncio.run(open_class(urls, target.base, args.within))
        return summarise(seats, rows, os.getloadavg())
    finally:
        target.stop()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seats", type=int, default=30, help="seats opened (one count)")
    ap.add_argument("--curve", default="", help="several counts in turn, e.g. 10,30,60")
    ap.add_argument("--within", type=float, default=60.0, help="seconds over which they open")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", type=pathlib.Path, help="write the results here too")
    args = ap.parse_args(argv)
    counts = [int(c) for c in args.curve.split(",") if c] or [args.seats]
    results = []
    with tempfile.TemporaryDirectory(prefix="hexclass-protocol-") as tmp:
        for n in counts:
            r = run_count(n, args, pathlib.Path(tmp))
            results.append(r)
            cells = " ".join(f"{s} {r[f'{s}_p50']:.2f}/{r[f'{s}_p95']:.2f}" for s in STAGES)
            print(
                f"{n:3d} seats within {args.within:.0f} s: {r['delivered']} delivered; p50/p95 s: {cells}; "
                f"{r['models_median']:.0f} models, {r['kb_median']:.0f} KB; load {r['load_average_after'][0]:.1f}"
                + (f"; failed: {r['failed']}" if r["failed"] else ""),
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
