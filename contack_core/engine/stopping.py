"""Termination signals (SIGTERM, SIGHUP, SIGINT) as one exception, so a run stops cleanly.

By default SIGTERM and SIGHUP end Python at once: no ``finally`` runs, nothing is said,
and whatever the process was writing stops mid-way. Inside :func:`signals_stop`, each of
them raises :class:`Stopped` in the main thread instead, like Ctrl-C raises
KeyboardInterrupt. ``Stopped`` derives from BaseException (not Exception), so the referee,
which turns a bot's exceptions into faults, lets it through: a signal stops the game, it
is never blamed on the bot that happened to be moving.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

#: The signals that ask a process to stop.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(BaseException):
    """The process was asked to stop by a signal; ``exit_code`` is the shell's 128 + its number."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        self.exit_code = 128 + signum
        super().__init__(f"stopped by {self.name}")


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextmanager
def signals_stop() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP raise :class:`Stopped` (main thread only).

    A signal the process ignored when it started (SIGINT in a background job, SIGHUP under
    ``nohup``) stays ignored, as the user who started it asked.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if handler is signal.SIG_IGN:
            continue
        previous[signum] = handler
        signal.signal(signum, _raise_stopped)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
