"""A fix killed half way loses nothing: the keeper replays every later entry and rewrites the record
from the fixed line on; a SIGKILL at any step of that leaves the record as it was or as fixed (never
a mix), sound, and ``contack keep --resume`` carries it on (issue 30, corrections).

The record is long: twenty hands of Parker for two, some 450 lines, every entry after the fixed one
replayed. The kill lands at each step of the fix in turn (``fix_kills.py`` counts the keeper's
writes, syncs, truncations and renames while it fixes, and kills it before the chosen one, or with a
write half done), and at times spread over a real fix."""

from __future__ import annotations

import fcntl
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import run_cli
from keeping import played_lines, record_lines
from processes import HANG, REPO, contack

from contack_core import load_rules
from contack_core.records.audit import audit_record
from contack_core.records.keeper import Keeper, KeeperError
from contack_core.records.table import Table

FIX = "fix 37 04-08-09 0,-1"  # ben's play of hand 1 on another cell: 5 points more, every later entry holding


@pytest.fixture(scope="module")
def long_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """A record of twenty hands, and the same record once fixed (the fix run to its end)."""
    folder = tmp_path_factory.mktemp("long")
    source = played_lines(load_rules("parker-1939", {"hands": 20}), 2, seed=2)
    assert source[36] == {"event": "play", "seat": 1, "tile": "04-08-09", "cell": [6, -2], "points": 0}
    before = "".join(json.dumps(line) + "\n" for line in source).encode("utf-8")
    path = folder / "fixed.jsonl"
    path.write_bytes(before)
    script = folder / "fix.txt"
    script.write_text(FIX + "\n", encoding="utf-8")
    result = run_cli("keep", "--resume", path, "--input", script)
    assert result.exit_code == 0, result.output
    assert "fixed line 37: p1 04-08-09 on [6, -2] -> p1 04-08-09 on [0, -1]" in result.output
    assert "no longer holds" not in result.output  # every later entry replayed
    after = path.read_bytes()
    assert len(after) > 30_000 and record_lines(path)[-1]["totals"] != source[-1]["totals"]
    return before, after


def outcome(path: Path, before: bytes, after: bytes) -> str:
    """``before`` or ``after``: what the record is once its keeper was killed (anything else fails),
    having checked it audits sound and that ``--resume`` carries it on."""
    lines = record_lines(path)
    assert lines in ([json.loads(line) for line in before.splitlines()],
                     [json.loads(line) for line in after.splitlines()]), "the record is neither as before nor fixed"
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished, verdict.error
    result = run_cli("keep", "--resume", path, "--input", path.with_name("none.txt"))
    assert result.exit_code == 0 and "the game is over" in result.output, result.output
    assert record_lines(path) == lines  # carrying it on changed nothing
    assert not path.with_name(path.name + ".new").exists()  # a fix's new file, left by the kill, is gone
    return "after" if lines == [json.loads(line) for line in after.splitlines()] else "before"


@pytest.mark.parametrize("mode", ["before", "torn"])
def test_a_fix_killed_at_any_step_leaves_the_record_as_it_was_or_as_fixed(
        long_record: tuple[bytes, bytes], tmp_path: Path, mode: str) -> None:
    before, after = long_record
    script = tmp_path / "fix.txt"
    script.write_text(FIX + "\n", encoding="utf-8")
    (tmp_path / "none.txt").write_text("", encoding="utf-8")
    seen = []
    for step in range(1, 40):
        path = tmp_path / f"step-{step}.jsonl"
        path.write_bytes(before)
        child = subprocess.run([sys.executable, REPO / "tests" / "fix_kills.py", mode, str(step), "keep", "--resume",
                                path, "--input", script], capture_output=True, text=True, timeout=HANG)
        if child.returncode == 0:  # the fix ended before this step: every step has been killed
            assert path.read_bytes() == after
            break
        assert child.returncode == -signal.SIGKILL, child.stderr
        seen.append(outcome(path, before, after))
    else:
        pytest.fail("the fix never ended")
    assert seen[0] == "before" and seen[-1] == "after"  # the kills fell on both sides of the change


def test_a_fix_killed_at_any_moment_of_a_real_run_loses_nothing(long_record: tuple[bytes, bytes],
                                                                  tmp_path: Path) -> None:
    """Killed by the clock rather than at a counted step: from the start of the keeper to well after the
    fix has been made, each kill finds the record as it was or as fixed."""
    before, after = long_record
    (tmp_path / "none.txt").write_text("", encoding="utf-8")
    timing = tmp_path / "timing.jsonl"
    timing.write_bytes(before)
    started = time.monotonic()
    child = subprocess.Popen(contack("keep", "--resume", timing), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    child.communicate(FIX + "\nquit\n", timeout=HANG)
    whole = time.monotonic() - started
    seen = []
    for index in range(8):
        path = tmp_path / f"kill-{index}.jsonl"
        path.write_bytes(before)
        child = subprocess.Popen(contack("keep", "--resume", path), stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
        assert child.stdin is not None
        child.stdin.write(FIX + "\n")
        child.stdin.flush()
        time.sleep(whole * (0.3 + 0.1 * index))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=HANG)
        seen.append(outcome(path, before, after))


def test_a_fixed_record_is_still_held_against_a_second_keeper(long_record: tuple[bytes, bytes],
                                                               tmp_path: Path) -> None:
    """The fixed record is a new file renamed over the old: the keeper holds it as it held the old one,
    and still holds the old one (a writer that opened it before the rename is refused too)."""
    before, after = long_record
    path = tmp_path / "held.jsonl"
    path.write_bytes(before)
    keeper = Keeper.resume(path, lambda text: None)
    early = path.open("r+b")  # opened before the fix: the file the rename replaces
    try:
        typed = iter([FIX, None])
        Table(keeper, lambda prompt: next(typed), lambda text: None, interactive=False).run()
        for now in (after, before):  # after the fix, and after its undo (the old record renamed back)
            assert path.read_bytes() == now
            with pytest.raises(KeeperError, match="is being written by process"):
                Keeper.resume(path, lambda text: None)
            with pytest.raises(BlockingIOError):
                fcntl.flock(early.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            if now == after:
                assert keeper.undo() == [{"event": "fix"}]
    finally:
        early.close()
        keeper.close()
    Keeper.resume(path, lambda text: None).close()  # let go: the next keeper takes it
