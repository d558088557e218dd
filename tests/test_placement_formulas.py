"""Placement legality and a play's points as formulas over its contacts (``legal``,
``play_points``, ``kinds``): scenarios from the book's tiles, the errors validate gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import new_game, play, run_cli, tile

from contack_core import GameState, IllegalAction, Play, load_rules

# Seat 0 opens with 04-05-02 on [0, 0]: its red 5 faces [1, 0], where 03-04-05 lays a red 4.
HANDS = [["04-05-02", "07-08-09", "08-09-10", "09-10-07", "10-06-09"],
         ["03-04-05", "04-05-06", "05-09-10", "06-07-08", "09-05-08"]]


def test_a_contact_the_book_refuses_is_allowed_at_a_price() -> None:
    """Red 4 against red 5 makes 9: neither matching nor counting, so Parker refuses it; the
    house rule lets it stand as one missed contact, scoring 0 - 10."""
    parker = new_game(HANDS)
    play(parker, "04-05-02", (0, 0))
    assert Play(tile("03-04-05"), (1, 0)) not in parker.legal_actions()
    house = new_game(HANDS, rules=load_rules("one-miss-for-ten"))
    play(house, "04-05-02", (0, 0))
    event = play(house, "03-04-05", (1, 0))
    assert (event.points, event.contacts) == (-10, 1)
    [contact] = house.rules.placement.contacts_of(house.figure, (1, 0))
    assert (contact["mine"], contact["theirs"], contact["kind"], contact["counting"]) == (4, 5, "missed", False)


def test_a_play_breaking_the_formula_is_refused_with_the_formula_named() -> None:
    """Where a tile would miss on two sides, the house rule refuses it and says why."""
    rules = load_rules("one-miss-for-ten")
    rng = random.Random(5)
    refused = 0
    for _ in range(30):
        state = GameState(rules, 3)
        while not state.is_over() and not refused:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat, figure = state.current_seat(), state.figure
            legal = set(state.legal_actions())
            for cell in [c for c in figure.openings if figure.touching(c) >= 2]:
                for held in state.seat_zones["hand"][seat]:
                    if Play(held, cell) in legal:
                        continue
                    why = rules.placement.explain_misfit(figure, held, cell)
                    if "with 0 off colour and 2 whose numbers fail" in why:
                        assert why.endswith("the play breaks legal: off_colour == 0 and failing <= 1")
                        with pytest.raises(IllegalAction, match="breaks legal"):
                            state.clone().apply(Play(held, cell))
                        refused += 1
            state.apply(rng.choice(sorted(legal, key=repr)))
        if refused:
            break
    assert refused


def write(tmp_path: Path, placement: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text("format: contack-ruleset/1\nid: house\ntitle: A house rule\nextends: parker-1939\n"
                    f"placement:\n{placement}", encoding="utf-8")
    return path


@pytest.mark.parametrize(("placement", "message"), [
    ('  legal: "off_colour == 0 and failng == 0"\n',
     "house.yaml:6:3: at placement.legal: unknown name 'failng' at column 21 of expression "
     "'off_colour == 0 and failng == 0'; did you mean 'failing'?"),
    ('  legal: "6 // (contacts - 2) == 3"\n',
     "house.yaml:6:3: at placement.legal: expression '6 // (contacts - 2) == 3' fails for contacts=2: "
     "integer division or modulo by zero"),
    ('  play_points: "points * 10 ** 12"\n',
     "house.yaml:6:3: at placement.play_points: it gives"),
    ('  play_points: "failing > 0"\n',
     "house.yaml:6:3: at placement.play_points: expression 'failing > 0' may give a true/false where a whole "
     "number is needed"),
    ('  kinds:\n    double: "a == c"\n',
     "house.yaml:7:5: at placement.kinds.double: unknown name 'c'"),
    ('  legal: "failing == 3"\n',
     "no tile can ever be played"),
    ('  shapes:\n    pair_apart: [[0, 0], [3, 0]]\n',
     "house.yaml:7:5: at placement.shapes.pair_apart: shape pair_apart is not one piece"),
    ('  shapes:\n    odd: [[0, 0], [1]]\n',
     "house.yaml:7:19: at placement.shapes.odd.1: needs at least 2 items"),
    ('  shapes:\n    odd: [[0, 0], [0, 0]]\n',
     "house.yaml:7:5: at placement.shapes.odd: lists an item twice"),
])
def test_validate_refuses_a_formula_over_contacts_that_cannot_work(tmp_path: Path, placement: str,
                                                                     message: str) -> None:
    result = run_cli("rulesets", "validate", write(tmp_path, placement))
    assert result.exit_code == 1, result.output
    assert message in result.output


def test_a_kind_of_contact_is_counted_in_every_formula_about_a_play(tmp_path: Path) -> None:
    """A kind the placement names is a value of every formula about a play (here a hand
    ending's condition): an unknown kind is refused there, a known one read."""
    path = write(tmp_path, '  kinds:\n    big: "a + b >= 15"\nhand_end:\n  big-ends:\n    primitive: condition\n'
                           '    after: [play]\n    when: "big_contacts >= 2"\n')
    assert run_cli("rulesets", "validate", path).exit_code == 0
    rules = load_rules(str(path))
    assert any(ending.key == "big-ends" for ending in rules.hand_end)
