"""One run at a time on a results folder: an exclusive lock on ``run.lock``, naming its holder.

Two runs on one folder would each play the whole schedule and race to store it. The lock
is the kernel's (``flock``), so it ends with the process that holds it, however that
process ends: a run killed with SIGKILL leaves the file behind but not the lock, and the
next run takes it at once. The file says who holds it (process id, host, command, since
when) so a refused run can name the other one.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import IO

from contack_core.records.lock import describe_holder_line, holder_line

LOCK_NAME = "run.lock"


class FolderInUse(RuntimeError):
    """Another process is running a tournament in this folder."""


class LockIsLink(RuntimeError):
    """The folder's lock (or another file a run writes) is a symbolic link: never followed."""


def open_no_link(path: str | Path, for_lock: bool = False) -> IO[str]:
    """A file a run writes in its folder, opened without following a symbolic link: a link
    planted there (``run.lock -> /etc/passwd``) would have the run truncate its target.

    ``for_lock``: the lock file, opened for reading and writing as it is (a link raises
    :class:`LockIsLink`). Otherwise a file written afresh (a record's ``.tmp``): whatever is
    at the path, a link included, is removed first (never its target), and the file created anew.
    """
    flags = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_CREAT
    if for_lock:
        try:
            descriptor = os.open(path, flags | os.O_RDWR, 0o644)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise LockIsLink(f"{path} is a symbolic link: a run follows none in its folder (it would "
                                 f"truncate the file it points to); remove the link, or use another --output") from None
            raise
        return os.fdopen(descriptor, "r+", encoding="utf-8")
    try:
        os.unlink(path)  # a link is removed itself, never what it points to
    except FileNotFoundError:
        pass
    return os.fdopen(os.open(path, flags | os.O_WRONLY | os.O_EXCL, 0o644), "w", encoding="utf-8")


def write_whole(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: under a temporary name opened without following a link
    (:func:`open_no_link`), synced to the disk, then renamed into place, so the file is either
    the old one or all of the new one. On failure the temporary file is removed and the
    :class:`OSError` raised."""
    temporary = f"{path}.tmp"
    try:
        with open_no_link(temporary) as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


class RunLock:
    """Held while a run uses a results folder (a context manager)."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self.stream: IO[str] | None = None

    def acquire(self) -> RunLock:
        """Take the lock, or raise :class:`FolderInUse` naming the process that holds it."""
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        stream = open_no_link(self.path, for_lock=True)
        try:
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            stream.seek(0)
            holder = describe_holder_line(stream.read())
            stream.close()
            raise FolderInUse(f"{self.path.parent} is in use by {holder}; one run at a time on a results "
                              f"folder (wait for it, stop it, or use another --output)") from None
        stream.seek(0)
        stream.truncate()
        stream.write(holder_line())
        stream.flush()
        self.stream = stream
        return self

    def release(self) -> None:
        if self.stream is not None:
            self.stream.close()  # closing the file releases the lock
            self.stream = None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc_info: object) -> None:
        self.release()
