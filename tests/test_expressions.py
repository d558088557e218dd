"""The safe expression compiler (DESIGN.md section 3): arithmetic, comparisons, boolean
logic and named values only; calls limited to min/max/abs; everything else refused
before any code exists."""

from __future__ import annotations

import pytest

from contack_core.language.expressions import ExpressionError, compile_expression, tabulate


def ev(source, **values):
    return compile_expression(source, values.keys())(**values)


# --------------------------------------------------------------------------- what works
@pytest.mark.parametrize(
    ("source", "values", "expected"),
    [
        ("a + b", {"a": 2, "b": 3}, 5),
        ("a - b * 2", {"a": 10, "b": 3}, 4),
        ("(a + b) % 5", {"a": 9, "b": 8}, 2),
        ("a // b", {"a": 7, "b": 2}, 3),
        ("a / b", {"a": 7, "b": 2}, 3.5),
        ("a ** 2", {"a": 7}, 49),
        ("-a + +b", {"a": 3, "b": 10}, 7),
        ("a == b or (a + b) % 5 == 0", {"a": 9, "b": 1}, True),
        ("a == b or (a + b) % 5 == 0", {"a": 4, "b": 4}, True),
        ("a == b or (a + b) % 5 == 0", {"a": 4, "b": 3}, False),
        ("not a and b", {"a": False, "b": True}, True),
        ("1 < a <= 3", {"a": 3}, True),
        ("1 < a <= 3", {"a": 4}, False),
        ("a != b", {"a": 1, "b": 2}, True),
        ("a + b if (a + b) % 5 == 0 else 0", {"a": 7, "b": 8}, 15),
        ("a + b if (a + b) % 5 == 0 else 0", {"a": 7, "b": 7}, 0),
        ("min(a, b, c)", {"a": 8, "b": 3, "c": 5}, 3),
        ("max(a, b) - min(a, b)", {"a": 8, "b": 3}, 5),
        ("abs(a - b)", {"a": 3, "b": 8}, 5),
        ("True", {}, True),
        ("2.5 * 2", {}, 5.0),
    ],
)
def test_allowed_expressions_evaluate(source, values, expected):
    assert ev(source, **values) == expected


def test_numbers_and_booleans_compile_to_constants():
    assert compile_expression(5, [])() == 5
    assert compile_expression(False, ["a"])(a=1) is False
    assert compile_expression(5, []).names == ()


def test_names_in_first_use_order_and_evaluate_mapping():
    expression = compile_expression("b * 10 + a + b", ["a", "b", "c"])
    assert expression.names == ("b", "a")  # c is known but unused; each name once
    assert expression.evaluate({"a": 1, "b": 2, "c": 99}) == 23
    assert expression(a=1, b=2) == 23


def test_constants_are_bound_at_compile_time():
    expression = compile_expression("-tile_penalty * tiles_held", ["tiles_held"], {"tile_penalty": 10})
    assert expression.names == ("tiles_held",)
    assert expression(tiles_held=3) == -30


# --------------------------------------------------------------------------- what is refused
@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("a.real", "attribute"),
        ("a.__class__", "attribute"),
        ("(1).__class__.__bases__", "attribute"),
        ("a[0]", "subscript"),
        ("__import__('os')", "call"),
        ("open('x')", "call"),
        ("eval('1')", "call"),
        ("print(a)", "call"),
        ("pow(a, 2)", "call"),
        ("(min)(a)(b)", "call"),
        ("lambda: 1", "lambda"),
        ("(lambda x: x)(a)", "lambda|call"),
        ("[x for x in a]", "comprehension"),
        ("{x for x in a}", "comprehension"),
        ("{x: 1 for x in a}", "comprehension"),
        ("sum(x for x in a)", "comprehension|call"),
        ("(x := 1)", "assignment"),
        ("'abc'", "constant|number"),
        ("a == 'x'", "constant|number"),
        ("b'abc'", "constant|number"),
        ("None", "constant|number"),
        ("f'{a}'", "f-string"),
        ("[a, b]", "List"),
        ("(a, b)", "Tuple"),
        ("{'k': a}", "Dict"),
        ("min(a, key=abs)", "keyword"),
        ("min(*a)", "starred"),
        ("a if b", "parse"),
        ("import os", "parse"),
        ("a = 1", "parse"),
        ("", "parse"),
    ],
)
def test_forbidden_constructs_are_rejected(source, why):
    with pytest.raises(ExpressionError) as info:
        compile_expression(source, ["a", "b"])
    message = str(info.value).lower()
    assert any(word.lower() in message for word in why.split("|")), message


def test_unknown_name_is_rejected_and_listed():
    with pytest.raises(ExpressionError, match=r"unknown name 'c'.*known names: a, b"):
        compile_expression("a + c", ["a", "b"])


def test_builtins_are_not_names():
    for source in ("__builtins__", "open", "globals", "exec", "getattr"):
        with pytest.raises(ExpressionError, match="unknown name"):
            compile_expression(source, ["a"])


@pytest.mark.parametrize("source", ["_a", "__a", "_a + 1", "__class__"])
def test_names_starting_with_underscore_are_rejected_even_if_known(source):
    known = ["_a", "__a", "__class__", "a"]
    with pytest.raises(ExpressionError, match="unknown name"):
        compile_expression(source, known)


def test_an_underscore_constant_is_rejected_too():
    with pytest.raises(ExpressionError):
        compile_expression("_secret + 1", [], {"_secret": 5})


def test_non_string_non_number_source_is_rejected():
    with pytest.raises(ExpressionError):
        compile_expression(["a"], ["a"])  # type: ignore[arg-type]
    with pytest.raises(ExpressionError):
        compile_expression(None, ["a"])  # type: ignore[arg-type]


def test_compiled_function_has_no_builtins():
    # Even the compiled code object cannot reach builtins: its globals hold none.
    expression = compile_expression("abs(a)", ["a"])
    assert "open" not in expression.function.__globals__.get("__builtins__", {})
    assert expression(a=-4) == 4


# --------------------------------------------------------------------------- tabulate
def test_tabulate_builds_lookup_table():
    contact = compile_expression("a == b or (a + b) % 5 == 0", ["a", "b"])
    table = tabulate(contact, range(11))
    assert len(table) == 11 and all(len(row) == 11 for row in table)
    for a in range(1, 11):
        for b in range(1, 11):
            assert table[a][b] == (a == b or (a + b) % 5 == 0)
    points = tabulate(compile_expression("a + b if (a + b) % 5 == 0 else 0", ["a", "b"]), range(11))
    assert points[5][5] == 10 and points[10][10] == 20 and points[9][1] == 10 and points[4][4] == 0
    assert points[8][7] == 15 and points[6][9] == 15


def test_tabulate_of_one_argument_expression():
    table = tabulate(compile_expression("a * 2", ["a", "b"]), range(4))
    assert table[3][0] == 6 and table[3][3] == 6


def test_tabulate_rejects_other_names():
    with pytest.raises(ExpressionError, match="only read a and b"):
        tabulate(compile_expression("a + c", ["a", "b", "c"]), range(5))


# --------------------------------------------------------------------------- per-seat programs
def test_per_seat_program_inlines_the_engine_values_for_each_seat() -> None:
    """compile_per_seat: one call gives a ruleset expression's value for every seat, the
    names it reads replaced by the engine's expressions over ``_state`` and ``_seat``."""
    from types import SimpleNamespace

    from contack_core.language.programs import compile_per_seat

    values = {"held": "_held[_seat]", "out": "_int(_state.went_out == _seat)", "seats": "_state.seat_count"}
    program = compile_per_seat("gains", "-penalty * held + bonus * out + seats", values, {"penalty": 10, "bonus": 7})
    state = SimpleNamespace(seat_count=3, went_out=1)
    program.__globals__["_held"] = [2, 0, 5]
    assert program(state) == [-20 + 3, 7 + 3, -50 + 3]
    with pytest.raises(ExpressionError, match="attribute"):
        compile_per_seat("gains", "held.real", values, {})
    with pytest.raises(ExpressionError, match="unknown name '_state'"):
        compile_per_seat("gains", "_state", values, {})
