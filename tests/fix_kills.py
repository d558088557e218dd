"""``contack keep`` killed (SIGKILL) at one step of the first fix it makes: ``python tests/fix_kills.py
MODE STEP KEEP-ARGS...``. Every write, sync, truncation and rename the keeper makes while fixing is
counted; the STEP-th is where the kill lands: just before it (``MODE`` ``before``), or in the middle of
it for a write, half its bytes written first (``torn``: what Linux does to a write whose process is
being killed, or a power cut to any write). Used by ``test_keeper_fix_kill.py``."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from contack_core import cli
from contack_core.records import keeper as keeping

MODE, STEP = sys.argv[1], int(sys.argv[2])
fixing = False
steps = 0


def step(write: Any = None, data: bytes = b"") -> None:
    """Count a step of a fix; at the chosen one, kill this process (a torn write: half of it first)."""
    global steps
    if not fixing:
        return
    steps += 1
    if steps == STEP:
        if MODE == "torn" and write is not None:
            write(data[:len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)


def counted(name: str) -> None:
    real = getattr(os, name)

    def call(*args: Any) -> Any:
        if name == "write":
            step(lambda part: real(args[0], part), bytes(args[1]))
        else:
            step()
        return real(*args)

    setattr(os, name, call)


class Stream:
    """The record's open file, its writes counted (they go through its buffer, not ``os.write``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def write(self, data: bytes) -> int:
        step(lambda part: (self.inner.write(part), self.inner.flush()), bytes(data))
        return self.inner.write(data)

    def truncate(self, *args: Any) -> int:
        step()
        return self.inner.truncate(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def main() -> None:
    global fixing
    real_fix, real_open = keeping.Keeper.fix, keeping.open_held

    def fix(self: keeping.Keeper, *args: Any, **kwargs: Any) -> Any:
        global fixing
        fixing = True
        try:
            return real_fix(self, *args, **kwargs)
        finally:
            fixing = False

    keeping.Keeper.fix = fix  # type: ignore[method-assign]
    keeping.open_held = lambda *args, **kwargs: Stream(real_open(*args, **kwargs))  # type: ignore[assignment]
    for name in ("write", "fsync", "replace", "ftruncate", "rename"):
        counted(name)
    sys.argv = ["contack", *sys.argv[3:]]
    cli.main()


if __name__ == "__main__":
    main()
