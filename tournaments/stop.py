"""A request to stop a run: Ctrl-C, SIGTERM or SIGHUP, or the run itself (a sequential test that has decided).

While a run is under way these signals only *ask* it to stop: the handler notes the signal
and wakes the run's wait loop through a pipe, and the loop stops at a point where nothing
is half-received or half-stored. (An exception raised wherever the signal lands could cut
a message from a worker in two.)
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

from contack_core.engine.stopping import STOP_SIGNALS


class StopRequest:
    """Turns stop signals into a flag and a readable ``wake_fd`` (a context manager)."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.reason: str | None = None
        self.wake_fd, self._wake_write = os.pipe()
        os.set_blocking(self.wake_fd, False)
        os.set_blocking(self._wake_write, False)
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.reason is not None

    @property
    def signal_name(self) -> str | None:
        return None if self.signum is None else signal.Signals(self.signum).name

    def request(self, reason: str, signum: int | None = None) -> None:
        """Ask the run to stop (from the run itself, or from a signal handler)."""
        if self.reason is None:
            self.reason, self.signum = reason, signum
        try:
            os.write(self._wake_write, b"!")
        except (BlockingIOError, OSError):
            pass

    def clear_wake(self) -> None:
        try:
            while os.read(self.wake_fd, 512):
                pass
        except (BlockingIOError, OSError):
            pass

    def _handle(self, signum: int, frame: Any) -> None:
        self.request(f"stopped by {signal.Signals(signum).name}", signum)

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                previous = signal.getsignal(signum)
                if previous is signal.SIG_IGN:  # ignored when we started (a background job, nohup): stays so
                    continue
                self._previous[signum] = previous
                signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()
        for fd in (self.wake_fd, self._wake_write):
            try:
                os.close(fd)
            except OSError:
                pass
