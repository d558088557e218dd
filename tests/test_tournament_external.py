"""External bots as tournament entrants: the shipped examples/external-bots/tournament.yaml (a Python
and a Node.js bot against a built-in one) runs from any folder, every game is stored and audits
sound, and the tournament's budget is the external bots' move clock."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import run_cli

from contack_core.records.audit import audit_record
from tournaments.config import load_config
from tournaments.runner import run_tournament
from tournaments.store import DATABASE_NAME

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "examples" / "external-bots" / "tournament.yaml"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH: the Node.js example bot cannot run")
def test_the_shipped_tournament_of_a_python_and_a_node_bot_runs_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the commands name their scripts relative to the config's folder
    result = run_cli("tournament", "run", CONFIG, "--output", "out", "--quiet")
    assert result.exit_code == 0, result.output
    assert "18 games in the schedule, 0 already done, 18 played now (18 ok)" in result.output
    with sqlite3.connect(tmp_path / "out" / DATABASE_NAME) as connection:
        rows = connection.execute("SELECT names, record FROM games").fetchall()
    seen = set()
    for names, record in rows:
        seen.update(json.loads(names))
        verdict = audit_record(tmp_path / "out" / record)
        assert verdict.valid and verdict.finished, (record, verdict)
    assert seen == {"first", "node-random", "builtin-random"}
    header = json.loads((tmp_path / "out" / rows[0][1]).read_text().splitlines()[0])
    assert {"exec:python3 first_bot.py", "exec:node random_bot.js"} & set(header["players"])
    report = run_cli("tournament", "report", "out", "--json", "--bootstrap", "10")
    assert report.exit_code == 0 and {s["name"] for s in json.loads(report.stdout)["standings"]} == seen


def test_the_tournament_budget_times_an_external_entrant_like_a_builtin_one(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(textwrap.dedent("""\
        import json, sys, time
        def send(m): print(json.dumps(m), flush=True)
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello": send({"type": "hello", "protocol": "contack-bot/1", "rulesets": ["*"]})
            elif m["type"] == "new_game": send({"type": "ready"})
            elif m["type"] == "position":
                time.sleep(5)
        """), encoding="utf-8")
    (tmp_path / "t.yaml").write_text(textwrap.dedent(f"""\
        format: contack-tournament/1
        name: slow
        ruleset: parker-1939
        entrants:
          - {{name: slow, player: exec, params: {{command: "{sys.executable} slow.py"}}}}
          - {{name: quick, player: random}}
        seats: 2
        deals: 1
        budget: {{time_per_move: 0.5}}
        fault_policy: forfeit
        """), encoding="utf-8")
    summary = run_tournament(load_config(str(tmp_path / "t.yaml")), tmp_path / "out", workers=2, quiet=True)
    assert summary.statuses == {"forfeit": 2}
    assert summary.fault_lines and summary.fault_lines[0].startswith("  slow: 2 timeout")
    assert "within 0.5 s" in summary.fault_lines[0]
