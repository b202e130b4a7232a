"""A kernel websocket of the legacy protocol must not stall the server (issue 30).

A client that asks for no subprotocol gets a message with buffers (an ipycanvas drawing,
after a teammate's move) in the legacy binary form: a 4-byte count, then 4-byte offsets.
Voilà's handler reads every binary frame as a v1 one, whose first 8 bytes count its
offsets: for a legacy frame that count is about 10**18, and the server's event loop
stayed in that count for good, so every page's websocket fell silent. Found by
``benchmarks/seat_protocol_load.py``, whose clients spoke the legacy protocol.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import tornado.websocket
from jupyter_server.services.kernels.connection.base import (
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)
from voila.tornado import kernel_websocket_handler

from hexclass.classroom import gate
from hexclass.classroom.server import KernelWebsocket, legacy_frame

V1 = "v1.kernel.websocket.jupyter.org"


def handler(subprotocol):
    h = object.__new__(KernelWebsocket)  # no connection: only write_message is exercised
    h.ws_connection = SimpleNamespace(selected_subprotocol=subprotocol)
    return h


@pytest.fixture
def sent(monkeypatch):
    frames = []
    monkeypatch.setattr(
        tornado.websocket.WebSocketHandler,
        "write_message",
        lambda self, message, binary=False: frames.append((message, binary)),
    )
    return frames


def canvas_message() -> dict:
    """A comm message with a buffer, as ipycanvas sends its drawing commands."""
    header = {"msg_type": "comm_msg", "msg_id": "m1", "session": "s", "username": "", "version": "5.4"}  # fmt: skip
    content = {"comm_id": "c1", "data": {"method": "custom", "content": {"stream": 1}}}
    return {"header": header, "parent_header": {}, "metadata": {}, "content": content,
            "buffers": [b"\x00" * 64]}  # fmt: skip


def test_a_legacy_binary_frame_goes_out_unread(sent, monkeypatch):
    def read_as_v1(*_args):
        raise AssertionError("a legacy frame was read as a v1 one")

    monkeypatch.setattr(kernel_websocket_handler, "read_header_from_binary_message", read_as_v1)
    monkeypatch.setattr(gate, "scrub", read_as_v1)
    frame = serialize_binary_message(canvas_message())
    assert int.from_bytes(frame[:8], "little") > 10**17  # what a v1 reader would count
    handler(None).write_message(frame, binary=True)
    assert sent == [(frame, True)]


def test_v1_frames_and_legacy_text_still_go_through_voila_and_the_scrub(sent, monkeypatch):
    scrubbed = []
    real_scrub = gate.scrub
    monkeypatch.setattr(gate, "scrub", lambda m: scrubbed.append(m) or real_scrub(m))
    msg = canvas_message()
    v1 = serialize_msg_to_ws_v1(msg, "iopub", pack=lambda part: json.dumps(part).encode())
    handler(V1).write_message(v1, binary=True)
    handler(None).write_message('{"header": {"msg_type": "status"}}')
    assert scrubbed == [v1, '{"header": {"msg_type": "status"}}']
    assert [m for m, _ in sent] == scrubbed
    assert legacy_frame(handler(None)) and not legacy_frame(handler(V1))
