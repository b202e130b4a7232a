"""The coach: the next orders of the bot ``best`` for a seat, explained in plain words.

:func:`suggest` asks the attacker ``best`` (:mod:`.lookahead`) what going on is worth
with each doctrine setting (:mod:`.doctrine`) and what ending now would score, then takes
the chosen setting's next orders for the seat and says why: the expected final score
against ending now (CA "Victory"), the exact odds of a fire order (CA "Fire Attacks"),
the chance enemy fire hits a hex a platoon moves into (CA "Enemy Fire", with the chance
an unrevealed post is real, CA "Enemy Decisions"), and what each company is doing (staging,
closing, assaulting) and on which post. When ending or waiting is the pick, it still shows
the best attack, with what it costs and may gain. Everything is
worked out on planning copies: the game's dice are never read or moved.

:func:`review` replays a finished game turn by turn and marks the turns where what the
player did was worth far less, in expected final score, than the bot's choice.

>>> from hexclass.classroom.combined_arms import new_game
>>> s = suggest(new_game(3), "player", seconds=0.5)
>>> s.orders[0].action is not None and "CA" in s.orders[0].why
True
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from dataclasses import dataclass, field

from hexclass.classroom.dice import Dice

from .. import enemy, fire
from ..actions import CallMortar, DeclareFire, EndGame, EndPhase, Enter, Exploit, Move, Withdraw
from ..board import DEFENSIVE, DIST, HULL_DOWN
from ..engine import apply, check
from ..mortars import enemy_phase_smoke
from ..odds import mortar_odds
from ..outlook import end_distribution, end_value
from ..quick import armour_risk, covered_posts, reveal_chance
from ..reasons import DECISIONS, ENEMY_FIRE, FIRE, MORTARS, MOVEMENT, VICTORY
from ..state import SOLITAIRE_SEATS, GameState
from ..units import BOARD, REAL, Platoon
from ..victory import WIN
from .doctrine import PRESETS, DoctrinePolicy
from .doctrine import policy as doctrine_policy
from .lookahead import (
    SETTINGS,
    LookaheadBudget,
    LookaheadPolicy,
    best_horizon,
    may_end,
    turn_start,
    worth_by_turn,
)
from .search import END

WAIT = "wait"  # the best setting has nothing to attack this turn (turn 1: no ending yet)
PLAN_WORDS = {
    "doctrine_bold": (
        "the bold attack (one post at a time, the company closing as soon as it is "
        "staged, even on a post that may cost more than it gives)"
    ),
    "doctrine_close": (
        "the quick attack (one post worth taking at a time, the company closing as "
        "soon as it is staged 2 hexes out)"
    ),
    "doctrine_run": (
        "the careful attack (the safest way in, the company closing only onto sides no "
        "single burst reaches, a runner off the enemy edge after each break)"
    ),
    WAIT: "waiting this turn (nothing moves or fires: no post is worth attacking yet)",
    "doctrine_all_in": (
        "the all-out attack (the bold attack on the post it reckons least bad, whatever "
        "the fire on its sides)"
    ),
    END: "ending the game now",
}
MODE_WORDS = {
    "stage": "stages 2 hexes from its objective, its covering fire on whatever threatens most",
    "close": "closes in together next to its objective, on sides apart where it can",
    "assault": "assaults: only when every firer is adjacent can a 4+ break the post",
}


@dataclass
class Order:
    """One suggested action and why, in plain words with the rule sections."""

    action: object
    text: str
    why: str


@dataclass
class Suggestion:
    """What the coach suggests now: the orders, the plan, the numbers behind them."""

    orders: list[Order]
    plan: str
    headline: str
    values: dict[str, float] = field(default_factory=dict)
    end_mean: float | None = None
    end_win: float | None = None
    waits: list[str] = field(default_factory=list)
    seconds: float = 0.0
    why: str = ""  # when waiting is worth as much as attacking: how the posts cover each other

    def lines(self) -> list[str]:
        out = [self.headline] + ([f"Why: {self.why}"] if self.why else [])
        out += [f"{o.text}: {o.why}" for o in self.orders]
        out += self.waits
        return out


class CoachMemory:
    """The attacker ``best`` plays, as it has played this game so far, kept for the coach.

    The doctrine attacker carries memory: each company's objective, the turns it has
    waited staged (it closes after ``max_wait``), how long an attack has not come nearer
    (it is given up after ``patience``), the runners sent to exploit, and within a phase
    the platoons already given an order and the fire planned. A coach that forgot them
    would keep a company staged for ever. The coach panel keeps one memory per game; at
    each new position it is asked about, the attacker gives its order there once, with the
    setting the lookahead chose at the turn's start, as ``best`` does when it plays.
    """

    def __init__(self):
        self.game: int | None = None
        self.policy: DoctrinePolicy = doctrine_policy(SETTINGS[-1])
        self.before: DoctrinePolicy = copy.deepcopy(self.policy)  # before its order here
        self.version: tuple | None = None  # the position (game, actions) it last acted at
        self.chosen: tuple | None = None  # the (game, turn) whose setting was chosen
        self.plan: str | None = None  # that setting, the waiting or the ending

    def sync(self, state: GameState) -> tuple:
        """The position in hand; a new game (another seed) starts the memory afresh."""
        if self.game != state.seed:
            self.__init__()
            self.game = state.seed
        version = (state.seed, len(state.actions))
        if version != self.version:
            self.before = copy.deepcopy(self.policy)
        return version

    def attacker(self, plan_state: GameState, setting: str) -> DoctrinePolicy:
        """A copy of the attacker as it stands before its order here, playing ``setting``;
        its plan for the turn made if the memory missed the turn's start."""
        pol = copy.deepcopy(self.before)
        pol.k, pol.name = PRESETS[setting], setting
        pol.carry_to(plan_state)
        pol.plan_if_missed(plan_state)
        return pol

    def advance(self, plan_state: GameState, version: tuple, setting: str) -> None:
        """The attacker gives its order at this position, once (however often asked)."""
        if self.version != version:
            self.policy = self.attacker(plan_state, setting)
            self.policy.act(plan_state, "player")
            self.version = version


def _planning_state(state: GameState) -> GameState:
    """A copy every plan may act in: one seat commanding everything (never the game's)."""
    c = state.copy()
    c.seats = dict(SOLITAIRE_SEATS)
    c.dice = Dice(0)  # never the game's: playouts re-seed their own, nothing else rolls
    return c


def suggest(
    state: GameState,
    seat: str,
    seconds: float = 1.2,
    rollouts: int = 6,
    max_orders: int = 3,
    seed: int | None = None,
    memory: CoachMemory | None = None,
) -> Suggestion:
    """The best next order(s) for ``seat`` with odds and reasons, in at most ~``seconds``.

    ``memory``: what the attacker remembers of this game (the coach panel keeps one, see
    :class:`CoachMemory`); without it each suggestion starts afresh.
    """
    start = time.monotonic()
    rng = random.Random(seed if seed is not None else _mix(state))
    plan_state = _planning_state(state)
    mem = memory if memory is not None else CoachMemory()
    version, turn = mem.sync(state), (state.seed, state.turn)
    bot = LookaheadPolicy(rng, LookaheadBudget(forks=rollouts, seconds=seconds * 0.8))
    acting = state.phase in ("friendly_move", "friendly_fire") and state.pending is None
    known = mem.chosen == turn and mem.plan in SETTINGS
    choice = None
    if acting and not state.over and not known:
        bot.inner = mem.before  # the forks copy it: they play on as best would
        choice = bot.choose(plan_state, "player")
    plan = mem.plan if known else choice.chosen if choice is not None else SETTINGS[-1]
    sug = Suggestion([], plan, "", seconds=0.0)
    if choice is not None:
        sug.values, sug.end_mean, sug.end_win = choice.values, choice.end_mean, choice.end_win
    if state.over:
        sug.headline = "The game is over: use Review to see the turns that cost most."
        return sug
    if state.pending is not None:
        a = _for_seat(bot.act(plan_state, "player"), seat)
        why = check(state, a)
        if why is not None:  # another seat decides (the engine says who)
            sug.headline = (
                f"The game waits for another seat's decision: {why.message} ({why.rule})."
            )
            return _done(sug, start)
        sug.headline = "The engine waits for your choice; the usual pick is shown."
        sug.orders.append(Order(a, _describe(state, a), state.pending.prompt or ""))
        return _done(sug, start)

    def attacker(setting: str) -> DoctrinePolicy:
        return mem.attacker(plan_state, setting)

    def idle(setting: str) -> bool:  # after the plan it makes here
        probe = attacker(setting)
        probe.act(plan_state, "player")
        return _idle(probe)

    waiting = None
    if plan in SETTINGS and choice is not None and idle(plan):
        waiting, plan = plan, WAIT  # the best setting attacks nothing this turn: waiting
        choice.values[WAIT], choice.samples[WAIT] = choice.values[waiting], choice.samples[waiting]
        choice.ending = choice.ending | {k for k in SETTINGS if idle(k)}
    sug.plan = plan
    if acting:
        mem.chosen, mem.plan = turn, plan
        setting = waiting or (plan if plan in SETTINGS else None)
        if setting is not None:  # the attacker gives its order here, as best's would
            mem.advance(plan_state, version, setting)
    sug.headline = _headline(choice, plan)
    attack = plan
    if plan in (END, WAIT):
        if plan == END:
            _end_order(sug, state, seat)
        else:
            _wait_order(sug, state, seat, attacker)
        attack = _best_attack(choice, idle, bot, plan_state, start + seconds * 0.9)
    if attack is None:
        sug.why = _cover_note(state)
        return _done(sug, start)
    orders, waits = _next_orders(state, plan_state, seat, attacker(attack), max_orders)
    if attack != plan:  # the attack weighed beside ending or waiting: its own steps only
        orders = [o for o in orders if not isinstance(o.action, (EndPhase, EndGame))]
    sug.orders += orders
    sug.waits += waits
    if attack != plan:
        acting = any(not isinstance(o.action, (EndPhase, EndGame)) for o in orders)
        sug.why = _cover_note(state)
        sug.headline += _trade_off(choice, plan, attack) + (
            " The orders below are that attack's first steps, for you to weigh."
            if acting
            else " That attack, too, has nothing for your platoons to do yet."
        )
    return _done(sug, start)


def _idle(policy: DoctrinePolicy) -> bool:
    """The attacker has nothing to attack this turn: no company with an objective, no
    runner on its way."""
    return not policy.active and not policy.runners


def _wait_order(sug: Suggestion, state: GameState, seat: str, attacker) -> None:
    """Waiting: the commander ends the phase, anyone else is told the commander will."""
    orders, waits = _next_orders(state, _planning_state(state), seat, attacker(SETTINGS[-1]), 1)
    sug.orders += [o for o in orders if isinstance(o.action, EndPhase)]
    sug.waits += waits


ALL_IN = "doctrine_all_in"


def _all_in(bot: LookaheadPolicy, plan_state: GameState, choice, deadline: float) -> str:
    """The all-out attack, valued on the same forks' dice as the settings (as many as time
    allows, at least one), so that the student sees what attacking anyway costs."""
    got = []
    for seed in bot.seeds:
        if got and time.monotonic() > deadline:
            break
        got.append(bot.fork_worths(plan_state, "player", ALL_IN, seed))
    choice.values[ALL_IN], choice.samples[ALL_IN] = best_horizon(got)
    return ALL_IN


def _best_attack(choice, idle, bot, plan_state, deadline: float) -> str | None:
    """The attacking setting worth most this turn; when none would attack anything, the
    all-out attack; None when even that finds no post to go for."""
    got = {
        k: v
        for k, v in choice.values.items()
        if k in SETTINGS and k not in choice.ending and not idle(k)
    }
    if got:
        return max(got, key=got.__getitem__)
    if idle(ALL_IN):  # no post has sides to assault it from
        return None
    return _all_in(bot, plan_state, choice, deadline)


def _trade_off(choice, safe: str, attack: str) -> str:
    """Waiting or ending is worth as much as attacking: what the attack costs and may gain."""
    safe_value, attack_value = choice.values[safe], choice.values[attack]
    got = choice.samples.get(attack, [])
    base = choice.samples.get(safe) or [safe_value] * len(got)
    diffs = [g - b for g, b in zip(got, base)]
    better = [d for d in diffs if d > 0]
    gain = (
        f" In {len(better)} of {len(diffs)} playouts it did better, by "
        f"{sum(better) / len(better):.1f} on average: what a well-run attack may gain."
        if better
        else " In none of the playouts did it do better."
    )
    cost = safe_value - attack_value
    if cost >= 0.05:
        verdict = f"so attacking costs {cost:.1f} on average"
    elif cost <= -0.05:
        verdict = (
            f"so attacking may gain {-cost:.1f} on average over these {len(got)} playouts, "
            "a gain the bot's own plans do not count on"
        )
    else:
        verdict = f"so attacking costs nothing on average over these {len(got)} playouts"
    return (
        f" {plan_name(safe).capitalize()} is worth as much as attacking here: "
        f"{safe_value:.1f} against {attack_value:.1f} for {PLAN_WORDS[attack]}, "
        f"{verdict}.{gain}"
    )


def _cover_note(state: GameState) -> str:
    """Why attacking does not pay here: how the posts cover each other.

    The post whose best alternate sides draw least fire from the other posts (the
    engine's reading, :func:`~..quick.covered_posts`), and what a company with a platoon
    on each of them would draw each enemy phase before any covering fire.
    """
    with enemy_phase_smoke(state):
        posts = covered_posts(state)
    if not posts:
        return (
            "No enemy post has two sides a company could assault it from without "
            f"standing next to another post ({DECISIONS})."
        )
    best = posts[0]
    where = state.label(best.post)
    if not best.covering:
        return f"The post at {where} stands alone: no other post covers its sides."
    n = len(best.covering)
    names = ", ".join(state.label(e) for e in best.covering)
    sides = ", ".join(state.label(s.side) for s in best.sides)
    return (
        f"The enemy posts cover each other. Even {where}, the post least covered, has {n} "
        f"other post{'s' if n > 1 else ''} ({names}) able to fire on its best sides "
        f"({sides}). {'Each' if n > 1 else 'It'} fires once, so a platoon on each side "
        f"would take about {best.draw:.1f} losses between them each enemy phase, before "
        f"your covering fire ({ENEMY_FIRE}; {DECISIONS})."
    )


def _end_order(sug: Suggestion, state: GameState, seat: str) -> None:
    """Ending now: an order for the commander, a word to everyone else (CA "Victory")."""
    dist = end_distribution(state)
    mean = sum(s * p for s, p in dist.items())
    win = sum(p for s, p in dist.items() if s >= WIN)
    why = (
        f"unrevealed counters are tested now; expected final score {mean:.1f}, "
        f"chance of {WIN}+ {win:.0%} ({VICTORY})"
    )
    if check(state, EndGame(seat)) is None:
        sug.orders.append(Order(EndGame(seat), "End the game", why))
    else:
        sug.waits.append(f"Your commander may end the game now: {why}.")


def _done(sug: Suggestion, start: float, *_):
    sug.seconds = time.monotonic() - start
    return sug


def _mix(state: GameState) -> int:
    """The coach's own seed: from the position's turn and size, never from the dice."""
    return (state.turn * 1009 + len(state.actions) * 31 + len(state.events)) % (1 << 31)


def _error(samples) -> str:
    """ " ± the standard error" of a mean over playouts (nothing for an exact value)."""
    if not samples or len(samples) < 2:
        return ""
    return f" ± {statistics.stdev(samples) / len(samples) ** 0.5:.1f}"


def plan_name(plan: str) -> str:
    """A plan's short name for a sentence ("the bold attack", "ending the game now")."""
    return PLAN_WORDS.get(plan, plan).split(" (")[0]


def _headline(choice, plan: str) -> str:
    if choice is None:
        return f"Plan for this turn: {PLAN_WORDS.get(plan, plan)}."
    going = {k: v for k, v in choice.values.items() if k not in choice.ending}
    parts = [
        f"{plan_name(k)} {v:.1f}{_error(choice.samples.get(k))}"
        for k, v in sorted(going.items(), key=lambda kv: -kv[1])
    ]
    text = f"Best this turn: {PLAN_WORDS.get(plan, plan)}."
    if len(going) > 1:
        text += (
            f" Expected final score ({choice.rollouts} playouts each, ± one standard error; "
            f"every attack played on for up to {LookaheadBudget.horizon} turns and ended "
            "at its best turn): " + ", ".join(parts) + "."
        )
    if choice.ending == set(SETTINGS):
        text += (
            " No attack the bot would make is left: every post it could go for costs more, "
            "in the fire on its sides and on the way there, than a break is worth."
        )
    elif choice.ending:
        names = " and ".join(plan_name(k) for k in SETTINGS if k in choice.ending)
        text += f" {names.capitalize()} would find no post worth attacking now."
    if choice.end_mean is not None:
        text += (
            f" Ending now would score {choice.end_mean:.1f} on average "
            f"({choice.end_win:.0%} chance of {WIN}+; {VICTORY})."
        )
        if len(going) > 1:
            text += (
                f" An attack is kept unless it reads more than {-LookaheadBudget.margin:.2f} "
                "below ending: a short attack risks little against a break's +2."
            )
    return text


def _next_orders(state, plan_state, seat, policy, max_orders):
    """The attacker's next orders that ``seat`` may give (the engine asked), each explained."""
    orders: list[Order] = []
    waits: list[str] = []
    c = plan_state
    for _ in range(40):
        if len(orders) >= max_orders or c.over:
            break
        a = policy.act(c, "player")
        if isinstance(a, (EndPhase, EndGame)) or c.phase not in (
            "friendly_move",
            "friendly_fire",
        ):
            if not orders:
                _phase_end(orders, waits, state, c, seat, a)
            break
        order = _seat_order(state, c, seat, a)
        if order is not None:
            orders.append(Order(order, _describe(c, order), _why(c, a, order)))
        if isinstance(a, DeclareFire):
            break  # what follows depends on the dice
        apply(c, a)
    for co, (mode, obj) in sorted(policy.modes.items()):
        if co in policy.active and mode in MODE_WORDS:
            waits.append(f"{co} company {MODE_WORDS[mode]} ({state.label(obj)}; {FIRE}).")
    return orders, waits


def _as_seats(copy: GameState, state: GameState, order) -> bool:
    """Does the engine let the game's real seat give ``order`` on the planning copy?"""
    planned = copy.game
    copy.describe(planned.with_seats(state.seats))
    try:
        return check(copy, order) is None
    finally:
        copy.describe(planned)


def _seat_order(state, copy, seat, a):
    """``a`` as ``seat`` would give it (a joint fire: its own firers), if the engine lets it.

    The planning copy commands everything from one seat; the engine is asked with the
    game's real seats, so a company commander is never told what only another seat may do.
    """
    order = _for_seat(a, seat)
    if isinstance(a, DeclareFire) and seat in state.seats:
        own = tuple(f for f in a.firers if state.seats[seat].commands(f))
        if not own:
            return None
        # a part of a joint fire stays open for the rest of the team to join
        order = DeclareFire(seat, a.target, own, resolve=a.resolve and own == a.firers)
    return order if _as_seats(copy, state, order) else None


def _phase_end(orders, waits, state, copy, seat, a) -> None:
    """The plan has nothing more this phase: the commander's order, anyone else's wait."""
    order = _for_seat(a, seat)
    if _as_seats(copy, state, order):
        orders.append(Order(order, _describe(copy, a), _why(copy, a)))
    elif isinstance(a, EndPhase):
        waits.append(
            "Nothing more for your platoons this phase: when the team is done, the commander "
            f"ends it. {_why(copy, a)}"
        )


def _for_seat(a, seat: str):
    """The same order, sent by ``seat``."""
    if hasattr(a, "seat"):
        from dataclasses import replace

        return replace(a, seat=seat)
    return a


def _describe(state: GameState, a) -> str:
    lab = state.label
    if isinstance(a, Enter):
        return f"{a.unit} enters at {lab(a.to)}"
    if isinstance(a, Move):
        return f"{a.unit} moves to {lab(a.to)}"
    if isinstance(a, Withdraw):
        return f"{a.unit} withdraws"
    if isinstance(a, Exploit):
        return f"{a.unit} exploits off the enemy edge"
    if isinstance(a, DeclareFire):
        return f"{', '.join(a.firers)} fire on {lab(a.target)}"
    if isinstance(a, CallMortar):
        kind = "smoke" if a.smoke else "high explosive"
        return f"mortars fire {kind} on {lab(a.target)} (spotter {a.spotter})"
    if isinstance(a, EndGame):
        return "End the game"
    if isinstance(a, EndPhase):
        return "End the phase"
    return type(a).__name__


def _why(state: GameState, a, order=None) -> str:
    """Odds and risks of one order, in words, with the rule sections (a joint fire's odds
    count every firer of the plan; ``order`` is the part this seat gives)."""
    if isinstance(a, (Enter, Move)):
        with enemy_phase_smoke(state):  # the risk is the enemy phase's: old smoke is gone
            if state.units[a.unit].is_armour:
                return _armour_move_risk(state, a)
            return _move_risk(state, a.to)
    if isinstance(a, Exploit):
        return (
            f"it scores 2 while exploiters do not outnumber broken enemy platoons, or "
            f"once no real enemy platoon is left ({VICTORY})"
        )
    if isinstance(a, Withdraw):
        return f"it leaves the fire it only draws ({MOVEMENT})"
    if isinstance(a, DeclareFire):
        odds = fire.fire_odds(state, a.target, list(a.firers))
        text = f"pins {float(odds.pin):.0%}"
        if odds.all_adjacent:
            text += f", breaks the platoon {float(odds.break_platoon):.0%}"
            if state.enemy[a.target].atg is not None:
                text += f", breaks the ATGs {float(odds.break_atg):.0%}"
        else:
            text += " (no break: not every firer is adjacent)"
        others = [f for f in a.firers if order is not None and f not in order.firers]
        team = f"; together with {', '.join(others)} of your team" if others else ""
        return f"{text}{team}; a pinned post cannot fire in the enemy phase ({FIRE})"
    if isinstance(a, CallMortar):
        odds = mortar_odds(state, a.target)
        pin = float(odds.effect.get(a.target, 0))
        return f"pins the target hex {pin:.0%}, neighbours 1 in 3 of that ({MORTARS})"
    if isinstance(a, EndPhase):
        return (
            f"nothing else is worth doing this phase; platoons kept off the board or out "
            f"of sight draw no enemy fire ({ENEMY_FIRE}) and the defence's score is the "
            f"same later ({VICTORY})"
        )
    return ""


def _armour_move_risk(state: GameState, a) -> str:
    """Chance enemy fire breaks the armour where it moves (ATGs, close assault)."""
    facing = a.facing if a.facing is not None else state.units[a.unit].facing
    probe = Platoon(a.unit, BOARD, a.to, True, facing)
    risk = armour_risk(state, probe)
    hull = " (hull down)" if state.board.terrain[a.to] in HULL_DOWN else ""
    return (
        f"chance enemy ATGs or a close assault break it there next enemy phase{hull}: "
        f"{risk:.0%}, counting unrevealed ATGs by their chance to be real ({ENEMY_FIRE})"
    )


def _move_risk(state: GameState, h) -> str:
    """Chance enemy fire hits one infantry platoon in ``h`` next enemy phase, if unpinned."""
    miss = 1.0
    names = []
    for e, post in state.enemy.items():
        if post.platoon is None:
            continue
        c = enemy.hit_chances(state, e, h)
        if not c:
            continue
        real = 1.0 if post.platoon == REAL else reveal_chance(state, e)
        miss *= 1 - real * c / 6
        tag = "real" if post.platoon == REAL else f"unrevealed, {real:.0%} real"
        names.append(f"{state.label(e)} ({tag}, {c} in 6{', adjacent' if DIST[e][h] == 1 else ''})")
    cover = "cover" if state.board.terrain[h] in DEFENSIVE else "open ground"
    if not names:
        return f"{cover}; no enemy post can fire on it ({ENEMY_FIRE})"
    return (
        f"{cover}; enemy fire risk {1 - miss:.0%} if those posts stay unpinned: "
        f"{', '.join(names)} ({ENEMY_FIRE}; {DECISIONS})"
    )


# --- after the game ----------------------------------------------------------------------------


@dataclass
class TurnReview:
    turn: int
    bot_plan: str
    bot_value: float
    player_value: float
    player_did: str

    @property
    def shortfall(self) -> float:
        return self.bot_value - self.player_value


def review(
    rec: dict, threshold: float = 1.5, rollouts: int = 4, max_turns: int = 20
) -> list[TurnReview]:
    """Each turn of a recorded game: the bot's best value against what the player did.

    At each turn start from turn 2 (when the game may be ended, CA "Victory") the bot
    ``best`` weighs its settings and ending now (:meth:`LookaheadPolicy.choose`). The
    player's turn is valued on the same forks: exactly their orders of that turn, then on
    with the bot's best setting, valued at each turn start the same way; an ending is
    valued exactly. Returns the turns whose shortfall is at least ``threshold``
    (expected score points).
    """
    from ..game import replay

    state = replay({**rec, "actions": []})
    by_turn: dict[int, list] = {}
    probe = state.copy()
    for a in replay(rec).actions:
        by_turn.setdefault(probe.turn, []).append(a)
        apply(probe, a)
    out = []
    for turn in sorted(by_turn):
        mine = by_turn[turn]
        if 2 <= turn <= max_turns and state.phase == "friendly_move" and not state.over:
            budget = LookaheadBudget(forks=rollouts)
            plan_state = _planning_state(state)
            bot = LookaheadPolicy(random.Random(turn), budget)
            choice = bot.choose(plan_state, "player")
            seeds = random.Random(turn)  # the bot's fork seeds, drawn again
            forks = [seeds.getrandbits(62) for _ in range(budget.forks)][: choice.rollouts]
            going = [k for k in SETTINGS if k not in choice.ending] or [SETTINGS[-1]]
            setting = max(going, key=choice.values.__getitem__)  # what the bot goes on with
            player = _value_of_orders(plan_state, mine, forks, setting, budget)
            ended = any(isinstance(a, EndGame) for a in mine)
            did = "ended the game" if ended else f"{len(mine)} orders"
            r = TurnReview(turn, choice.chosen, choice.values[choice.chosen], player, did)
            if r.shortfall >= threshold:
                out.append(r)
        for a in mine:
            apply(state, a)
    return out


def _value_of_orders(state: GameState, orders, seeds, setting: str, budget) -> float:
    """Expected final score of playing exactly ``orders`` now, then on with ``setting``
    (valued as the bot values its own: the best horizon's mean); an ending, exactly."""
    if any(isinstance(a, EndGame) for a in orders):
        return end_value(state)[0]
    from ..outlook import planning_copy

    runs = []
    for s in seeds:
        c = planning_copy(state, random.Random(s))
        for a in orders:
            if c.over or check(c, a) is not None:
                break  # the copy's dice went another way: the setting takes over
            apply(c, a)
        runs.append(_worths_from(c, state.turn, setting, budget))
    return best_horizon(runs)[0]


def _worths_from(c: GameState, turn: int, setting: str, budget) -> list[float]:
    """The worth at each of the next turn starts after ``turn``, as the bot's forks count
    them: a copy already at the next turn's start counts that one first."""
    if c.turn > turn and not c.over and turn_start(c, "player") and may_end(c, "player"):
        rest = worth_by_turn(
            c, doctrine_policy(setting), "player", budget.horizon - 1, budget.max_actions
        )
        return [end_value(c)[0]] + rest
    return worth_by_turn(c, doctrine_policy(setting), "player", budget.horizon, budget.max_actions)


__all__ = ["suggest", "Suggestion", "Order", "CoachMemory", "review", "TurnReview", "plan_name"]
