"""Starting, saving, loading and replaying games.

A game *is* its seed, its options and starting position, and the list of accepted
actions: the state is a replay of them. ``save`` writes exactly that as JSON;
``load`` replays it and so reproduces every die roll.

>>> g = new_game(seed=11)
>>> g.turn, g.phase, len(g.enemy) > 0
(1, 'friendly_move', True)
>>> from .actions import EndPhase
>>> _ = apply(g, EndPhase("player"))
>>> again = replay(record(g))
>>> again.snapshot() == g.snapshot()
True
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

from classroom.dice import Dice

from .actions import ActionFormatError, action_from_json, action_to_json
from .board import generate_board, potential_posts
from .engine import apply
from .state import GameState, Options, SeatSpec
from .units import ALL_IDS, POTENTIAL, EnemyPost, Platoon

FORMAT = "hexclass-combined-arms-game"
VERSION = 1


class RecordError(ValueError):
    """A saved game that cannot be read; names the file and field at fault."""


def new_game(
    seed: int,
    options: Options | None = None,
    seats: dict[str, SeatSpec] | None = None,
    position=None,
) -> GameState:
    """A fresh game: diced board and potential posts, or a given starting position."""
    dice = Dice(seed)
    if position is not None:
        from .positions import state_from_position

        state = state_from_position(position, seed=seed, options=options, seats=seats)
        state.setup = {"position": position.to_dict()}
        return state
    gen = generate_board(dice)
    state = GameState(board=gen.board, seed=seed, dice=dice, options=options or Options())
    if seats is not None:
        state.seats = dict(seats)
    state.units = {u: Platoon(u) for u in ALL_IDS}
    for p in potential_posts(gen.board):
        state.enemy[p.hex] = EnemyPost(p.hex, POTENTIAL, POTENTIAL if p.with_atg else None)
    side = "bottom" if not gen.half_turned else "top (board turned so you attack from row 1)"
    tie = f"; tie settled by a {gen.tie_roll}" if gen.tie_roll is not None else ""
    state.log(
        "setup",
        f"board diced: defensive hexes {gen.top_defensive} in rows 1-3 and {gen.bottom_defensive} "
        f"in rows 7-9; the defence holds the {side}{tie}; {len(state.enemy)} potential enemy "
        f"counters, {sum(1 for p in state.enemy.values() if p.atg)} with potential ATGs",
    )
    state.log("phase", "Turn 1: Friendly Move Phase")
    return state


def record(state: GameState) -> dict[str, Any]:
    """The game as plain JSON data: enough to rebuild it exactly."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": state.seed,
        "options": {
            "easier_game": state.options.easier_game,
            "auto_decisions": state.options.auto_decisions,
        },
        "seats": {
            name: {"units": sorted(s.units), "powers": sorted(s.powers)}
            for name, s in state.seats.items()
        },
        "start": state.setup.get("position"),
        "actions": [action_to_json(a) for a in state.actions],
        "summary": {"turn": state.turn, "phase": state.phase, "events": len(state.events)},
    }


def replay(data: dict[str, Any], source: str = "<record>") -> GameState:
    """Rebuild a game from :func:`record` data by replaying every action."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{source}: field 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise RecordError(
            f"{source}: field 'version' must be {VERSION}, got {data.get('version')!r}"
        )
    seed = data.get("seed")
    if not isinstance(seed, int) or seed < 0:
        raise RecordError(f"{source}: field 'seed' must be a non-negative integer, got {seed!r}")
    opts = data.get("options") or {}
    try:
        options = Options(**opts)
    except TypeError as exc:
        raise RecordError(f"{source}: field 'options': {exc}") from None
    seats = _seats(data.get("seats"), source)
    position = None
    if data.get("start") is not None:
        from .positions import Position

        position = Position.from_dict(data["start"], source=f"{source} field 'start'")
    state = new_game(seed, options, seats, position)
    for i, raw in enumerate(data.get("actions") or []):
        try:
            action = action_from_json(raw)
        except ActionFormatError as exc:
            raise RecordError(f"{source}: field 'actions[{i}]': {exc}") from None
        from .reasons import IllegalAction

        try:
            apply(state, action)
        except IllegalAction as exc:
            raise RecordError(
                f"{source}: field 'actions[{i}]' is not legal on replay: {exc}"
            ) from None
    return state


def _seats(raw, source: str) -> dict[str, SeatSpec] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw:
        raise RecordError(
            f"{source}: field 'seats' must be an object of seat name -> {{units, powers}}"
        )
    out = {}
    for name, spec in raw.items():
        units = spec.get("units", []) if isinstance(spec, dict) else None
        if not isinstance(units, list) or any(u not in ALL_IDS for u in units):
            raise RecordError(
                f"{source}: field 'seats.{name}.units' must list platoons from {ALL_IDS}"
            )
        powers = spec.get("powers", [])
        if not isinstance(powers, list) or any(p not in ("mortars", "command") for p in powers):
            raise RecordError(
                f"{source}: field 'seats.{name}.powers' may hold only 'mortars' and 'command'"
            )
        out[name] = SeatSpec(name, frozenset(units), frozenset(powers))
    return out


def save(state: GameState, path) -> None:
    pathlib.Path(path).write_text(json.dumps(record(state), indent=1))


def load(path) -> GameState:
    p = pathlib.Path(path)
    try:
        data = json.loads(p.read_text())
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return replay(data, source=str(p))
