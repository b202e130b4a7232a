"""Every activity of every lesson can be done in a Voila page, where code is hidden: no
lesson's text asks the learner to edit or re-run code (issue 25)."""

from __future__ import annotations

import pathlib
import re

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))

CODE_EDITS = [
    r"\bin code\b",
    r"\b(change|edit|modify|alter)\w*\b[^.]{0,60}\b(cell|code|notebook)\b",
    r"\b(cell|code) below\b[^.]{0,60}\b(change|edit|modify)",
    r"\bre-?run\b",
    r"\bre-?execute\b",
    r"`[^`]+` (to|into|for) `[^`]+`",  # "change `3` to `2`"
    r"\bshift[- ]enter\b",
    r"\bjupyterlab only\b",
]


def lesson_text(path) -> list[tuple[int, str]]:
    nb = nbformat.read(path, as_version=4)
    return [(i, c.source) for i, c in enumerate(nb.cells) if c.cell_type == "markdown"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_no_lesson_asks_the_learner_to_edit_code(path):
    found = []
    for i, text in lesson_text(path):
        flat = " ".join(text.split())
        for pattern in CODE_EDITS:
            for m in re.finditer(pattern, flat, re.IGNORECASE):
                found.append(f"cell {i}: ...{flat[max(0, m.start() - 40) : m.end() + 40]}...")
    assert found == [], "\n".join(found)


def test_the_scan_catches_the_phrases_it_is_for():
    bad = [
        "Change one thing in the cell below and see.",
        "A what-if in code, against the lesson map.",
        "Change `3` to `2` or `4` and read the table again.",
        "Edit the code and run it again.",
        "the same sequence comes back when you rerun the lesson",
    ]
    for text in bad:
        assert any(re.search(p, text, re.IGNORECASE) for p in CODE_EDITS), text
    fine = "Choose 2 or 4 players with the buttons and read the table again."
    assert not any(re.search(p, fine, re.IGNORECASE) for p in CODE_EDITS)
