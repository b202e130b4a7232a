"""The sequence of play as data (CA "Sequence of Play").

Each turn has four phases. You act in the first two; the engine plays the steps marked
``engine`` in order when you end the fire phase, stopping only where the rules give
you (or your overall commander) a choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from .reasons import MORTARS
from .reasons import SEQUENCE as SEQ_RULE


@dataclass(frozen=True)
class Step:
    name: str
    actor: str  # "player" or "engine"
    summary: str
    rule: str = SEQ_RULE
    only_turn: int | None = None  # e.g. the preliminary bombardment happens on turn 1 only


@dataclass(frozen=True)
class Phase:
    name: str
    title: str
    actor: str
    steps: tuple[Step, ...]


SEQUENCE: tuple[Phase, ...] = (
    Phase(
        "friendly_move",
        "Friendly Move Phase",
        "player",
        (Step("move", "player", "fresh platoons enter the board or move one hex, becoming spent"),),
    ),
    Phase(
        "friendly_fire",
        "Friendly Fire Phase",
        "player",
        (
            Step(
                "mortar_call",
                "player",
                "call your mortars (or smoke) on a spotted hex, before any fire",
                MORTARS,
            ),
            Step("fire", "player", "fresh platoons fire, becoming spent; armour may re-face first"),
            Step("friendly_mortar_resolution", "engine", "your mortar fire lands", MORTARS),
            Step(
                "preliminary_bombardment",
                "engine",
                "artillery pins potential enemies that can see your platoons (2+)",
                only_turn=1,
            ),
            Step("smoke_clears", "engine", "last turn's smoke clears", MORTARS),
        ),
    ),
    Phase(
        "friendly_recovery",
        "Friendly Recovery Phase",
        "engine",
        (Step("recovery", "engine", "all your spent platoons become fresh"),),
    ),
    Phase(
        "enemy",
        "Enemy Phase",
        "engine",
        (
            Step(
                "enemy_mortar_call",
                "engine",
                "enemy mortars may target a spotted hex of your infantry",
                MORTARS,
            ),
            Step(
                "activation", "engine", "enemy counters activate in order: reveal, fire, or recover"
            ),
            Step("enemy_mortar_resolution", "engine", "enemy mortar fire lands", MORTARS),
            Step("end_turn", "engine", "the turn marker advances; after turn 20 the game ends"),
        ),
    ),
)

PHASES = {p.name: p for p in SEQUENCE}


def engine_steps_after(phase_name: str, turn: int) -> list[tuple]:
    """Agenda items for every engine step after ``phase_name``'s player steps, to turn end."""
    items: list[tuple] = []
    started = False
    for phase in SEQUENCE:
        if phase.name == phase_name:
            started = True
        if not started:
            continue
        if phase.name != phase_name:
            items.append(("phase", phase.name))
        for step in phase.steps:
            if step.actor != "engine":
                continue
            if step.only_turn is not None and step.only_turn != turn:
                continue
            items.append((step.name,))
    return items


def title(phase_name: str) -> str:
    if phase_name == "over":
        return "Game over"
    if phase_name == "deployment":
        return "Secret Deployment"  # CA p.7, the enemy-player variant only
    if phase_name == "bidding":
        return "Bidding for the Defenders"  # CA p.7, the two-player game
    return PHASES[phase_name].title
