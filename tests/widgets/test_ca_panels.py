"""The enemy phase in plain words: every event the engine logs can be explained."""

from __future__ import annotations

from hexclass.classroom.combined_arms import Options
from hexclass.classroom.combined_arms.bot import make_policy, play_game
from hexclass.widgets import ca_panels as P


def test_every_enemy_event_of_a_whole_game_is_explained_with_its_rule():
    state = play_game(7, make_policy("bold", 7), Options(auto_decisions=True))
    enemy = [e for e in state.events if e.phase == "enemy"]
    assert enemy
    for e in enemy:
        text = P.explain_enemy_event(state, e)
        assert text
        if e.kind == "ai":
            assert "CA &quot;Enemy Decisions&quot;" in text or "CA &quot;" in text
    reveals = [e for e in enemy if str(e.data.get("purpose", "")).startswith("reveal")]
    assert reveals
    for e in reveals:
        text = P.explain_enemy_event(state, e)
        assert "needed" in text and "Enemy Decisions" in text
        w = e.data.get("weighed") or {}
        if "payoff" in w:
            assert f"threshold of {w['threshold']}" in text
    assert "<ol>" in P.enemy_phase_html(state, enemy)


def test_the_phase_bar_names_who_the_game_waits_for():
    from hexclass.classroom.combined_arms.game import new_game
    from hexclass.classroom.combined_arms.state import Decision

    s = new_game(3)
    s.pending = Decision("reveals", (), power="defender", prompt="the defender is deciding")
    assert "waiting for the defender" in P.phase_bar(s)
    s.pending = Decision("roll_order", (), power="command")
    assert "waiting for the commander&#x27;s choice" in P.phase_bar(s)
