"""The rules engine: check an action, apply it, and play the engine's steps.

* :func:`check` returns an :class:`~.reasons.Illegal` (rule section and sentence) or None;
* :func:`apply` checks, then changes the state; an illegal action raises
  :class:`~.reasons.IllegalAction` and leaves the state untouched;
* :func:`legal_actions` lists what a seat may do now.

The clock moves only on :class:`~.actions.EndPhase` (and :class:`~.actions.EndGame`);
the engine then works through the declared steps of ``sequence.SEQUENCE`` (:mod:`.steps`) and stops
where the rules give the commander a choice (``state.pending``).
"""

from __future__ import annotations

from collections.abc import Iterator

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from . import defender, fire, mortars, movement
from .actions import (
    Bid,
    CallMortar,
    ChooseBroken,
    ChooseMortar,
    ChooseReveals,
    ChooseRollOrder,
    ChooseTarget,
    DeclareFire,
    Deploy,
    EndGame,
    EndGameNow,
    EndPhase,
    Enter,
    Exploit,
    Face,
    Move,
    ResolveFire,
    Withdraw,
    action_problem,
)
from .intent import action_for
from .lines import within_range
from .reasons import (
    ACTION_FORM,
    COOP,
    FIRE,
    MORTARS,
    MOVEMENT,
    SEQUENCE,
    Illegal,
    IllegalAction,
)
from .sequence import engine_steps_after, title
from .state import Declaration, GameState, MortarTarget
from .steps import break_infantry, run_agenda
from .steps import default_broken as default_broken  # offered here too (bots)
from .steps import why_order_matters as why_order_matters  # offered here too (query)
from .units import EXPLOITED, WITHDRAWN

# --- checks --------------------------------------------------------------------------------


def check(state: GameState, action) -> Illegal | None:
    """Why ``action`` may not be taken now, or None if it may.

    A malformed action (wrong field types or ranges, see :mod:`.validate`) is refused
    before any rule is asked, with the field and what was expected.
    """
    problem = action_problem(action)
    if problem is not None:
        return Illegal(ACTION_FORM, str(problem))
    return _rules_check(state, action)


def _rules_check(state: GameState, action) -> Illegal | None:
    """The rules' answer for a well-formed action."""
    checker = _CHECKS.get(type(action))
    why = seat_problem(state, action.seat, choice=type(action) in _CHOICES + (EndGameNow,))
    if why is not None:
        return why
    if checker is None:
        return Illegal(SEQUENCE, f"{type(action).__name__} is not a Combined Arms action")
    return checker(state, state.seats[action.seat], action)


def seat_problem(state: GameState, seat_name: str, choice: bool = False) -> Illegal | None:
    """Why this seat may do nothing now (no such seat, game over, a choice awaited), or None."""
    if seat_name not in state.seats:
        return Illegal(COOP, f"there is no seat called {seat_name!r} in this game")
    if state.over:
        return Illegal(SEQUENCE, "the game is over")
    if state.pending is not None and not choice:
        who = "the defender" if state.pending.power == defender.DEFENDER else "the commander"
        return Illegal(
            state.pending.rule or SEQUENCE,
            f"waiting for {who} to decide"
            + ("" if who == "the defender" else f": {state.pending.prompt}"),
        )
    return None


def _unit(state, seat, unit_id: str):
    unit = state.units.get(unit_id)
    if unit is None:
        return None, Illegal(MOVEMENT, f"there is no platoon {unit_id!r}")
    if not seat.commands(unit_id):
        return None, Illegal(COOP, f"{unit_id} is not commanded by seat {seat.name!r}")
    return unit, None


def _in_phase(state, phase: str, what: str) -> Illegal | None:
    if state.phase != phase:
        return Illegal(
            SEQUENCE, f"{what} only in the {title(phase)}; it is now the {title(state.phase)}"
        )
    return None


def _check_enter(state, seat, a: Enter):
    unit, why = _unit(state, seat, a.unit)
    return (
        why
        or _in_phase(state, "friendly_move", "platoons enter")
        or movement.check_enter(state, unit, a.to, a.facing)
    )


def _check_move(state, seat, a: Move):
    unit, why = _unit(state, seat, a.unit)
    return (
        why
        or _in_phase(state, "friendly_move", "platoons move")
        or movement.check_move(state, unit, a.to, a.facing)
    )


def _check_withdraw(state, seat, a: Withdraw):
    unit, why = _unit(state, seat, a.unit)
    return (
        why
        or _in_phase(state, "friendly_move", "platoons withdraw")
        or movement.check_withdraw(state, unit)
    )


def _check_exploit(state, seat, a: Exploit):
    unit, why = _unit(state, seat, a.unit)
    return (
        why
        or _in_phase(state, "friendly_move", "platoons exploit")
        or movement.check_exploit(state, unit)
    )


def _check_face(state, seat, a: Face):
    unit, why = _unit(state, seat, a.unit)
    if why:
        return why
    why = _in_phase(state, "friendly_fire", "armour changes facing without moving")
    if why:
        return why
    if not unit.is_armour:
        return Illegal(FIRE, f"{unit.id} is not armour and has no facing")
    if not unit.on_board or not unit.fresh:
        return Illegal(
            FIRE,
            f"only fresh armour on the board may change facing in the fire phase; {unit.id} may not",
        )
    if a.facing not in range(6):
        return Illegal(FIRE, "a facing is a corner numbered 0-5")
    if a.facing == unit.facing:
        return Illegal(FIRE, f"{unit.id} already faces that corner")
    if state.declaration and unit.id in state.declaration.firers:
        return Illegal(FIRE, f"{unit.id} is committed to fire and may not turn now")
    return None


def mortar_call_problem(state, seat) -> Illegal | None:
    """CA "Mortars": may this seat call the mortars at all now (before any spotter or hex)?"""
    why = _in_phase(state, "friendly_fire", "mortars are called")
    if why:
        return why
    if "mortars" not in seat.powers:
        return Illegal(COOP, f"seat {seat.name!r} does not command the mortars")
    if state.mortar_called:
        return Illegal(MORTARS, "the mortars have already been called this turn")
    if state.engaged or state.declaration:
        return Illegal(MORTARS, "mortars must be called before any platoon fires")
    return None


def _check_call_mortar(state, seat, a: CallMortar):
    why = mortar_call_problem(state, seat)
    if why:
        return why
    spotter = state.units.get(a.spotter)
    if spotter is None:
        return Illegal(MORTARS, f"there is no platoon {a.spotter!r}")
    return mortars.spotter_problem(state, spotter) or mortars.friendly_target_problem(
        state, a.target, spotter, a.smoke
    )


def _check_declare(state, seat, a: DeclareFire):
    why = _in_phase(state, "friendly_fire", "platoons fire")
    if why:
        return why
    if not a.firers:
        return Illegal(FIRE, "name at least one platoon to fire")
    if len(set(a.firers)) != len(a.firers):
        return Illegal(FIRE, "a platoon is named twice")
    decl = state.declaration
    if decl is not None and decl.target != a.target:
        return Illegal(
            FIRE, f"fire is already committed on {state.label(decl.target)}; resolve it first"
        )
    if decl is None and a.target in state.engaged:
        return Illegal(
            FIRE,
            f"{_label(state, a.target)} has already been engaged this phase; "
            "all fire on a hex is committed at once",
        )
    units = []
    for uid in a.firers:
        unit, why = _unit(state, seat, uid)
        if why:
            return why
        if decl and uid in decl.firers:
            return Illegal(FIRE, f"{uid} is already committed against this hex")
        why = fire.firer_problem(state, unit, a.target)
        if why:
            return why
        units.append(unit)
    committed = [state.units[u] for u in (decl.firers if decl else ())]
    return fire.company_problem(committed + units)


def _check_resolve(state, seat, a: ResolveFire):
    decl = state.declaration
    if decl is None:
        return Illegal(FIRE, "no fire is waiting to be resolved")
    if "command" not in seat.powers and seat.name not in decl.seats:
        return Illegal(
            COOP, "only a seat with a platoon in the declaration, or the commander, resolves it"
        )
    return None


def _check_end_phase(state, seat, a: EndPhase):
    if "command" not in seat.powers:
        return Illegal(COOP, "only the overall commander ends a phase")
    if state.phase not in ("friendly_move", "friendly_fire"):
        return Illegal(SEQUENCE, f"the {title(state.phase)} is played by the engine")
    if state.declaration is not None:
        return Illegal(FIRE, "resolve the committed fire before ending the phase")
    return None


def _check_end_game(state, seat, a: EndGame):
    if "command" not in seat.powers:
        return Illegal(COOP, "only the overall commander ends the game")
    if state.phase != "friendly_move" or state.acted_this_turn:
        return Illegal(SEQUENCE, "the game may be ended only between turns, before anything moves")
    if state.turn < 2:
        return Illegal(SEQUENCE, "play at least one turn before ending the game")
    return None


def _check_end_now(state, seat, a: EndGameNow):
    if "command" not in seat.powers:
        return Illegal(COOP, "the game is ended in the overall commander's name")
    if state.phase in ("bidding", "deployment"):
        return Illegal(SEQUENCE, "the battle has not begun: there is nothing to reveal or score")
    return None


def turns_played(state: GameState) -> int:
    """Turns that count if the battle ends now (CA "Victory": each after turn 18 costs 1).

    A turn counts once anything has happened in it: its move phase saw an action, or it
    got past that phase.
    """
    if state.phase == "friendly_move" and not state.acted_this_turn:
        return state.turn - 1
    return state.turn


def _check_decision(kind: str):
    def checker(state, seat, a):
        p = state.pending
        if p is None or p.kind != kind:
            return Illegal(SEQUENCE, "no such choice is waiting")
        if p.power not in seat.powers:
            return Illegal(COOP, "this choice belongs to the overall commander")
        choice = a.hexes if kind == "roll_order" else a.unit
        if choice not in p.options:
            return Illegal(p.rule or SEQUENCE, f"{choice!r} is not one of the choices offered")
        return None

    return checker


def _check_defender_choice(kinds: tuple[str, ...], more):
    """A defender's choice (CA p.7): only the defender, only when that choice waits."""

    def checker(state, seat, a):
        p = state.pending
        if p is None or p.kind not in kinds:
            return Illegal(SEQUENCE, "no such choice is waiting")
        if defender.DEFENDER not in seat.powers:
            return Illegal(COOP, "this choice belongs to the defender")
        return more(state, a)

    return checker


def _check_deploy(state, seat, a: Deploy):
    return defender.check_deploy(state, seat, a.platoons, a.atgs)


def _check_mortar_choice(state, a: ChooseMortar):
    if a.target not in state.pending.options:
        return Illegal(MORTARS, "your mortars may target only a spotted hex of enemy infantry")
    return None


_CHOICES = (ChooseRollOrder, ChooseBroken, ChooseReveals, ChooseTarget, ChooseMortar)

_CHECKS = {
    Enter: _check_enter,
    Move: _check_move,
    Withdraw: _check_withdraw,
    Exploit: _check_exploit,
    Face: _check_face,
    CallMortar: _check_call_mortar,
    DeclareFire: _check_declare,
    ResolveFire: _check_resolve,
    EndPhase: _check_end_phase,
    EndGame: _check_end_game,
    EndGameNow: _check_end_now,
    ChooseRollOrder: _check_decision("roll_order"),
    ChooseBroken: _check_decision("break"),
    Bid: lambda state, seat, a: defender.check_bid(state, seat, a.points),
    Deploy: _check_deploy,
    ChooseReveals: _check_defender_choice(
        ("reveals",), lambda state, a: defender.check_reveals(state, a.hexes)
    ),
    ChooseTarget: _check_defender_choice(
        ("armour_target", "infantry_target"),
        lambda state, a: defender.check_target(state, a.unit, a.hexes),
    ),
    ChooseMortar: _check_defender_choice(("mortar_target",), _check_mortar_choice),
}


def _label(state, h: Hex) -> str:
    return state.label(h) if h in state.board.hex_set else str(h)


# --- applying ------------------------------------------------------------------------------


def apply(state: GameState, action) -> GameState:
    """Apply a legal action and run the engine on.

    A malformed action raises :class:`~.validate.ActionFormatError`, an illegal one
    :class:`~.reasons.IllegalAction`; either way the state is left untouched.
    """
    problem = action_problem(action)
    if problem is not None:
        raise problem
    reason = _rules_check(state, action)
    if reason is not None:
        raise IllegalAction(reason, action)
    _record(state, action)
    return state


def try_apply(state: GameState, action) -> Illegal | None:
    """Like :func:`apply`, but returns the reason instead of raising."""
    reason = check(state, action)
    if reason is None:
        _record(state, action)
    return reason


def _record(state: GameState, action) -> None:
    """Do a checked action, log it with where its events start, and run the engine on."""
    mark = len(state.events)
    _APPLY[type(action)](state, action)
    state.actions.append(action)
    state.event_marks.append(mark)
    run_agenda(state)


def _do_enter(state, a: Enter):
    unit = state.units[a.unit]
    state.place(unit, a.to)
    unit.fresh = False
    if unit.is_armour:
        unit.facing = a.facing
    state.acted_this_turn = True
    state.log(
        "move", f"{unit.id} enters at {state.label(a.to)}", unit=unit.id, to=a.to, facing=a.facing
    )


def _do_move(state, a: Move):
    unit = state.units[a.unit]
    frm = unit.hex
    state.place(unit, a.to)
    unit.fresh = False
    if unit.is_armour and a.facing is not None:
        unit.facing = a.facing
    state.acted_this_turn = True
    state.log(
        "move",
        f"{unit.id} moves {state.label(frm)} -> {state.label(a.to)}",
        unit=unit.id,
        frm=frm,
        to=a.to,
        facing=unit.facing,
    )


def _do_withdraw(state, a: Withdraw):
    unit = state.units[a.unit]
    frm = unit.hex
    state.remove(unit, WITHDRAWN)
    state.acted_this_turn = True
    state.log(
        "move",
        f"{unit.id} withdraws from {state.label(frm)}",
        unit=unit.id,
        frm=frm,
        reason="withdraw",
    )


def _do_exploit(state, a: Exploit):
    unit = state.units[a.unit]
    frm = unit.hex
    state.remove(unit, EXPLOITED)
    state.acted_this_turn = True
    state.log(
        "move",
        f"{unit.id} exploits off the enemy edge from {state.label(frm)}",
        unit=unit.id,
        frm=frm,
    )


def _do_face(state, a: Face):
    unit = state.units[a.unit]
    unit.facing = a.facing
    state.acted_this_turn = True
    state.log(
        "face",
        f"{unit.id} turns to face the {hg.CORNER_NAMES[a.facing]} corner",
        unit=unit.id,
        facing=a.facing,
    )


def _do_call_mortar(state, a: CallMortar):
    state.friendly_mortar = MortarTarget(a.target, state.turn, a.smoke, a.spotter)
    state.mortar_called = True
    state.acted_this_turn = True
    if a.smoke:
        state.smoke_ammo -= 1
    kind = "smoke" if a.smoke else "high explosive"
    state.log(
        "mortar",
        f"{a.spotter} calls {kind} on {state.label(a.target)}",
        target=a.target,
        spotter=a.spotter,
        smoke=a.smoke,
    )


def _do_declare(state, a: DeclareFire):
    decl = state.declaration
    if decl is None:
        decl = state.declaration = Declaration(a.target, [], [])
    decl.firers.extend(a.firers)
    if a.seat not in decl.seats:
        decl.seats.append(a.seat)
    state.acted_this_turn = True
    state.log(
        "declare",
        f"{', '.join(a.firers)} committed against {state.label(a.target)}",
        target=a.target,
        firers=list(a.firers),
        seat=a.seat,
    )
    if a.resolve:
        _do_resolve(state, None)


def _do_resolve(state, a):
    decl = state.declaration
    state.declaration = None
    fire.resolve_declaration(state, decl.target, decl.firers)


def _do_end_phase(state, a: EndPhase):
    if state.phase == "friendly_move":
        state.phase = "friendly_fire"
        state.engaged = {}
        state.mortar_called = False
        state.log("phase", f"Turn {state.turn}: {title(state.phase)}")
        return
    state.agenda.extend(engine_steps_after("friendly_fire", state.turn))


def _do_end_game(state, a: EndGame):
    state.log("phase", f"the game is ended after turn {state.turn - 1}")
    state.agenda.extend([("final_reveal",), ("score", state.turn - 1)])


def _do_end_now(state, a: EndGameNow):
    turns = turns_played(state)
    decl = state.declaration
    unrolled = "" if decl is None else f"; the fire on {state.label(decl.target)} is not rolled"
    state.log(
        "phase",
        f"the game is ended during turn {state.turn} ({title(state.phase)}); "
        f"{turns} turn{'s' if turns != 1 else ''} count{unrolled}",
        ended_now=True,
        turns=turns,
    )
    state.pending = None
    state.declaration = None
    state.agenda = [("final_reveal",), ("score", turns)]


def _do_choose_order(state, a: ChooseRollOrder):
    p = state.pending
    state.pending = None
    kind, source = p.context
    state.log(
        "decision",
        f"commander rolls for {', '.join(state.label(h) for h in a.hexes)} in that order",
        hexes=list(a.hexes),
    )
    state.agenda[0:0] = [("hex_roll", kind, source, h) for h in a.hexes]


def _do_choose_broken(state, a: ChooseBroken):
    state.pending = None
    break_infantry(state, state.units[a.unit], "commander's choice")


def _do_choose_target(state, a: ChooseTarget):
    more = defender.do_target(state, a.unit, a.hexes)
    if more:
        state.agenda[0:0] = more


_APPLY = {
    Enter: _do_enter,
    Move: _do_move,
    Withdraw: _do_withdraw,
    Exploit: _do_exploit,
    Face: _do_face,
    CallMortar: _do_call_mortar,
    DeclareFire: _do_declare,
    ResolveFire: _do_resolve,
    EndPhase: _do_end_phase,
    EndGame: _do_end_game,
    EndGameNow: _do_end_now,
    ChooseRollOrder: _do_choose_order,
    ChooseBroken: _do_choose_broken,
    Bid: lambda state, a: defender.do_bid(state, a.seat, a.points),
    Deploy: lambda state, a: defender.do_deploy(state, a.platoons, a.atgs),
    ChooseReveals: lambda state, a: defender.do_reveals(state, a.hexes),
    ChooseTarget: _do_choose_target,
    ChooseMortar: lambda state, a: defender.do_mortar(state, a.target),
}


# --- what may be done ----------------------------------------------------------------------


def legal_actions(state: GameState, seat: str) -> list:
    """Every action ``seat`` may take now (fire: one firer per action; join to group)."""
    return list(iter_legal_actions(state, seat))


def iter_legal_actions(state: GameState, seat_name: str) -> Iterator:
    seat = state.seats.get(seat_name)
    if seat is None or state.over:
        return
    if state.pending is not None:
        yield from _decision_actions(state, seat)
        return
    if state.phase == "deployment":
        if defender.DEFENDER in seat.powers:
            yield from defender.deploy_actions(state, seat.name)
        return
    if state.phase == "bidding":
        for points in range(defender.MAX_BID + 1):
            if defender.check_bid(state, seat, points) is None:
                yield Bid(seat.name, points)
        return
    candidates = []
    if state.phase == "friendly_move":
        candidates = list(_move_candidates(state, seat))
        candidates.append(EndGame(seat.name))
    elif state.phase == "friendly_fire":
        candidates = list(_fire_candidates(state, seat))
    candidates.append(EndPhase(seat.name))
    for a in candidates:
        if check(state, a) is None:
            yield a


def _decision_actions(state, seat):
    p = state.pending
    if p.power not in seat.powers:
        return
    if p.power == defender.DEFENDER:
        yield from defender.choice_actions(state, seat.name)
        return
    for opt in p.options:
        yield (
            ChooseRollOrder(seat.name, opt)
            if p.kind == "roll_order"
            else ChooseBroken(seat.name, opt)
        )


def _move_candidates(state, seat):
    for uid in sorted(seat.units):
        unit = state.units[uid]
        for verb, h, f in movement.destinations(state, unit):
            yield action_for(state, seat.name, uid, h, f, verb)


def _fire_candidates(state, seat):
    decl = state.declaration
    if decl is not None:
        yield ResolveFire(seat.name)
        targets = [decl.target]
    else:
        targets = [h for h in state.enemy if h not in state.engaged]
        if "mortars" in seat.powers and not state.mortar_called and not state.engaged:
            for smoke in (False, True):
                for h, sp in mortars.friendly_targets(state, smoke).items():
                    yield CallMortar(seat.name, h, sp, smoke)
    for uid in sorted(seat.units):
        unit = state.units[uid]
        if not fire.may_fire(unit):
            continue
        if unit.is_armour:  # may turn to join a declared fire (not once committed: check)
            for f in range(6):
                if f != unit.facing:
                    yield Face(seat.name, uid, f)
        for t in targets:
            if within_range(hg.distance(unit.hex, t)):
                yield DeclareFire(seat.name, t, (uid,), True)
                yield DeclareFire(seat.name, t, (uid,), False)
