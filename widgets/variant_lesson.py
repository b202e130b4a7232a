"""Widgets for the lesson on the enemy-player variant (CA p.7): risk management in the
solitaire game against a battle of wits with a live defender.

* :func:`reveal_rows` -- the solitaire reveal odds of every potential post on a board
  (:func:`hexclass.classroom.combined_arms.odds.reveal_odds`);
* :func:`constraint_of` -- which balancing constraint an engine refusal names;
* :class:`DeploymentLab` -- pick real platoons and ATGs on the board of a live variant
  game and read every refusal of :func:`~hexclass.classroom.combined_arms.enemy_player.deployment_problems`;
* :func:`deployment_funnel` -- how many placements survive each constraint, counted by
  asking the engine about every placement;
* :func:`real_shares` -- in how many legal deployments each post holds a real platoon;
* :func:`force_roll_table` -- which two-dice results the force roll keeps;
* :class:`TwoViews` -- a variant game played a few turns against the attacker bot, and
  what the defender and the attackers each hold of it (:func:`~hexclass.classroom.combined_arms.public.attacker_copy`).

No rule is worked out here: the module asks the engine and counts or lays out its answers.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import ipywidgets as W

from hexclass.classroom.combined_arms.defender_game import DefenderGame
from hexclass.classroom.combined_arms.enemy_player import (
    Deployment,
    DeploymentField,
    SecretForces,
    deployment_problems,
    forces_from_roll,
    legal_deployments,
)
from hexclass.classroom.combined_arms.odds import reveal_odds
from hexclass.classroom.combined_arms.public import attacker_copy

from .ca_board import CABoardView
from .lesson_kit import CSS, esc, table_html

# The balancing constraints of CA p.7, in the text's order, and the words of the engine's
# refusal that name each one (a test checks every refusal is matched).
CONSTRAINTS = (
    ("posts", "only on potential counters", ("no potential enemy counter", "no potential ATG")),
    ("count", "the force roll's numbers", ("deploy exactly",)),
    ("with", "real ATGs with real platoons", ("must be with a real platoon",)),
    ("adjacent", "only 2 or none adjacent", ("next to another real platoon",)),
    ("sides", "2 on each side of the road", ("of the road",)),
    ("platoon rows", "a real platoon in busy hexrows", ("potential platoons",)),
    ("atg rows", "a real ATG in busy hexrows", ("potential ATGs",)),
)
TITLES = {key: title for key, title, _words in CONSTRAINTS}


def pct(p: Fraction | float) -> str:
    return f"{float(p):.0%}"


def frac(p: Fraction) -> str:
    return f"{p.numerator} in {p.denominator}" if p else "none"


# --- risk management: the solitaire reveal odds ------------------------------------------------


def reveal_rows(state) -> list[list[str]]:
    """One row per potential post: the engine's chance its platoon and its ATGs prove
    real when tested, with the modifiers (CA "Enemy Decisions")."""
    rows = []
    for h in sorted(state.enemy, key=lambda x: (x[1], state.board.column(x))):
        o = reveal_odds(state, h)
        if not o:
            continue
        cells = [state.label(h)]
        for kind in ("platoon", "atg"):
            if kind in o:
                mods = ", ".join(str(m) for m in o[kind].modifiers) or "no modifier"
                cells.append(f"{frac(o[kind].probability)} ({pct(o[kind].probability)}); {mods}")
            else:
                cells.append("no ATG counter" if kind == "atg" else "—")
        rows.append(cells)
    return rows


# --- the battle of wits: the deployment constraints --------------------------------------------


def constraint_of(problem) -> str:
    """The key of the balancing constraint an engine refusal names (see CONSTRAINTS)."""
    text = problem.message
    for key, _title, words in CONSTRAINTS:
        if any(w in text for w in words):
            return key
    raise ValueError(f"no balancing constraint matches the refusal {text!r}")


def problem_rows(problems) -> list[list[str]]:
    return [[TITLES[constraint_of(p)], p.message, p.rule] for p in problems]


def deployment_funnel(fld: DeploymentField, platoons: int) -> list[tuple[str, int]]:
    """Placements of ``platoons`` real platoons (ATGs set aside) that survive the platoon
    constraints one after another, in the text's order. Every placement is put to
    :func:`deployment_problems`; the refusals are only sorted by the constraint they name."""
    forces = SecretForces(platoons, 0)
    posts = sorted(fld.platoon_hexes)
    broken: Counter = Counter()
    total = 0
    for combo in itertools.combinations(posts, platoons):
        total += 1
        keys = {
            constraint_of(p) for p in deployment_problems(fld, forces, Deployment(frozenset(combo)))
        }
        if "adjacent" not in keys:
            broken["adjacent ok"] += 1
            if "sides" not in keys:
                broken["sides ok"] += 1
                if "platoon rows" not in keys:
                    broken["rows ok"] += 1
    return [
        (f"any {platoons} of the {len(posts)} posts", total),
        (f"... with {TITLES['adjacent']}", broken["adjacent ok"]),
        (f"... and {TITLES['sides']}", broken["sides ok"]),
        (f"... and {TITLES['platoon rows']}", broken["rows ok"]),
    ]


def real_shares(fld: DeploymentField, forces: SecretForces) -> tuple[int, dict]:
    """How many legal deployments there are, and in what share of them each post holds
    a real platoon (the engine lists them; this only counts)."""
    legal = list(legal_deployments(fld, forces))
    seen = Counter(h for d in legal for h in d.platoons)
    return len(legal), {h: Fraction(seen[h], len(legal)) for h in fld.platoon_hexes}


def force_roll_table() -> tuple[int, Counter]:
    """How many of the 36 two-dice results the force roll keeps, and how often each
    (platoons, ATGs) pair comes up among them (CA p.7, ``forces_from_roll``)."""
    kept: Counter = Counter()
    for a, b in itertools.product(range(1, 7), repeat=2):
        f = forces_from_roll(a, b)
        if f is not None:
            kept[(f.platoons, f.atgs)] += 1
    return sum(kept.values()), kept


class DeploymentLab:
    """The board of a live variant game: click potential counters to mark real platoons
    (or real ATGs), and read what the engine says of the deployment after every click."""

    def __init__(self, seed: int = 6, hex_size: float = 30.0) -> None:
        self.game = DefenderGame(seed)
        self.view = CABoardView(hex_size=hex_size)
        self.view.board.canvas.layout.max_width = "560px"
        self.view.board.on_click(lambda h, _x=None, _y=None: self.click(h))
        self.mode = W.ToggleButtons(
            options=["real platoon", "real ATG"],
            value="real platoon",
            description="Click marks:",
            style={"button_width": "100px"},
        )
        self.suggest_button = W.Button(
            description="Suggest a legal deployment", layout=W.Layout(width="auto")
        )
        self.clear_button = W.Button(description="Clear", layout=W.Layout(width="auto"))
        self.suggest_button.on_click(lambda _b: self.suggest())
        self.clear_button.on_click(lambda _b: self.clear())
        self.message = W.HTML()
        self.panel = W.HTML(layout=W.Layout(width="auto", min_width="300px"))
        side = W.VBox(
            [self.mode, W.HBox([self.suggest_button, self.clear_button]), self.message, self.panel],
            layout=W.Layout(flex="1 1 320px"),
        )
        self.widget = W.HBox(
            [self.view.widget, side], layout=W.Layout(flex_flow="row wrap", width="100%")
        )
        self.refresh()

    @property
    def state(self):
        return self.game.state

    def click(self, h) -> None:
        if h is None:
            return
        why = self.game.toggle(h, atg=self.mode.value == "real ATG")
        self.message.value = (
            f'{CSS}<div class="hx-error">⚠ {esc(why.message)} ({esc(why.rule)})</div>'
            if why
            else ""
        )
        self.refresh()

    def suggest(self) -> None:
        self.game.suggest_deployment()
        self.message.value = (
            f'{CSS}<div class="hx-ok">One legal deployment, picked at random by the engine.</div>'
        )
        self.refresh()

    def clear(self) -> None:
        self.game.platoons.clear()
        self.game.atgs.clear()
        self.message.value = ""
        self.refresh()

    def place(self, platoons, atgs=()) -> None:
        """Set the marks from hex labels (``["4a", "6b"]``), as clicks would."""
        self.clear()
        for label in platoons:
            self.game.toggle(self.state.board.hex_at(label))
        for label in atgs:
            self.game.toggle(self.state.board.hex_at(label), atg=True)
        self.refresh()

    def problems(self):
        return self.game.problems()

    def refresh(self) -> str:
        g, s = self.game, self.state
        t = g.targets()
        hl = self.view.hl
        hl.destinations = set(g.field.platoon_hexes)
        hl.note_hexes = {h: ("REAL+AT" if h in g.atgs else "REAL") for h in g.platoons}
        problems = self.problems()
        names = ", ".join(sorted(s.label(h) for h in g.platoons)) or "none"
        head = (
            f"<p>The force roll gave <b>{t.platoons}</b> real platoons and <b>{t.atgs}</b> real "
            f"ATGs. Placed: <b>{len(g.platoons)}</b> platoons "
            f"({esc(names)})"
            f", <b>{len(g.atgs)}</b> ATGs.</p>"
        )
        if problems:
            body = "<p>The engine refuses it:</p>" + table_html(
                ["constraint", "the engine's words", "rule"], problem_rows(problems)
            )
        else:
            body = '<p class="hx-ok"><b>Legal</b>: every balancing constraint of CA p.7 is met.</p>'
        self.panel.value = f'{CSS}<div class="hx-lesson">{head}{body}</div>'
        self.view.show(s)
        return self.panel.value


# --- what the attacker can know --------------------------------------------------------------


def post_status(post) -> str:
    if post is None:
        return "gone (a dummy)"
    bits = [f"platoon {post.platoon}"]
    if post.atg:
        bits.append(f"ATG {post.atg}")
    elif post.atg_removed:
        bits.append("ATG counter removed")
    return ", ".join(bits)


class TwoViews:
    """A variant game against the attacker bot: the defender's choices made as the
    solitaire AI would (``DefenderGame.hint``), and the game as each side holds it."""

    def __init__(self, seed: int = 6, bot: str = "bold") -> None:
        self.seed, self.bot = seed, bot
        self.turn_box = W.BoundedIntText(
            value=3, min=1, max=8, description="play to turn", layout=W.Layout(width="180px")
        )
        self.button = W.Button(description="Play it", button_style="primary", icon="play")
        self.button.on_click(lambda _b: self.play(self.turn_box.value))
        self.out = W.HTML()
        self.widget = W.VBox([W.HBox([self.turn_box, self.button]), self.out])
        self.play(self.turn_box.value)

    def play(self, until: int) -> DefenderGame:
        g = DefenderGame(self.seed, self.bot)
        g.suggest_deployment()
        verdict = g.deploy()
        if not verdict:
            raise RuntimeError(f"the engine refused its own suggestion: {verdict.reason}")
        while g.stage != "over" and g.state.turn <= until:
            if g.stage == "attacker":
                g.attacker_step()
                continue
            action = g.hint()  # what the solitaire AI's rules would choose
            verdict = g.submit(action)
            if not verdict:  # the engine refusing its own advice is a bug: say so
                raise RuntimeError(f"the engine refused the AI's choice {action}: {verdict.reason}")
        self.game, self.until = g, until
        self.out.value = self.render()
        return g

    def rows(self) -> list[list[str]]:
        s = self.game.state
        a = attacker_copy(s)
        posts = sorted(self.game.field.platoon_hexes, key=lambda x: (x[1], s.board.column(x)))
        rows = []
        for h in posts:
            truth = "real" if h in s.secret.platoons else "dummy"
            if h in s.secret.atgs:
                truth += " + real ATGs"
            rows.append([s.label(h), truth, post_status(a.enemy.get(h))])
        return rows

    def facts(self) -> list[list[str]]:
        s = self.game.state
        a = attacker_copy(s)
        secret_events = [e.text for e in s.events if e.data.get("secret")]
        return [
            ["force roll", f"{s.forces.platoons} platoons, {s.forces.atgs} ATGs", repr(a.forces)],
            ["deployment", f"{len(s.secret.platoons)} real platoon hexes", repr(a.secret)],
            [
                "dice",
                f"seed and generator ({s.dice.rolled} rolls so far)",
                f"sealed ({type(a.dice).__name__}, seed {a.seed})",
            ],
            [
                "events in the log",
                str(len(s.events)),
                f"{len(a.events)} (the {len(secret_events)} defender-only ones left out)",
            ],
            [
                "revealed real platoons",
                str(s.real_platoons_revealed),
                str(a.real_platoons_revealed),
            ],
        ]

    def render(self) -> str:
        s = self.game.state
        secret = [e.text for e in s.events if e.data.get("secret")]
        return (
            f'{CSS}<div class="hx-lesson"><p>Played through turn {self.until}: now turn {s.turn}, '
            f"{esc(s.phase)}. "
            "Each post of the standard array, as the defender deployed it and as the attackers' "
            "copy of the game holds it:</p>"
            + table_html(
                ["post", "deployed as (defender only)", "the attackers' copy"], self.rows()
            )
            + "<p>The rest of the secret:</p>"
            + table_html(["", "the defender's game", "the attackers' copy"], self.facts())
            + "<p>Defender-only log lines: "
            + esc(" | ".join(secret))
            + "</p></div>"
        )
