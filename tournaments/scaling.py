"""Measure how a tournament scales from one worker to two: ``python -m tournaments.scaling``.

Plays the same tournament of random bots (four entrants, tables of four, ``parker-1939``)
with 1 worker and with 2, into fresh folders, alternating the two ``--rounds`` times and
keeping each one's best (other load on the machine only ever slows a run down). Workers
are started before the clock starts; the clock covers playing, shipping and storing
(records and database rows) every game. Prints both rates and their ratio.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from tournaments.config import Budget, Entrant, TournamentConfig
from tournaments.runner import run_tournament


def scaling_config(deals: int, seed: int) -> TournamentConfig:
    entrants = tuple(Entrant(f"random{i}", "random") for i in range(1, 5))
    return TournamentConfig(name="scaling", ruleset="parker-1939", options={}, entrants=entrants, seats=(4,),
                            deals=deals, seed=seed, budget=Budget(), fault_policy="pass",
                            output=Path("scaling"), source="<scaling>")


def games_per_s(config: TournamentConfig, workers: int) -> float:
    with tempfile.TemporaryDirectory(prefix="contack-scaling-") as folder:
        summary = run_tournament(config, Path(folder), workers=workers, quiet=True)
        return summary.games_per_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (a multiple of 4)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = scaling_config(max(1, args.games // 4), seed=1)
    best = {1: 0.0, 2: 0.0}
    for _ in range(args.rounds):
        for workers in (1, 2):
            best[workers] = max(best[workers], games_per_s(config, workers))
    result = {"games": config.deals * 4, "rounds": args.rounds, "games_per_s_1_worker": round(best[1], 1),
              "games_per_s_2_workers": round(best[2], 1), "ratio": round(best[2] / best[1], 3)}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
