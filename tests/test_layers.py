"""The architecture of DESIGN.md section 8, checked: each layer of ``contack_core`` imports only
from the layers below it (lazy and type-checking imports included), and bots see the engine
through its public API, never a primitive."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Bottom to top. A module may import from its own layer and the layers before it.
LAYERS = ["language", "boards", "engine", "primitives", "records", "replay", "web"]
#: Modules above every layer: the public API, the command line, adapters.
TOP = {"contack_core", "contack_core.cli", "contack_core.launch", "contack_core.env_pettingzoo"}
#: Modules below every layer, importing nothing of contack: the keeper, a process supervisor run
#: as a standalone script (``python -I -S``) by external bots and tournament workers, and the
#: version, which the command line reads alone.
BASE = {"contack_core.extras", "contack_core.processes", "contack_core.version"}
#: The top-level packages built on contack_core, bottom to top: bots, then tournaments (which run
#: bots). contack_core imports neither, players never tournaments.
ABOVE = ["players", "tournaments"]
NAMES = ["base", *LAYERS, "top", *ABOVE]


def _exists(module: str) -> bool:
    """Whether ``module`` is a module or package of this repository."""
    base = ROOT.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_in(source: str, module: str, is_package: bool = False,
               typing_only: bool = True) -> list[tuple[int, str]]:
    """Every module the source of ``module`` imports, anywhere in it, with the line.

    Relative imports are resolved against ``module`` (a package's own name if ``is_package``),
    and ``from PACKAGE import NAME`` names ``PACKAGE.NAME`` too when that is a module of this
    repository (``from contack_core import cli`` imports the command line); a module named by a
    literal in ``importlib.import_module("...")`` or ``__import__("...")`` counts too. ``typing_only=False``
    leaves out the imports under ``if TYPE_CHECKING:``, which never run."""
    tree = ast.parse(source)
    skipped: set[ast.AST] = set()
    if not typing_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                skipped.update(child for statement in node.body for child in ast.walk(statement))
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
                source_module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source_module = node.module or ""
            found.append((node.lineno, source_module))
            found.extend((node.lineno, f"{source_module}.{alias.name}") for alias in node.names
                         if _exists(f"{source_module}.{alias.name}"))
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None))
              in ("import_module", "__import__")):
            found.append((node.lineno, node.args[0].value))
    return found


def _imports(path: Path, typing_only: bool = True) -> list[tuple[int, str]]:
    return imports_in(path.read_text(encoding="utf-8"), _module(path), path.name == "__init__.py", typing_only)


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _rank(module: str) -> int | None:
    """The layer of a module of this repository, bottom up (None for the standard library and
    the packages installed, which every layer may use)."""
    if module in BASE:
        return 0
    if module in TOP:
        return len(LAYERS) + 1
    parts = module.split(".")
    if parts[0] in ABOVE:
        return len(LAYERS) + 2 + ABOVE.index(parts[0])
    if parts[0] != "contack_core":
        return None
    return 1 + LAYERS.index(parts[1]) if parts[1] in LAYERS else len(LAYERS) + 1


def upward(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` from a layer above its own, as ``line N: NAME``."""
    rank = _rank(module)
    assert rank is not None, f"{module} is in no layer"
    return [f"line {line}: {name}" for line, name in imports_in(source, module, is_package)
            if (other := _rank(name)) is not None and other > rank]


CORE = sorted((ROOT / "contack_core").rglob("*.py"))
#: Every module of every top-level package.
EVERY = sorted(path for top in ("contack_core", *ABOVE) for path in (ROOT / top).rglob("*.py"))


@pytest.mark.parametrize("path", EVERY, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_layer_imports_only_from_below(path: Path) -> None:
    module = _module(path)
    wrong = upward(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    assert not wrong, f"{module} ({NAMES[_rank(module) or 0]}) imports from a layer above it: {wrong}"


def test_the_process_supervisor_needs_only_the_standard_library() -> None:
    """The keeper runs as ``python -I -S contack_core/processes.py``: no site-packages, no contack."""
    for module in BASE:
        path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
        imported = {name.split(".")[0] for _, name in _imports(path)}
        assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


@pytest.mark.parametrize("path", sorted((ROOT / "players").glob("*.py")), ids=lambda p: p.name)
def test_bots_see_the_engine_only(path: Path) -> None:
    allowed = ("contack_core.engine", "contack_core.boards", *BASE)  # and the keeper of exec: bots
    wrong = [f"line {line}: {name}" for line, name in _imports(path)
             if name.startswith("contack_core") and name != "contack_core" and not name.startswith(allowed)]
    assert not wrong, f"players/{path.name} reaches past the engine's API: {wrong}"


def test_no_import_circle_between_modules() -> None:
    """No circle among the imports that run (type-checking imports may name each other)."""
    graph = {_module(path): {name for _, name in _imports(path, typing_only=False) if name.startswith("contack_core")}
             for path in CORE}
    visiting, done = set(), set()

    def visit(module: str, trail: list[str]) -> None:
        if module in done or module not in graph:
            return
        if module in visiting:
            cycle = trail[trail.index(module):] + [module]
            pytest.fail("import circle: " + " -> ".join(cycle))
        visiting.add(module)
        for other in sorted(graph[module]):
            visit(other, [*trail, module])
        visiting.discard(module)
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


#: Upward imports of every kind the checker must catch: (the importing module, is it a package,
#: the source planted in it, the import it must report).
PLANTED = {
    "absolute": ("contack_core.engine.state", False, "from contack_core.records.format import RecordWriter\n",
                 "contack_core.records.format"),
    "absolute, plain import": ("contack_core.language.schema", False, "import contack_core.boards.lattice\n",
                               "contack_core.boards.lattice"),
    "absolute, lazy, in a function": ("contack_core.boards.tiles", False,
                                      "def f():\n    from contack_core.primitives import registry\n",
                                      "contack_core.primitives.registry"),
    "absolute, for type checking only": ("contack_core.engine.rules", False,
                                         "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                         "    from contack_core.replay.timeline import Timeline\n",
                                         "contack_core.replay.timeline"),
    "relative, a sibling layer's module": ("contack_core.engine.state", False, "from ..records import format\n",
                                           "contack_core.records.format"),
    "relative, from a module above": ("contack_core.engine.state", False, "from ..primitives.loading import load_rules\n",
                                      "contack_core.primitives.loading"),
    "relative, from a package's __init__": ("contack_core.language", True, "from ..engine import actions\n",
                                            "contack_core.engine.actions"),
    "package-level public API": ("contack_core.primitives.turn", False, "from contack_core import load_rules\n",
                                 "contack_core"),
    "package-level, relative": ("contack_core.records.audit", False, "from .. import GameState\n", "contack_core"),
    "package-level, a submodule": ("contack_core.engine.referee", False, "from contack_core import cli\n",
                                   "contack_core.cli"),
    "core importing tournaments": ("contack_core.cli", False, "from tournaments.cli import app\n",
                                   "tournaments.cli"),
    "core importing players": ("contack_core.engine.bots", False, "def f():\n    import players.greedy\n",
                               "players.greedy"),
    "core importing a top-level package": ("contack_core.replay.cli", False, "import tournaments\n", "tournaments"),
    "the keeper importing the engine": ("contack_core.processes", False, "from contack_core.engine import bots\n",
                                        "contack_core.engine.bots"),
    "core importing by name": ("contack_core.cli", False,
                               "import importlib\ndef f():\n    return importlib.import_module('tournaments.cli')\n",
                               "tournaments.cli"),
    "core importing by __import__": ("contack_core.engine.bots", False, "def f():\n    __import__('players.mcts')\n",
                                     "players.mcts"),
    "players importing tournaments": ("players.mcts", False, "from tournaments.runner import run_tournament\n",
                                      "tournaments.runner"),
    "players importing tournaments, relative": ("players.mcts", False, "from ..tournaments import store\n",
                                                "tournaments.store"),
}


@pytest.mark.parametrize("kind", PLANTED)
def test_a_planted_upward_import_is_caught(kind: str) -> None:
    module, is_package, source, imported = PLANTED[kind]
    caught = upward(source, module, is_package)
    assert caught and caught[-1].endswith(f": {imported}"), f"{kind}: {source!r} in {module} was not caught ({caught})"


@pytest.mark.parametrize("module, source", [
    ("contack_core.engine.state", "from . import actions\nfrom .events import Played\n"),
    ("contack_core.records.format", "from ..engine.state import GameState\nfrom contack_core.language import programs\n"),
    ("contack_core.cli", "from contack_core import engine\nimport typer\nfrom . import env_pettingzoo\n"),
    ("players.mcts", "from contack_core import load_rules\nfrom contack_core.engine.bots import Player\n"),
    ("tournaments.runner", "from players.external import ExternalPlayer\nfrom contack_core.cli import fail\n"),
])
def test_imports_from_below_are_not_reported(module: str, source: str) -> None:
    """The checker reports what is wrong only: a checker that flags everything would pass the test above."""
    assert upward(source, module) == []


def test_the_old_command_line_is_caught() -> None:
    """Before issue 29, contack_core/cli.py imported the tournament commands at module top."""
    old = "from contack_core.engine import __version__\nfrom tournaments.cli import app as tournament_app\n"
    assert upward(old, "contack_core.cli") == ["line 2: tournaments.cli"]
