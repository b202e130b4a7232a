"""A seat page is built from what its seat may see: no seed, no solitaire-only controls.

Every widget a kernel creates sends its whole state to the browser, hidden or not, and
answers comm messages. So the test looks at every widget made while a seat page is
built (not only the ones on screen) and checks that none holds the seed or another
team's tokens, and that no save / new game / load / scenario control exists to message.
The browser-side check (the websocket frames themselves) is in
``tests/browser/test_seat_secrets.py``.
"""

from __future__ import annotations

import json

import ipywidgets as W
import pytest
from ipywidgets.widgets import widget as widget_module

from hexclass.classroom.sessions import create_class, open_store
from hexclass.widgets.ca_app import GameApp, solitaire_app
from hexclass.widgets.coop_seat import SeatApp, seat_page

SEED = 7_344_421_904_117_735_113  # 63 bits: easy to spot in any text


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "class.db")
    yield s
    s.close()


def widgets_made_by(build):
    """Run ``build()``; return (its result, every widget created meanwhile)."""
    before = set(widget_module._instances)
    result = build()
    made = [w for k, w in widget_module._instances.items() if k not in before]
    return result, made


def states_text(widgets) -> str:
    out = []
    for w in widgets:
        state = w.get_state()
        out.append(json.dumps(state, default=lambda o: f"<{type(o).__name__}>"))
    return "\n".join(out)


SOLITAIRE_ONLY = {"New game", "Start scenario", "Save game"}


def test_seat_page_builds_no_seed_and_no_solitaire_controls(store):
    made = create_class(store, teams=2, seed=SEED)
    mine, other = made.teams
    from hexclass.classroom.sessions import open_seat

    session = open_seat(store, mine.seats[1].token)
    app, widgets = widgets_made_by(lambda: SeatApp(session, poll=False))
    text = states_text(widgets)
    assert str(SEED) not in text
    assert not any(isinstance(w, W.IntText | W.FileUpload) for w in widgets)
    buttons = {w.description for w in widgets if isinstance(w, W.Button)}
    assert not buttons & SOLITAIRE_ONLY, buttons & SOLITAIRE_ONLY
    assert not hasattr(app.app, "seed_box")
    # nothing of the other team or the console either
    for s in other.seats:
        assert s.token not in text
    assert made.instructor_token not in text
    assert mine.seats[1].token not in text  # the page does not echo its own token either


def test_a_refused_seat_link_builds_nothing_but_the_refusal(store):
    create_class(store, teams=1, seed=SEED)
    page, widgets = widgets_made_by(lambda: seat_page("not-a-real-token-at-all-xxxxxxxx", store))
    assert [type(w) for w in widgets if not isinstance(w, W.Layout | W.Style)] == [type(page)]
    assert str(SEED) not in states_text(widgets)


def test_solitaire_keeps_its_game_controls():
    """The flag removes controls from seats only: a solitaire player needs them."""
    app, widgets = widgets_made_by(lambda: solitaire_app(seed=12345))
    buttons = {w.description for w in widgets if isinstance(w, W.Button)}
    assert buttons >= SOLITAIRE_ONLY
    assert app.seed_box.value == 12345
    assert isinstance(app, GameApp)
