"""How fast mcts searches: iterations per second on positions from seeded random games.

``python -m players.search_speed`` plays seeded random games of each ruleset (parker-1939 with 4
seats and klauber-1937 with 2 by default), stops each at a seeded turn, and lets ``mcts`` choose
there with a fixed iteration limit and no time limit, so the work done is the same on every run
and the figures are iterations per second of wall clock and of the process's own CPU time (the
one to compare on a machine other processes share). ``--baseline DIR`` runs the very same
measurement on the code in DIR (another checkout, say ``git archive main``) in a subprocess,
alternating with this tree's code ``--rounds`` times and keeping each one's best (other load on
the machine only ever slows a run down), and prints the ratio of CPU rates. A benchmark: it
prints figures, it asserts none.

This file is run as a script in the baseline's subprocess, so it imports only what every
version of the code has: ``load_rules``, ``GameState``, the random and mcts bots.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

DEFAULT_CASES = ("parker-1939:4", "klauber-1937:2")


def positions(ruleset: str, seats: int, count: int, seed: int) -> list:
    """``count`` decision points of seeded random games, each with more than one legal action."""
    from contack_core import GameState, load_rules
    from players.random_player import RandomPlayer

    rules = load_rules(ruleset)
    found = []
    game = 0
    while len(found) < count:
        rng = random.Random(seed * 1000 + game)
        bots = [RandomPlayer(f"{seed}:{game}:{seat}") for seat in range(seats)]
        state = GameState(rules, seats)
        stop = rng.randrange(5, 60)
        decisions = 0
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if decisions >= stop and len(state.legal_actions()) > 1:
                found.append(state.clone())
                break
            state.apply(bots[state.current].choose(state))
            decisions += 1
        game += 1
    return found


def measure(ruleset: str, seats: int, count: int, iterations: int, seed: int) -> dict:
    """Iterations per second of ``mcts`` (its default parameters but ``iterations``) over the positions."""
    from players.mcts import MctsPlayer

    states = positions(ruleset, seats, count, seed)
    start, cpu_start = time.perf_counter(), time.process_time()
    for index, state in enumerate(states):
        bot = MctsPlayer(seed=index, iterations=iterations)
        bot.start_game(state.rules, state.current, state.seat_count)
        bot.choose(state)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"ruleset": ruleset, "seats": seats, "positions": count, "iterations": iterations,
            "seconds": round(seconds, 3), "iterations_per_s": round(count * iterations / seconds, 1),
            "cpu_seconds": round(cpu, 3), "iterations_per_cpu_s": round(count * iterations / cpu, 1)}


def run_in(code: Path | None, case: str, count: int, iterations: int, seed: int) -> dict:
    """One measurement in a fresh process, importing from ``code`` (None: this tree)."""
    ruleset, _, seats = case.partition(":")
    root = code if code is not None else Path(__file__).resolve().parents[1]
    here = str(Path(__file__).parent)
    script = (f"import sys, json; sys.path.insert(0, {str(root)!r}); sys.path.insert(1, {here!r});"
              f"import search_speed; print(json.dumps(search_speed.measure({ruleset!r}, {int(seats)}, {count}, "
              f"{iterations}, {seed})))")
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root)
    if output.returncode:
        return {"ruleset": ruleset, "seats": int(seats), "error": output.stderr.strip().splitlines()[-1:]}
    return json.loads(output.stdout.strip().splitlines()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.search_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="RULESET:SEATS (repeatable; default: "
                        + ", ".join(DEFAULT_CASES) + ")")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout's root, measured in the same run")
    args = parser.parse_args(argv)
    for case in args.case or DEFAULT_CASES:
        best: dict[str, dict] = {}
        for round_number in range(args.rounds):
            for label, code in (("baseline", args.baseline), ("this", None)):
                if label == "baseline" and code is None:
                    continue
                result = run_in(code, case, args.positions, args.iterations, args.seed)
                print(f"  round {round_number + 1} {label}: {json.dumps(result)}", file=sys.stderr, flush=True)
                if "error" in result:
                    best[label] = result
                elif "error" not in best.get(label, {}) and \
                        result["iterations_per_cpu_s"] > best.get(label, {}).get("iterations_per_cpu_s", 0):
                    best[label] = result
        line: dict = {"case": case}
        for label, result in best.items():
            line[f"{label}_iterations_per_s"] = result.get("iterations_per_s", result.get("error"))
            line[f"{label}_iterations_per_cpu_s"] = result.get("iterations_per_cpu_s")
        if "baseline" in best and "error" not in best["baseline"] and "error" not in best["this"]:
            line["ratio_this_to_baseline_cpu"] = round(best["this"]["iterations_per_cpu_s"]
                                                       / best["baseline"]["iterations_per_cpu_s"], 3)
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
