"""The tabs under a :class:`~.ca_app.GameApp`'s board, and the solitaire game's management.

:class:`GameTabs` is the part of the app that builds and fills the tabs (the enemy phase
is the app's own): the game log as a filtered table, the score (now, projected, and the
turn-by-turn plot once the battle is over), and "Game & help": colours, shortcuts and, on
the solitaire page only, new game, scenario, position file, save and load. It is a base
class of ``GameApp`` and uses its widgets, controller and ``say``.
"""

from __future__ import annotations

import base64
import json

import ipywidgets as W

from hexclass.classroom.combined_arms import new_game
from hexclass.classroom.combined_arms.game import RecordError, parse_record, record, replay
from hexclass.classroom.combined_arms.positions import Position, PositionError
from hexclass.classroom.combined_arms.public import SealedDiceError
from hexclass.classroom.combined_arms.query import score_now
from hexclass.classroom.combined_arms.scenarios import load_position, scenario_names
from hexclass.classroom.combined_arms.state import Options
from hexclass.classroom.combined_arms.stats import per_turn

from . import ca_panels as P
from .ca_board import PALETTES
from .ca_controller import BoardController, LocalGame
from .coop_debrief import png_img

TABS = ["Enemy phase", "Game log", "Score", "Game & help"]


class GameTabs:
    """The log, score and game tabs of a :class:`~.ca_app.GameApp` (a base class of it)."""

    # --- the tabs: log and score ------------------------------------------------------------
    def _build_tabs(self) -> None:
        """The tabs under the board. Only the first (the enemy phase) is on the first
        screen; the others are built the first time they are opened (``_tab``), so a page
        sends their widgets only to a student who looks at them. The solitaire page's
        game controls are built at once (the page's address may set its seed)."""
        self._tab_builders = {1: self._log_tab, 2: self._score_tab, 3: self._game_controls}
        children = [self.enemy_html]
        for i in (1, 2, 3):
            if i == 3 and self.solitaire:
                children.append(self._tab_builders.pop(i)())
            else:
                children.append(self.kit.html())  # an empty page until the tab is opened
        self.tabs = self.kit.make(W.Tab, children=children, titles=TABS)
        self.tabs.observe(lambda ch: self._safe(self._refresh_tabs), names="selected_index")

    def _tab(self, i: int) -> None:
        """Build tab ``i``'s page if it has not been built yet."""
        build = self._tab_builders.pop(i, None)
        if build is None:
            return
        children = list(self.tabs.children)
        empty, children[i] = children[i], build()
        self.tabs.children = children
        self.kit.close([empty])

    def _log_tab(self):
        k = self.kit
        self.log_kind = k.make(W.Dropdown, options=["all"], description="Show:", layout={"width": "200px"})  # fmt: skip
        self.log_text = k.make(W.Text, placeholder="search the log", layout={"width": "220px"})
        self.log_kind.observe(lambda _: self._refresh_log(), names="value")
        self.log_text.observe(lambda _: self._refresh_log(), names="value")
        self.log_html = k.html()
        return k.vbox([k.hbox([self.log_kind, self.log_text]), self.log_html])

    def _score_tab(self):
        self.score_html = self.kit.html()
        self.score_plot = self.kit.html()  # an image: seat pages have no Output widget
        return self.kit.vbox([self.score_html, self.score_plot])

    def _game_controls(self):
        k = self.kit
        self.palette_pick = k.make(
            W.ToggleButtons,
            options=list(PALETTES),
            value=self.view.palette_name,
            description="Colours:",
        )
        self.palette_pick.observe(lambda ch: self._set_palette(ch["new"]), names="value")
        parts = [self.palette_pick, k.html(P.shortcuts_html())]
        if not self.solitaire:
            # A seat page builds no seed field and no save/new/load/scenario controls: a
            # widget that exists sends its value to the browser and answers comm messages
            # even when hidden, and a seat may not see the seed or rewrite the game.
            return k.vbox(parts)
        self.seed_box = W.IntText(
            value=self.state.seed, description="Seed:", layout=W.Layout(width="180px")
        )
        self.easier_box = W.Checkbox(
            description="easier game (no -1 per turn after 18)", indent=False
        )
        self.auto_box = W.Checkbox(
            description="let the engine make the commander's small choices", indent=False
        )
        new = self._button(
            "New game", "dice a new board from this seed", lambda _: self.on_new_game(), "success"
        )
        names = scenario_names()
        self.scenario_pick = W.Dropdown(
            options=names or ["(none)"], description="Scenario:", layout=W.Layout(width="380px")
        )
        start = self._button(
            "Start scenario", "set up the chosen rulebook position", lambda _: self.on_scenario()
        )
        self.scenario_upload = W.FileUpload(accept=".toml", description="Position file (.toml)")
        self.scenario_upload.observe(lambda ch: self._safe(self.on_position_upload), names="value")
        save = self._button(
            "Save game",
            "make a file of the game (seed and actions) to download to this computer",
            lambda _: self.on_save(),
        )
        self.save_link = k.html()
        self.load_upload = W.FileUpload(accept=".json", description="Load a saved game (.json)")
        self.load_upload.observe(lambda ch: self._safe(self.on_load_upload), names="value")
        return k.vbox(
            [
                k.hbox([self.seed_box, new]),
                self.easier_box,
                self.auto_box,
                k.hbox([self.scenario_pick, start]),
                self.scenario_upload,
                k.hbox([save, self.save_link]),
                k.html(
                    "<small>Saves go to your own computer (your browser's downloads); "
                    "load one back with the button below.</small>"
                ),
                self.load_upload,
                *parts,
            ]
        )

    def _set_palette(self, name: str) -> None:
        self.view.set_palette(name)
        if self.legend_button.value:
            self.legend_html.value = P.legend_html(self.view.pal)

    def _refresh_tabs(self) -> None:
        self._tab(self.tabs.selected_index)  # opened for the first time: built now
        self._refresh_log()
        self._refresh_score()

    def _refresh_log(self) -> None:
        """Filter the event log as a pandas DataFrame; built only while its tab is open."""
        if self.tabs.selected_index != 1:
            return
        self._tab(1)
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
            if self.tabs.selected_index != 2:
                return  # counted only while its tab is open
            self._tab(2)
            now = score_now(s)
            self.score_html.value = (
                '<div class="hx-panel"><b>Score now</b>: counted on what is known — the turns '
                "played and the enemy counters already revealed (the rest are tested when the "
                "battle ends)."
                + P.score_html(now).replace("<h3>", "<h4>").replace("</h3>", "</h4>")
                + self._projection()
                + "</div>"
            )
            return
        if self._scored_for == len(s.actions):
            return
        self._scored_for = len(s.actions)
        self._tab(2)
        self.score_html.value = P.score_html(s.result)
        self.score_plot.value = self._plot_turns()
        self.tabs.selected_index = 2

    def _projection(self) -> str:
        """Expected score were the battle ended now (exact reveal odds; CA "Victory").

        Shown where it is allowed: the solitaire page, whose only hidden thing is the dice.
        A seat page does not show it (the instructor's console may); with a live defender
        (CA p.7) the reveals follow a secret deployment, so there is no projection.
        """
        if not self.solitaire:
            return ""
        try:
            from hexclass.classroom.combined_arms.outlook import end_value

            mean, win = end_value(self.state)
        except Exception:  # noqa: BLE001 - e.g. the enemy-player variant refuses
            return ""
        return (
            f"<p><b>If you ended the battle now</b>: expected score {mean:.1f}, chance of a "
            f'win {win:.0%} (the final reveal tests rolled exactly, CA "Victory").</p>'
        )

    def _plot_turns(self) -> str:
        """Losses and breaks per turn, as a PNG in the Score tab's HTML (seat pages run on
        hexclass' own front end, which has no Output widget: ``frontend/README.md``)."""
        import pandas as pd
        from matplotlib.figure import Figure

        try:
            df = pd.DataFrame(per_turn(self.state))
        except SealedDiceError:  # a seat: the instructor's debrief charts the battle
            return (
                "<p class='hx-note'>The turn-by-turn chart of this battle is on the "
                "instructor's debrief: a seat's copy of the game cannot replay it.</p>"
            )
        if df.empty:
            return ""
        fig = Figure(figsize=(7, 3), layout="tight")
        ax = fig.subplots()
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
        return png_img(
            fig, "infantry losses, your platoons and enemy counters broken per turn", "turns"
        )

    # --- game management (solitaire) --------------------------------------------------------
    def replace_game(self, state) -> None:
        seat_titles = self.ctl.seat_titles
        self.ctl = BoardController(LocalGame(state), self.seat)
        self.ctl.seat_titles = seat_titles
        self.last_enemy_events = []
        self.view.hl.shots = []
        self.enemy_html.value = P.enemy_phase_html(state, [])
        self._scored_for = None
        if hasattr(self, "seed_box"):
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
        self.say(f"Scenario: {pos.title}.")

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
        """The saved game goes to the player's own browser as a download, never a server folder."""
        data = json.dumps(record(self.state), indent=1)
        name = f"combined-arms-seed{self.state.seed}-turn{self.state.turn}.json"
        b64 = base64.b64encode(data.encode()).decode()
        self.save_link.value = (
            f'<a class="hx-save" download="{name}" href="data:application/json;base64,{b64}">'
            f"download {name}</a>"
        )
        self.say(f"Game ready to save: click 'download {name}' to keep it on this computer.")

    def on_load_upload(self) -> None:
        files = self.load_upload.value
        if not files:
            return
        f = files[0]
        try:
            state = replay(
                parse_record(bytes(f["content"]), f["name"]), source=f["name"], check_summary=True
            )
        except RecordError as exc:  # not UTF-8, not JSON, a bad field: named in the message
            self.say(f"{f['name']}: {exc}", bad=True)
            return
        self.replace_game(state)
        self.say(f"Loaded {f['name']}: turn {state.turn}, {len(state.actions)} actions replayed.")
