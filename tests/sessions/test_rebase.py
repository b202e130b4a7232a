"""Orders that do not collide: an order drawn at an older version is rebased within a phase.

Seats act at once; the store re-checks a late order against the current state and takes
it when every action since was taken in the same turn and phase and the engine still
allows it (policy.rebase_problem). Real processes on a real SQLite file, as five Voilà
kernels would be, submit at the same moment.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time

from hexclass.classroom.combined_arms import (
    DeclareFire,
    EndPhase,
    Enter,
    action_to_json,
    check,
    legal_actions,
)
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.sessions import SQLiteStore, create_class
from hexclass.classroom.sessions.policy import rebase_problem
from hexclass.classroom.sessions.store import Refusal

from .helpers import first_enter, play, replayed

WORKER = pathlib.Path(__file__).with_name("order_worker.py")
ROOT = WORKER.parents[2]


def spread_enters(state, seats):
    """One Enter per seat, each into a hex no other of them enters (no stacking clash)."""
    taken, out = set(), {}
    for seat in seats:
        a = next(
            a for a in legal_actions(state, seat) if isinstance(a, Enter) and a.to not in taken
        )
        taken.add(a.to)
        out[seat] = a
    return out


def run_at_once(db, game, orders: dict, version: int, tmp_path) -> dict:
    """Each seat's order in its own process, all submitted at the same moment: once every
    process says it is up and caught up, each is sent the same moment just ahead."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    procs = {
        seat: subprocess.Popen(
            [
                sys.executable,
                str(WORKER),
                str(db),
                str(game),
                seat,
                str(version),
                json.dumps(action_to_json(a)),
                str(tmp_path / f"{seat}.json"),
            ],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for seat, a in orders.items()
    }
    for seat, p in procs.items():  # a readiness signal, not a guess at start-up time
        assert p.stdout.readline().strip() == "ready", f"{seat}'s worker exited ({p.wait()})"
    start_at = time.time() + 0.2
    for p in procs.values():
        p.stdin.write(f"{start_at!r}\n")
        p.stdin.close()
    for p in procs.values():
        assert p.wait(timeout=180) == 0
        p.stdout.close()
    return {seat: json.loads((tmp_path / f"{seat}.json").read_text()) for seat in orders}


def test_two_seats_at_the_same_version_are_both_accepted(tmp_path):
    db = tmp_path / "class.db"
    with SQLiteStore(db) as s:
        g = create_class(s, teams=1, seed=21).teams[0].game_id
        orders = spread_enters(s.state(g), ("D", "E"))
    answers = run_at_once(db, g, orders, 0, tmp_path)
    assert all(a["ok"] for a in answers.values()), answers
    assert sorted(a["version"] for a in answers.values()) == [1, 2]
    with SQLiteStore(db) as s:
        assert {x.action for x in s.actions(g)} == set(orders.values())
        assert s.state(g).snapshot() == replayed(s, g).snapshot()


def test_five_seats_at_the_same_version_are_all_accepted(tmp_path):
    db = tmp_path / "class.db"
    with SQLiteStore(db) as s:
        g = create_class(s, teams=1, seed=21).teams[0].game_id
        orders = spread_enters(s.state(g), ("armour", "D", "E", "F", "support"))
    answers = run_at_once(db, g, orders, 0, tmp_path)
    assert all(a["ok"] for a in answers.values()), answers
    assert sorted(a["version"] for a in answers.values()) == [1, 2, 3, 4, 5]
    # the last one in caught up on the others: its page sees them all with its own
    last = max(answers.values(), key=lambda a: a["version"])
    assert last["caught_up"] == list(range(last["started"] + 1, 6))
    with SQLiteStore(db) as s:
        assert s.integrity() == []
        assert {x.action for x in s.actions(g)} == set(orders.values())
        assert s.state(g).snapshot() == replayed(s, g).snapshot()


def test_five_seats_when_the_commander_ends_the_phase_at_the_same_moment(tmp_path):
    """Orders that reach the store after the phase ended are stale; the rest go in."""
    db = tmp_path / "class.db"
    with SQLiteStore(db) as s:
        g = create_class(s, teams=1, seed=21).teams[0].game_id
        orders = spread_enters(s.state(g), ("armour", "D", "E", "F"))
    orders["support"] = EndPhase("support")
    answers = run_at_once(db, g, orders, 0, tmp_path)
    end = answers["support"]
    assert end["ok"]
    for seat in ("armour", "D", "E", "F"):
        a = answers[seat]
        # in before the end of the phase, or refused as stale after it: never illegal
        assert a["ok"] == (a["version"] is not None and a["version"] < end["version"]), a
        if not a["ok"]:
            assert a["kind"] == "stale"
            # the refusal brings the end of the phase (unless the page had it already)
            assert end["version"] in a["caught_up"] or a["started"] >= end["version"]
    with SQLiteStore(db) as s:
        assert s.version(g) == end["version"]
        assert s.state(g).phase == "friendly_fire"


def test_a_late_order_for_a_platoon_that_has_since_moved_is_stale_with_the_rule(store, game):
    d = first_enter(store.state(game), "D")
    play(store, game, "D", d)  # the same seat's other browser already moved D1
    late = Enter("D", d.unit, d.to, d.facing)  # drawn at version 0: D1 was still off board
    r = store.submit(game, 0, "D", late)
    assert r.kind is Refusal.STALE and "now:" in r.message
    assert store.version(game) == 1


def test_a_rebased_order_the_engine_now_refuses_says_why_in_a_field(store, game):
    d = first_enter(store.state(game), "D")
    play(store, game, "D", d)  # the same seat's other browser already moved D1
    late = Enter("D", d.unit, d.to, d.facing)  # drawn at version 0
    reason = check(store.state(game), late)
    r = store.submit(game, 0, "D", late)
    assert r.kind is Refusal.STALE
    assert r.now == str(reason) and r.rule == reason.rule
    assert r.message.endswith(f"(now: {r.now})")  # the sentence is unchanged
    fresh = store.submit(game, 1, "D", late)  # drawn on the current board: the rule alone
    assert fresh.kind is Refusal.ILLEGAL and fresh.now is None


def test_late_fire_on_a_different_target_is_rebased_and_the_same_target_is_not(store):
    made = create_class(
        store, teams=1, seed=3, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    g = made.teams[0].game_id
    state = store.state(g)
    d_fire = next(a for a in legal_actions(state, "D") if isinstance(a, DeclareFire))
    e_other = next(
        a
        for a in legal_actions(state, "E")
        if isinstance(a, DeclareFire) and a.target != d_fire.target
    )
    armour_same = next(
        a
        for a in legal_actions(state, "armour")
        if isinstance(a, DeclareFire) and a.target == d_fire.target
    )
    play(store, g, "D", d_fire)
    assert store.submit(g, 0, "E", e_other).ok  # same phase, another target: rebased
    r = store.submit(g, 0, "armour", armour_same)  # the hex was engaged meanwhile
    assert r.kind is Refusal.STALE and "engaged" in r.message


def test_rebase_problem_reads_the_turn_and_phase_of_every_action_since(store, game):
    play(store, game, "D", first_enter(store.state(game), "D"))
    info = store.game(game)
    assert rebase_problem(info, 0, store.actions(game)) is None
    play(store, game, "support", EndPhase("support"))
    info = store.game(game)
    assert rebase_problem(info, 0, store.actions(game)).kind is Refusal.STALE
    assert rebase_problem(info, 1, store.actions(game, after=1)).kind is Refusal.STALE
    assert rebase_problem(info, 2, []) is None
    assert rebase_problem(info, 3, []).kind is Refusal.STALE  # from the future
