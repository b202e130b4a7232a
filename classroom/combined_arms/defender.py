"""Playing the defenders in person: the enemy-player variant (CA p.7 "Enemy Player Variant").

With ``Options(enemy_player=True)`` a seat with the ``defender`` power replaces the AI:

* the game opens in the **deployment** phase: the engine has rolled the defender's secret
  forces (:func:`~.enemy_player.roll_secret_forces`) and waits for a :class:`~.actions.Deploy`
  that meets every balancing constraint;
* counters are **revealed without dice**, from the deployment: when an attacking platoon
  is next to them on activation, when the defender chose to reveal them this enemy phase
  (:class:`~.actions.ChooseReveals`, asked every enemy phase while anything is unrevealed,
  so the question itself gives nothing away), when they are about to be broken, and at the
  end of the game;
* the +1 for firing at an unrevealed platoon applies even with an attacker adjacent
  (``fire.friendly_modifiers``);
* revealed platoons, ATGs and mortars fire where the **defender chooses**
  (:class:`~.actions.ChooseTarget`, :class:`~.actions.ChooseMortar`), among the targets the
  AI would weigh; mortars may hold fire, and then they may fire next turn;
* the attackers' score gets the handicap bonus they were granted (``Options.handicap``).

The deployment, the force roll and the reveal orders are the defender's secrets: they sit
in ``state.secret``, ``state.forces`` and ``state.reveal_orders``, and every event about
them carries ``secret="defender"``, so a seat view can leave them out.

:func:`ai_choice` answers any defender decision the way the solitaire AI would (a defender
bot, a hint for a learner, and a way to play whole variant games in tests); it plans with
its own random numbers, never the game's dice.
"""

from __future__ import annotations

import functools
import random

from hexclass.classroom.hexgrid import Hex

from . import enemy
from .enemy import real_platoon_at
from .enemy_player import (
    Deployment,
    DeploymentField,
    check_deployment,
    legal_deployments,
    roll_secret_forces,
    settle_bids,
    targets,
)
from .reasons import COOP, SEQUENCE, VARIANT, Illegal
from .state import Decision, GameState, SeatSpec
from .units import POTENTIAL, REAL

DEFENDER = "defender"  # the seat's name and its power
SECRET = {"secret": DEFENDER}  # the mark on events only the defender may see
BID = "bid"  # the power to bid for the defenders (two-player game)
MAX_BID = 40  # more than any score the attackers could need


def defender_seat(name: str = DEFENDER) -> SeatSpec:
    return SeatSpec(name, frozenset(), frozenset({DEFENDER}))


def bidder_seat(name: str) -> SeatSpec:
    """A seat of the two-player game before the bidding says which side it takes."""
    return SeatSpec(name, frozenset(), frozenset({BID}))


# --- bidding (CA p.7: the two-player game) -----------------------------------------------


def check_bid(state: GameState, seat: SeatSpec, points) -> Illegal | None:
    if state.phase != "bidding":
        return Illegal(SEQUENCE, "bids are made before the set-up of a two-player game")
    if BID not in seat.powers:
        return Illegal(COOP, f"seat {seat.name!r} takes no part in the bidding")
    if seat.name in state.bids:
        return Illegal(VARIANT, "each player bids once, in secret")
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_BID:
        return Illegal(VARIANT, f"a bid is a whole number of bonus points from 0 to {MAX_BID}")
    return None


def do_bid(state: GameState, seat: str, points: int) -> None:
    """Record a sealed bid; once every bidder has bid, settle who defends (CA p.7)."""
    state.bids[seat] = points
    state.log("decision", f"you bid {points} for the defenders", rule=VARIANT, secret=seat)
    state.log("decision", f"{seat} has made a sealed bid", rule=VARIANT)
    bidders = [s.name for s in state.seats.values() if BID in s.powers]
    if all(b in state.bids for b in bidders):
        _settle_bidding(state, bidders)


def _settle_bidding(state: GameState, bidders: list[str]) -> None:
    from .units import ALL_IDS

    result = settle_bids({b: state.bids[b] for b in bidders}, state.dice)
    ties = "; ".join(
        "tie dice " + ", ".join(f"{p} {d}" for p, d in sorted(r.items())) for r in result.tie_rolls
    )
    bids = ", ".join(f"{b} {state.bids[b]}" for b in sorted(bidders))
    attack = frozenset({"mortars", "command"})
    seats = dict(state.seats)
    for b in bidders:
        seats[b] = (
            defender_seat(b) if b == result.defender else SeatSpec(b, frozenset(ALL_IDS), attack)
        )
    state.describe(state.game.with_seats(seats).with_options(handicap=result.bonus))
    state.log(
        "setup",
        f"bids: {bids}{'; ' + ties if ties else ''}. {result.defender} commands the defenders; "
        f"the attackers add {result.bonus} to their victory score",
        rule=VARIANT,
        defender=result.defender,
        bonus=result.bonus,
        tie_rolls=[dict(r) for r in result.tie_rolls],  # each in the order rolled
    )
    roll_forces(state)


# --- set-up ------------------------------------------------------------------------------


def start(state: GameState) -> None:
    """Open the variant: bidding first in a two-player game, else the secret forces."""
    if state.options.bidding:
        state.phase = "bidding"
        names = " and ".join(sorted(s.name for s in state.seats.values() if BID in s.powers))
        state.log("phase", f"{names} bid for command of the defenders", rule=VARIANT)
        return
    roll_forces(state)


def roll_forces(state: GameState) -> None:
    """Roll the defender's secret forces and wait for the deployment (CA p.7)."""
    state.forces = roll_secret_forces(state.dice)
    rolls = ", then ".join(f"{a}-{b}" for a, b in state.forces.rolls)
    f = targets(deployment_field(state), state.forces)
    state.log(
        "setup",
        f"secret force roll {rolls}: {state.forces.platoons} real platoons and "
        f"{state.forces.atgs} real ATGs (to deploy: {f.platoons} platoons, {f.atgs} ATGs)",
        rule=VARIANT,
        rolls=list(state.forces.rolls),
        **SECRET,
    )
    state.phase = "deployment"
    state.log("phase", "The defender deploys in secret", rule=VARIANT)


def deployment_field(state: GameState) -> DeploymentField:
    """The potential counters as set out at the start (the field the deployment uses).

    It is read from the board alone, so it is kept per board, never on the state.
    """
    return _field_of(state.board)


@functools.lru_cache(maxsize=8)
def _field_of(board) -> DeploymentField:
    return DeploymentField.of(board)  # a Board hashes by identity: one field per board


def check_deploy(state: GameState, seat: SeatSpec, platoons, atgs) -> Illegal | None:
    if DEFENDER not in seat.powers:
        return Illegal(COOP, "only the defender deploys the defending counters")
    if state.phase != "deployment":
        return Illegal(SEQUENCE, "the defenders are deployed once, before the first turn")
    d = Deployment(frozenset(platoons), frozenset(atgs))
    return check_deployment(deployment_field(state), state.forces, d)


def do_deploy(state: GameState, platoons, atgs) -> None:
    state.secret = Deployment(frozenset(platoons), frozenset(atgs))
    names = ", ".join(sorted(state.label(h) for h in state.secret.platoons))
    guns = ", ".join(sorted(state.label(h) for h in state.secret.atgs)) or "none"
    state.log("setup", f"real platoons at {names}; real ATGs at {guns}", rule=VARIANT, **SECRET)
    state.phase = "friendly_move"
    state.log("phase", "the defender has deployed; Turn 1: Friendly Move Phase")


# --- the defender's reveal orders (the reveals themselves: enemy.reveal_by_order) ---------


def unrevealed(state: GameState) -> list[Hex]:
    return [
        h
        for h in enemy.activation_order(state)
        if state.enemy[h].platoon == POTENTIAL or state.enemy[h].atg == POTENTIAL
    ]


def step_reveal_orders(state: GameState) -> None:
    """Ask which real counters to reveal on activation this enemy phase (CA p.7)."""
    state.reveal_orders = frozenset()
    hidden = unrevealed(state)
    if not hidden:
        return
    real = tuple(h for h in hidden if real_platoon_at(state, h))
    state.pending = Decision(
        "reveals",
        real,
        power=DEFENDER,
        rule=VARIANT,
        prompt="which of your hidden real counters reveal themselves on activation this turn? "
        "(revealed, they may fire; hidden, they keep the +1 against attackers' fire)",
    )


def check_reveals(state: GameState, hexes) -> Illegal | None:
    bad = [h for h in hexes if h not in state.pending.options]
    if bad:
        names = ", ".join(state.label(h) if h in state.board.hex_set else str(h) for h in bad)
        return Illegal(VARIANT, f"only hidden real platoons may be revealed by choice: {names}")
    return None


def do_reveals(state: GameState, hexes) -> None:
    state.pending = None
    state.reveal_orders = frozenset(hexes)
    names = ", ".join(sorted(state.label(h) for h in hexes)) or "none"
    state.log(
        "decision", f"the defender will reveal on activation: {names}", rule=VARIANT, **SECRET
    )


# --- the defender's targets ----------------------------------------------------------------


def armour_targets(state: GameState, h: Hex) -> dict[str, int]:
    """Armour platoon id -> chances in 6 for the post in ``h`` (CA "Enemy Fire")."""
    post = state.enemy[h]
    out = {}
    for a in enemy._armour_on_board(state):
        c = enemy.armour_chances(state, h, a, post.atg == REAL)
        if c:
            out[a.id] = c
    return out


def step_armour_target(state: GameState, h: Hex) -> None:
    post = state.enemy.get(h)
    if post is None or post.platoon != REAL:
        return
    options = armour_targets(state, h)
    if len(options) == 1:
        enemy.roll_fire_on_armour(state, h, post, state.units[next(iter(options))])
    elif options:
        text = ", ".join(f"{u} ({c} in 6)" for u, c in sorted(options.items()))
        state.pending = Decision(
            "armour_target",
            tuple(sorted(options)),
            power=DEFENDER,
            context=(h,),
            rule=VARIANT,
            prompt=f"{state.label(h)} fires on which armour? {text}",
        )


def infantry_targets(state: GameState, h: Hex) -> dict[tuple[Hex, ...], int]:
    """Every cluster of infantry hexes the post in ``h`` may engage -> its total payoff."""
    pay = enemy.hex_payoffs(state, h)
    return {cl: sum(pay[x].payoff for x in cl) for cl in enemy.clusters(pay)}


def step_infantry_target(state: GameState, h: Hex):
    post = state.enemy.get(h)
    if post is None or post.platoon != REAL:
        return None
    options = infantry_targets(state, h)
    if len(options) == 1:
        return engage(state, h, next(iter(options)))
    if options:
        state.pending = Decision(
            "infantry_target",
            tuple(options),
            power=DEFENDER,
            context=(h,),
            rule=VARIANT,
            prompt=f"{state.label(h)} engages which of your infantry hexes?",
        )
    return None


def engage(state: GameState, h: Hex, cluster: tuple[Hex, ...]) -> list[tuple]:
    cluster = tuple(sorted(cluster, key=lambda x: (x[1], state.board.column(x))))
    state.log(
        "decision",
        f"{state.label(h)} engages {', '.join(state.label(x) for x in cluster)} "
        "(the defender's choice)",
        hex=h,
        cluster=list(cluster),
        rule=VARIANT,
    )
    return [("hexes_under_fire", "enemy fire", h, cluster)]


def check_target(state: GameState, unit, hexes) -> Illegal | None:
    p = state.pending
    choice = unit if p.kind == "armour_target" else tuple(sorted(hexes))
    options = p.options if p.kind == "armour_target" else [tuple(sorted(o)) for o in p.options]
    if choice not in options:
        return Illegal(VARIANT, "that target is not one the post can engage now")
    return None


def do_target(state: GameState, unit, hexes):
    p = state.pending
    state.pending = None
    (h,) = p.context
    if p.kind == "armour_target":
        enemy.roll_fire_on_armour(state, h, state.enemy[h], state.units[unit])
        return None
    return engage(state, h, tuple(hexes))


# --- mortars -------------------------------------------------------------------------------


def ask_mortar_target(state: GameState, targets_: list) -> None:
    """The defender picks a spotted hex, or holds fire so the mortars may fire next turn.

    Asked whenever the mortars are available, even with no hex spotted: the attackers
    must not learn from a skipped question that no real platoon can see them (CA p.7).
    """
    prompt = (
        "your mortars are available: target a spotted hex, or hold fire"
        if targets_
        else "your mortars are available, but none of your real platoons spots an "
        "attacking infantry hex: hold fire"
    )
    state.pending = Decision(
        "mortar_target",
        (*(t.hex for t in targets_), None),
        power=DEFENDER,
        context=tuple((t.hex, t.spotter) for t in targets_),
        rule=VARIANT,
        prompt=prompt,
    )


def do_mortar(state: GameState, target: Hex | None) -> None:
    """Carry out the defender's mortar choice; the spotter (a hidden real platoon) is told
    to the defender alone, in an event marked secret."""
    from .state import MortarTarget

    p = state.pending
    state.pending = None
    if target is None:
        state.log(
            "decision",
            "the defender holds the mortars' fire (they may fire next turn)",
            rule=VARIANT,
        )
        return
    spotter = dict(p.context)[target]
    state.enemy_mortar = MortarTarget(target, state.turn)
    state.log(
        "decision",
        f"enemy mortars target {state.label(target)} (the defender's choice)",
        target=target,
        rule=VARIANT,
    )
    state.log(
        "decision",
        f"your platoon at {state.label(spotter)} spots for the mortars",
        spotter=spotter,
        secret=DEFENDER,
        rule=VARIANT,
    )


# --- what the defender may do now ---------------------------------------------------------


def deploy_actions(state: GameState, seat: str):
    """Every legal deployment as a :class:`~.actions.Deploy` (lazily: there are many)."""
    from .actions import Deploy

    for d in legal_deployments(deployment_field(state), state.forces):
        yield Deploy(seat, tuple(sorted(d.platoons)), tuple(sorted(d.atgs)))


def choice_actions(state: GameState, seat: str):
    """The answers to the pending defender choice (for reveals: none, each one, or all)."""
    from .actions import ChooseMortar, ChooseReveals, ChooseTarget

    p = state.pending
    if p.kind == "reveals":
        yield ChooseReveals(seat, ())
        for h in p.options:
            yield ChooseReveals(seat, (h,))
        if len(p.options) > 1:
            yield ChooseReveals(seat, tuple(p.options))
    elif p.kind == "armour_target":
        for u in p.options:
            yield ChooseTarget(seat, unit=u)
    elif p.kind == "infantry_target":
        for cl in p.options:
            yield ChooseTarget(seat, hexes=tuple(cl))
    elif p.kind == "mortar_target":
        for t in p.options:
            yield ChooseMortar(seat, t)


# --- a defender that chooses as the AI would ------------------------------------------------


def ai_choice(state: GameState, seat: str = DEFENDER, rng: random.Random | None = None):
    """The action the solitaire AI's rules point to for the pending defender choice.

    Deployment: a legal deployment picked with ``rng`` (the bot's own random numbers).
    Reveals: the hidden real platoons whose payoff or ATG chances would make the AI
    test them (CA "Enemy Decisions"). Targets and mortars: the AI's pick, ties to the first.
    """
    from .actions import ChooseMortar, ChooseReveals, ChooseTarget, Deploy

    rng = rng or random.Random(0)
    if state.phase == "deployment":
        d = _pick_uniformly(legal_deployments(deployment_field(state), state.forces), rng)
        return Deploy(seat, tuple(sorted(d.platoons)), tuple(sorted(d.atgs)))
    p = state.pending
    if p is None or p.power != DEFENDER:
        return None
    if p.kind == "reveals":
        return ChooseReveals(seat, tuple(h for h in p.options if _ai_would_reveal(state, h)))
    if p.kind == "armour_target":
        (h,) = p.context
        options = armour_targets(state, h)
        return ChooseTarget(seat, unit=max(sorted(options), key=options.__getitem__))
    if p.kind == "infantry_target":
        (h,) = p.context
        options = infantry_targets(state, h)
        return ChooseTarget(seat, hexes=max(options, key=options.__getitem__))
    if p.kind == "mortar_target":
        return ChooseMortar(seat, p.options[0])
    return None


def _pick_uniformly(items, rng: random.Random):
    """One item of an iterator, each equally likely, in one pass (reservoir sampling)."""
    chosen = None
    for n, item in enumerate(items, start=1):
        if rng.randrange(n) == 0:
            chosen = item
    return chosen


def _ai_would_reveal(state: GameState, h: Hex) -> bool:
    """The solitaire AI's reveal test away from your platoons (CA "Enemy Decisions";
    adjacent attackers force a reveal anyway, :func:`~.enemy.reveal_by_order`)."""
    post = state.enemy[h]
    if not post.fresh:
        return False  # neither test is due (and nothing need be weighed)
    if enemy.platoon_test_due(False, post.fresh, enemy.best_payoff(state, h)):
        return True
    return h in state.secret.atgs and enemy.atg_test_due(
        False, post.fresh, enemy.best_armour_chance(state, h, with_atg=True)
    )
