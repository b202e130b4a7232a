"""The TOAW supply lesson's unit cut off: one unit's supply, readiness and equipment turn
by turn while cut off, overextended or supplied (TOAW 9.1.7, 9.1.7.1, 9.1.7.4-9.1.7.6).

:class:`CutOffUnit` holds the circumstances a learner sets (or a preset) and steps the
model (:func:`hexclass.classroom.toaw.step_turn`); :mod:`.toaw_supply` offers it with the
lesson's other widgets.
"""

from __future__ import annotations

import ipywidgets as W
import numpy as np
from matplotlib.figure import Figure

from hexclass.classroom.toaw import (
    Activity,
    Bookkeeping,
    SupplyStatus,
    Terrain,
    UnitSupplyState,
    step_turn,
)
from hexclass.classroom.toaw.unit import (
    SUPPLY_PER_COMBAT_ROUND,
    SUPPLY_PER_MP,
    SUPPLY_PER_SUPPORT_ROUND,
    activity_cost,
    desertion_threshold,
    resupply_amount,
    resupply_factors,
)

from .lesson_kit import CSS, InlineError, esc, figure_view, show_figure, table_html

STATUS_CHOICES = {
    "cut off (unsupplied)": SupplyStatus.UNSUPPLIED,
    "overextended": SupplyStatus.OVEREXTENDED,
    "supplied": SupplyStatus.SUPPLIED,
}


def unit_history(
    status: SupplyStatus,
    level: float,
    proficiency: int,
    turns: int,
    turn_days: float,
    moves: float = 0.0,
    start_supply: float = 100.0,
    seed: int = 7,
    combat_rounds: int = 0,
    support_rounds: int = 0,
    **circumstances,
):
    """Run the unit supply model turn by turn (TOAW 9.1.7, 9.1.7.4-9.1.7.6) and return its
    reports; ``circumstances`` are Bookkeeping fields (night, hq_adjacent, high_supply,
    terrain, formation_efficiency). :func:`unit_run` also gives the states (On Hand, lost)."""
    reports, _states = unit_run(
        status,
        level,
        proficiency,
        turns,
        turn_days,
        moves,
        start_supply,
        seed,
        combat_rounds,
        support_rounds,
        **circumstances,
    )
    return reports


def unit_run(
    status: SupplyStatus,
    level: float,
    proficiency: int,
    turns: int,
    turn_days: float,
    moves: float = 0.0,
    start_supply: float = 100.0,
    seed: int = 7,
    combat_rounds: int = 0,
    support_rounds: int = 0,
    **circumstances,
):
    """:func:`unit_history` with the unit's state after every turn (On Hand, lost)."""
    b = Bookkeeping(
        status=status,
        location_level=0.0 if status is SupplyStatus.UNSUPPLIED else level,
        turn_days=turn_days,
        **circumstances,
    )
    state = UnitSupplyState(
        supply=start_supply, readiness=100.0, proficiency=proficiency, equipment=100
    )
    activity = Activity(
        movement_points=moves, combat_rounds=combat_rounds, support_rounds=support_rounds
    )
    rng = np.random.default_rng(seed)
    reports, states = [], []
    for _ in range(turns):
        state, report = step_turn(state, b, activity, rng)
        reports.append(report)
        states.append(state)
    return reports, states


def unit_figure(reports, title: str, desertion_below: float | None = None) -> Figure:
    """Supply, readiness and equipment by turn; dotted: the 33% readiness floor; dashed:
    the supply level below which a cut-off unit deserts (100 - proficiency)."""
    fig = Figure(figsize=(6.4, 3.2), dpi=90)
    ax = fig.subplots()
    turns = [r.turn for r in reports]
    ax.plot(
        turns,
        [r.supply for r in reports],
        marker="o",
        color="#e3a21a",
        label="unit supply % at turn end",
    )
    ax.plot(
        turns,
        [r.readiness for r in reports],
        marker="s",
        ms=4,
        ls="--",
        color="#1f4fd6",
        label="readiness %",
    )
    ax.plot(
        turns, [r.equipment for r in reports], marker="^", color="#d62728", label="equipment left"
    )
    ax.axhline(33, color="#1f4fd6", lw=0.7, ls=":")
    if desertion_below is not None:
        ax.axhline(desertion_below, color="#d62728", lw=0.8, ls="--")
        ax.text(
            turns[0],
            desertion_below + 2,
            f"desertion below {desertion_below:g}% (supply at bookkeeping)",
            color="#d62728",
            fontsize=8,
        )
    ax.set_xlabel("turn")
    ax.set_ylim(0, 155)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


PRESETS = {  # "overextended": a unit kept fighting on a thin line wears its supply down
    "cut off": dict(
        status="cut off (unsupplied)",
        level=5.0,
        proficiency=50,
        turns=16,
        days=3.5,
        moves=0.0,
        combat=0,
    ),
    "overextended": dict(
        status="overextended", level=4.0, proficiency=70, turns=16, days=7.0, moves=5.0, combat=1
    ),
}


class CutOffUnit:
    """A unit's supply, readiness and desertion over several turns, with the resupply
    modifiers and the consumption of its activity itemised from the model."""

    def __init__(self) -> None:
        self.status = W.Dropdown(
            options=list(STATUS_CHOICES),
            value="cut off (unsupplied)",
            description="state",
            layout=W.Layout(width="260px"),
        )
        self.level = W.FloatText(value=5.0, description="hex level", layout=W.Layout(width="170px"))
        self.proficiency = W.IntSlider(value=50, min=0, max=100, description="proficiency")
        self.turns = W.IntText(value=16, description="turns", layout=W.Layout(width="150px"))
        self.days = W.Dropdown(
            options=[("half a day", 0.5), ("1 day", 1.0), ("3.5 days", 3.5), ("1 week", 7.0)],
            value=3.5,
            description="turn length",
            layout=W.Layout(width="220px"),
        )
        self.moves = W.FloatText(value=0.0, description="MPs/turn", layout=W.Layout(width="170px"))
        self.combat = W.IntText(
            value=0,
            description="combat rounds",
            layout=W.Layout(width="200px"),
            style={"description_width": "initial"},
        )
        self.support = W.IntText(
            value=0,
            description="support rounds",
            layout=W.Layout(width="200px"),
            style={"description_width": "initial"},
        )
        self.night = W.Checkbox(value=False, description="night turn", indent=False)
        self.hq = W.Checkbox(value=False, description="cooperative HQ next to it", indent=False)
        self.high = W.Checkbox(value=False, description="High Supply option", indent=False)
        self.ground = W.Dropdown(
            options=[
                (t.name.lower().replace("_", " "), t)
                for t in (Terrain.OPEN, Terrain.MOUNTAIN, Terrain.MARSH)
            ],
            value=Terrain.OPEN,
            description="unit's hex",
            layout=W.Layout(width="220px"),
        )
        self.efficiency = W.IntSlider(
            value=100,
            min=0,
            max=100,
            description="formation eff.",
            style={"description_width": "initial"},
        )
        self.preset_buttons = {k: W.Button(description=f"preset: {k}") for k in PRESETS}
        for k, btn in self.preset_buttons.items():
            btn.on_click(lambda _b, k=k: self.preset(k))
        self.error = InlineError()
        self.view = figure_view("600px")
        self.table = W.HTML(layout=W.Layout(max_height="330px", overflow="auto"))
        self.panels = W.HTML()
        self.reports: list = []
        self.states: list = []
        self.figure = None
        inputs = (
            self.status,
            self.level,
            self.proficiency,
            self.turns,
            self.days,
            self.moves,
            self.combat,
            self.support,
            self.night,
            self.hq,
            self.high,
            self.ground,
            self.efficiency,
        )
        self._quiet = False
        for w in inputs:
            w.observe(lambda _ch: None if self._quiet else self.run(), names="value")
        self.widget = W.VBox(
            [
                W.HBox(list(self.preset_buttons.values())),
                W.HBox([self.status, self.level, self.turns]),
                W.HBox([self.proficiency, self.days, self.moves]),
                W.HBox(
                    [self.combat, self.support, self.ground, self.efficiency],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                W.HBox([self.night, self.hq, self.high]),
                self.error.widget,
                self.panels,
                W.HBox([self.view, self.table]),
            ]
        )
        self.run()

    def preset(self, key: str) -> bool:
        """Set every input at once (one run), e.g. the overextended unit that deserts into
        the On Hand pool (TOAW 9.1.7.1)."""
        values = PRESETS[key]
        self._quiet = True
        try:
            self.status.value = values["status"]
            self.level.value = values["level"]
            self.proficiency.value = values["proficiency"]
            self.turns.value = values["turns"]
            self.days.value = values["days"]
            self.moves.value = values["moves"]
            self.combat.value = values["combat"]
        finally:
            self._quiet = False
        return self.run()

    def circumstances(self) -> dict:
        return dict(
            night=self.night.value,
            hq_adjacent=self.hq.value,
            high_supply=self.high.value,
            terrain=self.ground.value,
            formation_efficiency=float(self.efficiency.value),
        )

    def panels_html(self, status) -> str:
        """The resupply factors and the consumption, each from the model with its rule."""
        level = 0.0 if status is SupplyStatus.UNSUPPLIED else self.level.value
        b = Bookkeeping(
            status=status, location_level=level, turn_days=self.days.value, **self.circumstances()
        )
        factors = resupply_factors(b, moved_last_turn=self.moves.value > 0)
        base = (
            "airborne share (none here)"
            if status is SupplyStatus.UNSUPPLIED
            else f"hex level {self.level.value:g}"
        )
        rows = [[name, f"× {x:.3g}"] for name, x in factors] or [["no modifier", "× 1"]]
        amount = resupply_amount(b, moved_last_turn=self.moves.value > 0)
        act = Activity(
            movement_points=self.moves.value,
            combat_rounds=self.combat.value,
            support_rounds=self.support.value,
        )
        cons = [
            [
                "movement",
                f"{self.moves.value:g} MPs × {SUPPLY_PER_MP:g}",
                f"{self.moves.value * SUPPLY_PER_MP:g}",
            ],
            [
                "combat rounds",
                f"{self.combat.value} × {SUPPLY_PER_COMBAT_ROUND:g}",
                f"{self.combat.value * SUPPLY_PER_COMBAT_ROUND:g}",
            ],
            [
                "support rounds (half strength)",
                f"{self.support.value} × {SUPPLY_PER_SUPPORT_ROUND:g}",
                f"{self.support.value * SUPPLY_PER_SUPPORT_ROUND:g}",
            ],
            ["in all, per turn", "", f"{activity_cost(act):g}"],
        ]
        return (
            f"{CSS}<div class='hx-lesson' style='display:flex;gap:24px;flex-wrap:wrap'>"
            f"<div><b>Resupply each turn</b> ({esc(base)}; TOAW 9.1.7, 9.1.7.4)"
            + table_html(["factor", "multiplies by"], rows)
            + f"= {amount:.1f} points of unit supply (never past 150%)</div>"
            f"<div><b>Consumption</b> (points of unit supply; TOAW 9.1.7.5)"
            + table_html(["activity", "how much", "supply"], cons)
            + "</div></div>"
        )

    def run(self) -> bool:
        status = STATUS_CHOICES[self.status.value]
        result = self.error.attempt(
            unit_run,
            status,
            self.level.value,
            self.proficiency.value,
            self.turns.value,
            self.days.value,
            self.moves.value,
            combat_rounds=self.combat.value,
            support_rounds=self.support.value,
            **self.circumstances(),
        )
        if result is None:
            return False
        reports, states = result
        if not reports:
            self.error.show(f"expected at least one turn, got {self.turns.value}")
            return False
        self.reports, self.states = reports, states
        self.panels.value = self.panels_html(status)
        self.figure = unit_figure(
            reports,
            f"{self.status.value}, proficiency {self.proficiency.value}",
            desertion_threshold(self.proficiency.value),
        )
        show_figure(self.view, self.figure)
        rows = [
            (
                r.turn,
                f"{r.tested_supply:.0f}",
                f"{r.supply:.0f}",
                f"{r.readiness:.0f}",
                r.deserted,
                r.equipment,
                st.on_hand,
                st.lost,
                f"{100 * r.desertion_chance:.1f}%",
            )
            for r, st in zip(reports, states, strict=True)
        ]
        self.table.value = table_html(
            [
                "turn",
                "supply at bookkeeping (desertion tested on it)",
                "supply at turn end (after activity)",
                "readiness",
                "deserted",
                "equipment",
                "On Hand",
                "lost",
                "desert chance",
            ],
            rows,
        )
        return True
