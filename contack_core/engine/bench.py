"""Throughput of the interpreter: random games through the public state API.

Speed is measured, never asserted: ``contack bench`` prints figures, and with
``--compare`` also runs the hand-written yardstick on the same number of games and seats
in the same run and prints the ratio of games per second.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from contack_core.engine.bots import Budget, installed_players, make_player
from contack_core.engine.events import Drew, Moved, Passed, Played
from contack_core.engine.referee import play_game, seat_seed
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState


#: How many decisions' kinds the bench notes before it counts them, its clocks stopped meanwhile: the
#: list stays small however many games a run plays.
NOTED_AT_MOST = 1 << 16


def run_bench(rules: Rules, games: int, players: int, seed: int) -> dict[str, float]:
    """Play ``games`` random games of ``players`` seats; return counts and rates."""
    available = installed_players()
    random_bot = available["random"].load()
    # One chance RNG and one bot per seat for the whole run, as the yardstick keeps one RNG:
    # the figures measure the interpreter, not the seeding of fresh generators per game.
    rng = random.Random(seed)
    bots = [random_bot(seed=seat_seed(seed, s)) for s in range(players)]
    # What each decision was is noted as it is taken and counted while the clocks are stopped: the
    # bench's own tally is not the interpreter's work.
    kinds: list[type] = []
    noted = kinds.append
    tally: Counter[type] = Counter()
    hands = chance = 0
    paused = paused_cpu = 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(games):
        state = GameState(rules, players)
        apply = state.apply
        while not state.over:
            if state.chance:
                apply(state.sample_chance(rng))
                chance += 1
                continue
            noted(type(apply(bots[state.current].choose(state))))
        hands += len(state.hand_results)
        if len(kinds) > NOTED_AT_MOST:
            stopped, cpu_stopped = time.perf_counter(), time.process_time()
            tally.update(kinds)
            kinds.clear()
            paused += time.perf_counter() - stopped
            paused_cpu += time.process_time() - cpu_stopped
    seconds = time.perf_counter() - start - paused
    cpu_seconds = time.process_time() - cpu_start - paused_cpu
    tally.update(kinds)
    counts: dict[str, float] = {"games": games, "players": players, "seed": seed, "hands": hands,
                                "actions": tally.total(), "plays": tally[Played], "draws": tally[Drew],
                                "passes": tally[Passed], "moves": tally[Moved], "chance": chance}
    counts["seconds"] = round(seconds, 4)
    counts["cpu_seconds"] = round(cpu_seconds, 4)
    counts["games_per_s"] = round(games / seconds, 1)
    counts["actions_per_s"] = round(counts["actions"] / seconds, 1)
    counts["moves_per_s"] = round(counts["moves"] / seconds, 1)
    return counts


def run_refereed_bench(rules: Rules, games: int, players: int, seed: int, spec: str,
                       budget: Budget) -> dict[str, Any]:
    """Play ``games`` games through the referee (``play_game``, as ``contack play`` and a
    tournament do), every seat a ``spec`` bot, under ``budget``; return the time they took.

    Run with and without a clock on the same games, it shows what keeping the clock costs."""
    bots = [make_player(spec, seat_seed(seed, s), rules=rules) for s in range(players)]
    start, cpu_start = time.perf_counter(), time.process_time()
    faults = 0
    try:
        for game in range(games):
            faults += len(play_game(rules, bots, seed + game, budget=budget).faults)
    finally:
        for bot in bots:
            bot.close()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "cpu_seconds": time.process_time() - cpu_start, "games_per_s": games / seconds,
            "faults": faults}


#: Runs a yardstick script as its own ``__main__`` and then prints the time on the processor
#: its run took (Python's start and the script's compiling not counted), so the yardstick's
#: CPU time can stand beside the interpreter's: the script itself reports only the wall clock.
_YARDSTICK_RUNNER = (
    "import os, sys, time\n"
    "script = sys.argv[1]\n"
    "sys.argv = sys.argv[1:]\n"
    "sys.path[0] = os.path.dirname(os.path.abspath(script))\n"
    "with open(script, 'rb') as file:\n"
    "    code = compile(file.read(), script, 'exec')\n"
    "start = time.process_time()\n"
    "exec(code, {'__name__': '__main__', '__file__': script, '__builtins__': __builtins__})\n"
    "print(f'cpu_seconds={time.process_time() - start:.4f}')\n"
)


def run_yardstick(script: Path, games: int, players: int) -> dict[str, float]:
    """Run the hand-written reference engine and parse its ``key=value`` output: what it prints
    (``seconds``, ``games_per_s``...) and ``cpu_seconds``, its time on the processor."""
    output = subprocess.run([sys.executable, "-c", _YARDSTICK_RUNNER, str(script), str(games), str(players)],
                            capture_output=True, text=True, check=True).stdout
    return {key: float(value) for key, value in re.findall(r"(\w+)=([\d.]+)", output)}
