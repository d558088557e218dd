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
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

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


def measure(config: TournamentConfig, workers: int) -> tuple[float, float | None]:
    """(games/s, cores other processes kept busy meanwhile) of one run."""
    with tempfile.TemporaryDirectory(prefix="contack-scaling-") as folder:
        busy, own, wall = busy_cpu_seconds(), own_cpu_seconds(), time.perf_counter()
        summary = run_tournament(config, Path(folder), workers=workers, quiet=True)
        wall = time.perf_counter() - wall
        after = busy_cpu_seconds()
        others = None if busy is None or after is None else max(0.0, (after - busy - (own_cpu_seconds() - own)) / wall)
        return summary.games_per_s, others


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (a multiple of 4)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--wait-for-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="before each run, wait up to this long for other processes to leave the cores idle")
    args = parser.parse_args()
    config = scaling_config(max(1, args.games // 4), seed=1)
    best: dict[int, tuple[float, float | None]] = {1: (0.0, None), 2: (0.0, None)}
    one_spinning, two_spinning = float("inf"), float("inf")
    for _ in range(args.rounds):
        wait_for_quiet(args.wait_for_quiet)
        one, two = machine_times()
        one_spinning, two_spinning = min(one_spinning, one), min(two_spinning, two)
        for workers in (1, 2):
            wait_for_quiet(args.wait_for_quiet)
            rate, others = measure(config, workers)
            if rate > best[workers][0]:
                best[workers] = (rate, others)
    result = {"games": config.deals * 4, "rounds": args.rounds, "cores": os.cpu_count(),
              "games_per_s_1_worker": round(best[1][0], 1), "games_per_s_2_workers": round(best[2][0], 1),
              "ratio": round(best[2][0] / best[1][0], 3),
              "machine_ratio_pure_python_loop": round(2 * one_spinning / two_spinning, 3),
              "other_load_cores_1_worker": None if best[1][1] is None else round(best[1][1], 2),
              "other_load_cores_2_workers": None if best[2][1] is None else round(best[2][1], 2)}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
