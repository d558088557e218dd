"""Running a tournament: the games not yet stored, in batches, on local processes or on Ray.

The main process schedules, hands batches to the backend and stores each batch as it
comes back; workers only play (:func:`tournaments.play.play_batch`). A batch is many
games, so the cost of shipping it (a pickle each way, or a Ray task) stays small next to
the games. At most a few batches per worker are in flight, so an interrupted run loses
little. Both backends run the same function on the same games, so they give the same
results for the same config.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Protocol

import attrs
from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from contack_core.primitives.loading import load_rules
from tournaments.config import TournamentConfig
from tournaments.live import LIVE_GAMES_PER_SECOND, LiveLeaderboard, LiveStanding
from tournaments.play import RECORDS_FOLDER, Plan, PlayedBatch, play_batch, warm_worker
from tournaments.schedule import GameSpec, schedule
from tournaments.store import Store

#: Batches in flight per worker: enough to keep every worker busy while the main stores.
IN_FLIGHT_PER_WORKER = 2
#: Bounds of a batch. A batch costs about a millisecond to ship and store, a random game
#: about three, so even the floor keeps shipping under 5%; above the ceiling (a fifth of a
#: second of random games) a kill loses more and the progress bar moves in jumps.
MIN_BATCH, MAX_BATCH = 8, 64


class RunError(ValueError):
    """A tournament that cannot run here (a backend that is not installed or not reachable)."""


class Backend(Protocol):
    workers: int

    def start(self, plan: Plan) -> None:
        """Start every worker and load the plan's rules there, so play time counts games only."""
        ...

    def run(self, plan: Plan, batches: Sequence[list[GameSpec]]) -> Iterator[PlayedBatch]:
        """Play the batches; yield each as it completes, in any order."""
        ...

    def close(self) -> None: ...


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _worker_id(pause: float) -> int:
    """Which worker ran this (after a pause, so that one fast worker cannot take every call)."""
    time.sleep(pause)
    return os.getpid()


def _start_local_worker(plan: Plan) -> None:
    """A pool worker leaves Ctrl-C to the main process, which stops the run cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_worker(plan)


class LocalBackend:
    """A pool of worker processes on this machine (spawned, so nothing of the parent leaks in)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.warm: set[int] = set()  # process ids of the workers that answered, warm, at the start

    def start(self, plan: Plan) -> None:
        self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=get_context("spawn"),
                                        initializer=_start_local_worker, initargs=(plan,))
        # Workers are spawned on demand: as many calls as workers, at once, spawn them all. A
        # worker answers only once warm, and a warm one could answer for a late one, so ask
        # until every worker has: the clock then starts with none still loading.
        self.warm = set()
        while len(self.warm) < self.workers:
            self.warm.update(future.result() for future in
                             [self.pool.submit(_worker_id, 0.02) for _ in range(self.workers)])

    def run(self, plan: Plan, batches: Sequence[list[GameSpec]]) -> Iterator[PlayedBatch]:
        if self.pool is None:
            self.start(plan)
        assert self.pool is not None
        queue = list(reversed(batches))
        running: dict[Future[PlayedBatch], list[GameSpec]] = {}
        try:
            while queue or running:
                while queue and len(running) < self.workers * IN_FLIGHT_PER_WORKER:
                    batch = queue.pop()
                    running[self.pool.submit(play_batch, plan, batch)] = batch
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    del running[future]
                    yield future.result()
        finally:
            for future in running:
                future.cancel()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


class RayBackend:
    """Batches as Ray tasks: a local Ray started here, or a cluster at ``address``."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise RunError("the ray backend needs Ray: pip install 'contack[ray]'") from None
        self.ray = ray
        os.environ.setdefault("RAY_DEDUP_LOGS", "0")
        try:
            if address:
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING,
                         log_to_driver=False)
        except Exception as error:  # Ray raises many kinds for "cannot connect"
            raise RunError(f"cannot start or reach Ray{' at ' + address if address else ''}: {error}") from None
        self.workers = int(ray.cluster_resources().get("CPU", workers)) if address else workers
        self.remote_batch = ray.remote(play_batch)

    def start(self, plan: Plan) -> None:
        warm = self.ray.remote(warm_worker)
        self.ray.get([warm.remote(plan) for _ in range(self.workers)])

    def run(self, plan: Plan, batches: Sequence[list[GameSpec]]) -> Iterator[PlayedBatch]:
        ray = self.ray
        plan_ref = ray.put(plan)
        queue = list(reversed(batches))
        running: dict[Any, list[GameSpec]] = {}
        try:
            while queue or running:
                while queue and len(running) < self.workers * IN_FLIGHT_PER_WORKER:
                    batch = queue.pop()
                    running[self.remote_batch.remote(plan_ref, batch)] = batch
                done, _ = ray.wait(list(running), num_returns=1)
                for ref in done:
                    del running[ref]
                    yield ray.get(ref)
        finally:
            for ref in running:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        self.ray.shutdown()


def check_backend(kind: str, address: str | None) -> None:
    if kind not in ("local", "ray"):
        raise RunError(f"unknown backend {kind!r} (backends: local, ray)")
    if kind == "local" and address:
        raise RunError("--address is for the ray backend")


def make_backend(kind: str, workers: int, address: str | None) -> Backend:
    check_backend(kind, address)
    return LocalBackend(workers) if kind == "local" else RayBackend(workers, address)


@attrs.frozen
class RunSummary:
    """What a run did: games in the schedule, skipped as already stored, played now, and how fast."""

    output: Path
    total: int
    skipped: int
    played: int
    seconds: float  # playing and storing, from the moment the backend was ready
    startup: float  # starting the backend (worker processes, or Ray)
    statuses: dict[str, int]
    #: CPU seconds of the playing: the workers' (games and records), and the main process's
    #: (storing rows, the progress bar, shipping batches). Unlike ``seconds``, these do not
    #: depend on what else the machine runs, so they show where time goes even when it is busy.
    worker_cpu: float = 0.0
    main_cpu: float = 0.0
    #: The live leaderboard's last standings, best first (empty in quiet mode, where it is off).
    live: tuple[LiveStanding, ...] = ()

    @property
    def games_per_s(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def make_plan(config: TournamentConfig, output: Path, workers_share_disk: bool = True) -> Plan:
    """What the workers get; ``workers_share_disk``: they write the records themselves."""
    records = (output / RECORDS_FOLDER).resolve()
    ruleset = config.ruleset
    if Path(ruleset).is_absolute():  # a ruleset file: records name it relative to themselves
        ruleset = os.path.relpath(ruleset, records)
    return Plan(config.ruleset, dict(config.options), tuple(e.name for e in config.entrants),
                tuple(e.spec() for e in config.entrants), ruleset, str(records) if workers_share_disk else None,
                config.budget, config.fault_policy)


def split(games: Sequence[GameSpec], workers: int) -> list[list[GameSpec]]:
    """Batches that shrink as the work runs out (guided scheduling).

    Each batch is an eighth of the remaining games per worker, within [MIN_BATCH, MAX_BATCH]:
    big batches while there is plenty to do, small ones at the end, so no worker waits long
    for another to finish the last batch.
    """
    batches, start = [], 0
    while start < len(games):
        size = max(MIN_BATCH, min(MAX_BATCH, (len(games) - start) // (workers * 8)))
        batches.append(list(games[start:start + size]))
        start += size
    return batches


def run_tournament(config: TournamentConfig, output: Path | None = None, workers: int | None = None,
                   backend: str = "local", address: str | None = None, quiet: bool = False,
                   console: Console | None = None, backend_instance: Backend | None = None,
                   live_games_per_second: float | None = LIVE_GAMES_PER_SECOND) -> RunSummary:
    """Play every game of the config not yet in the output folder's database.

    Unless ``quiet``, a progress bar and the live leaderboard (rating at most
    ``live_games_per_second`` games a second; None: all) follow the run.
    """
    check_backend(backend, address)
    output = output or config.output
    rules = load_rules(config.ruleset, dict(config.options))
    games = schedule(len(config.entrants), config.seats, config.deals, config.seed)
    with Store.create_or_resume(output, config.fingerprint_document(rules.digest())) as store:
        finished = store.finished_keys()
        pending = [game for game in games if game.key not in finished]
        plan = make_plan(config, output, workers_share_disk=not (backend == "ray" and address))
        statuses: Counter[str] = Counter()
        startup = seconds = main_cpu = worker_cpu = 0.0
        leaderboard = None if quiet else LiveLeaderboard(plan.names, live_games_per_second)
        if pending:
            start = time.perf_counter()
            engine = backend_instance or make_backend(backend, workers or available_cores(), address)
            try:
                engine.start(plan)
                ready, ready_cpu = time.perf_counter(), time.process_time()
                startup = ready - start
                batches = split(pending, engine.workers)
                worker_cpu = _play_all(engine, plan, batches, store, statuses, len(pending), leaderboard, quiet,
                                       console)
                seconds, main_cpu = time.perf_counter() - ready, time.process_time() - ready_cpu
            finally:
                if backend_instance is None:
                    engine.close()
    return RunSummary(output, len(games), len(games) - len(pending), sum(statuses.values()), seconds, startup,
                      dict(statuses), worker_cpu, main_cpu,
                      tuple(leaderboard.standings()) if leaderboard is not None else ())


def _play_all(engine: Backend, plan: Plan, batches: list[list[GameSpec]], store: Store, statuses: Counter[str],
              pending: int, leaderboard: LiveLeaderboard | None, quiet: bool, console: Console | None) -> float:
    """Store every batch as it arrives; returns the workers' CPU seconds.

    This loop runs on a core the workers need too, so it does the least it can per game:
    insert ready-made rows, count statuses. The bar redraws twice a second (rich's default
    ten times costs a few percent of a core, as much as storing the games).
    """
    progress = ProgressWithLeaderboard(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>7.1f} games/s"), TextColumn("ETA"), TimeRemainingColumn(),
        console=console or Console(stderr=True), disable=quiet, transient=False, refresh_per_second=2,
    )
    progress.leaderboard = leaderboard
    start = time.perf_counter()
    worker_cpu = 0.0
    done = 0
    with progress:
        task = progress.add_task("games", total=pending, rate=0.0)
        for batch in engine.run(plan, batches):
            store.save(batch)
            worker_cpu += batch.cpu_seconds
            statuses.update(outcome.status for outcome in batch.outcomes)
            if leaderboard is not None:
                leaderboard.add(batch.outcomes)
            done += len(batch.rows)
            progress.update(task, completed=done, rate=done / max(time.perf_counter() - start, 1e-9))
    return worker_cpu


class ProgressWithLeaderboard(Progress):
    """rich's progress bar with the live leaderboard (if any) drawn under it."""

    leaderboard: LiveLeaderboard | None = None

    def get_renderables(self) -> Iterable[RenderableType]:
        yield from super().get_renderables()
        if self.leaderboard is not None:
            yield self.leaderboard
