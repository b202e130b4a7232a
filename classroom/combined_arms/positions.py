"""Positions as text: a TOML format for a board and the pieces on it.

Lessons and tests describe situations in this format (see ``scenarios/*.toml`` and
``docs/positions.md``). Every field is checked; a mistake raises
:class:`PositionError` naming the file, the field and what was expected.

A minimal position::

    [board]
    rows = [
      "   . . . r . . .",
      "  . . . . r . . .",
      "  . . . . r . . . .",
      " . . . . . r . . . .",
      ". . . . . r . . . . .",
      " . . . . r . . . . .",
      "  . . . . r . . . .",
      "  . . . r . . . .",
      "   . . . r . . .",
    ]

    [[unit]]
    id = "D1"
    hex = "1d"

    [[enemy]]
    hex = "5c"
    platoon = "real"

Terrain letters: ``.`` open, ``p`` poor going, ``c`` crest, ``w`` woods, ``W`` wooded
crest, ``f`` farm, ``r`` road. Row 1 is your rear edge.
"""

from __future__ import annotations

import pathlib
import tomllib
from dataclasses import dataclass
from typing import Any

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.dice import Dice

from .board import ROW_WIDTHS, Board, BoardError, T
from .movement import may_enter_hex
from .state import (
    LAST_TURN,
    SMOKE_ROUNDS,
    SOLITAIRE_SEATS,
    TRACK_SIZE,
    Game,
    GameState,
    MortarTarget,
    Options,
)
from .units import (
    ALL_IDS,
    BOARD,
    BROKEN,
    EXPLOITED,
    OFF,
    POTENTIAL,
    REAL,
    WITHDRAWN,
    EnemyPost,
    Platoon,
)
from .validate import InputError, describe

TERRAIN_LETTERS = {
    ".": T.OPEN,
    "p": T.POOR,
    "c": T.CREST,
    "w": T.WOODS,
    "W": T.WOODED_CREST,
    "f": T.FARM,
    "r": T.ROAD,
}
LETTER_OF = {v: k for k, v in TERRAIN_LETTERS.items()}
PHASES = ("friendly_move", "friendly_fire")
FACING_NAMES = {name.replace(" ", "_"): i for i, name in enumerate(hg.CORNER_NAMES)}


class PositionError(InputError):
    """A position description with a wrong field (names the file, field and expectation)."""


@dataclass
class Position:
    """A parsed, checked position; ``data`` is its canonical plain-dict form."""

    data: dict[str, Any]
    source: str = "<position>"

    @property
    def board(self) -> Board:
        return board_from_rows(self.data["board"]["rows"], self.source)

    def to_dict(self) -> dict[str, Any]:
        return self.data

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], source: str = "<position>", *, placement: bool = True
    ) -> Position:
        """A checked position; ``placement=False`` skips the rules on where platoons stand."""
        checked = _check(data, source, placement)
        return cls(checked, source)

    @classmethod
    def from_toml(cls, path) -> Position:
        p = pathlib.Path(path)
        try:
            text = p.read_bytes().decode("utf-8")
        except FileNotFoundError:
            raise PositionError(f"{p}: no such file", source=str(p)) from None
        except UnicodeDecodeError as exc:
            raise PositionError(
                f"{p}: not UTF-8 text (bad byte at offset {exc.start})", source=str(p)
            ) from None
        except OSError as exc:
            raise PositionError(f"{p}: cannot be read ({exc.strerror})", source=str(p)) from None
        return cls.from_text(text, str(p))

    @classmethod
    def from_text(cls, text: str, source: str = "<text>") -> Position:
        if not isinstance(text, str):
            raise PositionError(f"{source}: expected TOML text, got {type(text).__name__}")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise PositionError(f"{source}: not valid TOML ({exc})", source=source) from None
        except RecursionError:
            raise PositionError(f"{source}: not valid TOML (nested too deeply)") from None
        return cls.from_dict(data, source)

    @property
    def title(self) -> str:
        return self.data.get("position", {}).get("title", "")


def _err(source: str, field: str, expected: str, got: Any = None) -> PositionError:
    tail = "" if got is None else f", got {describe(got)}"
    return PositionError(
        f"{source}: field '{field}': expected {expected}{tail}",
        source=source,
        field=field,
        expected=expected,
    )


def board_from_rows(rows, source: str = "<position>") -> Board:
    if not isinstance(rows, list) or len(rows) != len(ROW_WIDTHS):
        raise _err(source, "board.rows", f"a list of {len(ROW_WIDTHS)} strings, one per hexrow")
    grid = []
    for i, (row, width) in enumerate(zip(rows, ROW_WIDTHS, strict=True)):
        if not isinstance(row, str):
            raise _err(source, f"board.rows[{i}]", "a string of terrain letters", row)
        cells = row.split()
        if len(cells) != width:
            raise _err(
                source,
                f"board.rows[{i}]",
                f"{width} terrain letters separated by spaces (row {i + 1})",
                row,
            )
        bad = [c for c in cells if c not in TERRAIN_LETTERS]
        if bad:
            raise _err(
                source, f"board.rows[{i}]", f"letters from {' '.join(TERRAIN_LETTERS)}", bad[0]
            )
        grid.append([TERRAIN_LETTERS[c] for c in cells])
    try:
        return Board.from_rows(grid)
    except BoardError as exc:
        raise PositionError(f"{source}: field 'board.rows': {exc}") from None


def board_to_rows(board: Board) -> list[str]:
    out = []
    widest = max(ROW_WIDTHS)
    for row in board.to_rows():
        pad = " " * (widest - len(row))
        out.append(pad + " ".join(LETTER_OF[t] for t in row))
    return out


def _check(data: dict[str, Any], source: str, placement: bool = True) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _err(source, "(top level)", "a table")
    unknown = set(data) - {"position", "board", "unit", "enemy", "boxes", "mortars", "tracks"}
    if unknown:
        raise _err(
            source,
            sorted(unknown)[0],
            "one of position, board, tracks, unit, boxes, enemy, mortars",
        )
    if not isinstance(data.get("board"), dict):
        raise _err(source, "board", "a [board] table with 'rows'", data.get("board"))
    extra = set(data["board"]) - {"rows"}
    if extra:
        raise _err(source, f"board.{sorted(extra)[0]}", "only 'rows' in [board]")
    board = board_from_rows(data["board"].get("rows"), source)
    out: dict[str, Any] = {
        "position": _check_about(data.get("position", {}), source),
        "board": {"rows": board_to_rows(board)},
    }
    out["tracks"] = _check_tracks(data.get("tracks", {}), source)
    out["unit"] = _check_units(data.get("unit", []), board, source)
    out["boxes"] = _check_boxes(data.get("boxes", {}), out["unit"], source)
    out["enemy"] = _check_enemy(data.get("enemy", []), board, out["unit"], source)
    out["mortars"] = _check_mortars(data.get("mortars", {}), board, out["tracks"], source)
    if placement:
        _check_placement(out, board, source)
    return out


def _check_about(about, source):
    """``[position]``: title, source, notes... (text only)."""
    if not isinstance(about, dict):
        raise _err(source, "position", "a [position] table of text (title, source, notes)", about)
    for k, v in about.items():
        if not isinstance(v, str):
            raise _err(source, f"position.{k}", "text", v)
    return dict(about)


def _check_placement(out: dict[str, Any], board: Board, source: str) -> None:
    """Every platoon stands where the rules let one stand (CA "Movement").

    The engine's own entry rule (:func:`~.movement.may_enter_hex`: closed side edges,
    enemy hexes, rifle companies never sharing, armour out of woods and poor going and
    one armour platoon per hex) is asked for each platoon in turn, as if it had moved
    there with the ones listed before it already in place.
    """
    state = GameState(game=Game(board), seed=0, dice=Dice(0))
    state.units = {u: Platoon(u, OFF) for u in ALL_IDS}
    for e in out["enemy"]:
        h = board.hex_at(e["hex"])
        state.enemy[h] = EnemyPost(h, e["platoon"])
    for i, u in enumerate(out["unit"]):
        p = state.units[u["id"]]
        h = board.hex_at(u["hex"])
        why = may_enter_hex(state, p, h)
        if why is not None:
            raise _err(source, f"unit[{i}].hex", f"a hex {p.id} may stand in ({why})", u["hex"])
        state.place(p, h)


_TRACKS = {
    "turn": (1, LAST_TURN, 1),
    "losses": (0, TRACK_SIZE - 1, 0),
    "ammo": (0, TRACK_SIZE - 1, 0),
    "smoke_ammo": (0, SMOKE_ROUNDS, SMOKE_ROUNDS),
    "enemy_platoons_broken": (0, 30, 0),
    "atgs_broken": (0, 30, 0),
    "real_platoons_revealed": (0, 30, 0),
    "real_atgs_revealed": (0, 30, 0),
}


def _check_tracks(t, source):
    if not isinstance(t, dict):
        raise _err(source, "tracks", "a table")
    out = {}
    for k, v in t.items():
        if k == "phase":
            if v not in PHASES:
                raise _err(source, "tracks.phase", f"one of {PHASES}", v)
            out[k] = v
            continue
        if k not in _TRACKS:
            raise _err(source, f"tracks.{k}", f"one of phase, {', '.join(_TRACKS)}")
        lo, hi, _ = _TRACKS[k]
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise _err(source, f"tracks.{k}", f"a whole number from {lo} to {hi}", v)
        out[k] = v
    return out


def _hex(board: Board, v, source: str, field: str):
    if isinstance(v, str):
        try:
            return board.hex_at(v)
        except BoardError:
            pass
    raise _err(source, field, "a hex name such as '3e' (row 1-9, column letter)", v)


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _facing(v, source, field):
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 5:
        return v
    if isinstance(v, str) and v.replace(" ", "_") in FACING_NAMES:
        return FACING_NAMES[v.replace(" ", "_")]
    raise _err(source, field, f"a corner 0-5 or one of {sorted(FACING_NAMES)}", v)


def _check_units(units, board, source):
    if not isinstance(units, list):
        raise _err(source, "unit", "an array of [[unit]] tables")
    out, seen = [], set()
    for i, u in enumerate(units):
        f = f"unit[{i}]"
        if not isinstance(u, dict):
            raise _err(source, f, "a table")
        uid = u.get("id")
        if uid not in ALL_IDS:
            raise _err(source, f"{f}.id", f"a platoon name from {', '.join(ALL_IDS)}", uid)
        if uid in seen:
            raise _err(source, f"{f}.id", "each platoon listed once", uid)
        seen.add(uid)
        h = _hex(board, u.get("hex"), source, f"{f}.hex")
        fresh = u.get("fresh", True)
        if not isinstance(fresh, bool):
            raise _err(source, f"{f}.fresh", "true or false", fresh)
        entry = {"id": uid, "hex": board.label(h), "fresh": fresh}
        if uid.startswith("A"):
            entry["facing"] = _facing(u.get("facing", "bottom"), source, f"{f}.facing")
        elif "facing" in u:
            raise _err(source, f"{f}.facing", "no facing: only armour faces a corner", u["facing"])
        extra = set(u) - {"id", "hex", "fresh", "facing"}
        if extra:
            raise _err(source, f"{f}.{sorted(extra)[0]}", "only id, hex, fresh and facing")
        out.append(entry)
    return out


def _check_boxes(boxes, units, source):
    if not isinstance(boxes, dict):
        raise _err(source, "boxes", "a table of withdrawn / exploited / broken lists")
    placed = {u["id"] for u in units}
    out = {}
    for k in ("withdrawn", "exploited", "broken"):
        ids = boxes.get(k, [])
        if not isinstance(ids, list) or any(i not in ALL_IDS for i in ids):
            raise _err(source, f"boxes.{k}", "a list of platoon names", ids)
        if len(set(ids)) != len(ids):
            raise _err(source, f"boxes.{k}", "each platoon listed once", ids)
        clash = placed.intersection(ids)
        if clash:
            raise _err(
                source, f"boxes.{k}", "platoons not also placed on the board", sorted(clash)[0]
            )
        placed.update(ids)
        out[k] = list(ids)
    extra = set(boxes) - {"withdrawn", "exploited", "broken"}
    if extra:
        raise _err(source, f"boxes.{sorted(extra)[0]}", "only withdrawn, exploited and broken")
    return out


def _check_enemy(enemy, board, units, source):
    if not isinstance(enemy, list):
        raise _err(source, "enemy", "an array of [[enemy]] tables")
    occupied = {u["hex"] for u in units}
    out, seen = [], set()
    for i, e in enumerate(enemy):
        f = f"enemy[{i}]"
        if not isinstance(e, dict):
            raise _err(source, f, "a table")
        h = _hex(board, e.get("hex"), source, f"{f}.hex")
        name = board.label(h)
        if name in seen:
            raise _err(source, f"{f}.hex", "one [[enemy]] entry per hex", name)
        if name in occupied:
            raise _err(source, f"{f}.hex", "a hex without your platoons in it", name)
        seen.add(name)
        platoon = e.get("platoon", POTENTIAL)
        if platoon not in (POTENTIAL, REAL):
            raise _err(source, f"{f}.platoon", "'potential' or 'real'", platoon)
        atg = e.get("atg", "none")
        if atg not in ("none", POTENTIAL, REAL):
            raise _err(source, f"{f}.atg", "'none', 'potential' or 'real'", atg)
        if atg == REAL and platoon != REAL:
            raise _err(
                source,
                f"{f}.platoon",
                "'real' wherever the ATGs are real (CA \"Enemy Decisions\")",
                platoon,
            )
        fresh = e.get("fresh", True)
        removed = e.get("atg_removed", False)
        for k, v in (("fresh", fresh), ("atg_removed", removed)):
            if not isinstance(v, bool):
                raise _err(source, f"{f}.{k}", "true or false", v)
        extra = set(e) - {"hex", "platoon", "atg", "fresh", "atg_removed"}
        if extra:
            raise _err(
                source, f"{f}.{sorted(extra)[0]}", "only hex, platoon, atg, fresh and atg_removed"
            )
        out.append(
            {"hex": name, "platoon": platoon, "atg": atg, "fresh": fresh, "atg_removed": removed}
        )
    return out


def _check_mortars(m, board, tracks, source):
    if not isinstance(m, dict):
        raise _err(source, "mortars", "a table")
    now = tracks.get("turn", 1)
    extra = set(m) - {"friendly", "enemy", "smoke"}
    if extra:
        raise _err(source, f"mortars.{sorted(extra)[0]}", "only friendly, enemy and smoke")
    out: dict[str, Any] = {}
    for side in ("friendly", "enemy"):
        if side in m:
            t = m[side]
            if not isinstance(t, dict):
                raise _err(source, f"mortars.{side}", "a table with hex and turn")
            h = _hex(board, t.get("hex"), source, f"mortars.{side}.hex")
            turn = t.get("turn")
            if not _whole(turn) or not 1 <= turn <= now:
                raise _err(
                    source,
                    f"mortars.{side}.turn",
                    f"the turn it was placed, 1 to the current turn ({now})",
                    turn,
                )
            smoke = t.get("smoke", False)
            if not isinstance(smoke, bool) or (smoke and side == "enemy"):
                raise _err(
                    source,
                    f"mortars.{side}.smoke",
                    "true or false (only your own mortars lay smoke)",
                    smoke,
                )
            extra = set(t) - {"hex", "turn", "smoke"}
            if extra:
                raise _err(source, f"mortars.{side}.{sorted(extra)[0]}", "only hex, turn, smoke")
            out[side] = {"hex": board.label(h), "turn": turn, "smoke": smoke}
    smoke = m.get("smoke", {})
    if not isinstance(smoke, dict):
        raise _err(source, "mortars.smoke", "a table of hex = last turn")
    out["smoke"] = {}
    for k, v in smoke.items():
        h = _hex(board, k, source, f"mortars.smoke.{k}")
        if not _whole(v) or not now <= v <= LAST_TURN + 1:
            raise _err(
                source,
                f"mortars.smoke.{k}",
                f"the turn whose fire phase ends it ({now}-{LAST_TURN + 1})",
                v,
            )
        out["smoke"][board.label(h)] = v
    return out


def state_from_position(
    position: Position, seed: int = 0, options: Options | None = None, seats=None
) -> GameState:
    """A game state set up exactly as the position describes."""
    data = position.data
    board = position.board
    tracks = {k: v[2] for k, v in _TRACKS.items()}
    tracks.update({k: v for k, v in data["tracks"].items() if k != "phase"})
    game = Game(board, options or Options(), SOLITAIRE_SEATS if seats is None else seats)
    state = GameState(game=game, seed=seed, dice=Dice(seed))
    state.turn = tracks["turn"]
    state.phase = data["tracks"].get("phase", "friendly_move")
    state.losses, state.ammo, state.smoke_ammo = (
        tracks["losses"],
        tracks["ammo"],
        tracks["smoke_ammo"],
    )
    state.enemy_platoons_broken = tracks["enemy_platoons_broken"]
    state.atgs_broken = tracks["atgs_broken"]
    state.real_platoons_revealed = tracks["real_platoons_revealed"]
    state.real_atgs_revealed = tracks["real_atgs_revealed"]
    state.units = {u: Platoon(u, OFF) for u in ALL_IDS}
    for u in data["unit"]:
        p = state.units[u["id"]]
        state.place(p, board.hex_at(u["hex"]))
        p.fresh = u["fresh"]
        p.facing = u.get("facing")
    for where, ids in (("withdrawn", WITHDRAWN), ("exploited", EXPLOITED), ("broken", BROKEN)):
        for uid in data["boxes"].get(where, []):
            state.units[uid].where = ids
    for e in data["enemy"]:
        h = board.hex_at(e["hex"])
        atg = None if e["atg"] == "none" else e["atg"]
        state.enemy[h] = EnemyPost(h, e["platoon"], atg, e["fresh"], e["atg_removed"])
    m = data["mortars"]
    if "friendly" in m:
        f = m["friendly"]
        state.friendly_mortar = MortarTarget(board.hex_at(f["hex"]), f["turn"], f["smoke"])
    if "enemy" in m:
        state.enemy_mortar = MortarTarget(board.hex_at(m["enemy"]["hex"]), m["enemy"]["turn"])
    state.smoke = {board.hex_at(k): v for k, v in m.get("smoke", {}).items()}
    state.log(
        "setup",
        f"position loaded from {position.source}"
        + (f": {position.title}" if position.title else ""),
    )
    return state


def position_from_state(state: GameState, title: str = "") -> Position:
    """The current state written as a position (for saving a situation to study)."""
    b = state.board
    units = []
    boxes = {"withdrawn": [], "exploited": [], "broken": []}
    for u in state.units.values():
        if u.where == BOARD:
            entry = {"id": u.id, "hex": b.label(u.hex), "fresh": u.fresh}
            if u.is_armour:
                entry["facing"] = u.facing
            units.append(entry)
        elif u.where in (WITHDRAWN, EXPLOITED, BROKEN):
            boxes[u.where].append(u.id)
    enemy = [
        {
            "hex": b.label(h),
            "platoon": p.platoon or POTENTIAL,
            "atg": p.atg or "none",
            "fresh": p.fresh,
            "atg_removed": p.atg_removed,
        }
        for h, p in sorted(state.enemy.items())
        if p.platoon is not None
    ]
    mortars: dict[str, Any] = {"smoke": {b.label(h): t for h, t in state.smoke.items()}}
    if state.friendly_mortar:
        fm = state.friendly_mortar
        mortars["friendly"] = {"hex": b.label(fm.hex), "turn": fm.turn, "smoke": fm.smoke}
    if state.enemy_mortar:
        mortars["enemy"] = {"hex": b.label(state.enemy_mortar.hex), "turn": state.enemy_mortar.turn}
    phase = state.phase if state.phase in PHASES else "friendly_move"
    data = {
        "position": {"title": title} if title else {},
        "board": {"rows": board_to_rows(b)},
        "tracks": {
            "phase": phase,
            "turn": state.turn,
            "losses": state.losses,
            "ammo": state.ammo,
            "smoke_ammo": state.smoke_ammo,
            "enemy_platoons_broken": state.enemy_platoons_broken,
            "atgs_broken": state.atgs_broken,
            "real_platoons_revealed": state.real_platoons_revealed,
            "real_atgs_revealed": state.real_atgs_revealed,
        },
        "unit": units,
        "boxes": boxes,
        "enemy": enemy,
        "mortars": mortars,
    }
    return Position.from_dict(data, "<state>")


def to_toml(position: Position) -> str:
    """Write a position back as TOML text in the documented layout."""
    d = position.data
    lines = []
    if d["position"]:
        lines.append("[position]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in d["position"].items()]
        lines.append("")
    lines.append("[tracks]")
    lines += [f"{k} = {_toml_value(v)}" for k, v in d["tracks"].items()]
    lines += ["", "[board]", "rows = ["]
    lines += [f'  "{r}",' for r in d["board"]["rows"]]
    lines += ["]", ""]
    for u in d["unit"]:
        lines.append("[[unit]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in u.items()]
        lines.append("")
    lines.append("[boxes]")
    lines += [f"{k} = {_toml_value(v)}" for k, v in d["boxes"].items()]
    lines.append("")
    for e in d["enemy"]:
        lines.append("[[enemy]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in e.items()]
        lines.append("")
    m = d["mortars"]
    lines.append("[mortars]")
    for side in ("friendly", "enemy"):
        if side in m:
            lines.append(
                f"{side} = {{ "
                + ", ".join(f"{k} = {_toml_value(v)}" for k, v in m[side].items())
                + " }"
            )
    lines.append("smoke = { " + ", ".join(f'"{k}" = {v}' for k, v in m["smoke"].items()) + " }")
    return "\n".join(lines) + "\n"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def sketch(
    terrain: dict[str, str] | None = None,
    units: dict[str, str] | None = None,
    enemy: dict[str, str] | None = None,
    seed: int = 0,
    options: Options | None = None,
    seats=None,
    **tracks,
) -> GameState:
    """A small position written inline, for tests and lesson cells.

    ``terrain`` changes hexes of an open board (``{"5d": "crest"}``); ``units`` places
    platoons (``{"F1": "5e", "D1": "4d spent", "A2": "3c bottom"}``); ``enemy`` places
    posts as ``"real+atg"``, ``"potential"``, ``"real+potential_atg"``, with ``" spent"``
    for pinned counters; keyword arguments set tracks (``losses=5``, ``phase=...``).

    >>> s = sketch({"5d": "crest"}, {"F1": "5e"}, {"5d": "real+atg"}, phase="friendly_fire")
    >>> s.units["F1"].hex == s.board.hex_at("5e"), s.enemy[s.board.hex_at("5d")].atg
    (True, 'real')
    """
    board = Board.open_board(terrain or {})
    unit_rows = []
    for uid, spec in (units or {}).items():
        words = spec.split()
        entry: dict[str, Any] = {"id": uid, "hex": words[0], "fresh": "spent" not in words[1:]}
        facing = [w for w in words[1:] if w != "spent"]
        if facing:
            entry["facing"] = " ".join(facing).replace("_", " ")
        unit_rows.append(entry)
    enemy_rows = []
    for h, spec in (enemy or {}).items():
        words = spec.split()
        kinds = words[0].split("+")
        atg = "none"
        if len(kinds) > 1:
            atg = (
                "potential"
                if kinds[1] == "potential_atg"
                else ("real" if kinds[0] == "real" else "potential")
            )
        enemy_rows.append(
            {
                "hex": h,
                "platoon": kinds[0],
                "atg": atg,
                "fresh": "spent" not in words[1:],
                "atg_removed": "atg_removed" in words[1:],
            }
        )
    data = {
        "board": {"rows": board_to_rows(board)},
        "unit": unit_rows,
        "enemy": enemy_rows,
        "tracks": tracks,
    }
    # A sketch puts pieces exactly where it is told, even where no platoon could stand
    # (a closed side edge, say), so that one rule can be shown on its own; position
    # files and saves are held to the placement rules.
    return state_from_position(
        Position.from_dict(data, "<sketch>", placement=False),
        seed=seed,
        options=options,
        seats=seats,
    )
