"""The shared lesson pieces: self-check questions, inline errors, objectives, figures."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from classroom.toaw import SupplySettings
from widgets.lesson_kit import InlineError, SelfCheck, figure_view, objectives, show_figure


def question():
    return SelfCheck(
        "2 + 2?",
        ["3", "4", "5"],
        answer=1,
        why="two pairs make four",
        hints=["one short", "", "one over"],
    )


def test_a_right_answer_is_marked_right_and_explained():
    q = question()
    q.choose(1)
    assert q.check() is True
    assert "Right." in q.feedback.value and "two pairs make four" in q.feedback.value


def test_a_wrong_answer_gets_its_hint_and_the_right_answer():
    q = question()
    q.choose(2)
    assert q.check() is False
    text = q.feedback.value
    assert "Not quite." in text and "one over" in text and "“4”" in text
    assert "Right." not in text


def test_checking_with_nothing_chosen_asks_for_a_choice():
    q = question()
    assert q.check() is None and "Pick an answer first" in q.feedback.value


def test_pressing_the_button_checks():
    q = question()
    q.choose(1)
    q.button.click()
    assert q.last is True


def test_a_question_whose_answer_is_not_an_option_is_refused():
    with pytest.raises(ValueError, match="answer must index"):
        SelfCheck("?", ["a", "b"], answer=2, why="")


def test_inline_error_shows_the_models_message_instead_of_raising():
    err = InlineError()
    assert err.attempt(SupplySettings, radius=-1) is None
    assert err.is_error and "supply radius must be a whole number from 0 to 100" in err.widget.value
    ok = err.attempt(SupplySettings, radius=3)
    assert ok.radius == 3 and err.widget.value == "" and not err.is_error


def test_inline_error_escapes_html():
    err = InlineError()
    err.show("<script>x</script>")
    assert "<script>" not in err.widget.value and "&lt;script&gt;" in err.widget.value


def test_objectives_list_every_item():
    box = objectives(["read a CPA", "use <b> safely"])
    assert "<li>read a CPA</li>" in box.value and "&lt;b&gt;" in box.value


def test_show_figure_puts_png_bytes_in_the_view():
    view = figure_view()
    fig = Figure()
    fig.subplots().plot([0, 1], [1, 0])
    show_figure(view, fig)
    assert view.value[:8] == b"\x89PNG\r\n\x1a\n"
