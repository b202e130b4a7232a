"""A seat's message line reads its own order's result, and only that (issue 22).

A teammate's order may be decided just before ours (the store rebases ours over it) or
just after it (the referee publishes a copy that already holds it before our kernel
reads the copy). Either way the page reads its own action's events (the engine's event
marks, found by the version the store gave our order) as its result, and the
teammate's as team news.
"""

from __future__ import annotations

import re

import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, apply, legal_actions, new_game
from hexclass.classroom.sessions import create_class, open_seat
from hexclass.classroom.sessions.hidden import Referee
from hexclass.classroom.sessions.relay import RelayFollower
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from hexclass.widgets.ca_controller import OWN, BoardController, LocalGame
from hexclass.widgets.coop_seat import SeatApp


@pytest.fixture
def team(tmp_path):
    path = tmp_path / "class.db"
    opened = []

    def store(**kw):
        s = SQLiteStore(path, **kw)
        opened.append(s)
        return s

    keyed = store()
    made = create_class(keyed, teams=1, seed=11)
    team = made.teams[0]
    yield store, keyed, team.game_id, {s.seat: s.token for s in team.seats}
    for s in opened:
        s.close()


def line(seat: SeatApp) -> str:
    """The seat's own message line (without the team line under it)."""
    m = re.search(r'<div class="hx-line">(.*?)</div>', seat.app.message.value, re.S)
    assert m, seat.app.message.value
    return m.group(1)


def level(seat: SeatApp) -> int:
    return int(re.search(r'data-level="(\d)"', seat.app.message.value).group(1))


def two_entries(state):
    """An entry for D and one for E into another hex."""
    mine = next(a for a in legal_actions(state, "D") if isinstance(a, Enter))
    theirs = next(a for a in legal_actions(state, "E") if isinstance(a, Enter) and a.to != mine.to)
    return mine, theirs


def test_a_teammates_order_decided_just_after_mine_is_not_read_as_mine(team, monkeypatch):
    """The relay's race: the copy this kernel reads after its verdict already holds the
    teammate's next order (it once failed the five-seat browser test under load)."""
    store, keyed, game, tokens = team
    referee = Referee(store())
    referee.step()  # the first public copy
    d = SeatApp(open_seat(store(key=None), tokens["D"]), poll=False)  # as `hexclass serve` runs it
    assert isinstance(d.game.follower, RelayFollower)
    mine, theirs = two_entries(keyed.state(game))
    relay = d.session._relay
    verdict = relay._verdict

    def decided_then_a_teammate(nonce, deadline):
        referee.step()  # the referee decides this order and publishes its copy ...
        assert keyed.submit(game, keyed.version(game), "E", theirs)  # ... E's order next ...
        referee.step()  # ... published before this kernel reads the copy
        return verdict(nonce, deadline)

    monkeypatch.setattr(relay, "_verdict", decided_then_a_teammate)
    assert d.app.act(mine)
    assert d.game.state.actions[-2:] == [mine, theirs]  # the race happened
    said = line(d)
    assert f"{mine.unit} enters" in said and f"{theirs.unit} enters" not in said, said
    assert level(d) == OWN
    assert f"Team: {theirs.unit} enters" in d.app.message.value  # E's move: the team line
    d.poll_once()  # nothing new: E's move is not read a second time
    assert line(d) == said


def test_a_teammates_order_decided_just_before_mine_goes_to_the_team_line(team, monkeypatch):
    """The store rebases this seat's order over a teammate's that came in between the
    page's catch-up and its submit: both arrive with the verdict."""
    store, keyed, game, tokens = team
    d = SeatApp(open_seat(store(), tokens["D"]), poll=False)
    mine, theirs = two_entries(keyed.state(game))
    submit = d.session.submit

    def after_a_teammate(expected, action):
        assert keyed.submit(game, keyed.version(game), "E", theirs)
        return submit(expected, action)

    monkeypatch.setattr(d.session, "submit", after_a_teammate)
    assert d.app.act(mine)
    assert d.game.state.actions[-2:] == [theirs, mine]  # rebased over E's order
    said = line(d)
    assert f"{mine.unit} enters" in said and f"{theirs.unit} enters" not in said, said
    assert f"Team: {theirs.unit} enters" in d.app.message.value


def test_solitaire_reads_its_own_result_by_the_version_its_order_made():
    game = LocalGame(new_game(11))
    ctl = BoardController(game)
    a = next(x for x in legal_actions(game.state, "player") if isinstance(x, Enter))
    assert ctl.act(a)
    assert game.accepted_version == 1 and f"{a.unit} enters" in ctl.message.text
    assert ctl.message.level == OWN and ctl.team_news == []


def test_a_copy_without_marks_reads_everything_new_as_before():
    """A copy published by an older referee has no marks: the page reads what is new."""
    state = new_game(11)
    apply(state, EndPhase("player"))  # into the fire phase
    state.event_marks = []  # as read from a copy without marks
    ctl = BoardController(LocalGame(state))
    assert ctl.act(EndPhase("player"))  # the enemy phase is played
    assert state.action_span(2) is None
    assert ctl.message.text.startswith("Enemy phase, turn 1"), ctl.message.text
