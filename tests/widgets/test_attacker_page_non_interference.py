"""CA p.7, seen from an attacker's page: two secret deployments that agree on everything
revealed so far give the same page, widget for widget (what its websocket would carry).

The attackers' copy is compared as JSON in tests/combined_arms/test_public_copy.py; here
the attacker's board app is built on each copy and every widget's visible state (texts,
button labels, options, the board's highlights) is compared, so a page that read anything
beyond its copy (the game object, a clock, a random number) would show up.
"""

from __future__ import annotations

import random

import pytest

from hexclass.classroom.combined_arms import apply
from hexclass.classroom.combined_arms.bots import make_policy
from hexclass.classroom.combined_arms.defender import DEFENDER, ai_choice
from hexclass.classroom.combined_arms.public import attacker_copy, from_json, to_json
from hexclass.widgets.ca_app import GameApp
from hexclass.widgets.ca_controller import LocalGame
from tests.combined_arms.test_public_copy import _public_defender, variant_game

TRAITS = ("value", "description", "options", "disabled", "tooltip", "placeholder")


def page_text(app: GameApp) -> list:
    """Every widget under the app, in order, with what a browser would be sent to show."""
    out, stack = [], [app.widget]
    while stack:
        w = stack.pop(0)
        row = [type(w).__name__]
        for name in TRAITS:
            if w.has_trait(name):
                row.append((name, repr(getattr(w, name))))
        if getattr(w, "layout", None) is not None and hasattr(w.layout, "display"):
            row.append(("display", w.layout.display))
        out.append(tuple(row))
        stack.extend(getattr(w, "children", ()) or ())
    hl = app.view.hl
    out.append(("board", sorted(map(repr, vars(hl).items()))))
    return out


def attacker_page(g) -> list:
    copy = from_json(to_json(attacker_copy(g)))  # what the referee publishes
    app = GameApp(
        LocalGame(copy), seat="player", seat_label="Team 1", solitaire=False, animate=False
    )
    return page_text(app)


@pytest.mark.parametrize("seed,pick", [(1, 0), (5, 1), (21, 2)])
def test_two_deployments_give_the_same_attacker_page_until_a_reveal(seed, pick):
    games = [variant_game(seed), variant_game(seed)]
    rng = random.Random(pick)
    first = ai_choice(games[0], DEFENDER, rng)
    second = next(d for d in (ai_choice(games[0], DEFENDER, rng) for _ in range(20)) if d != first)
    apply(games[0], first)
    apply(games[1], second)
    bot = make_policy("bold", seed)
    compared = 0
    for step in range(80):
        if games[0].enemy != games[1].enemy or games[0].over:
            break
        if step % 3 == 0:
            assert attacker_page(games[0]) == attacker_page(games[1]), f"step {step}"
            compared += 1
        g = games[0]
        if g.pending is not None and g.pending.power == DEFENDER:
            actions = [_public_defender(x) for x in games]
        else:
            action = bot.act(from_json(to_json(attacker_copy(g))), "player")
            actions = [action, action]
        for x, a in zip(games, actions):
            apply(x, a)
    assert compared >= 2
