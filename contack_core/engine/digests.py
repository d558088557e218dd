"""The fingerprint of what a ruleset plays, kept in every record's header (``ruleset_digest``).

It covers the *resolved rules*: the ruleset after ``extends`` and after the chosen options'
patches, less what never changes play (:data:`NOT_RULES`: the id, the title, the source and
description, the narration ``terms`` and the ``options`` declarations with their docs and
ranges), with every option a formula reads replaced by its chosen value and every formula
written out as its tree (so spacing and needless brackets do not count). Comments are never
part of it (YAML drops them). So a ruleset that gains a comment, a reworded title or doc, a
translation, or a new option whose default keeps the old rule (``hands: 3`` becoming
``hands: hands``, the option defaulting to 3) keeps its digest, and old records stay
auditable; any change to what is played, or another choice of option values, changes it.
``contack audit`` compares the record's digest with the ruleset's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from contack_core.language.expressions import canonical_formula, formula_constants

#: Top-level keys of a ruleset that say nothing about how the game is played.
NOT_RULES = ("id", "title", "source", "description", "terms", "options")


def resolved_rules(document: Mapping[str, object], options: Mapping[str, object]) -> dict[str, object]:
    """What the engine runs of ``document`` (resolved, options applied) with ``options``."""
    constants = formula_constants(options)
    return {key: _bound(value, constants) for key, value in document.items() if key not in NOT_RULES}


def _bound(value: object, constants: Mapping[str, object]) -> object:
    if isinstance(value, dict):
        return {key: _bound(item, constants) for key, item in value.items()}
    if isinstance(value, list):
        return [_bound(item, constants) for item in value]
    if isinstance(value, str):
        return canonical_formula(value, constants)
    return value


def rules_digest(document: Mapping[str, object], options: Mapping[str, object]) -> str:
    """``sha256:`` and 16 hex digits of the resolved rules (see the module's docstring)."""
    blob = json.dumps(resolved_rules(document, options), sort_keys=True, default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()[:16]


def text_digest(document: Mapping[str, object], options: Mapping[str, object]) -> str:
    """The digest records carried before they covered the resolved rules (the whole resolved
    document and every option value): still recognised, so those records are not reported
    as made under another ruleset while nothing has changed."""
    blob = json.dumps({"rules": document, "options": options}, sort_keys=True, default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()[:16]
