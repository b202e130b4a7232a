"""Seat pages of an enemy-player game (CA p.7): the kernel holds only this seat's view.

The referee (``classroom/sessions/hidden.py``, run by ``hexclass serve``) decides every
order and publishes each seat's copy of the game. This page reads its own copy, never
the action log, so an attacking student's kernel has no deployment, no force roll, no
dice and no seed to leak. What the page shows follows the seat's side:

* while two players bid (two-player game): a sealed bid;
* the defender: :class:`~.defender_app.DefenderApp` over the shared game (deploy, then
  the enemy phase's choices), with no team chat (the attackers' talk is their own);
* an attacker: the usual board (:class:`~.ca_app.GameApp`) and the team's messages.
"""

from __future__ import annotations

import asyncio
import atexit
import html
import random
import time
import uuid

import ipywidgets as W

from hexclass.classroom.combined_arms.actions import Bid
from hexclass.classroom.combined_arms.defender import BID, DEFENDER, MAX_BID
from hexclass.classroom.combined_arms.defender_game import DefenderGame
from hexclass.classroom.sessions.hidden import HiddenGame

from .ca_app import GameApp
from .defender_app import DefenderApp
from .game_link import Verdict
from .presence import BrowserPresence, browser_pulse

POLL_SECONDS = 0.1
CHAT_SECONDS = 1.0  # the team's messages are read once a second


VIEWER_TEXT = (
    "This seat is commanded from another browser; this page only watches. "
    "Press Take over to command it from here."
)
TAKEN_TEXT = (
    "This seat was taken over from another browser: you are watching now. "
    "Press Take over to command it from here again."
)
HOLD_SECONDS = 2.0  # how often the page says it is here and checks who holds the seat


class HeldGame:
    """A seat's :class:`HiddenGame` that refuses orders while another browser holds the
    seat (the page is then a viewer, as on co-op seats)."""

    def __init__(self, hidden: HiddenGame, on_accepted=None) -> None:
        self.hidden = hidden
        self.viewer = False
        self.on_accepted = on_accepted  # called once an order of this page is accepted

    def __getattr__(self, name):
        return getattr(self.hidden, name)

    def submit(self, action) -> Verdict:
        if self.viewer:
            return Verdict.refused(
                "this page only watches: press Take over to command the seat from here"
            )
        verdict = self.hidden.submit(action)
        if verdict and self.on_accepted is not None:
            self.on_accepted()
        return verdict


class SharedDefenderGame(DefenderGame):
    """:class:`DefenderGame` over a seat's published copy: orders go to the referee."""

    def __init__(self, hidden: HiddenGame) -> None:  # noqa: D107 - no local game or bot
        self.hidden = hidden
        self.seat = hidden.seat
        self.bot_name = "attacking team"
        self.opponent = "the attacking team"
        self.has_bot = False  # the attackers are people on their own pages
        self.hint_rng = random.Random()
        self.platoons, self.atgs = set(), set()
        self._history = []

    @property
    def state(self):
        return self.hidden.state

    def submit(self, action) -> Verdict:
        return self.hidden.submit(action)

    def check(self, action) -> Verdict:
        return self.hidden.check(action)

    def run_attacker(self, limit: int = 0) -> int:
        return 0  # the attackers are people on their own pages


def role(state, seat: str) -> str:
    powers = state.seats[seat].powers
    if BID in powers:
        return "bidder"
    return "defender" if DEFENDER in powers else "attacker"


class HiddenSeatApp(BrowserPresence):
    """One seat of an enemy-player game; rebuilds its body when the seat changes side.

    Like a co-op seat, the page is in the presence table while its browser ticks
    (:class:`~.presence.BrowserPresence`); a closed page leaves it within seconds.
    """

    def __init__(self, session, poll: bool = True) -> None:
        self.session = session
        hidden = HiddenGame(session.store, session.game_id, session.seat)
        self.game = HeldGame(hidden, on_accepted=self._read_own_order)
        self.client = uuid.uuid4().hex[:12]
        self.clock = time.monotonic  # tests may turn it
        self._held_at = 0.0
        self.pulse = browser_pulse()
        self.take_over = W.Button(
            description="Take over this seat",
            button_style="warning",
            layout=W.Layout(display="none"),
        )
        self.take_over.on_click(lambda _b: self.claim(take_over=True))
        self.hold_notice = W.HTML()
        self.header = W.HTML(
            f"<h3>Team {session.team} — {html.escape(session.info.title)} "
            "<small>(enemy-player game, CA p.7)</small></h3>"
        )
        self.notice = W.HTML()
        self.body = W.VBox()
        self.widget = W.VBox(
            [self.header, self.notice, self.hold_notice, self.take_over, self.body, self.pulse]
        )
        self.widget.add_class("hexclass-seat")
        self.role = None
        self.inner = None
        self._chat_at = 0.0
        self._events = 0
        self._build_pulse()
        self.rebuild()
        self.claim()
        atexit.register(self.leave)  # a closed page's kernel leaves the table on its way out
        if poll:
            asyncio.get_event_loop().create_task(self._run())

    # --- one browser commands the seat, another only watches ---------------------------------
    def claim(self, take_over: bool = False) -> None:
        """Hold the seat for this browser (``take_over``: from the browser holding it)."""
        self.session.heartbeat(self.client)  # the holder is a page that is here
        result = self.session.hold(self.client, take_over)
        self._set_viewer(not (result.ok and result.value), taken=False)

    def keep_hold(self) -> None:
        """Say this page is here; watch if another browser took the seat, take it back if
        the browser holding it has gone."""
        self._held_at = self.clock()
        self.session.heartbeat(self.client)
        holder = self.session.holder()
        if self.game.viewer:
            if holder in (None, self.client):
                self.claim()
        elif holder not in (None, self.client):
            self._set_viewer(True, taken=True)

    def _set_viewer(self, viewer: bool, taken: bool) -> None:
        self.game.viewer = viewer
        self.take_over.layout.display = "" if viewer else "none"
        text = (TAKEN_TEXT if taken else VIEWER_TEXT) if viewer else ""
        self.hold_notice.value = (
            f'<div class="hx-msg-bad">{html.escape(text)}</div>' if text else ""
        )

    def heartbeat(self) -> None:
        """The browser ticks again after a silence (:class:`~.presence.BrowserPresence`)."""
        self.keep_hold()

    def leave(self) -> None:
        """This page's browser is gone: out of the presence table (no heartbeat until
        it ticks again)."""
        try:
            self.session.leave(self.client)
        except Exception:  # noqa: BLE001 - the kernel may be exiting; the heartbeat expires
            pass

    # --- following the published copy -----------------------------------------------------
    async def _run(self) -> None:
        while True:
            try:
                self.poll_once()
            except Exception as exc:  # noqa: BLE001 - keep following; say what went wrong
                self.notice.value = (
                    f'<div class="hx-msg-bad">Lost touch with the game: {html.escape(str(exc))}'
                    "</div>"
                )
            await asyncio.sleep(POLL_SECONDS)

    def poll_once(self) -> bool:
        self._check_browser()
        if not self.away and self.clock() - self._held_at > HOLD_SECONDS:
            self.keep_hold()
        if self.role == "attacker" and time.monotonic() - self._chat_at > CHAT_SECONDS:
            self.refresh_chat()
        if not self.game.refresh():
            return False
        self.changed()
        return True

    def _read_own_order(self) -> None:
        """The copy read after this page's own order: the page read its events (its own
        result, and any teammate's that came with it) as it acted, not again at a poll."""
        if self.game.state is not None:
            self._events = len(self.game.state.events)

    def changed(self) -> None:
        state = self.game.state
        if state is None:
            return
        if role(state, self.game.seat) != self.role:
            self.rebuild()
        elif self.role == "attacker":
            new = state.events[self._events :]
            self.inner.external_update(new)
        elif self.role == "defender":
            self.inner.refresh()
        else:
            self._draw_bid()
        self._events = len(state.events)

    def _header_html(self) -> str:
        """The seat as it is now: a bidder becomes the defender or an attacker."""
        s = self.session
        what = {
            "defender": "you command the defenders",
            "bidder": "bidding for the defenders",
        }.get(self.role, s.info.title)
        return (
            f"<h3>Team {s.team} — {html.escape(what)} "
            "<small>(enemy-player game, CA p.7)</small></h3>"
        )

    def rebuild(self) -> None:
        state = self.game.state
        if state is None:
            self.notice.value = (
                "<p>Waiting for the referee to open this game (it runs with "
                "<code>hexclass serve</code>)…</p>"
            )
            return
        self.notice.value = ""
        self.role = role(state, self.game.seat)
        self._events = len(state.events)
        self.header.value = self._header_html()
        if self.role == "attacker":
            self.inner = GameApp(
                self.game,
                seat=self.game.seat,
                seat_label=f"Team {self.session.team}",
                solitaire=False,
            )
            self.inner.add_side_panel(self._build_chat())
            self.body.children = (self.inner.widget,)
        elif self.role == "defender":
            self.inner = DefenderApp(SharedDefenderGame(self.game))
            self.body.children = (self.inner.widget,)
        else:
            self._build_bid()

    # --- the attackers' talk (the defender's page has none: CA p.7, plans stay secret) -----
    def _build_chat(self):
        self.chat_log = W.HTML()
        self.chat_text = W.Text(placeholder="message to your team", layout=W.Layout(width="260px"))
        send = W.Button(description="Send", button_style="info", layout=W.Layout(width="auto"))
        send.on_click(lambda _b: self.on_send())
        self._chat_seen, self._chat_at = -1, 0.0
        self.refresh_chat()
        return W.VBox(
            [
                W.HTML("<b>Team messages</b> <small>(the defender cannot read them)</small>"),
                self.chat_log,
                W.HBox([self.chat_text, send]),
            ],
            layout=W.Layout(border="1px solid #ddd", padding="6px", margin="8px 0 0 0"),
        )

    def on_send(self) -> None:
        text = self.chat_text.value.strip()
        if not text:
            return
        result = self.session.say(text)
        if result:
            self.chat_text.value = ""
        else:
            self.inner.say(result.message, bad=True)
        self.refresh_chat()

    def refresh_chat(self) -> None:
        """The attacking seats' messages (a defender's seat never reads this table)."""
        defenders = {s.name for s in self.session.layout.seats if "defender" in s.powers}
        msgs = [
            m for m in self.session.store.messages(self.game.game_id) if m.seat not in defenders
        ]
        self._chat_at = time.monotonic()
        if len(msgs) == self._chat_seen:
            return
        self._chat_seen = len(msgs)
        self._chat_at = time.monotonic()
        titles = {s.name: (s.title, s.colour) for s in self.session.layout.seats}
        rows = []
        for m in msgs[-40:]:
            title, colour = titles.get(m.seat, (m.seat, "#444"))
            rows.append(
                f'<div><small>t{m.turn}</small> <b style="color:{colour}">'
                f"{html.escape(title)}</b>: {html.escape(m.text)}</div>"
            )
        self.chat_log.value = (
            '<div class="hx-panel hx-log" style="max-height:180px">'
            + ("".join(rows) or "<i>no messages yet</i>")
            + "</div>"
        )

    # --- the sealed bid ------------------------------------------------------------------
    def _build_bid(self) -> None:
        self.bid_points = W.BoundedIntText(value=0, min=0, max=MAX_BID, description="Bonus points:")
        self.bid_button = W.Button(description="Bid in secret", button_style="primary")
        self.bid_status = W.HTML()
        self.bid_button.on_click(lambda _b: self.on_bid())
        self.body.children = (
            W.HTML(
                "<p>Bid for command of the defenders (CA p.7): how many points would you "
                "add to the attackers' victory score to defend? The higher bid defends; "
                "dice settle a tie. Your bid stays secret until both are in.</p>"
            ),
            W.HBox([self.bid_points, self.bid_button]),
            self.bid_status,
        )
        self._draw_bid()

    def on_bid(self) -> None:
        verdict = self.game.submit(Bid(self.game.seat, int(self.bid_points.value)))
        if not verdict:
            self.bid_status.value = f'<p style="color:#b3261e">{html.escape(verdict.reason)}</p>'
        self.changed()

    def _draw_bid(self) -> None:
        mine = self.game.state.bids.get(self.game.seat)
        if mine is not None:
            self.bid_button.disabled = True
            self.bid_status.value = f"<p>You bid {mine}. Waiting for the other player's bid…</p>"


def hidden_seat_page(session):
    return HiddenSeatApp(session).widget
