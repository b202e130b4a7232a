"""Seat pages of an enemy-player game, headless (CA p.7): the attackers talk, the defender
neither reads nor writes their messages; each page follows its own published copy."""

from __future__ import annotations

import threading

import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, Options, legal_actions
from hexclass.classroom.sessions import create_class, open_seat
from hexclass.classroom.sessions.hidden import Referee
from hexclass.classroom.sessions.roles import enemy_player_layout
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from hexclass.widgets.hidden_seat import HiddenSeatApp


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "class.db"
    made = create_class(
        SQLiteStore(path),
        teams=1,
        seed=31,
        seats=enemy_player_layout(5),
        options=Options(enemy_player=True),
    )
    ref = Referee(SQLiteStore(path))
    ref.step()  # publish every seat's first copy
    stop = threading.Event()
    thread = threading.Thread(target=ref.run, args=(stop, 0.005), daemon=True)
    thread.start()
    tokens = {s.seat: s.token for s in made.teams[0].seats}
    yield lambda seat: HiddenSeatApp(open_seat(SQLiteStore(path), tokens[seat]), poll=False)
    stop.set()
    thread.join(10)


def test_attackers_talk_and_the_defender_page_has_no_chat(table):
    d, e, defender = table("D"), table("E"), table("defender")
    assert (d.role, defender.role) == ("attacker", "defender")
    assert not hasattr(defender, "chat_log")
    d.chat_text.value = "smoke on 5c please"
    d.on_send()
    e.refresh_chat()
    assert "smoke on 5c please" in e.chat_log.value


def test_the_defender_deploys_and_the_attackers_page_follows(table):
    d, defender = table("D"), table("defender")
    defender.inner.suggest.click()
    defender.inner.deploy.click()
    assert "Deployed" in defender.inner.message.value
    assert d.poll_once() and d.game.state.phase == "friendly_move"
    assert d.game.state.secret is None and defender.game.state.secret is not None


def test_a_second_browser_on_a_hidden_seat_watches_until_it_takes_over(table):
    """As on co-op seats: the first page commands, a second one only watches (its orders
    are refused and change nothing) until it presses Take over."""
    first, second = table("defender"), table("defender")
    assert not first.game.viewer and second.game.viewer
    assert second.take_over.layout.display == "" and "only watches" in second.hold_notice.value
    second.inner.suggest.click()
    second.inner.deploy.click()
    assert "only watches" in second.inner.message.value
    assert second.game.state.phase == "deployment"  # nothing was deployed
    second.take_over.click()
    assert not second.game.viewer and second.hold_notice.value == ""
    first.keep_hold()
    assert first.game.viewer and "taken over" in first.hold_notice.value
    second.inner.deploy.click()
    assert "Deployed" in second.inner.message.value


def test_a_second_attacker_page_cannot_move_the_seats_platoons(table):
    first, second = table("D"), table("D")
    assert second.game.viewer and not first.game.viewer
    assert "only watches" in second.game.submit(EndPhase("D")).reason


def test_the_class_defender_has_no_bot_button_and_waits_for_the_attackers(table):
    defender = table("defender")
    defender.inner.suggest.click()
    defender.inner.deploy.click()
    defender.poll_once()
    defender.changed()
    app = defender.inner
    assert app.game.stage == "attacker" and app.play_on.layout.display == "none"
    assert "The attackers are moving" in app.heading.value
    assert "wait for your enemy phase" in app.prompt.value
    assert "you command the defenders" in defender.header.value


@pytest.mark.parametrize("seat", ["D", "defender"])
def test_a_hidden_seat_page_whose_browser_stops_ticking_leaves_and_comes_back(table, seat):
    """The co-op seats' one-second browser tick (widgets/presence.py) on an enemy-player
    seat's page: a closed page leaves the presence table within seconds."""
    page = table(seat)
    store, game = page.session.store, page.session.game_id
    now = [100.0]
    page.clock = lambda: now[0]

    def wait(seconds):  # the page's loop looks every 100 ms; 0.5 s steps will do
        for _ in range(int(seconds / 0.5)):
            now[0] += 0.5
            page.poll_once()

    page.poll_once()
    assert page.pulse.playing  # the page tells the browser's timer to run
    assert page.pulse in page.widget.children  # ... which is on the page
    page.pulse.value += 1  # a tick from the browser
    assert seat in store.connected(game)
    wait(2.5)
    assert seat in store.connected(game) and not page.away  # a slow tick is not a closed page
    wait(1.0)  # 3.5 s without a tick: the browser has gone
    assert page.away and seat not in store.connected(game)
    wait(10)
    assert seat not in store.connected(game)  # no heartbeat while away
    page.pulse.value += 1  # the browser is back
    assert not page.away and seat in store.connected(game)


def test_an_attackers_own_order_is_read_once(table):
    """The copy read after this page's order is not read again as news at the next poll."""
    defender, d = table("defender"), table("D")
    defender.inner.suggest.click()
    defender.inner.deploy.click()
    assert d.poll_once() and d.game.state.phase == "friendly_move"
    enter = next(a for a in legal_actions(d.game.state, "D") if isinstance(a, Enter))
    news = list(d.inner.ctl.team_news)  # the deployment, read at the poll above
    assert d.inner.act(enter)
    said = d.inner.ctl.message.text
    assert f"{enter.unit} enters" in said, said
    assert not d.poll_once()  # nothing new ...
    d.changed()  # ... and a redraw reads nothing of it a second time
    assert d.inner.ctl.message.text == said and d.inner.ctl.team_news == news
