"""The enemy-player variant's set-up: bidding, secret forces, secret deployment (CA p.7).

In this variant a person commands the defenders. Before play:

* the players **bid** the handicap bonus they would grant the attackers; the highest bid
  takes the defenders (a die for each tied bidder, re-rolled while tied) and the bonus is
  added to the attackers' victory score (:func:`settle_bids`);
* the defender **rolls two dice** until one shows 4-6 and the other 1-3: the higher is the
  number of real platoons, the lower the number of real ATGs (:func:`roll_secret_forces`);
* the defender **deploys** them secretly among the potential counters the solitaire game
  sets out, under balancing constraints (:func:`deployment_problems`).

Everything here is pure: dice come from the game's :class:`~hexclass.classroom.dice.Dice`, and a
deployment is plain data that only the defender's view and the store ever hold.

How the text's constraints are read when they cannot all be met at once (they can fail
on thin boards: too few posts on one side of the road, say) is in ``docs/rules-notes.md``
("Enemy player variant"): each constraint, in the text's order, binds only as far as some
deployment can meet it together with the ones before it.

>>> from hexclass.classroom.dice import Dice
>>> roll_secret_forces(Dice(3)).platoons in (4, 5, 6)
True
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hexclass.classroom.dice import Dice
from hexclass.classroom.hexgrid import Hex

from .board import Board, PotentialPost, potential_posts
from .reasons import VARIANT, Illegal

ROW_PLATOONS = 2  # a hexrow with this many potential platoons needs a real one
ROW_ATGS = 3  # a hexrow with this many potential ATGs needs a real one


# --- bidding ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BidResult:
    """Who commands the defenders, the attackers' handicap bonus, and any tie dice."""

    defender: str
    bonus: int
    tie_rolls: tuple[dict[str, int], ...] = ()


def settle_bids(bids: Mapping[str, int], dice: Dice) -> BidResult:
    """The highest bid takes the defenders; equal highest bids roll a die each, again
    while the highest dice tie (CA p.7).

    >>> settle_bids({"ann": 3, "bob": 1}, Dice(1))
    BidResult(defender='ann', bonus=3, tie_rolls=())
    """
    if len(bids) < 2:
        raise ValueError("bidding needs at least two players")
    for who, bid in bids.items():
        if isinstance(bid, bool) or not isinstance(bid, int) or bid < 0:
            raise ValueError(f"{who}'s bid must be a whole number of points >= 0, got {bid!r}")
    top = max(bids.values())
    tied = sorted(p for p, b in bids.items() if b == top)
    rolls: list[dict[str, int]] = []
    while len(tied) > 1:
        roll = {p: dice.d6() for p in tied}
        rolls.append(roll)
        best = max(roll.values())
        tied = [p for p in tied if roll[p] == best]
    return BidResult(tied[0], top, tuple(rolls))


# --- the secret force roll ---------------------------------------------------------------


@dataclass(frozen=True)
class SecretForces:
    """How many real platoons and real ATGs the defender has, and the rolls that said so."""

    platoons: int
    atgs: int
    rolls: tuple[tuple[int, int], ...] = ()


def forces_from_roll(a: int, b: int) -> SecretForces | None:
    """Two dice settle the forces only when one is 4-6 and the other 1-3 (CA p.7)."""
    high, low = max(a, b), min(a, b)
    if high >= 4 and low <= 3:
        return SecretForces(high, low, ((a, b),))
    return None


def roll_secret_forces(dice: Dice) -> SecretForces:
    """Roll two dice, re-rolling both until one is 4-6 and the other 1-3 (CA p.7)."""
    rolls = []
    while True:
        a, b = dice.d6(), dice.d6()
        rolls.append((a, b))
        forces = forces_from_roll(a, b)
        if forces is not None:
            return SecretForces(forces.platoons, forces.atgs, tuple(rolls))


# --- deployment --------------------------------------------------------------------------


@dataclass(frozen=True)
class Deployment:
    """The hexes of the real platoons and of the real ATGs (always with a real platoon)."""

    platoons: frozenset[Hex]
    atgs: frozenset[Hex] = frozenset()


@dataclass(frozen=True, eq=False)
class DeploymentField:
    """The standard array of potential counters on one board, with the facts the
    balancing constraints read: each post's side of the road and hexrow."""

    board: Board
    posts: tuple[PotentialPost, ...]
    side: Mapping[Hex, str] = field(repr=False)  # "left" | "right" of the road

    @classmethod
    def of(cls, board: Board, posts: Iterable[PotentialPost] | None = None) -> DeploymentField:
        posts = tuple(potential_posts(board) if posts is None else posts)
        road_col = {h[1]: board.column(h) for h in board.road}
        side = {
            p.hex: ("left" if board.column(p.hex) < road_col[p.hex[1]] else "right") for p in posts
        }
        return cls(board, posts, side)

    @functools.cached_property
    def platoon_hexes(self) -> frozenset[Hex]:
        return frozenset(p.hex for p in self.posts)

    @functools.cached_property
    def atg_hexes(self) -> frozenset[Hex]:
        return frozenset(p.hex for p in self.posts if p.with_atg)

    def row_name(self, row: int) -> str:
        return f"hexrow {row + 1}"


def _real_adjacent_count(board: Board, platoons: frozenset[Hex]) -> int:
    """How many real platoons have another real platoon next to them."""
    return sum(1 for h in platoons if any(n in platoons for n in board.neighbours_on_board[h]))


def _rows(hexes: Iterable[Hex]) -> Counter:
    return Counter(h[1] for h in hexes)


def rows_needing(potential: Counter, threshold: int) -> dict[int, int]:
    """Hexrows holding at least ``threshold`` potential counters of a type -> how many."""
    return {row: n for row, n in potential.items() if n >= threshold}


def row_cover_ok(needing: Mapping[int, int], covered: set[int], available: int) -> bool:
    """Row rule with its priority clause (CA p.7): every needing row covered, or, with
    too few real counters, the rows with most potential counters covered first.

    ``available`` is how many needing rows can be covered at best. Rows ranked by their
    potential counters: each row above the cut-off must be covered, and enough rows at
    the cut-off value to reach ``available`` (any of equally ranked rows will do).
    """
    want = min(available, len(needing))
    if want <= 0:
        return True
    ranked = sorted(needing.values(), reverse=True)
    cut = ranked[want - 1]
    if any(n > cut and row not in covered for row, n in needing.items()):
        return False
    return sum(1 for row, n in needing.items() if n >= cut and row in covered) >= want


@dataclass(frozen=True)
class Targets:
    """What a deployment on this field must reach, after reading the constraints in the
    text's order and relaxing each only as far as no deployment can meet it."""

    platoons: int
    atgs: int
    adjacency: bool  # "only 2 or none of the real platoons adjacent to another"
    per_side: int  # real platoons needed on each side of the road (2, or fewer if impossible)
    platoon_rows: int  # needing hexrows that can be covered by platoons, at best
    atg_rows: int


def _counts(fld: DeploymentField, d: Deployment) -> tuple:
    board = fld.board
    sides = Counter(fld.side[h] for h in d.platoons)
    prow = rows_needing(_rows(fld.platoon_hexes), ROW_PLATOONS)
    arow = rows_needing(_rows(fld.atg_hexes), ROW_ATGS)
    pcov = {h[1] for h in d.platoons} & set(prow)
    acov = {h[1] for h in d.atgs} & set(arow)
    adj = _real_adjacent_count(board, d.platoons)
    return sides, prow, arow, pcov, acov, adj


@functools.lru_cache(maxsize=64)
def _targets(fld: DeploymentField, platoons: int, atgs: int) -> Targets:
    """Read the constraints in the text's order, each binding as far as possible.

    Deployments are bit masks over the posts (:class:`_Masks`), so the whole space of
    choices on a board (tens of thousands) is searched quickly.
    """
    m = _Masks.of(fld)
    n_p = min(platoons, len(m.posts))
    n_a = min(atgs, m.atg.bit_count(), n_p)  # every real counter placed where it can be
    pool = [c for c in m.spread(n_p) if (c & m.atg).bit_count() >= n_a]
    adjacency = bool(pool)  # "only 2 or none adjacent", if any deployment manages it
    if not adjacency:
        pool = [sum(1 << i for i in c) for c in itertools.combinations(range(len(m.posts)), n_p)]
        n_a = min(n_a, max(((c & m.atg).bit_count() for c in pool), default=0))
        pool = [c for c in pool if (c & m.atg).bit_count() >= n_a]
    per_side = max((m.side_min(c) for c in pool), default=0)
    pool = [c for c in pool if m.side_min(c) >= per_side]
    prow = rows_needing(_rows(fld.platoon_hexes), ROW_PLATOONS)
    best_p = _best_cover(prow, {m.rows_of(c) for c in pool}, n_p)
    pool = [c for c in pool if row_cover_ok(prow, m.rows_of(c) & set(prow), best_p)]
    arow = rows_needing(_rows(fld.atg_hexes), ROW_ATGS)
    atg_covers = {m.rows_of(a) for c in pool for a in m.atg_choices(c, n_a)}
    best_a = _best_cover(arow, atg_covers, n_a)
    return Targets(n_p, n_a, adjacency, per_side, best_p, best_a)


@dataclass(frozen=True)
class _Masks:
    """The posts of a field as bit positions, with masks for the left side of the road,
    the ATG posts, each hexrow and each post's neighbours among the posts."""

    posts: tuple[Hex, ...]
    left: int
    atg: int
    row: tuple[tuple[int, int], ...]  # (hexrow, mask)
    nbr: tuple[int, ...]

    @classmethod
    def of(cls, fld: DeploymentField) -> _Masks:
        posts = tuple(sorted(fld.platoon_hexes))
        bit = {h: 1 << i for i, h in enumerate(posts)}
        left = sum(bit[h] for h in posts if fld.side[h] == "left")
        atg = sum(bit[h] for h in posts if h in fld.atg_hexes)
        rows = sorted({h[1] for h in posts})
        row = tuple((r, sum(bit[h] for h in posts if h[1] == r)) for r in rows)
        nbr = tuple(sum(bit.get(n, 0) for n in fld.board.neighbours_on_board[h]) for h in posts)
        return cls(posts, left, atg, row, nbr)

    def side_min(self, c: int) -> int:
        left = (c & self.left).bit_count()
        return min(left, c.bit_count() - left, 2)

    def rows_of(self, c: int) -> frozenset[int]:
        return frozenset(r for r, mask in self.row if c & mask)

    def hexes(self, c: int) -> frozenset[Hex]:
        return frozenset(h for i, h in enumerate(self.posts) if c >> i & 1)

    def atg_choices(self, c: int, n: int) -> Iterable[int]:
        bits = [1 << i for i in range(len(self.posts)) if (c & self.atg) >> i & 1]
        return (sum(combo) for combo in itertools.combinations(bits, n))

    def spread(self, n: int) -> list[int]:
        """Every choice of ``n`` posts in which none, or exactly one isolated pair, of the
        platoons stand next to another (CA p.7): independent sets, plus one adjacent pair
        with an independent set kept clear of both."""
        everything = (1 << len(self.posts)) - 1
        out = list(self._independent(everything, n))
        for i, ni in enumerate(self.nbr):
            for j in range(i + 1, len(self.posts)):
                if n >= 2 and ni >> j & 1:
                    pair = (1 << i) | (1 << j)
                    allowed = everything & ~pair & ~ni & ~self.nbr[j]
                    out.extend(pair | c for c in self._independent(allowed, n - 2))
        return out

    def _independent(self, allowed: int, n: int) -> Iterable[int]:
        """Sets of ``n`` posts within ``allowed``, no two of them neighbours."""
        if n == 0:
            yield 0
            return
        while allowed.bit_count() >= n:
            low = allowed & -allowed
            allowed &= ~low
            i = low.bit_length() - 1
            for rest in self._independent(allowed & ~self.nbr[i], n - 1):
                yield low | rest


def _best_cover(needing: Mapping[int, int], row_sets, count: int) -> int:
    """The most needing rows (with the priority clause) that any of ``row_sets`` covers."""
    for want in range(min(count, len(needing)), 0, -1):
        if any(row_cover_ok(needing, rows & set(needing), want) for rows in row_sets):
            return want
    return 0


def targets(fld: DeploymentField, forces: SecretForces) -> Targets:
    """What every legal deployment of these forces on this field must reach."""
    return _targets(fld, forces.platoons, forces.atgs)


def deployment_problems(fld: DeploymentField, forces: SecretForces, d: Deployment) -> list[Illegal]:
    """Every balancing constraint of CA p.7 that ``d`` breaks, in the text's order."""
    t = targets(fld, forces)
    out: list[Illegal] = []
    stray = sorted(fld.board.label(h) for h in d.platoons - fld.platoon_hexes)
    if stray:
        out.append(
            Illegal(
                VARIANT,
                f"no potential enemy counter stands at {', '.join(stray)}; "
                "real platoons go only where the solitaire set-up puts "
                "potential ones",
            )
        )
    if len(d.platoons) != t.platoons:
        out.append(
            Illegal(
                VARIANT,
                f"deploy exactly {t.platoons} real platoons (you have placed {len(d.platoons)})",
            )
        )
    no_post = sorted(fld.board.label(h) for h in d.atgs - fld.atg_hexes)
    if no_post:
        out.append(Illegal(VARIANT, f"no potential ATG counter stands at {', '.join(no_post)}"))
    alone = sorted(fld.board.label(h) for h in d.atgs - d.platoons)
    if alone:
        out.append(
            Illegal(VARIANT, f"a real ATG must be with a real platoon: {', '.join(alone)} has none")
        )
    if len(d.atgs) != t.atgs:
        out.append(
            Illegal(VARIANT, f"deploy exactly {t.atgs} real ATGs (you have placed {len(d.atgs)})")
        )
    if stray or no_post:
        return out  # the balancing rules below read posts only: fix these first
    sides, prow, arow, pcov, acov, adj = _counts(fld, d)
    if t.adjacency and adj not in (0, 2):
        out.append(
            Illegal(
                VARIANT,
                f"only 2 or none of the real platoons may stand next to "
                f"another real platoon; {adj} do",
            )
        )
    for side in ("left", "right"):
        if sides[side] < t.per_side:
            out.append(
                Illegal(
                    VARIANT,
                    f"at least {t.per_side} real platoons must be "
                    f"{side} of the road; {sides[side]} {'is' if sides[side] == 1 else 'are'}",
                )
            )
    if not row_cover_ok(prow, pcov, t.platoon_rows):
        out.append(_row_problem(fld, prow, pcov, t.platoon_rows, "platoon", ROW_PLATOONS))
    if not row_cover_ok(arow, acov, t.atg_rows):
        out.append(_row_problem(fld, arow, acov, t.atg_rows, "ATG", ROW_ATGS))
    return out


def _row_problem(fld, needing, covered, want, kind, threshold) -> Illegal:
    missing = sorted((r for r in needing if r not in covered), key=lambda r: -needing[r])
    names = ", ".join(f"{fld.row_name(r)} ({needing[r]} potential)" for r in missing)
    if want >= len(needing):
        text = (
            f"every hexrow with {threshold} or more potential {kind}s needs a real "
            f"{kind}; still without one: {names}"
        )
    else:
        text = (
            f"with only enough real {kind}s for {want} of the {len(needing)} hexrows that "
            f"need one, the rows with most potential {kind}s come first; uncovered: {names}"
        )
    return Illegal(VARIANT, text)


def check_deployment(fld: DeploymentField, forces: SecretForces, d: Deployment) -> Illegal | None:
    """The first constraint ``d`` breaks, or None when it is a legal deployment."""
    problems = deployment_problems(fld, forces, d)
    return problems[0] if problems else None


def legal_deployments(fld: DeploymentField, forces: SecretForces) -> Iterable[Deployment]:
    """Every legal deployment, in a fixed order (for tests, bots and hints)."""
    t = targets(fld, forces)
    m = _Masks.of(fld)
    pool = (
        m.spread(t.platoons)
        if t.adjacency
        else [
            sum(1 << i for i in c) for c in itertools.combinations(range(len(m.posts)), t.platoons)
        ]
    )
    prow = rows_needing(_rows(fld.platoon_hexes), ROW_PLATOONS)
    for c in pool:
        if m.side_min(c) < t.per_side:
            continue
        if not row_cover_ok(prow, m.rows_of(c) & set(prow), t.platoon_rows):
            continue
        for a in m.atg_choices(c, t.atgs):
            d = Deployment(m.hexes(c), m.hexes(a))
            if not deployment_problems(fld, forces, d):
                yield d
