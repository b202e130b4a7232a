"""The hex-board machinery every map in hexclass is drawn with.

A :class:`HexBoard` is an ipycanvas ``MultiCanvas`` with named layers (by default
``terrain``, ``counters``, ``overlay``), one :class:`~hexclass.classroom.hexgrid.Layout` that
converts between hexes and canvas pixels, and a painter function per layer.

* A canvas is stateless: the browser keeps no drawing of its own. Every layer is
  therefore drawn from the painters, in one ``hold_canvas`` batch, whenever a client
  becomes ready (``on_client_ready``) — a browser that connects late sees the board.
* The canvas buffer has a fixed size; the widget stretches to the page width and
  ipycanvas maps clicks back into buffer pixels, so :meth:`HexBoard.hex_at` stays
  exact at any displayed size.
* Painters should use the bulk helpers here (``fill_hexes``, ``stroke_hexes``,
  ``segments``) rather than one call per hex.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

import ipywidgets as W
import numpy as np
from ipycanvas import Canvas, MultiCanvas, hold_canvas

from hexclass.classroom.hexgrid import Hex, Layout, bounding_box

Painter = Callable[[Canvas], None]


class HexBoard:
    """A layered canvas showing a set of hexes, with click and key callbacks."""

    def __init__(
        self,
        hexes: Iterable[Hex],
        hex_size: float = 30.0,
        layers: Sequence[str] = ("terrain", "counters", "overlay"),
        padding: float = 8.0,
        max_width: str = "100%",
        layout_type: type[Layout] = Layout,
    ) -> None:
        """``layout_type`` may be a :class:`Layout` subclass for another hex orientation
        (the play-by-mail map uses flat-topped hexes)."""
        self.hexes: tuple[Hex, ...] = tuple(hexes)
        self.hex_set = frozenset(self.hexes)
        x0, y0, x1, y1 = bounding_box(self.hexes, layout_type(hex_size))
        self.layout = layout_type(hex_size, (padding - x0, padding - y0))
        self.width = int(np.ceil(x1 - x0 + 2 * padding))
        self.height = int(np.ceil(y1 - y0 + 2 * padding))
        self.layer_names = tuple(layers)
        self.canvas = MultiCanvas(
            len(layers),
            width=self.width,
            height=self.height,
            layout=W.Layout(width="100%", max_width=max_width, height="auto"),
        )
        self._share_layer_layout()
        self.layers = {name: self.canvas[i] for i, name in enumerate(layers)}
        self._painters: dict[str, Painter | None] = {name: None for name in layers}
        self._click: list[Callable] = []
        self._move: list[Callable] = []
        self._keys: list[Callable] = []
        self.redraws = 0
        self.last_redraw_ms = 0.0
        self.canvas.on_client_ready(self.redraw)
        self.canvas.on_mouse_down(self._mouse_down)
        self.canvas.on_mouse_move(self._mouse_move)
        self.canvas[len(layers) - 1].on_key_down(self._key_down)

    def _share_layer_layout(self) -> None:
        """The layers are drawn into the board's one canvas and never laid out by
        themselves: one layout model for all of them, not one each (fewer models for a
        page to send and build)."""
        layers = self.canvas._canvases
        for c in layers[1:]:
            own, c.layout = c.layout, layers[0].layout
            own.close()

    # --- painting ------------------------------------------------------------------------
    def set_painter(self, layer: str, painter: Painter | None) -> None:
        self._painters[layer] = painter

    def redraw(self, *layers: str) -> None:
        """Clear and repaint the named layers (all of them if none are named) in one batch."""
        names = layers or self.layer_names
        t0 = time.perf_counter()
        with hold_canvas():
            for name in names:
                c = self.layers[name]
                c.clear()
                painter = self._painters.get(name)
                if painter is not None:
                    painter(c)
        self.redraws += 1
        self.last_redraw_ms = (time.perf_counter() - t0) * 1000

    # --- geometry --------------------------------------------------------------------------
    def hex_at(self, x: float, y: float) -> Hex | None:
        """The board hex under canvas pixel (x, y), or None off the board."""
        h = self.layout.pixel_to_hex(x, y)
        return h if h in self.hex_set else None

    def centre(self, h: Hex) -> tuple[float, float]:
        return self.layout.hex_to_pixel(h)

    # --- events ------------------------------------------------------------------------------
    def on_click(self, callback: Callable[[Hex | None, float, float], None]) -> None:
        """Call ``callback(hex or None, x, y)`` on every mouse press."""
        self._click.append(callback)

    def on_hover(self, callback: Callable[[Hex | None], None]) -> None:
        self._move.append(callback)

    def on_key(self, callback: Callable[[str, bool, bool, bool], None]) -> None:
        """Call ``callback(key, shift, ctrl, meta)`` on key presses over the board."""
        self._keys.append(callback)

    def _mouse_down(self, x: float, y: float) -> None:
        h = self.hex_at(x, y)
        for cb in self._click:
            cb(h, x, y)

    def _mouse_move(self, x: float, y: float) -> None:
        if not self._move:
            return
        h = self.hex_at(x, y)
        if h == getattr(self, "_hover", None):
            return
        self._hover = h
        for cb in self._move:
            cb(h)

    def _key_down(self, key: str, shift: bool, ctrl: bool, meta: bool) -> None:
        for cb in self._keys:
            cb(key, shift, ctrl, meta)

    # --- bulk drawing helpers ----------------------------------------------------------------
    def polygon_points(self, hexes: Sequence[Hex], shrink: float = 1.0) -> np.ndarray:
        """Corner points of many hexes as an (n, 6, 2) array of 32-bit floats: what the
        browser's canvas draws with, and half the bytes of 64-bit ones on the websocket
        (a board's grid is drawn twice, filled and stroked, at every redraw)."""
        lay = self.layout
        offsets = np.array([lay.corner_offset(c) for c in range(6)]) * shrink
        centres = np.array([lay.hex_to_pixel(h) for h in hexes], dtype=float).reshape(-1, 1, 2)
        return (centres + offsets.reshape(1, 6, 2)).astype(np.float32)

    def fill_hexes(
        self, c: Canvas, hexes: Sequence[Hex], colors, alpha=1.0, shrink: float = 1.0
    ) -> None:
        """Fill many hexes; ``colors`` is one "#rrggbb" or a list of them."""
        hexes = list(hexes)
        if not hexes:
            return
        rgb = _rgb_array(colors, len(hexes))
        c.fill_styled_polygons(self.polygon_points(hexes, shrink), rgb, alpha)

    def stroke_hexes(
        self,
        c: Canvas,
        hexes: Sequence[Hex],
        color: str,
        width: float = 1.0,
        shrink: float = 1.0,
        alpha: float = 1.0,
    ) -> None:
        hexes = list(hexes)
        if not hexes:
            return
        c.stroke_style = color
        c.line_width = width
        c.global_alpha = alpha
        c.stroke_polygons(self.polygon_points(hexes, shrink))
        c.global_alpha = 1.0

    def segments(
        self,
        c: Canvas,
        pairs: Sequence[tuple[Hex, Hex]],
        color: str,
        width: float = 2.0,
        dash: Sequence[float] = (),
    ) -> None:
        """Straight lines between hex centres, drawn in one call."""
        if not pairs:
            return
        pts = np.array([[self.centre(a), self.centre(b)] for a, b in pairs], dtype=float)
        c.stroke_style = color
        c.line_width = width
        c.set_line_dash(list(dash))
        c.stroke_line_segments(pts)
        c.set_line_dash([])

    def buffer_px(self, screen_px: float) -> int:
        """Canvas pixels that show as at least ``screen_px`` pixels on screen when the board
        is drawn at its largest: its ``max_width`` when that is in pixels and narrower than
        the buffer (text on a shrunken canvas shrinks with it)."""
        shown = str(self.canvas.layout.max_width or "")
        scale = 1.0
        if shown.endswith("px"):
            scale = min(1.0, float(shown[:-2]) / self.width)
        return int(np.ceil(screen_px / scale))

    def texts(
        self,
        c: Canvas,
        items: Iterable[tuple[Hex, str]],
        color: str = "#222",
        font: str = "10px sans-serif",
        dy: float = 0.0,
        align: str = "center",
    ) -> None:
        c.fill_style = color
        c.font = font
        c.text_align = align
        c.text_baseline = "middle"
        for h, text in items:
            x, y = self.centre(h)
            c.fill_text(text, x, y + dy)


def _rgb_array(colors, n: int) -> np.ndarray:
    if isinstance(colors, str):
        colors = [colors] * n
    return np.array([hex_to_rgb(col) for col in colors], dtype=np.uint8).reshape(n, 3)


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    """'#rrggbb' -> (r, g, b)."""
    s = color.lstrip("#")
    if len(s) == 3:
        s = "".join(ch * 2 for ch in s)
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


def blend(a: str, b: str, t: float) -> str:
    """A colour ``t`` of the way from ``a`` to ``b``."""
    ra, rb = hex_to_rgb(a), hex_to_rgb(b)
    mix = [round(x + (y - x) * t) for x, y in zip(ra, rb, strict=True)]
    return "#{:02x}{:02x}{:02x}".format(*mix)
