"""Movement (CA "Movement", Figures 3 and 4).

Each function answers one question the rule asks, returning an :class:`Illegal`
reason or None. ``destinations`` lists every legal move of one platoon for the UI.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .board import ARMOUR_CANNOT_ENTER, STANDARD_HEX_SET, facing_arcs, in_arc
from .reasons import MOVEMENT, Illegal
from .units import BOARD, OFF, Platoon

TERRAIN_WORDS = {"poor": "poor going", "woods": "woods", "wooded_crest": "a wooded crest"}


def may_enter_hex(state, unit: Platoon, h: Hex) -> Illegal | None:
    """Can ``unit`` enter hex ``h`` (stacking, terrain, edges, enemy)?"""
    block = hex_block(state, unit, h)
    return None if block is None else _block_reason(state, unit, h, *block)


def hex_block(state, unit: Platoon, h: Hex) -> tuple[str, str | None] | None:
    """What keeps ``unit`` out of ``h``: (what, the platoon or terrain in the way), or None.

    The rule of :func:`may_enter_hex` without the words, for callers that try many
    hexes and only need to know which may be entered.
    """
    board = state.board
    if h not in board.hex_set:
        return ("off board", None)
    if h in board.closed_side_edge:
        return ("side edge", None)
    if h in state.enemy:
        return ("enemy", None)
    ids = state.at.get(h, ())
    kind = unit.id[0]
    if kind == "A":  # armour: no closed terrain, no other armour
        terrain = board.terrain[h]
        if terrain in ARMOUR_CANNOT_ENTER:
            return ("terrain", terrain)
        for other in ids:
            if other[0] == "A" and other != unit.id:
                return ("armour", other)
    elif kind in "DEF":  # a rifle platoon: no rifles of another company
        for other in ids:
            rifle = other[0] in "DEF" and other != unit.id
            if rifle and state.units[other].company != unit.company:
                return ("company", other)
    return None


def _block_reason(state, unit: Platoon, h: Hex, what: str, other: str | None) -> Illegal:
    """The refusal :func:`may_enter_hex` gives for a :func:`hex_block` answer."""
    if what == "off board":
        return Illegal(MOVEMENT, f"{h} is not on the board")
    name = state.board.label(h)
    if what == "side edge":
        text = f"{name} is a side-edge hex of the 5 middle rows; no platoon may enter it"
    elif what == "enemy":
        text = f"{name} holds an enemy counter; platoons may not enter it"
    elif what == "company":
        text = (
            f"{unit.id} may not join {other} in {name}: rifle platoons of different "
            f"companies never share a hex"
        )
    elif what == "terrain":
        text = f"armour may not enter {TERRAIN_WORDS[other]} ({name})"
    else:
        text = f"armour may not enter {name}: {other} is already there"
    return Illegal(MOVEMENT, text)


def may_move_at_all(unit: Platoon) -> Illegal | None:
    if not unit.fresh:
        return Illegal(MOVEMENT, f"{unit.id} is spent; spent platoons may not move")
    return None


def check_enter(state, unit: Platoon, to: Hex, facing: int | None) -> Illegal | None:
    """CA "Movement": entering the board, platoon by platoon, on the rear edge."""
    return _entry_problem(state, unit, to, facing) or may_enter_hex(state, unit, to)


def _entry_problem(state, unit: Platoon, to: Hex, facing: int | None) -> Illegal | None:
    """What :func:`check_enter` asks besides :func:`may_enter_hex` of ``to``."""
    if unit.where != OFF:
        return Illegal(
            MOVEMENT, f"{unit.id} has already entered; platoons enter only once and never return"
        )
    if unit.is_armour:
        return _check_armour_entry(state, unit, to, facing)
    if facing is not None:
        return Illegal(MOVEMENT, "only armour has a facing")
    if to not in state.board.friendly_edge:
        return Illegal(
            MOVEMENT, "platoons enter the board only on one of your 7 rear-edge hexes (row 1)"
        )
    return None


def _check_armour_entry(state, unit: Platoon, to: Hex, facing: int | None) -> Illegal | None:
    board = state.board
    if facing not in range(6):
        return Illegal(MOVEMENT, "armour entering the board must choose a facing (a corner 0-5)")
    if to == board.road[1]:
        path = (board.road_beyond_friendly_edge, board.road[0], board.road[1])
        return _road_run(state, unit, path, facing, "enter")
    if to not in board.friendly_edge:
        return Illegal(
            MOVEMENT,
            "armour enters on a rear-edge hex, or two hexes in along the road (row 2's road hex)",
        )
    if not _entry_facings(to) >> facing & 1:
        return Illegal(MOVEMENT, "armour must enter into its forward arc: face towards the board")
    return None


@cache
def _entry_facings(to: Hex) -> int:
    """Corners (as bits) whose arc holds ``to`` seen from a hex behind the rear edge."""
    m = 0
    for n in hg.neighbours(to):
        if n[1] < 0:  # off the board behind your rear edge
            m |= facing_arcs(n, to)
    return m


def _road_run(
    state, unit: Platoon, path: tuple[Hex, Hex, Hex], facing: int, verb: str
) -> Illegal | None:
    """The 2-hex road move: both steps into the forward arc, both hexsides on the road."""
    a, b, c = path
    if not (in_arc(a, facing, b) and in_arc(b, facing, c)):
        return Illegal(
            MOVEMENT,
            f"to {verb} 2 hexes by road, armour must keep a facing whose forward arc holds both road steps",
        )
    for h in (b, c):
        if h in state.board.hex_set:
            reason = may_enter_hex(state, unit, h)
            if reason:
                return reason
    return None


def check_move(state, unit: Platoon, to: Hex, facing: int | None) -> Illegal | None:
    """CA "Movement": one hex (armour: into its arc, or two by road), into a hex it may enter."""
    return _move_problem(state, unit, to, facing) or may_enter_hex(state, unit, to)


def move_reach(unit: Platoon) -> int:
    """CA "Movement": the most hexes one move takes a platoon: one, or two for armour
    (along the road)."""
    return 2 if unit.is_armour else 1


def _move_problem(state, unit: Platoon, to: Hex, facing: int | None) -> Illegal | None:
    """What :func:`check_move` asks besides :func:`may_enter_hex` of ``to``."""
    if unit.where != BOARD:
        return Illegal(MOVEMENT, f"{unit.id} is not on the board")
    reason = may_move_at_all(unit)
    if reason:
        return reason
    if unit.is_mmg:
        return Illegal(MOVEMENT, f"{unit.id} is an MMG platoon: once entered it may only withdraw")
    if unit.is_armour:
        return _check_armour_move(state, unit, to, facing)
    if facing is not None:
        return Illegal(MOVEMENT, "only armour has a facing")
    if not 1 <= hg.distance(unit.hex, to) <= move_reach(unit):
        return Illegal(MOVEMENT, "platoons move one hex at a time")
    return None


def _check_armour_move(state, unit: Platoon, to: Hex, facing: int | None) -> Illegal | None:
    here = unit.hex
    keep = facing is None or facing == unit.facing
    new = unit.facing if keep else facing
    if new not in range(6):
        return Illegal(MOVEMENT, "a facing is a corner numbered 0-5")
    d = hg.distance(here, to)
    if not 1 <= d <= move_reach(unit):
        return Illegal(MOVEMENT, "armour moves one hex, or two along the road")
    if d == 1:
        return _armour_step_problem(here, new, keep, to)
    if d == 2:
        if not keep:
            return Illegal(MOVEMENT, "the 2-hex road move is only for armour that keeps its facing")
        mid = _road_between(state.board, here, to)
        if mid is None:
            return Illegal(
                MOVEMENT,
                "armour moves 2 hexes only along the road (both hexsides crossing the road)",
            )
        return _road_run(state, unit, (here, mid, to), new, "move")
    return Illegal(MOVEMENT, "armour moves one hex, or two along the road")


def _armour_step_problem(here: Hex, new: int, keep: bool, to: Hex) -> Illegal | None:
    """CA "Movement": one hex into the forward arc of facing ``new``; straight back if kept."""
    if in_arc(here, new, to):
        return None
    if keep and in_arc(here, (new + 3) % 6, to):
        return None  # reversing straight back, facing unchanged
    if keep:
        return Illegal(
            MOVEMENT, "armour moves into its forward arc, or reverses into the opposite arc"
        )
    return Illegal(
        MOVEMENT,
        "after turning, armour must move into its new forward arc (reversing needs the facing unchanged)",
    )


@cache
def _armour_steps(here: Hex, now: int, to: Hex) -> tuple[int | None, ...]:
    """Facings (None: ``now`` kept) with which armour in ``here`` may step to the adjacent ``to``.

    Only the geometry decides (:func:`_armour_step_problem`), so it is worked out once
    per process for each hex, facing and neighbour.
    """
    out: list[int | None] = []
    if now in range(6) and _armour_step_problem(here, now, True, to) is None:
        out.append(None)
    d = hg.direction_to(here, to)
    for f in hg.corners_with_arc_containing(d):
        if f != now and _armour_step_problem(here, f, False, to) is None:
            out.append(f)
    return tuple(out)


def _armour_moves(state, unit: Platoon) -> Iterator[tuple[str, Hex, int | None]]:
    """Armour's moves on the board: a step into its arc, or two hexes along the road."""
    here = unit.hex
    road = state.board.road_and_beyond if here in state.board.road_and_beyond else ()
    for h, d in _within_two(here):
        if d == 2 and h not in road:
            continue  # two hexes only along the road (see check_move)
        if hex_block(state, unit, h) is not None:
            continue  # a hex it may not enter rules out every facing
        if d == 1:
            for f in _armour_steps(here, unit.facing, h):
                yield ("move", h, f)
        elif _move_problem(state, unit, h, None) is None:
            yield ("move", h, None)


@cache
def _within_two(here: Hex) -> tuple[tuple[Hex, int], ...]:
    """(hex, distance) of the board's hexes 1 or 2 from ``here``, nearest ring first."""
    return tuple(
        (h, hg.distance(here, h)) for h in hg.spiral(here, 2) if h != here and h in STANDARD_HEX_SET
    )


@cache
def _entry_corners(to: Hex) -> tuple[int, ...]:
    """The facings armour may enter with on rear-edge hex ``to`` (see :func:`_entry_facings`)."""
    return tuple(f for f in range(6) if _entry_facings(to) >> f & 1)


def _road_between(board, a: Hex, c: Hex) -> Hex | None:
    road = board.road_and_beyond
    if a not in road or c not in road:
        return None
    for b in hg.neighbours(a):
        if b in road and hg.distance(b, c) == 1 and b != c:
            return b
    return None


def check_withdraw(state, unit: Platoon) -> Illegal | None:
    board = state.board
    if unit.where != BOARD:
        return Illegal(MOVEMENT, f"{unit.id} is not on the board")
    reason = may_move_at_all(unit)
    if reason:
        return reason
    if unit.hex in board.friendly_edge:
        return None
    if unit.is_armour and unit.hex == board.road[1]:
        path = (board.road[1], board.road[0], board.road_beyond_friendly_edge)
        return _road_run(state, unit, path, unit.facing, "withdraw")
    return Illegal(MOVEMENT, "platoons withdraw only from one of your rear-edge hexes (row 1)")


EDGE, ROAD = "edge", "road"  # where an exploit starts: see :func:`exploit_start`


def exploit_start(board, unit: Platoon) -> str | None:
    """Where ``unit`` may start to exploit this move phase (CA "Movement"), or None.

    A fresh platoon on the board, other than an MMG (once entered it may only withdraw),
    exploits from one of the 3 central enemy rear-edge hexes (``EDGE``); armour may also
    run the last two road hexes off the enemy edge (``ROAD``), which
    :func:`check_exploit` then checks hex by hex. The bots ask this alone, as their cheap
    test (``quick.can_exploit_now``).
    """
    if unit.where != BOARD or not unit.fresh or unit.is_mmg:
        return None
    if unit.hex in board.exploit_hexes:
        return EDGE
    if unit.is_armour and unit.hex == board.road[-2]:
        return ROAD
    return None


def check_exploit(state, unit: Platoon) -> Illegal | None:
    """CA "Movement": may ``unit`` exploit now? :func:`exploit_start` decides where it
    may start; the rest names the first rule a refused platoon breaks."""
    board = state.board
    start = exploit_start(board, unit)
    if start == EDGE:
        return None
    if start == ROAD:
        path = (board.road[-2], board.road[-1], board.road_beyond_enemy_edge)
        return _road_run(state, unit, path, unit.facing, "exploit")
    if unit.where != BOARD:
        return Illegal(MOVEMENT, f"{unit.id} is not on the board")
    reason = may_move_at_all(unit)
    if reason:
        return reason
    if unit.is_mmg:
        return Illegal(MOVEMENT, f"{unit.id} is an MMG platoon: once entered it may only withdraw")
    names = ", ".join(board.label(h) for h in board.exploit_hexes)
    return Illegal(
        MOVEMENT, f"platoons exploit only from the 3 central enemy rear-edge hexes ({names})"
    )


def destinations(state, unit: Platoon) -> Iterator[tuple[str, Hex | None, int | None]]:
    """Every legal ``(verb, hex, facing)`` for one platoon: enter, move, withdraw, exploit.

    :func:`check_enter` and :func:`check_move` split in two: whether the hex may be
    entered at all is asked once per hex, the rest once per facing. Armour's facings
    for a rear-edge entry or a one-hex step depend on the geometry alone, so they are
    read from tables (:func:`_entry_corners`, :func:`_armour_steps`);
    ``tests/combined_arms/test_fast_paths.py`` checks the result against the checks.
    """
    yield from entries_and_moves(state, unit)
    if unit.where != BOARD or not unit.fresh:
        return
    if check_withdraw(state, unit) is None:
        yield ("withdraw", None, None)
    if check_exploit(state, unit) is None:
        yield ("exploit", None, None)


def entries_and_moves(state, unit: Platoon) -> Iterator[tuple[str, Hex, int | None]]:
    """The ``enter`` and ``move`` entries of :func:`destinations`, in the same order.

    For callers that only place platoons on hexes and need not ask whether they may
    withdraw or exploit.
    """
    board = state.board
    if unit.where == OFF:
        cands = list(board.friendly_edge) + ([board.road[1]] if unit.is_armour else [])
        for h in cands:
            if hex_block(state, unit, h) is not None:
                continue  # a hex it may not enter rules out every facing
            if unit.is_armour and h != board.road[1]:
                for f in _entry_corners(h):
                    yield ("enter", h, f)
                continue
            for f in range(6) if unit.is_armour else (None,):
                if _entry_problem(state, unit, h, f) is None:
                    yield ("enter", h, f)
        return
    if unit.where != BOARD or not unit.fresh:
        return
    if unit.is_armour:
        yield from _armour_moves(state, unit)
    elif not unit.is_mmg:
        for h in board.neighbours_on_board[unit.hex]:
            if hex_block(state, unit, h) is None and _move_problem(state, unit, h, None) is None:
                yield ("move", h, None)
