"""The defender's-mind lesson: the AI defender seen from its own side.

:class:`DefenderLab` shows a live position as the engine will weigh it when the enemy
phase starts (:func:`at_enemy_phase`: your mortars landed, your spent platoons
recovered, CA "Sequence of Play"): the order in which the posts activate, the reveal
tests an activation makes (:func:`tests_on_activation`, the engine's
``enemy.reveal_triggers``), each post's payoffs and chosen cluster (``enemy.best_clusters``), its chance
against armour and the enemy mortars. A platoon can be moved to another hex as a
what-if; *Play the enemy phase* lets the engine play it on a copy and lists its log.
Nothing here works out a rule: every number is the engine's.
"""

from __future__ import annotations

import ipywidgets as W

from hexclass.classroom.combined_arms.odds import enemy_fire_on_armour
from hexclass.classroom.combined_arms.scenarios import start

from .ca_board import CABoardView
from .ca_lessons import moved, pct
from .lesson_kit import CSS, esc, table_html

# --- the defender's mind -------------------------------------------------------------------------------

DEFENDER_POSITIONS = {
    "Figure 7: mortars and revealing": "figure7-mortars-and-revealing",
    "Figure 6: fire combat": "figure6-fire-combat",
    "Sample game, turn 11: the fire lane": "sample-turn11-fire-lane",
    "Sample game, turn 15: tanks at risk": "sample-turn15-tanks-at-risk",
}
ENEMY_EVENT_KINDS = ("roll", "ai", "enemy", "losses", "break")


def post_status(post) -> str:
    parts = [f"platoon {post.platoon or 'gone'}"]
    if post.atg is not None:
        parts.append(f"ATGs {post.atg}")
    parts.append("fresh" if post.fresh else "spent")
    return ", ".join(parts)


def at_enemy_phase(state):
    """A copy of ``state`` that the engine has played, with the same dice, up to the start
    of this turn's enemy phase: your mortars have landed and your spent platoons have
    recovered (CA "Sequence of Play"). The enemy posts weigh this position."""
    from hexclass.classroom.combined_arms import EndPhase, apply
    from hexclass.classroom.combined_arms.engine import run_agenda
    from hexclass.classroom.combined_arms.sequence import engine_steps_after

    game = state.copy()
    if game.phase == "friendly_move":
        apply(game, EndPhase(next(iter(game.seats))))
    steps = engine_steps_after("friendly_fire", game.turn)
    game.agenda.extend(steps[: steps.index(("phase", "enemy")) + 1])
    run_agenda(game)
    return game


def tests_on_activation(state, h) -> dict[str, dict]:
    """What the engine tests when the post in ``h`` activates now: ``{"platoon": weighed,
    "atg": weighed}`` for each counter it would roll for, with the numbers it compared
    (``enemy.reveal_triggers``, CA "Enemy Decisions")."""
    from hexclass.classroom.combined_arms import enemy

    return {k: t.weighed for k, t in enemy.reveal_triggers(state, h).items()}


def _test_reason(weighed: dict, unit: str) -> str:
    if weighed.get("adjacent"):
        return "your platoons are adjacent"
    if "payoff" in weighed:
        return f"best payoff {weighed['payoff']}, the test comes at {weighed['threshold']} or more"
    if "chances" in weighed:
        return (
            f"real ATGs would have {weighed['chances']} in 6 against your best-placed armour, "
            f"the test comes at {weighed['threshold']} or more"
        )
    return unit


def reveal_lines(state, h) -> list[str]:
    """The reveal tests an activation would make here, as the engine makes them, with
    the engine's chances. ``state`` is the position as the enemy phase starts."""
    from hexclass.classroom.combined_arms import enemy
    from hexclass.classroom.combined_arms.odds import reveal_odds

    post = state.enemy[h]
    odds = reveal_odds(state, h)
    if not odds:
        return ["Nothing left to reveal: the counters here are already real."]
    tested = tests_on_activation(state, h)
    out = []
    for key, name in (("platoon", "Platoon"), ("atg", "ATGs")):
        if key not in odds:
            continue
        o = odds[key]
        if key in tested:
            why = _test_reason(tested[key], "")
        elif not post.fresh:
            why = "it is spent, so it only recovers"
        elif key == "platoon":
            why = (
                f"best payoff {enemy.best_payoff(state, h)}, under the "
                f"{enemy.PAYOFF_REVEAL} that brings a test"
            )
        else:
            c = enemy.best_armour_chance(state, h, with_atg=True)
            why = (
                f"real ATGs would have {c} in 6 against your best-placed armour, under the "
                f"{enemy.ATG_CHANCES_REVEAL} that brings a test"
            )
        mods = "; ".join(str(m) for m in o.modifiers) or "no modifiers"
        need = f", needing {o.need}+" if key == "platoon" else ""
        out.append(
            f"{name}: {'tested' if key in tested else 'not tested'} on activation ({why}); "
            f"real with {pct(o.probability)} ({o.probability}){need} ({mods})."
        )
    return out


def payoff_rows(state, h) -> tuple[list[list], list[str]]:
    """The engine's payoff for every hex of your infantry the post can hit, and the best
    clusters (CA "Enemy Decisions"). Pass :func:`at_enemy_phase` of a position: the
    enemy weighs your platoons after they have recovered."""
    from hexclass.classroom.combined_arms import enemy

    best, winners, pay = enemy.best_clusters(state, h)
    rows = [
        [
            state.board.label(x),
            p.platoon_points,
            f"{p.chances} in 6",
            "×3 (adjacent)" if p.adjacent else "×1",
            p.payoff,
        ]
        for x, p in sorted(pay.items(), key=lambda kv: -kv[1].payoff)
    ]
    clusters = [", ".join(state.board.label(x) for x in cl) + f" (total {best})" for cl in winners]
    return rows, clusters


class DefenderLab:
    """A live position seen from the defender's side: who activates in what order, what
    each post would test, which hexes it would fire at, and the mortars; then the engine
    plays the enemy phase on a copy and shows its logged reasons."""

    def __init__(self, hex_size: float = 30.0) -> None:
        self.position = W.Dropdown(
            options=list(DEFENDER_POSITIONS.items()),
            description="position",
            layout=W.Layout(width="360px"),
        )
        self.mover = W.Dropdown(
            description="move platoon", style={"description_width": "initial"}, options=[]
        )
        self.dest = W.Dropdown(
            description="to hex", options=[], layout=W.Layout(width="150px"), disabled=True
        )
        self.post = W.Dropdown(description="enemy post", options=[])
        self.seed = W.IntText(value=1, description="dice seed", layout=W.Layout(width="170px"))
        self.seed.observe(lambda _c: self.load(keep_move=True), names="value")
        self._filling = False
        self.play_button = W.Button(
            description="Play the enemy phase",
            button_style="primary",
            layout=W.Layout(width="auto"),
        )
        self.view = CABoardView(hex_size=hex_size)
        self.view.board.canvas.layout.max_width = "560px"
        self.panel = W.HTML(layout=W.Layout(width="auto"))
        self.result = W.HTML()
        self.position.observe(lambda _c: self.load(), names="value")
        self.mover.observe(lambda _c: self._filling or self.pick_mover(), names="value")
        self.dest.observe(lambda _c: self._filling or self.load(keep_move=True), names="value")
        self.post.observe(lambda _c: self.show_post(), names="value")
        self.play_button.on_click(lambda _b: self.play())
        self.view.board.on_click(lambda h, x, y: self.click(h))
        controls = W.HBox(
            [self.position, self.post, self.seed, self.play_button],
            layout=W.Layout(flex_flow="row wrap"),
        )
        self.widget = W.VBox(
            [
                controls,
                W.HBox([self.mover, self.dest], layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.view.widget, self.panel], layout=W.Layout(flex_flow="row wrap")),
                self.result,
            ]
        )
        self.widget.add_class("hexclass-defender-lab")
        self.load()

    def load(self, keep_move: bool = False) -> None:
        """Set up the chosen position (with the platoon moved, if one is), as it will be
        when the enemy phase starts."""
        from hexclass.classroom.combined_arms import Options, enemy

        self.state = start(
            self.position.value, seed=self.seed.value, options=Options(auto_decisions=True)
        )
        if not keep_move:
            self._fill_movers()
        elif self.mover.value and self.dest.value:
            self.state = moved(self.state, {self.mover.value: self.dest.value})
        self.enemy_start = at_enemy_phase(self.state)
        self.order = enemy.activation_order(self.enemy_start)
        self.result.value = ""
        labels = [(f"{i}. {self.state.board.label(h)}", h) for i, h in enumerate(self.order, 1)]
        self.post.options = labels
        self.post.value = self.order[0] if self.order else None
        self.show_post()

    def _fill_movers(self) -> None:
        s = self.state
        units = sorted(u.id for u in s.on_board())
        self._filling = True
        try:
            self.mover.options = [("none (the position as given)", "")] + [
                (f"{u} (now in {s.board.label(s.units[u].hex)})", u) for u in units
            ]
            self.mover.value = ""
            self.dest.options, self.dest.disabled = [], True
        finally:
            self._filling = False

    def pick_mover(self) -> None:
        """Offer the hexes the chosen platoon could stand in (no enemy post there)."""
        s, uid = self.state, self.mover.value
        self._filling = True
        try:
            if not uid:
                self.dest.options, self.dest.disabled = [], True
            else:
                free = [h for h in s.board.hexes if h not in s.enemy]
                labels = sorted(
                    (s.board.label(h) for h in free), key=lambda x: (int(x[:-1]), x[-1])
                )
                self.dest.options, self.dest.disabled = labels, False
                self.dest.value = s.board.label(s.units[uid].hex)
        finally:
            self._filling = False
        self.load(keep_move=True)

    def click(self, h) -> None:
        if h in self.order:
            self.post.value = h

    def show_post(self) -> str:
        from hexclass.classroom.combined_arms.mortars import enemy_mortar_need, enemy_mortar_targets

        s, h = self.enemy_start, self.post.value
        if h is None:
            self.panel.value = ""
            return ""
        rows, clusters = payoff_rows(s, h)
        self.view.hl = type(self.view.hl)()
        self.view.hl.selected_hex = h
        self.view.hl.note_hexes = {
            **{x: f"#{i}" for i, x in enumerate(self.order, 1)},
            **{s.board.hex_at(r[0]): str(r[4]) for r in rows},
        }
        self.view.show(s)
        n = self.order.index(h) + 1
        armour = []
        for u in s.on_board():
            if u.is_armour:
                o = enemy_fire_on_armour(s, h, u.id)
                if o.probability:
                    armour.append(f"{u.id} {pct(o.probability)}")
        need = enemy_mortar_need(s)
        targets = enemy_mortar_targets(s)
        mortar = (
            f"Enemy mortars come if a die shows {need}+ (6 once you have lost more platoons than "
            f"the enemy: you {len(s.broken_friendly())}, the enemy {s.enemy_platoons_broken}). "
            + (
                "Spotted hexes: "
                + "; ".join(
                    f"{s.board.label(t.hex)} ({t.infantry} platoons, {t.infantry_adjacent} next to it, "
                    f"spotted from {s.board.label(t.spotter)})"
                    for t in targets
                )
                if targets
                else "No hex of your infantry is spotted, so they would have no target."
            )
        )
        html = [
            f"<b>Post #{n} of {len(self.order)}: {esc(s.board.label(h))}</b> "
            f"({esc(post_status(s.enemy[h]))}). Posts act furthest from their own edge first, "
            'then left to right (CA "Enemy Decisions").',
            "<i>The position as the enemy phase starts: your spent platoons have recovered "
            '(CA "Sequence of Play"), so each of your rifle platoons counts 2 points unless an '
            "earlier post's fire pins it this phase.</i>",
            "<b>Reveal tests</b><ul>"
            + "".join(f"<li>{esc(x)}</li>" for x in reveal_lines(s, h))
            + "</ul>",
        ]
        if rows:
            html.append(
                "<b>Payoff of each hex of your infantry</b> (platoon points: 2 a fresh platoon, "
                "1 a pinned one; × chances in 6; × 3 if adjacent)"
                + table_html(["hex", "points", "chances", "adjacent", "payoff"], rows)
                + "It fires at the best group of up to three touching hexes: "
                + esc(" or ".join(clusters))
                + "."
            )
        else:
            html.append("No hex of your infantry is in its line of fire.")
        html.append(
            "<b>Against armour</b>: "
            + (esc(", ".join(armour)) if armour else "no armour platoon it could break")
            + " (if real and fresh it fires at the best chance first)."
        )
        html.append(f"<b>Mortars</b>: {esc(mortar)}")
        self.panel.value = CSS + "<div class='hx-lesson'>" + "<br>".join(html) + "</div>"
        return self.panel.value

    def play(self) -> list[str]:
        """Let the engine play the enemy phase on a copy, dice from ``seed``; show its log."""
        from hexclass.classroom.combined_arms import EndPhase, apply

        game = self.state.copy()
        before, turn = len(game.events), game.turn
        seat = next(iter(game.seats))
        while (
            game.turn == turn and not game.over and game.phase in ("friendly_move", "friendly_fire")
        ):
            apply(game, EndPhase(seat))
        events = [
            e for e in game.events[before:] if e.kind in ENEMY_EVENT_KINDS and e.phase == "enemy"
        ]
        self.after = game
        shots = [
            (e.data["hex"], e.data["target"], "miss" not in e.text)
            for e in events
            if e.kind == "roll"
            and "hex" in e.data
            and "target" in e.data
            and e.data["target"] in game.board.hex_set
        ]
        self.view.hl = type(self.view.hl)()
        self.view.hl.shots = shots
        self.view.show(game)
        lines = [e.text for e in events]
        self.result.value = (
            f"{CSS}<div class='hx-lesson'><b>The engine's enemy phase (dice seed {self.seed.value})"
            "</b><ol>" + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ol>"
            "Change the dice seed and play again: the choices stay the same until a roll changes "
            "the position.</div>"
        )
        return lines
