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
from typing import Any, Protocol

import jsonschema

from contack_core.language.documents import Document
from contack_core.language.problems import KeyPath, Problem, RulesetError

#: The slots of a ruleset that hold primitives, and whether each holds one or a mapping of them.
SLOTS: Mapping[str, str] = {
    "components": "many",
    "board": "one",
    "zones": "many",
    "setup": "many",
    "placement": "one",
    "turn": "many",
    "hand_end": "many",
    "scoring": "many",
    "match": "one",
}


class PrimitiveCatalogue(Protocol):
    """What the schema needs of a registry of primitives: the names in each slot, and each
    primitive's parameter schema (see :class:`contack_core.primitives.registry.Registry`)."""

    def names(self, slot: str) -> list[str]: ...

    def get(self, slot: str, name: str) -> Any: ...


_NAME = {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"}

_OPTION = {
    "type": "object",
    "properties": {
        "doc": {"type": "string"},
        "type": {"enum": ["integer", "boolean", "choice"]},
        "default": {"type": ["integer", "boolean", "string"]},
        "min": {"type": "integer"},
        "max": {"type": "integer"},
        "choices": {"type": "object", "additionalProperties": {"type": ["object", "null"]}},
    },
    "required": ["default"],
    "additionalProperties": False,
}

_TOP = {
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
    },
    "additionalProperties": False,
}


def _primitive_schema(registry: PrimitiveCatalogue, slot: str) -> dict[str, Any]:
    """One slot entry: ``primitive`` names a registered primitive, the rest is its parameters."""
    names = registry.names(slot)
    branches = []
    for name in names:
        cls = registry.get(slot, name)
        params = copy.deepcopy(cls.schema)  # type: ignore[union-attr]
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
    return json.loads(text)


def check_schema(document: Document, registry: PrimitiveCatalogue) -> None:
    """Validate the resolved document against the schema of ``registry``'s primitives: every
    problem at once, each at its key's line."""
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


def _schema_message(error: jsonschema.ValidationError, registry: PrimitiveCatalogue, path: KeyPath) -> str:
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
