"""hexclass: a Jupyter teaching and co-op kit for hex-and-counter wargames.

The import packages are ``hexclass.classroom`` (hex maths, dice, the rules engines, the
co-op store; no widgets) and ``hexclass.widgets`` (their ipywidgets views);
``python -m hexclass`` is the ``hexclass`` command, and :mod:`hexclass.resources` finds
the lessons, scenarios, pages and the Voilà template.

Where the subpackages are:

* **installed from a wheel**: inside this folder (``hexclass/classroom``,
  ``hexclass/widgets``, ``hexclass/lessons``, ``hexclass/scenarios``), put there by
  setuptools' ``package-dir`` (pyproject.toml);
* **in a checkout** (the repository installed editable, or on ``PYTHONPATH``): at the top
  of the repository, beside this folder. This package's ``__path__`` is then extended to
  the repository root, so ``hexclass.classroom`` is the repository's ``classroom/``.

In a checkout the repository's ``classroom/`` and ``widgets/`` folders can also be found
as top-level packages (the repository root is on ``sys.path``). Two names for one file
would load it twice, and two copies of a class fail each other's ``isinstance`` checks, so
:class:`OneName` (first on ``sys.meta_path``) keeps every module under one name:

* while the code still imports the top-level names (``NAMESPACED`` is False), a
  ``hexclass.classroom.x`` import gives the very module object ``classroom.x``;
* once every import says ``hexclass.classroom`` / ``hexclass.widgets`` (``NAMESPACED``
  True), importing the old top-level name of one of our folders is an ``ImportError``
  that names the new one (a wheel has no such top-level packages at all, and a package
  of someone else's that happens to be called ``classroom`` is left alone).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import pathlib
import sys

# Whether the code imports hexclass.classroom / hexclass.widgets (True) or still the
# top-level classroom / widgets (False). The rename of every import sets it to True.
NAMESPACED = True

SUBPACKAGES = ("classroom", "widgets")  # the folders installed as hexclass.<name>

_HERE = pathlib.Path(__file__).resolve().parent
# A checkout: the subpackages are beside this folder, not in it (a wheel has them in it).
CHECKOUT = not (_HERE / "classroom").is_dir() and (_HERE.parent / "classroom").is_dir()
if CHECKOUT:
    __path__.append(str(_HERE.parent))  # noqa: F821 - the package's own __path__


def _ours(top: str) -> bool:
    """Whether the top-level package ``top`` would be (or is) a folder of this checkout."""
    if not CHECKOUT:
        return False
    module = sys.modules.get(top)
    if module is not None:
        locations = list(getattr(module, "__path__", []))
    else:
        spec = importlib.machinery.PathFinder.find_spec(top)
        locations = list(spec.submodule_search_locations or []) if spec else []
    mine = (_HERE.parent / top).resolve()
    return any(pathlib.Path(p).resolve() == mine for p in locations)


class _Alias(importlib.abc.Loader):
    """Loads a name as the module already known under another name (the same object)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = self._spec  # the import system set the alias's spec: put back its own


class OneName(importlib.abc.MetaPathFinder):
    """Every module of ``classroom/`` and ``widgets/`` is loaded under one name only."""

    hexclass_one_name = True

    def find_spec(self, fullname, path=None, target=None):
        parts = fullname.split(".")
        if parts[0] in SUBPACKAGES:
            if NAMESPACED and _ours(parts[0]):
                raise ImportError(
                    f"{fullname} is an old name of a hexclass module: import hexclass.{fullname}",
                    name=fullname,
                )
            return None  # the code's own name (or someone else's package of that name)
        if parts[:2] == ["hexclass", "hexclass"]:
            raise ImportError(
                "hexclass.hexclass is hexclass itself: import hexclass", name=fullname
            )
        if parts[0] == "hexclass" and len(parts) > 1 and parts[1] in SUBPACKAGES:
            if NAMESPACED or not _ours(parts[1]):
                return None
            old = ".".join(parts[1:])
            return importlib.util.spec_from_loader(fullname, _Alias(old))
        return None


if not any(getattr(f, "hexclass_one_name", False) for f in sys.meta_path):
    sys.meta_path.insert(0, OneName())
