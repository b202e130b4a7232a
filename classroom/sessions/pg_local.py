"""A throwaway PostgreSQL server in a directory, for tests, benchmarks and trying things out.

It uses the server programs of the machine's PostgreSQL package (Debian's ``postgresql``
puts them in ``/usr/lib/postgresql/<major>/bin``), runs ``initdb`` into a new directory
and starts the server listening **only on a Unix socket** in that directory (no TCP at
all). ``initdb`` refuses to run as root, so as root the cluster belongs to the
``postgres`` user (or ``nobody``) and every server program runs as that user through
``setpriv`` (which execs: the server is this process's own child, stopped and reaped by
its PID).

    with LocalPostgres() as pg:          # initdb + start; stop and remove at the end
        url = pg.create_database("class")  # postgresql:///class?host=/tmp/...&user=postgres
        ...
        pg.kill()                        # kill -9 of the postmaster and its children
        pg.start()                       # crash recovery, same data

Nothing here is used in production: a school points ``--store`` at its own server.
"""

from __future__ import annotations

import glob
import os
import pathlib
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from urllib.parse import quote

SUPERUSER = "postgres"  # the database role created by initdb (trust auth on the socket)
BIN_ENV = "HEXCLASS_PG_BIN"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs are not installed (or cannot run here)."""


def find_bin_dir() -> pathlib.Path:
    """The directory holding ``initdb`` and ``pg_ctl``: ``$HEXCLASS_PG_BIN``, Debian's newest
    ``/usr/lib/postgresql/*/bin``, or the ``PATH``."""
    candidates = []
    if os.environ.get(BIN_ENV):
        candidates.append(pathlib.Path(os.environ[BIN_ENV]))
    debian = glob.glob("/usr/lib/postgresql/*/bin")
    debian.sort(key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0)
    candidates.extend(pathlib.Path(p) for p in reversed(debian))
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(pathlib.Path(on_path).parent)
    for c in candidates:
        if (c / "initdb").is_file() and (c / "pg_ctl").is_file():
            return c
    raise PostgresUnavailable(
        "no PostgreSQL server programs (initdb, pg_ctl) found: install Debian's "
        f"`postgresql` package, or set ${BIN_ENV} to the directory holding them"
    )


def _run_as_user() -> str | None:
    """The unprivileged user to run the server as when we are root (None: ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in (SUPERUSER, "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise PostgresUnavailable("running as root and there is no 'postgres' or 'nobody' user")


class LocalPostgres:
    """A PostgreSQL cluster of its own in ``root`` (a new temporary directory by default)."""

    def __init__(
        self,
        root: str | os.PathLike | None = None,
        *,
        settings: dict[str, str] | None = None,
        keep: bool = False,
    ) -> None:
        self.bin = find_bin_dir()
        self.user = _run_as_user()
        self._made_root = root is None
        self.root = pathlib.Path(root or tempfile.mkdtemp(prefix="hexclass-pg-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.data = self.root / "data"
        self.socket_dir = self.root  # short path: a socket path must fit in ~107 bytes
        self.log = self.root / "server.log"
        self.keep = keep
        self.settings = {
            "listen_addresses": "''",  # Unix socket only: no TCP port is opened
            "unix_socket_directories": f"'{self.socket_dir}'",
            "max_connections": "300",
            "shared_buffers": "64MB",
            "fsync": "on",  # a commit acknowledged is on disk (the kill -9 test relies on it)
            **(settings or {}),
        }
        if self.user is not None:
            u = pwd.getpwnam(self.user)
            os.chown(self.root, u.pw_uid, u.pw_gid)
            os.chmod(self.root, 0o755)  # clients (root) reach the socket; data stays 0700
        self.pid: int | None = None
        self._proc: subprocess.Popen | None = None

    # --- running server programs -------------------------------------------------------

    def _cmd(self, program: str, *args: str) -> list[str]:
        cmd = [str(self.bin / program), *args]
        if self.user is not None:
            u = pwd.getpwnam(self.user)
            cmd = ["setpriv", f"--reuid={u.pw_uid}", f"--regid={u.pw_gid}", "--init-groups",
                   "--", *cmd]  # fmt: skip
        return cmd

    def _run(self, program: str, *args: str, timeout: float = 120) -> None:
        proc = subprocess.run(
            self._cmd(program, *args), capture_output=True, text=True, timeout=timeout
        )
        if proc.returncode != 0:
            tail = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise PostgresUnavailable(
                f"{program} failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout}"
                + (f"\nserver log:\n{tail}" if tail else "")
            )

    def init(self) -> None:
        """``initdb`` (trust on the socket; ``--no-sync``: a fresh, throwaway cluster)."""
        if (self.data / "PG_VERSION").exists():
            return
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
        with open(self.data / "postgresql.conf", "a") as fh:
            fh.write("\n# hexclass LocalPostgres\n")
            for k, v in self.settings.items():
                fh.write(f"{k} = {v}\n")

    def start(self, timeout: float = 120) -> LocalPostgres:
        """Start the server (``initdb`` first if needed) and wait until it accepts connections."""
        import psycopg

        self.init()
        with open(self.log, "a") as log:
            self._proc = subprocess.Popen(
                self._cmd("postgres", "-D", str(self.data)),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl+C in the terminal is not the server's
            )
        self.pid = self._proc.pid
        deadline = time.monotonic() + timeout
        while True:
            if self._proc.poll() is not None:
                tail = self.log.read_text()[-2000:]
                self.pid = None
                raise PostgresUnavailable(f"postgres exited ({self._proc.returncode}):\n{tail}")
            try:
                psycopg.connect(self.url(), connect_timeout=5).close()
                return self
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise PostgresUnavailable(
                        f"postgres did not accept connections within {timeout:.0f} s"
                    ) from None
                time.sleep(0.1)

    @property
    def running(self) -> bool:
        return self.pid is not None and self._proc.poll() is None

    def stop(self, timeout: float = 60) -> None:
        """A fast shutdown (SIGINT to the postmaster's PID), waiting for it to exit."""
        if not self.running:
            self.pid = None
            return
        self._proc.send_signal(signal.SIGINT)
        try:
            self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self._proc.send_signal(signal.SIGQUIT)  # immediate shutdown
            self._proc.wait(30)
        self.pid = None

    def kill(self) -> None:
        """``kill -9`` the postmaster and every server process it started (a crash)."""
        if self.pid is None:
            return
        victims = [self.pid, *_children(self.pid)]
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._proc.wait(30)  # reaped: its PID in postmaster.pid is no longer alive
        for pid in victims[1:]:
            _wait_gone(pid, 10)
        self.pid = None

    # --- databases ---------------------------------------------------------------------

    def url(self, dbname: str = "postgres") -> str:
        """A libpq URL for ``dbname`` over the Unix socket."""
        return f"postgresql:///{quote(dbname)}?host={quote(str(self.socket_dir))}&user={SUPERUSER}"

    def create_database(self, name: str) -> str:
        """Create database ``name`` (dropped first if it exists) and return its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        """Stop the server and remove its directory (unless ``keep``)."""
        try:
            self.stop()
        finally:
            if self._made_root and not self.keep:
                shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.split("/")[2]))
    return out


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            # reap it if it is our child (it is not: pg_ctl daemonises), else probe
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if _state(pid) in ("Z", "X", None):
            return True
        time.sleep(0.02)
    return False


__all__ = ["LocalPostgres", "PostgresUnavailable", "find_bin_dir"]
