"""The local backend: worker processes of our own, each game reported as it finishes, a dead worker replaced.

Why not ``concurrent.futures``: its process pool turns the death of one worker (a bot's
``os._exit``, a segfault, the kernel's out-of-memory killer) into BrokenProcessPool for
every game in flight and cannot be used again; its workers outlive a main process killed
with SIGKILL; and results come back only per batch. Here each worker
(:mod:`tournaments.worker`) talks to the main process over a socket of its own, sends
every game as soon as it is played, and dies with the main process (a parent-death signal
and a lifeline pipe). When a worker dies, the main process:

1. starts a fresh worker in its place, and hands the rest of the lost batch out again;
2. plays the game that was in flight once more, alone, on a *watched* worker that
   announces every bot call before making it and writes the record line by line;
3. if that worker dies too, stores the game as forfeited by the bot whose call it died in
   (fault kind ``crashed``, with the record up to that point and the fault line), or as an
   ``error`` if it died outside any bot's call; if it does not, the game is stored as played.

So a bot that kills its process costs one game, and a rerun finishes: the game is stored.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

import attrs

from tournaments.play import (
    ERROR,
    FORFEIT,
    GameResult,
    Outcome,
    Plan,
    PlayedBatch,
    Row,
    forfeit_ranks,
    game_row,
    record_header,
)
from tournaments.lock import open_no_link
from tournaments.schedule import GameSpec
from tournaments.stop import StopRequest

#: Workers that die before they are ready, in a row, before the run gives up on starting them.
START_FAILURES = 3
#: Seconds stopped workers have to send the games they finished before they are killed.
STOP_GRACE = 1.0


class WorkerStartError(RuntimeError):
    """Worker processes die as they start (a broken installation, a bot that kills its importer)."""


@attrs.define(eq=False)
class Worker:
    """One worker process as the main process sees it."""

    process: subprocess.Popen[bytes]
    connection: Connection
    lifeline: int  # the write end of the worker's lifeline pipe; closing it ends the worker
    ready: bool = False
    games: list[GameSpec] = attrs.Factory(list)  # the batch in hand ([] when idle)
    done: int = 0  # how many games of it came back
    watched: bool = False
    call: tuple[int | None, str | None] = (None, None)  # the bot call under way (watched workers)

    def release(self) -> None:
        """Close the main's ends of the connection and the lifeline (the worker then exits)."""
        self.connection.close()
        if self.lifeline >= 0:
            os.close(self.lifeline)
            self.lifeline = -1


def spawn_worker(plan: Plan) -> Worker:
    """Start one worker process and send it the plan (it answers "ready" once warm)."""
    ours, theirs = socket.socketpair()
    lifeline_read, lifeline_write = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tournaments.worker", str(theirs.fileno()), str(lifeline_read)],
            pass_fds=(theirs.fileno(), lifeline_read), stdin=subprocess.DEVNULL,
            start_new_session=True,  # out of the terminal's process group: Ctrl-C is the main's to handle
        )
    finally:
        theirs.close()
        os.close(lifeline_read)
    worker = Worker(process, Connection(ours.detach()), lifeline_write)
    worker.connection.send(("plan", plan))
    return worker


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "stopped answering"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with code {returncode}"


class LocalBackend:
    """A pool of worker processes on this machine."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: list[Worker] = []
        self.warm: set[int] = set()  # process ids of the workers that answered, warm, at the start
        self.plan: Plan | None = None
        self.start_failures = 0
        self.crashes = 0  # workers lost while playing

    # ----------------------------------------------------------------- starting and stopping
    def start(self, plan: Plan) -> None:
        """Start every worker and wait until each has loaded the plan's rules."""
        self.plan = plan
        self.pool = [spawn_worker(plan) for _ in range(self.workers)]
        for worker in list(self.pool):
            self._await_ready(worker)

    def _await_ready(self, worker: Worker) -> None:
        while not worker.ready:
            try:
                message = worker.connection.recv()
            except (EOFError, OSError):
                worker = self._replace(worker)  # raises WorkerStartError after too many
                continue
            self._take(worker, message, [])

    def _replace(self, worker: Worker) -> Worker:
        """Bury a dead worker and start another in its place."""
        assert self.plan is not None
        returncode = worker.process.wait()
        worker.release()
        if not worker.ready:
            self.start_failures += 1
            if self.start_failures >= START_FAILURES:
                raise WorkerStartError(f"worker processes die as they start (the last {describe_exit(returncode)})")
        fresh = spawn_worker(self.plan)
        self.pool[self.pool.index(worker)] = fresh
        return fresh

    def close(self) -> None:
        """End every worker: cut their lifelines, then kill any that lingers."""
        for worker in self.pool:
            worker.release()
        deadline = time.monotonic() + 2.0
        for worker in self.pool:
            try:
                worker.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
        self.pool = []

    # ----------------------------------------------------------------- playing
    def run(self, plan: Plan, batches: Iterator[list[GameSpec]], stop: StopRequest) -> Iterator[PlayedBatch]:
        """Play the batches; yield the games as they come back (several at once when they arrive together).

        Returns when every game is played, or at once when ``stop`` is requested: the
        workers are then stopped, and the games they had finished are yielded first.
        """
        if not self.pool:
            self.start(plan)
        retries: collections.deque[tuple[list[GameSpec], bool]] = collections.deque()
        source = iter(batches)
        exhausted = False
        while True:
            if stop.requested:
                yield from self._stop()
                return
            for worker in self.pool:
                if worker.ready and not worker.games:
                    job = retries.popleft() if retries else None
                    if job is None and not exhausted:
                        job = (next(source, None), False)
                        exhausted = job[0] is None
                    if job is None or job[0] is None:
                        continue
                    worker.games, worker.done, worker.watched = job[0], 0, job[1]
                    worker.connection.send(("batch", worker.games, worker.watched))
            if exhausted and not retries and not any(worker.games for worker in self.pool):
                return
            arrived: list[tuple[Row, Outcome, float]] = []
            connections = {worker.connection: worker for worker in self.pool}
            for ready in wait([*connections, stop.wake_fd], timeout=1.0):
                if ready == stop.wake_fd:
                    stop.clear_wake()
                    continue
                worker = connections[ready]  # type: ignore[index]
                try:
                    while worker.connection.poll():
                        self._take(worker, worker.connection.recv(), arrived)
                except (EOFError, OSError):
                    arrived.extend(self._lost(worker, retries))
            if arrived:
                yield _batch(arrived)

    def _take(self, worker: Worker, message: tuple[Any, ...], arrived: list[tuple[Row, Outcome, float]]) -> None:
        kind = message[0]
        if kind == "games":
            for row, outcome, cpu, _record in message[1]:
                arrived.append((row, outcome, cpu))
            worker.done += len(message[1])
        elif kind == "watch":
            worker.call = (message[1], message[2])
        elif kind == "idle":
            worker.games, worker.done, worker.watched = [], 0, False
        elif kind == "ready":
            worker.ready = True
            self.warm.add(message[1])
            self.start_failures = 0

    def _lost(self, worker: Worker, retries: collections.deque[tuple[list[GameSpec], bool]]
              ) -> list[tuple[Row, Outcome, float]]:
        """A worker died: replace it, hand its games out again, and settle the game it died in."""
        games, done, watched, call = worker.games, worker.done, worker.watched, worker.call
        self._replace(worker)
        how = describe_exit(worker.process.returncode)
        remaining = games[done:]
        if not remaining:
            return []
        self.crashes += 1
        culprit, rest = remaining[0], remaining[1:]
        if rest:
            retries.appendleft((rest, False))
        if not watched:
            retries.appendleft(([culprit], True))  # once more, watched, to learn whose call kills it
            return []
        assert self.plan is not None
        row, outcome = crashed_game(self.plan, culprit, call, how)
        return [(row, outcome, 0.0)]

    def _stop(self) -> Iterator[PlayedBatch]:
        """Stop every worker (SIGTERM), keep what they had finished, kill what lingers."""
        for worker in self.pool:
            if worker.process.poll() is None:
                worker.process.send_signal(signal.SIGTERM)
        arrived: list[tuple[Row, Outcome, float]] = []
        open_ = {worker.connection: worker for worker in self.pool}
        deadline = time.monotonic() + STOP_GRACE
        while open_ and time.monotonic() < deadline:
            for ready in wait(list(open_), timeout=max(0.0, deadline - time.monotonic())):
                worker = open_[ready]  # type: ignore[index]
                try:
                    while worker.connection.poll():
                        self._take(worker, worker.connection.recv(), arrived)
                except (EOFError, OSError):
                    del open_[ready]  # type: ignore[arg-type]
        for worker in self.pool:
            if worker.process.poll() is None:
                worker.process.kill()
        if arrived:
            yield _batch(arrived)


def _batch(arrived: list[tuple[Row, Outcome, float]]) -> PlayedBatch:
    return PlayedBatch([row for row, _, _ in arrived], [outcome for _, outcome, _ in arrived],
                       sum(cpu for _, _, cpu in arrived))


def crashed_game(plan: Plan, game: GameSpec, call: tuple[int | None, str | None], how: str) -> tuple[Row, Outcome]:
    """The row of a game that killed its worker twice, and its record: what was played, then the fault.

    Killed in a bot's call, the game is that bot's forfeit (fault kind ``crashed``);
    killed anywhere else, it is an ``error``.
    """
    seat, method = call
    assert plan.records_dir is not None
    path = os.path.join(plan.records_dir, game.key + ".jsonl")
    names = [plan.names[entrant] for entrant in game.seating]
    specs = [plan.specs[entrant] for entrant in game.seating]
    try:
        with open(path + ".tmp", encoding="utf-8") as stream:
            lines = [line for line in stream.read().splitlines(keepends=True) if line.endswith("\n")]
    except OSError:
        lines = []
    if not lines:
        header = {"record": "contack-record/1", **record_header(plan, names, specs, game.deal_seed)}
        lines = [json.dumps(header, ensure_ascii=False) + "\n"]
    if seat is not None:
        reason = (f"the worker process {how} in {names[seat]}'s {method} ({specs[seat]}); played again on a "
                  f"fresh worker, it died the same way")
        fault = {"seat": seat, "kind": "crashed", "reason": reason, "penalty": "forfeit"}
        lines.append(json.dumps({"event": "fault", **fault}, ensure_ascii=False) + "\n")
        result = GameResult(game.deal_seed, game.seating, None, forfeit_ranks(len(game.seating), seat), 0.0,
                            FORFEIT, (fault,), None)
    else:
        reason = f"the worker process {how} outside any bot's call, twice"
        result = GameResult(game.deal_seed, game.seating, None, None, 0.0, ERROR,
                            ({"seat": None, "kind": "error", "reason": reason},), None)
    with open_no_link(path + ".tmp") as stream:
        stream.writelines(lines)
    os.replace(path + ".tmp", path)
    return game_row(plan, game, result), Outcome(result.deal_seed, result.seating, result.scores, result.ranks,
                                                 result.status)
