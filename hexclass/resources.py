"""Where hexclass's files are: lessons, scenarios, pages and the Voilà template.

Everything is found with :mod:`importlib.resources` from the ``hexclass`` package, so it
works the same from an installed wheel and from a checkout. Both have one layout under
:func:`root`, which is the folder ``hexclass serve`` gives Voilà (page addresses are
relative to it, e.g. ``/voila/render/lessons/toaw-supply.ipynb``):

* ``classroom/pages/*.ipynb`` — home, solitaire, seat, defender and instructor pages;
* ``classroom/share/voila/templates/hexclass/`` — the Voilà template;
* ``lessons/*.ipynb`` — the lesson notebooks;
* ``scenarios/ca/*.toml`` — named Combined Arms positions.

Installed, that folder is the ``hexclass`` package itself; in a checkout it is the
repository root, beside it (see ``hexclass/__init__.py``).
"""

from __future__ import annotations

import pathlib
from importlib import resources
from importlib.resources.abc import Traversable


def root() -> pathlib.Path:
    """The folder holding ``classroom/``, ``lessons/`` and ``scenarios/``."""
    package = resources.files("hexclass")
    if not isinstance(package, pathlib.Path):  # e.g. imported from a zip file
        raise RuntimeError(f"hexclass must be installed as files on disk, not in {package}")
    return package if package.joinpath("classroom").is_dir() else package.parent


def lessons_dir() -> pathlib.Path:
    return root() / "lessons"


def lessons() -> list[Traversable]:
    """The lesson notebooks, by file name."""
    files = (f for f in lessons_dir().iterdir() if f.name.endswith(".ipynb") and f.is_file())
    return sorted(files, key=lambda f: f.name)


def scenarios_dir() -> pathlib.Path:
    """The scenario folders (``ca/`` for Combined Arms)."""
    return root() / "scenarios"


def pages_dir() -> pathlib.Path:
    return root() / "classroom" / "pages"


def jupyter_share() -> pathlib.Path:
    """A ``JUPYTER_PATH`` entry holding ``voila/templates/hexclass``."""
    return root() / "classroom" / "share"
