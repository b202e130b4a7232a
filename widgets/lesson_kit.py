"""Small pieces every lesson notebook shares.

* :func:`objectives` -- the "by the end of this lesson" box that opens each lesson;
* :class:`InlineError` -- an HTML line that shows a model's refusal in red instead of a
  traceback, and :meth:`InlineError.attempt` to run a model call under it;
* :class:`SelfCheck` -- a multiple-choice question that says right or wrong, and why;
* :func:`instructor_note` -- a folded box with advice for whoever teaches the lesson;
* :func:`figure_view` / :func:`show_figure` -- a matplotlib figure as a PNG image widget,
  which JupyterLab and Voilà both show without any plotting backend set up.

Nothing here knows about any game; the lesson widgets build on it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

CSS = """
<style>
.hx-lesson {font-family: sans-serif; font-size: 14px; line-height: 1.45}
.hx-objectives {border-left: 5px solid #0072b2; background: #eef5fb; padding: 8px 14px;
  margin: 4px 0}
.hx-objectives b {font-size: 15px}
.hx-error {color: #b00020; font-weight: bold; font-family: sans-serif; font-size: 13px}
.hx-ok {color: #1b5e20; font-family: sans-serif; font-size: 13px}
.hx-note {background: #fff8e1; border-left: 5px solid #e69f00; padding: 8px 14px}
.hx-verdict-right {color: #1b5e20; font-weight: bold}
.hx-verdict-wrong {color: #b00020; font-weight: bold}
.hx-table {border-collapse: collapse; font-size: 13px}
.hx-table td, .hx-table th {border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left;
  vertical-align: top}
.hx-table th {background: #f2f2f2}
</style>
"""

# Errors a model raises for impossible or forbidden input. Both model packages derive
# theirs from ValueError (CNAInputError, RuleViolation, SupplyInputError).
MODEL_ERRORS: tuple[type[BaseException], ...] = (ValueError, TypeError)


def esc(text: object) -> str:
    return html.escape(str(text))


def objectives(items: Sequence[str], title: str = "By the end of this lesson you can") -> W.HTML:
    """The box that opens a lesson: what the learner will be able to do."""
    lis = "".join(f"<li>{esc(i)}</li>" for i in items)
    return W.HTML(
        f'{CSS}<div class="hx-lesson hx-objectives"><b>{esc(title)}</b><ul>{lis}</ul></div>'
    )


def instructor_note(paragraphs: Sequence[str], title: str = "For instructors") -> W.Accordion:
    """A folded box of teaching advice; closed by default so learners are not distracted."""
    body = "".join(f"<p>{esc(p)}</p>" for p in paragraphs)
    acc = W.Accordion(children=[W.HTML(f'{CSS}<div class="hx-lesson hx-note">{body}</div>')])
    acc.set_title(0, title)
    acc.selected_index = None
    return acc


class InlineError:
    """A one-line message area under a widget: red for refusals, green for confirmations.

    ``attempt(fn, *args)`` calls a model function and returns its result; if the model
    raises one of :data:`MODEL_ERRORS` the message is shown here and None is returned,
    so a click never ends in a traceback.
    """

    def __init__(self) -> None:
        self.widget = W.HTML(value="", layout=W.Layout(min_height="22px"))
        self.message = ""
        self.is_error = False

    def show(self, message: str) -> None:
        self.message, self.is_error = str(message), True
        self.widget.value = f'{CSS}<div class="hx-error">⚠ {esc(message)}</div>'

    def ok(self, message: str) -> None:
        self.message, self.is_error = str(message), False
        self.widget.value = f'{CSS}<div class="hx-ok">{esc(message)}</div>'

    def clear(self) -> None:
        self.message, self.is_error = "", False
        self.widget.value = ""

    def attempt(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
        except MODEL_ERRORS as exc:
            self.show(exc)
            return None
        self.clear()
        return result


class SelfCheck:
    """A question with several answers; Check says whether the choice was right, and why.

    ``answer`` is the index of the right option (lessons compute it from the model, so
    the question cannot drift from the rules). ``why`` explains the right answer;
    ``hints`` (optional, one per option) says what is wrong with a wrong choice.
    """

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        answer: int,
        why: str,
        hints: Sequence[str] | None = None,
    ) -> None:
        if not 0 <= answer < len(options):
            raise ValueError(f"answer must index one of the {len(options)} options, got {answer}")
        if hints is not None and len(hints) != len(options):
            raise ValueError("give one hint per option, or none")
        self.question, self.options, self.answer = question, list(options), answer
        self.why, self.hints = why, list(hints) if hints else None
        self.choice = W.RadioButtons(
            options=self.options, index=None, layout=W.Layout(width="auto")
        )
        self.button = W.Button(description="Check", button_style="info", icon="check")
        self.feedback = W.HTML()
        self.button.on_click(lambda _b: self.check())
        head = W.HTML(f'{CSS}<div class="hx-lesson"><b>Self-check.</b> {esc(question)}</div>')
        self.widget = W.VBox([head, self.choice, self.button, self.feedback])
        self.last: bool | None = None

    def choose(self, index: int) -> None:
        self.choice.index = index

    def check(self) -> bool | None:
        """Mark the current choice; returns True/False, or None when nothing is chosen."""
        i = self.choice.index
        if i is None:
            self.feedback.value = f'{CSS}<div class="hx-error">Pick an answer first.</div>'
            self.last = None
            return None
        right = i == self.answer
        if right:
            text = f'<span class="hx-verdict-right">Right.</span> {esc(self.why)}'
        else:
            hint = f" {esc(self.hints[i])}" if self.hints and self.hints[i] else ""
            text = (
                f'<span class="hx-verdict-wrong">Not quite.</span>{hint} '
                f"The answer is “{esc(self.options[self.answer])}”: {esc(self.why)}"
            )
        self.feedback.value = f'{CSS}<div class="hx-lesson">{text}</div>'
        self.last = right
        return right


def figure_view(width: str = "560px") -> W.Image:
    """An image widget for matplotlib figures; it shows the same in JupyterLab and Voilà."""
    layout = W.Layout(
        width=width,
        max_width="100%",
        height="auto",
        flex="0 1 auto",
        align_self="flex-start",  # never stretched to a taller neighbour's height in a row
        object_fit="contain",
    )
    return W.Image(format="png", layout=layout)


def figure_png(fig) -> bytes:
    """A matplotlib figure as PNG bytes."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi)
    return buf.getvalue()


def show_figure(view: W.Image, fig) -> None:
    """Show ``fig`` in ``view`` (made by :func:`figure_view`)."""
    view.value = figure_png(fig)


def table_html(headers: Sequence[str], rows: Sequence[Sequence[object]], raw: bool = False) -> str:
    """A plain HTML table; cells are escaped unless ``raw``."""
    cell = (lambda v: str(v)) if raw else esc
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in r) + "</tr>" for r in rows)
    return f'{CSS}<table class="hx-table"><tr>{head}</tr>{body}</table>'
