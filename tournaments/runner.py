"""Running a tournament: the games not yet stored, in batches, on local processes or on Ray.

The main process schedules, hands batches to the backend and stores each game as it comes
back; workers only play (:func:`tournaments.play.play_batch`, :mod:`tournaments.worker`).
The local backend (:mod:`tournaments.pool`) reports every game as it finishes and survives
the death of a worker; Ray returns whole batches. Both run the same function on the same
games, so they give the same results for the same config.

A run stops cleanly on Ctrl-C, SIGTERM or SIGHUP (:mod:`tournaments.stop`): every game
already played is stored, the workers are stopped, and the summary says how many games are
done and the command that resumes. One run at a time may use a results folder
(:mod:`tournaments.lock`).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

import attrs
from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
from rich.text import Text

from contack_core.extras import installed
from contack_core.primitives.loading import load_rules
from contack_core.processes import KEEPER, descendants, process_table, start_time
from tournaments.config import TournamentConfig
from tournaments.live import LIVE_GAMES_PER_SECOND, LiveLeaderboard, LiveStanding
from tournaments.lock import FolderInUse, LockIsLink, RunLock
from tournaments.play import (
    ERROR,
    OK,
    RECORDS_FOLDER,
    GameResult,
    Outcome,
    Plan,
    PlayedBatch,
    StorageFailure,
    game_row,
    play_batch,
    record_header,
    warm_worker,
    write_record,
)
from tournaments.pool import LocalBackend, WorkerStartError
from tournaments.schedule import GameSpec, games_per_deal, iter_schedule
from tournaments.render import shown
from tournaments.stop import StopRequest
from tournaments.store import Store

#: Batches in flight per worker on Ray: enough to keep every worker busy while the main stores.
IN_FLIGHT_PER_WORKER = 2
#: Bounds of a batch. A batch costs about a millisecond to ship, a random game about three,
#: so even the floor keeps shipping under 5%; above the ceiling (a fifth of a second of
#: random games) the last batches keep one worker busy while the others wait.
MIN_BATCH, MAX_BATCH = 8, 64
#: Seconds between the main process's transactions: games that arrive meanwhile are stored
#: together (and before the run stops, however it stops short of SIGKILL).
SAVE_EVERY = 0.1


class RunError(ValueError):
    """A tournament that cannot run here (a backend that is not installed or not reachable, a folder in use)."""


RAY_MISSING = "the ray backend needs Ray: pip install 'contack[ray]'"


class Backend(Protocol):
    workers: int

    def start(self, plan: Plan) -> None:
        """Start every worker and load the plan's rules there, so play time counts games only."""
        ...

    def run(self, plan: Plan, batches: Iterator[list[GameSpec]], stop: StopRequest) -> Iterator[PlayedBatch]:
        """Play the batches; yield games as they complete, in any order; return early once ``stop`` is requested."""
        ...

    def close(self) -> None: ...


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Watchdog:
    """A keeper (``contack_core/processes.py watch``) told of every process below this one: if this process
    dies, however it dies, the keeper kills them. A local Ray's processes need it: some of them
    (its agents) otherwise outlive a driver killed with SIGKILL by a minute or more."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-I", "-S", KEEPER, "watch"], stdin=subprocess.PIPE,
                                        start_new_session=True)
        self.told: set[tuple[int, int]] = set()
        self.last = 0.0

    def tell(self, every: float = 0.0) -> None:
        """Tell the keeper of the processes below this one it has not heard of (at most every ``every`` s)."""
        now = time.monotonic()
        if now - self.last < every or self.process.stdin is None:
            return
        self.last = now
        parents = process_table() or {}
        found = {(pid, started) for pid in descendants(os.getpid(), parents) if pid != self.process.pid
                 if (started := start_time(pid)) is not None}
        fresh = found - self.told
        if fresh:
            self.process.stdin.write("".join(f"{pid} {started}\n" for pid, started in fresh).encode())
            self.process.stdin.flush()
            self.told |= fresh

    def close(self) -> None:
        """End the keeper's input: it kills whatever of the listed processes is left."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def last_line(error: BaseException, width: int = 300) -> str:
    """What ``error`` says, on one line: the last line of its text (Ray's messages can carry a
    whole traceback from its processes), cut to ``width``."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    said = lines[-1] if lines else type(error).__name__
    return said if len(said) <= width else said[: width - 3] + "..."


class RayBackend:
    """Batches as Ray tasks: a local Ray started here, or a cluster at ``address``."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise RunError(RAY_MISSING) from None
        self.ray = ray
        os.environ.setdefault("RAY_DEDUP_LOGS", "0")
        self.watchdog = None if address else Watchdog()
        try:
            if address:
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING,
                         log_to_driver=False)
        except Exception as error:  # Ray raises many kinds for "cannot connect"
            self._close_watchdog()
            raise RunError(f"cannot start or reach Ray{' at ' + address if address else ''}: "
                           f"{last_line(error)}") from None
        self._tell_watchdog()
        self.workers = int(ray.cluster_resources().get("CPU", workers)) if address else workers
        # No retries: a task whose worker died is settled here, game by game.
        self.remote_batch = ray.remote(max_retries=0)(play_batch)
        #: (records folder, game key) of the games in tasks cancelled when the run stopped.
        self.abandoned: list[tuple[str | None, str]] = []

    def start(self, plan: Plan) -> None:
        warm = self.ray.remote(warm_worker)
        self.ray.get([warm.remote(plan) for _ in range(self.workers)])
        self._tell_watchdog()

    def _tell_watchdog(self, every: float = 0.0) -> None:
        if self.watchdog is not None:
            self.watchdog.tell(every)

    def _close_watchdog(self) -> None:
        if self.watchdog is not None:
            self.watchdog.close()
            self.watchdog = None

    def run(self, plan: Plan, batches: Iterator[list[GameSpec]], stop: StopRequest) -> Iterator[PlayedBatch]:
        ray = self.ray
        plan_ref = ray.put(plan)
        source = iter(batches)
        retries: list[list[GameSpec]] = []
        running: dict[Any, list[GameSpec]] = {}
        try:
            while True:
                while len(running) < self.workers * IN_FLIGHT_PER_WORKER:
                    batch = retries.pop() if retries else next(source, None)
                    if batch is None:
                        break
                    running[self.remote_batch.remote(plan_ref, batch)] = batch
                if not running or stop.requested:
                    return
                done, _ = ray.wait(list(running), num_returns=1, timeout=0.25)
                self._tell_watchdog(every=2.0)  # Ray may start workers as it goes
                for ref in done:
                    batch = running.pop(ref)
                    try:
                        yield ray.get(ref)
                    except Exception as error:  # the task's worker died (a bot killed it), or its disk failed
                        failure = storage_failure(error)
                        if failure is not None:  # not the game's fault: the run stops, saying so once
                            # The records the task wrote before it failed have no row: they go too.
                            self.abandoned_batch(plan, batch)
                            raise failure from None
                        if len(batch) > 1:  # play its games one by one, to find the one that kills
                            retries.extend([game] for game in reversed(batch))
                        else:
                            yield lost_on_ray(plan, batch[0], error)
        finally:
            for ref in running:
                ray.cancel(ref, force=True)
            self.abandoned += [(plan.records_dir, game.key) for batch in running.values() for game in batch]

    def abandoned_batch(self, plan: Plan, batch: list[GameSpec]) -> None:
        """Note a batch whose rows never came back: :meth:`close` removes whatever records it wrote."""
        self.abandoned += [(plan.records_dir, game.key) for game in batch]

    def close(self) -> None:
        try:
            if self.watchdog is not None:  # a Ray started here
                end_autoscaler()
            self.ray.shutdown()
        finally:
            self._close_watchdog()
        # A task cancelled on a stop may have written its records before it was killed; their
        # rows never came back, so the records go (a resumed run plays those games again).
        for records_dir, key in self.abandoned:
            if records_dir is not None:
                for suffix in (".jsonl", ".jsonl.tmp"):
                    Path(records_dir, key + suffix).unlink(missing_ok=True)


#: What a local Ray's autoscaler monitor runs (``ray/autoscaler/_private/monitor.py``).
AUTOSCALER_SCRIPT = os.path.join("autoscaler", "_private", "monitor.py")


def end_autoscaler() -> None:
    """Kill the autoscaler monitor of the Ray this process started, before ``ray.shutdown``.

    A Ray of a fixed number of local workers has nothing to autoscale, and Ray's shutdown stops its
    control store (GCS) before the monitor, so the monitor, asked to stop, spends its whole second
    of grace trying to report to the store before it is killed: a second of every Ctrl-C (measured
    with Ray 2.60: shutdown 1.4 s with the monitor, 0.4 s without). Where there is no ``/proc``, or
    the monitor is not found, shutdown only takes that second longer."""
    parents = process_table() or {}
    for pid, parent in parents.items():
        if parent != os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as stream:
                command = stream.read().split(b"\0")
            if any(part.decode(errors="replace").endswith(AUTOSCALER_SCRIPT) for part in command):
                os.kill(pid, signal.SIGKILL)
        except OSError:
            continue


def check_backend(kind: str, address: str | None) -> None:
    """RunError for a backend that cannot run here, before a run makes its folder or shows its schedule."""
    if kind not in ("local", "ray"):
        raise RunError(f"unknown backend {kind!r} (backends: local, ray)")
    if kind == "local" and address:
        raise RunError("--address is for the ray backend")
    if kind == "ray" and not installed("ray"):
        raise RunError(RAY_MISSING)


def make_backend(kind: str, workers: int, address: str | None) -> Backend:
    check_backend(kind, address)
    return LocalBackend(workers) if kind == "local" else RayBackend(workers, address)


@attrs.define
class Tally:
    """Every game of a run accounted for: statuses, and each bot's faults with an example game."""

    names: tuple[str, ...]
    statuses: Counter[str] = attrs.Factory(Counter)
    #: entrant -> fault kind -> count
    faults: dict[str, Counter[str]] = attrs.Factory(dict)
    #: (entrant or "(engine)", kind) -> (the first game's key, its reason)
    examples: dict[tuple[str, str], tuple[str, str]] = attrs.Factory(dict)

    def add(self, rows: Iterable[tuple[Any, ...]]) -> None:
        for row in rows:
            status = row[10]
            self.statuses[status] += 1
            if status == OK:
                continue
            seating = json.loads(row[5])
            for fault in json.loads(row[11]):
                seat, kind = fault.get("seat"), str(fault.get("kind", "fault"))
                who = "(engine)" if seat is None else self.names[seating[seat]]
                self.faults.setdefault(who, Counter())[kind] += 1
                self.examples.setdefault((who, kind), (row[0], str(fault.get("reason", ""))))

    def lines(self) -> list[str]:
        """One line per bot with faults (and one for errors nobody's seat caused): counts and an example."""
        out = []
        for who, kinds in sorted(self.faults.items()):
            counted = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
            kind = max(kinds, key=lambda k: kinds[k])
            key, reason = self.examples[(who, kind)]
            out.append(f"  {who}: {counted} (e.g. game {key}: {reason[:160]})")
        return out


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
    #: Each bot's faults this run, one line each, with an example game.
    fault_lines: tuple[str, ...] = ()
    #: Why the run stopped before the end ("stopped by SIGINT"), None if it played every game.
    stopped: str | None = None
    stop_signal: int | None = None
    #: How the config grew the stored tournament, if it did.
    grown: tuple[str, ...] = ()
    #: Worker processes lost (and replaced) while playing.
    crashes: int = 0
    #: Stored games whose record was missing or damaged, played again: "KEY (what was wrong)".
    replayed: tuple[str, ...] = ()

    @property
    def games_per_s(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    @property
    def done(self) -> int:
        return self.skipped + self.played


def make_plan(config: TournamentConfig, output: Path, workers_share_disk: bool = True) -> Plan:
    """What the workers get; ``workers_share_disk``: they write the records themselves."""
    records = (output / RECORDS_FOLDER).resolve()
    ruleset = config.ruleset
    if Path(ruleset).is_absolute():  # a ruleset file: records name it relative to themselves
        ruleset = os.path.relpath(ruleset, records)
    return Plan(config.ruleset, dict(config.options), tuple(e.name for e in config.entrants),
                tuple(e.spec() for e in config.entrants), ruleset, str(records) if workers_share_disk else None,
                config.budget, config.fault_policy, config.workdir, config.measure, config.opening)


def split(games: Iterable[GameSpec], count: int, workers: int) -> Iterator[list[GameSpec]]:
    """Batches of ``count`` games that shrink as the work runs out (guided scheduling), made as consumed.

    Each batch is an eighth of the remaining games per worker, within [MIN_BATCH, MAX_BATCH]:
    big batches while there is plenty to do, small ones at the end, so no worker waits long
    for another to finish the last batch.
    """
    source = iter(games)
    remaining = count
    while remaining > 0:
        size = max(MIN_BATCH, min(MAX_BATCH, remaining // (workers * 8)))
        batch = [game for _, game in zip(range(size), source)]
        if not batch:
            return
        remaining -= len(batch)
        yield batch


#: Called with every stored batch of games; returns a reason to stop the run, or None to go on.
Monitor = Callable[[PlayedBatch], "str | None"]


def run_tournament(config: TournamentConfig, output: Path | None = None, workers: int | None = None,
                   backend: str = "local", address: str | None = None, quiet: bool = False,
                   console: Console | None = None, backend_instance: Backend | None = None,
                   live_games_per_second: float | None = LIVE_GAMES_PER_SECOND,
                   monitor: Monitor | None = None, meta: dict[str, str] | None = None,
                   leaderboard: bool = True) -> RunSummary:
    """Play every game of the config not yet in the output folder's database.

    Unless ``quiet``, the schedule's size is stated first, then a progress bar and the live
    leaderboard (rating at most ``live_games_per_second`` games a second; None: all) follow
    the run. ``monitor`` sees every stored batch and may stop the run (a sequential test).
    ``meta``: notes kept in the results database for the report (the command that resumes the
    run, a sequential test's settings). ``leaderboard``: False leaves the live leaderboard out
    (an analysis, whose entrants do not compete).
    """
    check_backend(backend, address)
    output = output or config.output
    screen = console or Console(stderr=True)
    try:
        lock = RunLock(output).acquire()
    except (FolderInUse, LockIsLink) as error:
        raise RunError(str(error)) from None
    except OSError as error:
        raise RunError(f"cannot use {output}: {error.strerror or error}") from None
    try:
        rules = load_rules(config.ruleset, dict(config.options))
        entrants, per_deal = len(config.entrants), games_per_deal(len(config.entrants), config.seats, config.tables)
        total = per_deal * config.deals
        with Store.create_or_resume(output, config.fingerprint_document(rules.digest())) as store:
            damaged = store.damaged_records()  # the records are the truth: a row without its record goes
            store.forget(damaged)
            finished = store.finished_keys()
            for key, value in (meta or {}).items():
                store.set_meta(key, value)
            schedule = iter_schedule(entrants, config.seats, config.deals, config.seed, config.tables)
            pending = sum(1 for game in schedule if game.key not in finished)
            skipped = total - pending
            workers = workers or available_cores()
            if not quiet:
                grown = f" (grown: {'; '.join(store.grown)})" if store.grown else ""
                screen.print(f"{shown(config.name)}: {total:,} games in the schedule ({per_deal:,} a deal x "
                             f"{config.deals:,} deals){grown}; {skipped:,} already done, {pending:,} to play"
                             + (f" on {workers} {backend} worker{'s' if workers != 1 else ''}" if pending else ""))
            plan = make_plan(config, output, workers_share_disk=not (backend == "ray" and address))
            tally = Tally(plan.names)
            startup = seconds = main_cpu = worker_cpu = 0.0
            crashes = 0
            live = None if quiet or not leaderboard else LiveLeaderboard(plan.names, live_games_per_second)
            stop_reason, stop_signal = None, None
            if pending:
                start = time.perf_counter()
                with StopRequest() as stop:
                    engine = backend_instance or make_backend(backend, workers, address)
                    try:
                        engine.start(plan)
                        ready, ready_cpu = time.perf_counter(), time.process_time()
                        startup = ready - start
                        games = (game for game in iter_schedule(entrants, config.seats, config.deals, config.seed,
                                                                config.tables)
                                 if game.key not in finished)
                        batches = split(games, pending, engine.workers)
                        worker_cpu = _play_all(engine, plan, batches, store, tally, pending, live, quiet,
                                               screen, stop, monitor)
                        seconds, main_cpu = time.perf_counter() - ready, time.process_time() - ready_cpu
                    except WorkerStartError as error:
                        raise RunError(str(error)) from None
                    except StorageFailure as failure:
                        raise RunError(f"{failure}; the run stopped with {store.count():,} of {total:,} games "
                                       f"stored, each with its record: free some space and run the same command "
                                       f"to go on") from None
                    finally:
                        if backend_instance is None:
                            engine.close()
                            store.remove_partial_records()
                        crashes = getattr(engine, "crashes", 0)
                    stop_reason, stop_signal = stop.reason, stop.signum
    finally:
        lock.release()
    played = sum(tally.statuses.values())
    return RunSummary(output, total, skipped, played, seconds, startup, dict(tally.statuses), worker_cpu, main_cpu,
                      tuple(live.standings()) if live is not None else (), tuple(tally.lines()),
                      stop_reason, stop_signal, tuple(store.grown), crashes,
                      tuple(f"{key} ({why})" for key, why in sorted(damaged.items())))


def _play_all(engine: Backend, plan: Plan, batches: Iterator[list[GameSpec]], store: Store, tally: Tally,
              pending: int, leaderboard: LiveLeaderboard | None, quiet: bool, console: Console, stop: StopRequest,
              monitor: Monitor | None) -> float:
    """Store every game as it arrives; returns the workers' CPU seconds.

    This loop runs on a core the workers need too, so it does the least it can per game:
    insert ready-made rows, count statuses. The bar redraws twice a second (rich's default
    ten times costs a few percent of a core, as much as storing the games).
    """
    progress = ProgressWithLeaderboard(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>7.1f} games/s"), TextColumn("ETA"), TimeLeftColumn(),
        console=console, disable=quiet, transient=False, refresh_per_second=2,
    )
    progress.leaderboard = leaderboard
    start = last_saved = time.perf_counter()
    worker_cpu = 0.0
    done = 0
    unsaved: list[PlayedBatch] = []
    with progress:
        task = progress.add_task("games", total=pending, rate=0.0)
        try:
            for batch in engine.run(plan, batches, stop):
                # One transaction for what arrived in the last SAVE_EVERY seconds: a transaction per
                # game would cost the main process more than all else it does for the game.
                unsaved.append(batch)
                if time.perf_counter() - last_saved >= SAVE_EVERY:
                    store.save(*unsaved)
                    unsaved, last_saved = [], time.perf_counter()
                worker_cpu += batch.cpu_seconds
                tally.add(batch.rows)
                if leaderboard is not None:
                    leaderboard.add(batch.outcomes)
                done += len(batch.rows)
                progress.update(task, completed=done, rate=done / max(time.perf_counter() - start, 1e-9))
                if monitor is not None:
                    reason = monitor(batch)
                    if reason is not None and not stop.requested:
                        stop.request(reason)
        finally:
            store.save(*unsaved)
    return worker_cpu


def storage_failure(error: Exception) -> StorageFailure | None:
    """The storage failure a Ray task raised (Ray wraps it in a ``RayTaskError`` carrying it as its
    ``cause``), as the plain failure with its one-line message; None for any other error."""
    cause = getattr(error, "cause", error)
    if isinstance(cause, StorageFailure):
        return StorageFailure(*cause.args)
    return None


def lost_on_ray(plan: Plan, game: GameSpec, error: Exception) -> PlayedBatch:
    """A game whose Ray worker died under it, alone in its task: an ``error`` the report counts."""
    reason = f"the Ray worker died while playing this game ({type(error).__name__})"
    result = GameResult(game.deal_seed, game.seating, None, None, 0.0, ERROR,
                        ({"seat": None, "kind": "error", "reason": reason},), None)
    names = [plan.names[entrant] for entrant in game.seating]
    specs = [plan.specs[entrant] for entrant in game.seating]
    record = json.dumps({"record": "contack-record/1", **record_header(plan, names, specs, game.deal_seed)}) + "\n"
    outcome = Outcome(game.deal_seed, game.seating, None, None, ERROR)
    if plan.records_dir is None:
        return PlayedBatch([game_row(plan, game, result, record)], [outcome], 0.0, [record])
    write_record(plan.records_dir, game.key, record)
    return PlayedBatch([game_row(plan, game, result, record)], [outcome], 0.0)


class TimeLeftColumn(ProgressColumn):
    """Time left from the average pace since the start: an estimate from the first finished game on.

    (rich's own column waits for a speed sampled over many updates, and shows nothing for
    the first minutes of a run of slow bots.)
    """

    max_refresh = 0.5

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("0:00:00", style="progress.remaining")
        if not task.completed or task.elapsed is None or task.total is None:
            return Text("-:--:--", style="progress.remaining")
        left = int(task.elapsed / task.completed * (task.total - task.completed))
        return Text(f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}", style="progress.remaining")


class ProgressWithLeaderboard(Progress):
    """rich's progress bar with the live leaderboard (if any) drawn under it."""

    leaderboard: LiveLeaderboard | None = None

    def get_renderables(self) -> Iterable[RenderableType]:
        yield from super().get_renderables()
        if self.leaderboard is not None:
            yield self.leaderboard
