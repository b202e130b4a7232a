"""The page where a learner commands the defenders against the attacker bot (CA p.7).

It draws a :class:`~classroom.combined_arms.defender_game.DefenderGame` on the usual
board and turns clicks into the defender's actions: the secret deployment (every
balancing constraint checked live, each refusal naming its rule), then each enemy
phase's choices (reveals, armour and infantry targets, mortars or holding fire) with the
exact odds the engine gives and what the solitaire AI would have chosen.
"""

from __future__ import annotations

import html
import traceback

import ipywidgets as W

from classroom.combined_arms.actions import ChooseReveals
from classroom.combined_arms.defender_game import BOTS, DefenderGame
from classroom.combined_arms.sequence import title
from classroom.combined_arms.units import POTENTIAL

from .ca_board import CABoardView

LOG_LINES = 14


class DefenderApp:
    """Widgets over one :class:`DefenderGame`; ``app.widget`` is what the page shows."""

    def __init__(self, game: DefenderGame) -> None:
        self.game = game
        self.errors: list[str] = []
        self.reveal_pick: set = set()
        self.view = CABoardView(hex_size=34)
        self.view.board.on_click(self._clicked)
        self.heading = W.HTML()
        self.message = W.HTML()
        self.mode = W.ToggleButtons(
            options=["real platoon", "real ATG"],
            value="real platoon",
            description="Click marks:",
            style={"button_width": "110px"},
        )
        self.problems = W.HTML()
        wide = W.Layout(width="auto")
        self.suggest = W.Button(description="Suggest a deployment", layout=wide)
        self.clear = W.Button(description="Clear", layout=wide)
        self.deploy = W.Button(description="Deploy in secret", button_style="primary", layout=wide)
        self.deploy_box = W.VBox(
            [self.mode, self.problems, W.HBox([self.deploy, self.suggest, self.clear])]
        )
        self.prompt = W.HTML()
        self.choices = W.VBox()
        self.hint = W.HTML()
        self.play_on = W.Button(
            description="Let the attacker play",
            button_style="primary",
            layout=W.Layout(width="auto"),
        )
        self.play_box = W.VBox([self.prompt, self.choices, self.hint, self.play_on])
        self.log = W.HTML(layout=W.Layout(max_height="260px", overflow="auto"))
        side = W.VBox(
            [self.deploy_box, self.play_box, self.message, self.log],
            layout=W.Layout(width="380px", min_width="320px"),
        )
        self.widget = W.VBox(
            [self.heading, W.HBox([self.view.widget, side])], layout=W.Layout(width="100%")
        )
        self.suggest.on_click(lambda _b: self._safe(self._suggest))
        self.clear.on_click(lambda _b: self._safe(self._clear))
        self.deploy.on_click(lambda _b: self._safe(self._deploy))
        self.play_on.on_click(lambda _b: self._safe(self._play_on))
        self.refresh()

    # --- handlers -----------------------------------------------------------------------
    def _safe(self, fn, *args) -> None:
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 - the page never shows a traceback
            self.errors.append(traceback.format_exc())
            self.say(f"Something went wrong: {exc}", bad=True)
        self.refresh()

    def _clicked(self, h, _x=None, _y=None) -> None:
        self._safe(self.click, h)

    def click(self, h) -> None:
        """A click on the board: mark a post while deploying, pick a reveal in play."""
        g = self.game
        if h is None:
            return
        if g.stage == "deploy":
            why = g.toggle(h, atg=self.mode.value == "real ATG")
            self.say(str(why) if why else "", bad=why is not None)
        elif g.stage == "defender" and g.state.pending.kind == "reveals":
            if h not in g.state.pending.options:
                self.say(
                    f"{g.state.label(h) if h in g.state.board.hex_set else h} is not one of "
                    "your hidden real counters",
                    bad=True,
                )
            else:
                self.reveal_pick ^= {h}
        else:
            self.say("")

    def _suggest(self) -> None:
        self.game.suggest_deployment()
        self.say("A legal deployment picked at random; change it as you like.")

    def _clear(self) -> None:
        self.game.platoons.clear()
        self.game.atgs.clear()

    def _deploy(self) -> None:
        why = self.game.deploy()
        if why:
            self.say(str(why), bad=True)
            return
        self.say("Deployed. The attackers see only potential counters.")
        self._play_on()

    def _play_on(self) -> None:
        n = self.game.run_attacker()
        if n:
            self.say(f"The attacker took {n} actions.")

    def choose(self, action) -> None:
        why = self.game.choose(action)
        if why:
            self.say(str(why), bad=True)
            return
        self.reveal_pick = set()
        self.say("")
        self._play_on()

    # --- drawing ------------------------------------------------------------------------
    def say(self, text: str, bad: bool = False) -> None:
        colour = "#b3261e" if bad else "#1b5e20"
        self.message.value = (
            f'<div style="color:{colour}">{html.escape(text)}</div>' if text else ""
        )

    def refresh(self) -> None:
        g, s = self.game, self.game.state
        stage = g.stage
        phase = title(s.phase) if s.phase in ("deployment", "over") or s.phase else s.phase
        self.heading.value = (
            f"<h3>Defender vs the {g.bot_name} attacker — turn {s.turn}, {html.escape(phase)}</h3>"
        )
        self.deploy_box.layout.display = "" if stage == "deploy" else "none"
        self.play_box.layout.display = "none" if stage == "deploy" else ""
        hl = self.view.hl
        hl.destinations = set()
        hl.note_hexes = {}
        if stage == "deploy":
            self._draw_deployment()
        else:
            self._draw_play()
        self.view.show(s)
        self.log.value = "<br>".join(
            html.escape(f"T{e.turn} {e.text}") for e in s.events[-LOG_LINES:]
        )

    def _draw_deployment(self) -> None:
        g, hl = self.game, self.view.hl
        t = g.targets()
        hl.destinations = set(g.field.platoon_hexes)
        hl.note_hexes = {h: ("REAL+AT" if h in g.atgs else "REAL") for h in g.platoons}
        problems = g.problems()
        items = "".join(f"<li>{html.escape(str(p))}</li>" for p in problems)
        self.problems.value = (
            f"<p>You have <b>{t.platoons}</b> real platoons and <b>{t.atgs}</b> real ATGs to "
            f"place on the lit potential counters (CA p.7).</p>"
            + (f"<ul>{items}</ul>" if items else "<p>Every constraint is met.</p>")
        )
        self.deploy.disabled = bool(problems)

    def _draw_play(self) -> None:
        g, s, hl = self.game, self.game.state, self.view.hl
        secret = s.secret
        hl.note_hexes = {
            h: "real"
            for h, p in s.enemy.items()
            if secret and p.platoon == POTENTIAL and h in secret.platoons
        }
        stage = g.stage
        self.play_on.layout.display = "" if stage == "attacker" else "none"
        if stage == "over":
            self.prompt.value = f"<pre>{html.escape(str(s.result))}</pre>"
            self.choices.children = ()
            self.hint.value = ""
            return
        if stage != "defender":
            self.prompt.value = "<p>The attackers are to act.</p>"
            self.choices.children = ()
            self.hint.value = ""
            return
        p = s.pending
        self.prompt.value = f"<p><b>{html.escape(p.prompt)}</b> <i>({html.escape(p.rule)})</i></p>"
        options = g.options()
        hl.destinations = {h for o in options for h in o.hexes}
        if p.kind == "reveals":
            hl.note_hexes.update({h: "REVEAL" for h in self.reveal_pick})
            confirm = W.Button(
                description=f"Reveal {len(self.reveal_pick)} and go on", button_style="primary"
            )
            confirm.on_click(
                lambda _b: self._safe(
                    self.choose, ChooseReveals(self.game.seat, tuple(sorted(self.reveal_pick)))
                )
            )
            notes = W.HTML("<br>".join(html.escape(f"{o.label}: {o.odds}") for o in options))
            self.choices.children = (
                W.HTML("Click hidden real counters to reveal them."),
                notes,
                confirm,
            )
        else:
            buttons = []
            for o in options:
                b = W.Button(description=o.label, tooltip=o.odds, layout=W.Layout(width="auto"))
                b.on_click(lambda _b, a=o.action: self._safe(self.choose, a))
                buttons.append(W.HBox([b, W.HTML(html.escape(o.odds))]))
            self.choices.children = tuple(buttons)
        hint = g.hint()
        self.hint.value = f"<p style='color:#555'>The solitaire AI would choose: {html.escape(_describe(g, hint))}</p>"


def _describe(g: DefenderGame, action) -> str:
    for o in g.options():
        if o.action == action:
            return o.label
    if isinstance(action, ChooseReveals):
        names = ", ".join(g.state.label(h) for h in action.hexes)
        return f"reveal {names}" if names else "reveal nothing"
    return str(action)


def defender_page(params: dict[str, str]) -> DefenderApp:
    """The app for ``?seed=&bot=&handicap=``; a bad value is named on the page."""
    import secrets

    problems = []
    seed_text = params.get("seed", "")
    seed = secrets.randbits(63)
    if seed_text:
        if seed_text.isdigit():
            seed = int(seed_text)
        else:
            problems.append(f"seed={seed_text!r} is not a whole number; a random board was dealt")
    bot = params.get("bot", "bold")
    if bot not in BOTS:
        problems.append(f"bot={bot!r} is not one of {', '.join(BOTS)}; playing bold")
        bot = "bold"
    handicap_text = params.get("handicap", "0")
    handicap = int(handicap_text) if handicap_text.isdigit() else 0
    if not handicap_text.isdigit():
        problems.append(f"handicap={handicap_text!r} is not a whole number; 0 is used")
    app = DefenderApp(DefenderGame(seed, bot, handicap))
    if problems:
        app.say("; ".join(problems), bad=True)
    return app
