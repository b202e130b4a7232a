"""Scripted attackers for Combined Arms: a careful "steady" policy, a bold one, baselines.

A policy looks at a :class:`~.state.GameState` and returns one action for a seat; it
never changes the state. :func:`play_game` runs a whole solitaire game with one, and
``POLICIES`` names them for ``hexclass simulate``.

``steady`` fights by fire and movement, one objective per rifle company and one company
attacking at a time:

* it picks objectives it can reach cheaply whose assault hexes few other enemy posts can
  fire on (an attack into crossfire costs more platoons than a break is worth);
* a company *approaches* through cover to 3 hexes, *bounds* to 2 hexes while mortars,
  MMGs and armour pin the objective at full odds (one platoon stays back to spot for
  the mortars if no MMG can), *closes* next to it once the covering fire that will be
  left (no mortars, the chart's -1) is likely to pin it, then *assaults* with every fresh
  platoon next to it: only then can a modified 4+ break it (CA "Fire Attacks");
* covering fire goes where it most cuts the enemy's expected fire; rifle platoons spend
  ammo on it only against big threats; armour turns to face its target first;
* MMGs come on where they can cover an objective and withdraw when they only draw fire;
  armour shoots from 3-5 hexes where revealed or likely ATGs cannot reach it;
* mortars fire high explosive on the most dangerous hex they may reach, and stand down
  a turn rather than stay tied to a poor target (CA "Mortars");
* it exploits off the enemy edge as many platoons as broken enemies let count (armour
  first), and ends the game when nothing is worth attacking, when it has lost more
  platoons than the enemy, or after turn 18 unless a break or exploit is in hand
  (CA "Victory").

``bold`` is the same policy with the caution off: it attacks whatever is nearest, two
companies at once, and plays on regardless. ``random`` picks uniformly among the legal actions (never ending the
game early) from a ``random.Random`` the caller seeds. ``passive`` ends the battle after
turn 1: the score the enemy's dice give for free, the yardstick a policy must beat.

Every policy is deterministic for a given game and seed, submits only actions that
:func:`~.engine.check` accepts, and ends each phase within a fixed number of actions.

>>> g = play_game(4, SteadyPolicy())
>>> g.over and g.result is not None
True
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol

from classroom import hexgrid as hg
from classroom.dice import chances
from classroom.hexgrid import Hex

from . import enemy, fire, lines, mortars
from .actions import (
    CallMortar,
    ChooseBroken,
    ChooseRollOrder,
    DeclareFire,
    EndGame,
    EndPhase,
    Enter,
    Exploit,
    Face,
    Move,
    ResolveFire,
    Withdraw,
)
from .board import DEFENSIVE, DIST
from .engine import apply, check, default_broken, legal_actions
from .game import new_game
from .lines import MAX_RANGE, friendly_line
from .state import LAST_TURN, TRACK_SIZE, GameState, Options
from .units import (
    ARMOUR_IDS,
    BOARD,
    COMPANIES,
    MMG_IDS,
    OFF,
    POTENTIAL,
    REAL,
    EnemyPost,
    Platoon,
)
from .victory import DEDUCTION_FROM

MAX_ACTIONS_PER_PHASE = 64  # a policy that has not ended a phase by then is made to
ENEMY_EDGE_ROW = 8


class Policy(Protocol):
    """Anything that can choose the next action for a seat."""

    name: str

    def act(self, state: GameState, seat: str):
        """The action ``seat`` takes now; it must pass :func:`~.engine.check`."""
        ...


# --- small odds helpers ----------------------------------------------------------------------


def infantry_hit_chances(state: GameState, post: Hex, h: Hex) -> int:
    """Faces (of 6) on which one enemy platoon in ``post`` pins infantry in ``h``.

    CA "Enemy Fire": +1 outside woods/crest/farm, -1 partly blocked, -1 per hex. The
    engine's own remembered numbers (:func:`~.enemy.hit_chances`).
    """
    return enemy.hit_chances(state, post, h)


def he_targets(state: GameState) -> dict[Hex, str]:
    """Enemy hexes your mortars may fire high explosive on now, each with a spotter.

    The same test as ``mortars.friendly_target_problem`` but asked only of enemy
    hexes, the only ones high explosive may be aimed at (CA "Mortars"): first what
    does not depend on the spotter, then the first spotter with a line to the hex.
    """
    spotters = mortars.friendly_spotters(state)
    out: dict[Hex, str] = {}
    if not spotters:
        return out
    prev = state.friendly_mortar
    tied = prev.hex if prev is not None and prev.turn == state.turn - 1 else None
    at = state.at
    neighbours = state.board.neighbours_on_board
    for h in sorted(state.enemy):
        if tied is not None and DIST[tied][h] > 1:
            continue  # last turn's target or a hex next to it
        if any(n in at for n in neighbours[h]):
            continue  # never on a hex next to your own platoons
        for sp in spotters:
            if lines.spotting_clear(state, sp.hex, h):
                out[h] = sp.id
                break
    return out


def _spotted_enemy_hexes(state: GameState) -> list[Hex]:
    """Enemy hexes high explosive could hit were the mortars free to switch target."""
    spotters = mortars.friendly_spotters(state)
    if not spotters:
        return []
    near = {n for h in state.at for n in state.board.neighbours_on_board[h]}
    return [
        h
        for h in sorted(state.enemy)
        if h not in near and any(lines.spotting_clear(state, sp.hex, h) for sp in spotters)
    ]


# The reveal odds depend only on a post's counters and on whether many are revealed
# already (CA "Enemy Decisions"), so each case is worked out once per process.
_REVEAL_CHANCES: dict[tuple, float] = {}
_ATG_CHANCES: dict[tuple, float] = {}


def reveal_chance(state: GameState, h: Hex) -> float:
    """Chance the platoon in ``h`` is (or proves) real (CA "Enemy Decisions")."""
    post = state.enemy[h]
    if post.platoon == REAL:
        return 1.0
    if post.platoon is None:
        return 0.0
    key = (post.atg, post.atg_removed, enemy.many_revealed(state))
    got = _REVEAL_CHANCES.get(key)
    if got is None:
        total = sum(m.value for m in enemy.platoon_reveal_modifiers(state, post))
        got = _REVEAL_CHANCES[key] = chances(total, enemy.REVEAL) / 6
    return got


def atg_chance(state: GameState, h: Hex) -> float:
    """Chance the ATGs in ``h`` are (or prove) real."""
    post = state.enemy[h]
    if post.atg == REAL:
        return 1.0
    if post.atg is None:
        return 0.0
    key = (post.platoon, enemy.many_revealed(state))
    got = _ATG_CHANCES.get(key)
    if got is None:
        total = sum(m.value for m in enemy.atg_reveal_modifiers(state, post))
        got = _ATG_CHANCES[key] = chances(total, enemy.REVEAL) / 6
    return got


def pin_chances(state: GameState, unit: Platoon, target: Hex) -> int:
    """Faces on which ``unit`` (at ``unit.hex``) pins ``target``; 0 if it cannot fire there.

    Armour may turn freely in the fire phase, so its arc is not asked about here.
    """
    if hg.distance(unit.hex, target) > MAX_RANGE or target not in state.enemy:
        return 0
    if friendly_line(state, unit.hex, target).blocked:
        return 0
    total = sum(m.value for m in fire.friendly_modifiers(state, unit, target))
    return chances(total, fire.PIN)


def group_pin(faces: Iterable[int]) -> float:
    """Chance at least one of several independent rolls pins."""
    miss = 1.0
    for f in faces:
        miss *= 1 - f / 6
    return 1 - miss


def facing_towards(origin: Hex, target: Hex, prefer: int = 4) -> int | None:
    """A corner whose forward arc holds ``target``; ``prefer`` (the bottom) if it does."""
    if hg.in_arc(origin, prefer, target):
        return prefer
    for f in (prefer + 1, prefer - 1, prefer + 2, prefer - 2, prefer + 3):
        if hg.in_arc(origin, f % 6, target):
            return f % 6
    return None


class Sight:
    """Who can hit what, for one unchanging state: fast, cached forms of the fire odds.

    ``pin`` gives the same faces as the engine's ``fire.friendly_modifiers`` (plus a
    blocked line meaning 0), ``hits`` the same as :func:`infantry_hit_chances`; both
    also answer for a firer placed hypothetically in another hex. Build a new one after
    any action: nothing here notices the state changing.
    """

    def __init__(self, state: GameState):
        self.state = state
        board = state.board
        self.terrain = lines.terrain_mask(state)
        self.rifles = state.rifle_mask()
        self.threats: dict[Hex, float] = {}
        self._adjacent: dict[Hex, tuple[bool, frozenset]] = {}
        self._pins: dict[tuple, int] = {}
        self._hatches: dict[Hex, bool] = {}
        self._crests = board.crest_set

    def adjacent(self, target: Hex) -> tuple[bool, frozenset]:
        """(any of your platoons next to ``target``, companies of rifles next to it)."""
        info = self._adjacent.get(target)
        if info is None:
            friends = self.state.friendly_adjacent(target)
            info = (bool(friends), frozenset(u.company for u in friends if u.is_rifle))
            self._adjacent[target] = info
        return info

    def hatches_open(self, h: Hex) -> bool:
        """CA "Fire Attacks": armour with no enemy counter or mortar target within 2."""
        ok = self._hatches.get(h)
        if ok is None:
            state = self.state
            em = state.enemy_mortar
            ok = not any(DIST[h][e] <= 2 for e in state.enemy) and (
                em is None or DIST[h][em.hex] > 2
            )
            self._hatches[h] = ok
        return ok

    def pin(self, unit_id: str, h: Hex, target: Hex) -> int:
        """Faces on which ``unit_id`` firing from ``h`` pins ``target`` (0: it cannot)."""
        kind = unit_id[0]  # company letter, or A(rmour) / M(MG)
        key = (kind, h, target)
        faces = self._pins.get(key)
        if faces is None:
            faces = self._pins[key] = self._pin(kind, h, target)
        return faces

    def pin_after_closing(self, unit_id: str, h: Hex, target: Hex, company: str) -> int:
        """Like :meth:`pin`, as it will be once ``company`` has a rifle next to ``target``."""
        _, companies = self.adjacent(target)
        return self._pin(unit_id[0], h, target, (True, companies | {company}))

    def _pin(self, kind: str, h: Hex, target: Hex, adjacent=None) -> int:
        state = self.state
        d = DIST[h][target]
        post = state.enemy.get(target)
        if post is None or not 1 <= d <= MAX_RANGE:
            return 0
        blockers = self.terrain
        if h not in self._crests and target not in self._crests:
            blockers |= self.rifles  # CA "Fire Attacks": rifles block unless either end is a crest
        through, along = lines.pair_masks(h, target)
        if through & blockers:
            return 0
        part = (along & blockers).bit_count()
        if part >= 2:
            return 0
        total = -part
        if kind == "A" and self.hatches_open(h):
            total += 1
        any_adjacent, companies = adjacent or self.adjacent(target)
        if post.platoon == POTENTIAL and not any_adjacent and d > 1:
            total += 1
        if d >= 2 and (companies - {kind}):
            total -= 1  # p.22 chart: a rifle platoon of another company next to the target
        total -= d // 2 if kind == "M" else d
        return chances(total, fire.PIN)

    def hits(self, post: Hex, h: Hex) -> int:
        """Faces on which an enemy platoon in ``post`` pins infantry in ``h``."""
        return enemy.hit_chances(self.state, post, h)


def cluster_payoff(
    state: GameState, post: Hex, assume_fresh: bool = True, hits: Callable | None = None
) -> int:
    """The best cluster payoff an enemy platoon in ``post`` sees (CA "Enemy Decisions").

    Your spent platoons recover before the enemy phase, so by default every infantry
    platoon counts 2, as it will when the enemy activates.
    """
    pay: dict[Hex, int] = {}
    table = None if hits else enemy.hit_table(state, post)
    near = DIST[post]
    for h, ids in state.at.items():
        n = sum((2 if assume_fresh or state.units[u].fresh else 1) for u in ids if u[0] != "A")
        if not n:
            continue
        c = hits(post, h) if hits else enemy.hit_chances(state, post, h, table)
        if c:
            pay[h] = n * c * (3 if near[h] == 1 else 1)
    return best_cluster_total(pay)


def best_cluster_total(pay: dict[Hex, int]) -> int:
    """The largest sum of payoffs over 1 to 3 mutually adjacent hexes (0 if none)."""
    if not pay:
        return 0
    best = max(pay.values())
    for a, b in combinations(pay, 2):
        if DIST[a][b] == 1:
            best = max(best, pay[a] + pay[b])
            for c in pay:
                if c not in (a, b) and DIST[a][c] == 1 and DIST[b][c] == 1:
                    best = max(best, pay[a] + pay[b] + pay[c])
    return best


# --- the steady policy -----------------------------------------------------------------------

HOLD, APPROACH, BOUND, CLOSE, ASSAULT, EXPLOIT = (
    "hold",
    "approach",
    "bound",
    "close",
    "assault",
    "exploit",
)


@dataclass(frozen=True)
class SteadyWeights:
    """Knobs of the steady policy, in score points (8 losses break a platoon: -2)."""

    loss: float = 0.3  # one infantry loss
    armour: float = 4.0  # an armour platoon broken
    open_step: float = 0.35  # extra path cost of an open hex
    near_enemy_step: float = 2.5  # extra path cost of a hex next to an enemy that is not the aim
    stack_penalty: float = 0.3  # per infantry platoon already in a hex the enemy mortars could hit
    caution: dict = field(
        default_factory=lambda: {
            HOLD: 8.0,
            APPROACH: 3.0,
            BOUND: 1.0,
            CLOSE: 1.0,
            ASSAULT: 1.0,
            EXPLOIT: 2.0,
        }
    )  # weight of expected losses against a step of progress, by company mode
    active_companies: int = 1  # companies attacking at once; the rest follow out of fire
    max_wait: int = 2  # turns a gathered company waits for better cover before closing anyway
    close_risk: float = 0.45  # most acceptable chance the objective is real and unpinned
    min_cover: float = 0.02  # smallest worthwhile gain in pin chance x threat to fire
    rifle_cover: float = 0.6  # threat above which a rifle spends ammo on covering fire
    armour_range: int = 3  # armour does not shoot from nearer than this
    end_turn: int = DEDUCTION_FROM + 1  # end before this turn unless playing on pays
    last_entry: int = 12  # no platoon enters after this turn
    mortar_shift: float = 0.5  # stand the mortars down if tied to less than this share of the best
    real_bonus: float = 1.5  # objective preference for a revealed enemy platoon, in steps
    max_crossfire: float = 0.2  # most expected losses from other posts at the assault hex
    crossfire: float = 3.0  # objective cost per expected loss from other posts there
    stop_loss: int = 1  # end once this many more of your platoons than theirs are broken
    mmg_entry: float = 0.3  # least worth (pin chance on objectives less danger) to bring an MMG on
    mmg_danger: float = 1.0  # weight of the losses an MMG would draw against its support
    exploit_pull: float = 0.6  # worth of each step towards the exit for armour sent to exploit
    end_when_idle: bool = True  # end the game once no attack is worth starting
    hold_off_board: bool = True  # companies waiting their turn stay off the board


@dataclass
class _Turn:
    """What the steady policy works out once per move phase."""

    key: tuple
    objectives: dict[str, Hex | None] = field(default_factory=dict)
    mode: dict[str, str] = field(default_factory=dict)
    posts: list[tuple[Hex, EnemyPost, float]] = field(default_factory=list)
    step: dict[Hex, float] = field(default_factory=dict)
    near: dict[Hex, list[Hex]] = field(default_factory=dict)
    exposure: dict[Hex, list[tuple[Hex, float]]] = field(default_factory=dict)
    cover: dict[Hex, float] | None = None
    close_cover: dict[Hex, float] = field(default_factory=dict)
    fields: dict[str, dict[Hex, float]] = field(default_factory=dict)
    exploiters: set[str] = field(default_factory=set)
    overwatch: set[str] = field(default_factory=set)
    exploit_field: dict[Hex, float] = field(default_factory=dict)
    hit_tables: dict[Hex, dict[Hex, int]] = field(default_factory=dict)
    crossfire: dict[Hex, float] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)


class SteadyPolicy:
    """A careful attacker; see the module docstring for the plan it follows."""

    name = "steady"

    def __init__(
        self,
        rng: random.Random | None = None,
        weights: SteadyWeights | None = None,
        name: str = "steady",
    ):
        self.name = name
        self.w = weights or SteadyWeights()
        self._turn: _Turn | None = None
        self._turn_now = _Turn(())
        self._objectives: dict[str, Hex | None] = {}
        self._phase_key: tuple | None = None
        self._phase_actions = 0
        self._fire_done: set[str] = set()
        self._committed: tuple[Hex, tuple[str, ...]] | None = None
        self._exploiters: set[str] = set()
        self._exploit_dist: dict[Hex, float] = {}
        self._waits: dict[str, int] = {}
        self._fire_value: dict[tuple[str, Hex], float] = {}
        self._sight_key: tuple | None = None
        self._threat_phase: tuple | None = None
        self._threat_cache: dict[tuple, float] = {}
        self._threat_version: tuple | None = None
        self._threat_on_board = 0
        self._risk_key: tuple | None = None
        self._risk_version: tuple | None = None
        self._risk_cache: dict[tuple, float] = {}
        self._sight_now: Sight | None = None
        self._sight_signature: tuple | None = None
        self._paths_key: tuple | None = None
        self._exposure_key: tuple | None = None
        self._exposures: tuple[dict, dict] = ({}, {})
        self._paths: tuple[dict, dict, dict] = ({}, {}, {})
        del rng  # the steady policy needs no randomness

    # --- the entry point -------------------------------------------------------------------
    def act(self, state: GameState, seat: str):
        """The next action for ``seat``: always one that :func:`check` accepts."""
        if state.pending is not None:
            return self._decide(state, seat)
        key = (id(state), state.turn, state.phase)
        if key != self._phase_key:
            self._phase_key, self._phase_actions = key, 0
            self._fire_done = set()
            self._committed = None
        self._phase_actions += 1
        action = None
        if self._phase_actions <= MAX_ACTIONS_PER_PHASE:
            if state.phase == "friendly_move":
                action = self._move_action(state, seat)
            elif state.phase == "friendly_fire":
                action = self._fire_action(state, seat)
        if action is not None and check(state, action) is None:
            return action
        return _close_phase(state, seat)

    def _decide(self, state: GameState, seat: str):
        """Answer the commander's choices: break an MMG before a rifle; roll as offered."""
        p = state.pending
        if p.kind == "break":
            cands = [state.units[u] for u in p.options]
            return ChooseBroken(seat, default_broken(cands).id)
        return ChooseRollOrder(seat, p.options[0])

    # --- move phase ------------------------------------------------------------------------
    def _move_action(self, state: GameState, seat: str):
        turn = self._plan_turn(state)
        if turn is None:
            return EndGame(seat)
        for uid in _move_order(state):
            if uid in turn.done:
                continue
            turn.done.add(uid)
            action = self._unit_move(state, seat, turn, state.units[uid])
            if action is not None and check(state, action) is None:
                return action
        return EndPhase(seat)

    def _plan_turn(self, state: GameState) -> _Turn | None:
        """Work out this turn's objectives and exposure map (None: end the game now)."""
        key = (id(state), state.turn)
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
            if _can_exploit_now(state, u) and room > 0:
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

    # --- exposure and cover ----------------------------------------------------------------
    def _sight(self, state: GameState) -> Sight:
        """The :class:`Sight` of the state as it is now.

        Rebuilt after an action only if it changed what a Sight reads (see
        :func:`_sight_signature`): in the fire phase most shots change none of it.
        """
        key = (id(state), len(state.actions), len(state.events))
        if key != self._sight_key:
            self._sight_key = key
            signature = _sight_signature(state)
            if signature != self._sight_signature or self._sight_now is None:
                self._sight_signature, self._sight_now = signature, Sight(state)
        return self._sight_now

    def _exposure(self, state: GameState, t: _Turn, h: Hex) -> list[tuple[Hex, float]]:
        """Expected losses one platoon in ``h`` would take from each post left unpinned."""
        got = t.exposure.get(h)
        if got is not None:
            return got
        out = []
        tables = t.hit_tables
        for ph, post, p_real in t.posts:
            table = tables[ph]
            c = table.get(h)
            if c is None:
                c = enemy.hit_chances(state, ph, h, table)
            if not c:
                continue
            adj = DIST[ph][h] == 1
            act = 1.0 if post.platoon == REAL else p_real * (1.0 if adj or c >= 3 else 0.4)
            out.append((ph, act * c / 6 * (2 if adj else 1)))
        t.exposure[h] = out
        return out

    def _danger(self, state: GameState, t: _Turn, h: Hex, aim: Hex | None = None) -> float:
        """Expected losses for one platoon in ``h`` given the cover fire expected this turn."""
        cover = t.cover or {}
        total = 0.0
        for ph, v in self._exposure(state, t, h):
            q = t.close_cover.get(ph, 0.0) if ph == aim else cover.get(ph, 0.0)
            total += (1 - q) * v
        return total

    def _cover_estimates(self, state: GameState) -> dict[Hex, float]:
        """Rough chance each post is pinned this fire phase by MMGs, armour and mortars."""
        firers = [u for u in state.on_board() if u.fresh and not u.is_rifle]
        weights = {}
        for h, post in state.enemy.items():
            if post.platoon is None:
                continue
            near = sum(len(ids) for x, ids in state.at.items() if DIST[x][h] <= 3)
            weights[h] = reveal_chance(state, h) * (1 + near)
        sight = self._sight(state)
        faces = {u.id: {h: sight.pin(u.id, u.hex, h) for h in weights} for u in firers}
        plan = _greedy_groups(weights, firers, faces, 0.01)
        cover = {h: group_pin(faces[u.id][h] for u in group) for h, group in plan.items()}
        best = self._best_mortar_target(state)
        if best is not None:
            cover[best] = 1 - (1 - cover.get(best, 0.0)) / 6
        return cover

    def _close_cover(self, state: GameState, aim: Hex, company: str) -> float:
        """Chance MMGs and armour pin ``aim`` in the turn a company moves in next to it.

        Once your rifles are adjacent, the unrevealed bonus goes, distant firers take the
        chart's -1 for friends next to the target (CA "Fire Attacks") and the mortars may
        not fire on it (CA "Mortars").
        """
        sight = self._sight(state)
        faces = [
            sight.pin_after_closing(u.id, u.hex, aim, company)
            for u in state.on_board()
            if u.fresh and not u.is_rifle
        ]
        return group_pin(faces)

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
        break enemy platoons); rifle platoons go only when time is running out.
        """
        goal = [h for h in state.board.exploit_hexes if h not in state.enemy]
        t.exploit_field = self._distance_field(state, goal, None, ())
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

    def _objective_cost(self, state: GameState, units: list[Platoon], h: Hex) -> float | None:
        """Turns to reach an assault hex, plus the enemies crowding it; real posts pay more."""
        post = state.enemy[h]
        spots = _assault_hexes(state, h)
        if not spots:
            return None
        starts = [u.hex if u.on_board else None for u in units if u.where in (BOARD, OFF)]
        if not starts:
            return None
        t = self._turn_now
        crossfire = t.crossfire.get(h)
        if crossfire is None:  # the same for every company, kept while the enemy stands still
            crossfire = t.crossfire[h] = min(
                sum(v for ph, v in self._exposure(state, t, a) if ph != h) for a in spots
            )
        if crossfire > self.w.max_crossfire:
            return None  # other posts would cut the assault group to pieces
        cost = float(min(_approach_steps(s, a) for s in starts for a in spots))
        if post.platoon == REAL:
            cost -= self.w.real_bonus
        cost += self.w.crossfire * crossfire
        cost += 0.3 * abs(_centre_offset(state, h))
        return cost

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
            step, near_of = {}, {}
            for h in board.hexes:
                if h in state.enemy or h in board.closed_side_edge:
                    continue
                near = [n for n in board.neighbours_on_board[h] if n in state.enemy]
                cost = 1.0 + w.near_enemy_step * len(near)
                if board.terrain[h] not in DEFENSIVE:
                    cost += w.open_step
                step[h], near_of[h] = cost, near
            self._paths_key, self._paths = key, (step, near_of, {})
        t.step, t.near, _ = self._paths

    def _distance_field(self, state: GameState, goal, obj: Hex | None, forbid) -> dict[Hex, float]:
        """Path cost from every hex to the goal, preferring cover and shunning other enemies.

        Remembered with the step costs it is built on; callers only read it.
        """
        fields = self._paths[2]
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
        while heap:
            d, h = pop(heap)
            if h in dist:
                continue
            dist[h] = d
            for n in neighbours[h]:
                step = cost_of.get(n)
                if step is None or n in dist:
                    continue
                nd = d + step
                if nd < best.get(n, nd + 1.0):
                    best[n] = nd
                    push(heap, (nd, n))
        return dist

    # --- one unit's move -------------------------------------------------------------------
    def _unit_move(self, state: GameState, seat: str, t: _Turn, u: Platoon):
        if u.is_mmg:
            return self._mmg_move(state, seat, t, u)
        if u.is_armour:
            return self._armour_move(state, seat, t, u)
        if t.cover is None:
            t.cover = self._cover_estimates(state)  # once the armour has moved or stayed
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
            return Enter(seat, u.id, best[1])
        if u.on_board and u.fresh and self._mmg_value(state, t, u, u.hex, aims) < 0:
            return Withdraw(seat, u.id)
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
        if _can_exploit_now(state, u) and self._exploit_ok(state):
            return Exploit(seat, u.id)
        if u.id in t.exploiters:
            mode, obj, field_ = EXPLOIT, None, t.exploit_field
        elif u.on_board and obj is not None and DIST[u.hex][obj] == 1:
            return None  # next to the objective: stay and assault in the fire phase
        elif u.id in t.overwatch:
            return None  # stays fresh to call the mortars onto the objective
        options = self._rifle_options(state, seat, u)
        if not options:
            return None
        aim = obj if mode in (CLOSE, ASSAULT) else None
        best, best_score = None, None
        for action, h in options:
            score = self._rifle_score(state, t, u, h, field_, mode, aim)
            if best_score is None or score < best_score - 1e-9:
                best, best_score = action, score
        return best

    def _rifle_options(self, state: GameState, seat: str, u: Platoon):
        """Legal (action, hex) pairs; staying put is (None, here), or (None, None) off board."""
        out: list[tuple] = []
        if u.where == OFF:
            out.append((None, None))
            if state.turn > self.w.last_entry:
                return out
            for h in state.board.friendly_edge:
                a = Enter(seat, u.id, h)
                if check(state, a) is None:
                    out.append((a, h))
            return out
        if not u.on_board or not u.fresh:
            return out
        out.append((None, u.hex))
        for n in state.board.neighbours_on_board[u.hex]:
            a = Move(seat, u.id, n)
            if check(state, a) is None:
                out.append((a, n))
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
        if not any(n in state.enemy for n in state.board.neighbours_on_board[h]):
            crowd = sum(1 for x in state.at.get(h, ()) if x[0] != "A" and x != u.id)
            score += w.stack_penalty * crowd
        return score

    def _exploit_ok(self, state: GameState) -> bool:
        """Exploit while it scores: up to the enemy platoons broken, or at the very end."""
        room = state.enemy_platoons_broken - len(state.exploited())
        return room > 0 or state.turn >= self.w.end_turn - 1

    # --- armour ----------------------------------------------------------------------------
    def _armour_move(self, state: GameState, seat: str, t: _Turn, u: Platoon):
        if _can_exploit_now(state, u) and self._exploit_ok(state):
            return Exploit(seat, u.id)
        aims = {o for o in t.objectives.values() if o is not None}
        self._exploiters = t.exploiters
        self._exploit_dist = t.exploit_field
        self._fire_value = {}
        if u.where == OFF:
            if state.turn > self.w.last_entry:
                return None
            best, best_value = None, None
            options = [Enter(seat, u.id, h, f) for _, h, f in _armour_destinations(state, u)]
        elif u.on_board and u.fresh:
            best = None
            best_value = self._armour_value(state, u, u.hex, u.facing, aims, now=True)
            options = [Move(seat, u.id, h, f) for _, h, f in _armour_destinations(state, u)]
        else:
            return None
        for a in options:
            facing = u.facing if a.facing is None else a.facing
            v = self._armour_value(state, u, a.to, facing, aims, now=False)
            if best_value is None or v > best_value + 1e-9:
                best, best_value = a, v
        return best

    def _armour_value(self, state, u: Platoon, h: Hex, facing, aims, now: bool) -> float:
        """Covering fire it could give from ``h`` less the risk of ATGs reaching it there."""
        w = self.w
        key = (u.id, h)
        best = self._fire_value.get(key)
        if best is None:
            sight = self._sight(state)
            best = 0.0
            near = DIST[h]
            for e, post in state.enemy.items():
                d = near[e]
                if post.platoon is None or d > MAX_RANGE or d < w.armour_range:
                    continue
                c = sight.pin(u.id, h, e)
                if c:
                    weight = (1.0 + reveal_chance(state, e)) * (2.0 if e in aims else 1.0)
                    best = max(best, c / 6 * weight)
            self._fire_value[key] = best
        risk = self._armour_risk(state, u.id, h, facing)
        if u.id in self._exploiters:
            forward = -self.w.exploit_pull * self._exploit_steps(state, h)
        else:
            forward = 0.05 * h[1]
        return (best if now else 0.8 * best) - w.armour * risk + forward

    def _armour_risk(self, state, uid: str, h: Hex, facing, only: Hex | None = None) -> float:
        """:func:`armour_risk`, remembered while the enemy stays as it is.

        Besides the enemy (see :func:`_enemy_signature`) the risk at a hex depends only
        on the facing and on whether a rifle platoon shares the hex (the close
        assault's -1), so it is kept across actions and turns until a counter changes.
        """
        version = (id(state), len(state.actions), len(state.events))
        if version != self._risk_version:
            self._risk_version = version
            key = _enemy_signature(state)
            if key != self._risk_key:
                self._risk_key, self._risk_cache = key, {}
        ids = state.at.get(h)
        k = (h, facing, only, bool(ids) and any(x[0] in "DEF" for x in ids))
        got = self._risk_cache.get(k)
        if got is None:
            probe = Platoon(uid, BOARD, h, True, facing)
            got = self._risk_cache[k] = armour_risk(state, probe, only)
        return got

    def _exploit_steps(self, state: GameState, h: Hex) -> float:
        """Armour's distance from leaving by the enemy edge (the road counts half)."""
        board = state.board
        if h in board.road_set:
            return (ENEMY_EDGE_ROW - h[1]) / 2
        return self._exploit_dist.get(h, 20.0)

    # --- fire phase ------------------------------------------------------------------------
    def _fire_action(self, state: GameState, seat: str):
        if state.declaration is not None:
            return ResolveFire(seat)
        if "mortar" not in self._fire_done:
            self._fire_done.add("mortar")
            a = self._mortar_call(state, seat)
            if a is not None:
                return a
        while True:
            if self._committed is None:
                self._committed = self._assault(state) or self._covering_fire(state)
            if self._committed is None:
                return EndPhase(seat)
            target, ids = self._committed
            a = self._declare(state, seat, target, [state.units[i] for i in ids])
            if a is None or isinstance(a, DeclareFire):
                self._committed = None
                self._fire_done.update(ids)
            if a is not None:
                return a

    def _threat(self, state: GameState, h: Hex) -> float:
        """Score points the enemy post in ``h`` is likely to cost you if left fresh."""
        post = state.enemy.get(h)
        if post is None:
            return 0.0
        version = (id(state), len(state.actions), len(state.events))
        if version != self._threat_version:  # what the keys read, once per action
            self._threat_version = version
            phase = (id(state), state.turn, state.phase, len(state.exploited()))
            if phase != self._threat_phase:
                self._threat_phase, self._threat_cache = phase, {}
            self._threat_on_board = len(state.on_board())
        if state.phase == "friendly_fire":
            # nobody moves in the fire phase: a post's threat changes only with its state
            key = (h, post.platoon, post.atg, post.fresh, self._threat_on_board)
        else:
            key = (h, len(state.actions))
        got = self._threat_cache.get(key)
        if got is None:
            got = self._threat_cache[key] = self._threat_now(state, h)
        return got

    def _threat_now(self, state: GameState, h: Hex) -> float:
        post = state.enemy.get(h)
        if post is None or post.platoon is None or not post.fresh:
            return 0.0
        w = self.w
        inf = 0.0
        pay: dict[Hex, int] = {}  # cluster payoffs, every platoon fresh by the enemy phase
        table = enemy.hit_table(state, h)
        near = DIST[h]
        for x, ids in state.at.items():
            c = table.get(x)
            if c is None:
                c = enemy.hit_chances(state, h, x, table)
            if not c:
                continue
            n = sum(1 for i in ids if i[0] != "A")
            if n:
                adjacent = near[x] == 1
                inf = max(inf, n * c / 6 * (2 if adjacent else 1))
                pay[x] = 2 * n * c * (3 if adjacent else 1)
        arm = 0.0
        for a in state.units.values():
            if a.id[0] == "A" and a.where == BOARD:
                arm = max(arm, self._armour_risk(state, a.id, a.hex, a.facing, only=h))
        value = inf * w.loss + arm * w.armour
        if post.platoon == REAL:
            return value
        adjacent = enemy.adjacent_to_friends(state, h)
        payoff = best_cluster_total(pay)  # = cluster_payoff(state, h)
        trigger = 1.0 if adjacent or payoff >= enemy.PAYOFF_REVEAL else 0.15
        return value * reveal_chance(state, h) * trigger

    def _best_mortar_target(self, state: GameState) -> Hex | None:
        best, best_value = None, 0.05
        for h in he_targets(state):
            value = self._mortar_value(state, h)
            if value > best_value:
                best, best_value = h, value
        return best

    def _mortar_value(self, state: GameState, h: Hex) -> float:
        """Threat removed by bombs on ``h``: the hex itself for sure, each neighbour 1 in 3."""
        value = self._threat(state, h) * 5 / 6
        for n in state.board.neighbours_on_board[h]:
            if n in state.enemy:
                value += self._threat(state, n) * 5 / 18
        return value

    def _mortar_call(self, state: GameState, seat: str):
        """CA "Mortars": high explosive on the most dangerous hex the mortars may reach.

        After firing, the mortars may only shift to a neighbouring hex next turn; when
        that keeps them from a much better target, they stand down for a turn instead.
        """
        if state.mortar_called or state.engaged:
            return None
        best, best_value = None, 0.05
        for h, spotter in he_targets(state).items():
            value = self._mortar_value(state, h)
            if value > best_value:
                best, best_value = CallMortar(seat, h, spotter), value
        prev = state.friendly_mortar
        if prev is not None and prev.turn == state.turn - 1:
            elsewhere = max(
                (self._mortar_value(state, h) for h in _spotted_enemy_hexes(state)), default=0.0
            )
            if best_value < self.w.mortar_shift * elsewhere:
                return None
        return best

    def _assault(self, state: GameState) -> tuple[Hex, tuple[str, ...]] | None:
        """The next assault: an enemy hex with fresh rifle platoons next to it.

        CA "Fire Attacks": only when every firer is adjacent can a modified 4+ break the
        enemy, so the group is the adjacent rifles of one company (the one with most
        there) with any adjacent MMG and armour, and nobody further off joins in.
        """
        plans = []
        for h in sorted(state.enemy):
            if h in state.engaged or state.enemy[h].platoon is None:
                continue
            adj = [u for u in state.friendly_adjacent(h) if u.fresh and u.id not in self._fire_done]
            by_company: dict[str, list[str]] = {}
            for u in adj:
                if u.is_rifle:
                    by_company.setdefault(u.company, []).append(u.id)
            if not by_company:
                continue
            aim = {c for c, o in self._objectives.items() if o == h}
            c = max(sorted(by_company), key=lambda c: (len(by_company[c]), c in aim))
            support = [u.id for u in adj if not u.is_rifle]
            rank = (bool(aim), state.enemy[h].platoon == REAL, len(by_company[c]))
            plans.append((rank, h, tuple(by_company[c] + support)))
        if not plans:
            return None
        _, h, ids = max(plans)
        return h, ids

    def _declare(self, state: GameState, seat: str, target: Hex, firers: list[Platoon]):
        """Turn armour that needs it first, then commit the whole group at once."""
        usable = []
        for u in firers:
            if not (u.on_board and u.fresh):
                continue
            if u.is_armour and not hg.in_arc(u.hex, u.facing, target):
                f = facing_towards(u.hex, target)
                if f is not None and check(state, Face(seat, u.id, f)) is None:
                    return Face(seat, u.id, f)
                continue
            if fire.firer_problem(state, u, target) is None:
                usable.append(u)
        if fire.company_problem(usable) is not None:
            first = next(u.company for u in usable if u.is_rifle)
            usable = [u for u in usable if not u.is_rifle or u.company == first]
        if not usable:
            return None
        return DeclareFire(seat, target, tuple(u.id for u in usable), True)

    def _covering_fire(self, state: GameState):
        """Spend fresh firers where they most cut the chance of enemy fire next phase."""
        reserved = self._assault_reserved(state)
        firers = [
            u
            for u in state.on_board()
            if u.fresh and u.id not in reserved and u.id not in self._fire_done
        ]
        if not firers:
            return None
        assault_targets = {
            h
            for h in state.enemy
            if any(u.is_rifle and u.fresh for u in state.friendly_adjacent(h))
        }
        mortar = state.friendly_mortar
        mortar_hex = mortar.hex if state.mortar_called and mortar and not mortar.smoke else None
        threats = {}
        for h in state.enemy:
            if h in state.engaged or h in assault_targets:
                continue
            t = self._threat(state, h) * (1 / 6 if h == mortar_hex else 1.0)
            if t > 0:
                threats[h] = t
        sight = self._sight(state)
        faces = {u.id: {h: sight.pin(u.id, u.hex, h) for h in threats} for u in firers}
        plan = _greedy_groups(threats, firers, faces, self.w.min_cover, self._rifle_cost(state))
        if not plan:
            return None
        target, group = max(plan.items(), key=lambda kv: (len(kv[1]), kv[0]))
        return target, tuple(u.id for u in group)

    def _rifle_cost(self, state: GameState) -> Callable[[float], float | None]:
        """What a rifle's shot costs in ammo: none worth spending on small threats."""
        w = self.w

        def cost(threat: float) -> float | None:
            if threat < w.rifle_cover or state.ammo == TRACK_SIZE - 1:
                return None
            return 0.25

        return cost

    def _assault_reserved(self, state: GameState) -> set[str]:
        """Fresh rifle platoons next to an enemy keep their fire for an assault on it."""
        out = set()
        for h, post in state.enemy.items():
            if post.platoon is None or h in state.engaged:
                continue
            out.update(u.id for u in state.friendly_adjacent(h) if u.is_rifle and u.fresh)
        return out


def armour_risk(state: GameState, probe: Platoon, only: Hex | None = None) -> float:
    """Chance enemy fire breaks armour standing at ``probe`` this enemy phase.

    Real ATGs fire at up to 5 hexes; potential ATGs only reveal themselves (and fire)
    with 2+ chances in 6 or when adjacent; a platoon without ATGs only close assaults
    adjacent armour (CA "Enemy Fire", "Enemy Decisions").
    """
    h, facing = probe.hex, probe.facing
    blockers = lines.terrain_mask(state)
    survive = 1.0
    posts = [(only, state.enemy[only])] if only is not None else state.enemy.items()
    row = DIST[h]
    for e, post in posts:
        if post.platoon is None:
            continue
        d = row[e]
        if d > MAX_RANGE:
            continue
        p = 0.0
        if post.atg is not None:
            c = _armour_faces(state, e, h, facing, True, blockers)
            if post.atg == REAL:
                p = c / 6
            elif c >= enemy.ATG_CHANCES_REVEAL or d == 1:
                p = atg_chance(state, e) * c / 6
        if d == 1 and p == 0.0:
            c = _armour_faces(state, e, h, facing, False, blockers)
            p = reveal_chance(state, e) * c / 6
        survive *= 1 - p
    return 1 - survive


def _armour_faces(state, post: Hex, h: Hex, facing: int, with_atg: bool, blockers: int) -> int:
    """``enemy.armour_chances`` for armour at ``h`` facing ``facing``, terrain mask given."""
    total = enemy.armour_total(state, post, h, facing, with_atg, blockers)
    return 0 if total is None else chances(total, enemy.ARMOUR_BREAK)


def _sight_signature(state: GameState) -> tuple:
    """Everything a :class:`Sight` reads, as one value: two states alike here see alike.

    The state itself (a Sight keeps it, so its id is not reused), the terrain and smoke,
    where your platoons stand, which enemy counters are where (and revealed or not) and
    the enemy's mortar target; freshness on either side plays no part in the pin odds.
    """
    em = state.enemy_mortar
    return (
        id(state),
        lines.terrain_mask(state),
        tuple((h, tuple(ids)) for h, ids in state.at.items()),
        tuple((h, p.platoon) for h, p in state.enemy.items()),
        None if em is None else em.hex,
    )


def _enemy_signature(state: GameState) -> tuple:
    """Everything of the enemy's side that :func:`armour_risk` reads, as one value.

    The board (terrain, hull-down hexes), the smoke, whether many counters are revealed
    (the reveal odds) and each post's counters, in the order the posts are stored.
    """
    posts = tuple((h, p.platoon, p.atg, p.atg_removed) for h, p in state.enemy.items())
    return (state.board, lines.terrain_mask(state), enemy.many_revealed(state), posts)


def _greedy_groups(
    threats: dict[Hex, float],
    firers: list[Platoon],
    faces: dict[str, dict[Hex, int]],
    min_gain: float,
    rifle_cost: Callable[[float], float | None] | None = None,
) -> dict[Hex, list[Platoon]]:
    """Assign firers to hexes one at a time, always where threat x extra pin chance is largest.

    Rifle platoons of two companies never share a hex (CA "Fire Attacks"); a rifle is
    used only where ``rifle_cost`` allows, and its cost is taken off the gain.
    """
    plan: dict[Hex, list[Platoon]] = {}
    free = list(firers)
    while free:
        best = None
        for u in free:
            for h, t in threats.items():
                f = faces[u.id].get(h, 0)
                if not f:
                    continue
                group = plan.get(h, [])
                cost = 0.0
                if u.is_rifle:
                    c = rifle_cost(t) if rifle_cost else None
                    if c is None or fire.company_problem([*group, u]) is not None:
                        continue
                    cost = c
                before = [faces[g.id][h] for g in group]
                gain = t * (group_pin([*before, f]) - group_pin(before)) - cost
                if gain > min_gain and (best is None or gain > best[0]):
                    best = (gain, u, h)
        if best is None:
            break
        _, u, h = best
        plan.setdefault(h, []).append(u)
        free.remove(u)
    return plan


def state_seat(state: GameState) -> str:
    """The seat holding the overall command (the one that may end the game)."""
    return next((n for n, s in state.seats.items() if "command" in s.powers), "player")


def _close_phase(state: GameState, seat: str):
    """The action that ends whatever is open: resolve committed fire, else end the phase."""
    if state.pending is not None:
        p = state.pending
        if p.kind == "break":
            return ChooseBroken(seat, p.options[0])
        return ChooseRollOrder(seat, p.options[0])
    if state.declaration is not None:
        return ResolveFire(seat)
    return EndPhase(seat)


def _move_order(state: GameState) -> list[str]:
    """Exploiters, MMGs, armour, then rifles; leaders first, so others follow where they were."""
    units = [u for u in state.units.values() if u.where in (OFF, BOARD)]
    rank = {"M": 1, "A": 2}

    def key(u: Platoon):
        first = 0 if _can_exploit_now(state, u) else rank.get(u.id[0], 3)
        return (first, -(u.hex[1] if u.hex else -1), u.id)

    units.sort(key=key)
    return [u.id for u in units]


def _company(state: GameState, c: str) -> list[Platoon]:
    return [state.units[f"{c}{i}"] for i in (1, 2, 3)]


def _company_alive(state: GameState, c: str) -> bool:
    """Has the company a platoon still to come on, or on the board?"""
    return any(u.where in (OFF, BOARD) for u in _company(state, c))


def _assault_hexes(state: GameState, h: Hex) -> list[Hex]:
    """Hexes next to ``h`` a platoon could stand in to assault it."""
    board = state.board
    return [
        n
        for n in board.neighbours_on_board[h]
        if n not in state.enemy and n not in board.closed_side_edge
    ]


def _approach_steps(start: Hex | None, goal: Hex) -> int:
    """Moves to reach ``goal``: from off the board it is the row number plus the entry."""
    if start is None:
        return goal[1] + 1
    return DIST[start][goal]


def _centre_offset(state: GameState, h: Hex) -> int:
    """Columns from the road in the hex's row (negative: left of the road)."""
    road = state.board.road[h[1]]
    return state.board.column(h) - state.board.column(road)


def _can_exploit_now(state: GameState, u: Platoon) -> bool:
    """Could ``u`` leave by the enemy edge this move phase (CA "Movement")?"""
    if not (u.on_board and u.fresh) or u.is_mmg:
        return False
    board = state.board
    if u.hex in board.exploit_hexes:
        return True
    return u.is_armour and u.hex == board.road[-2]


def _armour_destinations(state: GameState, u: Platoon):
    from .movement import destinations

    return [d for d in destinations(state, u) if d[0] in ("enter", "move")]


# --- baselines -------------------------------------------------------------------------------


class RandomPolicy:
    """Uniform over the legal actions except ending the game; draws from the given rng."""

    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random(0)
        self._key: tuple | None = None
        self._count = 0

    def act(self, state: GameState, seat: str):
        key = (id(state), state.turn, state.phase)
        if key != self._key:
            self._key, self._count = key, 0
        self._count += 1
        if self._count > MAX_ACTIONS_PER_PHASE:
            return _close_phase(state, seat)
        options = [a for a in legal_actions(state, seat) if not isinstance(a, EndGame)]
        if not options:
            return _close_phase(state, seat)
        return options[self.rng.randrange(len(options))]


class PassivePolicy:
    """Never moves: ends the first turn, then ends the game (the free score)."""

    name = "passive"

    def __init__(self, rng: random.Random | None = None):
        del rng

    def act(self, state: GameState, seat: str):
        if state.pending is not None or state.declaration is not None:
            return _close_phase(state, seat)
        if check(state, EndGame(seat)) is None:
            return EndGame(seat)
        return EndPhase(seat)


# The steady policy with its caution switched off: it attacks the cheapest objective
# whatever the crossfire with two companies at once, never cuts its losses and never
# ends early.
BOLD = SteadyWeights(
    max_crossfire=99.0,
    stop_loss=99,
    end_when_idle=False,
    hold_off_board=False,
    active_companies=2,
)

POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    "steady": SteadyPolicy,
    "bold": lambda rng: SteadyPolicy(rng, BOLD, name="bold"),
    "random": RandomPolicy,
    "passive": PassivePolicy,
}


def make_policy(name: str, seed: int) -> Policy:
    """A fresh policy by registry name, with its own ``random.Random(seed)``."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(
            f"unknown policy {name!r}; expected one of {', '.join(POLICIES)}"
        ) from None
    return factory(random.Random(seed))


def play_game(
    seed: int,
    policy: Policy,
    options: Options | None = None,
    seat: str = "player",
    max_actions: int = 20 * 2 * (MAX_ACTIONS_PER_PHASE + 2),
) -> GameState:
    """Play one whole solitaire game with ``policy``; returns the finished state.

    ``apply`` raises :class:`~.reasons.IllegalAction` if the policy breaks a rule, so a
    faulty policy fails loudly. Games always end: after turn 20 the engine scores them.
    """
    state = new_game(seed, options or Options(auto_decisions=True))
    for _ in range(max_actions):
        if state.over:
            return state
        apply(state, policy.act(state, seat))
    while not state.over:  # a policy that dawdles past the cap: close every phase
        apply(state, _close_phase(state, seat))
    return state


__all__ = [
    "Policy",
    "SteadyPolicy",
    "SteadyWeights",
    "BOLD",
    "Sight",
    "RandomPolicy",
    "PassivePolicy",
    "POLICIES",
    "make_policy",
    "play_game",
    "LAST_TURN",
    "ARMOUR_IDS",
    "MMG_IDS",
]
