"""The balance lab: intervals, policies on the same seeds, one board, and a Dask cluster
that gives exactly what one process gives."""

from __future__ import annotations

import statistics

import pytest

from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.simulate import (
    board_game,
    compare,
    mean_interval,
    plot,
    simulate,
    wilson,
)


def test_wilson_interval_known_values():
    """Wilson 95 %: 25/100 gives 17.5 %-34.3 %; 0/20 still has an upper bound, 0 below."""
    lo, hi = wilson(25, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.175, 0.343)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.15 < hi < 0.17
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and 0.83 < lo < 0.85
    assert mean_interval([10.0, 12.0, 14.0]) == pytest.approx((9.7368, 14.2632), abs=1e-3)


def test_compare_plays_every_policy_on_the_same_seeds():
    c = compare(["passive", "steady"], 3, seed=40)
    passive, steady = c["passive"], c["steady"]
    assert [r.seed for r in passive.results] == [r.seed for r in steady.results] == [40, 41, 42]
    assert passive.scores == simulate(3, 40, "passive").scores  # same games alone
    d, (lo, hi) = c.paired("passive", "steady")
    assert d == pytest.approx(sum(passive.scores) / 3 - sum(steady.scores) / 3)
    assert lo <= d <= hi
    data = c.to_json()
    assert [p["policy"] for p in data["policies"]] == ["passive", "steady"]
    assert "steady" in data["paired_vs_passive"]


def test_board_study_keeps_the_board_and_changes_the_dice():
    a, b = board_game(9, 1), board_game(9, 2)
    assert a.board.terrain == b.board.terrain == new_game(9).board.terrain
    assert set(a.enemy) == set(new_game(9).enemy)
    assert a.dice.snapshot() != b.dice.snapshot()
    s = simulate(4, seed=1, policy="passive", board=9)
    assert s.board == 9 and s.to_json()["board"] == 9
    assert len(set(s.scores)) > 1  # the final reveal differs with the dice


def test_plot_writes_a_png(tmp_path):
    c = compare(["passive"], 2, seed=3)
    path = plot(c, str(tmp_path / "lab.png"))
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_dask_cluster_gives_the_same_results_as_one_process():
    """A LocalCluster of two worker processes on loopback plays the same games."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        remote = compare(["passive", "steady"], 6, seed=50, scheduler=cluster.scheduler_address)
    local = compare(["passive", "steady"], 6, seed=50)
    for p in ("passive", "steady"):
        assert remote[p].results == local[p].results


def test_local_processes_give_the_same_results_as_one():
    two = compare(["passive", "steady"], 4, seed=60, jobs=2)
    one = compare(["passive", "steady"], 4, seed=60)
    for p in ("passive", "steady"):
        assert two[p].results == one[p].results


def test_each_policy_of_a_comparison_is_timed_by_its_own_games():
    """With several policies in one pool a policy's speed is its own games' play time.

    Shared-out wall time gave a fast policy whose chunks finished behind a slow one's
    almost no time at all (hundreds of thousands of games/s); each game now carries
    the seconds its process spent on it, and the comparison adds those up.
    """
    c = compare(["passive", "steady"], 4, seed=60, jobs=2)
    for s in c.summaries:
        assert all(r.seconds > 0 for r in s.results)
        assert s.elapsed == pytest.approx(sum(r.seconds for r in s.results))
        assert "games/s on one process" in s.report()
        assert s.to_json()["timed_per_process"] is True
    alone = simulate(2, seed=60, policy="passive")
    assert "games/s on one process" not in alone.report()  # one policy: wall time, all jobs
    assert alone.to_json()["timed_per_process"] is False


def test_board_study_of_doing_nothing_agrees_with_the_exact_baseline():
    """Passive games on one board average what the final reveal's exact odds say, and
    the board report states that exact figure (CA "Victory")."""
    from hexclass.classroom.combined_arms.simulate import board_baseline

    mean, win = board_baseline(12)
    c = compare(["passive"], 150, seed=1, board=12)
    lo, hi = c["passive"].mean_ci
    assert lo - 0.3 <= mean <= hi + 0.3
    assert f"scores {mean:.2f} on average" in c.report()
    assert 0 < win < 0.2


def test_a_game_ended_by_its_policy_is_valued_by_the_exact_odds_of_its_last_reveal():
    """The expected score of a game its policy ended is the exact mean of the final
    reveal it faced (CA "Victory"): for doing nothing, the board's exact baseline, not
    the score the dice happened to give."""
    from hexclass.classroom.combined_arms.simulate import board_baseline, play_one

    results = [play_one(seed, "passive") for seed in (1, 2, 3)]
    for r in results:
        assert r.expected == pytest.approx(board_baseline(r.seed)[0])
    assert [r.score for r in results] != [round(r.expected) for r in results]


def test_a_game_the_engine_ended_keeps_its_score_as_expected():
    """A game played to the end of turn 20 had no choice left to value: expected = score."""
    from hexclass.classroom.combined_arms.simulate import play_one

    r = play_one(5, "bold")
    assert r.turns == 20
    assert r.expected == r.score


def test_a_comparison_reports_the_narrower_paired_difference_of_expected_scores():
    """Same mean, less spread: the paired interval of expected scores is narrower than
    that of scores on the same games, and both are reported."""
    c = compare(["steady", "passive"], 40, seed=1)
    d, (lo, hi) = c.paired("steady", "passive")
    de, (elo, ehi) = c.paired("steady", "passive", expected=True)
    assert ehi - elo < (hi - lo) / 2
    assert "exact odds of its final reveal" in c.report()
    data = c.to_json()
    assert set(data["paired_expected_vs_steady"]) == {"passive"}
    assert data["policies"][1]["mean_expected_score"] == pytest.approx(
        statistics.fmean(board_baseline_of(s) for s in range(1, 41)), abs=1e-3
    )


def board_baseline_of(seed: int) -> float:
    from hexclass.classroom.combined_arms.simulate import board_baseline

    return board_baseline(seed)[0]
