"""Issue 26's doctrine study (benchmarks/ca_doctrine.py): its positions and its attacker.

The micro study's claims rest on CA "Enemy Fire": a post fires on up to 3 *mutually
adjacent* hexes, so platoons on alternate sides of it are never caught by one burst; and
on CA "Fire Attacks": a distant firer's line is blocked by a rifle platoon between.
"""

from __future__ import annotations

import pathlib
import statistics
import sys

import pytest

from hexclass.classroom.combined_arms import enemy, mortars
from hexclass.classroom.combined_arms.board import DIST
from hexclass.classroom.combined_arms.bots import doctrine
from hexclass.classroom.combined_arms.engine import check
from hexclass.classroom.combined_arms.lines import friendly_line
from hexclass.classroom.combined_arms.positions import sketch, state_from_position
from hexclass.classroom.combined_arms.units import POTENTIAL

BENCH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import ca_doctrine as cd  # noqa: E402


def _post(st):
    return st.board.hex_at(cd.POST)


def test_the_alternate_sides_are_never_one_burst_and_a_stack_is():
    spread = state_from_position(cd.micro_position("spread3"))
    post = _post(spread)
    sides = [u.hex for u in spread.units.values() if u.on_board]
    assert len(set(sides)) == 3 and all(DIST[h][post] == 1 for h in sides)
    best, clusters, _ = enemy.best_clusters(spread, post)
    assert clusters and all(len(c) == 1 for c in clusters)  # one hex, one platoon
    stack = state_from_position(cd.micro_position("stack3"))
    _, clusters, pay = enemy.best_clusters(stack, _post(stack))
    (cluster,) = clusters
    assert len(cluster) == 1 and len(stack.at[cluster[0]]) == 3  # all three in the burst


def test_a_spread_assault_costs_a_fraction_of_a_stacked_one():
    runs = {
        layout: [cd.play_micro(cd.micro_position(layout), s) for s in range(300)]
        for layout in ("spread3", "stack3")
    }
    mean = {k: {f: statistics.fmean(r[f] for r in v) for f in v[0]} for k, v in runs.items()}
    assert mean["spread3"]["broken"] >= 0.97
    assert mean["spread3"]["losses"] * 3 < mean["stack3"]["losses"]


def test_mmgs_whose_lines_stay_clear_cut_the_cost_of_closing():
    pos = cd.micro_position("close3", mmgs=True)
    st = state_from_position(pos)
    post = _post(st)
    closed = state_from_position(cd.micro_position("spread3"))
    for m in ("M1", "M2"):
        h = st.units[m].hex
        assert DIST[h][post] == 3 and not friendly_line(closed, h, post).blocked
    bare = [cd.play_micro(cd.micro_position("close3"), s)["losses"] for s in range(300)]
    covered = [cd.play_micro(pos, s)["losses"] for s in range(300)]
    assert statistics.fmean(covered) < statistics.fmean(bare) / 2


def test_the_doctrine_attacker_plays_legal_repeatable_games():
    for seed in (3, 54):
        games = [cd.one_game(("doctrine_close", seed)) for _ in range(2)]
        assert games[0] == games[1]
        assert games[0]["turns"] >= 1


def test_an_assault_side_costs_what_the_other_posts_provoked_there_fire():
    alone = state_from_position(cd.micro_position("spread3"))
    assert cd.assault_cost(alone, _post(alone)) == 0.0
    data = cd.micro_position("spread3").data
    covered = cd.Position.from_dict(
        {**data, "enemy": [*data["enemy"], {"hex": "7d", "platoon": "real"}]}
    )
    st = state_from_position(covered)
    cost = cd.assault_cost(st, _post(st))
    # a real post 2 hexes from a side in the open: 4 chances in 6 (+1 open, -2 range)
    assert cost is not None and cost >= 4 / 6


def test_the_smoking_attacker_plays_legal_repeatable_games():
    games = [cd.one_game(("doctrine_smoke_all", 1)) for _ in range(2)]
    assert games[0] == games[1]
    assert games[0]["smoke"] >= 1  # every smoke call passed check (CA "Mortars")


# D company on three alternate sides of a real post in woods at 5d; a second real post
# in woods at 7d reaches two of those sides (6c and 5e) at 4 chances in 6.
SIDES = {"D1": "6c", "D2": "5e", "D3": "4c"}
WOODS = {"5d": "woods", "7d": "woods"}


def test_the_enemy_phase_exposure_counts_each_post_once():
    """Each post fires on one cluster a phase (CA "Enemy Decisions"); 7d reaches two
    sides but adds 4/6 of a loss, not 4/6 for each side it reaches."""
    pol = cd.DoctrinePolicy(cd.PRESETS["doctrine_smoke"])
    both = sketch(WOODS, SIDES, {"5d": "real", "7d": "real"}, phase="friendly_fire")
    one = sketch(WOODS, SIDES, {"5d": "real"}, phase="friendly_fire")
    assert pol.exposure(both, {}) - pol.exposure(one, {}) == pytest.approx(4 / 6)


def test_smoke_is_laid_across_the_covering_posts_lines_and_only_they_are_cut():
    """CA "Mortars": smoke blocks a line as woods do, so it can cut 7d's fire but never
    5d's on the hexes next to it; the smoke patterns only imagined are not kept."""
    st = sketch(WOODS, {**SIDES, "E1": "2c"}, {"5d": "real", "7d": "real"}, phase="friendly_fire")
    x = st.board.hex_at("5d")
    pol = cd.DoctrinePolicy(cd.PRESETS["doctrine_smoke"])
    pol.obj["D"], pol.active, pol.modes = x, ["D"], {"D": ("assault", x)}
    tables = len(st.board.hit_tables)
    a = pol.smoke_call(st, "player")
    assert a is not None and a.smoke and check(st, a) is None
    assert len(st.board.hit_tables) == tables
    falls = [
        [h for h in mortars.impact_hexes(a.target, k) if h in st.board.hex_set] for k in range(6)
    ]
    with_smoke = statistics.fmean(pol.exposure(st, {h: st.turn + 1 for h in f}) for f in falls)
    saved = pol.exposure(st, {}) - with_smoke
    assert 0 < saved <= 4 / 6 + 1e-9


def test_with_no_attack_left_it_ends_rather_than_wait_for_an_exploit():
    """After a break with nothing left worth attacking, waiting only draws the enemy
    mortars (CA "Enemy Decisions") and brings turn 18 nearer (CA "Victory")."""
    st = sketch(WOODS, SIDES, {"7d": "real"}, phase="friendly_move", turn=9)
    st.enemy_platoons_broken = 1
    pol = cd.DoctrinePolicy(cd.PRESETS["doctrine_close"])
    pol.active = []
    assert not st.exploited() and pol.should_end(st)
    pol.active = ["D"]
    assert not pol.should_end(st)


def test_the_way_to_a_post_costs_the_fire_along_its_safest_route():
    """``doctrine_path`` weighs a post by the losses of walking up to it, one enemy phase
    a hex (CA "Enemy Fire"): a real post astride the route adds to that cost, but less
    than walking straight past it, because the route bends away from it."""
    pol = cd.DoctrinePolicy(cd.PRESETS["doctrine_path"])
    clear = sketch({"8d": "woods"}, {"D1": "1d"}, {"8d": "real"})
    covered = sketch({"8d": "woods", "4d": "woods"}, {"D1": "1d"}, {"8d": "real", "4d": "real"})
    x = clear.board.hex_at("8d")
    lone, flanked = (pol.way_there(s, x, [s.units["D1"]], {}) for s in (clear, covered))
    assert flanked > lone + 1.0
    straight = [covered.board.hex_at(h) for h in ("2d", "3d", "4c", "5d", "6d")]
    assert flanked < sum(pol.threat(covered, h) for h in straight) - 1.0


def _closing(units: dict, post: str = "5d"):
    st = sketch({post: "woods"}, units, {post: "real"}, phase="friendly_move", turn=5)
    x = st.board.hex_at(post)
    pol = cd.DoctrinePolicy(cd.PRESETS["doctrine_joint"])
    pol.obj["D"], pol.active, pol.modes = x, ["D"], {"D": ("close", x)}
    return st, x, pol.close_plan(st, "D", x)


def test_the_company_closes_only_onto_sides_no_single_burst_can_reach_together():
    """A post fires on up to 3 *mutually adjacent* hexes (CA "Enemy Fire"). From 3c and
    3d the only sides within a step are 4c and 4d, which touch: no one closes, and D2
    shifts to a hex behind a side of its own. From there D1 and D2 close, apart."""
    st, x, plan = _closing({"D1": "3c", "D2": "3d"})
    assert plan and all(DIST[h][x] == 2 for h in plan.values())  # a shift, not a close
    assert "D1" not in plan and DIST[plan["D2"]][st.board.hex_at("4c")] >= 2
    st, x, plan = _closing({"D1": "3c", "D2": st.label(plan["D2"])})
    assert sorted(plan) == ["D1", "D2"]
    assert all(DIST[h][x] == 1 for h in plan.values())
    assert DIST[plan["D1"]][plan["D2"]] >= 2


def test_a_runner_sets_off_for_the_enemy_edge_only_for_a_break_not_yet_exploited():
    """Exploiters count only up to the enemy platoons broken (CA "Victory")."""
    pol = cd.DoctrinePolicy(cd.PRESETS["doctrine_run"])
    st = sketch({}, {"D1": "7d", "D2": "3d"}, {}, phase="friendly_move", turn=9)
    pol.pick_runner(st)
    assert pol.runners == set()
    st.enemy_platoons_broken = 1
    pol.pick_runner(st)
    assert pol.runners == {"D1"}  # the nearer of the two to the exit hexes
    step = pol.run_step(st, st.units["D1"])
    exits = st.board.exploit_hexes
    assert min(DIST[step][e] for e in exits) < min(DIST[st.units["D1"].hex][e] for e in exits)


@pytest.fixture
def diag():
    """benchmarks/ca_diagnosis.py, its patches on for the test and off after it."""
    import ca_diagnosis

    ca_diagnosis.patch()
    yield ca_diagnosis
    ca_diagnosis._policy("doctrine_close", 0)  # the oracle's odds off
    ca_diagnosis.patch(False)


def test_told_the_deployment_the_attacker_weighs_each_post_by_its_die(diag):
    """The information ceiling's oracle (benchmarks/ca_diagnosis.py): reveal odds of 0 or
    1 read from the deployment rolled in advance; not told, the engine's odds."""
    g = diag.deployed_game(4)
    unrevealed = [h for h, p in g.enemy.items() if p.platoon == POTENTIAL]
    diag._policy("doctrine_run+oracle", 4)
    assert {doctrine.reveal_chance(g, h) for h in unrevealed} == {0.0, 1.0}
    diag._policy("doctrine_run", 4)
    assert all(0 < doctrine.reveal_chance(g, h) < 1 for h in unrevealed)


def test_the_ledger_tells_the_post_attacked_from_the_others(diag):
    """Seed 4, told the deployment: doctrine_close closes on 5d in a cluster (4c, 4c, 4d)
    and 5d's burst from next to it is booked to the post attacked."""
    _, got = diag.ledger_game(("doctrine_close+oracle", 4))
    assert got["losses"].get("enemy fire, adjacent, the post attacked", 0) >= 6


def test_the_best_stop_in_hindsight_is_never_below_where_the_game_ended(diag):
    """``ca_diagnosis.py --only prophet``: each turn start's worth of ending (from turn 2,
    the first a game may end after, CA "Victory"); the game's own worth is one of them."""
    for name in ("doctrine_bold", "doctrine_bold+oracle"):
        _, _, worths, own = diag.prophet_game((name, 5))
        assert [t for t, _ in worths] == list(range(2, 2 + len(worths)))
        assert own in [w for _, w in worths] and max(w for _, w in worths) >= own
    _, _, told, _ = diag.prophet_game(("doctrine_bold+oracle", 5))
    assert all(w == int(w) for _, w in told)  # told the deployment, the score is known
    _, _, worths, own = diag.prophet_game(("passive", 5))
    assert worths == [(2, own)]  # passive ends at its first chance
