"""Secrets at rest: what the store keeps on disk, and who may read it.

* The SQLite file, its -wal and -shm and a folder the store creates are this OS user's
  only (0600/0700); an older, looser file is tightened when opened.
* No seed and no token is in the store in clear (the raw bytes of the SQLite file, every
  row of the PostgreSQL tables): tokens are hashed, and sealed with the store's key.
* A process without the key (a seat kernel) finds its seat by token but reads no seed,
  no token and cannot replay; the key's holder shows the links again.
* A schema-3 store (clear tokens and seeds) is sealed when opened with the key.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import re
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from hexclass.classroom.combined_arms import EndPhase, Options
from hexclass.classroom.combined_arms.actions import action_to_json
from hexclass.classroom.combined_arms.public import SealedDice, SecretAction
from hexclass.classroom.sessions import create_class, open_console, open_seat
from hexclass.classroom.sessions.hidden import HiddenGame, Referee
from hexclass.classroom.sessions.roles import enemy_player_layout
from hexclass.classroom.sessions.sealed import (
    KEY_ENV,
    KEY_FILE_ENV,
    KEYLESS_ENV,
    NoKey,
    Sealer,
    key_file_for,
    token_hash,
)
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from hexclass.classroom.sessions.store import Refusal, StoreError
from tests.conftest import instructor_opener

from .helpers import first_enter, play, raw_connection

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = 7_344_421_904_117_735_113  # 63 bits: unmistakable in any dump


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_store_and_its_folder_are_private(tmp_path):
    path = tmp_path / "new-folder" / "class.db"
    old = os.umask(0o022)  # the usual umask: without care the file would be 0644
    try:
        with SQLiteStore(path) as s:
            made = create_class(s, teams=1, seed=3)
            s.submit(made.teams[0].game_id, 0, "support", EndPhase("support"))
            files = [path, path.with_name("class.db-wal"), path.with_name("class.db-shm")]
            assert all(f.exists() for f in files)
            assert {str(f): _mode(f) for f in files} == {str(f): 0o600 for f in files}
            assert _mode(path.parent) == 0o700
    finally:
        os.umask(old)


def test_an_older_loose_store_is_tightened_on_open(tmp_path):
    path = tmp_path / "class.db"
    with SQLiteStore(path) as s:
        create_class(s, teams=1, seed=3)
    os.chmod(path, 0o644)
    with SQLiteStore(path) as s:
        assert _mode(path) == 0o600
        assert _mode(path.with_name("class.db-wal")) == 0o600
        assert len(s.classes()) == 1


# --- nothing in clear -------------------------------------------------------------------------


def _everything_stored(store_kind, location, tmp_path) -> str:
    """Every byte the store keeps: the SQLite file and its WAL, or every PostgreSQL row."""
    if store_kind == "sqlite":
        return "".join(
            p.read_bytes().decode("latin-1") for p in tmp_path.glob("class.db*") if p.is_file()
        )
    out = []
    with raw_connection(location) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
        for (table,) in tables:
            out += [repr(r) for r in conn.execute(f"SELECT * FROM {table}").fetchall()]
    return "\n".join(out)


def test_no_seed_and_no_token_in_clear(store_kind, store_location, store, tmp_path):
    made = create_class(store, teams=2, seed=SEED)
    g = made.teams[0].game_id
    play(store, g, "D", first_enter(store.state(g), "D"))
    tokens = [made.instructor_token] + [s.token for t in made.teams for s in t.seats]
    raw = _everything_stored(store_kind, store_location, tmp_path)
    assert str(SEED) not in raw and hex(SEED)[2:] not in raw
    assert SEED.to_bytes(8, "big").decode("latin-1") not in raw  # nor as a 64-bit integer
    assert SEED.to_bytes(8, "little").decode("latin-1") not in raw
    assert [t for t in tokens if t in raw] == []
    assert token_hash(tokens[1]) in raw  # found by its hash
    assert store.game(g).seed == SEED  # and the key's holder still has it all
    assert store.tokens(made.class_id)[0] == made.instructor_token
    [entry] = store.instructor_log(made.class_id)
    assert entry.data["seeds"] == [SEED, SEED]


def _keyless(store_kind, store_location):
    """A store handle as a seat kernel of ``hexclass serve`` has one: without the key."""
    if store_kind == "sqlite":
        return SQLiteStore(store_location, key=None)
    from hexclass.classroom.sessions.pg_store import PostgresStore

    return PostgresStore(store_location, key=None)


@pytest.fixture
def referee(new_store):
    """The referee on its own keyed handle, in a thread (as ``hexclass serve`` runs it)."""
    ref = Referee(new_store())
    stop = threading.Event()
    thread = threading.Thread(target=ref.run, args=(stop, 0.005), daemon=True)
    thread.start()
    yield ref
    stop.set()
    thread.join(10)


def test_a_keyless_process_finds_its_seat_but_no_secret(
    store_kind, store_location, new_store, referee
):
    store = new_store()
    made = create_class(store, teams=1, seed=SEED)
    g = made.teams[0].game_id
    keyless = _keyless(store_kind, store_location)
    try:
        seat = open_seat(keyless, made.teams[0].seats[1].token)  # by the token's hash
        assert (seat.game_id, seat.seat) == (g, made.teams[0].seats[1].seat)
        assert keyless.game(g).seed is None
        assert open_console(keyless, made.instructor_token).class_id == made.class_id
        with pytest.raises(NoKey, match="needs the store's key"):
            keyless.tokens(made.class_id)
        with pytest.raises(NoKey, match="seed is sealed"):
            keyless.state(g)
        with pytest.raises(NoKey):
            create_class(keyless, teams=1, seed=1)
        assert "seeds" in keyless.instructor_log(made.class_id)[0].data  # left sealed
        assert str(SEED) not in repr(keyless.instructor_log(made.class_id))
        assert keyless.post_message(g, "D", "hello").ok  # what needs no secret still works
    finally:
        keyless.close()


def test_another_key_is_refused_when_the_store_opens(store_kind, store_location, new_store):
    """A second host given another key stops at once, before it writes anything."""
    made = create_class(new_store(), teams=1, seed=SEED)
    with pytest.raises(StoreError, match="sealed with another key") as err:
        if store_kind == "sqlite":
            SQLiteStore(store_location, key=Sealer(bytes(32)))
        else:
            from hexclass.classroom.sessions.pg_store import PostgresStore

            PostgresStore(store_location, key=Sealer(bytes(32)))
    assert "every host of one PostgreSQL store needs the same key" in str(err.value)
    with SQLiteStore(store_location) if store_kind == "sqlite" else new_store() as s:
        assert s.tokens(made.class_id)[0] == made.instructor_token  # its own key still opens


def test_a_value_sealed_with_another_key_does_not_open():
    box = Sealer(bytes(32)).seal("42", "seed")
    with pytest.raises(StoreError, match="does not open with this store's key"):
        Sealer(bytes(range(32))).open(box, "seed")


def test_the_key_file_is_made_beside_the_store_and_private(tmp_path, monkeypatch):
    monkeypatch.delenv("HEXCLASS_KEY_FILE")
    path = tmp_path / "class.db"
    with SQLiteStore(path) as s:
        create_class(s, teams=1, seed=SEED)
    key = key_file_for(path)
    assert key == tmp_path / "class.db.key" and _mode(key) == 0o600
    assert len(key.read_text().strip()) == 44  # 32 bytes in base64
    monkeypatch.setenv("HEXCLASS_KEYLESS", "1")  # what a seat kernel's environment says
    with SQLiteStore(path) as s:
        assert s.game(1).seed is None


# --- a schema-3 store is sealed on open ----------------------------------------------------------


def _as_schema_3(store, location) -> tuple[str, list[str]]:
    """Turn a fresh store back into what hexclass wrote before sealing: clear tokens and
    seeds, no sealed columns, schema 3. Returns (instructor token, seat tokens)."""
    made = create_class(store, teams=1, seed=SEED)
    g = made.teams[0].game_id
    play(store, g, "support", EndPhase("support"))
    store.close()
    pg = location.startswith("postgresql://")
    with raw_connection(location) as conn:

        def run(sql, params=()):
            conn.execute(sql.replace("?", "%s") if pg else sql, params)

        run("UPDATE classes SET instructor_token = ?", (made.instructor_token,))
        for link in made.teams[0].seats:
            run("UPDATE seats SET token = ? WHERE seat = ?", (link.token, link.seat))
        run("UPDATE games SET seed = ?", (SEED,))
        run(
            "UPDATE instructor_log SET data = ? WHERE kind = 'create'",
            (f'{{"teams": [1], "seeds": [{SEED}]}}',),
        )
        for table, col in (("classes", "instructor"), ("games", "seed"), ("seats", "token")):
            run(f"ALTER TABLE {table} DROP COLUMN {col}_sealed")
        run(  # a view in clear, as schema 3 published them
            "INSERT INTO hidden_views (game_id, audience, version, state) VALUES (?, 'D', 0, ?)",
            (g, f'{{"secret": "deployment of {SEED}"}}'),
        )
        run("UPDATE hexclass_schema SET version = 3" if pg else "PRAGMA user_version = 3")
        run("VACUUM")  # no old page keeps a sealed copy
    return made.instructor_token, [link.token for link in made.teams[0].seats]


def test_a_schema_3_store_is_sealed_when_opened_with_the_key(
    store_kind, store_location, new_store, tmp_path
):
    instructor, seats = _as_schema_3(new_store(), store_location)
    assert str(SEED) in _everything_stored(store_kind, store_location, tmp_path)
    with pytest.raises(NoKey, match="upgrading the store"):
        _keyless(store_kind, store_location)
    s = new_store()
    c = s.classes()[0].id
    g = s.games(c)[0].id
    assert s.lookup_token(seats[0]).seat == "armour"
    assert s.tokens(c) == (instructor, {g: dict(zip(s.game(g).layout.names, seats))})
    assert s.game(g).seed == SEED and s.version(g) == 1
    assert s.instructor_log(c)[0].data["seeds"] == [SEED]
    s.close()
    raw = _everything_stored(store_kind, store_location, tmp_path)
    assert str(SEED) not in raw
    assert [t for t in [instructor, *seats] if t in raw] == []


# --- a co-op seat kernel without the key plays through the referee -------------------------------


def test_a_keyless_coop_seat_plays_through_the_referee(
    store_kind, store_location, new_store, referee
):
    keyed = new_store()
    made = create_class(keyed, teams=1, seed=SEED)
    g = made.teams[0].game_id
    tokens = {s.seat: s.token for s in made.teams[0].seats}
    kernel_d, kernel_e = (_keyless(store_kind, store_location) for _ in range(2))
    try:
        d = open_seat(kernel_d, tokens["D"])
        e = open_seat(kernel_e, tokens["E"])
        fd, fe = d.follower(), e.follower()
        assert fd.version == fe.version == 0
        assert fd.state.seed == 0 and isinstance(fd.state.dice, SealedDice)  # nothing to foresee
        with pytest.raises(NoKey):
            kernel_d.live_game(g)
        enter = first_enter(fd.state, "D")
        result = d.submit(fd.version, enter)
        assert result.ok and result.version == 1 and result.value == enter
        assert [a.action for a in result.update.actions] == [enter]
        assert result.update.events and fd.version == 1  # the shared copy moved on already
        assert not fd.poll().board_changed  # ... so polling does not show it twice
        assert fd.state.units[enter.unit].hex == keyed.state(g).units[enter.unit].hex
        # another seat's kernel sees it on its next poll
        for _ in range(400):
            upd = fe.poll()
            if upd.board_changed:
                break
            threading.Event().wait(0.01)
        assert [a.version for a in upd.actions] == [1] and fe.state.units[enter.unit].hex
        # a refusal keeps its kind, message and rule (CA p.7 and the engine's own)
        again = d.submit(fd.version, enter)
        assert not again and again.kind == Refusal.ILLEGAL and again.message and again.rule
        wrong = e.submit(fe.version, first_enter(fe.state, "D"))
        assert not wrong and wrong.kind == Refusal.WRONG_SEAT
        stale = d.submit(0, EndPhase("support"))
        assert not stale and stale.kind == Refusal.WRONG_SEAT
        assert keyed.version(g) == 1
        # D's kernel cannot order in E's name: the order is not sealed with E's key
        forged = kernel_d.hidden().place_order(
            g, "E", 1, action_to_json(first_enter(fe.state, "E"))
        )
        for _ in range(400):
            verdict = keyed.hidden().order(forged)
            if verdict.status in ("accepted", "refused"):
                break
            threading.Event().wait(0.01)
        assert verdict.status == "refused" and keyed.version(g) == 1
        assert d.say("hello team").ok and fe.poll().messages[0].text == "hello team"
    finally:
        kernel_d.close()
        kernel_e.close()


def test_enemy_player_secrets_are_sealed_in_the_store(
    store_kind, store_location, new_store, referee, tmp_path
):
    """The defender's deployment: sealed in the log, in its view and in its order."""
    import random

    from hexclass.classroom.combined_arms.defender import ai_choice

    keyed = new_store()
    made = create_class(
        keyed,
        teams=1,
        seed=31,
        seats=enemy_player_layout(5),
        options=Options(auto_decisions=True, enemy_player=True),
    )
    g = made.teams[0].game_id
    tokens = {s.seat: s.token for s in made.teams[0].seats}
    kernel = _keyless(store_kind, store_location)
    try:
        open_seat(kernel, tokens["defender"])  # the defender's kernel knows its own token
        for _ in range(400):
            if referee.published.get(g) is not None:
                break
            threading.Event().wait(0.01)
        defender = HiddenGame(kernel, g, "defender")
        deploy = ai_choice(defender.state, "defender", random.Random(3))
        assert defender.submit(deploy).accepted
        secret = json.dumps(sorted(deploy.platoons))[1:-1]
        raw = _everything_stored(store_kind, store_location, tmp_path)
        assert secret not in raw and "Deploy" not in raw
        # an attacker's kernel reads the log without the deployment, and no defender view
        attacker = _keyless(store_kind, store_location)
        try:
            open_seat(attacker, tokens["D"])
            logged = attacker.actions(g)
            assert any(isinstance(a.action, SecretAction) for a in logged)
            with pytest.raises(NoKey):
                attacker.hidden().view(g, "defender")
            assert HiddenGame(attacker, g, "D").state.secret is None
        finally:
            attacker.close()
        assert keyed.actions(g)[0].action == deploy  # the key's holder reads it all
    finally:
        kernel.close()


# --- hexclass serve: the key stays out of seat kernels ----------------------------------------


def _proc_env(pid: int) -> dict[str, str]:
    raw = pathlib.Path(f"/proc/{pid}/environ").read_bytes()
    return dict(
        item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item
    )


def _memory_has(pid: int, needles: list[bytes]) -> list[bytes]:
    """Which of ``needles`` are anywhere in the readable memory of process ``pid``."""
    found = set()
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            span, perms = line.split()[:2]
            if not perms.startswith("r") or "[vvar]" in line or "[vsyscall]" in line:
                continue
            start, end = (int(x, 16) for x in span.split("-"))
            try:
                mem.seek(start)
                chunk = mem.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
            found |= {n for n in needles if n in chunk}
    return sorted(found)


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=180) as r:
        return r.read().decode()


def _kernel_pid(kernel_id: str) -> int:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = pathlib.Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if f"kernel-{kernel_id}.json".encode() in cmd:
                return int(entry)
    raise AssertionError(f"no process for kernel {kernel_id}")


@pytest.mark.slow
def test_seat_kernels_of_hexclass_serve_hold_no_key_and_no_secret(tmp_path, store_key_file):
    """A real server: its seat kernels' environment and memory carry no key, no seed and no
    other seat's token, yet the seat page draws the board; only the instructor's has it.

    Without preheating, a plain GET runs the page in a kernel of its own (a preheated kernel
    would wait for a browser to send the token); the pool's kernels get the same
    environment (``test_pool_kernels_get_no_key``)."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    store_path = tmp_path / "class.db"
    log = open(tmp_path / "serve.log", "w+")  # noqa: SIM115
    cmd = [sys.executable, "-m", "hexclass.classroom.cli", "serve", f"--port={port}"]
    proc = subprocess.Popen(
        [*cmd, f"--store={store_path}", "--no-preheat", "--cull-after=600"],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )
    try:
        status = _wait(lambda: _status(base), proc, log)
        with SQLiteStore(store_path) as s:
            made = create_class(s, teams=2, seed=SEED, base_url=base)
        key = store_key_file.read_text().strip()
        key_bytes = base64.urlsafe_b64decode(key)
        seat, other = made.teams[0].seats[1], made.teams[1].seats[1]
        html = _get(seat.url)
        # the page ran: its widget view is in the page, and no error
        assert "application/vnd.jupyter.widget-view+json" in html and "Traceback" not in html
        assert "does not work" not in html and "cannot be used" not in html
        seat_kernel = _kernel_pid(re.search(r'"kernelId": ?"([0-9a-f-]+)"', html)[1])
        log.flush()
        ikey = re.search(r"^instructor key: (\S+)$", pathlib.Path(log.name).read_text(), re.M)
        opener = instructor_opener(base, ikey.group(1))  # the console needs the key
        ihtml = opener.open(made.instructor_url, timeout=300).read().decode()
        teacher = _kernel_pid(re.search(r'"kernelId": ?"([0-9a-f-]+)"', ihtml)[1])
        status = _status(base)
        server_env = _proc_env(status["server_pid"])
        assert server_env[KEY_FILE_ENV] == str(store_key_file)
        assert KEY_FILE_ENV in _proc_env(teacher)  # the instructor's console shows the links
        kernels = [p for p in status["pids"] if p != teacher]
        assert seat_kernel in kernels
        for pid in kernels:
            env = _proc_env(pid)
            assert env.get(KEYLESS_ENV) == "1"
            assert [n for n in (KEY_ENV, KEY_FILE_ENV) if n in env] == []
            assert [v for v in env.values() if key in v or str(store_key_file) in v] == []
        secrets_ = [
            key.encode(),
            key_bytes,
            str(SEED).encode(),
            other.token.encode(),
            made.teams[0].seats[2].token.encode(),
            made.instructor_token.encode(),
        ]
        assert _memory_has(seat_kernel, secrets_) == []
        assert _memory_has(seat_kernel, [seat.token.encode()])  # the check can see
        assert _memory_has(teacher, [key_bytes]) == [key_bytes]  # ... and tell them apart
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _status(base: str) -> dict | None:
    try:
        with urllib.request.urlopen(base + "/hexclass/api/status", timeout=10) as r:
            got = json.load(r)
    except (urllib.error.URLError, OSError, ValueError):
        return None
    return got


def _wait(check, proc, log, timeout: float = 240.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.flush()
            raise AssertionError(pathlib.Path(log.name).read_text()[-3000:])
        got = check()
        if got:
            return got
        time.sleep(0.5)
    raise AssertionError("hexclass serve did not get ready in time")


def test_pool_kernels_get_no_key_and_the_instructor_page_keeps_it(monkeypatch):
    from hexclass.classroom.server import kernel_env

    server = {"PATH": "/bin", KEY_FILE_ENV: "/srv/class.db.key", KEY_ENV: "c2VjcmV0"}
    pool = kernel_env({**server, "VOILA_PREHEAT": "True"})
    seat = kernel_env({**server, "SCRIPT_NAME": "/voila/render/classroom/pages/seat.ipynb"})
    lesson = kernel_env({**server, "SCRIPT_NAME": "/voila/render/lessons/01.ipynb"})
    for env in (pool, seat, lesson):
        assert KEY_FILE_ENV not in env and KEY_ENV not in env and env[KEYLESS_ENV] == "1"
        assert env["PATH"] == "/bin"
    teacher = kernel_env(
        {**server, "SCRIPT_NAME": "/voila/render/classroom/pages/instructor.ipynb"}
    )
    assert teacher[KEY_FILE_ENV] == "/srv/class.db.key" and KEYLESS_ENV not in teacher
    monkeypatch.setenv(KEY_ENV, "from-the-server")
    assert KEY_ENV not in kernel_env(None)  # no env given: the server's own, stripped


def test_processes_starting_together_make_one_key(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from hexclass.classroom.sessions.sealed import read_key_file

    path = tmp_path / "new" / "class.db.key"
    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: read_key_file(path), range(16)))
    assert len(keys) == 1 and _mode(path) == 0o600 and _mode(path.parent) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["class.db.key"]  # no draft left
    path.write_text("not a key\n")
    with pytest.raises(StoreError, match="expected a store key"):
        read_key_file(path)
