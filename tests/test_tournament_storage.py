"""Issue 33 item 5: the records are the truth of a tournament. A record is synced before its row is
committed; a resumed run checks every stored game's record (size and digest kept in its row) and
plays again what is missing or damaged; a database damaged mid-file is noticed by run and report
in one message; ``contack tournament repair`` rebuilds it from the records; a full disk (an
injected ENOSPC, or SQLite's own "database or disk is full") is one message, and nothing stored is
lost."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from pathlib import Path

import pytest
from helpers import run_cli

import tournaments.store as store_module
from contack_core.records.audit import audit_record
from tournaments.play import RECORDS_FOLDER, StorageFailure, write_record
from tournaments.store import DATABASE_NAME, Store

CONFIG = """\
format: contack-tournament/1
name: storage
ruleset: parker-1939
options: {hands: 1}
entrants:
  - {name: a, player: random}
  - {name: b, player: random}
  - {name: c, player: random}
seats: [3]
deals: 8
seed: 33
budget: {time_per_move: null}
fault_policy: pass
output: out
"""
GAMES = 24


def run(tmp_path: Path, folder: str = "out") -> tuple[int, str]:
    config = tmp_path / "t.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run_cli("tournament", "run", config, "--output", tmp_path / folder, "--workers", "2", "--quiet")
    return result.exit_code, result.output


def rows(folder: Path) -> dict[str, tuple]:
    with sqlite3.connect(folder / DATABASE_NAME) as connection:
        found = connection.execute("SELECT key, scores, ranks, status, winners, placed, record_size, record_digest "
                                   "FROM games").fetchall()
    return {row[0]: row[1:] for row in found}


def records(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in (folder / RECORDS_FOLDER).glob("*.jsonl")}


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, tuple], dict[str, bytes], dict]:
    """An uninterrupted run: its rows, its records and its report."""
    tmp_path = tmp_path_factory.mktemp("clean")
    code, output = run(tmp_path)
    assert code == 0, output
    report = json.loads(run_cli("tournament", "report", tmp_path / "out", "--json").output)
    return rows(tmp_path / "out"), records(tmp_path / "out"), report


def test_each_row_keeps_its_records_size_and_digest(clean) -> None:
    stored, written, _ = clean
    assert len(stored) == len(written) == GAMES
    for key, row in stored.items():
        data = written[f"{key}.jsonl"]
        assert row[-2] == len(data) and row[-1].startswith("sha256:")


def test_a_record_is_synced_before_its_name_and_its_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    happened: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (happened.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (happened.append("rename"), real_replace(a, b))[1])
    write_record(str(tmp_path), "game", '{"record": "contack-record/1"}\n')
    assert happened == ["fsync", "rename"]

    monkeypatch.undo()
    code, output = run(tmp_path)  # a folder, then one more row stored by hand
    assert code == 0, output
    synced: list[int] = []
    store = Store(tmp_path / "out", store_module._connect(tmp_path / "out" / store_module.DATABASE_NAME))  # to write
    monkeypatch.setattr(store_module, "sync_folder", lambda folder: synced.append(store.count()))
    with store:
        from tournaments.play import PlayedBatch

        row = store.connection.execute("SELECT * FROM games LIMIT 1").fetchone()
        store.connection.execute("DELETE FROM games WHERE key = ?", (row[0],))
        store.connection.commit()
        assert store.save(PlayedBatch([row], [], 0.0)) == 1
    assert synced == [GAMES - 1], "the records folder is synced before the row is committed"


def test_a_resumed_run_plays_again_the_games_whose_record_is_missing_or_damaged(tmp_path: Path, clean) -> None:
    stored, written, _ = clean
    code, output = run(tmp_path)
    assert code == 0, output
    folder = tmp_path / "out" / RECORDS_FOLDER
    names = sorted(written)
    (folder / names[0]).unlink()  # deleted
    cut = folder / names[1]
    cut.write_bytes(cut.read_bytes()[:-40])  # cut mid-line
    changed = folder / names[2]
    changed.write_bytes(changed.read_bytes().replace(b'"seat": 0', b'"seat": 1', 1))  # same size, other digest
    code, output = run(tmp_path)
    assert code == 0, output
    assert f"{GAMES} games in the schedule, {GAMES - 3} already done, 3 played now" in output
    assert "3 stored games had a missing or damaged record and were played again" in output
    assert records(tmp_path / "out") == written
    assert rows(tmp_path / "out") == stored


def damage(database: Path) -> None:
    """Overwrite 4 KiB in the middle of the file, as a failing disk might."""
    size = database.stat().st_size
    with database.open("r+b") as stream:
        stream.seek(size // 2)
        stream.write(bytes(range(256)) * 16)


def test_a_damaged_database_is_noticed_and_repaired_from_the_records(tmp_path: Path, clean) -> None:
    stored, written, report = clean
    code, output = run(tmp_path)
    assert code == 0, output
    out = tmp_path / "out"
    damage(out / DATABASE_NAME)
    for command in (["tournament", "report", out], None):
        if command is None:
            code, said = run(tmp_path)
        else:
            result = run_cli(*command)
            code, said = result.exit_code, result.output
        assert code == 1
        assert said.count("\n") == 1 and "is damaged" in said, said
        assert f"contack tournament repair {out}" in said
    result = run_cli("tournament", "repair", out)
    assert result.exit_code == 0, result.output
    assert f"rebuilt {GAMES} games from their records; the old database is kept as" in result.output
    assert rows(out) == stored
    assert json.loads(run_cli("tournament", "report", out, "--json").output) == report
    code, output = run(tmp_path)
    assert code == 0 and f"{GAMES} already done, 0 played now" in output


def test_a_full_database_disk_is_one_message_and_nothing_stored_is_lost(tmp_path: Path, clean,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own "database or disk is full", from a page limit set on the run's connection."""
    stored, written, _ = clean
    connect = store_module._connect

    def small(path: Path) -> sqlite3.Connection:
        connection = connect(path)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages + 1}")
        return connection

    monkeypatch.setattr(store_module, "_connect", small)
    code, output = run(tmp_path)
    assert code == 1
    assert output.count("\n") == 1 and "disk is full" in output and "Traceback" not in output, output
    monkeypatch.undo()
    code, output = run(tmp_path)
    assert code == 0, output
    assert rows(tmp_path / "out") == stored and records(tmp_path / "out") == written


SITE = """\
import errno, os
_limit = int(os.environ.get("CONTACK_TEST_FSYNC_FAILS_AFTER", "-1"))
if _limit >= 0:
    _real, _calls = os.fsync, [0]
    def fsync(fd):
        _calls[0] += 1
        if _calls[0] > _limit:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return _real(fd)
    os.fsync = fsync
"""


def test_a_full_disk_under_the_workers_is_one_message_and_nothing_stored_is_lost(
        tmp_path: Path, clean, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC injected into the worker processes' fsync (a sitecustomize on their path): after 5
    records each, every write fails as on a full disk."""
    stored, written, _ = clean
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITE, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("CONTACK_TEST_FSYNC_FAILS_AFTER", "5")
    code, output = run(tmp_path)
    assert code == 1
    assert output.count("\n") == 1, output
    assert "No space left on device" in output and "the run stopped with" in output and "Traceback" not in output
    partial = rows(tmp_path / "out")
    assert 0 < len(partial) < GAMES
    for key, row in partial.items():  # every stored row has its whole record
        assert row == stored[key]
        assert audit_record(tmp_path / "out" / RECORDS_FOLDER / f"{key}.jsonl").valid
    assert not list((tmp_path / "out" / RECORDS_FOLDER).glob("*.tmp"))
    monkeypatch.delenv("CONTACK_TEST_FSYNC_FAILS_AFTER")
    code, output = run(tmp_path)
    assert code == 0, output
    assert rows(tmp_path / "out") == stored and records(tmp_path / "out") == written


def test_write_record_turns_a_full_disk_into_a_storage_failure(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(StorageFailure, match="No space left on device"):
        write_record(str(tmp_path), "game", "{}\n")
    assert list(tmp_path.iterdir()) == []
