"""Every built-in bot but human plays a seeded game of every shipped ruleset and every example variant
(found on disk, so a new example is covered without a change here), and each record audits sound."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import read_lines, run_cli

from contack_core import load_rules
from contack_core.engine.bots import installed_players
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from contack_core.records.audit import audit_record

#: Each built-in bot but human, with the search small enough for a test.
BOTS = {"random": "random", "greedy": "greedy", "cautious": "cautious", "mcts": "mcts:iterations=12,depth=8"}
RULESETS = [*shipped_ruleset_ids(), *shipped_example_ids()]
#: A move cap of 1,000 turns (Klauber's default) is what most games of these bots reach; 200 turns
#: go through every rule of a game and its cap as well, at a fifth of the cost.
MOVE_CAP = 200


def test_the_bots_played_are_every_built_in_bot_but_human() -> None:
    built_in = {name for name, entry in installed_players().items() if entry.dist and entry.dist.name == "contack"}
    assert built_in - {"human", "exec"} == set(BOTS)
    assert len(shipped_ruleset_ids()) == 7 and shipped_example_ids()


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_plays_a_seeded_game_that_audits_sound(ruleset: str, bot: str, tmp_path: Path) -> None:
    rules = load_rules(ruleset)
    seats = [BOTS[bot]] + ["random"] * (max(rules.players[0], 2 if rules.players[1] > 1 else 1) - 1)
    record = tmp_path / "game.jsonl"
    capped = ["--option", f"move_cap={MOVE_CAP}"] if rules.options.get("move_cap", 0) > MOVE_CAP else []
    result = run_cli("play", ruleset, "--seats", ",".join(seats), "--seed", "11", "--record", record, "--quiet",
                     "--time-limit", "0", *capped)
    assert result.exit_code == 0, result.output
    lines = read_lines(record)
    assert not [line for line in lines if line.get("event") == "fault"], lines[-1]
    assert lines[-1]["event"] == "game_end"
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished, verdict
