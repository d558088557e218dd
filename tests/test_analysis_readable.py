"""`contack analyze` a person can read: option errors that name the ruleset and the flag that gives an
option to one side alone; tables that fit 80 columns unless --wide; the statistics in a footnote."""

from __future__ import annotations

import pytest
from helpers import run_cli


@pytest.mark.parametrize(("args", "message"), [
    (["parker-1939", "--option", "bonus=5"],
     "error: parker-1939: unknown option 'bonus' (options of this ruleset: "),
    (["parker-1939", "--against", "examples/going-out-bonus", "--option", "out_bonus=5"],
     "error: parker-1939: unknown option 'out_bonus' (options of this ruleset: hand_size, hands, opener_ties, "
     "sealed_hand, target_after_pass, tile_penalty) (out_bonus is an option of examples/going-out-bonus only: "
     "give it with --option-b out_bonus=5)"),
    (["examples/going-out-bonus", "--against", "parker-1939", "--option-b", "out_bonus=5"],
     "(out_bonus is an option of examples/going-out-bonus only: give it with --option-a out_bonus=5)"),
    (["parker-1939", "--against", "examples/going-out-bonus", "--option", "hands=0"],
     "error: parker-1939: option hands must be between 1 and 20, not 0 (--option gives an option to both "
     "rulesets; --option-a KEY=VALUE to parker-1939 alone, --option-b KEY=VALUE to examples/going-out-bonus "
     "alone)"),
])
def test_an_option_error_names_the_ruleset_and_the_flag(args: list[str], message: str) -> None:
    result = run_cli("analyze", *args, "--deals", "1", "--quiet")
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(("args", "message"), [
    (["--option-b", "foo=1"], "error: threes: unknown option 'foo' (options of this ruleset: hand_size, hands, "
                              "opener_ties, sealed_hand, target_after_pass, tile_penalty)\n"),
    (["--option-b", "hands=0"], "error: threes: option hands must be between 1 and 20, not 0\n"),
    (["--option-a", "hands=0"], "error: parker-1939: option hands must be between 1 and 20, not 0\n"),
])
def test_an_option_given_to_one_ruleset_alone_is_not_told_the_flag_it_was_given_with(args: list[str],
                                                                                      message: str) -> None:
    result = run_cli("analyze", "parker-1939", "--against", "threes", *args, "--deals", "1", "--quiet")
    assert result.exit_code == 1
    assert result.output == message


def test_a_ruleset_that_does_not_load_is_not_blamed_on_its_options() -> None:
    result = run_cli("analyze", "nonsense", "--option", "a=1", "--deals", "1", "--quiet")
    assert result.exit_code == 1 and result.output.startswith("error: no ruleset 'nonsense'")


def lines_of(*args: str) -> list[str]:
    result = run_cli("analyze", *args, "--quiet", "--workers", "1")
    assert result.exit_code == 0, result.output
    return result.output.rstrip("\n").split("\n")


@pytest.mark.parametrize("args", [
    ("parker-1939", "--deals", "6"),
    ("examples/pass-pays-next", "--option-a", "pass_fee=60", "--against", "parker-1939", "--seats", "3",
     "--deals", "6"),
    ("klauber-1937", "--against", "klauber-1937", "--deals", "5"),
])
def test_the_tables_fit_80_columns(args: tuple[str, ...]) -> None:
    lines = lines_of(*args)
    assert max(len(line.rstrip()) for line in lines) <= 80
    wide = lines_of(*args, "--wide")
    assert max(len(line.rstrip()) for line in wide) > 80


def test_a_narrow_comparison_names_its_sides_and_keeps_the_statistics_for_a_footnote() -> None:
    lines = lines_of("parker-1939", "--option-a", "tile_penalty=0", "--against", "parker-1939", "--deals", "8")
    text = "\n".join(lines)
    assert lines[0].startswith("parker-1939 (tile_penalty=0) against parker-1939: tables of 2, 8 deals (seed 1)")
    assert "A = parker-1939 (tile_penalty=0), B = parker-1939" in text
    header = next(line for line in lines if line.startswith(" figure "))
    assert header.split() == ["figure", "A", "B", "A", "less", "B", "[95%]", "verdict"]
    below = next(i for i, line in enumerate(lines) if line.startswith("difference ="))
    assert below > max(i for i, line in enumerate(lines) if line.startswith(" luck"))  # under the tables
    assert "permutation" not in "\n".join(lines[:below])
    footnote = " ".join(line.strip() for line in lines[below:])
    assert footnote.startswith("difference = parker-1939 (tile_penalty=0) less parker-1939, with its paired 95% "
                               "interval over the deals. A verdict is higher or lower when a paired permutation test")
    assert "--wide shows each side's interval and p." in footnote
    assert any(line.split()[-1:] == ["higher"] and "mean score" in line for line in lines)
    assert any("identical" in line and "decisions a game" in line for line in lines)


def test_a_narrow_analysis_says_its_statistics_under_the_table() -> None:
    lines = lines_of("parker-1939", "--deals", "6")
    assert "bootstrap" not in lines[0] and "interval" not in lines[0]
    assert " ".join(lines[-3:]).startswith("Each value with its 95% interval over the deals: a share by Wilson's")
