"""The Game-Turn outline as data and the cursor that walks it (CNA 5.2, 7.1x, 8.22)."""

import dataclasses

import pytest

from hexclass.classroom.cna.errors import CNAInputError, RuleViolation
from hexclass.classroom.cna.initiative import Role, Side
from hexclass.classroom.cna.sequence import (
    GAME_TURN,
    Actor,
    Level,
    SequenceCursor,
    game_turn_script,
    walk_game_turn,
)

MOVEMENT_AND_COMBAT_LEAVES = 9  # segments 1, 2, 3a-3f, 4


def test_the_game_turn_has_six_stages_in_order():
    assert [s.label for s in GAME_TURN] == ["I", "II", "III", "IV", "V", "VI"]
    assert all(s.level is Level.STAGE for s in GAME_TURN)


def test_operations_stages_share_phases_a_to_l_without_an_i():
    ops = [s for s in GAME_TURN if s.label in ("III", "IV", "V")]
    assert [p.label for p in ops[0].children] == list("ABCDEFGHJKL")
    assert ops[0].children is ops[1].children is ops[2].children  # CNA 5.2 IV, V


def test_the_table_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        GAME_TURN[0].title = "changed"  # type: ignore[misc]


def test_every_entry_names_an_actor_and_cites_a_rule():
    def walk(entries):
        for e in entries:
            yield e
            yield from walk(e.children)

    entries = list(walk(GAME_TURN))
    assert all(isinstance(e.actor, Actor) and e.rule.startswith("CNA ") for e in entries)
    assert all(e.may_happen for e in entries)


def _cursor_at(key, phasing=None, holder=Side.AXIS, roles=(Role.A, Role.A, Role.A)):
    return SequenceCursor(initiative_holder=holder, declarations=roles).seek(key, phasing=phasing)


def test_movement_segment_is_the_phasing_players_and_the_other_may_react():
    c = _cursor_at("III.G.1", Role.A)
    assert c.leaf.actor is Actor.PHASING and c.leaf.responder is Actor.NON_PHASING
    assert c.sides_acting() == {Side.AXIS}
    assert c.sides_acting(c.leaf.responder) == {Side.COMMONWEALTH}
    assert "may respond: Player B (Commonwealth)" in c.describe()


def test_retreat_before_assault_belongs_to_player_b():
    c = _cursor_at("III.G.3.c", Role.A)
    assert c.leaf.title == "Retreat Before Assault Step"
    assert c.sides_acting() == {Side.COMMONWEALTH}


def test_in_player_bs_portion_the_roles_swap():
    c = _cursor_at("III.G.3.c", Role.B)  # Player B is now phasing; A retreats
    assert c.phasing_side is Side.COMMONWEALTH
    assert c.sides_acting() == {Side.AXIS}


def test_phases_a_to_e_come_once_and_f_to_l_twice_per_operations_stage():
    keys = [(p.key, p.phasing) for p in game_turn_script() if p.operations_stage == 1]
    assert [k for k, r in keys if r is None] == [
        "III.A", "III.B", "III.C.1", "III.C.2.a", "III.C.2.b", "III.C.3.a", "III.C.3.b",
        "III.D", "III.E.1", "III.E.2",
    ]  # fmt: skip
    a_part = [k for k, r in keys if r is Role.A]
    b_part = [k for k, r in keys if r is Role.B]
    assert a_part == b_part and a_part[0] == "III.F" and a_part[-1] == "III.L"
    assert keys.index(("III.L", Role.A)) + 1 == keys.index(("III.F", Role.B))


def test_repeat_is_offered_only_at_the_reserve_release_segment():
    c = _cursor_at("III.G.3.f", Role.A)
    assert not c.can_repeat
    with pytest.raises(RuleViolation) as err:
        c.repeat_movement_and_combat()
    assert err.value.rule == "CNA 8.22"
    g4 = c.next()
    assert g4.key == "III.G.4" and g4.can_repeat


def test_repeating_goes_back_to_movement_and_counts_the_pass():
    g4 = _cursor_at("III.G.4", Role.B)
    again = g4.repeat_movement_and_combat()
    assert (again.key, again.phasing_role, again.movement_pass) == ("III.G.1", Role.B, 2)
    third = again
    while not third.can_repeat:
        third = third.next()
    assert third.movement_pass == 2
    assert third.repeat_movement_and_combat().movement_pass == 3
    after = third.next()
    assert (after.key, after.movement_pass) == ("III.H", 1)


def test_walk_with_extra_passes_adds_whole_blocks_of_segments():
    plain = walk_game_turn()
    assert len(plain) == len(game_turn_script())
    more = walk_game_turn(extra_passes={(1, Role.A): 2, (3, Role.B): 1})
    assert len(more) == len(plain) + 3 * MOVEMENT_AND_COMBAT_LEAVES
    assert max(c.movement_pass for c in more) == 3


def test_cursor_resolves_sides_after_initiative_and_declarations():
    c = SequenceCursor.start()
    assert c.key == "I" and c.sides_acting(Actor.INITIATIVE_HOLDER) is None
    c = c.with_initiative(Side.COMMONWEALTH)
    while c.key != "III.A":
        c = c.next()
    assert c.sides_acting() == {Side.COMMONWEALTH}
    c = c.declare(Role.B)
    c = c.seek("III.F", phasing=Role.A)
    assert c.phasing_side is Side.AXIS
    assert c.actor_label() == "Player A (Axis)"


def test_declaration_rules():
    at_a = _cursor_at("III.A", holder=Side.AXIS, roles=(None, None, None))
    with pytest.raises(RuleViolation):
        at_a.declare(Role.A).declare(Role.B)  # once per stage
    with pytest.raises(RuleViolation):
        at_a.next().declare(Role.A)  # only in the Initiative Declaration Phase
    with pytest.raises(RuleViolation):
        SequenceCursor().seek("III.A").declare(Role.A)  # nobody holds the Initiative
    with pytest.raises(RuleViolation):
        at_a.with_initiative(Side.AXIS)  # Initiative is settled in Stage I only


def test_holder_first_last_first_through_the_cursor():
    # CNA 7.12: choices A, B, A; record the phasing side at every Movement Segment.
    c = SequenceCursor.start(Side.AXIS)
    choices = iter([Role.A, Role.B, Role.A])
    movers = []
    while not c.is_end_of_turn:
        if c.leaf.title == "Initiative Declaration Phase":
            c = c.declare(next(choices))
        if c.leaf.title == "Movement Segment":
            movers.append(c.phasing_side)
        c = c.next()
    assert movers == [
        Side.AXIS,
        Side.COMMONWEALTH,
        Side.COMMONWEALTH,
        Side.AXIS,
        Side.AXIS,
        Side.COMMONWEALTH,
    ]


def test_rail_phase_is_empty_for_an_axis_phasing_player():
    axis_a = _cursor_at("III.J", Role.A, holder=Side.AXIS)
    assert axis_a.sides_acting() == frozenset()
    assert axis_a.actor_label().startswith("nobody")
    assert _cursor_at("III.J", Role.B, holder=Side.AXIS).sides_acting() == {Side.COMMONWEALTH}


def test_after_the_end_of_game_turn_comes_a_new_turn():
    end = SequenceCursor.start(Side.AXIS).seek("VI")
    assert end.is_end_of_turn
    nxt = end.next()
    assert (nxt.key, nxt.game_turn, nxt.initiative_holder) == ("I", 2, None)


def test_seek_rejects_unknown_keys_and_missing_roles():
    with pytest.raises(CNAInputError, match="expected the key of a leaf"):
        SequenceCursor().seek("III.I")
    with pytest.raises(CNAInputError):
        SequenceCursor().seek("III.G.1")  # inside F-L a phasing role is needed
    with pytest.raises(CNAInputError):
        SequenceCursor().seek("III.G")  # not a leaf
