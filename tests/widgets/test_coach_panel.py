"""The coach panel on the solitaire app: Suggest shows orders with odds and rule
sections and selects the first platoon; Review waits for the end of the game."""

from __future__ import annotations

from hexclass.classroom.combined_arms import EndGame, EndPhase
from hexclass.widgets.ca_app import solitaire_app


def test_solitaire_app_has_the_coach_and_suggest_explains_orders():
    app = solitaire_app(seed=3)
    assert app.coach.widget in app.side.children
    dice = app.state.dice.snapshot()
    app.coach.suggest_button.click()
    text = app.coach.text.value
    assert "<ol>" in text and "CA &quot;" in text, text
    assert app.state.dice.snapshot() == dice  # thought on copies only
    first = app.coach.last.orders[0].action
    assert app.game.check(first).accepted  # the suggestion is a legal order now
    if getattr(first, "unit", None):
        assert app.selected == first.unit
    # when sitting the turn out is worth as much as attacking, the panel says why, in a
    # paragraph of its own (the pick depends on the playouts the time allowed)
    waiting = app.coach.last.plan in ("hold", "end")
    assert ("<p><b>Why</b>: " in text) == waiting, text


def test_review_waits_for_the_end_then_lists_turns():
    app = solitaire_app(seed=4)
    app.coach.review_button.click()
    assert "once the game is over" in app.coach.text.value
    app.act(EndPhase("player"))
    app.act(EndPhase("player"))
    app.act(EndGame("player"))
    assert app.state.over
    app.coach.review_button.click()
    assert "Turn" in app.coach.text.value or "Well played" in app.coach.text.value


def test_an_ended_battle_shows_its_turns_as_an_image_in_the_score_tab():
    """The Score tab's chart is a PNG inside HTML: seat pages run on hexclass' own front
    end, which draws no Output widget (frontend/README.md)."""
    app = solitaire_app(seed=3)
    from hexclass.classroom.combined_arms import legal_actions

    for _ in range(12):  # end phases until the battle may be ended (before turn 2), then end it
        if app.state.over:
            break
        legal = legal_actions(app.state, "player")
        app.act(EndGame("player") if EndGame("player") in legal else EndPhase("player"))
    assert app.state.over and app.tabs.selected_index == 2
    assert "<img alt='infantry losses, your platoons and enemy counters broken per turn'" in (
        app.score_plot.value
    )
    assert "src='data:image/png;base64," in app.score_plot.value


def test_a_second_suggest_in_the_turn_plays_on_the_attack_chosen_at_its_start():
    """The lookahead runs once a turn, at its start, as ``best`` plays: past it the panel
    passes the setting chosen then, and the coach gives that attack's next orders."""
    app = solitaire_app(seed=3)
    app.coach.suggest_button.click()
    first = app.coach.last
    assert first.values and first.plan.startswith("doctrine_"), first.lines()
    app.act(first.orders[0].action)
    app.coach.suggest_button.click()
    again = app.coach.last
    assert again.values == {} and again.plan == first.plan, again.lines()
    assert again.headline.startswith("Plan for this turn: the "), again.headline
