"""What a seat page's kernel sends before the board is drawn (issue 30): at most 100 widget
models and 100 KB of state, nothing a refresh leaves behind, the other tabs built when opened.

A page's widget manager asks its kernel for every widget alive in it (``request_states``)
and builds each model before it draws the page, so every widget made counts, shown or not,
and a widget replaced but never closed is sent on every later page load.
"""

from __future__ import annotations

import json

import pytest
from ipywidgets.widgets import widget as widget_module

from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.state import Decision
from hexclass.classroom.sessions import create_class, open_seat, open_store
from hexclass.widgets.ca_app import GameApp
from hexclass.widgets.ca_controller import LocalGame
from hexclass.widgets.coop_seat import SeatApp

SEATS = ("armour", "D", "E", "F", "support")


@pytest.fixture
def team(tmp_path):
    store = open_store(tmp_path / "class.db")
    made = create_class(store, teams=1, seed=21)
    yield store, {s.seat: s.token for s in made.teams[0].seats}
    store.close()


def alive() -> set:
    return set(widget_module._instances)


def sent(ids) -> tuple[int, int]:
    """(models, bytes) of what ``request_states`` would send for these widgets."""
    states = {}
    for i in ids:
        w = widget_module._instances[i]
        states[i] = {"model_name": w._model_name, "state": w.get_state(drop_defaults=False)}
    return len(states), len(json.dumps(states, default=lambda o: "<buffer>").encode())


@pytest.mark.parametrize("seat", SEATS)
def test_a_seat_page_is_at_most_100_models_and_100_kb(team, seat):
    store, tokens = team
    before = alive()
    SeatApp(open_seat(store, tokens[seat]), poll=False)
    models, size = sent(alive() - before)
    assert models <= 100, models
    assert size <= 100 * 1024, size


def test_refreshing_leaves_no_widget_behind_and_the_commanders_buttons_are_closed(team):
    store, tokens = team
    boss = SeatApp(open_seat(store, tokens["support"]), poll=False)
    asker = SeatApp(open_seat(store, tokens["E"]), poll=False)
    asker.ask_note.value = "E1 into the open"
    asker.on_ask()
    boss.game.follower.poll(force=True)
    boss.refresh_team()
    buttons = [b.description for row in boss.decide_box.children for b in row.children]
    assert buttons == ["Let E go", "Not yet"]
    row = boss.decide_box.children[0]
    ids = {row.model_id, row.children[0].model_id, row.children[1].model_id}
    count = len(alive())
    for _ in range(3):
        boss.refresh_team()
        boss.app.refresh()
    assert len(alive()) == count and boss.decide_box.children[0] is row  # made once
    boss.on_decide(boss.game.follower.requests[-1].id, True)
    assert boss.decide_box.children == ()
    assert not ids & alive()  # closed: a page loaded later is not sent them


def test_a_choice_awaited_is_drawn_once_and_closed_when_answered():
    s = sketch(units={"D1": "3d", "A1": "3e bottom"})
    s.pending = Decision("break", ("D1", "A1"), rule='CA "Enemy Fire"', prompt="which?")
    app = GameApp(LocalGame(s), animate=False)
    shown = app.decision_box.children
    assert shown and "which?" in shown[0].value
    ids = {w.model_id for w in shown}
    count = len(alive())
    app.refresh()
    app.after()
    assert app.decision_box.children == shown and len(alive()) == count
    s.pending = None
    app.after()
    assert app.decision_box.children == () and not ids & alive()


def test_the_tabs_under_the_board_are_built_when_first_opened(team):
    store, tokens = team
    seat = SeatApp(open_seat(store, tokens["D"]), poll=False)
    tabs = seat.app.tabs
    assert tabs.titles == ("Enemy phase", "Game log", "Score", "Game & help")
    assert not hasattr(seat.app, "log_html") and not hasattr(seat.app, "palette_pick")
    placeholder = tabs.children[1].model_id
    tabs.selected_index = 1
    assert placeholder not in alive() and seat.app.log_html in tabs.children[1].children
    rows = min(250, len(seat.game.state.events)) + 1  # the events and a heading
    assert seat.app.log_html.value.count("<tr>") == rows
    tabs.selected_index = 2
    assert "Score now" in seat.app.score_html.value
    tabs.selected_index = 3
    assert seat.app.palette_pick.value == seat.app.view.palette_name
    assert tabs.titles == ("Enemy phase", "Game log", "Score", "Game & help")


def test_widgets_share_their_layouts_and_styles_but_a_hidden_button_has_its_own(team):
    store, tokens = team
    app = SeatApp(open_seat(store, tokens["D"]), poll=False).app
    assert app.message.layout is app.unit_html.layout and app.message.style is app.unit_html.style
    assert app.fire_button.layout is not app.end_phase_button.layout
    app.fire_button.layout.display = "none"
    assert app.end_phase_button.layout.display != "none"


def test_the_coach_tab_is_built_when_first_opened(team):
    store, tokens = team
    seat = SeatApp(open_seat(store, tokens["D"]), poll=False)
    assert seat.app.coach is None
    empty = seat.side_tabs.children[1].model_id
    seat.side_tabs.selected_index = 1
    coach = seat.app.coach
    assert seat.side_tabs.children[1] is coach.widget and empty not in alive()
    assert seat.side_tabs.titles == ("Team messages", "Coach")
    seat.side_tabs.selected_index = 0
    seat.side_tabs.selected_index = 1
    assert seat.app.coach is coach  # built once


# --- what the kernel answers to request_states (widgets/lean.py) ---------------------------
@pytest.fixture
def control_comm(monkeypatch):
    """ipywidgets' control comm, as a page opens it, with what the kernel sends on it."""
    import ipywidgets as W

    from hexclass.widgets.lean import send_lean_states

    class Comm:
        def __init__(self):
            self.sent = []

        def send(self, data, buffers=None):
            self.sent.append((data, buffers or []))

        def on_msg(self, handler):
            self.handler = handler

    comm = Comm()
    monkeypatch.setattr(W.Widget, "_control_comm", comm)
    monkeypatch.setattr(W.Widget, "_handle_control_comm_msg", W.Widget._handle_control_comm_msg)
    send_lean_states()
    return comm


def ask(comm, method="request_states"):
    comm.handler({"content": {"data": {"method": method}}})
    return comm.sent[-1]


def test_a_seat_page_answers_request_states_with_a_third_of_the_bytes(team, control_comm):
    store, tokens = team
    before = alive()
    SeatApp(open_seat(store, tokens["D"]), poll=False)
    mine = alive() - before
    full_models, full_bytes = sent(mine)
    data, _ = ask(control_comm)
    assert data["method"] == "update_states" and set(data["states"]) >= mine
    states = {i: {k: data["states"][i][k] for k in ("model_name", "state")} for i in mine}
    lean_bytes = len(json.dumps(states, default=lambda o: "<buffer>").encode())
    assert len(states) == full_models  # the same models, each counted as sent() counts it
    assert lean_bytes < full_bytes / 2 and lean_bytes <= 40 * 1024, (lean_bytes, full_bytes)


def test_lean_states_keep_every_changed_value_and_the_keys_the_browser_defaults_differently(
    control_comm,
):
    import ipywidgets as W
    from ipycanvas import Canvas

    hidden = W.Layout(display="none", width="4em")
    button = W.Button(description="Fire", layout=hidden)  # tooltip None: the browser shows
    canvas = Canvas(width=30, height=20)  # the description, as with its own default ""
    data, buffers = ask(control_comm)
    layout = data["states"][hidden.model_id]["state"]
    assert layout["display"] == "none" and layout["width"] == "4em"
    assert "height" not in layout and "align_items" not in layout  # defaults: left out
    fire = data["states"][button.model_id]["state"]
    assert fire["description"] == "Fire" and fire["layout"] == f"IPY_MODEL_{hidden.model_id}"
    assert "tooltip" in fire and fire["tooltip"] is None
    assert "disabled" not in fire and "icon" not in fire
    whole = data["states"][canvas.model_id]["state"]  # not ipywidgets' own: sent whole
    assert whole == canvas.get_state() | {k: whole[k] for k in whole if k not in canvas.get_state()}
    assert whole.keys() == canvas.get_state().keys() and "_send_client_ready_event" in whole
    for w in (button, canvas, hidden):
        w.close()


def test_an_unknown_control_message_is_still_refused(control_comm):
    with pytest.raises(RuntimeError, match="Unknown"):
        ask(control_comm, "something_else")


def test_a_seat_of_an_ended_battle_opens_and_says_where_its_chart_is(team):
    """A seat's copy of the game has no seed, so it cannot replay its turns for the chart
    (stats.per_turn); the page opened on the Score tab must still open and say so. With
    moves played, the replay dealt another board and the seat page failed to open."""
    from hexclass.classroom.combined_arms import EndGame, EndPhase, Enter, Move, legal_actions

    store, tokens = team
    gid = open_seat(store, tokens["D"]).game_id
    for _ in range(80):
        st = store.state(gid)
        if st.over:
            break
        moves = [a for a in legal_actions(st, "D") if isinstance(a, Enter | Move)]
        pick = None
        if moves and st.turn == 1:
            pick = ("D", moves[0])
        for seat in sorted(st.seats):
            acts = legal_actions(st, seat)
            pick = pick or next(
                ((seat, a) for a in acts if isinstance(a, EndGame | EndPhase)), None
            )
        store.submit(gid, len(st.actions), *pick)
    state = store.state(gid)
    assert state.over and any(e.kind == "move" for e in state.events)
    from hexclass.classroom.combined_arms.public import attacker_copy

    # what a keyless seat kernel holds (the served seat pages): the sealed copy
    sealed = GameApp(LocalGame(attacker_copy(state)), seat="D", solitaire=False)
    assert sealed.tabs.selected_index == 2
    assert "Defeat" in sealed.score_html.value or "Victory" in sealed.score_html.value
    assert "turn-by-turn chart of this battle is on the instructor" in sealed.score_plot.value
    # the full game (solitaire, or a kernel with the store's key) charts it
    full = SeatApp(open_seat(store, tokens["D"]), poll=False)
    assert "<img alt='infantry losses" in full.app.score_plot.value
