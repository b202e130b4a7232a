"""The CNA capability-point and cohesion lesson: a live log sheet and a cohesion plot.

* :class:`LogSheetLab` shows a :class:`~hexclass.classroom.cna.logsheet.LogSheet` as one row per
  unit (CPA, CPs spent and left, Cohesion Level, DPs and RPs earned this stage with the
  rule behind each) with Move / Assault / Retreat buttons on every row, an End-stage
  button (units that spent nothing rest), buttons that replay the rules' worked
  examples, and a matplotlib plot of each unit's cohesion stage by stage.
* :class:`CohesionPlanner` is the what-if: type the CPs a unit spends in each of several
  stages and see where its cohesion goes.
* :data:`WORKED_EXAMPLES` are the worked examples of CNA 6.1x-6.2x and 8.17 as short
  scripts against the model; :func:`run_example` plays one and returns its narration.

Every number on screen comes from the model; a refused action is shown inline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import ipywidgets as W
from matplotlib.figure import Figure

from hexclass.classroom.cna.capability import Function, Size, Unit, UnitKind
from hexclass.classroom.cna.cohesion import (
    COLLAPSE_LEVEL,
    MAX_COHESION,
    CohesionGroup,
    combine_cohesion,
    has_heavy_losses,
)
from hexclass.classroom.cna.logsheet import LogSheet

from .lesson_kit import CSS, InlineError, esc, figure_view, show_figure

RNF = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)
LAB_UNITS = (
    RNF,
    Unit("Italian tank bn", UnitKind.ARMOR, cpa=25),
    Unit("1st KRRC (trucked)", UnitKind.INFANTRY, cpa=10, truck_cpa=20),
    Unit("4th RHA battery", UnitKind.GUN, cpa=0, size=Size.COMPANY),
)


def cpa_text(unit: Unit) -> str:
    """The CPA as a log sheet should show it: a CPA-0 gun moves on 0 but counts as 10 for
    everything else (CNA 6.11), and showing only one of the two contradicts the other."""
    move, rest = unit.cpa_for(Function.MOVEMENT), unit.disorganization_cpa
    return str(rest) if move == rest else f"{move} to move, {rest} for the rest"


def fmt_cp(x) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


# --- worked examples -------------------------------------------------------------------------

Step = tuple[str, Callable[[LogSheet], object]]


@dataclass(frozen=True)
class WorkedExample:
    """One worked example from the rules as a script: units, starting levels, steps."""

    key: str
    title: str
    units: tuple[Unit, ...]
    cohesion: tuple[tuple[str, int], ...]
    steps: tuple[Step, ...]
    expect: str  # what the rules say the result is, in one line


def _spend(name, function, cps, **kw):
    return lambda s: s.spend(name, function, cps, **kw)


TANKS_15 = Unit("tank bn (CPA 15)", UnitKind.ARMOR, cpa=15)
ATTACKERS = Unit("Italian tank bn", UnitKind.ARMOR, cpa=25)

WORKED_EXAMPLES: dict[str, WorkedExample] = {
    e.key: e
    for e in (
        WorkedExample(
            "6.14",
            "RNF retreats in the enemy's portion",
            (RNF,),
            (),
            (
                (
                    "Italians phasing: the RNF retreats 3 hexes before assault (6 CPs)",
                    _spend("1st RNF", Function.RETREAT_BEFORE_ASSAULT, 6),
                ),
                (
                    "Its own portion: it moves for the 2 CPs left",
                    _spend("1st RNF", Function.MOVEMENT, 2),
                ),
                ("One CP more is past its CPA", _spend("1st RNF", Function.MOVEMENT, 1)),
            ),
            "CPs spent in either player's portion count against one CPA: 2 were left after the retreat.",
        ),
        WorkedExample(
            "6.21",
            "CPA 15 spends 18",
            (TANKS_15,),
            (),
            (
                (
                    "The unit spends 18 CPs in one stage",
                    _spend(TANKS_15.name, Function.MOVEMENT, 18),
                ),
            ),
            "Three CPs over the CPA earn 3 DPs.",
        ),
        WorkedExample(
            "6.22",
            "RNF at −2 moves, then assaults",
            (RNF,),
            (("1st RNF", -2),),
            (
                ("It moves for 5 CPs", _spend("1st RNF", Function.MOVEMENT, 5)),
                ("It close-assaults for 5 CPs more", _spend("1st RNF", Function.CLOSE_ASSAULT, 5)),
            ),
            "DPs land at once: the assault is fought at −4, not −2.",
        ),
        WorkedExample(
            "6.23",
            "−3 earns 5 RPs",
            (RNF,),
            (("1st RNF", -3),),
            (
                (
                    "The unit earns 5 RPs",
                    lambda s: s.earn_rps("1st RNF", 5, "CNA 6.23", "5 RPs earned"),
                ),
            ),
            "RPs raise the level at once: −3 becomes +2.",
        ),
        WorkedExample(
            "6.24 rest",
            "−1 rests a whole stage",
            (RNF,),
            (("1st RNF", -1),),
            (("It spends nothing and the stage ends", lambda s: s.end_stage()),),
            "Resting earns 5 RPs but never lifts a unit above 0: it ends at 0, not +4.",
        ),
        WorkedExample(
            "6.24 assault",
            "A won assault",
            (ATTACKERS,),
            (),
            (
                (
                    "The tanks close-assault for 6 CPs",
                    _spend(ATTACKERS.name, Function.CLOSE_ASSAULT, 6),
                ),
                (
                    "They lose 2 of 12 TOE points and the defender leaves its hex",
                    lambda s: s.close_assault(
                        [ATTACKERS.name],
                        strength_before=12,
                        strength_lost=2,
                        attacking=True,
                        defender_vacated=True,
                    ),
                ),
            ),
            "Victorious attackers earn 3 RPs when the defender leaves its hex because of the assault.",
        ),
        WorkedExample(
            "8.17",
            "CPA 8 on foot stops at 12",
            (RNF,),
            (),
            (
                ("It moves for 12 CPs", _spend("1st RNF", Function.MOVEMENT, 12)),
                ("It tries to move for one CP more", _spend("1st RNF", Function.MOVEMENT, 1)),
            ),
            "A non-motorized unit may not choose to spend more than 150% of its CPA: 12 for a CPA of 8.",
        ),
    )
}


def run_example(key: str) -> tuple[LogSheet, list[str]]:
    """Play a worked example on a fresh sheet; returns the sheet and one line per step.

    A step the rules refuse is reported (with its rule) and the script goes on.
    """
    ex = WORKED_EXAMPLES[key]
    sheet = LogSheet.of(ex.units, dict(ex.cohesion))
    lines = []
    for text, action in ex.steps:
        try:
            entries = action(sheet) or ()
        except ValueError as exc:
            lines.append(f"{text} → refused: {exc}")
            continue
        shown = "; ".join(e.line() for e in entries) or "no change"
        lines.append(f"{text} → {shown}")
    return sheet, lines


def brigades_example() -> tuple[int, str]:
    """CNA 6.27: three brigades at −4, −1 and +3 fight together at −1."""
    brigades = [CohesionGroup(f"brigade {c:+d}", Size.BRIGADE, cohesion=c) for c in (-4, -1, 3)]
    result = combine_cohesion(brigades)
    return result.level, result.explain()


# --- the cohesion plot --------------------------------------------------------------------------


def cohesion_series(sheet: LogSheet) -> dict[str, tuple[list[float], list[int]]]:
    """Per unit: x positions (0 = start, k = end of stage k, +0.5 = now) and levels."""
    out: dict[str, tuple[list[float], list[int]]] = {}
    for name in sheet.lines:
        pts = sheet.cohesion_series(name)
        xs, ys = [float(s) for s, _ in pts], [lvl for _, lvl in pts]
        if sheet.journal and any(e.stage == sheet.stage for e in sheet.entries_for(name)):
            xs.append(sheet.stage - 0.5)  # inside the stage under way
            ys.append(sheet.line(name).cohesion)
        out[name] = (xs, ys)
    return out


def same_series(series: dict[str, tuple[list[float], list[int]]]):
    """Units whose lines would lie exactly on top of each other, grouped: one line each,
    labelled with every unit it stands for (else the last one drawn hides the others)."""
    groups: dict[tuple, list[str]] = {}
    for name, (xs, ys) in series.items():
        groups.setdefault((tuple(xs), tuple(ys)), []).append(name)
    return [(names, (list(xs), list(ys))) for (xs, ys), names in groups.items()]


def cohesion_figure(sheet: LogSheet, title: str = "Cohesion Level by stage") -> Figure:
    """Each unit's cohesion at the start and after every stage (a half step: now)."""
    fig = Figure(figsize=(6.2, 3.0), dpi=90)
    ax = fig.subplots()
    series = cohesion_series(sheet)
    for names, (xs, ys) in same_series(series):
        ax.plot(xs, ys, marker="o", label=", ".join(names))
    ax.axhline(0, color="#888", lw=0.8)
    ax.axhline(MAX_COHESION, color="#1b5e20", lw=0.8, ls="--")
    lowest = min([0] + [min(ys) for _, ys in series.values() if ys])
    if lowest < -15:
        ax.axhline(COLLAPSE_LEVEL, color="#b00020", lw=0.8, ls="--")
        ax.text(0, COLLAPSE_LEVEL + 0.6, "collapse (−26, CNA 6.26)", color="#b00020", fontsize=8)
    span = MAX_COHESION + 1 - min(lowest - 2, -6)
    ax.text(0, MAX_COHESION - 0.07 * span, "cap +10 (CNA 6.23)", color="#1b5e20", fontsize=8)
    last = max([1.0] + [max(xs) for xs, _ in series.values() if xs])
    ax.set_xlim(-0.3, last + 0.3)
    ax.set_xticks(range(int(last) + 1))
    ax.set_xlabel("end of Operations Stage (0 = start; half-way points: now)")
    ax.set_ylabel("Cohesion Level")
    ax.set_title(title, fontsize=10)
    ax.set_ylim(min(lowest - 2, -6), MAX_COHESION + 1)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


# --- the live log sheet ------------------------------------------------------------------------

COLUMNS = (
    "unit",
    "CPA",
    "CPs spent",
    "CPs left",
    "cohesion",
    "DPs / RPs this stage (why)",
    "actions",
)


class LogSheetLab:
    """A live log sheet: act with a unit and watch its CPs and cohesion change."""

    def __init__(
        self, units: Sequence[Unit] = LAB_UNITS, cohesion: dict | None = None, plot: bool = True
    ) -> None:
        self.units, self.start_cohesion = tuple(units), dict(cohesion or {})
        self.plot = plot
        self.error = InlineError()
        self.cps = W.FloatText(value=4, description="CPs", step=0.5, layout=W.Layout(width="150px"))
        self.before = W.IntText(value=10, description="TOE before", layout=W.Layout(width="170px"))
        self.lost = W.IntText(value=0, description="TOE lost", layout=W.Layout(width="160px"))
        self.vacated = W.Checkbox(value=False, description="defender left its hex", indent=False)
        self.grid = W.GridBox(
            layout=W.Layout(
                grid_template_columns="1.6fr 0.5fr 0.7fr 0.7fr 0.7fr 3fr 2.3fr", width="100%"
            )
        )
        self.journal = W.HTML()
        self.example_text = W.HTML()
        self.figure_out = figure_view()
        self.figure = None
        end = W.Button(
            description="End stage (idle units rest)",
            button_style="warning",
            layout=W.Layout(width="220px"),
        )
        end.on_click(lambda _: self.end_stage())
        reset = W.Button(description="Start again")
        reset.on_click(lambda _: self.reset())
        self.example_buttons = {}
        for key, ex in WORKED_EXAMPLES.items():
            btn = W.Button(description=f"{key}: {ex.title}", layout=W.Layout(width="auto"))
            btn.on_click(lambda _b, k=key: self.replay(k))
            self.example_buttons[key] = btn
        self.widget = W.VBox(
            [
                W.HTML(
                    CSS
                    + "<div class='hx-lesson'><b>Inputs for the row buttons</b> (CPs for Move, Assault "
                    "and Retreat; TOE figures and the defender's fate for Assault)</div>"
                ),
                W.HBox([self.cps, self.before, self.lost, self.vacated]),
                self.grid,
                self.error.widget,
                W.HBox([end, reset]),
                W.HTML(CSS + "<div class='hx-lesson'><b>Replay a worked example</b></div>"),
                W.HBox(list(self.example_buttons.values()), layout=W.Layout(flex_flow="row wrap")),
                self.example_text,
                W.HBox([self.figure_out, self.journal]),
            ],
            layout=W.Layout(width="100%"),
        )
        self.reset()

    # --- model calls ------------------------------------------------------------------------
    def reset(self) -> None:
        self.sheet = LogSheet.of(self.units, self.start_cohesion)
        self.example_text.value = ""
        self.error.clear()
        self._build_rows()
        self.refresh()

    def move(self, name: str) -> bool:
        return self._act(
            lambda: self.sheet.spend(name, Function.MOVEMENT, self._cps(), detail="by the learner")
        )

    def retreat(self, name: str) -> bool:
        """Retreat before assault: in the enemy's portion, so no 150% cap (CNA 6.14, 8.17)."""
        return self._act(
            lambda: self.sheet.spend(name, Function.RETREAT_BEFORE_ASSAULT, self._cps())
        )

    def assault(self, name: str) -> bool:
        """Pay for a close assault, then book its cohesion result (CNA 6.21, 6.24)."""

        def go():
            has_heavy_losses(self.before.value, self.lost.value)  # refuse bad figures before paying
            spent = self.sheet.spend(name, Function.CLOSE_ASSAULT, self._cps())
            return spent + self.sheet.close_assault(
                [name],
                strength_before=self.before.value,
                strength_lost=self.lost.value,
                attacking=True,
                defender_vacated=self.vacated.value,
            )

        return self._act(go)

    def end_stage(self) -> bool:
        return self._act(self.sheet.end_stage)

    def replay(self, key: str) -> None:
        """Swap in a worked example's sheet and narrate its steps."""
        ex = WORKED_EXAMPLES[key]
        self.sheet, lines = run_example(key)
        steps = "".join(f"<li>{esc(x)}</li>" for x in lines)
        self.example_text.value = (
            f"{CSS}<div class='hx-lesson hx-note'><b>CNA {esc(ex.key)} — {esc(ex.title)}.</b> "
            f"{esc(ex.expect)}<ol>{steps}</ol></div>"
        )
        self.error.clear()
        self._build_rows()
        self.refresh()

    def _cps(self):
        return self.cps.value if self.cps.value != int(self.cps.value) else int(self.cps.value)

    def _act(self, fn) -> bool:
        ok = self.error.attempt(fn) is not None
        self.refresh()
        return ok

    # --- drawing -----------------------------------------------------------------------------
    def _build_rows(self) -> None:
        self.cells: dict[str, dict[str, W.HTML]] = {}
        children = [W.HTML(f"<b>{esc(c)}</b>") for c in COLUMNS]
        for name in self.sheet.lines:
            cells = {c: W.HTML() for c in COLUMNS[:-1]}
            buttons = []
            for label, fn in (
                ("Move", self.move),
                ("Assault", self.assault),
                ("Retreat", self.retreat),
            ):
                b = W.Button(description=label, layout=W.Layout(width="72px"))
                b.on_click(lambda _b, fn=fn, n=name: fn(n))
                buttons.append(b)
            cells["actions"] = W.HBox(buttons)
            self.cells[name] = cells
            children += [cells[c] for c in COLUMNS]
        self.grid.children = children

    def row_values(self, name: str) -> dict[str, str]:
        """The text shown in a unit's row, straight from the sheet."""
        r = next(r for r in self.sheet.rows() if r["unit"] == name)
        why = "<br>".join(esc(w) for w in r["why"]) or "—"
        coh = (f"{r['cohesion']:+d}" if r["cohesion"] else "0") + (
            " collapsed" if r["collapsed"] else ""
        )
        return {
            "unit": esc(name),
            "CPA": cpa_text(self.sheet.line(name).unit),
            "CPs spent": fmt_cp(r["CPs spent"]),
            "CPs left": fmt_cp(r["CPs left"]),
            "cohesion": coh,
            "DPs / RPs this stage (why)": f"−{r['DPs this stage']} / +{r['RPs this stage']}<br>"
            f"<span style='font-size:11px'>{why}</span>",
        }

    def refresh(self) -> None:
        for name, cells in self.cells.items():
            vals = self.row_values(name)
            for col, text in vals.items():
                colour = ""
                if col == "cohesion":
                    level = self.sheet.line(name).cohesion
                    colour = (
                        "color:#b00020;" if level < 0 else ("color:#1b5e20;" if level > 0 else "")
                    )
                style = f"font-family:sans-serif;font-size:13px;{colour}"
                cells[col].value = f"<div style='{style}'>{text}</div>"
        last = self.sheet.journal[-8:][::-1]
        self.journal.value = (
            CSS
            + "<div class='hx-lesson' style='font-size:12px'><b>Journal (latest first)</b>"
            + "".join(f"<div>stage {e.stage} · {esc(e.unit)}: {esc(e.line())}</div>" for e in last)
            + "</div>"
        )
        if self.plot:
            self.figure = cohesion_figure(self.sheet)
            show_figure(self.figure_out, self.figure)


# --- the what-if planner ------------------------------------------------------------------------


def drive(sheet: LogSheet, name: str, cps) -> Fraction:
    """Move ``name`` for ``cps`` CPs, one CP at a time, and return the CPs left unspent.

    A move is many hexes, each paid for as it is entered, and DPs land the moment they
    are earned (CNA 6.22); a unit that reaches −26 may not move on (CNA 6.26). So a unit
    driven hard stops at −26 instead of running on past it (docs/rules-notes.md, "The
    −26 stop"). A single costly action, such as an assault, can still jump past −26.
    """
    left = Fraction(cps)
    while left > 0:
        if sheet.line(name).collapsed:
            return left
        step = min(Fraction(1), left)
        sheet.spend(name, Function.MOVEMENT, step)
        left -= step
    return Fraction(0)


def plan_run(unit: Unit, cps_per_stage: Sequence, start: int = 0) -> tuple[LogSheet, list]:
    """Move the unit for the given CPs in each stage, ending every stage (CNA 6.16-6.26).

    A stage with 0 CPs is a rest. Returns the sheet and, per stage, the CPs the unit
    could not spend because it had collapsed. Raises the model's error if a stage is
    impossible (e.g. past the 150% ceiling of a foot unit, CNA 8.17).
    """
    sheet = LogSheet.of([unit], {unit.name: start})
    unspent = []
    for cps in cps_per_stage:
        if cps and sheet.line(unit.name).collapsed:
            unspent.append(Fraction(cps))
        elif cps:
            problem = sheet.check(unit.name, Function.MOVEMENT, cps)
            if problem is not None:
                raise problem
            unspent.append(drive(sheet, unit.name, cps))
        else:
            unspent.append(Fraction(0))
        sheet.end_stage()
    return sheet, unspent


def parse_plan(text: str) -> list:
    """'30, 30, 0' -> [30, 30, 0]; halves allowed; anything else raises ValueError."""
    out = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"expected numbers of CPs separated by commas, got {part!r}") from None
        out.append(int(value) if value == int(value) else value)
    if not out:
        raise ValueError("type at least one number of CPs, e.g. 30, 30, 0, 0")
    return out


class CohesionPlanner:
    """What if a unit keeps spending past its CPA stage after stage, then rests?"""

    def __init__(
        self, units: Sequence[Unit] = LAB_UNITS, plan: str = "35, 35, 35, 0, 0, 0"
    ) -> None:
        self.units = {u.name: u for u in units}
        self.unit = W.Dropdown(
            options=list(self.units), value="Italian tank bn", description="unit"
        )
        self.start = W.IntText(value=0, description="start level", layout=W.Layout(width="170px"))
        self.cpa = W.IntText(description="CPA", layout=W.Layout(width="140px"))
        self.unit.observe(lambda _ch: self._show_cpa(), names="value")
        self._show_cpa()
        self.plan = W.Text(value=plan, description="CPs/stage", layout=W.Layout(width="330px"))
        self.go = W.Button(description="Plot", button_style="primary")
        self.error = InlineError()
        self.out = figure_view()
        self.summary = W.HTML()
        self.sheet: LogSheet | None = None
        self.figure = None
        self.go.on_click(lambda _: self.run())
        self.widget = W.VBox(
            [
                W.HBox([self.unit, self.cpa, self.start]),
                W.HBox([self.plan, self.go]),
                self.error.widget,
                self.summary,
                self.out,
            ]
        )
        self.run()

    def _stale(self) -> None:
        """A refused plan: say so instead of leaving another unit's result on show."""
        self.summary.value = CSS + (
            "<div class='hx-lesson' style='color:#777'>Nothing plotted for this plan; "
            "the reason is in red above. The figure below is the last plan that ran.</div>"
        )

    def _show_cpa(self) -> None:
        self.cpa.value = self.units[self.unit.value].cpa_for(Function.MOVEMENT)

    def chosen_unit(self) -> Unit | None:
        """The unit picked, with the CPA typed in if it was changed (the model checks it)."""
        unit = self.units[self.unit.value]
        if self.cpa.value == unit.cpa_for(Function.MOVEMENT):
            return unit
        return self.error.attempt(replace, unit, cpa=self.cpa.value, truck_cpa=None)

    def run(self) -> bool:
        unit = self.chosen_unit()
        plan = None if unit is None else self.error.attempt(parse_plan, self.plan.value)
        run = None if plan is None else self.error.attempt(plan_run, unit, plan, self.start.value)
        if run is None:
            self._stale()
            return False
        sheet, unspent = run
        self.sheet, self.unspent = sheet, unspent
        levels = [lvl for _, lvl in sheet.cohesion_series(unit.name)]
        stops = [
            f"stage {i}: collapsed, {fmt_cp(u)} of the {fmt_cp(c)} CPs planned never spent"
            for i, (u, c) in enumerate(zip(unspent, plan), 1)
            if u
        ]
        stop_text = (
            f"<div style='color:#b00020'>It stopped at −26 or below (CNA 6.26): {esc('; '.join(stops))}.</div>"
            if stops
            else ""
        )
        self.summary.value = CSS + (
            f"<div class='hx-lesson'>{esc(unit.name)} (CPA {unit.disorganization_cpa}): "
            f"levels by stage {', '.join(f'{v:+d}' for v in levels)}{stop_text}</div>"
        )
        self.figure = cohesion_figure(
            sheet, f"{unit.name}: {', '.join(map(str, plan))} CPs per stage"
        )
        show_figure(self.out, self.figure)
        return True
