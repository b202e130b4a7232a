"""Per-hex explanations of a supply field, for the lesson's hover tooltip.

The explanation and the supply states are defined here; :meth:`.field.SupplyField.explain`
asks :func:`explain_hex`, which reads the field's arrays (it takes any ``SupplyField``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from hexclass.classroom.hexgrid import Hex

from .curves import BASE, PEAK, OldBand
from .hexmap import axial_to_offset
from .network import Block
from .situation import Rules


class SupplyStatus(Enum):
    """A location's (and its units') supply state (TOAW 9.1.7, 9.1.71)."""

    SUPPLIED = "supplied"
    OVEREXTENDED = "overextended"
    UNSUPPLIED = "unsupplied"


@dataclass(frozen=True)
class HexSupplyExplanation:
    """The story of one hex's supply, each line citing its rule section."""

    hex: Hex
    rules: Rules
    fraction: float
    level: float
    shown_level: int
    status: SupplyStatus
    source: Hex | None
    source_strength: float | None
    trace_start: Hex | None
    distance: float | None
    effective_distance: float | None
    supply_unit: Hex | None
    band: OldBand | None
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join(self.lines)


def _hex_or_none(f, node: int) -> Hex | None:
    return None if node < 0 else f.hexmap.hex_at(node)


def _fmt(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.2f}"


def _hexes(x: float) -> str:
    return f"{_fmt(x)} hex" if x == 1 else f"{_fmt(x)} hexes"


def hex_name(h: Hex | None) -> str:
    """A hex as the learner reads it on the map: (column, row), never negative."""
    if h is None:
        return "none"
    col, row = axial_to_offset(h)
    return f"({col}, {row})"


def explain_hex(f, h: Hex) -> HexSupplyExplanation:
    rc = f._rc(h)
    node = f.hexmap.index(h)
    source = _hex_or_none(f, int(f.origin[rc]))
    start = _hex_or_none(f, int(f.point[rc]))
    su = _hex_or_none(f, int(f.supply_unit[rc]))
    strength = f.situation.source_at(source).strength if source is not None else None
    supplied = bool(f.supplied[rc])
    dist = float(f.distance[rc]) if math.isfinite(f.distance[rc]) else None
    eff = float(f.effective_distance[rc]) if math.isfinite(f.effective_distance[rc]) else None
    band = OldBand(int(f.band[rc])) if f.rules is Rules.OLD else None
    lines = [_headline(f, h)]
    if not supplied:
        lines += _why_unsupplied(f, node)
    elif f.rules is Rules.NEW:
        lines += _new_lines(f, rc, source, start, strength, su, dist, eff)
    else:
        lines += _old_lines(f, rc, band, source, su, dist, eff)
    status = f.status_at(h)
    if status is SupplyStatus.OVEREXTENDED:
        lines.append(
            f"Overextended: shown level {int(f.shown_level[rc])} is below the threshold "
            f"{f.settings.overextended_threshold} (TOAW 9.1.7.1)."
        )
    return HexSupplyExplanation(
        hex=h,
        rules=f.rules,
        fraction=f.at(h),
        level=f.level_at(h),
        shown_level=int(f.shown_level[rc]),
        status=status,
        source=source,
        source_strength=strength,
        trace_start=start,
        distance=dist,
        effective_distance=eff,
        supply_unit=su,
        band=band,
        lines=tuple(lines),
    )


def _headline(f, h: Hex) -> str:
    rc = f._rc(h)
    return (
        f"Hex {hex_name(h)}: {100 * f.fraction[rc]:.0f}% of force supply, "
        f"level {int(f.shown_level[rc])} ({f.rules.value} rules)."
    )


def _why_unsupplied(f, node: int) -> list[str]:
    block = Block(int(f.network.block[node]))
    if block is not Block.NONE:
        return [f"No line of communication: {block.describe()}."]
    if not f.situation.sources:
        return ["No line of communication: there is no supply point on the map (TOAW 9.1.7)."]
    return ["No line of communication reaches this hex from a friendly supply point (TOAW 9.1.7)."]


def _new_lines(f, rc, source, start, strength, su, dist, eff) -> list[str]:
    radius = f.settings.radius
    q_from = int(f.quarter_from[rc])
    if q_from >= 0:
        nb = f.hexmap.hex_at(q_from)
        return [
            f"The supply unit cannot enter this terrain; it takes a quarter of the supply in "
            f"neighbouring hex {hex_name(nb)} (TOAW 9.1.7.3)."
        ]
    lines = [f"Supply point {hex_name(source)} at {_fmt(strength)}% strength (TOAW 9.1.7.4)."]
    if start is not None and start != source:
        lines.append(
            f"Traced from rail hex {hex_name(start)}: the railway carries the point's strength (TOAW 9.1.7.3)."
        )
    lines.append(f"Virtual supply unit's path: {_fmt(dist)} MPs (TOAW 9.1.7.3).")
    if su is not None:
        lines.append(
            f"Within {radius} MPs of supply unit {hex_name(su)}: counted one radius nearer, "
            f"{_fmt(eff)} MPs (TOAW 9.1.7.3)."
        )
    shown = "0" if radius == 0 else f"{_fmt(eff)}/{radius}"
    lines.append(
        f"{_fmt(strength)}% x {PEAK:.2f} / {BASE}^({shown}) = {100 * f.fraction[rc]:.1f}% (TOAW 9.1.7.3)."
    )
    return lines


_BAND_TEXT = {
    OldBand.FULL: "full supply (100%): on the fully supplied net of rail, roads and towns (TOAW 9.1.7.2)",
    OldBand.NORMAL: "normal supply (75%): joined to the full net through open or cropland (TOAW 9.1.7.2)",
    OldBand.LIMITED: "limited supply (50%): within the radius of a full or normal hex (TOAW 9.1.7.2)",
    OldBand.MINIMAL: "minimal supply (25%): a line of communication of any length (TOAW 9.1.7.2)",
}


def _old_lines(f, rc, band, source, su, dist, eff) -> list[str]:
    lines = [f"Band: {_BAND_TEXT[band]}."]
    lines.append(
        f"Nearest supply point {hex_name(source)}, {_hexes(dist)} by line of communication."
    )
    if band in (OldBand.FULL, OldBand.LIMITED) and eff is not None:
        what = "the rail net" if band is OldBand.FULL else "the nearest full or normal hex"
        lines.append(f"{_hexes(eff)} from {what}; radius {f.settings.radius}.")
    if su is not None:
        lines.append(
            f"Supply unit {hex_name(su)} within the radius: the radius reaches twice as far here (TOAW 9.1.7.3)."
        )
    return lines
