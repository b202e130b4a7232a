"""Named positions from ``scenarios/ca/`` (rulebook figures and sample-game situations).

The folder is package data (:mod:`hexclass.resources`), so a wheel has them too.
"""

from __future__ import annotations

import os
import pathlib

from .game import new_game
from .positions import Position
from .state import GameState, Options


def scenario_dir() -> pathlib.Path:
    """``$HEXCLASS_SCENARIOS/ca`` if set, else the packaged ``scenarios/ca`` (a wheel's too)."""
    env = os.environ.get("HEXCLASS_SCENARIOS")
    if env:
        return pathlib.Path(env) / "ca"
    from hexclass.resources import scenarios_dir

    return scenarios_dir() / "ca"


def scenario_names() -> list[str]:
    return sorted(p.stem for p in scenario_dir().glob("*.toml"))


def load_position(name: str) -> Position:
    path = scenario_dir() / f"{name}.toml"
    if not path.exists():
        raise FileNotFoundError(f"no scenario {name!r}; known: {', '.join(scenario_names())}")
    return Position.from_toml(path)


def start(name: str, seed: int = 0, options: Options | None = None, seats=None) -> GameState:
    """A game that starts from the named scenario."""
    return new_game(seed, options, seats, position=load_position(name))
