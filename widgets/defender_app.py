"""The page where a learner commands the defenders against the attacker bot (CA p.7).

It draws a :class:`~hexclass.classroom.combined_arms.defender_game.DefenderGame` on the usual
board and turns clicks into the defender's actions: the secret deployment (every
balancing constraint checked live, each refusal naming its rule), then each enemy
phase's choices (reveals, armour and infantry targets, mortars or holding fire) with the
exact odds the engine gives and what the solitaire AI would have chosen.
"""

from __future__ import annotations

import html
import traceback

import ipywidgets as W

from hexclass.classroom.combined_arms.actions import ChooseReveals
from hexclass.classroom.combined_arms.defender_game import BOTS, DefenderGame
from hexclass.classroom.combined_arms.units import POTENTIAL

from .ca_board import CABoardView

LOG_LINES = 14
STYLE = """<style>
.hx-defender-side p, .hx-defender-side li { font-size: 13px; line-height: 1.35; margin: 2px 0; }
.hx-defender-log { font-size: 12px; line-height: 1.3; color: #333; }
</style>"""


class DefenderApp:
    """Widgets over one :class:`DefenderGame`; ``app.widget`` is what the page shows."""

    def __init__(self, game: DefenderGame) -> None:
        self.game = game
        self.errors: list[str] = []
        self.reveal_pick: set = set()
        self.view = CABoardView(hex_size=34)
        self.view.board.on_click(self._clicked)
        self.heading = W.HTML()
        self.intro = W.HTML()
        self.message = W.HTML()
        self.mode = W.ToggleButtons(
            options=["real platoon", "real ATG"],
            value="real platoon",
            description="Click marks:",
            tooltips=[
                "mark or unmark a real platoon",
                "add or remove a real ATG on a real platoon",
            ],
            style={"button_width": "110px"},
        )
        self.problems = W.HTML()
        wide = W.Layout(width="auto")
        self.suggest = W.Button(description="Suggest a deployment", layout=wide)
        self.undo = W.Button(description="Undo", layout=wide)
        self.clear = W.Button(description="Clear", layout=wide)
        self.deploy = W.Button(description="Deploy in secret", button_style="primary", layout=wide)
        self.next_step = W.HTML(
            "<p style='color:#555'>After <i>Deploy in secret</i> the attackers see only "
            "potential counters. They move and fire first; you answer in each enemy phase "
            "(reveals, targets, mortars).</p>"
        )
        self.deploy_box = W.VBox(
            [
                self.mode,
                self.problems,
                W.HBox([self.deploy, self.suggest, self.undo, self.clear]),
                self.next_step,
            ]
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
        self.log = W.HTML(layout=W.Layout(max_height="150px", overflow="auto"))
        self.log.add_class("hx-defender-log")
        side = W.VBox(
            [self.deploy_box, self.play_box, self.message, self.intro],
            layout=W.Layout(width="420px", min_width="320px", flex="0 0 420px"),
        )
        side.add_class("hx-defender-side")
        # the board keeps its size whatever the side panel holds: the row does not stretch
        # the canvas to the panel's height (clicks would land on the wrong hexes)
        board = W.VBox(
            [self.view.widget, self.log], layout=W.Layout(flex="0 1 820px", min_width="0")
        )
        self.widget = W.VBox(
            [
                W.HTML(STYLE),
                self.heading,
                W.HBox([board, side], layout=W.Layout(align_items="flex-start")),
            ],
            layout=W.Layout(width="100%"),
        )
        self.undo.on_click(lambda _b: self._safe(self._undo))
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
        self.game.clear()
        self.say("Every mark is cleared (Undo brings them back).")

    def _undo(self) -> None:
        self.say("" if self.game.undo() else "Nothing to undo.")

    def _deploy(self) -> None:
        verdict = self.game.deploy()
        if not verdict:
            self.say(verdict.reason, bad=True)
            return
        self.say("Deployed in secret. The attackers see only potential counters.")
        self._play_on()

    def _play_on(self) -> None:
        before = len(self.game.state.events)
        n = self.game.run_attacker()
        if n:
            moved = _attacker_lines(self.game.state.events[before:])
            self.say(f"The attacker took {n} actions" + (f": {moved}" if moved else "."))

    def choose(self, action) -> None:
        verdict = self.game.submit(action)
        if not verdict:
            self.say(verdict.reason, bad=True)
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
        self.heading.value = (
            f"<h3>You command the defenders against {html.escape(g.opponent)} — "
            f"turn {s.turn}: {html.escape(defender_phase(g))}</h3>"
        )
        self.deploy_box.layout.display = "" if stage == "deploy" else "none"
        self.play_box.layout.display = "none" if stage == "deploy" else ""
        self.intro.value = _intro(g)
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
        hl.note_hexes = {h: ("PLT+ATG" if h in g.atgs else "PLT") for h in g.platoons}
        problems = g.problems()
        items = "".join(f"<li>{html.escape(str(p))}</li>" for p in problems)
        self.problems.value = (
            f"<p>Placed: <b>{len(g.platoons)}</b> of {t.platoons} real platoons, "
            f"<b>{len(g.atgs)}</b> of {t.atgs} real ATGs. <i>PLT</i> marks a real platoon, "
            "<i>PLT+ATG</i> a real platoon with its real ATG (an ATG stands only with a "
            "real platoon, CA p.7).</p>"
            + (f"<ul>{items}</ul>" if items else "<p>Every constraint is met.</p>")
        )
        self.deploy.disabled = bool(problems)
        self.undo.disabled = not g._history

    def _draw_play(self) -> None:
        g, s, hl = self.game, self.game.state, self.view.hl
        secret = s.secret
        hl.note_hexes = {
            h: "real"
            for h, p in s.enemy.items()
            if secret and p.platoon == POTENTIAL and h in secret.platoons
        }
        stage = g.stage
        self.play_on.layout.display = "" if stage == "attacker" and g.has_bot else "none"
        if stage == "over":
            self.prompt.value = _verdict(s.result) + f"<pre>{html.escape(str(s.result))}</pre>"
            self.choices.children = ()
            self.hint.value = ""
            return
        if stage != "defender":
            wait = (
                "Press <i>Let the attacker play</i> to see their moves."
                if g.has_bot
                else "Their moves appear on the board as they make them; wait for your enemy phase."
            )
            self.prompt.value = f"<p>{html.escape(defender_phase(g))}. {wait}</p>"
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


ATTACKER_PHASES = {
    "friendly_move": "The attackers are moving",
    "friendly_fire": "The attackers are firing",
    "recovery": "Counters recover",
}


def defender_phase(g: DefenderGame) -> str:
    """The phase as the defender lives it."""
    s, stage = g.state, g.stage
    if stage == "deploy":
        return "place your real counters in secret"
    if stage == "over":
        return "the game is over"
    if stage == "bidding":
        return "the players bid for the defenders"
    if stage == "defender":
        return "your enemy phase: reveals, targets, mortars"
    return ATTACKER_PHASES.get(s.phase, "The attackers are acting")


def _intro(g: DefenderGame) -> str:
    if g.stage == "deploy":
        return (
            "<p>You play the defence of CA p.7's enemy-player variant. Your counters start "
            "as <i>potential</i> counters: the attackers cannot tell which are real. Click "
            "the lit counters to choose which are your real platoons, then add your real "
            "ATGs on some of them. Dummies vanish when an attacker comes next to them; real "
            "ones stay hidden until they fire or you reveal them.</p>"
            f"<p><b>Your secret forces.</b> {html.escape(g.forces_text())}</p>"
        )
    if g.stage == "defender":
        return (
            "<p>Your enemy phase. Hidden real counters keep a +1 against the attackers' "
            "fire; revealed ones may fire. Choose below; the odds are the engine's.</p>"
        )
    return ""


def _verdict(result) -> str:
    """The end as the defender reads it: the attackers' score against what they needed."""
    from hexclass.classroom.combined_arms.victory import WIN

    if result is None:
        return ""
    who = "the attackers win" if result.won else "your defence holds: you win"
    return (
        f"<p><b>The game is over: {who}.</b> The attackers scored {result.total} points "
        f'(their handicap bonus included); they needed {WIN} (CA "Victory", CA p.7).</p>'
    )


def _attacker_lines(events) -> str:
    """What the attackers did, from the engine's events (moves and fire), in short."""
    lines = [e.text for e in events if e.kind in ("move", "fire", "roll")]
    return "; ".join(lines[-4:])


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
