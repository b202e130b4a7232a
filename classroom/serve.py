"""``hexclass serve``: run the Voilà pages (home, solitaire, seats, instructor, lessons).

Voilà is started on the repository root, so the pages in ``classroom/pages/`` and the
notebooks in ``lessons/`` are both reachable; the printed address opens the home page.
Every kernel gets ``HEXCLASS_STORE`` so co-op pages share one store file. A kernel or
two is kept warm ("preheated") for the solitaire and seat pages, which makes their first
paint quicker.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
HOME = "classroom/pages/home.ipynb"
PREHEATED = {"classroom/pages/solitaire.ipynb": 2, "classroom/pages/seat.ipynb": 2}


def default_store() -> pathlib.Path:
    env = os.environ.get("HEXCLASS_STORE")
    return pathlib.Path(env) if env else pathlib.Path.home() / ".hexclass" / "class.db"


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, got {value}")
    return value


def add_serve_command(commands) -> None:
    p = commands.add_parser(
        "serve",
        help="serve the hexclass pages with Voilà and print the address",
        description=__doc__,
    )
    p.add_argument("--port", type=_port, default=8866, help="port to listen on (8866)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (127.0.0.1; 0.0.0.0 for a class network)",
    )
    p.add_argument(
        "--store",
        type=pathlib.Path,
        default=None,
        help="the co-op store file (default $HEXCLASS_STORE or ~/.hexclass/class.db)",
    )
    p.add_argument("--no-preheat", action="store_true", help="start every page's kernel on demand")
    p.set_defaults(run=run)


def voila_command(port: int, host: str, preheat: bool = True) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "voila",
        str(ROOT),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--ServerApp.open_browser=False",
    ]
    if preheat:
        pools = {name: {"pool_size": n} for name, n in PREHEATED.items()}
        pools["default"] = {"pool_size": 0}
        cmd += [
            "--preheat_kernel=True",
            f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
            "--VoilaKernelManager.fill_delay=0",
        ]
    return cmd


def run(args) -> int:
    store = (args.store or default_store()).expanduser().resolve()
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"hexclass serve: cannot use store {store}: {exc}", file=sys.stderr)
        return 2
    env = {**os.environ, "HEXCLASS_STORE": str(store)}
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '') else args.host}:{args.port}/voila/render/{HOME}"
    print(f"hexclass is starting; open {url}", flush=True)
    print(f"co-op store: {store}", flush=True)
    print("press Ctrl+C to stop", flush=True)
    proc = subprocess.Popen(
        voila_command(args.port, args.host, not args.no_preheat), env=env, cwd=ROOT
    )
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            return proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            return 1
