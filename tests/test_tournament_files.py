"""The files a tournament opens in its folder: a symbolic link planted there is never
followed (``run.lock -> /etc/passwd`` would have the run truncate it), and a finished results
folder reads from a read-only copy (the report opens the database read-only)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from helpers import run_cli
from processes import contack
from test_run_survives import RANDOM_FOUR

from tournaments.lock import LOCK_NAME
from tournaments.play import write_record
from tournaments.store import DATABASE_NAME

CONFIG = RANDOM_FOUR.replace("deals: 300", "deals: 2")
VICTIM_TEXT = "precious: do not truncate\n"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "four.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text(VICTIM_TEXT, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", [LOCK_NAME, DATABASE_NAME, f"{DATABASE_NAME}-wal"])
def test_a_folder_whose_lock_or_database_is_a_link_is_refused(name: str, config: Path, tmp_path: Path) -> None:
    target = victim(tmp_path)
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / name).symlink_to(target)
    result = run_cli("tournament", "run", config, "--output", folder, "--workers", "1", "--quiet")
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "symbolic link" in lines[0] and name in lines[0], result.output
    assert target.read_text(encoding="utf-8") == VICTIM_TEXT
    assert (folder / name).is_symlink()


def test_a_records_temporary_file_that_is_a_link_is_replaced_not_followed(tmp_path: Path) -> None:
    target = victim(tmp_path)
    records = tmp_path / "records"
    records.mkdir()
    (records / "g1.jsonl.tmp").symlink_to(target)
    write_record(str(records), "g1", '{"record": "contack-record/1"}\n')
    assert target.read_text(encoding="utf-8") == VICTIM_TEXT
    assert (records / "g1.jsonl").read_text(encoding="utf-8") == '{"record": "contack-record/1"}\n'
    assert not (records / "g1.jsonl").is_symlink() and not (records / "g1.jsonl.tmp").exists()


def test_the_kept_configs_temporary_file_that_is_a_link_is_replaced_not_followed(config: Path,
                                                                               tmp_path: Path) -> None:
    """The config kept beside the database (for repair) is written as a record is: a link planted
    at its temporary name is removed, never written through."""
    target = victim(tmp_path)
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "tournament.json.tmp").symlink_to(target)
    assert run_cli("tournament", "run", config, "--output", folder, "--workers", "1", "--quiet").exit_code == 0
    assert target.read_text(encoding="utf-8") == VICTIM_TEXT
    assert json.loads((folder / "tournament.json").read_text(encoding="utf-8"))
    assert not (folder / "tournament.json.tmp").exists()


def read_only_command(*args: object) -> list[str]:
    """The command run as a user who may not write what is read-only (root overrides file
    modes: it runs without the capabilities that let it)."""
    if os.geteuid() != 0:
        return contack(*args)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder cannot be made")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search", *contack(*args)]


def test_a_report_reads_a_read_only_copy_of_finished_results(config: Path, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    assert run_cli("tournament", "run", config, "--output", folder, "--workers", "1", "--quiet").exit_code == 0
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    before = sorted(p.name for p in copy.iterdir())
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        shown = subprocess.run(read_only_command("tournament", "report", copy, "--json"), capture_output=True,
                               text=True, timeout=120)
    finally:
        for path in [copy, *copy.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    assert shown.returncode == 0, shown.stderr
    assert '"games": 8' in shown.stdout.replace(" ", "").replace('"games":8', '"games": 8')
    assert sorted(p.name for p in copy.iterdir()) == before  # nothing made beside the database
    expected = run_cli("tournament", "report", folder, "--json")
    assert expected.exit_code == 0 and expected.output == shown.stdout
