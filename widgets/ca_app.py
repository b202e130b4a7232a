"""A playable Combined Arms page: board, panels, controls — for solitaire and co-op seats.

The app draws and holds widgets; it decides nothing. What the player has in hand
(selection, facing, fire group, target, mortar call) lives in the headless
:class:`~hexclass.widgets.ca_controller.BoardController`, which asks the engine about every
legality. ``game`` is a :class:`~hexclass.widgets.game_link.GameHandle` (``state``, and
``submit(action)`` answered with a ``Verdict``): :class:`LocalGame` keeps a solitaire game
in this kernel; the co-op seat page gives the same interface backed by the shared store.

The layout fits a 1366x768 laptop without scrolling: the phase bar and running score
on one line, the off-board tray on the board's left edge, the board, and beside it the
message, tracks, the selected platoon and its controls. The enemy phase, log, score
and game controls sit in tabs under the board (:mod:`.ca_tabs`); the legend is one click away.
"""

from __future__ import annotations

import os
import threading
import traceback

import ipywidgets as W

from hexclass.classroom.combined_arms import new_game
from hexclass.classroom.combined_arms.positions import PositionError
from hexclass.classroom.combined_arms.query import enemy_shots, score_now
from hexclass.classroom.combined_arms.scenarios import load_position

from . import ca_panels as P
from . import ca_reports as R
from .ca_board import ARROWS, CABoardView
from .ca_controller import BoardController, LocalGame
from .ca_tabs import GameTabs
from .lean import Kit

HIDDEN = "hx-hidden"  # a control the page hides for now (the style is in ca_panels.STYLE)


def shown(widget, on) -> None:
    """Show or hide a control by its class: its layout stays shared (widgets/lean.py)."""
    if on:
        widget.remove_class(HIDDEN)
    else:
        widget.add_class(HIDDEN)


FACING_BUTTONS = [(2, "↖"), (1, "↑"), (0, "↗"), (3, "↙"), (4, "↓"), (5, "↘")]


def guarded(method):
    """Run a UI handler; show any failure inline instead of a traceback."""

    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
            self.errors.append(traceback.format_exc())
            self.say(f"Something went wrong: {exc}", bad=True)
            return None

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


class GameApp(GameTabs):
    """The playable board with its panels. ``widget`` is what a notebook displays."""

    def __init__(
        self,
        game,
        seat: str = "player",
        seat_label: str = "",
        solitaire: bool = True,
        palette: str = "colour-blind safe",
        animate: bool = True,
    ) -> None:
        self.ctl = BoardController(game, seat)
        self.seat = seat
        self.seat_label = seat_label
        self.solitaire = solitaire
        self.animate = animate
        self.errors: list[str] = []
        self.view = CABoardView(palette=palette)
        self.last_enemy_events: list = []
        self._anim: threading.Timer | None = None
        self._scored_for = None
        self._last_rolls: list[str] = []
        self._drawn_events = 0
        self._hover_clock = None
        self._build()
        self.view.board.on_click(self.on_board_click)
        self.view.board.on_hover(self.on_hover)
        self.view.board.on_key(self.on_key)
        self.refresh()

    # --- the game and what is in hand (kept by the controller) ------------------------------
    @property
    def game(self):
        return self.ctl.game

    @property
    def state(self):
        return self.ctl.state

    @property
    def team_news(self) -> list[str]:
        """A co-op seat: the latest moves of the other seats (kept by the controller)."""
        return self.ctl.team_news

    @property
    def seat_titles(self) -> dict[str, str]:
        return self.ctl.seat_titles

    @seat_titles.setter
    def seat_titles(self, value: dict[str, str]) -> None:
        self.ctl.seat_titles = value

    @property
    def selected(self):
        return self.ctl.selected

    @property
    def group(self):
        return self.ctl.group

    @group.setter
    def group(self, value) -> None:
        self.ctl.group = list(value)

    @property
    def target(self):
        return self.ctl.target

    @target.setter
    def target(self, value) -> None:
        self.ctl.target = value

    def my_units(self):
        return self.ctl.my_units()

    # --- layout ---------------------------------------------------------------------------
    def _build(self) -> None:
        # one layout and one style model per kind of control (widgets/lean.py); a control
        # shown or hidden by phase gets the class HIDDEN, never a layout change
        self.kit = k = Kit()
        # the page's style, sent once (a <style> applies from inside a hidden element)
        self.style_html = k.html(P.STYLE, layout={"display": "none"})
        self.phase_html = k.html()
        self.caption_html = k.html()
        self.legend_button = k.make(
            W.ToggleButton,
            description="Legend",
            tooltip="terrain and counters",
            icon="question",
            layout={"width": "90px", "height": "28px"},
        )
        self.legend_button.observe(lambda ch: self._safe(self._show_legend), names="value")
        self.legend_html = k.html(layout={"display": "block"})
        self.legend_html.add_class(HIDDEN)
        self.tracks_html = k.html()
        self.message = k.html()
        self.hover_html = k.html()
        self.unit_html = k.html()
        self.tray = k.vbox(layout={"width": "62px", "min_width": "62px", "align_items": "center"})
        self.facing_box = None  # built when an armour platoon first needs it (_facing_controls)
        self.withdraw_button = self._button(
            "Withdraw (w)", "move off your rear edge", lambda _: self.ctl.withdraw(), toggled=True
        )
        self.exploit_button = self._button(
            "Exploit (x)", "advance off the enemy edge", lambda _: self.ctl.exploit(), toggled=True
        )
        self.odds_html = k.html()
        self.fire_button = self._button(
            "Commit fire (f)",
            "roll every attack shown",
            lambda _: self.on_commit_fire(),
            "danger",
            redraw=False,
            toggled=True,
        )
        self.join_button = self._button(
            "Commit, keep open",
            "commit these firers; other seats may join",
            lambda _: self.on_commit_fire(keep_open=True),
            redraw=False,
            toggled=True,
        )
        self.resolve_button = self._button(
            "Resolve open fire",
            "roll the open declaration",
            lambda _: self.ctl.resolve(),
            toggled=True,
        )
        self.clear_button = self._button(
            "Clear (Esc)", "forget the selection", lambda _: self.ctl.clear()
        )
        self.mortar_toggle = self.smoke_box = self.mortar_button = None  # _mortar_controls
        self.decision_box = k.vbox()
        self._decision_key = None  # the choice the decision box shows (rebuilt only on change)
        self.end_phase_button = self._button(
            "End phase (e)", "finish this phase", lambda _: self.ctl.end_phase(), "primary"
        )
        self.end_game_button = self._button(
            "End the battle…",
            "stop now and count the score (asks first)",
            lambda _: self.ctl.end_game(),
            toggled=True,
        )
        self.confirm_box = k.hbox(
            [
                self._button(
                    "Yes, end it",
                    "end the battle and count the score",
                    lambda _: self.ctl.end_game(confirmed=True),
                    "danger",
                ),
                self._button(
                    "Keep playing", "do not end the battle", lambda _: self.ctl.cancel_end()
                ),
            ],
            layout={"display": "flex"},
        )
        self.enemy_html = k.html(P.enemy_phase_html(None, []))
        self.side = side = k.vbox(
            [
                self.message,
                self.hover_html,
                self.decision_box,
                self.confirm_box,
                self.unit_html,
                k.hbox([self.withdraw_button, self.exploit_button]),
                self.odds_html,
                k.hbox([self.fire_button, self.join_button, self.resolve_button]),
                k.hbox([self.clear_button]),
                k.hbox([self.end_phase_button, self.end_game_button]),
                self.tracks_html,
                self.legend_html,
            ],
            layout={
                "flex": "1 1 320px",
                "max_width": "440px",
                "min_width": "300px",
                "padding": "0 0 0 8px",
            },
        )
        side.add_class("hx-side")
        self._build_tabs()
        board_col = k.vbox(
            [self.view.widget, self.tabs],
            layout={"flex": "3 1 480px", "min_width": "360px", "max_width": "710px"},
        )
        self.tray.add_class("hx-tray")
        main = k.hbox(
            [self.tray, board_col, side],
            layout={"flex_flow": "row wrap", "align_items": "flex-start"},
        )
        top = k.hbox(
            [self.phase_html, self.legend_button],
            layout={"align_items": "center", "justify_content": "space-between"},
        )
        self.widget = k.vbox([self.style_html, top, self.caption_html, main])
        self.widget.add_class("hexclass-ca-app")

    def _facing_controls(self):
        """The armour facing arrows (CA "Armour"), made the first time a seat's armour
        platoon is selected: most seats have none, and their pages never send them."""
        if self.facing_box is None:
            k = self.kit
            self.facing_buttons = [
                self._button(
                    arrow, f"face corner {c}", lambda _, c=c: self.on_facing(c), width="34px"
                )
                for c, arrow in FACING_BUTTONS
            ]
            self.keep_button = self._button(
                "keep", "keep the present facing", lambda _: self.on_facing(None), width="60px"
            )
            arrows = k.make(  # two rows of three
                W.GridBox,
                children=self.facing_buttons,
                layout={"grid_template_columns": "repeat(3, auto)"},
            )
            self.facing_box = k.hbox(
                [k.html("<b>Facing</b>&nbsp;"), arrows, self.keep_button],
                layout={"align_items": "center", "display": "flex"},
            )
            self._insert_side(self.facing_box, after=self.unit_html)
        return self.facing_box

    def _mortar_controls(self) -> None:
        """The mortar mode, smoke and Call mortars (CA "Mortars"), made the first time the
        engine would take a call from this seat."""
        if self.mortar_toggle is not None:
            return
        k = self.kit
        self.mortar_toggle = k.make(
            W.ToggleButtons,
            options=["fire", "mortar"],
            value=self.ctl.mode if self.ctl.mode in ("fire", "mortar") else "fire",
            description="Mode:",
            style={"button_width": "62px"},
            layout={"display": "flex"},
        )
        self.mortar_toggle.observe(lambda ch: self._safe(self.on_mode, ch["new"]), names="value")
        self.smoke_box = k.make(
            W.Checkbox,
            description="smoke",
            indent=False,
            layout={"width": "70px", "display": "flex"},
        )
        self.smoke_box.observe(lambda ch: self._safe(self.ctl.set_smoke, ch["new"]), names="value")
        self.mortar_button = self._button(
            "Call mortars",
            "call the mortar mission shown",
            lambda _: self.ctl.call_mortar(),
            "warning",
            toggled=True,
        )
        self._insert_side(k.hbox([self.mortar_toggle, self.smoke_box]), after=self.withdraw_button)
        row = next(r for r in self.side.children if self.clear_button in getattr(r, "children", ()))
        row.children = (self.mortar_button, *row.children)

    def _insert_side(self, widget, after) -> None:
        """Put ``widget`` in the side column just below ``after`` (or the row holding it)."""
        children = list(self.side.children)
        at = next(i for i, c in enumerate(children) if c is after or after in getattr(c, "children", ()))  # fmt: skip
        self.side.children = (*children[: at + 1], widget, *children[at + 1 :])

    def add_side_panel(self, panel, before=None) -> None:
        """Put another panel (e.g. a co-op team panel) under the controls, or just above
        the ``before`` widget of the side column."""
        children = list(self.side.children)
        at = children.index(before) if before in children else len(children)
        self.side.children = (*children[:at], panel, *children[at:])

    def _button(self, label, tip, handler, style="", width=None, redraw=True, toggled=False):
        """A button whose click runs ``handler`` then redraws; ``toggled``: the page shows
        or hides it by phase (:func:`shown`)."""
        b = self.kit.button(
            label, tip, style, width=width, layout={"display": "flex"} if toggled else {}
        )
        b.on_click(lambda btn: self._safe(handler, btn, redraw=redraw))
        return b

    def _safe(self, handler, *args, redraw: bool = True):
        """Run a handler, then redraw from the controller; failures are shown inline."""
        result = None
        try:
            result = handler(*args)
        except Exception as exc:  # noqa: BLE001
            self.errors.append(traceback.format_exc())
            self.ctl.say(f"Something went wrong: {exc}", bad=True)
        if not redraw:
            return result
        try:
            self.after()
        except Exception as exc:  # noqa: BLE001 - never a traceback on the page
            self.errors.append(traceback.format_exc())
            self.message.value = (
                f'<div class="hx-panel hx-message hx-msg-bad">Something went wrong: '
                f"{P.esc(exc)}</div>"
            )
        return result

    def act(self, action) -> bool:
        """Send one action (as a bot, a test or a lesson would) and redraw; True if accepted."""
        return bool(self._safe(self.ctl.act, action))

    def _show_legend(self) -> None:
        on = self.legend_button.value
        if on:
            self.legend_html.value = P.legend_html(self.view.pal)
        shown(self.legend_html, on)

    # --- messages and refresh ---------------------------------------------------------------
    def say(self, text: str, bad: bool = False, level: int | None = None, cause=None) -> None:
        self.ctl.say(text, bad, level, cause)
        self._show_message()

    def _show_message(self) -> None:
        m = self.ctl.message
        cls = "hx-msg-bad" if m.bad else "hx-msg-ok"
        team = ""
        news = [t for t in self.team_news if t not in m.text]  # not twice on one panel
        if news:  # teammates' latest moves, beside (never over) this seat's line
            team = (
                '<div class="hx-team-line">Team: '
                + "<br>Team: ".join(map(P.lines, news))
                + "</div>"
            )
        self.message.value = (
            f'<div class="hx-panel hx-message {cls}" data-level="{m.level}">'
            f'<div class="hx-line">{P.lines(m.text)}</div>{team}</div>'
        )

    def refresh(self, layers=("terrain", "counters", "overlay")) -> None:
        """Redraw everything from the state and the controller."""
        s = self.state
        self.ctl.sync()
        self._drawn_events = len(s.events)
        self.hover_html.value = ""
        self.caption_html.value = P.caption_html(s)
        self._refresh_bar()
        self._show_enemy_report()
        self._update_highlights()
        self.view.show(s, layers)
        self._refresh_panels()
        self._refresh_log()
        self._refresh_score()

    def _refresh_bar(self) -> None:
        s = self.state
        self.phase_html.value = _bar_with_score(s, self.seat_label)
        self.tracks_html.value = P.compact_tracks(s)

    def after(self) -> None:
        """Redraw what a controller call may have changed (the board only if the game did)."""
        events = self.ctl.new_events
        self.ctl.new_events = []
        n = len(self.state.events)
        if not events and n != self._drawn_events:
            # the game moved without this page's action (a co-op seat caught up on a
            # refusal): draw what it missed
            events = self.state.events[self._drawn_events :] if n > self._drawn_events else []
            self.ctl.sync()
            if not events:
                events = self.state.events[-1:]
        self._drawn_events = n
        if events:
            self._after_events(events)
        if events or self.ctl._now() != self._hover_clock:
            # the board moved or a new phase began: a caption's odds may be stale
            self._hover_clock = self.ctl._now()
            self.hover_html.value = ""
        drawn = self._highlight_signature()
        self._update_highlights()
        if events:
            self.view.board.redraw("counters", "overlay")
        elif self._highlight_signature() != drawn:
            self.view.board.redraw("overlay")  # only what the click changed is repainted
        if events:
            self._refresh_bar()
            self._refresh_log()
            self._refresh_score()
        self._refresh_panels()

    def _after_events(self, events) -> None:
        new = [e for e in events if e.phase == "enemy" and e.kind in R.ENEMY_REPORT_KINDS]
        if new:
            self._show_enemy_report()
            self.tabs.selected_index = 0
            self._show_shots(new)

    def _show_enemy_report(self) -> None:
        """The latest enemy phase, read from the game's log (so a reloaded page has it)."""
        enemy = R.last_enemy_phase(self.state)
        if enemy != self.last_enemy_events or not enemy:
            self.last_enemy_events = enemy
            self.enemy_html.value = P.enemy_phase_html(self.state, enemy)

    def _refresh_panels(self) -> None:
        self._refresh_tray()
        self._refresh_side()
        self._refresh_decision()
        self._show_message()  # last: a page that shows the news shows the rest already

    def _refresh_tray(self) -> None:
        """A toggle for each of this seat's platoons still off the board (made once)."""
        s = self.state
        if not hasattr(self, "_off_buttons"):
            self._off_buttons = {}
            self._syncing = False
            for uid in sorted(self.my_units()):
                b = self.kit.make(
                    W.ToggleButton, description=uid, layout={"width": "54px", "height": "28px"}
                )
                b.observe(lambda ch, uid=uid: self._off_toggled(uid, ch["new"]), names="value")
                self._off_buttons[uid] = b
            self._tray_title = self.kit.html('<div class="hx-tray"><b>Off<br>board</b></div>')
        self._syncing = True
        try:
            shown = []
            for uid, b in self._off_buttons.items():
                if s.units[uid].where == "off":
                    b.value = uid == self.ctl.selected
                    b.disabled = s.phase != "friendly_move"
                    shown.append(b)
        finally:
            self._syncing = False
        if not shown and not hasattr(self, "_tray_none"):
            self._tray_none = self.kit.html("<i>none</i>")
        children = (self._tray_title, *(shown or [self._tray_none]))
        if self.tray.children != children:
            self.tray.children = children

    def _off_toggled(self, uid: str, on: bool) -> None:
        if on and not self._syncing:
            self._safe(self.ctl.select, uid)

    def _refresh_side(self) -> None:
        s, c = self.state, self.ctl
        u = c.unit()
        facing = bool(u and u.is_armour and s.phase in ("friendly_move", "friendly_fire"))
        if facing or self.facing_box is not None:
            shown(self._facing_controls(), facing)
        if u is None:
            self.unit_html.value = (
                '<div class="hx-panel">Select one of your platoons (click it, or <span '
                'class="hx-kbd">n</span>).</div>'
            )
        else:
            where = s.label(u.hex) if u.hex else u.where
            face = f", facing {ARROWS[u.facing]}" if u.is_armour and u.facing is not None else ""
            plan = ""
            if u.is_armour and s.phase == "friendly_move" and c.facing is not None:
                plan = f" (next move faces {ARROWS[c.facing]})"
            self.unit_html.value = (
                f'<div class="hx-panel"><b>{u.id}</b> ({u.kind}) at {P.esc(where)}, '
                f"{'fresh' if u.fresh else 'spent'}{face}{plan}</div>"
            )
        ok = c.enabled()
        fire_phase = s.phase == "friendly_fire"
        move_phase = s.phase == "friendly_move"
        self.withdraw_button.disabled = not ok["withdraw"]
        self.exploit_button.disabled = not ok["exploit"]
        for w in (self.withdraw_button, self.exploit_button):
            shown(w, move_phase)
        self._refresh_mortar(ok)
        shown(self.fire_button, fire_phase and c.mode == "fire")
        self.fire_button.disabled = not ok["commit"]
        shown(self.join_button, fire_phase and not self.solitaire)
        self.join_button.disabled = not ok["commit"]
        shown(self.resolve_button, s.declaration is not None)
        self.resolve_button.disabled = not ok["resolve"]
        self.end_phase_button.disabled = not ok["end_phase"]
        self.end_game_button.disabled = not ok["end_game"]
        shown(self.end_game_button, move_phase)
        shown(self.confirm_box, c.confirming_end)
        self.odds_html.value = self._odds_panel() if fire_phase else ""

    def _refresh_mortar(self, ok: dict) -> None:
        c = self.ctl
        can_mortar = ok["mortar"]
        if self.mortar_toggle is None and not can_mortar and c.mode != "mortar":
            return  # never offered yet: nothing to show or hide
        self._mortar_controls()
        if self.mortar_toggle.value != c.mode:
            self._syncing_mode = True
            try:
                self.mortar_toggle.value = c.mode
            finally:
                self._syncing_mode = False
        shown(self.mortar_toggle, can_mortar)
        shown(self.smoke_box, can_mortar)
        shown(self.mortar_button, c.mode == "mortar")
        self.mortar_button.disabled = not ok["call_mortar"]

    def _odds_panel(self) -> str:
        c, s = self.ctl, self.state
        if c.mode == "mortar":
            odds, why = c.mortar_preview()
            if odds is not None:
                return P.mortar_odds_html(s, odds, c.smoke)
            return ""
        odds, why = c.odds()
        if odds is not None:
            return P.fire_odds_html(s, odds)
        if why is not None:
            return (
                f'<div class="hx-panel hx-msg-bad">No odds: the engine refuses this shot. '
                f"{P.esc(why)}</div>"
            )
        if not c.group and c.target is None and self._last_rolls:
            return '<div class="hx-panel">' + "<br>".join(map(P.esc, self._last_rolls)) + "</div>"
        if c.group:
            legal = [h for h, w in c.target_map().items() if w is None]
            if not legal:
                return (
                    '<div class="hx-panel hx-msg-bad">No legal target for these firers: '
                    "hover a dimmed enemy counter to see the rule.</div>"
                )
            return (
                '<div class="hx-panel">Legal targets (lit): '
                + ", ".join(P.esc(s.label(h)) for h in legal)
                + "</div>"
            )
        return ""

    def _refresh_decision(self) -> None:
        """The commander's choice (CA "Decisions"): rebuilt only when the choice changes,
        and the widgets it replaces are closed (never sent to a browser again)."""
        choice = self.ctl.choice()
        key = None
        if choice is not None:
            options = tuple((label, repr(a)) for label, a in choice.options)
            key = (choice.mine, choice.prompt, choice.rule, choice.why, options)
            if not choice.mine:
                key = (*key, P.deciding(self.ctl.state.pending))
        if key == self._decision_key:
            return
        self._decision_key = key
        old, k = self.decision_box.children, self.kit
        if choice is None:
            self.decision_box.children = []
        elif not choice.mine:
            self.decision_box.children = [
                k.html(
                    f'<div class="hx-panel hx-msg-bad">Waiting for '
                    f"{P.esc(P.deciding(self.ctl.state.pending))}: {P.esc(choice.prompt)}</div>"
                )
            ]
        else:
            buttons = [
                self._button(label, choice.prompt, lambda _, a=a: self.ctl.choose(a), "warning")
                for label, a in choice.options
            ]
            why = f"<br><small>{P.esc(choice.why)}</small>" if choice.why else ""
            self.decision_box.children = [
                k.html(
                    f'<div class="hx-panel hx-msg-bad"><b>Your choice</b>: {P.esc(choice.prompt)} '
                    f"<small>({P.esc(choice.rule)})</small>{why}</div>"
                ),
                k.vbox(buttons),
            ]
        k.close(old)

    # --- highlights -----------------------------------------------------------------------
    def _highlight_signature(self) -> tuple:
        hl = self.view.hl
        return (
            hl.selected_hex,
            hl.selected_unit,
            frozenset(hl.destinations),
            hl.arc,
            tuple(hl.fire_group),
            hl.target,
            frozenset(hl.legal_targets),
            frozenset(hl.refused_targets),
            tuple(hl.shots),
        )

    def _update_highlights(self) -> None:
        hl, s, c = self.view.hl, self.state, self.ctl
        hl.own_units = frozenset() if self.solitaire else frozenset(self.my_units())
        u = c.unit()
        hl.selected_unit = c.selected
        hl.selected_hex = u.hex if u else None
        hl.destinations = set(c.destinations()) if s.phase == "friendly_move" else set()
        hl.arc = None
        corner = c.shown_facing()
        if u is not None and u.hex is not None and corner is not None:
            hl.arc = (u.hex, corner)
        fire = s.phase == "friendly_fire"
        hl.fire_group = list(c.group) if fire else []
        hl.target = c.target if fire else None
        targets = c.target_map()
        hl.legal_targets = {h for h, why in targets.items() if why is None}
        hl.refused_targets = {h for h, why in targets.items() if why is not None}
        if c.mode == "mortar" and c.mortar_target is not None:
            hl.target = c.mortar_target

    # --- board events -------------------------------------------------------------------
    def on_board_click(self, h, x=0.0, y=0.0) -> None:
        self._last_rolls = []
        self._safe(self.ctl.click, h)

    @guarded
    def on_hover(self, h) -> None:
        if h is None:
            self.hover_html.value = ""
            return
        self.hover_html.value = (
            f'<div class="hx-panel"><small>{P.esc(self.ctl.hover_text(h))}</small></div>'
        )

    def on_key(self, key, shift=False, ctrl=False, meta=False) -> None:
        self._safe(self.ctl.key, key)

    # --- buttons --------------------------------------------------------------------------
    def on_facing(self, corner) -> None:
        self.ctl.set_facing(corner)

    def on_commit_fire(self, keep_open: bool = False) -> None:
        self._safe(self._commit_fire, keep_open)

    def _commit_fire(self, keep_open: bool) -> None:
        before, firers, target = len(self.state.events), set(self.ctl.group), self.ctl.target
        if self.ctl.commit_fire(keep_open):
            # only this fire's rolls (a co-op submit may also bring other seats' fire in the
            # same batch of events)
            self._last_rolls = [
                e.text
                for e in self.state.events[before:]
                if e.kind == "roll"
                and e.data.get("unit") in firers
                and e.data.get("target") == target
            ]

    def on_mode(self, mode) -> None:
        if getattr(self, "_syncing_mode", False):
            return
        self.ctl.set_mode(mode)

    def external_update(self, new_events) -> None:
        """Another seat changed the shared game: redraw and say what happened.

        The message line takes it only if it matters as much as what it shows (see
        :meth:`BoardController.offer`); a teammate's move always goes to the team line.
        """
        self.ctl.external_update(new_events)
        self.after()

    def _show_shots(self, events) -> None:
        shots = enemy_shots(events)
        hl = self.view.hl
        if not (self.animate and shots):
            hl.shots = shots
            return
        if self._anim is not None:
            self._anim.cancel()

        def step(i=1):
            hl.shots = shots[:i]
            self.view.board.redraw("overlay")
            if i < len(shots):
                self._anim = threading.Timer(0.35, step, args=(i + 1,))
                self._anim.daemon = True
                self._anim.start()

        hl.shots = shots[:1]
        self._anim = threading.Timer(0.2, step)
        self._anim.daemon = True
        self._anim.start()

    def select(self, uid: str | None) -> None:
        self._safe(self.ctl.select, uid)

    def clear(self) -> None:
        self._safe(self.ctl.clear)


def _bar_with_score(state, seat_label: str) -> str:
    """The phase bar with the running score at its end (CA "Victory")."""
    bar = P.phase_bar(state, seat_label, style=False)  # the style is in GameApp.style_html
    score = P.score_now_html(score_now(state), state.over)
    i = bar.rindex("</div>")
    return bar[:i] + score + bar[i:]


def solitaire_app(seed: int | None = None, scenario: str | None = None, **kwargs) -> GameApp:
    """A fresh solitaire game (seed from the caller, or random) in a GameApp."""
    if seed is None:
        seed = int.from_bytes(os.urandom(3), "big")
    problem = None
    state = None
    if scenario:
        try:
            state = new_game(seed, position=load_position(scenario))
        except (FileNotFoundError, PositionError) as exc:
            problem = str(exc)
    app = GameApp(LocalGame(state or new_game(seed)), **kwargs)
    from .coach import mount_coach  # the Suggest button (issue 13), a panel of its own

    mount_coach(app)
    if problem:
        app.say(f"{problem}; a new game was diced instead", bad=True)
    return app


def start_from_query(app: GameApp, params: dict[str, str]) -> GameApp:
    """Point an already-built solitaire app at the game the page's address asks for.

    The solitaire page builds its app while a preheated kernel waits for a visitor, then
    only swaps the game in when the address (``?seed=``, ``?scenario=``) arrives. A seed
    that is not a whole number is refused with a message, never silently replaced.
    """
    seed_text = params.get("seed", "").strip()
    problem = None
    seed = app.state.seed
    if seed_text:
        if seed_text.isdigit():
            seed = int(seed_text)
        else:
            problem = (
                f"?seed={seed_text} is not a seed: a seed is a whole number such as ?seed=42. "
                f"This is a random board (seed {seed}) instead."
            )
    scenario = params.get("scenario") or None
    if scenario:
        try:
            app.replace_game(new_game(seed, position=load_position(scenario)))
        except (FileNotFoundError, PositionError) as exc:
            app.replace_game(new_game(seed))
            problem = f"{exc}; a new game was diced instead"
    elif seed != app.state.seed:
        app.replace_game(new_game(seed))
    if problem:
        app.say(problem, bad=True)
    return app


def query_params() -> dict[str, str]:
    """The page's URL query under Voilà (waits for it with preheated kernels); {} elsewhere."""
    from hexclass.classroom.pages.request import query_params as page_query

    return page_query()  # without importing voila into the kernel (about 57 MiB less)


__all__ = ["GameApp", "LocalGame", "solitaire_app", "query_params", "start_from_query"]
