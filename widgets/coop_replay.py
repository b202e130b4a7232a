"""The instructor console's Replay tab: any team's game step by step on the board.

Each version shows the action, the events it caused and one seat's view (its platoons
ringed, the team's messages beside it); at the last version it follows the live game as
the team plays (:meth:`ReplayPanel.follow`, called by :mod:`.coop_console`).
"""

from __future__ import annotations

import html

import ipywidgets as W

from hexclass.classroom.combined_arms.public import seat_copy
from hexclass.classroom.combined_arms.sequence import title as phase_title
from hexclass.classroom.sessions import seat_view

from .ca_board import CABoardView
from .coop_notices import guarded

EVERYONE = "*"  # the replay's neutral view (no seat)
esc = html.escape


def action_text(state, step) -> str:
    """A logged action in words, hexes by their board labels."""
    a = step.action
    parts = [type(a).__name__]
    for name in ("unit", "firers", "spotter", "to", "target", "hexes", "facing"):
        value = getattr(a, name, None)
        if value is None or value == ():
            continue
        if name in ("to", "target"):
            value = state.label(value)
        elif name == "hexes":
            value = " then ".join(state.label(h) for h in value)
        elif name == "firers":
            value = ", ".join(value)
        parts.append(f"{name} {value}")
    return " · ".join(str(p) for p in parts)


WHERE = {"off": "not yet entered"}


def seat_view_html(view: dict, layout, messages) -> str:
    """One seat's view at this step: its platoons, any decision it owes, the team chat."""
    mine = {u["id"]: u for u in view["units"] if u["mine"]}
    units = ", ".join(
        f"{uid} {u['hex'] or WHERE.get(u['where'], u['where'])}{'' if u['fresh'] else ' (spent)'}"
        for uid, u in sorted(mine.items())
    )
    owes = ""
    if view["pending"] and view["pending"]["yours"]:
        owes = f"<div class='hx-msg-bad'>Decision owed: {esc(view['pending']['prompt'])}</div>"
    colour = view.get("colour", "#444")
    return (
        f"<div class='hx-panel hx-seat-view'><b style='color:{esc(colour)}'>"
        f"{esc(view.get('title', view['seat']))}</b> sees turn {view['turn']}, "
        f"{esc(view['phase_title'])}; score it can see: {view['score_known']}"
        f"<br>Its platoons: {esc(units) or '–'}{owes}"
        f"<div><b>Team messages so far</b></div>{messages_html(messages, view['seat'])}</div>"
    )


def messages_html(messages, seat: str | None = None) -> str:
    if not messages:
        return "<i>no messages yet</i>"
    rows = []
    for m in messages[-30:]:
        who = f"<b>{esc(m.seat)}</b>" if m.seat == seat else esc(m.seat)
        rows.append(f"<div><small>t{m.turn}</small> {who}: {esc(m.text)}</div>")
    return f"<div class='hx-log' style='max-height:160px'>{''.join(rows)}</div>"


def events_html(events) -> str:
    if not events:
        return "<i>no events</i>"
    items = "".join(f"<li><small>{esc(e.kind)}</small> {esc(e.text)}</li>" for e in events)
    return f"<ol class='hx-events'>{items}</ol>"


class ReplayPanel:
    """Step through a team's game; the board at each version and each seat's view."""

    def __init__(self, console) -> None:
        self.console = console
        self.replay = None
        self.messages = []
        self.view = CABoardView(hex_size=30)
        self.notice = W.HTML()
        self.caption = W.HTML()
        self.step_html = W.HTML()
        self.seat_html = W.HTML()
        self._make_controls()
        side = W.VBox(
            [self.caption, self.step_html, self.seat_pick, self.seat_html],
            layout=W.Layout(width="420px", margin="0 0 0 10px"),
        )
        self.widget = W.VBox(
            [
                W.HBox([self.team_pick, self.reload]),
                self._stepper(),
                self.notice,
                W.HBox([self.view.widget, side]),
            ]
        )
        self.widget.add_class("hexclass-replay")
        self.load(self.team_pick.value)

    def _make_controls(self) -> None:
        teams = [(f"Team {g.team}", g.team) for g in self.console.games()]
        self.team_pick = W.Dropdown(options=teams, description="Replay")
        self.team_pick.observe(lambda ch: self._safe(lambda: self.load(ch["new"])), "value")
        self.reload = W.Button(description="Reload the log", layout=W.Layout(width="auto"))
        self.reload.on_click(guarded(self.notice, lambda: self.load(self.team_pick.value)))
        self.slider = W.IntSlider(
            min=0,
            max=0,
            description="Version",
            continuous_update=False,
            layout=W.Layout(width="480px"),
        )
        self.slider.observe(lambda ch: self._safe(lambda: self.show(ch["new"])), "value")
        self.seat_pick = W.Dropdown(description="Seat view")
        self.seat_pick.observe(lambda ch: self._safe(self.show_seat), "value")

    def _stepper(self) -> W.HBox:
        def step(delta):
            return lambda: self.go(self.slider.value + delta)

        buttons = []
        for text, fn in (
            ("|◀ start", lambda: self.go(0)),
            ("◀ prev", step(-1)),
            ("next ▶", step(1)),
            ("end ▶|", lambda: self.go(len(self.replay))),
        ):
            b = W.Button(description=text, layout=W.Layout(width="auto"))
            b.on_click(guarded(self.notice, fn))
            buttons.append(b)
        return W.HBox([buttons[0], buttons[1], self.slider, buttons[2], buttons[3]])

    def _safe(self, fn) -> None:
        guarded(self.notice, fn)()

    def load(self, team: int) -> None:
        """Read the team's log afresh and show its latest version."""
        self.replay = self.console.replay(team)
        self.messages = self.console.store.messages(self.replay.info.id)
        layout = self.replay.info.layout
        self.seat_pick.options = [("everyone (instructor)", EVERYONE)] + [
            (s.title, s.name) for s in layout.seats
        ]
        self.slider.max = len(self.replay)
        self.notice.value = ""
        if self.slider.value == len(self.replay):
            self.show(self.slider.value)
        self.slider.value = len(self.replay)

    def go(self, version: int) -> None:
        self.slider.value = max(0, min(len(self.replay), version))

    def follow(self) -> bool:
        """The live game moved on (the console's follower fed it): extend the slider, and
        stay at the last version if the instructor was watching it."""
        if self.replay is None or len(self.replay) == self.slider.max:
            return False
        at_end = self.slider.value == self.slider.max
        self.messages = self.console.store.messages(self.replay.info.id)
        self.slider.max = len(self.replay)
        if at_end:
            self.slider.value = len(self.replay)
        return True

    @property
    def version(self) -> int:
        return self.slider.value

    def show(self, version: int) -> None:
        """Draw the state after ``version`` actions, its action and events, the seat view."""
        r = self.replay
        self.state = r.state_at(version)
        before = r.state_at(version - 1) if version else None
        new_events = self.state.events[len(before.events) :] if before else []
        g = r.info
        self.caption.value = (
            f"<div class='hx-panel hx-caption'><b>Team {g.team}</b>, version {version} of "
            f"{len(r)} — turn {self.state.turn}, {esc(phase_title(self.state.phase))}</div>"
        )
        if version and type(r.steps[version - 1].action).__name__ == "EndGameNow":
            what = (
                "<b>The instructor</b> ends the game here, in the team's name: every enemy "
                'counter revealed, then the score (CA "Victory")'
            )
        elif version:
            step = r.steps[version - 1]
            what = f"<b>{esc(step.seat)}</b>: {esc(action_text(before, step))}"
        else:
            what = "the start of the battle"
        self.step_html.value = (
            f"<div class='hx-panel hx-step'>{what}<div><b>Events</b></div>"
            f"{events_html(new_events)}</div>"
        )
        self.show_seat()

    def _messages_until(self, version: int) -> list:
        steps = self.replay.steps
        cutoff = steps[version].at if version < len(steps) else float("inf")
        return [m for m in self.messages if m.at < cutoff]

    def show_seat(self) -> None:
        seat = None if self.seat_pick.value in (None, EVERYONE) else self.seat_pick.value
        layout = self.replay.info.layout
        if seat is None:
            self.view.hl.own_units = frozenset()
            msgs = self._messages_until(self.version)
            self.seat_html.value = (
                "<div class='hx-panel hx-seat-view'>Choose a seat to see its view."
                f"<div><b>Team messages so far</b></div>{messages_html(msgs)}</div>"
            )
        shown = self.state
        if seat is not None and self.state.options.enemy_player:
            shown = seat_copy(self.state, seat)  # CA p.7: replay from that side's view
        if seat is not None:
            view = seat_view(shown, seat, layout)
            self.view.hl.own_units = frozenset(view["my_units"])
            self.seat_html.value = seat_view_html(view, layout, self._messages_until(self.version))
        secret = shown.secret  # the instructor (or the defender's view) sees the real ones
        self.view.hl.note_hexes = (
            {h: "real" for h in secret.platoons if h in shown.enemy} if secret else {}
        )
        self.view.show(shown)
