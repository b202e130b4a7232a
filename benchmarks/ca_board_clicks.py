"""Kernel time of one click on the solitaire board, by kind of click (no browser).

Run:  .venv/bin/python benchmarks/ca_board_clicks.py [--repeat 40] [--compare-with REV]

``--compare-with REV`` also loads ``widgets/ca_app.py`` as it was at git revision REV
(e.g. the page before the controller, ``9ab1868``) and times the same clicks on it,
interleaved, so the ratio is measured side by side on this noisy machine.

Each click goes through the whole page handler of ``hexclass.widgets.ca_app.GameApp``: the
controller asks the engine (``query``), the highlights are recomputed, the overlay
layer repainted and the side panels refreshed. This is the kernel's share of the
click -> redraw latency that ``ca_page.py`` measures in Chromium (target p90 <= 25 ms).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexclass.classroom.combined_arms import new_game  # noqa: E402
from hexclass.classroom.combined_arms.scenarios import load_position  # noqa: E402
from hexclass.widgets.ca_app import solitaire_app  # noqa: E402


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def load_app_module(rev: str):
    """``widgets/ca_app.py`` at git revision ``rev``, imported as a sibling module."""
    import importlib.util
    import subprocess
    import tempfile

    text = subprocess.run(
        ["git", "show", f"{rev}:widgets/ca_app.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = pathlib.Path(tempfile.mkdtemp()) / "ca_app_old.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("hexclass.widgets.ca_app_old", path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "hexclass.widgets"
    spec.loader.exec_module(module)
    return module


def clicks(make_app, repeat: int) -> dict[str, list[float]]:
    app = make_app(8152597)
    b = app.state.board
    rows = {}
    rows["select armour off the board (move phase)"] = timed(lambda: app.select("A1"), repeat)
    rows["click an empty hex with a rifle platoon selected"] = timed(
        lambda: (app.select("D1"), app.on_board_click(b.hex_at("5e"))), repeat
    )
    # fire phase on the rulebook's covering-fire position: gather, then a target
    app.replace_game(new_game(1, position=load_position("sample-turn04-covering-fire")))
    s = app.state
    e3, m2, target = s.units["E3"].hex, s.units["M2"].hex, s.board.hex_at("4d")

    def gather_and_target():
        app.clear()
        app.on_board_click(e3)
        app.on_board_click(m2)
        app.on_board_click(target)

    rows["fire phase: 2 firers gathered + target (3 clicks)"] = timed(gather_and_target, repeat)
    rows["hover an enemy counter with firers gathered"] = timed(
        lambda: app.on_hover(target), repeat
    )
    assert not app.errors, app.errors
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=40)
    ap.add_argument("--compare-with", default=None, help="git revision of an older ca_app.py")
    args = ap.parse_args()
    makers = {"now": lambda seed: solitaire_app(seed, animate=False)}
    if args.compare_with:
        old = load_app_module(args.compare_with)
        makers[args.compare_with] = lambda seed: old.solitaire_app(seed, animate=False)
    runs = {k: {} for k in makers}
    for _ in range(3):  # interleaved rounds: both pages see the same machine load
        for name, make in makers.items():
            for row, ms in clicks(make, max(1, args.repeat // 3)).items():
                runs[name].setdefault(row, []).extend(ms)
    print("kernel time per click (ms), shared 2-core machine: p50 / p90 / max")
    for row in runs["now"]:
        line = f"  {row}: " + "; ".join(
            f"{name} {statistics.median(r[row]):.1f} / {pct(r[row], 0.9):.1f} / {max(r[row]):.1f}"
            for name, r in runs.items()
        )
        if args.compare_with:
            ratio = statistics.median(runs["now"][row]) / statistics.median(
                runs[args.compare_with][row]
            )
            line += f" (ratio of medians {ratio:.2f})"
        print(line)


if __name__ == "__main__":
    main()
