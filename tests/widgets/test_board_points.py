"""The board's bulk drawing sends its hex corners as 32-bit floats (issue 30: the board's
first drawing is the largest message a seat page gets after the widget states)."""

from __future__ import annotations

import numpy as np

from hexclass.widgets.board import HexBoard


def test_hex_corners_go_out_as_32_bit_floats_at_the_same_places():
    hexes = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
    board = HexBoard(hexes, hex_size=30.0)
    pts = board.polygon_points(hexes, shrink=0.9)
    assert pts.dtype == np.float32 and pts.shape == (len(hexes), 6, 2)
    lay = board.layout
    for i, h in enumerate(hexes):
        x, y = lay.hex_to_pixel(h)
        exact = [(x + 0.9 * dx, y + 0.9 * dy) for dx, dy in (lay.corner_offset(c) for c in range(6))]
        assert np.abs(pts[i] - np.array(exact)).max() < 1e-3  # far below a pixel
    board.canvas.close()
