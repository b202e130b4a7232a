"""``hexclass class ...``: create a co-op class from a terminal and print its links.

    hexclass class new --teams 6                      # 6 teams, one random battle for all
    hexclass class new --teams 3 --seed 42            # rerun the battle of seed 42
    hexclass class new --teams 3 --different-seeds --seats 6 --json
    hexclass class new --teams 6 --handouts handouts/ # one file per team + students.txt
    hexclass class links --class 1                    # print an existing class's links

The seed is random (63 bits) unless given; it is shown on the instructor console only
(not in this output, not in --json).
The printed list keeps the instructor's console link apart from the team handouts.

    hexclass class migrate --from class.db --to postgresql://db-host/hexclass

The store is ``--store PATH-OR-URL``, else ``$HEXCLASS_STORE``, else
``~/.hexclass/class.db``: a file (or ``sqlite:///file``) is the embedded SQLite store, a
``postgresql://`` URL the shared PostgreSQL store for several hosts (docs/deploy.md).
Links point at ``--base-url`` (default http://127.0.0.1:8866, where ``voila`` serves).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sqlite3
import sys

from .locate import default_location, describe
from .roles import LayoutError, class_table
from .session import (
    DEFAULT_BASE_URL,
    MAX_TEAMS,
    STORE_ENV,
    class_links,
    create_class,
    open_store,
)
from .store import MESSAGE_MODES, ClassSettings, StoreError

STORE_HELP = (
    f"the class store: a file, sqlite:///file or postgresql://... URL "
    f"(default: ${STORE_ENV}, else ~/.hexclass/class.db)"
)


def _count(text: str, low: int, high: int, what: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not low <= n <= high:
        raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, got {n}")
    return n


def _teams(text: str) -> int:
    return _count(text, 1, MAX_TEAMS, "the number of teams")


def _seed(text: str) -> int:
    return _count(text, 0, 2**63 - 1, "a seed")


def _limit(text: str) -> int:
    return _count(text, 0, 1000, "a message limit")


def _url(text: str) -> str:
    if not text.startswith(("http://", "https://")) or len(text) < 10:
        raise argparse.ArgumentTypeError(f"expected an http:// or https:// address, got {text!r}")
    return text.rstrip("/")


def add_class_commands(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``class`` (with ``new`` and ``links``) on the ``hexclass`` parser."""
    group = subparsers.add_parser(
        "class",
        help="co-op classes: create team games and print every seat link",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    group.set_defaults(run=lambda args: _no_subcommand(group))
    sub = group.add_subparsers(dest="class_command", metavar="SUBCOMMAND")

    new = sub.add_parser("new", help="create a class of team games and print the links")
    new.add_argument("--teams", type=_teams, required=True, help="number of teams (1-60)")
    new.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="the battle's seed, to rerun an earlier battle (default: random, 63 bits)",
    )
    new.add_argument(
        "--seats",
        type=lambda t: _count(t, 1, 6, "--seats"),
        default=5,
        help="seats per team: 5 (CA p.7's team), 6 (separate overall commander), "
        "or 1-4 (commands merged)",
    )
    new.add_argument(
        "--different-seeds",
        action="store_true",
        help="a different battle per team: its own random seed (or S+i-1 with --seed S)",
    )
    new.add_argument("--name", default="", help="a name for the class")
    new.add_argument("--easier", action="store_true", help='the "easier game" scoring')
    new.add_argument("--message-mode", choices=MESSAGE_MODES, default="free")
    new.add_argument(
        "--message-limit", type=_limit, default=None, help="written messages per seat per turn"
    )
    new.add_argument(
        "--enemy-player",
        action="store_true",
        help="CA p.7: a student commands the defenders (a 'defender' seat beside the "
        "attackers'; --seats 1 makes it a two-player game); needs `hexclass serve`'s referee",
    )
    new.add_argument(
        "--handicap",
        type=lambda t: _count(t, 0, 40, "--handicap"),
        default=0,
        help="with --enemy-player: bonus points the attackers add to their score (0)",
    )
    new.add_argument(
        "--bid",
        action="store_true",
        help="with --enemy-player --seats 1: the two players bid for the defenders "
        "(seats player1 and player2; the higher bid defends and sets the handicap)",
    )
    _common(new)
    new.set_defaults(run=_run_new, parser=new)

    links = sub.add_parser("links", help="print the links of an existing class")
    links.add_argument(
        "--class",
        dest="class_id",
        type=lambda t: _count(t, 1, 2**63 - 1, "a class id"),
        required=True,
    )
    _common(links)
    links.set_defaults(run=_run_links, parser=links)

    from .migrate import add_migrate_command

    add_migrate_command(sub)
    return group


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=None, help=STORE_HELP)
    p.add_argument("--base-url", type=_url, default=DEFAULT_BASE_URL, help="where Voila serves")
    p.add_argument("--json", action="store_true", help="print JSON instead of a list")
    p.add_argument(
        "--handouts",
        type=pathlib.Path,
        default=None,
        metavar="DIR",
        help="also write team-N.txt (one team's links) and students.txt (one line a student)",
    )


def _no_subcommand(group: argparse.ArgumentParser) -> int:
    group.print_help()
    return 2


def _open(args):
    where = args.store or default_location()
    try:
        return open_store(where)
    except (OSError, ValueError, sqlite3.Error, StoreError) as exc:
        args.parser.error(f"--store: cannot open {describe(where)}: {exc}")


def _run_new(args: argparse.Namespace) -> int:
    settings = ClassSettings(args.message_mode, args.message_limit)
    if args.message_limit is not None and args.message_mode != "written":
        args.parser.error("--message-limit applies only with --message-mode written")
    seats, options = _table(args)
    store = _open(args)
    try:
        links = create_class(
            store,
            args.teams,
            args.seed,
            different_seeds=args.different_seeds,
            seats=seats,
            options=options,
            name=args.name,
            settings=settings,
            base_url=args.base_url,
        )
    except ValueError as exc:
        args.parser.error(str(exc))
    except (StoreError, sqlite3.Error) as exc:  # read-only, full, damaged, locked
        return _store_failed(args, store, exc)
    finally:
        store.close()
    _print(links, args)
    return 0


def _store_failed(args, store, exc) -> int:
    """A store fault in plain words with its file, and exit status 1 (no traceback)."""
    if not isinstance(exc, StoreError):
        from .sqlite_store import store_fault

        exc = store_fault(exc, getattr(store, "path", args.store))
    sys.stderr.write(f"{args.parser.prog}: error: {exc}\n")
    return 1


def _table(args: argparse.Namespace):
    """The seats and options ``class new`` asks for (CA p.7's enemy player included)."""
    try:
        return class_table(args.seats, args.enemy_player, args.bid, args.handicap, args.easier)
    except LayoutError as exc:
        args.parser.error(f"--enemy-player/--seats/--bid/--handicap: {exc}")


def _run_links(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        links = class_links(store, args.class_id, args.base_url)
    except KeyError:
        args.parser.error(f"--class: there is no class {args.class_id} in {store.path}")
    except (StoreError, sqlite3.Error) as exc:
        return _store_failed(args, store, exc)
    finally:
        store.close()
    _print(links, args)
    return 0


def _print(links, args) -> None:
    if args.handouts is not None:
        try:
            written = write_handouts(links, args.handouts)
        except OSError as exc:
            args.parser.error(f"--handouts: cannot write to {args.handouts}: {exc}")
    if args.json:
        text = json.dumps(links.to_json(), indent=2) + "\n"
    else:
        text = (
            f"{links.instructor_text()}\nStore: {links.store}\n\n"
            "=== Team handouts (give each team only its own) ===\n\n"
            f"{links.as_text()}\n"
        )
        if args.handouts is not None:
            text += f"\nHandouts written: {', '.join(str(p) for p in written)}\n"
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the class exists, the reader left
        sys.stdout = None  # type: ignore[assignment]


def write_handouts(links, folder: pathlib.Path) -> list[pathlib.Path]:
    """``team-N.txt`` per team and ``students.txt`` (one tab-separated line a student)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for t in links.teams:
        path = folder / f"class{links.class_id}-team-{t.team}.txt"
        path.write_text(links.team_handout(t.team) + "\n")
        written.append(path)
    path = folder / f"class{links.class_id}-students.txt"
    path.write_text("\n".join(links.student_lines()) + "\n")
    written.append(path)
    return written


__all__ = ["add_class_commands", "write_handouts"]
