"""The Combined Arms playing board: its shape, terrain, road and edges (CA "The Playing Board").

The board is 9 hexrows deep. Rows hold 7, 8, 9, 10, 11, 10, 9, 8 and 7 hexes, with one
road hex in each, which fits every fact the text gives: 70 hexes off the road, 7 to 11
hexes wide, and a friendly rear edge of 7 hexes (docs/rules-notes.md, "Board shape").

hexclass always stores the board with the attacker's rear edge as row 0 and the
defender's rear edge as row 8. Hexes are named by row number (1 = your rear edge, 9 =
the enemy's) and column letter from the left, e.g. ``5f``: never the same as a platoon
name such as ``F5`` or ``A2``. When the dice put the defence at
the top, the generated board is given a half turn, so the rest of the engine never has
to ask which way the battle faces.

>>> b = Board.open_board()
>>> b.label((0, 0)), b.hex_at("1d"), b.terrain[b.hex_at("5f")]
('1d', (0, 0), 'road')
>>> len(b.hexes), len(b.road)
(79, 9)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.dice import Dice

Hex = hg.Hex

ROW_WIDTHS = (7, 8, 9, 10, 11, 10, 9, 8, 7)
ROWS = len(ROW_WIDTHS)
COLUMN_LETTERS = "abcdefghijk"
MIDDLE_ROWS = range(2, 7)  # the 5 middle hexrows: their side-edge hexes are closed to you
CENTRE: Hex = (-2, 4)  # the road hex in the middle of row E; the half-turn pivot


class T:
    """Terrain names (CA "The Playing Board": 2d6 per hex)."""

    OPEN = "open"
    POOR = "poor"
    CREST = "crest"
    WOODS = "woods"
    WOODED_CREST = "wooded_crest"
    FARM = "farm"
    ROAD = "road"

    ALL = (OPEN, POOR, CREST, WOODS, WOODED_CREST, FARM, ROAD)


# CA "The Playing Board": 7 or less open, 8 poor going, 9 crest, 10 woods,
# 11 wooded crest, 12 farm.
TERRAIN_BY_2D6 = {8: T.POOR, 9: T.CREST, 10: T.WOODS, 11: T.WOODED_CREST, 12: T.FARM}

DEFENSIVE = frozenset({T.CREST, T.WOODS, T.WOODED_CREST, T.FARM})
BLOCKS_LINES_OF_FIRE = DEFENSIVE  # CA "Fire Attacks": intervening wood, crest or farm
CRESTS = frozenset({T.CREST, T.WOODED_CREST})  # a wooded crest is both (CA p.1)
WOODS = frozenset({T.WOODS, T.WOODED_CREST})
HULL_DOWN = frozenset({T.CREST, T.WOODED_CREST, T.FARM})  # CA "Enemy Fire"
ARMOUR_CANNOT_ENTER = frozenset({T.POOR, T.WOODS, T.WOODED_CREST})  # CA "Movement"
ATG_FIELD = frozenset({T.OPEN, T.ROAD, T.POOR})  # CA "The Units": ATG placement


def standard_hexes() -> list[Hex]:
    """All 79 hexes in reading order (row by row, left to right)."""
    out = []
    for r, w in enumerate(ROW_WIDTHS):
        for c in range(w):
            out.append(_hex_of(r, c))
    return out


def _hex_of(row: int, col: int) -> Hex:
    w = ROW_WIDTHS[row]
    # x = col - (w - 1) / 2 and q = x - row / 2; both halves cancel to an integer
    return ((2 * col - (w - 1) - row) // 2, row)


STANDARD_HEXES: tuple[Hex, ...] = tuple(standard_hexes())
STANDARD_HEX_SET = frozenset(STANDARD_HEXES)
# A set of hexes as a bit mask over the 79 standard hexes (bit i: STANDARD_HEXES[i]): lines
# of fire (.lines), the terrain that blocks them and the rifle platoons in the way.
_INDEX: dict[Hex, int] = {h: i for i, h in enumerate(STANDARD_HEXES)}


def hex_index(h: Hex) -> int:
    return _INDEX[h]


def mask_of(hexes) -> int:
    """The mask of ``hexes`` (hexes off the standard board are left out)."""
    m = 0
    for h in hexes:
        i = _INDEX.get(h)
        if i is not None:
            m |= 1 << i
    return m


def hexes_of_mask(mask: int) -> tuple[Hex, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(STANDARD_HEXES[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _shape_tables():
    """Facts about the standard shape every board shares, worked out once per process."""
    cols, by_label, labels = {}, {}, {}
    for r, w in enumerate(ROW_WIDTHS):
        for c in range(w):
            h = _hex_of(r, c)
            name = f"{r + 1}{COLUMN_LETTERS[c]}"
            cols[h], by_label[name], labels[h] = c, h, name
    neighbours = {
        h: tuple(n for n in hg.neighbours(h) if n in STANDARD_HEX_SET) for h in STANDARD_HEXES
    }
    # DIST[a][b]: steps between two hexes of the board, read far more often than computed
    dist = {a: {b: hg.distance(a, b) for b in STANDARD_HEXES} for a in STANDARD_HEXES}
    return cols, by_label, labels, neighbours, dist


_COLS, _BY_LABEL, _LABELS, NEIGHBOURS_ON_BOARD, DIST = _shape_tables()


def _edge_tables():
    """The shape's edges (CA "The Playing Board", "Movement"), the same on every board."""
    friendly = tuple(h for h in STANDARD_HEXES if h[1] == 0)
    enemy = tuple(h for h in STANDARD_HEXES if h[1] == ROWS - 1)
    side = frozenset(h for h in STANDARD_HEXES if _COLS[h] in (0, ROW_WIDTHS[h[1]] - 1))
    closed = frozenset(h for h in side if h[1] in MIDDLE_ROWS)
    return friendly, enemy, side, closed


_FRIENDLY_EDGE, _ENEMY_EDGE, _SIDE_EDGE, _CLOSED_SIDE_EDGE = _edge_tables()
_HALF_TURN = {h: hg.rotate_180(h, CENTRE) for h in STANDARD_HEXES}
_TERRAIN_NAMES = frozenset(T.ALL)

_ARCS: dict[Hex, dict[Hex, int]] = {}  # _ARCS[origin][target], one row per origin


def facing_arcs(origin: Hex, target: Hex) -> int:
    """Bit mask of the corners (0-5) whose forward arc from ``origin`` holds ``target``.

    ``facing_arcs(a, b) >> f & 1`` is ``hexgrid.in_arc(a, f, b)``, remembered per pair.
    """
    try:
        return _ARCS[origin][target]
    except KeyError:
        m = sum(1 << f for f in range(6) if hg.in_arc(origin, f, target))
        _ARCS.setdefault(origin, {})[target] = m
        return m


def in_arc(origin: Hex, corner: int, target: Hex) -> bool:
    """``hexgrid.in_arc``, read from :func:`facing_arcs`."""
    return bool(facing_arcs(origin, target) >> corner & 1)


def standard_road() -> tuple[Hex, ...]:
    """The central road: the middle hex of odd rows, the right-of-middle of even ones."""
    return tuple(
        _hex_of(r, (w - 1) // 2 + (1 if w % 2 == 0 else 0)) for r, w in enumerate(ROW_WIDTHS)
    )


_STANDARD_ROAD = standard_road()
_STANDARD_ROAD_SET = frozenset(_STANDARD_ROAD)


class BoardError(ValueError):
    """A board description that cannot be a Combined Arms board."""


@dataclass(eq=False)
class Board:
    """Terrain for every hex of the standard board, plus the road (one hex per row)."""

    terrain: Mapping[Hex, str]
    road: tuple[Hex, ...]
    _cols: dict[Hex, int] = field(init=False, repr=False)
    _by_label: dict[str, Hex] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        hexes = STANDARD_HEXES
        self.terrain = dict(self.terrain)
        _check_terrain(self.terrain)
        self.road = tuple(self.road)
        _check_road(self.road, self.terrain)
        self.hexes: tuple[Hex, ...] = hexes
        self.hex_set = STANDARD_HEX_SET
        self.road_set = frozenset(self.road)
        # the shape's tables are shared by every board: read them, never change them
        self._cols = _COLS
        self._by_label = _BY_LABEL
        self._labels = _LABELS
        self.dist = DIST  # dist[a][b]: steps between two hexes of the board
        self.friendly_edge = _FRIENDLY_EDGE
        self.enemy_edge = _ENEMY_EDGE
        self.exploit_hexes = self.enemy_edge[2:5]  # the 3 central enemy rear-edge hexes
        self.side_edge = _SIDE_EDGE
        self.closed_side_edge = _CLOSED_SIDE_EDGE
        # the road runs on past each rear edge into the off-board boxes
        self.road_beyond_friendly_edge = hg.sub(self.road[0], hg.sub(self.road[2], self.road[1]))
        self.road_beyond_enemy_edge = hg.add(self.road[-1], hg.sub(self.road[-2], self.road[-3]))
        # the road with its two steps off the board, for the 2-hex road move (CA "Movement")
        self.road_and_beyond = self.road_set | {
            self.road_beyond_friendly_edge,
            self.road_beyond_enemy_edge,
        }
        self.neighbours_on_board = NEIGHBOURS_ON_BOARD
        terrain = self.terrain
        self.block_mask = mask_of(h for h in hexes if terrain[h] in BLOCKS_LINES_OF_FIRE)
        self.crest_set = frozenset(h for h in hexes if terrain[h] in CRESTS)
        self.defensive_set = frozenset(h for h in hexes if terrain[h] in DEFENSIVE)
        # numbers worked out from the terrain alone, remembered here (see enemy.hit_table)
        self.hit_tables: dict = {}

    # --- names ------------------------------------------------------------------------
    def label(self, h: Hex) -> str:
        """Row number from your rear edge, then the column letter from the left: ``3e``."""
        try:
            return self._labels[h]
        except (KeyError, TypeError):
            raise BoardError(f"{h} is not on the board") from None

    def hex_at(self, label: str) -> Hex:
        try:
            return self._by_label[label.strip().lower()]
        except (KeyError, AttributeError):
            raise BoardError(
                f"{label!r} is not a hex name; expected a row number 1-9 and a column letter "
                f"(1a-1g, 2a-2h, ..., 5a-5k, ..., 9a-9g)"
            ) from None

    def column(self, h: Hex) -> int:
        return self._cols[h]

    def on_board(self, h: Hex) -> bool:
        return h in self.hex_set

    # --- terrain predicates -------------------------------------------------------------
    def is_crest(self, h: Hex) -> bool:
        return self.terrain[h] in CRESTS

    def is_defensive(self, h: Hex) -> bool:
        return self.terrain[h] in DEFENSIVE

    def blocks(self, h: Hex) -> bool:
        return self.terrain[h] in BLOCKS_LINES_OF_FIRE

    # --- construction ------------------------------------------------------------------
    @classmethod
    def open_board(cls, overrides: Mapping[str, str] | None = None) -> Board:
        """Open farmland everywhere but the road, with optional ``{"3c": "woods"}`` changes."""
        road = standard_road()
        terrain = {h: (T.ROAD if h in road else T.OPEN) for h in standard_hexes()}
        board = cls(terrain, road)
        if overrides:
            for label, t in overrides.items():
                terrain[board.hex_at(label)] = t
            board = cls(terrain, road)
        return board

    def half_turned(self) -> Board:
        """The same board seen from the other side (CA: the defence takes the denser half)."""
        terrain = {_HALF_TURN[h]: t for h, t in self.terrain.items()}
        road = tuple(_HALF_TURN[h] for h in reversed(self.road))
        return Board(terrain, road)

    def to_rows(self) -> list[list[str]]:
        """Terrain names row by row, left to right (the TOML board format)."""
        return [[self.terrain[_hex_of(r, c)] for c in range(w)] for r, w in enumerate(ROW_WIDTHS)]

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[str]], road: Iterable[Hex] | None = None) -> Board:
        rows = [list(r) for r in rows]
        if [len(r) for r in rows] != list(ROW_WIDTHS):
            raise BoardError(
                f"rows must have {list(ROW_WIDTHS)} hexes, got {[len(r) for r in rows]}"
            )
        terrain = {_hex_of(r, c): t for r, row in enumerate(rows) for c, t in enumerate(row)}
        if road is None:
            road = tuple(h for h in standard_hexes() if terrain[h] == T.ROAD)
        return cls(terrain, tuple(road))


def _check_terrain(terrain: dict[Hex, str]) -> None:
    """Exactly the 79 standard hexes, each with a terrain the rules know."""
    if terrain.keys() != STANDARD_HEX_SET:
        missing = [h for h in STANDARD_HEXES if h not in terrain]
        extra = [h for h in terrain if h not in STANDARD_HEX_SET]
        raise BoardError(
            f"board terrain must cover exactly the 79 standard hexes "
            f"(missing {len(missing)}, unexpected {len(extra)})"
        )
    try:
        known = _TERRAIN_NAMES.issuperset(terrain.values())
    except TypeError:  # an unhashable value: told apart below, as any unknown name
        known = False
    if not known:
        bad = [t for t in terrain.values() if t not in T.ALL]
        raise BoardError(f"unknown terrain {sorted(set(bad))}; expected one of {T.ALL}")


def _check_road(road: tuple[Hex, ...], terrain: Mapping[Hex, str]) -> None:
    if len(road) != ROWS or [h[1] for h in road] != list(range(ROWS)):
        raise BoardError("the road must have exactly one hex in each of the 9 rows")
    for a, b in zip(road, road[1:], strict=False):
        if hg.distance(a, b) != 1:
            raise BoardError(f"road hexes {a} and {b} are not adjacent")
    for h in road:
        if terrain.get(h) != T.ROAD:
            raise BoardError(f"road hex {h} has terrain {terrain.get(h)!r}, expected 'road'")
    stray = [h for h, t in terrain.items() if t == T.ROAD and h not in road]
    if stray:
        raise BoardError(f"{len(stray)} hexes are marked road but are not on the road line")


# --- generation (CA "The Playing Board", "The Units") --------------------------------------


@dataclass(frozen=True)
class GeneratedBoard:
    board: Board
    top_defensive: int  # defensive hexes in the 3 rows nearest the side that attacks
    bottom_defensive: int
    tie_roll: int | None  # the die that settled a tie, if there was one
    half_turned: bool


def defensive_count(board: Board, rows: Iterable[int]) -> int:
    rows = set(rows)
    return sum(1 for h in board.defensive_set if h[1] in rows)


def dice_for_terrain(dice: Dice) -> Board:
    """Roll 2d6 for each of the 70 hexes off the road, in reading order."""
    road = _STANDARD_ROAD
    terrain = {}
    for h in STANDARD_HEXES:
        if h in _STANDARD_ROAD_SET:
            terrain[h] = T.ROAD
        else:
            total = dice.d6() + dice.d6()
            terrain[h] = TERRAIN_BY_2D6.get(total, T.OPEN)
    return Board(terrain, road)


def generate_board(dice: Dice) -> GeneratedBoard:
    """Dice a board and turn it so that the defence holds rows 7-9 (CA "The Units").

    The enemy occupies whichever outer three rows hold more woods, crests and farms;
    a tie is settled by a die (1-3: the defence takes the top rows).
    """
    board = dice_for_terrain(dice)
    top = defensive_count(board, range(0, 3))
    bottom = defensive_count(board, range(6, 9))
    tie_roll = None
    defence_at_top = top > bottom
    if top == bottom:
        tie_roll = dice.d6()
        defence_at_top = tie_roll <= 3
    if defence_at_top:
        board = board.half_turned()
        top, bottom = bottom, top
    return GeneratedBoard(board, top, bottom, tie_roll, defence_at_top)


@dataclass(frozen=True)
class PotentialPost:
    hex: Hex
    with_atg: bool
    atg_field: int  # open, road or poor-going neighbours that counted


def potential_posts(board: Board) -> list[PotentialPost]:
    """Where the potential enemy counters go (CA "The Units").

    One on every woods, crest, wooded crest or farm in rows 4-9 (the middle three rows
    and the defender's three), with a potential ATG counter where at least 3 neighbours
    are open, road or poor going. Neighbours in the next row towards the enemy rear
    edge do not count, except for a counter on a side-edge hex.
    """
    posts = []
    for h in board.hexes:
        if h[1] < 3 or h not in board.defensive_set:
            continue
        field_count = atg_field(board, h)
        posts.append(PotentialPost(h, field_count >= 3, field_count))
    return posts


def atg_field(board: Board, h: Hex) -> int:
    count = 0
    for n in board.neighbours_on_board[h]:
        behind = n[1] > h[1]
        if behind and h not in board.side_edge:
            continue
        if board.terrain[n] in ATG_FIELD:
            count += 1
    return count
