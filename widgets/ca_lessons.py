"""Widgets for the Combined Arms lessons: every number on screen is the engine's.

* :func:`odds_table` -- a declaration's odds, firer by firer, with every modifier and
  the rule it comes from (:func:`hexclass.classroom.combined_arms.fire_odds`);
* :class:`OddsWhatIf` -- move one platoon to any hex and ask the engine again;
* :class:`LogTable` -- the game log of a live app as a table, refreshed on demand
  (a notebook cell would show it only as it was when the cell ran);
* :class:`ShotBuilder` -- a shot built on an open board from sliders (firer, range,
  a wood beside the line, a friendly platoon next to the target, revealed or not);
* :class:`SampleGameReplay` -- the sample game's quoted decisions on the board.

These widgets place counters to set up a question and then only ASK the engine
(``fire_odds``, ``check``, ``armour_survival``, ``mortar_odds``); no rule is worked out
here. The positions come from ``scenarios/ca/`` or from
:func:`hexclass.classroom.combined_arms.positions.sketch`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import ipywidgets as W

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms import DeclareFire, check, fire_odds
from hexclass.classroom.combined_arms.board import facing_arcs
from hexclass.classroom.combined_arms.lines import MAX_RANGE, friendly_line
from hexclass.classroom.combined_arms.odds import armour_survival, enemy_fire_on_armour, mortar_odds
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.scenarios import start

from .ca_board import CABoardView
from .lesson_kit import CSS, esc, table_html


def pct(p: Fraction | float) -> str:
    """A chance as the rulebook prints it: '94%'."""
    return f"{float(p):.0%}"


def in_sixths(faces: int) -> str:
    return f"{faces} in 6" if faces else "no chance"


# --- odds, as the engine gives them -----------------------------------------------------------


def odds_rows(odds) -> list[list[str]]:
    """One row per firer: modifiers (with rules), net modifier, faces that pin / break."""
    rows = []
    for a in odds.attacks:
        mods = "<br>".join(esc(str(m)) for m in a.modifiers) or "none"
        brk = in_sixths(a.break_chances) if odds.all_adjacent else "— (not every firer adjacent)"
        rows.append([esc(a.unit), mods, f"{a.total:+d}", in_sixths(a.pin_chances), brk])
    return rows


def odds_table(state, target, firers: Sequence[str]) -> str:
    """HTML: the engine's odds for ``firers`` on ``target``, or the engine's refusal."""
    refusal = fire_refusal(state, target, firers)
    if refusal:
        return f"{CSS}<div class='hx-error'>The engine refuses this shot: {esc(refusal)}</div>"
    odds = fire_odds(state, target, list(firers))
    head = ["firer", "modifiers (rule)", "net", "pins on", "breaks on"]
    table = table_html(head, odds_rows(odds), raw=True)
    label = state.board.label(target)
    total = f"<b>Chance to pin {label}: {pct(odds.pin)}</b> ({odds.pin})"
    if odds.all_adjacent:
        total += (
            f"; to break its ATGs {pct(odds.break_atg)}; to break the platoon "
            f"{pct(odds.break_platoon)} ({odds.break_platoon})"
        )
    if odds.ammo_withdrawal:
        total += f"; {esc(odds.ammo_withdrawal)} withdraws for want of ammunition"
    return f"{table}<div class='hx-lesson' style='margin-top:4px'>{total}</div>"


def fire_refusal(state, target, firers: Sequence[str]) -> str | None:
    """The engine's reason a declaration may not be made here, or None."""
    seat = next(iter(state.seats), "player")
    why = check(state, DeclareFire(seat, target, tuple(firers)))
    return None if why is None else str(why)


def facing_towards(origin, target) -> int | None:
    """The lowest corner whose forward arc (engine's ``facing_arcs``) holds ``target``."""
    mask = facing_arcs(origin, target)
    return next((f for f in range(6) if mask >> f & 1), None)


def moved(state, moves: dict[str, str], face=None):
    """A copy of ``state`` with platoons placed at the named hexes (armour turned to face
    ``face`` when given): a what-if position, not a move in the game."""
    out = state.copy()
    for uid, label in moves.items():
        unit = out.units[uid]
        h = out.board.hex_at(label)
        out.place(unit, h)
        if unit.is_armour and face is not None:
            unit.facing = facing_towards(h, face)
    return out


# --- the what-if of the play-in-a-notebook lesson ------------------------------------------------


class OddsWhatIf:
    """Put one platoon of a declaration on another hex and read the engine's odds again."""

    def __init__(self, state, target: str, firers: Sequence[str], mover: str) -> None:
        self.base, self.firers, self.mover = state, list(firers), mover
        self.target = state.board.hex_at(target)
        here = state.board.label(state.units[mover].hex)
        # every hex of the board: out of range or out of sight, the engine says so
        labels = sorted(
            (state.board.label(h) for h in state.board.hexes),
            key=lambda x: (int(x[:-1]), x[-1]),
        )
        self.where = W.Dropdown(
            options=labels,
            value=here,
            description=f"{mover} stands in",
            style={"description_width": "initial"},
        )
        self.out = W.HTML()
        self.where.observe(lambda _c: self.update(), names="value")
        self.widget = W.VBox([self.where, self.out])
        self.update()

    def update(self) -> str:
        state = moved(self.base, {self.mover: self.where.value}, face=self.target)
        self.state = state
        self.out.value = odds_table(state, self.target, self.firers)
        return self.out.value


class LogTable:
    """The game log of a live :class:`~hexclass.widgets.ca_app.GameApp`, newest last."""

    def __init__(self, app, rows: int = 12) -> None:
        self.app = app
        self.rows = W.IntSlider(value=rows, min=5, max=60, step=5, description="rows")
        self.button = W.Button(
            description="Show the latest events", icon="refresh", layout=W.Layout(width="auto")
        )
        self.out = W.HTML()
        self.button.on_click(lambda _b: self.refresh())
        self.rows.observe(lambda _c: self.refresh(), names="value")
        self.widget = W.VBox([W.HBox([self.button, self.rows]), self.out])
        self.refresh()

    def refresh(self) -> int:
        df = self.app.log_frame().tail(self.rows.value)
        rows = df[["turn", "phase", "kind", "text"]].values.tolist()
        self.out.value = table_html(["turn", "phase", "kind", "what happened"], rows)
        return len(rows)


# --- what if the assault had waited (turn 4 of the sample game) ---------------------------------

HELD_BACK = {"A1": "2e", "E1": "2b", "E2": "2b"}  # where the assault force stood before it moved


class AssaultWhatIf:
    """Turn 4 of the sample game: leave each platoon of the assault force next to the wood
    or hold it back, and read the engine's odds for the covering fire again."""

    def __init__(self, scenario: str = "sample-turn04-covering-fire", target: str = "4d") -> None:
        self.base = start(scenario)
        self.target = self.base.board.hex_at(target)
        self.firers = ["M2", "A3"]
        self.toggles = {
            uid: W.ToggleButtons(
                options=[
                    (f"next to the wood ({self._at(uid)})", False),
                    (f"held back ({back})", True),
                ],
                value=False,
                description=uid,
                style={"button_width": "auto"},
            )
            for uid, back in HELD_BACK.items()
        }
        self.out = W.HTML(layout=W.Layout(width="auto"))
        for t in self.toggles.values():
            t.observe(lambda _c: self.update(), names="value")
        self.widget = W.VBox([*self.toggles.values(), self.out])
        self.widget.add_class("hexclass-assault-what-if")
        self.update()

    def _at(self, uid: str) -> str:
        return self.base.board.label(self.base.units[uid].hex)

    def update(self):
        back = {uid: HELD_BACK[uid] for uid, t in self.toggles.items() if t.value}
        self.state = moved(self.base, back) if back else self.base
        adjacent = [u.id for u in self.state.friendly_adjacent(self.target)]
        who = ", ".join(sorted(adjacent)) or "none of your platoons"
        self.odds = (
            None
            if fire_refusal(self.state, self.target, self.firers)
            else fire_odds(self.state, self.target, self.firers)
        )
        self.out.value = (
            f"{CSS}<div class='hx-lesson'>Next to the wood: <b>{esc(who)}</b>.</div>"
            + odds_table(self.state, self.target, self.firers)
        )
        return self.odds


# --- the shot builder -----------------------------------------------------------------------------

TARGET = "6f"  # an enemy post in the middle of row 6 of an open board
FIRERS = {"rifle platoon D1": "D1", "MMG platoon M1": "M1", "armour platoon A1": "A1"}
NEIGHBOURS = {
    "nobody": None,
    "D2, a rifle platoon of D company": "D2",
    "E1, a rifle platoon of E company": "E1",
}


@dataclass(frozen=True)
class Shot:
    """The choices on the builder's sliders."""

    firer: str = "D1"
    distance: int = 2
    wood_beside_line: bool = False
    neighbour: str | None = None
    revealed: bool = True


@lru_cache(maxsize=1)
def _open_board():
    return sketch().board


@lru_cache(maxsize=256)
def side_hexes(a, b) -> tuple:
    """Hexes of the open board whose woods would only partly block the line a-b: the
    engine's ``friendly_line`` is asked with a wood in each candidate hex."""
    board = _open_board()
    out = []
    for h in board.hexes:
        if h in (a, b) or h in board.road:
            continue
        if hg.distance(h, a) + hg.distance(h, b) > hg.distance(a, b) + 1:
            continue  # nowhere near the line
        if friendly_line(sketch({board.label(h): "woods"}), a, b).partial:
            out.append(h)
    return tuple(out)


def _reading_order(board, h):
    label = board.label(h)
    return int(label[:-1]), label[-1]


@lru_cache(maxsize=16)
def firer_hex(target, distance: int):
    """Where the firer stands: ``distance`` hexes from the target on your side of it,
    preferring a hex whose line to the target runs along a hexside (so a wood can
    stand beside it)."""
    board = _open_board()
    row = _reading_order(board, target)[0]
    ring = [h for h in hg.ring(target, distance) if h in board.hex_set]
    ours = [h for h in ring if _reading_order(board, h)[0] < row] or ring
    ours.sort(key=lambda h: _reading_order(board, h))
    with_side = [h for h in ours if side_hexes(h, target)]
    return (with_side or ours)[0]


def beside_target(board, target, frm, taken) -> object:
    """A hex next to the target and off the line of fire: as far from the firer as the
    target itself, so it is never between them."""
    d = hg.distance(frm, target)
    spots = [
        h
        for h in hg.neighbours(target)
        if h in board.hex_set and h not in taken and hg.distance(h, frm) >= d
    ]
    return min(spots, key=lambda h: (hg.distance(h, frm), _reading_order(board, h)))


def shot_position(shot: Shot):
    """The open-board position for ``shot``: target post, firer, optional wood and neighbour.

    Returns the position and whether a wood could be put beside the line.
    """
    board = _open_board()
    target = board.hex_at(TARGET)
    frm = firer_hex(target, shot.distance)
    terrain = {}
    sides = side_hexes(frm, target)
    if shot.wood_beside_line and sides:
        terrain[board.label(sides[0])] = "woods"
    units = {shot.firer: board.label(frm)}
    if shot.firer.startswith("A"):
        units[shot.firer] += " " + hg.CORNER_NAMES[facing_towards(frm, target)].replace(" ", "_")
    if shot.neighbour:
        taken = {frm, *(board.hex_at(x) for x in terrain)}
        units[shot.neighbour] = board.label(beside_target(board, target, frm, taken))
    enemy = {TARGET: "real" if shot.revealed else "potential"}
    return sketch(terrain, units, enemy, phase="friendly_fire"), bool(sides)


class ShotBuilder:
    """Build one shot from its parts and watch the engine's modifiers change."""

    def __init__(self, hex_size: float = 26.0) -> None:
        self.firer = W.Dropdown(options=list(FIRERS.items()), value="D1", description="firer")
        self.distance = W.IntSlider(value=2, min=1, max=MAX_RANGE, description="range")
        self.wood = W.Checkbox(
            value=False, description="a wood beside the line of fire", indent=False
        )
        self.neighbour = W.Dropdown(
            options=list(NEIGHBOURS.items()),
            value=None,
            description="next to target",
            style={"description_width": "initial"},
        )
        self.revealed = W.ToggleButtons(
            options=[("revealed", True), ("unrevealed", False)], value=True, description="target"
        )
        self.view = CABoardView(hex_size=hex_size)
        self.view.board.canvas.layout.max_width = "520px"
        self.out = W.HTML(layout=W.Layout(width="auto"))
        self.note = W.HTML()
        for w in (self.firer, self.distance, self.wood, self.neighbour, self.revealed):
            w.observe(lambda _c: self.update(), names="value")
        controls = W.VBox(
            [self.firer, self.distance, self.wood, self.neighbour, self.revealed, self.note],
            layout=W.Layout(min_width="330px"),
        )
        self.widget = W.VBox(
            [W.HBox([controls, self.view.widget], layout=W.Layout(flex_flow="row wrap")), self.out]
        )
        self.update()

    @property
    def shot(self) -> Shot:
        return Shot(
            self.firer.value,
            self.distance.value,
            self.wood.value,
            self.neighbour.value,
            self.revealed.value,
        )

    def update(self):
        shot = self.shot
        state, wooded = shot_position(shot)
        self.state = state
        target = state.board.hex_at(TARGET)
        self.view.hl.fire_group = [shot.firer]
        self.view.hl.target = target
        self.view.show(state)
        notes = []
        if shot.wood_beside_line and not wooded:
            notes.append(
                f"At range {shot.distance} the line from here runs through hex centres, never "
                "along a hexside, so a wood could only block it outright (no shot at all). "
                "Try range 2 or 4 to see a partly blocked line."
            )
        self.note.value = CSS + "".join(f"<div class='hx-lesson'>{esc(n)}</div>" for n in notes)
        self.out.value = odds_table(state, target, [shot.firer])
        self.odds = (
            None
            if fire_refusal(state, target, [shot.firer])
            else fire_odds(state, target, [shot.firer])
        )
        return self.odds


# --- the sample game's decisions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision the sample game quotes a chance for, rebuilt and asked of the engine."""

    key: str
    title: str
    scenario: str
    quoted: str  # the chance the sample game prints
    story: str  # what happened, in our words
    ask: Callable  # state -> (chance, firers, target label, what the chance is of)
    setup: dict | None = None  # what-if placements before asking


def _fire(firers, target, what="pin"):
    def ask(state):
        odds = fire_odds(state, state.board.hex_at(target), list(firers))
        p = odds.pin if what == "pin" else odds.break_platoon
        return p, list(firers), target, f"{what} the enemy in {target}"

    return ask


def _mortar(target):
    def ask(state):
        h = state.board.hex_at(target)
        return mortar_odds(state, h).effect[h], [], target, f"mortar strike pins {target}"

    return ask


def _survival(unit, post, firers):
    def ask(state):
        p = armour_survival(state, state.board.hex_at(post), unit, list(firers))
        return p, list(firers), post, f"{unit} broken from {post} if its own fire fails"

    return ask


DECISIONS: tuple[Decision, ...] = (
    Decision(
        "t4-before",
        "Turn 4, before the advance: M2 and A3 cover the wood",
        "sample-turn04-covering-fire",
        "94%",
        "Two firers at range; with no friendly platoon next to the unrevealed wood, each "
        'gets +1 (CA "Fire Attacks").',
        _fire(("M2", "A3"), "4d"),
        setup={"A1": "2e", "E1": "2b", "E2": "2b"},
    ),
    Decision(
        "t4-after",
        "Turn 4, after the advance: the same two firers",
        "sample-turn04-covering-fire",
        "67%",
        "A1, E1 and E2 now stand next to the wood: the +1 for an unrevealed target with "
        "nobody adjacent is gone, and the odds fall.",
        _fire(("M2", "A3"), "4d"),
    ),
    Decision(
        "t4-e3",
        "Turn 4: E3 spends ammunition to join in",
        "sample-turn04-covering-fire",
        "78%",
        "A third roll from the farm across the road lifts the chance that at least one pins.",
        _fire(("M2", "A3", "E3"), "4d"),
    ),
    Decision(
        "t5-e1",
        "Turn 5: E1 alone assaults the wood",
        "sample-turn05-assault",
        "33%",
        "An adjacent rifle platoon breaks the enemy platoon on a modified 4 or more.",
        _fire(("E1",), "4d", "break"),
    ),
    Decision(
        "t5-e1e2",
        "Turn 5: E1 and E2 together",
        "sample-turn05-assault",
        "56%",
        "Doubling the assault gives two rolls, each able to break the platoon.",
        _fire(("E1", "E2"), "4d", "break"),
    ),
    Decision(
        "t11-fire",
        "Turn 11: D1 and A2 cover the assault through a fire lane",
        "sample-turn11-fire-lane",
        "67%",
        "The barrage lifts; two covering firers replace it.",
        _fire(("D1", "A2"), "6a"),
    ),
    Decision(
        "t11-mortar",
        "Turn 11: what the mortars had been giving",
        "sample-turn11-fire-lane",
        "83%",
        'A strike always includes the target hex and pins on 2 or more (CA "Mortars").',
        _mortar("6a"),
    ),
    Decision(
        "t15",
        "Turn 15: keep A2's tanks next to the enemy?",
        "sample-turn15-tanks-at-risk",
        "1 in 9",
        "If A2's own fire fails to pin the platoon beside it, the platoon may break the tanks.",
        _survival("A2", "6a", ("A2",)),
    ),
)


class SampleGameReplay:
    """Pick a decision from the sample game: the board shows it, the engine prices it."""

    def __init__(self, hex_size: float = 30.0) -> None:
        self.decisions = {d.key: d for d in DECISIONS}
        self.view = CABoardView(hex_size=hex_size)
        self.view.board.canvas.layout.max_width = "560px"
        self.pick = W.ToggleButtons(
            options=[(d.title.split(":")[0] + f" ({d.quoted})", d.key) for d in DECISIONS],
            value=DECISIONS[0].key,
            style={"button_width": "auto"},
        )
        self.text = W.HTML(layout=W.Layout(width="auto"))
        self.pick.observe(lambda _c: self.show(self.pick.value), names="value")
        self.widget = W.VBox(
            [
                self.pick,
                W.HBox([self.view.widget, self.text], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.show(DECISIONS[0].key)

    def position(self, key: str):
        d = self.decisions[key]
        state = start(d.scenario)
        if d.setup:
            state = moved(state, d.setup)
        return state

    def chance(self, key: str):
        """The engine's chance for decision ``key`` (a Fraction) and what it is of."""
        state = self.position(key)
        p, _firers, _target, what = self.decisions[key].ask(state)
        return p, what

    def show(self, key: str) -> None:
        d = self.decisions[key]
        state = self.position(key)
        p, firers, target, what = d.ask(state)
        h = state.board.hex_at(target)
        self.view.hl.fire_group, self.view.hl.target = firers, h
        self.view.hl.note_hexes = {h: pct(p)}
        self.view.show(state)
        self.state, self.current = state, (p, what)
        detail = odds_table(state, h, firers) if firers else ""
        if key == "t15":
            hit = enemy_fire_on_armour(state, h, "A2")
            detail += (
                f"<div class='hx-lesson'>Enemy fire on A2 from {esc(target)}: {pct(hit.probability)} "
                f"({hit.probability}); modifiers: "
                + "; ".join(esc(str(m)) for m in hit.modifiers)
                + f". Broken only if A2's fire fails first: (1 − pin) × hit = {p}.</div>"
            )
        if key == "t11-mortar":
            strike = mortar_odds(state, h)
            detail += (
                "<div class='hx-lesson'>Where the bombs land (engine): "
                + ", ".join(f"{state.board.label(x)} {pct(q)}" for x, q in strike.landing.items())
                + "</div>"
            )
        self.text.value = (
            f"{CSS}<div class='hx-lesson'><b>{esc(d.title)}</b><br>The sample game quotes "
            f"<b>{esc(d.quoted)}</b>; the engine gives <b>{pct(p)}</b> ({p}) to {esc(what)}."
            f"<p>{esc(d.story)}</p></div>{detail}"
        )


# --- playing as a team -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a guided turn: a seat tries an order; the engine accepts or refuses."""

    seat: str
    text: str
    make: Callable  # state -> action
    lesson: str  # what the step shows


def _first_enter(unit: str, row_label: str):
    def make(state):
        h = state.board.hex_at(row_label)
        unit_ = state.units[unit]
        facing = 4 if unit_.is_armour else None  # "bottom": towards the enemy's edge
        from hexclass.classroom.combined_arms import Enter

        return Enter(_seat_of(state, unit), unit, h, facing=facing)

    return make


def _seat_of(state, unit: str) -> str:
    return next(name for name, spec in state.seats.items() if unit in spec.units)


def _as(seat: str, make):
    """The same order, sent from another seat (to see the engine refuse it)."""

    def remade(state):
        from dataclasses import replace

        return replace(make(state), seat=seat)

    return remade


def _end(seat: str):
    def make(state):
        from hexclass.classroom.combined_arms import EndPhase

        return EndPhase(seat)

    return make


FIRST_TURN: tuple[Step, ...] = (
    Step(
        "D",
        "D company sends A1's tanks in",
        _as("D", _first_enter("A1", "1d")),
        "A seat moves only its own platoons: the armour belongs to the armour seat.",
    ),
    Step(
        "armour",
        "The armour seat enters A1 on 1d, facing the enemy",
        _first_enter("A1", "1d"),
        "Armour enters on a rear-edge hex, facing a corner.",
    ),
    Step(
        "D",
        "D company enters D1 on 1b",
        _first_enter("D1", "1b"),
        "Rifle platoons enter on your rear edge.",
    ),
    Step(
        "E",
        "E company enters E1 on 1f",
        _first_enter("E1", "1f"),
        "Spread out: the defender's payoff triples next to it and doubles for fresh platoons.",
    ),
    Step(
        "D",
        "D company tries to end the movement phase",
        _end("D"),
        "Only the overall commander ends a phase.",
    ),
    Step(
        "support",
        "The commander (support seat) ends the movement phase",
        _end("support"),
        "The team moves on to the fire phase; nothing is in range on turn 1.",
    ),
    Step(
        "support",
        "The commander ends the fire phase: the defender plays",
        _end("support"),
        "The engine plays the enemy phase and the next turn begins.",
    ),
)


class GuidedTurn:
    """A new team's first turn, step by step, on a real engine game with five seats."""

    def __init__(self, seed: int = 7, steps: Sequence[Step] = FIRST_TURN) -> None:
        from hexclass.classroom.combined_arms import new_game
        from hexclass.classroom.sessions.roles import layout_for

        self.layout = layout_for(5)
        self.steps = list(steps)
        self.seed = seed
        self.game = new_game(seed, seats=self.layout.specs())
        self.done = 0
        self.view = CABoardView(hex_size=26.0)
        self.view.board.canvas.layout.max_width = "480px"
        self.next_button = W.Button(description="Next step ▶", button_style="primary")
        self.reset_button = W.Button(description="Start again")
        self.card = W.HTML(layout=W.Layout(width="auto"))
        self.history = W.HTML()
        self.next_button.on_click(lambda _b: self.next())
        self.reset_button.on_click(lambda _b: self.reset())
        self.lines: list[str] = []
        self.widget = W.VBox(
            [
                W.HBox([self.next_button, self.reset_button]),
                W.HBox(
                    [self.view.widget, W.VBox([self.card, self.history])],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
            ]
        )
        self.render()

    def reset(self) -> None:
        from hexclass.classroom.combined_arms import new_game

        self.game = new_game(self.seed, seats=self.layout.specs())
        self.done, self.lines = 0, []
        self.render()

    def next(self) -> str | None:
        """Play the next step; returns the engine's refusal (None if it accepted)."""
        from hexclass.classroom.combined_arms import apply, check

        if self.done >= len(self.steps):
            return None
        step = self.steps[self.done]
        action = step.make(self.game)
        why = check(self.game, action)
        if why is None:
            before = len(self.game.events)
            apply(self.game, action)
            new = [e.text for e in self.game.events[before:] if e.kind != "phase"]
            self.lines.append(f"✔ {step.seat}: {step.text}. " + (new[-1] if new else ""))
        else:
            self.lines.append(f"✘ {step.seat}: {step.text}. Refused: {why}")
        self.done += 1
        self.render()
        return None if why is None else str(why)

    def render(self) -> None:
        s = self.game
        self.next_button.disabled = self.done >= len(self.steps)  # nothing left to play
        self.view.show(s)
        seats = "".join(
            f"<tr><td><b>{esc(seat.name)}</b></td><td>{esc(seat.title)}</td>"
            f"<td>{esc(', '.join(sorted(seat.units)) or '—')}</td>"
            f"<td>{esc(', '.join(sorted(seat.powers)) or '—')}</td></tr>"
            for seat in self.layout.seats
        )
        if self.done < len(self.steps):
            step = self.steps[self.done]
            nxt = f"Next: <b>{esc(step.seat)}</b> — {esc(step.text)}. <i>{esc(step.lesson)}</i>"
        else:
            nxt = "The first turn is over: the team is at the start of turn 2."
        self.card.value = (
            f"{CSS}<div class='hx-lesson'>Turn {s.turn}, {esc(s.phase.replace('_', ' '))}. {nxt}"
            f"<table class='hx-table'><tr><th>seat</th><th>command</th><th>platoons</th>"
            f"<th>powers</th></tr>{seats}</table></div>"
        )
        self.history.value = (
            CSS
            + "<div class='hx-lesson' style='font-size:12px'>"
            + "".join(f"<div>{esc(x)}</div>" for x in self.lines)
            + "</div>"
        )


def layout_rows(n: int) -> list[list[str]]:
    """The class server's seat layout for ``n`` players, one row a seat, in words."""
    from hexclass.classroom.sessions.roles import layout_for

    return [
        [
            s.name,
            s.title,
            ", ".join(sorted(s.units)) or "—",
            ", ".join(sorted(s.powers)) or "—",
            "yes" if s.is_commander else "",
        ]
        for s in layout_for(n).seats
    ]


def in_words(names: Sequence[str]) -> str:
    """'support', 'D and E', 'A, B and C'; 'no seat' for none."""
    names = list(names)
    if not names:
        return "no seat"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class TeamSize:
    """Choose how many players the team has; read the seats the class server would hand out,
    who is in overall command and who calls the mortars (CA p.7)."""

    def __init__(self, players: int = 3) -> None:
        self.players = W.ToggleButtons(
            options=[(f"{n} players", n) for n in range(2, 7)],
            value=players,
            description="team",
            style={"button_width": "auto"},
        )
        self.out = W.HTML(layout=W.Layout(width="auto"))
        self.players.observe(lambda _c: self.update(), names="value")
        self.widget = W.VBox([self.players, self.out])
        self.widget.add_class("hexclass-team-size")
        self.update()

    def update(self) -> str:
        from hexclass.classroom.sessions.roles import layout_for

        n = self.players.value
        lay = layout_for(n)
        self.out.value = (
            table_html(["seat", "commands", "platoons", "powers", "commander"], layout_rows(n))
            + f"{CSS}<div class='hx-lesson'>Overall commander (ends phases and the game): "
            f"<b>{esc(lay.commander().name)}</b>. Mortars called by: "
            f"<b>{esc(in_words(lay.seats_with('mortars')))}</b>.</div>"
        )
        return self.out.value


def joint_fire_position(seats):
    """D1 and A1 can both reach a real enemy platoon in 6f; E1 stands beside (CA p.7)."""
    units = {"D1": "5e", "E1": "5g"}
    board = _open_board()
    a1, t = board.hex_at("4f"), board.hex_at("6f")
    units["A1"] = "4f " + hg.CORNER_NAMES[facing_towards(a1, t)].replace(" ", "_")
    return sketch(units=units, enemy={"6f": "real"}, phase="friendly_fire", seats=seats)
