"""Mortars and smoke for both sides (CA "Mortars", "Enemy Decisions", Figure 7).

Spotting: a hex is spotted if a fresh infantry counter of the side calling, not
adjacent to an opposing platoon, has a 1-5 hex line to it (platoons in the way and a
single partial block do not matter). A target counter stays until the same time next
turn. On resolution one die picks a corner of the target hex (the p.22 scatter
diagram is lost; see docs/rules-notes.md, "Mortar scatter") and the bombs land in the
three hexes that share it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .enemy import nearest_enemy_edge_first, settle_tie
from .lines import spotting_clear
from .reasons import DECISIONS, MORTARS, Illegal
from .state import MortarTarget
from .units import Platoon

# Die face -> corner of the target hex: 1 is the corner towards your rear edge (top),
# then clockwise (hexgrid corners: 1 top, 0 upper right, 5 lower right, 4 bottom,
# 3 lower left, 2 upper left).
SCATTER_CORNER = {1: 1, 2: 0, 3: 5, 4: 4, 5: 3, 6: 2}
MORTAR_HIT = 2  # CA "Mortars": on 2 or more


def impact_hexes(target: Hex, corner: int) -> tuple[Hex, Hex, Hex]:
    """The target hex and the two neighbours that share the chosen corner."""
    a, b = hg.arc_directions(corner)
    return (target, hg.neighbour(target, a), hg.neighbour(target, b))


def corner_share(target: Hex, h: Hex) -> int:
    """How many of the target hex's six corners ``h`` shares (6, 2 or 0)."""
    return sum(h in impact_hexes(target, c) for c in range(6))


# --- smoke -----------------------------------------------------------------------------------


@contextmanager
def enemy_phase_smoke(state) -> Iterator[None]:
    """Within it, ``state.smoke`` is the smoke the coming enemy phase will see.

    Smoke lasts to the end of the fire phase after the one it was fired in
    (docs/rules-notes.md, "Mortars and smoke"). So smoke laid last turn still blocks
    lines in this turn's move and fire phases, but is gone before the enemy fires. A
    reading of the enemy's next fire made before then must leave it out. The smoke is
    put back on leaving.
    """
    saved = state.smoke
    state.smoke = {h: last for h, last in saved.items() if last > state.turn}
    try:
        yield
    finally:
        state.smoke = saved


# --- your mortars --------------------------------------------------------------------------


def spotter_problem(state, spotter: Platoon) -> Illegal | None:
    if not spotter.on_board:
        return Illegal(MORTARS, f"{spotter.id} is not on the board")
    if not spotter.is_infantry:
        return Illegal(MORTARS, f"{spotter.id} is armour; only infantry spot for the mortars")
    if not spotter.fresh:
        return Illegal(MORTARS, f"{spotter.id} is spent; only fresh infantry spot")
    for n in state.board.neighbours_on_board[spotter.hex]:
        if n in state.enemy:
            return Illegal(
                MORTARS,
                f"{spotter.id} is next to an enemy counter ({state.label(n)}) and cannot spot",
            )
    return None


def friendly_target_problem(state, target: Hex, spotter: Platoon, smoke: bool) -> Illegal | None:
    board = state.board
    if target not in board.hex_set:
        return Illegal(MORTARS, f"{target} is not on the board")
    name = board.label(target)
    if not spotting_clear(state, spotter.hex, target):
        return Illegal(
            MORTARS,
            f"{spotter.id} cannot see {name}: it needs a 1-5 hex line (one partial block allowed)",
        )
    if smoke:
        if state.smoke_ammo <= 0:
            return Illegal(MORTARS, "no smoke ammo left (smoke may be fired on 4 turns)")
        if target in state.at:
            return Illegal(MORTARS, f"smoke may not be aimed at {name}: it holds your platoon")
    else:
        if target not in state.enemy:
            return Illegal(MORTARS, f"{name} holds no enemy counter to bombard")
        near = own_platoon_next_to(state, target)
        if near is not None:
            return Illegal(
                MORTARS, f"{name} is next to your platoon {near}; the mortars may not target it"
            )
    tied = last_target_too_far(state, target)
    if tied is not None:
        return Illegal(
            MORTARS,
            f"your mortars fired on {board.label(tied)} last turn; this turn they may only "
            f"fire on that hex or one next to it",
        )
    return None


def own_platoon_next_to(state, target: Hex) -> str | None:
    """High explosive never lands next to your own platoons (CA "Mortars"): the first one."""
    for n in state.board.neighbours_on_board[target]:
        ids = state.at.get(n)
        if ids:
            return ids[0]
    return None


def last_target_too_far(state, target: Hex) -> Hex | None:
    """Mortars that fired last turn keep to that hex or one next to it (CA "Mortars").

    The hex fired on last turn when ``target`` is further from it; otherwise None.
    """
    prev = state.friendly_mortar
    if prev is not None and prev.turn == state.turn - 1 and hg.distance(prev.hex, target) > 1:
        return prev.hex
    return None


def friendly_spotters(state) -> list[Platoon]:
    return [u for u in state.on_board() if can_spot(state, u)]


def can_spot(state, spotter: Platoon) -> bool:
    """``spotter_problem(state, spotter) is None``, without wording the refusals."""
    if not (spotter.on_board and spotter.fresh) or spotter.id[0] == "A":
        return False
    return state.enemy.keys().isdisjoint(state.board.neighbours_on_board[spotter.hex])


def friendly_targets(state, smoke: bool = False) -> dict[Hex, str]:
    """Every hex your mortars could be called on now, with a spotter for each."""
    out = {}
    for sp in friendly_spotters(state):
        # HE needs an enemy counter in the hex; smoke needs a hex without your platoons
        cands = state.enemy if not smoke else hg.spiral(sp.hex, 5)
        for h in cands:
            if h in out or h not in state.board.hex_set or (smoke and h in state.at):
                continue
            if hg.distance(sp.hex, h) > 5:
                continue
            if friendly_target_problem(state, h, sp, smoke) is None:
                out[h] = sp.id
    return out


# --- enemy mortars -------------------------------------------------------------------------


def enemy_spotters(state) -> list[Hex]:
    """Fresh enemy platoon counters (real or potential) not next to your platoons."""
    out = []
    for h, post in state.enemy.items():
        if post.platoon is None or not post.fresh:
            continue
        if state.options.enemy_player and h not in state.secret.platoons:
            continue  # CA p.7: a dummy counter has nobody to spot for the mortars
        if any(n in state.at for n in state.board.neighbours_on_board[h]):
            continue
        out.append(h)
    return out


@dataclass(frozen=True)
class EnemyMortarTarget:
    hex: Hex
    infantry: int
    infantry_adjacent: int
    spotter: Hex


def enemy_mortar_targets(state) -> list[EnemyMortarTarget]:
    spotters = enemy_spotters(state)
    out = []
    for h, ids in state.at.items():
        inf = sum(1 for u in ids if u[0] != "A")
        if not inf:
            continue
        if any(n in state.enemy for n in state.board.neighbours_on_board[h]):
            continue
        spotter = next((s for s in spotters if spotting_clear(state, s, h)), None)
        if spotter is None:
            continue
        adj = sum(
            1
            for n in state.board.neighbours_on_board[h]
            for u in state.at.get(n, ())
            if u[0] != "A"
        )
        out.append(EnemyMortarTarget(h, inf, adj, spotter))
    return out


def enemy_mortar_need(state) -> int:
    """CA "Enemy Decisions": 6 if you have lost more platoons than the enemy, else 5."""
    return 6 if len(state.broken_friendly()) > state.enemy_platoons_broken else 5


def enemy_mortar_call(state) -> None:
    prev = state.enemy_mortar
    state.enemy_mortar = None
    if prev is not None and prev.turn == state.turn - 1:
        state.log("enemy", "enemy mortars fired last turn and may not fire this turn", rule=MORTARS)
        return
    need = enemy_mortar_need(state)
    die = state.dice.d6()
    available = die >= need
    state.log(
        "roll",
        f"enemy mortars: rolls {die}, need {need}: {'available' if available else 'not available'}",
        purpose="enemy mortar availability",
        die=die,
        need=need,
        total=die,
        outcome=["available" if available else "not available"],
    )
    if not available:
        return
    targets = enemy_mortar_targets(state)
    if state.options.enemy_player:
        # CA p.7: only real platoons spot, so whether any hex is spotted is the defender's
        # secret; the defender is asked even when holding fire is the only answer.
        from .defender import ask_mortar_target

        ask_mortar_target(state, targets)
        return
    if not targets:
        state.log(
            "enemy",
            "enemy mortars are available but no hex of your infantry is spotted",
            rule=MORTARS,
        )
        return
    most = max(t.infantry for t in targets)
    tied = [t for t in targets if t.infantry == most]
    most_adj = max(t.infantry_adjacent for t in tied)
    tied = [t for t in tied if t.infantry_adjacent == most_adj]
    tied = nearest_enemy_edge_first(state, tied, lambda t: [t.hex])
    chosen = settle_tie(state, tied, "mortar targets")
    state.enemy_mortar = MortarTarget(chosen.hex, state.turn, spotter=state.label(chosen.spotter))
    state.log(
        "ai",
        f"enemy mortars target {state.label(chosen.hex)}: {chosen.infantry} infantry platoons there, "
        f"{chosen.infantry_adjacent} next to it (compared: "
        + "; ".join(f"{state.label(t.hex)} {t.infantry}/{t.infantry_adjacent}" for t in targets)
        + ")",
        target=chosen.hex,
        spotter=chosen.spotter,
        rule=DECISIONS,
        compared={state.label(t.hex): (t.infantry, t.infantry_adjacent) for t in targets},
    )


def scatter(state, target: Hex, who: str) -> tuple[Hex, ...]:
    die = state.dice.d6()
    corner = SCATTER_CORNER[die]
    hexes = tuple(h for h in impact_hexes(target, corner) if h in state.board.hex_set)
    state.log(
        "roll",
        f"{who} scatter: rolls {die}, landing at the {hg.CORNER_NAMES[corner]} corner of "
        f"{state.label(target)}: {', '.join(state.label(h) for h in hexes)}",
        purpose="mortar scatter",
        die=die,
        corner=corner,
        target=target,
        hexes=list(hexes),
    )
    return hexes


def occupied_for_mortars(state, h: Hex) -> bool:
    """A hex worth a roll: it holds an enemy counter or a non-armour platoon."""
    return h in state.enemy or any(u[0] != "A" for u in state.at.get(h, ()))


def roll_mortar_on_hex(state, h: Hex, who: str) -> int:
    """One mortar roll on one hex: everything but armour is pinned; your infantry lose 1 each."""
    die = state.dice.d6()
    hit = die >= MORTAR_HIT
    infantry = [u for u in state.units_at(h) if u.is_infantry]
    post = state.enemy.get(h)
    effects = []
    if hit:
        if post is not None and post.fresh:
            post.fresh = False
            effects.append("enemy counters pinned")
        for u in infantry:
            u.fresh = False
        if infantry:
            effects.append(f"{', '.join(u.id for u in infantry)} pinned, 1 loss each")
    verdict = "; ".join(effects) if hit else "no effect"
    if hit and not effects:
        verdict = "nothing left to pin"
    state.log(
        "roll",
        f"{who} on {state.label(h)}: rolls {die}: {verdict}",
        purpose="mortar effect",
        target=h,
        die=die,
        total=die,
        need=MORTAR_HIT,
        outcome=[verdict],
        modifiers=[],
    )
    return 1 if hit and infantry else 0
