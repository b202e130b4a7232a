"""The page↔game link (issue 28, item 4): a typed handle answered with a Verdict."""

from __future__ import annotations

from hexclass.classroom.combined_arms import EndPhase, new_game
from hexclass.classroom.sessions.store import STALE_MESSAGE, Refusal, Refused
from hexclass.widgets.ca_controller import BoardController, LocalGame
from hexclass.widgets.coop_seat import refusal_text
from hexclass.widgets.game_link import GameHandle, Verdict


def test_an_older_handle_s_answer_reads_as_a_verdict():
    assert Verdict.of(None) == Verdict(True)
    no = Verdict.of("out of range")
    assert not no and no.reason == "out of range" and no.kind is None
    same = Verdict.refused("paused", kind="paused")
    assert Verdict.of(same) is same


def test_a_stale_refusal_says_the_engine_s_words_from_the_field_not_the_message():
    r = Refused(
        Refusal.STALE, f"{STALE_MESSAGE} (now: an old guess)", 3, "CA p.5", now="D1 is spent"
    )
    text = refusal_text(r)
    assert "Now: D1 is spent." in text and "old guess" not in text
    plain = refusal_text(Refused(Refusal.STALE, STALE_MESSAGE, 3))
    assert "Now:" not in plain and "the new board is shown" in plain
    assert refusal_text(Refused(Refusal.PAUSED, "the game is paused")) == "the game is paused"


class _Paused:
    """A handle whose store refuses every order: the game is paused."""

    def __init__(self, state) -> None:
        self.state = state

    def check(self, action):
        return None

    def submit(self, action) -> Verdict:
        return Verdict.refused("the instructor paused the game", kind="paused")


def test_the_controller_keeps_the_verdict_s_kind_as_the_message_s_cause():
    state = new_game(7)
    handle = _Paused(state)
    assert isinstance(handle, GameHandle) and isinstance(LocalGame(state), GameHandle)
    c = BoardController(handle, "player")
    assert not c.act(EndPhase("player"))
    assert c.message.bad and c.message.text == "the instructor paused the game"
    assert c.message.cause == "paused"
