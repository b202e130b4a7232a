"""The debrief is about how each team fought: its fire odds against what came of them,
losses by turn, who acted and who waited, the teams side by side, safe CSV exports."""

from __future__ import annotations

import csv

import pytest

from hexclass.classroom.combined_arms import DeclareFire, EndPhase, legal_actions
from hexclass.classroom.combined_arms.fire import fire_odds
from hexclass.classroom.combined_arms.scenarios import load_position
from hexclass.classroom.sessions import create_class, open_console
from hexclass.classroom.sessions.debrief import spreadsheet_safe

from .helpers import play


@pytest.fixture
def fought(store):
    """Two teams on the fire-lane position: team 1 fires at its best odds, team 2 at its worst."""
    made = create_class(
        store, teams=2, seed=3, start=load_position("sample-turn11-fire-lane").to_dict()
    )
    taken = {}
    for t, pick in zip(made.teams, (max, min)):
        g, taken[t.team] = t.game_id, []
        for seat in ("D", "E", "armour"):
            state = store.state(g)
            fires = [
                a for a in legal_actions(state, seat) if isinstance(a, DeclareFire) and a.resolve
            ]
            if not fires:
                continue
            a = pick(fires, key=lambda f: fire_odds(state, f.target, list(f.firers)).pin)
            taken[t.team].append((seat, a, float(fire_odds(state, a.target, list(a.firers)).pin)))
            play(store, g, seat, a)
        play(store, g, "support", EndPhase("support"))
    store.post_message(made.teams[0].game_id, "D", '=HYPERLINK("http://evil","x")')
    store.post_message(made.teams[0].game_id, "E", "-2 is our score")
    return made, taken, open_console(store, made.instructor_token).debrief()


def test_each_fire_shows_the_engines_odds_and_what_came_of_it(fought, store):
    made, taken, db = fought
    fires = db["fires"]
    for team, shots in taken.items():
        rows = fires[fires.team == team]
        assert list(rows["seat"]) == [seat for seat, _, _ in shots]
        assert list(rows["pin_odds"]) == pytest.approx([odds for _, _, odds in shots], abs=1e-4)
    teams = db["teams"].set_index("team")
    # judgement: team 1 took better odds than team 2
    assert teams.loc[1, "mean_pin_odds"] > teams.loc[2, "mean_pin_odds"]
    # luck: what came of it minus what the odds promised
    for team in (1, 2):
        rows = fires[fires.team == team]
        assert teams.loc[team, "pins"] == rows["pinned"].sum()
        assert teams.loc[team, "expected_pins"] == pytest.approx(rows["pin_odds"].sum(), abs=1e-3)
        assert teams.loc[team, "pin_luck"] == pytest.approx(
            rows["pinned"].sum() - rows["pin_odds"].sum(), abs=1e-3
        )
    # the pins agree with the engine's own log of each roll
    g = made.teams[0].game_id
    pinned_in_log = sum(
        1
        for e in store.state(g).events
        if e.kind == "roll" and "target pinned" in e.data.get("outcome", [])
    )
    assert teams.loc[1, "pins"] == pinned_in_log


def test_the_actions_table_names_unit_target_and_odds(fought):
    _, taken, db = fought
    acts = db["actions"]
    fire_rows = acts[(acts.team == 1) & (acts.type == "DeclareFire")]
    seat, a, odds = taken[1][0]
    first = fire_rows.iloc[0]
    assert first["seat"] == seat and first["unit"] == ", ".join(a.firers)
    assert first["target"] is not None and first["odds"] == f"pin {odds:.0%}"


def test_who_acted_and_who_waited_each_turn(fought):
    _, taken, db = fought
    act = db["activity"]
    t1 = act[(act.team == 1) & (act.turn == 11)].set_index("seat")
    for seat in ("D", "E", "armour"):
        assert t1.loc[seat, "acted"] == any(s == seat for s, _, _ in taken[1])
    assert not t1.loc["F", "acted"]  # F waited
    assert t1.loc["support", "acted"]  # the commander ended the phase


def test_losses_by_turn_and_teams_side_by_side(fought):
    _, _, db = fought
    turns = db["turns"]
    for _, df in turns.groupby("team"):
        assert list(df["losses_in_turn"]) == list(
            df["losses"].diff().fillna(df["losses"]).astype(int)
        )
    side = db.at_turn(11)
    assert list(side.columns) == ["team 1", "team 2"]
    assert side.loc["turn", "team 1"] == 11


def test_csv_export_cannot_run_formulas(fought, tmp_path):
    made, _, db = fought
    paths = {p.name.split("-", 1)[1]: p for p in db.export_csv(tmp_path)}
    with open(paths["messages.csv"]) as f:
        texts = [r["text"] for r in csv.DictReader(f)]
    assert texts == ['\'=HYPERLINK("http://evil","x")', "'-2 is our score"]
    for name, path in paths.items():
        with open(path) as f:
            for row in csv.reader(f):
                for cell in row:
                    assert not cell.startswith(("=", "+", "@", "\t", "\r")), (name, cell)
    # numbers stay numbers (a negative score is not text)
    import pandas as pd

    df = spreadsheet_safe(pd.DataFrame({"n": [-2, 3], "s": ["+1", "@x"]}))
    assert list(df["n"]) == [-2, 3] and list(df["s"]) == ["'+1", "'@x"]
    assert db["messages"]["text"].iloc[0].startswith("=")  # the table itself is unchanged


def test_plots_draw_luck_losses_and_activity(fought):
    pytest.importorskip("matplotlib")
    _, _, db = fought
    ax = db.plot_luck()
    assert len(ax.patches) == 4 * 2  # four bars per team
    ax = db.plot_losses()
    assert len(ax.patches) == len(db["turns"])
    ax = db.plot_activity(1)
    assert ax.get_images()
