"""Co-operative Combined Arms across Voilà kernels (CA p.7 "Co-operative Team Play").

* :mod:`.roles`: the seat layouts (five seats, six, or commands merged for 1-4 players);
* :mod:`.store`: the store interface and its values; :mod:`.sqlite_store` the embedded
  SQLite implementation (WAL, durable commits);
* :mod:`.live`: the one replayed game per kernel and the :class:`Update` of what changed;
* :mod:`.policy`: the co-op rules every store calls (who may act, rebasing orders,
  message limits, the commander's queue, pausing, ending);
* :mod:`.follow`: following a game (or a whole class) from a page by polling;
* :mod:`.views`: what a seat may see, scores, and who the team is waiting for;
* :mod:`.session`: creating a class, joining by token, the instructor console;
* :mod:`.replay` and :mod:`.debrief`: stepping through games and comparing teams.

The store's file defaults to ``$HEXCLASS_STORE`` or ``~/.hexclass/class.db``.
"""

from .follow import ClassFollower, FollowLoop, GameFollower
from .live import LiveGame, LiveGames, Update
from .replay import GameReplay
from .roles import Layout, LayoutError, Seat, default_layout, layout_for, merged_layout
from .session import (
    AccessRefused,
    ClassLinks,
    InstructorConsole,
    SeatSession,
    class_links,
    create_class,
    default_store_path,
    join,
    open_console,
    open_seat,
    open_store,
)
from .sqlite_store import SQLiteStore
from .store import (
    Accepted,
    ClassSettings,
    ClassStore,
    GameInfo,
    GameSpec,
    GameStore,
    LoggedAction,
    Message,
    Refusal,
    Refused,
    Request,
    StoreError,
)
from .views import TeamSummary, Waiting, known_score, projected_score, public_copy, seat_view

__all__ = [
    "AccessRefused",
    "Accepted",
    "ClassFollower",
    "ClassLinks",
    "ClassSettings",
    "ClassStore",
    "FollowLoop",
    "GameFollower",
    "GameInfo",
    "GameReplay",
    "GameSpec",
    "GameStore",
    "InstructorConsole",
    "Layout",
    "LayoutError",
    "LiveGame",
    "LiveGames",
    "LoggedAction",
    "Message",
    "Refusal",
    "Refused",
    "Request",
    "SQLiteStore",
    "Seat",
    "SeatSession",
    "StoreError",
    "TeamSummary",
    "Update",
    "Waiting",
    "class_links",
    "create_class",
    "default_layout",
    "default_store_path",
    "join",
    "known_score",
    "layout_for",
    "merged_layout",
    "open_console",
    "open_seat",
    "open_store",
    "projected_score",
    "public_copy",
    "seat_view",
]
