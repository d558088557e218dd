"""Resume after a kill: a real ``contack tournament run`` process killed with SIGKILL mid-run,
then the same command again, which plays only the games without a row."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from processes import contack
from test_run_survives import RANDOM_FOUR

from contack_core.records.audit import audit_record
from tournaments.config import load_config
from tournaments.schedule import schedule
from tournaments.store import DATABASE_NAME

CONFIG = RANDOM_FOUR.replace("deals: 300", "deals: 200")


def stored(database: Path) -> tuple[int, int]:
    """(rows, distinct keys), or (0, 0) before the database has its table."""
    if not database.exists():
        return 0, 0
    try:
        with sqlite3.connect(database, timeout=60) as connection:
            return connection.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM games").fetchone()
    except sqlite3.OperationalError:
        return 0, 0


def test_a_killed_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    config = tmp_path / "long.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    out = tmp_path / "out"
    database = out / DATABASE_NAME
    total = len(schedule(4, [4], 200, 8))
    process = subprocess.Popen(contack("tournament", "run", config, "--output", out, "--workers", "1", "--quiet"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while stored(database)[0] == 0 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the run and its worker processes, at once
        process.wait()
    assert process.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    done_before, distinct = stored(database)
    assert 0 < done_before < total and distinct == done_before

    result = subprocess.run(contack("tournament", "run", config, "--output", out, "--workers", "2", "--quiet"),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert f"{total} games in the schedule, {done_before} already done, {total - done_before} played now" \
        in result.stdout
    assert stored(database) == (total, total), "every game once, none twice"
    keys = {g.key for g in schedule(4, [4], 200, 8)}
    records = {p.name.removesuffix(".jsonl") for p in (out / "records").glob("*.jsonl")}
    assert records == keys and not list((out / "records").glob("*.tmp"))
    for key in sorted(keys)[:: max(1, total // 40)]:  # a sample of records across the run
        verdict = audit_record(out / "records" / f"{key}.jsonl")
        assert verdict.valid and verdict.finished, key


def test_results_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    """Identity alone decides a game: one worker or two, batches of any size, the same rows."""
    from tournaments.runner import run_tournament
    from tournaments.store import Store

    (tmp_path / "c.yaml").write_text(CONFIG.replace("deals: 200", "deals: 6"), encoding="utf-8")
    config = load_config(str(tmp_path / "c.yaml"))
    one = run_tournament(config, tmp_path / "one", workers=1, quiet=True)
    two = run_tournament(config, tmp_path / "two", workers=2, quiet=True)
    assert one.played == two.played == one.total == 24
    with Store.open_existing(tmp_path / "one") as a, Store.open_existing(tmp_path / "two") as b:
        outcome = [[(g.key, g.scores, g.ranks, g.status) for g in s.games()] for s in (a, b)]
    assert outcome[0] == outcome[1]
