"""``python -m hexclass``: the ``hexclass`` command (``python -m hexclass --help``)."""

import sys

from hexclass.classroom.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
