"""What `contack rulesets validate` catches before any game is played (issue 28, item 7).

Every option value's patch is loaded and checked, one value at a time on top of the
defaults; a ruleset in which no first action is ever legal, or no tile can ever be played,
is refused; constant errors in formulas are refused; a syntax error in a formula says
where in the formula it is and what was probably meant.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from helpers import run_cli as run
from typer.testing import Result

from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def validate(*files: object) -> Result:
    return run("rulesets", "validate", *files)


def located(result: Result, prefix: str, *needles: str) -> str:
    """The one message starting with ``prefix``, which must hold every needle; exit 1."""
    assert result.exit_code == 1, result.output
    hits = [line for line in result.output.splitlines() if line.startswith(prefix)]
    assert hits, f"no message at {prefix}\n{result.output}"
    for needle in needles:
        assert needle in hits[0], f"{needle!r} not in {hits[0]!r}"
    return hits[0]


# --------------------------------------------------------------------------- every option value
BROKEN_CHOICE = """\
    extends: parker-1939
    id: broken-choice
    title: Broken choice
    options:
      stingy:
        type: choice
        default: "no"
        choices:
          "no": {}
          "yes":
            scoring:
              score:
                on_hand_end: "-tile_penalty * tiles_helt"
    """


def test_a_broken_non_default_choice_is_found_at_validate_at_its_patch(tmp_path: Path) -> None:
    bad = write(tmp_path / "choice.yaml", BROKEN_CHOICE)
    line = located(validate(bad), f"{bad}:13:13:", "scoring.score.on_hand_end", "tiles_helt",
                   "option stingy=yes")
    assert "tiles_held" in line  # what it should have said


def test_choosing_the_broken_value_blames_the_patch_not_the_parent(tmp_path: Path) -> None:
    bad = write(tmp_path / "choice.yaml", BROKEN_CHOICE)
    result = run("rulesets", "show", bad, "--option", "stingy=yes")
    assert result.exit_code != 0
    assert f"{bad}:13:13:" in result.output, result.output
    assert "parker-1939.yaml" not in result.output


def test_an_option_with_no_type_and_no_choices_says_what_it_lacks(tmp_path: Path) -> None:
    path = write(tmp_path / "bare.yaml", """\
        extends: parker-1939
        id: bare
        title: Bare option
        options:
          bonus: {default: 1, max: 2}
        """)
    located(validate(path), f"{path}:5:3: at options.bonus: ", "option bonus lists no choices",
            "`type: integer` (with `min` and `max`)")


def test_a_value_a_parents_formula_reads_from_a_variants_option_names_the_option(tmp_path: Path) -> None:
    path = write(tmp_path / "long.yaml", """\
        extends: parker-1939
        id: long
        title: Long games
        options:
          hands: {max: 100000, default: 100000}
        """)
    located(validate(path), "", "at match.hands: hands is 100000: a game lasts at most 1,000 hands",
            f"(MAX_HANDS); the option hands is 100000, its default at {path}:5:")


def test_counting_changed_without_points_is_refused(tmp_path: Path) -> None:
    """Counting in fours with Parker's points formula (sums of 5) made '4+4 Counting Contact = 0'."""
    path = write(tmp_path / "fours.yaml", """\
        extends: parker-1939
        id: fours
        title: Counting in fours
        placement:
          counting: "(a + b) % 4 == 0"
        """)
    located(validate(path), f"{path}:5:3: at placement.counting: ", "counting makes 2 against 2 a counting contact, "
            "but points gives it 0", "as examples/threes does")
    path.write_text(path.read_text(encoding="utf-8") + '  points: "a + b if (a + b) % 4 == 0 else 0"\n',
                    encoding="utf-8")
    assert validate(path).exit_code == 0


def test_a_bad_id_is_told_in_words(tmp_path: Path) -> None:
    path = write(tmp_path / "bad-id.yaml", "extends: parker-1939\nid: Bad Id!\ntitle: Bad id\n")
    located(validate(path), f"{path}:2:1: at id: ", "expected a name of lowercase letters, digits, '-' and '_', "
            "beginning with a letter, found \"Bad Id!\"")


def test_an_integer_option_at_its_bound_is_checked(tmp_path: Path) -> None:
    """hand_size at its greatest deals more tiles than the set holds for 7 seats: found at
    validate, naming the option, though the default (5) is fine."""
    bad = write(tmp_path / "bound.yaml", """\
        extends: parker-1939
        id: bound
        title: Bound
        players: {min: 2, max: 7}
        options:
          hand_size: {type: integer, default: 5, min: 1, max: 9}
        """)
    located(validate(bad), f"{bad}:4:", "players.max", "option hand_size=9")


def test_a_choice_that_requires_another_is_checked_with_it(tmp_path: Path) -> None:
    """A value that ``requires`` another option's value is loaded with it (as it can be chosen)."""
    good = write(tmp_path / "requires.yaml", """\
        extends: parker-1939
        id: requires
        title: Requires
        options:
          extra:
            type: choice
            default: "off"
            choices: {"off": {}, "on": {}}
          stingy:
            type: choice
            default: "no"
            requires: {extra: "on"}
            choices:
              "no": {}
              "yes": {}
        """)
    assert validate(good).exit_code == 0, validate(good).output


@pytest.mark.parametrize("ruleset", [*shipped_ruleset_ids(), *shipped_example_ids()])
def test_every_shipped_ruleset_and_example_validates_with_every_option(ruleset: str) -> None:
    result = validate(ruleset)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{ruleset}: valid"


# --------------------------------------------------------------------------- formulas
HEAD = "extends: parker-1939\nid: bad\ntitle: Bad\n"
#: Where each formula goes, and the file:line:column of its key.
PLACES = {
    "points": ("placement:\n  points: {}\n", "5:3", "placement.points"),
    "contact": ("placement:\n  contact: {}\n", "5:3", "placement.contact"),
    "when": ("turn:\n  draw:\n    when: {}\n", "6:5", "turn.draw.when"),
    "hand_end": ("hand_end:\n  odd:\n    primitive: condition\n    after: [play]\n    when: {}\n", "8:5",
                 "hand_end.odd.when"),
}


def formula_file(tmp_path: Path, place: str, formula: str) -> tuple[Path, str, str]:
    text, where, key = PLACES[place]
    path = tmp_path / f"{place}.yaml"
    path.write_text(HEAD + text.format('"' + formula + '"'), encoding="utf-8")
    return path, where, key


@pytest.mark.parametrize(("place", "formula", "needles"), [
    ("points", "9**9**9", ["MAX_EXPONENT", "column 1"]),
    ("points", "a + 2 ** (9 ** 9)", ["MAX_EXPONENT", "column 5"]),
    ("points", "2 ** 1e31", ["an exponent of 1e+31 is larger than", "MAX_EXPONENT"]),
    ("points", "1/0", ["divides by zero", "column 3"]),
    ("contact", "a // (2 - 2) == b", ["divides by zero", "column 7"]),
    ("when", "stock_count % 0 == 1", ["divides by zero", "column 15"]),
    ("hand_end", "1/0 == 1", ["divides by zero", "column 3"]),
    ("hand_end", "turns > 3 and turns % (hands - hands) == 0", ["divides by zero", "column 24"]),
])
def test_constant_errors_in_formulas_are_refused_at_validate(tmp_path: Path, place: str, formula: str,
                                                             needles: list[str]) -> None:
    path, where, key = formula_file(tmp_path, place, formula)
    located(validate(path), f"{path}:{where}: at {key}", *needles)


def test_a_constant_error_reached_only_under_an_option_is_refused(tmp_path: Path) -> None:
    """An option bound as a constant: ``x % hand_size`` fails when hand_size may be 0."""
    bad = write(tmp_path / "modulo.yaml", """\
        extends: parker-1939
        id: modulo
        title: Modulo
        options:
          tile_penalty: {type: integer, default: 10, min: 0, max: 100}
        turn:
          draw:
            when: "not can_play and stock_count % tile_penalty < 9"
        """)
    located(validate(bad), f"{bad}:8:5: at turn.draw.when", "divides by zero", "option tile_penalty=0")


@pytest.mark.parametrize(("place", "formula", "needles"), [
    ("contact", "a = b", ["column 3", "did you mean '=='?"]),
    ("when", "not can_play and hand_count = 4", ["column 29", "did you mean '=='?"]),
    ("contact", "a =< b", ["column 3", "did you mean '<='?"]),
    ("contact", "a == b and (a = 3)", ["column 15", "did you mean '=='?"]),  # not Python's ':=' hint
    ("contact", "a !== b", ["column 3", "did you mean '!='?"]),
    ("contact", "(a == b", ["column 1", "'(' was never closed", "add a ')'"]),
    ("contact", "max(a, b == 3", ["column 4", "'(' was never closed"]),
    ("contact", "a == b)", ["column 7", "unmatched ')'"]),
    ("contact", "a == b && a > 2", ["column 8", "did you mean 'and'?"]),
    ("contact", "a == b || a > 2", ["column 8", "did you mean 'or'?"]),
    ("contact", "a ==", ["the formula ends too soon"]),
    ("contact", "a == bb", ["unknown name 'bb'", "did you mean 'b'?"]),
    ("when", "not can_play and hand_count < hand_sise", ["unknown name 'hand_sise'", "did you mean 'hand_size'?",
                                                          "column 31"]),
])
def test_a_syntax_error_in_a_formula_gives_its_column_and_a_hint(tmp_path: Path, place: str, formula: str,
                                                                 needles: list[str]) -> None:
    path, where, key = formula_file(tmp_path, place, formula)
    located(validate(path), f"{path}:{where}: at {key}", *needles)


# --------------------------------------------------------------------------- a game that cannot be played
def test_a_contact_that_is_always_false_is_refused(tmp_path: Path) -> None:
    path, where, key = formula_file(tmp_path, "contact", "a == b and a != b")
    located(validate(path), f"{path}:{where}: at {key}", "no tile can ever be played")


def test_a_contact_no_two_tiles_of_the_set_make_is_refused(tmp_path: Path) -> None:
    """Not constant, and true for some numbers (11 and 11), but no tile of the set has an 11."""
    path, where, key = formula_file(tmp_path, "contact", "a == 11 and b == 11")
    located(validate(path), f"{path}:{where}: at {key}", "no tile can ever be played", "every pair")


def test_a_restrictive_but_playable_contact_is_not_refused(tmp_path: Path) -> None:
    """Only pairs adding up to 11 touch: few, but a game can be played (the check refuses no game
    that can be)."""
    path, _, _ = formula_file(tmp_path, "contact", "a + b == 11")
    assert validate(path).exit_code == 0, validate(path).output


def test_a_ruleset_whose_first_turn_offers_nothing_is_refused(tmp_path: Path) -> None:
    bad = write(tmp_path / "nothing.yaml", """\
        extends: parker-1939
        id: nothing
        title: Nothing to do
        turn:
          play: {when: "turns < 0"}
          draw: {when: "turns < 0"}
          pass: {when: "turns < 0"}
        """)
    result = validate(bad)
    assert result.exit_code == 1, result.output
    assert "no first action is legal" in result.output, result.output
    assert f"{bad}:4:1: at turn:" in result.output, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_a_ruleset_in_which_no_tile_is_ever_laid_is_refused(tmp_path: Path) -> None:
    """Seats may draw and pass, but the play rule never allows a play: found in seeded deals."""
    bad = write(tmp_path / "never.yaml", """\
        extends: parker-1939
        id: never
        title: Never played
        turn:
          play: {when: "turns < 0"}
        """)
    result = validate(bad)
    assert result.exit_code == 1, result.output
    assert f"{bad}:5:3: at turn.play:" in result.output, result.output
    assert "no tile can ever be played" in result.output, result.output


def test_a_ruleset_playable_only_under_an_option_value_is_refused_naming_it(tmp_path: Path) -> None:
    bad = write(tmp_path / "strict.yaml", """\
        extends: parker-1939
        id: strict
        title: Strict
        options:
          strict:
            type: choice
            default: "off"
            choices:
              "off": {}
              "on": {placement: {contact: "a == b and a != b"}}
        """)
    located(validate(bad), f"{bad}:10:26: at placement.contact", "no tile can ever be played", "option strict=on")


def test_a_placement_that_leaves_no_cell_after_the_opening_is_refused(tmp_path: Path) -> None:
    """Only openings (cells touching two tiles) are legal: after the opening tile there is none,
    so every hand ends as it is set up, nobody ever acting; one opening side is enough to play."""
    bad = write(tmp_path / "openings.yaml", """\
        extends: parker-1939
        id: openings
        title: Openings only
        placement:
          cells: [openings]
        """)
    result = validate(bad)
    assert result.exit_code == 1, result.output
    assert "no first action is legal" in result.output and "before any seat could act" in result.output
    assert "hand_end.sealed" in result.output, result.output
    good = write(tmp_path / "sides.yaml", """\
        extends: parker-1939
        id: sides
        title: Any exposed side
        placement:
          cells: [openings]
          opening_min_contacts: 1
        """)
    assert validate(good).exit_code == 0, validate(good).output


def test_a_hand_of_one_tile_that_the_opener_goes_out_with_is_not_refused() -> None:
    """hand_size=1: the opener lays his only tile and is out before anyone acts. A short game,
    not an unplayable one (Parker allows it)."""
    from contack_core.primitives.loading import load_rules
    from contack_core.primitives.validation import playability_problems

    assert playability_problems(load_rules("parker-1939", {"hand_size": "1"})) == []


def test_a_formula_failing_in_the_trial_deals_is_refused_at_its_place(tmp_path: Path) -> None:
    """Not constant (it reads turns), but it fails whenever it is worked out: found in the first
    trial deal, at the formula's line, not left to the first game."""
    bad = write(tmp_path / "fails.yaml", """\
        extends: parker-1939
        id: fails
        title: Fails
        turn:
          play:
            when: "10 // (turns - turns) > 0"
        """)
    located(validate(bad), f"{bad}:6:5: at turn.play.when", "fails in a trial deal", "ZeroDivisionError")
