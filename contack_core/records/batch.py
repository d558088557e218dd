"""Auditing many records at once: files, directories and glob patterns, in worker processes.

Results come back in the order the records were named, whatever worker audited them, so
the output of a run is the same with one worker or eight. Each worker process owns one
:class:`contack_core.records.audit.RecordAuditor` for its whole life, so it loads each
ruleset once however many records it audits.
"""

from __future__ import annotations

import glob
import os
import queue
import signal
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from contack_core.records.audit import RecordAuditor, RulesetUnavailable, UnreadableRecord, Verdict

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue

#: Below this many records the main process audits them itself: starting a worker (a
#: fresh interpreter importing contack, about 0.2 s) costs more than auditing a few dozen.
WORKERS_FROM = 48
SOUND, UNSOUND, UNREADABLE = 0, 1, 2


@attrs.frozen
class AuditResult:
    """One record's outcome: its verdict, or why it could not be audited at all (``unreadable``:
    the message; ``cause``: ``unreadable`` for a file that is not a record,
    ``ruleset_unavailable`` for a record whose ruleset cannot be found or loaded)."""

    file: str
    verdict: Verdict | None = None
    unreadable: str | None = None
    cause: str = "unreadable"

    @property
    def code(self) -> int:
        """The exit code of this record alone: 0 sound, 1 unsound, 2 unreadable."""
        if self.verdict is None:
            return UNREADABLE
        return SOUND if self.verdict.valid else UNSOUND

    def to_json(self) -> dict[str, Any]:
        if self.verdict is None:
            return {"file": self.file, "valid": False, "line": None, "error": self.unreadable, "finished": False,
                    self.cause: True}
        return {"file": self.file, **self.verdict.to_json()}


def find_records(names: Sequence[str]) -> list[Path | AuditResult]:
    """The records ``names`` stand for, in order: a file is itself; a directory, every
    ``*.jsonl`` file under it (sorted); a glob pattern (``*``, ``?``, ``[``, ``**`` for any
    depth), the files it matches (sorted). A name standing for nothing comes back as an
    unreadable result saying so; a missing file is left for the audit to report. A file named
    twice (itself, and in its folder) comes once."""
    found: list[Path | AuditResult] = []
    seen: set[Path] = set()  # a record named twice (itself, and in its folder) is audited once

    def add(paths: list[Path]) -> None:
        for path in paths:
            if (resolved := path.resolve()) not in seen:
                seen.add(resolved)
                found.append(path)

    for name in names:
        path = Path(name)
        if path.is_dir():
            records = sorted(p for p in path.rglob("*.jsonl") if p.is_file())
            if not records:
                found.append(AuditResult(name, unreadable=f"{name} is a directory holding no .jsonl record"))
            add(records)
        elif not path.exists() and glob.has_magic(name):
            matches = sorted(Path(match) for match in glob.glob(name, recursive=True) if Path(match).is_file())
            if not matches:
                found.append(AuditResult(name, unreadable=f"no file matches {name}"))
            add(matches)
        else:
            add([path])
    return found


def audit_one(auditor: RecordAuditor, path: Path, ruleset: Path | None = None) -> AuditResult:
    """Audit one record (under the file ``ruleset`` instead of the one its header names, if
    given). A record the audit itself fails on (a bug) is reported as one that could not be
    audited, with the error, so a run over an archive still ends."""
    try:
        return AuditResult(str(path), verdict=auditor.audit(path, ruleset))
    except UnreadableRecord as error:
        return AuditResult(str(path), unreadable=str(error))
    except RulesetUnavailable as error:
        return AuditResult(str(path), unreadable=str(error), cause="ruleset_unavailable")
    except Exception as error:  # noqa: BLE001 - one record must not end the audit of the others
        return AuditResult(str(path), unreadable=f"the audit failed ({type(error).__name__}: {error}); "
                                                 f"please report this record")


def default_workers(records: int) -> int:
    """One worker per core for a batch worth starting them for, else none."""
    return 1 if records < WORKERS_FROM else min(os.cpu_count() or 1, records)


def audit_all(found: Sequence[Path | AuditResult], workers: int, ruleset: Path | None = None) -> Iterator[AuditResult]:
    """Every record's result, in order; ``workers`` processes audit them (1: this process)."""
    paths = [item for item in found if isinstance(item, Path)]
    workers = max(1, min(workers, len(paths)))
    results = _audit_here(paths, ruleset) if workers == 1 else _audit_in_workers(paths, workers, ruleset)
    for item in found:
        yield item if isinstance(item, AuditResult) else next(results)


def _audit_here(paths: Sequence[Path], ruleset: Path | None) -> Iterator[AuditResult]:
    auditor = RecordAuditor()
    for path in paths:
        yield audit_one(auditor, path, ruleset)


def _worker(tasks: Queue[tuple[int, list[str]] | None], results: Queue[tuple[int, list[AuditResult]]],
            ruleset: Path | None) -> None:
    """A worker process: audit chunks of records until told to stop, with one auditor. A
    Ctrl-C reaches the whole process group: the main process answers it and stops the workers
    (which were born ignoring it: see ``_started_ignoring_ctrl_c``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    auditor = RecordAuditor()
    for index, names in iter(tasks.get, None):
        results.put((index, [audit_one(auditor, Path(name), ruleset) for name in names]))


def _started_ignoring_ctrl_c(processes: Sequence[BaseProcess]) -> None:
    """Start the workers with SIGINT ignored from their first instruction: an ignored signal stays
    ignored across exec, and Python then installs no KeyboardInterrupt handler, so a Ctrl-C cannot
    interrupt a worker still importing (a traceback on stderr). The main process ignores it only
    while the workers start; off the main thread it cannot change handlers, and the workers
    ignore it once they run."""
    if threading.current_thread() is not threading.main_thread():
        for process in processes:
            process.start()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for process in processes:
            process.start()
    finally:
        signal.signal(signal.SIGINT, previous)


def _audit_in_workers(paths: Sequence[Path], workers: int, ruleset: Path | None) -> Iterator[AuditResult]:
    """Chunks of records handed to ``workers`` spawned processes; results given back in order."""
    from multiprocessing import get_context  # only a batch that starts workers needs it

    context = get_context("spawn")  # nothing of this process leaks in (threads, open files)
    tasks, results = context.Queue(), context.Queue()
    size = max(1, min(64, len(paths) // (workers * 8)))
    chunks = [[str(p) for p in paths[i:i + size]] for i in range(0, len(paths), size)]
    for index, chunk in enumerate(chunks):
        tasks.put((index, chunk))
    for _ in range(workers):
        tasks.put(None)
    processes = [context.Process(target=_worker, args=(tasks, results, ruleset), daemon=True) for _ in range(workers)]
    _started_ignoring_ctrl_c(processes)
    try:
        waiting: dict[int, list[AuditResult]] = {}
        for index in range(len(chunks)):
            while index not in waiting:
                try:
                    done, chunk_results = results.get(timeout=1.0)
                except queue.Empty:
                    dead = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
                    if dead:
                        raise RuntimeError(f"an audit worker process died (exit code {dead[0]})") from None
                    continue
                waiting[done] = chunk_results
            yield from waiting.pop(index)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()
        for channel in (tasks, results):  # what is still queued dies with the workers: never wait for it
            channel.cancel_join_thread()
            channel.close()
