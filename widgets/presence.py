"""Is a seat page's browser still there? A one-second tick from the browser says so.

The browser ticks a hidden ``Play`` widget every second; a kernel that has heard no tick
for :data:`BROWSER_GONE_SECONDS` takes its seat out of the presence table (a closed tab,
a lost network or a laptop lid) instead of heartbeating through the server's reload
grace, and puts it back at the next tick. Co-op seat pages (:mod:`.coop_seat`) and the
enemy-player seat pages (:mod:`.hidden_seat`) both use :class:`BrowserPresence`.
"""

from __future__ import annotations

import ipywidgets as W

BROWSER_TICK_MS = 1000
BROWSER_GONE_SECONDS = 3.0
NUDGE_SECONDS = 2.0
STALL_SECONDS = 1.0  # a gap this long between two looks means the kernel was busy


def browser_pulse(kit=None) -> W.Play:
    """The hidden widget the browser ticks once a second while the page is open
    (its layout shared through ``kit``, a :class:`~hexclass.widgets.lean.Kit`, when given)."""
    settings = dict(
        value=0, min=0, max=10**9, interval=BROWSER_TICK_MS, repeat=True, show_repeat=False
    )
    if kit is not None:
        return kit.make(W.Play, layout={"display": "none"}, **settings)
    return W.Play(layout=W.Layout(display="none"), **settings)


class BrowserPresence:
    """A page's presence by its browser's tick (a mixin for a seat page).

    The page provides ``pulse`` (from :func:`browser_pulse`, shown in its widget),
    ``clock`` (seconds, turned by tests), ``heartbeat()`` (say it is here) and
    ``leave()`` (take it out of the presence table); it calls :meth:`_build_pulse` once
    and :meth:`_check_browser` at every look of its loop. ``away`` is True while the
    browser is silent (the page then sends no heartbeat).
    """

    def _build_pulse(self) -> None:
        self.away = False  # the browser stopped ticking: the seat is out of the presence table
        self._pulse_at = None  # when the browser last ticked (None: not yet)
        self._nudged_at = float("-inf")
        self._checked_at = float("inf")  # when this loop last looked (none yet)
        self.pulse.observe(lambda _: self.on_pulse(), names="value")

    def on_pulse(self) -> None:
        """A tick from the browser: the page is open (back again, if it was away)."""
        self._pulse_at = self.clock()
        if self.away:
            self.away = False
            self.heartbeat()

    def _check_browser(self) -> None:
        now = self.clock()
        stalled = now - self._checked_at > STALL_SECONDS
        self._checked_at = now
        if stalled and self._pulse_at is not None:
            # this kernel was busy (e.g. the coach thinking): the browser's ticks wait in
            # its queue, so the silence says nothing yet; count it from now
            self._pulse_at = max(self._pulse_at, now - STALL_SECONDS)
        quiet = self._pulse_at is None or now - self._pulse_at > 2 * BROWSER_TICK_MS / 1000
        if quiet and now - self._nudged_at > NUDGE_SECONDS:
            # (re)start the browser's timer: a Play widget runs once told to play after
            # its view exists, so telling it again is how a fresh page starts ticking
            self._nudged_at = now
            self.pulse.playing = False
            self.pulse.playing = True
        if self._pulse_at is None or self.away:
            return  # no browser ever ticked (e.g. no page at all): the heartbeat decides
        if now - self._pulse_at > BROWSER_GONE_SECONDS:
            self.away = True
            self.leave()


__all__ = ["BROWSER_GONE_SECONDS", "BROWSER_TICK_MS", "BrowserPresence", "browser_pulse"]
