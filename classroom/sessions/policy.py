"""The co-op rules that are policy, not persistence (CA p.7 "Co-operative Team Play").

Every function here is pure: it takes the rows a store has just read (inside its
transaction) and returns a :class:`~.store.Refused` naming the rule, or None, or the
new values to write. A store only reads, calls these and writes; the SQLite store and
a PostgreSQL store share every decision below.

* who may act: :func:`order_problem` (seat, status), :func:`rebase_problem` (an order
  drawn at an older version), :func:`commander_hold` (the strict commander's queue);
* messages: :func:`message_problem`, :func:`messages_left`;
* the commander's queue: :func:`request_problem`, :func:`decide_problem`,
  :func:`closed_status`, :func:`queue_expires`;
* pausing and ending: :func:`paused_problem`, :func:`status_change_problem`,
  :func:`row_after_action`;
* a seat opened twice: :func:`holds_seat`.

>>> from hexclass.classroom.sessions.store import GameInfo, ClassSettings
>>> from hexclass.classroom.sessions.roles import layout_for
>>> from hexclass.classroom.combined_arms.state import Options
>>> g = GameInfo(1, 1, 1, 7, Options(), layout_for(5), None, "running", False, 4, 9, 1,
...              "friendly_move", 0.0)
>>> order_problem(g, "D") is None
True
>>> order_problem(g, "Q").kind.value
'unknown_seat'
>>> messages_left(ClassSettings("written", 2), sent=1)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hexclass.classroom.combined_arms.actions import EndGameNow
from hexclass.classroom.combined_arms.reasons import COOP
from hexclass.classroom.combined_arms.state import GameState

from .store import (
    GAME_STATUSES,
    INSTRUCTOR,
    MAX_NOTE_CHARS,
    PRESENCE_TIMEOUT,
    STALE_MESSAGE,
    ClassSettings,
    GameInfo,
    LoggedAction,
    Refusal,
    Refused,
    Request,
)

MESSAGE_RULE = COOP  # CA p.7: written messages, limited per player per turn


# --- who may act ------------------------------------------------------------------------------


def unknown_seat(game: GameInfo, seat: str) -> Refused:
    return Refused(
        Refusal.UNKNOWN_SEAT,
        f"there is no seat {seat!r} in team {game.team}; seats are {', '.join(game.layout.names)}",
        game.version,
    )


def sender_problem(seat: str, action) -> Refused | None:
    """Who may send ``action``: a seat its own orders, the instructor only the end now.

    The instructor does not play (CA p.7 gives the team every order); ending a class
    game where it stands (:class:`~hexclass.classroom.combined_arms.actions.EndGameNow`, written
    in the overall commander's name) is the console's alone, and it is logged as the
    instructor's. The team's own end between turns is the commander's ``EndGame``.
    """
    if seat == INSTRUCTOR:
        if isinstance(action, EndGameNow):
            return None
        return Refused(
            Refusal.WRONG_SEAT,
            "the instructor does not give orders; the console sends only the end of the game",
            rule=COOP,
        )
    if isinstance(action, EndGameNow):
        return Refused(
            Refusal.WRONG_SEAT,
            "only the instructor ends a game in the middle of a turn; the overall commander "
            'ends it between turns (CA "Victory")',
            rule=COOP,
        )
    if action.seat != seat:
        return Refused(
            Refusal.WRONG_SEAT,
            f"this action is written for seat {action.seat!r} but was sent by seat {seat!r}",
            rule=COOP,
        )
    return None


VERSION_LIMIT = 2**63  # both stores keep versions as signed 64-bit integers


def version_problem(expected) -> Refused | None:
    """An order's ``expected_version``: a whole number a store can hold, or a refusal."""
    if isinstance(expected, bool) or not isinstance(expected, int):
        return Refused(
            Refusal.BAD_ACTION, f"expected_version: expected an integer, got {expected!r}"
        )
    if not -VERSION_LIMIT <= expected < VERSION_LIMIT:
        return Refused(
            Refusal.BAD_ACTION,
            f"expected_version: expected a game version (0 to the game's current one), got "
            f"{expected}",
        )
    return None


def game_problem(game: GameInfo | None, game_id: int) -> Refused | None:
    if game is None:
        return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
    return None


def ended_problem(game: GameInfo) -> Refused | None:
    if game.status == "ended":
        why = game.ended_reason or "the game has ended"
        return Refused(Refusal.ENDED, f"the game is over ({why})", game.version)
    return None


def paused_problem(game: GameInfo, seat: str) -> Refused | None:
    """Paused means paused for orders, chat and the queue; the instructor still speaks."""
    if seat == INSTRUCTOR or game.effective_status != "paused":
        return None
    who = "the whole class" if game.class_paused else "this game"
    return Refused(Refusal.PAUSED, f"the instructor has paused {who}; wait to resume", game.version)


def order_problem(game: GameInfo | None, seat: str, game_id: int | None = None) -> Refused | None:
    """May ``seat`` do anything in this game now (send an order, a message, use the queue)?"""
    if game is None:
        return game_problem(game, game_id)
    if seat != INSTRUCTOR and seat not in game.layout:
        return unknown_seat(game, seat)
    ended = ended_problem(game)  # (a Refused is falsy: never chain these with ``or``)
    return ended if ended is not None else paused_problem(game, seat)


def rebase_problem(game: GameInfo, expected: int, since: Sequence[LoggedAction]) -> Refused | None:
    """An order drawn at version ``expected`` while the game is at ``game.version``.

    Five seats act at once, so most orders arrive a few versions late. The order is
    re-checked against the current state (a *rebase*) when every action accepted since
    the seat's version was taken in the current turn and phase and none ended it:
    within a phase the platoons act in any order (CA "Sequence of Play"), and the
    engine then decides whether the order is still legal. If a phase or turn ended in
    between, the seat planned against a board that no longer exists: stale.
    ``since`` holds the actions with version > ``expected``.
    """
    if expected == game.version:
        return None
    if expected > game.version or expected < 0:
        return Refused(
            Refusal.STALE,
            f"{STALE_MESSAGE} (your page is at version {expected}, the game at {game.version})",
            game.version,
        )
    now = (game.turn, game.phase)
    for step in since:
        if (step.turn, step.phase) != now:
            return Refused(Refusal.STALE, STALE_MESSAGE, game.version)
    return None


def stale_after_rebase(game: GameInfo, reason) -> Refused:
    """A rebased order the engine no longer allows: stale, saying what changed."""
    message = f"{STALE_MESSAGE} (now: {reason})"
    return Refused(Refusal.STALE, message, game.version, reason.rule, now=str(reason))


def commander_hold(
    settings: ClassSettings, game: GameInfo, seat: str, latest: Request | None
) -> Refused | None:
    """CA p.7: the overall commander decides who moves or fires next.

    In the ``strict`` commander mode a seat whose request in this turn and phase is
    still waiting, or was answered "Not yet", may not act until a request of its is
    granted; in ``advisory`` mode the queue only advises. The commander is never held.
    """
    if settings.commander != "strict" or seat == INSTRUCTOR:
        return None
    if seat not in game.layout or game.layout.seat(seat).is_commander:
        return None
    if latest is None or (latest.turn, latest.phase) != (game.turn, game.phase):
        return None
    if latest.status == "waiting":
        return Refused(
            Refusal.HELD,
            "you asked the commander to act next: wait for the answer",
            game.version,
            rule=COOP,
        )
    if latest.status == "denied":
        return Refused(
            Refusal.HELD,
            "the commander said not yet: ask again when you are ready",
            game.version,
            rule=COOP,
        )
    return None


@dataclass(frozen=True)
class RowAfterAction:
    """What the game row becomes after an accepted action."""

    status: str
    ended_reason: str | None
    expire_queue: bool  # a new turn or phase: the commander's queue starts afresh


def row_after_action(game: GameInfo, state: GameState) -> RowAfterAction:
    """The game row after ``state`` moved on: ended when the battle is over."""
    status, reason = game.status, game.ended_reason
    if state.over:
        status = "ended"
        reason = end_reason(state)
    # CA p.7 asks who acts *next*; a new phase starts a new queue.
    expire = (state.turn, state.phase) != (game.turn, game.phase)
    return RowAfterAction(status, reason, expire)


def end_reason(state: GameState) -> str:
    """Why an over game ended, with its score and verdict (CA "Victory": 20 or more wins)."""
    by = (
        "ended by the instructor"
        if state.actions and isinstance(state.actions[-1], EndGameNow)
        else "game over"
    )
    if state.result is None:
        return by
    verdict = "victory" if state.result.won else "defeat"
    return f"{by}: score {state.result.total}, {verdict}"


# --- messages ----------------------------------------------------------------------------------


def messages_left(settings: ClassSettings, sent: int) -> int | None:
    """Messages a seat may still send this turn (None: no limit)."""
    if settings.message_mode != "written" or settings.message_limit is None:
        return None
    return max(0, settings.message_limit - sent)


def message_problem(
    settings: ClassSettings, game: GameInfo, seat: str, sent: int
) -> Refused | None:
    """CA p.7: in written mode each seat has a limited number of messages per turn.

    ``sent``: messages ``seat`` has sent this turn. The instructor is never limited.
    """
    problem = order_problem(game, seat)
    if problem is not None and problem.kind is not Refusal.ENDED:
        return problem
    if seat == INSTRUCTOR:
        return None
    left = messages_left(settings, sent)
    if left == 0:
        return Refused(
            Refusal.MESSAGE_LIMIT,
            f"written messages are limited to {settings.message_limit} per seat per turn; "
            f"you have sent {sent} this turn (turn {game.turn})",
            game.version,
            rule=MESSAGE_RULE,
        )
    return None


# --- the commander's queue -----------------------------------------------------------------------


def note_problem(note) -> Refused | None:
    if not isinstance(note, str) or len(note) > MAX_NOTE_CHARS:
        return Refused(
            Refusal.BAD_REQUEST, f"note: expected text of at most {MAX_NOTE_CHARS} characters"
        )
    return None


def request_problem(game: GameInfo, seat: str, has_open: bool) -> Refused | None:
    """A seat asks to act next: one open request per seat."""
    problem = order_problem(game, seat)
    if problem is not None:
        return problem
    if has_open:
        return Refused(
            Refusal.BAD_REQUEST, f"seat {seat!r} already has a request open", game.version
        )
    return None


def decide_problem(game: GameInfo, seat: str, status: str | None) -> Refused | None:
    """Only the overall commander answers, and only a waiting request (CA p.7)."""
    problem = order_problem(game, seat)
    if problem is not None:
        return problem
    if not game.layout.seat(seat).is_commander:
        return Refused(
            Refusal.NOT_COMMANDER,
            "only the overall commander decides who moves or fires next",
            game.version,
            rule=COOP,
        )
    if status != "waiting":
        what = "no such request" if status is None else f"that request is {status}"
        return Refused(Refusal.BAD_REQUEST, what, game.version)
    return None


def decided_status(grant: bool) -> str:
    return "granted" if grant else "denied"


def close_problem(game: GameInfo, seat: str, status: str | None) -> Refused | None:
    problem = order_problem(game, seat)
    if problem is not None:
        return problem
    if status is None:
        return Refused(Refusal.BAD_REQUEST, f"seat {seat!r} has no open request", game.version)
    return None


def closed_status(status: str) -> str:
    """Closing an open request: a waiting one is withdrawn, a granted one is done."""
    return "withdrawn" if status == "waiting" else "done"


def ready_problem(game: GameInfo | None, seat: str, game_id: int | None = None) -> Refused | None:
    """The "I'm done this phase" flag: kept for the current turn and phase only."""
    return order_problem(game, seat, game_id)


# --- the instructor --------------------------------------------------------------------------------


def status_problem(status) -> Refused | None:
    if status not in GAME_STATUSES:
        return Refused(
            Refusal.BAD_SETTING,
            f"status: expected one of {', '.join(GAME_STATUSES)}, got {status!r}",
        )
    return None


def status_change_problem(game: GameInfo | None, game_id: int, status) -> Refused | None:
    """Pause, resume or end: an ended game stays ended."""
    problem = status_problem(status)
    if problem is None:
        problem = game_problem(game, game_id)
    if problem is not None:
        return problem
    if game.status == "ended":
        return Refused(Refusal.ENDED, "this game has ended and stays ended", game.version)
    return None


def ended_reason(status: str, by: str) -> str | None:
    return f"ended by the {by}" if status == "ended" else None


def status_verb(status: str) -> str:
    return {"running": "resume", "paused": "pause", "ended": "end"}[status]


# --- a seat opened twice ----------------------------------------------------------------------------


def holds_seat(
    holder: str | None, holder_seen: float | None, client: str, now: float, take_over: bool
) -> bool:
    """Does ``client`` get (or keep) the seat? One browser commands a seat at a time.

    The first browser holds it; a second one opened with the same link watches unless
    it takes over (then the first one watches) or the holder has gone quiet for
    :data:`~.store.PRESENCE_TIMEOUT` seconds.
    """
    if holder is None or holder == client or take_over:
        return True
    return holder_seen is None or now - holder_seen > PRESENCE_TIMEOUT


__all__ = [
    "RowAfterAction",
    "close_problem",
    "closed_status",
    "commander_hold",
    "decide_problem",
    "decided_status",
    "end_reason",
    "ended_problem",
    "ended_reason",
    "game_problem",
    "holds_seat",
    "message_problem",
    "messages_left",
    "note_problem",
    "order_problem",
    "paused_problem",
    "ready_problem",
    "rebase_problem",
    "request_problem",
    "row_after_action",
    "sender_problem",
    "stale_after_rebase",
    "status_change_problem",
    "status_problem",
    "status_verb",
    "unknown_seat",
]
