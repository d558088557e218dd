"""The architecture of DESIGN.md section 8, checked: each layer of ``contack_core`` imports only
from the layers below it (lazy and type-checking imports included), and bots see the engine
through its public API, never a primitive."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Bottom to top. A module may import from its own layer and the layers before it.
LAYERS = ["language", "boards", "engine", "primitives", "records", "replay"]
#: Modules above every layer: the public API, the command line, adapters.
TOP = {"contack_core", "contack_core.cli", "contack_core.launch", "contack_core.env_pettingzoo"}
#: Modules below every layer, importing nothing: the version, which the command line reads alone.
BOTTOM = {"contack_core.version"}


def _imports(path: Path, typing_only: bool = True) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in it, with the line; ``typing_only=False``
    leaves out the imports under ``if TYPE_CHECKING:``, which never run."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[ast.AST] = set()
    if not typing_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                skipped.update(child for statement in node.body for child in ast.walk(statement))
    found = []
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _rank(module: str) -> int | None:
    """The layer of a contack_core module (None outside contack_core)."""
    if module in TOP:
        return len(LAYERS)
    if module in BOTTOM:
        return -1
    parts = module.split(".")
    if parts[0] != "contack_core":
        return None
    return LAYERS.index(parts[1])


CORE = sorted((ROOT / "contack_core").rglob("*.py"))


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_layer_imports_only_from_below(path: Path) -> None:
    module = _module(path)
    rank = _rank(module)
    assert rank is not None
    upward = [f"line {line}: {name}" for line, name in _imports(path)
              if (other := _rank(name)) is not None and other > rank]
    assert not upward, f"{module} ({(LAYERS + ['top'])[rank]}) imports from a layer above it: {upward}"


@pytest.mark.parametrize("path", sorted((ROOT / "players").glob("*.py")), ids=lambda p: p.name)
def test_bots_see_the_engine_only(path: Path) -> None:
    allowed = ("contack_core.engine", "contack_core.boards")
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
