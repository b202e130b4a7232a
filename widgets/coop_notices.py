"""Notices, download links and guarded callbacks shared by the instructor console's tabs
(:mod:`.coop_console`, :mod:`.coop_debrief`)."""

from __future__ import annotations

import base64
import html
from collections.abc import Callable

import ipywidgets as W

esc = html.escape


def notice_html(text: str, bad: bool = False) -> str:
    cls = "hx-msg-bad" if bad else "hx-msg-ok"
    return f'<div class="hx-panel hx-notice {cls}">{esc(text)}</div>'


def data_link(name: str, data: bytes, mime: str) -> str:
    b64 = base64.b64encode(data).decode()
    return f'<a download="{esc(name)}" href="data:{mime};base64,{b64}">{esc(name)}</a>'


def guarded(notice: W.HTML, fn: Callable[[], None]) -> Callable:
    """A button callback that shows any error inline instead of a traceback."""

    def callback(*_):
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
            notice.value = notice_html(f"That did not work: {exc}", bad=True)

    return callback
