"""Ruleset options (Ludii's option axes): typed values and choices that patch the document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from contack_core.language.documents import Document, key_paths, merge
from contack_core.language.limits import MAX_OPTION_VALUE, shown_number
from contack_core.language.problems import KeyPath, Mark, Problem, RulesetError

#: The kinds of option a ruleset may declare.
OPTION_TYPES = ("integer", "boolean", "choice")


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
            problems.append(Problem(f"unknown option {name!r} (options of this ruleset: {known})", chosen=name))
    for name, spec in declared.items():
        if not isinstance(spec, dict) or spec.get("type", "choice") not in OPTION_TYPES:
            continue  # reported by the schema, with its place
        raw = chosen.get(name, spec.get("default"))
        bound = _beyond_bounds(spec)
        if bound is not None:  # the declaration itself sizes more than a game can use
            path: KeyPath = ("options", name, bound)
            problems.append(Problem(f"option {name}'s {bound} is {shown_number(spec[bound])}: an integer option "
                                    f"stays within {MAX_OPTION_VALUE:,} either way (MAX_OPTION_VALUE)",
                                    path, document.mark(path)))
            continue
        try:
            values[name] = option_value(name, spec, raw)
        except ValueError as error:
            if name in chosen:
                problems.append(Problem(str(error), chosen=name))
            else:
                path = ("options", name)
                problems.append(Problem(str(error), path, document.mark(path)))
    if not problems:
        problems = _unmet_requirements(declared, chosen, values)
    if problems:
        raise RulesetError(problems)
    for name, spec in declared.items():
        choices = spec.get("choices") if isinstance(spec, dict) else None
        patch = choices.get(str(values.get(name))) if isinstance(choices, dict) else None
        if isinstance(patch, dict) and patch:
            where = _patch_marks(document, ("options", name, "choices", str(values.get(name))), patch)
            document.data = merge(document.data, patch, document.marks, where)
    return values


def _patch_marks(document: Document, prefix: KeyPath, patch: dict[str, Any]) -> dict[KeyPath, Mark]:
    """The marks of an option value's patch, as paths in the document it patches: what the
    patch sets is then blamed on the patch's own lines, not on the keys it replaced."""
    size = len(prefix)
    return {path[size:]: document.marks[path] for path in key_paths(patch, prefix)
            if len(path) > size and path in document.marks}


def option_value(name: str, spec: Mapping[str, Any], raw: Any) -> Any:
    """Convert and check one option value against its declaration."""
    kind = spec.get("type", "choice")
    if kind == "integer":
        try:
            value = int(raw) if not isinstance(raw, bool) else None
        except (TypeError, ValueError):
            value = None
        if value is None:
            raise ValueError(f"option {name} takes a whole number, not {_shown_raw(raw)}")
        if abs(value) > MAX_OPTION_VALUE:  # every size a formula works out starts from an option
            raise ValueError(f"option {name} is {shown_number(value)}: an integer option stays within "
                             f"{MAX_OPTION_VALUE:,} either way (MAX_OPTION_VALUE)")
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
        raise ValueError(f"option {name} is on or off, not {_shown_raw(raw)}")
    choices = spec.get("choices")
    allowed = [str(choice) for choice in choices] if isinstance(choices, (dict, list)) else []
    if not allowed:
        raise ValueError(f"option {name} lists no choices: an option is a choice among its `choices` unless it "
                         f"says `type: integer` (with `min` and `max`) or `type: boolean`")
    if str(raw) not in allowed:
        raise ValueError(f"option {name} is one of {', '.join(allowed)}, not {_shown_raw(raw)}")
    return str(raw)


def _beyond_bounds(spec: Mapping[str, Any]) -> str | None:
    """The first of an integer option's ``default``, ``min`` and ``max`` beyond :data:`MAX_OPTION_VALUE`."""
    if spec.get("type", "choice") != "integer":
        return None
    for key in ("default", "min", "max"):
        value = spec.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_OPTION_VALUE:
            return key
    return None


def _unmet_requirements(declared: Mapping[str, Any], chosen: Mapping[str, Any], values: Mapping[str, Any]
                        ) -> list[Problem]:
    """An option set away from its default that ``requires`` another option's value it does
    not have would do nothing (``lender=players`` without ``timed=on``): an error, not a
    silent no-op."""
    problems = []
    for name in chosen:
        spec = declared[name]
        required = spec.get("requires") or {}
        if values[name] == option_value(name, spec, spec.get("default")):
            continue
        unmet = {other: value for other, value in required.items()
                 if other in declared and values.get(other) != option_value(other, declared[other], value)}
        if unmet:
            needs = " and ".join(f"{other}={value}" for other, value in unmet.items())
            flags = " ".join(f"--option {other}={value}" for other, value in unmet.items())
            problems.append(Problem(f"option {name}={chosen[name]} does nothing unless {needs}: "
                                    f"choose that too ({flags})", chosen=name))
    return problems


def _shown_raw(raw: object) -> str:
    """A value as typed, quoted; cut short when it is long (a 5,000-digit number typed for an option)."""
    text = repr(raw) if not isinstance(raw, int) or abs(raw) < 10**60 else shown_number(raw)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text):,} characters)"
