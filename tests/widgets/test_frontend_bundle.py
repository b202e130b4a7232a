"""The seat page's own front end: the committed bundle is the one its sources build.

``frontend/`` (an npm project) builds ``static/lite/page.js`` and ``page.css`` into the
hexclass Voilà template; the two files are committed so that a clean clone and the wheel
serve them without Node. ``frontend/build.mjs`` heads each with the SHA-256 of what it was
built from. These tests recompute that digest, so a change to the front end's sources (or
an ipycanvas upgrade on the Python side, whose front end the bundle embeds) without
``npm run build`` fails here rather than in a student's browser. The page itself, drawn by
this bundle, is exercised by every seat test under ``tests/browser/``.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import re

import ipycanvas
import pytest

from hexclass import resources

FRONTEND = pathlib.Path(__file__).resolve().parents[2] / "frontend"
STATIC = resources.jupyter_share() / "voila" / "templates" / "hexclass" / "static" / "lite"
BANNER = re.compile(
    r"^/\* hexclass front end, built by frontend/build\.mjs from sources sha256:([0-9a-f]{64}) \*/"
)


def sources_digest() -> str:
    """The digest ``build.mjs`` writes (its ``sourcesDigest``), in the same order."""
    names = ["build.mjs", "package.json", "package-lock.json"]
    names += [f"src/{p.name}" for p in sorted((FRONTEND / "src").iterdir())]
    h = hashlib.sha256()
    for name in names:
        h.update(f"{name}\n".encode())
        h.update((FRONTEND / name).read_bytes())
    amd = pathlib.Path(ipycanvas.__file__).parent / "nbextension" / "static" / "index.js"
    h.update(b"ipycanvas/nbextension/static/index.js\n")
    h.update(amd.read_bytes())
    return h.hexdigest()


@pytest.mark.parametrize("name", ["page.js", "page.css"])
def test_committed_bundle_is_built_from_the_current_sources(name):
    text = (STATIC / name).read_text(encoding="utf-8")
    m = BANNER.match(text)
    assert m, f"{name} has no build banner: rebuild it (cd frontend && npm ci && npm run build)"
    assert m.group(1) == sources_digest(), (
        f"{name} was built from other sources than frontend/ holds now "
        "(or another ipycanvas): rebuild it (cd frontend && npm ci && npm run build)"
    )


def test_bundle_pins_the_widget_packages_the_kernel_speaks():
    """The bundle's ipywidgets front end must speak the kernel's widget protocol: controls 5
    and base 6 are ipywidgets 8's (``_model_module_version`` 2.0.0)."""
    import ipywidgets

    deps = json.loads((FRONTEND / "package.json").read_text())["dependencies"]
    assert ipywidgets.__version__.startswith("8."), ipywidgets.__version__
    assert deps["@jupyter-widgets/controls"].startswith("5.")
    assert deps["@jupyter-widgets/base"].startswith("6.")


def bundle_modules() -> set[str]:
    """The widget modules ``frontend/src/index.js`` registers (its ``MODULES``)."""
    src = (FRONTEND / "src" / "index.js").read_text()
    block = src[src.index("const MODULES = {") : src.index("};", src.index("const MODULES = {"))]
    return set(re.findall(r"^\s*'?([@\w/-]+)'?:", block, flags=re.M)) - {"const MODULES = {"}


def test_the_seat_page_asks_for_it():
    meta = json.loads((resources.pages_dir() / "seat.ipynb").read_text())["metadata"]
    assert meta["hexclass"]["front_end"] == "lite"


def test_every_widget_of_a_seat_page_has_its_module_in_the_bundle(tmp_path):
    """The lite front end knows three widget modules; a widget of any other (the Output
    widget's ``@jupyter-widgets/output``, a third-party package) would show an error on
    the seat page instead of itself. Each seat of a class is built and every widget it
    makes is checked, the hidden ones too."""
    from ipywidgets.widgets import widget as widget_module

    from hexclass.classroom.sessions import create_class, open_seat, open_store
    from hexclass.widgets.coop_seat import SeatApp

    assert bundle_modules() == {"@jupyter-widgets/base", "@jupyter-widgets/controls", "ipycanvas"}
    store = open_store(tmp_path / "class.db")
    try:
        made = create_class(store, teams=1, seed=3)
        for seat in made.teams[0].seats:
            before = set(widget_module._instances)
            SeatApp(open_seat(store, seat.token), poll=False)
            made_now = [w for k, w in widget_module._instances.items() if k not in before]
            assert made_now
            for w in made_now:
                assert w._model_module in bundle_modules(), (seat.token, type(w).__name__)
                assert w._view_module in bundle_modules() | {None, ""}, type(w).__name__
    finally:
        store.close()
