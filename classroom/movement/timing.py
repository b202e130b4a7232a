"""One turn of movement, phase by phase (PBM "Movement Phasing by Unit Type", "Admin
movement", "Physical Control", "Pursuit", "Breakthrough").

:func:`run_turn` plays the 12 movement phases for every unit at once:

1. each unit works on its next instruction: a tactical step gathers one movement point
   in each of the unit's spending phases (:mod:`.phasing`) and enters the hex when it
   has gathered the hex's cost; a wait burns the next spending phase; an admin move
   drives to the next centre (or road hex) on an even phase only;
2. units of two sides in one hex fight a round of combat (a simple strength contest
   stands in for the design's combat rules, which the source does not give); admin
   movers fight at -3 and their attackers at +3; losers retreat and stop, winners may
   pursue, break through, or carry on;
3. physical control of every centre is settled at the end of the phase.

>>> from .units import UnitType
>>> from .world import World, rectangle
>>> w = World(rectangle(3, 4))
>>> t = run_turn(w, [Mover("apc", "blue", UnitType.MECHANISED, (1, 2), parse_orders("1,1"))])
>>> t.position("apc", 1), t.position("apc", 2), t.position("apc", 12)
((1, 1), (1, 0), (1, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from hexclass.classroom.dice import Dice
from hexclass.classroom.hexgrid import Hex

from .errors import MovementInputError
from .hexmap import direction_between, opposite, step
from .orders import Admin, Instruction, Step, Wait, parse_orders
from .phasing import PHASES, spending_phases
from .units import Mover
from .world import World, economic_control

ADMIN_LIMIT = 6  # centres an admin mover may pass into in one turn (PBM "Admin movement")
ADMIN_PENALTY = 3  # the design note's "+3 -3" for combat against admin movers
PURSUIT_CHANCE = {  # percent, by the terrain the retreating unit is in (PBM "Pursuit")
    "clear": 90, "village": 90, "forest": 75, "hill": 75, "town": 75, "city": 75,
    "marsh": 50, "jungle": 25, "mountain": 25,
}  # fmt: skip

R_PHASING = 'PBM "Movement Phasing by Unit Type"'
R_ADMIN = 'PBM "Admin movement"'
R_CONTROL = 'PBM "Physical Control"'
R_PURSUIT = 'PBM "Pursuit"'
R_BREAK = 'PBM "Breakthrough"'
R_WAIT = 'PBM "wait orders"'
R_COMBAT = "stand-in combat, see docs/rules-notes.md"

# What a unit did in a phase, for the timing chart.
IDLE, GATHER, ENTER, WAIT, BOARD, DRIVE, FIGHT, RETREAT, PURSUE, STOPPED = (
    "·", "+", "→", "0", "b", "A", "⚔", "r", "p", "■",
)  # fmt: skip


@dataclass(frozen=True)
class Event:
    phase: int
    unit: str
    text: str
    rule: str

    def __str__(self) -> str:
        return f"phase {self.phase}: {self.unit} {self.text} ({self.rule})"


@dataclass
class _State:
    mover: Mover
    hex: Hex
    queue: list[Instruction]
    came_from: Hex | None = None
    progress: int = 0
    step_cost: int | None = None
    used: set[int] = field(default_factory=set)
    boarded: bool = False
    mode: str = "tactical"
    status: str = "ready"  # ready, combat, pursuing, done, out
    admin_moves: int = 0
    combat_rounds: int = 0
    target: str | None = None
    ignoring: set[str] = field(default_factory=set)
    alive: bool = True
    entered_this_phase: bool = False

    @property
    def name(self) -> str:
        return self.mover.name

    @property
    def side(self) -> str:
        return self.mover.side

    @property
    def spending(self) -> tuple[int, ...]:
        return spending_phases(self.mover.allowance)

    @property
    def remaining(self) -> int:
        return self.mover.allowance - len(self.used)


@dataclass(frozen=True)
class PhaseRecord:
    phase: int
    positions: dict[str, Hex | None]
    actions: dict[str, str]
    control: dict[int, str | None]
    modes: dict[str, str]


@dataclass(frozen=True)
class TurnResult:
    world: World
    units: tuple[Mover, ...]
    phases: tuple[PhaseRecord, ...]  # index 0 is the start of the turn, then phases 1-12
    events: tuple[Event, ...]
    spent: dict[str, int]

    def position(self, name: str, phase: int) -> Hex | None:
        """Where ``name`` is at the end of ``phase`` (0: the start); None once destroyed."""
        return self.phases[phase].positions[name]

    def arrival(self, name: str, h: Hex) -> int | None:
        """The first phase at whose end ``name`` stands in ``h``."""
        for rec in self.phases[1:]:
            if rec.positions[name] == h:
                return rec.phase
        return None

    def control(self, centre: int, phase: int) -> str | None:
        return self.phases[phase].control[centre]

    def chart(self, name: str) -> str:
        """One character per phase: what the unit did (see the symbols in this module)."""
        return "".join(rec.actions[name] for rec in self.phases[1:])

    def events_for(self, name: str) -> list[Event]:
        return [e for e in self.events if e.unit == name]


def check_orders(unit: Mover) -> tuple[Instruction, ...]:
    orders = parse_orders(unit.orders)
    if len(orders) > unit.allowance:
        raise MovementInputError(
            f"{unit.name} has {unit.allowance} movement points, so at most {unit.allowance} "
            f"instructions; got {len(orders)} ({R_PHASING})"
        )
    return orders


def run_turn(world: World, units: Sequence[Mover], seed: int = 0) -> TurnResult:
    """Play the 12 movement phases of one turn. ``seed`` feeds the pursuit rolls."""
    names = [u.name for u in units]
    if len(set(names)) != len(names):
        raise MovementInputError("every unit needs its own name")
    states = []
    for u in units:
        if u.hex not in world.terrain:
            raise MovementInputError(f"{u.name} starts off the map at {u.hex}")
        states.append(_State(u, u.hex, list(check_orders(u))))
    turn = _Turn(world, states, Dice(seed))
    return turn.play()


class _Turn:
    def __init__(self, world: World, states: list[_State], dice: Dice) -> None:
        self.world, self.states, self.dice = world, states, dice
        self.events: list[Event] = []
        self.control: dict[int, str | None] = {}
        self._settle_control(0, initial=True)
        self.records = [self._record(0, {s.name: IDLE for s in states})]

    # --- bookkeeping --------------------------------------------------------------------
    def log(self, phase: int, s: _State, text: str, rule: str) -> None:
        self.events.append(Event(phase, s.name, text, rule))

    def _record(self, phase: int, actions: dict[str, str]) -> PhaseRecord:
        return PhaseRecord(
            phase,
            {s.name: (s.hex if s.alive else None) for s in self.states},
            dict(actions),
            dict(self.control),
            {s.name: s.mode for s in self.states},
        )

    def at(self, h: Hex) -> list[_State]:
        return [s for s in self.states if s.alive and s.hex == h]

    def hostile_at(self, h: Hex, side: str) -> list[_State]:
        return [s for s in self.at(h) if s.side != side]

    def play(self) -> TurnResult:
        for p in range(1, PHASES + 1):
            actions = {s.name: IDLE for s in self.states}
            for s in self.states:
                s.entered_this_phase = False
            for s in self.states:
                if s.alive:
                    self._act(p, s, actions)
            self._contacts(p, actions)
            self._settle_control(p)
            self.records.append(self._record(p, actions))
        return TurnResult(
            self.world,
            tuple(s.mover for s in self.states),
            tuple(self.records),
            tuple(self.events),
            {s.name: len(s.used) for s in self.states},
        )

    # --- physical control (PBM "Physical Control") ----------------------------------------
    def _settle_control(self, phase: int, initial: bool = False) -> None:
        """Control is fixed at the end of each phase by who is present; an empty centre
        goes to its economic owner; an installation keeps its controller until an enemy
        unit passes through."""
        base = economic_control(self.world)
        for cid, c in self.world.centres.items():
            sides = {s.side for s in self.at(c.hex)}
            before = self.control.get(cid, base[cid])
            if len(sides) == 1:
                now = next(iter(sides))
            elif len(sides) > 1:
                now = None  # contested: nobody may start an admin move there
            else:
                now = before if c.installation else base[cid]
            if not initial and now != before:
                holder = now or "nobody (contested)"
                self.events.append(
                    Event(phase, c.name, f"is now controlled by {holder}", R_CONTROL)
                )
            self.control[cid] = now

    # --- one unit, one phase ---------------------------------------------------------------
    def _act(self, p: int, s: _State, actions: dict[str, str]) -> None:
        if s.status == "pursuing":
            self._pursue(p, s, actions)
            return
        if s.status != "ready" or not s.queue:
            return
        if s.mover.organisation <= 0:
            self.log(p, s, "has no organisation left and cannot move", R_PHASING)
            s.status = "done"
            return
        instr = s.queue[0]
        spend = p in s.spending and p not in s.used
        if isinstance(instr, Wait):
            if spend:
                s.used.add(p)
                s.queue.pop(0)
                actions[s.name] = WAIT
            return
        if isinstance(instr, Step):
            self._step(p, s, instr, spend, actions)
            return
        self._admin(p, s, instr, spend, actions)

    def _step(self, p: int, s: _State, instr: Step, spend: bool, actions: dict[str, str]) -> None:
        target = step(s.hex, instr.direction)
        if s.step_cost is None:
            cost, why = self.world.step_cost(s.mover, s.hex, target)
            if cost is None:
                self.log(
                    p, s, f"cannot move {instr.direction}: {why}; its movement ends", R_PHASING
                )
                self._stop(s, actions)
                return
            if cost > s.remaining:
                self.log(
                    p,
                    s,
                    f"needs {cost} MP for {why} but has {s.remaining} left; its movement ends",
                    R_PHASING,
                )
                self._stop(s, actions)
                return
            s.step_cost, s.progress = cost, 0
        if not spend:
            return
        s.used.add(p)
        s.progress += 1
        actions[s.name] = GATHER
        if s.progress >= s.step_cost:
            s.came_from, s.hex = s.hex, target
            s.step_cost, s.progress = None, 0
            s.queue.pop(0)
            s.mode = "tactical"
            s.entered_this_phase = True
            actions[s.name] = ENTER

    def _stop(self, s: _State, actions: dict[str, str]) -> None:
        s.status, s.queue = "done", []
        actions[s.name] = STOPPED

    def _admin(self, p: int, s: _State, instr: Admin, spend: bool, actions: dict[str, str]) -> None:
        if s.remaining <= 0:
            self.log(p, s, "has no movement points left for the admin move", R_ADMIN)
            self._stop(s, actions)
            return
        if p % 2:  # odd phase: an MP spent now boards the transport for the next phase
            if spend:
                s.used.add(p)
                s.boarded = True
                actions[s.name] = BOARD
            return
        if not spend and not s.boarded:
            return  # this unit has no movement point in this two-phase window
        limit = ADMIN_LIMIT - s.combat_rounds
        if s.admin_moves >= limit:
            self.log(
                p,
                s,
                f"has used its {limit} admin moves this turn ({ADMIN_LIMIT} less one per round of combat)",
                R_ADMIN,
            )
            self._stop(s, actions)
            return
        try:
            path = self.world.admin_path(s.hex, instr, s.side, self.control)
        except MovementInputError as exc:
            self.log(p, s, f"cannot admin move: {exc}", R_ADMIN)
            self._stop(s, actions)
            return
        if spend:
            s.used.add(p)
        s.boarded = False
        s.queue.pop(0)
        s.admin_moves += 1
        s.mode = "admin"
        actions[s.name] = DRIVE
        start = s.hex
        for h in path:
            s.came_from, s.hex = s.hex, h
            s.entered_this_phase = True
            if self.hostile_at(h, s.side):
                # Stopped on the route: if the hostiles are beaten or leave, the move
                # carries on from here on a later even phase.
                self.log(
                    p, s, f"drives into hostile units at {self.world.label(h)} and stops", R_ADMIN
                )
                if h != path[-1]:
                    s.queue.insert(0, instr)
                return
            c = self.world.centre_at(h)
            if c is not None and self.control.get(c.id) != s.side:
                self.log(
                    p,
                    s,
                    f"enters {c.name}, which is not under friendly control, and stops this phase",
                    R_ADMIN,
                )
                return
        c = self.world.centre_at(s.hex)
        where = c.name if c else f"hex {self.world.label(s.hex)}"
        self.log(p, s, f"drives from {self.world.label(start)} to {where}", R_ADMIN)

    # --- combat, retreat, pursuit --------------------------------------------------------------
    def _contacts(self, p: int, actions: dict[str, str]) -> None:
        hexes = {s.hex for s in self.states if s.alive}
        for h in sorted(hexes):
            here = self.at(h)
            sides = {s.side for s in here}
            if len(sides) < 2:
                for s in here:
                    if s.status == "combat":
                        s.status = "ready"
                continue
            fighting = [
                s
                for s in here
                if not (s.ignoring and all(o.name in s.ignoring for o in here if o.side != s.side))
            ]
            if len({s.side for s in fighting}) < 2:
                continue
            self._battle(p, h, fighting, actions)

    def _battle(self, p: int, h: Hex, here: list[_State], actions: dict[str, str]) -> None:
        sides = sorted({s.side for s in here})
        a, b = sides[0], sides[1]
        score = {side: sum(s.mover.strength for s in here if s.side == side) for side in sides}
        admin = {side: any(s.mode == "admin" for s in here if s.side == side) for side in sides}
        for side, other in ((a, b), (b, a)):
            if admin[side] and not admin[other]:
                score[side] -= ADMIN_PENALTY
                score[other] += ADMIN_PENALTY
        for s in here:
            s.combat_rounds += 1
            actions[s.name] = FIGHT
        text = ", ".join(f"{side} {score[side]}" for side in sides)
        if score[a] == score[b]:
            for s in here:
                s.status = "combat"
                self.log(
                    p,
                    s,
                    f"fights a drawn round at {self.world.label(h)} ({text})",
                    R_ADMIN if admin[s.side] else R_COMBAT,
                )
            self._breakthrough(p, here)
            return
        win, lose = (a, b) if score[a] > score[b] else (b, a)
        winners = [s for s in here if s.side == win]
        losers = [s for s in here if s.side == lose]
        anti_armour = any(s.mover.anti_tank or s.mover.kind.armoured for s in losers)
        pursuers = [w for w in winners if self._will_pursue(w, anti_armour)]
        for w in winners:
            self.log(
                p,
                w,
                f"wins a round at {self.world.label(h)} ({text})",
                R_ADMIN if any(admin.values()) else R_COMBAT,
            )
        direction = self._retreat_direction(h, winners, losers)
        for loser in losers:
            self._retreat(p, loser, direction, 2 if pursuers else 1, actions)
        for w in winners:
            if w.mode == "admin":
                w.status = "ready"
                left = ADMIN_LIMIT - w.combat_rounds - w.admin_moves
                self.log(
                    p,
                    w,
                    f"resumes its admin move; {max(left, 0)} more centres at most this turn",
                    R_ADMIN,
                )
            elif w in pursuers:
                self._start_pursuit(p, w, losers, direction, actions)
            elif w.mover.pursuit == 3 and not anti_armour:
                w.status = "ready"
                self.log(p, w, "breaks through and carries on with its orders", R_BREAK)
            else:
                w.status = "ready"

    def _breakthrough(self, p: int, here: list[_State]) -> None:
        for s in here:
            enemies = [o for o in here if o.side != s.side]
            if s.mover.pursuit == 3 and not any(
                o.mover.anti_tank or o.mover.kind.armoured for o in enemies
            ):
                s.status = "ready"
                s.ignoring |= {o.name for o in enemies}
                self.log(p, s, "ignores the enemy after the first round and moves on", R_BREAK)

    def _will_pursue(self, w: _State, anti_armour: bool) -> bool:
        option = w.mover.pursuit
        if option == 1 or (option == 3 and not anti_armour):
            return False
        has_moves = any(isinstance(i, Step | Admin) for i in parse_orders(w.mover.orders))
        return w.mover.aggression >= (5 if has_moves else 7)

    def _retreat_direction(self, h: Hex, winners: list[_State], losers: list[_State]) -> int:
        """Losers fall back the way they came if they moved in; else they are pushed on,
        away from the hex the winners came from."""
        for loser in losers:
            if loser.entered_this_phase and loser.came_from is not None:
                d = direction_between(h, loser.came_from)
                if d:
                    return d
        for w in winners:
            if w.came_from is not None:
                d = direction_between(w.came_from, h)
                if d:
                    return d
        return 4

    def _open(self, s: _State, a: Hex, b: Hex) -> bool:
        cost, _ = self.world.step_cost(s.mover, a, b)
        return cost is not None and not self.hostile_at(b, s.side)

    def _retreat(
        self, p: int, s: _State, direction: int, hexes: int, actions: dict[str, str]
    ) -> None:
        moved = 0
        for _ in range(hexes):
            for d in (direction, direction % 6 + 1, (direction - 2) % 6 + 1):
                nxt = step(s.hex, d)
                if self._open(s, s.hex, nxt):
                    s.came_from, s.hex = s.hex, nxt
                    moved += 1
                    break
            else:
                break
        s.status, s.queue, s.mode = "out", [], "tactical"
        actions[s.name] = RETREAT
        if moved == 0:
            s.alive = False
            self.log(p, s, "has nowhere to retreat and is destroyed", R_PURSUIT)
        else:
            chased = " (pursued)" if hexes == 2 else ""
            self.log(
                p,
                s,
                f"retreats {moved} hex{'es' if moved > 1 else ''}{chased} to {self.world.label(s.hex)}; its movement ends",
                R_PURSUIT,
            )

    def _start_pursuit(
        self, p: int, w: _State, losers: list[_State], direction: int, actions: dict[str, str]
    ) -> None:
        alive = [x for x in losers if x.alive]
        if not alive:
            w.status = "ready"
            return
        # chase the slowest, then the smallest
        target = min(alive, key=lambda x: (x.mover.allowance, x.mover.strength, x.name))
        nxt = step(w.hex, direction)
        w.status, w.target, w.queue = "pursuing", target.name, []
        actions[w.name] = PURSUE
        if self._open(w, w.hex, nxt):
            w.came_from, w.hex = w.hex, nxt
            self.log(
                p,
                w,
                f"pursues {target.name} one hex to {self.world.label(w.hex)}, dropping its other orders",
                R_PURSUIT,
            )
        else:
            self.log(
                p,
                w,
                f"pursues {target.name}, dropping its other orders, but cannot follow into {self.world.label(nxt)}",
                R_PURSUIT,
            )

    def _pursue(self, p: int, s: _State, actions: dict[str, str]) -> None:
        target = next((x for x in self.states if x.name == s.target), None)
        if target is None or not target.alive:
            s.status = "done"
            return
        if p not in s.spending or p in s.used:
            return
        s.used.add(p)
        terrain = self.world.terrain[target.hex]
        if self.world.step_cost(s.mover, target.came_from or s.hex, target.hex)[0] is None:
            s.status = "done"
            actions[s.name] = STOPPED
            self.log(
                p, s, f"cannot follow {target.name} into {terrain}; its movement ends", R_PURSUIT
            )
            return
        chance = PURSUIT_CHANCE.get(terrain, 50)
        if s.mover.allowance < target.mover.allowance:
            chance //= 2  # the quarry is faster
        roll = self.dice.below(100)
        if roll < chance:
            s.came_from, s.hex = s.hex, target.hex
            s.entered_this_phase = True
            s.status = "ready"
            actions[s.name] = PURSUE
            self.log(
                p,
                s,
                f"catches {target.name} in {terrain} (rolled {roll} under {chance}%)",
                R_PURSUIT,
            )
        else:
            s.status = "done"
            actions[s.name] = STOPPED
            self.log(
                p,
                s,
                f"loses {target.name} in {terrain} (rolled {roll}, needed under {chance}%); its movement ends",
                R_PURSUIT,
            )


def with_orders(units: Iterable[Mover], **orders: str) -> list[Mover]:
    """Copies of ``units`` with new orders for the named ones (``name="1,1,0"``)."""
    return [replace(u, orders=orders[u.name]) if u.name in orders else u for u in units]


__all__ = ["Event", "PhaseRecord", "TurnResult", "run_turn", "with_orders", "opposite"]
