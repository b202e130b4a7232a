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


@pytest.mark.parametrize("page", ["seat.ipynb", "defender.ipynb"])
def test_the_pages_students_open_on_their_laptops_ask_for_it(page):
    """A team seat, and the defender's page (a student playing the AI's side)."""
    meta = json.loads((resources.pages_dir() / page).read_text())["metadata"]
    assert meta["hexclass"]["front_end"] == "lite"
    assert meta["hexclass"]["math"] is False  # the lite front end typesets nothing


def modules_of_widgets_made_by(build) -> set[tuple[str, str, str]]:
    """(model module, view module, class) of every widget ``build()`` creates, hidden or not,
    and of those its tabs build when first opened (each tab of every Tab is opened in turn)."""
    import ipywidgets as W
    from ipywidgets.widgets import widget as widget_module

    before = set(widget_module._instances)
    build()
    opened: set[str] = set()
    while True:
        made = [w for k, w in widget_module._instances.items() if k not in before]
        tabs = [w for w in made if isinstance(w, W.Tab) and w.model_id not in opened]
        if not tabs:
            break
        for tab in tabs:
            opened.add(tab.model_id)
            for i in range(len(tab.children)):
                tab.selected_index = i
    assert made
    return {(w._model_module, w._view_module or "", type(w).__name__) for w in made}


def assert_in_bundle(modules) -> None:
    known = bundle_modules() | {""}
    missing = sorted(m for m in modules if m[0] not in known or m[1] not in known)
    assert not missing, f"widgets the lite front end cannot draw: {missing}"


def test_every_widget_of_a_seat_page_has_its_module_in_the_bundle(tmp_path):
    """The lite front end knows three widget modules; a widget of any other (the Output
    widget's ``@jupyter-widgets/output``, a third-party package) would show an error on
    the page instead of itself. Each seat of two classes (one with a student defender) is
    built and every widget it makes is checked."""
    from hexclass.classroom.combined_arms import Options
    from hexclass.classroom.sessions import create_class, open_seat, open_store
    from hexclass.classroom.sessions.roles import enemy_player_layout
    from hexclass.widgets.coop_seat import SeatApp
    from hexclass.widgets.hidden_seat import HiddenSeatApp

    assert bundle_modules() == {"@jupyter-widgets/base", "@jupyter-widgets/controls", "ipycanvas"}
    store = open_store(tmp_path / "class.db")
    try:
        plain = create_class(store, teams=1, seed=3)
        against_a_student = create_class(
            store, teams=1, seed=3, seats=enemy_player_layout(5), options=Options(enemy_player=True)
        )
        # seat_page's two apps: a plain team's seat, and a seat of a class against a student
        for app, links in ((SeatApp, plain), (HiddenSeatApp, against_a_student)):
            for seat in links.teams[0].seats:
                session = open_seat(store, seat.token)
                assert_in_bundle(
                    modules_of_widgets_made_by(lambda a=app, s=session: a(s, poll=False))
                )
    finally:
        store.close()


def test_every_widget_of_the_defender_page_has_its_module_in_the_bundle():
    from hexclass.widgets.defender_app import defender_page

    assert_in_bundle(modules_of_widgets_made_by(lambda: defender_page({"seed": "12"})))


def test_a_widget_outside_the_bundle_is_named():
    """The check itself: an Output widget (Voilà's front end draws it, the lite one cannot)."""
    import ipywidgets as W

    with pytest.raises(AssertionError, match="Output"):
        assert_in_bundle(modules_of_widgets_made_by(W.Output))
