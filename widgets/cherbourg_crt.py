"""The Cherbourg combat-table lesson: worked examples, a CRT explorer, a bombing explorer.

* :func:`worked_examples` -- the rule book's own examples (Cherbourg 4.0, 5.1.1, 6.2, 8.0,
  9.0), each computed by the model and printed with its rule;
* :class:`CRTExplorer` -- set the forces and the situation, read the column with every
  step that moved it, the exact outcome chances of that column next to the chances one
  column further right ("what does one more column buy?"), the whole table with the
  column lit up, and a roll with the lesson's seeded dice;
* :class:`BombingExplorer` -- air points or guns against a stack, its vulnerability, the
  Bombing Table column and the chance of a casualty.

Every number comes from :mod:`hexclass.classroom.cherbourg`; the widgets only gather inputs.
"""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as W

from hexclass.classroom.cherbourg import (
    AIR,
    ARTILLERY,
    BOMB_COLUMNS,
    COLUMNS,
    TERRAIN,
    CherbourgInputError,
    Combat,
    Unit,
    UnitType,
    bombardment,
    casualty_chance,
    combat_column,
    dislodge_chance,
    distribution,
    infantry,
    lookup,
    odds_column,
    path_cost,
    win_chance,
)
from hexclass.classroom.cherbourg.bombardment import artillery_power
from hexclass.classroom.cherbourg.crt import expected_losses
from hexclass.classroom.dice import Dice

from .lesson_kit import CSS, InlineError, esc, table_html

# Colours for result families: the defender holds (blues), stalemate (grey), the
# defender leaves (oranges), bloodbath (purple).
FAMILY_COLOURS = {
    "DV": "#0072b2",
    "IMP": "#999999",
    "DR": "#e69f00",
    "DE": "#d55e00",
    "EMP": "#8e44ad",
}


def family(code: str) -> str:
    for key in ("EMP", "IMP", "DE", "DR", "DV"):
        if code.startswith(key):
            return key
    return "IMP"


def pct(x: Fraction) -> str:
    return f"{float(x) * 100:.1f} %"


def of36(x: Fraction) -> str:
    return f"{x * 36}/36"


# --- worked examples ------------------------------------------------------------------------


def worked_examples() -> list[tuple[str, str, str]]:
    """(rule, what the book works out, what the model gets) for each example in the text."""
    german_stack = [
        infantry("i1"),
        infantry("i2"),
        infantry("i3"),
        Unit("Pz", UnitType.ARMOUR, 3, 3, 8),
    ]
    air = bombardment(6, german_stack, AIR, ["clear"])
    air_forest = bombardment(6, german_stack, AIR, ["grove"])
    guns = [Unit(f"3-1-4 #{i}", UnitType.ARTILLERY, 3, 1, 4, range=6) for i in (1, 2)]
    shelled = [Unit("Pz", UnitType.ARMOUR, 3, 3, 8), infantry("i1"), infantry("i2")]
    art = bombardment(artillery_power(guns), shelled, ARTILLERY, ["clear"])
    ship = Unit("naval support", UnitType.NAVAL_SUPPORT, 4, 4, 6)
    coast = [
        Unit("3-1-0(15)", UnitType.COASTAL_ARTILLERY, 3, 1, 0, range=15),
        Unit("2-1-4(6)", UnitType.ARTILLERY, 2, 1, 4, range=6),
    ]
    naval = bombardment(artillery_power(coast), [ship], ARTILLERY, ["sea"])
    walk = path_cost(["clear", "bocage", "river", "grove"], motorised=False)
    return [
        (
            "Cherbourg 4.0",
            "a 4-4-6 walks open, bocage, river, grove",
            f"{walk:g} movement points: its whole allowance of 6",
        ),
        (
            "Cherbourg 5.1.1",
            "11 attack points against 4 defence points",
            f"11/4 = 2.75, the fraction dropped: column {COLUMNS[odds_column(11, 4)]}",
        ),
        (
            "Cherbourg 6.2",
            "6 air points on 3 infantry + 1 armour",
            f"vulnerability {air.vulnerability}, value {air.value}: column {air.column_name}; "
            f"in a forest one column left: {air_forest.column_name}",
        ),
        (
            "Cherbourg 8.0",
            "two 3-1-4 batteries on 1 armour + 2 infantry",
            f"power {art.power} x vulnerability {art.vulnerability} = {art.value}: column {art.column_name}",
        ),
        (
            "Cherbourg 9.0",
            "two coastal guns (3 + 2) on the naval support piece",
            f"power {naval.power} x vulnerability {naval.vulnerability} = {naval.value}: the first column, "
            f"{naval.column_name} (the text calls it 13-24; see docs/rules-notes.md)",
        ),
    ]


def worked_examples_html() -> str:
    return table_html(["rule", "the book's example", "the model"], worked_examples())


# --- building a combat from the explorer's controls -----------------------------------------


def explorer_combat(
    attack: int,
    defence: int,
    terrain: tuple[str, ...] = ("clear",),
    armour: bool = False,
    surrounded: bool = False,
    attack_regiments: int = 0,
    defence_regiment: bool = False,
    division: bool = False,
) -> Combat:
    """A :class:`Combat` with the given totals and situation, for the model to judge.

    The attack is split between stand-in battalions: ``attack_regiments`` complete
    regiments (each one battalion in the order of battle), a tank battalion if ``armour``,
    and the rest as one infantry battalion; ``division`` puts three regiments of one
    division in the attack (Cherbourg 5.1.4).
    """
    if attack < 1 or defence < 1:
        raise CherbourgInputError("both sides need at least 1 point (Cherbourg 5.1.1)")
    regs = max(attack_regiments, 3 if division else 0)
    kinds = ([UnitType.ARMOUR] if armour else []) + [UnitType.INFANTRY] * max(regs, 1)
    n = len(kinds)
    if attack < n:
        raise CherbourgInputError(f"{n} attacking units need at least {n} attack points")
    shares = [attack // n + (1 if i < attack % n else 0) for i in range(n)]
    oob: dict[str, frozenset[str]] = {}
    attackers = []
    for i, (kind, share) in enumerate(zip(kinds, shares)):
        name = f"attacker {i + 1}"
        reg = div = ""
        inf_index = i - (1 if armour else 0)
        if kind is UnitType.INFANTRY and inf_index < regs:
            # the model says "regiment 8 attacks complete": numbers only (4th DI's 8th, 12th, 22nd)
            reg = ("8", "12", "22", "359")[inf_index % 4] if inf_index < 4 else str(inf_index)
            div = "4th DI" if division else f"division {inf_index + 1}"
            complete = inf_index < attack_regiments
            oob[reg] = frozenset({name}) if complete else frozenset({name, f"{name} (absent)"})
        attackers.append(Unit(name, kind, share, 1, 6, regiment=reg, division=div))
    defender = Unit(
        "defender",
        UnitType.INFANTRY,
        1,
        defence,
        6,
        side="DE",
        regiment="919" if defence_regiment else "",
    )
    if defence_regiment:
        oob["919"] = frozenset({"defender"})
    return Combat(tuple(attackers), (defender,), tuple(terrain), surrounded, order_of_battle=oob)


# --- HTML pieces ------------------------------------------------------------------------------


def distribution_bars(column: int, title: str) -> str:
    """One column's outcomes as bars, longest first, with exact chances."""
    rows = []
    for code, p in distribution(column).items():
        width = float(p) * 100 * 3
        colour = FAMILY_COLOURS[family(code)]
        bar = f'<div style="background:{colour};height:12px;width:{width:.0f}px;display:inline-block"></div>'
        rows.append(
            f"<tr><td><code>{esc(code)}</code></td><td>{bar}</td><td>{of36(p)}</td><td>{pct(p)}</td></tr>"
        )
    att, dfn = expected_losses(column)
    foot = (
        f"<tr><td colspan=4>attacker wins {pct(win_chance(column))} · defender leaves "
        f"{pct(dislodge_chance(column))} · mean losses: attacker {float(att):.2f}, "
        f"defender {float(dfn):.2f} steps (EMP left out)</td></tr>"
    )
    return (
        f'{CSS}<div class="hx-lesson"><b>{esc(title)}</b><table class="hx-table">'
        f"{''.join(rows)}{foot}</table></div>"
    )


def one_more_column(column: int) -> str:
    """What moving one column right changes, in exact chances (or why it cannot)."""
    if column == len(COLUMNS) - 1:
        return f"{COLUMNS[column]} is the last column: one more column buys nothing."
    nxt = column + 1
    dw = win_chance(nxt) - win_chance(column)
    dd = dislodge_chance(nxt) - dislodge_chance(column)
    la, ld = expected_losses(column)
    na, nd = expected_losses(nxt)
    return (
        f"From {COLUMNS[column]} to {COLUMNS[nxt]}: the attacker's chance of winning rises by "
        f"{of36(dw)} ({pct(dw)}), the chance the defenders leave by {of36(dd)}; mean attacker "
        f"losses change by {float(na - la):+.2f} and defender losses by {float(nd - ld):+.2f} steps."
    )


def crt_html(column: int | None = None, roll: int | None = None) -> str:
    """The whole table, the chosen column shaded and the rolled cell outlined."""
    head = "".join(
        f'<th style="{"background:#ffe9a8" if i == column else ""}">{c}</th>'
        for i, c in enumerate(COLUMNS)
    )
    body = []
    for rolls in ((2, 12), (3, 11), (4, 10), (5, 9), (6, 8), (7,)):
        label = " / ".join(map(str, rolls))
        cells = []
        for i in range(len(COLUMNS)):
            code = lookup(i, rolls[0]).code
            style = f"color:{FAMILY_COLOURS[family(code)]}"
            if i == column:
                style += ";background:#fff4cc"
            if i == column and roll in rolls:
                style += ";outline:2px solid #222;font-weight:bold"
            cells.append(f'<td style="{style}">{esc(code)}</td>')
        body.append(f"<tr><th>{label}</th>{''.join(cells)}</tr>")
    wins = "".join(f"<td>{float(win_chance(i)) * 100:.0f}%</td>" for i in range(len(COLUMNS)))
    gains = "".join(
        f"<td>+{(win_chance(i + 1) - win_chance(i)) * 36}/36</td>"
        if i + 1 < len(COLUMNS)
        else "<td>—</td>"
        for i in range(len(COLUMNS))
    )
    return (
        f'{CSS}<table class="hx-table" style="font-size:12px"><tr><th>2d6</th>{head}</tr>'
        f"{''.join(body)}<tr><th>attacker wins</th>{wins}</tr>"
        f"<tr><th>one column right adds</th>{gains}</tr></table>"
    )


def chances_svg(column: int | None = None, width: int = 560, height: int = 230) -> str:
    """Win and hold chances by column as an inline SVG chart, the current column marked.

    Plain SVG rather than a matplotlib PNG: it redraws in well under a millisecond, where
    a figure took over a second per input (benchmarks/lesson_new_sources.py)."""
    left, right, top, bottom = 44, 12, 12, 34
    n = len(COLUMNS)
    x = [left + i * (width - left - right) / (n - 1) for i in range(n)]

    def y(p: Fraction) -> float:
        return top + (1 - float(p)) * (height - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" style="max-width:100%;font:11px sans-serif">'
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        ty = y(Fraction(tick))
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#e3e3e3"/>'
            f'<text x="{left - 6}" y="{ty + 4:.1f}" text-anchor="end">{int(tick * 100)}%</text>'
        )
    for i, name in enumerate(COLUMNS):
        parts.append(
            f'<text x="{x[i]:.1f}" y="{height - bottom + 16}" text-anchor="middle">{name}</text>'
        )
    if column is not None:
        parts.append(
            f'<line x1="{x[column]:.1f}" x2="{x[column]:.1f}" y1="{top}" y2="{height - bottom}" '
            'stroke="#444" stroke-dasharray="3,3"/>'
        )
    for label, colour, fn in (
        ("attacker wins (AV)", "#e69f00", win_chance),
        ("defence holds (DV)", "#0072b2", chance_hold),
    ):
        pts = " ".join(f"{x[i]:.1f},{y(fn(i)):.1f}" for i in range(n))
        parts.append(
            f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2">'
            f"<title>{label}</title></polyline>"
        )
        parts += [
            f'<circle cx="{x[i]:.1f}" cy="{y(fn(i)):.1f}" r="3" fill="{colour}"/>' for i in range(n)
        ]
    parts.append(
        f'<text x="{width - right}" y="{height - 4}" text-anchor="end">'
        '<tspan fill="#e69f00">● attacker wins (AV)</tspan>  <tspan fill="#0072b2">● defence holds (DV)</tspan></text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def chance_hold(column: int) -> Fraction:
    return sum(
        (p for code, p in distribution(column).items() if code.startswith("DV")), Fraction(0)
    )


# --- the CRT explorer -------------------------------------------------------------------------

TERRAIN_CHOICES = [t for t in TERRAIN if t != "sea"]


class CRTExplorer:
    """Set the forces, see the column and its odds, roll with the lesson's dice."""

    def __init__(self, seed: int = 1944, plot: bool = True) -> None:
        self.dice = Dice(seed)
        style = {"description_width": "170px"}
        lay = W.Layout(width="380px")
        self.attack = W.BoundedIntText(
            value=11, min=1, max=200, description="attack points", style=style, layout=lay
        )
        self.defence = W.BoundedIntText(
            value=4, min=1, max=200, description="defence points", style=style, layout=lay
        )
        self.terrain = W.SelectMultiple(
            options=TERRAIN_CHOICES,
            value=("clear",),
            rows=6,
            description="defender's hex",
            style=style,
            layout=lay,
        )
        self.armour = W.Checkbox(
            value=False, description="armour or mech. cavalry attacks", indent=False
        )
        self.surrounded = W.Checkbox(
            value=False, description="defenders surrounded (siege)", indent=False
        )
        self.regiments = W.BoundedIntText(
            value=0,
            min=0,
            max=3,
            description="complete regiments",
            style=style,
            layout=lay,
            tooltip="attacking regiments with every battalion present (Cherbourg 5.1.4)",
        )
        self.division = W.Checkbox(
            value=False, description="three regiments of one division attack", indent=False
        )
        self.def_regiment = W.Checkbox(
            value=False, description="defender is a complete regiment", indent=False
        )
        self.roll_button = W.Button(description="Roll 2d6", icon="random", button_style="warning")
        self.error = InlineError()
        self.steps = W.HTML()
        self.current = W.HTML(layout=W.Layout(margin="0 24px 0 0"))
        self.next = W.HTML()
        self.buy = W.HTML()
        self.table = W.HTML()
        self.rolled = W.HTML()
        self.plot = W.HTML() if plot else None
        self.report = None
        self.last_roll: int | None = None
        for w in (
            self.attack,
            self.defence,
            self.terrain,
            self.armour,
            self.surrounded,
            self.regiments,
            self.division,
            self.def_regiment,
        ):
            w.observe(lambda _c: self.update(), names="value")
        self.roll_button.on_click(lambda _b: self.roll())
        controls = W.VBox(
            [
                self.attack,
                self.defence,
                self.terrain,
                self.armour,
                self.surrounded,
                self.regiments,
                self.division,
                self.def_regiment,
                self.roll_button,
                self.error.widget,
            ],
            layout=W.Layout(margin="0 18px 0 0"),
        )
        right = W.VBox(
            [self.steps, self.rolled] + ([self.plot] if self.plot else []),
            layout=W.Layout(flex="1 1 420px", min_width="0"),
        )
        self.widget = W.VBox(
            [
                W.HBox([controls, right], layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.current, self.next], layout=W.Layout(flex_flow="row wrap")),
                self.buy,
                self.table,
            ],
            layout=W.Layout(overflow="hidden"),
        )
        self.widget.add_class("hexclass-cherbourg-crt")
        self.update()

    def combat(self) -> Combat:
        return explorer_combat(
            self.attack.value,
            self.defence.value,
            tuple(self.terrain.value) or ("clear",),
            self.armour.value,
            self.surrounded.value,
            self.regiments.value,
            self.def_regiment.value,
            self.division.value,
        )

    def update(self) -> bool:
        report = self.error.attempt(lambda: combat_column(self.combat()))
        if report is None:
            return False
        self.report = report
        self.last_roll = None
        self.rolled.value = ""
        rows = [(s.label, s.value, s.rule) for s in report.steps]
        self.steps.value = table_html(["step", "working", "rule"], rows)
        c = report.column
        self.current.value = distribution_bars(c, f"Column {COLUMNS[c]}: the 36 ways two dice fall")
        if c + 1 < len(COLUMNS):
            self.next.value = distribution_bars(c + 1, f"One column right: {COLUMNS[c + 1]}")
        else:
            self.next.value = ""
        self.buy.value = f'{CSS}<div class="hx-lesson"><b>What does one more column buy?</b> {esc(one_more_column(c))}</div>'
        self.table.value = crt_html(c)
        if self.plot is not None:
            self.plot.value = chances_svg(c)
        return True

    def roll(self) -> int | None:
        if self.report is None:
            return None
        a, b = self.dice.d6(), self.dice.d6()
        self.last_roll = a + b
        result = lookup(self.report.column, a + b)
        self.rolled.value = (
            f'{CSS}<div class="hx-lesson" style="font-size:15px">Rolled {a} + {b} = '
            f"<b>{a + b}</b> on {COLUMNS[self.report.column]}: <b>{esc(result.code)}</b> — "
            f"{esc(result.explain())} (Cherbourg 5.1.6)</div>"
        )
        self.table.value = crt_html(self.report.column, a + b)
        return a + b


# --- the bombing explorer -----------------------------------------------------------------------


class BombingExplorer:
    """Air points or guns against a stack: value, column and the chance of a casualty."""

    def __init__(self) -> None:
        style = {"description_width": "180px"}
        lay = W.Layout(width="350px")
        self.kind = W.ToggleButtons(
            options=[("air strike", AIR), ("artillery", ARTILLERY)], value=AIR
        )
        self.power = W.BoundedIntText(
            value=6, min=1, max=60, description="air points / gun attack", style=style, layout=lay
        )
        self.infantry = W.BoundedIntText(
            value=3, min=0, max=4, description="infantry units", style=style, layout=lay
        )
        self.armour = W.BoundedIntText(
            value=1, min=0, max=4, description="armoured units", style=style, layout=lay
        )
        self.guns = W.BoundedIntText(
            value=0, min=0, max=4, description="artillery units", style=style, layout=lay
        )
        self.terrain = W.Dropdown(
            options=TERRAIN_CHOICES,
            value="clear",
            description="target hex",
            style=style,
            layout=lay,
        )
        self.error = InlineError()
        self.out = W.HTML()
        for w in (self.kind, self.power, self.infantry, self.armour, self.guns, self.terrain):
            w.observe(lambda _c: self.update(), names="value")
        self.widget = W.VBox(
            [
                self.kind,
                W.HBox(
                    [
                        W.VBox([self.power, self.terrain]),
                        W.VBox([self.infantry, self.armour, self.guns]),
                    ]
                ),
                self.error.widget,
                self.out,
            ]
        )
        self.result = None
        self.update()

    def targets(self) -> list[Unit]:
        return (
            [infantry(f"inf {i}") for i in range(self.infantry.value)]
            + [Unit(f"arm {i}", UnitType.ARMOUR, 3, 3, 8) for i in range(self.armour.value)]
            + [Unit(f"gun {i}", UnitType.ARTILLERY, 2, 1, 4) for i in range(self.guns.value)]
        )

    def update(self) -> bool:
        b = self.error.attempt(
            bombardment, self.power.value, self.targets(), self.kind.value, [self.terrain.value]
        )
        if b is None:
            self.out.value = ""
            self.result = None
            return False
        self.result = b
        cells = "".join(
            f'<td style="{"background:#ffe9a8;font-weight:bold" if i == b.column else ""}">'
            f"{name}<br>{of36(casualty_chance(i))}</td>"
            for i, name in enumerate(BOMB_COLUMNS)
        )
        shift = f", {b.left} column(s) left for {self.terrain.value}" if b.left else ""
        rule = "Cherbourg 6.2" if self.kind.value == AIR else "Cherbourg 8.0"
        self.out.value = (
            f'{CSS}<div class="hx-lesson">{b.power} x vulnerability {b.vulnerability} = <b>{b.value}</b>{esc(shift)}: '
            f"column <b>{b.column_name}</b>, a casualty (DB) {of36(b.chance)} = {pct(b.chance)} ({rule})"
            f'<table class="hx-table"><tr><th>chance of DB by column</th>{cells}</tr></table></div>'
        )
        return True


GLOSSARY = {
    "odds column": "attack points divided by defence points, fraction dropped: 11 to 4 is 2-1 (Cherbourg 5.1.1)",
    "column shift": "a move of one column along the table; left helps the defender, right the attacker (5.1.2-5.1.4)",
    "engagement zone": "the six hexes around a unit; entering one stops a move (Cherbourg 4.1.2)",
    "dominant ground": "the hex whose terrain gives more columns; a unit there need not attack or pull back (4.1.2)",
    "siege": "defenders with no neighbouring hex free of enemy engagement zones: one column right (5.1.3)",
    "command unit": "a regiment fighting with all its battalions: one column its way (5.1.4)",
    "casualty": "a flipped counter with halved powers; a second casualty removes it (Cherbourg 7.0)",
    "DV / DR / DE": "the defence holds / retreats / loses a unit; B = with a casualty, I = intact (5.1.6)",
    "AV / AR / AE": "the attack wins / falls back / loses a unit (5.1.6)",
    "IMP / EMP": "stalemate, nobody moves / bloodbath, both sides give up units (5.1.6)",
    "vulnerability": "how much a unit type suffers from aircraft or guns; summed over the target hex (6.2, 8.0)",
}
