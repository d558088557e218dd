"""How long ``contack analyze`` takes with its defaults: ``python -m tournaments.analysis.bench`` (``make
analysis-bench``) runs the command on every shipped ruleset (``--examples``: and every house-rule
example, against the ruleset it extends) and prints, for each, the wall-clock seconds from start to
exit, the CPU seconds of the command and its workers, and the games played.

Speed is measured here, never asserted in a test: the figures depend on the machine and on what
else it runs.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from contack_core import load_rules
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(arguments: list[str], workers: int | None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, games played) of one ``contack analyze`` command, run as a user runs it."""
    command = [sys.executable, "-c", "from contack_core.cli import main; main()", "analyze", *arguments,
               "--json", "--quiet", *(["--workers", str(workers)] if workers else [])]
    cpu, start = _children_cpu(), time.perf_counter()
    finished = subprocess.run(command, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if finished.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed:\n{finished.stderr}")
    document = json.loads(finished.stdout)
    sides = [document["first"], document["second"]] if "first" in document else [document]
    return wall, cpu, sum(sum(side["games"].values()) for side in sides)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", action="store_true", help="also every example against its parent ruleset")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("rulesets", nargs="*", help="rulesets to time (default: every shipped one)")
    args = parser.parse_args(argv)
    runs = [[ruleset] for ruleset in (args.rulesets or shipped_ruleset_ids())]
    if args.examples:
        runs += [[example, "--against", load_rules(example, {}).chain[-2]] for example in shipped_example_ids()]
    print(f"{'contack analyze':<58} {'wall s':>7} {'CPU s':>7} {'games':>6}")
    slowest = 0.0
    for arguments in runs:
        wall, cpu, games = measure(arguments, args.workers)
        slowest = max(slowest, wall)
        print(f"{' '.join(arguments):<58} {wall:>7.1f} {cpu:>7.1f} {games:>6}", flush=True)
    print(f"slowest: {slowest:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
