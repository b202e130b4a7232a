"""TOAW supply: lines of communication, old and new supply rules, the unit supply model.

Built from *The Operational Art of War IV* manual, section 9.1.7. The pieces:

* :mod:`.terrain`: terrain, hex and hexside features, and what each means to supply;
* :mod:`.hexmap`: a rectangular map of axial hexes (:class:`HexMap`);
* :mod:`.situation`: sources, supply units, units and control (:class:`Situation`) and
  the scenario switches (:class:`SupplySettings`);
* :mod:`.network`: which hexes block lines of communication, and the graphs traced over;
* :mod:`.field`: :func:`supply_field`, the supply view of every hex, with explanations;
* :mod:`.curves`: the old bands and the new formula as pure functions of distance;
* :mod:`.unit`: a unit's supply, readiness and desertion stepped turn by turn.

Interpretations of unclear or figure-dependent text are listed in docs/notes-toaw.md.
"""

from .curves import OldBand, new_rule_fraction, old_rule_band, old_rule_fraction
from .errors import SupplyInputError
from .field import HexSupplyExplanation, SupplyField, SupplyStatus, both_rules, supply_field
from .hexmap import HexMap, axial_to_offset, hexside, offset_to_axial
from .network import Block
from .situation import Rules, Situation, Source, SupplySettings
from .terrain import Feature, HexsideFeature, Terrain
from .unit import (
    Activity,
    Bookkeeping,
    TurnReport,
    UnitKind,
    UnitSupplyState,
    Visibility,
    airborne_resupply_levels,
    bookkeeping_from_field,
    run_turns,
    step_turn,
)

__all__ = [
    "Activity",
    "Block",
    "Bookkeeping",
    "Feature",
    "HexMap",
    "HexSupplyExplanation",
    "HexsideFeature",
    "OldBand",
    "Rules",
    "Situation",
    "Source",
    "SupplyField",
    "SupplyInputError",
    "SupplySettings",
    "SupplyStatus",
    "Terrain",
    "TurnReport",
    "UnitKind",
    "UnitSupplyState",
    "Visibility",
    "airborne_resupply_levels",
    "axial_to_offset",
    "both_rules",
    "bookkeeping_from_field",
    "hexside",
    "new_rule_fraction",
    "offset_to_axial",
    "old_rule_band",
    "old_rule_fraction",
    "run_turns",
    "step_turn",
    "supply_field",
]
