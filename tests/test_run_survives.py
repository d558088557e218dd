"""What a tournament run survives, through real processes and real signals: Ctrl-C, SIGTERM and
SIGKILL of the main process, bots that kill their worker (``os._exit``, a segfault, SIGKILL) or
raise KeyboardInterrupt, a second run on the same folder, and games that all end in errors.
Every test kills whatever it started, even when it fails (tests/processes.py)."""

from __future__ import annotations

import json
import signal
import sqlite3
import sys
import textwrap
import time
from pathlib import Path

import pytest
from processes import GONE, HANG, contack, environment, started, survivors, wait_for

from contack_core.records.audit import audit_record
from tournaments.schedule import schedule
from tournaments.store import DATABASE_NAME

RANDOM_FOUR = """\
format: contack-tournament/1
name: four
ruleset: parker-1939
entrants:
  - {name: a, player: random}
  - {name: b, player: random}
  - {name: c, player: random}
  - {name: d, player: random}
seats: 4
deals: 300
seed: 8
"""


def stored(folder: Path) -> int:
    try:
        with sqlite3.connect(folder / DATABASE_NAME, timeout=60) as connection:
            return connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def records(folder: Path) -> set[str]:
    return {path.name.removesuffix(".jsonl") for path in (folder / "records").glob("*.jsonl")}


def keys(folder: Path) -> set[str]:
    with sqlite3.connect(folder / DATABASE_NAME) as connection:
        return {key for (key,) in connection.execute("SELECT key FROM games")}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- stopping
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_stores_every_finished_game_says_how_to_resume_and_leaves_no_process(
        tmp_path: Path, signum: int) -> None:
    config = write(tmp_path, "four.yaml", RANDOM_FOUR)
    out = tmp_path / "out"
    with started(contack("tournament", "run", config, "--output", out, "--workers", "2")) as run:
        assert wait_for(lambda: stored(out) > 0, within=HANG), run.process.stderr
        run.snapshot()
        asked = time.monotonic()
        run.process.send_signal(signum)
        stdout, stderr = run.process.communicate(timeout=HANG)
        took = time.monotonic() - asked
        assert survivors(run.tracked, within=GONE) == []
    print(f"stopped by {signal.Signals(signum).name} in {took:.2f} s")  # the figure, for the record
    assert run.process.returncode == 128 + signum, stderr
    done = stored(out)
    assert records(out) == keys(out), "every record on disk has its row, and every row its record"
    total = len(schedule(4, [4], 300, 8))
    name = signal.Signals(signum).name
    assert f"stopped by {name}: {done} of {total} games done, {total - done} to play; resume with: " \
           f"contack tournament run {config} --output {out} --workers 2" in stderr
    again = run_to_the_end(config, out)
    assert f"{total} games in the schedule, {done} already done, {total - done} played now" in again


def run_to_the_end(config: Path, out: Path, env: dict[str, str] | None = None) -> str:
    with started(contack("tournament", "run", config, "--output", out, "--workers", "2", "--quiet"),
                 env=env) as run:
        stdout, stderr = run.process.communicate(timeout=HANG)
    assert run.process.returncode == 0, stdout + stderr
    return stdout


HANGING_BOT = """\
import json, os, subprocess, sys, time
def send(m): print(json.dumps(m), flush=True)
for line in sys.stdin:
    t = json.loads(line)["type"]
    if t == "hello": send({"type": "hello", "protocol": "contack-bot/1", "rulesets": ["*"]})
    elif t == "new_game": send({"type": "ready"})
    elif t == "position":
        # Mid-move: a child in a session of its own, a double-forked daemon, then no answer.
        subprocess.Popen(["sleep", "600"], start_new_session=True)
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
        time.sleep(600)
"""


def test_sigkill_of_the_main_process_leaves_no_worker_keeper_bot_or_grandchild(tmp_path: Path) -> None:
    write(tmp_path, "hang.py", HANGING_BOT)
    moving = tmp_path / "moving"
    moving.mkdir()
    config = write(tmp_path, "hang.yaml", f"""\
        format: contack-tournament/1
        name: hang
        ruleset: parker-1939
        entrants:
          - {{name: hangs, player: exec, params: {{command: "{sys.executable} hang.py {moving}"}}}}
          - {{name: r1, player: random}}
          - {{name: r2, player: random}}
        seats: 2
        deals: 2
        budget: {{time_per_move: 60}}
        """)
    with started(contack("tournament", "run", config, "--output", tmp_path / "out", "--workers", "2")) as run:
        assert wait_for(lambda: len(list(moving.iterdir())) >= 2, within=HANG), "both workers' bots mid-move"
        # Workers; each a keeper, a bot, a child, a daemon (the daemon's first parent may still be
        # on its way out when the bot says it is mid-move: wait until every process is in place).
        assert wait_for(lambda: len(run.snapshot()) >= 2 + 2 * 4, within=HANG), run.tracked
        processes = run.snapshot()
        run.process.send_signal(signal.SIGKILL)
        run.process.wait()
        left = survivors(run.tracked, within=GONE)
    print(f"SIGKILL of the main process: {len(left)} of {len(processes)} processes below it left after 5 s")
    assert left == [], f"{len(left)} of {len(processes)} processes outlived the main process by 5 s"


# ----------------------------------------------------------------------------- bots that kill their worker
def test_a_bot_that_kills_its_worker_forfeits_that_game_and_the_run_goes_on(tmp_path: Path) -> None:
    config = write(tmp_path, "crash.yaml", """\
        format: contack-tournament/1
        name: crash
        ruleset: parker-1939
        entrants:
          - {name: exits, player: exiter, params: {seat: 0}}
          - {name: segfaults, player: segfaulter, params: {seat: 0}}
          - {name: oom, player: killer, params: {seat: 0}}
          - {name: interrupts, player: interrupter}
        seats: 2
        deals: 1
        seed: 5
        """)
    out = tmp_path / "out"
    env = environment(misbehaving=True)
    summary = run_to_the_end(config, out, env)
    total = len(schedule(4, [2], 1, 5))
    assert f"{total} games in the schedule, 0 already done, {total} played now" in summary
    with sqlite3.connect(out / DATABASE_NAME) as connection:
        rows = connection.execute("SELECT key, names, status, faults, ranks FROM games").fetchall()
    assert len(rows) == total
    crashed = {name: 0 for name in ("exits", "segfaults", "oom")}
    for key, names, status, faults, ranks in rows:
        names, faults = json.loads(names), json.loads(faults)
        for fault in faults:
            if fault["kind"] == "crashed":
                culprit = names[fault["seat"]]
                crashed[culprit] += 1
                assert status == "forfeit" and json.loads(ranks)[fault["seat"]] == 2
                assert f"in {culprit}'s choose" in fault["reason"] and "died the same way" in fault["reason"]
            if names[fault["seat"]] == "interrupts":
                assert fault["kind"] == "raised" and "KeyboardInterrupt" in fault["reason"]
        verdict = audit_record(out / "records" / f"{key}.jsonl")
        assert verdict.valid, (key, verdict)
    assert all(crashed.values()), crashed
    for name in ("exits", "segfaults", "oom"):
        assert f"  {name}: {crashed[name]} crashed" in summary
    assert "SIGSEGV" in summary and "SIGKILL" in summary and "exited with code 3" in summary
    assert "interrupts:" in summary and "raised" in summary
    rerun = run_to_the_end(config, out, env)
    assert f"{total} already done, 0 played now" in rerun


def test_a_tournament_whose_games_all_end_in_errors_does_not_exit_0(tmp_path: Path) -> None:
    config = write(tmp_path, "brittle.yaml", """\
        format: contack-tournament/1
        name: brittle
        ruleset: parker-1939
        entrants:
          - {name: b1, player: brittle}
          - {name: b2, player: brittle}
        seats: 2
        deals: 1
        """)
    with started(contack("tournament", "run", config, "--output", tmp_path / "out", "--quiet"),
                 env=environment(misbehaving=True)) as run:
        stdout, stderr = run.process.communicate(timeout=HANG)
    assert run.process.returncode == 1
    assert "2 played now (2 error)" in stdout
    assert "(engine): 2 error (e.g. game " in stdout and "my weights file is missing" in stdout
    assert "every game played ended in an error" in stderr


# ----------------------------------------------------------------------------- one run per folder
def test_a_second_run_on_a_folder_in_use_is_refused_at_once_and_a_stale_lock_blocks_nothing(tmp_path: Path) -> None:
    config = write(tmp_path, "four.yaml", RANDOM_FOUR)
    out = tmp_path / "out"
    command = contack("tournament", "run", config, "--output", out, "--workers", "1", "--quiet")
    with started(command) as first:
        assert wait_for(lambda: stored(out) > 0, within=HANG)
        asked = time.monotonic()
        with started(command) as second:
            stdout, stderr = second.process.communicate(timeout=HANG)
        took = time.monotonic() - asked
        print(f"second run refused after {took:.2f} s")
        assert second.process.returncode == 1
        assert f"is in use by process {first.pid} on " in stderr and "tournament run" in stderr
        assert "one run at a time" in stderr
        first.snapshot()
        first.process.send_signal(signal.SIGKILL)
        first.process.wait()
        assert survivors(first.tracked, within=GONE) == []
    assert (out / "run.lock").exists(), "the killed run's lock file stays behind"
    done = stored(out)
    again = run_to_the_end(config, out)
    assert f"{done} already done" in again
