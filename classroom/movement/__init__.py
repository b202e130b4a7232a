"""Movement timing for a play-by-mail hex wargame (the design notes of source 002).

* :mod:`.units`: unit types and movement allowances (PBM "Movement Allowance");
* :mod:`.phasing`: when each allowance spends its points over the 12 phases (the lost
  "Movement Phasing by Unit Type" table, rebuilt);
* :mod:`.terrain`, :mod:`.hexmap`, :mod:`.world`: terrain costs, flat-topped hexes with
  the design's direction numbers, centres and the road and rail routes between them;
* :mod:`.orders`: the movement instructions of a turn sheet;
* :mod:`.timing`: one turn played phase by phase: tactical steps, waits, admin moves on
  even phases, physical control, combat stopping movers, pursuit and breakthrough;
* :mod:`.scenarios`: the source's worked examples as small maps.

Interpretations are recorded in docs/rules-notes.md, section "Play-by-mail movement".
"""

from .errors import MovementInputError
from .hexmap import DIRECTION_NAMES, FlatLayout, direction_between, step
from .orders import Admin, Step, Wait, format_orders, parse_orders
from .phasing import ADMIN_PHASES, PHASES, phasing_table, spending_phases
from .timing import PURSUIT_CHANCE, Event, TurnResult, run_turn, with_orders
from .units import Mover, UnitType
from .world import Centre, Route, World

__all__ = [
    "ADMIN_PHASES",
    "DIRECTION_NAMES",
    "PHASES",
    "PURSUIT_CHANCE",
    "Admin",
    "Centre",
    "Event",
    "FlatLayout",
    "MovementInputError",
    "Mover",
    "Route",
    "Step",
    "TurnResult",
    "UnitType",
    "Wait",
    "World",
    "direction_between",
    "format_orders",
    "parse_orders",
    "phasing_table",
    "run_turn",
    "spending_phases",
    "step",
    "with_orders",
]
