"""Fixtures shared by the seat-page tests of this folder."""

from __future__ import annotations

import pytest

from hexclass.classroom.sessions import create_class, open_seat, open_store
from hexclass.widgets.coop_seat import SeatApp


@pytest.fixture
def kernels(tmp_path):
    """``kernel(token)``: a seat page in its own 'kernel' (its own store connection);
    ``kernel.team(**kw)``: a class of one team in that store, seat name -> token."""
    path = tmp_path / "class.db"
    opened = []

    def kernel(token):
        store = open_store(path)
        opened.append(store)
        return SeatApp(open_seat(store, token), poll=False)

    def team(**kw):
        store = open_store(path)
        made = create_class(store, teams=1, seed=kw.pop("seed", 11), **kw)
        store.close()
        return {s.seat: s.token for s in made.teams[0].seats}

    kernel.path = path
    kernel.team = team
    yield kernel
    for s in opened:
        s.close()
