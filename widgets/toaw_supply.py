"""The TOAW supply lesson: a clickable supply map, the decay curves, a unit cut off.

* :class:`SupplyMapLab` -- two :class:`~hexclass.widgets.board.HexBoard` maps side by side, the
  old rules (TOAW 9.1.7.2) on the left and the new (9.1.7.3) on the right, each hex
  showing its location-supply number the way TOAW's supply view does. A tool palette
  places or removes supply points (with a strength, 9.1.7.4), supply units, enemy and
  friendly units, roads, railways and terrain. Hovering or clicking "inspect" shows the
  model's ``explain(hex)`` for both rules.
* :class:`SupplyCurves` -- the manual's two lost plots redrawn from the model: supply
  against distance, old and new rules, with and without a supply unit.
* :class:`CutOffUnit` (:mod:`.toaw_cut_off`) -- one unit's supply, readiness and equipment turn by turn while
  cut off (or overextended, or supplied) (TOAW 9.1.7, 9.1.7.1, 9.1.7.4-9.1.7.6).

The widgets hold the model's values (a ``HexMap``, a ``Situation``, ``SupplySettings``)
and nothing else; each click asks the model for new fields and redraws in one batch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import ipywidgets as W
import numpy as np
from matplotlib.figure import Figure

from hexclass.classroom import hexgrid
from hexclass.classroom.toaw import (
    Feature,
    HexMap,
    Rules,
    Situation,
    SupplySettings,
    SupplyStatus,
    Terrain,
    both_rules,
    new_rule_fraction,
    old_rule_fraction,
)
from hexclass.classroom.toaw.explain import hex_name
from hexclass.classroom.toaw.hexmap import offset_to_axial
from hexclass.classroom.toaw.terrain import HexsideFeature

from .board import HexBoard
from .lesson_kit import CSS, InlineError, esc, figure_view, show_figure, table_html
from .toaw_cut_off import CutOffUnit as CutOffUnit  # the lesson's third widget, offered here
from .toaw_cut_off import unit_history as unit_history

# --- the lesson map ---------------------------------------------------------------------------

LESSON_TERRAIN = [
    "~~~~~~~~~~~~~~~~~~",
    "u.......~~~~..u...",
    "..................",
    "....hh.........ss.",
    "...hhh....bb...ss.",
    "..........bb......",
    "...ddd............",
    "..dddd.....hh.....",
    "...dd......hhh....",
    "...........mm.....",
    "......cc....mm....",
    "......cc..........",
]
LESSON_FEATURES = [
    "..................",
    "xRRRRRR.......r...",
    "rrrrrrrrrrrrrrr...",
    ".............r....",
    ".............r....",
    ".............r....",
    ".............r....",
    ".............r....",
    ".............r....",
    ".............r....",
    ".............r....",
    ".............r....",
]


def lesson_map() -> HexMap:
    """An 18 x 12 stretch of desert coast: a railhead town in the west, a coast road, a
    track inland, hills, dunes, badlands, marsh and a second town on the coast."""
    return HexMap.from_ascii(LESSON_TERRAIN, LESSON_FEATURES)


def lesson_situation() -> Situation:
    """A supply point at the railhead (column 0, row 1) and one enemy unit inland."""
    return Situation().with_source(offset_to_axial(0, 1)).with_enemy(offset_to_axial(9, 6))


LESSON_SETTINGS = SupplySettings(radius=4, force_supply_level=20, overextended_threshold=6)

# --- colours (a muted map so the supply markers stand out) ---------------------------------------

TERRAIN_COLOURS = {
    Terrain.OPEN: "#efe6cc",
    Terrain.CROPLAND: "#d7e3a8",
    Terrain.URBAN: "#b9b2a6",
    Terrain.DENSE_URBAN: "#9d958a",
    Terrain.LIGHT_WOODS: "#c6dcae",
    Terrain.FOREST: "#9fc58c",
    Terrain.JUNGLE: "#7fae74",
    Terrain.HILLS: "#d8c08e",
    Terrain.MOUNTAIN: "#b39872",
    Terrain.MARSH: "#b9d6cf",
    Terrain.FLOODED_MARSH: "#9cc6c8",
    Terrain.BADLANDS: "#c9a07a",
    Terrain.DUNES: "#f2d98c",
    Terrain.WATER: "#9ec3e6",
}
MARKER_LOW, MARKER_HIGH = "#fff6cf", "#e3a21a"  # gold markers: paler means less supply
OVEREXTENDED_FONT = "#c00000"  # TOAW 9.1.7.1: overextended hexes use another font colour
FRIENDLY, ENEMY, SOURCE, SUPPLY_UNIT = "#1f4fd6", "#d62728", "#222222", "#0b7a3b"

MAP_KEY = (
    "<div class='hx-lesson' style='font-size:12px;color:#444'>Key: gold marker = the hex's "
    "supply-view number (paler = less); <span style='color:#c00000'>red number</span> = "
    "overextended; no marker = unsupplied; black disc S = supply point; green triangle = supply "
    "unit; red / blue block = enemy / friendly unit; brown line = road (yellow under it: improved); "
    "dashed line = railway; blue / dark brown edge = major river / escarpment.</div>"
)

TOOLS = (
    "inspect",
    "source",
    "supply unit",
    "enemy unit",
    "friendly unit",
    "road",
    "improved road",
    "rail",
    "terrain",
    "river",
    "escarpment",
)
SIDE_TOOLS = {"river": HexsideFeature.MAJOR_RIVER, "escarpment": HexsideFeature.MAJOR_ESCARPMENT}
SIDE_COLOURS = {HexsideFeature.MAJOR_RIVER: "#1f77d4", HexsideFeature.MAJOR_ESCARPMENT: "#6b3d12"}


def marker_rgb(fraction: np.ndarray) -> np.ndarray:
    """Marker fill (n, 3) uint8 for each supplied hex: pale for little supply, gold at 110%."""
    t = np.clip(np.asarray(fraction, dtype=float) / 1.1, 0.0, 1.0)[:, None] ** 2  # spread the top
    low, high = np.array(_rgb(MARKER_LOW), float), np.array(_rgb(MARKER_HIGH), float)
    return np.round(low + (high - low) * t).astype(np.uint8)


@dataclass(frozen=True)
class SupplyView:
    """One field flattened in node order: what the supply layer draws, read once per click."""

    nodes: np.ndarray  # supplied nodes
    shown: np.ndarray  # the whole number the supply view shows
    fraction: np.ndarray
    over: np.ndarray  # overextended (TOAW 9.1.7.1)

    @classmethod
    def of(cls, f) -> SupplyView:
        return cls(
            nodes=np.flatnonzero(f.supplied),
            shown=f.shown_level.ravel(),
            fraction=f.fraction.ravel(),
            over=f.overextended.ravel(),
        )


class SupplyMapLab:
    """Place supply points, supply units, enemies and roads; read both supply views."""

    def __init__(
        self,
        hexmap: HexMap | None = None,
        situation: Situation | None = None,
        settings: SupplySettings = LESSON_SETTINGS,
        hex_size: float = 19.0,
    ) -> None:
        self.hexmap = hexmap or lesson_map()
        self.situation = situation if situation is not None else lesson_situation()
        self.settings = settings
        self.hexes = list(self.hexmap.hexes())
        self.error = InlineError()
        self.boards = {r: self._make_board(r, hex_size) for r in (Rules.OLD, Rules.NEW)}
        board = self.boards[Rules.OLD]  # both maps share one layout
        self.centres = np.array([board.centre(h) for h in self.hexes], dtype=float)
        self._controls()
        self.explain_html = {r: W.HTML(layout=W.Layout(width="50%")) for r in Rules}
        self.status = W.HTML()
        self.focus = None
        self.last_click_ms = 0.0
        titles = {Rules.OLD: "Old rules (TOAW 9.1.7.2)", Rules.NEW: "New rules (TOAW 9.1.7.3)"}
        maps = W.HBox(
            [
                W.VBox(
                    [
                        W.HTML(f"<b style='font-family:sans-serif'>{titles[r]}</b>"),
                        self.boards[r].canvas,
                    ],
                    layout=W.Layout(width="50%"),
                )
                for r in (Rules.OLD, Rules.NEW)
            ],
            layout=W.Layout(width="100%"),
        )
        self.widget = W.VBox(
            [
                self.palette,
                self.error.widget,
                maps,
                self.status,
                W.HBox(
                    [self.explain_html[Rules.OLD], self.explain_html[Rules.NEW]],
                    layout=W.Layout(width="100%"),
                ),
            ],
            layout=W.Layout(width="100%"),
        )
        self.recompute()
        self.redraw()

    # --- construction ---------------------------------------------------------------------------
    def _make_board(self, rules: Rules, size: float) -> HexBoard:
        b = HexBoard(
            self.hexes,
            hex_size=size,
            layers=("terrain", "supply", "counters", "overlay"),
            max_width="640px",
        )
        b.set_painter("terrain", lambda c, b=b: self._paint_terrain(b, c))
        b.set_painter("supply", lambda c, b=b, r=rules: self._paint_supply(b, c, r))
        b.set_painter("counters", lambda c, b=b: self._paint_counters(b, c))
        b.set_painter("overlay", lambda c, b=b: self._paint_overlay(b, c))
        b.on_click(lambda h, x, y: self.click(h))
        b.on_hover(self.hover)
        return b

    def _controls(self) -> None:
        self.tool = W.ToggleButtons(options=TOOLS, value="source", style={"button_width": "92px"})
        self.strength = W.IntText(
            value=100, description="strength %", layout=W.Layout(width="170px")
        )
        self.terrain = W.Dropdown(
            options=[(t.name.lower().replace("_", " "), t) for t in Terrain],
            value=Terrain.HILLS,
            description="terrain",
            layout=W.Layout(width="210px"),
        )
        self.radius = W.IntText(
            value=self.settings.radius, description="radius", layout=W.Layout(width="150px")
        )
        self.threshold = W.IntText(
            value=self.settings.overextended_threshold,
            description="overext. <",
            layout=W.Layout(width="160px"),
        )
        self.divisor = W.IntText(
            value=self.settings.improved_road_divisor,
            description="road divisor",
            layout=W.Layout(width="170px"),
        )
        for w in (self.radius, self.threshold, self.divisor):
            w.observe(lambda _ch: self.apply_settings(), names="value")
        self.palette = W.VBox(
            [
                W.HTML(
                    CSS
                    + "<div class='hx-lesson'><b>Tool</b> — click a hex on either map; click again to remove. "
                    "Hover a hex to read why it has the supply it has.</div>" + MAP_KEY
                ),
                self.tool,
                W.HBox([self.strength, self.terrain, self.radius, self.threshold, self.divisor]),
            ]
        )

    # --- the model --------------------------------------------------------------------------------
    def recompute(self) -> None:
        self._adopt(both_rules(self.hexmap, self.situation, self.settings))

    def _adopt(self, fields) -> None:
        """Keep the model's two fields, and flat copies of what the supply layer draws."""
        self.fields = dict(zip((Rules.OLD, Rules.NEW), fields, strict=True))
        self.views = {r: SupplyView.of(f) for r, f in self.fields.items()}

    def _try(self, hexmap: HexMap, situation: Situation, settings: SupplySettings) -> bool:
        """Adopt the new inputs only if the model can compute fields from them."""
        fields = self.error.attempt(both_rules, hexmap, situation, settings)
        if fields is None:
            return False
        self.hexmap, self.situation, self.settings = hexmap, situation, settings
        self._adopt(fields)
        return True

    def apply_settings(self) -> bool:
        """Radius, overextended threshold and road divisor from the inputs (TOAW 9.1.7.x)."""
        settings = self.error.attempt(
            replace,
            self.settings,
            radius=self.radius.value,
            overextended_threshold=self.threshold.value,
            improved_road_divisor=self.divisor.value,
        )
        if settings is None:
            return False
        ok = self._try(self.hexmap, self.situation, settings)
        self.redraw("supply")
        return ok

    def edited(self, h, tool: str) -> tuple[HexMap, Situation] | None:
        """The map and situation after using ``tool`` on hex ``h`` (toggling), or None."""
        m, s = self.hexmap, self.situation
        m.require(h, f"the {tool} hex")
        if tool == "source":
            s = s.without_source(h) if s.source_at(h) else s.with_source(h, self.strength.value)
        elif tool == "supply unit":
            s = s.without_supply_unit(h) if h in s.supply_units else s.with_supply_unit(h)
        elif tool == "enemy unit":
            s = (
                s.without_enemy(h).with_control(h, enemy=False)
                if h in s.enemy_units
                else s.with_enemy(h)
            )
        elif tool == "friendly unit":
            s = s.without_friendly(h) if h in s.friendly_units else s.with_friendly(h)
        elif tool == "road":
            m = m.with_feature(h, Feature.ROAD, not m.has_road(h))
        elif tool == "improved road":
            m = m.with_feature(h, Feature.IMPROVED_ROAD, not m.has_improved_road(h))
        elif tool == "rail":
            m = m.with_feature(h, Feature.RAIL, not m.has_rail(h))
        elif tool == "terrain":
            m = m.with_terrain(h, self.terrain.value)
        return m, s

    # --- events ------------------------------------------------------------------------------------
    def click(self, h) -> bool:
        """Apply the current tool at ``h``: new fields from the model, one batched redraw.

        ``last_click_ms`` times the model call and the redraw commands; the text panels
        are filled in afterwards.
        """
        if h is None:
            return False
        t0 = time.perf_counter()
        self.focus = h
        tool = self.tool.value
        if tool in SIDE_TOOLS:
            return self.click_side(h, SIDE_TOOLS[tool])
        self.side_start = None
        if tool == "inspect":
            self.draw_boards("overlay")
            self.explain(h)
            return True
        new = self.error.attempt(self.edited, h, tool)
        ok = new is not None and self._try(*new, self.settings)
        if ok:
            map_changed = tool in ("road", "rail", "terrain")
            self.draw_boards(
                *(("terrain",) if map_changed else ()), "supply", "counters", "overlay"
            )
        self.last_click_ms = (time.perf_counter() - t0) * 1000
        if ok:
            self.explain(h)
            self.status.value = CSS + self._status_html()
        return ok

    def click_side(self, h, feature) -> bool:
        """River and escarpment tools: the first click picks a hex, the second an adjacent
        hex; the hexside between them gets (or loses) the feature (TOAW 9.1.7.3)."""
        a = getattr(self, "side_start", None)
        if a is None or a == h:
            self.side_start = h
            self.draw_boards("overlay")
            self.error.ok(f"Now click a hex next to {hex_name(h)}: the side between them changes.")
            return False
        self.side_start = None
        if hexgrid.distance(a, h) != 1:
            self.error.show(
                f"{hex_name(a)} and {hex_name(h)} are not neighbours; a {feature.name.lower().replace('_', ' ')} "
                "runs along the side between two adjacent hexes. Click two neighbours."
            )
            self.draw_boards("overlay")
            return False
        now = self.hexmap.hexside_at(a, h)
        m = self.error.attempt(self.hexmap.with_hexside, a, h, None if now == feature else feature)
        ok = m is not None and self._try(m, self.situation, self.settings)
        if ok:
            self.draw_boards("terrain", "supply", "counters", "overlay")
            self.explain(h)
            self.status.value = CSS + self._status_html()
        return ok

    def place(self, tool: str, h) -> bool:
        """Use ``tool`` at ``h`` as a click would; for notebooks and tests (any hex, even off the map)."""
        self.tool.value = tool
        return self.click(h)

    def hover(self, h) -> None:
        if h is not None:
            self.explain(h)

    def explain(self, h) -> None:
        for r, f in self.fields.items():
            why = self.error.attempt(f.explain, h)
            if why is None:
                return
            lines = "".join(f"<li>{esc(x)}</li>" for x in why.lines)
            self.explain_html[r].value = (
                f"{CSS}<div class='hx-lesson' style='font-size:12px'>"
                f"<b>{r.value} rules, hex {hex_name(h)}</b>: {why.status.value}<ul>{lines}</ul></div>"
            )

    # --- reading the views ----------------------------------------------------------------------------
    def shown(self, rules: Rules, h) -> int | None:
        """The number the supply view shows at ``h`` (None where unsupplied)."""
        f = self.fields[rules]
        if f.status_at(h) is SupplyStatus.UNSUPPLIED:
            return None
        row, col = divmod(self.hexmap.index(h), self.hexmap.width)
        return int(f.shown_level[row, col])

    def labels(self, rules: Rules) -> dict:
        """Every supplied hex and the number drawn on it."""
        v = self.views[rules]
        return {self.hexes[i]: int(v.shown[i]) for i in v.nodes}

    # --- drawing -------------------------------------------------------------------------------------
    def draw_boards(self, *layers: str) -> None:
        """Repaint the named layers (all if none) of both maps, each in one batch."""
        for b in self.boards.values():
            b.redraw(*layers)

    def redraw(self, *layers: str) -> None:
        self.draw_boards(*layers)
        self.status.value = CSS + self._status_html()

    def _status_html(self) -> str:
        s, st = self.situation, self.settings
        counts = {r: int(self.fields[r].supplied.sum()) for r in Rules}
        over = {r: int(self.fields[r].overextended.sum()) for r in Rules}
        return (
            f"<div class='hx-lesson' style='font-size:12px'>Radius {st.radius}, force supply level "
            f"{st.force_supply_level:g}, overextended below {st.overextended_threshold}. "
            f"{len(s.sources)} supply point(s), {len(s.supply_units)} supply unit(s), "
            f"{len(s.enemy_units)} enemy unit(s). Supplied hexes: old {counts[Rules.OLD]}, "
            f"new {counts[Rules.NEW]}; overextended: old {over[Rules.OLD]}, new {over[Rules.NEW]}."
            "</div>"
        )

    def _paint_terrain(self, b: HexBoard, c) -> None:
        m = self.hexmap
        b.fill_hexes(c, self.hexes, [TERRAIN_COLOURS[m.terrain_at(h)] for h in self.hexes])
        b.stroke_hexes(c, self.hexes, "#b3a98f", 0.6)
        roads = [h for h in self.hexes if m.has_road(h)]
        improved = [h for h in self.hexes if m.has_improved_road(h)]
        rails = [h for h in self.hexes if m.has_rail(h)]
        b.segments(c, _links(improved), "#f2d16b", 5.0)  # under the brown road line
        b.segments(c, _links(roads), "#8a5a2b", 2.5)
        b.segments(c, _links(rails), "#333333", 2.0, dash=(5, 3))
        self._paint_sides(b, c)

    def _paint_supply(self, b: HexBoard, c, rules: Rules) -> None:
        """A marker with the supply-view number on every supplied hex, in bulk calls."""
        v = self.views[rules]
        if v.nodes.size == 0:
            return
        s = b.layout.size
        xy = self.centres[v.nodes]
        w, hgt = 1.05 * s, 0.62 * s
        rgb = marker_rgb(v.fraction[v.nodes])
        c.fill_styled_rects(xy[:, 0] - w / 2, xy[:, 1] - 0.62 * s, w, hgt, rgb, 1.0)
        font = f"bold {int(s * 0.55)}px sans-serif"
        for stretched, colour in ((False, "#1a1a1a"), (True, OVEREXTENDED_FONT)):
            pick = v.nodes[v.over[v.nodes] == stretched]
            items = [(self.hexes[i], str(v.shown[i])) for i in pick]
            b.texts(c, items, color=colour, font=font, dy=-0.31 * s)

    def _paint_counters(self, b: HexBoard, c) -> None:
        s = b.layout.size
        sit = self.situation
        r = 0.28 * s
        for colour, hexes in ((ENEMY, sit.enemy_units), (FRIENDLY, sit.friendly_units)):
            for h in hexes:
                x, y = b.centre(h)
                c.fill_style = colour
                c.fill_rect(x - r * 1.3, y + 0.1 * s, 2.6 * r, 1.6 * r)
        for h in sit.supply_units:
            x, y = b.centre(h)
            c.fill_style = SUPPLY_UNIT
            c.fill_polygon(
                [(x - 1.3 * r, y + 0.75 * s), (x + 1.3 * r, y + 0.75 * s), (x, y + 0.1 * s)]
            )
        for src in sit.sources:
            x, y = b.centre(src.hex)
            c.fill_style = SOURCE
            c.fill_circle(x, y + 0.42 * s, r * 1.05)
        b.texts(
            c,
            [(src.hex, "S") for src in sit.sources],
            color="#fff",
            font=f"bold {int(s * 0.45)}px sans-serif",
            dy=0.43 * s,
        )

    def _paint_overlay(self, b: HexBoard, c) -> None:
        if self.focus is not None and self.focus in b.hex_set:
            b.stroke_hexes(c, [self.focus], "#1f4fd6", 3.0, shrink=0.95)
        start = getattr(self, "side_start", None)
        if start is not None and start in b.hex_set:
            b.stroke_hexes(c, [start], "#e69f00", 3.0, shrink=0.8)

    def _paint_sides(self, b: HexBoard, c) -> None:
        """Rivers and escarpments on the shared edge of two hexes (bulk line calls)."""
        half = b.layout.size * 0.5
        for feature, colour in SIDE_COLOURS.items():
            sides = [tuple(side) for side, f in self.hexmap.hexsides.items() if f == feature]
            if not sides:
                continue
            ends = np.array([[b.centre(a), b.centre(z)] for a, z in sides], dtype=float)
            mid, d = ends.mean(axis=1), ends[:, 1] - ends[:, 0]
            perp = np.stack([-d[:, 1], d[:, 0]], axis=1)
            perp *= half / np.linalg.norm(perp, axis=1, keepdims=True)
            c.stroke_style = colour
            c.line_width = 4.0
            c.stroke_line_segments(np.stack([mid - perp, mid + perp], axis=1))


def _rgb(colour: str) -> tuple[int, int, int]:
    s = colour.lstrip("#")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


def _links(hexes: list) -> list[tuple]:
    """Pairs of adjacent hexes in ``hexes`` (a road or railway drawn centre to centre)."""
    have = set(hexes)
    return [(a, n) for a in hexes for n in hexgrid.neighbours(a) if n in have and a < n]


# --- the curves ---------------------------------------------------------------------------------


def curve_data(
    radius: int, strength: int = 100, route: str = "road", max_distance: int | None = None
):
    """Distances and the four curves the manual plotted (fractions of force supply).

    Old rules along ``route`` with and without a supply unit; new rules with and without
    one (TOAW 9.1.7.2, 9.1.7.3). Raises the model's error for an impossible radius.
    """
    top = max_distance if max_distance is not None else max(10, 6 * radius)
    d = np.linspace(0, top, 241)
    return d, {
        "old rules": old_rule_fraction(np.round(d), radius, route),
        "new rules": new_rule_fraction(d, radius, strength),
        "old rules with supply unit": old_rule_fraction(
            np.round(d), radius, route, with_supply_unit=True
        ),
        "new rules with supply unit": new_rule_fraction(d, radius, strength, near_supply_unit=True),
    }


CURVE_STYLE = {  # the manual's colours: blue old, red new, cyan old + SU, yellow new + SU
    "old rules": ("#1f4fd6", "-"),
    "new rules": ("#d62728", "-"),
    "old rules with supply unit": ("#17becf", "--"),
    "new rules with supply unit": ("#e3b505", "--"),
}


def curve_figure(radius: int, strength: int = 100, route: str = "road") -> Figure:
    d, curves = curve_data(radius, strength, route)
    fig = Figure(figsize=(6.4, 3.3), dpi=90)
    ax = fig.subplots()
    for name, y in curves.items():
        colour, ls = CURVE_STYLE[name]
        ax.plot(d, 100 * y, color=colour, ls=ls, lw=2, label=name)
    ax.axhline(110, color="#777", lw=0.7, ls=":")
    ax.set_xlabel("distance from the supply point (MPs new, hexes old)")
    ax.set_ylabel("% of force supply")
    ax.set_title(f"radius {radius}, point at {strength}%, old-rules route: {route}", fontsize=10)
    ax.set_ylim(0, max(120, 115 * strength / 100))
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


class SupplyCurves:
    """Supply against distance for a radius you choose (default 25, the manual's)."""

    def __init__(self, radius: int = 25) -> None:
        self.radius = W.IntText(value=radius, description="radius", layout=W.Layout(width="160px"))
        self.strength = W.IntText(value=100, description="point %", layout=W.Layout(width="160px"))
        self.route = W.Dropdown(
            options=["road", "open", "rough"],
            value="road",
            description="old route",
            layout=W.Layout(width="200px"),
        )
        self.error = InlineError()
        self.view = figure_view("600px")
        self.figure = None
        for w in (self.radius, self.strength, self.route):
            w.observe(lambda _ch: self.draw(), names="value")
        self.widget = W.VBox(
            [W.HBox([self.radius, self.strength, self.route]), self.error.widget, self.view]
        )
        self.draw()

    def draw(self) -> bool:
        fig = self.error.attempt(
            curve_figure, self.radius.value, self.strength.value, self.route.value
        )
        if fig is None:
            return False
        self.figure = fig
        show_figure(self.view, fig)
        return True


# --- what if the enemy cuts the coast road --------------------------------------------------------

TOWN = (14, 1)  # the eastern coastal town (column, row)
OPEN_ROAD = -1  # the dropdown's "no enemy on the road" (a None value would show blank)
COAST_ROAD_ROW = 2


def road_cut_fields(column: int | None):
    """Old- and new-rules fields of the lesson map, with an enemy unit on the coast road at
    ``column`` (None: the road is open), as :func:`hexclass.classroom.toaw.both_rules` gives them."""
    situation = lesson_situation()
    if column is not None:
        situation = situation.with_enemy(offset_to_axial(column, COAST_ROAD_ROW))
    return both_rules(lesson_map(), situation, LESSON_SETTINGS)


class RoadCutWhatIf:
    """Drop an enemy unit on the coast road and read the eastern town's supply under both
    rules, before and after, with the model's explanation (TOAW 9.1.7.2, 9.1.7.3)."""

    def __init__(self, column: int = 8) -> None:
        self.cut = W.Dropdown(
            options=[("nowhere: the road stays open", OPEN_ROAD)]
            + [(f"road hex ({c}, {COAST_ROAD_ROW})", c) for c in range(2, 14)],
            value=column,
            description="enemy unit on",
            style={"description_width": "initial"},
            layout=W.Layout(width="360px"),
        )
        self.out = W.HTML(layout=W.Layout(width="auto"))
        self.cut.observe(lambda _c: self.update(), names="value")
        self.before = road_cut_fields(None)
        self.widget = W.VBox([self.cut, self.out])
        self.widget.add_class("hexclass-road-cut")
        self.update()

    def update(self) -> str:
        col, row = TOWN
        town = offset_to_axial(col, row)
        self.after = road_cut_fields(None if self.cut.value == OPEN_ROAD else self.cut.value)
        rows = [
            [
                f"{rules.value} rules",
                int(b.shown_level[row, col]),
                int(a.shown_level[row, col]),
                a.status_at(town).value,
            ]
            for rules, b, a in zip((Rules.OLD, Rules.NEW), self.before, self.after, strict=True)
        ]
        table = table_html(
            ["rules", "town shows, road open", "town shows, with the cut", "town's state"], rows
        )
        why = self.after[1].explain(town).text()
        self.out.value = (
            f"{CSS}{table}<div class='hx-lesson'><b>Why, under the new rules:</b></div>"
            f"<pre class='hx-worked'>{esc(why)}</pre>"
        )
        return self.out.value
