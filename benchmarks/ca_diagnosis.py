"""Why does every attacker tie "do nothing"? The information ceiling, where the points go,
and one game read turn by turn (issue 26).

Run:  .venv/bin/python benchmarks/ca_diagnosis.py [--games 120] [--seed 1] [--jobs 2]
                                                  [--only ceiling,losses,prophet,sample]

* **ceiling** — how much of the gap is the unknown deployment? In the solitaire game a
  potential counter is real when its reveal die (CA "Enemy Decisions") comes up high
  enough, and each counter is tested at most once, so rolling every counter's reveal die
  in advance (a *deployment*, drawn per seed) and reading it when the engine tests gives
  the same game, in law, as rolling on the spot. On such games, on the same seeds:
  ``passive``; the planners as shipped (their planning copies roll fresh reveal dice, so
  they do not know the deployment); and the same planners told it (an *oracle*: their
  planning copies carry the game's deployment, and ending is valued by that deployment's
  exact score); ``steady+oracle`` is steady whose reveal odds (by which it weighs threats
  and objectives) read the deployment, and so is any setting of ``ca_doctrine.py``'s
  attacker with ``+oracle`` (``doctrine_joint+oracle``). The oracle lives in this script
  only, never in the shipped bots.
  Reported: mean score, wins (Wilson 95 %), turns, paired difference to passive (95 %).
* **losses** — where the points go, per policy on the ordinary game (on the deployed
  one for an oracle): losses by cause (enemy direct fire at 2+ hexes, next to the
  firer, and for a doctrine attacker whether the firer was the post it attacks; enemy
  mortars, your own mortars),
  by turn and by the kind of move the hit platoons had made that turn (stood, moved,
  closed next to an enemy post); platoons broken by cause; platoon-turns begun pinned and
  pins that never lift (pinned at the start of 3 turns running); enemy platoons broken.
* **prophet** — how much any rule for when to end could add to each planner (with or
  without ``+oracle``): at each turn start from turn 2, the worth of ending there (not
  told, the exact mean of the final reveal; told, the deployment's score); the best of
  them in hindsight bounds every rule, which cannot know the dice ahead. Reported against
  passive valued the same way, with the turn of that best stop.
* **sample** — one game, turn by turn: the exact expected score of ending at the start of
  each turn, what moved and fired, each enemy hit and its cause.

The machine is shared: this is a study of strength, not of speed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor

import ca_doctrine  # the study's doctrine attacker, a sibling script

from hexclass.classroom.combined_arms import (
    Options,
    apply,
    check,
    new_game,
    quick,
)
from hexclass.classroom.combined_arms import enemy as enemy_rules
from hexclass.classroom.combined_arms.actions import DeclareFire, EndGame, Enter, Move
from hexclass.classroom.combined_arms.bots import (
    assessment,
    doctrine,
    make_policy,
    movement_plan,
    state_seat,
)
from hexclass.classroom.combined_arms.bots.base import _close_phase
from hexclass.classroom.combined_arms.bots.company import CompanyBudget, CompanyPlanner
from hexclass.classroom.combined_arms.bots.search import BestPolicy
from hexclass.classroom.combined_arms.outlook import end_value
from hexclass.classroom.combined_arms.simulate import Z95, wilson
from hexclass.classroom.combined_arms.units import POTENTIAL
from hexclass.classroom.combined_arms.victory import WIN
from hexclass.classroom.dice import Dice
from hexclass.classroom.hexgrid import distance

MAX_ACTIONS = 20 * 2 * 66

# --- a deployment rolled in advance ---------------------------------------------------------


class DeployedDice(Dice):
    """The game's dice, but each reveal test reads its counter's die rolled in advance."""

    __slots__ = ("faces", "next_face")

    def d6(self) -> int:
        f = self.next_face
        if f:
            self.next_face = 0
            return f
        return super().d6()

    def copy(self) -> DeployedDice:
        return deployed(self.snapshot(), self.faces)


def deployed(snap, faces: dict) -> DeployedDice:
    d = DeployedDice.restore(snap)
    d.faces, d.next_face = faces, 0
    return d


_ENGINE_REVEAL = enemy_rules._reveal_roll


def _reveal_from_deployment(state, h, what, mods, why, verdicts, weighed=None):
    """The engine's reveal test; its die comes from the deployment when the dice hold one."""
    if isinstance(state.dice, DeployedDice):  # other dice (a test's scripted ones) roll on
        state.dice.next_face = state.dice.faces[(h, what)]
    return _ENGINE_REVEAL(state, h, what, mods, why, verdicts, weighed)


def deployed_game(seed: int):
    """Seed ``seed``'s game with every reveal die rolled in advance (same law as solitaire)."""
    g = new_game(seed, Options(auto_decisions=True))
    rng = random.Random(seed * 104729 + 17)
    faces = {(h, what): rng.randint(1, 6) for h in sorted(g.enemy) for what in ("platoon", "ATGs")}
    g.dice = deployed(g.dice.snapshot(), faces)
    return g


class Oracle:
    """Planning copies that carry the game's deployment; ending valued by its exact score."""

    def _copy(self, state, seed: int):
        c = state.copy()
        c.dice = deployed(Dice(seed).snapshot(), state.dice.faces)
        return c

    def _known_end(self, state) -> float | None:
        seat = state_seat(state)
        if check(state, EndGame(seat)) is not None:
            return None
        c = self._copy(state, 1)
        apply(c, EndGame(seat))
        while not c.over:
            apply(c, _close_phase(c, seat))
        return float(c.result.total)


class OracleBest(Oracle, BestPolicy):
    name = "best+oracle"

    def end_utility(self, state):
        s = self._known_end(state)
        if s is None:
            return BestPolicy.end_utility(self, state)
        return self.utility(s), s, float(s >= WIN)


class OracleCompany(Oracle, CompanyPlanner):
    name = "company+oracle"

    def end_utility(self, state):
        s = self._known_end(state)
        return CompanyPlanner.end_utility(self, state) if s is None else self.utility(s)


# steady (or a doctrine setting) told the deployment: its reveal odds (what it weighs
# threats and objectives by) read the counter's die; switched on only while such a game
# is played
_ORACLE_ODDS = [False]
_QUICK_REVEAL = quick.reveal_chance


def _reveal_chance(state, h):
    told = _ORACLE_ODDS[0] and isinstance(state.dice, DeployedDice)
    faces = state.dice.faces if told else None
    post = state.enemy[h]
    if faces is None or post.platoon != POTENTIAL:
        return _QUICK_REVEAL(state, h)
    mods = enemy_rules.platoon_reveal_modifiers(state, post)
    return 1.0 if faces[(h, "platoon")] + sum(m.value for m in mods) >= enemy_rules.REVEAL else 0.0


_READERS = (quick, assessment, movement_plan, doctrine)  # modules that weigh reveal odds


def patch(on: bool = True) -> None:
    """Route the engine's reveal test and the planners' reveal odds through this study
    (inert for any dice but :class:`DeployedDice`); ``patch(False)`` restores them. On
    from import, in this study's processes; tests switch it off when done."""
    enemy_rules._reveal_roll = _reveal_from_deployment if on else _ENGINE_REVEAL
    for module in _READERS:
        module.reveal_chance = _reveal_chance if on else _QUICK_REVEAL


patch()


STUDY_BUDGET = CompanyBudget()  # as shipped


def _policy(name: str, seed: int):
    rng = random.Random(seed)
    _ORACLE_ODDS[0] = name == "steady+oracle" or (
        name.endswith("+oracle") and name.split("+")[0] in ca_doctrine.PRESETS
    )
    if name.split("+")[0] in ca_doctrine.PRESETS:
        return ca_doctrine.policy(name.split("+")[0])
    if name == "steady+oracle":
        return make_policy("steady", seed)
    if name == "best+oracle":
        return OracleBest(rng)
    if name == "company+oracle":
        return OracleCompany(rng, STUDY_BUDGET)
    if name == "company":
        return CompanyPlanner(rng, STUDY_BUDGET)
    return make_policy(name, seed)


def _play(state, policy):
    seat = state_seat(state)
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        apply(state, policy.act(state, seat))
    while not state.over:
        apply(state, _close_phase(state, seat))
    return state


def ceiling_game(args) -> tuple[str, int, int, int, int, int, float]:
    name, seed = args
    t = time.process_time()
    g = _play(deployed_game(seed), _policy(name, seed))
    own = sum(1 for u in g.units.values() if u.where == "broken")
    took = time.process_time() - t
    return name, seed, g.result.total, g.result.turns, g.enemy_platoons_broken, own, took


def _pool_map(fn, jobs_list, jobs: int, sink=None):
    """``fn`` over ``jobs_list`` (in order), each result also passed to ``sink`` as it ends."""
    out = []
    if jobs <= 1:
        results = map(fn, jobs_list)
        for r in results:
            out.append(r)
            if sink:
                sink(r)
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(fn, jobs_list, chunksize=1):
            out.append(r)
            if sink:
                sink(r)
    return out


def _paired(a: list[float], b: list[float]) -> tuple[float, float, float]:
    d = [x - y for x, y in zip(a, b)]
    m = statistics.fmean(d)
    half = Z95 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return m, m - half, m + half


def ceiling(games: int, seed: int, jobs: int, planners: list[str], out: str | None) -> None:
    """Play the games (appending each to ``out`` as it ends, resumable), then report."""
    names = ["passive", *planners]
    seeds = list(range(seed, seed + games))
    done = _read_rows(out) if out else []
    have = {(r[0], r[1]) for r in done}
    todo = [(n, s) for s in seeds for n in names if (n, s) not in have]
    t = time.perf_counter()

    def sink(row):
        if out:
            with open(out, "a") as f:
                f.write(json.dumps(row) + "\n")

    rows = done + _pool_map(ceiling_game, todo, jobs, sink)
    report_ceiling(rows, names, f"{time.perf_counter() - t:.0f} s, {jobs} job(s)")


def _read_rows(path: str) -> list:
    try:
        with open(path) as f:
            return [tuple(json.loads(line)) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def report_ceiling(rows, names: list[str], how: str) -> None:
    """The ceiling table over the seeds every policy in ``names`` has finished."""
    by: dict[str, dict[int, tuple]] = defaultdict(dict)
    for name, s, score, turns, eb, own, took in rows:
        by[name][s] = (score, turns, eb, own, took)
    seeds = sorted(set.intersection(*(set(by[n]) for n in names)))
    games, seed = len(seeds), seeds[0]
    print(
        f"\nceiling: {games} games a policy, seeds {seed}-{seeds[-1]}, "
        f"reveal dice rolled in advance ({how})"
    )
    print(
        "| policy | mean score | wins (Wilson 95 %) | − passive (95 %) | turns | "
        "enemy / own platoons broken | s a game |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    base = [by["passive"][s][0] for s in seeds]
    for n in names:
        sc = [by[n][s][0] for s in seeds]
        wins = sum(x >= WIN for x in sc)
        lo, hi = wilson(wins, len(sc))
        m, dlo, dhi = _paired(sc, base) if n != "passive" else (0.0, 0.0, 0.0)
        turns = statistics.fmean(by[n][s][1] for s in seeds)
        eb = statistics.fmean(by[n][s][2] for s in seeds)
        own = statistics.fmean(by[n][s][3] for s in seeds)
        sec = statistics.fmean(by[n][s][4] for s in seeds)
        diff = "—" if n == "passive" else f"{m:+.2f} ({dlo:+.2f} to {dhi:+.2f})"
        print(
            f"| {n} | {statistics.fmean(sc):.2f} | {wins / len(sc):.1%} ({lo:.1%}-{hi:.1%}) "
            f"| {diff} | {turns:.1f} | {eb:.2f} / {own:.2f} | {sec:.2f} |"
        )
    for n in names:
        if n.endswith("+oracle") and n.split("+")[0] in by:
            m, lo, hi = _paired(
                [by[n][s][0] for s in seeds], [by[n.split("+")[0]][s][0] for s in seeds]
            )
            print(
                f"value of knowing the deployment for {n.split('+')[0]}: "
                f"{m:+.2f} ({lo:+.2f} to {hi:+.2f}) a game"
            )


# --- the best moment to have stopped, in hindsight ----------------------------------------


def prophet_game(args) -> tuple[str, int, list, float]:
    """One game of ``name``, with the worth of ending it at the start of each turn.

    Not told the deployment, a turn's worth is the exact mean of the final reveal then
    (:func:`~.outlook.end_value`); told it (``+oracle``), the score that deployment gives.
    Returns the turns' (turn, worth) and the game's own worth where its policy left it.
    """
    name, seed = args
    told = name.endswith("+oracle")
    g, pol = deployed_game(seed), _policy("passive" if name.startswith("passive") else name, seed)
    seat, turn, worths, ended = state_seat(g), 0, [], False
    for _ in range(MAX_ACTIONS):
        if g.over:
            break
        if g.turn != turn and g.phase == "friendly_move" and check(g, EndGame(seat)) is None:
            turn = g.turn
            worths.append((turn, Oracle()._known_end(g) if told else end_value(g)[0]))
        a = pol.act(g, seat)
        ended = isinstance(a, EndGame)
        apply(g, a)
    while not g.over:
        apply(g, _close_phase(g, seat))
    own = worths[-1][1] if ended and worths else float(g.result.total)
    if not ended:
        worths.append((g.result.turns + 1, own))
    return name, seed, worths, own


def prophet(games: int, seed: int, jobs: int, planners: list[str]) -> None:
    """How much any rule for when to stop could add to each planner: the mean of the best
    turn's worth in hindsight (an upper bound on every stopping rule, since no rule can
    know the dice ahead), against passive valued the same way, told or not told."""
    names = [*planners]
    for base in ("passive", "passive+oracle"):
        if any(n.endswith("+oracle") == base.endswith("+oracle") for n in names):
            names.insert(0, base)
    t = time.perf_counter()
    rows = _pool_map(prophet_game, [(n, s) for s in range(seed, seed + games) for n in names], jobs)
    by = {(n, s): (w, own) for n, s, w, own in rows}
    seeds = range(seed, seed + games)
    print(
        f"\nstopping in hindsight: seeds {seed}-{seed + games - 1}, "
        f"{time.perf_counter() - t:.0f} s, {jobs} job(s)"
    )
    print(
        "| policy | its own − passive (95 %) | best stop in hindsight − passive (95 %) "
        "| turn of that stop: mean; games after turn 2 |"
    )
    print("| --- | --- | --- | --- |")
    for n in names:
        if n.startswith("passive"):
            continue
        base = [by["passive+oracle" if n.endswith("+oracle") else "passive", s][1] for s in seeds]
        own = [by[n, s][1] for s in seeds]
        best = [max(by[n, s][0], key=lambda tw: tw[1]) for s in seeds]
        m, lo, hi = _paired(own, base)
        pm, plo, phi = _paired([w for _, w in best], base)
        later = sum(t > 2 for t, _ in best)
        print(
            f"| {n} | {m:+.2f} ({lo:+.2f} to {hi:+.2f}) | {pm:+.2f} ({plo:+.2f} to {phi:+.2f}) "
            f"| {statistics.fmean(t for t, _ in best):.1f}; {later / games:.0%} |"
        )


# --- where the points go ----------------------------------------------------------------


def _cause(roll, h, attacked=frozenset()) -> str:
    """What hit ``h``; with ``attacked`` (the posts a doctrine attacker is after), fire
    from those is told apart from the other posts'."""
    d = roll.data
    if d.get("purpose") == "enemy fire on infantry":
        where = "adjacent" if distance(d["hex"], h) == 1 else "2+ hexes"
        whose = (
            ""
            if not attacked
            else ", the post attacked"
            if d["hex"] in attacked
            else ", another post"
        )
        return f"enemy fire, {where}{whose}"
    if roll.text.startswith("enemy mortars"):
        return "enemy mortars"
    return "own mortars"


class Ledger:
    """Reads a game's events as it is played: losses by cause, turn and kind of move."""

    def __init__(self, attacked=lambda: frozenset()):
        self.attacked = attacked
        self.losses: Counter = Counter()
        self.by_turn: Counter = Counter()
        self.by_move: Counter = Counter()
        self.broken: Counter = Counter()
        self.pinned_turns = 0
        self.stuck = 0
        self.lines: list[str] = []  # the sample game's notes
        self._seen = 0
        self._moved: dict[str, int] = {}
        self._streak: Counter = Counter()
        self._last_roll = None

    def before(self, state, action) -> None:
        if isinstance(action, (Enter, Move)):
            self._moved[action.unit] = state.turn
        if state.phase == "friendly_move" and not state.acted_this_turn and state.pending is None:
            self._turn_start(state)

    def _turn_start(self, state) -> None:
        if getattr(self, "_started", None) == state.turn:
            return
        self._started = state.turn
        for u in state.on_board():
            if u.is_infantry and not u.fresh:
                self.pinned_turns += 1
                self._streak[u.id] += 1
                if self._streak[u.id] == 3:
                    self.stuck += 1
            else:
                self._streak[u.id] = 0

    def after(self, state) -> None:
        for ev in state.events[self._seen :]:
            if ev.kind == "roll":
                self._last_roll = ev
                if ev.data.get("purpose") == "enemy fire on armour" and "broken" in ev.text:
                    self._last_cause = "enemy fire on armour"
                    self.broken[self._last_cause] += 1
            elif ev.kind == "losses" and ev.data.get("added") and self._last_roll is not None:
                self._loss(state, ev)
            elif ev.kind == "break" and ev.data.get("unit"):
                self.broken[self._last_cause] += 1
        self._seen = len(state.events)

    _last_cause = "?"

    def _loss(self, state, ev) -> None:
        h = ev.data["hex"]
        n = ev.data["added"]
        cause = self._last_cause = _cause(self._last_roll, h, self.attacked())
        self.losses[cause] += n
        self.by_turn[_turn_band(ev.turn)] += n
        kind = self._move_kind(state, h, ev.turn)
        self.by_move[kind] += n
        self.lines.append(
            f"    {ev.phase}: {state.label(h)} hit by {cause}, +{n} losses ({kind})"
            + (f", {ev.data['crossings']} platoon(s) broken" if ev.data.get("crossings") else "")
        )

    def _move_kind(self, state, h, turn) -> str:
        ids = [u for u in state.at.get(h, ())] or []
        moved = [u for u in ids if self._moved.get(u) == turn]
        if not moved:
            return "stood"
        if any(p.platoon is not None for x, p in state.enemy.items() if distance(x, h) == 1):
            return "closed next to a post"
        return "moved"


def _turn_band(t: int) -> str:
    return "turn 1" if t == 1 else "turns 2-3" if t <= 3 else "turns 4-8" if t <= 8 else "turns 9+"


def ledger_game(args) -> tuple[str, dict]:
    name, seed = args
    told = name.endswith("+oracle")  # an oracle reads the deployment rolled in advance
    g = deployed_game(seed) if told else new_game(seed, Options(auto_decisions=True))
    pol = _policy(name, seed)
    objectives = getattr(pol, "obj", None)  # a doctrine attacker's posts, by company
    led = Ledger(lambda: frozenset(x for x in objectives.values() if x)) if objectives else Ledger()
    seat = state_seat(g)
    for _ in range(MAX_ACTIONS):
        if g.over:
            break
        a = pol.act(g, seat)
        led.before(g, a)
        apply(g, a)
        led.after(g)
    while not g.over:
        apply(g, _close_phase(g, seat))
        led.after(g)
    return name, {
        "score": g.result.total,
        "turns": g.result.turns,
        "losses": dict(led.losses),
        "by_turn": dict(led.by_turn),
        "by_move": dict(led.by_move),
        "broken": dict(led.broken),
        "pinned_turns": led.pinned_turns,
        "stuck": led.stuck,
        "enemy_broken": g.enemy_platoons_broken,
    }


def losses(games: int, seed: int, jobs: int, policies: list[str]) -> None:
    rows = _pool_map(
        ledger_game, [(p, s) for s in range(seed, seed + games) for p in policies], jobs
    )
    print(
        f"\nwhere the points go: {games} games a policy, seeds {seed}-{seed + games - 1}, per game"
    )
    for p in policies:
        got = [r for n, r in rows if n == p]

        def per(key, got=got):
            tot = Counter()
            for r in got:
                tot.update(r[key])
            return {k: v / len(got) for k, v in sorted(tot.items())}

        print(
            f"\n{p}: mean score {statistics.fmean(r['score'] for r in got):.2f}, "
            f"turns {statistics.fmean(r['turns'] for r in got):.1f}, enemy platoons broken "
            f"{statistics.fmean(r['enemy_broken'] for r in got):.2f} (+4 each)"
        )
        print("  losses by cause:  " + _fmt(per("losses")))
        print("  losses by turn:   " + _fmt(per("by_turn")))
        print("  losses by move:   " + _fmt(per("by_move")))
        print("  platoons broken (−2 each) by cause: " + _fmt(per("broken")))
        print(
            f"  platoon-turns begun pinned {statistics.fmean(r['pinned_turns'] for r in got):.2f}, "
            f"pins that never lift (3 turn starts running) "
            f"{statistics.fmean(r['stuck'] for r in got):.2f}"
        )


def _fmt(d: dict) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in d.items()) or "none"


# --- one game read turn by turn -----------------------------------------------------------


def sample(seed: int, policy: str) -> None:
    g = new_game(seed, Options(auto_decisions=True))
    pol = _policy(policy, seed)
    led = Ledger()
    seat = state_seat(g)
    turn = 0
    print(f"\nsample game: {policy}, seed {seed}")
    for _ in range(MAX_ACTIONS):
        if g.over:
            break
        if g.turn != turn and g.phase == "friendly_move":
            turn = g.turn
            _flush(led)
            mean, win = end_value(g) if g.turn > 1 else (float("nan"), 0.0)
            print(
                f"turn {turn}: ending now would score {mean:.2f} on average "
                f"(win {win:.0%}); losses track {g.losses}, own broken "
                f"{len(g.broken_friendly())}, enemy broken {g.enemy_platoons_broken}"
            )
        a = pol.act(g, seat)
        led.before(g, a)
        if isinstance(a, (Enter, Move)):
            led.lines.append(f"    {a.unit} to {g.label(a.to)}")
        elif isinstance(a, DeclareFire):
            led.lines.append(f"    {', '.join(a.firers)} fire on {g.label(a.target)}")
        elif isinstance(a, EndGame):
            led.lines.append("    ends the game")
        apply(g, a)
        for ev in g.events[led._seen :]:
            if ev.kind == "roll" and "reveal test" in ev.text:
                led.lines.append(f"    {ev.text}")
            if ev.kind == "roll" and ev.data.get("purpose") == "friendly fire":
                led.lines.append(f"      {ev.text}")
            armour_hit = ev.data.get("purpose") == "enemy fire on armour" and "broken" in ev.text
            if ev.kind == "break" or (ev.kind == "roll" and armour_hit):
                led.lines.append(f"    {ev.text}")
        led.after(g)
    _flush(led)
    print(f"final score {g.result.total} after {g.result.turns} turns")


def _flush(led: Ledger) -> None:
    for line in led.lines:
        print(line)
    led.lines = []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=120, help="games a policy (120)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (1)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    ap.add_argument("--only", default="ceiling,losses,sample")
    ap.add_argument(
        "--planners",
        default="steady,steady+oracle,best,best+oracle",
        help="for the ceiling (also: company, company+oracle, bold, and any "
        "ca_doctrine.py setting with or without +oracle, e.g. doctrine_close+oracle)",
    )
    ap.add_argument("--out", default=None, help="ceiling: append each game here (resumable)")
    ap.add_argument("--summarize", default=None, help="ceiling: report an --out file so far")
    ap.add_argument("--loss-policies", default="steady,best,bold")
    ap.add_argument("--sample-seed", type=int, default=54)
    ap.add_argument("--sample-policy", default="steady")
    args = ap.parse_args()
    cases = set(args.only.split(","))
    if args.summarize:
        names = ["passive", *args.planners.split(",")]
        report_ceiling(_read_rows(args.summarize), names, f"read from {args.summarize}")
        return
    if "ceiling" in cases:
        ceiling(args.games, args.seed, args.jobs, args.planners.split(","), args.out)
    if "prophet" in cases:
        prophet(args.games, args.seed, args.jobs, args.planners.split(","))
    if "losses" in cases:
        losses(args.games, args.seed, args.jobs, args.loss_policies.split(","))
    if "sample" in cases:
        sample(args.sample_seed, args.sample_policy)


if __name__ == "__main__":
    main()
