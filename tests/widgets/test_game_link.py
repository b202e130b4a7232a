"""The page↔game link (issue 28, item 4): a typed handle answered with a Verdict."""

from __future__ import annotations

import random
import threading

import pytest

from hexclass.classroom.combined_arms import (
    EndPhase,
    Enter,
    Exploit,
    Options,
    legal_actions,
    new_game,
)
from hexclass.classroom.combined_arms.actions import Deploy
from hexclass.classroom.combined_arms.defender import DEFENDER, ai_choice
from hexclass.classroom.combined_arms.defender_game import DefenderGame
from hexclass.classroom.combined_arms.reasons import MOVEMENT, VARIANT, Illegal
from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.hidden import HiddenGame, Referee
from hexclass.classroom.sessions.roles import enemy_player_layout
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from hexclass.classroom.sessions.store import STALE_MESSAGE, Refusal, Refused
from hexclass.widgets.ca_controller import BoardController, LocalGame
from hexclass.widgets.coop_seat import VIEWER_MESSAGE, refusal_text
from hexclass.widgets.game_link import GameHandle, Verdict
from hexclass.widgets.hidden_seat import HeldGame, SharedDefenderGame

VARIANT_ON = Options(auto_decisions=True, enemy_player=True)


def test_only_a_verdict_is_an_answer():
    """The str/None answers of older handles are gone: nothing reads text as a verdict."""
    assert not hasattr(Verdict, "of")
    assert Verdict.judge(None) == Verdict(True)
    no = Verdict.judge(Illegal(MOVEMENT, "D1 is not on the board"))
    assert not no and no.rule == MOVEMENT and no.kind is None
    assert no.reason == 'CA "Movement": D1 is not on the board'  # what the page shows


def _answers(handle, accepted, refused) -> tuple[Verdict, Verdict]:
    """The handle's verdicts on an order it takes and one it refuses (asked first)."""
    assert isinstance(handle, GameHandle), type(handle).__name__
    assert not handle.check(refused).accepted  # the engine's verdict, nothing sent
    no = handle.submit(refused)
    return handle.submit(accepted), no


def test_the_solitaire_and_the_defender_s_games_answer_verdicts():
    """Solitaire: ending the first move phase is fine, exploiting a platoon still off the
    board is not. Defender: one real platoon where the force roll gave more."""
    yes, no = _answers(LocalGame(new_game(7)), EndPhase("player"), Exploit("player", "D1"))
    assert yes.accepted and yes.rule is None
    assert not no.accepted and no.rule == MOVEMENT and "D1 is not on the board" in no.reason
    game = DefenderGame(3)
    plan = ai_choice(game.state, DEFENDER, random.Random(3))
    yes, no = _answers(game, plan, Deploy(DEFENDER, plan.platoons[:1], ()))
    assert yes.accepted and not no.accepted and no.rule == VARIANT
    assert "deploy exactly" in no.reason


def test_a_co_op_seat_s_shared_game_answers_verdicts(kernels):
    seat = kernels(kernels.team()["D"])
    game = seat.game
    enter = next(a for a in legal_actions(game.state, "D") if isinstance(a, Enter))
    yes, no = _answers(game, enter, Exploit("D", "D2"))
    assert yes.accepted
    assert not no.accepted and no.kind == "illegal" and no.rule == MOVEMENT
    game.viewer = True  # another browser holds the seat: refused before the store is asked
    assert game.submit(EndPhase("D")) == Verdict.refused(VIEWER_MESSAGE)


@pytest.fixture
def hidden_class(tmp_path):
    """An enemy-player class of 5 attacking seats and a defender, its referee in a thread."""
    path = tmp_path / "class.db"
    made = create_class(
        SQLiteStore(path), teams=1, seed=31, seats=enemy_player_layout(5), options=VARIANT_ON
    )
    ref = Referee(SQLiteStore(path))
    ref.step()  # publish every seat's first copy
    stop = threading.Event()
    thread = threading.Thread(target=ref.run, args=(stop, 0.005), daemon=True)
    thread.start()
    game_id = made.teams[0].game_id
    yield lambda seat: HiddenGame(SQLiteStore(path), game_id, seat)
    stop.set()
    thread.join(10)


def test_an_enemy_player_seat_s_games_answer_verdicts(hidden_class):
    """The referee's verdict keeps the store's kind and rule; the page's handles pass it on."""
    defender = SharedDefenderGame(HeldGame(hidden_class("defender")))
    plan = ai_choice(defender.state, DEFENDER, random.Random(3))
    one = Deploy(DEFENDER, plan.platoons[:1], ())
    yes, no = _answers(defender, plan, one)
    assert yes.accepted and not no.accepted
    assert no.kind == "illegal" and no.rule == VARIANT and "deploy exactly" in no.reason
    d = HeldGame(hidden_class("D"))
    d.refresh()
    enter = next(a for a in legal_actions(d.state, "D") if isinstance(a, Enter))
    yes, no = _answers(d, enter, Exploit("D", "D2"))
    assert yes.accepted and not no.accepted and no.rule == MOVEMENT
    e = hidden_class("E")  # the referee's seat game itself, without the page's hold
    e.refresh()
    enter = next(a for a in legal_actions(e.state, "E") if isinstance(a, Enter))
    yes, no = _answers(e, enter, Exploit("E", enter.unit))
    assert yes.accepted and not no.accepted and no.kind == "illegal" and no.rule == MOVEMENT
    d.viewer = True
    d.refresh()  # E's order is news to D's copy
    before = d.version
    assert "only watches" in d.submit(EndPhase("D")).reason
    assert not d.refresh() and d.version == before  # nothing was sent


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


class _Untyped(_Paused):
    """A handle that still answers text: the controller must not read it as a verdict."""

    def submit(self, action):
        return "out of range"


def test_an_answer_that_is_not_a_verdict_is_a_type_error():
    c = BoardController(_Untyped(new_game(7)), "player")
    with pytest.raises(TypeError, match="not a Verdict"):
        c.act(EndPhase("player"))
