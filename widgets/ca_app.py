"""A playable Combined Arms page: board, panels, controls — for solitaire and co-op seats.

The app never holds the truth of a game. It reads ``game.state`` and sends actions
through ``game.submit(action)``, which returns None or the reason the action was
refused. :class:`LocalGame` keeps a solitaire game in this kernel; the co-op seat page
gives the same interface backed by the shared store.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import pathlib
import threading
import traceback
from collections.abc import Callable

import ipywidgets as W

from classroom.combined_arms import (
    CallMortar,
    ChooseBroken,
    ChooseRollOrder,
    DeclareFire,
    EndGame,
    EndPhase,
    Enter,
    Exploit,
    Face,
    Move,
    Options,
    ResolveFire,
    Withdraw,
    check,
    fire_odds,
    new_game,
    try_apply,
)
from classroom.combined_arms.game import RecordError, record, replay
from classroom.combined_arms.movement import destinations
from classroom.combined_arms.odds import mortar_odds
from classroom.combined_arms.positions import Position, PositionError
from classroom.combined_arms.scenarios import load_position, scenario_names
from classroom.combined_arms.stats import per_turn

from . import ca_panels as P
from .ca_board import ARROWS, PALETTES, CABoardView

FACING_BUTTONS = [(2, "↖"), (1, "↑"), (0, "↗"), (3, "↙"), (4, "↓"), (5, "↘")]


class LocalGame:
    """A solitaire game held in this kernel."""

    def __init__(self, state) -> None:
        self.state = state
        self.listeners: list[Callable[[], None]] = []

    def submit(self, action) -> str | None:
        reason = try_apply(self.state, action)
        return None if reason is None else str(reason)

    def check(self, action) -> str | None:
        reason = check(self.state, action)
        return None if reason is None else str(reason)


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


class GameApp:
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
        self.game = game
        self.seat = seat
        self.seat_label = seat_label
        self.solitaire = solitaire
        self.animate = animate
        self.errors: list[str] = []
        self.view = CABoardView(palette=palette)
        self.selected: str | None = None
        self.pending_facing: int | None = None  # armour: the facing chosen for the next move
        self.group: list[str] = []  # firers being gathered
        self.target = None
        self.mode = "fire"  # in the fire phase: "fire" or "mortar"
        self.spotter: str | None = None
        self.mortar_target = None
        self.last_enemy_events: list = []
        self._anim: threading.Timer | None = None
        self._build()
        self.view.board.on_click(self.on_board_click)
        self.view.board.on_hover(self.on_hover)
        self.view.board.on_key(self.on_key)
        self.refresh()

    # --- layout ---------------------------------------------------------------------------
    def _build(self) -> None:
        self.phase_html = W.HTML()
        self.tracks_html = W.HTML()
        self.message = W.HTML()
        self.hover_html = W.HTML()
        self.unit_html = W.HTML()
        self.offboard = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.facing_buttons = [
            self._button(arrow, f"face corner {c}", lambda _, c=c: self.on_facing(c), width="38px")
            for c, arrow in FACING_BUTTONS
        ]
        self.keep_button = self._button(
            "keep", "keep the present facing", lambda _: self.on_facing(None), width="52px"
        )
        self.facing_box = W.VBox(
            [
                W.HTML("<b>Armour facing</b>"),
                W.HBox(self.facing_buttons[:3]),
                W.HBox(self.facing_buttons[3:] + [self.keep_button]),
            ]
        )
        self.withdraw_button = self._button(
            "Withdraw (w)", "move off your rear edge", lambda _: self.on_withdraw()
        )
        self.exploit_button = self._button(
            "Exploit (x)", "advance off the enemy edge", lambda _: self.on_exploit()
        )
        self.odds_html = W.HTML()
        self.fire_button = self._button(
            "Commit fire (f)",
            "roll every attack shown",
            lambda _: self.on_commit_fire(),
            style="danger",
        )
        self.join_button = self._button(
            "Commit, keep open",
            "commit these firers; other seats may join",
            lambda _: self.on_commit_fire(keep_open=True),
        )
        self.resolve_button = self._button(
            "Resolve open fire", "roll the open declaration", lambda _: self.on_resolve()
        )
        self.clear_button = self._button(
            "Clear (Esc)", "forget the selection", lambda _: self.clear()
        )
        self.mortar_toggle = W.ToggleButtons(
            options=["fire", "mortar"], description="Mode:", style={"button_width": "70px"}
        )
        self.mortar_toggle.observe(self.on_mode, names="value")
        self.smoke_box = W.Checkbox(
            description="smoke", indent=False, layout=W.Layout(width="80px")
        )
        self.mortar_button = self._button(
            "Call mortars",
            "call the mortar mission shown",
            lambda _: self.on_call_mortar(),
            style="warning",
        )
        self.decision_box = W.VBox()
        self.end_phase_button = self._button(
            "End phase (e)", "finish this phase", lambda _: self.on_end_phase(), style="primary"
        )
        self.end_game_button = self._button(
            "End the battle", "stop now and count the score", lambda _: self.on_end_game()
        )
        self.enemy_html = W.HTML()
        self.log_kind = W.Dropdown(
            options=["all"], description="Show:", layout=W.Layout(width="200px")
        )
        self.log_text = W.Text(placeholder="search the log", layout=W.Layout(width="220px"))
        self.log_kind.observe(lambda _: self._refresh_log(), names="value")
        self.log_text.observe(lambda _: self._refresh_log(), names="value")
        self.log_html = W.HTML()
        self.score_html = W.HTML()
        self.score_plot = W.Output()
        self.side = side = W.VBox(
            [
                self.message,
                self.hover_html,
                self.unit_html,
                self.facing_box,
                W.HBox([self.withdraw_button, self.exploit_button]),
                W.HBox([self.mortar_toggle, self.smoke_box]),
                self.odds_html,
                W.HBox([self.fire_button, self.join_button, self.resolve_button]),
                W.HBox([self.mortar_button, self.clear_button]),
                self.decision_box,
                W.HBox([self.end_phase_button, self.end_game_button]),
            ],
            layout=W.Layout(width="430px", min_width="330px", padding="0 0 0 10px"),
        )
        board_box = W.VBox(
            [
                self.view.widget,
                W.HTML("<b>Off the board</b> (select, then click a row-1 hex):"),
                self.offboard,
            ],
            layout=W.Layout(flex="1 1 560px", min_width="320px"),
        )
        self.tabs = W.Tab(
            children=[
                self.enemy_html,
                W.VBox([W.HBox([self.log_kind, self.log_text]), self.log_html]),
                W.VBox([self.score_html, self.score_plot]),
                self._game_controls(),
            ]
        )
        for i, title in enumerate(["Enemy phase", "Game log", "Score", "Game & help"]):
            self.tabs.set_title(i, title)
        self.tabs.observe(
            lambda ch: self._safe_click(lambda _: self._refresh_log(), None), names="selected_index"
        )
        self.widget = W.VBox(
            [
                self.phase_html,
                self.tracks_html,
                W.HBox(
                    [board_box, side],
                    layout=W.Layout(flex_flow="row wrap", align_items="flex-start"),
                ),
                self.tabs,
            ]
        )
        self.widget.add_class("hexclass-ca-app")

    def add_side_panel(self, panel) -> None:
        """Put another panel (e.g. a co-op team panel) under the controls."""
        self.side.children = (*self.side.children, panel)

    def _button(self, label, tip, handler, style="", width=None):
        b = W.Button(
            description=label,
            tooltip=tip,
            button_style=style,
            layout=W.Layout(width=width) if width else W.Layout(width="auto"),
        )
        b.on_click(lambda btn: self._safe_click(handler, btn))
        return b

    def _safe_click(self, handler, btn):
        try:
            handler(btn)
        except Exception as exc:  # noqa: BLE001
            self.errors.append(traceback.format_exc())
            self.say(f"Something went wrong: {exc}", bad=True)

    def _game_controls(self):
        self.seed_box = W.IntText(
            value=self.game.state.seed, description="Seed:", layout=W.Layout(width="180px")
        )
        self.easier_box = W.Checkbox(
            description="easier game (no -1 per turn after 18)", indent=False
        )
        self.auto_box = W.Checkbox(
            description="let the engine make the commander's small choices", indent=False
        )
        new = self._button(
            "New game",
            "dice a new board from this seed",
            lambda _: self.on_new_game(),
            style="success",
        )
        names = scenario_names()
        self.scenario_pick = W.Dropdown(
            options=names or ["(none)"], description="Scenario:", layout=W.Layout(width="380px")
        )
        start = self._button(
            "Start scenario", "set up the chosen rulebook position", lambda _: self.on_scenario()
        )
        self.scenario_upload = W.FileUpload(accept=".toml", description="Position file (.toml)")
        self.scenario_upload.observe(
            lambda ch: self._safe_click(lambda _: self.on_position_upload(), None), names="value"
        )
        save = self._button(
            "Save game", "write the game (seed and actions) as JSON", lambda _: self.on_save()
        )
        self.save_link = W.HTML()
        self.load_upload = W.FileUpload(accept=".json", description="Load a saved game (.json)")
        self.load_upload.observe(
            lambda ch: self._safe_click(lambda _: self.on_load_upload(), None), names="value"
        )
        self.palette_pick = W.ToggleButtons(
            options=list(PALETTES), value=self.view.palette_name, description="Colours:"
        )
        self.palette_pick.observe(lambda ch: self.view.set_palette(ch["new"]), names="value")
        parts = [self.palette_pick, W.HTML(P.shortcuts_html())]
        if self.solitaire:
            parts = [
                W.HBox([self.seed_box, new]),
                self.easier_box,
                self.auto_box,
                W.HBox([self.scenario_pick, start]),
                self.scenario_upload,
                W.HBox([save, self.save_link]),
                self.load_upload,
                *parts,
            ]
        return W.VBox(parts)

    # --- messages and refresh ---------------------------------------------------------------
    def say(self, text: str, bad: bool = False) -> None:
        cls = "hx-msg-bad" if bad else "hx-msg-ok"
        self.message.value = f'<div class="hx-panel hx-message {cls}">{P.esc(text)}</div>'

    @property
    def state(self):
        return self.game.state

    def my_units(self):
        seat = self.state.seats.get(self.seat)
        return seat.units if seat else frozenset()

    def refresh(self, layers=("terrain", "counters", "overlay")) -> None:
        s = self.state
        self.hover_html.value = ""
        self.phase_html.value = P.phase_bar(s, self.seat_label)
        self.tracks_html.value = P.tracks(s)
        self._update_highlights()
        self.view.show(s, layers)
        self._refresh_offboard()
        self._refresh_side()
        self._refresh_decision()
        self._refresh_log()
        self._refresh_score()

    def _refresh_offboard(self) -> None:
        """Show a toggle for each of this seat's platoons still off the board (made once)."""
        s = self.state
        if not hasattr(self, "_off_buttons"):
            self._off_buttons = {}
            self._syncing = False
            for uid in sorted(self.my_units()):
                b = W.ToggleButton(description=uid, layout=W.Layout(width="54px"))
                b.observe(lambda ch, uid=uid: self._off_toggled(uid, ch["new"]), names="value")
                self._off_buttons[uid] = b
        self._syncing = True
        try:
            shown = []
            for uid, b in self._off_buttons.items():
                if s.units[uid].where == "off":
                    b.value = uid == self.selected
                    shown.append(b)
        finally:
            self._syncing = False
        if [c for c in self.offboard.children if isinstance(c, W.ToggleButton)] != shown:
            self.offboard.children = shown or [W.HTML("<i>none</i>")]

    def _off_toggled(self, uid: str, on: bool) -> None:
        if on and not self._syncing:
            self._safe_click(lambda _: self.select(uid), None)

    def _refresh_side(self) -> None:
        s = self.state
        u = s.units.get(self.selected) if self.selected else None
        self.facing_box.layout.display = "flex" if (u and u.is_armour) else "none"
        if u is None:
            self.unit_html.value = '<div class="hx-panel">Select one of your platoons.</div>'
        else:
            where = s.label(u.hex) if u.hex else u.where
            face = f", facing {ARROWS[u.facing]}" if u.is_armour and u.facing is not None else ""
            plan = (
                f" (next move faces {ARROWS[self.pending_facing]})"
                if u.is_armour and self.pending_facing is not None
                else ""
            )
            self.unit_html.value = (
                f'<div class="hx-panel"><b>{u.id}</b> ({u.kind}) at {P.esc(where)}, '
                f"{'fresh' if u.fresh else 'spent'}{face}{plan}</div>"
            )
        fire_phase = s.phase == "friendly_fire"
        move_phase = s.phase == "friendly_move"
        self.withdraw_button.disabled = not (
            u and move_phase and self.game.check(Withdraw(self.seat, u.id)) is None
        )
        self.exploit_button.disabled = not (
            u and move_phase and self.game.check(Exploit(self.seat, u.id)) is None
        )
        seat = s.seats.get(self.seat)
        can_mortar = (
            fire_phase
            and seat is not None
            and "mortars" in seat.powers
            and not s.mortar_called
            and not s.engaged
        )
        self.mortar_toggle.layout.display = "flex" if can_mortar else "none"
        self.smoke_box.layout.display = "flex" if can_mortar else "none"
        self.mortar_button.layout.display = (
            "flex" if can_mortar and self.mode == "mortar" else "none"
        )
        self.fire_button.layout.display = "flex" if fire_phase and self.mode == "fire" else "none"
        self.join_button.layout.display = "none" if self.solitaire or not fire_phase else "flex"
        self.resolve_button.layout.display = "flex" if s.declaration is not None else "none"
        is_cmd = seat is not None and "command" in seat.powers
        self.end_phase_button.disabled = not (
            is_cmd and s.phase in ("friendly_move", "friendly_fire")
        )
        self.end_game_button.disabled = not (is_cmd and self.game.check(EndGame(self.seat)) is None)
        if not fire_phase:
            self.odds_html.value = ""

    def _refresh_decision(self) -> None:
        p = self.state.pending
        if p is None:
            self.decision_box.children = []
            return
        seat = self.state.seats.get(self.seat)
        if seat is None or p.power not in seat.powers:
            self.decision_box.children = [
                W.HTML(
                    f'<div class="hx-panel hx-msg-bad">Waiting for the commander: {P.esc(p.prompt)}</div>'
                )
            ]
            return
        buttons = []
        for opt in p.options:
            if p.kind == "roll_order":
                label = " then ".join(self.state.label(h) for h in opt)
                action = ChooseRollOrder(self.seat, opt)
            else:
                label = f"break {opt}"
                action = ChooseBroken(self.seat, opt)
            buttons.append(
                self._button(label, p.prompt, lambda _, a=action: self.act(a), style="warning")
            )
        self.decision_box.children = [
            W.HTML(
                f'<div class="hx-panel hx-msg-bad"><b>Your choice</b>: {P.esc(p.prompt)} '
                f"<small>({P.esc(p.rule)})</small></div>"
            ),
            W.VBox(buttons),
        ]

    def _refresh_log(self) -> None:
        """Filter the event log as a pandas DataFrame; built only while its tab is open."""
        if self.tabs.selected_index != 1:
            return
        df = self.log_frame()
        kinds = ["all", *sorted(df["kind"].unique())]
        if list(self.log_kind.options) != kinds:
            keep = self.log_kind.value if self.log_kind.value in kinds else "all"
            self.log_kind.options = kinds
            self.log_kind.value = keep
        if self.log_kind.value != "all":
            df = df[df["kind"] == self.log_kind.value]
        if self.log_text.value:
            df = df[df["text"].str.contains(self.log_text.value, case=False, regex=False)]
        self.log_html.value = P.log_html(df.to_dict("records"))

    def log_frame(self):
        """The whole event log as a pandas DataFrame (turn, phase, kind, text)."""
        import pandas as pd

        return pd.DataFrame(P.event_rows(self.state), columns=["turn", "phase", "kind", "text"])

    def _refresh_score(self) -> None:
        s = self.state
        if s.result is None:
            self.score_html.value = (
                '<div class="hx-panel">The score is counted when the battle ends.</div>'
            )
            return
        if getattr(self, "_scored_for", None) == len(s.actions):
            return
        self._scored_for = len(s.actions)
        self.score_html.value = P.score_html(s.result)
        self.score_plot.clear_output()
        with self.score_plot:
            self._plot_turns()
        self.tabs.selected_index = 2

    def _plot_turns(self) -> None:
        import matplotlib.pyplot as plt
        import pandas as pd

        df = pd.DataFrame(per_turn(self.state))
        if df.empty:
            return
        fig, ax = plt.subplots(figsize=(7, 3))
        ax.plot(df["turn"], df["losses_taken"], marker="o", label="infantry losses taken")
        ax.plot(df["turn"], df["your_platoons_broken"], marker="s", label="your platoons broken")
        ax.plot(
            df["turn"],
            df["enemy_platoons_broken"] + df["atgs_broken"],
            marker="^",
            label="enemy counters broken",
        )
        ax.set_xlabel("turn")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        plt.show()

    # --- highlights -----------------------------------------------------------------------
    def _update_highlights(self) -> None:
        hl = self.view.hl
        s = self.state
        hl.own_units = frozenset() if self.solitaire else frozenset(self.my_units())
        u = s.units.get(self.selected) if self.selected else None
        hl.selected_unit = self.selected
        hl.selected_hex = u.hex if u else None
        hl.destinations = set(self._destinations().keys()) if s.phase == "friendly_move" else set()
        hl.arc = None
        if u and u.is_armour and u.hex is not None:
            corner = self.pending_facing if self.pending_facing is not None else u.facing
            hl.arc = (u.hex, corner)
        hl.fire_group = list(self.group) if s.phase == "friendly_fire" else []
        hl.target = self.target if s.phase == "friendly_fire" else None
        if self.mode == "mortar" and self.mortar_target is not None:
            hl.target = self.mortar_target

    def _destinations(self) -> dict:
        """Legal destination hex -> action, for the selected platoon and chosen facing."""
        s = self.state
        u = s.units.get(self.selected) if self.selected else None
        if u is None or s.phase != "friendly_move" or u.id not in self.my_units():
            return {}
        out = {}
        for verb, h, f in destinations(s, u):
            if verb not in ("enter", "move"):
                continue
            if u.is_armour:
                want = self.pending_facing
                if verb == "enter":
                    want = 4 if want is None else want
                elif want == u.facing:
                    want = None
                if f != want:
                    continue
            action = (
                Enter(self.seat, u.id, h, f) if verb == "enter" else Move(self.seat, u.id, h, f)
            )
            out[h] = action
        return out

    # --- actions ----------------------------------------------------------------------------
    def act(self, action) -> bool:
        before = len(self.state.events)
        reason = self.game.submit(action)
        if reason is not None:
            self.say(reason, bad=True)
            return False
        new = self.state.events[before:]
        self.say(new[-1].text if new else "done")
        self._after_action(new)
        return True

    def _after_action(self, new_events) -> None:
        s = self.state
        if self.selected and (s.units[self.selected].where not in ("off", "board")):
            self.selected = None
        self.group = [u for u in self.group if s.units[u].on_board and s.units[u].fresh]
        if self.target is not None and self.target not in s.enemy:
            self.target = None
        if s.phase != "friendly_fire":
            self.group, self.target, self.mortar_target, self.spotter = [], None, None, None
        enemy = [
            e
            for e in new_events
            if e.phase == "enemy" and e.kind in ("roll", "ai", "losses", "break", "enemy")
        ]
        if enemy:
            self.last_enemy_events = enemy
            self.enemy_html.value = P.enemy_phase_html(s, enemy)
            self.tabs.selected_index = 0
            self._show_shots(enemy)
        self.refresh(("counters", "overlay"))

    def external_update(self, new_events) -> None:
        """Another seat changed the shared game: redraw and show what happened."""
        shown = [e for e in new_events if e.kind not in ("phase",)] or list(new_events)
        if shown:
            self.say(f"Team: {shown[-1].text}")
        self._after_action(new_events)

    def _show_shots(self, events) -> None:
        shots = []
        for e in events:
            if e.kind == "roll" and e.data.get("purpose") in (
                "enemy fire on infantry",
                "enemy fire on armour",
            ):
                hit = e.data.get("total", 0) >= e.data.get("need", 2)
                if e.data.get("target") is not None:
                    shots.append((e.data["hex"], e.data["target"], hit))
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
        self.selected = uid
        u = self.state.units.get(uid) if uid else None
        self.pending_facing = None
        if u is not None and u.is_armour and u.where == "off":
            self.pending_facing = 4
        self._update_highlights()
        self.view.board.redraw("overlay")
        self._refresh_side()
        self._refresh_offboard()
        if u is not None and self.state.phase == "friendly_move":
            n = len(self._destinations())
            self.say(
                f"{uid} selected: {n} hexes lit"
                if n
                else f"{uid} has no legal move now"
                + ("" if u.fresh or u.where == "off" else " (spent)"),
                bad=not n,
            )

    def clear(self) -> None:
        self.selected, self.group, self.target, self.mortar_target, self.spotter = (
            None,
            [],
            None,
            None,
            None,
        )
        self.pending_facing = None
        self.odds_html.value = ""
        self.view.hl.shots = []
        self.refresh(("overlay",))

    # --- board events -------------------------------------------------------------------
    @guarded
    def on_board_click(self, h, x=0.0, y=0.0) -> None:
        s = self.state
        if s.over:
            self.say("The battle is over: see the Score tab.")
            return
        if s.pending is not None:
            self.say("First answer the choice in the panel on the right.", bad=True)
            return
        if h is None:
            return
        if s.phase == "friendly_move":
            self._click_move_phase(h)
        elif s.phase == "friendly_fire":
            self._click_fire_phase(h)

    def _own_here(self, h):
        mine = self.my_units()
        return [u for u in self.state.units_at(h) if u.id in mine]

    def _click_move_phase(self, h) -> None:
        dest = self._destinations()
        if h in dest:
            self.act(dest[h])
            return
        own = [u for u in self._own_here(h)]
        if own:
            ids = [u.id for u in own]
            nxt = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
            self.select(nxt)
            return
        if self.selected:
            u = self.state.units[self.selected]
            action = (
                Enter(self.seat, u.id, h, self.pending_facing if u.is_armour else None)
                if u.where == "off"
                else Move(self.seat, u.id, h, self.pending_facing if u.is_armour else None)
            )
            self.say(self.game.check(action) or "That move is legal.", bad=True)
            return
        self.say(f"{s_label(self.state, h)}: select one of your platoons first.")

    def _click_fire_phase(self, h) -> None:
        s = self.state
        if self.mode == "mortar":
            self._click_mortar(h)
            return
        own = [u for u in self._own_here(h) if u.fresh]
        if own and h not in s.enemy:
            added = next((u.id for u in own if u.id not in self.group), None)
            if added:
                self.group.append(added)
                self.selected = added
            else:
                self.group = [g for g in self.group if g not in {u.id for u in own}]
            self._show_fire_preview()
            return
        if h in s.enemy:
            self.target = h
            self._show_fire_preview()
            return
        self.say(
            f"{s_label(s, h)}: click your fresh platoons to gather firers, then an enemy counter."
        )

    def _show_fire_preview(self) -> None:
        s = self.state
        if self.target is not None and self.group:
            odds = fire_odds(s, self.target, self.group)
            self.odds_html.value = P.fire_odds_html(s, odds)
            reason = self.game.check(DeclareFire(self.seat, self.target, tuple(self.group)))
            if reason:
                self.say(reason, bad=True)
            else:
                self.say(
                    f"Firers {', '.join(self.group)} on {s.label(self.target)}: press Commit fire (f)."
                )
        elif self.group:
            self.odds_html.value = ""
            self.say(f"Firers: {', '.join(self.group)}. Now click an enemy counter.")
        else:
            self.odds_html.value = ""
            self.say("Click your fresh platoons to gather firers.")
        self._update_highlights()
        self.view.board.redraw("overlay")
        self._refresh_side()

    def _click_mortar(self, h) -> None:
        s = self.state
        inf = [u for u in s.units_at(h) if u.is_infantry and u.fresh]
        if inf and self.spotter is None:
            self.spotter = inf[0].id
            self.say(f"Spotter {self.spotter}. Now click the target hex.")
            return
        if self.spotter is None:
            self.say("Click the hex of a fresh infantry platoon to be the spotter first.", bad=True)
            return
        self.mortar_target = h
        action = CallMortar(self.seat, h, self.spotter, self.smoke_box.value)
        reason = self.game.check(action)
        self.odds_html.value = P.mortar_odds_html(s, mortar_odds(s, h), self.smoke_box.value)
        self.say(
            reason
            or f"{'Smoke' if self.smoke_box.value else 'Mortars'} on {s.label(h)}: press Call mortars.",
            bad=bool(reason),
        )
        self._update_highlights()
        self.view.board.redraw("overlay")
        self._refresh_side()

    @guarded
    def on_hover(self, h) -> None:
        s = self.state
        if h is None:
            self.hover_html.value = ""
            return
        text = s_label(s, h)
        if s.phase == "friendly_fire" and self.group and h in s.enemy and self.mode == "fire":
            odds = fire_odds(s, h, self.group)
            text += f": {odds.summary()}"
        self.hover_html.value = f'<div class="hx-panel"><small>{P.esc(text)}</small></div>'

    @guarded
    def on_key(self, key, shift=False, ctrl=False, meta=False) -> None:
        u = self.state.units.get(self.selected) if self.selected else None
        if key in ("ArrowLeft", "ArrowRight") and u is not None and u.is_armour:
            base = (
                self.pending_facing
                if self.pending_facing is not None
                else (u.facing if u.facing is not None else 4)
            )
            self.on_facing((base + (1 if key == "ArrowLeft" else -1)) % 6)
        elif key == "Escape":
            self.clear()
        elif key == "e":
            self.on_end_phase()
        elif key == "f":
            self.on_commit_fire()
        elif key == "m":
            self.mortar_toggle.value = "mortar"
        elif key == "w" and u is not None:
            self.on_withdraw()
        elif key == "x" and u is not None:
            self.on_exploit()
        elif key == "n":
            self._next_unit()

    def _next_unit(self) -> None:
        s = self.state
        ready = [
            uid
            for uid in sorted(self.my_units())
            if s.units[uid].fresh and s.units[uid].where in ("off", "board")
        ]
        if not ready:
            self.say("No fresh platoon left.")
            return
        i = (ready.index(self.selected) + 1) % len(ready) if self.selected in ready else 0
        self.select(ready[i])

    # --- buttons --------------------------------------------------------------------------
    def on_facing(self, corner) -> None:
        u = self.state.units.get(self.selected) if self.selected else None
        if u is None or not u.is_armour:
            self.say("Select one of your armour platoons first.", bad=True)
            return
        if self.state.phase == "friendly_fire":
            if corner is not None and corner != u.facing:
                self.act(Face(self.seat, u.id, corner))
                self._show_fire_preview()
            return
        self.pending_facing = corner
        self._update_highlights()
        self.view.board.redraw("overlay")
        self._refresh_side()
        n = len(self._destinations())
        self.say(
            f"{u.id} will face {ARROWS[corner] if corner is not None else 'as now'}: {n} hexes lit"
        )

    def on_withdraw(self) -> None:
        if self.selected:
            self.act(Withdraw(self.seat, self.selected))

    def on_exploit(self) -> None:
        if self.selected:
            self.act(Exploit(self.seat, self.selected))

    def on_commit_fire(self, keep_open: bool = False) -> None:
        if self.state.phase != "friendly_fire":
            return
        if self.target is None or not self.group:
            self.say("Gather firers and pick a target first.", bad=True)
            return
        if self.act(DeclareFire(self.seat, self.target, tuple(self.group), resolve=not keep_open)):
            rolls = [e.text for e in self.state.events if e.kind == "roll"][-len(self.group) :]
            self.group, self.target = [], None
            self.odds_html.value = (
                '<div class="hx-panel">' + "<br>".join(P.esc(r) for r in rolls) + "</div>"
            )
            self._update_highlights()
            self.view.board.redraw("overlay")
            self._refresh_side()

    def on_resolve(self) -> None:
        self.act(ResolveFire(self.seat))

    def on_mode(self, change) -> None:
        self.mode = change["new"]
        self.spotter, self.mortar_target = None, None
        self.say(
            "Mortar mode: click a fresh infantry platoon to spot, then the target hex."
            if self.mode == "mortar"
            else "Fire mode: gather firers, then click an enemy counter."
        )
        self._refresh_side()

    def on_call_mortar(self) -> None:
        if self.spotter is None or self.mortar_target is None:
            self.say("Choose a spotter and a target first.", bad=True)
            return
        if self.act(CallMortar(self.seat, self.mortar_target, self.spotter, self.smoke_box.value)):
            self.mortar_toggle.value = "fire"

    def on_end_phase(self) -> None:
        self.act(EndPhase(self.seat))

    def on_end_game(self) -> None:
        self.act(EndGame(self.seat))

    # --- game management (solitaire) ---------------------------------------------------------
    def replace_game(self, state) -> None:
        self.game = LocalGame(state)
        self.clear()
        self.last_enemy_events = []
        self.enemy_html.value = P.enemy_phase_html(state, [])
        self._scored_for = None
        self.seed_box.value = state.seed
        self.refresh()

    def _options(self) -> Options:
        return Options(easier_game=self.easier_box.value, auto_decisions=self.auto_box.value)

    def on_new_game(self) -> None:
        seed = self.seed_box.value
        if seed < 0:
            self.say("A seed is a whole number of 0 or more.", bad=True)
            return
        self.replace_game(new_game(seed, self._options()))
        self.say(f"New game from seed {seed}.")

    def on_scenario(self) -> None:
        name = self.scenario_pick.value
        pos = load_position(name)
        self.replace_game(new_game(self.seed_box.value, self._options(), position=pos))
        self.say(f"Scenario: {pos.title}. {pos.data['position'].get('notes', '')}")

    def on_position_upload(self) -> None:
        files = self.scenario_upload.value
        if not files:
            return
        f = files[0]
        try:
            pos = Position.from_text(bytes(f["content"]).decode("utf-8"), source=f["name"])
        except (PositionError, UnicodeDecodeError) as exc:
            self.say(str(exc), bad=True)
            return
        self.replace_game(new_game(self.seed_box.value, self._options(), position=pos))
        self.say(f"Position loaded from {f['name']}.")

    def on_save(self) -> None:
        data = json.dumps(record(self.state), indent=1)
        folder = pathlib.Path(
            os.environ.get("HEXCLASS_SAVES", pathlib.Path.home() / ".hexclass" / "saves")
        )
        folder.mkdir(parents=True, exist_ok=True)
        name = f"combined-arms-seed{self.state.seed}-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
        (folder / name).write_text(data)
        b64 = base64.b64encode(data.encode()).decode()
        self.save_link.value = (
            f'<a download="{name}" href="data:application/json;base64,{b64}">download {name}</a>'
            f" <small>(also saved in {P.esc(folder)})</small>"
        )
        self.say(f"Game saved: {name}")

    def on_load_upload(self) -> None:
        files = self.load_upload.value
        if not files:
            return
        f = files[0]
        try:
            state = replay(json.loads(bytes(f["content"]).decode("utf-8")), source=f["name"])
        except (RecordError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.say(f"{f['name']}: {exc}", bad=True)
            return
        self.replace_game(state)
        self.say(f"Loaded {f['name']}: turn {state.turn}, {len(state.actions)} actions replayed.")


def s_label(state, h) -> str:
    t = state.board.terrain[h].replace("_", " ")
    return f"{state.label(h)} ({t})"


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
    if problem:
        app.say(f"{problem}; a new game was diced instead", bad=True)
    return app


def start_from_query(app: GameApp, params: dict[str, str]) -> GameApp:
    """Point an already-built solitaire app at the game the page's address asks for.

    The solitaire page builds its app while a preheated kernel waits for a visitor, then
    only swaps the game in when the address (``?seed=``, ``?scenario=``) arrives.
    """
    seed_text = params.get("seed", "")
    seed = int(seed_text) if seed_text.isdigit() else app.state.seed
    scenario = params.get("scenario") or None
    if scenario:
        try:
            app.replace_game(new_game(seed, position=load_position(scenario)))
        except (FileNotFoundError, PositionError) as exc:
            app.replace_game(new_game(seed))
            app.say(f"{exc}; a new game was diced instead", bad=True)
    elif seed != app.state.seed:
        app.replace_game(new_game(seed))
    return app


def query_params() -> dict[str, str]:
    """The page's URL query under Voilà (waits for it with preheated kernels); {} elsewhere."""
    from urllib.parse import parse_qsl

    qs = os.environ.get("QUERY_STRING")
    if qs is None and os.environ.get("VOILA_PREHEAT") == "True":
        from voila.utils import get_query_string

        qs = get_query_string()
    return dict(parse_qsl(qs or ""))


__all__ = ["GameApp", "LocalGame", "solitaire_app", "query_params", "start_from_query"]
