"""The shared lesson pieces: self-check questions, inline errors, objectives, figures."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from hexclass.classroom.toaw import SupplySettings
from hexclass.widgets.lesson_kit import (
    InlineError,
    SelfCheck,
    figure_view,
    glossary,
    objectives,
    show_figure,
    worked,
)


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


def test_a_wrong_answer_gets_its_hint_and_another_try_without_the_answer():
    q = question()
    q.choose(2)
    assert q.check() is False
    text = q.feedback.value
    assert "Not quite." in text and "one over" in text and "Try again" in text
    assert "“4”" not in text and "two pairs" not in text  # the answer is not given away yet
    assert not q.button.disabled and not q.revealed
    q.choose(1)
    assert q.check() is True and "Right." in q.feedback.value


def test_the_answer_is_shown_after_the_last_wrong_try():
    q = question()
    q.choose(2)
    q.check()
    q.choose(0)
    assert q.check() is False
    text = q.feedback.value
    assert "one short" in text and "“4”" in text and "two pairs make four" in text
    assert q.revealed and q.button.disabled
    assert q.wrong == [2, 0]


def test_the_same_wrong_pick_twice_counts_once():
    q = question()
    q.choose(2)
    q.check()
    q.check()
    assert not q.revealed and q.wrong == [2]


def test_show_the_answer_reveals_it_at_once():
    q = question()
    q.show_button.click()
    assert q.revealed and "“4”" in q.feedback.value and "two pairs make four" in q.feedback.value


def test_every_wrong_answer_must_explain_itself():
    with pytest.raises(ValueError, match="every wrong answer needs a hint; none for \\['5'\\]"):
        SelfCheck("2 + 2?", ["3", "4", "5"], answer=1, why="", hints=["one short", "", ""])
    with pytest.raises(ValueError, match="one hint per option"):
        SelfCheck("2 + 2?", ["3", "4"], answer=1, why="")


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
        SelfCheck("?", ["a", "b"], answer=2, why="", hints=["x", "y"])


def test_glossary_lists_its_terms_folded():
    box = glossary({"ZOC": "the hexes next to a combat unit", "<b>": "escaped"})
    html = box.children[0].value
    assert "<dt><b>ZOC</b></dt>" in html and "&lt;b&gt;" in html
    assert box.selected_index is None and "2 terms" in box.get_title(0)
    with pytest.raises(ValueError):
        glossary({})


def test_worked_example_lines_wrap_instead_of_overflowing():
    box = worked(["a very long line " * 20, "<tag>"], title="Example")
    assert 'class="hx-worked"' in box.value and "&lt;tag&gt;" in box.value
    assert "white-space: pre-wrap" in box.value


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
