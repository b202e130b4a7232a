"""The AI defender: reveal tests, enemy fire and its choices (CA "Enemy Fire", "Enemy Decisions").

Every choice is logged with the numbers it compared, so a debrief can show why the
enemy fired where it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.dice import chances
from hexclass.classroom.hexgrid import Hex

from .board import DEFENSIVE, DIST, HULL_DOWN, facing_arcs, in_arc
from .lines import enemy_line, hex_index, line_cost, terrain_mask, within_range
from .reasons import CHART, DECISIONS, ENEMY_FIRE, VARIANT, Modifier
from .units import BOARD, BROKEN, POTENTIAL, REAL, EnemyPost, Platoon

ARMOUR_BREAK = 2  # chart form: modified 2+ breaks armour (text form: 5+ with the -3 folded in)
INFANTRY_HIT = 2
REVEAL = 5  # CA "Enemy Decisions": 5 or more reveals real counters
PAYOFF_REVEAL = 6
ATG_CHANCES_REVEAL = 2


# --- order of activation -------------------------------------------------------------------


def activation_order(state) -> list[Hex]:
    """Furthest from the enemy's own edge first, then from the enemy's left to right.

    With the defence always in rows 7-9, "further from their edge" is a lower row, and
    the enemy, facing row 1, has its left flank at column a.
    """
    # the board's reading order (row, then column) is exactly that order
    return sorted((h for h, p in state.enemy.items() if p.platoon is not None), key=hex_index)


# --- enemy fire on armour ------------------------------------------------------------------


def armour_modifiers(
    state, post_hex: Hex, armour: Platoon, with_atg: bool
) -> list[Modifier] | None:
    """Modifiers for one enemy platoon firing at one armour platoon, or None if it cannot."""
    d = hg.distance(post_hex, armour.hex)
    outside = not in_arc(armour.hex, armour.facing, post_hex)
    mods: list[Modifier] = []
    if not with_atg:
        if d != 1:
            return None  # CA "Enemy Fire": without ATGs, only adjacent armour
        if outside:
            mods.append(Modifier(+1, "firing from outside the armour's forward arc", ENEMY_FIRE))
        mods.append(Modifier(-1, "range 1", CHART))
        mods.append(Modifier(-2, "no ATGs: close assault on armour", CHART))
        rifle = next((u.id for u in state.units_at(armour.hex) if u.is_rifle), None)
        if rifle:
            mods.append(Modifier(-1, f"rifle platoon {rifle} shares the armour's hex", ENEMY_FIRE))
        return mods
    if not within_range(d):
        return None
    lof = enemy_line(state, post_hex, armour.hex)
    if lof.blocked:
        return None
    if outside:
        mods.append(Modifier(+1, "firing from outside the armour's forward arc", ENEMY_FIRE))
    if lof.partial:
        mods.append(
            Modifier(
                -1, f"line of fire partly blocked by {state.label(lof.partly_by[0])}", ENEMY_FIRE
            )
        )
    if state.board.terrain[armour.hex] in HULL_DOWN:
        mods.append(Modifier(-1, "armour hull down on a crest or farm", ENEMY_FIRE))
    mods.append(Modifier(-d, f"range {d}", ENEMY_FIRE))
    return mods


def armour_total(
    state, post_hex: Hex, armour_hex: Hex, facing: int, with_atg: bool, blockers: int
) -> int | None:
    """The net modifier of :func:`armour_modifiers` as a bare number (None: no shot).

    ``blockers`` is :func:`~.lines.terrain_mask` of the state. The AI and the bot weigh
    many such shots; a test checks that this always equals the itemised sum.
    """
    d = DIST[post_hex][armour_hex]
    outside = 0 if facing_arcs(armour_hex, post_hex) >> facing & 1 else 1
    if not with_atg:
        if d != 1:
            return None  # CA "Enemy Fire": without ATGs, only adjacent armour
        rifle = any(u[0] in "DEF" for u in state.at.get(armour_hex, ()))
        return outside - 1 - 2 - (1 if rifle else 0)  # chart: range 1, close assault
    if not within_range(d):
        return None
    part = line_cost(post_hex, armour_hex, blockers)
    if part is None:
        return None
    hull_down = 1 if state.board.terrain[armour_hex] in HULL_DOWN else 0
    return outside - part - hull_down - d


def armour_chances(state, post_hex: Hex, armour: Platoon, with_atg: bool) -> int:
    total = armour_total(state, post_hex, armour.hex, armour.facing, with_atg, terrain_mask(state))
    return 0 if total is None else chances(total, ARMOUR_BREAK)


def best_armour_chance(state, post_hex: Hex, with_atg: bool) -> int:
    best = 0
    blockers = terrain_mask(state)
    for a in _armour_on_board(state):
        total = armour_total(state, post_hex, a.hex, a.facing, with_atg, blockers)
        if total is not None:
            c = chances(total, ARMOUR_BREAK)
            if c > best:
                best = c
    return best


def _armour_on_board(state) -> list[Platoon]:
    return [u for u in state.units.values() if u.id[0] == "A" and u.where == BOARD]


# --- enemy fire on infantry ----------------------------------------------------------------


def infantry_modifiers(state, post_hex: Hex, h: Hex) -> list[Modifier] | None:
    d = hg.distance(post_hex, h)
    if not within_range(d):
        return None
    lof = enemy_line(state, post_hex, h)
    if lof.blocked:
        return None
    mods: list[Modifier] = []
    if state.board.terrain[h] not in DEFENSIVE:
        mods.append(Modifier(+1, "target not in woods, crest or farm", ENEMY_FIRE))
    if lof.partial:
        mods.append(
            Modifier(
                -1, f"line of fire partly blocked by {state.label(lof.partly_by[0])}", ENEMY_FIRE
            )
        )
    mods.append(Modifier(-d, f"range {d}", ENEMY_FIRE))
    return mods


@dataclass(frozen=True)
class HexPayoff:
    hex: Hex
    platoon_points: int  # 1 per spent, 2 per fresh infantry platoon
    chances: int
    adjacent: bool

    @property
    def payoff(self) -> int:
        return payoff(self.platoon_points, self.chances, self.adjacent)


def payoff(platoon_points: int, chances: int, adjacent: bool) -> int:
    """CA "Enemy Decisions": platoon points x chances, tripled for an adjacent hex."""
    return platoon_points * chances * (3 if adjacent else 1)


def infantry_total(state, post_hex: Hex, h: Hex, blockers: int) -> int | None:
    """The net modifier of :func:`infantry_modifiers` as a bare number (None: no shot).

    The AI weighs every infantry hex for every enemy platoon each turn; this keeps that
    search cheap. A test checks that it always equals the itemised sum.
    """
    d = DIST[post_hex][h]
    if not within_range(d):
        return None
    part = line_cost(post_hex, h, blockers)
    if part is None:
        return None
    return (0 if state.board.terrain[h] in DEFENSIVE else 1) - part - d


def hit_table(state, post_hex: Hex) -> dict[Hex, int]:
    """Remembered faces (of 6) on which the enemy platoon in ``post_hex`` pins infantry.

    Filled hex by hex by :func:`hit_chances`. Only the board's terrain and the smoke
    decide these numbers, so the tables live on the board, one per smoke pattern and post.
    """
    blockers = terrain_mask(state)
    key = (blockers, post_hex)
    tables = state.board.hit_tables
    table = tables.get(key)
    if table is None:
        table = tables[key] = {}
    return table


def hit_chances(state, post_hex: Hex, h: Hex, table: dict[Hex, int] | None = None) -> int:
    """Faces on which one enemy platoon in ``post_hex`` pins infantry in ``h`` (0: no shot).

    ``chances`` of :func:`infantry_total`; pass :func:`hit_table` when asking many times.
    """
    if table is None:
        table = hit_table(state, post_hex)
    c = table.get(h)
    if c is None:
        total = infantry_total(state, post_hex, h, terrain_mask(state))
        c = table[h] = 0 if total is None else chances(total, INFANTRY_HIT)
    return c


def hex_payoffs(state, post_hex: Hex) -> dict[Hex, HexPayoff]:
    """CA "Enemy Decisions": each infantry hex's payoff for this enemy platoon."""
    return {h: HexPayoff(h, *rest) for h, *rest in _infantry_targets(state, post_hex)}


def _infantry_targets(state, post_hex: Hex):
    """(hex, platoon points, chances, adjacent) for each infantry hex the post can hit."""
    if not state.at:
        return
    units = state.units
    near = DIST[post_hex]
    table = hit_table(state, post_hex)
    for h, ids in state.at.items():
        c = table.get(h)
        if c is None:
            c = hit_chances(state, post_hex, h, table)
        if not c:
            continue
        points = 0
        for u in ids:
            if u[0] != "A":
                points += 2 if units[u].fresh else 1
        if points:
            yield h, points, c, near[h] == 1


def clusters(hexes) -> list[tuple[Hex, ...]]:
    """Every set of 1 to 3 mutually adjacent hexes."""
    hexes = sorted(hexes)
    out = [(h,) for h in hexes]
    if len(hexes) < 2:
        return out
    pairs = [(a, b) for a, b in combinations(hexes, 2) if DIST[a][b] == 1]
    out.extend(pairs)
    if len(pairs) >= 3:  # a triangle needs three adjacent pairs
        for a, b, c in combinations(hexes, 3):
            if DIST[a][b] == 1 and DIST[a][c] == 1 and DIST[b][c] == 1:
                out.append((a, b, c))
    return out


def best_clusters(state, post_hex: Hex) -> tuple[int, list[tuple[Hex, ...]], dict[Hex, HexPayoff]]:
    """The highest total payoff and every cluster that reaches it."""
    pay = hex_payoffs(state, post_hex)
    best, winners = 0, []
    for cl in clusters(pay):
        total = sum(pay[h].payoff for h in cl)
        if total > best:
            best, winners = total, [cl]
        elif total == best and total > 0:
            winners.append(cl)
    return best, winners, pay


def nearest_enemy_edge_first(state, options: list, hexes_of) -> list:
    """CA "Enemy Decisions": among equal choices, prefer hexes nearer the enemy edge."""

    def key(opt):
        return tuple(sorted((h[1] for h in hexes_of(opt)), reverse=True))

    top = max(key(o) for o in options)
    return [o for o in options if key(o) == top]


def settle_tie(state, options: list, what: str):
    """Choose among tied options by die roll, logging the roll."""
    if len(options) == 1:
        return options[0]
    i = state.dice.below(len(options))
    state.log(
        "roll",
        f"a die settles the tie between {len(options)} equal {what}: option {i + 1}",
        purpose="tie-break",
        options=len(options),
        picked=i,
    )
    return options[i]


# --- reveal tests --------------------------------------------------------------------------


def many_revealed(state) -> bool:
    """CA "Enemy Decisions": -1 to reveal rolls once 2 real ATGs or 3 real platoons are out."""
    return state.real_atgs_revealed >= 2 or state.real_platoons_revealed >= 3


def platoon_reveal_modifiers(state, post: EnemyPost) -> list[Modifier]:
    mods = []
    late = many_revealed(state)
    if post.atg is not None:
        mods.append(Modifier(+1, "an ATG counter is in the hex", DECISIONS))
    elif post.atg_removed and not late:
        mods.append(Modifier(-1, "ATGs have been removed from the hex", DECISIONS))
    if late:
        mods.append(Modifier(-1, "2 real ATGs or 3 real platoons already revealed", DECISIONS))
    return mods


def atg_reveal_modifiers(state, post: EnemyPost) -> list[Modifier]:
    mods = []
    if post.platoon == REAL:
        mods.append(Modifier(+2, "the platoon is already revealed", DECISIONS))
    if many_revealed(state):
        mods.append(Modifier(-1, "2 real ATGs or 3 real platoons already revealed", DECISIONS))
    return mods


def _reveal_roll(
    state,
    h: Hex,
    what: str,
    mods: list[Modifier],
    why: str,
    verdicts: tuple[str, str],
    weighed: dict | None = None,
) -> bool:
    """One reveal test (CA "Enemy Decisions"): a die plus ``mods``, 5+ reveals; logged."""
    die = state.dice.d6()
    total = die + sum(m.value for m in mods)
    real = total >= REVEAL
    verdict = verdicts[0] if real else verdicts[1]
    state.log(
        "roll",
        f"reveal test for the {what} in {state.label(h)} ({why}): rolls {die}, "
        f"modified {total}: {verdict}",
        purpose=f"reveal {what}",
        target=h,
        die=die,
        total=total,
        need=REVEAL,
        modifiers=[(m.value, m.reason, m.rule) for m in mods],
        outcome=[verdict],
        weighed=weighed or {},  # what made the enemy test: payoff or chances vs threshold
    )
    return real


def test_platoon(state, h: Hex, why: str, weighed: dict | None = None) -> bool:
    """Roll to reveal a potential platoon: real on 5+, otherwise both counters go.

    With a live defender (CA p.7) the deployment says, not a die (:func:`reveal_platoon`).
    """
    if state.options.enemy_player:
        return reveal_platoon(state, h, why)
    post = state.enemy[h]
    verdicts = ("a real platoon", "nothing there: counters removed")
    mods = platoon_reveal_modifiers(state, post)
    real = _reveal_roll(state, h, "platoon", mods, why, verdicts, weighed)
    platoon_revealed(state, h, real)
    return real


def platoon_revealed(state, h: Hex, real: bool) -> None:
    """A tested platoon counter: a real one stays, face up; a dummy leaves with its ATGs."""
    if real:
        state.enemy[h].platoon = REAL
        state.real_platoons_revealed += 1
    else:
        del state.enemy[h]


def test_atg(state, h: Hex, why: str, weighed: dict | None = None) -> bool:
    """Roll to reveal potential ATGs: on 5+ ATGs and platoon are real, else the ATGs go."""
    if state.options.enemy_player:
        return reveal_atg(state, h, why)
    post = state.enemy[h]
    verdicts = ("real ATGs (and a real platoon)", "no ATGs: ATG counter removed")
    real = _reveal_roll(state, h, "ATGs", atg_reveal_modifiers(state, post), why, verdicts, weighed)
    atg_revealed(state, h, real)
    return real


def atg_revealed(state, h: Hex, real: bool) -> None:
    """A tested ATG counter: real ATGs make their platoon real too; dummy ATGs go."""
    post = state.enemy[h]
    if real:
        post.atg = REAL
        state.real_atgs_revealed += 1
        if post.platoon == POTENTIAL:
            post.platoon = REAL
            state.real_platoons_revealed += 1
    else:
        post.atg = None
        post.atg_removed = True


# --- reveals without dice: a live defender's deployment says (CA p.7) -------------------


def real_platoon_at(state, h: Hex) -> bool:
    return h in state.secret.platoons


def reveal_platoon(state, h: Hex, why: str) -> bool:
    """Turn a potential platoon counter over: real stays (revealed), a dummy goes."""
    real = real_platoon_at(state, h)
    verdict = "a real platoon" if real else "nothing there: counters removed"
    state.log(
        "reveal",
        f"{state.label(h)} revealed ({why}): {verdict}",
        target=h,
        what="platoon",
        outcome=[verdict],
        rule=VARIANT,
    )
    platoon_revealed(state, h, real)
    return real


def reveal_atg(state, h: Hex, why: str) -> bool:
    """Turn a potential ATG counter over: real ATGs make the platoon real too."""
    real = h in state.secret.atgs
    verdict = "real ATGs (and a real platoon)" if real else "no ATGs: ATG counter removed"
    state.log(
        "reveal",
        f"ATG counter in {state.label(h)} revealed ({why}): {verdict}",
        target=h,
        what="ATGs",
        outcome=[verdict],
        rule=VARIANT,
    )
    atg_revealed(state, h, real)
    return real


def reveal_by_order(state, h: Hex) -> None:
    """Adjacent attackers force a reveal; otherwise only the defender's order does."""
    post = state.enemy[h]
    if adjacent_to_friends(state, h):
        reveal_all(state, h, "attacking platoon adjacent")
    elif h in state.reveal_orders and post.platoon == POTENTIAL:
        reveal_platoon(state, h, "the defender reveals it")
        if h in state.enemy and state.enemy[h].atg == POTENTIAL:
            reveal_atg(state, h, "the defender reveals it")


def reveal_all(state, h: Hex, why: str) -> None:
    """Test whatever is still potential in the hex, the platoon first."""
    post = state.enemy.get(h)
    if post is None:
        return
    if post.platoon == POTENTIAL and not test_platoon(state, h, why):
        return
    if post.atg == POTENTIAL:
        test_atg(state, h, why)


def break_post(state, h: Hex, by_infantry: bool) -> list[str]:
    """A modified 4+ from adjacent firers: break the ATGs, and the platoon if infantry fired.

    Counters still potential are tested first (only a hand-made position can put fresh
    firers next to one; see docs/rules-notes.md).
    """
    out = []
    post = state.enemy.get(h)
    if post is None:
        return out
    if post.atg is not None:
        if post.atg == POTENTIAL and not test_atg(state, h, "about to be broken"):
            out.append("the ATG counter proves empty")
        else:
            post.atg = None
            post.atg_removed = True
            state.atgs_broken += 1
            out.append("ATGs broken")
    if by_infantry and post.platoon is not None:
        if post.platoon == POTENTIAL and not test_platoon(state, h, "about to be broken"):
            out.append("the platoon counter proves empty")
            return out
        post.platoon = None
        state.enemy_platoons_broken += 1
        out.append("enemy platoon broken")
    if post.empty and h in state.enemy:
        del state.enemy[h]
    return out


# --- activation ----------------------------------------------------------------------------


def adjacent_to_friends(state, h: Hex) -> bool:
    """Does any of your platoons stand next to ``h``?"""
    return not state.at.keys().isdisjoint(state.board.neighbours_on_board[h])


def activate(state, h: Hex) -> list[tuple]:
    """Activate one enemy post; returns agenda items for its fire on infantry."""
    post = state.enemy.get(h)
    if post is None or post.platoon is None:
        return []
    if state.options.enemy_player:
        return _activate_for_defender(state, h)
    _reveal_on_activation(state, h, post)
    post = state.enemy.get(h)
    if post is None:
        return []
    if recovers_instead_of_firing(state, h, post):
        return []
    if post.platoon != REAL:
        return []
    fire_on_armour(state, h, post)
    return choose_infantry_target(state, h)


def recovers_instead_of_firing(state, h: Hex, post) -> bool:
    """A spent post spends its activation turning fresh (CA "Enemy Decisions")."""
    if post.fresh:
        return False
    post.fresh = True
    state.log("enemy", f"{state.label(h)}: spent counters become fresh instead of firing", hex=h)
    return True


def _activate_for_defender(state, h: Hex) -> list[tuple]:
    """CA p.7: reveal as the variant says, recover if spent, else fire where the defender
    chooses (the choices are agenda steps, so the engine can wait for them)."""
    reveal_by_order(state, h)
    post = state.enemy.get(h)
    if post is None:
        return []
    if recovers_instead_of_firing(state, h, post):
        return []
    if post.platoon != REAL:
        return []
    return [("armour_target", h), ("infantry_target", h)]


def best_payoff(state, post_hex: Hex) -> int:
    """The highest total payoff of :func:`best_clusters`, without listing the winners."""
    pay = {h: payoff(n, c, adj) for h, n, c, adj in _infantry_targets(state, post_hex)}
    return best_cluster_total(pay)


def best_cluster_total(pay: dict[Hex, int]) -> int:
    """The largest sum of payoffs over 1 to 3 mutually adjacent hexes (0 if none)."""
    if not pay:
        return 0
    best = max(pay.values())
    for a, b in combinations(pay, 2):
        if DIST[a][b] == 1:
            two = pay[a] + pay[b]
            if two > best:
                best = two
            for c in pay:
                three = two + pay[c]
                if three > best and c not in (a, b) and DIST[a][c] == 1 and DIST[b][c] == 1:
                    best = three
    return best


def platoon_test_due(adjacent: bool, fresh: bool, payoff: int) -> bool:
    """CA "Enemy Decisions": an activated post tests its unrevealed platoon when it is next
    to your platoons, or fresh with a best cluster payoff of :data:`PAYOFF_REVEAL` or more."""
    return adjacent or (fresh and payoff >= PAYOFF_REVEAL)


def atg_test_due(adjacent: bool, fresh: bool, chances: int) -> bool:
    """CA "Enemy Decisions": ... and its unrevealed ATGs when next to your platoons, or
    fresh with :data:`ATG_CHANCES_REVEAL` or more chances in 6 against your armour."""
    return adjacent or (fresh and chances >= ATG_CHANCES_REVEAL)


@dataclass(frozen=True)
class RevealTrigger:
    """Why activating a post tests one of its unrevealed counters (CA "Enemy Decisions"):
    ``why`` in words, ``weighed`` the numbers compared (logged with the roll)."""

    why: str
    weighed: dict


def reveal_triggers(state, h: Hex, post: EnemyPost | None = None) -> dict[str, RevealTrigger]:
    """The reveal tests activating the post in ``h`` makes now: ``"platoon"`` and/or
    ``"atg"`` (:func:`platoon_test_due`, :func:`atg_test_due`), the platoon's first.

    The ATG test is listed as it would be asked; the engine asks it only if the platoon
    proved real (a dummy platoon leaves with its ATGs)."""
    post = state.enemy[h] if post is None else post
    out: dict[str, RevealTrigger] = {}
    if (post.platoon != POTENTIAL and post.atg != POTENTIAL) or not state.at:
        return out  # nothing left to reveal, or none of your platoons to provoke a test
    if adjacent_to_friends(state, h):
        near = RevealTrigger("adjacent to your platoons", {"adjacent": True})
        return {
            k: near for k, c in (("platoon", post.platoon), ("atg", post.atg)) if c == POTENTIAL
        }
    if post.platoon == POTENTIAL and post.fresh:
        best = best_payoff(state, h)
        if platoon_test_due(False, True, best):
            weighed = {"payoff": best, "threshold": PAYOFF_REVEAL}
            out["platoon"] = RevealTrigger(f"payoff {best} against your infantry", weighed)
    if post.atg == POTENTIAL and post.fresh:
        c = best_armour_chance(state, h, with_atg=True)
        if atg_test_due(False, True, c):
            weighed = {"chances": c, "threshold": ATG_CHANCES_REVEAL}
            out["atg"] = RevealTrigger(f"{c} chances in 6 against your armour", weighed)
    return out


def _reveal_on_activation(state, h: Hex, post: EnemyPost) -> None:
    due = reveal_triggers(state, h, post)
    platoon, atg = due.get("platoon"), due.get("atg")
    if platoon and not test_platoon(state, h, platoon.why, platoon.weighed):
        return
    if atg and state.enemy[h].atg == POTENTIAL:
        test_atg(state, h, atg.why, atg.weighed)


def fire_on_armour(state, h: Hex, post: EnemyPost) -> None:
    """CA "Enemy Decisions": fire on the armour platoon with the best chance of a kill."""
    with_atg = post.atg == REAL
    scored = []
    for a in _armour_on_board(state):
        c = armour_chances(state, h, a, with_atg)
        if c:
            scored.append((c, a))
    if not scored:
        return
    best = max(c for c, _ in scored)
    tied = [a for c, a in scored if c == best]
    tied = nearest_enemy_edge_first(state, tied, lambda a: [a.hex])
    target = settle_tie(state, tied, "armour targets")
    state.log(
        "ai",
        f"{state.label(h)} fires on armour {target.id}: {best} chances in 6 "
        f"(compared: {', '.join(f'{a.id} {c}' for c, a in scored)})",
        hex=h,
        target=target.id,
        compared={a.id: c for c, a in scored},
        rule=DECISIONS,
    )
    roll_fire_on_armour(state, h, post, target)


def roll_fire_on_armour(state, h: Hex, post: EnemyPost, target: Platoon) -> None:
    """One roll of the post in ``h`` against the armour platoon ``target``; logged."""
    with_atg = post.atg == REAL
    mods = armour_modifiers(state, h, target, with_atg)
    die = state.dice.d6()
    total = die + sum(m.value for m in mods)
    broken = total >= ARMOUR_BREAK
    verdict = f"{target.id} broken" if broken else "miss"
    state.log(
        "roll",
        f"{'ATGs' if with_atg else 'infantry'} in {state.label(h)} fire on {target.id}: "
        f"rolls {die}, modified {total}: {verdict}",
        purpose="enemy fire on armour",
        hex=h,
        unit=target.id,
        target=target.hex,
        die=die,
        total=total,
        need=ARMOUR_BREAK,
        modifiers=[(m.value, m.reason, m.rule) for m in mods],
        outcome=[verdict],
    )
    if broken:
        state.remove(target, BROKEN)


def choose_infantry_target(state, h: Hex) -> list[tuple]:
    best, winners, pay = best_clusters(state, h)
    if not winners:
        return []
    winners = nearest_enemy_edge_first(state, winners, lambda cl: cl)
    cluster = settle_tie(state, winners, "clusters")
    cluster = tuple(sorted(cluster, key=lambda x: (x[1], state.board.column(x))))  # reading order
    state.log(
        "ai",
        f"{state.label(h)} engages {', '.join(state.label(x) for x in cluster)}: total payoff {best} ("
        + "; ".join(f"{state.label(x)} {p.payoff}" for x, p in sorted(pay.items()))
        + ")",
        hex=h,
        cluster=list(cluster),
        payoff=best,
        payoffs={state.label(x): p.payoff for x, p in pay.items()},
        rule=DECISIONS,
    )
    return [("hexes_under_fire", "enemy fire", h, tuple(cluster))]


def roll_enemy_fire_on_hex(state, firer: Hex, h: Hex) -> int:
    """One enemy roll against one infantry hex; returns the loss count per platoon hit."""
    mods = infantry_modifiers(state, firer, h)
    infantry = [u for u in state.units_at(h) if u.is_infantry]
    if mods is None or not infantry:
        return 0
    die = state.dice.d6()
    total = die + sum(m.value for m in mods)
    hit = total >= INFANTRY_HIT
    each = 2 if hg.distance(firer, h) == 1 else 1
    verdict = f"{', '.join(u.id for u in infantry)} pinned, {each} loss each" if hit else "miss"
    state.log(
        "roll",
        f"enemy in {state.label(firer)} fire on {state.label(h)}: rolls {die}, "
        f"modified {total}: {verdict}",
        purpose="enemy fire on infantry",
        hex=firer,
        target=h,
        die=die,
        total=total,
        need=INFANTRY_HIT,
        modifiers=[(m.value, m.reason, m.rule) for m in mods],
        outcome=[verdict],
    )
    if not hit:
        return 0
    for u in infantry:
        u.fresh = False
    return each
