"""`contack --version` and `contack --help` start without loading the engine: they are what a
person types first, and they should answer as soon as Python does. Checked in a subprocess by
what `python -X importtime` says was imported (speed is never asserted)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from contack_core.version import __version__

#: What neither command may load: the engine, and everything built on it.
HEAVY = ("contack_core.engine", "contack_core.primitives", "contack_core.boards", "contack_core.records",
         "contack_core.replay", "players", "yaml", "jsonschema", "numpy")


def imported(*args: str, module: str = "contack_core.cli") -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``contack ARGS`` as ``python -m MODULE``; the modules it imported."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", module, *args],
                         capture_output=True, text=True, timeout=120, check=False)
    modules = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return run, modules


@pytest.mark.parametrize("module", ["contack_core.cli", "contack_core.launch"])
@pytest.mark.parametrize("args", [("--version",), ("--help",)])
def test_version_and_help_do_not_import_the_engine(args: tuple[str, ...], module: str) -> None:
    run, modules = imported(*args, module=module)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "contack_core.cli" in modules or "contack_core" in modules  # the check sees the imports
    heavy = sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert not heavy, f"contack {' '.join(args)} imported {heavy}"
    if args == ("--version",):
        assert run.stdout.strip() == f"contack {__version__}"
    else:
        assert "play" in run.stdout and "tournament" in run.stdout


def test_the_check_would_see_the_engine_imported() -> None:
    """The same probe on a command that plays does see the engine: the check can fail."""
    run, modules = imported("rulesets", "list")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "contack_core.engine" in modules


def test_the_engine_still_names_the_version() -> None:
    from contack_core import __version__ as public
    from contack_core.engine import __version__ as engine

    assert public == engine == __version__


def test_the_contack_command_answers_version_before_importing_the_command_line() -> None:
    """The installed ``contack`` starts in contack_core.launch: ``--version`` imports neither Typer
    nor Rich (most of a command's start); anything else is the command line's, errors included."""
    run, modules = imported("--version", module="contack_core.launch")
    assert run.returncode == 0 and run.stdout == f"contack {__version__}\n"
    assert not {m for m in modules if m.split(".")[0] in ("typer", "rich", "click", "attrs", "attr")}
    assert "contack_core.cli" not in modules
    bad, _ = imported("--no-such-flag", module="contack_core.launch")
    assert bad.returncode == 2 and "No such option" in bad.stderr and "Traceback" not in bad.stderr


def test_the_installed_command_is_the_launcher() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["contack"] == "contack_core.launch:main"
