"""The JSON Schema of rulesets, assembled from the fixed top level and every primitive's own schema.

The shipped ``schemas/ruleset.schema.json`` is this schema for the built-in primitives
(``contack rulesets schema`` regenerates it; a test keeps it current). Primitives from
plugins extend the schema the loader uses at run time.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from contack_core.language.documents import Document
from contack_core.language.limits import DEFAULT_TURN_CAP
from contack_core.language.options import OPTION_TYPES
from contack_core.language.problems import KeyPath, Problem, RulesetError
from contack_core.language.quickschema import QuickSchema, Unsupported, compile_schema

if TYPE_CHECKING:
    import jsonschema

#: The slots of a ruleset that hold primitives, and whether each holds one or a mapping of them.
SLOTS: Mapping[str, str] = {
    "components": "many",
    "board": "one",
    "zones": "many",
    "setup": "many",
    "placement": "one",
    "turn": "many",
    "turn_order": "many",
    "hand_end": "many",
    "scoring": "many",
    "match": "one",
}


class PrimitiveCatalogue(Protocol):
    """What the schema needs of a registry of primitives: the names in each slot, and each
    primitive's parameter schema (see :class:`contack_core.primitives.registry.Registry`)."""

    def names(self, slot: str) -> list[str]: ...

    def get(self, slot: str, name: str) -> Any: ...


#: ``(?!\n)``: Python's ``$`` (which jsonschema uses) also matches before a last line feed.
_NAME = {"type": "string", "pattern": "^[a-z][a-z0-9_-]*(?!\n)$",
         "description": "a name of lowercase letters, digits, '-' and '_', beginning with a letter"}

_OPTION = {
    "type": "object",
    "properties": {
        "doc": {"type": "string"},
        "type": {"enum": list(OPTION_TYPES)},
        "default": {"type": ["integer", "boolean", "string"]},
        "min": {"type": "integer"},
        "max": {"type": "integer"},
        "choices": {"type": "object", "additionalProperties": {"type": ["object", "null"]}},
        "requires": {"type": "object", "additionalProperties": {"type": ["integer", "boolean", "string"]}},
    },
    "required": ["default"],
    "additionalProperties": False,
}

_TOP: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://contack.invalid/schemas/ruleset.schema.json",
    "title": "contack ruleset (contack-ruleset/1)",
    "type": "object",
    # A board game of moving pieces has no hands or piles and lays no tiles: zones and
    # placement may be left out.
    "required": ["format", "id", "title", "players", "components", "board", "setup",
                 "turn", "hand_end", "scoring", "match"],
    "properties": {
        "format": {"const": "contack-ruleset/1"},
        "id": _NAME,
        "title": {"type": "string"},
        "source": {"type": "string"},
        "description": {"type": "string"},
        "players": {
            "type": "object",
            "required": ["min", "max"],
            "properties": {"min": {"type": ["integer", "string"], "minimum": 1},
                           "max": {"type": ["integer", "string"], "minimum": 1}},
            "additionalProperties": False,
        },
        "terms": {"type": "object",
                  "additionalProperties": {"type": ["string", "object"],
                                           "additionalProperties": {"type": "string"}}},
        "options": {"type": "object", "propertyNames": _NAME, "additionalProperties": _OPTION},
        # The most decisions a game may take before it stops unfinished (so a rule where every
        # seat may always pass still ends); a number or a formula over the options.
        "turn_cap": {"type": ["integer", "string"], "default": DEFAULT_TURN_CAP},
    },
    "additionalProperties": False,
}


def _primitive_schema(registry: PrimitiveCatalogue, slot: str) -> dict[str, Any]:
    """One slot entry: ``primitive`` names a registered primitive, the rest is its parameters."""
    names = registry.names(slot)
    branches = []
    for name in names:
        cls = registry.get(slot, name)
        params = copy.deepcopy(cls.schema)
        params.setdefault("properties", {})["primitive"] = {"const": name}
        branches.append({"if": {"properties": {"primitive": {"const": name}}, "required": ["primitive"]},
                         "then": params})
    return {
        "type": "object",
        "required": ["primitive"],
        "properties": {"primitive": {"enum": names}},
        "allOf": branches,
    }


def ruleset_schema(registry: PrimitiveCatalogue) -> dict[str, Any]:
    schema = copy.deepcopy(_TOP)
    for slot, arity in SLOTS.items():
        entry = _primitive_schema(registry, slot)
        if arity == "one":
            schema["properties"][slot] = entry
        else:
            schema["properties"][slot] = {"type": "object", "propertyNames": _NAME,
                                          "additionalProperties": entry, "minProperties": 1}
    return schema


def shipped_schema(name: str) -> dict[str, Any]:
    """A JSON Schema file shipped in ``contack_core/schemas``."""
    text = (resources.files("contack_core") / "schemas" / name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def compile_ruleset_schema(registry: PrimitiveCatalogue) -> QuickSchema | None:
    """The ruleset schema of ``registry`` compiled to a quick yes/no check (None if a plugin's
    primitive uses a keyword the compiled check does not cover): for a loader that checks
    many rulesets, so that jsonschema is imported only to explain a ruleset it refuses."""
    try:
        return compile_schema(ruleset_schema(registry))
    except Unsupported:
        return None


def check_schema(document: Document, registry: PrimitiveCatalogue, quick: QuickSchema | None = None) -> None:
    """Validate the resolved document against the schema of ``registry``'s primitives: every
    problem at once, each at its key's line. ``quick``: the schema compiled by
    :func:`compile_ruleset_schema`; a document it accepts is valid as it stands."""
    if quick is not None and quick.accepts(document.data):
        return
    import jsonschema  # costs more than loading a ruleset: imported only when needed

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
        problems.append(document.problem(schema_message(error, registry, path), path))
    if problems:
        raise RulesetError(_dedupe(problems))


#: JSON types as a ruleset's author knows them.
_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "array": "a list",
               "object": "a mapping of keys to values", "boolean": "true or false", "null": "nothing"}


def _shown(value: object) -> str:
    """A value as found in the file, short."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _types_in_words(types: str | list[str]) -> str:
    names = [types] if isinstance(types, str) else list(types)
    if set(names) == {"integer", "string"}:
        return "a whole number or a formula"
    return " or ".join(_TYPE_WORDS.get(name, name) for name in names)


def schema_message(error: jsonschema.ValidationError, registry: PrimitiveCatalogue | None, path: KeyPath) -> str:
    """What is wrong, in the words of someone writing a ruleset (not JSON Schema's): what was
    expected (a schema's ``description`` says it best, where it has one) and what was found.
    Other YAML documents (a tournament config, no primitives: ``registry`` None) are worded alike."""
    schema, found, rule = error.schema, error.instance, error.validator
    if rule == "enum" and registry is not None and path and path[-1] == "primitive":
        slot = str(path[0])
        return f"unknown primitive {found!r} for {slot} (known: {', '.join(registry.names(slot))})"
    if rule == "additionalProperties":
        allowed = sorted((schema.get("properties") or {}).keys())
        extra = [key for key in found if key not in allowed] if isinstance(found, dict) else []
        return f"unexpected key {extra[0] if extra else '?'!r}; allowed keys: {', '.join(allowed)}"
    if rule == "required":
        missing = [key for key in error.validator_value if key not in found]
        return f"{' and '.join(repr(key) for key in missing)} must be given here"
    if isinstance(schema, dict) and "description" in schema:
        return f"expected {schema['description']}, found {_shown(found)}"
    if rule == "type":
        return f"expected {_types_in_words(error.validator_value)}, found {_shown(found)}"
    if rule == "enum":
        return f"expected one of {', '.join(map(str, error.validator_value))}; found {_shown(found)}"
    if rule == "const":
        return f"expected {_shown(error.validator_value)}, found {_shown(found)}"
    if rule == "minItems":
        plural = "s" if error.validator_value != 1 else ""
        return f"needs at least {error.validator_value} item{plural}, found {len(found)}"
    if rule == "maxItems":
        return f"takes at most {error.validator_value} items, found {len(found)}"
    if rule == "uniqueItems":
        return f"lists an item twice: {_shown(found)}"
    if rule in ("minimum", "maximum"):
        bound = "at least" if rule == "minimum" else "at most"
        return f"must be {bound} {error.validator_value}, found {_shown(found)}"
    if rule in ("oneOf", "anyOf"):
        forms = [_types_in_words(branch["type"]) for branch in error.validator_value if "type" in branch]
        return f"expected {' or '.join(forms) or 'another form'}, found {_shown(found)}"
    return str(error.message)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for problem in problems:
        if str(problem) not in seen:
            seen.add(str(problem))
            out.append(problem)
    return out
