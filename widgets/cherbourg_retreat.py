"""The Cherbourg retreat lesson on a map: a beaten stack falls back, under siege or not.

:class:`RetreatLab` draws a small patch of clear ground with our two battalions in the
centre, enemy units (E) and their engagement zones around them, and the path the
stack takes. Click a hex to put an enemy there or take it away; tick the box to put a
friendly battalion in the first hex of the retreat. Whether the stack is under siege,
where it may stop and what it loses all come from :mod:`hexclass.classroom.cherbourg`
(``surrounded``, ``retreat_options``, ``retreat``); the widget only picks the path,
westwards, away from the attack.
"""

from __future__ import annotations

import ipywidgets as W

from hexclass.classroom.cherbourg import (
    CherbourgInputError,
    Field,
    infantry,
    retreat,
    retreat_options,
)
from hexclass.classroom.cherbourg import surrounded as under_siege
from hexclass.classroom.hexgrid import neighbours, spiral

from .board import HexBoard
from .lesson_kit import CSS, esc

CENTRE = (0, 0)
START_ENEMIES = frozenset({(0, -1), (-1, 1), (2, 0)})  # the lesson's siege
GROUND, ZONE, ENEMY, OURS, FRIEND, PATH, OPTION = (
    "#efe6cc",
    "#f4c7bd",
    "#c62828",
    "#1f4fd6",
    "#6f8fe0",
    "#222222",
    "#1b7f3b",
)


def stack():
    """Our stack in the centre hex: one fresh battalion and one already damaged."""
    return [infantry("1/919"), infantry("2/919", damaged=True)]


def westwards(board_layout, hexes):
    """``hexes`` ordered west first (the attack comes from the east), then north first."""
    return sorted(hexes, key=lambda h: board_layout.hex_to_pixel(h))


class RetreatLab:
    """Enemies, engagement zones and a retreat on a map, judged by the Cherbourg model."""

    def __init__(self, hex_size: float = 34.0) -> None:
        self.hexes = tuple(spiral(CENTRE, 3))
        self.enemies = set(START_ENEMIES)
        self.friend = W.Checkbox(
            value=False,
            description="a friendly battalion stands in the first hex of the retreat",
            indent=False,
            layout=W.Layout(width="auto"),
        )
        self.reset = W.Button(description="Put the enemies back", layout=W.Layout(width="auto"))
        self.board = HexBoard(self.hexes, hex_size=hex_size, max_width="440px")
        self.board.set_painter("terrain", self._paint_ground)
        self.board.set_painter("counters", self._paint_units)
        self.board.set_painter("overlay", self._paint_path)
        self.board.on_click(lambda h, _x, _y: self.click(h))
        self.friend.observe(lambda _c: self.update(), names="value")
        self.reset.on_click(lambda _b: self.put_back())
        self.text = W.HTML(layout=W.Layout(width="auto", max_width="520px"))
        self.widget = W.VBox(
            [
                W.HBox([self.friend, self.reset], layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.board.canvas, self.text], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.widget.add_class("hexclass-retreat-lab")
        self.update()

    # --- inputs ---------------------------------------------------------------------------
    def click(self, h) -> None:
        """Put an enemy unit in ``h`` or take it away (not in our own hex)."""
        if h is None or h == CENTRE:
            return
        self.enemies ^= {h}
        self.update()

    def put_back(self) -> None:
        self.enemies = set(START_ENEMIES)
        self.update()

    # --- the model ------------------------------------------------------------------------
    def field(self, first=None) -> Field:
        friendly = {first: 1} if self.friend.value and first is not None else {}
        return Field(
            terrain={h: ("clear",) for h in self.hexes},
            enemy=frozenset(self.enemies),
            friendly=friendly,
        )

    def choose_path(self, f: Field) -> list:
        """Into a hex where the stack may stop if there is one (the most westerly, away
        from the attack); under siege, through the first hex open to it and on to a second
        hex outside the enemy zones if there is one."""
        lay = self.board.layout
        options = retreat_options(f, CENTRE)
        if options:
            return [westwards(lay, options)[0]]
        firsts = [n for n in neighbours(CENTRE) if f.on_map(n) and n not in f.enemy]
        if not firsts:
            return []
        first = westwards(lay, firsts)[0]
        seconds = [n for n in neighbours(first) if n != CENTRE and f.on_map(n) and n not in f.enemy]
        if not seconds:
            return [first]
        zone = f.engagement_zone()
        return [first, min(seconds, key=lambda n: (n in zone, lay.hex_to_pixel(n)))]

    def update(self) -> str:
        plain = self.field()
        self.sieged = under_siege(plain, CENTRE)
        self.options = retreat_options(plain, CENTRE)
        self.path = self.choose_path(plain)
        self.zone = plain.engagement_zone()
        f = self.field(self.path[0] if self.path else None)
        try:
            self.outcome, self.error = retreat(f, stack(), CENTRE, self.path), None
        except CherbourgInputError as exc:
            self.outcome, self.error = None, str(exc)
        self.text.value = CSS + "<div class='hx-lesson'>" + self.words() + "</div>"
        self.board.redraw()
        return self.text.value

    # --- words ------------------------------------------------------------------------------
    def words(self) -> str:
        parts = []
        if self.sieged:
            parts.append(
                "<b>Under siege: yes.</b> Every hex around the stack holds an enemy unit or lies "
                "next to one, in its engagement zone (shaded; Cherbourg 4.1.2). An attack on "
                "this stack shifts one column right (Cherbourg 5.1.3)."
            )
        else:
            n = len(self.options)
            parts.append(
                f"<b>Under siege: no.</b> {n} hex{'es' if n != 1 else ''} around the stack "
                f"{'are' if n != 1 else 'is'} free of enemy units and their engagement zones "
                f"(outlined green): the stack may retreat one hex into "
                f"{'one of them' if n != 1 else 'it'} (Cherbourg 5.3)."
            )
        if len(self.path) == 1:
            parts.append("It falls back into the hex marked 1.")
        elif self.path:
            parts.append("It falls back through the hex marked 1 into the hex marked 2.")
        if self.error:
            parts.append(f"<span class='hx-error'>The model refuses: {esc(self.error)}</span>")
            return "<p>" + "</p><p>".join(parts) + "</p>"
        out = self.outcome
        notes = "".join(f"<li>{esc(n)}</li>" for n in out.notes)
        if notes:
            parts.append(f"What the rules do on the way:<ul>{notes}</ul>")
        kept = [f"{u.name} ({'damaged' if u.damaged else 'fresh'})" for u in out.survivors]
        parts.append(
            "<b>Still standing:</b> "
            + (esc(", ".join(kept)) if kept else "nobody")
            + ". <b>Eliminated:</b> "
            + (esc(", ".join(out.eliminated)) if out.eliminated else "nobody")
            + "."
        )
        parts.append("<small>Click a hex to put an enemy unit there or take it away.</small>")
        return "<p>" + "</p><p>".join(parts) + "</p>"

    # --- painters ---------------------------------------------------------------------------
    def _paint_ground(self, c) -> None:
        b = self.board
        b.fill_hexes(c, list(self.hexes), GROUND)
        zone = [h for h in self.zone if h in b.hex_set and h not in self.enemies]
        b.fill_hexes(c, zone, ZONE)
        b.stroke_hexes(c, list(self.hexes), "#8a8a7a", 1)
        if not self.sieged:
            b.stroke_hexes(c, self.options, OPTION, 3, shrink=0.86)
        if self.path:  # under the counters, so it never covers a label
            route = [CENTRE, *self.path]
            b.segments(c, list(zip(route, route[1:])), PATH, width=3, dash=(6, 4))

    def _paint_units(self, c) -> None:
        b = self.board
        size = b.layout.size
        enemies = [h for h in self.enemies if h in b.hex_set]
        b.fill_hexes(c, enemies, ENEMY, shrink=0.6)
        b.texts(c, [(h, "E") for h in enemies], "#ffffff", f"bold {b.buffer_px(14)}px sans-serif")
        b.fill_hexes(c, [CENTRE], OURS, shrink=0.62)
        b.texts(c, [(CENTRE, "2 bns")], "#ffffff", f"bold {b.buffer_px(12)}px sans-serif")
        if self.friend.value and self.path:
            first = self.path[0]
            b.fill_hexes(c, [first], FRIEND, shrink=0.5)
            b.texts(
                c, [(first, "friend")], "#ffffff", f"{b.buffer_px(12)}px sans-serif", dy=size * 0.55
            )

    def _paint_path(self, c) -> None:
        b = self.board
        if not self.path:
            return
        b.texts(
            c,
            [(h, str(i)) for i, h in enumerate(self.path, 1)],
            PATH,
            f"bold {b.buffer_px(16)}px sans-serif",
            dy=-b.layout.size * 0.45,
        )
