"""A JSON Schema compiled into Python functions that only say whether a value is valid.

jsonschema explains exactly why a value is invalid, but slowly: checking a record's 120
lines took about 25 ms, and importing it takes longer than the rest of a command's start.
Almost every value checked is valid, so a check generated from the schema itself accepts
those in a microsecond or two, and the caller asks jsonschema (imported then) only about a
value the check refuses: the messages stay jsonschema's, and the two cannot drift apart.

The check covers the keywords the shipped schemas use. A schema with any other keyword
raises :class:`Unsupported` when compiled, and the caller then asks jsonschema about every
value rather than let the check guess. Types are tested exactly as jsonschema tests them
(``integer``: an ``int`` but not a ``bool``, or a float such as ``1.0``); with
``strict_integers``, an integer is an ``int`` a 64-bit field holds (:func:`strict_integer`;
a record's reader hands the same test to jsonschema).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

#: The largest integer a 64-bit field holds (SQLite's, and most JSON readers' integers): every
#: seed contack writes, and far beyond any seat, hand, cell, count or score.
INTEGER_LIMIT = 2**63 - 1

#: Keywords that only annotate: they never make a value invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples",
                          "format", "deprecated", "readOnly", "writeOnly"})
_OBJECT_KEYWORDS = ("required", "properties", "additionalProperties", "propertyNames", "minProperties",
                    "maxProperties")
_ARRAY_KEYWORDS = ("items", "minItems", "maxItems", "uniqueItems")
_STRING_KEYWORDS = ("minLength", "maxLength", "pattern")
_NUMBER_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_OTHER_KEYWORDS = ("type", "const", "enum", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref")
_KNOWN = frozenset((*_ANNOTATIONS, *_OBJECT_KEYWORDS, *_ARRAY_KEYWORDS, *_STRING_KEYWORDS, *_NUMBER_KEYWORDS,
                    *_OTHER_KEYWORDS))


class Unsupported(ValueError):
    """The schema uses a keyword (or a reference) the compiled check does not cover."""


def strict_integer(value: object) -> bool:
    """An integer a 64-bit field holds: an ``int`` (not a ``bool``) of at most 2**63 - 1 either way."""
    return isinstance(value, int) and not isinstance(value, bool) and -INTEGER_LIMIT <= value <= INTEGER_LIMIT


def json_equal(one: object, two: object) -> bool:
    """Equality as JSON Schema means it (jsonschema's own): ``true`` is not ``1``, in any depth."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(json_equal(a, b) for a, b in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(json_equal(one[key], two[key]) for key in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return bool(one == two)


def json_unique(items: Sequence[object]) -> bool:
    """Whether no two items are equal as JSON Schema means it."""
    return not any(json_equal(items[i], items[j]) for i in range(len(items)) for j in range(i))


@attrs.frozen
class QuickSchema:
    """The compiled check of a schema (``accepts``) and of each of its ``$defs`` by name."""

    accepts: Callable[[object], bool]
    definitions: Mapping[str, Callable[[object], bool]]
    source: str


def compile_schema(schema: Mapping[str, Any], strict_integers: bool = False) -> QuickSchema:
    """Compile ``schema`` (draft 2020-12, local references only). Raises :class:`Unsupported`."""
    compiler = _Compiler(schema, strict_integers)
    root = compiler.function(schema, "#")
    definitions = {name: compiler.function(sub, f"#/$defs/{name}") for name, sub in (schema.get("$defs") or {}).items()}
    source = "\n".join(compiler.functions)
    namespace: dict[str, Any] = dict(compiler.constants)
    exec(compile(source, "<compiled JSON Schema>", "exec"), namespace)  # noqa: S102 - our own generated source
    return QuickSchema(namespace[root], {name: namespace[function] for name, function in definitions.items()}, source)


class _Compiler:
    """Writes one Python function per schema it is asked for; each returns False at the first
    keyword the value fails, True at its end."""

    def __init__(self, root: Mapping[str, Any], strict_integers: bool) -> None:
        self.root = root
        self.strict_integers = strict_integers
        self.functions: list[str] = []
        self.names: dict[str, str] = {}  # reference -> function name
        self.constants: dict[str, Any] = {"_equal": json_equal, "_unique": json_unique, "_Number": numbers.Number}
        self.count = 0
        self.inlining: set[str] = set()  # references whose schema is being written out in place

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def constant(self, value: object) -> str:
        name = self.fresh("_c")
        self.constants[name] = value
        return name

    def function(self, schema: Any, reference: str | None = None) -> str:
        """The name of a function checking ``schema`` (one per reference, so recursion works)."""
        if reference is not None and reference in self.names:
            return self.names[reference]
        name = self.fresh("_check")
        outer = set(self.inlining)
        if reference is not None:
            self.names[reference] = name
            self.inlining.add(reference)
        body: list[str] = []
        self.emit(schema, "v", body, 1)
        self.inlining = outer
        self.functions.append(f"def {name}(v):\n" + "".join(body) + "    return True\n")
        return name

    def target(self, reference: str) -> Any:
        """The schema a local reference names."""
        if reference == "#":
            return self.root
        prefix = "#/$defs/"
        definitions = self.root.get("$defs") or {}
        name = reference[len(prefix):]
        if not reference.startswith(prefix) or name not in definitions:
            raise Unsupported(f"$ref {reference!r}: only #/$defs/NAME is compiled")
        return definitions[name]

    def emit_reference(self, reference: str, var: str, out: list[str], depth: int) -> None:
        """A reference written out in place (a call costs more than a small schema's checks),
        or called where it refers back to itself."""
        target = self.target(reference)
        if reference in self.inlining:
            pad = "    " * depth
            out.append(f"{pad}if not {self.function(target, reference)}({var}):\n{pad}    return False\n")
            return
        self.inlining.add(reference)
        self.emit(target, var, out, depth)
        self.inlining.discard(reference)

    def type_test(self, kind: str, var: str) -> str:
        """The test of one JSON type. Classes are compared exactly (``bool`` is not ``int``),
        so a subclass, which neither JSON nor YAML ever makes, is refused and left to jsonschema."""
        if kind == "integer" and self.strict_integers:
            limit = INTEGER_LIMIT
            return f"({var}.__class__ is int and -{limit} <= {var} <= {limit})"
        tests = {"object": "{0}.__class__ is dict", "array": "{0}.__class__ is list", "string": "{0}.__class__ is str",
                 "boolean": "{0}.__class__ is bool", "null": "{0} is None",
                 "integer": "({0}.__class__ is int or {0}.__class__ is float and {0}.is_integer())",
                 "number": "({0}.__class__ is int or {0}.__class__ is float)"}
        if kind not in tests:
            raise Unsupported(f"type {kind!r}")
        return tests[kind].format(var)

    def emit(self, schema: Any, var: str, out: list[str], depth: int) -> None:
        """Statements at indentation ``depth`` that return False when ``var`` fails ``schema``."""
        pad = "    " * depth
        if schema is True:
            return
        if schema is False:
            out.append(f"{pad}return False\n")
            return
        if not isinstance(schema, Mapping):
            raise Unsupported(f"a schema is an object or a boolean, not {schema!r}")
        unknown = set(schema) - _KNOWN
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        types = schema.get("type")
        kinds = [types] if isinstance(types, str) else list(types) if types is not None else None
        if kinds is not None:
            out.append(f"{pad}if not ({' or '.join(self.type_test(kind, var) for kind in kinds)}):\n"
                       f"{pad}    return False\n")
        self.emit_value_keywords(schema, var, out, depth)

        def guarded(kind: str, keywords: Sequence[str], emit: Callable[[list[str], int], None],
                    also: Sequence[str] = ()) -> None:
            """Keywords that apply to one type only: tested for it, unless the type is known."""
            if not any(keyword in schema for keyword in keywords):
                return
            if kinds is not None and len(kinds) == 1 and kinds[0] in (kind, *also):
                emit(out, depth)
                return
            block: list[str] = []
            emit(block, depth + 1)
            test = f"isinstance({var}, _Number) and not isinstance({var}, bool)" if kind == "number" else \
                self.type_test(kind, var)
            out.append(f"{pad}if {test}:\n")
            out.extend(block or [f"{pad}    pass\n"])

        guarded("object", _OBJECT_KEYWORDS, lambda block, d: self.emit_object(schema, var, block, d))
        guarded("array", _ARRAY_KEYWORDS, lambda block, d: self.emit_array(schema, var, block, d))
        guarded("string", _STRING_KEYWORDS, lambda block, d: self.emit_string(schema, var, block, d))
        guarded("number", _NUMBER_KEYWORDS, lambda block, d: self.emit_number(schema, var, block, d),
                also=("integer",))
        self.emit_combinations(schema, var, out, depth)

    def emit_value_keywords(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if "const" in schema:
            out.append(f"{pad}if not ({self.equal_test(var, schema['const'])}):\n{pad}    return False\n")
        if "enum" in schema:
            values = list(schema["enum"])
            if values and all(isinstance(value, str) for value in values):
                test = f"isinstance({var}, str) and {var} in {self.constant(frozenset(values))}"
            else:
                test = f"any(_equal({var}, item) for item in {self.constant(tuple(values))})"
            out.append(f"{pad}if not ({test}):\n{pad}    return False\n")

    def equal_test(self, var: str, value: object) -> str:
        if isinstance(value, str):
            return f"{var} == {value!r}"  # as jsonschema compares a string to anything
        if value is None or isinstance(value, bool):
            return f"{var} is {value!r}"
        return f"_equal({var}, {self.constant(value)})"

    def emit_object(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        """Required keys read at once (a missing one fails); with no other keys allowed, the
        keys are counted as they are read, which is quicker than comparing them to a set."""
        pad = "    " * depth
        required = list(dict.fromkeys(schema.get("required") or []))
        properties = schema.get("properties") or {}
        read: dict[str, str] = {}
        if required:
            out.append(f"{pad}try:\n")
            for key in required:
                if key in properties:
                    read[key] = self.fresh("x")
                    out.append(f"{pad}    {read[key]} = {var}[{key!r}]\n")
                else:
                    out.append(f"{pad}    {var}[{key!r}]\n")
            out.append(f"{pad}except KeyError:\n{pad}    return False\n")
        if "minProperties" in schema:
            out.append(f"{pad}if len({var}) < {int(schema['minProperties'])}:\n{pad}    return False\n")
        if "maxProperties" in schema:
            out.append(f"{pad}if len({var}) > {int(schema['maxProperties'])}:\n{pad}    return False\n")
        extra = schema.get("additionalProperties", True)
        count = self.fresh("n") if extra is False else None
        if count is not None:
            out.append(f"{pad}{count} = {len(read)}\n")
        for key, sub in properties.items():
            if key in read:
                self.emit(sub, read[key], out, depth)
                continue
            block: list[str] = []
            item = self.fresh("x")
            self.emit(sub, item, block, depth + 1)
            if block or count is not None:
                out.append(f"{pad}if {key!r} in {var}:\n")
                if count is not None:
                    out.append(f"{pad}    {count} += 1\n")
                if block:
                    out.append(f"{pad}    {item} = {var}[{key!r}]\n")
                out.extend(block)
        if count is not None:
            out.append(f"{pad}if len({var}) != {count}:\n{pad}    return False\n")
        elif extra is not True:
            allowed = self.constant(frozenset(properties))
            key, item = self.fresh("k"), self.fresh("x")
            block = []
            self.emit(extra, item, block, depth + 2)
            if block:
                out.append(f"{pad}for {key}, {item} in {var}.items():\n{pad}    if {key} not in {allowed}:\n")
                out.extend(block)
        if "propertyNames" in schema:
            key = self.fresh("k")
            block = []
            self.emit(schema["propertyNames"], key, block, depth + 1)
            if block:
                out.append(f"{pad}for {key} in {var}:\n")
                out.extend(block)

    def emit_array(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        """A short array of fixed length (a cell, a point) checked item by item, with no loop."""
        pad = "    " * depth
        low, high = schema.get("minItems"), schema.get("maxItems")
        if low is not None and low == high and high <= 4 and "items" in schema:
            out.append(f"{pad}if len({var}) != {int(low)}:\n{pad}    return False\n")
            if schema.get("uniqueItems") is True:
                out.append(f"{pad}if not _unique({var}):\n{pad}    return False\n")
            for index in range(int(low)):
                item = self.fresh("x")
                block: list[str] = []
                self.emit(schema["items"], item, block, depth)
                if block:
                    out.append(f"{pad}{item} = {var}[{index}]\n")
                    out.extend(block)
            return
        if low is not None:
            out.append(f"{pad}if len({var}) < {int(low)}:\n{pad}    return False\n")
        if high is not None:
            out.append(f"{pad}if len({var}) > {int(high)}:\n{pad}    return False\n")
        if schema.get("uniqueItems") is True:
            out.append(f"{pad}if not _unique({var}):\n{pad}    return False\n")
        if "items" in schema:
            item = self.fresh("x")
            block = []
            self.emit(schema["items"], item, block, depth + 1)
            if block:
                out.append(f"{pad}for {item} in {var}:\n")
                out.extend(block)

    def emit_string(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if "minLength" in schema:
            out.append(f"{pad}if len({var}) < {int(schema['minLength'])}:\n{pad}    return False\n")
        if "maxLength" in schema:
            out.append(f"{pad}if len({var}) > {int(schema['maxLength'])}:\n{pad}    return False\n")
        if "pattern" in schema:
            search = self.constant(re.compile(schema["pattern"]).search)
            out.append(f"{pad}if {search}({var}) is None:\n{pad}    return False\n")

    def emit_number(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        for keyword, fails in (("minimum", "<"), ("maximum", ">"), ("exclusiveMinimum", "<="),
                               ("exclusiveMaximum", ">=")):
            if keyword in schema:
                bound = schema[keyword]
                literal = repr(bound) if type(bound) is int else self.constant(bound)
                out.append(f"{pad}if {var} {fails} {literal}:\n{pad}    return False\n")

    def emit_combinations(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        for sub in schema.get("allOf") or ():
            self.emit(sub, var, out, depth)
        if "anyOf" in schema:
            calls = " or ".join(f"{self.function(sub)}({var})" for sub in schema["anyOf"])
            out.append(f"{pad}if not ({calls}):\n{pad}    return False\n")
        if "oneOf" in schema:
            calls = " + ".join(f"{self.function(sub)}({var})" for sub in schema["oneOf"])
            out.append(f"{pad}if ({calls}) != 1:\n{pad}    return False\n")
        if "not" in schema:
            out.append(f"{pad}if {self.function(schema['not'])}({var}):\n{pad}    return False\n")
        if "if" in schema and ("then" in schema or "else" in schema):
            then: list[str] = []
            otherwise: list[str] = []
            self.emit(schema.get("then", True), var, then, depth + 1)
            self.emit(schema.get("else", True), var, otherwise, depth + 1)
            out.append(f"{pad}if {self.function(schema['if'])}({var}):\n")
            out.extend(then or [f"{pad}    pass\n"])
            if otherwise:
                out.append(f"{pad}else:\n")
                out.extend(otherwise)
        if "$ref" in schema:
            self.emit_reference(schema["$ref"], var, out, depth)
