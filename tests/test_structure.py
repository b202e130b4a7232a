"""The shape of the tree: no import cycles, no oversized module, the engine free of bots.

Every module of ``classroom/`` and ``widgets/`` is parsed with :mod:`ast` (nothing is
imported or run). Each ``import`` statement counts, wherever it stands: at the top of
the module, inside a function, under ``if TYPE_CHECKING:`` or in a ``try:`` block. An
import hidden in a function still ties two modules together, so it cannot be used to
paper over a cycle.

The folders are the packages ``hexclass.classroom`` and ``hexclass.widgets``; relative
imports are resolved the way Python resolves them. ``from package import name`` points at
the submodule ``package.name`` when there is one, otherwise at the package itself (its
``__init__``). Importing ``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__``; those
implicit parent imports are not drawn, as in the usual import-graph tools, else every
package that re-exports its modules would be a cycle with each of them.
"""

from __future__ import annotations

import ast
import pathlib
from collections import deque

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = {"classroom": "hexclass.classroom", "widgets": "hexclass.widgets"}
MAX_LINES = 900
ENGINE = "hexclass.classroom.combined_arms"
BOTS = "hexclass.classroom.combined_arms.bots"
# The modules of combined_arms/ that use both the engine and the bots, kept at the addresses
# pages, notebooks and tests import them from: they sit above both, and nothing in the
# engine or the bots imports them.
ABOVE = frozenset(
    f"{ENGINE}.{name}"
    for name in (
        "bot",  # the bots by their old address
        "simulate",  # the balance lab: many games of a named policy
        "defender_game",  # a learner defends against a named attacker bot
    )
)


def _modules() -> dict[str, pathlib.Path]:
    """Dotted name -> file, for every .py under the two package folders."""
    found = {}
    for folder, dotted in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([dotted, *parts])] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve_from(name: str, node: ast.ImportFrom) -> str | None:
    """The absolute module a ``from ... import`` names (None if it climbs out of the tree)."""
    if not node.level:
        return node.module
    package = name if _is_package(name) else name.rpartition(".")[0]
    parts = package.split(".")
    if node.level - 1 >= len(parts):
        return None
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _known(dotted: str) -> str | None:
    """The longest prefix of ``dotted`` that is one of our modules."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in MODULES:
            return candidate
    return None


def _imports(name: str) -> set[str]:
    """The modules of the tree that module ``name`` imports, anywhere in its body."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"), filename=str(MODULES[name]))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(_known(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(name, node)
            if base is None:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in MODULES else _known(base))
    targets.discard(None)
    targets.discard(name)
    return targets


GRAPH = {name: _imports(name) for name in MODULES}


def _strong_components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def _shortest_cycle(start: str, members: set[str]) -> list[str]:
    """A shortest import chain from ``start`` back to itself, within one component."""
    previous = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(GRAPH[node] & members):
            if child == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if child not in previous:
                previous[child] = node
                queue.append(child)
    return [start]


def _short(name: str) -> str:
    return name.removeprefix("hexclass.")


def import_cycles() -> list[list[str]]:
    """Each cycle of imports as a chain ``a -> b -> ... -> a`` (one per module in a cycle,
    deduplicated), so that a report names every link to cut."""
    cycles = []
    seen = set()
    for component in _strong_components(GRAPH):
        if len(component) < 2:
            continue
        members = set(component)
        for start in component:
            chain = _shortest_cycle(start, members)
            key = frozenset(zip(chain, chain[1:]))
            if key not in seen:
                seen.add(key)
                cycles.append(chain)
    return cycles


def test_the_graph_sees_imports_of_every_kind():
    """The parser itself: relative, absolute, in-function and submodule imports all count."""
    assert f"{ENGINE}.engine" in GRAPH[ENGINE]  # from .engine import apply (package __init__)
    assert f"{ENGINE}.state" in GRAPH[f"{ENGINE}.engine"]
    assert "hexclass.classroom.hexgrid" in GRAPH[f"{ENGINE}.board"]
    assert "hexclass.widgets.coach" in GRAPH["hexclass.widgets.ca_app"]  # inside solitaire_app
    assert all(name.startswith(("hexclass.classroom", "hexclass.widgets")) for name in MODULES)
    assert len(MODULES) > 100


def test_the_cycle_finder_names_each_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}
    assert sorted(_strong_components(graph)) == [["a", "b", "c"], ["d", "e"], ["f"]]


def test_no_import_cycles():
    cycles = import_cycles()
    report = "\n".join(" -> ".join(_short(m) for m in chain) for chain in cycles)
    assert not cycles, f"{len(cycles)} import cycle(s):\n{report}"


def test_no_module_over_900_lines():
    sizes = {
        _short(name): len(path.read_text(encoding="utf-8").splitlines())
        for name, path in MODULES.items()
    }
    big = {name: n for name, n in sorted(sizes.items()) if n > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def _reachable(start: str) -> dict[str, str | None]:
    """Every module ``start`` imports, directly or not, with the module that imports it."""
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(GRAPH[node]):
            if child not in previous:
                previous[child] = node
                queue.append(child)
    return previous


def _in_bots(name: str) -> bool:
    return name == BOTS or name.startswith(BOTS + ".")


def _engine_modules() -> list[str]:
    """combined_arms/ without bots/ and without the modules that sit above both."""
    return sorted(
        name
        for name in MODULES
        if (name == ENGINE or name.startswith(ENGINE + "."))
        and not _in_bots(name)
        and name not in ABOVE
    )


def _chain(previous: dict[str, str | None], hit: str) -> str:
    chain = [hit]
    while previous[chain[-1]] is not None:
        chain.append(previous[chain[-1]])
    return " -> ".join(_short(m) for m in reversed(chain))


def test_the_engine_does_not_import_the_bots():
    """No module of the engine reaches bots/, even through another module."""
    engine = _engine_modules()
    assert f"{ENGINE}.engine" in engine and f"{ENGINE}.quick" in engine
    assert set(MODULES) >= ABOVE, "a module named in ABOVE is gone: update the list"
    leaks = []
    for name in engine:
        previous = _reachable(name)
        hit = next((m for m in previous if _in_bots(m)), None)
        if hit is not None:
            leaks.append(_chain(previous, hit))
    assert not leaks, "the engine imports the bots:\n" + "\n".join(leaks)


def test_the_modules_above_the_engine_and_the_bots_stay_on_top():
    """simulate, defender_game and the bot shim use both layers; neither layer uses them."""
    below = [name for name in MODULES if name.startswith(ENGINE) and name not in ABOVE]
    upward = sorted(
        f"{_short(name)} -> {_short(target)}" for name in below for target in GRAPH[name] & ABOVE
    )
    assert not upward, "the engine or the bots import a module above them:\n" + "\n".join(upward)
