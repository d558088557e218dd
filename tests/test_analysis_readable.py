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


def test_a_ruleset_that_does_not_load_is_not_blamed_on_its_options() -> None:
    result = run_cli("analyze", "nonsense", "--option", "a=1", "--deals", "1", "--quiet")
    assert result.exit_code == 1 and result.output.startswith("error: no ruleset 'nonsense'")
