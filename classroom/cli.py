"""The ``hexclass`` console script."""

from __future__ import annotations

import argparse
import json
import sys

from hexclass.classroom import __version__

SIMULATE_HELP = """\
The balance lab: play whole Combined Arms games with an attacker and report the win
rate (with a 95% Wilson interval), the mean (with its interval), median and spread of
the scores, turns played, and games per second. Game i uses seed S+i, so --compare
plays several policies on the same boards and dice and also reports their paired score
difference. --board B plays every game on board B (how winnable is it?) with each
game's own dice. --plot FILE.png draws win rates, scores and game lengths. --jobs
shares games among local processes, --scheduler tcp://HOST:PORT among the workers of a
Dask cluster; the results are the same either way. With --json a single JSON object
goes to stdout (the progress bar stays on stderr).
"""


def _count(text: str) -> int:
    """A whole number of at least 1 (games, jobs)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    """A non-negative whole number (the dice need one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {value}")
    return value


def _policies(text: str) -> list[str]:
    """A comma-separated list of known policy names, each once."""
    from hexclass.classroom.combined_arms.bot import POLICIES

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("expected policy names separated by commas")
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown policy {unknown[0]!r}; expected some of {', '.join(sorted(POLICIES))}"
        )
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"each policy once, please: {text}")
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hexclass", description=__doc__)
    parser.add_argument("--version", action="version", version=f"hexclass {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_simulate(commands)
    from hexclass.classroom.sessions.cli import add_class_commands

    add_class_commands(commands)
    from hexclass.classroom.serve import add_serve_command

    add_serve_command(commands)
    _add_lessons(commands)
    return parser


LESSONS_HELP = """\
Copy the lesson notebooks into DIR (default ./hexclass-lessons, made if missing), a folder
of your own to open in JupyterLab: jupyter lab DIR. A lesson already there is left as it
is if you changed it (--force replaces it with the packaged one).
"""


def _add_lessons(commands) -> None:
    p = commands.add_parser(
        "lessons",
        help="copy the lesson notebooks into a folder for JupyterLab",
        description=LESSONS_HELP,
    )
    p.add_argument("dir", nargs="?", default="hexclass-lessons", metavar="DIR")
    p.add_argument("--force", action="store_true", help="replace lessons you have changed")


def copy_lessons(target, force: bool = False) -> tuple[list[str], list[str], list[str]]:
    """Copy the packaged lessons into ``target``: (copied, already the same, kept as changed)."""
    import pathlib

    from hexclass.resources import lessons

    target = pathlib.Path(target)
    target.mkdir(parents=True, exist_ok=True)
    copied, same, kept = [], [], []
    for lesson in lessons():
        data = lesson.read_bytes()
        dest = target / lesson.name
        if dest.exists() and dest.read_bytes() == data:
            same.append(lesson.name)
        elif dest.exists() and not force:
            kept.append(lesson.name)
        else:
            dest.write_bytes(data)
            copied.append(lesson.name)
    return copied, same, kept


def _lessons(args) -> int:
    try:
        copied, same, kept = copy_lessons(args.dir, args.force)
    except OSError as exc:
        print(f"hexclass lessons: cannot copy the lessons to {args.dir}: {exc}", file=sys.stderr)
        return 2
    print(
        f"{len(copied)} lessons copied to {args.dir}"
        + (f", {len(same)} already there" if same else "")
    )
    for name in kept:
        print(f"kept your changed {name} (--force replaces it with the packaged lesson)")
    print(f"open them with: jupyter lab {args.dir}")
    return 0


def _add_simulate(commands) -> None:
    from hexclass.classroom.combined_arms.bot import POLICIES

    sim = commands.add_parser(
        "simulate",
        help="play many Combined Arms games with a bot and summarise the scores",
        description=SIMULATE_HELP,
    )
    sim.add_argument("--games", type=_count, default=1000, metavar="N", help="games to play (1000)")
    sim.add_argument(
        "--seed", type=_seed, default=1, metavar="S", help="seed of the first game (1)"
    )
    sim.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="steady",
        help="the attacker: best (search), steady (scripted), bold, random (legal-random "
        "baseline), passive (ends after turn 1)",
    )
    sim.add_argument(
        "--compare",
        type=_policies,
        metavar="P1,P2,...",
        help="compare these policies on the same seeds (e.g. best,steady,passive)",
    )
    sim.add_argument(
        "--board", type=_seed, metavar="B", help="play every game on the board of seed B"
    )
    sim.add_argument("--plot", metavar="FILE.png", help="draw the results to a PNG file")
    sim.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="play the games on a Dask cluster (its scheduler's address)",
    )
    sim.add_argument("--jobs", type=_count, default=1, metavar="J", help="worker processes (1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    sim.add_argument(
        "--no-progress", action="store_true", help="do not draw the progress bar on stderr"
    )


def _simulate(args) -> int:
    from hexclass.classroom.combined_arms.simulate import ProgressBar, compare, plot

    if args.scheduler is not None and not args.scheduler.startswith(("tcp://", "tls://")):
        print(
            f"hexclass simulate: error: --scheduler expects tcp://HOST:PORT, got "
            f"{args.scheduler!r}",
            file=sys.stderr,
        )
        return 2
    bar = None if args.no_progress else ProgressBar(sys.stderr)
    policies = args.compare or [args.policy]
    result = compare(policies, args.games, args.seed, args.jobs, bar, args.board, args.scheduler)
    if args.plot:
        plot(result, args.plot)
    if args.json:
        data = result.to_json() if args.compare else result.summaries[0].to_json()
        json.dump(data, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(result.report() if args.compare else result.summaries[0].report())
        if args.plot:
            print(f"plot: {args.plot}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "lessons":
        return _lessons(args)
    if args.command in ("class", "serve"):
        return args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
