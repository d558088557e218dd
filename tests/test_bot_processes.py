"""No external bot process outlives its game or contack, whatever ends them: a bot killed at its
limit takes its children and a daemon it double-forked with it; ``contack play`` stopped by
SIGINT, SIGTERM, SIGHUP or SIGKILL with a bot mid-move leaves nothing running; a bot that
floods its stderr or stdout is killed without growing contack's memory. Real processes and
real signals throughout (tests/processes.py)."""

from __future__ import annotations

import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import RULES
from processes import GONE, HANG, below, contack, started, survivors, wait_for
from test_external_bots import opened_state

from players.external import STDERR_LIMIT, BotFailure, ExternalPlayer
from contack_core.processes import start_time

#: A bot that, asked for a move, starts a child in a session of its own and a double-forked
#: daemon, writes the three process ids to the file named by its first argument, and hangs.
MID_MOVE = textwrap.dedent("""\
    import json, os, subprocess, sys, time
    def send(m): print(json.dumps(m), flush=True)
    for line in sys.stdin:
        t = json.loads(line)["type"]
        if t == "hello": send({"type": "hello", "protocol": "contack-bot/1", "rulesets": ["*"]})
        elif t == "new_game": send({"type": "ready"})
        elif t == "position":
            child = subprocess.Popen(["sleep", "600"], start_new_session=True)
            read, write = os.pipe()
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.write(write, str(os.getpid()).encode())
                    time.sleep(600)
                os._exit(0)
            daemon = int(os.read(read, 20))
            with open(sys.argv[1] + ".tmp", "w") as f:
                f.write(f"{os.getpid()} {child.pid} {daemon}")
            os.replace(sys.argv[1] + ".tmp", sys.argv[1])
            time.sleep(600)
    """)


def mid_move_bot(tmp_path: Path) -> tuple[str, Path]:
    (tmp_path / "mid_move.py").write_text(MID_MOVE, encoding="utf-8")
    pids = tmp_path / "pids"
    return f"{sys.executable} {tmp_path / 'mid_move.py'} {pids}", pids


def identities(pids: Path) -> list[tuple[int, int]]:
    found = []
    for pid in map(int, pids.read_text().split()):
        started_at = start_time(pid)
        assert started_at is not None, f"process {pid} already gone"
        found.append((pid, started_at))
    return found


def test_a_bot_killed_at_its_limit_takes_its_child_and_its_daemon_along(tmp_path: Path) -> None:
    command, pids = mid_move_bot(tmp_path)
    player = ExternalPlayer(seed=1, command=command, move_time=3)
    try:
        with pytest.raises(BotFailure, match="within 3 s"):
            player.choose(opened_state())
        assert pids.exists()
        processes = [(pid, start_time(pid) or 0) for pid in map(int, pids.read_text().split())]
        assert survivors(processes, within=GONE) == []
    finally:
        player.close()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_contack_play_stopped_with_a_bot_mid_move_leaves_no_process(tmp_path: Path, signum: int) -> None:
    command, pids = mid_move_bot(tmp_path)
    record = tmp_path / "game.jsonl"
    with started(contack("play", "parker-1939", "--seats", f'"exec:{command}",random', "--seed", "3",
                         "--record", record)) as run:
        assert wait_for(pids.exists, within=HANG), run.process.stderr
        bots = identities(pids)
        run.tracked.extend(bots)
        processes = run.snapshot()
        assert {pid for pid, _ in bots} <= {pid for pid, _ in processes}
        run.process.send_signal(signum)
        stdout, stderr = run.process.communicate(timeout=HANG)
        left = survivors(run.tracked, within=GONE)
    assert left == [], f"{signal.Signals(signum).name}: {len(left)} processes outlived contack play by 3 s"
    assert run.process.returncode in (128 + signum, -signum)
    if signum != signal.SIGKILL:
        name = signal.Signals(signum).name
        assert f"stopped by {name}: the game was not finished; the record so far is in {record}" in stderr
        assert record.read_text().startswith('{"record": "contack-record/1"')


def peak_memory_command(*args: object) -> list[str]:
    """``contack ARGS`` in a Python that prints its own peak memory (KiB) on stderr as it ends: the
    kernel's high-water mark of its resident memory (``VmHWM``; ``ru_maxrss`` would also count the
    memory of the test process it was forked from)."""
    code = ("import re, sys\nfrom contack_core.cli import main\nsys.argv = ['contack', *sys.argv[1:]]\n"
            "try:\n    main()\nfinally:\n    status = open('/proc/self/status').read()\n"
            "    print('peak KiB', re.search(r'VmHWM:\\s+(\\d+)', status).group(1), file=sys.stderr)")
    return [sys.executable, "-c", code, *map(str, args)]


@pytest.mark.parametrize("stream", ["stderr", "stdout"])
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc (Linux)")
def test_a_bot_flooding_its_output_without_a_newline_is_killed_and_contacks_memory_stays_flat(
        tmp_path: Path, stream: str) -> None:
    flood = tmp_path / "flood.py"
    flood.write_text(textwrap.dedent(f"""\
        import json, sys
        def send(m): print(json.dumps(m), flush=True)
        for line in sys.stdin:
            t = json.loads(line)["type"]
            if t == "hello": send({{"type": "hello", "protocol": "contack-bot/1", "rulesets": ["*"]}})
            elif t == "new_game": send({{"type": "ready"}})
            elif t == "position":
                chunk = "x" * (1 << 20)
                for _ in range(300):  # 300 MB, no newline
                    sys.{stream}.write(chunk)
                sys.{stream}.flush()
        """), encoding="utf-8")
    asked = time.monotonic()
    with started(peak_memory_command("play", "parker-1939", "--seats", f"exec:{sys.executable} {flood},random",
                                     "--seed", "1", "--fault", "forfeit", "--quiet")) as run:
        stdout, stderr = run.process.communicate(timeout=HANG)
    took = time.monotonic() - asked
    peak = int(stderr.rsplit("peak KiB", 1)[1].split()[0])
    print(f"{stream} flood: contack's peak memory {peak / 1024:.0f} MiB, game over in {took:.1f} s")
    assert run.process.returncode == 0, stderr
    limit = f"wrote more than {STDERR_LIMIT >> 20} MiB to its stderr" if stream == "stderr" \
        else "sent a line longer than"
    assert limit in stdout
    assert peak < 200 * 1024, f"contack grew to {peak / 1024:.0f} MiB"


def test_the_keeper_reports_the_bots_own_process_and_nothing_is_left_after_close() -> None:
    from test_external_bots import BOTS

    player = ExternalPlayer(seed=1, command=[sys.executable, str(BOTS / "first_bot.py")])
    player.start_game(RULES, 0, 2)
    assert player.bot is not None
    keeper = player.bot.process.pid
    bot = player.pid
    assert bot is not None and bot != keeper
    assert [pid for pid, _ in below(keeper)] == [bot]
    processes = [(keeper, start_time(keeper) or 0), (bot, start_time(bot) or 0)]
    player.close()
    assert survivors(processes, within=GONE) == []


@pytest.mark.parametrize("limit", ["inf", "1e300", "nan"])
def test_contack_play_refuses_a_time_limit_it_cannot_keep(limit: str) -> None:
    from helpers import run_cli

    result = run_cli("play", "parker-1939", "--seats", "random,random", "--time-limit", limit)
    assert result.exit_code == 2, result.output
    assert "--time-limit" in result.output and "Traceback" not in result.output


def test_a_budget_that_is_not_a_number_of_seconds_is_refused_where_it_is_made() -> None:
    from contack_core.engine.bots import Budget

    for bad in (float("nan"), float("inf"), 0.0, -1.0, 1e300):
        with pytest.raises(ValueError, match="time_per_move is a number of seconds above 0 and at most 86400"):
            Budget(time_per_move=bad)
    with pytest.raises(ValueError, match="iterations is a whole number from 1"):
        Budget(iterations=0)
    assert Budget(2.5, 100).time_per_move == 2.5
