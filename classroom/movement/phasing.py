"""When a unit spends its movement points across the 12 movement phases of a turn
(PBM "Movement Phasing by Unit Type"; the table itself is lost).

Reading chosen (docs/rules-notes.md, "PBM: the phasing table"): a unit with allowance
``m`` spends its points as evenly as possible over the turn, its k-th point in the
first phase ``p`` with ``p * m >= 12 * k``. So a 12-point unit spends one point every
phase, a 6-point unit one every even phase, and every unit spends its last point in
phase 12. This is the only even spread that agrees with the source's examples: the
APC that arrives "at the end of phase 7" after seven clear hexes, the infantry that
waits five phases and drives into the village "on the last phase", and the APC ordered
0,1,0,1,... that keeps pace with 6-point artillery ordered 1,1,1,...

>>> spending_phases(12) == tuple(range(1, 13))
True
>>> spending_phases(6)
(2, 4, 6, 8, 10, 12)
>>> spending_phases(8)
(2, 3, 5, 6, 8, 9, 11, 12)
"""

from __future__ import annotations

from functools import cache

from .errors import MovementInputError

PHASES = 12
ADMIN_PHASES = tuple(range(2, PHASES + 1, 2))  # road and rail admin moves (PBM "Admin")


@cache
def spending_phases(allowance: int) -> tuple[int, ...]:
    """The phases (1-12) in which a unit of this allowance spends one movement point."""
    if not isinstance(allowance, int) or not 1 <= allowance <= PHASES:
        raise MovementInputError(
            f"a land unit's allowance is 1 to {PHASES} movement points, got {allowance!r}"
        )
    return tuple(
        p
        for p in range(1, PHASES + 1)
        if (p * allowance) // PHASES > ((p - 1) * allowance) // PHASES
    )


def phasing_table(allowances=(6, 7, 8, 9, 10, 12)) -> dict[int, tuple[int, ...]]:
    """The rebuilt table: allowance -> spending phases."""
    return {m: spending_phases(m) for m in allowances}
