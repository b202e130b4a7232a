"""The coach panel: a *Suggest* button on the board, and a review after the game.

Mounted under a :class:`~hexclass.widgets.ca_app.GameApp`'s controls with :func:`mount_coach`
(solitaire and co-op seat pages alike). *Suggest* asks the bot ``best``
(:func:`hexclass.classroom.combined_arms.bots.coach.suggest`) for the best next orders of this
seat, with the odds and the reasons in plain words and rule sections; *Show on board*
selects the first suggested platoon. After the game, *Review my game* marks the turns
where the player's choice was far below the bot's in expected final score.

The coach works on planning copies in this kernel: what the page receives is the text
below the button, never the game's dice or seed.
"""

from __future__ import annotations

import html

from hexclass.classroom.combined_arms.game import record

from .lean import Kit

SUGGEST_SECONDS = 1.2  # thinking budget per suggestion (the target is p95 <= 2 s)


class CoachPanel:
    """Suggest / Review buttons and the coach's words, for one GameApp."""

    def __init__(self, app, seconds: float = SUGGEST_SECONDS) -> None:
        self.app = app
        self.seconds = seconds
        self.last = None
        self.reviewed = None
        self.memory = None  # the coach's CoachMemory, made at the first Suggest
        k = getattr(app, "kit", None) or Kit()  # the board's shared layouts and styles
        self.suggest_button = k.button(
            "Suggest", "the best next orders for your platoons, with odds and reasons"
        )
        self.review_button = k.button(
            "Review my game", "after the game: the turns where another choice was worth much more"
        )
        self.text = k.html()
        self.suggest_button.on_click(lambda _b: self.on_suggest())
        self.review_button.on_click(lambda _b: self.on_review())
        self.widget = k.vbox(
            [
                k.html("<b>Coach</b> <small>(the bot, planning on copies of the game)</small>"),
                k.hbox([self.suggest_button, self.review_button]),
                self.text,
            ],
            layout={"border": "1px solid #ddd", "padding": "6px", "margin": "8px 0 0 0"},
        )
        self.widget.add_class("hexclass-coach")

    def on_suggest(self) -> None:
        self.suggest_button.disabled = True
        self.text.value = "<i>thinking…</i>"
        try:
            from hexclass.classroom.combined_arms.bots.coach import (
                suggest,  # the bot: 0.4 s to
            )
            # import, paid by the first Suggest rather than by every page's kernel start

            if self.memory is None:
                from hexclass.classroom.combined_arms.bots.coach import CoachMemory

                self.memory = CoachMemory()  # the attacker's memory of this game
            s = suggest(self.app.state, self.app.seat, seconds=self.seconds, memory=self.memory)
            self.last = s
            self.text.value = render_suggestion(s)
            first = next((o.action for o in s.orders if getattr(o.action, "unit", None)), None)
            if first is not None and first.unit in self.app.my_units():
                self.app.select(first.unit)
        except Exception as exc:  # noqa: BLE001 - the page shows the problem, never a traceback
            self.text.value = f"<span style='color:#b00'>The coach could not think: {html.escape(str(exc))}</span>"
        finally:
            self.suggest_button.disabled = False

    def on_review(self) -> None:
        state = self.app.state
        if not state.over:
            self.text.value = "<i>Review works once the game is over.</i>"
            return
        self.review_button.disabled = True
        self.text.value = "<i>replaying your game turn by turn…</i>"
        try:
            from hexclass.classroom.combined_arms.bots.coach import review

            marks = review(record(state))
            self.reviewed = marks
            self.text.value = render_review(marks)
        finally:
            self.review_button.disabled = False


def render_suggestion(s) -> str:
    """The suggestion as a short HTML list: headline, orders with why, what it waits for."""
    esc = html.escape
    items = "".join(f"<li><b>{esc(o.text)}</b>: {esc(o.why)}</li>" for o in s.orders)
    waits = "".join(f"<li>{esc(w)}</li>" for w in s.waits)
    out = (
        "<div class='hx-coach' style='overflow-wrap:break-word; word-break:normal; line-height:1.4; "
        f"hyphens:manual; min-width:16em'><p>{esc(s.headline)}</p>"
    )
    if s.why:
        out += f"<p><b>Why</b>: {esc(s.why)}</p>"
    if items:
        out += f"<ol>{items}</ol>"
    if waits:
        out += f"<p><small>What the plan waits for:</small></p><ul>{waits}</ul>"
    out += f"<p><small>({s.seconds:.1f} s of thought)</small></p></div>"
    return out


def render_review(marks) -> str:
    if not marks:
        return "<p>No turn was far below the bot's choice (1.5 points or more). Well played.</p>"
    from hexclass.classroom.combined_arms.bots.coach import plan_name  # loaded with review

    rows = "".join(
        f"<li>Turn {m.turn}: you {html.escape(m.player_did)} (worth {m.player_value:.1f}); "
        f"the bot's choice, {html.escape(plan_name(m.bot_plan))}, was worth {m.bot_value:.1f} "
        f"(<b>{m.shortfall:+.1f}</b> expected points)</li>"
        for m in marks
    )
    return f"<p>Turns that cost most in expected final score:</p><ul>{rows}</ul>"


def mount_coach(app, seconds: float = SUGGEST_SECONDS) -> CoachPanel:
    """Add the coach panel under the app's controls; returns it."""
    panel = CoachPanel(app, seconds)
    app.add_side_panel(panel.widget)
    app.coach = panel
    return panel


__all__ = ["CoachPanel", "mount_coach", "render_suggestion", "render_review"]
