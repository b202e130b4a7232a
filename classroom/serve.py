"""``hexclass serve``: run the Voilà pages (home, solitaire, seats, instructor, lessons).

The pages are served by :mod:`hexclass.classroom.server` (Voilà plus a kernel lifecycle for a
class) in a child process of its own process group, which this command supervises:

* a port already in use is a clear error before any address is printed; the address
  is printed once the server really answers on it;
* SIGTERM, SIGINT (Ctrl+C) and SIGHUP stop the server and every kernel: the server
  shuts its kernels down, and any process it started that is still there afterwards
  (found by a marker in its environment) is killed by PID;
* a closed or reloaded page gives its kernel back within ``--reload-grace`` seconds,
  kernels no browser ever connected to are culled after ``--cull-after`` seconds, and
  the preheated seat kernels follow the store's running games (up to ``--class-size``).

Every kernel gets ``HEXCLASS_STORE`` so co-op pages share one store file. The store's
key (classroom/sessions/sealed.py: ``--key-file``, else ``$HEXCLASS_KEY`` or
``$HEXCLASS_KEY_FILE``, else the file beside the store, made if missing) goes to the
server, its referee and the instructor's page only, never to a seat kernel.

The instructor key (``--instructor-key``, ``$HEXCLASS_INSTRUCTOR_KEY``, else a new one) is
printed at start and handed to the server on its stdin; the instructor page asks for it.
Pages without a token share ``--max-kernels`` kernels (``docs/security.md``).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid

from hexclass import resources

ROOT = resources.root()  # the folder Voilà serves: classroom/pages, lessons (a wheel's too)
HOME = "classroom/pages/home.ipynb"
SEAT = "classroom/pages/seat.ipynb"
SOLITAIRE = "classroom/pages/solitaire.ipynb"
INSTRUCTOR = "classroom/pages/instructor.ipynb"
TEMPLATES = resources.jupyter_share()  # JUPYTER_PATH entry with voila/templates/hexclass
STATUS = "/hexclass/api/status"
MARKER = "HEXCLASS_SERVER_ID"
STOP_SECONDS = 20.0


def default_store() -> str:
    """``$HEXCLASS_STORE`` if set, else ``~/.hexclass/class.db`` (a path or a URL)."""
    from hexclass.classroom.sessions.locate import default_location

    return default_location()


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 1 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"expected 1 to 86400 seconds, got {text}")
    return value


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= 200:
        raise argparse.ArgumentTypeError(f"expected 0 to 200, got {value}")
    return value


def add_serve_command(commands) -> None:
    p = commands.add_parser(
        "serve",
        help="serve the hexclass pages with Voilà and print the address",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--port", type=_port, default=8866, help="port to listen on (8866)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (127.0.0.1; 0.0.0.0 for a class network)",
    )
    p.add_argument(
        "--store",
        default=None,
        help="the co-op store: a file or a postgresql:// URL "
        "(default $HEXCLASS_STORE or ~/.hexclass/class.db)",
    )
    p.add_argument(
        "--key-file",
        default=None,
        metavar="PATH",
        help="the store's key file (default $HEXCLASS_KEY_FILE or the file beside the store; "
        "made 0600 if missing)",
    )
    p.add_argument("--no-preheat", action="store_true", help="start every page's kernel on demand")
    p.add_argument(
        "--class-size",
        type=_size,
        default=30,
        metavar="N",
        help="preheat up to N seat kernels while the store's running games have seats "
        "without an open page (30)",
    )
    p.add_argument(
        "--console-warm",
        type=_size,
        default=None,
        metavar="N",
        help="when the instructor page opens, preheat N seat kernels for the class about to "
        "be created, so that its links open at once right after Create (default: the class "
        "size; about 90 MiB each while they wait)",
    )
    p.add_argument(
        "--cull-after",
        type=_seconds,
        default=120.0,
        metavar="SECONDS",
        help="stop a kernel no browser is connected to after this long idle (120)",
    )
    p.add_argument(
        "--reload-grace",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="stop a page's kernel this long after its browser left (10)",
    )
    p.add_argument(
        "--instructor-key",
        default=None,
        metavar="KEY",
        help="the key the instructor page asks for (default $HEXCLASS_INSTRUCTOR_KEY, else "
        "a new one, printed at start)",
    )
    p.add_argument(
        "--max-kernels",
        type=_size,
        default=None,
        metavar="N",
        help="live kernels at most for pages without a token (home, solitaire, lessons); "
        "default: half the free memory divided by a kernel's size",
    )
    p.set_defaults(run=run)


KERNEL_MIB = 80  # a page kernel's resident size, measured (docs/security.md)


def default_max_kernels(meminfo: str = "/proc/meminfo") -> int:
    """Kernels for token-less pages: half the available memory over a kernel's size (4+)."""
    try:
        for line in pathlib.Path(meminfo).read_text().splitlines():
            if line.startswith("MemAvailable:"):
                mib = int(line.split()[1]) // 1024
                return max(4, min(200, mib // 2 // KERNEL_MIB))
    except (OSError, ValueError, IndexError):
        pass
    return 8


def instructor_key(given: str | None) -> tuple[str, bool]:
    """The instructor key (``--instructor-key``, ``$HEXCLASS_INSTRUCTOR_KEY`` or new), and
    whether it was made now."""
    from hexclass.classroom.gate import KEY_ENV, new_key

    key = given or os.environ.get(KEY_ENV, "")
    return (key, False) if key else (new_key(), True)


def voila_command(
    port: int,
    host: str,
    preheat: bool = True,
    *,
    store: str | None = None,
    class_size: int = 30,
    console_warm: int | None = None,
    cull_after: float = 120.0,
    reload_grace: float = 10.0,
    max_kernels: int = 8,
) -> list[str]:
    """The child's command line: :mod:`hexclass.classroom.server` with Voilà's options.

    The instructor key is not on it (any local user can read a command line): the child
    reads it from its stdin (``--HexclassVoila.key_on_stdin``).
    """
    cull_interval = max(1, min(30, int(cull_after // 4)))
    cmd = [
        sys.executable,
        "-m",
        "hexclass.classroom.server",
        str(ROOT),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--Voila.port_retries=0",
        "--ServerApp.open_browser=False",
        "--template=hexclass",
        "--VoilaConfiguration.multi_kernel_manager_class=hexclass.classroom.server.HexclassKernelManager",
        f"--HexclassKernelManager.cull_idle_timeout={int(cull_after)}",
        f"--HexclassKernelManager.cull_interval={cull_interval}",
        "--HexclassKernelManager.cull_connected=False",
        "--HexclassKernelManager.cull_busy=False",
        # a restarted kernel has none of its page's widgets: stop it instead (server.py)
        "--KernelManager.autorestart=False",
        f"--HexclassKernelManager.reload_grace={reload_grace}",
        # a busy machine may deliver a cell's output a while after its reply
        "--VoilaExecutor.iopub_timeout=60",
        "--HexclassVoila.key_on_stdin=True",
        f"--HexclassVoila.max_kernels={max_kernels}",
    ]
    if store is not None and not store.startswith(("postgresql:", "postgres:")):
        # a PostgreSQL URL may hold a password, and any process (a seat kernel too) can read
        # a command line: the server takes it from $HEXCLASS_STORE instead
        cmd.append(f"--HexclassKernelManager.store_path={store}")
    if preheat:
        seat_min = min(2, class_size)
        warm = class_size if console_warm is None else console_warm  # the class about to come
        pools = {
            SOLITAIRE: {"pool_size": 1},
            SEAT: {"pool_size": seat_min},
            "default": {"pool_size": 0},
        }
        cmd += [
            "--preheat_kernel=True",
            f"--hexclass-pools={json.dumps(pools)}",  # see hexclass.classroom.server.main
            "--VoilaKernelManager.fill_delay=0",
            f"--HexclassKernelManager.seat_pool_min={seat_min}",
            f"--HexclassKernelManager.seat_pool_max={class_size}",
            f"--HexclassKernelManager.console_warm_seats={warm}",
        ]
    return cmd


def port_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be served (None when it can)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        # as the server binds: a port left in TIME_WAIT by old connections is free
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} on {host} is already in use (another hexclass serve?); "
                    "stop that server or choose another port with --port"
                )
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def marked_processes(marker: str) -> list[int]:
    """PIDs of live processes whose environment carries ``HEXCLASS_SERVER_ID=marker``."""
    needle = f"{MARKER}={marker}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            env = pathlib.Path(f"/proc/{entry}/environ").read_bytes()
            state = pathlib.Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and needle in env.split(b"\0"):
            found.append(int(entry))
    return found


class Supervisor:
    """The server child process, stopped with every kernel on any of the three signals."""

    def __init__(self, cmd: list[str], env: dict[str, str], marker: str, key: str = "") -> None:
        self.marker = marker
        self.stopping = False
        self.proc = subprocess.Popen(
            cmd, env=env, cwd=ROOT, start_new_session=True, stdin=subprocess.PIPE
        )
        self.proc.stdin.write(f"{key}\n".encode())  # the instructor key, out of env and argv
        self.proc.stdin.close()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, signum, frame) -> None:
        if not self.stopping:
            self.stopping = True
            print(
                f"hexclass serve: {signal.Signals(signum).name}: stopping the server and "
                "every kernel",
                flush=True,
            )
            self._signal_child(signal.SIGTERM)

    def _signal_child(self, sig) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def wait_ready(self, url: str, timeout: float = 120.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.stopping:
            if self.proc.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        return True
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.3)
        return False

    def wait(self) -> int:
        while True:
            try:
                code = self.proc.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                if self.stopping:
                    try:
                        code = self.proc.wait(timeout=STOP_SECONDS)
                    except subprocess.TimeoutExpired:
                        print(
                            f"hexclass serve: the server did not stop within {STOP_SECONDS:.0f} s;"
                            " killing it",
                            flush=True,
                        )
                        self._signal_child(signal.SIGKILL)
                        code = self.proc.wait()
                    break
        self.stopping = True
        if code not in (0, -signal.SIGTERM):
            print(f"hexclass serve: the server exited with code {code}", flush=True)
        left = self.kill_leftovers()
        if left:
            print(f"hexclass serve: killed {len(left)} leftover process(es): {left}", flush=True)
        return 0 if code in (0, -signal.SIGTERM) else code

    def kill_leftovers(self) -> list[int]:
        """Kill (by PID) anything the server started that outlived it; return those PIDs."""
        left = marked_processes(self.marker)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return left


def store_key_env(store: str, key_file: str | None) -> dict[str, str]:
    """The server's key settings: the key file made (0600) if missing, its path exported."""
    from hexclass.classroom.sessions import sealed

    os.environ.pop(sealed.KEYLESS_ENV, None)
    if key_file is None and os.environ.get(sealed.KEY_ENV):
        sealed.sealer_for(store)  # a bad key is an error now, not in the middle of a class
        return {}
    path = pathlib.Path(
        key_file or os.environ.get(sealed.KEY_FILE_ENV) or sealed.key_file_for(store)
    )
    sealed.read_key_file(path.expanduser())
    return {sealed.KEY_FILE_ENV: str(path.expanduser().resolve())}


def run(args) -> int:
    from hexclass.classroom.sessions.locate import describe, for_children, is_postgres, sqlite_path

    location = args.store or default_store()
    try:
        store = for_children(location)
        if not is_postgres(store):
            sqlite_path(store).parent.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:
        print(f"hexclass serve: cannot use store {location}: {exc}", file=sys.stderr)
        return 2
    try:
        key_env = store_key_env(store, getattr(args, "key_file", None))
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"hexclass serve: cannot use the store's key: {exc}", file=sys.stderr)
        return 2
    problem = port_problem(args.host, args.port)
    if problem:
        print(f"hexclass serve: {problem}", file=sys.stderr)
        return 2
    from hexclass.classroom.gate import KEY_ENV, key_problem

    key, made = instructor_key(args.instructor_key)
    if key_problem(key):
        print(f"hexclass serve: {key_problem(key)}", file=sys.stderr)
        return 2
    marker = uuid.uuid4().hex
    jupyter_path = os.pathsep.join(
        p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p
    )
    env = {
        **{k: v for k, v in os.environ.items() if k != KEY_ENV},
        "HEXCLASS_STORE": str(store),
        **key_env,
        MARKER: marker,
        "JUPYTER_PATH": jupyter_path,
        "PYTHONUNBUFFERED": "1",
    }
    cmd = voila_command(
        args.port,
        args.host,
        not args.no_preheat,
        store=store,
        class_size=args.class_size,
        console_warm=args.console_warm,
        cull_after=args.cull_after,
        reload_grace=args.reload_grace,
        max_kernels=args.max_kernels if args.max_kernels is not None else default_max_kernels(),
    )
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "", "::") else args.host
    base = f"http://{shown}:{args.port}"
    print(f"hexclass is starting on port {args.port} (co-op store: {describe(store)})", flush=True)
    sup = Supervisor(cmd, env, marker, key)
    if sup.wait_ready(f"{base}{STATUS}"):
        print(f"hexclass is serving: open {base}/voila/render/{HOME}", flush=True)
        print(
            f"instructor key: {key}" if made else "instructor key: the one you gave",
            flush=True,
        )
        print(f"the instructor page: {base}/voila/render/{INSTRUCTOR} (it asks for the key)")
        print("press Ctrl+C (or send SIGTERM) to stop the server and every kernel", flush=True)
    elif not sup.stopping:
        print("hexclass serve: the server did not start; see the messages above", flush=True)
        sup._on_signal(signal.SIGTERM, None)
    return sup.wait()
