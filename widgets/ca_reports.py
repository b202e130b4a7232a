"""What a batch of engine events means to one player, read from the events' data.

The message line and the enemy-phase report are built here from the engine's events
(``state.events``), never from "the last line" of the log:

* a fire attack is the ``fire`` event and the ``roll`` of every firer that followed it
  (CA "Fire Attacks": each firer rolls its own die), so a joint fire reads in full;
* an enemy phase is summarised by what matters to the attackers (reveals, hits on
  your platoons, breaks, losses, mortar fire) before its details;
* :func:`last_enemy_phase` finds the latest enemy phase in the log, so a reloaded
  page shows the same report as one that watched it happen.

Nothing here imports ipywidgets; every function is pure.
"""

from __future__ import annotations

from dataclasses import dataclass

ENEMY_REPORT_KINDS = ("roll", "ai", "losses", "break", "enemy", "reveal", "decision")
_NO_EFFECT = ("no effect", "target already spent")


@dataclass(frozen=True)
class Reading:
    """What a batch of events says: ``text`` for the message line, and its sort.

    ``what`` is ``"report"`` (an enemy phase), ``"fire"`` (fire attacks rolled),
    ``"over"`` (the battle was scored) or ``"event"``; ``seats`` names the seats whose
    platoons fired (a joint fire is every committing seat's own result, CA p.7).
    """

    text: str
    what: str = "event"
    seats: frozenset[str] = frozenset()


def _label(state, h) -> str:
    try:
        return state.label(tuple(h))
    except (TypeError, KeyError, ValueError):
        return str(h)


def _owner(state, uid: str) -> str | None:
    return next((s.name for s in state.seats.values() if uid in s.units), None)


# --- fire attacks ----------------------------------------------------------------------------


def fire_groups(events) -> list[tuple]:
    """Each ``fire`` event with the events its declaration caused (rolls, withdrawals)."""
    groups: list[tuple] = []
    current = None
    for e in events:
        if e.kind == "fire":
            current = (e, [])
            groups.append(current)
        elif current is not None and (
            (e.kind == "roll" and e.data.get("purpose") == "friendly fire")
            or (e.kind == "withdraw" and e.data.get("reason") == "ammo")
            or (e.kind == "roll" and str(e.data.get("purpose", "")).startswith("reveal"))
        ):
            current[1].append(e)
        elif e.kind not in ("roll", "withdraw"):
            current = None
    return groups


def fire_effect(rolls) -> str:
    """The fire's combined effect: every firer's outcome that did something, in order."""
    seen: list[str] = []
    for r in rolls:
        if r.kind != "roll" or r.data.get("purpose") != "friendly fire":
            continue
        for o in r.data.get("outcome", ()):
            if o not in _NO_EFFECT and o not in seen:
                seen.append(o)
    return "; ".join(seen) if seen else "no effect"


def fire_text(state, fire, rolls) -> str:
    """One fire attack: the target, the combined effect, then each firer's roll on its line."""
    where = _label(state, fire.data.get("target"))
    firers = fire.data.get("firers", [])
    lines = [f"Fire on {where} by {', '.join(firers)}: {fire_effect(rolls)}"]
    lines.extend(f"  {r.text}" for r in rolls)
    return "\n".join(lines)


# --- the enemy phase ---------------------------------------------------------------------------


def last_enemy_phase(state) -> list:
    """The events of the latest enemy phase in the log (empty before the first one)."""
    events = state.events
    for i in range(len(events) - 1, -1, -1):
        if events[i].phase == "enemy":
            turn, out = events[i].turn, []
            for e in reversed(events[: i + 1]):
                if e.turn != turn:
                    break
                if e.phase == "enemy" and e.kind in ENEMY_REPORT_KINDS:
                    out.append(e)
            return out[::-1]
    return []


def _hit(e) -> bool:
    d = e.data
    return "total" in d and "need" in d and d["total"] >= d["need"]


def mattered(state, events) -> list[str]:
    """What in an enemy phase changes the attackers' plans, in the order it happened:
    reveals, hits on your platoons, losses and breaks, enemy mortar fire."""
    out: list[str] = []
    for e in events:
        d = e.data
        purpose = str(d.get("purpose", ""))
        if (e.kind == "roll" and purpose.startswith("reveal")) or e.kind == "reveal":
            what = purpose.removeprefix("reveal ") if purpose else d.get("what", "counter")
            verdict = "; ".join(d.get("outcome", ())) or e.text
            out.append(f"{_label(state, d.get('target'))} {what} revealed: {verdict}")
        elif e.kind == "roll" and (
            (purpose.startswith("enemy fire") and _hit(e)) or purpose == "mortar effect"
        ):
            out.append(e.text)
        elif e.kind == "ai" and "spotter" in d:  # the enemy mortars' choice of target
            out.append(f"enemy mortars target {_label(state, d.get('target'))}")
        elif e.kind in ("losses", "break"):
            out.append(e.text)
    return out


def enemy_summary(state, events) -> str:
    """One paragraph for the message line: the phase's turn and what mattered."""
    turn = events[0].turn if events else state.turn
    items = mattered(state, events) or ["nothing revealed, no hits on your platoons"]
    lines = [f"Enemy phase, turn {turn}, what mattered (details: Enemy phase tab):"]
    lines.extend(f"• {t}" for t in items)
    return "\n".join(lines)


# --- a batch of events, read for one seat ---------------------------------------------------


def read_events(state, events) -> Reading | None:
    """What a batch of new events (one action and what the engine did after it) says."""
    events = list(events)
    if not events:
        return None
    score = [e for e in events if e.kind == "score"]
    if score:
        final = [e for e in events if e.phase == "over" and e.kind in ENEMY_REPORT_KINDS]
        revealed = mattered(state, final)
        tail = f"\nFinal reveal: {'; '.join(revealed)}" if revealed else ""
        return Reading(f"{score[-1].text.splitlines()[0]} (see the Score tab){tail}", "over")
    enemy = [e for e in events if e.phase == "enemy" and e.kind in ENEMY_REPORT_KINDS]
    if enemy:
        return Reading(enemy_summary(state, last_enemy_phase(state) or enemy), "report")
    groups = fire_groups(events)
    if groups:
        seats = frozenset(
            s for fire, _ in groups for u in fire.data.get("firers", []) if (s := _owner(state, u))
        )
        text = "\n".join(fire_text(state, f, rolls) for f, rolls in groups)
        return Reading(text, "fire", seats)
    shown = [e for e in events if e.kind != "phase"] or events
    last = shown[-1]
    seats = frozenset()
    if last.kind == "declare" and last.data.get("seat"):
        seats = frozenset([last.data["seat"]])
    return Reading(last.text, "event", seats)


__all__ = [
    "Reading",
    "enemy_summary",
    "fire_effect",
    "fire_groups",
    "fire_text",
    "last_enemy_phase",
    "mattered",
    "read_events",
]
