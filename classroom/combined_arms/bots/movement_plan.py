"""The steady policy's movement plan: when to stop, objectives and each company's mode,
path fields through cover, and each platoon's move (rifles, MMGs, armour, exploiters).
"""

from __future__ import annotations

import heapq
import math

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .. import enemy, lines, mortars, movement
from ..actions import (
    EndGame,
    EndPhase,
)
from ..board import DEFENSIVE, DIST
from ..engine import check
from ..intent import action_for
from ..lines import MAX_RANGE
from ..quick import (
    can_exploit_now,
    reveal_chance,
)
from ..state import GameState
from ..units import (
    BOARD,
    COMPANIES,
    OFF,
    REAL,
    Platoon,
)
from .assessment import (
    APPROACH,
    ASSAULT,
    BOUND,
    CLOSE,
    EXPLOIT,
    HOLD,
    _armour_destinations,
    _assault_hexes,
    _centre_offset,
    _company,
    _company_alive,
    _enemy_signature,
    _move_order,
    _raw_scan,
    _Turn,
    cached_risk,
)
from .base import ENEMY_EDGE_ROW, state_seat


class _Later:
    """A candidate move whose action is built only once it is chosen."""

    __slots__ = ("verb",)

    def __init__(self, verb: str):
        self.verb = verb


_LATER = {"enter": _Later("enter"), "move": _Later("move")}


class MovementPlan:
    """The move phase of the steady policy (a mixin; see :class:`.steady.SteadyPolicy`)."""

    # caches of this module, set on the instance when first filled
    _raw_key: tuple | None = None
    _raw: dict = {}
    _raw_part: dict = {}
    _spots_key: tuple | None = None
    _spots_turn: _Turn | None = None
    _spots: dict = {}
    _targets_key: tuple | None = None
    _targets: list = []
    _fire_seen: tuple = (None, None)  # the Sight and weights _fire_value was worked out for

    # --- move phase ------------------------------------------------------------------------
    def _move_action(self, state: GameState, seat: str):
        turn = self._plan_turn(state)
        if turn is None:
            return EndGame(seat)
        for uid in _move_order(state, turn.done):
            turn.done.add(uid)
            action = self._unit_move(state, seat, turn, state.units[uid])
            if action is not None and self._passes(state, action):
                return action
        return EndPhase(seat)

    def _plan_turn(self, state: GameState) -> _Turn | None:
        """Work out this turn's objectives and exposure map (None: end the game now)."""
        key = (state.uid, state.turn)
        if self._turn is not None and self._turn.key == key:
            return self._turn
        if not state.acted_this_turn and self._should_end(state):
            return None
        t = _Turn(key)
        self._turn_now = t
        t.posts = [
            (h, p, reveal_chance(state, h)) for h, p in state.enemy.items() if p.platoon is not None
        ]
        t.hit_tables = {h: enemy.hit_table(state, h) for h, _, _ in t.posts}
        # exposures and crossfire read only the enemy's counters, the terrain and the
        # smoke: they carry over to the next turn unless one of those changes
        signature = _enemy_signature(state)
        if signature != self._exposure_key:
            self._exposure_key, self._exposures = signature, ({}, {})
        t.exposure, t.crossfire = self._exposures
        # which posts can hit each hex reads only the terrain, the smoke and where the
        # posts are: kept until one of those changes (a reveal does not)
        raw_key = (state.board, lines.terrain_mask(state), tuple(h for h, _, _ in t.posts))
        if raw_key != self._raw_key:
            self._raw_key, self._raw, self._raw_part = raw_key, {}, {}
        t.raw, t.raw_part = self._raw, self._raw_part
        self._step_costs(state, t)
        self._choose_objectives(state, t)
        self._turn = t
        if self._idle(state, t) and check(state, EndGame(state_seat(state))) is None:
            return None
        return t

    def _idle(self, state: GameState, t: _Turn) -> bool:
        """Nothing worth doing: no objective, no exploit, no assault under way.

        The enemy never moves, so an attack that is not worth starting now will not
        become worth it later; staying on only exposes the platoons already out.
        """
        if not self.w.end_when_idle or state.acted_this_turn:
            return False
        return (
            all(o is None for o in t.objectives.values())
            and not t.exploiters
            and not self._assault_in_hand(state)
        )

    def _should_end(self, state: GameState) -> bool:
        """CA "Victory": stop when another turn costs a point and nothing better is in hand."""
        if state.turn < 2:
            return False
        movers = [u for u in state.on_board() if not u.is_mmg]
        if not movers and all(u.where != OFF for u in state.units.values()):
            return True  # nobody left who could still score
        lost = len(state.broken_friendly()) - state.enemy_platoons_broken
        if lost >= self.w.stop_loss and not self._assault_in_hand(state):
            return True  # cut the losses: every further turn has cost more than it gained
        if state.turn < self.w.end_turn or state.options.easier_game:
            return False
        return not self._worth_another_turn(state)

    def _assault_in_hand(self, state: GameState) -> bool:
        """Are fresh rifle platoons next to a real enemy, ready to try to break it?"""
        return any(
            post.platoon == REAL and any(u.is_rifle and u.fresh for u in state.friendly_adjacent(h))
            for h, post in state.enemy.items()
        )

    def _worth_another_turn(self, state: GameState) -> bool:
        """Is a break or an exploit likely enough next turn to pay the point it costs?"""
        gain = 0.0
        room = state.enemy_platoons_broken - len(state.exploited())
        for u in state.on_board():
            if can_exploit_now(state, u) and room > 0:
                gain += 2
                room -= 1
        for h, post in state.enemy.items():
            if post.platoon is None:
                continue
            by_company: dict[str, int] = {}
            for u in state.friendly_adjacent(h):
                if u.is_rifle and u.fresh:
                    by_company[u.company] = by_company.get(u.company, 0) + 1
            if by_company:
                brk = 1 - (2 / 3) ** max(by_company.values())
                gain += brk * 2 * reveal_chance(state, h) + (brk * 2 if room > 0 else 0)
        return gain > 1.2

    # --- objectives ------------------------------------------------------------------------
    def _choose_objectives(self, state: GameState, t: _Turn) -> None:
        """One enemy post per rifle company (kept until it goes), then each company's mode."""
        live = {h for h, p in state.enemy.items() if p.platoon is not None}
        taken: set[Hex] = set()
        for c in COMPANIES:
            obj = self._objectives.get(c)
            if obj in live:
                taken.add(obj)
            else:
                self._objectives[c] = None
        costs: dict[str, float] = {}
        for c in sorted(COMPANIES, key=lambda c: self._company_reach(state, c)):
            if not _company_alive(state, c):
                continue
            if self._objectives.get(c) is None:
                obj = self._pick_objective(state, c, live - taken)
                self._objectives[c] = obj
                if obj is not None:
                    taken.add(obj)
            obj = self._objectives.get(c)
            if obj is not None:
                costs[c] = self._objective_cost(state, _company(state, c), obj) or 0.0
        t.objectives = dict(self._objectives)
        self._choose_exploiters(state, t)
        active = sorted(costs, key=lambda c: (self._engaged_rank(state, c), costs[c]))
        active = set(active[: self.w.active_companies])
        for c in COMPANIES:
            t.mode[c] = self._company_mode(state, t, c, c in active)
            t.fields[c] = self._company_field(state, t, c)

    def _engaged_rank(self, state: GameState, c: str) -> int:
        """Companies already next to their objective keep their place at the front."""
        obj = self._objectives.get(c)
        if obj is None:
            return 2
        units = [u for u in _company(state, c) if u.on_board]
        return 0 if any(DIST[u.hex][obj] <= 2 for u in units) else 1

    def _company_mode(self, state: GameState, t: _Turn, c: str, active: bool) -> str:
        """Where the company is in its attack: approach to 3 hexes, bound to 2, close, assault.

        The bound to 2 hexes is covered by mortars and MMG/armour fire at full odds (an
        overwatch platoon stays back to spot if nobody else can); closing in waits for
        covering fire that will probably pin the objective (CA "Fire Attacks", "Mortars").
        """
        obj = t.objectives.get(c)
        if obj is None:
            return HOLD  # nothing worth attacking: wait out of harm's way
        units = [u for u in _company(state, c) if u.on_board]
        if any(DIST[u.hex][obj] == 1 for u in units):
            return ASSAULT
        if not active:
            return HOLD
        fresh = [u for u in units if u.fresh]
        dist = {u.id: DIST[u.hex][obj] for u in fresh}
        if fresh and all(d <= 3 for d in dist.values()) and any(d == 2 for d in dist.values()):
            q = self._close_cover(state, obj, c)
            t.close_cover[obj] = q
            waited = self._waits.get(c, 0)
            self._waits[c] = waited + 1
            if (
                reveal_chance(state, obj) * (1 - q) <= self.w.close_risk
                or waited >= self.w.max_wait
            ):
                return CLOSE
            return BOUND
        self._waits[c] = 0
        if fresh and all(d <= 3 for d in dist.values()):
            t.overwatch.update(self._overwatch(state, obj, fresh))
            return BOUND
        return APPROACH

    def _overwatch(self, state: GameState, obj: Hex, fresh: list[Platoon]) -> set[str]:
        """One platoon that stays back to spot for the mortars, if no MMG can see ``obj``."""
        spotters = {sp.id: sp for sp in mortars.friendly_spotters(state)}
        if any(sp.is_mmg and lines.spotting_clear(state, sp.hex, obj) for sp in spotters.values()):
            return set()
        for u in sorted(fresh, key=lambda u: (-DIST[u.hex][obj], u.id)):
            if u.id in spotters and lines.spotting_clear(state, u.hex, obj):
                return {u.id}
        return set()

    def _company_reach(self, state: GameState, c: str) -> int:
        """Sort key: companies furthest forward choose first."""
        rows = [u.hex[1] for u in _company(state, c) if u.on_board]
        return -max(rows, default=-1)

    def _choose_exploiters(self, state: GameState, t: _Turn) -> None:
        """CA "Victory": send as many platoons off the enemy edge as broken enemies let count.

        Armour goes whenever there is room on the tally (it is quick by road and cannot
        break enemy platoons); rifle platoons go only when time is running out. The path
        field to the exit is worked out only when someone is sent: only exploiters read it.
        """
        room = state.enemy_platoons_broken - len(state.exploited())
        turns_left = self.w.end_turn - 1 - state.turn
        cands = []
        for u in state.on_board():
            if u.is_mmg:
                continue
            steps = ENEMY_EDGE_ROW - u.hex[1] + 1
            if u.is_armour:
                cands.append((0, steps / 2, u.id))
            elif turns_left <= steps + 2:
                cands.append((1, steps, u.id))
        for _, steps, uid in sorted(cands):
            if room <= 0:
                break
            if steps <= turns_left + 1:
                t.exploiters.add(uid)
                room -= 1
        if t.exploiters:
            goal = [h for h in state.board.exploit_hexes if h not in state.enemy]
            t.exploit_field = self._distance_field(state, goal, None, ())

    def _pick_objective(self, state: GameState, c: str, free: set[Hex]) -> Hex | None:
        """The enemy post this company can reach and assault most cheaply."""
        units = [u for u in _company(state, c) if u.where in (BOARD, OFF)]
        if not units:
            return None
        best, best_cost = None, None
        for h in sorted(free):
            cost = self._objective_cost(state, units, h)
            if cost is not None and (best_cost is None or cost < best_cost):
                best, best_cost = h, cost
        return best

    def _crossfire(self, state: GameState, t: _Turn, h: Hex, spots: list[Hex]) -> float:
        """The least expected losses from posts other than ``h`` at any of the spots.

        Exact whenever it is at most ``max_crossfire`` (above that only the fact
        counts): a spot's sum is given up as soon as it passes that limit or the
        least so far, since every term is a loss and so never negative.
        """
        limit = self.w.max_crossfire
        best = None
        for a in spots:
            got = t.exposure.get(a)
            if got is not None:
                total = sum(v for ph, v in got if ph != h)
            else:
                bound = limit if best is None or limit < best else best
                total = self._crossfire_at(state, t, a, h, bound + 1e-9)
                if total is None:
                    continue  # more than the limit or the best so far
            if best is None or total < best:
                best = total
        return math.inf if best is None else best

    def _crossfire_at(self, state: GameState, t: _Turn, a: Hex, h: Hex, bound: float):
        """``sum(v for ph, v in self._exposure(state, t, a) if ph != h)``, or None past ``bound``."""
        raw = t.raw.get(a)
        if raw is None:
            raw = _raw_scan(state, t, a)
        posts = t.posts
        values = []
        running = 0.0
        for k, ph, c, adj in raw:
            if ph == h:
                continue
            _, post, p_real = posts[k]
            act = 1.0 if post.platoon == REAL else p_real * (1.0 if adj or c >= 3 else 0.4)
            v = act * c / 6 * (2 if adj else 1)
            values.append(v)
            running += v
            if running > bound:
                return None
        return sum(values)

    @staticmethod
    def _steps_to(starts: list, spots: list[Hex]) -> int:
        """The fewest :func:`_approach_steps` from any start to any of the spots."""
        steps = None
        for s in starts:
            if s is None:
                m = min(a[1] for a in spots) + 1
            else:
                row = DIST[s]
                m = min(row[a] for a in spots)
            if steps is None or m < steps:
                steps = m
        return steps

    def _objective_cost(self, state: GameState, units: list[Platoon], h: Hex) -> float | None:
        """Turns to reach an assault hex, plus the enemies crowding it; real posts pay more."""
        post = state.enemy[h]
        spots, centre = self._assault_spots(state, h)
        if not spots:
            return None
        t = self._turn_now
        crossfire = t.crossfire.get(h)
        if crossfire is None:  # the same for every company, kept while the enemy stands still
            crossfire = t.crossfire[h] = self._crossfire(state, t, h, spots)
        if crossfire > self.w.max_crossfire:
            return None  # other posts would cut the assault group to pieces
        starts = [u.hex if u.on_board else None for u in units if u.where in (BOARD, OFF)]
        if not starts:
            return None
        cost = float(self._steps_to(starts, spots))
        if post.platoon == REAL:
            cost -= self.w.real_bonus
        cost += self.w.crossfire * crossfire
        cost += centre
        return cost

    def _assault_spots(self, state: GameState, h: Hex) -> tuple[list[Hex], float]:
        """:func:`_assault_hexes` of ``h`` and its centre-offset cost, kept while the posts stay."""
        if self._spots_turn is not self._turn_now:  # the posts stay put while a turn is planned
            self._spots_turn = self._turn_now
            key = self._paths_key  # (board, enemy hexes) as of this turn's step costs
            if key is None or key[0] is not state.board or key[1] != state.enemy.keys():
                key = (state.board, frozenset(state.enemy))
            if key is not self._spots_key:
                self._spots_key, self._spots = key, {}
        got = self._spots.get(h)
        if got is None:
            got = self._spots[h] = (
                _assault_hexes(state, h),
                0.3 * abs(_centre_offset(state, h)),
            )
        return got

    def _company_field(self, state: GameState, t: _Turn, c: str) -> dict[Hex, float]:
        """Path costs to where the company is heading in its mode."""
        obj = t.objectives.get(c)
        mode = t.mode[c]
        if mode == EXPLOIT:
            goal = [h for h in state.board.exploit_hexes if h not in state.enemy]
            return self._distance_field(state, goal, None, ())
        if obj is None:
            return {}  # no aim: keep wherever is safest
        if mode in (CLOSE, ASSAULT):
            return self._distance_field(state, _assault_hexes(state, obj), obj, ())
        ring = 2 if mode == BOUND else 3
        staging = [
            h for h in hg.ring(obj, ring) if h in state.board.hex_set and h not in state.enemy
        ]
        closer = [h for r in range(1, ring) for h in hg.ring(obj, r)]
        return self._distance_field(state, staging, obj, closer)

    def _step_costs(self, state: GameState, t: _Turn) -> None:
        """This turn's cost of stepping into each hex: open ground, enemies next door.

        They change only when an enemy post goes, so they (and the path fields built on
        them) are kept from turn to turn until then.
        """
        key = (state.board, frozenset(state.enemy))
        if key != self._paths_key:
            board, w = state.board, self.w
            near: dict[Hex, int] = {}  # enemy posts next to each hex
            for e in state.enemy:
                for n in board.neighbours_on_board[e]:
                    near[n] = near.get(n, 0) + 1
            step = {}
            for h in board.hexes:
                if h in state.enemy or h in board.closed_side_edge:
                    continue
                cost = 1.0 + w.near_enemy_step * near.get(h, 0)
                if board.terrain[h] not in DEFENSIVE:
                    cost += w.open_step
                step[h] = cost
            self._paths_key, self._paths = key, (step, {})
        t.step = self._paths[0]

    def _distance_field(self, state: GameState, goal, obj: Hex | None, forbid) -> dict[Hex, float]:
        """Path cost from every hex to the goal, preferring cover and shunning other enemies.

        Remembered with the step costs it is built on; callers only read it.
        """
        fields = self._paths[1]
        key = (tuple(goal), obj, tuple(forbid))
        got = fields.get(key)
        if got is None:
            got = fields[key] = self._new_distance_field(state, goal, obj, forbid)
        return got

    def _new_distance_field(self, state: GameState, goal, obj: Hex | None, forbid):
        board = state.board
        cost_of = dict(self._turn_now.step)
        if obj is not None:
            for n in board.neighbours_on_board[obj]:
                if n in cost_of:
                    cost_of[n] -= self.w.near_enemy_step
        for h in forbid:
            cost_of.pop(h, None)
        dist: dict[Hex, float] = {}
        heap = [(cost_of[g] - 1.0, g) for g in goal if g in cost_of]
        best = {g: d for d, g in heap}  # the shortest path found so far to each hex
        heapq.heapify(heap)
        pop, push, neighbours = heapq.heappop, heapq.heappush, board.neighbours_on_board
        open_cost = cost_of.get  # a hex leaves ``cost_of`` once its distance is final
        while heap:
            d, h = pop(heap)
            if h in dist:
                continue
            dist[h] = d
            del cost_of[h]
            for n in neighbours[h]:
                step = open_cost(n)
                if step is None:
                    continue
                nd = d + step
                known = best.get(n)
                if known is None or nd < known:
                    best[n] = nd
                    push(heap, (nd, n))
        return dist

    # --- one unit's move -------------------------------------------------------------------
    def _unit_move(self, state: GameState, seat: str, t: _Turn, u: Platoon):
        if u.is_mmg:
            return self._mmg_move(state, seat, t, u)
        if u.is_armour:
            return self._armour_move(state, seat, t, u)
        if t.cover is None:  # once the armour has moved or stayed
            t.cover = {} if self._every_rifle_holds_off(state, t) else self._cover_estimates(state)
        return self._rifle_move(state, seat, t, u)

    def _mmg_move(self, state: GameState, seat: str, t: _Turn, u: Platoon):
        """CA "Movement": MMGs enter once, where they can cover the attack, and only withdraw.

        An MMG is infantry: its losses count towards breaking platoons, so it comes on
        only where it can help pin a company's objective, and goes again when it is
        under fire with nothing of the attack left in its reach.
        """
        aims = {o for o in t.objectives.values() if o is not None}
        if u.where == OFF:
            if state.turn > self.w.last_entry or not aims:
                return None
            options = [h for h in state.board.friendly_edge if not state.at.get(h)]
            scored = [(self._mmg_value(state, t, u, h, aims), h) for h in options]
            best = max(
                scored, key=lambda vh: (vh[0], -abs(_centre_offset(state, vh[1]))), default=None
            )
            if best is None or best[0] < self.w.mmg_entry:
                return None
            return action_for(state, seat, u.id, best[1], verb="enter")
        if u.on_board and u.fresh and self._mmg_value(state, t, u, u.hex, aims) < 0:
            return action_for(state, seat, u.id, verb="withdraw")
        return None

    def _mmg_value(self, state: GameState, t: _Turn, u: Platoon, h: Hex, aims) -> float:
        """Pin chances (in sixths) on the objectives, less the fire it would draw in ``h``."""
        sight = self._sight(state)
        support = sum(sight.pin(u.id, h, e) for e in aims) / 6
        danger = sum(v for _, v in self._exposure(state, t, h))
        return support - self.w.mmg_danger * danger

    def _rifle_move(self, state: GameState, seat: str, t: _Turn, u: Platoon):
        c = u.company
        obj = t.objectives.get(c)
        mode = t.mode.get(c, HOLD)
        field_ = t.fields.get(c, {})
        if can_exploit_now(state, u) and self._exploit_ok(state):
            return action_for(state, seat, u.id, verb="exploit")
        if u.id in t.exploiters:
            mode, obj, field_ = EXPLOIT, None, t.exploit_field
        elif u.on_board and obj is not None and DIST[u.hex][obj] == 1:
            return None  # next to the objective: stay and assault in the fire phase
        elif u.id in t.overwatch:
            return None  # stays fresh to call the mortars onto the objective
        if u.where == OFF and mode == HOLD and self._holding_stays_off():
            return None  # what _rifle_score would choose, without scoring the rear edge
        options = self._rifle_options(state, seat, u)
        if not options:
            return None
        aim = obj if mode in (CLOSE, ASSAULT) else None
        best, best_score = None, None
        best_hex = None
        for action, h in options:
            score = self._rifle_score(state, t, u, h, field_, mode, aim)
            if best_score is None or score < best_score - 1e-9:
                best, best_hex, best_score = action, h, score
        if isinstance(best, _Later):
            return action_for(state, seat, u.id, best_hex, verb=best.verb)
        return best

    def _holding_stays_off(self) -> bool:
        """Does a holding company's platoon off the board always stay off?

        Staying off scores -100 (:meth:`_rifle_score`); with none of these weights
        negative, every hex on the board scores 0 or more (path costs, expected losses
        and crowding are never negative), so it wins whatever the position.
        """
        w = self.w
        return (
            w.hold_off_board
            and min(w.caution[HOLD], w.stack_penalty, w.open_step, w.near_enemy_step) >= 0
            and w.loss >= -1
        )

    def _every_rifle_holds_off(self, state: GameState, t: _Turn) -> bool:
        """Is every rifle platoon off the board with its company holding?

        Then each stays off (see :meth:`_holding_stays_off`) and none is scored this
        turn, so the cover estimates the scores weigh are not needed.
        """
        if not self._holding_stays_off():
            return False
        return all(
            u.where == OFF and t.mode.get(u.company, HOLD) == HOLD
            for u in state.units.values()
            if u.is_rifle and u.where in (OFF, BOARD)
        )

    def _rifle_options(self, state: GameState, seat: str, u: Platoon):
        """Legal (action, hex) pairs; staying put is (None, here), or (None, None) off board.

        The hexes the movement rule allows come from :func:`~..movement.entries_and_moves`
        (no refusal worded for the others); :func:`check` then asks what every candidate
        shares (the seat, the phase, the platoon) of the first one only, and once that
        passes the rest need nothing more.
        """
        out: list[tuple] = []
        if u.where == OFF:
            out.append((None, None))
            if state.turn > self.w.last_entry:
                return out
        elif not u.on_board or not u.fresh:
            return out
        else:
            out.append((None, u.hex))
        shared = None  # does check pass what all the candidates share? (None: not asked yet)
        for verb, h, _ in movement.entries_and_moves(state, u):
            if shared is None:
                a = action_for(state, seat, u.id, h, verb=verb)
                shared = check(state, a) is None
                if not shared:
                    break
                out.append((a, h))
            else:
                out.append((_LATER[verb], h))  # built only if chosen (see _rifle_move)
        return out

    def _rifle_score(self, state, t: _Turn, u: Platoon, h, field_, mode: str, aim) -> float:
        """Lower is better: path cost to the goal, weighted danger there, crowding."""
        w = self.w
        if h is None:  # staying off the board: safe, but a turn further from anywhere
            if mode == HOLD and w.hold_off_board:
                return -100.0
            edge = [field_.get(e, 30.0) for e in state.board.friendly_edge]
            return min(edge, default=30.0) + 1.0
        score = field_.get(h, 30.0)
        score += w.caution[mode] * self._danger(state, t, h, aim) * (1 + w.loss)
        ids = state.at.get(h)
        if ids and state.enemy.keys().isdisjoint(state.board.neighbours_on_board[h]):
            crowd = sum(1 for x in ids if x[0] != "A" and x != u.id)
            score += w.stack_penalty * crowd
        return score

    def _exploit_ok(self, state: GameState) -> bool:
        """Exploit while it scores: up to the enemy platoons broken, or at the very end."""
        room = state.enemy_platoons_broken - len(state.exploited())
        return room > 0 or state.turn >= self.w.end_turn - 1

    # --- armour ----------------------------------------------------------------------------
    def _armour_move(self, state: GameState, seat: str, t: _Turn, u: Platoon):
        if can_exploit_now(state, u) and self._exploit_ok(state):
            return action_for(state, seat, u.id, verb="exploit")
        aims = {o for o in t.objectives.values() if o is not None}
        self._exploiters = t.exploiters
        self._exploit_dist = t.exploit_field
        if u.where == OFF:
            if state.turn > self.w.last_entry:
                return None
            value = self._armour_values(state, u, aims)
            best_value = None
        elif u.on_board and u.fresh:
            value = self._armour_values(state, u, aims)
            best_value = value(u.hex, u.facing, True)
        else:
            return None
        best = None
        upper = value.upper if self.w.armour >= 0 else None  # a bound only while risk costs
        for verb, h, f in _armour_destinations(state, u):
            if upper is not None and best_value is not None and upper(h) <= best_value + 1e-9:
                continue  # even with no risk at all no facing here would be better
            v = value(h, u.facing if f is None else f, False)
            if best_value is None or v > best_value + 1e-9:
                best, best_value = (verb, h, f), v
        if best is None:
            return None
        verb, h, f = best
        return action_for(state, seat, u.id, h, f, verb)

    def _armour_value(self, state, u: Platoon, h: Hex, facing, aims, now: bool) -> float:
        """Covering fire it could give from ``h`` less the risk of ATGs reaching it there."""
        return self._armour_values(state, u, aims)(h, facing, now)

    def _armour_values(self, state, u: Platoon, aims):
        """:meth:`_armour_value` of ``u`` as a function of (hex, facing, now) for this state.

        What every hex shares (the Sight, each post's weight, the remembered risks) is
        looked up once; the fire each hex offers is kept in ``_fire_value`` while the
        Sight and the weights stay the same (the next armour platoon reads it too: armour
        pins alike from a hex).
        """
        w = self.w
        uid = u.id
        sight = self._sight(state)
        pin = sight.pin
        risks = self._risk_table(state)
        targets = self._armour_targets(state, aims)
        lo, hi = w.armour_range, MAX_RANGE
        if self._fire_seen[0] is not sight or self._fire_seen[1] is not targets:
            self._fire_seen, self._fire_value = (sight, targets), {}
        fire_value = self._fire_value
        exploiting = uid in self._exploiters
        pull, harm = w.exploit_pull, w.armour

        def fire(h: Hex) -> float:
            key = (uid[0], h)  # Sight.pin reads only the kind of platoon
            best = fire_value.get(key)
            if best is None:
                best = 0.0
                near = DIST[h]
                for e, weight in targets:
                    d = near[e]
                    if d > hi or d < lo:
                        continue
                    c = pin(uid, h, e)
                    if c and c / 6 * weight > best:
                        best = c / 6 * weight
                fire_value[key] = best
            return best

        forwards: dict[Hex, float] = {}

        def forward_of(h: Hex) -> float:
            got = forwards.get(h)
            if got is None:
                if exploiting:
                    got = -pull * self._exploit_steps(state, h)
                else:
                    got = 0.05 * h[1]
                forwards[h] = got
            return got

        def value(h: Hex, facing, now: bool) -> float:
            best = fire(h)
            risk = cached_risk(state, risks, h, facing, None)
            return (best if now else 0.8 * best) - harm * risk + forward_of(h)

        def upper(h: Hex) -> float:
            """The value of a move to ``h`` were the risk there nil: no facing beats it."""
            return 0.8 * fire(h) + forward_of(h)

        value.upper = upper
        return value

    def _armour_targets(self, state: GameState, aims) -> list[tuple[Hex, float]]:
        """(post, weight) of each enemy platoon armour may fire on, the aims counting double.

        The weights read the reveal odds (each post's counters, whether many are
        revealed) and ``aims``; they are kept while the enemy signature that
        :meth:`_risk_table` last saw and the aims stay the same.
        """
        key = (self._risk_key, frozenset(aims))
        if key != self._targets_key:
            self._targets_key = key
            self._targets = [
                (e, (1.0 + reveal_chance(state, e)) * (2.0 if e in aims else 1.0))
                for e, post in state.enemy.items()
                if post.platoon is not None
            ]
        return self._targets

    def _exploit_steps(self, state: GameState, h: Hex) -> float:
        """Armour's distance from leaving by the enemy edge (the road counts half)."""
        board = state.board
        if h in board.road_set:
            return (ENEMY_EDGE_ROW - h[1]) / 2
        return self._exploit_dist.get(h, 20.0)
