"""Reading ruleset documents: finding the file, safe YAML with the position of every key,
and ``extends`` (a deep merge: mappings merge, anything else replaces, ``null`` deletes).

A ruleset goes through four gates, and nothing half-loaded ever runs:

1. safe YAML parsing, keeping the file, line and column of every key (this module);
2. ``extends`` resolution (this module) and option selection (:mod:`.options`);
3. JSON Schema validation of the resolved document (:mod:`.schema`);
4. building the primitives, which compiles every expression and checks every reference
   (:mod:`contack_core.primitives.loading`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import yaml

from contack_core.language.limits import (
    MAX_EXTENDS_CHAIN,
    MAX_RULESET_BYTES,
    MAX_YAML_ALIASES,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
)
from contack_core.language.problems import KeyPath, Mark, Problem, RulesetError


# --------------------------------------------------------------------------- locating files
def shipped_rulesets_dir() -> Path:
    """The rulesets that ship with the package (inside the wheel, or the source checkout)."""
    packaged = resources.files("contack_core") / "rulesets"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "rulesets"


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
        if _is_file(candidate):
            return candidate
    known = ", ".join([*shipped_ruleset_ids(), *shipped_example_ids()])
    raise RulesetError([Problem(f"no ruleset {reference!r}: not a file, and not a shipped ruleset id ({known})")])


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; a name the system refuses to look up (longer than a file
    name may be, say: Path.is_file raises ENAMETOOLONG) is no file, never an OSError."""
    try:
        return path.is_file()
    except OSError:
        return False


# --------------------------------------------------------------------------- YAML with marks
class _PythonParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer):
    """PyYAML's own parser and composer, in Python: it streams events with no nesting limit of its own."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)


try:  # libyaml's parser when PyYAML was built with it (about six times faster), else PyYAML's own
    from yaml._yaml import CParser as _FastParser
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    _FastParser = _PythonParser


class _LimitExceeded(yaml.MarkedYAMLError):
    """One of this project's bounds (:mod:`.limits`), passed at the place it is marked."""


def _check_bounds(parser: Any) -> None:
    """Read ``parser``'s events through, refusing, at the place it happens and before any of it
    is built, a file nested deeper than :data:`MAX_YAML_DEPTH`, with more aliases than
    :data:`MAX_YAML_ALIASES`, or with more than :data:`MAX_YAML_NODES` keys, values and items.
    Both bounds count every alias as the whole of what it repeats (each anchored node's size
    and height are kept as it is read), so a "billion laughs" is refused at the alias that
    passes the limit.

    It reads events only (libyaml makes them in C) and builds nothing, so a hostile file of a
    hundred thousand nodes is refused in a fraction of the time composing it would take; a
    file within the bounds is then composed by the parser's own composer."""
    aliases = 0
    nodes = 0
    depth = 0  # of the collection the next node is in (the top-level node is at 1)
    deepest = 0  # the deepest level reached since the innermost open anchored collection began
    #: Each open collection: None, or (its anchor, the node count before it, ``deepest`` outside it).
    open_collections: list[tuple[str, int, int] | None] = []
    #: Each anchor's (size, height), aliases expanded; None while the node it names is still open.
    measures: dict[str, tuple[int, int] | None] = {}
    get_event = parser.get_event
    scalar, alias, stream_end = yaml.ScalarEvent, yaml.AliasEvent, yaml.StreamEndEvent
    starts, ends = (yaml.MappingStartEvent, yaml.SequenceStartEvent), (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    while True:
        event = get_event()
        kind = type(event)
        if kind is scalar or kind in starts:
            nodes += 1
            if nodes > MAX_YAML_NODES:
                raise _too_many_nodes(event.start_mark)
            if depth + 1 > deepest:
                deepest = depth + 1
                if deepest > MAX_YAML_DEPTH:
                    raise _too_deep(event.start_mark)
            anchor = event.anchor
            if kind is scalar:
                if anchor is not None:
                    measures[anchor] = (1, 1)
                continue
            depth += 1
            if anchor is None:
                open_collections.append(None)
            else:
                measures[anchor] = None
                open_collections.append((anchor, nodes - 1, deepest))
                deepest = depth
        elif kind in ends:
            opened = open_collections.pop()
            if opened is not None:
                anchor, before, outside = opened
                measures[anchor] = (nodes - before, deepest - depth + 1)
                deepest = max(deepest, outside)
            depth -= 1
        elif kind is alias:
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                raise _too_much(f"more than {MAX_YAML_ALIASES} aliases", "MAX_YAML_ALIASES", event.start_mark)
            if event.anchor not in measures:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                                  event.start_mark)
            measure = measures[event.anchor]
            if measure is None:
                raise yaml.MarkedYAMLError(problem=f"the alias *{event.anchor} is inside what it names: it would "
                                                   f"repeat without end", problem_mark=event.start_mark)
            nodes += measure[0]
            if nodes > MAX_YAML_NODES:
                raise _too_many_nodes(event.start_mark)
            if depth + measure[1] > deepest:
                deepest = depth + measure[1]
                if deepest > MAX_YAML_DEPTH:
                    raise _too_deep(event.start_mark)
        elif kind is stream_end:
            return


def _too_many_nodes(mark: yaml.Mark | None) -> _LimitExceeded:
    return _too_much(f"more than {MAX_YAML_NODES} keys, values and items, aliases counted as what they repeat",
                     "MAX_YAML_NODES", mark)


def _too_deep(mark: yaml.Mark | None) -> _LimitExceeded:
    return _too_much(f"nested more than {MAX_YAML_DEPTH} levels deep, aliases counted as what they repeat",
                     "MAX_YAML_DEPTH", mark)


class _BoundedLoader(_FastParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
    """Safe YAML on the fast parser, merge keys bounded; run only on a file
    :func:`_check_bounds` passed."""

    def __init__(self, text: str) -> None:
        _FastParser.__init__(self, text)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self.flattened: set[int] = set()

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        """Merge keys (``<<: *defaults``), bounded before they are copied in; each mapping is
        flattened once, however many aliases repeat it."""
        if id(node) in self.flattened:
            return
        self.flattened.add(id(node))
        merged = len(node.value)
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                for source in sources:
                    if isinstance(source, yaml.MappingNode):
                        self.flatten_mapping(source)
                        merged += len(source.value)
                        if merged > MAX_YAML_NODES:
                            raise _too_much(f"merge keys make more than {MAX_YAML_NODES} keys", "MAX_YAML_NODES",
                                            source.start_mark)
        super().flatten_mapping(node)


def _too_much(what: str, limit: str, mark: yaml.Mark | None) -> _LimitExceeded:
    return _LimitExceeded(problem=f"{what} (the limit {limit}; see docs/house-rules.md, Limits)",
                          problem_mark=mark)


def parse_yaml(text: str, file: str) -> tuple[Any, dict[KeyPath, Mark]]:
    """Parse YAML safely, returning the data and the position of every key and item.

    Aliases are expanded as the data is built, so the bounds on depth and size hold for the
    data, however much an alias repeats.
    """
    try:
        try:
            _check_bounds(_FastParser(text))
        except _LimitExceeded:
            raise
        except yaml.MarkedYAMLError as refused:
            # libyaml's scanner reads ahead (a whole flow collection may be a key) and has bounds
            # of its own that can fire before its events reach ours (libyaml 0.2.5+: 1,000
            # levels). So a file it refuses is read again by PyYAML's own parser, which streams
            # events with no bound of its own: where one of ours is passed, that is the message,
            # whichever release of PyYAML is installed.
            if _FastParser is _PythonParser:
                raise
            try:
                _check_bounds(_PythonParser(text))
            except _LimitExceeded:
                raise
            except (yaml.YAMLError, RecursionError):
                pass
            raise refused from None
        return _compose(text, file)
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


def _compose(text: str, file: str) -> tuple[Any, dict[KeyPath, Mark]]:
    """The data and its marks of a file within the bounds; YAML's errors and ours (merge keys) raised."""
    marks: dict[KeyPath, Mark] = {}
    loader = _BoundedLoader(text)
    built = 0
    try:
        node = loader.get_single_node()
        if node is None:
            return None, marks

        def build(node: yaml.Node, path: KeyPath) -> Any:
            nonlocal built
            built += 1
            if built > MAX_YAML_NODES or len(path) > MAX_YAML_DEPTH:
                what = (f"aliases repeat more than {MAX_YAML_NODES} keys, values and items", "MAX_YAML_NODES") \
                    if built > MAX_YAML_NODES else \
                    (f"aliases nest more than {MAX_YAML_DEPTH} levels deep", "MAX_YAML_DEPTH")
                raise _too_much(*what, node.start_mark)
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
    """Deep-merge ``override`` onto ``base``: mappings merge, ``None`` deletes, others replace.

    ``base_marks`` is updated to the marks of the result. The work is linear in the size of
    both: the marks of a replaced or added value are found by walking that value, never by
    scanning every mark.
    """
    if isinstance(base, dict) and isinstance(override, dict):
        result = dict(base)
        for key, value in override.items():
            sub = (*path, key)
            if value is None:
                _drop_marks(base_marks, sub, result.pop(key, None))
            elif key in result:
                result[key] = merge(result[key], value, base_marks, override_marks, sub)
            else:
                result[key] = value
                _copy_marks(override_marks, base_marks, sub, value)
        if path in override_marks:  # the overriding file is where this mapping is now written
            base_marks[path] = override_marks[path]
        return result
    _drop_marks(base_marks, path, base)
    _copy_marks(override_marks, base_marks, path, override)
    return copy.deepcopy(override)


def key_paths(value: object, prefix: KeyPath) -> Iterator[KeyPath]:
    """``prefix`` and the path of every key and item within ``value``."""
    stack = [(prefix, value)]
    while stack:
        path, node = stack.pop()
        yield path
        if isinstance(node, dict):
            stack.extend(((*path, key), item) for key, item in node.items())
        elif isinstance(node, list):
            stack.extend(((*path, index), item) for index, item in enumerate(node))


def _drop_marks(marks: dict[KeyPath, Mark], prefix: KeyPath, value: object) -> None:
    for path in key_paths(value, prefix):
        marks.pop(path, None)


def _copy_marks(source: dict[KeyPath, Mark], target: dict[KeyPath, Mark], prefix: KeyPath, value: object) -> None:
    for path in key_paths(value, prefix):
        if path in source:
            target[path] = source[path]


#: What :func:`read_document` may remember of files it parsed, for a caller reading many
#: rulesets that extend the same one: each file's (path, bytes) and its data and marks.
ParsedFiles = dict[tuple[str, bytes], tuple[Any, dict[KeyPath, Mark]]]


#: What a ruleset file says it is (or inherits from the ruleset it extends).
RULESET_FORMAT = "contack-ruleset/1"


def read_document(path: Path, seen: tuple[Path, ...] = (), budget: int = MAX_RULESET_BYTES,
                  parsed: ParsedFiles | None = None, named_at: Mark | None = None) -> Document:
    """Read a ruleset file and resolve its ``extends`` chain; ``budget`` is what is left of
    :data:`MAX_RULESET_BYTES` for this file and the files it extends. ``parsed``: files
    parsed before, by path and contents, kept there as read (each use takes a copy).
    ``named_at``: the ``extends`` that names this file, where a file that is no ruleset at all
    is blamed (the mistake is in the file that names it)."""
    start = Mark(str(path), 1, 1)
    whole, at = (start, ()) if named_at is None else (named_at, ("extends",))  # where the file as a whole is blamed
    if len(seen) >= MAX_EXTENDS_CHAIN:
        raise RulesetError([Problem(f"an extends chain may hold at most {MAX_EXTENDS_CHAIN} files "
                                    f"(MAX_EXTENDS_CHAIN; see docs/house-rules.md, Limits)", (), start)])
    try:
        with path.open("rb") as stream:
            raw = stream.read(budget + 1)  # never more than the limit, whatever the file is
    except OSError as error:
        raise RulesetError([Problem(f"cannot read {path}: {error.strerror}")]) from None
    if len(raw) > budget:
        extended = " with the files it extends" if seen else ""
        raise RulesetError([Problem(f"a ruleset{extended} may hold at most {MAX_RULESET_BYTES} bytes "
                                    f"(MAX_RULESET_BYTES; see docs/house-rules.md, Limits)", (), start)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesetError([Problem(f"{path} is not UTF-8 text", at, named_at)]) from None
    known = None if parsed is None else parsed.get((str(path), raw))
    if known is None:
        try:
            data, marks = parse_yaml(text, str(path))
        except RulesetError as error:
            if not seen:
                raise
            # A file reached by extends may be any file (extends: /etc/shadow): where it fails, not what it holds.
            raise RulesetError([Problem(f"{path}, which extends names, is not a contack ruleset (not YAML a "
                                        f"ruleset is written in)", at, named_at or p.mark)
                                for p in error.problems[:1]]) from None
        if parsed is not None:
            parsed[(str(path), raw)] = (copy_tree(data), dict(marks))
    else:
        data, marks = copy_tree(known[0]), dict(known[1])  # a mark and a key path are immutable
    if not isinstance(data, dict):
        which = f"{path}, which extends names, is not a contack ruleset: " if seen else ""
        raise RulesetError([Problem(f"{which}a ruleset is a YAML mapping of keys to values", at, whole)])
    if data.get("format") != RULESET_FORMAT and "extends" not in data:
        # Said before anything else of it is: the schema's messages would quote its keys.
        which = ", which extends names," if seen else ""
        raise RulesetError([Problem(f"{path}{which} is not a contack ruleset: it neither says "
                                    f"'format: {RULESET_FORMAT}' nor extends one", at, whole)])
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
    parent = read_document(parent_path, (*seen, path.resolve()), budget - len(raw), parsed, marks.get(("extends",)))
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


def copy_tree(value: Any) -> Any:
    """A copy of parsed YAML data: its mappings and lists copied, to any depth, its scalars
    (immutable) shared; several times faster than :func:`copy.deepcopy`, which a run that
    loads one file under many options (validate) would otherwise spend most of its time in."""
    if isinstance(value, dict):
        return {key: copy_tree(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_tree(item) for item in value]
    return value


def id_from_file_name(path: Path) -> str:
    """The id of a ruleset file that names none: its stem (``my-rules.yaml`` -> ``my-rules``),
    made a valid id if need be (``My Rules.yaml`` -> ``my-rules``)."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", path.stem.lower()).strip("-") or "ruleset"
    return slug if slug[0].isalpha() else f"ruleset-{slug}"
