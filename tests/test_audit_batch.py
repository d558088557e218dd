"""`contack audit` over many records (issue 21): files, directories and glob patterns, in
worker processes, with a summary; and the command line as users expect it (flags shown as
flags, --version, shell completion, `contack bench --audit`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli as run
from processes import HANG

from contack_core import __version__


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """records/: three sound games (one in a subfolder), one unsound, one unreadable, one other file."""
    root = tmp_path_factory.mktemp("archive") / "records"
    (root / "club").mkdir(parents=True)
    for path, args in ((root / "a.jsonl", ["parker-1939", "--seats", "random,random", "--seed", "1"]),
                       (root / "b.jsonl", ["solitaire-2", "--seats", "random", "--seed", "2"]),
                       (root / "club" / "c.jsonl", ["club-contack", "--seats", "random,random,random", "--seed", "3"])):
        assert run("play", *args, "--record", path, "--quiet").exit_code == 0
    lines = (root / "a.jsonl").read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[7])
    bad["seat"] = 5
    (root / "bad.jsonl").write_text("\n".join([*lines[:7], json.dumps(bad), *lines[8:]]) + "\n", encoding="utf-8")
    (root / "junk.jsonl").write_bytes(b"\x89PNG not a record\n")
    (root / "notes.txt").write_text("not a record, and not named .jsonl\n", encoding="utf-8")
    return root


EXPECTED = ["a.jsonl", "b.jsonl", "bad.jsonl", "club/c.jsonl", "junk.jsonl"]


def names(root: Path, objects: list[dict]) -> list[str]:
    return [str(Path(o["file"]).relative_to(root)) for o in objects]


def as_json(*args: object) -> tuple[int, list[dict]]:
    result = run("audit", "--json", *args)
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def test_a_directory_is_every_record_under_it_with_a_summary(archive: Path) -> None:
    result = run("audit", archive)
    assert result.exit_code == 2  # the worst of the batch: one unreadable file
    lines = result.stdout.splitlines()  # sound records in a folder are counted, not listed one by one
    unsound, summary = lines[0], lines[-1]
    assert all(line.lstrip().startswith(("did you mean", "or:")) for line in lines[1:-1]), lines
    assert re.fullmatch(f"{re.escape(str(archive / 'bad.jsonl'))}:8: unsound: it is random#.'s turn, not seat 5's",
                        unsound), unsound
    assert summary == "5 records: 3 sound (3 finished), 1 unsound, 1 unreadable"
    assert f"{archive / 'junk.jsonl'}: unreadable:" in result.stderr


def test_json_lines_one_object_per_record_in_order(archive: Path) -> None:
    code, objects = as_json(archive)
    assert code == 2
    assert names(archive, objects) == EXPECTED
    by_name = dict(zip(EXPECTED, objects))
    assert by_name["bad.jsonl"]["valid"] is False and by_name["bad.jsonl"]["line"] == 8
    assert by_name["junk.jsonl"]["unreadable"] is True and by_name["junk.jsonl"]["line"] is None
    assert all(by_name[name]["valid"] and by_name[name]["finished"] for name in ("a.jsonl", "b.jsonl", "club/c.jsonl"))


def test_a_glob_pattern_is_expanded(archive: Path) -> None:
    _, everything = as_json(str(archive / "**" / "*.jsonl"))
    assert names(archive, everything) == EXPECTED
    code, top = as_json(str(archive / "[ab].jsonl"))
    assert code == 0 and names(archive, top) == ["a.jsonl", "b.jsonl"]


def test_a_record_named_twice_is_audited_once(archive: Path) -> None:
    code, objects = as_json(archive / "bad.jsonl", archive, str(archive / "club" / "*.jsonl"))
    assert code == 2
    assert names(archive, objects) == ["bad.jsonl", "a.jsonl", "b.jsonl", "club/c.jsonl", "junk.jsonl"]
    summary = run("audit", archive / "bad.jsonl", archive).stdout.splitlines()[-1]
    assert summary == "5 records: 3 sound (3 finished), 1 unsound, 1 unreadable"


def test_names_standing_for_nothing(archive: Path, tmp_path: Path) -> None:
    result = run("audit", str(archive / "*.nothing"))
    assert result.exit_code == 2 and "no file matches" in result.output
    result = run("audit", tmp_path)
    assert result.exit_code == 2 and "holding no .jsonl record" in result.output


def test_records_named_as_files_are_listed_sound_or_not(archive: Path) -> None:
    lines = run("audit", archive / "a.jsonl", archive / "b.jsonl").stdout.splitlines()
    assert [line.split(": ")[0] for line in lines[:2]] == [str(archive / "a.jsonl"), str(archive / "b.jsonl")]
    assert all(": sound (" in line for line in lines[:2]) and lines[2].startswith("2 records: 2 sound")


def test_the_exit_code_of_a_batch_is_its_worst_record(archive: Path) -> None:
    assert run("audit", archive / "a.jsonl", archive / "b.jsonl").exit_code == 0
    assert run("audit", archive / "a.jsonl", archive / "bad.jsonl").exit_code == 1
    assert run("audit", archive / "junk.jsonl", archive / "bad.jsonl").exit_code == 2


def test_workers_give_the_same_answers_in_the_same_order(archive: Path) -> None:
    _, alone = as_json("--workers", "1", archive)
    code, shared = as_json("--workers", "2", archive / "junk.jsonl", archive)
    assert code == 2
    assert shared == [alone[-1], *alone[:-1]]  # junk.jsonl named first; the folder's others in their order
    text = run("audit", "--workers", "2", archive)
    assert text.stdout.splitlines()[-1] == "5 records: 3 sound (3 finished), 1 unsound, 1 unreadable"


def test_a_value_after_a_flag_is_not_taken_for_a_record(archive: Path) -> None:
    result = run("audit", "--json", "true", archive / "a.jsonl")
    assert result.exit_code == 2 and "--json is a flag" in result.output


def test_flags_are_shown_as_flags() -> None:
    for command in (["audit"], ["bench"], ["play"], ["tournament", "run"]):
        text = run(*command, "--help").stdout
        assert "<bool>" not in text and "BOOLEAN" not in text, text
    assert "--json" in run("audit", "--help").stdout


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"contack {__version__}"


def _script() -> str:
    exe = shutil.which("contack", path=str(Path(sys.executable).parent)) or shutil.which("contack")
    assert exe is not None
    return exe


def test_shell_completion_completes_commands_and_flags() -> None:
    for words, expected in ((["contack", "au"], "audit"), (["contack", "rulesets", ""], "validate"),
                            (["contack", "audit", "--w"], "--workers")):
        env = {**os.environ, "_CONTACK_COMPLETE": "complete_bash", "COMP_WORDS": " ".join(words),
               "COMP_CWORD": str(len(words) - 1)}
        done = subprocess.run([_script()], env=env, capture_output=True, text=True, timeout=60)
        assert expected in done.stdout.split(), (words, done.stdout, done.stderr)
    # Typer finds the shell among the command's parents, as when a user types it: run it from a
    # bash that stays its parent (a last command alone would be exec'd in bash's place).
    shown = subprocess.run(["bash", "-c", f"'{_script()}' --show-completion; exit $?"], capture_output=True,
                           text=True, timeout=60)
    assert shown.returncode == 0 and "_CONTACK_COMPLETE" in shown.stdout, shown.stderr


def test_bench_audit_prints_both_rates_and_their_ratio() -> None:
    result = run("bench", "parker-1939", "--games", "6", "--players", "3", "--audit", "--rounds", "2", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["audit_records"] == 6 and figures["rounds"] == 2
    assert figures["audit_lines"] > 6 * 20
    assert figures["audit_ratio"] == round(figures["audit_records_per_s"] / figures["games_per_s"], 3)
    assert figures["audit_ratio_of_totals"] > 0 and figures["audit_ratio_cpu"] > 0
    text = run("bench", "klauber-1937", "--games", "1", "--players", "2", "--audit", "--rounds", "1",
               "--option", "move_cap=40")
    assert text.exit_code == 0 and "audit_ratio" in text.stdout


def test_ctrl_c_stops_the_workers_and_leaves_nothing_behind(archive: Path) -> None:
    """Ctrl-C reaches the whole process group: the command ends before its work is done, with
    no traceback, and no worker (nor anything still queued for one) keeps it waiting."""
    import signal

    many = [str(archive)] * 2000  # 10,000 records: most still queued when the signal comes
    started = subprocess.Popen([_script(), "audit", "--json", "--workers", "2", *many], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert started.stdout is not None
    first = started.stdout.readline()  # the workers are at work
    os.killpg(started.pid, signal.SIGINT)
    try:
        rest, err = started.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(started.pid, signal.SIGKILL)
        raise AssertionError("contack audit did not end after Ctrl-C") from None
    verdicts = [line for line in (first + rest).splitlines() if line.startswith("{")]
    assert 0 < len(verdicts) < len(many) * len(EXPECTED), f"{len(verdicts)} verdicts: the work was not stopped"
    assert started.returncode != 0 and "Traceback" not in err, err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads a process's signal masks from /proc")
def test_workers_are_born_ignoring_ctrl_c() -> None:
    """A Ctrl-C that reaches a worker still importing (on a busy machine, while another worker
    already audits) must not interrupt it: the workers ignore SIGINT from their first instruction,
    not only once their own code runs (a CI run printed a worker's KeyboardInterrupt traceback)."""
    import time
    from multiprocessing import get_context

    from contack_core.records.batch import _started_ignoring_ctrl_c

    process = get_context("spawn").Process(target=time.sleep, args=(HANG,), daemon=True)
    _started_ignoring_ctrl_c([process])
    sigint = 1 << 1  # bit (signal number - 1) in /proc's hexadecimal masks
    try:
        deadline = time.monotonic() + HANG
        while time.monotonic() < deadline:  # until the child runs Python, which catches SIGINT unless ignored
            status = dict(line.split(":\t", 1) for line in Path(f"/proc/{process.pid}/status").read_text().splitlines()
                          if ":\t" in line)
            ignored, caught = (int(status[key], 16) & sigint for key in ("SigIgn", "SigCgt"))
            if ignored or caught:
                break
            time.sleep(0.01)
        assert ignored and not caught, status
    finally:
        process.kill()
        process.join()
