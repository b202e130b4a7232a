"""``hexclass simulate``: the JSON it prints and how it refuses bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hexclass.classroom.cli import main

FIELDS = {
    "policy": str,
    "games": int,
    "seed": int,
    "jobs": int,
    "wins": int,
    "win_rate": float,
    "mean_score": float,
    "median_score": (int, float),
    "stdev_score": float,
    "min_score": int,
    "max_score": int,
    "mean_turns": float,
    "score_counts": dict,
    "elapsed_seconds": float,
    "games_per_second": float,
}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hexclass.classroom.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_simulate_json_has_the_documented_fields():
    out = run_cli("simulate", "--games", "3", "--seed", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)  # stdout is exactly one JSON object: the bar is on stderr
    for name, kind in FIELDS.items():
        assert isinstance(data[name], kind), name
    assert (data["policy"], data["games"], data["seed"], data["jobs"]) == ("steady", 3, 2, 1)
    assert sum(data["score_counts"].values()) == 3
    assert data["min_score"] <= data["median_score"] <= data["max_score"]
    assert data["min_score"] <= data["mean_score"] <= data["max_score"]
    assert data["wins"] == sum(v for k, v in data["score_counts"].items() if int(k) >= 20)
    assert data["win_rate"] == pytest.approx(data["wins"] / 3, abs=1e-4)
    assert data["games_per_second"] > 0
    assert "3/3" in out.stderr and "Traceback" not in out.stderr


def test_simulate_same_scores_with_several_processes(capsys):
    assert (
        main(
            [
                "simulate",
                "--games",
                "4",
                "--seed",
                "30",
                "--policy",
                "random",
                "--json",
                "--no-progress",
            ]
        )
        == 0
    )
    one = json.loads(capsys.readouterr().out)
    assert (
        main(
            [
                "simulate",
                "--games",
                "4",
                "--seed",
                "30",
                "--policy",
                "random",
                "--json",
                "--no-progress",
                "--jobs",
                "2",
            ]
        )
        == 0
    )
    two = json.loads(capsys.readouterr().out)
    assert one["score_counts"] == two["score_counts"] and two["jobs"] == 2
    assert one["policy"] == "random"


def test_simulate_text_report(capsys):
    assert main(["simulate", "--games", "2", "--policy", "passive", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "passive: 2 games from seed 1" in text
    assert "win rate" in text and "games/s" in text and "median" in text


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "-1"],
        ["--games", "0"],
        ["--games", "ten"],
        ["--seed", "abc"],
        ["--seed", "1.5"],
        ["--seed", "-4"],
        ["--policy", "nope"],
        ["--jobs", "0"],
        ["--compare", "steady,nope"],
        ["--compare", "steady,steady"],
        ["--compare", ","],
        ["--board", "-3"],
    ],
)
def test_bad_arguments_give_usage_and_exit_2(args):
    out = run_cli("simulate", *args)
    assert out.returncode == 2
    assert out.stderr.startswith("usage: hexclass simulate")
    assert "error:" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_simulate_compare_json_and_plot(tmp_path, capsys):
    """--compare plays each policy on the same seeds; --plot writes the PNG."""
    png = tmp_path / "lab.png"
    args = ["simulate", "--compare", "passive,steady", "--games", "3", "--seed", "8"]
    assert main([*args, "--json", "--no-progress", "--plot", str(png)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["policy"] for p in data["policies"]] == ["passive", "steady"]
    for p in data["policies"]:
        lo, hi = p["win_rate_ci95"]
        assert 0 <= lo <= p["win_rate"] <= hi <= 1
        lo, hi = p["mean_score_ci95"]
        assert lo <= p["mean_score"] <= hi
        assert sum(p["turn_counts"].values()) == 3
    assert set(data["paired_vs_passive"]) == {"steady"}
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_simulate_board_study_text(capsys):
    assert (
        main(["simulate", "--games", "3", "--policy", "passive", "--board", "12", "--no-progress"])
        == 0
    )
    text = capsys.readouterr().out
    assert "board 12" in text and "95% CI" in text


def test_simulate_scheduler_address_must_be_tcp(capsys):
    assert main(["simulate", "--games", "1", "--scheduler", "localhost:8786"]) == 2
    assert "tcp://HOST:PORT" in capsys.readouterr().err
