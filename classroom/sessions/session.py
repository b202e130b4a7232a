"""The co-op facade the pages build on: create a class, join by token, run the console.

>>> import tempfile, os
>>> store = open_store(os.path.join(tempfile.mkdtemp(), "class.db"))
>>> made = create_class(store, teams=2, seed=5)
>>> len(made.teams), [s.seat for s in made.teams[0].seats]
(2, ['armour', 'D', 'E', 'F', 'support'])
>>> seat = open_seat(store, made.teams[0].seats[1].token)
>>> seat.seat, seat.team
('D', 1)
>>> open_console(store, made.teams[0].seats[1].token)
Traceback (most recent call last):
...
hexclass.classroom.sessions.session.AccessRefused: this is a seat link (team 1, seat 'D'); the instructor console needs the instructor link
>>> store.close()
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hexclass.classroom.combined_arms.actions import EndGameNow
from hexclass.classroom.combined_arms.engine import legal_actions
from hexclass.classroom.combined_arms.state import GameState, Options

from . import policy
from .follow import ClassFollower, GameFollower
from .replay import GameReplay
from .roles import Layout, Seat, layout_for
from .store import (
    INSTRUCTOR,
    ClassSettings,
    ClassStore,
    GameInfo,
    GameSpec,
    Refusal,
    Refused,
    Result,
    looks_like_token,
)
from .text import strip_bidi
from .views import TeamSummary, seat_view, team_summary

DEFAULT_BASE_URL = "http://127.0.0.1:8866"
SEAT_PAGE = "voila/render/classroom/pages/seat.ipynb"
INSTRUCTOR_PAGE = "voila/render/classroom/pages/instructor.ipynb"
STORE_ENV = "HEXCLASS_STORE"
MAX_TEAMS = 12  # a class of 60 to 72 students; more is a second class (an open network: a cap)
MAX_SEED = 2**63 - 1  # what an SQLite integer holds
SEED_BITS = 63  # random seeds: secrets.randbits(63) <= MAX_SEED


def default_store_path() -> pathlib.Path:
    """``$HEXCLASS_STORE`` if set, else ``~/.hexclass/class.db``."""
    env = os.environ.get(STORE_ENV)
    if env:
        return pathlib.Path(env).expanduser()
    return pathlib.Path.home() / ".hexclass" / "class.db"


def open_store(path: str | os.PathLike | None = None) -> ClassStore:
    """The class store at ``path`` (default ``$HEXCLASS_STORE``, else
    ``~/.hexclass/class.db``), created if missing: a file path or ``sqlite:///...`` opens
    the SQLite store, a ``postgresql://...`` URL the PostgreSQL store (:mod:`.locate`)."""
    from .locate import open_location

    return open_location(path)


def seat_url(token: str, base_url: str = DEFAULT_BASE_URL) -> str:
    return f"{base_url.rstrip('/')}/{SEAT_PAGE}?token={token}"


def instructor_url(token: str, base_url: str = DEFAULT_BASE_URL) -> str:
    return f"{base_url.rstrip('/')}/{INSTRUCTOR_PAGE}?token={token}"


# --- creating a class ----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLink:
    team: int
    game_id: int
    seat: str
    title: str
    colour: str
    token: str
    url: str


@dataclass(frozen=True)
class TeamLinks:
    team: int
    game_id: int
    seed: int
    seats: list[SeatLink]


@dataclass(frozen=True)
class ClassLinks:
    """Everything the instructor hands out: one console link and one link per seat."""

    class_id: int
    name: str
    instructor_token: str
    instructor_url: str
    teams: list[TeamLinks]
    store: str = ""

    def to_json(self) -> dict[str, Any]:
        """Every link as plain data (no seed: the instructor console alone shows seeds)."""
        return {
            "class_id": self.class_id,
            "name": self.name,
            "store": self.store,
            "instructor": {"token": self.instructor_token, "url": self.instructor_url},
            "teams": [
                {
                    "team": t.team,
                    "game_id": t.game_id,
                    "seats": [
                        {
                            "seat": s.seat,
                            "title": s.title,
                            "colour": s.colour,
                            "token": s.token,
                            "url": s.url,
                        }
                        for s in t.seats
                    ],
                }
                for t in self.teams
            ],
        }

    def instructor_text(self) -> str:
        """The instructor's own note: the console link (never part of a handout).

        Seeds are not printed anywhere but on the instructor console.
        """
        return "\n".join(
            [
                f"Class {self.class_id}{f' ({self.name})' if self.name else ''}: "
                f"{len(self.teams)} team(s)",
                f"Instructor console (keep this link to yourself): {self.instructor_url}",
            ]
        )

    def team_handout(self, team: int) -> str:
        """One team's sheet: its seat links and nothing of the other teams or the console."""
        t = next((t for t in self.teams if t.team == team), None)
        if t is None:
            raise KeyError(f"there is no team {team} in class {self.class_id}")
        width = max(len(s.title) for s in t.seats)
        lines = [
            f"Class {self.class_id}{f' ({self.name})' if self.name else ''}, team {t.team}: "
            "each student opens only their own link",
            *(f"  {s.title:<{width}}  {s.url}" for s in t.seats),
        ]
        return "\n".join(lines)

    def student_lines(self) -> list[str]:
        """One line per student (team, seat, link), e.g. for a mail merge."""
        return [f"Team {t.team}\t{s.title}\t{s.url}" for t in self.teams for s in t.seats]

    def as_text(self) -> str:
        """Every team's handout, one after the other (no console link, no seed)."""
        return "\n\n".join(self.team_handout(t.team) for t in self.teams)


def random_seed() -> int:
    """A fresh seed of 63 random bits from the operating system (``secrets``).

    A seed from a small range could be found by trying every value against the visible
    board and then predict every later roll; 2**63 values cannot be tried.
    """
    return secrets.randbits(SEED_BITS)


def team_seeds(
    teams: int, seed: int | None = None, seeds: Sequence[int] | None = None, different: bool = False
) -> list[int]:
    """One seed per team: all the same (comparable), ``seed + i``, or given one by one.

    Without ``seed`` and ``seeds`` the seed is drawn at random (:func:`random_seed`); with
    ``different`` every team then gets its own random seed, so no team's seed tells
    another's. A given ``seed`` (a rerun of an earlier class) is used as it is.
    """
    if isinstance(teams, int) and not isinstance(teams, bool) and teams > MAX_TEAMS:
        raise ValueError(
            f"teams: a class has at most {MAX_TEAMS} teams, not {teams}; "
            "for more students, create a second class"
        )
    if isinstance(teams, bool) or not isinstance(teams, int) or not 1 <= teams <= MAX_TEAMS:
        raise ValueError(f"teams: expected a whole number from 1 to {MAX_TEAMS}, got {teams!r}")
    if seed is not None and seeds is not None:
        raise ValueError("give either seed (one for all teams) or seeds (one per team)")
    if seeds is not None:
        seeds = list(seeds)
        if len(seeds) != teams:
            raise ValueError(f"seeds: expected {teams} seeds (one per team), got {len(seeds)}")
    elif seed is None:
        seeds = [random_seed() for _ in range(teams)] if different else [random_seed()] * teams
    else:
        seeds = [seed + i if different else seed for i in range(teams)]
    for i, s in enumerate(seeds):
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= MAX_SEED:
            raise ValueError(f"seeds[{i}]: expected a whole number from 0 to {MAX_SEED}, got {s!r}")
    return seeds


def create_class(
    store: ClassStore,
    teams: int,
    seed: int | None = None,
    *,
    seeds: Sequence[int] | None = None,
    different_seeds: bool = False,
    seats: int | Layout | Sequence[Sequence[str]] = 5,
    options: Options | None = None,
    name: str = "",
    settings: ClassSettings | None = None,
    start: dict[str, Any] | None = None,
    base_url: str = DEFAULT_BASE_URL,
) -> ClassLinks:
    """Create ``teams`` team games in one go and return every link.

    With one ``seed`` every team faces the same board and dice stream;
    ``different_seeds`` gives team *i* the seed ``seed + i - 1``; ``seeds`` sets each.
    Without either, the seed is random (63 bits); give one only to rerun a battle.
    ``seats`` is 5, 6, 1-4 (merged commands), a :class:`~.roles.Layout`, or a grouping.
    """
    layout = layout_for(seats)
    name = strip_bidi(name)
    specs = [
        GameSpec(i + 1, s, layout, options or Options(), start)
        for i, s in enumerate(team_seeds(teams, seed, seeds, different_seeds))
    ]
    made = store.create_class(name, settings or ClassSettings(), specs)
    return _links(
        made.info.id, name, made.instructor_token, made.games, made.seat_tokens, base_url, store
    )


def class_links(store: ClassStore, class_id: int, base_url: str = DEFAULT_BASE_URL) -> ClassLinks:
    """The links of an existing class (to show them again on the console)."""
    info = store.class_info(class_id)
    if info is None:
        raise KeyError(f"there is no class {class_id}")
    token, seat_tokens = store.tokens(class_id)
    return _links(class_id, info.name, token, store.games(class_id), seat_tokens, base_url, store)


def _links(
    class_id, name, token, games: list[GameInfo], seat_tokens, base_url, store
) -> ClassLinks:
    teams = []
    for g in games:
        seats = [
            SeatLink(
                g.team,
                g.id,
                s.name,
                s.title,
                s.colour,
                seat_tokens[g.id][s.name],
                seat_url(seat_tokens[g.id][s.name], base_url),
            )
            for s in g.layout.seats
        ]
        teams.append(TeamLinks(g.team, g.id, g.seed, seats))
    return ClassLinks(
        class_id,
        name,
        token,
        instructor_url(token, base_url),
        teams,
        str(getattr(store, "path", "")),
    )


# --- joining -------------------------------------------------------------------------------


class AccessRefused(PermissionError):
    """A link that does not open this page; ``kind`` is missing, unknown or wrong_page."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _lookup(store: ClassStore, token: Any):
    if token is None or token == "":
        raise AccessRefused("missing", "this link has no token; ask your instructor for your link")
    if not looks_like_token(token):
        raise AccessRefused(
            "unknown", "this link's token is not valid; check the link you were given"
        )
    info = store.lookup_token(token)
    if info is None:
        raise AccessRefused(
            "unknown", "no seat or class has this token; check the link you were given"
        )
    return info


def join(store: ClassStore, token: Any) -> SeatSession | InstructorConsole:
    """Whatever ``token`` opens: a seat, or the instructor console."""
    info = _lookup(store, token)
    if info.kind == "instructor":
        return InstructorConsole(store, info.class_id, token)
    return SeatSession(store, token, info.class_id, info.game_id, info.seat)


def open_seat(store: ClassStore, token: Any) -> SeatSession:
    """The seat ``token`` belongs to; an instructor token never opens a seat."""
    info = _lookup(store, token)
    if info.kind != "seat":
        raise AccessRefused(
            "wrong_page",
            "this is the instructor's link; it opens the instructor console, not a seat",
        )
    return SeatSession(store, token, info.class_id, info.game_id, info.seat)


def open_console(store: ClassStore, token: Any) -> InstructorConsole:
    """The instructor console for ``token``; a seat token never opens it."""
    info = _lookup(store, token)
    if info.kind != "instructor":
        game = store.game(info.game_id)
        raise AccessRefused(
            "wrong_page",
            f"this is a seat link (team {game.team}, seat {info.seat!r}); "
            "the instructor console needs the instructor link",
        )
    return InstructorConsole(store, info.class_id, token)


# --- a seat ---------------------------------------------------------------------------------


class SeatSession:
    """One student's seat: everything a seat page does goes through here, as that seat."""

    def __init__(self, store: ClassStore, token: str, class_id: int, game_id: int, seat: str):
        self.store = store
        self.token = token
        self.class_id = class_id
        self.game_id = game_id
        self.seat = seat
        info = store.game(game_id)
        self.team = info.team
        self.layout: Layout = info.layout
        self.info: Seat = info.layout.seat(seat)
        self._relay = None  # without the store's key: the referee's copy (relay.py)
        if not store.has_key and not info.options.enemy_player:
            from .relay import Relay

            self._relay = Relay(store, game_id, seat)

    @property
    def is_commander(self) -> bool:
        return self.info.is_commander

    def follower(self) -> GameFollower:
        """A live copy of the team's game for this page (poll it from a timer)."""
        if self._relay is not None:
            return self._relay.follower()
        return GameFollower(self.store, self.game_id)

    def submit(self, expected_version: int, action: Any) -> Result:
        """Send one action as this seat (see :meth:`~.store.GameStore.submit`).

        Accepted or refused, ``result.update`` holds what this kernel's live game caught
        up on (a stale order's page redraws from it at once).
        """
        if self._relay is not None:
            return self._relay.submit(expected_version, action)
        return self.store.submit(self.game_id, expected_version, self.seat, action)

    def legal_actions(self, state: GameState) -> list:
        """What this seat may do in ``state`` (the follower's copy)."""
        return legal_actions(state, self.seat)

    def view(self, state: GameState) -> dict[str, Any]:
        """This seat's view of ``state``: no dice, this seat's units and choices marked."""
        return seat_view(state, self.seat, self.layout)

    def say(self, text: str) -> Result:
        return self.store.post_message(self.game_id, self.seat, strip_bidi(text))

    def messages_left(self, turn: int) -> int | None:
        """Messages this seat may still send this turn (None: no limit)."""
        c = self.store.class_info(self.class_id)
        if policy.messages_left(c.settings, 0) is None:
            return None
        sent = sum(
            1 for m in self.store.messages(self.game_id) if m.seat == self.seat and m.turn == turn
        )
        return policy.messages_left(c.settings, sent)

    def settings(self) -> ClassSettings:
        """The class's message rules and commander mode."""
        return self.store.class_info(self.class_id).settings

    def hold(self, client: str, take_over: bool = False) -> Result:
        """Command this seat from browser ``client`` (``value`` False: another one does)."""
        return self.store.hold_seat(self.game_id, self.seat, client, take_over)

    def holder(self) -> str | None:
        return self.store.seat_holder(self.game_id, self.seat)

    def request_turn(self, note: str = "") -> Result:
        return self.store.request_turn(self.game_id, self.seat, strip_bidi(note))

    def close_request(self) -> Result:
        return self.store.close_request(self.game_id, self.seat)

    def decide(self, request_id: int, grant: bool) -> Result:
        """The commander grants or denies a request (others are refused, CA p.7)."""
        return self.store.decide_request(self.game_id, self.seat, request_id, grant)

    def set_ready(self, ready: bool = True) -> Result:
        return self.store.set_ready(self.game_id, self.seat, ready)

    def heartbeat(self, client: str = "") -> Result:
        return self.store.heartbeat(self.game_id, self.seat, client)

    def leave(self, client: str = "") -> Result:
        return self.store.leave(self.game_id, self.seat, client)


# --- the instructor ---------------------------------------------------------------------------


class InstructorConsole:
    """The instructor's controls over one class (its own token)."""

    def __init__(self, store: ClassStore, class_id: int, token: str):
        self.store = store
        self.class_id = class_id
        self.token = token

    def games(self) -> list[GameInfo]:
        return self.store.games(self.class_id)

    def game_of(self, team: int) -> GameInfo:
        for g in self.games():
            if g.team == team:
                return g
        raise KeyError(f"no team {team} in class {self.class_id}")

    def links(self, base_url: str = DEFAULT_BASE_URL) -> ClassLinks:
        return class_links(self.store, self.class_id, base_url)

    def follower(self, projected: bool = True) -> ClassFollower:
        return ClassFollower(self.store, self.class_id, projected=projected)

    def summaries(self, projected: bool = True) -> list[TeamSummary]:
        """A one-off summary per team (a console page should keep a :meth:`follower`)."""
        out = []
        for g in self.games():
            out.append(
                team_summary(
                    g,
                    self.store.state(g.id),
                    self.store.requests(g.id),
                    self.store.ready(g.id),
                    self.store.connected(g.id),
                    projected,
                )
            )
        return out

    def pause(self, team: int | None = None) -> Result:
        """Pause one team, or (``None``) the whole class."""
        if team is None:
            return self.store.set_class_paused(self.class_id, True)
        return self.store.set_game_status(self.game_of(team).id, "paused")

    def resume(self, team: int | None = None) -> Result:
        """Resume one team, or (``None``) the class and every team paused on its own."""
        if team is not None:
            return self.store.set_game_status(self.game_of(team).id, "running")
        result = self.store.set_class_paused(self.class_id, False)
        for g in self.games():
            if g.status == "paused":
                self.store.set_game_status(g.id, "running")
        return result

    def end(self, team: int | None = None) -> Result:
        """End one team's game by the rules, or (``None``) every game still going.

        The console sends the engine's end of the battle where it stands
        (:class:`~hexclass.classroom.combined_arms.actions.EndGameNow`, CA "Victory": every
        unrevealed counter is tested, then the score is counted) through the store's
        ordinary submit, in the commander's name and logged as the instructor's. Every
        page then reads the same final score and verdict from the engine's state. A game
        whose battle has not begun (the enemy player's bidding or deployment) has nothing
        to score and only has its status set to ended.
        """
        if team is not None:
            return self.end_game(self.game_of(team).id)
        last: Result = Refused(Refusal.ENDED, "every game has already ended")
        for g in self.games():
            if g.status != "ended":
                last = self.end_game(g.id)
        return last

    def end_game(self, game_id: int, attempts: int = 5) -> Result:
        """End one game by the rules (see :meth:`end`); retried while seats keep moving."""
        result: Result = Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
        for _ in range(attempts):
            game = self.store.game(game_id)
            if game is None or game.status == "ended":
                return policy.ended_problem(game) if game else result
            action = EndGameNow(game.layout.commander().name)
            result = self.store.submit(game_id, game.version, INSTRUCTOR, action)
            if result or result.kind not in (Refusal.STALE, Refusal.BUSY):
                break
        if not result and result.kind is Refusal.ILLEGAL:  # nothing to score yet
            return self.store.set_game_status(game_id, "ended")
        return result

    def set_messages(self, mode: str, limit: int | None = None) -> Result:
        """Free chat, or written messages with an optional per-seat limit per turn (CA p.7)."""
        now = self.store.class_info(self.class_id).settings
        new = dataclasses.replace(now, message_mode=mode, message_limit=limit)
        return self.store.set_settings(self.class_id, new)

    def set_commander(self, mode: str) -> Result:
        """``advisory``: the commander's queue advises; ``strict``: it holds seats (CA p.7)."""
        now = self.store.class_info(self.class_id).settings
        return self.store.set_settings(self.class_id, dataclasses.replace(now, commander=mode))

    def broadcast(self, text: str) -> list[Result]:
        """Post a message from the instructor to every team."""
        text = strip_bidi(text)
        return [self.store.post_message(g.id, INSTRUCTOR, text) for g in self.games()]

    def replay(self, team: int) -> GameReplay:
        """Step through a team's game, every seat's view at every version."""
        return GameReplay(self.store, self.game_of(team).id)

    def debrief(self):
        """Tables comparing the teams (see :mod:`.debrief`)."""
        from .debrief import Debrief

        return Debrief.from_store(self.store, self.class_id)


__all__ = [
    "AccessRefused",
    "ClassLinks",
    "DEFAULT_BASE_URL",
    "INSTRUCTOR_PAGE",
    "InstructorConsole",
    "SEAT_PAGE",
    "STORE_ENV",
    "SeatLink",
    "SeatSession",
    "TeamLinks",
    "class_links",
    "create_class",
    "default_store_path",
    "instructor_url",
    "join",
    "open_console",
    "open_seat",
    "open_store",
    "random_seed",
    "seat_url",
    "team_seeds",
]
