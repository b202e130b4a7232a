"""The approach executor: legal, deterministic, and it keeps out of the enemy's reach.

Its mortar reach must be the engine's own: a hex counts as spotted exactly when the
engine's enemy mortars could pick it (``mortars.enemy_mortar_targets``).
"""

from __future__ import annotations

import random

from hexclass.classroom.combined_arms import Options, apply, check, mortars, movement, record
from hexclass.classroom.combined_arms.board import DIST
from hexclass.classroom.combined_arms.bots import make_policy
from hexclass.classroom.combined_arms.bots.approach import (
    ApproachBest,
    ApproachPolicy,
    ApproachRule,
    mortar_risk,
)
from hexclass.classroom.combined_arms.bots.assessment import _company
from hexclass.classroom.combined_arms.bots.search import SearchBudget
from hexclass.classroom.combined_arms.bots.steady import SteadyPolicy
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.state import MortarTarget

P = "player"


def _play(seed: int, bot):
    g = new_game(seed, Options(auto_decisions=True))
    for _ in range(3000):
        if g.over:
            break
        a = bot.act(g, P)
        assert check(g, a) is None, f"the executor gave an order the engine refuses: {a}"
        apply(g, a)
    return g


def test_every_order_is_legal_and_games_repeat():
    for seed in (3, 11):
        a = _play(seed, ApproachPolicy())
        b = _play(seed, ApproachPolicy())
        assert a.over and record(a) == record(b)


def test_registry_names():
    assert make_policy("approach", 1).name == "approach"
    assert make_policy("approach_best", 1).name == "approach_best"


def _posts():
    return {"5c": "potential", "6f": "real", "4h": "potential spent"}


def test_mortar_reach_is_the_engines_target_list():
    """For every hex, one platoon there is a possible enemy mortar target exactly when
    mortar_risk is above 0; the value is availability (5+: 2 in 6) times a hit (2+)."""
    base = sketch({"3d": "woods", "4e": "crest"}, {}, _posts(), turn=3)
    seen = 0
    for h in base.board.hexes:
        if h in base.enemy:
            continue
        g = base.copy()
        g.place(g.units["D1"], h)
        spotted = h in {t.hex for t in mortars.enemy_mortar_targets(g)}
        risk = mortar_risk(g, h, {})
        assert (risk > 0) == spotted, g.label(h)
        if spotted:
            seen += 1
            assert abs(risk - (2 / 6) * (5 / 6)) < 1e-12
    assert seen > 5  # the test saw both answers


def test_mortar_reach_rests_after_firing_and_counts_cover():
    g = sketch({}, {"D1": "2c"}, _posts(), turn=3)
    h = g.units["D1"].hex
    assert mortar_risk(g, h, {}) > 0
    assert mortar_risk(g, h, {e: 1.0 for e in g.enemy}) == 0.0  # every spotter pinned first
    g.enemy_mortar = MortarTarget(h, 2)  # fired last turn: they rest this one
    assert mortar_risk(g, h, {}) == 0.0


def _first_rifle_move(bot, g):
    for _ in range(40):
        a = bot.act(g, P)
        if getattr(a, "unit", "")[:1] in ("D", "E", "F") and hasattr(a, "to"):
            return a
        if type(a).__name__ in ("EndPhase", "EndGame"):
            return None
        apply(g, a)
    return None


def test_rifles_step_back_out_of_reach_where_steady_steps_in():
    """D company two rows from the rear edge, a revealed enemy platoon in the open ahead
    that sees (and spots for its mortars) every hex near them: steady walks a platoon
    towards it, the approach executor takes the hex least within the enemy's reach."""
    units = {"D1": "2c", "D2": "2d", "D3": "2e"}
    steady_g = sketch({}, units, {"6d": "real"}, turn=2, options=Options(auto_decisions=True))
    approach_g = steady_g.copy()
    bot = ApproachPolicy()
    a = _first_rifle_move(bot, approach_g)
    moved = _first_rifle_move(SteadyPolicy(), steady_g)
    assert a is not None and moved is not None
    t, u = bot._turn, approach_g.units[a.unit]
    options = [h for _, h, _ in movement.entries_and_moves(approach_g, u)] + [u.hex]
    risk = {h: bot.stand_risk(approach_g, t, h) for h in options}
    assert risk[a.to] == min(risk.values()) < risk[u.hex]
    post = steady_g.board.hex_at("6d")
    assert DIST[moved.to][post] < DIST[a.to][post]  # steady closes the distance
    assert bot.stand_risk(approach_g, t, moved.to) > risk[a.to]


def test_approach_best_plans_without_touching_the_game_dice():
    g = new_game(5, Options(auto_decisions=True))
    before, snap = g.dice.snapshot(), g.snapshot()
    bot = ApproachBest(random.Random(1), SearchBudget(rollouts=2))
    bot.act(g, P)
    assert bot.history and "approach" in bot.history[-1].values
    assert g.dice.snapshot() == before and g.snapshot() == snap


def _cost(enemy: dict, staging: bool):
    g = sketch({}, {"D1": "2c", "D2": "2d", "D3": "2e"}, enemy, turn=2)
    bot = ApproachPolicy(rule=ApproachRule(staging=staging))
    bot._plan_turn(g)
    return bot._objective_cost(g, _company(g, "D"), g.board.hex_at("6d"))


def test_staging_drops_a_post_with_no_hex_out_of_the_others_reach():
    """On open ground a second post 3 hexes from the objective sees (and spots for its
    mortars) every hex 2 away from it: with staging the objective is not attacked; alone,
    or without staging, it is (its own fire is left to the covering fire)."""
    alone = {"6d": "real"}
    pair = {"6d": "real", "6g": "potential"}
    assert _cost(alone, True) is not None and _cost(alone, True) == _cost(alone, False)
    assert _cost(pair, False) is not None
    assert _cost(pair, True) is None
