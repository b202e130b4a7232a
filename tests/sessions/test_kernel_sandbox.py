"""Seat kernels are locked in (classroom/sandbox.py): no key file, no other process.

The attacker here is code running inside a seat kernel, the case Voilà's message filter
is meant to prevent: it tries to read and replace the store's key file, and to read the
server's environment and memory. A Landlock sandbox refuses each, while the kernel still
reads and writes the store and its seat still plays.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from hexclass.classroom import sandbox
from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from tests.conftest import instructor_opener

from .test_secrets_at_rest import SEED, _free_port, _get, _kernel_pid, _status, _wait

ROOT = pathlib.Path(__file__).resolve().parents[2]
ABI = sandbox.abi_version()
needs_landlock = pytest.mark.skipif(ABI < 1, reason="this Linux kernel has no Landlock")

# Run inside the sandboxed process: every attempt's outcome, as JSON on stdout.
ATTACK = """
import json, os, sqlite3, tempfile
P = json.loads({params!r})
out = {{}}

def attempt(name, fn):
    try:
        fn()
        out[name] = "done"
    except OSError as exc:
        out[name] = f"{{type(exc).__name__}} {{exc.errno}}"

def ptrace(pid):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), "ptrace")
    os.waitpid(pid, 0x40000000)  # __WALL: the attach stop (the old code let it through)
    libc.ptrace(17, pid, None, None)  # PTRACE_DETACH, no signal: it runs on

def replace_key():
    fd, src = tempfile.mkstemp()
    os.write(fd, b"forged")
    os.close(fd)
    try:
        os.replace(src, P["key"])
    finally:
        if os.path.exists(src):
            os.unlink(src)

attempt("read key", lambda: open(P["key"], "rb").read())
attempt("append to key", lambda: open(P["key"], "ab").close())
attempt("truncate key", lambda: os.truncate(P["key"], 0))
attempt("unlink key", lambda: os.unlink(P["key"]))
attempt("replace key", replace_key)
attempt("rename key folder", lambda: os.rename(os.path.dirname(P["key"]), os.path.dirname(P["key"]) + "-moved"))
attempt("link key", lambda: os.link(P["key"], os.path.join(tempfile.gettempdir(), "k")))
for pid in P["others"]:
    attempt(f"environ of {{pid}}", lambda: open(f"/proc/{{pid}}/environ", "rb").read())
    attempt(f"mem of {{pid}}", lambda: open(f"/proc/{{pid}}/mem", "rb").read(1))
    attempt(f"signal to {{pid}}", lambda: os.kill(pid, 0))
    attempt(f"ptrace of {{pid}}", lambda: ptrace(pid))
for path in P.get("private", []):
    attempt(f"read {{os.path.basename(path)}}", lambda: open(path, "rb").read())
out["store"] = sqlite3.connect(P["store"]).execute("SELECT count(*) FROM games").fetchone()[0]
with tempfile.NamedTemporaryFile("w") as fh:
    fh.write("a kernel still has a temporary folder")
out["tmp"] = "ok"
out["caps"] = [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff")][0]
print("RESULT" + json.dumps(out))
"""

REFUSED = re.compile(r"^(PermissionError|OSError) (1|13|18)$")  # EPERM, EACCES, EXDEV


def _refused(out: dict, names: list[str]) -> dict:
    """The attempts among ``names`` that were not refused."""
    return {n: out.get(n) for n in names if not REFUSED.match(str(out.get(n)))}


def test_the_plan_allows_everything_but_the_hidden_branch(tmp_path):
    store = tmp_path / "class"
    store.mkdir()
    for name in ("class.db", "class.db.key", "other.key", "notes.txt"):
        (store / name).write_text("x")
    (tmp_path / "lessons").mkdir()
    split, allowed = sandbox.plan([str(store / "class.db.key")], [str(tmp_path / "keep.me")])
    real = pathlib.Path(os.path.realpath(tmp_path))
    assert str(real) in split and str(real / "class") in split and "/" in split
    assert str(real / "class" / "class.db") in allowed and str(real / "lessons") in allowed
    assert str(real / "class" / "notes.txt") in allowed
    assert not [p for p in allowed if p.endswith(".key")]  # the key, and any other key beside it
    assert not set(split) & set(allowed)  # an ancestor is never allowed as a whole
    assert str(real / "keep.me") not in allowed  # kept only if it exists


@needs_landlock
def test_a_sandboxed_process_cannot_read_or_replace_the_key(tmp_path):
    """Launched as the server launches a seat kernel: the key and the parent are out of reach."""
    folder = tmp_path / "class"
    folder.mkdir()
    key = folder / "class.db.key"
    key.write_bytes(b"the store's key\n")
    key.chmod(0o600)
    (folder / "other.key").write_text("another store's key")
    db = folder / "class.db"
    held = sqlite3.connect(db)  # a server holding its store open (WAL)
    held.execute("PRAGMA journal_mode = WAL")
    held.execute("CREATE TABLE games (id INTEGER)")
    held.commit()
    params = {
        "key": str(key),
        "store": str(db),
        "others": [os.getpid()],  # this test plays the server
        "private": [str(folder / "other.key")],
    }
    code = ATTACK.format(params=json.dumps(params))
    cmd = sandbox.launcher_cmd([sys.executable, "-c", code], [str(key)])
    (tmp_path / "tmp").mkdir()  # beside the key's folder: usable (and removed with tmp_path)
    env = {
        **os.environ,
        "HEXCLASS_STORE": str(db),
        "PYTHONPATH": str(ROOT),
        "TMPDIR": str(tmp_path / "tmp"),
    }
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    finally:
        held.close()
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.split("RESULT", 1)[1])
    attempts = [n for n in out if n not in ("store", "tmp", "caps")]
    if ABI < 6:  # signals are scoped from ABI 6 on
        attempts = [n for n in attempts if not n.startswith("signal")]
    assert len(attempts) >= 10 and _refused(out, attempts) == {}
    assert key.read_bytes() == b"the store's key\n"  # not replaced, not truncated
    assert out["store"] == 0 and out["tmp"] == "ok"  # the store and a temporary folder work
    assert os.geteuid() != 0 or int(out["caps"], 16) == 0  # root's powers dropped


def test_only_keyless_kernels_are_started_through_the_sandbox():
    from hexclass.classroom.server import SandboxedKernelManager

    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    km = SandboxedKernelManager()
    km.kernel_spec  # noqa: B018 - the native kernel's spec
    km.kernel_spec.argv = argv
    km._launch_args = {"env": {"HEXCLASS_KEYLESS": "1"}}
    cmd = km.format_kernel_cmd()
    assert cmd[1:3] == ["-m", "hexclass.classroom.sandbox"] and cmd[-2] == "-f"
    assert "ipykernel_launcher" not in cmd
    km._launch_args = {"env": {}}  # the instructor's kernel holds the key: no sandbox
    assert km.format_kernel_cmd()[1:3] == ["-m", "ipykernel_launcher"]


# --- hexclass serve ------------------------------------------------------------------------------


def _cmdline(pid: int) -> list[str]:
    return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def _run_in_kernel(connection_file: str, code: str) -> str:
    """Execute ``code`` in a running kernel (what a page's hostile code would be) and return
    its standard output."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient(connection_file=connection_file)
    client.load_connection_file()
    client.start_channels()
    out: list[str] = []
    try:
        client.wait_for_ready(timeout=120)

        def hook(msg):
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append("\n".join(msg["content"]["traceback"]))

        client.execute_interactive(code, output_hook=hook, timeout=300)
    finally:
        client.stop_channels()
    return "".join(out)


PLAY = """
from hexclass.classroom.sessions import open_seat
from hexclass.classroom.sessions.locate import open_location
from hexclass.classroom.combined_arms import Enter, legal_actions
store = open_location(os.environ["HEXCLASS_STORE"])
seat = open_seat(store, P["token"])
follower = seat.follower()
enter = next(a for a in legal_actions(follower.state, seat.seat) if isinstance(a, Enter))
result = seat.submit(follower.version, enter)
said = seat.say("from inside the sandbox")
print("PLAYED" + json.dumps([bool(result.ok), result.version, bool(said.ok)]))
"""


@needs_landlock
@pytest.mark.slow
def test_a_served_seat_kernel_is_locked_in_and_its_seat_still_plays(tmp_path, monkeypatch):
    """A real ``hexclass serve`` with the key in its default place, beside the store."""
    monkeypatch.delenv("HEXCLASS_KEY_FILE")
    store_path = tmp_path / "class" / "class.db"
    key_path = store_path.with_name("class.db.key")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "serve.log", "w+")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexclass.classroom.cli", "serve", f"--port={port}",
         f"--store={store_path}", "--no-preheat", "--cull-after=600"],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
    )  # fmt: skip
    try:
        _wait(lambda: _status(base), proc, log)
        key = key_path.read_bytes()
        with SQLiteStore(store_path) as s:
            made = create_class(s, teams=1, seed=SEED, base_url=base)
        seat = next(s for s in made.teams[0].seats if s.seat == "D")
        html = _get(seat.url)
        assert "application/vnd.jupyter.widget-view+json" in html and "Traceback" not in html
        kernel = _kernel_pid(re.search(r'"kernelId": ?"([0-9a-f-]+)"', html)[1])
        cmdline = _cmdline(kernel)
        assert (
            cmdline[1:3] == ["-m", "hexclass.classroom.sandbox"] and f"--hide={key_path}" in cmdline
        )
        connection_file = cmdline[cmdline.index("-f") + 1]
        log.flush()
        ikey = re.search(r"^instructor key: (\S+)$", pathlib.Path(log.name).read_text(), re.M)
        ihtml = instructor_opener(base, ikey.group(1)).open(made.instructor_url, timeout=300)
        ikernel_id = re.search(r'"kernelId": ?"([0-9a-f-]+)"', ihtml.read().decode())[1]
        teacher = _kernel_pid(ikernel_id)
        assert "hexclass.classroom.sandbox" not in _cmdline(
            teacher
        )  # it holds the key: not locked in
        server = _status(base)["server_pid"]
        teacher_file = str(pathlib.Path(connection_file).with_name(f"kernel-{ikernel_id}.json"))
        params = {
            "key": str(key_path),
            "store": str(store_path),
            "others": [server, teacher, os.getppid(), proc.pid],
            "private": [teacher_file],
            "token": seat.token,
        }
        code = ATTACK.format(params=json.dumps(params)) + textwrap.dedent(PLAY)
        printed = _run_in_kernel(connection_file, code)
        assert "RESULT" in printed and "PLAYED" in printed, printed
        out = json.loads(printed.split("RESULT", 1)[1].splitlines()[0])
        attempts = [n for n in out if n not in ("store", "tmp", "caps")]
        assert _refused(out, attempts) == {}, out
        assert key_path.read_bytes() == key and out["store"] == 1
        assert os.geteuid() != 0 or int(out["caps"], 16) == 0
        played = json.loads(printed.split("PLAYED", 1)[1].splitlines()[0])
        assert played == [True, 1, True]  # the referee took the order: the store works
        with SQLiteStore(store_path) as s:
            assert s.version(made.teams[0].game_id) == 1
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_without_landlock_the_server_says_so_and_kernels_run_as_before(monkeypatch):
    monkeypatch.setattr(sandbox, "abi_version", lambda: 0)
    assert "NOT sandboxed" in sandbox.status()
    assert sandbox.lock_in(["/nonexistent.key"], ["-f", "/nonexistent.json"]) == 0
