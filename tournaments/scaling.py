"""Measure how a tournament scales from one worker to two: ``python -m tournaments.scaling``.

Plays the same tournament of random bots (four entrants, tables of four, ``parker-1939``)
with 1 worker and with 2, into fresh folders, alternating the two ``--rounds`` times and
keeping each one's best (other load on the machine only ever slows a run down). Workers
are started before the clock starts; the clock covers playing, shipping and storing
(records and database rows) every game. Prints both rates and their ratio, and how many
cores other processes kept busy during each best run (on Linux), since two workers cannot
go twice as fast on two cores when something else holds one of them.
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
    args = parser.parse_args()
    config = scaling_config(max(1, args.games // 4), seed=1)
    best: dict[int, tuple[float, float | None]] = {1: (0.0, None), 2: (0.0, None)}
    for _ in range(args.rounds):
        for workers in (1, 2):
            rate, others = measure(config, workers)
            if rate > best[workers][0]:
                best[workers] = (rate, others)
    result = {"games": config.deals * 4, "rounds": args.rounds, "cores": os.cpu_count(),
              "games_per_s_1_worker": round(best[1][0], 1), "games_per_s_2_workers": round(best[2][0], 1),
              "ratio": round(best[2][0] / best[1][0], 3),
              "other_load_cores_1_worker": None if best[1][1] is None else round(best[1][1], 2),
              "other_load_cores_2_workers": None if best[2][1] is None else round(best[2][1], 2)}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
