"""Helpers for tests that start real processes and send real signals: who is below a process,
who is still running, and a guard that kills whatever a test started even when it fails."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from contack_core.processes import descendants, process_table, start_time

REPO = Path(__file__).resolve().parent.parent
#: A folder of in-process bots that take their worker down (tests/misbehaving); on PYTHONPATH they install.
MISBEHAVING = REPO / "tests" / "misbehaving"

Identity = tuple[int, int]  # a process id and its start time: a process, even once its id is reused

#: A guard against a hang, never a measure of speed: far above what any command of the tests
#: takes on a busy 2-core machine (CI, a load of 16), so only a command that would not end
#: reaches it. Speed is measured by benchmarks, which print figures.
HANG = 300.0
#: How long a process that was told to stop (or killed) may take to be gone before it counts
#: as left behind: over 10x the exit of a loaded machine's slowest process here (a Ray worker).
GONE = 30.0


def below(pid: int) -> list[Identity]:
    """Every process below ``pid`` now (with its start time)."""
    found = []
    for child in descendants(pid, process_table() or {}):
        started = start_time(child)
        if started is not None:
            found.append((child, started))
    return found


def alive(process: Identity) -> bool:
    return start_time(process[0]) == process[1]


def survivors(processes: list[Identity], within: float) -> list[Identity]:
    """The processes still running after waiting up to ``within`` seconds for all to end."""
    deadline = time.monotonic() + within
    while True:
        left = [p for p in processes if alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def contack(*args: object) -> list[str]:
    return [sys.executable, "-m", "contack_core.cli", *map(str, args)]


def environment(misbehaving: bool = False) -> dict[str, str]:
    """The environment for a contack subprocess; with the misbehaving bots installed if asked."""
    env = dict(os.environ)
    if misbehaving:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(MISBEHAVING), env.get("PYTHONPATH")]))
    return env


class Run:
    """A started command, and the processes a test saw below it (killed at the end whatever happens)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.tracked: list[Identity] = []

    @property
    def pid(self) -> int:
        return self.process.pid

    def snapshot(self) -> list[Identity]:
        """The processes below the command now; remembered, so they are killed at the end if still there."""
        found = below(self.process.pid)
        self.tracked.extend(found)
        return found

    def kill_all(self) -> None:
        doomed = [*self.tracked, *(below(self.process.pid) if self.process.poll() is None else [])]
        for pid in [self.process.pid, *(pid for pid, started in doomed if start_time(pid) == started)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.process.communicate(timeout=GONE)
        except (subprocess.TimeoutExpired, ValueError):
            pass


def _default_signals() -> None:
    """In the child before it runs: Ctrl-C and hang-ups as a terminal would deliver them, even when the
    tests run where they are ignored (a shell's background job ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@contextmanager
def started(command: list[str], **options: object) -> Iterator[Run]:
    """Start ``command`` in a session of its own; on the way out (a failure included) kill it, every
    process below it and every process a snapshot saw, so a failing test leaves nothing behind."""
    run = Run(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_default_signals,
                               **options))  # type: ignore[call-overload]
    try:
        yield run
    finally:
        run.kill_all()


def wait_for(condition: object, within: float, every: float = 0.05) -> bool:
    """Poll ``condition()`` until it is true or ``within`` seconds pass."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(every)
    return False


def run_cpu_limited(args: list[str], cpu_seconds: int, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run ``args`` with at most ``cpu_seconds`` of CPU time (the kernel kills it past that, SIGXCPU
    then SIGKILL): a test that catches runaway work without asserting the wall clock. The
    ``timeout`` only guards against a hang (a process waiting, using no CPU)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))

    return subprocess.run(args, preexec_fn=limit, capture_output=True, text=True,  # type: ignore[call-overload]
                          timeout=max(120, 10 * cpu_seconds), **kwargs)
