"""A tournament worker process: ``python -m tournaments.worker SOCKET_FD LIFELINE_FD`` (started by the pool).

It receives the plan, then batches of games, and sends each game back *as soon as it is
played* (its record written first), so the main process stores, counts and shows every
game as it finishes, and a worker that dies loses only the game it was playing.

It never outlives the main process: the kernel sends it SIGKILL when its parent dies
(Linux), and a thread blocked on the lifeline pipe (whose other end only the main holds)
exits the process the moment that pipe ends, on any system. It leaves Ctrl-C to the main
process (SIGINT ignored; the main stops it with SIGTERM). SIGTERM waits while a finished
game is being written and sent, so a game whose record is on disk always reaches the main,
and one stopped half-way leaves neither record nor row.
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

from players.keeper import die_with_parent
from tournaments.play import Outcome, Plan, game_row, play_one, warm_worker, write_record
from tournaments.schedule import GameSpec

#: Exit status of a worker whose main process went away.
ORPHANED = 70


def _watch_lifeline(fd: int) -> None:
    """Exit the process at once when the lifeline ends (the main process closed it or died)."""
    try:
        while os.read(fd, 64):
            pass
    except OSError:
        pass
    os._exit(ORPHANED)


class Termination:
    """SIGTERM ends the worker at once, except while a finished game is being written and sent:
    then it ends the worker right after. (Blocking the signal would not do: it would still
    reach, and end the process through, any other thread, a bot's included.)"""

    def __init__(self) -> None:
        self.committing = False
        self.asked = False
        signal.signal(signal.SIGTERM, self._handle)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.committing:
            self.asked = True
        else:
            os._exit(128 + signum)

    @contextmanager
    def held(self) -> Iterator[None]:
        self.committing = True
        try:
            yield
        finally:
            self.committing = False
            if self.asked:
                os._exit(128 + signal.SIGTERM)


def play_games(connection: Connection, plan: Plan, games: Sequence[GameSpec], watched: bool,
               termination: Termination) -> None:
    """Play ``games`` in order, sending each back as ``("game", row, outcome, cpu, record)``.

    ``watched``: a game that killed a worker, played again. Each bot call is announced
    first (``("watch", seat, method)``) and the record is written line by line, so if this
    worker dies too, the main knows whose call it died in and keeps the record so far.
    """
    for game in games:
        cpu = time.process_time()
        if watched and plan.records_dir is not None:
            partial = os.path.join(plan.records_dir, game.key + ".jsonl.tmp")
            with open(partial, "w", encoding="utf-8") as stream:
                result = play_one(plan, game, lambda seat, method: connection.send(("watch", seat, method)), stream)
            with termination.held():
                os.replace(partial, partial.removesuffix(".tmp"))
                _send_game(connection, plan, game, result, cpu, written=True)
            continue
        result = play_one(plan, game)
        with termination.held():
            if plan.records_dir is not None:
                write_record(plan.records_dir, game.key, result.record or "")
            _send_game(connection, plan, game, result, cpu, written=plan.records_dir is not None)


def _send_game(connection: Connection, plan: Plan, game: GameSpec, result: Any, cpu: float, written: bool) -> None:
    outcome = Outcome(result.deal_seed, result.seating, result.scores, result.ranks, result.status)
    connection.send(("game", game_row(plan, game, result), outcome, time.process_time() - cpu,
                     None if written else (result.record or "")))


def main(argv: list[str]) -> int:
    socket_fd, lifeline_fd = int(argv[1]), int(argv[2])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    termination = Termination()
    die_with_parent()  # where it cannot be arranged (not Linux), the lifeline below still ends this process
    threading.Thread(target=_watch_lifeline, args=(lifeline_fd,), daemon=True, name="lifeline").start()
    connection = Connection(socket.socket(fileno=socket_fd).detach())
    try:
        kind, plan = connection.recv()
        warm_worker(plan)
        connection.send(("ready", os.getpid()))
        while True:
            kind, games, watched = connection.recv()
            play_games(connection, plan, games, watched, termination)
            connection.send(("idle",))
    except (EOFError, OSError):  # the main closed the connection: nothing more to do
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
