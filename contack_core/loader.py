"""Loading rulesets: YAML with positions, ``extends``, options, schema, then meaning.

A ruleset goes through four gates, and nothing half-loaded ever runs:

1. safe YAML parsing, keeping the file, line and column of every key;
2. ``extends`` resolution (a deep merge: mappings merge, anything else replaces, ``null``
   deletes) and option selection (each option a typed value or a choice that patches
   the document);
3. JSON Schema validation of the resolved document (structure and primitive parameters);
4. building the primitives, which compiles every expression and checks every reference
   (unknown primitive, unknown name in an expression, a zone that does not exist).

Every problem is reported as ``file:line:column: at key.path: what is wrong``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import yaml

from contack_core.expressions import ExpressionError, compile_expression
from contack_core.primitives.registry import SLOTS, BuildContext, PrimitiveError, Registry, default_registry
from contack_core.schema import ruleset_schema

KeyPath = tuple[str | int, ...]


@attrs.frozen
class Mark:
    file: str
    line: int
    column: int


@attrs.frozen
class Problem:
    """One thing wrong with a ruleset, and where."""

    message: str
    path: KeyPath = ()
    mark: Mark | None = None

    def __str__(self) -> str:
        where = f"{self.mark.file}:{self.mark.line}:{self.mark.column}: " if self.mark else ""
        at = f"at {format_path(self.path)}: " if self.path else ""
        return f"{where}{at}{self.message}"


class RulesetError(ValueError):
    """A ruleset that cannot be loaded; ``problems`` lists every reason found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def format_path(path: KeyPath) -> str:
    return ".".join(str(part) for part in path) or "(top)"


# --------------------------------------------------------------------------- locating files
def shipped_rulesets_dir() -> Path:
    """The rulesets that ship with the package (inside the wheel, or the source checkout)."""
    packaged = resources.files("contack_core") / "rulesets"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "rulesets"


def shipped_ruleset_ids() -> list[str]:
    return sorted(p.stem for p in shipped_rulesets_dir().glob("*.yaml"))


#: How a shipped house-rule example is named: ``examples/threes`` (the bare ``threes`` works too).
EXAMPLES_PREFIX = "examples/"


def shipped_example(reference: str) -> Path | None:
    """The shipped example file ``examples/NAME`` names, or None if it names none.

    It is looked up before any path, so it names the shipped example whatever the working
    directory holds (an ``examples/...`` naming no shipped example is a path, as before).
    """
    name = reference.removeprefix(EXAMPLES_PREFIX)
    if name == reference or not name or "/" in name or name.endswith((".yaml", ".yml")):
        return None
    candidate = shipped_rulesets_dir() / "examples" / f"{name}.yaml"
    return candidate if candidate.is_file() else None


def shipped_example_ids() -> list[str]:
    """Every shipped example, named as ``examples/NAME``."""
    return sorted(EXAMPLES_PREFIX + p.stem for p in (shipped_rulesets_dir() / "examples").glob("*.yaml"))


def find_ruleset(reference: str, relative_to: Path | None = None) -> Path:
    """A ruleset file from a shipped ruleset id, a shipped example (``examples/NAME`` or
    ``NAME``) or a path (absolute or relative)."""
    example = shipped_example(reference)
    if example is not None:
        return example
    candidates = []
    if reference.endswith((".yaml", ".yml")) or "/" in reference:
        if relative_to is not None:
            candidates.append(relative_to / reference)
        candidates.append(Path(reference))
    else:
        candidates.append(shipped_rulesets_dir() / f"{reference}.yaml")
        candidates.append(shipped_rulesets_dir() / "examples" / f"{reference}.yaml")
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    known = ", ".join([*shipped_ruleset_ids(), *shipped_example_ids()])
    raise RulesetError([Problem(f"no ruleset {reference!r}: not a file, and not a shipped ruleset id ({known})")])


# --------------------------------------------------------------------------- YAML with marks
def parse_yaml(text: str, file: str) -> tuple[Any, dict[KeyPath, Mark]]:
    """Parse YAML safely, returning the data and the position of every key and item."""
    marks: dict[KeyPath, Mark] = {}
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as error:
        raise RulesetError([_reader_problem(error, text, file)]) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None, marks

        def build(node: yaml.Node, path: KeyPath) -> Any:
            marks[path] = Mark(file, node.start_mark.line + 1, node.start_mark.column + 1)
            if isinstance(node, yaml.MappingNode):
                loader.flatten_mapping(node)
                result: dict[Any, Any] = {}
                for key_node, value_node in node.value:
                    key = loader.construct_object(key_node, deep=True)
                    if not isinstance(key, (str, int)):
                        mark = key_node.start_mark
                        raise yaml.MarkedYAMLError(problem=f"a key must be a string, found {key!r}",
                                                   problem_mark=mark)
                    if key in result:
                        raise yaml.MarkedYAMLError(problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark)
                    result[key] = build(value_node, (*path, key))
                    marks[(*path, key)] = Mark(file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                return result
            if isinstance(node, yaml.SequenceNode):
                return [build(item, (*path, i)) for i, item in enumerate(node.value)]
            return loader.construct_object(node, deep=True)

        return build(node, ()), marks
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = Mark(file, mark.line + 1, mark.column + 1) if mark else None
        raise RulesetError([Problem(f"not valid YAML: {error.problem or error}", (), where)]) from None
    except yaml.reader.ReaderError as error:
        raise RulesetError([_reader_problem(error, text, file)]) from None
    except RecursionError:
        raise RulesetError([Problem("not valid YAML: nested too deeply", (), Mark(file, 1, 1))]) from None
    except yaml.YAMLError as error:
        raise RulesetError([Problem(f"not valid YAML: {error}", (), Mark(file, 1, 1))]) from None
    finally:
        loader.dispose()


def _reader_problem(error: yaml.reader.ReaderError, text: str, file: str) -> Problem:
    """A character YAML refuses (a NUL, say), located by line and column."""
    line = text.count("\n", 0, error.position) + 1
    column = error.position - (text.rfind("\n", 0, error.position) + 1) + 1
    return Problem(f"not valid YAML: character #x{error.character:04x} is not allowed", (), Mark(file, line, column))


# --------------------------------------------------------------------------- extends + merge
@attrs.define
class Document:
    """A ruleset document after ``extends``: the data, and where each key came from."""

    data: dict[str, Any]
    marks: dict[KeyPath, Mark]
    path: Path
    chain: list[str]

    def mark(self, path: KeyPath) -> Mark | None:
        """The position of ``path``, or of its nearest ancestor that has one."""
        for end in range(len(path), -1, -1):
            mark = self.marks.get(path[:end])
            if mark is not None:
                return mark
        return None

    def problem(self, message: str, path: KeyPath) -> Problem:
        return Problem(message, path, self.mark(path))


def merge(base: Any, override: Any, base_marks: dict[KeyPath, Mark], override_marks: dict[KeyPath, Mark],
          path: KeyPath = ()) -> Any:
    """Deep-merge ``override`` onto ``base``: mappings merge, ``None`` deletes, others replace."""
    if isinstance(base, dict) and isinstance(override, dict):
        result = dict(base)
        for key, value in override.items():
            sub = (*path, key)
            if value is None:
                result.pop(key, None)
                _drop_marks(base_marks, sub)
            elif key in result:
                result[key] = merge(result[key], value, base_marks, override_marks, sub)
            else:
                result[key] = value
                _copy_marks(override_marks, base_marks, sub)
        if path in override_marks:  # the overriding file is where this mapping is now written
            base_marks[path] = override_marks[path]
        return result
    _drop_marks(base_marks, path)
    _copy_marks(override_marks, base_marks, path)
    return copy.deepcopy(override)


def _drop_marks(marks: dict[KeyPath, Mark], prefix: KeyPath) -> None:
    for key in [k for k in marks if k[: len(prefix)] == prefix]:
        del marks[key]


def _copy_marks(source: dict[KeyPath, Mark], target: dict[KeyPath, Mark], prefix: KeyPath) -> None:
    for key, mark in source.items():
        if key[: len(prefix)] == prefix:
            target[key] = mark


def read_document(path: Path, seen: tuple[Path, ...] = ()) -> Document:
    """Read a ruleset file and resolve its ``extends`` chain."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesetError([Problem(f"cannot read {path}: {error.strerror}")]) from None
    except UnicodeDecodeError:
        raise RulesetError([Problem(f"{path} is not UTF-8 text")]) from None
    data, marks = parse_yaml(text, str(path))
    if not isinstance(data, dict):
        raise RulesetError([Problem("a ruleset is a YAML mapping of keys to values", (), Mark(str(path), 1, 1))])
    parent_ref = data.pop("extends", None)
    if parent_ref is None:
        return Document(data, marks, path, [str(data.get("id", path.stem))])
    if not isinstance(parent_ref, str):
        raise RulesetError([Problem("extends names one ruleset: an id or a file path", ("extends",),
                                    marks.get(("extends",)))])
    try:
        parent_path = find_ruleset(parent_ref, path.parent).resolve()
    except RulesetError as error:
        raise RulesetError([Problem(p.message, ("extends",), marks.get(("extends",))) for p in error.problems]) from None
    if parent_path in seen or parent_path == path.resolve():
        raise RulesetError([Problem(f"extends forms a cycle through {parent_path.name}", ("extends",),
                                    marks.get(("extends",)))])
    parent = read_document(parent_path, (*seen, path.resolve()))
    parent_marks = dict(parent.marks)
    merged = merge(parent.data, data, parent_marks, marks)
    if "id" not in data:
        # A variant that does not name itself is its file, not its parent: named by the file's
        # stem, as the chain names it and as a shipped file is found by id (records name the
        # file itself by its path, relative to the record).
        merged["id"] = id_from_file_name(path)
        parent_marks.pop(("id",), None)
        if "title" not in data and isinstance(merged.get("title"), str):
            merged["title"] = f"{merged['title']} ({path.name})"  # told apart from its parent
    return Document(merged, parent_marks, path, [*parent.chain, str(merged["id"])])


def id_from_file_name(path: Path) -> str:
    """The id of a ruleset file that names none: its stem (``my-rules.yaml`` -> ``my-rules``),
    made a valid id if need be (``My Rules.yaml`` -> ``my-rules``)."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", path.stem.lower()).strip("-") or "ruleset"
    return slug if slug[0].isalpha() else f"ruleset-{slug}"


# --------------------------------------------------------------------------- options
def choose_options(document: Document, chosen: Mapping[str, str | int | bool]) -> dict[str, Any]:
    """Resolve option values (defaults plus ``chosen``) and apply each choice's patch.

    ``chosen`` values may be strings as typed on a command line; they are converted to the
    option's type. Unknown options and bad values are errors listing what is allowed.
    """
    declared = document.data.get("options") or {}
    if not isinstance(declared, dict):
        return {}  # the schema check reports it, with its place
    problems = []
    values: dict[str, Any] = {}
    for name in chosen:
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            problems.append(Problem(f"unknown option {name!r} (options of this ruleset: {known})"))
    for name, spec in declared.items():
        if not isinstance(spec, dict):
            continue  # reported by the schema
        raw = chosen.get(name, spec.get("default"))
        try:
            values[name] = option_value(name, spec, raw)
        except ValueError as error:
            path = ("options", name) if name not in chosen else ()
            problems.append(Problem(str(error), path, document.mark(path) if path else None))
    if problems:
        raise RulesetError(problems)
    for name, spec in declared.items():
        choices = spec.get("choices") if isinstance(spec, dict) else None
        patch = choices.get(str(values.get(name))) if isinstance(choices, dict) else None
        if isinstance(patch, dict):
            document.data = merge(document.data, patch, document.marks, {})
    return values


def option_value(name: str, spec: Mapping[str, Any], raw: Any) -> Any:
    """Convert and check one option value against its declaration."""
    kind = spec.get("type", "choice")
    if kind == "integer":
        try:
            value = int(raw) if not isinstance(raw, bool) else None
        except (TypeError, ValueError):
            value = None
        if value is None:
            raise ValueError(f"option {name} takes a whole number, not {raw!r}")
        low, high = spec.get("min"), spec.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name} must be between {low} and {high}, not {value}")
        return value
    if kind == "boolean":
        text = str(raw).lower()
        if text in ("true", "on", "yes", "1"):
            return True
        if text in ("false", "off", "no", "0"):
            return False
        raise ValueError(f"option {name} is on or off, not {raw!r}")
    choices = spec.get("choices")
    allowed = [str(choice) for choice in choices] if isinstance(choices, (dict, list)) else []
    if str(raw) not in allowed:
        raise ValueError(f"option {name} is one of {', '.join(allowed)}, not {raw!r}")
    return str(raw)


# --------------------------------------------------------------------------- the whole load
def load_rules(reference: str | Path, options: Mapping[str, Any] | None = None,
               registry: Registry | None = None) -> Any:
    """Load, validate and compile a ruleset (an id or a path) with the given options."""
    from contack_core.rules import Rules

    registry = registry or default_registry()
    path = Path(reference) if isinstance(reference, Path) else find_ruleset(reference)
    document = read_document(path)
    option_values = choose_options(document, dict(options or {}))
    check_schema(document, registry)
    rules = Rules.build(document, option_values, registry)
    shipped = shipped_rulesets_dir().resolve()
    if path.resolve().parent not in (shipped, shipped / "examples") or path.stem != rules.id:
        rules.origin = path.resolve()
    return rules


def check_schema(document: Document, registry: Registry) -> None:
    validator = jsonschema.Draft202012Validator(ruleset_schema(registry))
    problems = []
    for error in sorted(validator.iter_errors(document.data), key=lambda e: (list(map(str, e.absolute_path)))):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            # Point at the unexpected key itself, not at the mapping that holds it.
            allowed = set((error.schema.get("properties") or {}).keys())
            extra = [key for key in error.instance if key not in allowed]
            if extra:
                path = (*path, extra[0])
        problems.append(document.problem(_schema_message(error, registry, path), path))
    if problems:
        raise RulesetError(_dedupe(problems))


def _schema_message(error: jsonschema.ValidationError, registry: Registry, path: KeyPath) -> str:
    if error.validator == "enum" and path and path[-1] == "primitive":
        slot = str(path[0])
        return (f"unknown primitive {error.instance!r} for {slot} "
                f"(known: {', '.join(registry.names(slot))})")
    if error.validator == "additionalProperties":
        allowed = sorted((error.schema.get("properties") or {}).keys())
        return f"{error.message}; allowed keys: {', '.join(allowed)}"
    return error.message


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for problem in problems:
        if str(problem) not in seen:
            seen.add(str(problem))
            out.append(problem)
    return out


def _key_path(data: Any, parts: tuple[str, ...]) -> KeyPath:
    """``parts`` of a dotted key as the document holds them: a list index as an integer, a
    mapping key as written (``"2"`` stays a string where the mapping's key is one)."""
    path: list[str | int] = []
    node = data
    for part in parts:
        key: str | int = part
        if isinstance(node, list) and part.isdigit():
            key = int(part)
        elif isinstance(node, dict) and part not in node and part.isdigit() and int(part) in node:
            key = int(part)
        path.append(key)
        node = node[key] if isinstance(node, (dict, list)) and _holds(node, key) else None
    return tuple(path)


def _holds(node: dict[Any, Any] | list[Any], key: str | int) -> bool:
    return key in node if isinstance(node, dict) else isinstance(key, int) and 0 <= key < len(node)


def build_primitives(document: Document, options: Mapping[str, Any], registry: Registry,
                     turn_names: Any) -> dict[str, Any]:
    """Instantiate every primitive slot by slot, turning PrimitiveErrors into Problems."""
    data = document.data

    def compile_with_options(source: Any, names: Any) -> Any:
        return compile_expression(source, names, options)

    built: dict[str, Any] = {}
    players = data.get("players")
    context = BuildContext(options=options, tiles=None, zones={}, compile=compile_with_options,
                           turn_names=turn_names, counters=data.get("scoring") or {},
                           players=(players["min"], players["max"]) if isinstance(players, dict) else None)
    problems: list[Problem] = []
    for slot, arity in SLOTS.items():
        section = data.get(slot)
        if section is None:
            continue
        entries = [(None, section)] if arity == "one" else list(section.items())
        results: dict[str, Any] = {}
        for key, params in entries:
            path: KeyPath = (slot,) if key is None else (slot, key)
            cls = registry.get(slot, params["primitive"])
            args = {k: v for k, v in params.items() if k != "primitive"}
            try:
                results[key or slot] = cls(key or slot, args, context)
            except PrimitiveError as error:
                sub = _key_path(data, (*path, *(error.key.split(".") if error.key else ())))
                problems.append(document.problem(str(error), sub))
            except ExpressionError as error:  # pragma: no cover - primitives wrap these
                problems.append(document.problem(str(error), path))
        if problems:
            raise RulesetError(problems)
        built[slot] = results[slot] if arity == "one" else results
        if slot == "components":
            tiles = [p for p in results.values() if getattr(p, "tiles", None) is not None]
            context.tiles = tiles[0].tiles if tiles else None
            context.components = results
        if slot == "zones":
            context.zones = results
        if slot == "board":
            context.board = results[slot]
    return built
