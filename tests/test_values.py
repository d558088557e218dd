"""Unit tests of the rules language's vocabulary (contack_core/engine/values.py) and of what a
formula may give (contack_core/language/expressions.py: result_types)."""

from __future__ import annotations

import ast

import pytest

from contack_core import GameState, load_rules
from contack_core.engine.values import identifier, related_seats, state_values, transfer
from contack_core.language.expressions import ExpressionError, require_whole_number, result_types

PARKER = load_rules("parker-1939")


@pytest.mark.parametrize(("key", "name"), [("discard-2", "discard_2"), ("six-pile", "six_pile"), ("hand", "hand"),
                                           ("2nd", "_2nd")])
def test_a_key_is_read_as_an_identifier(key: str, name: str) -> None:
    assert identifier(key) == name and name.isidentifier()


def test_a_zone_with_a_dash_is_read_by_a_formula() -> None:
    rules = load_rules("solitaire-2")
    values = state_values(rules.zones, rules.counters)
    assert values["six_pile_count"] == "len(_state.zones['six-pile'])"
    assert "pile_1_count" in values and "six-pile_count" not in values


def test_state_values_about_no_seat_leave_out_what_needs_one() -> None:
    whole_game = state_values(PARKER.zones, PARKER.counters, per_seat=False, board=PARKER.board)
    assert {"highest_score", "lowest_score", "hands_played", "stock_count", "open_next_to_last"} <= set(whole_game)
    assert not {"score", "hand_count", "tiles_held"} & set(whole_game)


@pytest.mark.parametrize(("relation", "seats"), [("self", [2]), ("next", [3]), ("previous", [1]),
                                                 ("others", [0, 1, 3]), ("all", [0, 1, 2, 3]), ("bank", []),
                                                 ("partner", []), ("went_out", [])])
def test_seat_relations_seen_from_seat_2_of_4(relation: str, seats: list[int]) -> None:
    assert related_seats(GameState(PARKER, 4), 2, relation) == seats


def test_partners_and_the_seat_that_went_out() -> None:
    partners = GameState(load_rules("contactack", {"partnerships": "on"}), 4)
    assert related_seats(partners, 1, "partner") == [3]
    state = GameState(PARKER, 3)
    state.went_out = 0
    assert related_seats(state, 2, "went_out") == [0]
    assert related_seats(state, 3 % 3, "next") == [1]


def test_a_transfer_moves_points_between_every_payer_and_payee() -> None:
    state = GameState(PARKER, 4)
    gains = [0, 0, 0, 0]
    transfer(gains, state, 1, 5, "self", "next")
    assert gains == [0, -5, 5, 0]
    transfer(gains, state, 0, 2, "others", "self")
    assert gains == [6, -7, 3, -2]
    transfer(gains, state, 3, 10, "bank", "self")
    assert gains == [6, -7, 3, 8] and sum(gains) == 10


@pytest.mark.parametrize(("formula", "types"), [
    ("a + b", {int}), ("(a + b) / 2", {float}), ("(a + b) // 2", {int}), ("a > b", {bool}),
    ("not a", {bool}), ("-opportunity", {int}), ("opportunity", {bool}), ("a if b else 1.5", {int, float}),
    ("min(a, b)", {int}), ("abs(opportunity)", {int}), ("a ** 2", {int}), ("a ** b", {int, float}),
    ("a and b", {int}), ("a or opportunity", {int, bool}),
])
def test_the_types_a_formula_may_give(formula: str, types: set[type]) -> None:
    assert result_types(ast.parse(formula, mode="eval"), booleans={"opportunity"}) == types


@pytest.mark.parametrize(("formula", "hint"), [("(a + a) / 2", "//"), ("a > 1", "N if CONDITION else M"),
                                                ("2 ** -1", "negative exponent"), ("a * 1.5", "")])
def test_a_score_that_may_not_be_a_whole_number_is_refused(formula: str, hint: str) -> None:
    with pytest.raises(ExpressionError, match="where a whole number is needed") as error:
        require_whole_number(formula, ["a"])
    assert hint in str(error.value)
