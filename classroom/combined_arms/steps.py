"""The engine's own steps: what happens between the commanders' actions.

:func:`run_agenda` works through the steps queued on ``state.agenda`` (the declared steps
of ``sequence.SEQUENCE``: mortars, enemy activation, fire on hexes, the final reveal, the
score) and stops where the rules give a commander a choice (``state.pending``).
:mod:`.engine` queues them after each action it applies.
"""

from __future__ import annotations

from itertools import permutations

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from . import defender, enemy, mortars
from .lines import within_range
from .reasons import COOP, ENEMY_FIRE
from .sequence import title
from .state import LAST_TURN, TRACK_SIZE, Decision, GameState
from .units import BROKEN, POTENTIAL
from .victory import score_state


def run_agenda(state: GameState) -> None:
    """Work through queued engine steps until a choice is needed or the queue is empty."""
    while state.agenda and state.pending is None:
        item = state.agenda.pop(0)
        more = _STEPS[item[0]](state, *item[1:])
        if more:
            state.agenda[0:0] = more


def _step_phase(state, name: str):
    state.phase = name
    state.log("phase", f"Turn {state.turn}: {title(name)}")


def _step_friendly_mortar(state):
    m = state.friendly_mortar
    if m is None or m.turn != state.turn:
        state.friendly_mortar = None  # last turn's counter comes off: no fire this turn
        return None
    hexes = mortars.scatter(state, m.hex, "your mortars" + (" (smoke)" if m.smoke else ""))
    if m.smoke:
        for h in hexes:
            state.smoke[h] = state.turn + 1  # lasts to the end of your next fire phase
        state.log(
            "mortar",
            f"smoke lands on {', '.join(state.label(h) for h in hexes)}",
            hexes=list(hexes),
        )
        return None
    return [
        (
            "hexes_under_fire",
            "your mortars",
            m.hex,
            tuple(h for h in hexes if mortars.occupied_for_mortars(state, h)),
        )
    ]


def _step_bombardment(state):
    """CA "Sequence of Play": on turn 1, artillery pins potential enemies with a line to you."""
    yours = [u.hex for u in state.on_board()]
    for h in enemy.activation_order(state):
        post = state.enemy[h]
        if post.platoon != POTENTIAL or not post.fresh:
            continue
        near = state.board.dist[h]
        sees = any(
            within_range(near[x]) and not enemy.enemy_line(state, h, x).blocked for x in yours
        )
        if not sees:
            continue
        die = state.dice.d6()
        pinned = die >= 2
        if pinned:
            post.fresh = False
        state.log(
            "roll",
            f"preliminary bombardment on {state.label(h)}: rolls {die}: "
            f"{'pinned' if pinned else 'no effect'}",
            purpose="preliminary bombardment",
            target=h,
            die=die,
            total=die,
            need=2,
            outcome=["pinned" if pinned else "no effect"],
            modifiers=[],
        )
    return None


def _step_smoke_clears(state):
    gone = [h for h, last in state.smoke.items() if last <= state.turn]
    for h in gone:
        del state.smoke[h]
    if gone:
        state.log(
            "mortar", f"smoke clears from {', '.join(state.label(h) for h in gone)}", hexes=gone
        )


def _step_recovery(state):
    for u in state.units.values():
        if u.on_board:
            u.fresh = True


def _step_enemy_mortar_call(state):
    mortars.enemy_mortar_call(state)


def _step_activation(state):
    first = [("reveal_orders",)] if state.options.enemy_player else []
    return first + [("activate", h) for h in enemy.activation_order(state)]


def _step_activate(state, h):
    return enemy.activate(state, h)


def _step_enemy_mortar_resolution(state):
    m = state.enemy_mortar
    if m is None or m.turn != state.turn:
        return None
    hexes = mortars.scatter(state, m.hex, "enemy mortars")
    return [
        (
            "hexes_under_fire",
            "enemy mortars",
            m.hex,
            tuple(h for h in hexes if mortars.occupied_for_mortars(state, h)),
        )
    ]


def _step_end_turn(state):
    if state.turn >= LAST_TURN:
        return [("final_reveal",), ("score", LAST_TURN)]
    state.turn += 1
    state.phase = "friendly_move"
    state.acted_this_turn = False
    state.log("phase", f"Turn {state.turn}: {title(state.phase)}")
    return None


def _step_hexes_under_fire(state, kind: str, source: Hex, hexes: tuple):
    """Several hexes are rolled for; the commander picks the order if it can matter."""
    if not hexes:
        return None
    if len(hexes) > 1 and _order_can_matter(state, kind, source, hexes):
        options = tuple(permutations(hexes))
        if not state.options.auto_decisions:
            state.pending = Decision(
                "roll_order",
                options,
                context=(kind, source),
                rule=COOP if len(state.seats) > 1 else 'CA "Enemy Fire"',
                prompt=f"{kind}: in which order are {', '.join(state.label(h) for h in hexes)} rolled for?",
            )
            return None
    return [("hex_roll", kind, source, h) for h in hexes]


def _worst_losses(state, kind: str, source: Hex, hexes: tuple) -> tuple[int, int]:
    """(hexes holding infantry, losses if every roll hits): CA "Enemy Fire", Mortars."""
    worst = 0
    with_infantry = 0
    for h in hexes:
        n = sum(1 for u in state.at.get(h, ()) if u[0] != "A")
        if n:
            with_infantry += 1
        each = 2 if (kind == "enemy fire" and hg.distance(source, h) == 1) else 1
        worst += n * each
    return with_infantry, worst


def _order_can_matter(state, kind: str, source: Hex, hexes: tuple) -> bool:
    with_infantry, worst = _worst_losses(state, kind, source, hexes)
    return with_infantry > 1 and state.losses + worst >= TRACK_SIZE


def why_order_matters(state) -> str:
    """Plain words for the pending roll-order choice: why the commander's order counts.

    CA "Enemy Fire": hits move the losses track on; a platoon breaks in the hex being
    rolled for when the track passes 7 to 0. With several infantry hexes under fire and
    enough possible losses to pass 7, the order decides which hex loses the platoon.
    """
    p = state.pending
    if p is None or p.kind != "roll_order":
        return ""
    kind, source = p.context
    hexes = p.options[0]
    with_infantry, worst = _worst_losses(state, kind, source, hexes)
    return (
        f"The losses track stands at {state.losses}; if every roll hits, the {with_infantry} "
        f"infantry hexes take {worst} more losses, enough to pass 7 to 0. A platoon breaks "
        f"in the hex being rolled for when the track passes 7, so the order you choose "
        f"decides which hex can lose a platoon ({p.rule or ENEMY_FIRE})."
    )


def _step_hex_roll(state, kind: str, source: Hex, h: Hex):
    infantry = [u for u in state.units_at(h) if u.is_infantry]
    if kind == "enemy fire":
        each = enemy.roll_enemy_fire_on_hex(state, source, h)
    else:
        each = mortars.roll_mortar_on_hex(state, h, kind)
    if not each or not infantry:
        return None
    return _add_losses(state, h, each * len(infantry))


def _add_losses(state, h: Hex, n: int):
    before = state.losses
    total = before + n
    crossings = total // TRACK_SIZE
    state.losses = total % TRACK_SIZE
    state.log(
        "losses",
        f"infantry losses {before} -> {state.losses} (+{n})"
        + (f": {crossings} platoon(s) in {state.label(h)} broken" if crossings else ""),
        before=before,
        after=state.losses,
        added=n,
        crossings=crossings,
        hex=h,
    )
    return [("break", h)] * crossings


def _step_break(state, h: Hex):
    cands = [u for u in state.units_at(h) if u.is_infantry]
    if not cands:
        state.log("losses", f"losses pass 7 to 0 but no infantry is left in {state.label(h)}")
        return None
    if len(cands) == 1:
        break_infantry(state, cands[0], "the only infantry platoon in the hex")
        return None
    if state.options.auto_decisions:
        break_infantry(state, default_broken(cands), "chosen by the engine")
        return None
    state.pending = Decision(
        "break",
        tuple(u.id for u in cands),
        context=(h,),
        rule='CA "Enemy Fire"',
        prompt=f"losses passed 7 to 0: which platoon in {state.label(h)} is broken?",
    )
    return None


def default_broken(cands):
    """The engine's pick when asked to choose: an MMG before a rifle platoon, then the last."""
    mmgs = [u for u in cands if u.is_mmg]
    return (mmgs or cands)[-1]


def break_infantry(state, unit, why: str) -> None:
    h = unit.hex
    state.remove(unit, BROKEN)
    state.log("break", f"{unit.id} in {state.label(h)} is broken ({why})", unit=unit.id, hex=h)


def _step_final_reveal(state):
    state.phase = "over"
    for h in enemy.activation_order(state):
        enemy.reveal_all(state, h, "end of the game")
    for h, post in list(state.enemy.items()):
        if post.atg == POTENTIAL:
            enemy.test_atg(state, h, "end of the game")


def _step_score(state, turns: int):
    state.phase = "over"
    state.result = score_state(state, turns)
    state.log(
        "score",
        str(state.result),
        total=state.result.total,
        won=state.result.won,
        rows=state.result.as_rows(),
    )


_STEPS = {
    "phase": _step_phase,
    "friendly_mortar_resolution": _step_friendly_mortar,
    "preliminary_bombardment": _step_bombardment,
    "smoke_clears": _step_smoke_clears,
    "recovery": _step_recovery,
    "enemy_mortar_call": _step_enemy_mortar_call,
    "activation": _step_activation,
    "activate": _step_activate,
    "enemy_mortar_resolution": _step_enemy_mortar_resolution,
    "end_turn": _step_end_turn,
    "hexes_under_fire": _step_hexes_under_fire,
    "hex_roll": _step_hex_roll,
    "break": _step_break,
    "final_reveal": _step_final_reveal,
    "score": _step_score,
    # the enemy-player variant's choices (CA p.7, defender.py)
    "reveal_orders": defender.step_reveal_orders,
    "armour_target": defender.step_armour_target,
    "infantry_target": defender.step_infantry_target,
}
