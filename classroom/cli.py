"""The ``hexclass`` console script."""

from __future__ import annotations

import argparse
import json
import sys

from classroom import __version__

SIMULATE_HELP = """\
Play whole Combined Arms games with a scripted attacker and report the win rate, the
mean, median and spread of the scores, and games per second. Game i uses seed S+i.
With --json a single JSON object goes to stdout (the progress bar stays on stderr).
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hexclass", description=__doc__)
    parser.add_argument("--version", action="version", version=f"hexclass {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_simulate(commands)
    from classroom.sessions.cli import add_class_commands

    add_class_commands(commands)
    from classroom.serve import add_serve_command

    add_serve_command(commands)
    return parser


def _add_simulate(commands) -> None:
    from classroom.combined_arms.bot import POLICIES

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
        help="the attacker: steady (scripted), random (legal-random baseline), passive",
    )
    sim.add_argument("--jobs", type=_count, default=1, metavar="J", help="worker processes (1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    sim.add_argument(
        "--no-progress", action="store_true", help="do not draw the progress bar on stderr"
    )


def _simulate(args) -> int:
    from classroom.combined_arms.simulate import ProgressBar, simulate

    bar = None if args.no_progress else ProgressBar(sys.stderr)
    summary = simulate(args.games, args.seed, args.policy, args.jobs, progress=bar)
    if args.json:
        json.dump(summary.to_json(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(summary.report())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if args.command == "simulate":
        return _simulate(args)
    if args.command in ("class", "serve"):
        return args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
