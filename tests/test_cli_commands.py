"""The command line finds the command groups of the packages built on the core through the
``contack.commands`` entry-point group, as bots are found (issue 29, item 4): ``contack_core``
runs without ``tournaments`` or ``players``, and one ``fail`` serves every command."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import contack_core.cli as cli
from processes import HANG, REPO

#: What ``contack --help`` lists, in its order (the analysis command first, as it always stood).
COMMANDS = ["analyze", "play", "audit", "keep", "replay", "bench", "rulesets", "players", "record", "tournament"]


def _listed(help_text: str) -> list[str]:
    """The command names of a ``--help`` page's Commands panel."""
    panel = help_text.split("Commands")[1]
    names = []
    for line in panel.splitlines():
        words = line.strip("│ ").split()
        if words and words[0].isidentifier() and line.startswith("│ ") and not line.startswith("│  "):
            names.append(words[0])
    return names


def test_help_lists_every_command_in_the_same_order() -> None:
    result = CliRunner().invoke(cli.app, ["--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    assert _listed(result.output) == COMMANDS


def test_tournament_and_analyze_are_registered_entry_points() -> None:
    names = {entry.name: entry.value for entry in cli.registered_commands()}
    assert names == {"tournament": "tournaments.cli:app", "analyze": "tournaments.analysis.cli:analyze_command"}


class _Entry:
    """An entry point standing in for an installed package's (name, value, load)."""

    def __init__(self, name: str, loaded: Any) -> None:
        self.name, self.value, self._loaded = name, f"somewhere:{name}", loaded

    def load(self) -> Any:
        if isinstance(self._loaded, Exception):
            raise self._loaded
        return self._loaded


def test_a_package_adds_commands_and_groups_through_the_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    group = typer.Typer(help="A group of someone's commands.", no_args_is_help=True)

    @group.command("wave")
    def wave() -> None:
        typer.echo("waved")

    @group.command("nod")
    def nod() -> None:
        typer.echo("nodded")

    def hello(name: str) -> None:
        """Say hello."""
        typer.echo(f"hello {name}")

    entries = [_Entry("hello", hello), _Entry("gestures", group), _Entry("play", hello),
               _Entry("broken", ImportError("No module named 'gone'")), _Entry("odd", 42)]
    monkeypatch.setattr(cli, "registered_commands", lambda: entries)
    runner = CliRunner()
    listed = _listed(runner.invoke(cli.app, ["--help"], terminal_width=80).output)
    # added commands first among commands, added groups last; the core's own name wins over a package's
    assert listed == ["hello", "broken", "odd", "play", "audit", "keep", "replay", "bench", "rulesets", "players",
                      "record", "gestures"]
    assert runner.invoke(cli.app, ["hello", "you"]).output == "hello you\n"
    assert runner.invoke(cli.app, ["gestures", "nod"]).output == "nodded\n"
    assert "Play one game" in runner.invoke(cli.app, ["play", "--help"]).output
    broken = runner.invoke(cli.app, ["broken", "--anything"])
    assert (broken.exit_code, broken.output) == (
        1, "error: command 'broken' cannot be loaded (somewhere:broken): ImportError: No module named 'gone'\n")
    odd = runner.invoke(cli.app, ["odd"])
    assert odd.exit_code == 1 and odd.output.startswith("error: command 'odd' cannot be loaded")
    assert "int is neither a typer.Typer nor a function" in odd.output


_WITHOUT_STACK = """
import sys
sys.modules["tournaments"] = None  # import tournaments fails: the stack is not there
sys.modules["players"] = None
sys.argv = ["contack", *sys.argv[1:]]
from contack_core.cli import main
main()
"""


def _without_stack(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _WITHOUT_STACK, *args], capture_output=True, text=True,
                          cwd=REPO, timeout=HANG)


def test_the_core_command_line_runs_without_the_tournament_stack() -> None:
    listed = _without_stack("rulesets", "list")
    assert listed.returncode == 0, listed.stderr
    assert "parker-1939" in listed.stdout
    validated = _without_stack("rulesets", "validate", "parker-1939")
    assert validated.returncode == 0, validated.stderr
    help_page = _without_stack("--help")
    assert help_page.returncode == 0, help_page.stderr
    assert sorted(_listed(help_page.stdout)) == sorted(COMMANDS)  # listed still, saying it cannot be loaded
    tournament = _without_stack("tournament", "report", ".")
    assert tournament.returncode == 1
    assert tournament.stderr.startswith("error: command 'tournament' cannot be loaded (tournaments.cli:app): ")
    assert "Traceback" not in tournament.stderr and len(tournament.stderr.splitlines()) == 1


def test_fail_is_defined_once() -> None:
    """``contack_core.cli.fail`` is the only ``fail``: the tournament and analysis commands use it."""
    defined = [f"{path.relative_to(REPO)}:{node.lineno} {node.name}"
               for top in ("contack_core", "players", "tournaments")
               for path in sorted((REPO / top).rglob("*.py"))
               for node in ast.parse(path.read_text(encoding="utf-8")).body
               if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") in {"fail", "die", "abort"}]
    assert defined == ["contack_core/cli.py:" + str(_line_of(REPO / "contack_core/cli.py", "def fail(")) + " fail"]


def _line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(text))


def test_tournament_failures_go_through_the_one_fail() -> None:
    """A control character in a tournament's message is shown escaped, as the core's commands show it."""
    result = CliRunner().invoke(cli.app, ["tournament", "report", "no\x1bwhere"])
    assert result.exit_code == 1
    assert "\x1b" not in result.output and "no\\x1bwhere" in result.output


def test_a_core_command_loads_no_registered_command() -> None:
    """``contack rulesets list`` neither reads the entry points nor imports the tournament stack."""
    script = ("import sys\nfrom typer.testing import CliRunner\nimport contack_core.cli as cli\n"
              "read = []\ncli.registered_commands = lambda: read.append(1) or []\n"
              "result = CliRunner().invoke(cli.app, ['rulesets', 'list'])\nassert result.exit_code == 0, result.output\n"
              "print(sorted(name for name in sys.modules if name.split('.')[0] in ('tournaments', 'players')), read)\n"
              "CliRunner().invoke(cli.app, ['--help'])\nprint(read)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[] []", "[1]"]  # read for the list of commands only
