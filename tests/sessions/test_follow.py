"""Following a game: only new actions are applied, side data arrives, idle polls are cheap."""

import time

from hexclass.classroom.combined_arms import EndPhase, Enter, legal_actions
from hexclass.classroom.sessions import ClassFollower, FollowLoop, GameFollower, LiveGame
from hexclass.classroom.sessions.store import ClassSettings

from .helpers import first_enter, notifications_delivered, play, replayed

# The follower shares its kernel's live game with the store it was made from, so what
# that store accepts reaches the page through submit's own update; "another seat" here
# is another kernel, i.e. another store object on the same file.


def test_a_follower_sees_another_connections_action(store, game, new_store):
    f = GameFollower(store, game)
    assert f.version == 0 and not f.poll()  # nothing new yet
    writer = new_store()
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


def test_poll_applies_at_most_max_actions_and_says_there_is_more(store, game, new_store):
    other = new_store()
    for seat in ("D", "E", "F", "armour"):
        play(other, game, seat, first_enter(other.state(game), seat))
    f = GameFollower(store, game, max_actions=1)
    assert f.version == 4  # the constructor keeps going until caught up
    play(other, game, "support", EndPhase("support"))
    play(other, game, "support", EndPhase("support"))
    u1 = f.poll()
    assert len(u1.actions) == 1 and u1.more
    u2 = f.poll()
    assert len(u2.actions) == 1 and not u2.more
    assert f.state.snapshot() == store.state(game).snapshot()
    f.close()
    other.close()


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


def test_an_idle_poll_reads_no_tables(store, game, new_store):
    f = GameFollower(store, game, presence_every=3600)
    notifications_delivered(store)  # the class's own NOTIFYs, late on a busy machine
    f.poll()  # takes in what they bumped
    calls = []
    # the read a refresh starts with: the game row (SQLite), or the one-round-trip snapshot
    name = "follower_snapshot" if hasattr(f._reader, "follower_snapshot") else "game"
    real = getattr(f._reader, name)
    setattr(f._reader, name, lambda gid, *a: calls.append(gid) or real(gid, *a))
    for _ in range(50):
        assert not f.poll()
    assert calls == []  # only the change token was asked (PRAGMA data_version / in memory)
    other = new_store()
    play(other, game, "support", EndPhase("support"))
    assert f.poll()
    assert calls == [game]
    f.close()
    other.close()


def test_a_class_follower_keeps_every_team_summary_fresh(store, made, new_store):
    g1, g2 = (t.game_id for t in made.teams)
    cf = ClassFollower(store, made.class_id)
    assert [r["team"] for r in cf.table()] == [1, 2]
    other = new_store()
    play(other, g2, "support", EndPhase("support"))
    other.close()
    changed = cf.poll()
    assert set(changed) == {g2}
    assert cf.summaries[g2].phase == "friendly_fire"
    assert cf.summaries[g1].phase == "friendly_move"
    store.set_class_paused(made.class_id, True)
    cf.poll()
    assert {s.status for s in cf.summaries.values()} == {"paused"}
    cf.close()


def test_a_follow_loop_calls_back_from_its_thread(store, game, new_store):
    f = GameFollower(store, game)
    seen = []
    loop = FollowLoop(f, seen.append, interval=0.01).start()
    other = new_store()
    play(other, game, "support", EndPhase("support"))
    other.close()
    deadline = time.monotonic() + 60  # a poll for the callback, generous for a busy machine
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    loop.stop()
    assert seen and seen[0].version == 1 and loop.errors == []
    f.close()


def test_a_kernel_holds_one_game_and_submit_hands_on_what_it_caught_up(store, game, new_store):
    """The follower and the store share one LiveGame; submit's update carries the news."""
    f = GameFollower(store, game)
    assert f.live is store.live_game(game)  # one copy of the game in this kernel
    other = new_store()
    d = first_enter(other.state(game), "D")
    play(other, game, "D", d)  # another kernel moves D1; this page has not polled yet
    e = next(a for a in legal_actions(f.state, "E") if isinstance(a, Enter) and a.to != d.to)
    r = store.submit(game, f.version, "E", e)  # drawn at version 0, rebased onto 1
    assert r.ok and r.version == 2
    assert [s.action for s in r.update.actions] == [d, e]  # both reach the page
    assert any("enters" in ev.text and d.unit in ev.text for ev in r.update.events)
    assert f.version == 2 and f.state.units[d.unit].hex == d.to
    assert not f.poll().board_changed  # nothing applied twice
    assert f.state.snapshot() == replayed(store, game).snapshot()
    other.close()
    f.close()


def test_a_saved_record_reloads_through_the_live_game(store, game):
    import pytest

    from hexclass.classroom.combined_arms.game import RecordError

    play(store, game, "D", first_enter(store.state(game), "D"))
    play(store, game, "support", EndPhase("support"))
    live = store.live_game(game)
    data = live.record()
    again = LiveGame.from_record(data, store.game(game))
    assert again.version == live.version == 2
    assert again.state.snapshot() == live.state.snapshot()
    bad = dict(data, actions=[*data["actions"], {"type": "Move", "seat": "D"}])
    with pytest.raises(RecordError, match=r"actions\[2\]"):
        LiveGame.from_record(bad, store.game(game))
    with pytest.raises(RecordError, match="seed"):
        LiveGame.from_record(dict(data, seed=data["seed"] + 1), store.game(game))


class _FailsOnce:
    """A reader whose next read, once armed, fails as a lost connection would."""

    def __init__(self, reader):
        self._reader = reader
        self.armed = False

    def __getattr__(self, name):
        attr = getattr(self._reader, name)
        if name in ("change_token", "close") or not callable(attr):
            return attr

        def read(*args, **kwargs):
            if self.armed:
                self.armed = False
                raise ConnectionError("the class store cannot be reached (reconnecting)")
            return attr(*args, **kwargs)

        return read


def test_a_poll_cut_off_mid_read_is_retried_by_the_next_one(store, game, new_store):
    """A poll that saw the change token move but lost its connection while reading must
    not remember that token: the next poll reads again. Remembering it left a page (and,
    after a server restart, every seat of a game) a move behind until someone moved again.
    """
    reader = _FailsOnce(store.reader())
    f = GameFollower(store, game, reader=reader)
    writer = new_store()
    writer.submit(game, 0, "D", first_enter(writer.state(game), "D"))
    reader.armed = True
    try:
        f.poll()
    except ConnectionError:
        pass
    else:
        raise AssertionError("the armed read did not fail")
    assert f.version == 0
    u = f.poll()  # nothing new has happened since: only a retry can catch up
    assert u.version == 1 == f.version
    assert f.state.snapshot() == replayed(store, game).snapshot()
    writer.close()
    f.close()
    reader._reader.close()


def test_a_seat_that_leaves_is_seen_gone_within_a_second(store, game, new_store, monkeypatch):
    """Presence is re-read every second even when nothing else moves (a store whose change
    token ignores heartbeats, as PostgreSQL's does): a page that has gone shows as away
    within 5 s (its kernel leaves ~3 s after its browser stops ticking, issue 22)."""
    import hexclass.classroom.sessions.follow as follow

    now = [1000.0]
    monkeypatch.setattr(follow.time, "monotonic", lambda: now[0])
    other = new_store()
    other.heartbeat(game, "E", "tab")
    f = GameFollower(store, game)
    assert "E" in f.connected
    monkeypatch.setattr(f._reader, "change_token", lambda gid=None: "unchanged")
    f.poll()
    other.leave(game, "E", "tab")
    now[0] += 1.0
    f.poll()
    assert "E" not in f.connected
    f.close()
    other.close()
