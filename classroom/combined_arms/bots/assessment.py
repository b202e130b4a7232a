"""The steady policy's assessment: what each hex costs in expected losses, what fire is
likely to pin, how much each enemy post threatens, remembered while nothing changes.

The numbers themselves come from the engine's fast forms (:mod:`..quick`); this module
only weighs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .. import enemy, fire, lines
from ..board import DIST
from ..lines import MAX_RANGE
from ..movement import entries_and_moves
from ..quick import (
    Sight,
    armour_risk_at,
    best_cluster_total,
    can_exploit_now,
    group_pin,
    reveal_chance,
)
from ..state import GameState
from ..units import (
    BOARD,
    COMPANIES,
    OFF,
    REAL,
    EnemyPost,
    Platoon,
)


def facing_towards(origin: Hex, target: Hex, prefer: int = 4) -> int | None:
    """A corner whose forward arc holds ``target``; ``prefer`` (the bottom) if it does."""
    if hg.in_arc(origin, prefer, target):
        return prefer
    for f in (prefer + 1, prefer - 1, prefer + 2, prefer - 2, prefer + 3):
        if hg.in_arc(origin, f % 6, target):
            return f % 6
    return None


# --- the steady policy -----------------------------------------------------------------------

HOLD, APPROACH, BOUND, CLOSE, ASSAULT, EXPLOIT = (
    "hold",
    "approach",
    "bound",
    "close",
    "assault",
    "exploit",
)


@dataclass
class _Turn:
    """What the steady policy works out once per move phase."""

    key: tuple
    objectives: dict[str, Hex | None] = field(default_factory=dict)
    mode: dict[str, str] = field(default_factory=dict)
    posts: list[tuple[Hex, EnemyPost, float]] = field(default_factory=list)
    step: dict[Hex, float] = field(default_factory=dict)
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
    # per hex, the posts (index in ``posts``, hex, faces, adjacent) that can hit it: read
    # from the hit tables and kept while the terrain, smoke and posts stay as they are
    raw: dict[Hex, list[tuple[int, Hex, int, bool]]] = field(default_factory=dict)
    # the start of a scan for ``raw`` that stopped early (see _raw_scan), kept with it
    raw_part: dict[Hex, tuple[list, list[int]]] = field(default_factory=dict)


class Assessment:
    """Exposure, danger, cover and threat estimates (a mixin of the steady policy)."""

    # _threat's table in use and the action it was looked up for (the tables, one
    # per layout, are the instance's _threat_tables)
    _layout_version: tuple | None = None
    _layout_armour: tuple = ()
    _threats_here: dict = {}
    # the table of _post_risk_table, set on the instance when first filled
    _post_risk_key: tuple | None = None
    _post_risks: dict = {}

    # --- exposure and cover ----------------------------------------------------------------
    def _sight(self, state: GameState) -> Sight:
        """The :class:`Sight` of the state as it is now.

        Rebuilt after an action only if it changed what a Sight reads (see
        :func:`_sight_signature`): in the fire phase most shots change none of it.
        """
        key = state.key()
        if key != self._sight_key:
            self._sight_key = key
            signature = _sight_signature(state)
            if signature != self._sight_signature or self._sight_now is None:
                sight = Sight(state)
                if self._sight_now is not None:
                    sight.keep_from(self._sight_now)
                self._sight_signature, self._sight_now = signature, sight
        return self._sight_now

    def _exposure(self, state: GameState, t: _Turn, h: Hex) -> list[tuple[Hex, float]]:
        """Expected losses one platoon in ``h`` would take from each post left unpinned."""
        got = t.exposure.get(h)
        if got is not None:
            return got
        raw = t.raw.get(h)
        if raw is None:
            raw = t.raw[h] = _raw_exposure(state, t, h)
        out = []
        posts = t.posts
        for k, ph, c, adj in raw:
            _, post, p_real = posts[k]
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
        crowds = [(DIST[x], len(ids)) for x, ids in state.at.items()]
        for h, post in state.enemy.items():
            if post.platoon is None:
                continue
            near = 0
            for row, n in crowds:
                if row[h] <= 3:
                    near += n
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

    def _armour_risk(self, state, uid: str, h: Hex, facing, only: Hex | None = None) -> float:
        """:func:`armour_risk`, remembered while the enemy stays as it is.

        Besides the enemy (see :func:`_enemy_signature`) the risk at a hex depends only
        on the facing and on whether a rifle platoon shares the hex (the close
        assault's -1), so it is kept across actions and turns until a counter changes.
        """
        return cached_risk(state, self._risk_table(state), h, facing, only)

    def _risk_table(self, state) -> dict[tuple, float]:
        """The remembered :func:`armour_risk` answers, emptied when the enemy changes."""
        version = state.key()
        if version != self._risk_version:
            self._risk_version = version
            key = _enemy_signature(state)
            if key != self._risk_key:
                self._risk_key, self._risk_cache = key, {}
        return self._risk_cache

    def _post_risk_table(self, state) -> dict[tuple, float]:
        """Remembered :func:`armour_risk` answers for fire from one post, kept per terrain.

        From one post the risk reads, of the enemy, only that post's counters and
        whether many are revealed (its reveal odds): :meth:`_threat_now` adds them to
        the key, so the table is emptied only when the terrain or smoke changes.
        """
        key = (state.board, lines.terrain_mask(state))
        if key != self._post_risk_key:
            self._post_risk_key, self._post_risks = key, {}
        return self._post_risks

    def _threat(self, state: GameState, h: Hex) -> float:
        """Score points the enemy post in ``h`` is likely to cost you if left fresh.

        :meth:`_threat_now`, remembered by all it reads: the post's counters and whether
        it is fresh, and :func:`_threat_layout` (your platoons, armour facings, terrain,
        smoke, the reveal odds). A position met again, say in the fire phase after a
        move phase in which nobody moved, is not weighed twice. The layout is worked
        out once per action.
        """
        post = state.enemy.get(h)
        if post is None:
            return 0.0
        version = state.key()
        if version != self._layout_version:
            self._layout_version = version
            layout = _threat_layout(state)
            self._layout_armour = layout[-1]
            table = self._threat_tables.get(layout)
            if table is None:
                if len(self._threat_tables) >= 32:
                    self._threat_tables = {}  # a long-lived coach's policy: forget old layouts
                table = self._threat_tables[layout] = {}
            self._threats_here = table
        key = (h, post.platoon, post.atg, post.atg_removed, post.fresh)
        got = self._threats_here.get(key)
        if got is None:
            got = self._threats_here[key] = self._threat_now(state, h, self._layout_armour)
        return got

    def _threat_now(self, state: GameState, h: Hex, armour=None) -> float:
        """What :meth:`_threat` remembers; ``armour``: (hex, facing) of each armour
        platoon on the board, as :func:`_threat_layout` lists them (found here if None)."""
        if armour is None:
            armour = _threat_layout(state)[-1]
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
            n = 0
            for i in ids:
                if i[0] != "A":
                    n += 1
            if n:
                adjacent = near[x] == 1
                v = n * c / 6 * (2 if adjacent else 1)
                if v > inf:
                    inf = v
                pay[x] = 2 * n * c * (3 if adjacent else 1)
        arm = 0.0
        risks = self._post_risk_table(state)
        mine = (post.platoon, post.atg, post.atg_removed, enemy.many_revealed(state))
        for ah, facing in armour:
            risk = cached_risk(state, risks, ah, facing, h, mine)
            if risk > arm:
                arm = risk
        value = inf * w.loss + arm * w.armour
        if post.platoon == REAL:
            return value
        adjacent = enemy.adjacent_to_friends(state, h)
        # the cluster payoff (= cluster_payoff(state, h)) counts only when not adjacent
        best = 0 if adjacent else best_cluster_total(pay)
        trigger = 1.0 if enemy.platoon_test_due(adjacent, True, best) else 0.15
        return value * reveal_chance(state, h) * trigger


def cached_risk(
    state, risks: dict, h: Hex, facing, only: Hex | None, enemy_key: tuple = ()
) -> float:
    """:func:`armour_risk` from the table ``risks``, worked out and kept on a miss.

    Besides the enemy the risk reads only the facing and whether a rifle platoon
    shares the hex (the close assault's -1), so that is the key, with ``enemy_key``
    for whatever of the enemy the table is not emptied on.
    """
    rifle = False  # a rifle platoon shares the hex
    ids = state.at.get(h)
    if ids:
        for x in ids:
            if x[0] in "DEF":
                rifle = True
                break
    k = (h, facing, only, rifle, enemy_key)
    got = risks.get(k)
    if got is None:
        got = risks[k] = armour_risk_at(state, h, facing, only)
    return got


def _raw_exposure(state: GameState, t: _Turn, h: Hex) -> list[tuple[int, Hex, int, bool]]:
    """(index in ``t.posts``, post hex, faces, adjacent) of each post with a shot at ``h``.

    For a caller that may stop early, :func:`_raw_scan` gives the same one at a time.
    """
    return list(_raw_entries(state, t, h))


def _raw_entries(state: GameState, t: _Turn, h: Hex, start: int = 0):
    """The entries of :func:`_raw_exposure`, from the post at index ``start`` on."""
    tables = t.hit_tables
    row = DIST[h]
    posts = t.posts
    reach = MAX_RANGE
    for k in range(start, len(posts)):
        ph = posts[k][0]
        if row[ph] > reach:
            continue  # out of range: no shot (CA "Enemy Fire"), as the hit table says
        table = tables[ph]
        c = table.get(h)
        if c is None:
            c = enemy.hit_chances(state, ph, h, table)
        if c:
            yield k, ph, c, row[ph] == 1


def _threat_layout(state: GameState) -> tuple:
    """All :meth:`Assessment._threat_now` reads besides the post's own counters, as one value.

    The board, terrain and smoke (the hit and risk tables), whether many counters are
    revealed (the reveal odds), where your platoons stand (the payoffs, adjacency and
    whether a rifle shares an armour's hex) and each armour platoon's hex and facing.
    """
    armour = tuple(
        (a.hex, a.facing) for a in state.units.values() if a.id[0] == "A" and a.where == BOARD
    )
    return (
        state.board,
        lines.terrain_mask(state),
        enemy.many_revealed(state),
        tuple((x, tuple(ids)) for x, ids in state.at.items()),
        armour,
    )


def _raw_scan(state: GameState, t: _Turn, h: Hex):
    """:func:`_raw_exposure` of ``h`` one entry at a time, each post scanned only once.

    A caller may stop early; the entries it saw are kept (``t.raw_part``) and given
    first to the next, which scans on from there. Once the scan ends, the whole
    list goes to ``t.raw``, as :func:`_raw_exposure` would have put it.
    """
    part = t.raw_part.get(h)
    if part is None:
        part = t.raw_part[h] = ([], [0])
    entries, start = part
    yield from entries
    for entry in _raw_entries(state, t, h, start[0]):
        entries.append(entry)
        start[0] = entry[0] + 1
        yield entry
    t.raw[h] = entries
    t.raw_part.pop(h, None)


def _sight_signature(state: GameState) -> tuple:
    """Everything a :class:`Sight` reads, as one value: two states alike here see alike.

    The state itself (its uid: a Sight reads the state it was made for), the terrain and smoke,
    where your platoons stand, which enemy counters are where (and revealed or not) and
    the enemy's mortar target; freshness on either side plays no part in the pin odds.
    """
    em = state.enemy_mortar
    return (
        state.uid,
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
    # what no assignment changes, worked out once: each firer's (hex, threat, faces)
    # where it has a shot, in the threats' order, and a rifle's ammo cost at each hex
    shots = {u.id: _shots(threats, faces[u.id]) for u in free}
    ammo = {h: rifle_cost(t) if rifle_cost else None for h, t in threats.items()}
    while free:
        best = None
        # group_pin of each hex's group so far, by its chance of no pin: adding a firer
        # with f faces multiplies that by (1 - f / 6), just as group_pin would
        miss = {}
        for h in threats:
            m = 1.0
            for g in plan.get(h, ()):
                m *= 1 - faces[g.id][h] / 6
            miss[h] = m
        for u in free:
            rifle = u.is_rifle
            for h, t, f in shots[u.id]:
                cost = 0.0
                if rifle:
                    c = ammo[h]
                    if c is None or fire.company_problem([*plan.get(h, []), u]) is not None:
                        continue
                    cost = c
                m = miss[h]
                gain = t * ((1 - m * (1 - f / 6)) - (1 - m)) - cost
                if gain > min_gain and (best is None or gain > best[0]):
                    best = (gain, u, h)
        if best is None:
            break
        _, u, h = best
        plan.setdefault(h, []).append(u)
        free.remove(u)
    return plan


def _shots(threats: dict[Hex, float], mine: dict[Hex, int]) -> list[tuple[Hex, float, int]]:
    """(hex, threat, faces) of each threatened hex a firer with pin faces ``mine`` can hit."""
    out = []
    for h, t in threats.items():
        f = mine.get(h, 0)
        if f:
            out.append((h, t, f))
    return out


def _move_order(state: GameState, done=()) -> list[str]:
    """Exploiters, MMGs, armour, then rifles; leaders first, so others follow where they were.

    Platoons in ``done`` are left out (the others keep their order).
    """
    units = [u for u in state.units.values() if u.where in (OFF, BOARD) and u.id not in done]
    rank = {"M": 1, "A": 2}

    def key(u: Platoon):
        first = 0 if can_exploit_now(state, u) else rank.get(u.id[0], 3)
        return (first, -(u.hex[1] if u.hex else -1), u.id)

    units.sort(key=key)
    return [u.id for u in units]


def _company(state: GameState, c: str) -> list[Platoon]:
    """The three rifle platoons of company ``c``."""
    units = state.units
    return [units[uid] for uid in _COMPANY_IDS[c]]


_COMPANY_IDS = {c: tuple(f"{c}{i}" for i in (1, 2, 3)) for c in COMPANIES}


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


def _armour_destinations(state: GameState, u: Platoon):
    """Where armour may enter or move to, as (verb, hex, facing)."""
    return list(entries_and_moves(state, u))
