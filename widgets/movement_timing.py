"""The movement-timing lesson: the rebuilt phasing table, the worked examples, and a
phase-timing simulator on a small flat-topped hex map.

* :func:`phasing_table_html` -- which phases each allowance spends its points in;
* :func:`worked_examples` -- the source's examples (Diaz-Lozano-Hycondea, the APC and the
  infantry at Estel, the jungle company) played by the model, with what the text says;
* :class:`PhaseTimingLab` -- pick a scenario, edit each unit's orders (or click hexes on
  the map to add steps), then scrub through the 12 phases: the board shows where every
  unit is, the chart what each unit did in each phase, the log why, with the rule.

Every position, cost and event comes from :mod:`hexclass.classroom.movement`.
"""

from __future__ import annotations

from dataclasses import replace

import ipywidgets as W

from hexclass.classroom.movement import (
    ADMIN_PHASES,
    DIRECTION_NAMES,
    PHASES,
    Admin,
    FlatLayout,
    MovementInputError,
    Step,
    TurnResult,
    UnitType,
    Wait,
    direction_between,
    format_orders,
    parse_orders,
    run_turn,
    spending_phases,
    step,
)
from hexclass.classroom.movement.scenarios import ESTEL, HYCONDEA, SCENARIOS, diaz, jungle, village
from hexclass.classroom.movement.timing import (
    BOARD,
    DRIVE,
    ENTER,
    FIGHT,
    GATHER,
    IDLE,
    PURSUE,
    RETREAT,
    STOPPED,
    WAIT,
)

from .board import HexBoard
from .lesson_kit import CSS, InlineError, esc, table_html

TERRAIN_COLOURS = {
    "clear": "#eef3dc", "village": "#e2d6c3", "town": "#d9c7ad", "city": "#ccb596",
    "forest": "#a9cf9a", "hill": "#d8c99b", "jungle": "#7fb77e", "marsh": "#b7d3c9",
    "mountain": "#b9a98f", "water": "#9cc9e8",
}  # fmt: skip
SIDE_COLOURS = {"blue": "#1f5fa8", "red": "#b3261e"}
SYMBOLS = {
    IDLE: "no movement point spent", GATHER: "a point spent towards the next hex",
    ENTER: "a point spent and the hex entered", WAIT: "a wait (0) burns the phase",
    BOARD: "a point spent boarding for an admin move", DRIVE: "an admin move (even phases only)",
    FIGHT: "a round of combat", RETREAT: "retreat", PURSUE: "pursuit", STOPPED: "movement ends",
}  # fmt: skip
UNIT_ALLOWANCES = {
    m: [t.label for t in UnitType if t.allowance == m]
    for m in sorted({t.allowance for t in UnitType})
}


# --- tables -------------------------------------------------------------------------------------


def phasing_table_html() -> str:
    """The rebuilt "Movement Phasing by Unit Type" table: a dot where a point is spent."""
    head = "".join(
        f'<th style="text-align:center">{p}{"<br><small>A</small>" if p in ADMIN_PHASES else ""}</th>'
        for p in range(1, PHASES + 1)
    )
    rows = []
    for m, labels in UNIT_ALLOWANCES.items():
        spent = spending_phases(m)
        cells = "".join(
            f'<td style="text-align:center">{"●" if p in spent else ""}</td>'
            for p in range(1, PHASES + 1)
        )
        rows.append(f"<tr><th>{m} MP<br><small>{esc(', '.join(labels))}</small></th>{cells}</tr>")
    return (
        f'{CSS}<table class="hx-table"><tr><th>allowance</th>{head}</tr>{"".join(rows)}</table>'
        f'<div class="hx-lesson"><small>● a movement point is spent in that phase; '
        f"A: road and rail admin moves happen on the even phases.</small></div>"
    )


def chart_html(t: TurnResult, upto: int = PHASES) -> str:
    """One row per unit, one column per phase: what the unit did (see SYMBOLS)."""
    head = "".join(
        f'<th style="text-align:center;{"background:#ffe9a8" if p == upto else ""}">{p}</th>'
        for p in range(1, PHASES + 1)
    )
    rows = []
    for u in t.units:
        chart = t.chart(u.name)
        cells = "".join(
            f'<td title="{esc(SYMBOLS.get(ch, ""))}" style="text-align:center;'
            f'{"color:#bbb;" if p > upto else ""}{"background:#fff4cc" if p == upto else ""}">{esc(ch)}</td>'
            for p, ch in enumerate(chart, start=1)
        )
        colour = SIDE_COLOURS.get(u.side, "#333")
        rows.append(
            f'<tr><th style="color:{colour}">{esc(u.name)} ({u.allowance} MP)</th>{cells}</tr>'
        )
    legend = " · ".join(f"<code>{esc(k)}</code> {esc(v)}" for k, v in SYMBOLS.items())
    return (
        f'{CSS}<table class="hx-table"><tr><th>unit</th>{head}</tr>{"".join(rows)}</table>'
        f'<div class="hx-lesson"><small>{legend}</small></div>'
    )


# --- worked examples ---------------------------------------------------------------------------------


def worked_examples() -> list[tuple[str, str, str]]:
    """(example, what the text says, what the model shows) for each example in the source."""
    out = []
    sc = diaz("506,501")
    t = run_turn(sc.world, sc.units)
    hyc = sc.world.centres[HYCONDEA].hex
    out.append(
        (
            "Admin: Diaz → Lozano → Hycondea (orders 506,501), a 12-MP unit",
            "2 admin phases, worth 4 land-movement phases",
            f"in Hycondea at the end of phase {t.arrival('convoy', hyc)}, {t.spent['convoy']} MP spent; chart {t.chart('convoy')[:4]}",
        )
    )
    t = run_turn(*_units(diaz("501")))
    out.append(
        (
            "Admin: Diaz → Hycondea without naming Lozano",
            "the order must include Lozano",
            f"refused: {t.events[0].text.split(': ', 1)[-1]}",
        )
    )
    t = run_turn(*_units(diaz("6,6,1,1,6,1")))
    out.append(
        (
            "Tactical: Diaz → Hycondea (6,6,1,1,6,1), 12 MP",
            "6 phases, given the points",
            f"in Hycondea at the end of phase {t.arrival('convoy', hyc)}",
        )
    )
    sc = diaz("506,03825", start_north=True)
    t = run_turn(sc.world, sc.units)
    out.append(
        (
            "Admin from the road north of Diaz to hex 3825 (506,03825)",
            "2 admin phases; Lozano must be friendly",
            f"at hex {sc.world.label(t.position('convoy', 4))} at the end of phase 4",
        )
    )
    sc = village()
    t = run_turn(sc.world, sc.units)
    estel = sc.world.centres[ESTEL].hex
    out.append(
        (
            "APC Tacapulco → Estel (7 hexes), infantry 0,0,0,0,0,605",
            "the APC arrives at the end of phase 7; the infantry drives in on the last phase",
            f"APC in Estel at phase {t.arrival('APC', estel)} (Estel blue from phase 7: "
            f"{t.control(ESTEL, 7)}); infantry at phase {t.arrival('Infantry', estel)}, chart {t.chart('Infantry')}",
        )
    )
    sc = jungle()
    t = run_turn(sc.world, sc.units)
    cap = sc.world.centres[101].hex
    out.append(
        (
            "Jungle company 5,5,5,5,101 (forest, a minor river, then the road)",
            'arrives on "phase 5" (its fifth instruction)',
            f"reaches the road with its 5th point (phase 10), drives into hex {sc.world.label(cap)} "
            f"on phase {t.arrival('jungle company', cap)}; chart {t.chart('jungle company')}",
        )
    )
    return out


def _units(sc):
    return sc.world, sc.units


def worked_examples_html() -> str:
    return table_html(["example", "the text", "the model"], worked_examples())


# --- planning helpers ------------------------------------------------------------------------------


def planned_end(world, unit) -> tuple[int, int]:
    """Where the unit's orders aim to take it (ignoring time, combat and costs)."""
    h = unit.hex
    for instr in parse_orders(unit.orders):
        if isinstance(instr, Step):
            h = step(h, instr.direction)
        elif isinstance(instr, Admin):
            if instr.hex_label is not None:
                h = world.hex_for_label(instr.hex_label)
            elif instr.centre in world.centres:
                h = world.centres[instr.centre].hex
    return h


def order_for_click(world, unit, target) -> str | None:
    """The instruction a click on ``target`` adds: a direction to a neighbour of the plan's
    end, 0 on the end itself, a centre number on a centre further away."""
    end = planned_end(world, unit)
    if target == end:
        return str(Wait())
    d = direction_between(end, target)
    if d is not None:
        return str(d)
    c = world.centre_at(target)
    if c is not None:
        return str(c.id)
    return None


# --- the simulator ------------------------------------------------------------------------------------


CHAR_EM = 0.62  # width of one bold character, in ems, near enough for fitting labels
CHAR_PX = 10 * CHAR_EM  # at the counters' largest font, 10 px


def counter_text(name: str, width: float, largest: int = 10) -> tuple[str, int]:
    """The label and font size (px) for a counter ``width`` pixels wide: the whole name
    at the largest size down to 8 px that fits, else the initials of a several-word name
    or the first letters of a one-word name at the largest size."""
    for px in range(largest, 7, -1):
        if len(name) * CHAR_EM * px + 4 <= width:
            return name, px
    return counter_label(name, width * 10 / largest), largest


def counter_label(name: str, width: float = 62.0) -> str:
    """A label that fits a counter ``width`` pixels wide at 10 px: the whole name if it
    fits, else the initials of a several-word name, else its first letters with a point."""
    room = max(3, int((width - 4) / CHAR_PX))
    if len(name) <= room:
        return name
    words = name.split()
    if len(words) > 1:
        return "".join(w[0] for w in words).upper()
    return name[: room - 1] + "." if room >= 4 else name[:room]  # "Inf." for Infantry


def stack_boxes(x: float, y: float, n: int, size: float) -> list[tuple[float, float, float, float]]:
    """(left, top, width, height) of ``n`` counters stacked one above another inside the
    flat-topped hex of ``size`` centred on (x, y): each wholly inside the hex, none
    overlapping, so no counter of a stack hides another."""
    usable = size * 3**0.5 * 0.86  # the hex's height, less a margin
    h = min(size * 0.62, usable / n - 2)
    boxes = []
    for i in range(n):
        cy = y + (i - (n - 1) / 2) * (h + 2)
        outer = abs(cy - y) + h / 2  # the row's edge furthest from the centre line
        w = min(size * 1.7, 2 * size - 2 * outer / 3**0.5 - 4)
        boxes.append((x - w / 2, cy - h / 2, w, h))
    return boxes


class PhaseTimingLab:
    """A phase-by-phase simulator of one turn on a small map."""

    def __init__(self, scenario: str = "village", hex_size: float = 30.0) -> None:
        self.hex_size = hex_size
        self.scenario_pick = W.Dropdown(
            options=[
                ("The APC and the infantry at Estel", "village"),
                ("Diaz, Lozano, Hycondea City", "diaz"),
                ("The jungle company", "jungle"),
                ("Pursuit and breakthrough", "pursuit"),
            ],
            value=scenario,
            description="scenario",
            layout=W.Layout(width="400px"),
        )
        self.unit_pick = W.Dropdown(
            description="clicks plan for", style={"description_width": "110px"}
        )
        self.undo = W.Button(description="Undo last order", icon="undo")
        self.reset = W.Button(description="Reset orders", icon="refresh")
        self.phase = W.IntSlider(
            value=PHASES,
            min=0,
            max=PHASES,
            description="after phase",
            continuous_update=True,
            layout=W.Layout(width="420px"),
        )
        self.prev = W.Button(description="◀", layout=W.Layout(width="44px"))
        self.next = W.Button(description="▶", layout=W.Layout(width="44px"))
        self.error = InlineError()
        self.orders_box = W.VBox()
        self.chart = W.HTML()
        self.status = W.HTML()
        self.log = W.HTML(layout=W.Layout(max_height="260px", overflow="auto"))
        self.board_box = W.Box(
            layout=W.Layout(margin="0 12px 0 0", width="620px", max_width="100%")
        )
        self.order_fields: dict[str, W.Text] = {}
        self.pursuit_fields: dict[str, W.Dropdown] = {}
        self.seed = W.BoundedIntText(
            value=1,
            min=0,
            max=10**9,
            description="dice seed",
            tooltip="the seeded dice for pursuit rolls",
            layout=W.Layout(width="180px"),
        )
        self.seed.observe(lambda _c: self.run(), names="value")
        self.result: TurnResult | None = None
        self.scenario_pick.observe(lambda _c: self.load(self.scenario_pick.value), names="value")
        self.phase.observe(lambda _c: self.show_phase(), names="value")
        self.prev.on_click(lambda _b: self._nudge(-1))
        self.next.on_click(lambda _b: self._nudge(+1))
        self.undo.on_click(lambda _b: self.undo_last())
        self.reset.on_click(lambda _b: self.load(self.scenario_pick.value))
        self.unit_pick.observe(
            lambda _c: self.board and self.board.redraw("overlay"), names="value"
        )
        self.board: HexBoard | None = None
        self.widget = W.VBox(
            [
                W.HBox(
                    [self.scenario_pick, self.reset, self.seed],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.orders_box,
                W.HBox([self.unit_pick, self.undo], layout=W.Layout(flex_flow="row wrap")),
                self.error.widget,
                W.HBox([self.prev, self.phase, self.next]),
                W.HBox(
                    [
                        self.board_box,
                        W.VBox([self.status, self.log], layout=W.Layout(width="420px")),
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.chart,
            ],
            layout=W.Layout(overflow="hidden"),
        )
        self.widget.add_class("hexclass-movement-timing")
        self.load(scenario)

    # --- scenario and orders ----------------------------------------------------------------
    def load(self, key: str) -> None:
        sc = SCENARIOS[key]()
        self.scenario = sc
        self.world = sc.world
        self.units = list(sc.units)
        self.order_fields = {}
        self.pursuit_fields = {}
        rows = []
        for u in self.units:
            field = W.Text(
                value=format_orders(parse_orders(u.orders)),
                description=u.name,
                placeholder="e.g. 1,1,0,605",
                continuous_update=False,
                style={"description_width": "120px"},
                layout=W.Layout(width="440px"),
            )
            field.observe(lambda _c: self.run(), names="value")
            self.order_fields[u.name] = field
            hint = W.HTML(
                f'<span style="color:{SIDE_COLOURS.get(u.side, "#333")}">{esc(u.kind.label)}, '
                f"{u.allowance} MP, {esc(u.side)}</span>"
            )
            row = [field, hint]
            if u.side == "blue":
                choices = [("1 don't pursue", 1), ("2 pursue", 2)] + (
                    [("3 breakthrough", 3)] if u.kind.armoured else []
                )
                pick = W.Dropdown(
                    options=choices,
                    value=u.pursuit,
                    description="pursuit",
                    layout=W.Layout(width="210px"),
                )
                pick.observe(lambda _c: self.run(), names="value")
                self.pursuit_fields[u.name] = pick
                row.append(pick)
            rows.append(W.HBox(row, layout=W.Layout(flex_flow="row wrap")))
        self.orders_box.children = rows
        movers = [u.name for u in self.units if u.side == "blue"]
        self.unit_pick.options = movers
        self.unit_pick.value = movers[0] if movers else None
        self._build_board()
        self.run()

    def set_orders(self, name: str, text: str) -> None:
        self.order_fields[name].value = text  # runs the turn through the observer

    def add_order(self, name: str, instruction: str) -> None:
        current = self.order_fields[name].value.strip()
        self.set_orders(name, f"{current},{instruction}" if current else instruction)

    def undo_last(self) -> None:
        name = self.unit_pick.value
        if name:
            parts = [p for p in self.order_fields[name].value.split(",") if p.strip()]
            self.set_orders(name, ",".join(parts[:-1]))

    def current_units(self):
        return [
            replace(
                u,
                orders=parse_orders(self.order_fields[u.name].value),
                pursuit=self.pursuit_fields[u.name].value
                if u.name in self.pursuit_fields
                else u.pursuit,
            )
            for u in self.units
        ]

    def run(self) -> bool:
        try:
            result = run_turn(self.world, self.current_units(), seed=self.seed.value)
        except MovementInputError as exc:
            self.error.show(exc)
            return False
        self.error.clear()
        self.result = result
        self.show_phase()
        return True

    # --- display -------------------------------------------------------------------------------
    def _nudge(self, d: int) -> None:
        self.phase.value = min(max(self.phase.value + d, 0), PHASES)

    def show_phase(self) -> None:
        t, p = self.result, self.phase.value
        if t is None:
            return
        self.chart.value = chart_html(t, p)
        rows = []
        for u in t.units:
            h = t.position(u.name, p)
            where = self.world.label(h) if h is not None else "destroyed"
            c = self.world.centre_at(h) if h is not None else None
            rows.append((u.name, where + (f" ({c.name})" if c else ""), t.phases[p].modes[u.name]))
        control = [
            (c.name, t.control(cid, p) or "contested") for cid, c in self.world.centres.items()
        ]
        self.status.value = table_html(["unit", f"hex after phase {p}", "mode"], rows) + table_html(
            ["centre", "physical control"], control
        )
        events = [e for e in t.events if e.phase <= p]
        self.log.value = (
            f'{CSS}<div class="hx-lesson"><b>What happened</b><ul>'
            + "".join(f"<li>{esc(str(e))}</li>" for e in events)
            + ("" if events else "<li>nothing yet</li>")
            + "</ul></div>"
        )
        if self.board is not None:
            self.board.redraw("counters", "overlay")

    def _build_board(self) -> None:
        self.board = HexBoard(
            self.world.terrain,
            hex_size=self.hex_size,
            layout_type=FlatLayout,
            max_width="620px",
            layers=("terrain", "overlay", "counters"),
        )
        self.board.set_painter("terrain", self._paint_terrain)
        self.board.set_painter("counters", self._paint_units)
        self.board.set_painter("overlay", self._paint_overlay)
        self.board.on_click(self.click)
        self.board_box.children = [self.board.canvas]
        self.board.redraw()

    def click(self, h, _x: float = 0, _y: float = 0) -> str | None:
        """Add the order a click on ``h`` means for the unit being planned."""
        name = self.unit_pick.value
        if h is None or not name:
            return None
        unit = next(u for u in self.current_units() if u.name == name)
        instr = order_for_click(self.world, unit, h)
        if instr is None:
            self.error.show(
                f"{self.world.label(h)} is not next to where {name}'s orders end; click a "
                "neighbouring hex, the end hex itself (wait) or a centre (admin move)"
            )
            return None
        self.add_order(name, instr)
        return instr

    # --- painters -------------------------------------------------------------------------------
    def _paint_terrain(self, c) -> None:
        b, w = self.board, self.world
        hexes = list(w.terrain)
        b.fill_hexes(c, hexes, [TERRAIN_COLOURS.get(w.terrain[h], "#eeeeee") for h in hexes])
        b.stroke_hexes(c, hexes, "#8a8a7a", 0.8)
        for r in w.routes:
            pairs = list(zip(r.hexes, r.hexes[1:]))
            b.segments(
                c,
                pairs,
                "#333333" if r.rail else "#9b6b3a",
                4 if not r.rail else 2,
                dash=(6, 4) if r.rail else (),
            )
        sides = [self._edge(a, bb) for a, bb in (tuple(s) for s in w.minor_rivers | w.major_rivers)]
        if sides:
            import numpy as np

            c.stroke_style = "#2d7fd3"
            c.line_width = 4
            c.stroke_line_segments(np.array(sides, dtype=float))
        b.texts(
            c,
            [(h, w.label(h)) for h in hexes],
            color="#77705f",
            font="9px sans-serif",
            dy=-self.hex_size * 0.62,
        )
        b.texts(
            c,
            [(ct.hex, f"{ct.id} {ct.name.split()[0]}") for ct in w.centres.values()],
            color="#3b2f1e",
            font="bold 9px sans-serif",
            dy=self.hex_size * 0.58,
        )

    def _edge(self, a, b):
        """The two corners hexes ``a`` and ``b`` share, as a line segment."""
        lay = self.board.layout
        ax, ay = lay.hex_to_pixel(a)
        bx, by = lay.hex_to_pixel(b)
        corners = sorted(lay.polygon(a), key=lambda pt: (pt[0] - bx) ** 2 + (pt[1] - by) ** 2)[:2]
        return [list(corners[0]), list(corners[1])]

    def _paint_units(self, c) -> None:
        t, p, b = self.result, self.phase.value, self.board
        if t is None:
            return
        for u in t.units:
            trail = [t.position(u.name, q) for q in range(p + 1)]
            trail = [h for h in trail if h is not None]
            pairs = [(x, y) for x, y in zip(trail, trail[1:]) if x != y]
            b.segments(c, pairs, SIDE_COLOURS.get(u.side, "#333"), 2, dash=(4, 3))
        stacks: dict = {}
        for u in t.units:
            h = t.position(u.name, p)
            if h is not None:
                stacks.setdefault(h, []).append(u)
        c.text_align = "center"
        c.text_baseline = "middle"
        for h, us in stacks.items():
            x, y = b.centre(h)
            for u, (left, top, w, ht) in zip(us, stack_boxes(x, y, len(us), self.hex_size)):
                c.fill_style = SIDE_COLOURS.get(u.side, "#333")
                c.fill_rect(left, top, w, ht)
                c.fill_style = "#ffffff"
                label, px = counter_text(u.name, w, min(10, int(ht - 2)))
                c.font = f"bold {px}px sans-serif"
                c.fill_text(label, left + w / 2, top + ht / 2)

    def _paint_overlay(self, c) -> None:
        name = self.unit_pick.value
        if not name or self.result is None:
            return
        unit = next(u for u in self.current_units() if u.name == name)
        try:
            end = planned_end(self.world, unit)
        except MovementInputError:
            return
        b = self.board
        around = [step(end, d) for d in DIRECTION_NAMES if step(end, d) in self.world.terrain]
        b.fill_hexes(c, around, "#ffe066", alpha=0.35)
        b.stroke_hexes(c, [end], "#d4a000", 3)
        b.texts(
            c,
            [(step(end, d), str(d)) for d in DIRECTION_NAMES if step(end, d) in self.world.terrain],
            color="#6b5200",
            font="bold 11px sans-serif",
            dy=-self.hex_size * 0.3,
        )


GLOSSARY = {
    "movement allowance (MA)": 'points a unit may spend in one turn, set by how it travels (PBM "Movement Allowance")',
    "phase": 'one of the 12 slices of a turn; units spend points in some or all of them (PBM "Movement Phasing by Unit Type")',
    "tactical mode": "moving hex by hex ready to fight, paying terrain costs; orders are directions 1-6",
    "administrative (admin) mode": "riding road or rail from centre to centre on even phases, fast but unready for combat",
    "centre": "a village, town or city (or an installation) on the road and rail network",
    "route": "road or railway from one centre to the next with no centre between",
    "physical control": "who holds a centre at the end of a phase: the side present, else the economic owner",
    "wait (0)": "an order that burns the unit's next movement phase where it stands",
    "pursuit": 'chasing a beaten enemy: the loser falls back two hexes, the pursuer follows one (PBM "Pursuit")',
    "breakthrough": 'armour or mechanised units ignoring an enemy without anti-tank weapons (PBM "Breakthrough")',
}
