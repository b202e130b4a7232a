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
from dataclasses import fields
from typing import Any

from hexclass.classroom.dice import Dice

from .actions import ActionFormatError, action_from_json, action_to_json
from .board import generate_board, potential_posts
from .engine import apply
from .state import SOLITAIRE_SEATS, Game, GameState, Options, SeatSpec
from .units import ALL_IDS, POTENTIAL, EnemyPost, Platoon
from .validate import InputError, describe

FORMAT = "hexclass-combined-arms-game"
VERSION = 1


class RecordError(InputError):
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
    game = Game(gen.board, options or Options(), SOLITAIRE_SEATS if seats is None else seats)
    state = GameState(game=game, seed=seed, dice=dice)
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
    if state.options.enemy_player:
        from .defender import start

        start(state)  # CA p.7: secret forces rolled; the defender deploys before turn 1
    else:
        state.log("phase", "Turn 1: Friendly Move Phase")
    return state


def record(state: GameState) -> dict[str, Any]:
    """The game as plain JSON data: enough to rebuild it exactly."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": state.seed,
        "options": _options_json(state.options),
        "seats": {
            name: {"units": sorted(s.units), "powers": sorted(s.powers)}
            for name, s in starting_seats(state).items()
        },
        "start": state.setup.get("position"),
        "actions": [action_to_json(a) for a in state.actions],
        "summary": {"turn": state.turn, "phase": state.phase, "events": len(state.events)},
    }


def starting_seats(state: GameState) -> dict[str, SeatSpec]:
    """The seats as the game began: bidding (CA p.7) hands out sides during play."""
    if state.options.bidding:
        from .defender import bidder_seat

        return {name: bidder_seat(name) for name in state.seats}
    return state.seats


def _options_json(options: Options) -> dict[str, Any]:
    out = {"easier_game": options.easier_game, "auto_decisions": options.auto_decisions}
    if options.bidding:  # the handicap comes from the bids, made again on replay
        out.update(enemy_player=True, handicap=0, bidding=True)
    elif options.enemy_player:
        out.update(enemy_player=True, handicap=options.handicap)
    return out


def replay(
    data: dict[str, Any], source: str = "<record>", *, check_summary: bool = False
) -> GameState:
    """Rebuild a game from :func:`record` data by replaying every action.

    With ``check_summary`` (loading a file) the saved ``summary`` must match the replay;
    callers that replay a record with its actions cut or changed leave it off.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{source}: field 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise RecordError(
            f"{source}: field 'version' must be {VERSION}, got {data.get('version')!r}"
        )
    unknown = set(data) - _RECORD_FIELDS
    if unknown:
        raise RecordError(
            f"{source}: unknown field {describe(sorted(map(str, unknown))[0])}; "
            f"expected only {', '.join(sorted(_RECORD_FIELDS))}"
        )
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RecordError(
            f"{source}: field 'seed' must be a non-negative integer, got {describe(seed)}"
        )
    options = _options(data.get("options"), source)
    seats = _seats(data.get("seats"), source)
    position = None
    if data.get("start") is not None:
        from .positions import Position, PositionError

        try:
            position = Position.from_dict(data["start"], source=f"{source} field 'start'")
        except PositionError as exc:
            raise RecordError(str(exc), source=source, field="start") from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(
            f"{source}: field 'actions' must be a list of actions, got {describe(actions)}"
        )
    summary = _summary(data.get("summary"), source)
    state = new_game(seed, options, seats, position)
    for i, raw in enumerate(actions):
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
    if summary is not None and check_summary:
        _check_summary(state, summary, source)
    return state


_RECORD_FIELDS = frozenset({"format", "version", "seed", "options", "seats", "start", "actions"})
_RECORD_FIELDS |= {"summary"}
_SUMMARY_FIELDS = ("turn", "phase", "events")


def _options(raw, source: str) -> Options:
    """The game options, each of the type of its default (``"yes"`` is not true)."""
    if raw is None:
        return Options()
    if not isinstance(raw, dict):
        raise RecordError(f"{source}: field 'options' must be an object, got {describe(raw)}")
    defaults = {f.name: f.default for f in fields(Options)}
    for k, v in raw.items():
        if k not in defaults:
            raise RecordError(
                f"{source}: field 'options.{k}' is unknown; expected one of {', '.join(defaults)}"
            )
        kind = type(defaults[k])
        if type(v) is not kind:
            want = "true or false" if kind is bool else "a whole number"
            raise RecordError(f"{source}: field 'options.{k}' must be {want}, got {describe(v)}")
    return Options(**raw)


def _summary(raw, source: str) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != set(_SUMMARY_FIELDS):
        raise RecordError(
            f"{source}: field 'summary' must be an object with turn, phase and events, "
            f"got {describe(raw)}"
        )
    return raw


def _check_summary(state: GameState, summary: dict[str, Any], source: str) -> None:
    """The saved summary must be what replaying the actions gives (else the file was edited)."""
    got = {"turn": state.turn, "phase": state.phase, "events": len(state.events)}
    for k in _SUMMARY_FIELDS:
        if summary[k] != got[k] or type(summary[k]) is not type(got[k]):
            raise RecordError(
                f"{source}: field 'summary.{k}' says {describe(summary[k])} but replaying the "
                f"actions gives {got[k]!r}: the file was changed or is from another version"
            )


def _seats(raw, source: str) -> dict[str, SeatSpec] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw:
        raise RecordError(
            f"{source}: field 'seats' must be an object of seat name -> {{units, powers}}"
        )
    out = {}
    for name, spec in raw.items():
        if not isinstance(spec, dict) or set(spec) - {"units", "powers"}:
            raise RecordError(
                f"{source}: field 'seats.{name}' must be an object with units and powers"
            )
        units = spec.get("units", [])
        if not isinstance(units, list) or any(u not in ALL_IDS for u in units):
            raise RecordError(
                f"{source}: field 'seats.{name}.units' must list platoons from {ALL_IDS}"
            )
        powers = spec.get("powers", [])
        if not isinstance(powers, list) or any(
            p not in ("mortars", "command", "defender", "bid") for p in powers
        ):
            raise RecordError(
                f"{source}: field 'seats.{name}.powers' may hold only 'mortars', 'command', 'defender' and 'bid'"
            )
        if not units and not powers:
            raise RecordError(
                f"{source}: field 'seats.{name}' commands nothing: a seat needs at least one "
                "platoon in 'units' or a power in 'powers'"
            )
        for other, taken in out.items():
            shared = sorted(taken.units & set(units))
            if shared:
                raise RecordError(
                    f"{source}: field 'seats.{name}.units' gives {', '.join(shared)} to a "
                    f"second seat (already in 'seats.{other}'): each platoon has one commander"
                )
        out[name] = SeatSpec(name, frozenset(units), frozenset(powers))
    return out


def save(state: GameState, path) -> None:
    pathlib.Path(path).write_text(json.dumps(record(state), indent=1))


def load(path) -> GameState:
    """Read a saved game and replay it; every fault is a :class:`RecordError` naming the file."""
    p = pathlib.Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{p}: no such file") from None
    except OSError as exc:
        raise RecordError(f"{p}: cannot be read ({exc.strerror})") from None
    return replay(parse_record(raw, str(p)), source=str(p), check_summary=True)


def parse_record(raw: bytes | str, source: str = "<record>") -> Any:
    """The JSON of a saved game, or a :class:`RecordError` saying why it is not JSON."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes | bytearray) else raw
        return json.loads(text)
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source}: not UTF-8 text (bad byte at offset {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise RecordError(f"{source}: not a saved game (JSON nested too deeply)") from None
    except ValueError as exc:  # e.g. a number with thousands of digits
        raise RecordError(f"{source}: not valid JSON ({exc})") from None
