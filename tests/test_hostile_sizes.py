"""Issue 33 item 1 (in part): a size field of a ruleset bounded to what a game can use, refused at
validate with file:line:column. ``players.max: 10**7`` took 9 s of CPU and 227 MB to validate
(10**30: minutes); the child runs under a CPU-time limit, so a regression is killed, not timed."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest
from processes import run_cpu_limited

from contack_core.language.limits import MAX_PLAYERS

CPU_LIMIT = 20


@pytest.mark.parametrize("players_max", ["10000000", "10**30", str(MAX_PLAYERS + 1)])
def test_players_max_beyond_what_a_game_can_use_is_refused_at_validate(tmp_path: Path, players_max: str) -> None:
    ruleset = tmp_path / "many.yaml"
    ruleset.write_text(f"extends: parker-1939\nid: many\ntitle: Many\nplayers: {{min: 2, max: \"{players_max}\"}}\n",
                       encoding="utf-8")
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "rulesets", "validate", str(ruleset)],
                             CPU_LIMIT)
    assert result.returncode not in (-signal.SIGKILL, -signal.SIGXCPU), "ran out of CPU time"
    assert result.returncode == 1, (result.stdout, result.stderr)
    said = result.stdout + result.stderr
    assert f"{ruleset}:4:" in said and "players.max" in said and f"at most {MAX_PLAYERS} seats" in said, said
    assert "Traceback" not in said
