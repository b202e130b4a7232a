"""The CNA sequence-of-play lesson: a Game-Turn stepper and a mini-scenario map.

* :class:`SequenceStepper` walks one Game-Turn leaf by leaf with a
  :class:`~hexclass.classroom.cna.sequence.SequenceCursor`: the outline with the current entry
  lit, who acts (and which side that is once the Initiative is settled), who may
  respond, what may happen and the rule that governs it (CNA 5.2, 7.1x, 8.2x).
* :class:`SkirmishMap` plays the First Operations Stage of
  :data:`~hexclass.classroom.cna.scenario.DESERT_SKIRMISH` as Player A on a
  :class:`~hexclass.widgets.board.HexBoard`: click a unit, click hexes to build its path, move,
  and watch which of Player B's units may React (CNA 8.5x) and what they do.

Both widgets keep no rules of their own: every question goes to the cursor or to the
:class:`~hexclass.classroom.cna.scenario.OperationsStagePlay`, and every refusal the model raises
is shown on an inline line under the widget.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import ipywidgets as W

from hexclass.classroom import hexgrid
from hexclass.classroom.cna.initiative import Role, Side, determine_initiative
from hexclass.classroom.cna.scenario import (
    DESERT_SKIRMISH,
    MiniScenario,
    OperationsStagePlay,
    Terrain,
    hex_label,
    hexes_text,
)
from hexclass.classroom.cna.sequence import GAME_TURN, Entry, SequenceCursor

from .board import HexBoard
from .cna_logsheet import cpa_text
from .lesson_kit import CSS, InlineError, esc, table_html

SIDE_COLOURS = {Side.AXIS: "#5f7a2e", Side.COMMONWEALTH: "#a4501f"}
OCTOBER_1940_RATINGS = {Side.AXIS: 1, Side.COMMONWEALTH: 3}  # the CNA 7.14 example

STEPPER_CSS = """
<style>
.cna-pills {display:flex; flex-wrap:wrap; gap:4px; margin:4px 0}
.cna-pill {padding:2px 8px; border-radius:10px; background:#e8e4d8; color:#444; font-size:12px}
.cna-pill.now {background:#0072b2; color:#fff; font-weight:bold}
.cna-tree {font-size:13px; margin:0; padding-left:18px}
.cna-tree li.now > span {background:#0072b2; color:#fff; padding:0 4px; border-radius:3px}
.cna-tree li.path > span {font-weight:bold}
.cna-card {border:1px solid #ccc; border-radius:6px; padding:8px 12px; background:#fbfbf8}
.cna-side {display:inline-block; padding:2px 8px; margin-right:4px; border-radius:4px;
  color:#fff; font-size:12px}
.cna-side.off {background:#ccc !important; color:#777}
</style>
"""


# --- the stepper ----------------------------------------------------------------------------


class SequenceStepper:
    """Step through one Game-Turn of CNA; every view is drawn from ``self.cursor``."""

    def __init__(self, ratings: Mapping[Side, int] | None = None, seed: int = 1940) -> None:
        self.ratings = dict(ratings or OCTOBER_1940_RATINGS)
        self.seed = seed
        self.rng = random.Random(seed)
        self.cursor = SequenceCursor.start()
        self.history: list[SequenceCursor] = []
        # one roll per Game-Turn: going Back and rolling again shows the same dice (CNA 7.14)
        self.initiative_rolls: dict[int, object] = {}
        self.error = InlineError()
        self.outline = W.HTML()
        self.card = W.HTML()
        b = {
            "back": W.Button(description="◀ Back", layout=W.Layout(width="90px")),
            "next": W.Button(
                description="Next ▶", button_style="primary", layout=W.Layout(width="90px")
            ),
            "stage": W.Button(description="Next stage ▶▶", layout=W.Layout(width="130px")),
            "repeat": W.Button(description="Repeat segments 1–4", layout=W.Layout(width="170px")),
            "roll": W.Button(description="Roll for the Initiative", layout=W.Layout(width="180px")),
            "as_a": W.Button(description="Holder is Player A", layout=W.Layout(width="150px")),
            "as_b": W.Button(description="Holder is Player B", layout=W.Layout(width="150px")),
            "reset": W.Button(description="Start again", layout=W.Layout(width="110px")),
        }
        self.buttons = b
        b["back"].on_click(lambda _: self.back())
        b["next"].on_click(lambda _: self.step())
        b["stage"].on_click(lambda _: self.next_stage())
        b["repeat"].on_click(lambda _: self.repeat())
        b["roll"].on_click(lambda _: self.roll_initiative())
        b["as_a"].on_click(lambda _: self.declare(Role.A))
        b["as_b"].on_click(lambda _: self.declare(Role.B))
        b["reset"].on_click(lambda _: self.reset())
        row1 = W.HBox([b["back"], b["next"], b["stage"], b["repeat"], b["reset"]])
        row2 = W.HBox([b["roll"], b["as_a"], b["as_b"]])
        self.widget = W.VBox(
            [row1, row2, self.error.widget, W.HBox([self.card, self.outline])],
            layout=W.Layout(width="100%"),
        )
        self.card.layout = W.Layout(width="48%")
        self.outline.layout = W.Layout(width="52%")
        self.render()

    # --- actions (each asks the cursor, then redraws) --------------------------------------
    def _go(self, fn, *args) -> bool:
        new = self.error.attempt(fn, *args)
        if new is None:
            self.render()
            return False
        self.history.append(self.cursor)
        self.cursor = new
        self.render()
        return True

    def step(self) -> bool:
        return self._go(self.cursor.next)

    def next_stage(self) -> bool:
        """Skip to the first entry of the following stage; from Stage VI, the next Game-Turn."""
        cur, label = self.cursor, self.cursor.stage.label
        if cur.is_end_of_turn:
            return self._go(cur.next)  # Stage VI is one entry: the next stage is I of a new turn
        while cur.stage.label == label and not cur.is_end_of_turn:
            cur = cur.next()
        return self._go(lambda: cur)

    def repeat(self) -> bool:
        return self._go(self.cursor.repeat_movement_and_combat)

    def declare(self, role: Role) -> bool:
        return self._go(self.cursor.declare, role)

    def roll_initiative(self) -> bool:
        """Roll once per Game-Turn (CNA 7.14). After *Back* the same dice stand: a player
        may not roll again until the result suits him."""
        turn = self.cursor.game_turn
        rolled_before = turn in self.initiative_rolls
        if not rolled_before:
            result = self.error.attempt(determine_initiative, self.ratings, self.rng)
            if result is None:
                self.render()
                return False
            self.initiative_rolls[turn] = result
        result = self.initiative_rolls[turn]
        ok = self._go(self.cursor.with_initiative, result.winner)
        if ok and rolled_before:
            self.error.ok(
                f"The dice for Game-Turn {turn} were already rolled: {result.winner.value} "
                "holds the Initiative. Going back does not roll them again (CNA 7.14)."
            )
        return ok

    @property
    def initiative_lines(self) -> list[str]:
        """The roll's explanation, shown only once the cursor holds its result."""
        c = self.cursor
        result = self.initiative_rolls.get(c.game_turn)
        if result is None or c.initiative_holder is None:
            return []
        return result.explain()

    def back(self) -> bool:
        if not self.history:
            self.error.show(
                "This is the first entry of the Game-Turn; there is nothing to go back to."
            )
            return False
        self.cursor = self.history.pop()
        self.error.clear()
        self.render()
        return True

    def reset(self) -> None:
        """Back to Stage I of Game-Turn 1 with the same dice: the seed fixes every roll."""
        self.cursor, self.history = SequenceCursor.start(), []
        self.rng, self.initiative_rolls = random.Random(self.seed), {}
        self.error.clear()
        self.render()

    # --- drawing ---------------------------------------------------------------------------
    def render(self) -> None:
        c = self.cursor
        b = self.buttons
        b["back"].disabled = not self.history
        b["repeat"].disabled = not c.can_repeat
        b["roll"].disabled = c.stage.label != "I" or c.initiative_holder is not None
        at_declaration = c.operations_stage is not None and c.leaf.label == "A" and len(c.path) == 2
        declared = at_declaration and c.declarations[c.operations_stage - 1] is not None
        b["as_a"].disabled = b["as_b"].disabled = not at_declaration or declared
        b["stage"].description = "Next turn ▶▶" if c.is_end_of_turn else "Next stage ▶▶"
        self.card.value = STEPPER_CSS + CSS + card_html(c, self.initiative_lines)
        self.outline.value = STEPPER_CSS + CSS + outline_html(c)

    @property
    def acting_text(self) -> str:
        return self.cursor.actor_label()


def side_badges(cursor: SequenceCursor) -> str:
    sides = cursor.sides_acting()
    if sides is None:
        return "<i>which side this is depends on the Initiative, not settled yet</i>"
    out = []
    for side in Side:
        cls = "cna-side" if side in sides else "cna-side off"
        out.append(
            f'<span class="{cls}" style="background:{SIDE_COLOURS[side]}">{side.value}</span>'
        )
    return "".join(out) if sides else "<i>nobody acts here</i> " + "".join(out)


def card_html(c: SequenceCursor, initiative_lines: list[str]) -> str:
    """The current entry: where, who acts, who may respond, what may happen, the rules."""
    leaf = c.leaf
    where = " › ".join(f"{esc(e.label)} {esc(e.title)}" for e in c.path)
    rows = [
        f'<div style="font-size:12px;color:#666">Game-Turn {c.game_turn} · {esc(where)}</div>',
        f'<div style="font-size:17px;font-weight:bold;margin:4px 0">{esc(c.key)} {esc(leaf.title)}</div>',
        f"<div><b>Who acts:</b> <span class='cna-acting'>{esc(c.actor_label())}</span> {side_badges(c)}</div>",
    ]
    if leaf.responder is not None:
        rows.append(f"<div><b>May respond:</b> {esc(c.actor_label(leaf.responder))}</div>")
    rows.append(f"<div><b>What may happen:</b> {esc(leaf.may_happen)}</div>")
    rules = ", ".join((leaf.rule, *leaf.see))
    rows.append(f"<div><b>Rules:</b> {esc(rules)}</div>")
    notes = []
    if c.phasing_role is not None:
        notes.append(f"Player {c.phasing_role.value}'s portion of phases F–L (CNA 5.2)")
    if c.in_movement_and_combat:
        notes.append(f"movement-and-combat pass {c.movement_pass} (CNA 8.22)")
    if any(e.any_order for e in c.path):
        notes.append("these segments may be done in any order (CNA 5.2 C)")
    if notes:
        rows.append(f"<div style='color:#555'>{esc('; '.join(notes))}</div>")
    holder = c.initiative_holder.value if c.initiative_holder else "not settled"
    decl = ", ".join(
        f"stage {i + 1}: {d.value if d else '–'}" for i, d in enumerate(c.declarations)
    )
    rows.append(
        f"<div style='margin-top:6px'><b>Initiative:</b> {esc(holder)}; holder's choices: {esc(decl)}</div>"
    )
    rows += [
        f"<div style='font-size:12px;color:#444'>{esc(line)}</div>" for line in initiative_lines
    ]
    return f'<div class="hx-lesson cna-card">{"".join(rows)}</div>'


def _tree(entries: tuple[Entry, ...], path: tuple[Entry, ...], depth: int) -> str:
    items = []
    for e in entries:
        on_path = depth < len(path) and path[depth] is e
        cls = "now" if on_path and depth == len(path) - 1 else ("path" if on_path else "")
        tag = " (each player in turn)" if e.per_player and depth == 1 else ""
        sub = _tree(e.children, path, depth + 1) if on_path and e.children else ""
        items.append(
            f'<li class="{cls}"><span>{esc(e.label)}. {esc(e.title)}{tag}</span>{sub}</li>'
        )
    return f'<ul class="cna-tree">{"".join(items)}</ul>'


def outline_html(c: SequenceCursor) -> str:
    """Stages as pills, then the current stage's outline opened down to the current leaf."""
    pills = "".join(
        f'<span class="cna-pill{" now" if s is c.stage else ""}">{esc(s.label)} {esc(s.title)}</span>'
        for s in GAME_TURN
    )
    body = _tree(c.stage.children, c.path, 1) if c.stage.children else ""
    return f'<div class="hx-lesson"><div class="cna-pills">{pills}</div>{body}</div>'


# --- the mini-scenario -----------------------------------------------------------------------

TERRAIN_COLOURS = {Terrain.CLEAR: "#eedfb3", Terrain.TRACK: "#e2cf98"}
SHORT_NAMES = {
    "Italian tank bn": "It tank",
    "Italian recce bn": "It recce",
    "Italian infantry bn": "It inf",
    "1st KRRC": "KRRC",
    "2nd Line Light Trucks": "trucks",
    "1st RNF": "RNF",
    "4th RHA battery": "RHA",
    "11th Hussars": "11 H",
}


def short_name(name: str) -> str:
    return SHORT_NAMES.get(name, name[:7])


def reaction_path(play: OperationsStagePlay, name: str, mover: str) -> list | None:
    """Player B's choice for a unit allowed to React: one step to the adjacent hex that
    the model accepts for a Reaction (CNA 8.55) and lies furthest from the mover.
    A teaching opponent, not a rule: None if no step is legal."""
    here, threat = play.positions[name], play.positions[mover]
    best = None
    for h in sorted(hexgrid.neighbours(here)):
        try:
            play.check_path(name, [here, h], reacting=True)
        except ValueError:
            continue
        key = hexgrid.distance(h, threat)
        if best is None or key > best[0]:
            best = (key, h)
    return None if best is None else [here, best[1]]


class SkirmishMap:
    """Play Player A's Movement Segments of one Operations Stage on the skirmish map.

    Click one of Player A's units to pick it, click hexes to lay its path (each step is
    checked by the model as it is added), choose whom to announce a Close Assault on,
    then Move. Player B's units that may React do so at once (see :func:`reaction_path`).
    """

    def __init__(self, scenario: MiniScenario = DESERT_SKIRMISH, hex_size: float = 40.0) -> None:
        self.scenario = scenario
        self.error = InlineError()
        self.board = HexBoard(
            [h for h, _ in scenario.terrain],
            hex_size=hex_size,
            layers=("terrain", "marks", "counters"),  # marks under the counters stay readable
            max_width="620px",
        )
        self.board.set_painter("terrain", self._paint_terrain)
        self.board.set_painter("marks", self._paint_marks)
        self.board.set_painter("counters", self._paint_counters)
        self.board.on_click(lambda h, x, y: self.click(h))
        self.header = W.HTML()
        self.report = W.HTML()
        self.sheet = W.HTML()
        self.assault = W.Dropdown(
            description="Assault on", options=["nobody"], layout=W.Layout(width="260px")
        )
        self.buttons = {
            "move": W.Button(description="Move", button_style="primary"),
            "clear": W.Button(description="Clear path"),
            "end_segment": W.Button(description="End Movement Segment"),
            "again": W.Button(description="Another pass (segments 1–4)"),
            "end_portion": W.Button(description="End Player A's portion"),
            "end_stage": W.Button(description="End the Operations Stage"),
            "reset": W.Button(description="Start again"),
        }
        for button in self.buttons.values():
            button.layout = W.Layout(width="auto", min_width="110px")
        actions = {
            "move": self.move,
            "clear": self.clear_path,
            "end_segment": self.end_segment,
            "again": self.another_pass,
            "end_portion": self.end_portion,
            "end_stage": self.end_stage,
            "reset": self.reset,
        }
        for key, fn in actions.items():
            self.buttons[key].on_click(lambda _b, fn=fn: fn())
        b = self.buttons
        controls = W.VBox(
            [
                self.header,
                W.HBox([self.assault, b["move"], b["clear"]]),
                W.HBox([b["end_segment"], b["again"]]),
                W.HBox([b["end_portion"], b["end_stage"], b["reset"]]),
                self.error.widget,
                self.report,
            ],
            layout=W.Layout(width="50%"),
        )
        board_box = W.VBox([self.board.canvas, self.sheet], layout=W.Layout(width="50%"))
        self.widget = W.HBox([board_box, controls], layout=W.Layout(width="100%"))
        self.reset()

    # --- state ----------------------------------------------------------------------------
    def reset(self) -> None:
        self.play = OperationsStagePlay(self.scenario)
        c = SequenceCursor.start(initiative_holder=self.scenario.initiative_holder)
        c = c.seek("III.A").declare(self.scenario.holder_role)
        self.cursor = c.seek("III.G.1", phasing=Role.A)
        self.selected: str | None = None
        self.path: list = []
        self.reactions: dict = {}
        self.reacted: list[tuple[str, list]] = []
        self.verdicts: dict = {}
        self.lines: list[str] = [
            "Pick one of Player A's (Axis) units, then click hexes to lay its path."
        ]
        self.error.clear()
        self.redraw(all_layers=True)

    @property
    def segment(self) -> str:
        return self.cursor.leaf.title

    def _units_at(self, h) -> list[str]:
        return self.play.units_at(h)

    # --- clicks -----------------------------------------------------------------------------
    def click(self, h) -> None:
        """Pick a phasing unit, or extend / cut back the selected unit's path."""
        if h is None:
            return
        own = [n for n in self._units_at(h) if self.play.sides[n] is self.play.phasing]
        if own and (not self.selected or len(self.path) <= 1):
            self.select(own[0])
        elif self.selected and h in self.path:
            self.path = self.path[: self.path.index(h) + 1]
            self.error.clear()
        elif self.selected:
            self.extend(h)
        else:
            self.error.show(
                f"Click one of {self.play.phasing.value}'s units first: it is their Movement Segment."
            )
        self.redraw()

    def select(self, name: str) -> None:
        self.selected = name
        self.path = [self.play.positions[name]]
        self.error.clear()
        self._update_assault_choices()

    def extend(self, h) -> bool:
        """Add ``h`` to the path if the model accepts the longer path (CNA 8.13-8.15)."""
        trial = [*self.path, h]
        if (
            self.error.attempt(self.play.check_path, self.selected, trial) is None
            and self.error.is_error
        ):
            return False
        self.path = trial
        self._update_assault_choices()
        return True

    def clear_path(self) -> None:
        self.selected, self.path = None, []
        self.error.clear()
        self._update_assault_choices()
        self.redraw()

    def _update_assault_choices(self) -> None:
        names = ["nobody"]
        if self.selected and self.path:
            end = self.path[-1]
            names += [
                n
                for n in self.play.on_map()
                if self.play.sides[n] is not self.play.phasing
                and hexgrid.distance(self.play.positions[n], end) == 1
            ]
        self.assault.options = names
        self.assault.value = "nobody"

    # --- buttons -----------------------------------------------------------------------------
    def move(self) -> bool:
        """Move the selected unit along its path, then let Player B react."""
        if self.segment != "Movement Segment":
            self.error.show(
                f"Units move in the Movement Segment (CNA 8.1); this is the {self.segment}."
            )
            return False
        if not self.selected or len(self.path) < 2:
            self.error.show("Pick a unit and click at least one hex for it to move to.")
            return False
        target = [] if self.assault.value == "nobody" else [self.assault.value]
        report = self.error.attempt(
            self.play.move, self.selected, list(self.path), assault_on=target
        )
        if report is None:
            self.redraw()
            return False
        self.reactions = report.reactions
        self.lines = [f"{report.unit} moved to {hex_label(report.path[-1])}."]
        self.lines += [f"{e.unit}: {e.line()}" for e in report.entries]
        self.lines += self._non_phasing_reacts(report.unit)
        self.selected, self.path = None, []
        self._update_assault_choices()
        self.redraw(all_layers=True)
        return True

    def _non_phasing_reacts(self, mover: str) -> list[str]:
        """The other player's answer to a move: every unit allowed to React does so."""
        out = []
        for name, verdict in self.reactions.items():
            if not verdict.allowed:
                why = "; ".join(str(r) for r in verdict.reasons)
                out.append(f"{name} may not React: {why}")
                continue
            path = reaction_path(self.play, name, mover)
            if path is None:
                out.append(f"{name} may React but has nowhere to go.")
                continue
            entries = self.error.attempt(self.play.react, name, path)
            if entries:
                self.reacted.append((name, path))
                out.append(
                    f"{name} Reacts to {hex_label(path[-1])}: "
                    + "; ".join(e.line() for e in entries)
                )
        return out

    def end_segment(self) -> bool:
        if self.segment != "Movement Segment":
            self.error.show(f"There is no Movement Segment to end: this is the {self.segment}.")
            return False
        self.verdicts = self.play.end_movement_segment()
        cur = self.cursor
        while cur.leaf.title != "Reserve Release Segment":
            cur = cur.next()
        self.cursor = cur
        self.reactions, self.selected, self.path = {}, None, []
        self.lines = ["Breakdown and combat are not simulated here. Continual movement (CNA 8.23):"]
        for n, v in self.verdicts.items():
            head = "may move again" if v.allowed else "may not move again"
            self.lines.append(f"{n} {head}: " + "; ".join(str(r) for r in v.reasons))
        self.error.clear()
        self.redraw(all_layers=True)
        return True

    def another_pass(self) -> bool:
        new = self.error.attempt(self.cursor.repeat_movement_and_combat)
        if new is None:
            self.redraw()
            return False
        self.cursor = new
        self.play.next_movement_pass()
        self.lines = [f"Movement pass {new.movement_pass}: units barred by CNA 8.23 stay put."]
        self.redraw(all_layers=True)
        return True

    def end_portion(self) -> bool:
        if self.segment == "Movement Segment":
            self.error.show("End the Movement Segment first (CNA 5.2: segments run in order).")
            return False
        if self.error.attempt(self.play.end_portion) is None and self.error.is_error:
            return False
        self.cursor = self.cursor.seek("III.G.1", phasing=Role.B)
        self.verdicts, self.reactions, self.reacted = {}, {}, []
        side = self.play.phasing.value
        self.lines = [
            f"Player B ({side}) now plays phases F–L: click his units and move them; "
            f"{self.play.phasing.other.value} units React as Player B's did.",
            "A unit that starts the Movement Segment next to an enemy combat unit is in "
            "Contact and pays 2 CPs to break off before it moves (CNA 8.62, 8.65).",
        ]
        self.redraw(all_layers=True)
        return True

    def end_stage(self) -> bool:
        if self.cursor.phasing_role is not Role.B:
            self.error.show("Both players play phases F–L before the stage ends (CNA 5.2).")
            return False
        entries = self.play.end_stage()
        self.cursor = self.cursor.seek("IV.A")
        self.lines = ["Operations Stage over (CNA 6.16, 6.24):"]
        self.lines += [f"{e.unit}: {e.line()}" for e in entries if e.rps or e.dps]
        self.error.ok("Units that spent no CPs rested; the others' unused CPs lapse.")
        self.redraw(all_layers=True)
        return True

    # --- drawing ----------------------------------------------------------------------------------
    def redraw(self, all_layers: bool = False) -> None:
        if all_layers:
            self.board.redraw()
        else:
            self.board.redraw("marks")
        self.header.value = CSS + self._header_html()
        self.report.value = CSS + "".join(
            f"<div class='hx-lesson' style='font-size:12px'>• {esc(x)}</div>" for x in self.lines
        )
        self.sheet.value = self._sheet_html()

    def _header_html(self) -> str:
        c = self.cursor
        who = c.actor_label()
        resp = f"; may respond: {c.actor_label(c.leaf.responder)}" if c.leaf.responder else ""
        sel = ""
        if self.selected:
            cost = self.play.path_cost(self.selected, self.path)
            line = self.play.sheet.line(self.selected)
            steps = len(self.path) - 1
            sel = (
                f"<div>Selected <b>{esc(self.selected)}</b>: path of {hexes_text(steps)} costs "
                f"{cost} CPs; {line.spent} of CPA {line.cpa} spent so far.</div>"
            )
        return (
            f"<div class='hx-lesson'><b>{esc(c.key)} {esc(c.leaf.title)}</b> "
            f"(pass {self.play.movement_pass}) — acting: <b>{esc(who)}</b>{esc(resp)}"
            f" [{esc(c.leaf.rule)}]{sel}</div>"
        )

    def _sheet_html(self) -> str:
        rows = []
        for r in self.play.sheet.rows():
            n = r["unit"]
            where = "gone" if n in self.play.removed else hex_label(self.play.positions[n])
            cpa = cpa_text(self.play.units[n])
            rows.append([n, self.play.sides[n].value, where, cpa, r["CPs spent"], r["cohesion"]])
        return table_html(["unit", "side", "hex", "CPA", "CPs spent", "cohesion"], rows)

    def _paint_terrain(self, c) -> None:
        b = self.board
        hexes = [h for h, _ in self.scenario.terrain]
        b.fill_hexes(c, hexes, [TERRAIN_COLOURS[t] for _, t in self.scenario.terrain])
        b.stroke_hexes(c, hexes, "#a89a74", 1.0)
        track = {h for h, t in self.scenario.terrain if t is Terrain.TRACK}
        pairs = [(a, n) for a in track for n in hexgrid.neighbours(a) if n in track and a < n]
        b.segments(c, pairs, "#8a6d3b", 4.0, dash=(7, 4))
        b.texts(
            c,
            [(h, hex_label(h)) for h in hexes],
            color="#9c8f6c",
            font="9px sans-serif",
            dy=b.layout.size * 0.72,
        )

    def _paint_counters(self, c) -> None:
        s = self.board.layout.size
        w, hgt = 1.25 * s, 0.5 * s
        for h in {self.play.positions[n] for n in self.play.on_map()}:
            names = self._units_at(h)
            x, y = self.board.centre(h)
            top = y - hgt * len(names) / 2 - 2
            for k, n in enumerate(names):
                yy = top + k * (hgt + 3)
                c.fill_style = SIDE_COLOURS[self.play.sides[n]]
                c.fill_rect(x - w / 2, yy, w, hgt)
                c.stroke_style = "#222"
                c.line_width = 1
                c.stroke_rect(x - w / 2, yy, w, hgt)
                c.fill_style = "#fff"
                c.font = "bold 11px sans-serif"
                c.text_align = "center"
                c.text_baseline = "middle"
                c.fill_text(short_name(n), x, yy + hgt / 2)

    def _paint_marks(self, c) -> None:
        b = self.board
        pos = self.play.positions
        if self.reactions:
            ok = [
                pos[n]
                for n, v in self.reactions.items()
                if v.allowed and n not in dict(self.reacted)
            ]
            barred = [pos[n] for n, v in self.reactions.items() if not v.allowed and n in pos]
            b.stroke_hexes(c, barred, "#d62728", 4.0, shrink=0.9)
            b.stroke_hexes(c, ok, "#009e73", 4.0, shrink=0.9)
        for _name, path in self.reacted[-3:]:
            b.segments(c, list(zip(path, path[1:])), "#009e73", 3.0, dash=(4, 3))
        if self.verdicts:
            stuck = [pos[n] for n, v in self.verdicts.items() if not v.allowed]
            b.stroke_hexes(c, stuck, "#7f7f7f", 4.0, shrink=0.8)
        if self.selected:
            b.stroke_hexes(c, [self.path[0]], "#1f4fd6", 4.0, shrink=0.92)
            b.segments(c, list(zip(self.path, self.path[1:])), "#1f4fd6", 4.0)
            b.fill_hexes(c, self.path[1:], "#1f4fd6", alpha=0.25, shrink=0.6)
