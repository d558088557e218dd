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


def imported(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``contack ARGS`` as ``python -m contack_core.cli``; the modules it imported."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "contack_core.cli", *args],
                         capture_output=True, text=True, timeout=120, check=False)
    modules = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return run, modules


@pytest.mark.parametrize("args", [("--version",), ("--help",)])
def test_version_and_help_do_not_import_the_engine(args: tuple[str, ...]) -> None:
    run, modules = imported(*args)
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
