"""A doctrine attacker for Combined Arms: one post at a time, the company closing together.

Written from where an attack's points go (issue 26's study, ``benchmarks/ca_doctrine.py``)
rather than from the steady policy's weights:

* one enemy post at a time per front (:meth:`DoctrinePolicy.pick`), chosen by its worth
  (CA "Victory": +2 a platoon broken, -2 one of ours) less the losses the way there and
  the other posts' fire on its sides would cost, counted from the engine's own hit
  chances (CA "Enemy Fire") and reveal odds (CA "Enemy Decisions");
* the company stages 2 hexes out, then closes only together and onto alternate sides,
  so that no single burst reaches two of its platoons (CA "Enemy Fire": up to 3 mutually
  adjacent hexes), and assaults only with every firer adjacent (CA "Fire Attacks": only
  then may a modified 4+ break the post);
* MMGs, armour, mortars and idle rifles pin whatever threatens the attack most
  (:meth:`DoctrinePolicy.allocate`), smoke is laid where it saves most (CA "Mortars");
* an attack that stalls is given up, a break is followed by a runner off the enemy edge
  (CA "Victory": +2 an exploit), and the game is ended once no attack is left.

Its knobs are :class:`Doctrine`; :data:`PRESETS` are the settings measured in
``benchmarks/README.md``. Every number is the engine's, every order is checked with
:func:`~..engine.check`. The attacker ``best`` (:mod:`.lookahead`) plays these settings
and decides, by looking ahead, which one to play each turn and when to end.
"""

from __future__ import annotations

import heapq
import statistics
from collections import Counter
from dataclasses import dataclass, replace

from ... import hexgrid as hg
from .. import enemy, mortars
from ..actions import CallMortar, DeclareFire, EndGame, Face
from ..board import DEFENSIVE, DIST
from ..engine import check
from ..intent import action_for
from ..mortars import enemy_phase_smoke
from ..movement import entries_and_moves
from ..quick import (
    armour_risk_at,
    atg_chance,
    can_exploit_now,
    he_targets,
    pin_chances,
    reveal_chance,
)
from ..units import BOARD, COMPANIES, OFF, REAL, Platoon
from .approach import mortar_risk
from .assessment import facing_towards
from .base import (
    MAX_ACTIONS_PER_PHASE,
    _close_phase,
    decide,
)

LOSS = 0.25  # score points per infantry loss: 8 losses break a platoon, -2 (CA "Victory")
STEP = 0.01  # a way's cost per hex besides its fire, so that the safest way also goes forward


def infantry_in(state, h) -> int:
    return sum(1 for i in state.at.get(h, ()) if i[0] != "A")


# --- the doctrine attacker ----------------------------------------------------------------------


@dataclass(frozen=True)
class Doctrine:
    """The policy's knobs, in score points unless said."""

    end_turn: int = 18  # no turn past this one (CA "Victory": -1 a turn after 18)
    min_value: float = 0.0  # least net worth of a post to attack it
    step: float = 0.05  # cost of each hex a company must cover to reach a post
    advance: float = 0.6  # a moving platoon's cost per hex away from its goal
    threat: float = 0.6  # its cost per expected loss where it ends its move
    spread: float = 0.5  # its cost per friendly infantry platoon in or next to its hex
    close_risk: float = 0.25  # most chance the post is real and unpinned when closing
    max_wait: int = 2  # turns staged before closing an unrevealed post regardless
    patience: int = 2  # turns without coming nearer before an attack is given up
    stop_loss: int = 2  # end once this many more of yours than theirs are broken
    ammo: float = 0.08  # worth of a rifle's ammunition (8 shots withdraw a platoon)
    armour_cover: float = 0.4  # worth of armour's pin chances on the posts attacked
    mmg_threat: float = 1.0  # an MMG's cost per expected loss where it comes on
    fire_base: bool = False  # the next company pins the posts supporting the one attacked
    base_threat: float = 2.0  # a fire-base spot's cost per expected loss there
    smoke: bool = False  # smoke across the other posts' lines while the company closes
    smoke_gain: float = 0.1  # least expected losses a smoke round must save
    smoke_staging: bool = False  # smoke also while the company stages 2 hexes out
    smoke_pins: bool = True  # count on the covering fire planned this phase when smoking
    end_idle: bool = True  # end once no attack is left, even with breaks not yet exploited
    path: float = 0.0  # cost per expected loss on the safest way to the staging hexes
    joint_close: bool = False  # the company closes onto sides no burst can join, or waits
    runner: bool = False  # after a break, a rifle walks the safest way off the enemy edge
    run_cost: float = 0.8  # most a runner's way may cost, in points (an exploit is +2)
    fronts: int = 1  # companies attacking at once, each its own post


PRESETS = {
    "doctrine": Doctrine(),  # attacks only posts worth more than they cost, as it reckons
    # the bold setting on whichever post it reckons least bad, however bad: the coach
    # shows it, valued, when no other setting would attack at all
    "doctrine_all_in": replace(Doctrine(), close_risk=1.0, max_wait=1, threat=0.3, min_value=-99.0),
    "doctrine_close": replace(Doctrine(), close_risk=1.0, max_wait=1),  # closes once staged
    "doctrine_base": replace(Doctrine(), close_risk=1.0, max_wait=1, fire_base=True),
    "doctrine_bold": replace(Doctrine(), close_risk=1.0, max_wait=1, threat=0.3, min_value=-0.5),
    "doctrine_path": replace(Doctrine(), close_risk=1.0, max_wait=1, path=1.0),
    "doctrine_joint": replace(Doctrine(), close_risk=1.0, max_wait=1, path=1.0, joint_close=True),
    "doctrine_run": replace(
        Doctrine(), close_risk=1.0, max_wait=1, path=1.0, joint_close=True, runner=True
    ),
    "doctrine_smoke": replace(  # smoke while the company closes and assaults
        Doctrine(), close_risk=1.0, max_wait=1, smoke=True
    ),
    "doctrine_smoke_all": replace(  # smoke while it stages, too
        Doctrine(), close_risk=1.0, max_wait=1, smoke=True, smoke_staging=True
    ),
}


def _assign(options: dict, apart, cost) -> dict:
    """The most platoons given an option each (``options``: platoon id -> its options),
    every two chosen options ``apart``, then the least total ``cost``; a search over
    every assignment, which is small: a company has at most 3 platoons."""
    ids = list(options)
    best, best_key = {}, (0, 0.0)

    def extend(i, plan):
        nonlocal best, best_key
        key = (len(plan), -sum(cost(o) for o in plan.values()))
        if key > best_key:
            best, best_key = dict(plan), key
        for j in range(i, len(ids)):
            for o in options[ids[j]]:
                if all(apart(o, p) for p in plan.values()):
                    plan[ids[j]] = o
                    extend(j + 1, plan)
                    del plan[ids[j]]

    extend(0, {})
    return best


class DoctrinePolicy:
    """One post at a time; the company closes together, onto alternate sides."""

    def __init__(self, knobs: Doctrine | None = None, name: str = "doctrine"):
        self.k = knobs or Doctrine()
        self.name = name
        self.obj: dict = {c: None for c in COMPANIES}
        self.active: list[str] = []
        self.modes: dict = {}
        self.waits: Counter = Counter()
        self.progress: dict = {}
        self.refused: set = set()
        self.base, self.base_spots = None, {}
        self._phase, self._n, self._turn = None, 0, None
        self._done: set = set()
        self._alloc: list = []
        self._plans: dict = {}
        self.runners: set = set()

    # --- the entry point ----------------------------------------------------------------------
    def act(self, state, seat):
        if state.pending is not None:
            return decide(state, seat)
        key = (state.uid, state.turn, state.phase)
        if key != self._phase:
            self._phase, self._n, self._done, self._alloc = key, 0, set(), None
        self._n += 1
        a = None
        if self._n <= MAX_ACTIONS_PER_PHASE and state.phase == "friendly_move":
            if self._turn != key[:2] and not state.acted_this_turn:
                self._turn = key[:2]
                self.plan(state)
                if self.should_end(state) and check(state, EndGame(seat)) is None:
                    return EndGame(seat)
            a = self.move(state, seat)
        elif self._n <= MAX_ACTIONS_PER_PHASE and state.phase == "friendly_fire":
            a = self.fire(state, seat)
        if a is not None and check(state, a) is None:
            return a
        return _close_phase(state, seat)

    def carry_to(self, state) -> None:
        """Carry the turn's plan and the phase's bookkeeping over to ``state``, another copy
        of the same game at the same turn and phase (a copy has a ``uid`` of its own): the
        coach plays one attacker across the copies it plans on, as ``best`` plays it."""
        if self._turn is not None and self._turn[1] == state.turn:
            self._turn = (state.uid, state.turn)
        if self._phase is not None and self._phase[1:] == (state.turn, state.phase):
            self._phase = (state.uid, state.turn, state.phase)

    def plan_if_missed(self, state) -> None:
        """Make this turn's plan on ``state``, met after the turn's start, if it was not
        made at the start (the coach asked first mid-turn; ``act`` plans only at the start)."""
        at_start = state.phase == "friendly_move" and not state.acted_this_turn
        if (self._turn or (None, None))[1] != state.turn and not at_start:
            self._turn = (state.uid, state.turn)
            self.plan(state)

    # --- reading the board ----------------------------------------------------------------------
    def company(self, state, c):
        return [
            u
            for u in state.units.values()
            if u.company == c and u.where in (OFF, BOARD) and u.id not in self.runners
        ]

    def threat(self, state, h, skip=None, pinned=None) -> float:
        """Expected losses of one platoon standing in ``h`` next enemy phase.

        A real post fires if fresh; an unrevealed one only when next to it or when one
        fresh platoon there already makes a payoff of 6 (CA "Enemy Decisions"); and the
        enemy mortars, from the approach executor's reading of the engine.
        """
        if any(t <= state.turn for t in state.smoke.values()):
            with enemy_phase_smoke(state):
                return self.threat(state, h, skip, pinned)
        pinned = pinned or {}
        total = 0.0
        for e, post in state.enemy.items():
            if post.platoon is None or e == skip or DIST[e][h] > 5:
                continue
            c = enemy.hit_chances(state, e, h)
            adjacent = DIST[e][h] == 1
            if not c or (post.platoon != REAL and not adjacent and 2 * c < 6):
                continue
            p = reveal_chance(state, e) * (1 - pinned.get(e, 0.0))
            total += p * c / 6 * (2 if adjacent else 1)
        return total + mortar_risk(state, h, pinned)

    def assault_hexes(self, state, x, c) -> list:
        out = []
        for a in state.board.neighbours_on_board[x]:
            if (a in state.enemy and state.enemy[a].platoon is not None) or (
                a in state.board.closed_side_edge
            ):
                continue
            if any(i[0] in COMPANIES and i[0] != c for i in state.at.get(a, ())):
                continue  # CA "Movement": no stacking with another company's rifles
            out.append(a)
        return out

    # --- the turn's plan ------------------------------------------------------------------------
    def plan(self, state) -> None:
        live = {h for h, p in state.enemy.items() if p.platoon is not None}
        for c in COMPANIES:
            if self.obj[c] not in live:
                self.obj[c] = None
        able = [c for c in COMPANIES if len(self.company(state, c)) >= 2]
        active = [c for c in able if self.obj[c] is not None]
        for c in able:
            if len(active) >= self.k.fronts or c in active:
                continue
            x = self.pick(state, c, live - {self.obj[a] for a in active})
            if x is not None:
                self.obj[c] = x
                active.append(c)
                self.waits[c] = 0
        if self.k.runner:
            self.pick_runner(state)
        self.active = [c for c in active if not self.stalled(state, c)]
        self.modes = {c: self.mode(state, c) for c in self.active}
        self.base, self.base_spots = None, {}
        if self.k.fire_base and self.active:
            self.plan_fire_base(state, [c for c in able if c not in self.active])

    def depth(self, state, h) -> int:
        """Hexes from our rear edge."""
        return min(DIST[e][h] for e in state.board.friendly_edge)

    def supporting_posts(self, state) -> dict:
        """Posts other than the one attacked that can fire on its assault hexes, each
        weighed by the chance it is real (CA "Enemy Fire")."""
        out: dict = {}
        for c in self.active:
            x = self.obj[c]
            for a in self.assault_hexes(state, x, c):
                for e, post in state.enemy.items():
                    live = post.platoon is not None and e != x and DIST[e][a] <= 5
                    if live and enemy.hit_chances(state, e, a):
                        out[e] = reveal_chance(state, e)
        return out

    def plan_fire_base(self, state, idle: list[str]) -> None:
        """The next company takes post where it can pin the posts supporting the one
        attacked: each platoon is given the hex, out of the others' way, with the most
        pin chances on them less the fire it would draw there."""
        if not idle:
            return
        self.base = idle[0]
        support = self.supporting_posts(state)
        if not support:
            return
        units = [u for u in self.company(state, self.base)]
        scored = []
        for h in state.board.hexes:
            if h in state.enemy or h in state.board.closed_side_edge:
                continue
            if any(DIST[h][e] == 1 for e, p in state.enemy.items() if p.platoon is not None):
                continue
            probe = Platoon(units[0].id, BOARD, h, True)
            value = sum(w * pin_chances(state, probe, e) / 6 for e, w in support.items())
            if value > 0:
                cost = self.k.base_threat * self.threat(state, h) + 0.1 * self.depth(state, h)
                scored.append((value - cost, h))
        taken: list = []
        for _, h in sorted(scored, reverse=True):
            if all(DIST[h][t] > 1 for t in taken):
                taken.append(h)
            if len(taken) == len(units):
                break
        for u, h in zip(sorted(units, key=lambda u: u.id), taken):
            self.base_spots[u.id] = h

    def stalled(self, state, c) -> bool:
        """An attack that has not come nearer for ``patience`` turns is given up."""
        x = self.obj[c]
        units = self.company(state, c)
        if any(u.on_board and DIST[u.hex][x] == 1 for u in units):
            return False
        near = sum(DIST[u.hex][x] if u.on_board else 9 for u in units)
        best, since = self.progress.get(c, (None, 0))
        if best is None or near < best:
            self.progress[c] = (near, 0)
            return False
        self.progress[c] = (best, since + 1)
        if since + 1 <= self.k.patience:
            return False
        self.refused.add(x)
        self.obj[c] = None
        del self.progress[c]
        return True

    def pick(self, state, c, live):
        """The post worth most: the chance it is real times a likely break (CA "Victory":
        +2, +1 more for real ATGs), less the fire on its assault hexes and the way there."""
        units = self.company(state, c)
        best, best_v = None, self.k.min_value
        edge = state.board.friendly_edge
        risk: dict = {}
        for x in sorted(live - self.refused):
            spots = self.assault_hexes(state, x, c)
            if len(spots) < min(2, len(units)):
                continue
            risks = sorted(self.threat(state, a, skip=x) for a in spots)[: len(units)]
            post = state.enemy[x]
            worth = 2 + (atg_chance(state, x) if post.atg is not None else 0)
            steps = min(
                DIST[u.hex][x] if u.on_board else min(DIST[e][x] for e in edge) + 1 for u in units
            )
            v = (
                reveal_chance(state, x) * 0.85 * worth
                - LOSS * 2.5 * sum(risks)
                - self.k.step * steps
            )
            if self.k.path:
                v -= self.k.path * LOSS * self.way_there(state, x, units, risk)
            if v > best_v:
                best, best_v = x, v
        return best

    def way_there(self, state, x, units, risk: dict) -> float:
        """Expected losses of the company walking, one enemy phase a hex, along the
        safest way to the hexes 2 out from ``x`` (:meth:`safest_ways`)."""
        ring = [h for h in state.board.hex_set if DIST[h][x] <= 2]
        ways = self.safest_ways(state, ring, risk)
        total = 0.0
        for u in units:
            if u.on_board:  # the hex it stands in is not walked into
                got = ways.get(u.hex)
                got = None if got is None else got - risk[u.hex]
            else:
                got = min((ways[e] for e in state.board.friendly_edge if e in ways), default=None)
            total += 9.0 if got is None else got  # 9: no way round
        return total

    def safest_ways(self, state, goals, risk: dict) -> dict:
        """Expected losses of walking from each hex to the nearest of ``goals``, one
        enemy phase a hex (Dijkstra backwards from them over :meth:`threat`)."""
        blocked = {e for e, p in state.enemy.items() if p.platoon is not None}
        blocked |= set(state.board.closed_side_edge)

        def cost(h):
            if h not in risk:
                risk[h] = self.threat(state, h)
            return risk[h]

        done: dict = {}
        heap = [(cost(g), g) for g in goals if g not in blocked]
        heapq.heapify(heap)
        while heap:
            d, h = heapq.heappop(heap)
            if h in done:
                continue
            done[h] = d
            for n in state.board.neighbours_on_board[h]:
                if n not in done and n not in blocked:
                    heapq.heappush(heap, (d + cost(n) + STEP, n))
        return done

    def pick_runner(self, state) -> None:
        """One runner for each break not yet matched by an exploit (CA "Victory":
        exploiters count up to the enemy platoons broken): the fresh rifle platoon with
        the cheapest way off the enemy edge, if it can get there by turn 18."""
        self.runners = {r for r in self.runners if state.units[r].on_board}
        want = state.enemy_platoons_broken - len(state.exploited()) - len(self.runners)
        if want <= 0:
            return
        ways = self.safest_ways(state, state.board.exploit_hexes, {})
        cands = sorted(
            (ways[u.hex], u.id)
            for u in state.units.values()
            if u.is_rifle
            and u.on_board
            and u.fresh
            and u.hex in ways
            and u.id not in self.runners
            and DIST[u.hex][state.board.exploit_hexes[1]] + state.turn < self.k.end_turn
        )
        for cost, uid in cands[:want]:
            if cost * LOSS < self.k.run_cost:
                self.runners.add(uid)

    def run_step(self, state, u):
        ways = self.safest_ways(state, state.board.exploit_hexes, {})
        here = ways.get(u.hex)
        steps = [(ways[h], h) for _, h, _ in entries_and_moves(state, u) if h in ways]
        if here is None or not steps:
            return None
        return min(steps)[1]  # the next hex of the safest way

    def should_end(self, state) -> bool:
        if state.turn <= 1:
            return False
        if state.turn > self.k.end_turn:
            return True
        if len(state.broken_friendly()) - state.enemy_platoons_broken >= self.k.stop_loss:
            return True
        if any(state.units[r].on_board for r in self.runners):
            return False  # a runner is on its way to exploit (CA "Victory": +2)
        if self.k.end_idle:
            return not self.active
        return not self.active and state.enemy_platoons_broken <= len(state.exploited())

    def mode(self, state, c) -> tuple[str, object]:
        """Stage 2 hexes out; close together once all are there and the post will
        probably be pinned (or after ``max_wait`` turns for an unrevealed one); assault."""
        x = self.obj[c]
        units = [u for u in self.company(state, c) if u.on_board]
        if any(DIST[u.hex][x] == 1 for u in units):
            return "assault", x
        fresh = [u for u in self.company(state, c) if u.fresh]
        staged = [u for u in fresh if u.on_board and DIST[u.hex][x] == 2]
        if not staged:
            self.waits[c] = 0
            return "stage", x
        waited = self.waits[c]
        self.waits[c] += 1
        p = reveal_chance(state, x)
        if len(staged) == len(fresh) or (waited >= self.k.max_wait and len(staged) >= 2):
            risky = p * (1 - self.support_pin(state, x, closing=True))
            if risky <= self.k.close_risk or (waited >= self.k.max_wait and p < 1.0):
                return "close", x
        return "stage", x

    def support_pin(self, state, x, closing: bool) -> float:
        """Chance MMGs and armour pin ``x`` this fire phase (one less face once your
        rifles are next to it: CA "Fire Attacks")."""
        miss = 1.0
        for u in state.units.values():
            if u.on_board and u.fresh and not u.is_rifle:
                c = pin_chances(state, u, x)
                miss *= 1 - max(0, c - (1 if closing and c else 0)) / 6
        return 1 - miss

    # --- movement --------------------------------------------------------------------------------
    def move(self, state, seat):
        for u in sorted(state.units.values(), key=lambda u: (not u.is_armour, u.id)):
            if u.where not in (OFF, BOARD) or not u.fresh or u.id in self._done:
                continue
            self._done.add(u.id)
            if (
                u.on_board
                and can_exploit_now(state, u)
                and (state.enemy_platoons_broken > len(state.exploited()))
            ):
                a = action_for(state, seat, u.id, verb="exploit")
            elif u.is_rifle:
                a = self.rifle_move(state, seat, u)
            elif u.is_mmg:
                a = self.mmg_move(state, seat, u)
            else:
                a = self.armour_move(state, seat, u)
            if a is not None and check(state, a) is None:
                return a
        return None

    def rifle_move(self, state, seat, u):
        if u.id in self.runners:
            step = self.run_step(state, u)
            return None if step is None else action_for(state, seat, u.id, step, verb="move")
        if u.id in self.base_spots:
            return self.base_move(state, seat, u, self.base_spots[u.id])
        if u.company not in self.active:
            return None  # held back where it is
        mode, x = self.modes[u.company]
        if u.on_board and DIST[u.hex][x] == 1:
            return None  # next to the post: stays to assault
        if self.k.joint_close and mode in ("close", "assault"):
            spot = self.close_plan(state, u.company, x).get(u.id)
            return None if spot is None else action_for(state, seat, u.id, spot, verb="move")
        edge = state.board.friendly_edge
        friends = [h for h, ids in state.at.items() for i in ids if i[0] != "A" and i != u.id]
        pinned = {x: self.support_pin(state, x, closing=False)} if mode == "stage" else {}
        best, best_s = None, self.k.advance * (min(DIST[e][x] for e in edge) - 1)
        here = u.hex if u.on_board else None
        if here is not None:
            best_s = None
        for a, h in [(None, here)] * (here is not None) + [
            (action_for(state, seat, u.id, h, verb=v), h) for v, h, _ in entries_and_moves(state, u)
        ]:
            d = DIST[h][x]
            if mode == "close":
                goal = 0 if d == 1 else 3 + d
            elif mode == "assault":
                goal = d - 1
            else:  # stage 2 hexes out, on our side of the post; never close alone
                deeper = min(DIST[e][h] for e in edge) - min(DIST[e][x] for e in edge) + 1
                goal = 99 if d == 1 else abs(d - 2) + 0.3 * max(0, deeper)
            crowd = sum(3 if f == h else 1 for f in friends if DIST[f][h] <= 1)
            s = (
                self.k.advance * goal
                + self.k.threat * self.threat(state, h, x if mode == "close" else None, pinned)
                + self.k.spread * crowd
                - (0.05 if state.board.terrain[h] in DEFENSIVE else 0.0)
            )
            if best_s is None or s < best_s - 1e-9:
                best, best_s = a, s
        return best

    def close_plan(self, state, c, x) -> dict:
        """Which fresh platoon of ``c`` steps onto which side of ``x`` this phase: as many
        as can, onto sides neither shared nor next to each other or to a platoon already
        there, so no burst of the post takes two (CA "Enemy Fire": up to 3 *mutually
        adjacent* hexes), the fire of the other posts there least; the rest stay back and
        may give covering fire. Worked out once a phase per company."""
        key = (state.turn, c)
        if self._plans.get(key) is None:
            self._plans[key] = self._best_close(state, c, x)
        return self._plans[key]

    def _best_close(self, state, c, x) -> dict:
        units = self.company(state, c)
        held = [u.hex for u in units if u.on_board and DIST[u.hex][x] == 1]
        sides = [a for a in self.assault_hexes(state, x, c) if all(DIST[a][h] >= 2 for h in held)]
        movers = [u for u in units if u.on_board and u.fresh and DIST[u.hex][x] == 2]
        reach = {u.id: [h for _, h, _ in entries_and_moves(state, u) if h in sides] for u in movers}
        risk = {a: self.threat(state, a, skip=x) for a in sides}
        best = _assign(reach, lambda h, o: DIST[h][o] >= 2, risk.__getitem__)
        if len(best) + len(held) >= min(2, len(units)):
            return best
        return self._shift(state, x, movers, sides)  # not enough sides apart: no one closes

    def _shift(self, state, x, movers, sides) -> dict:
        """Staging again, 2 hexes out, so that next phase each platoon has a side of its
        own to close onto, apart from the others' (the fire of all posts there least)."""
        opts = {}
        for u in movers:
            spots = [u.hex] + [h for _, h, _ in entries_and_moves(state, u) if DIST[h][x] == 2]
            opts[u.id] = [
                (g, a) for g in spots for a in state.board.neighbours_on_board[g] if a in sides
            ]
        risk: dict = {}

        def cost(opt):
            if opt[0] not in risk:
                risk[opt[0]] = self.threat(state, opt[0])
            return risk[opt[0]]

        best = _assign(opts, lambda p, q: p[0] != q[0] and DIST[p[1]][q[1]] >= 2, cost)
        here = {u.id: u.hex for u in movers}
        return {uid: g for uid, (g, _) in best.items() if g != here[uid]}

    def base_move(self, state, seat, u, spot):
        """One step of a fire-base platoon towards its spot, out of fire where it can."""
        friends = [h for h, ids in state.at.items() for i in ids if i[0] != "A" and i != u.id]
        edge = state.board.friendly_edge
        best = None
        best_s = self.k.advance * (min(DIST[e][spot] for e in edge) + 1) if not u.on_board else None
        here = [(None, u.hex)] if u.on_board else []
        for a, h in here + [
            (action_for(state, seat, u.id, h, verb=v), h) for v, h, _ in entries_and_moves(state, u)
        ]:
            crowd = sum(3 if f == h else 1 for f in friends if DIST[f][h] <= 1)
            s = (
                self.k.advance * DIST[h][spot]
                + self.k.threat * self.threat(state, h)
                + self.k.spread * crowd
            )
            if best_s is None or s < best_s - 1e-9:
                best, best_s = a, s
        return best

    def mmg_move(self, state, seat, u):
        """An MMG comes on (never to move again) where it can pin the post attacked,
        away from other infantry and the enemy's fire."""
        if u.on_board or not self.active:
            return None
        xs = [self.obj[c] for c in self.active]
        best, best_s = None, 0.3
        for verb, h, _ in entries_and_moves(state, u):
            if any(DIST[g][h] <= 1 for g, ids in state.at.items() if any(i[0] != "A" for i in ids)):
                continue
            probe = Platoon(u.id, BOARD, h, True)
            s = sum(pin_chances(state, probe, x) / 6 for x in xs) - self.k.mmg_threat * self.threat(
                state, h
            )
            if s > best_s:
                best, best_s = action_for(state, seat, u.id, h, verb=verb), s
        return best

    def armour_move(self, state, seat, u):
        """Armour goes where it can pin the posts attacked, weighed against the ATGs."""
        if not self.active:
            return None
        xs = [self.obj[c] for c in self.active]
        opts = [(None, u.hex, u.facing)] if u.on_board else []
        opts += [
            (action_for(state, seat, u.id, h, f, verb=v), h, u.facing if f is None else f)
            for v, h, f in entries_and_moves(state, u)
        ]
        best, best_s = None, None
        for a, h, f in opts:
            probe = Platoon(u.id, BOARD, h, True, f)
            cover = sum(pin_chances(state, probe, x) / 6 for x in xs)
            far = max(0, min(DIST[h][x] for x in xs) - 4)
            s = self.k.armour_cover * cover - 3.0 * armour_risk_at(state, h, f or 0) - 0.05 * far
            if best_s is None or s > best_s + 1e-9:
                best, best_s = a, s
        return best

    # --- fire ---------------------------------------------------------------------------------------
    def fire(self, state, seat):
        """The mortars (called before any fire: CA "Mortars"), then the assault, then
        covering fire (CA "Fire Attacks")."""
        if "mortar" not in self._done:
            self._done.add("mortar")
            a = self.mortar(state, seat, self.assaulted(state))
            if a is not None:
                return a
        for c in self.active:
            x = self.obj[c]
            post = state.enemy.get(x)
            firers = tuple(
                u.id
                for u in self.company(state, c)
                if u.on_board and u.fresh and DIST[u.hex][x] == 1 and u.id not in self._done
            )
            if post is not None and post.platoon is not None and firers:
                self._done.update(firers)
                return DeclareFire(seat, x, firers, True)
        if self._alloc is None:
            self._alloc = self.allocate(state, self.assaulted(state))
        while self._alloc:
            target, firers = self._alloc[0]
            for uid in firers:
                u = state.units[uid]
                if u.is_armour and u.fresh and not hg.in_arc(u.hex, u.facing, target):
                    f = facing_towards(u.hex, target, u.facing)
                    if f is not None and check(state, Face(seat, uid, f)) is None:
                        return Face(seat, uid, f)
            self._alloc.pop(0)
            ready = tuple(i for i in firers if state.units[i].fresh)
            a = DeclareFire(seat, target, ready, True)
            if ready and check(state, a) is None:
                return a
        return None

    def assaulted(self, state) -> set:
        """Posts that fresh platoons next to them assault: no one else fires on them."""
        return {
            self.obj[c]
            for c in self.active
            if any(
                u.on_board and u.fresh and DIST[u.hex][self.obj[c]] == 1
                for u in self.company(state, c)
            )
        }

    def dangers(self, state) -> dict:
        """Expected losses each post would inflict now, plus the posts attacked."""
        if any(t <= state.turn for t in state.smoke.values()):
            with enemy_phase_smoke(state):
                return self.dangers(state)
        out = {}
        infantry = [(h, sum(1 for i in ids if i[0] != "A")) for h, ids in state.at.items()]
        for e, post in state.enemy.items():
            if post.platoon is None:
                continue
            total = 0.0
            for h, n in infantry:
                c = enemy.hit_chances(state, e, h) if n else 0
                adjacent = DIST[e][h] == 1
                if c and (post.platoon == REAL or adjacent or 2 * n * c >= 6):
                    total += n * c / 6 * (2 if adjacent else 1)
            for c in self.active:
                if self.obj[c] == e:
                    total += 4.0 if self.modes[c][0] == "close" else 1.0
            out[e] = reveal_chance(state, e) * total
        return out

    def allocate(self, state, assaulted) -> list:
        """Covering fire, greedily: each MMG, armour and idle rifle on the post where
        its pin saves most, one declaration per hex with all its firers; rifles of
        different companies never share a hex (CA "Fire Attacks")."""
        danger = self.dangers(state)
        pinned: dict = {}
        plan: dict = {}
        owner: dict = {}
        attacking = {self.obj[c] for c in self.active}
        for u in sorted(state.units.values(), key=lambda u: (u.is_rifle, u.id)):
            if not u.on_board or not u.fresh or u.id in self._done:
                continue
            if u.is_rifle and any(DIST[u.hex][x] == 1 for x in attacking if x is not None):
                continue
            best, best_v = None, 0.0
            for e, dv in danger.items():
                if e in assaulted or not state.enemy[e].fresh:
                    continue  # only adjacent firers may join an assault
                if u.is_rifle and owner.get(e, u.company) != u.company:
                    continue
                c = pin_chances(state, u, e)
                v = LOSS * dv * c / 6 * (1 - pinned.get(e, 0.0)) - (
                    self.k.ammo if u.is_rifle else 0
                )
                if c and v > best_v:
                    best, best_v = e, v
            if best is not None:
                pinned[best] = 1 - (1 - pinned.get(best, 0.0)) * (
                    1 - pin_chances(state, u, best) / 6
                )
                plan.setdefault(best, []).append(u.id)
                if u.is_rifle:
                    owner[best] = u.company
        return sorted(plan.items())

    def mortar(self, state, seat, assaulted):
        """Smoke while a company closes or assaults (``smoke``), if it saves enough;
        else high explosive."""
        if (
            self.k.smoke
            and state.smoke_ammo > 0
            and any(self.k.smoke_staging or self.modes[c][0] != "stage" for c in self.active)
        ):
            a = self.smoke_call(state, seat)
            if a is not None:
                return a
        return self.he_call(state, seat, assaulted)

    def he_call(self, state, seat, assaulted):
        """High explosive on the eligible hex whose 3-hex fall cuts most danger."""
        danger = self.dangers(state)
        best, best_v = None, 0.2
        for h, spotter in he_targets(state).items():
            if h in assaulted:
                continue
            v = sum(
                danger.get(n, 0.0)
                * (1.0 if n == h else 0.33)
                * (1 if state.enemy[n].fresh else 0.1)
                for n in [h, *state.board.neighbours_on_board[h]]
                if n in state.enemy
            )
            if v > best_v:
                best, best_v = CallMortar(seat, h, spotter), v
        return best

    def exposure(self, state, smoke: dict, pinned: dict | None = None) -> float:
        """Expected losses of all your infantry next enemy phase with ``smoke`` on the
        board (CA "Mortars": smoke blocks lines as woods do). Each post fires once, on
        its best cluster (the engine's :func:`~enemy.best_clusters`, ties shared out;
        CA "Enemy Decisions"); an unrevealed one only when provoked, and weighed by the
        chance it is real; the enemy mortars as the policy reads them."""
        saved, state.smoke = state.smoke, smoke
        try:
            total = 0.0
            for e, post in state.enemy.items():
                if post.platoon is None:
                    continue
                best, winners, pay = enemy.best_clusters(state, e)
                if not winners:
                    continue
                near = any(pay[h].adjacent for cl in winners for h in cl)
                if post.platoon != REAL and not enemy.platoon_test_due(near, True, best):
                    continue
                hits = statistics.fmean(
                    sum(
                        infantry_in(state, h) * pay[h].chances / 6 * (2 if pay[h].adjacent else 1)
                        for h in cl
                    )
                    for cl in winners
                )
                total += reveal_chance(state, e) * (1 - (pinned or {}).get(e, 0.0)) * hits
            return total + sum(infantry_in(state, h) * mortar_risk(state, h, {}) for h in state.at)
        finally:
            state.smoke = saved

    def planned_pins(self, state) -> dict:
        """Chance this phase's covering fire (:meth:`allocate`, as it stands before the
        smoke lands) pins each post: a pinned post does not fire (CA "Enemy Decisions")."""
        if not self.k.smoke_pins:
            return {}
        out = {}
        for e, firers in self.allocate(state, self.assaulted(state)):
            miss = 1.0
            for uid in firers:
                miss *= 1 - pin_chances(state, state.units[uid], e) / 6
            out[e] = 1 - miss
        return out

    def smoke_call(self, state, seat):
        """The smoke target whose landing (each of the 6 scatter corners alike: CA
        "Mortars") cuts most of the enemy phase's expected losses. Only this fire
        phase's smoke is left by then (docs/rules-notes.md, "Mortars and smoke")."""
        tables = state.board.hit_tables
        known = set(tables)
        last = state.turn + 1
        kept = {h: t for h, t in state.smoke.items() if t > state.turn}
        seen: dict = {}
        pinned = self.planned_pins(state)

        def with_smoke(hexes) -> float:
            key = frozenset(hexes)
            if key not in seen:
                seen[key] = self.exposure(state, {**kept, **{h: last for h in hexes}}, pinned)
            return seen[key]

        try:
            base = with_smoke(())
            best, best_v = None, self.k.smoke_gain
            for h, spotter in mortars.friendly_targets(state, smoke=True).items():
                if all(DIST[h][self.obj[c]] > 4 for c in self.active):
                    continue
                falls = [
                    [x for x in mortars.impact_hexes(h, k) if x in state.board.hex_set]
                    for k in range(6)
                ]
                v = base - statistics.fmean(with_smoke(f) for f in falls)
                if v > best_v:
                    best, best_v = CallMortar(seat, h, spotter, True), v
            return best
        finally:
            for k in set(tables) - known:  # forget the smoke patterns only imagined
                del tables[k]


def policy(name: str) -> DoctrinePolicy:
    """The doctrine attacker with the setting ``name`` (a key of :data:`PRESETS`)."""
    return DoctrinePolicy(PRESETS[name], name)
