"""Secrets at rest: the store's key, sealed columns, hashed tokens and seat keys.

Whoever can read the store (a SQLite file, a PostgreSQL database) must not learn from it
a battle's seed (it foretells every roll), a link's token (it *is* the seat) or the
defender's deployment in an enemy-player game (CA p.7). So the stores keep:

* **tokens** only as a SHA-256 hash (a token is 192 random bits: a plain hash cannot be
  searched back), looked up by that hash, plus a copy **sealed** with the store's key so
  that the instructor's console can show the links again;
* **seeds** (and the seeds in the instructor log) sealed;
* the defender's **secret actions** in the log (its deployment and reveal orders, sealed
  bids) sealed;
* enemy-player **views and orders** of one seat sealed with that seat's own key
  (:func:`seat_key`, made from its token: its kernel has the token from the page URL,
  nobody else does).

Sealing is AES-256-GCM from the ``cryptography`` package: a fresh 96-bit nonce per value
and the value's purpose (``"seed"``, ``"token"``, ...) as associated data, so a sealed
seed pasted over a sealed token does not open. A sealed value is text:
``s1:`` + URL-safe base64 of nonce and ciphertext.

**The key** is 32 random bytes, found in this order (:func:`sealer_for`):

1. ``$HEXCLASS_KEYLESS`` set: no key at all. ``hexclass serve`` sets it in every page
   kernel but the instructor's, and removes the two below (a seat kernel never holds
   the key);
2. ``$HEXCLASS_KEY``: the key itself in URL-safe base64 (several hosts sharing one
   PostgreSQL store);
3. ``$HEXCLASS_KEY_FILE``: a file holding it;
4. the file beside the store: ``<store file>.key`` for SQLite; for PostgreSQL
   ``~/.hexclass/<host>-<database>.key``.

A missing key file (cases 3 and 4) is created, 0600, in a 0700 folder if it makes one.
It is readable by the OS user that runs ``hexclass serve``; the page kernels that run as
that user without the key are sandboxed so that they cannot open it (``classroom/sandbox.py``,
on Linux with Landlock): see docs/security-at-rest.md.

>>> s = Sealer(bytes(range(32)))
>>> box = s.seal("1234567890123", "seed")
>>> box.startswith("s1:") and "1234567890123" not in box
True
>>> s.open(box, "seed")
'1234567890123'
>>> s.open(box, "token")
Traceback (most recent call last):
...
hexclass.classroom.sessions.errors.StoreError: a sealed seed does not open with this store's key (was the key file replaced?)
>>> token_hash("abc")[:16]
'ba7816bf8f01cfea'
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import pathlib
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .address import is_postgres, sqlite_path
from .errors import NoKey, StoreError

KEY_ENV = "HEXCLASS_KEY"
KEY_FILE_ENV = "HEXCLASS_KEY_FILE"
KEYLESS_ENV = "HEXCLASS_KEYLESS"
KEY_ENVS = (KEY_ENV, KEY_FILE_ENV)  # what a seat kernel's environment must not carry
PREFIX = "s1:"
KEY_BYTES = 32
NONCE_BYTES = 12
OPENED_CACHE = 4096


class Sealer:
    """Seals and opens text with one AES-256-GCM key."""

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes) or len(key) != KEY_BYTES:
            raise ValueError(f"a store key is {KEY_BYTES} bytes")
        self._aead = AESGCM(key)
        self._opened: dict[tuple[str, str], str] = {}  # game rows are read often

    def __repr__(self) -> str:
        return "Sealer(<key>)"  # never the key itself, not even in a traceback

    def seal(self, text: str, purpose: str) -> str:
        nonce = secrets.token_bytes(NONCE_BYTES)
        box = self._aead.encrypt(nonce, text.encode(), purpose.encode())
        return PREFIX + base64.urlsafe_b64encode(nonce + box).decode()

    def open(self, sealed: str, purpose: str) -> str:
        key = (sealed, purpose)
        got = self._opened.get(key)
        if got is None:
            got = self._open(sealed, purpose)
            if len(self._opened) >= OPENED_CACHE:
                self._opened.clear()
            self._opened[key] = got
        return got

    def _open(self, sealed: str, purpose: str) -> str:
        if not is_sealed(sealed):
            raise StoreError(f"a {purpose} in the store is not sealed")
        try:
            raw = base64.urlsafe_b64decode(sealed[len(PREFIX) :])
            return self._aead.decrypt(
                raw[:NONCE_BYTES], raw[NONCE_BYTES:], purpose.encode()
            ).decode()
        except (InvalidTag, ValueError, binascii.Error):
            raise StoreError(
                f"a sealed {purpose} does not open with this store's key "
                "(was the key file replaced?)"
            ) from None


def is_sealed(value) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def new_token() -> str:
    """An unguessable link token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps of a link's token, and looks it up by."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_key(token: str) -> Sealer:
    """The key of one seat's own sealed rows (enemy-player views and orders).

    Made from the token (which the store does not keep in clear) by a different hash from
    :func:`token_hash`, so the stored hash does not give it.
    """
    return Sealer(hashlib.sha256(b"hexclass seat key\0" + token.encode()).digest())


# --- where the key is ------------------------------------------------------------------------


def key_file_for(location) -> pathlib.Path:
    """The default key file of a store location (see the module docstring)."""
    if is_postgres(location):
        from urllib.parse import urlsplit

        parts = urlsplit(str(location))
        host = "".join(c if c.isalnum() or c in ".-" else "_" for c in (parts.hostname or "local"))
        db = "".join(c if c.isalnum() or c in ".-_" else "_" for c in parts.path.strip("/"))
        return pathlib.Path.home() / ".hexclass" / f"{host}-{db or 'hexclass'}.key"
    path = sqlite_path(location)
    return path.with_name(path.name + ".key")


def read_key_file(path: pathlib.Path, create: bool = True) -> bytes:
    """The key in ``path`` (created 0600 when missing and ``create``)."""
    path = pathlib.Path(path).expanduser()
    if not path.exists() and create:
        if not path.parent.exists():
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        text = base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).decode() + "\n"
        draft = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(draft, path)  # whole or not at all; never over another process's key
        except FileExistsError:
            pass  # another process made it first: read theirs
        finally:
            draft.unlink()
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return decode_key(path.read_text().strip(), str(path))
    except OSError as exc:
        raise StoreError(f"the store's key file {path} cannot be read: {exc.strerror}") from None


def decode_key(text: str, source: str) -> bytes:
    try:
        key = base64.urlsafe_b64decode(text.encode())
    except (ValueError, binascii.Error):
        key = b""
    if len(key) != KEY_BYTES:
        raise StoreError(
            f"{source}: expected a store key ({KEY_BYTES} bytes in URL-safe base64), "
            "got something else"
        )
    return key


def sealer_for(location, environ=None) -> Sealer | None:
    """The key this process may use for the store at ``location`` (None: keyless)."""
    env = os.environ if environ is None else environ
    if env.get(KEYLESS_ENV):
        return None
    if env.get(KEY_ENV):
        return Sealer(decode_key(env[KEY_ENV].strip(), f"${KEY_ENV}"))
    path = env.get(KEY_FILE_ENV) or key_file_for(location)
    return Sealer(read_key_file(pathlib.Path(path)))


class _Auto:
    def __repr__(self) -> str:
        return "AUTO"


AUTO = _Auto()  # a store's ``key=`` default: :func:`sealer_for` its location


def resolve(key, location) -> Sealer | None:
    """A store's ``key=`` argument as a :class:`Sealer` (or None: keyless)."""
    if key is AUTO:
        return sealer_for(location)
    if key is None or isinstance(key, Sealer):
        return key
    if isinstance(key, bytes):
        return Sealer(key)
    raise TypeError(f"key: expected AUTO, None, bytes or a Sealer, got {type(key).__name__}")


# --- what both stores do with it -------------------------------------------------------------


def need(sealer: Sealer | None, what: str) -> Sealer:
    if sealer is None:
        raise NoKey(
            f"{what} needs the store's key, which this process does not hold "
            "(seat kernels never do; the server, the referee and the instructor do)"
        )
    return sealer


def seal_int(sealer: Sealer | None, value: int, purpose: str) -> str:
    return need(sealer, f"writing a {purpose}").seal(str(int(value)), purpose)


def open_int(sealer: Sealer | None, value, purpose: str) -> int | None:
    """A sealed number, or None in a keyless process."""
    if sealer is None:
        return None
    return int(sealer.open(value, purpose))


# --- rows: sealed on the way in, opened on the way out (both stores) -------------------------


def new_token_row(sealer: Sealer | None) -> tuple[str, str, str]:
    """A fresh link token: (the token, its hash for lookups, its sealed copy)."""
    token = new_token()
    return token, token_hash(token), need(sealer, "making a link").seal(token, "token")


def open_token(sealer: Sealer | None, sealed: str | None) -> str:
    if sealed is None:
        raise StoreError("a link's token is missing from the store")
    return need(sealer, "showing the links again").open(sealed, "token")


def create_log_data(sealer: Sealer | None, teams: list[int], seeds: list[int]) -> dict:
    """The instructor log's ``create`` entry: the seeds sealed."""
    return {
        "teams": teams,
        "seeds": need(sealer, "logging a class").seal(json.dumps(seeds), "seeds"),
    }


def log_data_out(sealer: Sealer | None, data: dict) -> dict:
    """An instructor log entry as read: its sealed seeds opened (left sealed if keyless)."""
    seeds = data.get("seeds")
    if sealer is not None and is_sealed(seeds):
        return {**data, "seeds": json.loads(sealer.open(seeds, "seeds"))}
    return data


def reseal(value, purpose: str, source: Sealer | None, target: Sealer | None):
    """A sealed value moved from one store's key to another's (others as they are)."""
    if not is_sealed(value):
        return value
    text = need(source, "copying sealed values").open(value, purpose)
    return need(target, "copying sealed values").seal(text, purpose)


def reseal_log_data(raw: str, source: Sealer | None, target: Sealer | None) -> str:
    data = json.loads(raw)
    if not is_sealed(data.get("seeds")):
        return raw
    return json.dumps({**data, "seeds": reseal(data["seeds"], "seeds", source, target)})


SECRET_ACTION_TYPES = ("Deploy", "ChooseReveals", "Bid")  # public.SECRET_ACTIONS and bids


def action_text(sealer: Sealer | None, action) -> str:
    """An accepted action as the log keeps it: JSON, sealed if it is the defender's secret
    (its deployment, its reveal orders) or a sealed bid (CA p.7)."""
    from hexclass.classroom.combined_arms.actions import action_to_json

    text = json.dumps(action_to_json(action))
    if type(action).__name__ in SECRET_ACTION_TYPES:
        return need(sealer, "logging a secret action").seal(text, "action")
    return text


def action_from_text(sealer: Sealer | None, raw: str, seat: str):
    """The logged action (a ``SecretAction`` marker for a sealed one in a keyless process)."""
    from hexclass.classroom.combined_arms.actions import action_from_json

    if is_sealed(raw):
        if sealer is None:
            from hexclass.classroom.combined_arms.public import SecretAction

            return SecretAction(seat)
        raw = sealer.open(raw, "action")
    return action_from_json(json.loads(raw))


# One sealed word per store: opened on every keyed open, so a host given another key (a
# second server on a shared PostgreSQL store) is stopped before it writes anything.
KEY_TABLE = """
CREATE TABLE IF NOT EXISTS store_key (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    probe TEXT NOT NULL
);
"""
PROBE = "hexclass store key"


def check_key(run, sealer: Sealer | None, where: str) -> None:
    """Seal the probe on first use; afterwards insist that this process's key opens it."""
    if sealer is None:
        return
    row = run("SELECT probe FROM store_key WHERE id = 1", ()).fetchone()
    if row is None:
        run(
            "INSERT INTO store_key (id, probe) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
            (sealer.seal(PROBE, "probe"),),
        )
        return
    try:
        ok = sealer.open(row[0], "probe") == PROBE
    except StoreError:
        ok = False
    if not ok:
        raise StoreError(
            f"the class store {where} was sealed with another key than this one: give this "
            f"process the store's own key file (--key-file, ${KEY_FILE_ENV}) or ${KEY_ENV}; "
            "every host of one PostgreSQL store needs the same key"
        )


UPGRADE_COLUMNS = (
    "ALTER TABLE classes ADD COLUMN instructor_sealed TEXT",
    "ALTER TABLE games ADD COLUMN seed_sealed TEXT",
    "ALTER TABLE seats ADD COLUMN token_sealed TEXT",
)


def upgrade_rows(run, sealer: Sealer | None) -> None:
    """Schema 3 -> 4, inside the store's upgrade transaction (``run(sql with ?, params)``):
    tokens become hashes plus sealed copies, seeds (and the instructor log's) sealed,
    enemy-player views and decided orders (kept in clear before) removed."""
    sealer = need(sealer, "upgrading the store (sealing its seeds and tokens)")
    for cid, tok in run(
        "SELECT id, instructor_token FROM classes WHERE instructor_sealed IS NULL", ()
    ).fetchall():
        run(
            "UPDATE classes SET instructor_token = ?, instructor_sealed = ? WHERE id = ?",
            (token_hash(tok), sealer.seal(tok, "token"), cid),
        )
    for gid, seat, tok in run(
        "SELECT game_id, seat, token FROM seats WHERE token_sealed IS NULL", ()
    ).fetchall():
        run(
            "UPDATE seats SET token = ?, token_sealed = ? WHERE game_id = ? AND seat = ?",
            (token_hash(tok), sealer.seal(tok, "token"), gid, seat),
        )
    for gid, seed in run("SELECT id, seed FROM games WHERE seed_sealed IS NULL", ()).fetchall():
        run(
            "UPDATE games SET seed = 0, seed_sealed = ? WHERE id = ?",
            (sealer.seal(str(seed), "seed"), gid),
        )
    # views and decided orders written in clear go; the referee publishes sealed ones again
    run("DELETE FROM hidden_views", ())
    run("DELETE FROM hidden_seats", ())
    run("DELETE FROM hidden_orders WHERE status IN ('accepted', 'refused')", ())
    for lid, raw in run("SELECT id, data FROM instructor_log WHERE kind = 'create'", ()).fetchall():
        data = json.loads(raw)
        if isinstance(data.get("seeds"), list):
            data["seeds"] = sealer.seal(json.dumps(data["seeds"]), "seeds")
            run("UPDATE instructor_log SET data = ? WHERE id = ?", (json.dumps(data), lid))


__all__ = [
    "AUTO",
    "KEYLESS_ENV",
    "KEY_ENV",
    "KEY_ENVS",
    "KEY_FILE_ENV",
    "NoKey",
    "Sealer",
    "is_sealed",
    "key_file_for",
    "read_key_file",
    "resolve",
    "seal_int",
    "open_int",
    "seat_key",
    "sealer_for",
    "new_token",
    "token_hash",
]
