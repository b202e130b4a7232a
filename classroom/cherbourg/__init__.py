"""*Battle of Cherbourg*: the odds-ratio combat table and everything that moves its column.

* :mod:`.units`: unit types, counters, casualties (Cherbourg 2.2.1, 7.0);
* :mod:`.terrain`: movement costs and terrain column shifts (Cherbourg 4.0, 5.1.2);
* :mod:`.crt`: the 2d6 Combat Effects Table, odds columns and exact outcome chances
  (Cherbourg 5.1.1, 5.1.5, 5.1.6);
* :mod:`.combat`: one combat from counters to result, siege and command-unit shifts,
  air power (Cherbourg 5.1, 6.0);
* :mod:`.bombardment`: air strikes and artillery bombardment (Cherbourg 6.2, 8.0, 9.0);
* :mod:`.results`: a result carried out on the units, with the players' choices (5.1.6);
* :mod:`.retreat`: retreats, sieges, rivers, stacking, advance after combat (5.2, 5.3).

Readings of the mangled tables are in docs/rules-notes.md, section "Battle of Cherbourg".
"""

from .bombardment import AIR, ARTILLERY, BOMB_COLUMNS, Bombardment, bombardment, casualty_chance
from .combat import ColumnReport, Combat, air_power_for_turn, combat_column, resolve_combat
from .crt import (
    COLUMNS,
    Part,
    Result,
    column_index,
    dislodge_chance,
    distribution,
    lookup,
    odds_column,
    shift,
    win_chance,
)
from .errors import CherbourgInputError
from .results import Aftermath, apply_result
from .retreat import Field, advance_hexes, retreat, retreat_options, surrounded
from .terrain import TERRAIN, path_cost, terrain_shift
from .units import Unit, UnitType, infantry, take_casualty

__all__ = [
    "AIR",
    "Aftermath",
    "ARTILLERY",
    "BOMB_COLUMNS",
    "COLUMNS",
    "TERRAIN",
    "Bombardment",
    "CherbourgInputError",
    "ColumnReport",
    "Combat",
    "Field",
    "Part",
    "Result",
    "Unit",
    "UnitType",
    "advance_hexes",
    "apply_result",
    "air_power_for_turn",
    "bombardment",
    "casualty_chance",
    "column_index",
    "combat_column",
    "dislodge_chance",
    "distribution",
    "infantry",
    "lookup",
    "odds_column",
    "path_cost",
    "resolve_combat",
    "retreat",
    "retreat_options",
    "shift",
    "surrounded",
    "take_casualty",
    "terrain_shift",
    "win_chance",
]
