"""The Land Game sequence of play as data, and a cursor that walks it (CNA 5.2, 8.2).

:data:`GAME_TURN` is the whole outline of one Game-Turn: six stages; the three
Operations Stages share one table of phases A-L; phases hold segments and segments
hold steps. Every entry says who acts, what may happen and which rule governs it.

Two features of the outline are not plain nesting, and the cursor handles both:

* phases F-L are played first by Player A, then again by Player B with the roles
  swapped (CNA 5.2, the line after Phase L);
* inside Phase G the phasing player may run segments 1-4 again, as often as he likes,
  each repetition taking all four segments (CNA 5.2 G, 8.22).

>>> c = SequenceCursor.start()
>>> c.key
'I'
>>> c = c.seek("III.G.4", phasing=Role.A)
>>> c.can_repeat
True
>>> c.repeat_movement_and_combat().key, c.repeat_movement_and_combat().movement_pass
('III.G.1', 2)
>>> c.next().key
'III.H'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import cache

from hexclass.classroom.cna.errors import CNAInputError, RuleViolation, require_int
from hexclass.classroom.cna.initiative import OPERATIONS_STAGES_PER_TURN, Role, Side


class Level(Enum):
    STAGE = "Stage"
    PHASE = "Phase"
    SEGMENT = "Segment"
    STEP = "Step"


class Actor(Enum):
    """Who makes the decisions in an entry of the outline."""

    BOTH = "both players"
    INITIATIVE_HOLDER = "the player holding the Initiative"
    AXIS = "the Axis player"
    COMMONWEALTH = "the Commonwealth player"
    PHASING = "the phasing player"
    NON_PHASING = "the non-phasing player"
    PHASING_IF_COMMONWEALTH = "the phasing player, only if he is the Commonwealth"


@dataclass(frozen=True)
class Entry:
    """One line of the outline: a stage, phase, segment or step.

    ``label`` is the numbering printed in CNA 5.2 ("III", "G", "3", "c"); ``responder``
    is a second player who may act inside the entry (Player B reacting during A's
    movement); ``per_player`` marks phases F-L, played once by each player in turn;
    ``repeatable`` marks Phase G, whose segments may be run again (CNA 8.2);
    ``any_order`` marks the Organization Phase, whose segments are done in any order.
    """

    label: str
    level: Level
    title: str
    actor: Actor
    may_happen: str
    rule: str
    see: tuple[str, ...] = ()
    responder: Actor | None = None
    children: tuple[Entry, ...] = ()
    per_player: bool = False
    repeatable: bool = False
    any_order: bool = False


def _step(label, title, actor, may_happen, rule="CNA 5.2", see=(), responder=None):
    return Entry(label, Level.STEP, title, actor, may_happen, rule, see, responder)


def _segment(label, title, actor, may_happen, rule="CNA 5.2", see=(), responder=None, steps=()):
    return Entry(label, Level.SEGMENT, title, actor, may_happen, rule, see, responder, steps)


def _phase(label, title, actor, may_happen, rule="CNA 5.2", see=(), **kw):
    return Entry(label, Level.PHASE, title, actor, may_happen, rule, see, **kw)


P, NP, BOTH = Actor.PHASING, Actor.NON_PHASING, Actor.BOTH

COMBAT_STEPS = (
    _step(
        "a",
        "Position Determination Step",
        BOTH,
        "Each side fixes the position of its Gun- and Armor-class units.",
        see=("CNA 11.0-15.0",),
    ),
    _step(
        "b",
        "Barrage Step",
        BOTH,
        "Barrages are plotted in secret by both sides, then fired.",
        see=("CNA 11.0-15.0",),
    ),
    _step(
        "c",
        "Retreat Before Assault Step",
        NP,
        "Eligible non-phasing units may pull back before they are assaulted.",
        see=("CNA 13.0", "CNA 8.64"),
    ),
    _step(
        "d",
        "Force Assignment Step",
        BOTH,
        "Both sides secretly split TOE Strength Points between anti-armor and close "
        "assault; the phasing player marks probes and points held back.",
        see=("CNA 11.0-15.0",),
    ),
    _step(
        "e",
        "Anti-Armor Step",
        BOTH,
        "Anti-armor fire is resolved at the same time for both sides; losses come off "
        "and Destroyed Tank markers go down.",
        see=("CNA 11.0-15.0",),
    ),
    _step(
        "f",
        "Close Assault Step",
        P,
        "Close assaults are fought in the order the phasing player picks; after each he "
        "reveals whether it was a probe. Losses of 30% earn 3 DPs; a won assault 3 RPs.",
        see=("CNA 15.0", "CNA 6.21", "CNA 6.24"),
    ),
)

MOVEMENT_AND_COMBAT_SEGMENTS = (
    _segment(
        "1",
        "Movement Segment",
        P,
        "Phasing units not in Reserve may move, paying CPs per hex; units in Contact "
        "or Engaged pay 2 or 4 CPs to break off. Non-phasing units may React.",
        rule="CNA 8.1",
        see=("CNA 8.5", "CNA 8.6", "CNA 8.23"),
        responder=NP,
    ),
    _segment(
        "2",
        "Breakdown Determination Segment",
        BOTH,
        "Every vehicle and motorized unit of either side checks for Breakdown.",
        see=("CNA 21.0",),
    ),
    _segment(
        "3",
        "Combat Segment",
        BOTH,
        "Combat is resolved in the six steps below, after all movement has stopped.",
        see=("CNA 8.22", "CNA 11.0-15.0"),
        steps=COMBAT_STEPS,
    ),
    _segment(
        "4",
        "Reserve Release Segment",
        P,
        "The phasing player may release Reserves. He may then run segments 1-4 again.",
        see=("CNA 18.0", "CNA 8.22"),
    ),
)

OPERATIONS_STAGE_PHASES = (
    _phase(
        "A",
        "Initiative Declaration Phase",
        Actor.INITIATIVE_HOLDER,
        "The Initiative holder declares whether he is Player A or Player B this stage.",
        see=("CNA 7.11", "CNA 7.16"),
    ),
    _phase(
        "B",
        "Weather Determination Phase",
        Actor.INITIATIVE_HOLDER,
        "The Initiative holder rolls for the weather.",
        see=("CNA 29.0",),
    ),
    _phase(
        "C",
        "Organization Phase",
        BOTH,
        "Attach, assign and detach units; finish and start construction and training. "
        "The segments may be done in any order.",
        any_order=True,
        children=(
            _segment(
                "1",
                "Reorganization Segment",
                BOTH,
                "Reinforcements, replacements, trucks and other free units are "
                "attached or assigned; units may be detached.",
                see=("CNA 6.17", "CNA 19.0"),
            ),
            _segment(
                "2",
                "Construction Segment",
                BOTH,
                "Construction is completed, then started or continued.",
                steps=(
                    _step(
                        "a",
                        "Construction Completion Step",
                        BOTH,
                        "Finished projects take effect; their builders may move again.",
                    ),
                    _step(
                        "b",
                        "Construction Initiation/Continuation Step",
                        BOTH,
                        "Builders are noted; they may not move by choice for the "
                        "rest of the stage, though they may still React.",
                    ),
                ),
            ),
            _segment(
                "3",
                "Training Segment",
                BOTH,
                "Training is completed, then started or continued.",
                see=("CNA 18.3",),
                steps=(
                    _step(
                        "a",
                        "Training Completion Step",
                        BOTH,
                        "Units and Replacement Points that finish a training level "
                        "gain its Morale effect.",
                    ),
                    _step(
                        "b",
                        "Training Initiation/Continuation Step",
                        BOTH,
                        "Trainees are noted; they may not move by choice for the "
                        "rest of the stage, though they may still React.",
                    ),
                ),
            ),
        ),
    ),
    _phase(
        "D",
        "Naval Convoy Arrival Phase",
        BOTH,
        "Reinforcements, Replacement Points and Ammo that actually arrive are placed at "
        "their ports or entry hexes.",
    ),
    _phase(
        "E",
        "Commonwealth Fleet Phase",
        Actor.COMMONWEALTH,
        "The Commonwealth places and repairs its ships.",
        children=(
            _segment(
                "1",
                "Fleet Assignment Segment",
                Actor.COMMONWEALTH,
                "Ships are assigned to sea or coastal hexes.",
            ),
            _segment(
                "2",
                "Fleet Repair Segment",
                Actor.COMMONWEALTH,
                "Repair work on ships is carried out.",
            ),
        ),
    ),
    _phase(
        "F",
        "Reserve Designation Phase",
        P,
        "The phasing player puts units into Reserve (Reserve I markers).",
        see=("CNA 18.0",),
        per_player=True,
    ),
    _phase(
        "G",
        "Movement and Combat Phase",
        P,
        "Move, then fight; the four segments may be repeated as a block as often as the "
        "phasing player wishes, within the Continual Movement rules.",
        rule="CNA 8.2",
        see=("CNA 5.2",),
        per_player=True,
        repeatable=True,
        responder=NP,
        children=MOVEMENT_AND_COMBAT_SEGMENTS,
    ),
    _phase(
        "H",
        "Truck Convoy Movement Phase",
        P,
        "The phasing player moves unattached Second and Third Line Trucks, POWs and Guards.",
        see=("CNA 8.18", "CNA 8.9"),
        per_player=True,
    ),
    _phase(
        "J",
        "Commonwealth Rail Movement Phase",
        Actor.PHASING_IF_COMMONWEALTH,
        "If the phasing player is the Commonwealth he may move units or supplies by rail.",
        rule="CNA 8.7",
        see=("CNA 5.2",),
        per_player=True,
    ),
    _phase(
        "K",
        "Repair Phase",
        P,
        "Broken-down vehicles are towed and repaired.",
        per_player=True,
        children=(
            _segment(
                "1",
                "Towing Segment",
                P,
                "The phasing player may tow broken-down and recovered vehicles.",
            ),
            _segment(
                "2",
                "Maintenance Segment",
                P,
                "The phasing player may try to repair broken-down or destroyed "
                "vehicles that were not towed this phase.",
            ),
        ),
    ),
    _phase(
        "L",
        "Patrol Phase",
        P,
        "If the phasing player made no assault, he may patrol to reconnoitre.",
        per_player=True,
    ),
)


def _operations_stage(label: str, ordinal: str) -> Entry:
    note = "" if label == "III" else " It repeats everything in the First Operations Stage."
    return Entry(
        label,
        Level.STAGE,
        f"{ordinal} Operations Stage",
        BOTH,
        "Phases A-E once, then phases F-L for Player A and again for Player B." + note,
        "CNA 5.2",
        ("CNA 5.1", "CNA 6.14"),
        children=OPERATIONS_STAGE_PHASES,
    )


GAME_TURN: tuple[Entry, ...] = (
    Entry(
        "I",
        Level.STAGE,
        "Initiative Determination Stage",
        BOTH,
        "Each player rolls a die and adds his Initiative Rating; the higher total holds "
        "the Initiative for the whole Game-Turn, ties rolling again.",
        "CNA 7.14",
        ("CNA 5.2", "CNA 7.12"),
    ),
    Entry(
        "II",
        Level.STAGE,
        "Naval Convoy Stage",
        BOTH,
        "Shipping for the coming week is planned.",
        "CNA 5.2",
        children=(
            _phase(
                "A",
                "Naval Convoy Schedule Phase",
                BOTH,
                "The Axis plans cargoes and routes and future replacements; the "
                "Commonwealth reads its Production Table for replacements due two "
                "turns on.",
                see=("CNA 32.0", "CNA 56.0"),
            ),
            _phase(
                "B",
                "Tactical Shipping Phase",
                BOTH,
                "Both sides plan cargo moves between African ports.",
            ),
        ),
    ),
    _operations_stage("III", "First"),
    _operations_stage("IV", "Second"),
    _operations_stage("V", "Third"),
    Entry(
        "VI",
        Level.STAGE,
        "End of Game-Turn",
        BOTH,
        "The Game-Turn (about one week) is over; the next begins with a new "
        "Initiative Determination Stage.",
        "CNA 5.2",
        ("CNA 5.1",),
    ),
)

OPERATIONS_STAGE_LABELS = ("III", "IV", "V")


# --- the walk through one Game-Turn ---------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A leaf of the outline in context: the entries from stage down to the leaf, which
    Operations Stage it belongs to (1-3, or None) and whose F-L portion it is in."""

    path: tuple[Entry, ...]
    operations_stage: int | None
    phasing: Role | None

    @property
    def key(self) -> str:
        return ".".join(e.label for e in self.path)

    @property
    def leaf(self) -> Entry:
        return self.path[-1]


def _leaves(entry: Entry, prefix: tuple[Entry, ...]) -> list[tuple[Entry, ...]]:
    path = (*prefix, entry)
    if not entry.children:
        return [path]
    return [p for child in entry.children for p in _leaves(child, path)]


def _operations_positions(stage: Entry, number: int) -> list[Position]:
    out = []
    for phase in stage.children:
        if not phase.per_player:
            out += [Position(p, number, None) for p in _leaves(phase, (stage,))]
    for role in (Role.A, Role.B):  # CNA 5.2: Player B then plays phases F-L
        for phase in stage.children:
            if phase.per_player:
                out += [Position(p, number, role) for p in _leaves(phase, (stage,))]
    return out


@cache
def game_turn_script() -> tuple[Position, ...]:
    """Every leaf of one Game-Turn in play order, each movement-and-combat block once."""
    out: list[Position] = []
    for stage in GAME_TURN:
        if stage.label in OPERATIONS_STAGE_LABELS:
            out += _operations_positions(stage, OPERATIONS_STAGE_LABELS.index(stage.label) + 1)
        else:
            out += [Position(p, None, None) for p in _leaves(stage, ())]
    return tuple(out)


def _is_movement_start(pos: Position) -> bool:
    return len(pos.path) >= 3 and pos.path[1].repeatable and pos.path[2] is pos.path[1].children[0]


def _is_movement_end(pos: Position) -> bool:
    return len(pos.path) >= 3 and pos.path[1].repeatable and pos.path[2] is pos.path[1].children[-1]


@dataclass(frozen=True)
class SequenceCursor:
    """Where the game stands in the sequence of play; every move returns a new cursor.

    ``movement_pass`` counts runs through Phase G's segments 1-4 (1 on the first run).
    ``initiative_holder`` is set in Stage I; ``declarations`` holds the holder's choice
    of A or B for Operations Stages 1-3 (None until declared).
    """

    index: int = 0
    game_turn: int = 1
    movement_pass: int = 1
    initiative_holder: Side | None = None
    declarations: tuple[Role | None, ...] = (None,) * OPERATIONS_STAGES_PER_TURN

    def __post_init__(self) -> None:
        require_int(self.index, "a sequence index", minimum=0)
        if self.index >= len(game_turn_script()):
            raise CNAInputError(
                f"a sequence index must be below {len(game_turn_script())}, got {self.index}"
            )
        require_int(self.game_turn, "a Game-Turn number", minimum=1)
        require_int(self.movement_pass, "a movement pass number", minimum=1)
        if self.initiative_holder is not None and not isinstance(self.initiative_holder, Side):
            raise CNAInputError(f"expected a Side or None, got {self.initiative_holder!r}")
        if len(self.declarations) != OPERATIONS_STAGES_PER_TURN or any(
            d is not None and not isinstance(d, Role) for d in self.declarations
        ):
            raise CNAInputError(
                f"expected three declarations (Role or None), got {self.declarations!r}"
            )

    @classmethod
    def start(cls, initiative_holder: Side | None = None, game_turn: int = 1) -> SequenceCursor:
        return cls(game_turn=game_turn, initiative_holder=initiative_holder)

    # --- where we are ---------------------------------------------------------------

    @property
    def position(self) -> Position:
        return game_turn_script()[self.index]

    @property
    def key(self) -> str:
        return self.position.key

    @property
    def path(self) -> tuple[Entry, ...]:
        return self.position.path

    @property
    def stage(self) -> Entry:
        return self.path[0]

    @property
    def leaf(self) -> Entry:
        return self.position.leaf

    @property
    def operations_stage(self) -> int | None:
        return self.position.operations_stage

    @property
    def phasing_role(self) -> Role | None:
        """Player A or B while in phases F-L, otherwise None."""
        return self.position.phasing

    @property
    def in_movement_and_combat(self) -> bool:
        return len(self.path) >= 2 and self.path[1].repeatable

    @property
    def can_repeat(self) -> bool:
        """True at the Reserve Release Segment, where segments 1-4 may start again (CNA 8.22)."""
        return _is_movement_end(self.position)

    @property
    def is_end_of_turn(self) -> bool:
        return self.index == len(game_turn_script()) - 1

    def side_playing(self, role: Role) -> Side | None:
        """The side that is Player ``role`` in the current Operations Stage, if known."""
        n = self.operations_stage
        if n is None or self.initiative_holder is None or self.declarations[n - 1] is None:
            return None
        chosen = self.declarations[n - 1]
        return self.initiative_holder if chosen is role else self.initiative_holder.other

    @property
    def phasing_side(self) -> Side | None:
        role = self.phasing_role
        return None if role is None else self.side_playing(role)

    def sides_acting(self, actor: Actor | None = None) -> frozenset[Side] | None:
        """The sides that ``actor`` (default: the leaf's actor) stands for here, or None
        when it depends on an initiative roll or declaration not yet made."""
        actor = self.leaf.actor if actor is None else actor
        fixed = {
            Actor.BOTH: frozenset(Side),
            Actor.AXIS: frozenset({Side.AXIS}),
            Actor.COMMONWEALTH: frozenset({Side.COMMONWEALTH}),
        }
        if actor in fixed:
            return fixed[actor]
        if actor is Actor.INITIATIVE_HOLDER:
            return None if self.initiative_holder is None else frozenset({self.initiative_holder})
        side = self.phasing_side
        if side is None:
            return None
        if actor is Actor.PHASING:
            return frozenset({side})
        if actor is Actor.NON_PHASING:
            return frozenset({side.other})
        # Actor.PHASING_IF_COMMONWEALTH: rail movement is the Commonwealth's only (CNA 8.72)
        return frozenset({side}) if side is Side.COMMONWEALTH else frozenset()

    def actor_label(self, actor: Actor | None = None) -> str:
        """Who acts, in words: 'Player A (Axis)', 'both players' ..."""
        actor = self.leaf.actor if actor is None else actor
        role = self.phasing_role
        if actor in (Actor.PHASING, Actor.NON_PHASING, Actor.PHASING_IF_COMMONWEALTH) and role:
            who = role if actor is not Actor.NON_PHASING else role.other
            side = self.side_playing(who)
            text = f"Player {who.value}" + (f" ({side.value})" if side else "")
            if actor is Actor.PHASING_IF_COMMONWEALTH and side is Side.AXIS:
                return f"nobody ({text} has no railway, CNA 8.71)"
            if actor is Actor.PHASING_IF_COMMONWEALTH and side is None:
                text += ", if he is the Commonwealth"
            return text
        if actor is Actor.INITIATIVE_HOLDER and self.initiative_holder:
            return f"the Initiative holder ({self.initiative_holder.value})"
        return actor.value

    def describe(self) -> str:
        """One line for a stepper: key, titles, who acts, who may respond, pass, rule."""
        leaf = self.leaf
        text = f"{self.key} {' / '.join(e.title for e in self.path)}. Acting: {self.actor_label()}"
        if leaf.responder is not None:
            text += f"; may respond: {self.actor_label(leaf.responder)}"
        if self.in_movement_and_combat:
            text += f"; movement-and-combat pass {self.movement_pass}"
        return f"{text} [{leaf.rule}]"

    # --- moving on ----------------------------------------------------------------------

    def next(self) -> SequenceCursor:
        """The following leaf; after the End of Game-Turn, Stage I of the next turn."""
        if self.is_end_of_turn:
            return SequenceCursor.start(game_turn=self.game_turn + 1)
        nxt = replace(self, index=self.index + 1)
        if _is_movement_start(nxt.position) or not nxt.in_movement_and_combat:
            nxt = replace(nxt, movement_pass=1)
        return nxt

    def repeat_movement_and_combat(self) -> SequenceCursor:
        """Run Phase G's four segments again from the Movement Segment (CNA 5.2 G, 8.22)."""
        if not self.can_repeat:
            raise RuleViolation(
                "CNA 8.22",
                f"segments 1-4 can be repeated only from the Reserve Release Segment, not {self.key}",
            )
        back = self.index - (len(_leaves(self.path[1], ())) - 1)
        return replace(self, index=back, movement_pass=self.movement_pass + 1)

    def with_initiative(self, holder: Side) -> SequenceCursor:
        """Record the Initiative Determination Stage's winner (CNA 7.14)."""
        if not isinstance(holder, Side):
            raise CNAInputError(f"expected a Side to hold the Initiative, got {holder!r}")
        if self.stage.label != "I":
            raise RuleViolation(
                "CNA 7.12", "the Initiative is settled only in Stage I of a Game-Turn"
            )
        return replace(self, initiative_holder=holder)

    def declare(self, role: Role) -> SequenceCursor:
        """The holder's choice of A or B, made in the Initiative Declaration Phase (CNA 7.11)."""
        if not isinstance(role, Role):
            raise CNAInputError(f"expected Role.A or Role.B, got {role!r}")
        if (
            self.operations_stage is None
            or self.leaf.actor is not Actor.INITIATIVE_HOLDER
            or (self.leaf.label != "A")
        ):
            raise RuleViolation(
                "CNA 5.2",
                f"A or B is declared in an Initiative Declaration Phase, not at {self.key}",
            )
        if self.initiative_holder is None:
            raise RuleViolation(
                "CNA 7.14", "no side holds the Initiative yet; settle it in Stage I"
            )
        n = self.operations_stage
        if self.declarations[n - 1] is not None:
            raise RuleViolation("CNA 7.11", f"the choice for Operations Stage {n} is already made")
        decl = list(self.declarations)
        decl[n - 1] = role
        return replace(self, declarations=tuple(decl))

    def seek(self, key: str, phasing: Role | None = None) -> SequenceCursor:
        """Jump forward or back to the leaf ``key`` (e.g. 'IV.G.3.c'), keeping all choices.

        Inside phases F-L name whose portion with ``phasing``.
        """
        for i, pos in enumerate(game_turn_script()):
            if pos.key == key and pos.phasing is phasing:
                return replace(self, index=i, movement_pass=1)
        raise CNAInputError(
            f"expected the key of a leaf in the outline (e.g. 'III.G.3.c') and, inside phases "
            f"F-L, phasing=Role.A or Role.B; got {key!r} with phasing={phasing!r}"
        )


def walk_game_turn(
    cursor: SequenceCursor | None = None, extra_passes: dict[tuple[int, Role], int] | None = None
) -> list[SequenceCursor]:
    """Every cursor from ``cursor`` (default: Stage I) to the End of Game-Turn.

    ``extra_passes[(stage, role)]`` is how many times that player repeats segments 1-4
    in that Operations Stage (default none).
    """
    cur = cursor or SequenceCursor.start()
    extra = dict(extra_passes or {})
    for (stage, role), count in extra.items():
        if stage not in (1, 2, 3) or not isinstance(role, Role):
            raise CNAInputError(f"expected keys (1-3, Role), got {(stage, role)!r}")
        require_int(count, "a number of extra passes", minimum=0)
    out = [cur]
    while not cur.is_end_of_turn:
        wanted = extra.get((cur.operations_stage, cur.phasing_role), 0)  # type: ignore[arg-type]
        if cur.can_repeat and cur.movement_pass <= wanted:
            cur = cur.repeat_movement_and_combat()
        else:
            cur = cur.next()
        out.append(cur)
    return out
