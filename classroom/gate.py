"""What ``hexclass serve`` checks before a page gets a kernel, and who may use one after.

The server (:mod:`hexclass.classroom.server`) runs on a class network: anyone on it can send it
requests. This module holds the checks that keep a curious student from starting
kernels, creating classes or using someone else's kernel (``docs/security.md``):

* **Which pages exist.** Only the hexclass pages and the lessons are rendered; any other
  notebook in the repository is a 404.
* **The instructor key.** The instructor page (the *New class* form and every console)
  renders only for a browser holding the key's cookie; without it the server answers a
  small form asking for the key (printed by ``hexclass serve`` at start) and starts no
  kernel. :class:`KeyHandler` takes the form and sets the cookie.
* **Seat links are checked first.** A seat page's token is looked up in the store
  before any kernel starts; an unknown token gets the refusal page and no kernel. A
  seat token holds at most ``PER_TOKEN`` live kernels (a page and its reload).
* **A budget for pages without a token** (home, solitaire, the defender, the lessons):
  past ``max_kernels`` live kernels the server answers "busy, try again in N s" (503).
* **A kernel id is not a key.** The page's response sets, for its own kernel only, a
  cookie whose value is an HMAC of the kernel id under a secret made at start; the
  kernel's websocket, ``GET``/``DELETE /api/kernels/<id>`` and the shutdown beacon
  need it. A preheated kernel reads its visitor's request over ``/voila/query/<id>``
  with a key given to it in its environment, which nobody else holds.
* **Log lines** show kernel ids and link tokens cut short (:class:`RedactFilter`).
"""

from __future__ import annotations

import hashlib
import hmac
import html
import logging
import re
import secrets
import time
from collections import Counter

import tornado.web

HOME = "classroom/pages/home.ipynb"
SEAT = "classroom/pages/seat.ipynb"
SOLITAIRE = "classroom/pages/solitaire.ipynb"
INSTRUCTOR = "classroom/pages/instructor.ipynb"
DEFENDER = "classroom/pages/defender.ipynb"
PAGES = {HOME, SEAT, SOLITAIRE, INSTRUCTOR, DEFENDER}
LESSON = re.compile(r"lessons/[A-Za-z0-9_-]+\.ipynb")

KEY_ENV = "HEXCLASS_INSTRUCTOR_KEY"
KEY_PATH = "/hexclass/instructor-key"
KEY_COOKIE = "hexclass_instructor"
PAGE_COOKIE = "hexclass_page"  # Path=/api/kernels/<id>: the websocket and GET/DELETE
STOP_COOKIE = "hexclass_stop"  # Path=/voila/api/shutdown/<id>: the page's closing beacon
QUERY_KEY_ENV = "HEXCLASS_QUERY_KEY"
QUERY_KEY_HEADER = "X-Hexclass-Kernel-Key"
PER_TOKEN = 2
MIN_KEY_LENGTH = 16

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def new_key() -> str:
    """A fresh instructor key (128 random bits, URL-safe characters)."""
    return secrets.token_urlsafe(16)


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be the instructor key (None when it can)."""
    if len(key) < MIN_KEY_LENGTH:
        return f"the instructor key must have at least {MIN_KEY_LENGTH} characters"
    if not key.isprintable() or key.strip() != key:
        return "the instructor key must be printable, without spaces at either end"
    return None


# --- log lines -----------------------------------------------------------------------------

_UUID = re.compile(r"\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_TOKEN = re.compile(r"(token=)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]+")


def redact(text: str) -> str:
    """``text`` with kernel ids and link tokens cut to their first characters."""
    return _TOKEN.sub(r"\1\2…", _UUID.sub(r"\1…", text))


class RedactFilter(logging.Filter):
    """A log filter that shortens kernel ids and tokens in every record it sees."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is left as it is
            return True
        short = redact(text)
        if short != text:
            record.msg, record.args = short, ()
        return True


def redact_logs(*loggers: logging.Logger) -> None:
    """Put :class:`RedactFilter` on ``loggers`` and their handlers (and the root's)."""
    seen = set()
    for logger in loggers:
        if not any(isinstance(f, RedactFilter) for f in logger.filters):
            logger.addFilter(RedactFilter())
    for logger in (*loggers, logging.getLogger()):
        for handler in logger.handlers:
            if id(handler) not in seen and not any(
                isinstance(f, RedactFilter) for f in handler.filters
            ):
                handler.addFilter(RedactFilter())
            seen.add(id(handler))


# --- the gate ------------------------------------------------------------------------------


class Gate:
    """The server's secrets and the kernel claims of the pages it served."""

    def __init__(self, instructor_key: str, store_location: str | None, max_kernels: int):
        self.instructor_key = instructor_key
        self.store_location = store_location
        self.max_kernels = max_kernels
        self.secret = secrets.token_bytes(32)
        self._store = None
        self.pending: Counter = Counter()

    # the per-page secret and the instructor cookie
    def page_secret(self, kernel_id: str) -> str:
        return hmac.new(self.secret, kernel_id.encode(), hashlib.sha256).hexdigest()

    def page_ok(self, kernel_id: str, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(self.page_secret(kernel_id), value)

    def key_cookie(self) -> str:
        """The cookie value of a browser that gave the key (derived: the key is not in it)."""
        return hmac.new(self.instructor_key.encode(), b"hexclass console", "sha256").hexdigest()

    def key_ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.instructor_key.encode())

    def cookie_ok(self, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(value, self.key_cookie())

    # the store, for seat tokens
    def lookup(self, token: str):
        """Whose link ``token`` is (``TokenInfo``), or None; StoreError if the store fails."""
        from hexclass.classroom.sessions.store import looks_like_token

        if not looks_like_token(token):
            return None
        if self._store is None:
            from hexclass.classroom.sessions.locate import open_location

            self._store = open_location(self.store_location)
        try:
            return self._store.lookup_token(token)
        except Exception:
            self._store, store = None, self._store
            try:
                store.close()
            except Exception:  # noqa: BLE001 - it failed already
                pass
            raise

    # kernel claims: claim "seat:<token>", "free" (token-less) or "instructor"
    def in_use(self, km, claim: str) -> int:
        live = sum(
            1
            for k, c in list(km.claims.items())
            if c == claim and k in km and k not in km._stopping
        )
        return live + self.pending[claim]

    def limit(self, claim: str) -> int | None:
        if claim.startswith("seat:"):
            return PER_TOKEN
        return self.max_kernels if claim == "free" else None


def retry_after(km) -> int:
    """Seconds until a kernel is likely to be given back (an orphaned page's, or a cull)."""
    now = time.monotonic()
    waits = [km.reload_grace - (now - t) for t in list(km._orphaned_at.values())]
    return max(5, int(min(waits, default=float(km.cull_idle_timeout or 60)) + 1))


# --- the pages the server answers without a kernel ---------------------------------------

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em;"
    "line-height:1.5;color:#222}h1{font-size:1.4em}code{background:#eee;padding:0 .2em;white-space:nowrap}"
    "input[type=password]{font-size:1.1em;width:22em;max-width:100%}"
    "button{font-size:1em;padding:.3em 1em}.bad{color:#a00}"
)


def plain_page(title: str, body: str) -> str:
    """A whole small HTML page (no script; ``body`` is HTML the caller escaped)."""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>'
        f"{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>{body}</body></html>"
    )


def key_form(handler: tornado.web.RequestHandler, next_url: str, problem: str = "") -> str:
    bad = f'<p class="bad" id="hexclass-key-problem">{html.escape(problem)}</p>' if problem else ""
    return plain_page(
        "The instructor key, please",
        f"{bad}<p>The instructor page (creating a class, and every class's console) opens "
        "only in a browser that gave the <b>instructor key</b>. <code>hexclass serve</code> "
        "printed it when it started (its line begins <code>instructor key:</code>); it can "
        "also be set with <code>hexclass serve --instructor-key</code> or the environment "
        f"variable <code>{KEY_ENV}</code>.</p>"
        f'<form method="post" action="{KEY_PATH}">{handler.xsrf_form_html()}'
        f'<input type="hidden" name="next" value="{html.escape(next_url)}">'
        '<p><label>Instructor key: <input type="password" name="key" autocomplete="off" '
        'autofocus required id="hexclass-key"></label> <button type="submit">Open the '
        "console</button></p></form><p>This browser then keeps the key's cookie until it "
        "closes. Students never need the key.</p>",
    )


def safe_next(next_url: str | None) -> str:
    """Where the key form may send the browser back: the instructor page only."""
    target = f"/voila/render/{INSTRUCTOR}"
    if next_url and (next_url == target or next_url.startswith(target + "?")):
        return next_url
    return target


class KeyHandler(tornado.web.RequestHandler):
    """``POST /hexclass/instructor-key``: a right key sets the console cookie."""

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)
        self.set_header("Cache-Control", "no-store")

    def get(self):
        self.finish(key_form(self, safe_next(self.get_argument("next", None))))

    def post(self):
        gate: Gate = self.settings["hexclass_gate"]
        next_url = safe_next(self.get_argument("next", None))
        if not gate.key_ok(self.get_argument("key", "")):
            self.set_status(403)
            self.finish(key_form(self, next_url, "That is not the instructor key."))
            return
        self.set_cookie(KEY_COOKIE, gate.key_cookie(), path="/", httponly=True, samesite="Strict")
        self.redirect(next_url)


def refusal(title: str, text: str) -> str:
    return plain_page(title, f'<p id="hexclass-refusal">{html.escape(text)}</p>')


# --- no traceback to a client ---------------------------------------------------------------

PLAIN_ERROR = (
    "This page's kernel could not handle a message it was sent (details in the server log).\n"
)
_CLIENT_SENT = {"comm_open", "comm_msg", "comm_close"}


def scrub(message):
    """``(message to send, text to log)``: a kernel's stderr or error caused by a message
    from the browser (a malformed ``comm_open``: a traceback with server paths) goes to the
    server's log; the page gets a plain line instead. Anything else passes unchanged.

    ``message`` is what the kernel websocket sends: a dict, JSON text or a v1 binary frame.
    """
    import json

    from jupyter_server.services.kernels.connection.base import (
        deserialize_msg_from_ws_v1,
        serialize_msg_to_ws_v1,
    )

    if isinstance(message, bytes | bytearray):
        if b'"stream"' not in message and b'"error"' not in message:
            return message, None
        try:
            channel, parts = deserialize_msg_from_ws_v1(bytes(message))
            header, parent, content = (json.loads(parts[i]) for i in (0, 1, 3))
        except (ValueError, IndexError, TypeError):
            return message, None
        plain, logged = _scrubbed(header, parent, content)
        if logged is None:
            return message, None
        parts = [*parts[:3], json.dumps(plain).encode(), *parts[4:]]
        return serialize_msg_to_ws_v1(parts, channel), logged
    as_text = isinstance(message, str)
    if as_text:
        if '"stream"' not in message and '"error"' not in message:
            return message, None
        try:
            msg = json.loads(message)
        except ValueError:
            return message, None
    elif isinstance(message, dict):
        msg = message
    else:
        return message, None
    plain, logged = _scrubbed(msg.get("header"), msg.get("parent_header"), msg.get("content"))
    if logged is None:
        return message, None
    msg = {**msg, "content": plain}
    if msg.get("header", {}).get("msg_type") == "error":
        msg["header"] = {**msg["header"], "msg_type": "stream"}
        msg["msg_type"] = "stream"
    return (json.dumps(msg) if as_text else msg), logged


def _scrubbed(header, parent, content):
    if not isinstance(header, dict) or not isinstance(content, dict):
        return None, None
    kind = header.get("msg_type")
    caused_by = (parent or {}).get("msg_type") if isinstance(parent, dict) else None
    if caused_by not in _CLIENT_SENT:
        return None, None
    if kind == "stream" and content.get("name") == "stderr":
        return {"name": "stderr", "text": PLAIN_ERROR}, str(content.get("text", ""))
    if kind == "error":
        logged = "\n".join(map(str, content.get("traceback") or [content.get("evalue", "")]))
        return {"name": "stderr", "text": PLAIN_ERROR}, logged
    return None, None
