"""The enemy-player variant lesson's widgets (widgets/variant_lesson.py): each number they
show is the engine's, and each refusal is sorted under the constraint it names.

Board: dice seed 6, whose force roll is 4 real platoons and 2 real ATGs (after a re-roll)
on 13 posts; the lesson uses the same board.
"""

from __future__ import annotations

import itertools
import random
import re
from html import unescape

import pytest

from hexclass.classroom.combined_arms.defender_game import DefenderGame
from hexclass.classroom.combined_arms.enemy_player import (
    Deployment,
    SecretForces,
    deployment_problems,
    legal_deployments,
)
from hexclass.classroom.combined_arms.public import attacker_copy
from hexclass.widgets.variant_lesson import (
    CONSTRAINTS,
    DeploymentLab,
    TwoViews,
    constraint_of,
    deployment_funnel,
    force_roll_table,
    real_shares,
    reveal_rows,
)


def text(markup: str) -> str:
    return unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", markup, flags=re.S))


@pytest.fixture(scope="module")
def lab():
    return DeploymentLab(seed=6)


@pytest.mark.parametrize("seed", [1, 6, 7, 11])
def test_every_engine_refusal_names_one_constraint(seed):
    """Random placements (any size, ATGs anywhere among the posts) give refusals that
    each match exactly one constraint: a change in the engine's wording fails here."""
    g = DefenderGame(seed)
    fld, forces = g.field, g.state.forces
    posts, guns = sorted(fld.platoon_hexes), sorted(fld.atg_hexes)
    rng = random.Random(seed)
    seen = set()
    for _ in range(150):
        platoons = frozenset(rng.sample(posts, rng.randint(0, min(7, len(posts)))))
        atgs = frozenset(rng.sample(guns, rng.randint(0, min(3, len(guns)))))
        for p in deployment_problems(fld, forces, Deployment(platoons, atgs)):
            key = constraint_of(p)
            matches = [k for k, _t, words in CONSTRAINTS if any(w in p.message for w in words)]
            assert matches == [key], p.message
            seen.add(key)
    assert {"count", "with", "adjacent", "sides", "platoon rows"} <= seen


def test_a_made_up_refusal_is_not_sorted_silently():
    from hexclass.classroom.combined_arms.reasons import VARIANT, Illegal

    with pytest.raises(ValueError, match="no balancing constraint"):
        constraint_of(Illegal(VARIANT, "the moon is full"))


def test_funnel_ends_with_exactly_the_engines_legal_placements(lab):
    fld = lab.game.field
    funnel = deployment_funnel(fld, 4)
    counts = [n for _name, n in funnel]
    assert counts[0] == len(list(itertools.combinations(fld.platoon_hexes, 4)))
    assert counts == sorted(counts, reverse=True)
    legal = {d.platoons for d in legal_deployments(fld, SecretForces(4, 0))}
    assert counts[-1] == len(legal)
    assert counts == [715, 709, 277, 33]  # the board the lesson talks about


def test_shares_count_the_engines_legal_deployments_and_find_the_sure_dummy(lab):
    fld, forces = lab.game.field, lab.state.forces
    n, shares = real_shares(fld, forces)
    legal = list(legal_deployments(fld, forces))
    assert n == len(legal) == 91
    assert set(shares) == set(fld.platoon_hexes)
    sure = [h for h, p in shares.items() if p == 0]
    assert [lab.state.label(h) for h in sure] == ["6h"]
    # and the engine refuses every deployment that makes 6h real
    h6 = lab.state.board.hex_at("6h")
    for d in legal[:20]:
        swapped = (d.platoons - {next(iter(d.platoons - d.atgs))}) | {h6}
        assert deployment_problems(fld, forces, Deployment(swapped, d.atgs))


def test_the_lessons_board_took_two_throws_for_4_platoons_and_2_atgs():
    forces = DefenderGame(6).state.forces  # the lesson's text says so
    assert (forces.platoons, forces.atgs, len(forces.rolls)) == (4, 2, 2)


def test_force_roll_keeps_half_the_throws_and_every_force_alike():
    kept, by_force = force_roll_table()
    assert kept == 18
    assert set(by_force) == {(p, a) for p in (4, 5, 6) for a in (1, 2, 3)}
    assert set(by_force.values()) == {2}


def test_reveal_rows_are_the_engines_odds():
    from hexclass.classroom.combined_arms import new_game

    rows = reveal_rows(new_game(6))
    by_post = {r[0]: r for r in rows}
    assert by_post["4a"][1].startswith("1 in 2")  # +1 for the ATG counter in the hex
    assert by_post["9a"][1].startswith("1 in 3") and by_post["9a"][2] == "no ATG counter"


def test_lab_click_marks_a_platoon_and_shows_the_engines_refusals():
    lab = DeploymentLab(seed=6)
    board = lab.state.board
    lab.click(board.hex_at("4a"))
    shown = text(lab.panel.value)
    assert "deploy exactly 4 real platoons (you have placed 1)" in shown
    assert "the force roll's numbers" in shown
    lab.click(board.hex_at("4b"))  # no potential counter there
    assert "holds no potential enemy counter" in lab.message.value
    assert lab.game.platoons == {board.hex_at("4a")}
    lab.mode.value = "real ATG"
    lab.click(board.hex_at("9a"))  # a post without an ATG counter
    assert "holds no potential ATG counter" in lab.message.value
    lab.place(["4a", "9a", "8e", "9g"], ["4a", "8e"])
    shown = text(lab.panel.value)
    assert "a real platoon in busy hexrows" in shown and "hexrow 5" in shown
    assert "2 on each side" not in shown
    lab.suggest()
    assert lab.problems() == [] and "Legal" in text(lab.panel.value)
    lab.clear()
    assert not lab.game.platoons and "you have placed 0" in text(lab.panel.value)


def test_two_views_hold_no_secret_on_the_attackers_side():
    views = TwoViews(seed=6)
    s = views.game.state
    assert s.turn >= 3 and s.secret is not None
    a = attacker_copy(s)
    assert a.secret is None and a.forces is None and a.seed == 0
    for label, deployed, copy in views.rows():
        h = s.board.hex_at(label)
        assert deployed.startswith("real") == (h in s.secret.platoons)
        post = a.enemy.get(h)
        if post is None or post.platoon == "potential":
            assert "real" not in copy.split(",")[0]
    facts = {row[0]: row for row in views.facts()}
    assert facts["deployment"][2] == "None" and facts["force roll"][2] == "None"
    views.play(1)
    assert views.game.state.turn == 2 and "Played through turn 1" in text(views.out.value)
