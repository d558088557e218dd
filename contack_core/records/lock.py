"""One writer a record: an exclusive lock on the record file itself, naming its holder.

Two keepers carrying on one record would each append their own entries after what they last
read and corrupt the file; a game played with ``--force`` over a record being kept would
wipe it under the keeper. So whoever writes a record holds the kernel's lock (``flock``) on
the record's own open file: it ends with the process, however that ends (a SIGKILLed keeper
leaves no lock, and the next one takes it at once). A keeper's fix renames a new file over the
record: the keeper holds the new file before the rename, and the old one until it closes. Who holds it (process id, host, command,
since when) is written beside the record in ``RECORD.lock``, only so that a refused writer
can name the other one; that file is removed on a clean close, and one left by a kill means
nothing (it is overwritten by the next holder).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import IO, Any


class RecordInUse(Exception):
    """Another process is writing this record."""


def holder_path(record: Path) -> Path:
    """Where the holder of ``record``'s lock is named."""
    return record.with_name(record.name + ".lock")


def hold(stream: IO[Any], record: Path) -> None:
    """Take the lock on ``record`` through its open ``stream``, or raise :class:`RecordInUse` naming the holder."""
    try:
        import fcntl
    except ImportError:  # no flock on this system: one writer a record is left to the people
        return
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise RecordInUse(f"{record} is being written by {describe_holder(record)}: one writer a record "
                          f"(carry on there, or stop that one first)") from None
    try:  # never through a link planted at the holder's name
        descriptor = os.open(holder_path(record), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "w", encoding="utf-8") as named:
            named.write(holder_line())
    except OSError:
        pass  # the lock holds all the same; a refused writer then cannot name this one


def release(stream: IO[Any], record: Path) -> None:
    """Let go of ``record``: its holder's name removed, then the file closed (which ends the lock)."""
    if not stream.closed:
        try:
            holder = json.loads(holder_path(record).read_text(encoding="utf-8"))
            if holder.get("pid") == os.getpid():
                holder_path(record).unlink()
        except (OSError, ValueError, AttributeError):
            pass
        stream.close()


def holder_line() -> str:
    """Who holds a lock, as its holder writes it: this process, its host, command and start."""
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "command": sys.argv,
                       "since": time.strftime("%Y-%m-%d %H:%M:%S")}) + "\n"


def describe_holder_line(text: str) -> str:
    """A :func:`holder_line` in words: ``process 123 on host (`contack keep --resume r.jsonl`,
    since 2024-05-01 20:15:03)``."""
    try:
        holder: dict[str, Any] = json.loads(text)
        command = " ".join(os.path.basename(str(part)) if i == 0 else str(part)
                           for i, part in enumerate(holder.get("command") or []))
        return f"process {holder['pid']} on {holder['host']} (`{command}`, since {holder['since']})"
    except (ValueError, KeyError, TypeError):
        return "another process (it is starting up)"


def describe_holder(record: Path) -> str:
    """Who holds ``record``'s lock, in words (:func:`describe_holder_line`)."""
    try:
        return describe_holder_line(holder_path(record).read_text(encoding="utf-8"))
    except OSError:
        return describe_holder_line("")
