"""Compiled programs: the parts of a ruleset the interpreter runs on every action, turned
into one Python function each at load.

A primitive on the hot path spells its part out as Python source over ``_state`` (and
``_event``), with the objects it uses bound by name; a primitive that does not falls back
to a call of its own method. The ruleset's own text only ever enters as a ``when``
condition, and then as a tree the expression whitelist has checked (see
:func:`contack_core.language.expressions.checked_tree`), written back as code by
:func:`ast.unparse`: never the ruleset's text itself. So a turn costs the
interpreter two calls (the turn program and the placement's generator) where calling each
rule, value and ending in turn cost a dozen.
"""

from __future__ import annotations

import ast
import functools
import re
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from contack_core.language.expressions import (
    FORMULAS_GLOBAL,
    SAFE_FUNCTIONS,
    bounded_figure,
    bounded_pow,
    checked_tree,
)
from contack_core.language.limits import MAX_FIGURE


@attrs.frozen
class Source:
    """Python source an engine primitive contributes, and the objects it names. ``trees``
    holds a ruleset's formulas as checked trees (see :func:`formula`): the code names each by
    its placeholder, and the compiler puts the tree's own code in its place, so a ruleset's
    text never enters a program."""

    code: str
    bindings: Mapping[str, Any] = attrs.field(factory=dict)
    trees: Mapping[str, ast.expr] = attrs.field(factory=dict)
    #: The ruleset's text of each tree, by placeholder: compiled code keeps which line
    #: evaluates which formula, so an error in play names it (see :data:`FORMULAS_GLOBAL`).
    texts: Mapping[str, str] = attrs.field(factory=dict)


def formula(placeholder: str, source: str | int | float | bool, values: Mapping[str, str],
            constants: Mapping[str, Any], bindings: Mapping[str, Any] | None = None) -> Source:
    """A ruleset's formula as a :class:`Source` whose code is ``placeholder``: whitelisted
    (names outside ``values`` and ``constants`` refused), each value read inlined as the
    engine's expression for it (``values``), the options bound as constants."""
    tree = checked_tree(source, set(values) | set(constants), _ParsedOnDemand(values), constants)
    return Source(placeholder, {**constants, **(bindings or {})}, {placeholder: tree}, {placeholder: str(source)})


class _ParsedOnDemand(Mapping[str, ast.expr]):
    """The engine's expression of each value, parsed when a formula reads it (a fresh tree
    each time): a formula reads two or three of the twenty values a place offers, and
    parsing them all for each formula was most of the cost of loading a ruleset."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = sources

    def __getitem__(self, key: str) -> ast.expr:
        return ast.parse(self.sources[key], mode="eval").body

    def __iter__(self) -> Iterator[str]:
        return iter(self.sources)

    def __len__(self) -> int:
        return len(self.sources)


@attrs.frozen
class TurnStep:
    """One turn rule as the turn program sees it: the ruleset's ``when`` (None: always),
    the expression listing its legal actions (or statements, several lines, leaving them in
    ``_found``), the ``can_<rule>`` name later conditions read,
    and what the program records as allowed when the rule offers actions."""

    when: str | None
    can_name: str
    generator: Source
    action_type: type | str
    rule: Any


def _namespace(sources: Sequence[Source], constants: Mapping[str, Any]) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__builtins__": {"len": len}, **SAFE_FUNCTIONS, "_pow": bounded_pow,
                                 "_bounded": bounded_figure, **constants}
    for source in sources:
        namespace.update(source.bindings)
    return namespace


def _trees(sources: Sequence[Source]) -> dict[str, ast.expr]:
    found: dict[str, ast.expr] = {}
    for source in sources:
        found.update(source.trees)
    return found


def _texts(sources: Sequence[Source]) -> dict[str, str]:
    found: dict[str, str] = {}
    for source in sources:
        found.update(source.texts)
    return found


def define_from(name: str, parameters: Sequence[str], body: Source) -> Callable[..., Any]:
    """The function ``name(*parameters)`` whose body is ``body``: the engine's own source,
    never a ruleset's text, its free names bound by ``body.bindings``."""
    lines = [f"def {name}({', '.join(parameters)}):", *("    " + line for line in body.code.splitlines())]
    namespace = dict(body.bindings)
    exec(compile("\n".join(lines), f"<engine {name}>", "exec"), namespace)  # noqa: S102 - engine source only
    defined: Callable[..., Any] = namespace[name]
    return defined


def _build(lines: list[str], trees: Mapping[str, ast.expr], namespace: dict[str, Any], name: str,
           texts: Mapping[str, str]) -> Callable[..., Any]:
    """Compile ``lines`` with each placeholder name in ``trees`` replaced by its tree, noting
    on which line each formula's text (``texts``) is evaluated (:data:`FORMULAS_GLOBAL`).

    A tree goes in as the code :func:`ast.unparse` writes for it, in parentheses: that code
    parses back to the same tree (the whitelist checked that tree, not the ruleset's text),
    and splicing it into the program's lines lets CPython's own parser build the whole
    function, where putting trees into a parsed module and fixing its locations in Python
    cost three times as much (docs/performance.md, "Compiling a ruleset's state")."""
    formulas: dict[int, str] = {}
    if trees:
        code_of = {key: f"({ast.unparse(tree)})" for key, tree in trees.items()}
        placeholder = re.compile(r"(?<![\w.])(" + "|".join(sorted(map(re.escape, trees), key=len, reverse=True))
                                 + r")(?!\w)")
        def put(match: re.Match[str], number: int) -> str:
            if match.group(1) in texts:
                formulas[number] = texts[match.group(1)]
            return code_of[match.group(1)]

        lines = [placeholder.sub(functools.partial(put, number=number), line) for number, line in enumerate(lines, 1)]
    namespace[FORMULAS_GLOBAL] = formulas
    exec(compile("\n".join(lines), f"<ruleset {name}>", "exec"), namespace)  # noqa: S102 - checked formulas only
    built: Callable[..., Any] = namespace[name]
    return built


def _reads_seat(trees: Iterable[ast.expr]) -> bool:
    return any(isinstance(node, ast.Name) and node.id == "_seat" for tree in trees for node in ast.walk(tree))


@attrs.frozen
class Program:
    """Statements of a compiled program (unindented), before they are put in a function: the
    objects they name, the ruleset's formulas as checked trees by placeholder, and each formula's
    text. The state compiled for a ruleset (:mod:`contack_core.engine.compiled`) inlines several
    in one method; :func:`compile_turn_program` and :func:`compile_consequences` wrap one each."""

    lines: tuple[str, ...]
    namespace: Mapping[str, Any]
    trees: Mapping[str, ast.expr] = attrs.field(factory=dict)
    texts: Mapping[str, str] = attrs.field(factory=dict)


def build_function(name: str, parameters: Sequence[str], lines: Sequence[str], programs: Sequence[Program],
                   bindings: Mapping[str, Any] | None = None) -> Callable[..., Any]:
    """The function ``name(*parameters)`` whose body is ``lines`` (indented once), the formulas
    of ``programs`` put in place and their names (and ``bindings``) bound. A name two parts bind
    to different objects is an engine fault, refused here rather than left to shadow the other."""
    namespace: dict[str, Any] = {}
    trees: dict[str, ast.expr] = {}
    texts: dict[str, str] = {}
    for part in [*programs, Program((), bindings or {})]:
        for key, value in part.namespace.items():
            if key in namespace and key != "__builtins__" and not _same(namespace[key], value):
                raise RuntimeError(f"compiling {name}: {key!r} is bound to two different objects")
            namespace.setdefault(key, value)
        trees.update(part.trees)
        texts.update(part.texts)
    header = [f"def {name}({', '.join(parameters)}):"]
    built = _build([*header, *("    " + line for line in lines)], trees, namespace, name, texts)
    # A name one part assigns is local to the whole function: it would hide another part's binding.
    hidden = sorted(set(built.__code__.co_varnames) & namespace.keys())
    if hidden:
        raise RuntimeError(f"compiling {name}: {', '.join(hidden)} assigned in one part hides what another binds")
    return built


def _same(bound: object, other: object) -> bool:
    """Whether two parts of a program bind a name alike: the same object, or equal values of one
    type (an option's value, say, worked out for each part)."""
    return bound is other or (type(bound) is type(other) and type(bound) in _VALUE_TYPES and bound == other)


#: What two parts may bind to equal objects rather than one: values, and one object's method
#: (``placement._compute_fits`` is a new bound method at each look-up).
_VALUE_TYPES = (int, float, str, bool, tuple, types.MethodType)


def turn_program_body(steps: Sequence[TurnStep], values: Mapping[str, str], constants: Mapping[str, Any],
                      bindings: Mapping[str, Any] | None = None) -> Program:
    """The statements of :func:`compile_turn_program`: over ``_state``, they leave the legal
    actions in ``_actions`` and set ``_state._allowed``."""
    # The first step, when unconditional, starts the list with what it found (nothing before it).
    first_unconditional = bool(steps) and steps[0].when is None
    lines = ["_offered = 0"]
    if not first_unconditional:
        lines.append("_actions = []")
    conditions: list[Source] = []
    for index, step in enumerate(steps):
        # A generator is an expression, or statements (several lines) leaving the actions in _found.
        code = step.generator.code
        starts = index == 0 and first_unconditional
        body = [*(code.splitlines() if "\n" in code else [f"_found = {code}"]),
                *(["_actions = _found"] if starts else []),
                "if _found:",
                f"    {step.can_name} = True",
                f"    _offered += {1 << index}",
                *([] if starts else ["    _actions = _actions + _found if _actions else _found"]),
                "else:",
                f"    {step.can_name} = False"]
        if step.when is None:
            lines.extend(body)
            continue
        readable = {**values, **{other.can_name: other.can_name for other in steps[:index]}}
        conditions.append(formula(f"_when{index}", step.when, readable, constants, bindings))
        lines.append(f"if _when{index}:")
        lines.extend("    " + line for line in body)
        lines.extend(["else:", f"    {step.can_name} = False"])
    lines.append("_state._allowed = _allowed_by_offer[_offered]")
    trees = _trees(conditions)
    if _reads_seat(trees.values()):
        lines.insert(0, "_seat = _state.current")
    namespace = _namespace([*(step.generator for step in steps), *conditions], constants)
    # The ``_allowed`` map (action type -> rule) for each set of steps that offered actions,
    # indexed by a bit per step and made once, so a turn makes no dictionary (a ruleset has
    # one turn rule per kind of action at most, so a few dozen maps). The maps are shared:
    # nothing may change them.
    namespace["_allowed_by_offer"] = [
        {step.action_type: step.rule for index, step in enumerate(steps) if offered >> index & 1}
        for offered in range(1 << len(steps))
    ]
    return Program(tuple(lines), namespace, trees, _texts(conditions))


def compile_turn_program(steps: Sequence[TurnStep], values: Mapping[str, str], constants: Mapping[str, Any],
                         bindings: Mapping[str, Any] | None = None) -> Callable[[Any], list[Any]]:
    """One function ``turn_program(state) -> legal actions`` for a turn's rules.

    For each step whose ``when`` holds, in order, the program evaluates the step's
    generator; when it offers actions they join the result and ``state._allowed`` maps
    the action type to the rule (a shared map: never change it). ``values`` gives the
    engine's expression over ``_state`` and ``_seat`` (the seat to act) for every named value
    a condition may read (``hand_count`` is ``len(_state.seat_zones['hand'][_seat])``),
    inlined where it is read; ``bindings``, what those expressions call.
    """
    body = turn_program_body(steps, values, constants, bindings)
    return build_function("turn_program", ["_state"], [*body.lines, "return _actions"], [body])


def compile_per_seat(name: str, source: str | int | float | bool, values: Mapping[str, str],
                     constants: Mapping[str, Any], bindings: Mapping[str, Any] | None = None
                     ) -> Callable[[Any], list[Any]]:
    """One function ``name(state) -> [the value of source for each seat]``. ``source`` is a
    ruleset's expression (whitelisted here); ``values`` gives, for every name it may read,
    the engine's expression over ``_state`` and ``_seat``, inlined where it is read. Each
    value is a figure (a counter's change), refused beyond ``MAX_FIGURE`` on the formula's line."""
    function: Callable[[Any], list[Any]] = _per_seat(name, source, values, constants, bindings, into=False)
    return function


def compile_added_per_seat(name: str, source: str | int | float | bool, values: Mapping[str, str],
                           constants: Mapping[str, Any], bindings: Mapping[str, Any] | None = None
                           ) -> Callable[[Any, list[int]], None]:
    """:func:`compile_per_seat`'s values added where they go: ``name(state, into)`` adds each
    seat's value to ``into[seat]`` (a hand's gains), with no list of values made on the way."""
    function: Callable[[Any, list[int]], None] = _per_seat(name, source, values, constants, bindings, into=True)
    return function


def _per_seat(name: str, source: str | int | float | bool, values: Mapping[str, str], constants: Mapping[str, Any],
              bindings: Mapping[str, Any] | None, into: bool) -> Callable[..., Any]:
    value = formula("_value", source, values, constants, bindings)
    # A loop, not a comprehension (a call of its own in CPython 3.11), and the bound checked in
    # line for a whole number (what bounded_figure is called for otherwise, to word the refusal).
    # One line, the formula's: an error in it or in its bound names the formula.
    bounded = "_v if (_v := _value).__class__ is _int and -_most <= _v <= _most else _bounded(_v)"
    loop = "    for _seat in _range(_state.seat_count):"
    if into:
        lines = [f"def {name}(_state, _into):", loop, f"        _into[_seat] += {bounded}"]
    else:
        lines = [f"def {name}(_state):", "    _values = []", loop, f"        _values.append({bounded})",
                 "    return _values"]
    return _build(lines, value.trees, {**_namespace([value], constants), "_range": range, "_int": int,
                                       "_most": MAX_FIGURE}, name, value.texts)


def compile_value(name: str, source: str | int | float | bool, values: Mapping[str, str],
                  constants: Mapping[str, Any], bindings: Mapping[str, Any] | None = None) -> Callable[[Any], Any]:
    """One function ``name(state) -> the value of source``, a ruleset's formula about the whole
    game (whitelisted here), each name it reads inlined from ``values``."""
    value = formula("_value", source, values, constants, bindings)
    return _build([f"def {name}(_state):", "    return _value"], value.trees, _namespace([value], constants), name,
                  value.texts)


def consequences_body(effects: Sequence[Source], endings: Sequence[tuple[str, Source, bool]],
                      fired: Callable[[str], Sequence[str]]) -> Program | None:
    """The statements of :func:`compile_consequences` over ``_state`` and ``_event``: each effect,
    then each ending's condition in order, running ``fired(key)`` (statements that leave the
    program) for the first that holds. None when nothing follows the event."""
    effects = [effect for effect in effects if effect.code]
    if not effects and not endings:
        return None
    lines: list[str] = []
    for effect in effects:
        lines.extend(effect.code.splitlines())
    for key, condition, went_out in endings:
        lines.append(f"if {condition.code}:")
        if went_out:
            lines.append("    _state.went_out = _event.seat")
        lines.extend("    " + line for line in fired(key))
    sources = [*effects, *(condition for _, condition, _ in endings)]
    trees = _trees(sources)
    if _reads_seat(trees.values()):
        lines.insert(0, "_seat = _event.seat")
    return Program(tuple(lines), _namespace(sources, {}), trees, _texts(sources))


def compile_consequences(effects: Sequence[Source], endings: Sequence[tuple[str, Source, bool]],
                         name: str) -> Callable[[Any, Any], str | None] | None:
    """One function ``name(state, event) -> key of the ending that fired, or None`` for what
    follows an event: each ``effects`` statement (a counter scoring a play), then each
    ending's condition in order, as ``(key, condition, went_out)``; ``went_out``: the seat
    whose action fired it went out. None when nothing follows the event. A ruleset's
    formulas among them are about the seat whose action it was (``_seat``)."""
    body = consequences_body(effects, endings, lambda key: [f"return {key!r}"])
    if body is None:
        return None
    return build_function(name, ["_state", "_event"], [*body.lines, "return None"], [body])
