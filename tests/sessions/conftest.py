"""Fixtures for the co-op store tests: a fresh SQLite file per test."""

from __future__ import annotations

import pytest

from classroom.sessions import create_class, open_store


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "class.db")
    yield s
    s.close()


@pytest.fixture
def made(store):
    """One class of two teams on seed 7, five seats each."""
    return create_class(store, teams=2, seed=7)


@pytest.fixture
def game(made):
    """Team 1's game id."""
    return made.teams[0].game_id
