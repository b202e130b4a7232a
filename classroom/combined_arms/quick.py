"""The rules' numbers kept for bots and the coach: caching over the engine's own functions.

The fire odds and reveal triggers come from the engine's one function for each rule
(``fire.friendly_total``, ``lines.line_cost``, ``enemy.hit_chances``,
``enemy.atg_test_due``), kept so they can be asked thousands of times a turn: faces of
six for a pin or a hit, reveal chances, the hexes high explosive may be aimed at, an
enemy platoon's best cluster payoff, the chance enemy fire breaks armour standing in a
hex, whether a platoon may exploit now. ``tests/combined_arms/test_quick.py`` checks on
random positions that each agrees with the itemised rules.

>>> from hexclass.classroom.combined_arms import new_game
>>> g = new_game(4)
>>> h = sorted(g.enemy)[0]
>>> 0.0 <= reveal_chance(g, h) <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.dice import chances
from hexclass.classroom.hexgrid import Hex

from . import enemy, fire, lines, mortars
from .board import DIST
from .enemy import best_cluster_total
from .lines import friendly_line, within_range
from .movement import exploit_start
from .state import GameState
from .units import POTENTIAL, REAL, Platoon

# --- odds ----------------------------------------------------------------------


def infantry_hit_chances(state: GameState, post: Hex, h: Hex) -> int:
    """Faces (of 6) on which one enemy platoon in ``post`` pins infantry in ``h``.

    CA "Enemy Fire": +1 outside woods/crest/farm, -1 partly blocked, -1 per hex. The
    engine's own remembered numbers (:func:`~.enemy.hit_chances`).
    """
    return enemy.hit_chances(state, post, h)


def he_targets(state: GameState) -> dict[Hex, str]:
    """Enemy hexes your mortars may fire high explosive on now, each with a spotter.

    ``mortars.friendly_target_problem`` asked only of enemy hexes, the only ones high
    explosive may be aimed at (CA "Mortars"), with its own rule functions: first what
    does not depend on the spotter, then the first spotter with a line to the hex.
    """
    spotters = mortars.friendly_spotters(state)
    out: dict[Hex, str] = {}
    if not spotters:
        return out
    for h in sorted(state.enemy):
        if mortars.last_target_too_far(state, h) or mortars.own_platoon_next_to(state, h):
            continue
        for sp in spotters:
            if lines.spotting_clear(state, sp.hex, h):
                out[h] = sp.id
                break
    return out


def spotted_enemy_hexes(state: GameState) -> list[Hex]:
    """Enemy hexes high explosive could hit were the mortars free to switch target."""
    spotters = mortars.friendly_spotters(state)
    if not spotters:
        return []
    return [
        h
        for h in sorted(state.enemy)
        if mortars.own_platoon_next_to(state, h) is None
        and any(lines.spotting_clear(state, sp.hex, h) for sp in spotters)
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
    if not within_range(hg.distance(unit.hex, target)) or target not in state.enemy:
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
        self._old: Sight | None = None
        em = state.enemy_mortar
        self._enemy = (
            tuple((h, p.platoon) for h, p in state.enemy.items()),
            None if em is None else em.hex,
        )

    def keep_from(self, old: Sight) -> None:
        """Reuse ``old``'s answers that nothing since has changed, as they are asked for.

        For the same game state after moves that changed neither the terrain and
        smoke nor the enemy counters and mortar target, a pin reads nothing else but
        who is next to the target and the rifles standing on the line of fire (they
        block it unless either end is a crest): an old answer is taken over when
        the target's neighbours are as they were and no rifle came onto or left the
        line (see :meth:`_pin`).
        """
        if old.state is not self.state or old.terrain != self.terrain or old._enemy != self._enemy:
            return
        self._old = old
        old._old = None  # one step back only: the old Sight is done with
        self._moved = old.rifles ^ self.rifles
        self._same_target = {}

    def _inherited(self, key: tuple) -> int | None:
        """The answer ``keep_from`` may take over for ``key``, if any."""
        old = self._old
        faces = old._pins.get(key)
        if faces is None:
            return None
        _, h, target = key
        same = self._same_target.get(target)
        if same is None:
            same = self._same_target[target] = old._adjacent.get(target) == self.adjacent(target)
        if not same:
            return None
        moved = self._moved
        if moved and h not in self._crests and target not in self._crests:
            through, along = lines.pair_masks(h, target)
            if (through | along) & moved:
                return None
        return faces

    def adjacent(self, target: Hex) -> tuple[bool, frozenset]:
        """(any of your platoons next to ``target``, companies of rifles next to it)."""
        info = self._adjacent.get(target)
        if info is None:
            friends = self.state.friendly_adjacent(target)
            info = (bool(friends), frozenset(u.company for u in friends if u.is_rifle))
            self._adjacent[target] = info
        return info

    def hatches_open(self, h: Hex) -> bool:
        """:func:`~.fire.hatches_open_at`, kept per hex."""
        ok = self._hatches.get(h)
        if ok is None:
            ok = self._hatches[h] = fire.hatches_open_at(self.state, h)
        return ok

    def pin(self, unit_id: str, h: Hex, target: Hex) -> int:
        """Faces on which ``unit_id`` firing from ``h`` pins ``target`` (0: it cannot)."""
        if not within_range(DIST[h][target]):
            return 0  # out of range, as :meth:`_pin` would say: nothing to remember
        kind = unit_id[0]  # company letter, or A(rmour) / M(MG)
        key = (kind, h, target)
        faces = self._pins.get(key)
        if faces is None:
            if self._old is not None:
                faces = self._inherited(key)
            if faces is None:
                faces = self._pin(kind, h, target)
            self._pins[key] = faces
        return faces

    def pin_after_closing(self, unit_id: str, h: Hex, target: Hex, company: str) -> int:
        """Like :meth:`pin`, as it will be once ``company`` has a rifle next to ``target``."""
        _, companies = self.adjacent(target)
        return self._pin(unit_id[0], h, target, (True, companies | {company}))

    def _pin(self, kind: str, h: Hex, target: Hex, adjacent=None) -> int:
        """:func:`~.fire.friendly_total` for a firer of ``kind`` in ``h`` (0: no shot)."""
        state = self.state
        d = DIST[h][target]
        post = state.enemy.get(target)
        if post is None or not within_range(d):
            return 0
        crest_end = h in self._crests or target in self._crests
        part = lines.line_cost(
            h, target, lines.friendly_blockers(self.terrain, self.rifles, crest_end)
        )
        if part is None:
            return 0
        any_adjacent, companies = adjacent or self.adjacent(target)
        total = fire.friendly_total(
            kind,
            d,
            part,
            kind == "A" and self.hatches_open(h),
            post.platoon == POTENTIAL,
            state.options.enemy_player,
            any_adjacent or d == 1,  # a firer placed next to the target is adjacent
            fire.other_company_rifles(kind, companies),
        )
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


@dataclass(frozen=True)
class SideCover:
    """A hex next to an enemy post, and the fire the *other* posts would put there."""

    side: Hex
    losses: float  # expected losses of one fresh platoon there in the next enemy phase
    posts: tuple[Hex, ...]  # the other posts that would fire on it


def assault_sides(state: GameState, post: Hex) -> list[SideCover]:
    """The hexes a rifle platoon could assault ``post`` from, with the other posts' fire.

    A side next to another post is left out: that post would be tested and fire at 1
    hex (CA "Enemy Decisions"). On the others, one fresh platoon draws fire from every
    real post in range and line, and from every unrevealed one it provokes (a payoff of
    :data:`~.enemy.PAYOFF_REVEAL`), each weighed by the chance it is real (CA "Enemy
    Fire"). Your own covering fire is not counted. Cheapest first.
    """
    live = [h for h, p in state.enemy.items() if p.platoon is not None and h != post]
    board = state.board
    out = []
    for a in board.neighbours_on_board[post]:
        if a in state.enemy or a in board.closed_side_edge or any(DIST[e][a] == 1 for e in live):
            continue
        losses, posts = 0.0, []
        for e in live:
            c = enemy.hit_chances(state, e, a) if within_range(DIST[e][a]) else 0
            real = state.enemy[e].platoon == REAL
            if c and (real or enemy.payoff(2, c, False) >= enemy.PAYOFF_REVEAL):
                losses += reveal_chance(state, e) * c / 6
                posts.append(e)
        out.append(SideCover(a, losses, tuple(sorted(posts))))
    return sorted(out, key=lambda s: (s.losses, s.side))


def alternate_sides(sides: list[SideCover], n: int = 3) -> list[SideCover]:
    """Up to ``n`` of ``sides``, cheapest first, no two touching: a post fires on up to 3
    *mutually adjacent* hexes (CA "Enemy Fire"), so platoons there never share a burst."""
    out: list[SideCover] = []
    for s in sides:
        if len(out) < n and all(DIST[s.side][o.side] > 1 for o in out):
            out.append(s)
    return out


@dataclass(frozen=True)
class PostCover:
    """How well the other posts cover one post: its cheapest alternate sides."""

    post: Hex
    losses: float  # mean expected losses of one platoon alone on one of those sides
    sides: tuple[SideCover, ...]
    draw: float = 0.0  # expected losses of a platoon on each of those sides: see company_draw

    @property
    def covering(self) -> tuple[Hex, ...]:
        """The other posts that would fire on those sides."""
        return tuple(sorted({e for s in self.sides for e in s.posts}))


def company_draw(state: GameState, sides: list[SideCover]) -> float:
    """Expected losses per enemy phase of a company with one platoon on each of ``sides``.

    Each covering post fires once, on one cluster (CA "Enemy Decisions"), and no two
    alternate sides share a cluster, so a post that reaches several of them hits only
    the one where its chances are best; each post is weighed by the chance it is real.
    """
    best: dict[Hex, float] = {}
    for s in sides:
        for e in s.posts:
            p = reveal_chance(state, e) * enemy.hit_chances(state, e, s.side) / 6
            best[e] = max(best.get(e, 0.0), p)
    return sum(best.values())


def covered_posts(state: GameState) -> list[PostCover]:
    """Every live post with 2 or more alternate sides, least covered first (by the fire a
    company on those sides would draw)."""
    out = []
    for h, post in sorted(state.enemy.items()):
        sides = alternate_sides(assault_sides(state, h)) if post.platoon is not None else []
        if len(sides) >= 2:
            mean = sum(s.losses for s in sides) / len(sides)
            out.append(PostCover(h, mean, tuple(sides), company_draw(state, sides)))
    return sorted(out, key=lambda c: (c.draw, c.losses, c.post))


def armour_risk(state: GameState, probe: Platoon, only: Hex | None = None) -> float:
    """Chance enemy fire breaks armour standing at ``probe`` this enemy phase.

    Real ATGs fire at up to 5 hexes; potential ATGs only reveal themselves (and fire)
    with 2+ chances in 6 or when adjacent; a platoon without ATGs only close assaults
    adjacent armour (CA "Enemy Fire", "Enemy Decisions").
    """
    return armour_risk_at(state, probe.hex, probe.facing, only)


def armour_risk_at(state: GameState, h: Hex, facing: int, only: Hex | None = None) -> float:
    """:func:`armour_risk` of armour standing in ``h`` with ``facing``."""
    blockers = lines.terrain_mask(state)
    survive = 1.0
    posts = [(only, state.enemy[only])] if only is not None else state.enemy.items()
    row = DIST[h]
    for e, post in posts:
        if post.platoon is None:
            continue
        d = row[e]
        if not within_range(d):
            continue
        p = 0.0
        if post.atg is not None:
            c = armour_faces(state, e, h, facing, True, blockers)
            if post.atg == REAL:
                p = c / 6
            elif enemy.atg_test_due(d == 1, True, c):  # as if this were the best-placed armour
                p = atg_chance(state, e) * c / 6
        if d == 1 and p == 0.0:
            c = armour_faces(state, e, h, facing, False, blockers)
            p = reveal_chance(state, e) * c / 6
        survive *= 1 - p
    return 1 - survive


def armour_faces(state, post: Hex, h: Hex, facing: int, with_atg: bool, blockers: int) -> int:
    """``enemy.armour_chances`` for armour at ``h`` facing ``facing``, terrain mask given."""
    total = enemy.armour_total(state, post, h, facing, with_atg, blockers)
    return 0 if total is None else chances(total, enemy.ARMOUR_BREAK)


def can_exploit_now(state: GameState, u: Platoon) -> bool:
    """Could ``u`` leave by the enemy edge this move phase? The engine's rule of where
    exploiting starts (:func:`~.movement.exploit_start`, CA "Movement"), without running
    armour's road hex by hex."""
    return exploit_start(state.board, u) is not None


__all__ = [
    "PostCover",
    "SideCover",
    "covered_posts",
    "Sight",
    "alternate_sides",
    "assault_sides",
    "armour_faces",
    "armour_risk",
    "armour_risk_at",
    "atg_chance",
    "best_cluster_total",
    "can_exploit_now",
    "cluster_payoff",
    "company_draw",
    "group_pin",
    "he_targets",
    "infantry_hit_chances",
    "pin_chances",
    "reveal_chance",
    "spotted_enemy_hexes",
]
