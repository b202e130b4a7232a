"""A game's description (board, options, seats) is one immutable ``Game`` that every copy
and view of the state shares; changing it means a new description (issue 28)."""

from __future__ import annotations

import pickle

import pytest

from hexclass.classroom.combined_arms import Options
from hexclass.classroom.combined_arms.actions import Bid
from hexclass.classroom.combined_arms.defender import DEFENDER
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.public import attacker_copy, from_json, seat_copy, to_json
from hexclass.classroom.combined_arms.state import SOLITAIRE_SEATS, Game, Seats

from .test_enemy_player_play import decide, two_player_game


def test_copies_and_views_share_the_description_and_read_through_it():
    g = new_game(5)
    assert isinstance(g.game, Game) and type(g.seats) is Seats
    assert (g.board, g.options, g.seats) == (g.game.board, g.game.options, g.game.seats)
    for c in (g.copy(), attacker_copy(g), seat_copy(g, "player")):
        assert c.game is g.game and c.board is g.board  # shared, never copied


def test_the_seats_cannot_be_changed_in_place():
    g = new_game(5)
    before = g.game
    for change in (
        lambda s: s.__setitem__("x", SOLITAIRE_SEATS["player"]),
        lambda s: s.pop("player"),
        lambda s: s.update(x=1),
        lambda s: s.clear(),
        lambda s: s.__delitem__("player"),
    ):
        with pytest.raises(TypeError, match="seats are fixed"):
            change(g.seats)
    assert g.game is before and list(g.seats) == ["player"]
    with pytest.raises(AttributeError):
        g.game.options = Options(easier_game=True)  # the description itself is frozen


def test_setting_options_or_seats_makes_a_new_description_and_moves_the_key():
    g = new_game(5)
    first, key = g.game, g.key()
    g.options = Options(auto_decisions=True)
    assert g.game is not first and g.options.auto_decisions
    assert first.options == Options()  # the old description is unchanged
    assert g.key() != key and g.game.board is first.board
    g.seats = {"a": SOLITAIRE_SEATS["player"]}
    assert list(g.seats) == ["a"] and list(first.seats) == ["player"]


def test_the_bidding_hands_out_sides_in_a_new_description():
    g = two_player_game()
    start = g.game
    decide(g, Bid("player1", 3))
    decide(g, Bid("player2", 1))
    assert DEFENDER in g.seats["player1"].powers and g.options.handicap == 3
    assert DEFENDER not in start.seats["player1"].powers and start.options.handicap == 0


def test_the_description_survives_pickling_and_json():
    g = new_game(5, Options(easier_game=True))
    back = pickle.loads(pickle.dumps(g))
    assert type(back.seats) is Seats and back.seats == g.seats
    assert back.board is back.game.board and back.options == g.options
    j = from_json(to_json(attacker_copy(g)))
    assert j.options == g.options and j.seats == g.seats and j.board is j.game.board
    assert j.board.to_rows() == g.board.to_rows()


def test_a_state_pickled_before_the_split_reads_back():
    g = new_game(5, Options(easier_game=True))
    old = {k: v for k, v in vars(g).items() if k != "game"}
    old.update(board=g.board, options=g.options, seats=dict(g.seats))
    back = object.__new__(type(g))
    back.__setstate__(old)
    assert back.game.board is g.board and back.options == g.options
    assert back.seats == g.seats and back.snapshot() == g.snapshot()
