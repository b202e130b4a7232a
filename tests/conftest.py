"""Shared pytest fixtures."""

from __future__ import annotations

import pathlib

from hypothesis import settings

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

# Property tests draw the same examples on every run (CI must not fail by luck);
# `pytest --hypothesis-profile=explore` searches fresh random examples instead.
settings.register_profile("hexclass", derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=500, print_blob=True)
settings.load_profile("hexclass")
