"""Combined Arms (Phil Sabin): the complete solitaire game as a rules engine.

>>> from hexclass.classroom.combined_arms import new_game, legal_actions, apply, EndPhase
>>> g = new_game(seed=3)
>>> any(type(a).__name__ == "Enter" for a in legal_actions(g, "player"))
True
"""

from . import query
from .actions import (
    CallMortar,
    ChooseBroken,
    ChooseRollOrder,
    DeclareFire,
    EndGame,
    EndGameNow,
    EndPhase,
    Enter,
    Exploit,
    Face,
    Move,
    ResolveFire,
    Withdraw,
    action_from_json,
    action_to_json,
)
from .board import Board, T, generate_board, potential_posts
from .engine import apply, check, iter_legal_actions, legal_actions, try_apply
from .fire import fire_odds
from .game import load, new_game, record, replay, save
from .intent import action_for
from .query import Query
from .reasons import Illegal, IllegalAction
from .state import Game, GameState, Options, SeatSpec

__all__ = [
    "Board",
    "T",
    "generate_board",
    "potential_posts",
    "Game",
    "GameState",
    "Options",
    "SeatSpec",
    "new_game",
    "record",
    "replay",
    "save",
    "load",
    "apply",
    "try_apply",
    "check",
    "legal_actions",
    "iter_legal_actions",
    "fire_odds",
    "query",
    "Query",
    "action_for",
    "Illegal",
    "IllegalAction",
    "Enter",
    "Move",
    "Withdraw",
    "Exploit",
    "Face",
    "CallMortar",
    "DeclareFire",
    "ResolveFire",
    "EndPhase",
    "EndGame",
    "EndGameNow",
    "ChooseRollOrder",
    "ChooseBroken",
    "action_to_json",
    "action_from_json",
]
