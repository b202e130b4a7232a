"""Small pieces every lesson notebook shares.

* :func:`objectives` -- the "by the end of this lesson" box that opens each lesson;
* :class:`InlineError` -- an HTML line that shows a model's refusal in red instead of a
  traceback, and :meth:`InlineError.attempt` to run a model call under it;
* :class:`SelfCheck` -- a multiple-choice question that explains every wrong answer and
  lets the learner try again before it shows the right one;
* :func:`glossary` -- a folded box of the lesson's terms;
* :func:`worked` -- printed lines of a worked example that wrap on a narrow page;
* :func:`instructor_note` -- a folded box with advice for whoever teaches the lesson;
* :func:`figure_view` / :func:`show_figure` -- a matplotlib figure as a PNG image widget,
  which JupyterLab and Voilà both show without any plotting backend set up.

Nothing here knows about any game; the lesson widgets build on it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
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
table.hx-table td, table.hx-table th {border-bottom: 1px solid #ddd; padding: 3px 8px;
  text-align: left !important; vertical-align: top}
table.hx-table th {background: #f2f2f2}
.hx-glossary dl {margin: 0} .hx-glossary dt {margin-top: 4px} .hx-glossary dd {margin-left: 18px}
pre.hx-worked, .jp-OutputArea-output pre, .output_area pre {white-space: pre-wrap;
  overflow-wrap: break-word; word-break: normal; max-width: 100%}
.hx-coach, .hx-lesson {overflow-wrap: break-word; word-break: normal; hyphens: manual}
pre.hx-worked {background: #f6f6f3; border-left: 4px solid #999; padding: 6px 10px;
  font-size: 12.5px}
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
    """A question with several answers that lets the learner try again before it tells.

    ``answer`` is the index of the right option (lessons compute it from the model, so
    the question cannot drift from the rules). ``why`` explains the right answer, and
    ``hints`` -- one per option, required for every wrong one -- says what is wrong with
    that choice. A wrong pick gets its hint and a second chance; the right answer is
    shown only after ``tries`` wrong picks or when the learner asks for it.
    """

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        answer: int,
        why: str,
        hints: Sequence[str] | None = None,
        tries: int = 2,
    ) -> None:
        if not 0 <= answer < len(options):
            raise ValueError(f"answer must index one of the {len(options)} options, got {answer}")
        if hints is None or len(hints) != len(options):
            raise ValueError(
                f"give one hint per option ({len(options)}), saying why each wrong one is wrong"
            )
        silent = [o for i, (o, h) in enumerate(zip(options, hints)) if i != answer and not h]
        if silent:
            raise ValueError(f"every wrong answer needs a hint; none for {silent}")
        if tries < 1:
            raise ValueError(f"tries must be at least 1, got {tries}")
        self.question, self.options, self.answer = question, list(options), answer
        self.why, self.hints, self.tries = why, list(hints), tries
        self.choice = W.RadioButtons(
            options=self.options, index=None, layout=W.Layout(width="auto")
        )
        self.button = W.Button(description="Check", button_style="info", icon="check")
        self.show_button = W.Button(description="Show the answer", layout=W.Layout(width="auto"))
        self.feedback = W.HTML()
        self.button.on_click(lambda _b: self.check())
        self.show_button.on_click(lambda _b: self.reveal())
        head = W.HTML(f'{CSS}<div class="hx-lesson"><b>Self-check.</b> {esc(question)}</div>')
        self.widget = W.VBox(
            [head, self.choice, W.HBox([self.button, self.show_button]), self.feedback]
        )
        self.last: bool | None = None
        self.wrong: list[int] = []  # the wrong picks so far, in order
        self.revealed = False

    def choose(self, index: int) -> None:
        self.choice.index = index

    def check(self) -> bool | None:
        """Mark the current choice; returns True/False, or None when nothing is chosen.

        A wrong choice shows its hint; the right answer appears only once the learner
        has used up ``tries`` wrong picks (or pressed *Show the answer*).
        """
        i = self.choice.index
        if i is None:
            self.feedback.value = f'{CSS}<div class="hx-error">Pick an answer first.</div>'
            self.last = None
            return None
        right = i == self.answer
        if right:
            text = f'<span class="hx-verdict-right">Right.</span> {esc(self.why)}'
            self._finish()
        else:
            if i not in self.wrong:
                self.wrong.append(i)
            hint = f'<span class="hx-verdict-wrong">Not quite.</span> {esc(self.hints[i])}'
            if len(self.wrong) >= self.tries:
                text = f"{hint} {self._answer_html()}"
                self._finish()
            else:
                left = self.tries - len(self.wrong)
                text = f"{hint} <i>Try again ({left} more {'try' if left == 1 else 'tries'}).</i>"
        self.feedback.value = f'{CSS}<div class="hx-lesson">{text}</div>'
        self.last = right
        return right

    def reveal(self) -> None:
        """Show the right answer and why, without marking a choice."""
        self.feedback.value = f'{CSS}<div class="hx-lesson">{self._answer_html()}</div>'
        self._finish()

    def _answer_html(self) -> str:
        return f"The answer is “{esc(self.options[self.answer])}”: {esc(self.why)}"

    def _finish(self) -> None:
        self.revealed = True
        self.button.disabled = self.show_button.disabled = True


def glossary(
    terms: Mapping[str, str] | Sequence[tuple[str, str]], title: str = "Glossary"
) -> W.Accordion:
    """A folded box of the lesson's terms, each with a one-line meaning and its rule."""
    items = list(terms.items()) if isinstance(terms, Mapping) else list(terms)
    if not items:
        raise ValueError("a glossary needs at least one term")
    rows = "".join(f"<dt><b>{esc(t)}</b></dt><dd>{esc(d)}</dd>" for t, d in items)
    acc = W.Accordion(
        children=[W.HTML(f'{CSS}<div class="hx-lesson hx-glossary"><dl>{rows}</dl></div>')]
    )
    acc.set_title(0, f"{title} ({len(items)} terms)")
    acc.selected_index = None
    return acc


def worked(lines: Sequence[str] | str, title: str = "") -> W.HTML:
    """A worked example's printed lines in a box that wraps long lines instead of
    running off the page (a plain ``print`` overflows a narrow Voilà page)."""
    text = lines if isinstance(lines, str) else "\n".join(lines)
    head = f"<b>{esc(title)}</b>" if title else ""
    return W.HTML(
        f'{CSS}<div class="hx-lesson">{head}<pre class="hx-worked">{esc(text)}</pre></div>'
    )


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
