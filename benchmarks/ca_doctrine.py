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

The attacker itself now lives in the package (:mod:`hexclass.classroom.combined_arms.bots.doctrine`),
where ``best`` and the coach play three of its settings; this script keeps the studies.
The policy asks the engine for every number (hit chances, reveal odds, pin chances,
mortar spotting) and :func:`check` for every order.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
from collections import Counter
from dataclasses import replace
from multiprocessing import Pool

from hexclass.classroom.combined_arms import mortars, new_game
from hexclass.classroom.combined_arms.actions import CallMortar, DeclareFire, EndGame
from hexclass.classroom.combined_arms.board import DIST
from hexclass.classroom.combined_arms.bots import doctrine
from hexclass.classroom.combined_arms.bots.base import (
    MAX_ACTIONS_PER_PHASE,
    PassivePolicy,
    _close_phase,
    decide,
    play_out,
)
from hexclass.classroom.combined_arms.bots.doctrine import (  # noqa: F401 (the study's names)
    LOSS,
    PRESETS,
    STEP,
    Doctrine,
    DoctrinePolicy,
    _assign,
    infantry_in,
)
from hexclass.classroom.combined_arms.engine import apply, check
from hexclass.classroom.combined_arms.intent import action_for
from hexclass.classroom.combined_arms.lines import friendly_line
from hexclass.classroom.combined_arms.outlook import end_value, planning_copy
from hexclass.classroom.combined_arms.positions import (
    Position,
    board_from_rows,
    state_from_position,
)
from hexclass.classroom.combined_arms.quick import (
    alternate_sides,
    assault_sides,
    company_draw,
)
from hexclass.classroom.combined_arms.simulate import board_baseline, expected_at_end
from hexclass.classroom.combined_arms.state import Options
from hexclass.classroom.combined_arms.units import COMPANIES

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


# --- the games and the boards ---------------------------------------------------------------------


def policy(name: str):
    return PassivePolicy(random.Random(0)) if name == "passive" else doctrine.policy(name)


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
