"""What `contack rulesets validate` checks beyond loading a ruleset with its defaults.

Loading checks one configuration, the one asked for; a choice nobody has made yet would
otherwise be found broken only in play. So validation loads the ruleset again under each
value of each option away from its default, one at a time on top of the defaults (with
what that value ``requires``), and blames what fails on the option's own patch, naming
the option and the value.

A ruleset that loads may still be a game nobody can play. Each configuration is refused
when no two tiles of its set may ever touch (the placement says so, over every pair of
edges), and is tried on a few seeded deals at its fewest and most seats: refused when no
first action is legal in any of them, or when no tile could be laid (nor a piece moved) in
any of those games. The deals are a sample, not a proof; a game in which a first tile is
legal but rare enough to be missed in all of them is, in practice, as unplayable.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from contack_core.engine.actions import Move, Play
from contack_core.engine.rules import Rules
from contack_core.engine.ruleset_faults import RulesetFault, ruleset_fault
from contack_core.engine.state import GameState
from contack_core.language.documents import ParsedFiles, find_ruleset, read_document
from contack_core.language.options import choose_options, option_value
from contack_core.language.problems import KeyPath, Problem, RulesetError
from contack_core.language.quickschema import QuickSchema
from contack_core.language.schema import compile_ruleset_schema
from contack_core.primitives.builtin import default_registry
from contack_core.primitives.loading import load_rules
from contack_core.primitives.registry import Registry


def validate_ruleset(reference: str | Path, registry: Registry | None = None,
                     quick_schema: QuickSchema | Literal[False] | None = False, parsed: ParsedFiles | None = None) -> Rules:
    """Load ``reference`` with its defaults, then under every other option value (see the
    module docstring); raise :class:`RulesetError` with every problem found, each
    configuration's problems naming the option value that brings them. Returns the
    ruleset as loaded with its defaults. For a caller validating several rulesets:
    ``quick_schema`` compiled once (False: compile it here) and ``parsed``, the files read."""
    registry = registry or default_registry()
    path = reference if isinstance(reference, Path) else find_ruleset(reference)
    if quick_schema is False:
        quick_schema = compile_ruleset_schema(registry)
    parsed = {} if parsed is None else parsed
    rules = load_rules(path, {}, registry, quick_schema, parsed)
    unplayable = playability_problems(rules)
    if unplayable:
        raise RulesetError(_located(path, {}, parsed, unplayable))
    problems: list[Problem] = []
    seen: set[str] = set()
    for options in option_variants(rules.document.get("options") or {}):
        try:
            variant = load_rules(path, options, registry, quick_schema, parsed)
            unplayable = playability_problems(variant)
            if unplayable:
                raise RulesetError(_located(path, options, parsed, unplayable))
        except RulesetError as error:
            chosen = " ".join(f"{name}={value}" for name, value in options.items())
            for problem in error.problems:
                if str(problem) in seen:  # one fault that several values bring: said once
                    continue
                seen.add(str(problem))
                problems.append(Problem(f"with option {chosen}: {problem.message}", problem.path, problem.mark))
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


#: The actions that lay a tile on the figure or move a piece on the board.
LAYING: tuple[type, ...] = (Play, Move)
#: How many seeded deals a configuration is tried on, at each of its fewest and most seats.
PLAYABILITY_DEALS = 3
#: The most actions a trial game takes before it is given up on (a game that draws and passes).
PLAYABILITY_ACTIONS = 3_000


def playability_problems(rules: Rules) -> list[tuple[KeyPath, str]]:
    """Why ``rules`` is a game nobody can play, as (key path, message) pairs; none if it can be.

    First what the placement can say for every deal (no two tiles may ever touch); then a few
    seeded deals, played at random until a tile is laid: refused when no first action is legal
    in any, or no tile could be laid in any game. A formula failing in them is reported too."""
    placement = rules.placement
    if placement is not None and not placement.any_contact():
        return [(("placement", "contact"), "no tile can ever be played: no edge of one tile of the set may touch "
                 "an edge of another (the contact is false for every pair of edges"
                 f"{' of one colour' if placement.colours_must_match else ''})")]
    laying = [rule for rule in rules.turn if rule.action_type in LAYING]
    stuck_endings = {ending.key for ending in rules.endings_when_stuck}
    low, high = rules.players
    firsts: list[bool] = []  # at each deal whose game reached a decision: was a first action legal?
    tile_laid = False
    ended_at_once: list[str] = []  # the ending of each game in which nobody ever acted nor went out
    for seats in sorted({low, high}):
        for seed in range(PLAYABILITY_DEALS):
            try:
                state = GameState(rules, seats)  # the first hand is set up: set-up formulas run
            except Exception as error:
                fault = ruleset_fault(error, rules)
                if fault is not None:
                    return [_fault_place(fault, seats, seed)]
                if isinstance(error, ValueError):
                    continue  # seats the teams cannot be formed of: play refuses them the same way
                raise
            rng = random.Random(seed)
            first: bool | None = None
            try:
                for _ in range(PLAYABILITY_ACTIONS):
                    if state.is_over():
                        break
                    if state.is_chance_node():
                        state.apply(state.sample_chance(rng))
                        continue
                    legal = state.legal_actions()
                    if state.setup_step is None:
                        first = bool(legal) if first is None else first
                        tile_laid = tile_laid or any(type(action) in LAYING for action in legal)
                    if tile_laid or not legal:
                        break
                    state.apply(legal[rng.randrange(len(legal))])
            except Exception as error:  # a formula of the ruleset failing, or its rules leaving a seat nothing
                fault = ruleset_fault(error, rules)
                if fault is None:
                    raise
                if fault.formula or first is not None:
                    return [_fault_place(fault, seats, seed)]
                first = False  # the first seat to act may do nothing, and no ending says what follows
            if first is None and state.hand_results and state.hand_results[0].reason in stuck_endings:
                first = False  # every hand ended as blocked before anyone acted
            if first is not None:
                firsts.append(first)
            elif state.is_over() and all(result.went_out is None for result in state.hand_results):
                ended_at_once.append(state.hand_results[0].reason)
            if any(firsts) and (tile_laid or not laying):
                return []
    counts = " and ".join(map(str, sorted({low, high})))
    if not firsts and ended_at_once:
        return [(("hand_end", ended_at_once[0]), f"no first action is legal: in {PLAYABILITY_DEALS} trial deals at "
                                                 f"each of {counts} seats, every hand ended as it was set up, before "
                                                 f"any seat could act, and with nobody out (hand_end."
                                                 f"{ended_at_once[0]} ended it)")]
    if not firsts:
        return []  # every game ended as it was set up, a seat going out (one tile each): nothing to judge
    if not any(firsts):
        return [(("turn",), f"no first action is legal: in {PLAYABILITY_DEALS} trial deals at each of {counts} "
                            f"seats, the first seat to act after the set-up may do nothing (every turn rule's "
                            f"when is false, or it offers nothing)")]
    kinds = " or ".join(sorted({rule.action_type.__name__.lower() for rule in laying}))
    conditioned = [rule for rule in laying if rule.when is not None]
    # Where to look: a laying rule's own condition, else where the tiles may go.
    place: KeyPath = ("turn", (conditioned or laying)[0].key) if conditioned or placement is None else ("placement",)
    return [(place, f"no tile can ever be played: in {PLAYABILITY_DEALS} trial deals at each of "
                                      f"{counts} seats, played at random to the end, no {kinds} was ever legal")]


def _fault_place(fault: RulesetFault, seats: int, seed: int) -> tuple[KeyPath, str]:
    """A ruleset's failure in a trial deal, where it is and why."""
    keys = tuple(fault.keys[0].split(".")) if fault.keys else ("turn",)
    formula = f" (formula {fault.formula!r})" if fault.formula else ""
    return keys, f"fails in a trial deal ({seats} seats, seed {seed}): {fault.reason}{formula}"


def _located(path: Path, options: Mapping[str, Any], parsed: ParsedFiles,
             found: list[tuple[KeyPath, str]]) -> list[Problem]:
    """``found`` as problems at their places in the document as resolved with ``options``."""
    document = read_document(path, parsed=parsed)
    choose_options(document, dict(options))
    return [document.problem(message, key) for key, message in found]
