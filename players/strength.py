"""Strength of the bots, measured: every pair plays the same deals with seats swapped.

``python -m players.strength --bots random,greedy,cautious,mcts --deals 100`` plays, for
each pair of bots and each deal (a game seed), two two-seat games: A in seat 0 then B in
seat 0, with the same shuffles. It prints each pair's results and A's score rate (a win
counts 1, a shared win 1/2) with its 95% Wilson interval. Games run in worker processes;
the figures depend only on the seeds and the bots' iteration limits, not on the machine.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

from contack_core import RulesetError, load_rules
from contack_core.engine.bots import PlayerSpecError, make_player, split_seats
from contack_core.engine.referee import play_game, seat_seed

Z_95 = 1.959964


@attrs.frozen
class PairResult:
    """How bot ``a`` fared against bot ``b`` over ``games`` games."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    shared: int

    @property
    def a_rate(self) -> float:
        return (self.a_wins + self.shared / 2) / self.games

    def interval(self) -> tuple[float, float]:
        return wilson(self.a_wins + self.shared / 2, self.games)


def wilson(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(ruleset: str, first: str, second: str, seed: int) -> list[int]:
    """One two-seat game; the winning seats."""
    rules = load_rules(ruleset)
    players = [make_player(first, seat_seed(seed, 0), rules=rules), make_player(second, seat_seed(seed, 1), rules=rules)]
    try:
        return play_game(rules, players, seed).winners()
    finally:
        for player in players:
            player.close()


def play_pair(ruleset: str, a: str, b: str, deals: int, seed: int, pool: ProcessPoolExecutor) -> PairResult:
    """Each deal twice, seats swapped: the same shuffles for both bots."""
    seeds = [seed * 100_003 + deal for deal in range(deals)]
    as_first = pool.map(play_one, [ruleset] * deals, [a] * deals, [b] * deals, seeds)
    as_second = pool.map(play_one, [ruleset] * deals, [b] * deals, [a] * deals, seeds)
    a_wins = b_wins = shared = 0
    for a_seat, winners_list in ((0, as_first), (1, as_second)):
        for winners in winners_list:
            if len(winners) > 1:
                shared += 1
            elif winners[0] == a_seat:
                a_wins += 1
            else:
                b_wins += 1
    return PairResult(a, b, 2 * deals, a_wins, b_wins, shared)


def format_row(result: PairResult) -> str:
    low, high = result.interval()
    return (f"| {result.a} | {result.b} | {result.games} | {result.a_wins} | {result.b_wins} | {result.shared} "
            f"| {result.a_rate:.3f} | [{low:.3f}, {high:.3f}] |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="parker-1939")
    parser.add_argument("--bots", default="random,greedy,cautious,mcts",
                        help="seat specifications, comma-separated (mcts:iterations=200 allowed)")
    parser.add_argument("--deals", type=int, default=100, help="deals per pair (each played twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    bots = split_seats(args.bots)
    try:
        rules = load_rules(args.ruleset)
        for spec in bots:
            make_player(spec, 0, rules=rules).close()
    except (RulesetError, PlayerSpecError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{args.ruleset}, 2 seats, {args.deals} deals per pair, each played with seats swapped, seed {args.seed}")
    print("| A | B | games | A wins | B wins | shared | A score rate | 95% Wilson |")
    print("|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for a, b in itertools.combinations(bots, 2):
            print(format_row(play_pair(args.ruleset, a, b, args.deals, args.seed, pool)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
