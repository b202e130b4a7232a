"""A co-op seat page (CA p.7 "Co-operative Team Play"): one student's board and team panels.

Each student's browser has its own Voilà kernel. The shared game lives in the store;
this page keeps a follower (a replayed copy) up to date from an asyncio task in the
kernel's event loop, so polling never blocks clicks, and sends every action through
the store with the version it was drawn from. A stale action comes back as "the board
changed"; the page has already caught up and shows the new board.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import uuid

import ipywidgets as W

from classroom.combined_arms import check
from classroom.sessions import AccessRefused, Refusal, open_seat, open_store

from .ca_app import GameApp

POLL_SECONDS = 0.05
HEARTBEAT_SECONDS = 5.0


class SharedGame:
    """The team's game as one seat sees it: the follower's state; actions go to the store."""

    def __init__(self, session) -> None:
        self.session = session
        self.follower = session.follower()

    @property
    def state(self):
        return self.follower.state

    def submit(self, action) -> str | None:
        result = self.session.submit(self.follower.version, action)
        self.follower.poll(force=True)
        if result:
            return None
        if result.kind == Refusal.STALE:
            return "The board changed before your order arrived; here it is again. Check and try again."
        return result.message

    def check(self, action) -> str | None:
        reason = check(self.state, action)
        return None if reason is None else str(reason)


class SeatApp:
    """The board for one seat plus chat, the commander's queue, readiness and presence."""

    def __init__(self, session, poll: bool = True) -> None:
        self.session = session
        self.game = SharedGame(session)
        seat = session.info
        self.client = uuid.uuid4().hex[:12]
        label = f"Team {session.team} — {seat.title}"
        self.app = GameApp(self.game, seat=session.seat, seat_label=label, solitaire=False)
        self.header = W.HTML()
        self.chat_log = W.HTML()
        self.chat_text = W.Text(placeholder="message to your team", layout=W.Layout(width="260px"))
        self.chat_send = W.Button(
            description="Send", button_style="info", layout=W.Layout(width="70px")
        )
        self.chat_send.on_click(lambda _: self.on_send())
        self.chat_text.on_submit(lambda _: self.on_send())
        self.queue_html = W.HTML()
        self.ask_note = W.Text(
            placeholder="what you want to do next", layout=W.Layout(width="220px")
        )
        self.ask_button = W.Button(description="Ask to act next", layout=W.Layout(width="auto"))
        self.ask_button.on_click(lambda _: self.on_ask())
        self.decide_box = W.VBox()
        self.ready_button = W.ToggleButton(
            description="I'm done this phase", layout=W.Layout(width="auto")
        )
        self.ready_button.observe(lambda ch: self.on_ready(ch["new"]), names="value")
        self.notice = W.HTML()
        team_panel = W.VBox(
            [
                W.HTML("<b>Team messages</b>"),
                self.chat_log,
                W.HBox([self.chat_text, self.chat_send]),
                W.HTML(
                    "<b>Who acts next</b> <small>(the overall commander decides, CA p.7)</small>"
                ),
                self.queue_html,
                W.HBox([self.ask_note, self.ask_button]),
                self.decide_box,
                self.ready_button,
            ],
            layout=W.Layout(border="1px solid #ddd", padding="6px", margin="8px 0 0 0"),
        )
        self.app.add_side_panel(team_panel)
        self.widget = W.VBox([self.header, self.notice, self.app.widget])
        self.widget.add_class("hexclass-seat")
        self._last_heartbeat = 0.0
        self.heartbeat()
        self.refresh_team()
        self._task = None
        if poll:
            self.start()

    # --- polling ----------------------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_event_loop()
        self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                self.poll_once()
            except Exception as exc:  # noqa: BLE001 - keep following; show the trouble inline
                self.notice.value = f'<div class="hx-msg-bad">Lost touch with the game store: {html.escape(str(exc))}</div>'
            await asyncio.sleep(POLL_SECONDS)

    def poll_once(self) -> bool:
        """Catch up with the store; redraw only what changed. True if anything did."""
        import time

        if time.monotonic() - self._last_heartbeat > HEARTBEAT_SECONDS:
            self.heartbeat()
        upd = self.game.follower.poll()
        if not upd:
            return False
        if upd.board_changed:
            self.app.external_update(upd.events)
        self.refresh_team()
        return True

    def heartbeat(self) -> None:
        import time

        self.session.heartbeat(self.client)
        self._last_heartbeat = time.monotonic()

    # --- team panels ----------------------------------------------------------------------------
    def refresh_team(self) -> None:
        f = self.game.follower
        s = self.game.state
        layout = self.session.layout
        people = []
        for seat in layout.seats:
            on = "●" if seat.name in f.connected else "○"
            ready = " ✓" if seat.name in f.ready else ""
            me = " (you)" if seat.name == self.session.seat else ""
            people.append(
                f'<span style="color:{seat.colour}">{on} {html.escape(seat.title)}{me}{ready}</span>'
            )
        status = f.status
        banner = ""
        if status == "paused":
            banner = '<div class="hx-msg-bad">The instructor has paused the game.</div>'
        elif status == "ended":
            banner = '<div class="hx-msg-bad">The game has ended.</div>'
        self.header.value = (
            f'<div class="hx-panel"><b>Team {self.session.team}</b> — you are '
            f'<b style="color:{self.session.info.colour}">{html.escape(self.session.info.title)}</b> '
            f"({', '.join(sorted(self.session.info.units)) or 'no platoons'}). "
            f"Team: {' · '.join(people)}{banner}</div>"
        )
        self.chat_log.value = self._chat_html()
        self.queue_html.value = self._queue_html()
        self._refresh_decisions()
        left = self.session.messages_left(s.turn)
        self.chat_send.description = "Send" if left is None else f"Send ({left} left)"
        self.chat_send.disabled = left == 0

    def _chat_html(self) -> str:
        rows = []
        titles = {seat.name: (seat.title, seat.colour) for seat in self.session.layout.seats}
        for m in self.game.follower.messages[-40:]:
            title, colour = titles.get(m.seat, (m.seat, "#444"))
            at = dt.datetime.fromtimestamp(m.at).strftime("%H:%M:%S")
            rows.append(
                f'<div><small>{at} t{m.turn}</small> <b style="color:{colour}">{html.escape(title)}</b>: '
                f"{html.escape(m.text)}</div>"
            )
        return f'<div class="hx-panel hx-log" style="max-height:180px">{"".join(rows) or "<i>no messages yet</i>"}</div>'

    def _queue_html(self) -> str:
        reqs = self.game.follower.requests
        if not reqs:
            return '<div class="hx-panel"><i>nobody is waiting to act</i></div>'
        items = "".join(
            f"<li>{html.escape(r.seat)}: {html.escape(r.note or 'wants to act')} "
            f"<small>({r.status})</small></li>"
            for r in reqs
        )
        return f'<div class="hx-panel"><ol>{items}</ol></div>'

    def _refresh_decisions(self) -> None:
        if not self.session.is_commander:
            self.decide_box.children = []
            return
        buttons = []
        for r in self.game.follower.requests:
            if r.status != "waiting":
                continue
            yes = W.Button(
                description=f"Let {r.seat} go",
                button_style="success",
                layout=W.Layout(width="auto"),
            )
            no = W.Button(description="Not yet", layout=W.Layout(width="auto"))
            yes.on_click(lambda _, rid=r.id: self.on_decide(rid, True))
            no.on_click(lambda _, rid=r.id: self.on_decide(rid, False))
            buttons.append(W.HBox([yes, no]))
        self.decide_box.children = buttons

    # --- handlers ----------------------------------------------------------------------------------
    def _result(self, result, done: str) -> None:
        if result:
            self.app.say(done)
        else:
            self.app.say(result.message, bad=True)
        self.game.follower.poll(force=True)
        self.refresh_team()

    def on_send(self) -> None:
        text = self.chat_text.value.strip()
        if not text:
            return
        result = self.session.say(text)
        if result:
            self.chat_text.value = ""
        self._result(result, "Message sent.")

    def on_ask(self) -> None:
        self._result(
            self.session.request_turn(self.ask_note.value.strip()),
            "You are in the commander's queue.",
        )
        self.ask_note.value = ""

    def on_decide(self, request_id: int, grant: bool) -> None:
        self._result(self.session.decide(request_id, grant), "Decision sent.")

    def on_ready(self, ready: bool) -> None:
        self._result(self.session.set_ready(ready), "Marked ready." if ready else "Not ready.")


def refusal_page(reason: str) -> W.HTML:
    """What a visitor with a wrong or missing token sees: no board, no controls."""
    return W.HTML(
        '<div class="hx-panel" style="font-family:sans-serif;max-width:640px;border:2px solid #d55e00;'
        'padding:12px"><h3>This seat link does not work</h3>'
        f"<p>{html.escape(reason)}</p><p>Ask your instructor for your team's seat link.</p></div>"
    )


def seat_page(token: str | None, store=None):
    """The widget for a seat page: the seat's board and panels, or a refusal."""
    store = store or open_store()
    try:
        session = open_seat(store, token or "")
    except AccessRefused as exc:
        return refusal_page(str(exc))
    return SeatApp(session).widget
