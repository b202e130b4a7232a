"""The Cherbourg and play-by-mail movement lessons have every part a lesson needs, cite
their sources, and show their widgets when executed (the execution itself is covered
for every lesson by test_notebooks_execute.py)."""

from __future__ import annotations

import pathlib

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = {"cherbourg-combat-table": "Cherbourg ", "movement-timing": 'PBM "'}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def cells(stem):
    return nbformat.read(ROOT / "lessons" / f"{stem}.ipynb", as_version=4).cells


@pytest.mark.parametrize("stem", LESSONS)
def test_lesson_has_every_required_part(stem):
    cs = cells(stem)
    text = "\n".join(c.source for c in cs)
    assert cs[0].cell_type == "markdown" and cs[0].source.startswith("# ")
    assert cs[1].cell_type == "code" and "objectives(" in cs[1].source
    assert "glossary(" in cs[2].source
    assert text.count("SelfCheck(") >= 3
    assert text.count("hints=[") >= 3  # every self-check explains its wrong answers
    assert "instructor_note(" in text and "For instructors" in text
    assert "What if" in text
    assert "Worked examples" in text
    assert text.count(LESSONS[stem]) >= 5, "sections of the source should be cited"
    assert "docs/rules-notes.md" in text  # the interpretations are pointed to


@pytest.mark.parametrize("stem", LESSONS)
def test_lesson_shows_its_widgets(stem):
    nb = nbformat.read(ROOT / "lessons" / f"{stem}.ipynb", as_version=4)
    NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    views = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if WIDGET_VIEW in o.get("data", {})
    ]
    assert len(views) >= 8
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert errors == []
