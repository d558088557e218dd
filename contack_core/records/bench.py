"""Throughput of the audit beside that of play (``contack bench RULESET --audit``).

The bench records random games of the ruleset into a temporary folder (untimed), then
audits them from disk in this process, one :class:`contack_core.records.audit.RecordAuditor`
for all as ``contack audit`` uses (the ruleset loaded once, every line read, parsed, checked
and replayed). Speed is measured, never asserted: the figures are printed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from contack_core.engine.bots import installed_players
from contack_core.engine.referee import play_game, seat_seed
from contack_core.engine.rules import Rules
from contack_core.primitives.cache import RulesetCache
from contack_core.records.audit import RecordAuditor
from contack_core.records.format import RecordWriter, header_for


def write_records(rules: Rules, games: int, players: int, seed: int, folder: Path) -> list[Path]:
    """``games`` games of random seats recorded in ``folder``, one file each."""
    random_bot = installed_players()["random"].load()
    paths = []
    for game in range(games):
        path = folder / f"game-{game:05d}.jsonl"
        bots = [random_bot(seed=seat_seed(seed + game, s)) for s in range(players)]
        with path.open("w", encoding="utf-8") as stream:
            header = header_for(rules, [f"seat {s}" for s in range(players)], seed + game, ["random"] * players, path)
            play_game(rules, bots, seed + game, [RecordWriter(stream, header)])
        paths.append(path)
    return paths


def run_audit_bench(paths: list[Path], rulesets: RulesetCache) -> dict[str, Any]:
    """Audit ``paths`` with one auditor, records and lines per second (every one must be sound).

    ``rulesets``: kept from round to round, as the play bench keeps its rules (each
    auditor remembers the lines it read, so a round reads each record as new)."""
    auditor = RecordAuditor(rulesets)
    start, cpu_start = time.perf_counter(), time.process_time()
    verdicts = [auditor.audit(path) for path in paths]
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    unsound = [(path, v) for path, v in zip(paths, verdicts) if not v.valid]
    if unsound:
        path, verdict = unsound[0]
        raise RuntimeError(f"the bench's own record {path.name} audits unsound at line {verdict.line}: {verdict.error}")
    lines = sum(verdict.events + 1 for verdict in verdicts)
    return {"audit_records": len(paths), "audit_lines": lines, "audit_seconds": round(seconds, 4),
            "audit_cpu_seconds": round(cpu_seconds, 4),
            "audit_records_per_s": round(len(paths) / seconds, 1), "audit_lines_per_s": round(lines / seconds, 1)}
