"""The SQLite store: submitting, refusals, messages, the request queue, tokens, durability."""

import sqlite3

import pytest

from hexclass.classroom.combined_arms import (
    CallMortar,
    EndPhase,
    Enter,
    Move,
    action_to_json,
    check,
    legal_actions,
)
from hexclass.classroom.combined_arms.positions import position_from_state, sketch
from hexclass.classroom.combined_arms.reasons import COOP
from hexclass.classroom.sessions import SQLiteStore, create_class
from hexclass.classroom.sessions.roles import five_seat_layout, layout_for
from hexclass.classroom.sessions.store import (
    STALE_MESSAGE,
    ClassSettings,
    GameSpec,
    Refusal,
    initial_state,
)

from .helpers import first_enter, play, raw_connection, replayed, to_fire_phase


def test_a_legal_action_is_accepted_and_the_version_moves_on(store, game):
    state = store.state(game)
    a = first_enter(state, "D")
    r = store.submit(game, 0, "D", a)
    assert r.ok and r.version == 1 and r.value == a
    assert store.version(game) == 1
    [logged] = store.actions(game)
    assert (logged.version, logged.seat, logged.action) == (1, "D", a)
    assert (logged.turn, logged.phase) == (1, "friendly_move")
    assert store.state(game).units[a.unit].hex == a.to


def test_an_order_from_before_a_new_phase_is_refused_as_stale(store, game):
    a = first_enter(store.state(game), "E")
    to_fire_phase(store, game)  # the commander ends the move phase: E's plan is void
    r = store.submit(game, 0, "E", a)
    assert not r.ok
    assert r.kind is Refusal.STALE
    assert r.message == STALE_MESSAGE == "the board changed — here it is again"
    assert r.version == 1
    assert store.version(game) == 1 and len(store.actions(game)) == 1
    # a version from the future is stale too
    assert store.submit(game, 5, "E", a).kind is Refusal.STALE


def test_an_illegal_action_is_refused_with_the_engines_reason(store, game):
    state = store.state(game)
    far = Move("D", "D1", (0, 8))  # D1 is not even on the board
    why = check(state, far)
    r = store.submit(game, 0, "D", far)
    assert r.kind is Refusal.ILLEGAL
    assert r.message == str(why) and r.rule == why.rule
    assert store.version(game) == 0


def test_a_seat_cannot_act_for_another_seat(store, game):
    state = store.state(game)
    d_enter = first_enter(state, "D")
    # E sends D's action as is: the action names seat D
    r = store.submit(game, 0, "E", d_enter)
    assert r.kind is Refusal.WRONG_SEAT and r.rule == COOP
    # E rewrites it in its own name: the engine says D1 is not E's
    r = store.submit(game, 0, "E", Enter("E", d_enter.unit, d_enter.to, d_enter.facing))
    assert r.kind is Refusal.ILLEGAL and "not commanded by seat 'E'" in r.message
    # only the commander ends a phase (CA p.7)
    r = store.submit(game, 0, "armour", EndPhase("armour"))
    assert r.kind is Refusal.ILLEGAL and "only the overall commander" in r.message
    assert store.version(game) == 0


def test_unknown_game_seat_and_malformed_actions(store, game):
    assert store.submit(999, 0, "D", EndPhase("D")).kind is Refusal.UNKNOWN_GAME
    r = store.submit(game, 0, "G", EndPhase("G"))
    assert r.kind is Refusal.UNKNOWN_SEAT and "armour, D, E, F, support" in r.message
    r = store.submit(game, 0, "D", {"type": "Move", "seat": "D", "unit": "D1"})
    assert r.kind is Refusal.BAD_ACTION and "Move needs field 'to'" in r.message
    r = store.submit(game, 0, "D", {"type": "Teleport", "seat": "D"})
    assert r.kind is Refusal.BAD_ACTION and "unknown action type 'Teleport'" in r.message
    assert store.submit(game, 0, "D", "Move D1").kind is Refusal.BAD_ACTION
    assert store.submit(game, "0", "support", EndPhase("support")).kind is Refusal.BAD_ACTION
    assert store.version(game) == 0


@pytest.mark.parametrize("version", [2**63, -(2**63) - 1, 10**30])
def test_a_version_beyond_a_stores_integers_is_refused_with_the_field(store, game, version):
    """Both stores hold versions as 64-bit integers: a larger one is a clear refusal (it
    crashed SQLite with OverflowError) and changes nothing."""
    r = store.submit(game, version, "support", EndPhase("support"))
    assert r.kind is Refusal.BAD_ACTION and r.message.startswith("expected_version: ")
    assert str(version) in r.message
    assert store.version(game) == 0
    assert store.submit(game, 0, "support", EndPhase("support"))  # the store still works


def test_json_actions_are_accepted_like_dataclasses(store, game):
    a = first_enter(store.state(game), "armour")
    r = store.submit(game, 0, "armour", action_to_json(a))
    assert r.ok and store.actions(game)[0].action == a


def test_paused_and_ended_games_refuse(store, made, game):
    a = first_enter(store.state(game), "D")
    assert store.set_game_status(game, "paused").ok
    r = store.submit(game, 0, "D", a)
    assert r.kind is Refusal.PAUSED and "paused this game" in r.message
    assert store.set_game_status(game, "running").ok
    assert store.set_class_paused(made.class_id, True).ok
    r = store.submit(game, 0, "D", a)
    assert r.kind is Refusal.PAUSED and "the whole class" in r.message
    assert store.set_class_paused(made.class_id, False).ok
    assert store.submit(game, 0, "D", a).ok
    assert store.set_game_status(game, "ended").ok
    r = store.submit(game, 1, "E", first_enter(store.state(game), "E"))
    assert r.kind is Refusal.ENDED and "ended by the instructor" in r.message
    # ended stays ended
    assert store.set_game_status(game, "running").kind is Refusal.ENDED
    assert store.version(game) == 1
    kinds = [(e.kind, e.game_id) for e in store.instructor_log(made.class_id)]
    assert kinds == [
        ("create", None),
        ("pause", game),
        ("resume", game),
        ("pause class", None),
        ("resume class", None),
        ("end", game),
    ]


def test_a_finished_game_is_marked_ended(store, game):
    from hexclass.classroom.combined_arms import EndGame

    for _ in range(2):  # turn 1: move and fire phases; the engine plays the rest
        play(store, game, "support", EndPhase("support"))
    assert store.game(game).turn == 2
    play(store, game, "support", EndGame("support"))
    info = store.game(game)
    assert info.status == "ended" and info.ended_reason.startswith("game over: score")
    assert store.submit(game, 3, "support", EndPhase("support")).kind is Refusal.ENDED


def test_messages_free_mode_has_no_limit(store, game):
    for i in range(12):
        assert store.post_message(game, "D", f"message {i}").ok
    msgs = store.messages(game)
    assert [m.text for m in msgs] == [f"message {i}" for i in range(12)]
    assert all(m.seat == "D" and m.turn == 1 for m in msgs)
    assert store.messages(game, after_id=msgs[-3].id) == msgs[-2:]


def test_written_mode_limits_each_seat_per_turn(store, made, game):
    assert store.set_settings(made.class_id, ClassSettings("written", 2)).ok
    assert store.post_message(game, "D", "one").ok
    assert store.post_message(game, "D", "two").ok
    r = store.post_message(game, "D", "three")
    assert r.kind is Refusal.MESSAGE_LIMIT and "2 per seat per turn" in r.message
    assert store.post_message(game, "E", "E's first").ok  # the limit is per seat
    # a new turn gives a new allowance
    for _ in range(2):
        play(store, game, "support", EndPhase("support"))
    assert store.game(game).turn == 2
    assert store.post_message(game, "D", "turn two").ok
    assert [m.turn for m in store.messages(game) if m.seat == "D"] == [1, 1, 2]
    # the instructor is never limited; bad settings and text are refused
    assert store.post_message(game, "instructor", "keep going").ok
    for bad in (ClassSettings("shouting", None), ClassSettings("written", -1)):
        assert store.set_settings(made.class_id, bad).kind is Refusal.BAD_SETTING
    assert store.post_message(game, "D", "   ").kind is Refusal.BAD_MESSAGE
    assert store.post_message(game, "D", "x" * 501).kind is Refusal.BAD_MESSAGE
    assert store.post_message(game, "Z", "hi").kind is Refusal.UNKNOWN_SEAT
    assert store.class_info(made.class_id).settings == ClassSettings("written", 2)


def test_the_commander_grants_requests_in_the_order_asked(store, game):
    a = store.request_turn(game, "E", "E2 wants to assault")
    b = store.request_turn(game, "D")
    assert a.ok and b.ok
    assert store.request_turn(game, "E").kind is Refusal.BAD_REQUEST  # one open request each
    queue = store.requests(game)
    assert [(r.seat, r.status) for r in queue] == [("E", "waiting"), ("D", "waiting")]
    assert queue[0].note == "E2 wants to assault"
    r = store.decide_request(game, "D", a.value, True)
    assert r.kind is Refusal.NOT_COMMANDER
    assert store.decide_request(game, "support", a.value, True).ok
    assert store.decide_request(game, "support", a.value, False).kind is Refusal.BAD_REQUEST
    assert store.decide_request(game, "support", b.value, False).ok
    assert [(r.seat, r.status) for r in store.requests(game)] == [("E", "granted")]
    assert store.close_request(game, "E").ok
    assert store.requests(game) == []
    every = store.requests(game, open_only=False)
    assert [(r.seat, r.status, r.decided_by) for r in every] == [
        ("E", "done", "support"),
        ("D", "denied", "support"),
    ]


def test_open_requests_expire_when_the_phase_changes(store, game):
    store.request_turn(game, "E")
    to_fire_phase(store, game)
    assert store.requests(game) == []
    assert store.requests(game, open_only=False)[0].status == "expired"


def test_ready_flags_belong_to_the_current_phase(store, game):
    assert store.set_ready(game, "D").ok and store.set_ready(game, "E").ok
    assert store.ready(game) == {"D", "E"}
    assert store.set_ready(game, "E", False).ok
    assert store.ready(game) == {"D"}
    to_fire_phase(store, game)
    assert store.ready(game) == frozenset()


def test_presence_times_out_without_heartbeats(new_store):
    now = [1000.0]
    store = new_store(clock=lambda: now[0])
    made = create_class(store, teams=1, seed=1)
    g = made.teams[0].game_id
    store.heartbeat(g, "D", "tab-1")
    store.heartbeat(g, "E", "tab-1")
    assert store.connected(g) == {"D", "E"}
    now[0] += 10
    store.heartbeat(g, "D", "tab-2")  # a second tab of D keeps D there
    now[0] += 10
    assert store.connected(g) == {"D"}
    store.leave(g, "D", "tab-2")
    assert store.connected(g) == frozenset()
    assert store.heartbeat(g, "X").kind is Refusal.UNKNOWN_SEAT
    store.close()


def test_tokens_are_unique_and_say_whose_link_they_are(store, made):
    instructor, seats = store.tokens(made.class_id)
    every = [instructor] + [t for g in seats.values() for t in g.values()]
    assert len(every) == len(set(every)) == 1 + 2 * 5
    assert all(len(t) >= 32 for t in every)
    info = store.lookup_token(instructor)
    assert (info.kind, info.class_id, info.seat) == ("instructor", made.class_id, None)
    g = made.teams[1].game_id
    info = store.lookup_token(seats[g]["E"])
    assert (info.kind, info.game_id, info.seat) == ("seat", g, "E")
    assert store.lookup_token("x" * 32) is None
    assert store.lookup_token("' OR 1=1 --") is None
    assert store.lookup_token(None) is None


def test_same_seed_same_game_for_every_team(store, made):
    a, b = (store.state(t.game_id) for t in made.teams)
    assert a.snapshot() == b.snapshot()
    assert a.board.terrain == b.board.terrain


def test_the_log_is_append_only(store, game, store_location):
    play(store, game, "support", EndPhase("support"))
    with raw_connection(store_location) as raw:
        with pytest.raises(Exception, match="append-only"):
            raw.execute("UPDATE actions SET seat = 'D'")
        with pytest.raises(Exception, match="append-only"):
            raw.execute("DELETE FROM actions")
    assert store.integrity() == []
    assert [a.seat for a in store.actions(game)] == ["support"]


def test_two_processes_caches_catch_up_with_each_other(store, game, new_store):
    other = new_store()
    for i in range(30):
        s = (store, other)[i % 2]
        seat = ("D", "E", "F", "armour")[i % 4]
        state = s.state(game)
        acts = [a for a in legal_actions(state, seat) if not isinstance(a, EndPhase)]
        a = acts[0] if acts else EndPhase("support")
        assert s.submit(game, len(state.actions), a.seat, a).ok
    for s in (store, other):
        assert s.state(game).snapshot() == replayed(store, game).snapshot()


def test_state_at_an_old_version_and_bad_versions(store, game):
    play(store, game, "D", first_enter(store.state(game), "D"))
    play(store, game, "support", EndPhase("support"))
    assert store.state(game, 0).snapshot() == initial_state(store.game(game)).snapshot()
    assert store.state(game, 1).phase == "friendly_move"
    assert store.state(game, 2).phase == "friendly_fire"
    with pytest.raises(ValueError, match="version: expected 0 to 2, got 3"):
        store.state(game, 3)


def test_a_start_position_and_co_op_mortar_spotting(store):
    # CA p.7: the mortar seat spots with another seat's fresh infantry platoon
    lay = five_seat_layout()
    start = sketch(units={"E1": "4c"}, enemy={"6c": "real"}, phase="friendly_fire")
    spec = GameSpec(1, 3, lay, start=position_from_state(start).to_dict())
    made = store.create_class("mortars", ClassSettings(), [spec])
    g = made.games[0].id
    state = store.state(g)
    assert state.phase == "friendly_fire" and state.units["E1"].fresh
    target = state.board.hex_at("6c")
    assert store.submit(g, 0, "E", CallMortar("E", target, "E1")).kind is Refusal.ILLEGAL
    assert store.submit(g, 0, "support", CallMortar("support", target, "E1")).ok


def test_create_class_checks_its_input(store):
    lay = layout_for(5)
    with pytest.raises(ValueError, match="at least one team"):
        store.create_class("x", ClassSettings(), [])
    with pytest.raises(ValueError, match="team numbers must differ"):
        store.create_class("x", ClassSettings(), [GameSpec(1, 1, lay), GameSpec(1, 2, lay)])
    with pytest.raises(ValueError, match="message_mode"):
        store.create_class("x", ClassSettings("loud"), [GameSpec(1, 1, lay)])
    with pytest.raises(ValueError, match="seed"):
        store.create_class("x", ClassSettings(), [GameSpec(1, -4, lay)])
    assert store.classes() == []  # nothing half-made


def test_reopening_the_file_gives_the_same_games(tmp_path):
    path = tmp_path / "c.db"
    with SQLiteStore(path) as s:
        made = create_class(s, teams=1, seed=2)
        g = made.teams[0].game_id
        play(s, g, "armour", first_enter(s.state(g), "armour"))
        play(s, g, "support", EndPhase("support"))
        before = s.state(g).snapshot()
    with SQLiteStore(path) as s:
        assert s.state(g).snapshot() == before
        assert s.version(g) == 2
        mode = s._conn.execute("PRAGMA journal_mode").fetchone()[0]
        sync = s._conn.execute("PRAGMA synchronous").fetchone()[0]
        assert (mode, sync) == ("wal", 2)  # 2 = FULL: durable commits


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "c.db"
    SQLiteStore(path).close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 99")
    raw.close()
    from hexclass.classroom.sessions.store import StoreError

    with pytest.raises(StoreError, match="schema version 99 is newer"):
        SQLiteStore(path)


def test_memory_databases_are_refused():
    with pytest.raises(ValueError, match="several connections share one store"):
        SQLiteStore(":memory:")


def test_a_version_1_store_file_opens_and_gains_the_commander_mode(tmp_path):
    """A class file written before schema 2 keeps every row and gets the new parts."""
    import re as _re

    from hexclass.classroom.sessions.sqlite_store import SCHEMA, _statements

    path = tmp_path / "v1.db"
    v1 = _re.sub(r",\s*commander_mode[^)]*\)\)", "", SCHEMA)  # the classes table before 2
    v1 = _re.sub(r"CREATE TABLE IF NOT EXISTS seat_holders.*?WITHOUT ROWID;", "", v1, flags=_re.S)
    v1 = _re.sub(r",\s*instructor_sealed[^\n]*", "", v1)  # the sealed copies came with 4
    v1 = _re.sub(r"\n\s*(seed|token)_sealed\s+TEXT,", "", v1)
    assert "_sealed  " not in v1 and "_sealed TEXT" not in v1
    assert "commander_mode" not in v1 and "seat_holders" not in v1
    conn = sqlite3.connect(path)
    for stmt in _statements(v1):
        conn.execute(stmt)
    conn.execute(
        "INSERT INTO classes (name, instructor_token, message_mode, created) "
        "VALUES ('old', 'instructor-token-of-v1-0123', 'written', 0)"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with SQLiteStore(path) as s:
        [info] = s.classes()
        assert info.name == "old" and info.settings == ClassSettings("written", None, "advisory")
        assert s.lookup_token("instructor-token-of-v1-0123").class_id == info.id
        assert s.tokens(info.id)[0] == "instructor-token-of-v1-0123"
        made = create_class(s, teams=1, seed=1, settings=ClassSettings(commander="strict"))
        assert s.class_info(made.class_id).settings.commander == "strict"
        g = made.teams[0].game_id
        s.heartbeat(g, "D", "tab-1")
        assert s.hold_seat(g, "D", "tab-1").value is True
        assert s.hold_seat(g, "D", "tab-2").value is False  # tab-1 holds it and is there
        assert s.hold_seat(g, "D", "tab-2", take_over=True).value is True
        assert s.seat_holder(g, "D") == "tab-2"
