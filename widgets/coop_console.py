"""The instructor console (CA p.7 "Co-operative Team Play", run for a whole class).

One Voilà page with its own token. Without a token it offers a *New class* form: the
instructor chooses the teams, seed(s), seats and message rules, the class is written to
the store and the page lists the console link and every seat link. With the
instructor's token it is the console:

* **Live**: a row per team (turn, phase, the score the team can see and the projected
  one, broken platoons, who the team waits for, who is connected, status), kept fresh
  by polling a :class:`~hexclass.classroom.sessions.ClassFollower` from an asyncio task in the
  kernel's event loop; pause, resume and end games, set the message rules, broadcast.
* **Replay**: any team's game step by step on the Combined Arms board, with the action,
  the events it caused, and one seat's view (its platoons ringed, the team's messages
  beside it). It follows the live game: at the last version it moves on as teams play.
* **Debrief** (:mod:`.coop_debrief`, made to be projected): each team's final score and
  verdict, the score over turns, fire odds taken against what came of them (luck vs
  judgement, in words), who acted and who waited, the biggest swings, the teams side by
  side at a chosen turn; CSV (safe against spreadsheet formulas) and JSON exports.
* **Links**: every link again, as a copyable list.

The store is the truth; this page keeps only a follower (a replayed copy) and what the
instructor is looking at. Seat tokens and unknown tokens get a refusal and no controls.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import os
from collections.abc import Callable
from urllib.parse import urlsplit

import ipywidgets as W

from hexclass.classroom.combined_arms.sequence import title as phase_title
from hexclass.classroom.sessions import (
    AccessRefused,
    ClassSettings,
    create_class,
    default_layout,
    open_console,
    open_store,
)
from hexclass.classroom.sessions.roles import LayoutError, class_table
from hexclass.classroom.sessions.session import DEFAULT_BASE_URL, MAX_SEED, MAX_TEAMS
from hexclass.classroom.sessions.store import StoreError

from .ca_panels import STYLE
from .coop_debrief import DebriefPanel
from .coop_notices import data_link, guarded, notice_html
from .coop_replay import ReplayPanel

POLL_SECONDS = 0.5
esc = html.escape

CONSOLE_STYLE = """
<style>
.hx-teams {border-collapse:collapse; font-family:sans-serif; font-size:13px; line-height:1.3}
.hx-teams th {background:#f0ede4; text-align:left; padding:4px 7px; border-bottom:2px solid #bbb;
  vertical-align:bottom}
.hx-teams td {padding:4px 7px; border-bottom:1px solid #ddd; vertical-align:top}
.hx-teams .num {text-align:right}
.hx-status-running {color:#1b5e20; font-weight:bold}
.hx-status-paused {color:#b26a00; font-weight:bold}
.hx-status-ended {color:#555; font-weight:bold}
.hx-links td {padding:2px 8px; font-family:sans-serif; font-size:13px}
.hx-links a, .hx-console-link a, .hx-downloads a {word-break:break-all; color:#0b57d0;
  text-decoration:underline}
.hx-df table {border-collapse:collapse; font-family:sans-serif; font-size:12px; margin-bottom:8px}
.hx-df th, .hx-df td {border-bottom:1px solid #ddd; padding:2px 6px; text-align:right}
.hx-scroll {max-height:260px; overflow:auto}
</style>
"""


class InputError(ValueError):
    """A form field that cannot be used; the message names the field."""


# --- small helpers ----------------------------------------------------------------------------


def page_base_url(env=None) -> str:
    """Where this page is served (``http://host:port``), so links work from other machines.

    Voilà gives the kernel the request's address; outside Voilà the default address.
    """
    env = os.environ if env is None else env
    request = env.get("VOILA_REQUEST_URL")
    if request:
        parts = urlsplit(request)
        if parts.scheme and parts.netloc:
            prefix = (env.get("VOILA_BASE_URL") or "/").rstrip("/")
            return f"{parts.scheme}://{parts.netloc}{prefix}"
    host = env.get("SERVER_NAME")
    if host:
        port = env.get("SERVER_PORT")
        return f"http://{host}:{port}" if port else f"http://{host}"
    return DEFAULT_BASE_URL


def parse_whole(text, what: str, low: int, high: int, blank=InputError) -> int | None:
    """A whole number typed into a form (``blank`` is returned for an empty field)."""
    raw = str(text).strip()
    if not raw:
        if blank is InputError:
            raise InputError(f"{what}: please enter a whole number from {low} to {high}")
        return blank
    if not raw.isdigit():
        raise InputError(f"{what}: expected a whole number from {low} to {high}, got {raw!r}")
    value = int(raw)
    if not low <= value <= high:
        raise InputError(f"{what}: must be from {low} to {high}, got {value}")
    return value


def refusal_html(reason: str) -> str:
    """The whole page for a wrong token: why, and what to do; no controls."""
    return (
        f"{STYLE}<div class='hx-panel hx-refusal' style='max-width:640px;border:2px solid #d55e00;"
        "padding:12px'><h3>This link does not open the instructor console</h3>"
        f"<p>{esc(reason)}</p><p>Use the instructor link printed when the class was created "
        "(<code>hexclass class links --class N</code> prints it again), or open this page "
        "without a token to create a new class.</p></div>"
    )


def _label(text: str) -> W.HTML:
    """A row label lined up with the form's descriptions."""
    return W.HTML(
        "<span class='hx-panel' style='width:150px;display:inline-block;"
        f"text-align:right;padding-right:8px'>{esc(text)}</span>"
    )


def seat_choices() -> list[tuple[str, int]]:
    """The seat counts of CA p.7: 5, 6, or commands merged onto 1-4 players."""
    out = []
    for n in (5, 6, 4, 3, 2, 1):
        names = ", ".join(s.name for s in default_layout(n).seats)
        out.append((f"{n} seat{'s' if n > 1 else ''}: {names}", n))
    return out


# --- the links --------------------------------------------------------------------------------


def links_html(links) -> str:
    """The console link and a table of seat links per team, all clickable."""
    parts = [
        "<div class='hx-panel hx-console-link'><b>Instructor console</b> (keep this link; "
        f"it is the way back to this class): <a href='{esc(links.instructor_url)}' "
        f"target='_blank'>{esc(links.instructor_url)}</a></div>"
    ]
    for t in links.teams:
        rows = "".join(
            f"<tr data-seat='{esc(s.seat)}'><td style='color:{esc(s.colour)}'><b>"
            f"{esc(s.title)}</b></td><td><a href='{esc(s.url)}' target='_blank'>"
            f"{esc(s.url)}</a></td></tr>"
            for s in t.seats
        )
        parts.append(
            f"<div class='hx-panel'><b>Team {t.team}</b> (seed {t.seed})"
            f"<table class='hx-links' data-team='{t.team}'>{rows}</table></div>"
        )
    return STYLE + CONSOLE_STYLE + "".join(parts)


def links_box(links) -> W.VBox:
    """Clickable links plus the same list as plain text to copy into a chat."""
    text = W.Textarea(value=links.as_text(), layout=W.Layout(width="100%", height="180px"))
    text.add_class("hx-links-text")
    c = links.class_id
    teams = " · ".join(
        data_link(f"class{c}-team-{t.team}.txt", links.team_handout(t.team).encode(), "text/plain")
        for t in links.teams
    )
    students = data_link(
        f"class{c}-students.txt", "\n".join(links.student_lines()).encode(), "text/plain"
    )
    return W.VBox(
        [
            W.HTML(links_html(links)),
            W.HTML(
                "<div class='hx-panel'><b>Team handouts</b> (no console link, no seed; give "
                f"each team only its own): {teams}<br>One line per student: {students}</div>"
            ),
            text,
        ]
    )


# --- the New class form ------------------------------------------------------------------------


class NewClassForm:
    """Create N team games from one seed (or one seed each) and show every link."""

    def __init__(self, store, base_url: str = DEFAULT_BASE_URL) -> None:
        self.store = store
        self.base_url = base_url
        self.links = None
        self._make_fields()
        self.create_button = W.Button(description="Create the class", button_style="primary")
        self.create_button.on_click(guarded(self.notice, self.on_create))
        self.result = W.VBox()
        self.widget = W.VBox(
            [
                W.HTML(
                    STYLE + CONSOLE_STYLE + "<h2>New class</h2><p class='hx-panel'>Every team "
                    "plays its own Combined Arms battle; with the same seed every team faces "
                    "the same board and dice stream, so their results compare.</p>"
                ),
                *self._rows(),
                self.create_button,
                self.notice,
                self.result,
            ]
        )
        self.widget.add_class("hexclass-new-class")

    def _make_fields(self) -> None:
        wide = {"style": {"description_width": "150px"}}
        self.name = W.Text(description="Class name", placeholder="(optional)", **wide)
        self.teams = W.Text(value="4", description="Teams", **wide)
        self.seed = W.Text(
            description="Seed", placeholder="random; a number reruns a battle", **wide
        )
        self.seed_mode = W.ToggleButtons(
            options=[("Same seed for all teams", "same"), ("Different seeds", "different")],
            value="same",
            style={"button_width": "auto"},
        )
        self.seats = W.Dropdown(
            options=seat_choices(),
            value=5,
            description="Seats per team",
            layout=W.Layout(width="460px"),
            **wide,
        )
        self.mode = W.ToggleButtons(
            options=[("Free talk", "free"), ("Written messages", "written")],
            value="free",
            style={"button_width": "auto"},
        )
        self.limit = W.Text(description="Messages per turn", placeholder="no limit", **wide)
        self.easier = W.Checkbox(
            description="Easier game (no deduction after turn 18)",
            indent=False,
            layout=W.Layout(width="auto", margin="0 0 0 158px"),
        )
        self.defence = W.ToggleButtons(
            options=[
                ("The AI defends (solitaire rules)", "ai"),
                ("A student defends (CA p.7)", "player"),
            ],
            value="ai",
            style={"button_width": "auto"},
        )
        self.bid = W.Checkbox(
            description="Two players bid for the defenders (Seats per team: 1)",
            indent=False,
            layout=W.Layout(width="auto", margin="0 0 0 158px"),
        )
        self.handicap = W.Text(
            description="Handicap bonus", placeholder="0 (points added to the attackers)", **wide
        )
        self.defence.observe(lambda _c: self._show_defence(), "value")
        self.notice = W.HTML()
        self._show_defence()

    def _show_defence(self) -> None:
        """The variant's settings show only when a student defends."""
        shown = "" if self.defence.value == "player" else "none"
        self.bid.layout.display = shown
        self.handicap.layout.display = shown

    def _rows(self) -> list:
        hint = W.HTML(
            "<small class='hx-panel'>an empty seed is drawn at random (63 bits) and shown "
            "only here; different seeds: each team its own (or seed + i − 1 from a given "
            "seed); "
            "the limit counts per seat per turn and applies to written messages"
            "</small>"
        )
        return [
            self.name,
            self.teams,
            W.HBox([self.seed, self.seed_mode]),
            self.seats,
            W.HBox([_label("Messages"), self.mode]),
            self.limit,
            self.easier,
            W.HBox([_label("Defenders"), self.defence]),
            self.bid,
            self.handicap,
            hint,
        ]

    def settings(self) -> dict:
        """The form read and checked; raises :class:`InputError` naming the bad field."""
        limit = parse_whole(self.limit.value, "Messages per turn", 0, 1000, blank=None)
        if limit is not None and self.mode.value != "written":
            raise InputError("Messages per turn: a limit applies only to written messages")
        enemy = self.defence.value == "player"
        handicap = parse_whole(self.handicap.value, "Handicap bonus", 0, 40, blank=None) or 0
        try:
            seats, options = class_table(
                self.seats.value,
                enemy_player=enemy,
                bid=enemy and bool(self.bid.value),
                handicap=handicap if enemy else 0,
                easier=bool(self.easier.value),
            )
        except LayoutError as exc:
            raise InputError(f"Defenders: {exc}") from None
        return {
            "teams": parse_whole(self.teams.value, "Teams", 1, MAX_TEAMS),
            "seed": parse_whole(self.seed.value, "Seed", 0, MAX_SEED, blank=None),
            "different_seeds": self.seed_mode.value == "different",
            "seats": seats,
            "options": options,
            "name": self.name.value.strip()[:80],
            "settings": ClassSettings(self.mode.value, limit),
        }

    def on_create(self) -> None:
        try:
            kwargs = self.settings()
        except InputError as exc:
            self.notice.value = notice_html(str(exc), bad=True)
            return
        try:
            self.links = create_class(self.store, base_url=self.base_url, **kwargs)
        except StoreError as exc:  # read-only, full, damaged or locked: in plain words
            self.notice.value = notice_html(f"No class was created: {exc}", bad=True)
            return
        self.create_button.disabled = True
        self.create_button.description = "Class created"
        n = len(self.links.teams)
        self.notice.value = notice_html(
            f"Class {self.links.class_id} created: {n} team{'s' if n > 1 else ''}. "
            "Hand out the seat links; open the console link to watch."
        )
        self.result.children = [links_box(self.links)]


# --- the live view -------------------------------------------------------------------------------


def waiting_text(waiting) -> str:
    """Who the team waits for, one line per reason ("D, E: not yet done in …")."""
    by_why: dict[str, list[str]] = {}
    for w in waiting:
        by_why.setdefault(w.why, []).append(w.seat)
    return "<br>".join(f"<b>{esc(', '.join(s))}</b>: {esc(why)}" for why, s in by_why.items())


def verdict_text(won: bool) -> str:
    """The final verdict as every page words it (CA "Victory": 20 or more wins)."""
    return "Victory" if won else "Defeat"


def team_row(s) -> str:
    """One row of the live table for a :class:`~hexclass.classroom.sessions.TeamSummary`."""
    result = "" if s.won is None else f"<br><b>{verdict_text(s.won)}</b>: {s.score_known} points"
    ours = esc(", ".join(s.broken_friendly)) or "–"
    cells = [
        ("team num", f"<b>{s.team}</b>"),
        ("seed num", s.seed),
        ("status", f"<span class='hx-status-{esc(s.status)}'>{esc(s.status)}{result}</span>"),
        ("turn num", s.turn),
        ("phase", esc(phase_title(s.phase))),
        ("version num", s.version),
        ("known num", s.score_known),
        ("projected num", "–" if s.score_projected is None else s.score_projected),
        ("broken", f"ours: {ours}<br>enemy: {s.enemy_broken}"),
        ("exploited", esc(", ".join(s.exploited)) or "–"),
        ("losses num", f"{s.losses} / {s.ammo}"),
        ("waiting", waiting_text(s.waiting) or "–"),
        ("connected", f"{len(s.connected)}/{len(s.seats)}: {esc(', '.join(s.connected)) or '–'}"),
    ]
    tds = "".join(f"<td class='hx-{c.split()[0]} {c}'>{v}</td>" for c, v in cells)
    return f"<tr data-team='{s.team}'>{tds}</tr>"


TEAM_HEADERS = (
    "Team", "Seed", "Status", "Turn", "Phase", "Actions",
    "Score (team sees)", "Score projected<br><small>(instructor only)</small>",
    "Broken platoons", "Exploited", "Losses / ammo", "Waiting for", "Connected seats",
)  # fmt: skip


def deployments_html(summaries) -> str:
    """Each student defender's secret deployment, live (the instructor sees everything)."""
    rows = [
        f"<li><b>Team {s.team}</b>: {esc(s.extra['deployment'])}</li>"
        for s in summaries
        if s.extra.get("deployment")
    ]
    if not rows:
        return ""
    return (
        "<div class='hx-panel hx-deployments'><b>Defenders' secret deployments</b> "
        "(never shown on a seat page)<ul>" + "".join(rows) + "</ul></div>"
    )


def teams_table(summaries) -> str:
    head = "".join(f"<th>{h}</th>" for h in TEAM_HEADERS)
    rows = "".join(team_row(s) for s in summaries)
    return (
        f"<table class='hx-teams'><tr>{head}</tr>{rows}</table>"
        "<div class='hx-panel'><small><b>Score (team sees)</b>: what the team can work out "
        "from the board (unrevealed counters count nothing yet). <b>Score projected</b>: "
        "the end-of-game reveal rolled now on a copy with the game's own dice: the score "
        "if the battle ended now. 20 or more wins. Losses / ammo: the infantry tracks."
        "</small></div>"
    )


class LivePanel:
    """Every team at a glance, and the instructor's controls."""

    def __init__(self, console, follower) -> None:
        self.console = console
        self.follower = follower
        self.header = W.HTML()
        self.table = W.HTML()
        self.notice = W.HTML()
        self._confirm_end: int | None = None
        self.polls = 0
        self.widget = W.VBox([self.header, self.table, *self._controls(), self.notice])
        self.widget.add_class("hexclass-live")
        self.refresh()

    def _button(self, text: str, fn: Callable[[], None], style: str = "") -> W.Button:
        b = W.Button(description=text, button_style=style, layout=W.Layout(width="auto"))
        b.on_click(guarded(self.notice, fn))
        return b

    def _controls(self) -> list:
        teams = [(f"Team {g.team}", g.team) for g in self.console.games()]
        self.team_pick = W.Dropdown(
            options=teams, description="Team", layout=W.Layout(width="160px")
        )
        self.end_button = self._button("End game", self.on_end, "danger")
        per_team = W.HBox(
            [
                self.team_pick,
                self._button("Pause team", lambda: self.on_pause(self.team_pick.value)),
                self._button("Resume team", lambda: self.on_resume(self.team_pick.value)),
                self.end_button,
            ]
        )
        whole = W.HBox(
            [
                W.HTML("<b class='hx-panel'>Whole class:</b>"),
                self._button("Pause class", lambda: self.on_pause(None), "warning"),
                self._button("Resume class", lambda: self.on_resume(None), "success"),
            ]
        )
        return [per_team, whole, self._message_controls(), self._broadcast_controls()]

    def _message_controls(self) -> W.HBox:
        s = self.console.store.class_info(self.console.class_id).settings
        self.mode = W.ToggleButtons(
            options=[("Free talk", "free"), ("Written", "written")], value=s.message_mode
        )
        self.limit = W.Text(
            value="" if s.message_limit is None else str(s.message_limit),
            placeholder="no limit",
            description="per seat per turn",
            style={"description_width": "initial"},
            layout=W.Layout(width="210px"),
        )
        return W.HBox(
            [
                W.HTML("<b class='hx-panel'>Messages:</b>"),
                self.mode,
                self.limit,
                self._button("Apply", self.on_messages),
            ]
        )

    def _broadcast_controls(self) -> W.HBox:
        self.broadcast_text = W.Text(
            placeholder="a message to every team", layout=W.Layout(width="420px")
        )
        return W.HBox(
            [
                W.HTML("<b class='hx-panel'>Broadcast:</b>"),
                self.broadcast_text,
                self._button("Send to every team", self.on_broadcast, "info"),
            ]
        )

    # --- following ---------------------------------------------------------------------------
    def poll_once(self) -> bool:
        """Catch up with the store; redraw the table only if a team changed."""
        self.polls += 1
        if not self.follower.poll():
            return False
        self.refresh()
        return True

    def summaries(self) -> list:
        f = self.follower
        return sorted(f.summaries.values(), key=lambda s: s.team)

    def refresh(self) -> None:
        info = self.console.store.class_info(self.console.class_id)
        rules = info.settings.message_mode
        if info.settings.message_mode == "written":
            lim = info.settings.message_limit
            rules += f", {'no limit' if lim is None else f'{lim} per seat per turn'}"
        paused = (
            " · <span class='hx-status-paused'>whole class paused</span>" if info.paused else ""
        )
        name = f" — {esc(info.name)}" if info.name else ""
        self.header.value = (
            f"{STYLE}{CONSOLE_STYLE}<div class='hx-panel'><b style='font-size:15px'>Class "
            f"{info.id}{name}</b> · messages: {esc(rules)}{paused} · updated "
            f"{dt.datetime.now():%H:%M:%S}</div>"
        )
        summaries = self.summaries()
        self.table.value = teams_table(summaries) + deployments_html(summaries)

    # --- handlers ------------------------------------------------------------------------------
    def _done(self, result, ok: str) -> None:
        self.notice.value = notice_html(ok) if result else notice_html(str(result), bad=True)
        self.poll_once()
        self.refresh()

    def _reset_confirm(self) -> None:
        self._confirm_end = None
        self.end_button.description = "End game"

    def on_pause(self, team: int | None) -> None:
        self._reset_confirm()
        who = "the whole class" if team is None else f"team {team}"
        self._done(self.console.pause(team), f"Paused {who}.")

    def on_resume(self, team: int | None) -> None:
        self._reset_confirm()
        who = "the whole class" if team is None else f"team {team}"
        self._done(self.console.resume(team), f"Resumed {who}.")

    def on_end(self) -> None:
        """Ending is final: the first click asks, the second (same team) ends."""
        team = self.team_pick.value
        if self._confirm_end != team:
            self._confirm_end = team
            self.end_button.description = f"Click again to end team {team}"
            self.notice.value = notice_html(f"Ending team {team}'s game cannot be undone.", True)
            return
        self._reset_confirm()
        result = self.console.end(team)
        self._done(result, f"Team {team}'s game has ended.")
        row = next((s for s in self.summaries() if s.team == team), None)
        if result and row is not None and row.won is not None:
            self.notice.value = notice_html(
                f'Team {team}\'s game has ended by the rules (CA "Victory"): every enemy '
                f"counter revealed, then scored. {verdict_text(row.won)}: "
                f"{row.score_known} points."
            )

    def on_messages(self) -> None:
        self._reset_confirm()
        try:
            limit = parse_whole(self.limit.value, "Messages per turn", 0, 1000, blank=None)
        except InputError as exc:
            self.notice.value = notice_html(str(exc), bad=True)
            return
        mode = self.mode.value
        if mode == "free":
            limit = None
        rule = "no limit" if limit is None else f"{limit} per seat per turn"
        done = "Free talk." if mode == "free" else f"Written messages, {rule}."
        self._done(self.console.set_messages(mode, limit), done)

    def on_broadcast(self) -> None:
        self._reset_confirm()
        text = self.broadcast_text.value
        results = self.console.broadcast(text)
        refused = [str(r) for r in results if not r]
        if refused:
            self.notice.value = notice_html(f"Not sent: {refused[0]}", bad=True)
            return
        self.broadcast_text.value = ""
        self.notice.value = notice_html(f"Sent to {len(results)} team(s).")


# --- the page ------------------------------------------------------------------------------------


class InstructorApp:
    """The console for an instructor token; a refusal (no controls) for any other token."""

    def __init__(self, store, token, base_url: str = DEFAULT_BASE_URL, poll: bool = True):
        self.store = store
        self.base_url = base_url
        self.refusal: str | None = None
        self._task = None
        try:
            self.console = open_console(store, token)
        except AccessRefused as exc:
            self.console = None
            self.refusal = str(exc)
            self.widget = W.HTML(refusal_html(self.refusal))
            return
        self.follower = self.console.follower()
        self.live = LivePanel(self.console, self.follower)
        self.replay = ReplayPanel(self.console)
        self.debrief = DebriefPanel(self.console)
        tabs = W.Tab(
            children=[
                self.live.widget,
                self.replay.widget,
                self.debrief.widget,
                links_box(self.console.links(base_url)),
            ]
        )
        tabs.titles = ("Live", "Replay", "Debrief", "Links")
        self.widget = W.VBox([tabs])
        self.widget.add_class("hexclass-console")
        if poll:
            self.start()

    def poll_once(self) -> bool:
        changed = self.live.poll_once()
        if changed:
            self.replay.follow()
        return changed

    def start(self) -> None:
        self._task = asyncio.get_event_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                self.poll_once()
            except Exception as exc:  # noqa: BLE001 - keep following; say so inline
                self.live.notice.value = notice_html(f"Lost touch with the store: {exc}", True)
            await asyncio.sleep(POLL_SECONDS)


def instructor_page(params: dict | None = None, store=None, base_url: str | None = None):
    """The instructor page's widget: the New class form, the console, or a refusal."""
    params = params or {}
    base_url = base_url or page_base_url()
    try:
        store = store or open_store()
    except Exception as exc:  # noqa: BLE001 - a page shows the trouble, not a traceback
        return W.HTML(refusal_html(f"The class store cannot be opened: {exc}"))
    token = params.get("token")
    if token is None:
        return NewClassForm(store, base_url).widget
    return InstructorApp(store, token, base_url).widget


__all__ = [
    "DebriefPanel",
    "InstructorApp",
    "LivePanel",
    "NewClassForm",
    "ReplayPanel",
    "instructor_page",
    "page_base_url",
    "parse_whole",
]
