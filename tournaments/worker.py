"""A tournament worker process: ``python -m tournaments.worker SOCKET_FD LIFELINE_FD`` (started by the pool).

It receives the plan, then batches of games, and sends the games back as they are played
(each record written first; fast games a few at a time, a slow game alone as soon as it
ends), so the main process stores, counts and shows games as they finish, and a worker
that dies loses little more than the game it was playing.

It never outlives the main process: the kernel sends it SIGKILL when its parent dies
(Linux), and a thread blocked on the lifeline pipe (whose other end only the main holds)
exits the process the moment that pipe ends, on any system. It leaves Ctrl-C to the main
process (SIGINT ignored; the main stops it with SIGTERM, and every finished game is sent
before it goes), so a game whose record is on disk always reaches the main, and one
stopped half-way leaves neither record nor row.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from contack_core.processes import die_with_parent
from tournaments.lock import open_no_link
from tournaments.play import Outcome, Plan, StorageFailure, game_row, play_one, warm_worker, write_record
from tournaments.schedule import GameSpec

#: Exit status of a worker whose main process went away.
ORPHANED = 70
#: Seconds finished games may wait to be sent together.
FLUSH_EVERY = 0.02


def _watch_lifeline(fd: int) -> None:
    """Exit the process at once when the lifeline ends (the main process closed it or died)."""
    try:
        while os.read(fd, 64):
            pass
    except OSError:
        pass
    os._exit(ORPHANED)


class Outbox:
    """Finished games on their way to the main process, and the worker's answer to SIGTERM.

    Games that finish fast are sent together, at most FLUSH_EVERY seconds after the last
    sending (a game of slow bots goes alone, as soon as it ends): the main process then
    handles one message for many games. SIGTERM (the main stopping the run) sends what waits
    and ends the worker; while a message is being written, or a game's record and row are
    being set aside, it waits for that to end. (Blocking the signal would not do: it would
    still reach, and end the process through, any other thread, a bot's included.)
    """

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.waiting: list[tuple[Any, ...]] = []
        self.last = time.monotonic()
        self.busy = False
        self.asked = False
        signal.signal(signal.SIGTERM, self._terminate)

    def _terminate(self, signum: int, frame: Any) -> None:
        if self.busy:
            self.asked = True
            return
        self.busy = True
        try:
            self._flush()
        finally:
            os._exit(128 + signum)

    @contextmanager
    def held(self) -> Iterator[None]:
        """SIGTERM waits until the block is over."""
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
            if self.asked:
                self._terminate(signal.SIGTERM, None)

    def send(self, message: tuple[Any, ...]) -> None:
        with self.held():
            self.connection.send(message)

    def add(self, game: tuple[Any, ...], now: bool = False) -> None:
        """Set a finished game aside (call within :meth:`held`); send what waits if it is time."""
        self.waiting.append(game)
        if now or time.monotonic() - self.last >= FLUSH_EVERY:
            self._flush()

    def flush(self) -> None:
        with self.held():
            self._flush()

    def add_failure(self, message: str) -> None:
        """Send what waits, then the storage failure that stops this batch (call within :meth:`held`)."""
        self._flush()
        self.connection.send(("storage", message))

    def _flush(self) -> None:
        if self.waiting:
            self.connection.send(("games", self.waiting))
            self.waiting = []
        self.last = time.monotonic()


def play_games(outbox: Outbox, plan: Plan, games: Sequence[GameSpec], watched: bool) -> None:
    """Play ``games`` in order, sending each back (``(row, outcome, cpu, record)`` in a ``"games"`` message).

    ``watched``: a game that killed a worker, played again. Each bot call is announced
    first (``("watch", seat, method)``) and the record is written line by line, so if this
    worker dies too, the main knows whose call it died in and keeps the record so far.
    """
    for game in games:
        cpu = time.process_time()
        if watched and plan.records_dir is not None:
            partial = os.path.join(plan.records_dir, game.key + ".jsonl.tmp")
            try:
                with open_no_link(partial) as stream:
                    result = play_one(plan, game, lambda seat, method: outbox.send(("watch", seat, method)),
                                      stream)
                    stream.flush()
                    os.fsync(stream.fileno())
                with open(partial, "rb") as stream:
                    written = stream.read()
            except OSError as error:
                outbox.send(("storage", f"cannot write the record {partial}: {error.strerror or error}"))
                return
            with outbox.held():
                os.replace(partial, partial.removesuffix(".tmp"))
                outbox.add(_finished(plan, game, result, cpu, True, written), now=True)
            continue
        result = play_one(plan, game)
        with outbox.held():
            if plan.records_dir is not None:
                try:
                    write_record(plan.records_dir, game.key, result.record or "")
                except StorageFailure as failure:  # the main stops the run, saying so; the games sent stand
                    outbox.add_failure(str(failure))
                    return
            outbox.add(_finished(plan, game, result, cpu, plan.records_dir is not None, result.record or ""))
    outbox.flush()


def _finished(plan: Plan, game: GameSpec, result: Any, cpu: float, written: bool,
              record: str | bytes) -> tuple[Any, ...]:
    outcome = Outcome(result.deal_seed, result.seating, result.scores, result.ranks, result.status)
    return (game_row(plan, game, result, record), outcome, time.process_time() - cpu,
            None if written else (result.record or ""))


def main(argv: list[str]) -> int:
    socket_fd, lifeline_fd = int(argv[1]), int(argv[2])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    die_with_parent()  # where it cannot be arranged (not Linux), the lifeline below still ends this process
    threading.Thread(target=_watch_lifeline, args=(lifeline_fd,), daemon=True, name="lifeline").start()
    connection = Connection(socket.socket(fileno=socket_fd).detach())
    outbox = Outbox(connection)
    try:
        kind, plan = connection.recv()
        warm_worker(plan)
        outbox.send(("ready", os.getpid()))
        while True:
            kind, games, watched = connection.recv()
            play_games(outbox, plan, games, watched)
            outbox.send(("idle",))
    except (EOFError, OSError):  # the main closed the connection: nothing more to do
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
