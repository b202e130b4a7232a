"""Co-op propagation in real browsers: one seat's move showing on its teammates' boards.

Run:  .venv/bin/python benchmarks/coop_propagation.py [--teams 1 6] [--moves 9]

For each team size, ``hexclass serve`` runs with a fresh store; a class of T teams is
created; every seat page (5 per team) opens in its own browser context, i.e. its own
Voilà kernel. Each page records, with the wall clock, every change of its message line
(a seat page announces every move it receives from the store after redrawing the board).
Moves are made by clicking on one seat's page at a time, round-robin across teams. The
latency of a move on a teammate's page is the time from the click on the acting page to
that page's announcement. Targets: p95 <= 150 ms for one team, p95 <= 250 ms for six
teams (30 seat pages) on this 2-core machine, and memory per seat kernel <= 150 MiB.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexclass.classroom.sessions import create_class, open_store  # noqa: E402
from hexclass.widgets.ca_board import CABoardView  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, HexclassServer, canvas_point  # noqa: E402

SEATS = ("armour", "D", "E", "F", "support")
MOVES = [
    ("D", "D1"),
    ("E", "E1"),
    ("F", "F1"),
    ("support", "M1"),
    ("D", "D2"),
    ("E", "E2"),
    ("F", "F2"),
    ("support", "M2"),
    ("D", "D3"),
    ("E", "E3"),
    ("F", "F3"),
]
WATCH = """() => {
  window.__seen = [];
  const target = document.querySelector('.hx-message') ? document.querySelector('.hx-message').parentElement : document.body;
  new MutationObserver(() => {
    const m = document.querySelector('.hx-message');
    if (m) window.__seen.push([Date.now(), m.innerText]);
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
  document.addEventListener('mousedown', () => { window.__click = Date.now(); }, true);
}"""


def seat_kernels_rss() -> list[float]:
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if b"ipykernel" not in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out.append(int(line.split()[1]) / 1024)
        except OSError:
            continue
    return out


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run(teams: int, moves: int, browser) -> tuple[list[float], list[float]]:
    store = pathlib.Path(tempfile.mkdtemp()) / "class.db"
    server = HexclassServer(store)
    geometry = CABoardView().board
    try:
        links = create_class(open_store(store), teams=teams, seed=5, base_url=server.base).to_json()
        pages = []
        for team in links["teams"]:
            seat_pages = {}
            for s in team["seats"]:
                ctx = browser.new_context(viewport={"width": 1300, "height": 950})
                pg = ctx.new_page()
                pg.goto(s["url"])
                seat_pages[s["seat"]] = pg
            pages.append(seat_pages)
        for seat_pages in pages:
            for pg in seat_pages.values():
                pg.wait_for_selector(".hexclass-seat canvas", timeout=180_000)
        time.sleep(3)
        for seat_pages in pages:
            for pg in seat_pages.values():
                pg.evaluate(WATCH)
        from hexclass.classroom.combined_arms import new_game

        board = new_game(5).board
        rear = [h for h in board.friendly_edge if h not in board.road_set]
        lat = []
        for i in range(min(moves, len(MOVES))):
            seat, uid = MOVES[i]
            h = rear["DEFM".index(uid[0])]  # one hex per company: rifle companies never share
            for seat_pages in pages:
                actor = seat_pages[seat]
                actor.get_by_role("button", name=uid, exact=True).click()
                actor.wait_for_function(
                    "(u) => { const m = document.querySelector('.hx-message'); return !!m && m.innerText.includes(u + ' selected'); }",
                    arg=uid,
                    timeout=20_000,
                    polling=20,
                )
                actor.mouse.click(*canvas_point(actor, geometry, h))
                label = board.label(h)
                text = f"{uid} enters at {label}"
                actor.wait_for_function(
                    "(t) => { const m = document.querySelector('.hx-message'); return !!m && m.innerText.includes(t); }",
                    arg=text,
                    timeout=20_000,
                    polling=20,
                )
                t_click = actor.evaluate("() => window.__click")
                for name, pg in seat_pages.items():
                    if name == seat:
                        continue
                    pg.wait_for_function(
                        "(t) => window.__seen.some(s => s[1].includes(t))",
                        arg=text,
                        timeout=20_000,
                        polling=10,
                    )
                    seen = pg.evaluate("(t) => window.__seen.find(s => s[1].includes(t))[0]", text)
                    lat.append(seen - t_click)
        rss = seat_kernels_rss()
        for seat_pages in pages:
            for pg in seat_pages.values():
                pg.context.close()
        return lat, rss
    finally:
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--teams", type=int, nargs="+", default=[1, 6])
    ap.add_argument("--moves", type=int, default=9)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for t in args.teams:
            lat, rss = run(t, args.moves, browser)
            target = 150 if t == 1 else 250
            print(
                f"{t} team(s), {5 * t} seat pages: move -> teammates' boards p50 {statistics.median(lat):.0f} ms, "
                f"p95 {pct(lat, 0.95):.0f} ms, max {max(lat):.0f} ms over {len(lat)} observations "
                f"(target p95 <= {target} ms)"
            )
            print(
                f"   seat kernel memory (VmRSS): median {statistics.median(rss):.0f} MiB, max {max(rss):.0f} MiB "
                f"over {len(rss)} kernels (target <= 150 MiB)"
            )
        browser.close()
    print("machine: 2 shared cores; browsers, server and kernels all on it")


if __name__ == "__main__":
    main()
