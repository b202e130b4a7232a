"""The learner-as-defender page, headless: deployment by clicks, choices by buttons (CA p.7)."""

from __future__ import annotations

import pytest

from hexclass.classroom.combined_arms.defender_game import DefenderGame
from hexclass.classroom.combined_arms.public import SealedDiceError, attacker_copy
from hexclass.widgets.defender_app import DefenderApp, defender_page


def deployed(seed: int = 12) -> DefenderApp:
    app = DefenderApp(DefenderGame(seed, "bold"))
    app.suggest.click()
    app.deploy.click()
    return app


def test_a_click_off_the_potential_counters_names_the_rule():
    app = DefenderApp(DefenderGame(12))
    board = app.game.state.board
    empty = next(h for h in board.hexes if h not in app.game.field.platoon_hexes)
    app._clicked(empty)
    assert "holds no potential enemy counter" in app.message.value
    assert "Enemy Player Variant" in app.message.value


def test_deploy_stays_disabled_until_every_constraint_is_met():
    app = DefenderApp(DefenderGame(12))
    assert app.deploy.disabled and "deploy exactly" in app.problems.value
    first = sorted(app.game.field.platoon_hexes)[0]
    app._clicked(first)
    assert app.view.hl.note_hexes == {first: "PLT"}
    app.suggest.click()
    assert not app.deploy.disabled and "Every constraint is met" in app.problems.value


def test_an_atg_is_marked_only_on_a_real_platoon_and_leaves_with_it():
    app = DefenderApp(DefenderGame(12))
    h = sorted(app.game.field.atg_hexes)[0]
    app.mode.value = "real ATG"
    app._clicked(h)  # no real platoon there yet: refused with the rule, nothing marked
    assert not app.game.platoons and not app.game.atgs
    assert "must stand with a real platoon" in app.message.value
    assert "Enemy Player Variant" in app.message.value
    app.mode.value = "real platoon"
    app._clicked(h)
    app.mode.value = "real ATG"
    app._clicked(h)
    assert app.view.hl.note_hexes == {h: "PLT+ATG"}
    assert (
        "Placed: <b>1</b> of" in app.problems.value
        and "<b>1</b> of 2 real ATGs" in app.problems.value
    )
    app.mode.value = "real platoon"
    app._clicked(h)
    assert h not in app.game.platoons and h not in app.game.atgs


def test_undo_takes_back_marks_a_suggestion_and_a_clear():
    app = DefenderApp(DefenderGame(12))
    assert app.undo.disabled
    first = sorted(app.game.field.platoon_hexes)[0]
    app._clicked(first)
    app.suggest.click()
    suggested = set(app.game.platoons)
    app.clear.click()
    assert not app.game.platoons
    app.undo.click()
    assert app.game.platoons == suggested
    app.undo.click()
    assert app.game.platoons == {first}
    app.undo.click()
    assert not app.game.platoons and app.undo.disabled


def test_the_force_roll_is_told_in_words_with_its_result():
    app = DefenderApp(DefenderGame(12))
    f = app.game.state.forces
    assert f"You command {f.platoons} real platoons and {f.atgs} real ATGs" in app.intro.value
    assert "thrown until one shows 4-6 and the other 1-3" in app.intro.value
    assert "You command the defenders against the bold attacker bot" in app.heading.value
    assert "place your real counters in secret" in app.heading.value


def test_the_board_row_never_stretches_the_canvas_to_the_side_panel():
    app = DefenderApp(DefenderGame(12))
    row = app.widget.children[2]
    assert row.layout.align_items == "flex-start"
    assert row.children[0].children[0] is app.view.widget


def test_the_phase_line_says_what_the_defender_waits_for():
    app = deployed()
    g = app.game
    assert "your enemy phase: reveals, targets, mortars" in app.heading.value
    g.submit(next(o.action for o in g.options()))
    app.refresh()
    if g.stage == "attacker":
        assert "The attackers are" in app.prompt.value
        app.play_on.click()
        assert "The attacker took" in app.message.value


def test_after_deploying_the_attacker_plays_until_the_defender_must_choose():
    app = deployed()
    assert app.game.stage in ("defender", "over")
    assert app.game.state.turn >= 1 and app.errors == []


def test_a_whole_game_by_buttons_reaches_the_score_with_no_error():
    app = deployed(12)
    for _ in range(500):
        g = app.game
        if g.stage == "over":
            break
        if g.stage == "attacker":
            app.play_on.click()
        elif g.state.pending.kind == "reveals":
            app.choices.children[-1].click()  # confirm (nothing picked: stay hidden)
        else:
            app.choices.children[0].children[0].click()
    assert app.game.stage == "over" and "Score" in app.prompt.value
    result = app.game.state.result
    verdict = "the attackers win" if result.won else "your defence holds: you win"
    assert f"{verdict}.</b> The attackers scored {result.total} points" in app.prompt.value
    assert app.errors == []


def test_the_attacker_bot_plans_on_a_copy_without_the_secret():
    g = DefenderGame(12)
    g.suggest_deployment()
    assert g.deploy().accepted
    seen = []
    real_act = g.bot.act

    def spy(state, seat):
        seen.append(state)
        return real_act(state, seat)

    g.bot.act = spy
    g.run_attacker()
    assert seen and all(s.secret is None and s.forces is None for s in seen)
    with pytest.raises(SealedDiceError):
        attacker_copy(g.state).dice.d6()


def test_bad_page_parameters_are_named_and_replaced():
    app = defender_page({"seed": "abc", "bot": "genius", "handicap": "-1"})
    text = app.message.value
    assert "seed=&#x27;abc&#x27; is not a whole number" in text
    assert "bot=&#x27;genius&#x27;" in text and "handicap" in text
    assert app.game.bot_name == "bold"
