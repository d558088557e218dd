"""Measure how a tournament scales from one worker to two: ``python -m tournaments.scaling``.

Plays the same tournament of random bots (four entrants, tables of four, ``parker-1939``)
with 1 worker and with 2, into fresh folders, alternating the two ``--rounds`` times and
keeping each one's best (other load on the machine only ever slows a run down). Workers
are started before the clock starts; the clock covers playing, shipping and storing
(records and database rows) every game. Prints both rates and their ratio, and how many
cores other processes kept busy during each best run (on Linux), since two workers cannot
go twice as fast on two cores when something else holds one of them. For scale it also
prints the same ratio for a pure Python loop (no I/O, no tournament): the most any
Python program gains from the second core of this machine.

Wall clock on a shared machine is noisy, so it also accounts CPU time: the workers' CPU
milliseconds per game with 1 and with 2 workers (the same if they do not get in each
other's way) and the main process's per game (storing rows, shipping batches: with two
workers on two cores, it takes its CPU from them). ``ratio_cpu_accounting`` =
2 W1 / (W2 + M2) is the ratio those costs allow on two cores nobody else uses.
``--max-other-load`` discards and repeats runs that other processes disturbed. Each run
is printed to stderr as it ends.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import attrs

from tournaments.config import Budget, Entrant, TournamentConfig
from tournaments.runner import run_tournament


def scaling_config(deals: int, seed: int) -> TournamentConfig:
    entrants = tuple(Entrant(f"random{i}", "random") for i in range(1, 5))
    return TournamentConfig(name="scaling", ruleset="parker-1939", options={}, entrants=entrants, seats=(4,),
                            deals=deals, seed=seed, budget=Budget(), fault_policy="pass",
                            output=Path("scaling"), source="<scaling>")


def busy_cpu_seconds() -> float | None:
    """CPU seconds every process on the machine has used since boot (None where /proc is missing)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def spin(iterations: int) -> float:
    """Pure Python arithmetic, no I/O: what the machine's cores give any Python process."""
    start = time.perf_counter()
    total = 0
    for i in range(iterations):
        total += i * i % 7
    return time.perf_counter() - start


def machine_times(iterations: int = 10_000_000) -> tuple[float, float]:
    """Seconds for one process to spin ``iterations`` times, and for two processes to each do so."""
    from multiprocessing import get_context

    with get_context("spawn").Pool(2) as pool:
        pool.map(time.sleep, [0.1, 0.1], chunksize=1)  # both workers up
        start = time.perf_counter()
        pool.map(spin, [iterations], chunksize=1)
        one = time.perf_counter() - start
        start = time.perf_counter()
        pool.map(spin, [iterations, iterations], chunksize=1)
        two = time.perf_counter() - start
    return one, two


def wait_for_quiet(limit: float, threshold: float = 0.15) -> None:
    """Wait (at most ``limit`` seconds) until other processes use less than ``threshold`` of a core."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = busy_cpu_seconds()
        if before is None:
            return
        time.sleep(0.5)
        after = busy_cpu_seconds()
        if after is not None and (after - before) / 0.5 < threshold:
            return


@attrs.frozen
class Run:
    """One measured run: games/s, other processes' load meanwhile, and CPU milliseconds per game."""

    games_per_s: float
    other_load: float | None  # cores other processes kept busy (None without /proc)
    worker_ms: float  # the workers' CPU per game: playing and writing records
    main_ms: float  # the main process's CPU per game: storing rows, shipping batches


def measure(config: TournamentConfig, workers: int) -> Run:
    with tempfile.TemporaryDirectory(prefix="contack-scaling-") as folder:
        busy, own, wall = busy_cpu_seconds(), own_cpu_seconds(), time.perf_counter()
        summary = run_tournament(config, Path(folder), workers=workers, quiet=True)
        wall = time.perf_counter() - wall
        after = busy_cpu_seconds()
        others = None if busy is None or after is None else max(0.0, (after - busy - (own_cpu_seconds() - own)) / wall)
        played = max(summary.played, 1)
        return Run(summary.games_per_s, others, 1000 * summary.worker_cpu / played, 1000 * summary.main_cpu / played)


def measure_quietly(config: TournamentConfig, workers: int, wait: float, max_other_load: float | None,
                    retries: int) -> tuple[Run, int]:
    """A run, repeated (at most ``retries`` more times) while others kept more than ``max_other_load`` cores busy.

    Returns the last run and how many were discarded.
    """
    discarded = 0
    while True:
        wait_for_quiet(wait)
        run = measure(config, workers)
        noisy = max_other_load is not None and run.other_load is not None and run.other_load > max_other_load
        if not noisy or discarded >= retries:
            return run, discarded
        discarded += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (a multiple of 4)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--wait-for-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="before each run, wait up to this long for other processes to leave the cores idle")
    parser.add_argument("--max-other-load", type=float, default=None, metavar="CORES",
                        help="discard and repeat (up to --retries times) a run during which other processes kept "
                             "more than this many cores busy")
    parser.add_argument("--retries", type=int, default=3)
    args = parser.parse_args()
    config = scaling_config(max(1, args.games // 4), seed=1)
    runs: dict[int, list[Run]] = {1: [], 2: []}
    discarded = 0
    one_spinning, two_spinning = float("inf"), float("inf")
    for round_number in range(1, args.rounds + 1):
        wait_for_quiet(args.wait_for_quiet)
        one, two = machine_times()
        one_spinning, two_spinning = min(one_spinning, one), min(two_spinning, two)
        for workers in (1, 2):
            run, dropped = measure_quietly(config, workers, args.wait_for_quiet, args.max_other_load, args.retries)
            runs[workers].append(run)
            discarded += dropped
            print(f"round {round_number}/{args.rounds}, {workers} worker(s): {run.games_per_s:.1f} games/s, "
                  f"other load {_rounded(run.other_load)} cores, CPU ms/game: workers {run.worker_ms:.3f}, "
                  f"main {run.main_ms:.4f}" + (f" ({dropped} noisy runs discarded)" if dropped else ""),
                  file=sys.stderr, flush=True)
    best = {workers: max(measured, key=lambda run: run.games_per_s) for workers, measured in runs.items()}
    worker_ms = {workers: statistics.median(run.worker_ms for run in measured) for workers, measured in runs.items()}
    main_ms = statistics.median(run.main_ms for run in runs[2])
    result = {"games": config.deals * 4, "rounds": args.rounds, "discarded_noisy_runs": discarded,
              "cores": os.cpu_count(),
              "games_per_s_1_worker": round(best[1].games_per_s, 1),
              "games_per_s_2_workers": round(best[2].games_per_s, 1),
              "ratio": round(best[2].games_per_s / best[1].games_per_s, 3),
              "ratios_per_round": [round(two.games_per_s / one.games_per_s, 3) for one, two in zip(runs[1], runs[2])],
              "machine_ratio_pure_python_loop": round(2 * one_spinning / two_spinning, 3),
              "other_load_cores_1_worker": _rounded(best[1].other_load),
              "other_load_cores_2_workers": _rounded(best[2].other_load),
              "worker_cpu_ms_per_game_1_worker": round(worker_ms[1], 3),
              "worker_cpu_ms_per_game_2_workers": round(worker_ms[2], 3),
              "main_cpu_ms_per_game_2_workers": round(main_ms, 4),
              # Two cores shared by two workers and the main: what the CPU each needs allows.
              "ratio_cpu_accounting": round(2 * worker_ms[1] / (worker_ms[2] + main_ms), 3)}
    if args.json:
        print(json.dumps(result))
    else:
        width = max(map(len, result))
        for key, value in result.items():
            print(f"{key:>{width}}: {value}")


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


if __name__ == "__main__":
    main()
