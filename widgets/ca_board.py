"""The Combined Arms board: terrain, counters and overlays drawn on a :class:`HexBoard`.

The view draws whatever state it is given and what the controller asks it to show
(selection, legal moves, lines of fire …); it never changes the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms.board import STANDARD_HEXES, T
from hexclass.classroom.combined_arms.lines import friendly_line
from hexclass.classroom.hexgrid import Hex

from .board import HexBoard, blend

PALETTES = {
    # close to the rulebook's counter sheet: green fresh, buff spent, brown ATGs
    "rulebook": {
        T.OPEN: "#ede6c4",
        T.ROAD: "#ede6c4",
        T.POOR: "#c8b58c",
        T.CREST: "#d9b777",
        T.WOODS: "#7fa35a",
        T.WOODED_CREST: "#8e9b4e",
        T.FARM: "#e3cfa2",
        "grid": "#9c9170",
        "road_line": "#7d7468",
        "ridge": "#8a5a1f",
        "tree": "#3f6b2a",
        "fresh": "#2e8b3a",
        "spent": "#c8a86b",
        "atg": "#7b4a1c",
        "enemy": "#5a5a5a",
        "counter": "#fbf8ee",
        "select": "#1f4fd6",
        "dest": "#3c78d8",
        "arc": "#f0c419",
        "shot": "#d62728",
        "clear": "#2e8b3a",
        "partial": "#e6820e",
        "blocked": "#d62728",
        "smoke": "#9a9a9a",
        "mortar": "#1f4fd6",
        "enemy_mortar": "#d62728",
        "label": "#6b6450",
        "seat": "#ff00aa",
    },
    # Okabe-Ito colours, safe for the common colour-vision deficiencies; fresh and spent
    # also differ in line style (solid / dashed) and text weight
    "colour-blind safe": {
        T.OPEN: "#f2efe6",
        T.ROAD: "#f2efe6",
        T.POOR: "#cfc6b4",
        T.CREST: "#e8c98f",
        T.WOODS: "#8cc9a5",
        T.WOODED_CREST: "#a9b98a",
        T.FARM: "#e7d9b8",
        "grid": "#8f8a7c",
        "road_line": "#6b6b6b",
        "ridge": "#9b4f00",
        "tree": "#00664a",
        "fresh": "#0072b2",
        "spent": "#e69f00",
        "atg": "#7a3f00",
        "enemy": "#444444",
        "counter": "#ffffff",
        "select": "#000000",
        "dest": "#0072b2",
        "arc": "#f0e442",
        "shot": "#d55e00",
        "clear": "#009e73",
        "partial": "#e69f00",
        "blocked": "#d55e00",
        "smoke": "#999999",
        "mortar": "#0072b2",
        "enemy_mortar": "#d55e00",
        "label": "#5b5b5b",
        "seat": "#cc79a7",
    },
}

ARROWS = {0: "↗", 1: "↑", 2: "↖", 3: "↙", 4: "↓", 5: "↘"}


@dataclass
class Highlights:
    """What the controller wants shown on the overlay layer."""

    selected_hex: Hex | None = None
    selected_unit: str | None = None
    destinations: set[Hex] = field(default_factory=set)
    arc: tuple[Hex, int] | None = None  # (hex, corner) of an armour arc to tint
    fire_group: list[str] = field(default_factory=list)
    target: Hex | None = None
    shots: list[tuple[Hex, Hex, bool]] = field(default_factory=list)  # enemy fire: (from, to, hit)
    own_units: frozenset[str] = frozenset()  # this seat's platoons, ringed
    note_hexes: dict[Hex, str] = field(default_factory=dict)
    legal_targets: set[Hex] = field(default_factory=set)  # the engine allows the group's shot
    refused_targets: set[Hex] = field(default_factory=set)  # the engine refuses it (dimmed)


LABEL_PX = 12  # hex labels on screen, readable on a projector at 1366x768


class CABoardView:
    """Draws a Combined Arms state on a HexBoard with three layers."""

    def __init__(self, hex_size: float = 36.0, palette: str = "colour-blind safe") -> None:
        self.board = HexBoard(STANDARD_HEXES, hex_size=hex_size, max_width="820px")
        self.palette_name = palette
        self.state = None
        self.hl = Highlights()
        self.board.set_painter("terrain", self.paint_terrain)
        self.board.set_painter("counters", self.paint_counters)
        self.board.set_painter("overlay", self.paint_overlay)

    @property
    def pal(self) -> dict:
        return PALETTES[self.palette_name]

    @property
    def widget(self):
        return self.board.canvas

    def show(self, state, layers=("terrain", "counters", "overlay")) -> None:
        self.state = state
        self.board.redraw(*layers)

    def set_palette(self, name: str) -> None:
        self.palette_name = name
        self.board.redraw()

    # --- terrain ------------------------------------------------------------------------
    def paint_terrain(self, c) -> None:
        s, b, pal = self.state, self.board, self.pal
        if s is None:
            return
        terrain = s.board.terrain
        hexes = list(b.hexes)
        b.fill_hexes(c, hexes, [pal[terrain[h]] for h in hexes])
        self._terrain_marks(c, hexes, terrain)
        road = list(s.board.road)
        ends = [s.board.road_beyond_friendly_edge, *road, s.board.road_beyond_enemy_edge]
        b.segments(c, list(zip(ends, ends[1:])), pal["road_line"], width=b.layout.size * 0.22)
        b.stroke_hexes(c, hexes, pal["grid"], width=1)
        closed = sorted(s.board.closed_side_edge)
        b.stroke_hexes(c, closed, pal["blocked"], width=1.5, shrink=0.86, alpha=0.55)
        b.texts(
            c,
            ((h, s.board.label(h)) for h in hexes),
            pal["label"],
            f"{max(int(b.layout.size * 0.27), b.buffer_px(LABEL_PX))}px sans-serif",
            dy=-b.layout.size * 0.6,
        )

    def _terrain_marks(self, c, hexes, terrain) -> None:
        b, pal, r = self.board, self.pal, self.board.layout.size
        trees, ridges, farms, poor = [], [], [], []
        for h in hexes:
            t = terrain[h]
            x, y = b.centre(h)
            if t in (T.WOODS, T.WOODED_CREST):
                trees += [
                    (x - r * 0.45, y + r * 0.3),
                    (x + r * 0.45, y + r * 0.3),
                    (x, y + r * 0.55),
                ]
            if t in (T.CREST, T.WOODED_CREST):
                ridges.append(
                    ((x - r * 0.65, y + r * 0.62), (x, y + r * 0.42), (x + r * 0.65, y + r * 0.62))
                )
            if t == T.FARM:
                farms.append((x - r * 0.55, y + r * 0.28))
            if t == T.POOR:
                poor += [(x - r * 0.5, y + r * 0.45), (x, y + r * 0.6), (x + r * 0.5, y + r * 0.45)]
        c.fill_style = pal["tree"]
        if trees:
            xs, ys = zip(*trees, strict=True)
            c.fill_circles(list(xs), list(ys), r * 0.13)
        if poor:
            c.fill_style = "#6d5d40"
            xs, ys = zip(*poor, strict=True)
            c.fill_circles(list(xs), list(ys), r * 0.06)
        c.stroke_style = pal["ridge"]
        c.line_width = max(2.0, r * 0.08)
        for pts in ridges:
            c.stroke_lines(list(pts))
        c.fill_style = "#8b3a2b"
        for x, y in farms:
            c.fill_rect(x, y, r * 0.3, r * 0.22)
            c.fill_polygon([(x - r * 0.04, y), (x + r * 0.15, y - r * 0.16), (x + r * 0.34, y)])

    # --- counters -----------------------------------------------------------------------
    def paint_counters(self, c) -> None:
        s = self.state
        if s is None:
            return
        for h, post in s.enemy.items():
            self._enemy_post(c, h, post)
        for h, ids in s.at.items():
            self._stack(c, h, [s.units[u] for u in ids])

    def _slots(self, h: Hex, n: int) -> list[tuple[float, float, float]]:
        """Where n counters sit inside a hex: (x, y, side) each."""
        x, y = self.board.centre(h)
        r = self.board.layout.size
        if n == 1:
            return [(x, y, r * 0.95)]
        side = r * (0.68 if n == 2 else 0.56)
        cols = 2 if n <= 4 else 3
        rows = math.ceil(n / cols)
        out = []
        for i in range(n):
            cx = x + (i % cols - (cols - 1) / 2) * side * 1.04
            cy = y + (i // cols - (rows - 1) / 2) * side * 1.04
            out.append((cx, cy, side))
        return out

    def _counter(self, c, x, y, side, text, border, fresh, sub="", own=False) -> None:
        pal = self.pal
        h = side
        c.fill_style = pal["counter"] if fresh else blend(pal["counter"], pal["spent"], 0.35)
        c.fill_rect(x - h / 2, y - h / 2, h, h)
        c.stroke_style = border
        c.line_width = max(2.0, side * 0.1)
        c.set_line_dash([] if fresh else [side * 0.16, side * 0.1])
        c.stroke_rect(x - h / 2, y - h / 2, h, h)
        c.set_line_dash([])
        if own:
            c.stroke_style = pal["seat"]
            c.line_width = 1.5
            c.stroke_rect(x - h / 2 - 3, y - h / 2 - 3, h + 6, h + 6)
        c.fill_style = border
        c.font = f"{'bold ' if fresh else ''}{int(side * 0.42)}px sans-serif"
        c.text_align = "center"
        c.text_baseline = "middle"
        c.fill_text(text, x, y - (side * 0.08 if sub else 0))
        if sub:
            c.font = f"{int(side * 0.26)}px sans-serif"
            c.fill_text(sub, x, y + side * 0.3)

    def _stack(self, c, h, units) -> None:
        pal = self.pal
        own = self.hl.own_units
        for (x, y, side), u in zip(self._slots(h, len(units)), units, strict=True):
            colour = pal["fresh"] if u.fresh else pal["spent"]
            sub = "" if u.fresh else "spent"
            if u.is_armour:
                sub = ARROWS[u.facing] + ("" if u.fresh else " spent")
            self._counter(c, x, y, side, u.id, colour, u.fresh, sub, own=u.id in own)
            if u.is_armour:
                self._facing_mark(c, x, y, side, u.facing, colour)

    def _facing_mark(self, c, x, y, side, corner, colour) -> None:
        ang = math.radians(30 + 60 * corner)
        dx, dy = math.cos(ang), -math.sin(ang)
        tip = (x + dx * side * 0.78, y + dy * side * 0.78)
        left = (x + dx * side * 0.5 - dy * side * 0.16, y + dy * side * 0.5 + dx * side * 0.16)
        right = (x + dx * side * 0.5 + dy * side * 0.16, y + dy * side * 0.5 - dx * side * 0.16)
        c.fill_style = colour
        c.fill_polygon([tip, left, right])

    def _enemy_post(self, c, h, post) -> None:
        pal = self.pal
        colour = pal["fresh"] if post.fresh else pal["spent"]
        x, y = self.board.centre(h)
        r = self.board.layout.size
        if post.atg is not None:
            side = r * 0.62
            self._counter(
                c,
                x - side * 0.32,
                y + side * 0.32,
                side,
                "AT" if post.atg == "real" else "AT?",
                pal["atg"],
                post.fresh,
            )
            x, y = x + side * 0.3, y - side * 0.3
        else:
            side = r * 0.8
        if post.platoon is not None:
            text = "?" if post.platoon == "potential" else "PL"
            self._counter(c, x, y, side, text, colour, post.fresh, "" if post.fresh else "spent")

    # --- overlays -------------------------------------------------------------------------
    def paint_overlay(self, c) -> None:
        s, b, pal, hl = self.state, self.board, self.pal, self.hl
        if s is None:
            return
        if s.smoke:
            b.fill_hexes(c, list(s.smoke), pal["smoke"], alpha=0.45)
            b.texts(
                c,
                ((h, "SMOKE") for h in s.smoke),
                "#333",
                f"{int(b.layout.size * 0.3)}px sans-serif",
                dy=b.layout.size * 0.55,
            )
        self._mortar_counters(c)
        if hl.arc is not None:
            origin, corner = hl.arc
            arc = [
                h for h in hg.spiral(origin, 5) if h in b.hex_set and hg.in_arc(origin, corner, h)
            ]
            b.fill_hexes(c, arc, pal["arc"], alpha=0.22)
        if hl.refused_targets:
            b.fill_hexes(c, sorted(hl.refused_targets), "#777777", alpha=0.5)
        if hl.legal_targets:
            b.stroke_hexes(c, sorted(hl.legal_targets), pal["clear"], width=4, shrink=0.9)
        if hl.destinations:
            b.fill_hexes(c, sorted(hl.destinations), pal["dest"], alpha=0.32, shrink=0.9)
            b.stroke_hexes(c, sorted(hl.destinations), pal["dest"], width=2, shrink=0.9)
        if hl.target is not None:
            self._lines_of_fire(c)
            b.stroke_hexes(c, [hl.target], pal["blocked"], width=3.5, shrink=0.95)
        if hl.selected_hex is not None:
            b.stroke_hexes(c, [hl.selected_hex], pal["select"], width=4, shrink=0.97)
        for a, t, hit in hl.shots:
            b.segments(
                c, [(a, t)], pal["shot"], width=3 if hit else 1.5, dash=() if hit else (6, 4)
            )
        if hl.note_hexes:
            b.texts(
                c,
                hl.note_hexes.items(),
                pal["shot"],
                f"bold {int(b.layout.size * 0.34)}px sans-serif",
                dy=b.layout.size * 0.62,
            )

    def _mortar_counters(self, c) -> None:
        s, b, pal = self.state, self.board, self.pal
        r = b.layout.size
        for m, colour, text in (
            (s.friendly_mortar, pal["mortar"], "MORTAR"),
            (s.enemy_mortar, pal["enemy_mortar"], "ENEMY MORTAR"),
        ):
            if m is None:
                continue
            x, y = b.centre(m.hex)
            c.stroke_style = colour
            c.line_width = 3
            c.stroke_circle(x, y, r * 0.82)
            c.fill_style = colour
            c.font = f"bold {int(r * 0.24)}px sans-serif"
            c.text_align = "center"
            c.fill_text(("SMOKE " if m.smoke else "") + text + f" t{m.turn}", x, y - r * 0.5)

    def _lines_of_fire(self, c) -> None:
        s, b, pal, hl = self.state, self.board, self.pal, self.hl
        for uid in hl.fire_group:
            u = s.units.get(uid)
            if u is None or u.hex is None:
                continue
            lof = friendly_line(s, u.hex, hl.target)
            colour = (
                pal["blocked"] if lof.blocked else pal["partial"] if lof.partial else pal["clear"]
            )
            b.segments(c, [(u.hex, hl.target)], colour, width=3, dash=(8, 5) if lof.partial else ())
            if lof.partly_by:
                b.stroke_hexes(c, list(lof.partly_by), pal["partial"], width=3, shrink=0.75)
            if lof.blocked_by:
                b.stroke_hexes(c, list(lof.blocked_by), pal["blocked"], width=3, shrink=0.75)
