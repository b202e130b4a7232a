import subprocess
import sys

from hexclass import classroom


def test_console_script_reports_version():
    out = subprocess.run(
        [sys.executable, "-m", "hexclass.classroom.cli", "--version"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"hexclass {classroom.__version__}"


def test_classroom_never_imports_ipywidgets():
    code = (
        "import sys, pkgutil, importlib, hexclass.classroom\n"
        "for m in pkgutil.walk_packages(hexclass.classroom.__path__, 'hexclass.classroom.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('ipywidgets' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
