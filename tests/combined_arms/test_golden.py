"""Golden playthroughs: whole recorded games whose every logged line must not change.

Each file in ``golden/`` holds a game's record (seed, options and actions, played by
the scripted bots) and the text of every event it produced. Replaying the record must
give exactly those lines, on any machine: a change to the dice, the rules or their
order shows up here as a diff. After a deliberate rules change, regenerate with
``python -m tests.combined_arms.test_golden`` and review the diff like any other change.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from hexclass.classroom.combined_arms import Options, record, replay

GOLDEN = pathlib.Path(__file__).parent / "golden"
CASES = [("steady", 3), ("bold", 7), ("random", 12)]


def golden_files():
    return sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_replaying_a_golden_game_reproduces_every_line(path):
    data = json.loads(path.read_text())
    state = replay(data["record"], source=str(path))
    lines = [f"{e.turn}|{e.phase}|{e.kind}|{e.text}" for e in state.events]
    assert lines == data["events"]
    assert (state.result.total if state.result else None) == data["score"]


def test_there_are_golden_games():
    assert len(golden_files()) == len(CASES)


def regenerate() -> None:
    from hexclass.classroom.combined_arms.bot import make_policy, play_game

    GOLDEN.mkdir(exist_ok=True)
    for policy, seed in CASES:
        state = play_game(seed, make_policy(policy, seed), Options(auto_decisions=True))
        data = {
            "record": record(state),
            "events": [f"{e.turn}|{e.phase}|{e.kind}|{e.text}" for e in state.events],
            "score": state.result.total if state.result else None,
        }
        (GOLDEN / f"{policy}-seed{seed}.json").write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    regenerate()
