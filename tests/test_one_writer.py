"""One writer a record: a second keeper on a record another has open is refused at once, naming the
first; a SIGKILLed keeper leaves no lock; ``contack play --record`` replaces a file only with ``--force``.

Every writer here is a real process (``python -m contack_core.cli``), as at a table: the lock is the
kernel's, and only separate processes show that it holds.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from keeping import record_lines

from contack_core.records.audit import audit_record
from contack_core.records.lock import holder_path

DEAL = ["06-02-05 08-09-10 08-09-06 05-09-10 07-03-06", "05-06-07 09-10-01 07-08-02 07-08-09 06-07-04",
        "08-09-03 09-05-08 06-07-08 10-03-09 02-09-10"]


def contack(*args: object) -> list[str]:
    return [sys.executable, "-m", "contack_core.cli", *map(str, args)]


def run(*args: object, entries: list[str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(contack(*args), input="\n".join(entries or []) + "\n", capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def a_kept_record(folder: Path) -> Path:
    """A record with the deal of hand 1 typed in and bob to play."""
    record = folder / "game.jsonl"
    done = run("keep", "parker-1939", "--seats", "alice,bob,carol", "--record", record, entries=DEAL)
    assert done.returncode == 0, done.stdout + done.stderr
    return record


def a_keeper_holding(record: Path) -> subprocess.Popen[str]:
    """``contack keep --resume RECORD`` waiting at its prompt (its input kept open), once it holds the record."""
    child = subprocess.Popen(contack("keep", "--resume", record), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60  # a guard against a hang only
    while not holder_path(record).exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the first keeper never took the record"
        time.sleep(0.05)
    return child


def test_a_second_keeper_is_refused_at_once_naming_the_first(tmp_path: Path) -> None:
    record = a_kept_record(tmp_path)
    before = record.read_bytes()
    first = a_keeper_holding(record)
    try:
        second = run("keep", "--resume", record, entries=["789 1,0"])
        assert second.returncode == 1, second.stdout + second.stderr
        message = second.stderr.strip()
        assert "Traceback" not in message and len(message.splitlines()) == 1
        assert message.startswith(f"error: {record} is being written by process {first.pid} on "
                                  f"{socket.gethostname()} (`")
        assert "keep --resume" in message and "since 20" in message and "one writer a record" in message
        assert record.read_bytes() == before  # the second keeper wrote nothing
        # the first carries on as if nothing happened
        out, err = first.communicate("789 1,0\n", timeout=120)
        assert first.returncode == 0, out + err
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert record_lines(record)[-1] == {"event": "play", "seat": 1, "tile": "07-08-09", "cell": [1, 0], "points": 10}
    assert not holder_path(record).exists()  # a clean close takes its name away
    assert audit_record(record).valid


def test_a_keeper_killed_with_sigkill_leaves_no_lock(tmp_path: Path) -> None:
    record = a_kept_record(tmp_path)
    first = a_keeper_holding(record)
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=60)
    assert holder_path(record).exists()  # its name is left behind, but the lock went with the process
    second = run("keep", "--resume", record, entries=["789 1,0"])
    assert second.returncode == 0, second.stdout + second.stderr
    assert record_lines(record)[-1]["tile"] == "07-08-09" and audit_record(record).valid


def test_a_keeper_and_a_new_game_cannot_share_a_record(tmp_path: Path) -> None:
    """Not even ``play --force`` may wipe a record a keeper is writing."""
    record = a_kept_record(tmp_path)
    before = record.read_bytes()
    first = a_keeper_holding(record)
    try:
        played = run("play", "parker-1939", "--seats", "random,random", "--seed", "1", "--record", record, "--force")
        assert played.returncode == 1, played.stdout + played.stderr
        assert f"is being written by process {first.pid}" in played.stderr
        assert record.read_bytes() == before
    finally:
        first.kill()
        first.wait()


def test_play_never_overwrites_a_record_without_force(tmp_path: Path) -> None:
    record = a_kept_record(tmp_path)
    before = record.read_bytes()
    played = run("play", "parker-1939", "--seats", "random,random", "--seed", "1", "--record", record, "--quiet")
    assert played.returncode == 2
    assert played.stderr.strip() == f"error: {record} exists already: --force replaces it, or name another --record"
    assert record.read_bytes() == before
    assert "random" not in record.read_text()
    forced = run("play", "parker-1939", "--seats", "random,random", "--seed", "1", "--record", record, "--quiet",
                 "--force")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    fresh = tmp_path / "fresh.jsonl"
    assert run("play", "parker-1939", "--seats", "random,random", "--seed", "1", "--record", fresh,
               "--quiet").returncode == 0
    assert record.read_bytes() == fresh.read_bytes()  # replaced whole: nothing of the kept game is left
    assert audit_record(record).valid and audit_record(record).finished
    assert not holder_path(record).exists() and not holder_path(fresh).exists()


def test_the_holders_name_is_never_written_through_a_link(tmp_path: Path) -> None:
    """A link planted where the keeper names itself (RECORD.lock) is not followed: the file it
    points to is left as it was, and the lock holds all the same."""
    from contack_core.records.lock import hold, holder_path, release

    victim = tmp_path / "victim.txt"
    victim.write_text("not the keeper's\n", encoding="utf-8")
    record = tmp_path / "r.jsonl"
    holder_path(record).symlink_to(victim)
    stream = record.open("a", encoding="utf-8")
    hold(stream, record)
    release(stream, record)
    assert victim.read_text(encoding="utf-8") == "not the keeper's\n"
