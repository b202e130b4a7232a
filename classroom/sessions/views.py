"""What each page may see: seat views, scores, and who the team is waiting for.

The engine settles a potential enemy counter only when it is tested, by the dice, so
the one secret in a :class:`~hexclass.classroom.combined_arms.state.GameState` is the dice
generator's state: whoever holds it can foresee every reveal test. A seat page gets
:func:`seat_view` (plain data) or :func:`public_copy` (a state whose dice are sealed);
neither carries the generator. The instructor may also see :func:`projected_score`,
which runs the end-of-game reveal on a private copy.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from hexclass.classroom.combined_arms.engine import run_agenda
from hexclass.classroom.combined_arms.public import SealedDice, SealedDiceError, sealed_copy
from hexclass.classroom.combined_arms.sequence import title
from hexclass.classroom.combined_arms.state import GameState
from hexclass.classroom.combined_arms.units import POTENTIAL, REAL
from hexclass.classroom.combined_arms.victory import Score, score_from_tally

from .roles import Layout
from .store import GameInfo, Request

RECENT_EVENTS = 40


def public_copy(state: GameState) -> GameState:
    """A copy of ``state`` for drawing and odds, with the dice sealed (the engine's one way)."""
    return sealed_copy(state)


# --- scores -----------------------------------------------------------------------------------


def turns_counted(state: GameState) -> int:
    """Turns that would count if the battle ended now (CA "Victory": after turn 18 costs)."""
    if state.phase == "friendly_move" and not state.acted_this_turn:
        return state.turn - 1
    return state.turn


def known_score(state: GameState) -> Score:
    """The score from what everyone can see: unrevealed counters count as nothing yet."""
    if state.result is not None:
        return state.result
    return score_from_tally(
        enemy_in_play=sum(1 for p in state.enemy.values() if p.platoon == REAL),
        real_atgs_in_play=sum(1 for p in state.enemy.values() if p.atg == REAL),
        atgs_broken=state.atgs_broken,
        enemy_broken=state.enemy_platoons_broken,
        exploited=len(state.exploited()),
        friendly_broken=len(state.broken_friendly()),
        turns=turns_counted(state),
        easier=state.options.easier_game,
    )


def projected_score(state: GameState) -> Score:
    """The score if the battle ended now: the final reveal is rolled on a private copy.

    Instructor only: it uses the game's own dice stream, so it shows what the hidden
    counters would turn out to be. Before an enemy-player game's deployment (CA p.7)
    there is nothing hidden to reveal, so it is the score the team sees.
    """
    if state.result is not None:
        return state.result
    if state.phase in ("bidding", "deployment"):  # CA p.7: no counter to reveal yet
        return known_score(state)
    c = state.copy()
    c.pending = None
    c.declaration = None
    c.agenda = [("final_reveal",), ("score", turns_counted(state))]
    run_agenda(c)
    return c.result


# --- who the team is waiting for ---------------------------------------------------------------


@dataclass(frozen=True)
class Waiting:
    """One thing the team is waiting on: a seat (or ``instructor``) and why."""

    seat: str
    why: str


def waiting_for(
    state: GameState,
    layout: Layout,
    status: str = "running",
    requests: list[Request] = (),
    ready: frozenset[str] = frozenset(),
) -> list[Waiting]:
    """Who must act before the game can go on, most urgent first."""
    if status == "ended" or state.over:
        return []
    if status == "paused":
        return [Waiting("instructor", "the instructor has paused the game")]
    if state.pending is not None:
        # CA p.7: the overall commander orders enemy rolls and picks who breaks.
        return [
            Waiting(s, f"to decide: {state.pending.prompt}")
            for s in layout.seats_with(state.pending.power)
        ]
    out: list[Waiting] = []
    decl = state.declaration
    if decl is not None:
        # CA p.7: other seats may still join before the fire is rolled.
        where = state.label(decl.target)
        out.extend(
            Waiting(s, f"to resolve the fire on {where} (others may join)") for s in decl.seats
        )
    commander = layout.commander().name
    for r in requests:
        if r.status == "waiting":
            out.append(Waiting(commander, f"to answer {r.seat}'s request to act next"))
        elif r.status == "granted":
            out.append(Waiting(r.seat, "granted the next move or fire"))
    if out:
        return out
    not_ready = [s.name for s in layout.seats if s.name != commander and s.name not in ready]
    if not_ready:
        return [Waiting(s, f"not yet done in the {title(state.phase)}") for s in not_ready]
    return [Waiting(commander, f"to end the {title(state.phase)}")]


# --- the console's line per team ---------------------------------------------------------------


@dataclass(frozen=True)
class TeamSummary:
    """One row of the instructor console: where a team's game stands."""

    game_id: int
    team: int
    seed: int
    status: str
    version: int
    turn: int
    phase: str
    score_known: int
    score_projected: int | None
    won: bool | None
    losses: int
    ammo: int
    broken_friendly: tuple[str, ...]
    enemy_broken: int
    exploited: tuple[str, ...]
    waiting: tuple[Waiting, ...]
    connected: tuple[str, ...]
    seats: tuple[str, ...]
    open_requests: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_row(self) -> dict[str, Any]:
        """A flat dict for a pandas row or JSON."""
        row = asdict(self)
        row["waiting"] = "; ".join(f"{w.seat}: {w.why}" for w in self.waiting)
        row["broken_friendly"] = ", ".join(self.broken_friendly)
        row["exploited"] = ", ".join(self.exploited)
        row["connected"] = ", ".join(self.connected)
        row["seats"] = ", ".join(self.seats)
        row.pop("extra")
        return row


def team_summary(
    info: GameInfo,
    state: GameState,
    requests: list[Request] = (),
    ready: frozenset[str] = frozenset(),
    connected: frozenset[str] = frozenset(),
    projected: bool = True,
) -> TeamSummary:
    """The console's summary of one team's game (``projected`` adds the hidden-counter score)."""
    status = info.effective_status if not state.over else "ended"
    proj = projected_score(state) if projected else None
    return TeamSummary(
        game_id=info.id,
        team=info.team,
        seed=info.seed,
        status=status,
        version=len(state.actions),
        turn=state.turn,
        phase=state.phase,
        score_known=known_score(state).total,
        score_projected=None if proj is None else proj.total,
        won=None if state.result is None else state.result.won,
        losses=state.losses,
        ammo=state.ammo,
        broken_friendly=tuple(state.broken_friendly()),
        enemy_broken=state.enemy_platoons_broken,
        exploited=tuple(state.exploited()),
        waiting=tuple(waiting_for(state, info.layout, status, requests, ready)),
        connected=tuple(s for s in info.layout.names if s in connected),
        seats=info.layout.names,
        open_requests=sum(1 for r in requests if r.open),
        extra={"deployment": deployment_text(state)} if state.secret is not None else {},
    )


def deployment_text(state: GameState) -> str:
    """The defender's secret deployment in words, for the instructor's eyes only (CA p.7):
    where the real platoons and ATGs stand, and which platoons the attackers have not
    found yet."""
    d = state.secret
    if d is None:
        return ""
    names = lambda hexes: ", ".join(sorted(state.label(h) for h in hexes)) or "none"  # noqa: E731
    hidden = [h for h in d.platoons if h in state.enemy and state.enemy[h].platoon == POTENTIAL]
    return (
        f"real platoons at {names(d.platoons)} (still hidden: {names(hidden)}); "
        f"real ATGs at {names(d.atgs)}"
    )


# --- a seat's view ------------------------------------------------------------------------------


def seat_view(state: GameState, seat: str | None, layout: Layout | None = None) -> dict[str, Any]:
    """Everything one seat may see, as plain JSON-able data (no dice state).

    ``seat`` None gives the neutral spectator's view (used by replays).
    """
    spec = state.seats.get(seat) if seat else None
    if seat is not None and spec is None:
        raise KeyError(f"no seat {seat!r} in this game; seats are {', '.join(state.seats)}")
    owner = {u: s.name for s in state.seats.values() for u in s.units}
    label = state.label
    view: dict[str, Any] = {
        "seat": seat,
        "turn": state.turn,
        "phase": state.phase,
        "phase_title": title(state.phase),
        "version": len(state.actions),
        "over": state.over,
        "tracks": {"losses": state.losses, "ammo": state.ammo, "smoke_ammo": state.smoke_ammo},
        "units": [_unit_view(u, owner.get(u.id), seat, label) for u in state.units.values()],
        "enemy": [_post_view(p, label) for _, p in sorted(state.enemy.items())],
        "mortars": {
            "yours": _mortar_view(state.friendly_mortar, label),
            "enemy": _mortar_view(state.enemy_mortar, label),
        },
        "smoke": sorted(label(h) for h in state.smoke),
        "declaration": _declaration_view(state),
        "pending": _pending_view(state, spec),
        "my_units": sorted(spec.units) if spec else [],
        "my_powers": sorted(spec.powers) if spec else [],
        "score_known": known_score(state).total,
        "result": None if state.result is None else state.result.as_rows(),
        "events": [
            {"turn": e.turn, "phase": e.phase, "kind": e.kind, "text": e.text}
            for e in state.events[-RECENT_EVENTS:]
        ],
    }
    if layout is not None and seat is not None and seat in layout:
        s = layout.seat(seat)
        view["title"], view["colour"] = s.title, s.colour
    return view


def _unit_view(u, owner: str | None, seat: str | None, label) -> dict[str, Any]:
    return {
        "id": u.id,
        "where": u.where,
        "hex": None if u.hex is None else label(u.hex),
        "fresh": u.fresh,
        "facing": u.facing,
        "seat": owner,
        "mine": seat is not None and owner == seat,
    }


def _post_view(p, label) -> dict[str, Any]:
    return {"hex": label(p.hex), "platoon": p.platoon, "atg": p.atg, "fresh": p.fresh}


def _mortar_view(m, label) -> dict[str, Any] | None:
    if m is None:
        return None
    return {"hex": label(m.hex), "turn": m.turn, "smoke": m.smoke}


def _declaration_view(state: GameState) -> dict[str, Any] | None:
    d = state.declaration
    if d is None:
        return None
    return {"target": state.label(d.target), "firers": list(d.firers), "seats": list(d.seats)}


def _pending_view(state: GameState, spec) -> dict[str, Any] | None:
    p = state.pending
    if p is None:
        return None
    if p.kind == "roll_order":
        options = [[state.label(h) for h in opt] for opt in p.options]
    else:
        options = list(p.options)
    return {
        "kind": p.kind,
        "prompt": p.prompt,
        "options": options,
        "yours": spec is not None and p.power in spec.powers,
    }


__all__ = [
    "SealedDice",
    "SealedDiceError",
    "TeamSummary",
    "Waiting",
    "known_score",
    "projected_score",
    "public_copy",
    "seat_view",
    "team_summary",
    "turns_counted",
    "waiting_for",
]
