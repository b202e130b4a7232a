"""The human reference (issue 26): Sabin's sample game replayed as orders and valued.

Run:  .venv/bin/python benchmarks/ca_sample_game.py [--seeds 200] [--only NAMES] [--best-seeds 40]

CA "Sample Game" tells 18 of its 20 turns (turns 13 and 14 are missing from the text we have),
but its figures, which hold the board and where every platoon stands, are lost. A turn
can be replayed only where a position can be rebuilt that fits every hex, number and
relation the text states (docs/rules-notes.md, "The rebuilt positions"):

* **turn 1, the opening** (move phase): the board rebuilt here (:func:`opening_state`:
  dense terrain, 8 defensive hexes in each group of three rows, poor going on the
  attacker's left, the central wood at 4d, the farm at 4g, the crests 1b and 2b of the
  turn-4 position) with a potential counter on every defensive hex of rows 4-9
  (CA "The Units"); the orders: the leading tanks down the road with the road bonus,
  the infantry on the right flank, the MMGs central, F company kept back;
* **turns 4, 5, 11, 15 and 20** (fire phase): ``scenarios/ca/sample-turn*.toml``, the
  rebuilt positions that reproduce the text's quoted odds; the orders are the text's.

Each position is played for the rest of its turn on planning copies with the decision's
orders (the script skips an order the engine refuses on a copy, e.g. a target already
broken), then valued by the exact expected score of ending there
(:func:`~hexclass.classroom.combined_arms.outlook.end_distribution`); the infantry
losses taken in the turn are counted too, since a pin that saves losses without
breaking anybody does not move the end value. Every decision
is played on the same dice seeds (common random numbers): the human's orders, sitting
the phase out, and the bots' own orders in the same position (steady; the approach
executor; ``best`` and the company planner where they differ, i.e. in the move phase —
in the fire phase every bot fires with steady's fire plan). Paired differences, human
minus each, with their standard errors.

The rebuilt positions hold only the pieces the text names, so a value is that of the
decision in that small position, not of the whole game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from hexclass.classroom.combined_arms import (
    CallMortar,
    DeclareFire,
    Enter,
    apply,
    check,
)
from hexclass.classroom.combined_arms.board import potential_posts
from hexclass.classroom.combined_arms.bots.approach import ApproachPolicy
from hexclass.classroom.combined_arms.bots.base import _close_phase, decide
from hexclass.classroom.combined_arms.bots.company import CompanyPlanner
from hexclass.classroom.combined_arms.bots.search import BestPolicy, HoldPolicy
from hexclass.classroom.combined_arms.bots.steady import SteadyPolicy
from hexclass.classroom.combined_arms.outlook import end_distribution, planning_copy
from hexclass.classroom.combined_arms.positions import Position, state_from_position
from hexclass.classroom.combined_arms.scenarios import start
from hexclass.classroom.combined_arms.state import GameState, Options

P = "player"

# The opening board, row 1 (your rear edge) first. The rebuilt fire-phase positions put
# E company left of the road in the engine's lettering, so the attacker's right flank is
# the low letters and the poor going of the attacker's left the high ones.
OPENING_ROWS = [
    "    w c . r . p p",
    "   c c . w r . p p",
    "  w . . . r . c p w",
    " p p . w . r f . . .",
    ". W . . . r . . . c .",
    " w . . . . r . c w c",
    "  w . . . r . W c .",
    "   . W . . r w . c",
    "    . . f r . c .",
]


def opening_state(seed: int = 0) -> GameState:
    """Turn 1 of the sample game on the rebuilt board: every platoon off the board, a
    potential counter (with a potential ATG where the field allows) on each defensive hex
    of rows 4-9 (CA "The Units")."""
    rows = {"board": {"rows": OPENING_ROWS}}
    board = Position.from_dict({**rows, "tracks": {"turn": 1}}).board
    enemy = [
        {
            "hex": board.label(p.hex),
            "platoon": "potential",
            "atg": "potential" if p.with_atg else "none",
            "fresh": True,
            "atg_removed": False,
        }
        for p in potential_posts(board)
    ]
    data = {**rows, "tracks": {"turn": 1, "phase": "friendly_move"}, "enemy": enemy}
    position = Position.from_dict(data, "<sample game, turn 1>")
    return state_from_position(position, seed, Options(auto_decisions=True))


def opening_orders(g: GameState) -> list:
    """CA "Sample Game", turn 1: the leading tanks by the road (A2 with the 2-hex road
    entry), the infantry of D and E companies on the right flank, the MMGs central,
    F company in reserve (off the board)."""
    at = g.board.hex_at
    return [
        Enter(P, "A2", at("2e"), 4),
        Enter(P, "A3", at("1d"), 4),
        Enter(P, "A1", at("1e"), 4),
        Enter(P, "M1", at("1c"), None),
        Enter(P, "M2", at("1b"), None),
        Enter(P, "E1", at("1a"), None),
        Enter(P, "E2", at("1a"), None),
        Enter(P, "E3", at("1a"), None),
        Enter(P, "D1", at("1c"), None),
        Enter(P, "D2", at("1c"), None),
        Enter(P, "D3", at("1c"), None),
    ]


@dataclass(frozen=True)
class Turn:
    name: str
    build: Callable[[], GameState]
    orders: Callable[[GameState], list]
    text: str


def _fire(target: str, *firers: str):
    return lambda g: DeclareFire(P, g.board.hex_at(target), tuple(firers))


def _mortar(target: str, spotter: str):
    return lambda g: CallMortar(P, g.board.hex_at(target), spotter)


def _scenario(name: str):
    return lambda: start(name, options=Options(auto_decisions=True))


def _orders(*makers):
    return lambda g: [m(g) for m in makers]


TURNS = [
    Turn(
        "turn 1",
        opening_state,
        opening_orders,
        "tanks down the road (road bonus), D and E on the right, MMGs central, F kept back",
    ),
    Turn(
        "turn 4",
        _scenario("sample-turn04-covering-fire"),
        _orders(_fire("4d", "M2", "A3", "E3")),
        "M2 and A3 cover the wood, E3 spends ammo to lift the pin chance to 78%",
    ),
    Turn(
        "turn 5",
        _scenario("sample-turn05-assault"),
        _orders(_fire("4d", "E1", "E2")),
        "E1 and E2 assault the wood together (56% to break), nobody else fires",
    ),
    Turn(
        "turn 11",
        _scenario("sample-turn11-fire-lane"),
        _orders(_fire("6a", "D1", "A2"), _fire("6i", "A1"), _fire("5j", "A3")),
        "D1 and A2 down the fire lane on 6a (67%); A1 and A3 at 33% each on 6i and 5j",
    ),
    Turn(
        "turn 15",
        _scenario("sample-turn15-tanks-at-risk"),
        _orders(_fire("6a", "A2")),
        "A2 stays engaged and fires on 6a (the mortars' target is not in the position)",
    ),
    Turn(
        "turn 20",
        _scenario("sample-turn20-last-gamble"),
        _orders(_mortar("7g", "D2"), _fire("8b", "E1"), _fire("7g", "A1")),
        "E1 alone assaults 8b, the mortars and A1 keep 7g pinned",
    ),
]


class Script:
    """Plays given orders in the phase it starts in (skipping any the engine refuses on
    this copy), then closes each phase until the turn ends."""

    name = "human"

    def __init__(self, orders: list):
        self.left = list(orders)
        self.phase: tuple | None = None

    def act(self, state: GameState, seat: str):
        if state.pending is not None:
            return decide(state, seat)
        key = (state.turn, state.phase)
        if self.phase is None:
            self.phase = key
        while key == self.phase and self.left:
            a = self.left.pop(0)
            if check(state, a) is None:
                return a
        return _close_phase(state, seat)


def _bots(move_phase: bool) -> dict[str, Callable[[int], object]]:
    out: dict[str, Callable[[int], object]] = {
        "hold": lambda s: HoldPolicy(),
        "steady": lambda s: SteadyPolicy(None),
        "approach": lambda s: ApproachPolicy(None),
    }
    if move_phase:
        out["best"] = lambda s: BestPolicy(random.Random(s))
        out["company"] = lambda s: CompanyPlanner(random.Random(s))
    return out


def losses_taken(before: GameState, after: GameState) -> int:
    """Infantry losses taken between two states of one game: 8 for each infantry
    platoon broken (CA "Fire Attacks": losses pass 7 to 0) plus the move on the track."""
    broken = [u for u in after.broken_friendly() if not u.startswith("A")]
    was = [u for u in before.broken_friendly() if not u.startswith("A")]
    return 8 * (len(broken) - len(was)) + after.losses - before.losses


def play_turn(state: GameState, policy, seed: int, taken: list | None = None) -> tuple[float, list]:
    """Expected score of ending after playing the rest of this turn with ``policy`` on a
    planning copy seeded with ``seed``; also the orders given in the starting phase
    (the infantry losses of the turn are appended to ``taken`` if given)."""
    c = planning_copy(state, random.Random(seed))
    turn, phase, done = c.turn, c.phase, []
    for _ in range(400):
        if c.over or c.turn != turn:
            break
        a = policy.act(c, P)
        if c.phase == phase and not isinstance(a, type(_close_phase(c, P))):
            done.append(a)
        apply(c, a)
    if taken is not None:
        taken.append(losses_taken(state, c))
    if c.over:
        return float(c.result.total), done
    return sum(s * p for s, p in end_distribution(c).items()), done


def describe(state: GameState, orders: list) -> str:
    out = []
    for a in orders:
        if isinstance(a, DeclareFire):
            out.append(f"{'+'.join(a.firers)}>{state.label(a.target)}")
        elif isinstance(a, CallMortar):
            out.append(f"mortar>{state.label(a.target)}")
        elif hasattr(a, "unit") and hasattr(a, "to"):
            out.append(f"{a.unit}@{state.label(a.to)}")
        elif hasattr(a, "unit"):
            out.append(f"{type(a).__name__} {a.unit}")
    return " ".join(out) or "(nothing)"


def study(turn: Turn, seeds: int, best_seeds: int) -> dict:
    state = turn.build()
    move_phase = state.phase == "friendly_move"
    rows: dict[str, list[float]] = {}
    hurt: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    t0 = time.perf_counter()
    deciders: dict[str, Callable[[int], object]] = {"human": lambda s: Script(turn.orders(state))}
    deciders.update(_bots(move_phase))
    for name, make in deciders.items():
        n = best_seeds if name in ("best", "company") else seeds
        got, hurt[name] = [], []
        for k in range(n):
            v, done = play_turn(state, make(k), 10_000 + k, hurt[name])
            got.append(v)
            if k == 0:
                shown[name] = describe(state, done)
        rows[name] = got
    human = rows["human"]
    print(f"\n{turn.name} ({state.phase}): {turn.text}")
    for name, got in rows.items():
        line = (
            f"  {name:9s} mean {statistics.fmean(got):6.2f} over {len(got):4d} seeds, "
            f"losses {statistics.fmean(hurt[name]):4.2f}"
        )
        if name != "human":
            diffs = [h - g for h, g in zip(human, got)]
            se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
            line += f"   human - {name} {statistics.fmean(diffs):+.2f} (SE {se:.2f})"
        print(line + f"   first seed: {shown[name]}")
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200, help="playouts per decision (200)")
    ap.add_argument("--best-seeds", type=int, default=40, help="playouts for best/company (40)")
    ap.add_argument("--only", default="", help="turn names, comma-separated (e.g. 'turn 1')")
    args = ap.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    for turn in TURNS:
        if not only or turn.name in only:
            study(turn, args.seeds, args.best_seeds)


if __name__ == "__main__":
    main()
