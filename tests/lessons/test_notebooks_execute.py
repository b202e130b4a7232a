"""Every lesson notebook runs top to bottom in a fresh python3 kernel from the repo root,
is committed without outputs, and (for the CNA and TOAW lessons) has the parts every
lesson must have: objectives first, worked examples, a what-if, self-checks, a note for
instructors."""

from __future__ import annotations

import json
import pathlib
import re
import time

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))
MINE = (
    "cna-sequence-of-play",
    "cna-capability-and-cohesion",
    "toaw-supply",
    "play-combined-arms",
    "ca-fire-and-odds",
    "ca-defenders-mind",
    "ca-playing-as-a-team",
    "enemy-player-variant",
)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_three_lessons_exist():
    names = {p.stem for p in LESSONS}
    assert set(MINE) <= names


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_is_committed_without_outputs(path):
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{path.name} has stored outputs"
            assert cell["execution_count"] is None, f"{path.name} has execution counts"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_executes_without_error(path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    started = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    print(f"{path.name}: {time.perf_counter() - started:.1f} s")
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert errors == []
    if path.stem in MINE:
        views = [
            o
            for c in nb.cells
            if c.cell_type == "code"
            for o in c.outputs
            if WIDGET_VIEW in o.get("data", {})
        ]
        assert len(views) >= 6, "expected the lesson's widgets to be displayed"


def _sources(path):
    nb = nbformat.read(path, as_version=4)
    return nb.cells, "\n".join(c.source for c in nb.cells)


@pytest.mark.parametrize("stem", MINE)
def test_lesson_has_every_required_part(stem):
    cells, text = _sources(ROOT / "lessons" / f"{stem}.ipynb")
    assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# ")
    assert cells[1].cell_type == "code" and "objectives(" in cells[1].source
    assert text.count("SelfCheck(") >= 3
    assert "instructor_note(" in text and "For instructors" in text
    assert "What if" in text or "what-if" in text.lower()
    assert "Worked example" in text or "worked examples" in text
    assert "glossary(" in text, "every lesson has a glossary box"
    ca = r'CA (p\.\d+|\\?")'
    prefix = {"toaw": r"TOAW 9\.1\.7", "cna-": "CNA ", "play": ca, "ca-": ca, "enemy-": ca}
    cite = next(v for k, v in prefix.items() if stem.startswith(k))
    assert len(re.findall(cite, text)) >= 5, "sections of the source should be cited"
