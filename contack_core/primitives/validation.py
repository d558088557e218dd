"""What `contack rulesets validate` checks beyond loading a ruleset with its defaults.

Loading checks one configuration, the one asked for; a choice nobody has made yet would
otherwise be found broken only in play. So validation loads the ruleset again under each
value of each option away from its default, one at a time on top of the defaults (with
what that value ``requires``), and blames what fails on the option's own patch, naming
the option and the value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from contack_core.engine.rules import Rules
from contack_core.language.documents import ParsedFiles, find_ruleset
from contack_core.language.options import option_value
from contack_core.language.problems import Problem, RulesetError
from contack_core.language.schema import compile_ruleset_schema
from contack_core.primitives.builtin import default_registry
from contack_core.primitives.loading import load_rules
from contack_core.primitives.registry import Registry


def validate_ruleset(reference: str | Path, registry: Registry | None = None) -> Rules:
    """Load ``reference`` with its defaults, then under every other option value (see the
    module docstring); raise :class:`RulesetError` with every problem found, each
    configuration's problems naming the option value that brings them. Returns the
    ruleset as loaded with its defaults."""
    registry = registry or default_registry()
    path = reference if isinstance(reference, Path) else find_ruleset(reference)
    quick_schema = compile_ruleset_schema(registry)
    parsed: ParsedFiles = {}
    rules = load_rules(path, {}, registry, quick_schema, parsed)
    problems: list[Problem] = []
    seen: set[str] = set()
    for options in option_variants(rules.document.get("options") or {}):
        try:
            load_rules(path, options, registry, quick_schema, parsed)
        except RulesetError as error:
            chosen = " ".join(f"{name}={value}" for name, value in options.items())
            for problem in error.problems:
                if str(problem) in seen:  # one fault that several values bring: said once
                    continue
                seen.add(str(problem))
                problems.append(Problem(f"{problem.message} (with option {chosen})", problem.path, problem.mark))
    if problems:
        raise RulesetError(problems)
    return rules


def option_variants(declared: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """Each declared option away from its default, one at a time, with the values it
    ``requires``: every other value of a choice or an on/off option, and an integer
    option's least and greatest values (a formula over it fails, if anywhere, at an end
    far more often than between)."""
    for name, spec in declared.items():
        kind = spec.get("type", "choice")
        default = option_value(name, spec, spec.get("default"))
        if kind == "choice":
            values = [str(choice) for choice in spec.get("choices") or {}]
        elif kind == "boolean":
            values = ["on", "off"]
        else:
            values = [str(bound) for bound in (spec.get("min"), spec.get("max")) if bound is not None]
        required = {other: str(value) for other, value in (spec.get("requires") or {}).items()}
        for value in dict.fromkeys(values):
            if option_value(name, spec, value) != default:
                yield {**required, name: value}
