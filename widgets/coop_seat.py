"""A co-op seat page (CA p.7 "Co-operative Team Play"): one student's board and team panels.

Each student's browser has its own Voilà kernel. The shared game lives in the store;
the kernel holds one copy of it (the store's :class:`~hexclass.classroom.sessions.live.LiveGame`,
shared with the follower), kept up to date from an asyncio task in the kernel's event
loop, so polling never blocks clicks. Every order goes to the store with the version it
was drawn from; an order a few versions late is rebased when the phase has not moved
on, and a stale one comes back with the update the kernel caught up on, so the page
redraws the new board before saying "the board changed".

A seat link opened in a second browser makes that page a viewer (it says so and offers
*Take over*); taking over turns the first page into a viewer.
"""

from __future__ import annotations

import asyncio
import atexit
import datetime as dt
import html
import time
import uuid

import ipywidgets as W

from hexclass.classroom.combined_arms import check
from hexclass.classroom.sessions import AccessRefused, Refusal, open_seat, open_store
from hexclass.classroom.sessions.policy import messages_left
from hexclass.classroom.sessions.store import StoreError

from .ca_app import GameApp
from .ca_controller import OWN, ROUTINE
from .ca_reports import enemy_summary, last_enemy_phase
from .coach import CoachPanel
from .game_link import Verdict
from .lean import send_lean_states
from .presence import BrowserPresence, browser_pulse

POLL_SECONDS = 0.05
HEARTBEAT_SECONDS = 5.0
RECONNECTING = (
    '<div class="hx-msg-bad" data-hx="reconnecting">Reconnecting to the game store… '
    "the board will catch up by itself; an order sent now is refused, never half-done.</div>"
)


VIEWER_MESSAGE = (
    "This seat is commanded from another browser; you are watching. "
    "Press Take over to command it from here."
)


def refusal_text(result) -> str:
    """The message line for a store's refusal (a stale order names what the board says now)."""
    if result.kind != Refusal.STALE:
        return result.message
    now = f" Now: {result.now}." if result.now else ""
    return (
        "The board changed before your order arrived; the new board is shown."
        f"{now} Check and try again."
    )


class SharedGame:
    """The team's game as one seat sees it: the kernel's live game; orders go to the store.

    ``on_update(update)`` is called with what the store caught up on when it refused an
    order (the page redraws before showing why); an accepted order's news are in the
    shared state already, where :meth:`GameApp.act` finds them.
    """

    def __init__(self, session, on_update=None) -> None:
        self.session = session
        self.follower = session.follower()
        self.on_update = on_update
        self.viewer = False  # another browser commands this seat
        self.last_result = None
        self.refused_kind = None  # the store's reason for the last refusal (e.g. paused)
        self._drawn_at = None  # the version this seat's order was drawn from

    @property
    def state(self):
        return self.follower.state

    def catch_up(self) -> None:
        """Before an order: draw what teammates did since the last poll, as their news.

        The order still goes with the version it was drawn from (the store rebases it or
        says the board changed), and what the store then sends back is this seat's own.
        """
        self._drawn_at = self.follower.version
        try:
            update = self.follower.poll()
        except (StoreError, ConnectionError):  # the submit says what is wrong
            return
        if update and self.on_update is not None:  # chat or queue news too: not lost
            self.on_update(update)

    def submit(self, action) -> Verdict:
        self.refused_kind = None
        drawn_at, self._drawn_at = self._drawn_at, None
        if self.viewer:
            return Verdict.refused(VIEWER_MESSAGE)
        try:
            version = self.follower.version if drawn_at is None else drawn_at
            result = self.session.submit(version, action)
        except StoreError as exc:  # read-only, full or damaged store: say so, keep the page
            return Verdict.refused(f"Your order was not sent: {exc}")
        self.last_result = result
        if result:
            return Verdict.ok()
        self.refused_kind = str(result.kind)
        update = result.update
        if update is not None and update.board_changed and self.on_update is not None:
            self.on_update(update)  # the new board first, then the reason
        return Verdict.refused(refusal_text(result), self.refused_kind, result.rule)

    def check(self, action) -> Verdict:
        return Verdict.judge(check(self.state, action))


class SeatApp(BrowserPresence):
    """The board for one seat plus chat, the commander's queue, readiness and presence."""

    def __init__(self, session, poll: bool = True) -> None:
        self.session = session
        self.game = SharedGame(session, on_update=self.on_caught_up)
        seat = session.info
        self.client = uuid.uuid4().hex[:12]
        label = f"Team {session.team} — {seat.title}"
        self.app = GameApp(self.game, seat=session.seat, seat_label=label, solitaire=False)
        self.app.seat_titles = {s.name: short_title(s.title) for s in session.layout.seats}
        self._shown_version = -1  # the game version the team panel last showed
        self._ready_sync = False  # set while the page moves the ready toggle itself
        self._ready_key = None  # (turn, phase) the ready toggle belongs to
        self._revision = None  # the game row's revision at the last poll
        self._status = None  # the store's status (running, paused, ended) last drawn
        k = self.app.kit  # layouts and styles shared with the board's controls
        self.header = k.html()
        self.chat_log = k.html()
        self.chat_text = k.make(W.Text, placeholder="message to your team", layout={"width": "260px"})  # fmt: skip
        self.chat_send = k.button("Send", button_style="info")
        self.chat_send.on_click(lambda _: self.on_send())
        # who acts next: the heading, the commander's queue and this seat's hold, one panel
        self.queue_html = self.hold_html = k.html()
        self.ask_note = k.make(W.Text, placeholder="what you want to do next", layout={"width": "220px"})  # fmt: skip
        self.ask_button = k.button("Ask to act next")
        self.ask_button.on_click(lambda _: self.on_ask())
        self.decide_box = k.vbox()
        self._decide_key = None  # the requests the commander's buttons were made for
        self.ready_button = k.make(
            W.ToggleButton, description="I'm done this phase", layout={"width": "auto"}
        )
        self.ready_button.observe(lambda ch: self.on_ready(ch["new"]), names="value")
        self.notice = k.html()
        self.take_over = k.button(
            "Take over this seat",
            button_style="warning",
            layout={"display": "none"},
            own_layout=True,
        )
        self.take_over.on_click(lambda _: self.on_take_over())
        self.pulse = browser_pulse(k)
        team_panel = k.vbox(
            [
                self.chat_log,
                k.hbox([self.chat_text, self.chat_send]),
                self.queue_html,
                k.hbox([self.ask_note, self.ask_button]),
                self.decide_box,
                self.ready_button,
            ],
        )
        # the Suggest button (issue 13), a tab of its own, built when it is first opened
        self.app.coach = None
        # the team panel sits under this seat's controls, above the tracks, so the board,
        # the controls, the message line and the team fit one 1366x768 screen
        self.side_tabs = k.make(
            W.Tab,
            children=[team_panel, k.html()],
            titles=["Team messages", "Coach"],
            layout={"margin": "6px 0 0 0"},
        )
        self.side_tabs.observe(lambda ch: self.open_coach() if ch["new"] == 1 else None, "selected_index")  # fmt: skip
        self.side_tabs.add_class("hx-team-tabs")
        self.app.add_side_panel(self.side_tabs, before=self.app.tracks_html)
        self.widget = k.vbox(
            [self.header, self.notice, self.take_over, self.app.widget, self.pulse]
        )
        # sent once, not with every header; before the board's style, whose rules win ties
        # (as when it came with the phase bar, further down the page)
        self.app.style_html.value = SEAT_STYLE + self.app.style_html.value
        self.widget.add_class("hexclass-seat")
        self._last_heartbeat = 0.0
        self.clock = time.monotonic  # tests may turn it
        self._build_pulse()
        self.heartbeat()
        self.claim()
        # The server shuts a page's kernel down when its browser leaves; leaving the
        # presence table on the way out shows the seat as gone at once, not 15 s later.
        atexit.register(self.leave)
        self._say_last_report()
        self.refresh_team()
        self._task = None
        if poll:
            self.start()

    def open_coach(self):
        """The Coach tab's panel, built the first time the tab is opened."""
        if self.app.coach is None:
            self.app.coach = CoachPanel(self.app)
            team, empty = self.side_tabs.children
            self.side_tabs.children = (team, self.app.coach.widget)
            self.app.kit.close([empty])
        return self.app.coach

    def _say_last_report(self) -> None:
        """A page opened (or reloaded) after an enemy phase says what mattered in it."""
        state = self.game.state
        enemy = last_enemy_phase(state)
        if enemy and enemy[-1].turn == state.turn - 1 and not state.acted_this_turn:
            self.app.ctl.offer(enemy_summary(state, enemy), ROUTINE)
            self.app._show_message()

    # --- polling ----------------------------------------------------------------------------
    def start(self) -> None:
        # a store that pushes changes (PostgreSQL) wakes the loop at once; others are polled
        self._pushed = self.session.store.pushes_changes
        loop = asyncio.get_event_loop()
        self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                self.poll_once()
                if self.notice.value == RECONNECTING:  # back in touch: nothing was missed
                    self.notice.value = ""
            except ConnectionError:  # the store's server is unreachable (PostgreSQL store)
                self.notice.value = RECONNECTING
            except Exception as exc:  # noqa: BLE001 - keep following; show the trouble inline
                self.notice.value = f'<div class="hx-msg-bad">Lost touch with the game store: {html.escape(str(exc))}</div>'
            if self._pushed:  # PostgreSQL: a thread waits for the NOTIFY, at most POLL_SECONDS
                await asyncio.get_running_loop().run_in_executor(
                    None, self.game.follower.wait_for_change, POLL_SECONDS
                )
            else:
                await asyncio.sleep(POLL_SECONDS)

    def poll_once(self) -> bool:
        """Catch up with the store; redraw only what changed. True if anything did."""
        self._check_browser()
        if not self.away and self.clock() - self._last_heartbeat > HEARTBEAT_SECONDS:
            self.heartbeat()
        upd = self.game.follower.poll()
        revision = self.game.follower.info.revision
        took = revision != self._revision and self._check_holder()
        self._revision = revision  # a take-over bumps the revision and changes nothing else
        own_move = self.game.follower.version != self._shown_version  # this page's order
        if not upd and not took and not own_move:
            return False
        if upd and upd.board_changed:
            self.app.external_update(upd.events)
        self.refresh_team()
        return True

    def on_caught_up(self, update) -> None:
        """News caught up on outside the loop (before an order, or with its refusal):
        draw the new board at once, then the team panel."""
        if update.board_changed:
            self.app.external_update(update.events)
        self.refresh_team()

    # --- a seat opened twice ----------------------------------------------------------------
    def claim(self, take_over: bool = False) -> None:
        """Command the seat from this browser, or watch if another one already does."""
        result = self.session.hold(self.client, take_over)
        self._set_viewer(not (result.ok and result.value), taken=False)

    def _check_holder(self) -> bool:
        """Another browser took this seat over: watch from now on (True if so)."""
        if not self.game.viewer and self.session.holder() not in (None, self.client):
            self._set_viewer(True, taken=True)
            return True
        return False

    def _set_viewer(self, viewer: bool, taken: bool) -> None:
        self.game.viewer = viewer
        self.take_over.layout.display = "" if viewer else "none"
        if not viewer:
            self.notice.value = ""
        elif taken:
            self.notice.value = (
                '<div class="hx-msg-bad">This seat was taken over in another browser; '
                "you are watching now. Press Take over to command it from here again.</div>"
            )
        else:
            self.notice.value = (
                '<div class="hx-msg-bad">This seat is already open in another browser; '
                "you are watching. Press Take over to command it from here.</div>"
            )

    def on_take_over(self) -> None:
        self.claim(take_over=True)
        if not self.game.viewer:
            self.app.say("You command this seat from this browser now.")
        self.refresh_team()

    # --- presence: is the browser still there? ----------------------------------------------
    def heartbeat(self) -> None:
        self.session.heartbeat(self.client)
        self._last_heartbeat = self.clock()
        self._reclaim_if_free()

    def _reclaim_if_free(self) -> None:
        """A watching page takes the seat once the page holding it has gone (a reload)."""
        if self.game.viewer:
            result = self.session.hold(self.client, False)
            if result.ok and result.value:
                self._set_viewer(False, taken=False)

    def leave(self) -> None:
        """This page is gone: drop its presence (runs as the kernel exits)."""
        try:
            self.session.leave(self.client)
        except Exception:  # noqa: BLE001 - the kernel is exiting; the heartbeat expires anyway
            pass

    # --- team panels ----------------------------------------------------------------------------
    def refresh_team(self) -> None:
        f = self.game.follower
        s = self.game.state
        layout = self.session.layout
        people = []
        for seat in layout.seats:
            me = seat.name == self.session.seat
            people.append(_chip(seat, seat.name in f.connected, seat.name in f.ready, me))
        status = f.status
        if status != self._status:
            self._status_changed(status)
        banner = ""
        if status == "paused":
            banner = '<div class="hx-msg-bad">The instructor has paused the game.</div>'
        elif status == "ended":
            banner = f'<div class="hx-msg-bad">{html.escape(ended_words(s))}</div>'
        self._shown_version = self.game.follower.version
        self.header.value = (
            # data-version: how many actions this page has drawn (public: the log's
            # length), a readiness mark for tests and tools, never a secret
            f'<div class="hx-panel hx-seat-head" data-version="{self._shown_version}">'
            f"<b>Team {self.session.team}</b> — you are "
            f'<b style="color:{self.session.info.colour}">{html.escape(self.session.info.title)}</b> '
            f"({', '.join(sorted(self.session.info.units)) or 'no platoons'}). "
            f"{' '.join(people)} {PRESENCE_LEGEND}{banner}</div>"
        )
        self.chat_log.value = self._chat_html()
        self.queue_html.value = WHO_ACTS_NEXT + self._queue_html() + self._hold_html()
        self._refresh_decisions()
        left = self.messages_left(s.turn)
        self.chat_send.description = "Send" if left is None else f"Send ({left} left)"
        self.chat_send.tooltip = (
            "no limit this turn" if left is None else f"{left} message(s) left this turn (CA p.7)"
        )
        idle = status != "running" or self.game.viewer
        self.chat_send.disabled = left == 0 or idle
        self.chat_text.disabled = idle
        self.ask_button.disabled = idle
        self.ready_button.disabled = idle
        self._sync_ready(s)

    def _status_changed(self, status: str) -> None:
        """Paused, resumed or ended: said once; a refusal the pause caused is taken back."""
        first, self._status = self._status is None, status
        m = self.app.ctl.message
        if status == "running" and m.cause == Refusal.PAUSED:
            self.app.say("The instructor has resumed the game: carry on.", level=ROUTINE)
        elif status == "paused" and not first:
            self.app.ctl.offer("The instructor has paused the game.", OWN, bad=True)
            self.app._show_message()
        elif status == "ended" and not first and self.game.state.result is None:
            # (a game the engine scored says so through its events: the score and reveals)
            self.app.ctl.offer(ended_words(self.game.state), OWN)
            self.app._show_message()

    def messages_left(self, turn: int) -> int | None:
        """From the follower's copy: the class's rules and this seat's messages this turn."""
        f = self.game.follower
        settings = f.settings if f.settings is not None else self.session.settings()
        sent = sum(1 for m in f.messages if m.seat == self.session.seat and m.turn == turn)
        return messages_left(settings, sent)

    def _sync_ready(self, state) -> None:
        """ "I'm done this phase" shows the store's flag; a new phase starts unpressed."""
        key = (state.turn, state.phase)
        pressed = self.session.seat in self.game.follower.ready
        if key != self._ready_key or self.ready_button.value != pressed:
            self._ready_key = key
            self._ready_sync = True
            try:
                self.ready_button.value = pressed
            finally:
                self._ready_sync = False

    def _hold_html(self) -> str:
        """Strict commander (CA p.7): say when this seat must wait for the go-ahead."""
        f = self.game.follower
        if f.settings is None or f.settings.commander != "strict" or self.session.is_commander:
            return ""
        mine = [r for r in f.requests if r.seat == self.session.seat]
        if mine and mine[-1].status == "waiting":
            return (
                '<div class="hx-msg-bad">Waiting for the commander: you may act once granted.</div>'
            )
        if mine and mine[-1].status == "granted":
            return '<div class="hx-msg-ok">The commander says go: your move or fire.</div>'
        return (
            "<small>Strict commander: ask before acting; a request that is waiting "
            "or answered Not yet holds your platoons.</small>"
        )

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
        return f'<div class="hx-panel hx-log" style="max-height:96px">{"".join(rows) or "<i>no messages yet</i>"}</div>'

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
        """The commander's Let … go / Not yet buttons, rebuilt only when the waiting
        requests change (the replaced ones are closed: never sent to a browser again)."""
        waiting = []
        if self.session.is_commander:
            waiting = [(r.id, r.seat) for r in self.game.follower.requests if r.status == "waiting"]
        if waiting == self._decide_key:
            return
        self._decide_key = waiting
        k, old = self.app.kit, self.decide_box.children
        rows = []
        for rid, seat in waiting:
            yes = k.button(f"Let {seat} go", button_style="success")
            no = k.button("Not yet")
            yes.on_click(lambda _, rid=rid: self.on_decide(rid, True))
            no.on_click(lambda _, rid=rid: self.on_decide(rid, False))
            rows.append(k.hbox([yes, no]))
        self.decide_box.children = rows
        k.close(old)

    # --- handlers ----------------------------------------------------------------------------------
    def _result(self, result, done: str) -> None:
        if result:
            self.app.say(done)
        else:
            self.app.say(result.message, bad=True, cause=str(result.kind))
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
        if self._ready_sync:
            return
        self._result(self.session.set_ready(ready), "Marked ready." if ready else "Not ready.")


WHO_ACTS_NEXT = "<b>Who acts next</b> <small>(the overall commander decides, CA p.7)</small>"
SEAT_STYLE = """<style>
.hx-seat-head {line-height:1.9}
.hx-chip {display:inline-block; border:1px solid #ccc; border-radius:12px; padding:0 8px;
  margin-right:3px; font-size:13px; background:#fafafa; white-space:nowrap}
.hx-chip.away {background:#eee; color:#666 !important; border-style:dashed}
.hx-chip .hx-mark {font-weight:bold; font-size:14px}
.hx-chip .hx-done {color:#1b5e20; font-weight:bold}
.hx-legend-line {font-size:12px; color:#555; white-space:nowrap}
.hexclass-seat .hx-team-tabs .widget-tab-contents,
.hexclass-seat .hx-team-tabs .lm-TabPanel-stackedPanel {padding:4px 8px}
.hexclass-seat .hx-team-tabs ol {margin:2px 0; padding-left:20px}
</style>"""
PRESENCE_LEGEND = (
    '<span class="hx-legend-line" title="who is on the game page now, and who has pressed '
    "I'm done this phase\">(● on the page · ○ away: page closed · ✓ done this phase)</span>"
)


def _chip(seat, here: bool, done: bool, me: bool) -> str:
    """One teammate in the header: present or away, and done with the phase or not."""
    name = short_title(seat.title) + (" (you)" if me else "")
    mark = "●" if here else "○"
    state = "on the page" if here else "away"
    tail = ' <span class="hx-done">✓ done</span>' if done else ""
    away = "" if here else " <small>away</small>"
    return (
        f'<span class="hx-chip{"" if here else " away"}" data-seat="{html.escape(seat.name)}" '
        f'data-present="{int(here)}" title="{html.escape(seat.title)}: {state}'
        f'{", done this phase" if done else ""}" style="color:{seat.colour}">'
        f'<span class="hx-mark">{mark}</span> {html.escape(name)}{away}{tail}</span>'
    )


def ended_words(state) -> str:
    """The game's end as the engine scored it (CA "Victory"), or just that it ended."""
    if state.result is None:
        return "The game has ended."
    verdict = "Victory" if state.result.won else "Defeat"
    return f"The game has ended: {verdict}, {state.result.total} points (see the Score tab)."


def short_title(title: str) -> str:
    """ "D Company (D1-D3)" -> "D Company": how a refusal names a platoon's owner."""
    return title.split(" (")[0]


def refusal_page(reason: str) -> W.HTML:
    """What a visitor with a wrong or missing token sees: no board, no controls."""
    return W.HTML(
        '<div class="hx-panel" style="font-family:sans-serif;max-width:640px;border:2px solid #d55e00;'
        'padding:12px"><h3>This seat link does not work</h3>'
        f"<p>{html.escape(reason)}</p><p>Ask your instructor for your team's seat link.</p></div>"
    )


def seat_page(token: str | None, store=None):
    """The widget for a seat page: the seat's board and panels, or a refusal."""
    send_lean_states()  # the page's widgets reach its browser as changes from the defaults
    try:
        store = store or open_store()
        session = open_seat(store, token or "")
    except AccessRefused as exc:
        return refusal_page(str(exc))
    except StoreError as exc:  # a damaged, unreadable or locked store: said in plain words
        return refusal_page(f"The class store cannot be used: {exc}")
    if store.game(session.game_id).options.enemy_player:
        from .hidden_seat import hidden_seat_page  # CA p.7: this kernel reads only its view

        return hidden_seat_page(session)
    return SeatApp(session).widget
