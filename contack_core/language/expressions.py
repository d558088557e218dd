"""The safe expression compiler: rulesets state predicates and formulas as expressions.

An expression such as ``a == b or (a + b) % 5 == 0`` is parsed with :mod:`ast`, checked
against a whitelist (arithmetic, comparisons, boolean logic, ``x if c else y``, literals,
named values and calls of ``min``/``max``/``abs``), and compiled once into a plain Python
function whose parameters are the names it uses. Anything else (attribute access,
subscripts, other calls, comprehensions, lambdas, walrus, f-strings, imports) is refused
before any code object exists, so a ruleset can never run arbitrary code.
"""

from __future__ import annotations

import ast
import difflib
import itertools
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from contack_core.language.limits import (
    MAX_DOMAIN_EVALUATIONS,
    MAX_EXPONENT,
    MAX_FIGURE,
    MAX_EXPRESSION_CHARS,
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_NODES,
    MAX_POWER_BITS,
    shown_number,
)

#: Functions an expression may call. Pure, total on numbers, no side effects.
SAFE_FUNCTIONS: Mapping[str, Callable[..., Any]] = {"min": min, "max": max, "abs": abs}
#: How many arguments each function takes (fewest, most; None: no most): ``min(x)`` of one
#: number fails as surely as ``min()``, so both are refused at load.
_ARITY: Mapping[str, tuple[int, int | None]] = {"min": (2, None), "max": (2, None), "abs": (1, 1)}


def bounded_pow(base: int | float, exponent: int | float) -> int | float:
    """``base ** exponent``, refused when the exponent or the number it makes is too large
    (:data:`MAX_EXPONENT`, :data:`MAX_POWER_BITS`): a formula may not hang the loader or a game."""
    if abs(exponent) > MAX_EXPONENT:
        shown: object = exponent
        if isinstance(exponent, int) and abs(exponent) >= 10**30:
            shown = f"{abs(exponent).bit_length()} bits"
        raise ExpressionError(f"an exponent of {shown} is larger than {MAX_EXPONENT} (MAX_EXPONENT)")
    if isinstance(base, int) and isinstance(exponent, int) and abs(base).bit_length() * exponent > MAX_POWER_BITS:
        raise ExpressionError(f"a power of a {abs(base).bit_length()}-bit number to {exponent} would have more "
                              f"than {MAX_POWER_BITS} bits (MAX_POWER_BITS)")
    return base**exponent


#: A value a formula gives (a number, or a truth value where a predicate is read as a number).
FigureT = TypeVar("FigureT")


def bounded_figure(value: FigureT) -> FigureT:
    """``value``, a figure a formula gives in play (a counter's change, a transfer), refused when
    it is beyond :data:`MAX_FIGURE` either way: a squaring score (``score * score``) would
    otherwise grow past what a record holds, then past what memory holds."""
    if isinstance(value, int) and not -MAX_FIGURE <= value <= MAX_FIGURE:
        raise ExpressionError(f"it gives {shown_number(value)}, beyond {MAX_FIGURE:,} either way (MAX_FIGURE)")
    return value


class _BoundPowers(ast.NodeTransformer):
    """Rewrite ``x ** y`` into ``_pow(x, y)``, which refuses huge exponents."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Pow):
            return ast.Call(func=ast.Name(id="_pow", ctx=ast.Load()), args=[node.left, node.right], keywords=[])
        return node

_ALLOWED_NODES: tuple[type[ast.AST], ...] = (
    ast.Expression,
    ast.BoolOp, ast.And, ast.Or,
    ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
    ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
    ast.IfExp,
    ast.Constant,
    ast.Name, ast.Load,
    ast.Call,
)

_DESCRIBE: Mapping[type[ast.AST], str] = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambdas",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.NamedExpr: "assignment expressions",
    ast.JoinedStr: "f-strings",
    ast.Starred: "starred arguments",
    ast.Await: "await",
    ast.Yield: "yield",
}


def formula_constants(options: Mapping[str, Any]) -> dict[str, Any]:
    """The option values a formula may read by name: the numbers and switches (a choice
    option's value is a word, which formulas cannot hold; its choice patches the ruleset)."""
    return {name: value for name, value in options.items() if isinstance(value, (int, float, bool))}


def canonical_formula(text: str, constants: Mapping[str, Any]) -> Any:
    """A formula as the engine runs it, for fingerprints: each name in ``constants`` replaced
    by its value and the tree written out in a fixed prefix form of this module's own (so
    ``-tile_penalty*tiles_held`` with a tile_penalty of 10 and ``-10 * (tiles_held)`` come
    out the same, on any Python), a lone constant as its value (``hand_size`` is 5), a lone
    name as itself. Text that is not a formula comes back as it is, and so does a hyphenated
    name (``fixed-hands``, ``next-to-last``), whatever options there are."""
    if len(text) > MAX_EXPRESSION_CHARS or _HYPHENATED.fullmatch(text):
        return text
    try:
        tree = ast.parse(text.strip(), mode="eval")
        _check_size(tree, text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # an ExpressionError is a ValueError
        return text
    body = tree.body
    if isinstance(body, ast.Name):
        return constants.get(body.id, body.id)
    if isinstance(body, ast.Constant):
        return body.value
    try:
        return _prefix(body, constants)
    except _NotAFormula:
        return text


#: A name such as a primitive's, a zone's or a choice's: words joined by hyphens, no spaces.
_HYPHENATED = re.compile(r"[A-Za-z_]\w*(?:-\w+)+")


class _NotAFormula(Exception):
    pass


def _prefix(node: ast.AST, constants: Mapping[str, Any]) -> str:
    """``node`` in prefix form: ``(Add a 5)``, ``(Compare (Add a b) Eq 0)``, names bound."""
    def inner(*parts: Any) -> str:
        return "(" + " ".join(part if isinstance(part, str) else _prefix(part, constants) for part in parts) + ")"

    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return repr(node.value)
    if isinstance(node, ast.Name):
        return repr(constants[node.id]) if node.id in constants else node.id
    if isinstance(node, ast.BinOp):
        return inner(type(node.op).__name__, node.left, node.right)
    if isinstance(node, ast.UnaryOp):
        return inner(type(node.op).__name__, node.operand)
    if isinstance(node, ast.BoolOp):
        return inner(type(node.op).__name__, *node.values)
    if isinstance(node, ast.Compare):
        return inner("Compare", node.left, *(part for op, right in zip(node.ops, node.comparators)
                                             for part in (type(op).__name__, right)))
    if isinstance(node, ast.IfExp):
        return inner("If", node.test, node.body, node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        return inner(node.func.id, *node.args)
    raise _NotAFormula


class ExpressionError(ValueError):
    """An expression that does not parse, uses a forbidden construct or an unknown name."""


@attrs.frozen
class Expression:
    """A compiled expression: its source, the names it reads and the function computing it.

    ``function`` takes the values of ``names`` as keyword (or positional, in ``names``
    order) arguments.
    """

    source: str
    names: tuple[str, ...]
    function: Callable[..., Any] = attrs.field(eq=False, repr=False)

    def __call__(self, **values: Any) -> Any:
        return self.function(**{name: values[name] for name in self.names})

    def evaluate(self, values: Mapping[str, Any]) -> Any:
        """Evaluate with the named values taken from ``values``."""
        return self.function(*map(values.__getitem__, self.names))


def _check(source: str | int | float | bool, known: set[str],
           constants: Mapping[str, Any] | None = None) -> tuple[ast.Expression, list[str], str]:
    """Parse ``source`` and check it against the whitelist; return the tree and names read.

    ``constants``: names whose values are known now (the options); a part of the formula
    that reads nothing else is worked out, so that one always failing is refused here."""
    if isinstance(source, bool) or isinstance(source, (int, float)):
        source = repr(source)
    if not isinstance(source, str):
        raise ExpressionError(f"expected an expression string or a number, found {type(source).__name__}")
    if len(source) > MAX_EXPRESSION_CHARS:
        raise ExpressionError(f"a formula may hold at most {MAX_EXPRESSION_CHARS} characters (MAX_EXPRESSION_CHARS), "
                              f"this one holds {len(source)}: {_shorten(source)}")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as error:
        raise ExpressionError(f"cannot parse expression {_shorten(source)}: {_syntax_hint(source, error)}") from None
    except (RecursionError, MemoryError):
        raise ExpressionError(f"a formula may nest at most {MAX_EXPRESSION_DEPTH} levels deep "
                              f"(MAX_EXPRESSION_DEPTH): {_shorten(source)}") from None
    _check_size(tree, source)
    names: list[str] = []
    called: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            what = _DESCRIBE.get(type(node), type(node).__name__)
            raise ExpressionError(f"expressions may not use {what}: {source!r}")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in SAFE_FUNCTIONS:
                allowed = ", ".join(sorted(SAFE_FUNCTIONS))
                raise ExpressionError(f"only calls of {allowed} are allowed in expressions: {source!r}")
            if node.keywords:
                raise ExpressionError(f"keyword arguments are not allowed in expressions: {source!r}")
            fewest, most = _ARITY[node.func.id]
            if not any(isinstance(arg, ast.Starred) for arg in node.args) \
                    and not fewest <= len(node.args) <= (most or len(node.args)):
                wanted = f"exactly {fewest}" if fewest == most else f"at least {fewest}"
                raise ExpressionError(f"{node.func.id}() takes {wanted} argument{'s' if fewest > 1 else ''}, "
                                      f"not {len(node.args)}: {source!r}")
            called.add(id(node.func))
        elif isinstance(node, ast.Name):
            if node.id in SAFE_FUNCTIONS:
                if id(node) not in called:  # ast.walk meets a call before the name it calls
                    raise ExpressionError(f"{node.id} is a function: call it, as {node.id}(x, y): {source!r}")
                continue
            if node.id.startswith("_") or node.id not in known:
                listed = ", ".join(sorted(known)) or "none"
                close = difflib.get_close_matches(node.id, sorted(known), n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise ExpressionError(f"unknown name {node.id!r} at {_column(source, node)} of expression "
                                      f"{source!r}{hint} (known names: {listed})")
            if node.id not in names:
                names.append(node.id)
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, bool)):
            raise ExpressionError(f"only numbers and booleans are allowed as constants: {source!r}")
    _fold(tree.body, dict(constants or {}), source)
    return tree, names, source


def _column(source: str, node: ast.AST | None = None, offset: int | None = None, line: int = 1) -> str:
    """Where in the formula a node (or a parser's 1-based ``offset``) is, as a message says it:
    ``column 5`` (counted in the formula as written, from 1), with its line when it has several."""
    lead = len(source) - len(source.lstrip())
    if node is not None:
        line, offset = getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
    column = (offset or 1) + (lead if line == 1 else 0)
    return f"column {column}" if line == 1 else f"line {line}, column {column}"


#: An ``=`` that is not part of ``==``, ``!=``, ``<=`` or ``>=``.
_LONE_EQUALS = re.compile(r"(?<![=!<>])=(?!=)")
#: What a formula's author probably meant by text Python does not read (the longest first).
_MEANT = (("===", "=="), ("!==", "!="), ("=<", "<="), ("=>", ">="), ("=!", "!="), ("<>", "!="), ("&&", "and"), ("||", "or"),
          ("=", "=="), ("&", "and"), ("|", "or"), ("!", "not"))


def _syntax_hint(source: str, error: SyntaxError) -> str:
    """A parser's complaint as a formula's author can act on it: where (the column in the
    formula) and, for the usual slips, what was probably meant."""
    text = source.strip()
    offset, line, message = error.offset or 0, error.lineno or 1, error.msg
    if "instead of '='" in message:  # Python's own hint names ':=', which formulas may not use
        message = "invalid syntax"
        lines = text.splitlines() or [""]
        lone = _LONE_EQUALS.search(lines[min(line, len(lines)) - 1], max(offset - 1, 0))
        offset = lone.start() + 1 if lone else offset
    error = SyntaxError(message, (error.filename, line, offset, error.text))
    if "never closed" in error.msg:
        return f"{error.msg} (at {_column(source, offset=offset, line=line)}): add a ')' where it should end"
    if "unmatched" in error.msg:
        return f"{error.msg} (at {_column(source, offset=offset, line=line)}): remove it, or add the '(' it closes"
    lines = text.splitlines() or [""]
    while 1 < offset and line <= len(lines) and lines[line - 1][offset - 2:offset - 1] in tuple("=&|<>!"):
        offset -= 1  # the parser points at the second character of '&&' or '=<'
    here = lines[line - 1][offset - 1:] if 0 < offset and line <= len(lines) else ""
    if not here.strip():
        return f"{error.msg}: the formula ends too soon (an operator with nothing after it?)"
    for written, meant in _MEANT:
        if here.startswith(written) and not (written == "!" and here.startswith("!=")):
            return f"{error.msg} at {_column(source, offset=offset, line=line)}: did you mean {meant!r}?"
    return f"{error.msg} at {_column(source, offset=offset, line=line)}"


class _Unknown:
    """A part of a formula whose value is not known until it is evaluated in a game."""


_UNKNOWN = _Unknown()
_OPERATORS: Mapping[type[ast.AST], Callable[..., Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: lambda x, y: bounded_pow(x, y),
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}


def _fold(node: ast.AST, constants: Mapping[str, Any], source: str) -> Any:
    """The value of ``node`` when it reads only numbers and ``constants``, else :data:`_UNKNOWN`;
    an :class:`ExpressionError` where such a part always fails (``1/0``, ``x % 0``,
    ``9**9**9``), at its column. Every part is visited, known or not."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id, _UNKNOWN)
    if isinstance(node, ast.BinOp):
        left, right = _fold(node.left, constants, source), _fold(node.right, constants, source)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right is not _UNKNOWN and right == 0:
            raise ExpressionError(f"expression {_shorten(source)} always divides by zero: the divisor at "
                                  f"{_column(source, node.right)} is always 0")
        values = [left, right]
        parts: tuple[ast.AST, ...] = (node.op,)
    elif isinstance(node, ast.UnaryOp):
        values, parts = [_fold(node.operand, constants, source)], (node.op,)
    elif isinstance(node, ast.Compare):
        values = [_fold(part, constants, source) for part in (node.left, *node.comparators)]
        parts = tuple(node.ops)
    elif isinstance(node, (ast.BoolOp, ast.IfExp, ast.Call)):
        children = node.values if isinstance(node, ast.BoolOp) else \
            (node.test, node.body, node.orelse) if isinstance(node, ast.IfExp) else node.args
        values, parts = [_fold(child, constants, source) for child in children], ()
    else:  # pragma: no cover - the whitelist admits nothing else
        return _UNKNOWN
    if any(value is _UNKNOWN for value in values):
        return _UNKNOWN
    try:
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            return _OPERATORS[type(parts[0])](*values)
        if isinstance(node, ast.Compare):
            return all(_OPERATORS[type(op)](x, y) for op, x, y in zip(parts, values, values[1:]))
        if isinstance(node, ast.BoolOp):
            found = values[0]
            for value in values[1:]:
                if bool(found) != isinstance(node.op, ast.And):
                    break
                found = value
            return found
        if isinstance(node, ast.IfExp):
            return values[1] if values[0] else values[2]
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)  # the whitelist's only calls
        return SAFE_FUNCTIONS[node.func.id](*values)
    except (ExpressionError, ArithmeticError, TypeError, ValueError) as error:
        raise ExpressionError(f"expression {_shorten(source)} always fails at {_column(source, node)}: "
                              f"{error}") from None


def _check_size(tree: ast.Expression, source: str) -> None:
    """Refuse a formula with more than :data:`MAX_EXPRESSION_NODES` parts or nested more than
    :data:`MAX_EXPRESSION_DEPTH` deep (walked without recursion, so any depth is measured)."""
    count = 0
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
            continue
        count += 1
        if count > MAX_EXPRESSION_NODES:
            raise ExpressionError(f"a formula may hold at most {MAX_EXPRESSION_NODES} operators, names and "
                                  f"numbers (MAX_EXPRESSION_NODES): {_shorten(source)}")
        if depth > MAX_EXPRESSION_DEPTH:
            raise ExpressionError(f"a formula may nest at most {MAX_EXPRESSION_DEPTH} levels deep "
                                  f"(MAX_EXPRESSION_DEPTH): {_shorten(source)}")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _shorten(source: str, width: int = 60) -> str:
    """A formula as a message quotes it: whole when short, else its start and its length."""
    return repr(source) if len(source) <= width else f"{source[:width]!r}... ({len(source)} characters)"


def checked_tree(source: str | int | float | bool, known: set[str],
                 inline: Mapping[str, ast.expr] | None = None,
                 constants: Mapping[str, Any] | None = None) -> ast.expr:
    """The whitelisted tree of ``source`` (names outside ``known`` refused), with ``**``
    bounded and each name in ``inline`` replaced by the engine's own tree for it; for the
    compiled programs of :mod:`contack_core.language.programs`. ``constants``: the option
    values it may read, known now (a part always failing with them is refused)."""
    tree, _, _ = _check(source, known, constants)
    body = tree.body
    if inline:
        body = _Inline(inline).visit(body)
    bounded: ast.expr = _BoundPowers().visit(body)
    return bounded


class _Inline(ast.NodeTransformer):
    def __init__(self, inline: Mapping[str, ast.expr]) -> None:
        self.inline = inline

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.inline.get(node.id, node)


#: The global under which compiled ruleset code keeps the formula text each of its lines
#: evaluates (line number -> text), so that an error in play names the formula that failed
#: (see :func:`failing_formula`). A ruleset's names never start with ``_``, so none can read it.
FORMULAS_GLOBAL = "__ruleset_formulas__"


def failing_formula(error: BaseException) -> str | None:
    """The ruleset formula whose evaluation raised ``error`` (the innermost line of compiled
    ruleset code in its traceback), or None when no formula was being evaluated."""
    found = None
    trace = error.__traceback__
    while trace is not None:
        formulas = trace.tb_frame.f_globals.get(FORMULAS_GLOBAL)
        if formulas is not None and trace.tb_lineno in formulas:
            found = formulas[trace.tb_lineno]
        trace = trace.tb_next
    return found


def place_formula(tree: ast.expr, line: int) -> ast.expr:
    """Put every node of a formula's tree on ``line`` of the code compiled from it, so that a
    traceback's line number tells which formula failed."""
    for node in ast.walk(tree):
        if isinstance(node, ast.expr):  # a whitelisted formula's nodes with a place in the source
            node.lineno = node.end_lineno = line
    return tree


def _compile_lambda(params: list[str], body: ast.expr, namespace: dict[str, Any],
                    source: str) -> Callable[..., Any]:
    body = place_formula(_BoundPowers().visit(body), 1)
    namespace = {**namespace, FORMULAS_GLOBAL: {1: source}}
    tree = ast.Expression(
        body=ast.Lambda(
            args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=name) for name in params], vararg=None,
                               kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
            body=body,
        )
    )
    ast.fix_missing_locations(tree)
    code = compile(tree, "<ruleset expression>", "eval")
    function: Callable[..., Any] = eval(code, {"__builtins__": {}, **SAFE_FUNCTIONS, "_pow": bounded_pow,  # noqa: S307
                                                **namespace})
    return function


def compile_expression(
    source: str | int | float | bool,
    known_names: Iterable[str],
    constants: Mapping[str, Any] | None = None,
) -> Expression:
    """Check ``source`` against the whitelist and compile it.

    ``known_names`` are the names the context provides at evaluation time; ``constants``
    (the ruleset's option values) are bound now. Any other name is an error, so a typo in a
    ruleset is caught at load, not mid-game. Numbers and booleans given directly (YAML
    ``5``) compile to constants.
    """
    constants = dict(constants or {})
    tree, names, text = _check(source, set(known_names) | set(constants), constants)
    params = [name for name in names if name not in constants]
    function = _compile_lambda(params, tree.body, constants, text)
    return Expression(source=text, names=tuple(params), function=function)


# --------------------------------------------------------------------------- what a formula gives
_NUMBER_TYPES = {int: "whole number", bool: "true/false", float: "fraction"}


def result_types(tree: ast.AST, booleans: Iterable[str] = (), fractions: Iterable[str] = ()) -> frozenset[type]:
    """The types a whitelisted formula's value may have (``int``, ``bool``, ``float``), every
    name it reads being a whole number unless listed in ``booleans`` or ``fractions``.

    Worked out from the tree alone, so a formula that could give a fraction or a true/false
    where a whole number is needed is refused at load, not when a game first reaches it."""
    booleans, fractions = frozenset(booleans), frozenset(fractions)

    def types(node: ast.AST) -> frozenset[type]:
        if isinstance(node, ast.Expression):
            return types(node.body)
        if isinstance(node, ast.Constant):
            return frozenset([type(node.value)])
        if isinstance(node, ast.Name):
            return frozenset([bool if node.id in booleans else float if node.id in fractions else int])
        if isinstance(node, (ast.Compare,)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            return frozenset([bool])
        if isinstance(node, ast.UnaryOp):  # - or +: a true/false becomes a whole number
            return frozenset(int if kind is bool else kind for kind in types(node.operand))
        if isinstance(node, ast.BoolOp):  # and/or give one of their operands
            return frozenset().union(*(types(value) for value in node.values))
        if isinstance(node, ast.IfExp):
            return types(node.body) | types(node.orelse)
        if isinstance(node, ast.Call):
            found = frozenset().union(*(types(arg) for arg in node.args)) if node.args else frozenset([int])
            absolute = isinstance(node.func, ast.Name) and node.func.id == "abs"
            return frozenset(int if kind is bool else kind for kind in found) if absolute else found
        if isinstance(node, ast.BinOp):
            left, right = types(node.left), types(node.right)
            if isinstance(node.op, ast.Div):
                return frozenset([float])
            if float in left or float in right:
                return frozenset([float, int])
            if isinstance(node.op, ast.Pow) and not (isinstance(node.right, ast.Constant)
                                                     and isinstance(node.right.value, int) and node.right.value >= 0):
                return frozenset([int, float])  # a negative power is a fraction
            return frozenset([int])
        return frozenset([int, bool, float])

    return types(tree)


def require_whole_number(source: str | int | float | bool, known: Iterable[str], booleans: Iterable[str] = (),
                         fractions: Iterable[str] = ()) -> None:
    """Refuse a formula whose value may be anything but a whole number (a score, a count)."""
    tree, _, text = _check(source, set(known))
    found = result_types(tree, booleans, fractions) - {int}
    if found:
        what = " or ".join(sorted(_NUMBER_TYPES[kind] for kind in found))
        operators = {type(node.op) for node in ast.walk(tree) if isinstance(node, ast.BinOp)}
        if float in found and ast.Div in operators:
            hint = " (/ divides exactly: // divides to a whole number)"
        elif float in found and ast.Pow in operators:
            hint = " (a power with a negative exponent is a fraction)"
        elif bool in found:
            hint = " (true/false is not a number: write 'N if CONDITION else M')"
        else:
            hint = ""
        raise ExpressionError(f"expression {text!r} may give a {what} where a whole number is needed{hint}")


def evaluate_safely(expression: Expression, values: Mapping[str, Any]) -> Any:
    """Evaluate at load time, turning arithmetic failures into an ExpressionError that says where."""
    try:
        return expression.evaluate(values)
    except ExpressionError:
        raise
    except (ArithmeticError, TypeError, ValueError, RecursionError) as error:
        shown = ", ".join(f"{k}={v}" for k, v in values.items() if k in expression.names)
        raise ExpressionError(f"expression {expression.source!r} fails{' for ' + shown if shown else ''}: "
                              f"{error}") from None


def check_over_domain(expression: Expression, domains: Mapping[str, Sequence[Any]], bound: int | None = None) -> None:
    """Evaluate ``expression`` at load for every combination of the values its names can
    take, so that a formula failing on one of them (``100 // tiles_held`` when a seat holds
    none) is refused at load, not met in play. Checked only when every name it reads has
    a known domain in ``domains`` and the combinations are at most
    :data:`MAX_DOMAIN_EVALUATIONS`; an :class:`ExpressionError` names the values that fail.
    ``bound``: a figure's formula gives no value beyond it either way (:data:`MAX_FIGURE`)."""
    if any(name not in domains for name in expression.names):
        return
    ranges = [domains[name] for name in expression.names]
    if math.prod(len(values) for values in ranges) > MAX_DOMAIN_EVALUATIONS:
        return
    for values in itertools.product(*ranges):
        named = dict(zip(expression.names, values))
        value = evaluate_safely(expression, named)
        if bound is not None and isinstance(value, int) and not -bound <= value <= bound:
            at = ", ".join(f"{name}={value}" for name, value in named.items())
            raise ExpressionError(f"it gives {shown_number(value)}{' for ' + at if at else ''}, beyond {bound:,} "
                                  f"either way (MAX_FIGURE)")


def tabulate(expression: Expression, domain: Iterable[int]) -> list[list[Any]]:
    """Turn a two-argument expression over small integers into a lookup table ``t[a][b]``.

    Contact predicates and pair scores only ever see printed tile numbers (``domain``), so
    the hot loop indexes a list instead of calling a function; other entries stay None.
    """
    if not set(expression.names) <= {"a", "b"}:
        raise ExpressionError(f"a contact expression may only read a and b: {expression.source!r}")
    domain = sorted(set(domain))
    size = domain[-1] + 1 if domain else 0
    table: list[list[Any]] = [[None] * size for _ in range(size)]
    for a in domain:
        for b in domain:
            table[a][b] = evaluate_safely(expression, {"a": a, "b": b})
    return table
