"""The benchmark commands the README and docs/performance.md give run as written (with a
few games instead of thousands: speed is measured by them, never asserted here), and
`make bench` says what it needs when the yardstick is absent."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from helpers import run_cli as run
from processes import HANG

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    """Every `contack bench` or `contack audit` line of the README's Performance section and
    of docs/performance.md, inside code blocks or backquotes."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    texts = [readme[readme.index("## Performance"):], (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")]
    found: list[str] = []
    for text in texts:
        joined = re.sub(r"\n(?=[^\n`]*`)", " ", text)  # a command in backquotes may wrap
        found += re.findall(r"^contack (?:bench|audit) [^#\n]*", text, re.M)
        found += re.findall(r"`(contack (?:bench|audit) [^`']*)`", joined)
        found += re.findall(r"'(contack (?:bench|audit) [^`']*)'", joined)
    placeholder = re.compile(r"[A-Z]{3,}")  # RULESET, ONE.jsonl: a shape, not a command to run
    return sorted({" ".join(command.split()) for command in found if not placeholder.search(command)})


COMMANDS = _commands()


def test_the_docs_give_the_commands() -> None:
    assert any("--audit" in command for command in COMMANDS), COMMANDS
    assert any("--compare" in command for command in COMMANDS), COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_a_documented_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the record the docs audit: a game played here
    assert run("play", "parker-1939", "--seats", "random,random", "--seed", "1", "--record", "game.jsonl",
               "--quiet").exit_code == 0
    words = shlex.split(command)[1:]
    fewer = {"--games": "4", "--rounds": "1"}
    words = [fewer.get(before, word) for before, word in zip(["", *words], words)]
    if "--compare" in words:
        at = words.index("--compare")
        yardstick = ROOT / words[at + 1]
        if yardstick.is_file():
            words[at + 1] = str(yardstick)
        else:
            del words[at:at + 2]  # the yardstick is not part of this project
    words += ["--rounds", "1"] if words[0] == "bench" and "--rounds" not in words else []
    result = run(*words)
    assert result.exit_code == 0, (command, result.output)


def test_make_bench_says_what_it_needs(tmp_path: Path) -> None:
    stamp = ROOT / ".venv" / ".demo"
    newest = max((ROOT / name).stat().st_mtime for name in ("pyproject.toml", "constraints.txt"))
    if not stamp.is_file() or stamp.stat().st_mtime < newest:
        pytest.skip("make bench would install .venv first (run make test once)")
    done = subprocess.run(["make", "-s", "bench", f"YARDSTICK={tmp_path / 'none.py'}", "BENCH_GAMES=3"], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no yardstick at" in done.stdout and "YARDSTICK=PATH" in done.stdout
    assert "audit_ratio" in done.stdout and "games_per_s" in done.stdout
