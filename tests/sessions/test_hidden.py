"""Enemy-player games across kernels (CA p.7): orders, the referee, and each seat's view.

Each test runs against both stores. The referee runs in a thread of the test process
(as ``hexclass serve`` runs it beside the kernels); every seat is a :class:`HiddenGame`
on its own store handle, as a seat kernel would have.
"""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from hexclass.classroom.combined_arms import EndPhase, Enter, Options
from hexclass.classroom.combined_arms.actions import Bid, Deploy
from hexclass.classroom.combined_arms.defender import ai_choice, deployment_field
from hexclass.classroom.combined_arms.enemy_player import Deployment, check_deployment
from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.hidden import HiddenGame, Referee
from hexclass.classroom.sessions.roles import enemy_player_layout

VARIANT = Options(auto_decisions=True, enemy_player=True)


@pytest.fixture
def referee(new_store):
    """A referee on its own handle, deciding orders in a thread until the test ends."""
    ref = Referee(new_store())
    stop = threading.Event()
    thread = threading.Thread(target=ref.run, args=(stop, 0.005), daemon=True)
    thread.start()
    yield ref
    stop.set()
    thread.join(10)


def five_plus_one(store):
    made = create_class(store, teams=1, seed=31, seats=enemy_player_layout(5), options=VARIANT)
    return made.teams[0].game_id


def wait_published(ref, game_id, timeout: float = 120.0):
    """Poll until the referee has published the game (generous: a busy machine)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ref.published.get(game_id) is not None:
            return
        threading.Event().wait(0.01)
    raise AssertionError("the referee never published the game")


def test_each_seat_sees_its_own_copy_and_only_the_defender_the_secret(store, new_store, referee):
    game_id = five_plus_one(store)
    wait_published(referee, game_id)
    d = HiddenGame(new_store(), game_id, "D")
    defender = HiddenGame(new_store(), game_id, "defender")
    assert d.state.phase == "deployment" and d.state.forces is None and d.state.seed == 0
    assert defender.state.forces is not None and defender.state.seed == 0
    deploy = ai_choice(defender.state, "defender", random.Random(3))
    assert "only the defender" in d.submit(Deploy("D", deploy.platoons, deploy.atgs)).reason
    assert defender.submit(deploy).accepted
    d.refresh()
    assert d.state.phase == "friendly_move" and d.state.secret is None
    assert defender.state.secret == Deployment(frozenset(deploy.platoons), frozenset(deploy.atgs))
    assert all(e.data.get("secret") is None for e in d.state.events)
    # the attackers play on through the referee; their copies keep up
    hex_ = d.state.board.friendly_edge[0]
    assert d.submit(Enter("D", "D1", hex_)).accepted
    e = HiddenGame(new_store(), game_id, "E")
    assert e.state.units["D1"].hex == hex_ and e.version == d.version


def test_a_refused_order_names_its_rule_and_changes_nothing(store, new_store, referee):
    game_id = five_plus_one(store)
    wait_published(referee, game_id)
    d = HiddenGame(new_store(), game_id, "D")
    before = d.version
    why = d.submit(Enter("D", "D1", d.state.board.friendly_edge[0]))
    assert not why.accepted and "Secret Deployment" in why.reason  # nothing moves before
    assert why.rule == 'CA "Sequence of Play"'  # ... the defender has deployed
    assert d.version == before == store.version(game_id)


def test_every_constraint_is_checked_by_the_referee_too(store, new_store, referee):
    game_id = five_plus_one(store)
    wait_published(referee, game_id)
    defender = HiddenGame(new_store(), game_id, "defender")
    one = sorted(deployment_field(defender.state).platoon_hexes)[:1]
    why = defender.submit(Deploy("defender", tuple(one), ()))
    assert 'CA p.7 "Enemy Player Variant": deploy exactly' in why.reason
    assert why.rule == 'CA p.7 "Enemy Player Variant"' and why.kind == "illegal"
    d = ai_choice(defender.state, "defender", random.Random(1))
    field = deployment_field(defender.state)
    assert (
        check_deployment(
            field, defender.state.forces, Deployment(frozenset(d.platoons), frozenset(d.atgs))
        )
        is None
    )


def test_two_players_bid_in_secret_then_take_their_sides(store, new_store, referee):
    made = create_class(
        store,
        teams=1,
        seed=5,
        seats=enemy_player_layout(1, bidding=True),
        options=Options(auto_decisions=True, enemy_player=True, bidding=True),
    )
    game_id = made.teams[0].game_id
    wait_published(referee, game_id)
    one = HiddenGame(new_store(), game_id, "player1")
    two = HiddenGame(new_store(), game_id, "player2")
    assert one.submit(Bid("player1", 4)).accepted
    two.refresh()
    assert two.state.bids == {} and "bid 4" not in json.dumps([e.text for e in two.state.events])
    assert two.submit(Bid("player2", 2)).accepted
    one.refresh()
    assert "defender" in one.state.seats["player1"].powers and one.state.forces is not None
    assert two.state.forces is None and two.state.options.handicap == 4
    assert "command" in two.state.seats["player2"].powers


def test_an_order_without_a_referee_says_so(store, new_store):
    game_id = five_plus_one(store)
    Referee(new_store()).step()  # publish once, then nobody decides
    d = HiddenGame(new_store(), game_id, "D", wait=0.3)
    assert "referee did not answer" in d.submit(EndPhase("D")).reason


def test_an_attackers_kernel_never_holds_the_secret(tmp_path):
    """A real seat process: after the deployment and an enemy phase, nothing secret in it."""
    import os
    import pathlib
    import subprocess
    import sys

    from hexclass.classroom.sessions.sqlite_store import SQLiteStore

    path = tmp_path / "class.db"
    store = SQLiteStore(path)
    made = create_class(store, teams=1, seed=31, seats=enemy_player_layout(5), options=VARIANT)
    game_id = made.teams[0].game_id
    token = next(s.token for s in made.teams[0].seats if s.seat == "support")
    ref = Referee(SQLiteStore(path))
    stop = threading.Event()
    thread = threading.Thread(target=ref.run, args=(stop, 0.005), daemon=True)
    thread.start()
    try:
        wait_published(ref, game_id)
        root = pathlib.Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONPATH": str(root)}
        kernel = subprocess.Popen(
            [
                sys.executable,
                str(pathlib.Path(__file__).with_name("attacker_kernel.py")),
                str(path),
                token,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=root,
        )
        defender = HiddenGame(SQLiteStore(path), game_id, "defender")
        assert defender.submit(ai_choice(defender.state, "defender", random.Random(2))).accepted
        out, err = kernel.communicate(timeout=300)
        assert kernel.returncode == 0, err
        found = json.loads(out)
    finally:
        stop.set()
        thread.join(10)
    assert found["phase"] == "enemy"  # the attackers wait on the defender's choice
    assert found["deployments"] == [] and found["forces"] == []
    assert found["live_games"] == 0 and found["rolling_dice"] == 0 and found["seeds"] == []


def test_the_debrief_shows_the_deployment_once_the_game_is_over(store, new_store, referee):
    from hexclass.classroom.combined_arms.actions import EndGame
    from hexclass.classroom.sessions import open_console

    made = create_class(store, teams=1, seed=31, seats=enemy_player_layout(1), options=VARIANT)
    game_id = made.teams[0].game_id
    wait_published(referee, game_id)
    defender = HiddenGame(new_store(), game_id, "defender")
    player = HiddenGame(new_store(), game_id, "all")
    deploy = ai_choice(defender.state, "defender", random.Random(5))
    assert defender.submit(deploy).accepted
    console = open_console(store, made.instructor_token)
    assert console.debrief()["deployment"].empty  # not while the game goes on
    for _ in range(6):  # play turn 1 through, answering the defender as the AI would
        player.refresh()
        defender.refresh()
        if player.state.phase == "friendly_move" and player.state.turn == 2:
            break
        waiting = defender.state.pending
        if waiting is not None and waiting.power == "defender":
            assert defender.submit(ai_choice(defender.state, "defender")).accepted
        else:
            assert player.submit(EndPhase("all")).accepted
    assert player.submit(EndGame("all")).accepted
    row = console.debrief()["deployment"].iloc[0]
    labels = sorted(defender.state.label(h) for h in deploy.platoons)
    assert row["real_platoons"].split() == labels and row["defender"] == "defender"


def test_two_referees_never_decide_one_order_twice_nor_publish_backwards(store, new_store):
    game_id = five_plus_one(store)
    tables = store.hidden()
    nonce = tables.place_order(game_id, "support", 0, {"type": "EndPhase", "seat": "support"})
    assert tables.claim_order(nonce) is True
    assert tables.claim_order(nonce) is False  # another host's referee got there first
    tables.publish(game_id, 5, {"public": "five"}, {"D": "public"})
    tables.publish(game_id, 3, {"public": "three"}, {"D": "public"})
    assert new_store().hidden().view(game_id, "D") == (5, "five")
