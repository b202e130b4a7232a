"""``hexclass class ...``: create a co-op class from a terminal and print its links.

    hexclass class new --teams 3 --seed 42            # 3 teams, same board and dice
    hexclass class new --teams 3 --seed 42 --different-seeds --seats 6 --json
    hexclass class links --class 1                    # print an existing class's links

The store file is ``--store PATH``, else ``$HEXCLASS_STORE``, else ``~/.hexclass/class.db``.
Links point at ``--base-url`` (default http://127.0.0.1:8866, where ``voila`` serves).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys

from classroom.combined_arms.state import Options

from .session import (
    DEFAULT_BASE_URL,
    MAX_TEAMS,
    STORE_ENV,
    class_links,
    create_class,
    default_store_path,
    open_store,
)
from .store import MESSAGE_MODES, ClassSettings, StoreError

STORE_HELP = f"the class store file (default: ${STORE_ENV}, else ~/.hexclass/class.db)"


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
    new.add_argument("--seed", type=_seed, required=True, help="the battle's seed (>= 0)")
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
        help="give team i the seed S+i-1 instead of the same battle for every team",
    )
    new.add_argument("--name", default="", help="a name for the class")
    new.add_argument("--easier", action="store_true", help='the "easier game" scoring')
    new.add_argument("--message-mode", choices=MESSAGE_MODES, default="free")
    new.add_argument(
        "--message-limit", type=_limit, default=None, help="written messages per seat per turn"
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
    return group


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=None, help=STORE_HELP)
    p.add_argument("--base-url", type=_url, default=DEFAULT_BASE_URL, help="where Voila serves")
    p.add_argument("--json", action="store_true", help="print JSON instead of a list")


def _no_subcommand(group: argparse.ArgumentParser) -> int:
    group.print_help()
    return 2


def _open(args):
    path = args.store or default_store_path()
    try:
        return open_store(path)
    except (OSError, sqlite3.Error, StoreError) as exc:
        args.parser.error(f"--store: cannot open {path}: {exc}")


def _run_new(args: argparse.Namespace) -> int:
    settings = ClassSettings(args.message_mode, args.message_limit)
    if args.message_limit is not None and args.message_mode != "written":
        args.parser.error("--message-limit applies only with --message-mode written")
    store = _open(args)
    try:
        links = create_class(
            store,
            args.teams,
            args.seed,
            different_seeds=args.different_seeds,
            seats=args.seats,
            options=Options(easier_game=args.easier),
            name=args.name,
            settings=settings,
            base_url=args.base_url,
        )
    except ValueError as exc:
        args.parser.error(str(exc))
    finally:
        store.close()
    _print(links, args.json)
    return 0


def _run_links(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        links = class_links(store, args.class_id, args.base_url)
    except KeyError:
        args.parser.error(f"--class: there is no class {args.class_id} in {store.path}")
    finally:
        store.close()
    _print(links, args.json)
    return 0


def _print(links, as_json: bool) -> None:
    if as_json:
        text = json.dumps(links.to_json(), indent=2) + "\n"
    else:
        text = f"{links.as_text()}\n\nStore: {links.store}\n"
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the class exists, the reader left
        sys.stdout = None  # type: ignore[assignment]


__all__ = ["add_class_commands"]
