"""The seat page without a browser: one SeatApp per "kernel" (its own store object).

Every bug of issue 9 has a test here: simultaneous orders, the board after a stale
refusal, the strict commander, the ready flag, the Send button, Commit fire's rolls,
pausing, a click on another seat's platoon and a seat opened twice.
"""

from __future__ import annotations

import html

from hexclass.classroom.combined_arms import DeclareFire, EndPhase, Enter, check, legal_actions
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.sessions.store import INSTRUCTOR, ClassSettings
from hexclass.widgets.coop_seat import SeatApp


def make(kernels, **kw):
    return kernels.team(**kw)  # tests/widgets/conftest.py


def message(seat: SeatApp) -> str:
    return seat.app.message.value


def enters(seat: SeatApp, avoid=()):
    state = seat.game.state
    return [
        a
        for a in legal_actions(state, seat.session.seat)
        if isinstance(a, Enter) and a.to not in avoid
    ]


def test_two_seats_ordering_at_the_same_moment_are_both_accepted(kernels):
    tokens = make(kernels)
    d, e = kernels(tokens["D"]), kernels(tokens["E"])
    assert d.game.follower.version == e.game.follower.version == 0
    first = enters(d)[0]
    second = enters(e, avoid={first.to})[0]  # drawn before E saw D's move
    assert d.app.act(first)
    assert e.app.act(second), message(e)  # rebased: same phase, still legal
    assert "hx-msg-ok" in message(e)
    assert e.game.state.units[first.unit].hex == first.to  # E's board shows D's move too
    assert e.game.follower.version == 2


def test_a_stale_order_shows_the_new_board_at_once(kernels):
    tokens = make(kernels)
    d, boss = kernels(tokens["D"]), kernels(tokens["support"])
    order = enters(d)[0]
    assert boss.app.act(EndPhase("support"))  # the move phase ends in another kernel
    phase_bar = d.app.phase_html.value
    assert not d.app.act(order)  # D has not polled: its order is stale
    assert "board changed" in message(d) and "hx-msg-bad" in message(d)
    assert d.game.state.phase == "friendly_fire"  # the new board, without waiting for a poll
    assert d.app.phase_html.value != phase_bar  # and it is drawn
    assert not d.game.follower.poll().board_changed  # nothing was thrown away or left over


def test_a_rebased_order_the_engine_now_refuses_names_the_engine_s_reason(kernels):
    tokens = make(kernels)
    first, second = kernels(tokens["D"]), kernels(tokens["D"])
    second.claim(take_over=True)  # the first page has not polled: it still thinks it commands
    order = enters(first)[0]
    assert second.app.act(order)  # the other browser moved the platoon first
    assert not first.app.act(order)  # same phase: rebased, and the engine now says no
    assert first.game.last_result.kind == "stale"
    reason = check(first.game.state, order)  # the engine's words on the board shown now
    shown = html.unescape(message(first))
    assert "board changed" in shown and f"Now: {reason}." in shown
    assert first.app.ctl.message.cause == "stale"


def test_a_strict_commander_holds_a_waiting_seat_and_not_yet_holds(kernels):
    tokens = make(kernels, settings=ClassSettings(commander="strict"))
    d, e, boss = kernels(tokens["D"]), kernels(tokens["E"]), kernels(tokens["support"])
    d.ask_note.value = "D1 to the wood"
    d.on_ask()
    assert not d.app.act(enters(d)[0])
    assert "wait for the answer" in message(d)
    boss.poll_once()
    [row] = boss.decide_box.children
    row.children[1].click()  # "Not yet"
    d.poll_once()
    assert not d.app.act(enters(d)[0])
    assert "not yet" in message(d)
    assert e.app.act(enters(e)[0])  # a seat that never asked is free
    d.on_ask()
    boss.poll_once()
    [row] = boss.decide_box.children
    row.children[0].click()  # "Let D go"
    d.poll_once()
    assert "commander says go" in d.hold_html.value
    assert d.app.act(enters(d, avoid={a.to for a in []})[0]), message(d)


def test_the_advisory_queue_only_advises(kernels):
    tokens = make(kernels)
    d, boss = kernels(tokens["D"]), kernels(tokens["support"])
    d.on_ask()
    boss.poll_once()
    boss.decide_box.children[0].children[1].click()  # "Not yet"
    d.poll_once()
    assert d.app.act(enters(d)[0])  # advisory: the commander's word is advice


def test_im_done_this_phase_resets_at_the_next_phase(kernels):
    tokens = make(kernels)
    d, boss = kernels(tokens["D"]), kernels(tokens["support"])
    d.ready_button.value = True
    assert d.session.store.ready(d.session.game_id) == {"D"}
    boss.app.act(EndPhase("support"))
    d.poll_once()
    assert d.ready_button.value is False
    assert d.session.store.ready(d.session.game_id) == frozenset()


def test_the_send_button_shows_the_messages_left(kernels):
    tokens = make(kernels, settings=ClassSettings("written", 2))
    d = kernels(tokens["D"])
    assert d.chat_send.description == "Send (2 left)"
    assert d.chat_send.layout.width == "auto"  # never cut off
    d.chat_text.value = "E, cover me"
    d.on_send()
    assert d.chat_send.description == "Send (1 left)"
    d.chat_text.value = "now"
    d.on_send()
    assert d.chat_send.description == "Send (0 left)" and d.chat_send.disabled


def test_commit_fire_shows_only_that_fires_rolls(kernels):
    tokens = make(kernels, start=load_position("sample-turn11-fire-lane").to_dict())
    d, e = kernels(tokens["D"]), kernels(tokens["E"])
    d_fire = next(a for a in legal_actions(d.game.state, "D") if isinstance(a, DeclareFire))
    e_fire = next(
        a
        for a in legal_actions(e.game.state, "E")
        if isinstance(a, DeclareFire) and a.target != d_fire.target
    )
    assert d.app.act(d_fire)  # D's rolls land in the game's events first
    e.app.group, e.app.target = list(e_fire.firers), e_fire.target
    e.app.on_commit_fire()  # drawn before E saw D's fire: rebased, and accepted
    shown = e.app.odds_html.value
    assert "hx-msg-ok" in message(e), message(e)
    assert all(u in shown for u in e_fire.firers)
    assert not any(u in shown for u in d_fire.firers)  # not D's, not the whole game's
    assert shown.count("rolls") == len(e_fire.firers)


def test_paused_means_no_orders_chat_or_queue_but_the_instructor_speaks(kernels):
    tokens = make(kernels)
    d = kernels(tokens["D"])
    store = d.session.store
    store.set_game_status(d.session.game_id, "paused")
    d.poll_once()
    assert d.chat_send.disabled and d.ask_button.disabled and d.ready_button.disabled
    assert "paused" in d.header.value
    assert not d.session.say("hello").ok
    assert not d.session.request_turn("me next").ok
    assert not d.app.act(enters(d)[0]) and "paused" in message(d)
    assert store.post_message(d.session.game_id, INSTRUCTOR, "Think about the wood").ok
    d.poll_once()
    assert "Think about the wood" in d.chat_log.value


def test_clicking_another_seats_platoon_names_its_owner_as_a_refusal(kernels):
    tokens = make(kernels)
    d, e = kernels(tokens["D"]), kernels(tokens["E"])
    order = enters(d)[0]
    assert d.app.act(order)
    e.poll_once()
    e.app.on_board_click(order.to)
    assert f"{order.unit} belongs to D Company" in message(e)
    assert "hx-msg-bad" in message(e)


def test_a_seat_opened_twice_watches_until_it_takes_over(kernels):
    tokens = make(kernels)
    first, second = kernels(tokens["D"]), kernels(tokens["D"])
    assert not first.game.viewer and second.game.viewer
    assert "already open in another browser" in second.notice.value
    assert second.take_over.layout.display != "none"
    assert not second.app.act(enters(second)[0]) and "watching" in message(second)
    first.poll_once()
    second.on_take_over()
    assert not second.game.viewer
    assert first.poll_once()  # the take-over alone is news to the first page
    assert first.game.viewer and "taken over" in first.notice.value
    assert second.app.act(enters(second)[0])
