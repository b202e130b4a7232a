"""The log sheet: CPs spent and Cohesion for each unit, with the reasons for each change.

Each unit's line is a frozen :class:`UnitLog`. The functions here (``spend``,
``close_assault_result``, ``break_off``, ``end_stage`` ...) take a line and return an
:class:`Outcome`: the new line plus the :class:`LogEntry` records that explain what
happened, each citing its rule. :class:`LogSheet` keeps the lines of many units and
the journal of entries, for a live log-sheet view.

>>> from hexclass.classroom.cna.capability import Function, Unit, UnitKind
>>> out = spend(UnitLog(Unit("tanks", UnitKind.ARMOR, cpa=15)), Function.MOVEMENT, 18)
>>> out.log.cohesion, [e.line() for e in out.entries][-1]
(-3, '-3 DPs: spent 18 of CPA 15 this stage (CNA 6.21)')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from hexclass.classroom.cna import cohesion as coh
from hexclass.classroom.cna.capability import Function, Unit, overrun, voluntary_cp_limit
from hexclass.classroom.cna.errors import (
    CNAInputError,
    RuleViolation,
    require_cp_amount,
    require_int,
)
from hexclass.classroom.cna.movement import Engagement, Occasion, break_off_cost, break_off_rule


def _fmt(x: Fraction | int) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _plural(n, unit: str) -> str:
    """'1 CP' but '2 CPs' and '0.5 CPs'."""
    return unit if n == 1 else unit + "s"


class EntryKind(Enum):
    SPEND = "spent CPs"
    DISORGANIZATION = "Disorganization Points"
    REORGANIZATION = "Reorganization Points"
    STAGE_END = "end of stage"
    SURRENDER = "surrender"


@dataclass(frozen=True)
class LogEntry:
    """One explained change on a unit's line."""

    unit: str
    stage: int
    kind: EntryKind
    rule: str
    text: str
    cps: Fraction = Fraction(0)
    dps: int = 0
    rps: int = 0
    cohesion_before: int = 0
    cohesion_after: int = 0
    spent_after: Fraction = Fraction(0)

    def line(self) -> str:
        """A short line for a widget, e.g. '-3 DPs: spent 18 of CPA 15 this stage (CNA 6.21)'."""
        if self.kind is EntryKind.DISORGANIZATION:
            head = f"-{self.dps} {_plural(self.dps, 'DP')}: "
        elif self.kind is EntryKind.REORGANIZATION:
            head = f"+{self.rps} {_plural(self.rps, 'RP')}: "
        elif self.kind is EntryKind.SPEND:
            head = f"{_fmt(self.cps)} {_plural(self.cps, 'CP')}: "
        else:
            head = ""
        return f"{head}{self.text} ({self.rule})"


@dataclass(frozen=True)
class UnitLog:
    """A unit's line: its Cohesion Level and the CPs it has spent in the current stage.

    ``overrun_dps`` counts the DPs already charged this stage for going past the CPA, so
    each expenditure adds only the new ones (CNA 6.21, 6.22).
    """

    unit: Unit
    cohesion: int = 0
    spent: Fraction = Fraction(0)
    overrun_dps: int = 0
    stage: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.unit, Unit):
            raise CNAInputError(f"expected a Unit on the log line, got {self.unit!r}")
        coh.require_level(self.cohesion, f"the Cohesion Level of {self.unit.name}")
        object.__setattr__(self, "spent", require_cp_amount(self.spent, "CPs spent"))
        require_int(self.overrun_dps, "DPs charged this stage", minimum=0)
        require_int(self.stage, "an Operations Stage number", minimum=1)

    @property
    def name(self) -> str:
        return self.unit.name

    @property
    def cpa(self) -> int:
        return self.unit.disorganization_cpa

    @property
    def remaining(self) -> Fraction:
        """CPs left before DPs start (CNA 6.13); 0 once past the CPA."""
        return max(Fraction(0), self.cpa - self.spent)

    @property
    def collapsed(self) -> bool:
        return coh.is_collapsed(self.cohesion)

    def entry(self, kind: EntryKind, rule: str, text: str, after: UnitLog, **kw) -> LogEntry:
        return LogEntry(
            self.name,
            self.stage,
            kind,
            rule,
            text,
            cohesion_before=self.cohesion,
            cohesion_after=after.cohesion,
            spent_after=after.spent,
            **kw,
        )


@dataclass(frozen=True)
class Outcome:
    log: UnitLog
    entries: tuple[LogEntry, ...] = ()

    def then(self, step) -> Outcome:
        nxt = step(self.log)
        return Outcome(nxt.log, self.entries + nxt.entries)


def _require_log(log: object) -> UnitLog:
    if not isinstance(log, UnitLog):
        raise CNAInputError(f"expected a UnitLog, got {log!r}")
    return log


def _portion(function: Function, own_portion: bool | None) -> bool:
    if not isinstance(function, Function):
        raise CNAInputError(f"expected a Function, got {function!r}")
    if own_portion is None:
        return not function.opponents_portion_only
    if own_portion and function.opponents_portion_only:
        raise RuleViolation("CNA 8.11", f"{function.label} happens only in the opponent's portion")
    return bool(own_portion)


# --- Disorganization and Reorganization (CNA 6.21-6.24) ----------------------------------


def earn_dps(log: UnitLog, dps: int, rule: str, why: str) -> Outcome:
    """Lower the Cohesion Level by ``dps`` at once (CNA 6.22)."""
    log = _require_log(log)
    require_int(dps, "a number of DPs", minimum=0)
    if dps == 0:
        return Outcome(log)
    after = replace(log, cohesion=coh.apply_disorganization(log.cohesion, dps))
    return Outcome(after, (log.entry(EntryKind.DISORGANIZATION, rule, why, after, dps=dps),))


def earn_rps(log: UnitLog, rps: int, rule: str, why: str) -> Outcome:
    """Raise the Cohesion Level by ``rps`` at once, never past +10 (CNA 6.23)."""
    log = _require_log(log)
    require_int(rps, "a number of RPs", minimum=0)
    after = replace(log, cohesion=coh.apply_reorganization(log.cohesion, rps))
    if after.cohesion - log.cohesion < rps:
        why += f"; capped at +{coh.MAX_COHESION} (CNA 6.23)"
    return Outcome(after, (log.entry(EntryKind.REORGANIZATION, rule, why, after, rps=rps),))


# --- spending CPs (CNA 6.12-6.14, 6.21, 8.17, 6.26) -------------------------------------


def cannot_move_itself(unit: Unit, function: Function) -> bool:
    """A CPA-0 gun has no allowance for moving by choice (CNA 6.11); only a forced retreat
    as a combat result still moves it."""
    return function.movement and function is not Function.RETREAT and unit.cpa_for(function) == 0


def check_spend(
    log: UnitLog, function: Function, cps, *, own_portion: bool | None = None
) -> RuleViolation | None:
    """Why the rules forbid this expenditure, or None if they allow it."""
    log = _require_log(log)
    amount = require_cp_amount(cps)
    try:
        own = _portion(function, own_portion)
    except RuleViolation as exc:
        return exc
    if log.collapsed and (function.movement or function.combat):
        return RuleViolation(
            "CNA 6.26",
            f"{log.name} has collapsed (Cohesion {log.cohesion}) and cannot move, attack or defend",
        )
    if cannot_move_itself(log.unit, function):
        return RuleViolation(
            "CNA 6.11",
            f"{log.name} is a gun with a CPA of 0: it counts as 10 for everything except "
            f"movement, and cannot move under its own power ({function.label}); "
            "trucks must carry it (CNA 6.17)",
        )
    limit = voluntary_cp_limit(log.unit, function)
    if own and function.voluntary and limit is not None and log.spent + amount > limit:
        return RuleViolation(
            "CNA 8.17",
            f"{log.name} is not motorized, so by its own choice it may spend at most {_fmt(limit)} CPs "
            f"a stage (150% of CPA {log.unit.cpa_for(function)}); it has spent {_fmt(log.spent)} "
            f"and {function.label} would cost {_fmt(amount)} more",
        )
    return None


def spend(
    log: UnitLog, function: Function, cps, *, own_portion: bool | None = None, detail: str = ""
) -> Outcome:
    """Spend ``cps`` on ``function``; any CPs past the CPA earn DPs at once (CNA 6.21, 6.22).

    ``own_portion`` says whether the unit's side is phasing; by default it is True except
    for reaction, retreat before assault and defending (CNA 6.14, 8.17).
    """
    problem = check_spend(log, function, cps, own_portion=own_portion)
    if problem is not None:
        raise problem
    amount = require_cp_amount(cps)
    after = replace(log, spent=log.spent + amount)
    what = function.label + (f" ({detail})" if detail else "")
    text = f"{what}; {_fmt(after.spent)} of CPA {log.cpa} used this stage"
    entry = log.entry(EntryKind.SPEND, "CNA 6.12", text, after, cps=amount)
    owed = overrun(log.cpa, after.spent) - log.overrun_dps  # CNA 6.21
    out = Outcome(after, (entry,))
    if owed > 0:
        why = f"spent {_fmt(after.spent)} of CPA {log.cpa} this stage"
        out = out.then(lambda lg: earn_dps(lg, owed, "CNA 6.21", why))
        out = Outcome(replace(out.log, overrun_dps=log.overrun_dps + owed), out.entries)
    return out


def break_off(
    log: UnitLog, engagement: Engagement, occasion: Occasion = Occasion.MOVEMENT_SEGMENT
) -> Outcome:
    """Pay to leave Contact (2 CPs) or an Engagement (4 CPs) before moving (CNA 8.64-8.66).

    A reacting unit pays nothing (CNA 8.52). During a Retreat Before Assault the cost
    falls in the opponent's portion, so the 150% cap does not apply.
    """
    cost = break_off_cost(engagement, occasion)
    rule = break_off_rule(engagement, occasion)
    if cost == 0:
        return Outcome(_require_log(log))
    out = spend(
        log,
        Function.BREAK_OFF,
        cost,
        own_portion=occasion is Occasion.MOVEMENT_SEGMENT,
        detail=f"{engagement.value}, before {occasion.value}",
    )
    first = replace(out.entries[0], rule=rule)
    return Outcome(out.log, (first, *out.entries[1:]))


def close_assault_result(
    log: UnitLog,
    *,
    strength_before: int,
    strength_lost: int,
    attacking: bool,
    defender_vacated: bool = False,
) -> Outcome:
    """Cohesion effects of one Close Assault on one participating unit.

    Losses of 30% or more earn 3 DPs (CNA 6.21). An attacker earns 3 RPs when the
    defender leaves its hex as a direct result of this assault -- not by Reaction or
    Retreat Before Assault (CNA 6.24 (2)). DPs are applied before RPs.
    """
    log = _require_log(log)
    out = Outcome(log)
    if coh.has_heavy_losses(strength_before, strength_lost):
        pct = f"lost {strength_lost} of {strength_before} TOE Strength Points (30% or more)"
        out = out.then(lambda lg: earn_dps(lg, coh.HEAVY_LOSS_DPS, "CNA 6.21", pct))
    if attacking and defender_vacated:
        why = "won a Close Assault: the defender left its hex"
        out = out.then(lambda lg: earn_rps(lg, coh.ASSAULT_WIN_RPS, "CNA 6.24", why))
    return out


def end_stage(log: UnitLog, *, training: bool = False) -> Outcome:
    """Close the unit's Operations Stage.

    A unit that spent no CPs at all earns 5 RPs, though resting never lifts it above 0
    and units training or conducting training earn none (CNA 6.24 (1)). Unused CPs
    lapse (CNA 6.16).
    """
    log = _require_log(log)
    out = Outcome(log)
    if log.spent == 0 and not training:
        out = out.then(_rest)
    lapsed = log.remaining
    closed = replace(out.log, spent=Fraction(0), overrun_dps=0, stage=log.stage + 1)
    text = f"stage {log.stage} over; {_fmt(lapsed)} unused CPs lapse"
    note = LogEntry(
        log.name,
        log.stage,
        EntryKind.STAGE_END,
        "CNA 6.16",
        text,
        cohesion_before=out.log.cohesion,
        cohesion_after=closed.cohesion,
    )
    return Outcome(closed, (*out.entries, note))


def _rest(log: UnitLog) -> Outcome:
    level = coh.rest_recovery(log.cohesion)
    after = replace(log, cohesion=level)
    gained = level - log.cohesion
    if gained == coh.REST_RPS:
        why = "spent no CPs this stage"
    elif log.cohesion >= 0:
        why = "spent no CPs this stage, but resting never lifts a unit above 0"
    else:
        why = f"spent no CPs this stage; {coh.REST_RPS} RPs earned, but resting stops at 0"
    return Outcome(
        after, (log.entry(EntryKind.REORGANIZATION, "CNA 6.24", why, after, rps=gained),)
    )


def surrender(log: UnitLog) -> Outcome:
    """A collapsed unit gives itself up when an enemy combat unit moves next to it (CNA 6.26)."""
    log = _require_log(log)
    if not log.collapsed:
        raise RuleViolation("CNA 6.26", f"{log.name} (Cohesion {log.cohesion}) has not collapsed")
    text = "an enemy combat unit moved adjacent to a collapsed unit: it surrenders"
    return Outcome(log, (log.entry(EntryKind.SURRENDER, "CNA 6.26", text, log),))


# --- the sheet -------------------------------------------------------------------------


@dataclass
class LogSheet:
    """The log lines of a player's units and the journal of every explained change.

    ``history`` keeps each unit's Cohesion Level at the start and at the end of every
    stage, for a plot of cohesion over stages.
    """

    lines: dict[str, UnitLog] = field(default_factory=dict)
    journal: list[LogEntry] = field(default_factory=list)
    history: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    stage: int = 1

    @classmethod
    def of(
        cls, units: Iterable[Unit], cohesion: Mapping[str, int] | None = None, stage: int = 1
    ) -> LogSheet:
        start = dict(cohesion or {})
        sheet = cls(stage=require_int(stage, "an Operations Stage number", minimum=1))
        for u in units:
            if not isinstance(u, Unit):
                raise CNAInputError(f"expected Units on a log sheet, got {u!r}")
            if u.name in sheet.lines:
                raise CNAInputError(f"two units are named {u.name!r}; names must be unique")
            sheet.lines[u.name] = UnitLog(u, start.pop(u.name, 0), stage=stage)
        if start:
            raise CNAInputError(f"cohesion given for units not on the sheet: {sorted(start)}")
        sheet.history.append((stage - 1, sheet.cohesion_levels()))
        return sheet

    def line(self, name: str) -> UnitLog:
        try:
            return self.lines[name]
        except KeyError:
            raise CNAInputError(
                f"no unit named {name!r} on the log sheet; expected one of {sorted(self.lines)}"
            ) from None

    def cohesion_levels(self) -> dict[str, int]:
        return {n: lg.cohesion for n, lg in self.lines.items()}

    def _apply(self, name: str, step) -> tuple[LogEntry, ...]:
        out = step(self.line(name))
        self.lines[name] = out.log
        self.journal.extend(out.entries)
        return out.entries

    def check(
        self, name: str, function: Function, cps, *, own_portion: bool | None = None
    ) -> RuleViolation | None:
        return check_spend(self.line(name), function, cps, own_portion=own_portion)

    def spend(
        self,
        name: str,
        function: Function,
        cps,
        *,
        own_portion: bool | None = None,
        detail: str = "",
    ) -> tuple[LogEntry, ...]:
        return self._apply(
            name, lambda lg: spend(lg, function, cps, own_portion=own_portion, detail=detail)
        )

    def break_off(
        self, name: str, engagement: Engagement, occasion: Occasion = Occasion.MOVEMENT_SEGMENT
    ) -> tuple[LogEntry, ...]:
        return self._apply(name, lambda lg: break_off(lg, engagement, occasion))

    def close_assault(
        self,
        names: Iterable[str],
        *,
        strength_before: int,
        strength_lost: int,
        attacking: bool,
        defender_vacated: bool = False,
    ) -> tuple[LogEntry, ...]:
        """One Close Assault's cohesion effects on every listed unit. Losses are those of the
        whole force (a parent formation and all its units earn the DPs, CNA 6.21)."""
        out: list[LogEntry] = []
        for n in self._names(names):
            out += self._apply(
                n,
                lambda lg: close_assault_result(
                    lg,
                    strength_before=strength_before,
                    strength_lost=strength_lost,
                    attacking=attacking,
                    defender_vacated=defender_vacated,
                ),
            )
        return tuple(out)

    def earn_dps(self, name: str, dps: int, rule: str, why: str) -> tuple[LogEntry, ...]:
        return self._apply(name, lambda lg: earn_dps(lg, dps, rule, why))

    def earn_rps(self, name: str, rps: int, rule: str, why: str) -> tuple[LogEntry, ...]:
        return self._apply(name, lambda lg: earn_rps(lg, rps, rule, why))

    def surrender(self, name: str) -> tuple[LogEntry, ...]:
        return self._apply(name, surrender)

    def replace_unit(self, unit: Unit) -> None:
        """Swap a unit's description (e.g. trucks attached, CNA 6.17), keeping its line."""
        old = self.line(unit.name)
        self.lines[unit.name] = replace(old, unit=unit)

    def end_stage(self, training: Iterable[str] = ()) -> tuple[LogEntry, ...]:
        """End the Operations Stage for every unit (CNA 6.16, 6.24)."""
        trainees = set(self._names(training))
        out: list[LogEntry] = []
        for n in list(self.lines):
            out += self._apply(n, lambda lg, n=n: end_stage(lg, training=n in trainees))
        self.history.append((self.stage, self.cohesion_levels()))
        self.stage += 1
        return tuple(out)

    def _names(self, names: Iterable[str]) -> list[str]:
        if isinstance(names, str):
            raise CNAInputError(f"expected a list of unit names, got the single string {names!r}")
        listed = list(names)
        for n in listed:
            self.line(n)
        return listed

    def entries_for(self, name: str, stage: int | None = None) -> list[LogEntry]:
        self.line(name)
        return [e for e in self.journal if e.unit == name and (stage is None or e.stage == stage)]

    def rows(self) -> list[dict[str, object]]:
        """One row per unit for a table: CPA, CPs spent and left, cohesion, this stage's points."""
        rows = []
        for n, lg in self.lines.items():
            now = self.entries_for(n, self.stage)
            rows.append(
                {
                    "unit": n,
                    "CPA": lg.cpa,
                    "movement CPA": lg.unit.cpa_for(Function.MOVEMENT),
                    "CPs spent": lg.spent,
                    "CPs left": lg.remaining,
                    "cohesion": lg.cohesion,
                    "DPs this stage": sum(e.dps for e in now),
                    "RPs this stage": sum(e.rps for e in now),
                    "why": [e.line() for e in now if e.dps or e.rps],
                    "collapsed": lg.collapsed,
                }
            )
        return rows

    def cohesion_series(self, name: str) -> list[tuple[int, int]]:
        """(stage, level at its end) from the sheet's start, stage 0 meaning the start."""
        self.line(name)
        return [(stage, levels[name]) for stage, levels in self.history if name in levels]
