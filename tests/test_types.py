"""The type checker in CI (issue 29, item 5): mypy, configured in pyproject.toml, passes on the
public API and the engine (and the layers listed with them), strictly; and it is really looking,
as a module that misuses the public API shows."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from processes import HANG

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]

#: A user's module that gets the public API wrong twice; mypy must name both lines.
MISUSE = """\
from contack_core import GameState, load_rules


def first_move(state: GameState) -> str:
    state.apply("play 27 at 5,-7")
    return state.current_seat()


rules = load_rules("parker-1939", {})
"""


def test_the_public_api_and_the_engine_are_checked_strictly() -> None:
    assert CONFIG["strict"] is True
    assert "contack_core" in CONFIG["files"]  # every module of the core
    for override in CONFIG["overrides"]:  # no module of the core has its checks switched off wholesale
        assert not override.get("ignore_errors") and override.get("disallow_untyped_defs", True), override


def test_mypy_passes_on_the_configured_files_and_catches_a_misuse(tmp_path: Path) -> None:
    """One mypy run: the configured files and a misusing module; the only errors are the misuse's."""
    misuse = tmp_path / "misuse.py"
    misuse.write_text(MISUSE, encoding="utf-8")
    files = [str(ROOT / name) for name in CONFIG["files"]]
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "--no-color-output",
                           "--show-error-codes", *files, str(misuse)],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG)
    errors = [line for line in done.stdout.splitlines() if re.search(r":\d+: error:", line)]
    assert done.returncode == 1, done.stdout + done.stderr
    elsewhere = [line for line in errors if not line.startswith(str(misuse))]
    assert not elsewhere, "mypy finds errors in the checked files:\n" + "\n".join(elsewhere)
    assert [int(line.split(":")[1]) for line in errors] == [5, 6], done.stdout
    assert "[arg-type]" in errors[0] and "[return-value]" in errors[1], done.stdout
