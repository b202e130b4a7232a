"""The page's address (query string) inside a Voilà kernel, without importing Voilà.

A preheated kernel runs the page before anyone has asked for it; when a visitor comes,
Voilà sends that request's details (``QUERY_STRING`` and friends) over a websocket at
``/voila/query/<kernel id>``. ``voila.utils.get_query_string`` does the same but imports
Jupyter Server, nbconvert and JupyterLab Server into the kernel (about 57 MiB per kernel,
measured); this module speaks the one message of that exchange with the standard library
(RFC 6455: a client handshake, then one unmasked text frame from the server).

>>> parse_query("token=abc&seed=4")
{'token': 'abc', 'seed': '4'}
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from urllib.parse import parse_qsl

CONNECT_TIMEOUT = 10.0
QUERY_KEY_ENV = (
    "HEXCLASS_QUERY_KEY"  # the same names as hexclass.classroom.gate (not imported here)
)
QUERY_KEY_HEADER = "X-Hexclass-Kernel-Key"


def parse_query(qs: str) -> dict[str, str]:
    return dict(parse_qsl(qs or ""))


def query_params() -> dict[str, str]:
    """The page's URL query under Voilà (waits for it in a preheated kernel); {} elsewhere."""
    qs = os.environ.get("QUERY_STRING")
    if qs is None and os.environ.get("VOILA_PREHEAT") == "True":
        wait_for_request()
        qs = os.environ.get("QUERY_STRING")
    return parse_query(qs or "")


def wait_for_request() -> None:
    """Block until Voilà hands this preheated kernel a request; put its details in the env."""
    host = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    if host in ("0.0.0.0", "", "::"):
        host = "127.0.0.1"
    port = int(os.environ.get("VOILA_APP_PORT", "8866"))
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    kernel_id = os.environ.get("VOILA_KERNEL_ID", "")
    key = os.environ.get(QUERY_KEY_ENV, "")  # the server answers this kernel only
    info = json.loads(read_one_message(host, port, f"{base}voila/query/{kernel_id}", key))
    for key, value in info.items():
        os.environ[key] = str(value)


def read_one_message(host: str, port: int, path: str, kernel_key: str = "") -> str:
    """Open a websocket to ``path`` and return the first text message the server sends.

    ``kernel_key`` goes in the ``X-Hexclass-Kernel-Key`` header: ``hexclass serve`` gives
    each kernel its own in ``HEXCLASS_QUERY_KEY`` and answers nobody without it.
    """
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"{QUERY_KEY_HEADER}: {kernel_key}\r\n" if kernel_key else ""
    with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as sock:
        sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n{extra}"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        stream = sock.makefile("rb")
        status = stream.readline()
        if b" 101 " not in status:
            raise ConnectionError(f"Voilà refused the request-info websocket: {status!r}")
        while stream.readline() not in (b"\r\n", b""):
            pass  # the rest of the handshake's headers
        sock.settimeout(None)  # the visitor may come much later
        parts = []
        while True:
            head = _read(stream, 2)
            fin, opcode = head[0] & 0x80, head[0] & 0x0F
            length = head[1] & 0x7F
            if length == 126:
                length = struct.unpack(">H", _read(stream, 2))[0]
            elif length == 127:
                length = struct.unpack(">Q", _read(stream, 8))[0]
            mask = _read(stream, 4) if head[1] & 0x80 else b""
            data = _read(stream, length)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode == 0x8:
                raise ConnectionError("Voilà closed the request-info websocket")
            if opcode in (0x1, 0x0):
                parts.append(data)
                if fin:
                    return b"".join(parts).decode("utf-8")


def _read(stream, n: int) -> bytes:
    data = stream.read(n)
    if data is None or len(data) < n:
        raise ConnectionError("the request-info websocket closed early")
    return data
