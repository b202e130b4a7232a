"""The package as pip installs it: one import namespace (hexclass), the lessons, scenarios,
pages and template as package data, ``python -m hexclass`` and ``hexclass lessons``.

These run from the checkout in seconds; tests/test_wheel_install.py builds the wheel and
serves it from a fresh environment.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap
import tomllib

import pytest

import hexclass
from hexclass import resources

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _python(code: str, *, path: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with the checkout (or ``path``) on PYTHONPATH."""
    env = {**os.environ, "PYTHONPATH": path or str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )


def _folder(package: str) -> pathlib.Path:
    """The checkout folder setuptools installs as ``package`` (its package-dir mapping)."""
    mapping = SETUPTOOLS["package-dir"]
    parts = package.split(".")
    for n in range(len(parts), 0, -1):
        head = ".".join(parts[:n])
        if head in mapping:
            return ROOT / mapping[head] / pathlib.Path(*parts[n:])
    return ROOT / pathlib.Path(*parts)


def _tracked(pattern: str) -> set[pathlib.Path]:
    """Files of the checkout matching ``pattern`` (never editor or Jupyter leftovers)."""
    return {
        p
        for p in ROOT.glob(pattern)
        if p.is_file()
        and not any(
            part.startswith(".") or part == "__pycache__" for part in p.parts[len(ROOT.parts) :]
        )
    }


# --- pyproject.toml: what the wheel holds -----------------------------------------------------


def test_pyproject_lists_every_package_folder_under_hexclass():
    listed = set(SETUPTOOLS["packages"])
    found = {"hexclass", "hexclass.lessons", "hexclass.scenarios"}
    for top in hexclass.SUBPACKAGES:
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(("hexclass", *init.parent.relative_to(ROOT).parts)))
    assert listed == found, (
        f"add to pyproject.toml's packages: {sorted(found - listed)}; "
        f"not folders: {sorted(listed - found)}"
    )
    assert all(_folder(p).is_dir() for p in listed)
    assert _folder("hexclass.classroom.combined_arms.bots") == ROOT / "classroom/combined_arms/bots"
    assert not any(p.split(".")[0] != "hexclass" for p in listed)  # no generic top-level name


def test_package_data_holds_every_lesson_scenario_page_and_template_file():
    packaged: set[pathlib.Path] = set()
    for package, patterns in SETUPTOOLS["package-data"].items():
        for pattern in patterns:
            packaged |= {p for p in _folder(package).glob(pattern) if p.is_file()}
    wanted = (
        _tracked("lessons/*.ipynb")
        | _tracked("scenarios/**/*.toml")
        | _tracked("classroom/pages/*.ipynb")
        | _tracked("classroom/share/**/*")
    )
    assert len(_tracked("lessons/*.ipynb")) >= 10 and len(_tracked("scenarios/**/*.toml")) >= 9
    missing = sorted(str(p.relative_to(ROOT)) for p in wanted - packaged)
    assert not missing, f"not in the wheel (pyproject.toml's package-data): {missing}"


def test_console_script_is_the_hexclass_package():
    assert PYPROJECT["project"]["scripts"] == {"hexclass": "hexclass.__main__:main"}


# --- one name per module ------------------------------------------------------------------------

SAME_MODULE = """
    import importlib, json, sys
    import hexclass
    order = {order!r}
    new = "hexclass.classroom.combined_arms.state"
    old = "classroom.combined_arms.state"  # old name kept
    first, second = (new, old) if order == "new first" else (old, new)
    try:
        a = importlib.import_module(first)
        b = importlib.import_module(second)
    except ImportError as exc:
        print(json.dumps({{"error": str(exc)}}))
        raise SystemExit
    w1 = importlib.import_module("hexclass.widgets.board")
    w2 = importlib.import_module("widgets.board")  # old name kept
    copies = sorted(n for n in sys.modules if n.endswith("combined_arms.state"))
    print(json.dumps({{
        "same": a is b and w1 is w2,
        "isinstance": isinstance(a.Options(), b.Options),
        "names": sorted({{a.__name__, b.__name__, a.__spec__.name}}),
        "files": sorted({{m.__file__ for n, m in sys.modules.items() if n in copies}}),
    }}))
"""


@pytest.mark.parametrize("order", ["new first", "old first"])
def test_a_module_is_loaded_under_one_name_only(order):
    out = _python(SAME_MODULE.format(order=order))
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    if hexclass.NAMESPACED:  # the old top-level name of our own folder is refused, clearly
        assert "import hexclass.classroom" in got["error"], got
        return
    # before the rename the top-level name is the module, the hexclass name is that object
    assert got["same"] and got["isinstance"], got
    assert got["names"] == ["classroom.combined_arms.state"]  # old name kept
    assert got["files"] == [str(ROOT / "classroom/combined_arms/state.py")]


def test_someone_elses_package_called_classroom_is_left_alone(tmp_path):
    (tmp_path / "classroom").mkdir()
    (tmp_path / "classroom" / "__init__.py").write_text("WHO = 'someone else'\n")
    code = """
        import hexclass, classroom
        print(classroom.WHO)
        if hexclass.NAMESPACED:
            from hexclass.classroom.combined_arms.state import Options
            print(Options.__module__)
    """
    out = _python(code, path=f"{tmp_path}{os.pathsep}{ROOT}", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "someone else"
    if hexclass.NAMESPACED:
        assert out.stdout.splitlines()[1] == "hexclass.classroom.combined_arms.state"


def test_python_m_hexclass_is_the_hexclass_command(tmp_path):
    from hexclass.classroom import __version__

    out = subprocess.run(
        [sys.executable, "-m", "hexclass", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"hexclass {__version__}"


# --- package data read through hexclass.resources ---------------------------------------------


def test_resources_find_the_lessons_scenarios_pages_and_template():
    assert resources.root() == ROOT  # a checkout: the repository root, beside hexclass/
    assert [f.name for f in resources.lessons()] == sorted(
        p.name for p in _tracked("lessons/*.ipynb")
    )
    assert (resources.pages_dir() / "home.ipynb").is_file()
    assert (resources.jupyter_share() / "voila/templates/hexclass/conf.json").is_file()
    from hexclass.classroom.combined_arms.scenarios import scenario_names

    assert scenario_names() == sorted(p.stem for p in _tracked("scenarios/ca/*.toml"))


def test_the_home_page_links_every_lesson_where_the_server_finds_it():
    home = json.loads((resources.pages_dir() / "home.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in home["cells"])
    links = re.findall(r"\]\((\.\./\.\./lessons/[^)]+)\)", text)
    assert sorted(pathlib.PurePosixPath(link).name for link in links) == [
        f.name for f in resources.lessons()
    ]
    for link in links:  # relative to the page, under the root Voilà serves (checkout or wheel)
        assert (resources.pages_dir() / link).resolve().is_file(), link


# --- hexclass lessons [DIR] ------------------------------------------------------------------


def test_hexclass_lessons_copies_every_lesson_into_a_folder(tmp_path, capsys):
    from hexclass.classroom.cli import main

    target = tmp_path / "my lessons"
    assert main(["lessons", str(target)]) == 0
    out = capsys.readouterr().out
    names = [f.name for f in resources.lessons()]
    assert sorted(p.name for p in target.iterdir()) == names
    for lesson in resources.lessons():
        assert (target / lesson.name).read_bytes() == lesson.read_bytes()
    assert f"{len(names)} lessons copied to {target}" in out
    assert f"jupyter lab {target}" in out


def test_hexclass_lessons_keeps_a_lesson_the_learner_changed(tmp_path, capsys):
    from hexclass.classroom.cli import main

    assert main(["lessons", str(tmp_path)]) == 0
    first = resources.lessons()[0].name
    (tmp_path / first).write_text("my notes")
    (tmp_path / resources.lessons()[1].name).unlink()
    capsys.readouterr()
    assert main(["lessons", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / first).read_text() == "my notes"  # nothing of the learner's is lost
    assert f"kept your changed {first}" in out and "1 lessons copied" in out
    assert main(["lessons", str(tmp_path), "--force"]) == 0
    assert (tmp_path / first).read_bytes() == resources.lessons()[0].read_bytes()


def test_hexclass_lessons_into_a_file_is_a_clear_error(tmp_path, capsys):
    from hexclass.classroom.cli import main

    target = tmp_path / "notes.txt"
    target.write_text("keep me")
    assert main(["lessons", str(target)]) == 2
    assert "cannot copy the lessons to" in capsys.readouterr().err
    assert target.read_text() == "keep me"
