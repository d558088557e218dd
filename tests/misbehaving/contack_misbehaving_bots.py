"""Bots that misbehave in ways only a bot running inside contack's own process can: they take
their worker process down, or raise what a bot should never raise. Registered through this
folder's ``.dist-info`` (entry-point group ``contack.players``) for tests that put this folder
on PYTHONPATH; never installed."""

from __future__ import annotations

import ctypes
import os
import signal
from typing import Any

from contack_core.engine.bots import Parameter
from players.random_player import RandomPlayer


class Misbehaving(RandomPlayer):
    """Plays at random, and misbehaves on its third decision of every game it plays from
    seat ``seat`` (-1: from any seat)."""

    parameters = {"seat": Parameter("seat", int, -1, "misbehave only when playing from this seat (-1: any)")}

    def start_game(self, rules: Any, seat: int, seat_count: int) -> None:
        super().start_game(rules, seat, seat_count)
        self.seat, self.calls = seat, 0

    def choose(self, state: Any) -> Any:
        self.calls += 1
        if self.calls == 3 and self.params["seat"] in (-1, self.seat):
            self.misbehave()
        return super().choose(state)

    def misbehave(self) -> None:
        raise NotImplementedError


class Exiter(Misbehaving):
    name = "exiter"

    def misbehave(self) -> None:
        os._exit(3)


class Segfaulter(Misbehaving):
    name = "segfaulter"

    def misbehave(self) -> None:
        ctypes.string_at(0)  # reads address 0: SIGSEGV


class Interrupter(Misbehaving):
    name = "interrupter"

    def misbehave(self) -> None:
        raise KeyboardInterrupt


class Killer(Misbehaving):
    """What the kernel's out-of-memory killer does to a process: SIGKILL."""

    name = "killer"

    def misbehave(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)


class Brittle(RandomPlayer):
    """Cannot be built for a real game (any seed but 0, which is what a config check uses)."""

    name = "brittle"

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        if seed:
            raise RuntimeError("my weights file is missing")
        super().__init__(seed, **params)
