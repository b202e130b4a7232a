"""Following a game: only new actions are applied, side data arrives, idle polls are cheap."""

import time

from classroom.combined_arms import EndPhase
from classroom.sessions import ClassFollower, FollowLoop, GameFollower, SQLiteStore
from classroom.sessions.store import ClassSettings

from .helpers import first_enter, play, replayed


def test_a_follower_sees_another_connections_action(store, game):
    f = GameFollower(store, game)
    assert f.version == 0 and not f.poll()  # nothing new yet
    writer = SQLiteStore(store.path)
    a = first_enter(writer.state(game), "D")
    writer.submit(game, 0, "D", a)
    u = f.poll()
    assert u.board_changed and u.version == 1 == f.version
    assert [s.action for s in u.actions] == [a]
    assert any("enters" in e.text for e in u.events)
    assert f.state.units[a.unit].hex == a.to
    assert not f.poll()  # the same action is never applied twice
    assert f.state.snapshot() == replayed(store, game).snapshot()
    writer.close()
    f.close()


def test_a_follower_started_late_replays_the_whole_log(store, game):
    play(store, game, "D", first_enter(store.state(game), "D"))
    play(store, game, "support", EndPhase("support"))
    with GameFollower(store, game) as f:
        assert f.version == 2
        assert f.state.snapshot() == store.state(game).snapshot()


def test_poll_applies_at_most_max_actions_and_says_there_is_more(store, game):
    for seat in ("D", "E", "F", "armour"):
        play(store, game, seat, first_enter(store.state(game), seat))
    f = GameFollower(store, game)
    f.close()
    f = GameFollower(store, game, max_actions=1)
    assert f.version == 4  # the constructor keeps going until caught up
    play(store, game, "support", EndPhase("support"))
    play(store, game, "support", EndPhase("support"))
    u1 = f.poll()
    assert len(u1.actions) == 1 and u1.more
    u2 = f.poll()
    assert len(u2.actions) == 1 and not u2.more
    assert f.state.snapshot() == store.state(game).snapshot()
    f.close()


def test_messages_queue_ready_status_and_settings_reach_the_follower(store, made, game):
    f = GameFollower(store, game, presence_every=0)
    store.post_message(game, "E", "E2 moving up")
    store.request_turn(game, "D", "D1 next?")
    store.set_ready(game, "F")
    store.heartbeat(game, "E", "tab")
    u = f.poll()
    assert [m.text for m in u.messages] == ["E2 moving up"]
    assert [(r.seat, r.status) for r in u.requests] == [("D", "waiting")]
    assert u.ready == {"F"}
    assert u.connected == {"E"}
    assert not u.board_changed
    store.set_game_status(game, "paused")
    store.set_settings(made.class_id, ClassSettings("written", 3))
    u = f.poll()
    assert u.status == "paused" and f.status == "paused"
    assert u.settings == ClassSettings("written", 3)
    assert u.messages == [] and u.requests is None  # unchanged things are not resent
    f.close()


def test_an_idle_poll_reads_no_tables(store, game):
    f = GameFollower(store, game, presence_every=3600)
    calls = []
    real = f._reader.game
    f._reader.game = lambda gid: calls.append(gid) or real(gid)
    for _ in range(50):
        assert not f.poll()
    assert calls == []  # only PRAGMA data_version was asked
    play(store, game, "support", EndPhase("support"))
    assert f.poll()
    assert calls == [game]
    f.close()


def test_a_class_follower_keeps_every_team_summary_fresh(store, made):
    g1, g2 = (t.game_id for t in made.teams)
    cf = ClassFollower(store, made.class_id)
    assert [r["team"] for r in cf.table()] == [1, 2]
    play(store, g2, "support", EndPhase("support"))
    changed = cf.poll()
    assert set(changed) == {g2}
    assert cf.summaries[g2].phase == "friendly_fire"
    assert cf.summaries[g1].phase == "friendly_move"
    store.set_class_paused(made.class_id, True)
    cf.poll()
    assert {s.status for s in cf.summaries.values()} == {"paused"}
    cf.close()


def test_a_follow_loop_calls_back_from_its_thread(store, game):
    f = GameFollower(store, game)
    seen = []
    loop = FollowLoop(f, seen.append, interval=0.01).start()
    play(store, game, "support", EndPhase("support"))
    deadline = time.monotonic() + 5
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    loop.stop()
    assert seen and seen[0].version == 1 and loop.errors == []
    f.close()
