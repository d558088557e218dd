"""The keeper: it makes sure the processes contack starts do not outlive it, however contack dies.

A process supervisor, used by the external bots (:mod:`players.external`) and the tournaments'
workers and Ray backend, so it sits below both, in the core, and imports nothing of contack.
A standalone script (standard library only) because it must start fast and must not depend
on anything a bot could break. Why a process of its own: contack may die by any signal,
SIGKILL included, and then nothing in it can clean up. The keeper outlives that moment by
design. It has two jobs.

``python -I -S processes.py watch``: reads ``PID STARTTIME`` lines on its standard input (the
processes a Ray backend started for contack) and, when that input ends (contack closed it
or died), kills each of them still running, and what is below them. The start time (from
``/proc``) makes sure a process id reused since is left alone.

``python -I -S processes.py STATUS_FD LIFELINE_FD CWD -- ARGV...`` runs one external bot:

- it is a *child subreaper* (Linux ``prctl``), so whatever the bot starts and abandons,
  even a grandchild in a session of its own (``setsid``), is re-parented to the keeper,
  never to init, and the keeper can find it;
- it holds the read end of a *lifeline* pipe whose write end only contack holds: the
  pipe reads end-of-file the moment contack closes it or dies, however it dies;
- the bot gets a parent-death signal (SIGKILL), so it cannot outlive the keeper either.

When the bot exits, when the lifeline ends, or on SIGTERM, the keeper kills every process
below it (found through ``/proc``, in rounds until none is left, so one forking as it dies
is caught too), reports the bot's wait status on the status pipe and exits. The status
pipe says ``pid N`` once the bot runs and ``exit STATUS`` (a raw wait status) at the end.
Where ``/proc`` or ``prctl`` are missing (not Linux) it falls back to killing the bot's
process group.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: This script, for whoever starts a keeper.
KEEPER = os.path.abspath(__file__)


def prctl(option: int, value: int) -> bool:
    """Linux ``prctl(option, value)``; False where it is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def die_with_parent(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies (Linux only).

    Returns False where that cannot be arranged, and also when the parent is already
    gone (re-parented to init before the request took effect).
    """
    parent = os.getppid()
    return prctl(PR_SET_PDEATHSIG, sig) and os.getppid() == parent


def process_table() -> dict[int, int] | None:
    """Every process's parent, by process id, from ``/proc`` (None without it)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    parents = {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields and fields[0] not in (b"Z", b"X"):  # a zombie is dead already; its parent reaps it
            parents[int(name)] = int(fields[1])
    return parents


def descendants(root: int, parents: dict[int, int]) -> list[int]:
    """The processes below ``root``, parents before children."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found, frontier = [], [root]
    while frontier:
        below = [child for pid in frontier for child in children.get(pid, ())]
        found.extend(below)
        frontier = below
    return found


def reap() -> dict[int, int]:
    """Wait for every child that has ended (the bot, and orphans handed to this subreaper)."""
    ended: dict[int, int] = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended[pid] = status


def kill_everything_below(me: int, group: int, rounds: int = 50) -> dict[int, int]:
    """Kill every process below this one (and the bot's process group), until none is left."""
    ended: dict[int, int] = {}
    for _ in range(rounds):
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        parents = process_table()
        below = descendants(me, parents) if parents is not None else []
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.005 if below else 0)
        ended.update(reap())
        if not below:
            return ended
    return ended


def start_time(pid: int) -> int | None:
    """When a process started (clock ticks since boot, from ``/proc``), None if it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            fields = stream.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in (b"Z", b"X") else int(fields[19])


def watch(lines: list[str] | None = None) -> int:
    """Wait for standard input to end, then kill every listed process that is still the one listed."""
    listed = {}
    for line in lines if lines is not None else sys.stdin:
        pid, _, started = line.strip().partition(" ")
        if pid.isdigit() and started.isdigit():
            listed[int(pid)] = int(started)
    parents = process_table() or {}
    doomed = [pid for pid, started in listed.items() if start_time(pid) == started]
    doomed += [child for pid in doomed for child in descendants(pid, parents)]
    for pid in doomed:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return 0


def main(argv: list[str]) -> int:
    if argv[1:2] == ["watch"]:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        return watch()
    status_fd, lifeline_fd, cwd = int(argv[1]), int(argv[2]), argv[3]
    command = argv[5:]
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    stop = []
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup pipe hears of it
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is contack's to handle
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # so is a hang-up: the lifeline says when to go
    bot = os.fork()
    if bot == 0:  # the bot: its own process group, dies with the keeper, then becomes the program
        try:
            os.setpgid(0, 0)
            die_with_parent()
            for fd in (status_fd, lifeline_fd, wake_read, wake_write):
                os.close(fd)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            os.chdir(cwd)
            os.execvp(command[0], command)
        except OSError as error:
            os.write(2, f"contack: cannot run {command[0]}: {error.strerror or error}\n".encode())
        os._exit(127)
    # The bot's standard streams are its own now: the keeper lets go of them, so the bot's
    # output ends when the bot (and whatever it started with them) is gone.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    os.write(status_fd, f"pid {bot}\n".encode())
    me = os.getpid()
    status = None
    while status is None and not stop:
        ready, _, _ = select.select([lifeline_fd, wake_read], [], [], 1.0)
        if wake_read in ready:
            try:
                os.read(wake_read, 512)
            except BlockingIOError:
                pass
        if lifeline_fd in ready:  # contack closed the lifeline, or died: nothing of the bot may stay
            stop.append(True)
        status = reap().get(bot)
    ended = kill_everything_below(me, bot)
    status = status if status is not None else ended.get(bot, 0x9)  # 9: killed by SIGKILL, as a wait status
    try:
        os.write(status_fd, f"exit {status}\n".encode())
    except OSError:  # contack is gone: nobody to tell
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
