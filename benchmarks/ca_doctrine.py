"""Issue 26, a study: what the assault is worth once adjacent, and a doctrine attacker.

Run:  .venv/bin/python benchmarks/ca_doctrine.py --only micro [--seeds 2000]
      .venv/bin/python benchmarks/ca_doctrine.py --only density --games 200
      .venv/bin/python benchmarks/ca_doctrine.py --only games --games 400 --jobs 2
      .venv/bin/python benchmarks/ca_doctrine.py --only boards --games 100 --playouts 16
      .venv/bin/python benchmarks/ca_doctrine.py --only smoke --games 400

Every attacker built so far ties or loses to ending after turn 1 (benchmarks/README.md).
This study asks where, in one attack, the points go:

* **micro** — an isolated real enemy platoon in woods on an open board, nothing else on
  it. (a) Your company already next to it, fresh, assaults every turn with all its
  adjacent platoons (CA "Fire Attacks": only then does a modified 4+ break it): three
  platoons on alternate sides, three stacked in one hex, two on alternate sides. The post
  fires on up to 3 *mutually adjacent* hexes (CA "Enemy Fire"), and two hexes next to it
  touch only when they are neighbours round it, so platoons on alternate sides can never
  be caught by one burst. (b) The company 2 hexes away closes in one move, with and
  without two MMGs firing on the post in that turn's fire phase, then assaults.
* **density** — on fresh boards, how far each post is covered by the others: with a
  platoon on each of its best alternate sides, the expected losses per enemy phase they
  draw from the other posts a single platoon provokes, each post firing once
  (:func:`assault_cost`).
* **games** — :class:`DoctrinePolicy`, an attacker written from that doctrine rather
  than from steady: one post at a time, the company closes only together and onto
  alternate sides, MMGs, armour, mortars and idle rifles pin whatever threatens most, a
  stalled attack is given up, and the game is ended once no attack is left. Nine
  settings (:data:`PRESETS`): ``doctrine`` attacks only a post it reckons worth more
  than its cost; ``doctrine_close`` closes as soon as the company is staged, whatever
  the cover; ``doctrine_base`` adds a fire base (the next company takes post where it
  can pin the posts that support the one attacked); ``doctrine_bold`` also attacks
  posts it reckons a loss; ``doctrine_smoke`` lays smoke (CA "Mortars") while the
  company closes and assaults, where it reckons the enemy phase's losses cut most,
  ``doctrine_smoke_all`` while it stages too. ``doctrine_path`` also weighs each post by
  the losses of walking up to it along the safest way (:meth:`DoctrinePolicy.way_there`);
  ``doctrine_joint`` adds the joint close: the company steps next to the post only onto
  sides no single burst can reach together, at least two at once, and otherwise shifts
  behind such sides first (:meth:`DoctrinePolicy.close_plan`); ``doctrine_run`` adds a
  runner, sent after each break not yet matched by an exploit along the safest way off
  the enemy edge. The knob ``fronts`` lets several companies attack at once. Each game
  is valued by its expected score (``simulate.expected_at_end``) and paired with
  ``passive`` on the same seeds; the losses are counted by the attack's stage (approach
  and staging 2 hexes out, the close, the assault, the MMGs at the rear edge, other
  companies).
* **smoke** — each time ``doctrine_smoke_all`` calls smoke, the game forks on planning
  copies with the same dice, smoke against no mortar call: the losses of the enemy phase
  ahead and the score at the end, paired, beside the policy's own reckoning.
* **boards** — for each board, the doctrine played ``--playouts`` times from turn 1 on
  planning copies (dice from the study's own numbers), against ending after turn 1: the
  mean gain a planner could bank by attacking only on the boards where attacking pays
  (an upper bound for a ``best``-style search that uses this policy as its playouts).

Nothing here is used by the shipped bots or the coach; the policy asks the engine for
every number (hit chances, reveal odds, pin chances, mortar spotting) and :func:`check`
for every order.
"""

from __future__ import annotations

import argparse
import copy
import heapq
import random
import statistics
from collections import Counter
from dataclasses import dataclass, replace
from multiprocessing import Pool

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms import enemy, mortars, new_game
from hexclass.classroom.combined_arms.actions import CallMortar, DeclareFire, EndGame, Face
from hexclass.classroom.combined_arms.board import DEFENSIVE, DIST
from hexclass.classroom.combined_arms.bots.approach import mortar_risk
from hexclass.classroom.combined_arms.bots.assessment import facing_towards
from hexclass.classroom.combined_arms.bots.base import (
    MAX_ACTIONS_PER_PHASE,
    PassivePolicy,
    _close_phase,
    decide,
    play_out,
)
from hexclass.classroom.combined_arms.engine import apply, check
from hexclass.classroom.combined_arms.intent import action_for
from hexclass.classroom.combined_arms.lines import friendly_line
from hexclass.classroom.combined_arms.mortars import enemy_phase_smoke
from hexclass.classroom.combined_arms.movement import entries_and_moves
from hexclass.classroom.combined_arms.outlook import end_value, planning_copy
from hexclass.classroom.combined_arms.positions import (
    Position,
    board_from_rows,
    state_from_position,
)
from hexclass.classroom.combined_arms.quick import (
    alternate_sides,
    armour_risk_at,
    assault_sides,
    atg_chance,
    can_exploit_now,
    company_draw,
    he_targets,
    pin_chances,
    reveal_chance,
)
from hexclass.classroom.combined_arms.simulate import board_baseline, expected_at_end
from hexclass.classroom.combined_arms.state import Options
from hexclass.classroom.combined_arms.units import BOARD, COMPANIES, OFF, REAL, Platoon

LOSS = 0.25  # score points per infantry loss: 8 losses break a platoon, -2 (CA "Victory")
STEP = 0.01  # a way's cost per hex besides its fire, so that the safest way also goes forward
P = "player"

# --- the micro study -------------------------------------------------------------------------

OPEN_ROWS = [
    "    . . . r . . .",
    "   . . . . r . . .",
    "  . . . . r . . . .",
    " . . . . . r . . . .",
    ". . . w . r . . . . .",
    " . . . . . r . . . .",
    "  . . . . r . . . .",
    "   . . . . r . . .",
    "    . . . r . . .",
]
POST = "5d"


def spaced_neighbours(board, post, n: int) -> list:
    """``n`` hexes next to ``post`` with no two touching (at most 3 exist)."""
    out: list = []
    for h in sorted(board.neighbours_on_board[post]):
        if all(DIST[h][o] > 1 for o in out):
            out.append(h)
    return out[:n]


def micro_position(layout: str, mmgs: bool = False) -> Position:
    """The isolated post and a company: ``spread3``, ``stack3``, ``spread2`` next to it,
    or ``close3`` two hexes out behind the three alternate sides (MMGs 3 hexes out)."""
    board = board_from_rows(OPEN_ROWS)
    post = board.hex_at(POST)
    sides = spaced_neighbours(board, post, 3)
    if layout == "stack3":
        spots = [sides[0]] * 3
    elif layout == "spread2":
        spots = sides[:2]
    elif layout == "spread3":
        spots = sides
    else:  # close3: one hex further out, each behind its own side
        spots = [
            min((h for h in board.neighbours_on_board[s] if DIST[h][post] == 2), key=lambda h: h)
            for s in sides
        ]
    units = [{"id": f"D{i + 1}", "hex": board.label(h)} for i, h in enumerate(spots)]
    if mmgs:
        units += [
            {"id": m, "hex": board.label(h)}
            for m, h in zip(("M1", "M2"), clear_mmg_hexes(board, post, sides))
        ]
    return _position(layout, units)


def _position(title: str, units: list) -> Position:
    return Position.from_dict(
        {
            "position": {"title": f"isolated post, {title}"},
            "tracks": {"phase": "friendly_move", "turn": 5},
            "board": {"rows": OPEN_ROWS},
            "unit": units,
            "enemy": [{"hex": POST, "platoon": "real"}],
        }
    )


def clear_mmg_hexes(board, post, sides) -> list:
    """Hexes 3 out on our side whose line to the post no closed-in rifle blocks
    (CA "Fire Attacks": an intervening rifle platoon blocks your own fire)."""
    closed = _position(
        "closed", [{"id": f"D{i + 1}", "hex": board.label(h)} for i, h in enumerate(sides)]
    )
    st = state_from_position(closed)
    out = []
    for h in sorted(board.hexes):
        if DIST[h][post] != 3 or h[1] >= post[1] or h in board.closed_side_edge:
            continue
        if not friendly_line(st, h, post).blocked and all(DIST[h][o] > 1 for o in out):
            out.append(h)
    return out[:2]


def play_micro(pos: Position, seed: int, turns: int = 6) -> dict:
    """Close (if 2 hexes out), then assault with every adjacent platoon each turn."""
    st = state_from_position(pos, seed, Options(auto_decisions=True))
    post = st.board.hex_at(POST)
    first, fired = st.turn, set()
    while not st.over and st.enemy_platoons_broken == 0 and st.turn < first + turns:
        if st.pending is not None:
            apply(st, decide(st, P))
            continue
        if st.phase == "friendly_move" and st.turn == first and (st.turn, "move") not in fired:
            fired.add((st.turn, "move"))
            for u in sorted(st.units.values(), key=lambda u: u.id):
                if u.is_rifle and u.on_board and DIST[u.hex][post] == 2:
                    step = next(
                        (
                            h
                            for h in st.board.neighbours_on_board[u.hex]
                            if DIST[h][post] == 1
                            and check(st, action_for(st, P, u.id, h)) is None
                            and not any(DIST[h][g] <= 1 for g in st.at if g != u.hex)
                        ),
                        None,
                    )
                    if step is not None:
                        apply(st, action_for(st, P, u.id, step))
        if st.phase == "friendly_fire" and st.declaration is None and st.turn not in fired:
            fired.add(st.turn)
            adjacent = tuple(
                u.id
                for u in st.units.values()
                if u.on_board and u.fresh and u.is_rifle and DIST[u.hex][post] == 1
            )
            covering = tuple(u.id for u in st.units.values() if u.on_board and u.fresh and u.is_mmg)
            for firers in (adjacent, covering):  # platoons that closed this turn are spent
                a = DeclareFire(P, post, firers, True)
                if firers and check(st, a) is None:
                    apply(st, a)
                    break  # one declaration a turn: the assault, or the cover while closing
            if st.enemy_platoons_broken:
                break
        apply(st, _close_phase(st, P))
    return {
        "broken": st.enemy_platoons_broken,
        "turns": st.turn - first + 1,
        "losses": st.losses + 8 * len(st.broken_friendly()),
        "own broken": len(st.broken_friendly()),
    }


def micro(seeds: int) -> None:
    print(f"\nisolated real post in woods, {seeds} dice seeds each, per attack")
    print("| company | post broken | turns | losses | own platoons broken |")
    print("| --- | --- | --- | --- | --- |")
    for layout, mmgs, words in (
        ("spread3", False, "3 next to it, alternate sides"),
        ("stack3", False, "3 next to it, one hex"),
        ("spread2", False, "2 next to it, alternate sides"),
        ("close3", False, "3 close from 2 hexes, no cover"),
        ("close3", True, "3 close from 2 hexes, 2 MMGs pin it"),
    ):
        pos = micro_position(layout, mmgs)
        rows = [play_micro(pos, s) for s in range(seeds)]
        m = {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}
        print(
            f"| {words} | {m['broken']:.1%} | {m['turns']:.2f} | {m['losses']:.2f} | "
            f"{m['own broken']:.3f} |"
        )


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


# --- the games and the boards ---------------------------------------------------------------------


def policy(name: str):
    return (
        PassivePolicy(random.Random(0))
        if name == "passive"
        else DoctrinePolicy(PRESETS[name], name)
    )


def stage_of(pol, state, h) -> str:
    """Which part of an attack the platoons in ``h`` were in when hit."""
    companies = {i[0] for i in state.at.get(h, ()) if i[0] in COMPANIES}
    if not companies:
        return "MMGs"
    c = min(companies)
    return pol.modes[c][0] if c in pol.active and c in pol.modes else "other companies"


def one_game(args) -> dict:
    name, seed = args
    fresh = lambda: new_game(seed, Options(auto_decisions=True))  # noqa: E731
    st, pol = fresh(), policy(name)
    losses: Counter = Counter()
    seen = 0
    for _ in range(20 * 2 * (MAX_ACTIONS_PER_PHASE + 2)):
        if st.over:
            break
        apply(st, pol.act(st, P))
        for ev in st.events[seen:]:
            if ev.kind == "losses" and ev.data.get("added") and name != "passive":
                losses[stage_of(pol, st, ev.data["hex"])] += ev.data["added"]
        seen = len(st.events)
    st = play_out(st, PassivePolicy(random.Random(0)))  # a dawdler's phases are closed
    return {
        "name": name,
        "seed": seed,
        "expected": expected_at_end(st, fresh),
        "turns": st.result.turns,
        "enemy_broken": st.enemy_platoons_broken,
        "own_broken": len(st.broken_friendly()),
        "exploited": len(st.exploited()),
        "smoke": sum(1 for ev in st.events if ev.kind == "mortar" and ev.data.get("smoke")),
        "losses": dict(losses),
    }


def games(n: int, seed: int, jobs: int, names: list[str]) -> None:
    tasks = [(p, s) for s in range(seed, seed + n) for p in ["passive", *names]]
    with Pool(jobs) as pool:
        rows = pool.map(one_game, tasks, chunksize=8)
    base = {r["seed"]: r["expected"] for r in rows if r["name"] == "passive"}
    print(f"\nthe doctrine attacker, seeds {seed}-{seed + n - 1}, each game by its expected score")
    print(
        "| policy | − passive (95 %) | turns | enemy / own platoons broken | exploited "
        "| smoke rounds | losses by stage |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        got = [r for r in rows if r["name"] == name]
        d = [r["expected"] - base[r["seed"]] for r in got]
        m, h = statistics.fmean(d), 1.96 * statistics.stdev(d) / len(d) ** 0.5
        stages: Counter = Counter()
        for r in got:
            stages.update(r["losses"])
        by = ", ".join(f"{k} {v / n:.2f}" for k, v in stages.most_common())
        print(
            f"| {name} | {m:+.2f} ({m - h:+.2f} to {m + h:+.2f}) | "
            f"{statistics.fmean(r['turns'] for r in got):.1f} | "
            f"{statistics.fmean(r['enemy_broken'] for r in got):.2f} / "
            f"{statistics.fmean(r['own_broken'] for r in got):.2f} | "
            f"{statistics.fmean(r['exploited'] for r in got):.2f} | "
            f"{statistics.fmean(r['smoke'] for r in got):.2f} | {by} |"
        )


def board_value(args) -> tuple[int, float, float]:
    seed, playouts, name = args
    g = new_game(seed, Options(auto_decisions=True))
    rng = random.Random(seed)
    values = []
    for _ in range(playouts):
        c = planning_copy(g, random.Random(rng.getrandbits(62)))
        pol = DoctrinePolicy(PRESETS[name], name)
        for _ in range(20 * 2 * (MAX_ACTIONS_PER_PHASE + 2)):
            if c.over:
                break
            a = pol.act(c, P)
            if isinstance(a, EndGame):
                break
            apply(c, a)
        values.append(c.result.total if c.over else end_value(c)[0])
    return seed, board_baseline(seed)[0], statistics.fmean(values)


def boards(n: int, seed: int, jobs: int, playouts: int, name: str) -> None:
    with Pool(jobs) as pool:
        rows = pool.map(board_value, [(s, playouts, name) for s in range(seed, seed + n)])
    gains = [v - base for _, base, v in rows]
    print(
        f"\n{name} on {n} boards, {playouts} playouts each from turn 1: mean gain over ending "
        f"after turn 1 {statistics.fmean(gains):+.2f}; boards where attacking pays "
        f"{sum(g > 0 for g in gains)} of {n}; attacking only there would gain "
        f"{statistics.fmean(max(0.0, g) for g in gains):+.2f} a game (an upper bound: the "
        f"board's value is measured, not estimated)"
    )


def fork_value(state, pol, first, turn: int) -> tuple[int, float]:
    """Play a planning copy on with ``pol``: the losses added until the next turn's move
    phase (the enemy phase ahead), and the score at the end (as :func:`board_value`)."""
    seen = len(state.events)
    short = None
    if first is not None:
        apply(state, first)
    for _ in range(20 * 2 * (MAX_ACTIONS_PER_PHASE + 2)):
        if state.over:
            break
        if short is None and state.turn > turn and state.phase == "friendly_move":
            short = added_losses(state.events[seen:])
        a = pol.act(state, P)
        if isinstance(a, EndGame):
            break
        apply(state, a)
    short = added_losses(state.events[seen:]) if short is None else short
    return short, (state.result.total if state.over else end_value(state)[0])


def added_losses(events) -> int:
    """Infantry losses added (the track itself wraps at 8: CA "Losses")."""
    return sum(ev.data.get("added", 0) for ev in events if ev.kind == "losses")


def smoke_game(args) -> list[tuple]:
    """Each time ``doctrine_smoke_all`` calls smoke, the game forks on planning copies
    with the same dice: the smoke, or no mortar call (and no more smoke that game)."""
    seed, forks = args
    st = new_game(seed, Options(auto_decisions=True))
    pol = policy("doctrine_smoke_all")
    rows = []
    for _ in range(20 * 2 * (MAX_ACTIONS_PER_PHASE + 2)):
        if st.over:
            break
        a = pol.act(st, P)
        if isinstance(a, CallMortar) and a.smoke:
            kept = {h: t for h, t in st.smoke.items() if t > st.turn}
            falls = [
                [x for x in mortars.impact_hexes(a.target, k) if x in st.board.hex_set]
                for k in range(6)
            ]
            pins = pol.planned_pins(st)
            base = pol.exposure(st, kept, pins)
            said = base - statistics.fmean(
                pol.exposure(st, {**kept, **{h: st.turn + 1 for h in f}}, pins) for f in falls
            )
            rng = random.Random(seed * 1000 + st.turn)
            for _ in range(forks):
                dice = rng.getrandbits(62)
                got = []
                for smoke in (True, False):
                    c = planning_copy(st, random.Random(dice))
                    p = copy.deepcopy(pol)
                    p._phase = (c.uid, c.turn, c.phase)  # the copy's phase: keep its memory
                    if not smoke:
                        p.k = replace(p.k, smoke=False)
                        p._done.discard("mortar")
                    got.append(fork_value(c, p, a if smoke else None, st.turn))
                (s_short, s_end), (n_short, n_end) = got
                rows.append((s_short - n_short, s_end - n_end, said, base, n_short))
        if isinstance(a, EndGame):
            break
        apply(st, a)
    return rows


def smoke_forks(n: int, seed: int, jobs: int, forks: int) -> None:
    with Pool(jobs) as pool:
        games_ = pool.map(smoke_game, [(s, forks) for s in range(seed, seed + n)])
    rows = [r for g in games_ for r in g]
    half = lambda d: 1.96 * statistics.stdev(d) / len(d) ** 0.5  # noqa: E731
    short, end, said, base, none = ([r[i] for r in rows] for i in range(5))
    print(
        f"\nsmoke, seeds {seed}-{seed + n - 1}: {len(rows) // forks} smoke calls in "
        f"{sum(1 for g in games_ if g)} games, {forks} paired forks each. Smoke minus no "
        f"mortar call: losses in the enemy phase ahead {statistics.fmean(short):+.2f} "
        f"(± {half(short):.2f}), score at the end {statistics.fmean(end):+.2f} "
        f"(± {half(end):.2f}). The policy reckoned that enemy phase at "
        f"{statistics.fmean(base):.2f} losses without smoke and {statistics.fmean(said):.2f} "
        f"saved by it; the forks without smoke took {statistics.fmean(none):.2f}"
    )


def assault_cost(state, x) -> float | None:
    """Expected losses per enemy phase of a platoon on each of ``x``'s cheapest alternate
    sides (up to 3), each other post firing once (the engine's reading,
    :func:`~..quick.company_draw`); None if fewer than 2 alternate sides are left."""
    chosen = alternate_sides(assault_sides(state, x))
    return company_draw(state, chosen) if len(chosen) >= 2 else None


def density(n: int, seed: int) -> None:
    """How far every post is covered by the others, on fresh boards (turn 1)."""
    cheapest, unprovoked, posts = [], 0, []
    for s in range(seed, seed + n):
        g = new_game(s, Options(auto_decisions=True))
        live = [h for h, p in g.enemy.items() if p.platoon is not None]
        posts.append(len(live))
        costs = [c for c in (assault_cost(g, x) for x in live) if c is not None]
        unprovoked += sum(1 for c in costs if c == 0.0)
        cheapest.append(min(costs) if costs else None)
    got = [c for c in cheapest if c is not None]
    q = statistics.quantiles(got, n=4)
    print(
        f"\n{n} fresh boards: {statistics.fmean(posts):.1f} enemy posts a board; a post with 2+ "
        f"alternate sides not next to another post on {len(got)} boards; posts whose "
        f"alternate sides no other post would fire on: {unprovoked}; a platoon on each of the "
        f"cheapest post's best alternate sides draws between them, per enemy phase, median "
        f"{statistics.median(got):.2f} expected losses (quartiles {q[0]:.2f}, {q[2]:.2f}) "
        f"from the other posts alone, each firing once"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="micro,density,games,boards")
    ap.add_argument("--seeds", type=int, default=2000, help="micro: dice seeds per layout")
    ap.add_argument("--games", type=int, default=400, help="games (or boards) per policy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--playouts", type=int, default=16, help="boards: playouts per board")
    ap.add_argument("--policies", default=",".join(PRESETS))
    ap.add_argument("--forks", type=int, default=8, help="smoke: paired forks per smoke call")
    args = ap.parse_args()
    only = set(args.only.split(","))
    names = args.policies.split(",")
    if "micro" in only:
        micro(args.seeds)
    if "density" in only:
        density(args.games, args.seed)
    if "games" in only:
        games(args.games, args.seed, args.jobs, names)
    if "smoke" in only:
        smoke_forks(args.games, args.seed, args.jobs, args.forks)
    if "boards" in only:
        boards(args.games, args.seed, args.jobs, args.playouts, names[0])


if __name__ == "__main__":
    main()
