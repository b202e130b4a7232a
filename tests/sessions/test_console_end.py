"""The console's *End game* ends the battle by the rules (CA "Victory"), on every page.

Each test runs against both stores. Ending from the console submits the engine's end of
the battle where it stands (``EndGameNow``) through the store's ordinary submit, logged
as the instructor's: every unrevealed counter is tested, the score is counted, and a
seat's view, the console's table and the debrief all read that one result.
"""

from __future__ import annotations

import random

import pytest

from hexclass.classroom.combined_arms import DeclareFire, EndGame, EndGameNow, EndPhase, Options
from hexclass.classroom.combined_arms.defender import ai_choice
from hexclass.classroom.combined_arms.engine import legal_actions
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.combined_arms.units import POTENTIAL
from hexclass.classroom.sessions import create_class, open_console, seat_view
from hexclass.classroom.sessions.roles import enemy_player_layout
from hexclass.classroom.sessions.store import INSTRUCTOR, Refusal

from .helpers import play


def play_into_turn_two(store, game_id: int) -> None:
    """Seats enter and fire through turn 1 and into turn 2, where one seat moves."""
    rng = random.Random(4)
    seats = ("armour", "D", "E", "F")
    for _ in range(200):
        state = store.state(game_id)
        if state.turn >= 2 and state.acted_this_turn:
            return
        if state.pending is not None:  # the commander's choice in the enemy phase
            play(store, game_id, "support", legal_actions(state, "support")[0])
            continue
        seat = rng.choice(seats)
        acts = [
            a
            for a in legal_actions(state, seat)
            if not isinstance(a, (EndPhase, EndGame)) and getattr(a, "resolve", True)
        ]
        if acts and rng.random() < 0.7:
            play(store, game_id, seat, rng.choice(acts))
        else:
            play(store, game_id, "support", EndPhase("support"))
    raise AssertionError("turn 2 was never reached")


def test_console_end_reveals_scores_and_every_page_reads_the_same_result(store, new_store):
    made = create_class(store, teams=2, seed=7)
    g1, g2 = (t.game_id for t in made.teams)
    play_into_turn_two(store, g1)
    console = open_console(store, made.instructor_token)
    projected = {s.team: s.score_projected for s in console.summaries()}[1]
    assert any(p.platoon == POTENTIAL for p in store.state(g1).enemy.values())

    assert console.end(1).ok

    state = store.state(g1)
    assert state.over and state.result is not None
    assert not any(p.platoon == POTENTIAL or p.atg == POTENTIAL for p in state.enemy.values())
    assert state.result.total == projected  # the reveal the console projected, rolled for real
    last = store.actions(g1)[-1]
    assert last.seat == INSTRUCTOR and isinstance(last.action, EndGameNow)
    info = store.game(g1)
    verdict = "victory" if state.result.won else "defeat"
    assert info.status == "ended"
    assert info.ended_reason == f"ended by the instructor: score {state.result.total}, {verdict}"
    # every seat's view, the console's row and the debrief: one score, one verdict
    for seat in info.layout.names:
        view = seat_view(state, seat, info.layout)
        assert view["over"] and view["score_known"] == state.result.total
        assert sum(r["points"] for r in view["result"]) == state.result.total
    row = {s.team: s for s in console.summaries()}[1]
    assert (row.status, row.score_known, row.score_projected, row.won) == (
        "ended",
        state.result.total,
        state.result.total,
        state.result.won,
    )
    teams = console.debrief()["teams"].set_index("team")
    assert bool(teams.loc[1, "over"]) and teams.loc[1, "won"] == state.result.won
    assert teams.loc[1, "score_known"] == state.result.total
    # the coach's review works on the ended game (it used to say "once the game is over")
    from hexclass.classroom.combined_arms.bots.coach import review
    from hexclass.classroom.combined_arms.game import record

    assert isinstance(review(record(state), rollouts=2), list)
    replay = console.replay(1)
    assert replay.describe(len(replay)).endswith("the instructor ends the game here")
    assert replay.state_at(len(replay)).result.total == state.result.total
    # another kernel replays the log to the same end
    other = new_store().state(g1)
    assert other.over and other.result.total == state.result.total
    # team 2 plays on
    assert store.game(g2).status == "running" and not store.state(g2).over
    assert store.submit(g1, info.version, "support", EndPhase("support")).kind is Refusal.ENDED


def test_an_open_fire_is_dropped_and_the_game_ends_even_when_paused(store):
    made = create_class(
        store, teams=1, seed=3, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    g = made.teams[0].game_id
    state = store.state(g)
    declare = next(
        a for a in legal_actions(state, "D") if isinstance(a, DeclareFire) and not a.resolve
    )
    play(store, g, "D", declare)
    console = open_console(store, made.instructor_token)
    assert console.pause(1).ok
    assert console.end(1).ok
    state = store.state(g)
    assert state.over and state.declaration is None
    assert not any(e.kind == "roll" and e.turn == 11 for e in state.events)
    ended = next(e for e in state.events if e.data.get("ended_now"))
    assert "not rolled" in ended.text and ended.data["turns"] == 11
    assert console.end(1).kind is Refusal.ENDED


def test_only_the_instructor_ends_mid_turn_and_the_instructor_gives_no_orders(store):
    made = create_class(store, teams=1, seed=7)
    g = made.teams[0].game_id
    refused = store.submit(g, 0, "support", EndGameNow("support"))
    assert refused.kind is Refusal.WRONG_SEAT and "only the instructor" in refused.message
    refused = store.submit(g, 0, INSTRUCTOR, EndPhase("support"))
    assert refused.kind is Refusal.WRONG_SEAT and "does not give orders" in refused.message
    refused = store.submit(g, 0, INSTRUCTOR, EndGame("support"))
    assert refused.kind is Refusal.WRONG_SEAT
    refused = store.submit(g, 0, INSTRUCTOR, EndGameNow("D"))  # not the commander's name
    assert refused.kind is Refusal.ILLEGAL
    assert store.version(g) == 0 and store.game(g).status == "running"


def test_an_enemy_player_game_ends_by_the_rules_once_the_battle_has_begun(store):
    variant = Options(auto_decisions=True, enemy_player=True)
    made = create_class(store, teams=2, seed=31, seats=enemy_player_layout(5), options=variant)
    g1, g2 = (t.game_id for t in made.teams)
    deploy = ai_choice(store.state(g1), "defender", random.Random(3))
    play(store, g1, "defender", deploy)
    console = open_console(store, made.instructor_token)
    assert console.end(1).ok
    state = store.state(g1)
    assert state.over and state.result is not None
    assert store.game(g1).ended_reason.startswith("ended by the instructor: score")
    debrief = console.debrief()
    assert list(debrief["deployment"]["team"]) == [1]  # the secret, once the game is over
    from hexclass.widgets.coop_debrief import debrief_html

    shown = debrief_html(debrief)
    assert "The enemy player's deployment" in shown
    assert ("Defeat: " if not store.state(g1).result.won else "Victory: ") in shown
    # before the defender has deployed there is no battle to score: the game just ends
    assert console.end(2).ok
    assert store.game(g2).status == "ended" and not store.state(g2).over


@pytest.mark.parametrize("phase_moves", [0, 1])
def test_the_turn_in_progress_counts_once_anything_happened_in_it(store, phase_moves):
    made = create_class(
        store, teams=1, seed=3, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    g = made.teams[0].game_id
    play(store, g, "support", EndPhase("support"))  # the enemy phase; then turn 12 begins
    state = store.state(g)
    while state.turn == 11 and not state.over:
        play(store, g, "support", EndPhase("support"))
        state = store.state(g)
    if phase_moves:
        seat, move = next(
            (s, a)
            for s in ("D", "E", "F", "armour")
            for a in legal_actions(state, s)
            if not isinstance(a, (EndPhase, EndGame))
        )
        play(store, g, seat, move)
    assert open_console(store, made.instructor_token).end(1).ok
    ended = next(e for e in store.state(g).events if e.data.get("ended_now"))
    assert ended.data["turns"] == (12 if phase_moves else 11)


def test_an_enemy_player_seat_reads_the_end_through_the_referee(store, new_store):
    import threading

    from hexclass.classroom.sessions.hidden import HiddenGame, Referee

    variant = Options(auto_decisions=True, enemy_player=True)
    made = create_class(store, teams=1, seed=31, seats=enemy_player_layout(5), options=variant)
    g = made.teams[0].game_id
    play(store, g, "defender", ai_choice(store.state(g), "defender", random.Random(3)))
    ref = Referee(new_store())
    stop = threading.Event()
    thread = threading.Thread(target=ref.run, args=(stop, 0.005), daemon=True)
    thread.start()
    try:
        for _ in range(400):
            if ref.published.get(g) == store.version(g):
                break
            threading.Event().wait(0.01)
        d = HiddenGame(new_store(), g, "D")
        assert not d.state.over
        assert open_console(store, made.instructor_token).end(1).ok
        total = store.state(g).result.total
        for _ in range(400):  # the referee publishes the new version for every seat
            if d.refresh() and d.state.over:
                break
            threading.Event().wait(0.01)
        assert d.state.over and d.state.result.total == total
        assert d.state.secret is None  # the attackers' copy still holds no deployment
    finally:
        stop.set()
        thread.join(10)


def test_ending_the_whole_class_ends_every_game_by_the_rules(store):
    made = create_class(store, teams=3, seed=7)
    console = open_console(store, made.instructor_token)
    assert console.end(2).ok
    assert console.end().ok  # the two still going
    for t in made.teams:
        state = store.state(t.game_id)
        assert state.over and state.result is not None
        assert store.game(t.game_id).ended_reason.startswith("ended by the instructor")
    assert console.end().kind is Refusal.ENDED
