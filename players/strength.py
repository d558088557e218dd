"""Strength of the bots, measured: every pair plays the same deals with seats swapped; a solitaire's
bots each play the same deals alone.

``python -m players.strength --bots random,greedy,cautious,mcts --deals 100`` plays, for each pair
of bots and each deal (a game seed), two two-seat games: A in seat 0 then B in seat 0, with the same
shuffles. It prints each pair's results, A's score rate (a win counts 1, a shared win or a game
nobody wins 1/2) with its 95% Wilson interval, A's share of the decided games (those somebody won)
and how the games ended (each hand-end reason of the last hand: ended by the rules, or by a move
cap). For a ruleset of one seat (``--ruleset solitaire-1``) each bot plays every deal alone and the
table gives its completion rate (games won) with its Wilson interval and the mean of the counter the
match is decided on (Triangles placed) with its 95% interval. Games run in worker processes; the
table depends only on the seeds and the bots' iteration limits, not on the machine. The line after
it gives what does depend on the machine: each bot's CPU time a decision, the mean over every game
it played (the clock of the process playing the game, so an exec bot's own process is not counted).
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

import attrs

from contack_core import RulesetError, load_rules
from contack_core.engine.bots import Player, PlayerSpecError, make_player, split_seats
from contack_core.engine.referee import play_game, seat_seed

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.state import GameState

Z_95 = 1.959964


@attrs.frozen
class Game:
    """What one game came to: the winning seats, the end reason, each seat's final count."""

    winners: tuple[int, ...]
    reason: str
    totals: tuple[int, ...]
    #: Each seat's decisions and the CPU seconds its bot's ``choose`` took over them.
    thinking: tuple[tuple[int, float], ...] = ()


@attrs.define
class Thinking:
    """A bot's decisions and the CPU seconds they took, summed over games."""

    decisions: int = 0
    seconds: float = 0.0

    def add(self, decisions: int, seconds: float) -> None:
        self.decisions += decisions
        self.seconds += seconds

    def __str__(self) -> str:
        if not self.decisions:
            return "no decision"
        mean = self.seconds / self.decisions
        shown = f"{1000 * mean:.1f} ms" if mean >= 0.001 else f"{1_000_000 * mean:.1f} µs"
        return f"{shown} ({self.decisions} decisions)"


@attrs.frozen
class PairResult:
    """How bot ``a`` fared against bot ``b`` over ``games`` games."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    shared: int
    undecided: int = 0
    endings: tuple[tuple[str, int], ...] = ()

    @property
    def a_rate(self) -> float:
        return (self.a_wins + (self.shared + self.undecided) / 2) / self.games

    def interval(self) -> tuple[float, float]:
        return wilson(self.a_wins + (self.shared + self.undecided) / 2, self.games)

    @property
    def decided_share(self) -> float | None:
        """A's share of the games one of the two won outright (None if there were none)."""
        decided = self.a_wins + self.b_wins
        return self.a_wins / decided if decided else None


@attrs.frozen
class SoloResult:
    """How one bot did alone over ``games`` deals of a solitaire."""

    bot: str
    games: int
    completed: int
    counts: tuple[int, ...]

    def completion_interval(self) -> tuple[float, float]:
        return wilson(self.completed, self.games)

    def mean_interval(self) -> tuple[float, float, float]:
        """The mean count and its 95% interval (normal approximation)."""
        mean = statistics.fmean(self.counts)
        spread = statistics.stdev(self.counts) if len(self.counts) > 1 else 0.0
        half = Z_95 * spread / math.sqrt(len(self.counts))
        return mean, mean - half, mean + half


def wilson(successes: float, trials: float, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def clocked(player: Player) -> Thinking:
    """Time ``player``'s decisions: its ``choose`` is wrapped on the instance (the referee reads the
    class's own, so how a clock would treat the bot is unchanged); what is returned counts the
    decisions and sums their CPU seconds as the game goes."""
    tally = Thinking()
    choose = player.choose

    def timed(state: GameState) -> Action:
        start = time.process_time()
        try:
            return choose(state)
        finally:
            tally.add(1, time.process_time() - start)

    player.choose = timed  # type: ignore[method-assign]
    return tally


def play_one(ruleset: str, specs: Sequence[str], seed: int) -> Game:
    """One game of ``specs`` in seat order."""
    rules = load_rules(ruleset)
    players = [make_player(spec, seat_seed(seed, seat), rules=rules) for seat, spec in enumerate(specs)]
    tallies = [clocked(player) for player in players]
    try:
        state = play_game(rules, players, seed)
    finally:
        for player in players:
            player.close()
    reason = state.hand_results[-1].reason if state.hand_results else "forfeit"
    return Game(tuple(state.winners()), reason, tuple(state.scores()),
                tuple((tally.decisions, tally.seconds) for tally in tallies))


def play_pair(ruleset: str, a: str, b: str, deals: int, seed: int, pool: ProcessPoolExecutor,
              thinking: dict[str, Thinking]) -> PairResult:
    """Each deal twice, seats swapped: the same shuffles for both bots (the two games of a deal run
    one after the other, so the progress printed on the way is always balanced between the seats).
    Each bot's decisions and their CPU time are added to ``thinking``."""
    seeds = [seed * 100_003 + deal for deal in range(deals)]
    games = pool.map(play_one, [ruleset] * (2 * deals), [(a, b), (b, a)] * deals,
                     [deal for deal in seeds for _ in range(2)])
    a_wins = b_wins = shared = undecided = 0
    endings: Counter[str] = Counter()
    for played, game in enumerate(games, 1):
        a_seat = (played - 1) % 2
        for seat, (decisions, seconds) in enumerate(game.thinking):
            thinking.setdefault(a if seat == a_seat else b, Thinking()).add(decisions, seconds)
        endings[game.reason] += 1
        if not game.winners:
            undecided += 1
        elif len(game.winners) > 1:
            shared += 1
        elif game.winners[0] == a_seat:
            a_wins += 1
        else:
            b_wins += 1
        if played % 10 == 0 and played < 2 * deals:  # progress on stderr, for long runs
            print(f"  {a} vs {b}: {played} games, A won {a_wins}, B won {b_wins}, endings {dict(endings)}",
                  file=sys.stderr, flush=True)
    return PairResult(a, b, 2 * deals, a_wins, b_wins, shared, undecided, tuple(endings.most_common()))


def play_alone(ruleset: str, bot: str, deals: int, seed: int, pool: ProcessPoolExecutor,
               thinking: dict[str, Thinking]) -> SoloResult:
    """Every deal of a one-seat ruleset, played by ``bot`` (its decisions added to ``thinking``)."""
    seeds = [seed * 100_003 + deal for deal in range(deals)]
    games = list(pool.map(play_one, [ruleset] * deals, [(bot,)] * deals, seeds))
    for game in games:
        thinking.setdefault(bot, Thinking()).add(*game.thinking[0])
    return SoloResult(bot, deals, sum(1 for game in games if game.winners), tuple(game.totals[0] for game in games))


def format_row(result: PairResult) -> str:
    low, high = result.interval()
    decided = result.decided_share
    endings = ", ".join(f"{reason} {count}" for reason, count in result.endings)
    return (f"| {result.a} | {result.b} | {result.games} | {result.a_wins} | {result.b_wins} "
            f"| {result.shared + result.undecided} | {result.a_rate:.3f} | [{low:.3f}, {high:.3f}] "
            f"| {'-' if decided is None else f'{decided:.3f}'} | {endings} |")


def format_solo_row(result: SoloResult) -> str:
    low, high = result.completion_interval()
    mean, mean_low, mean_high = result.mean_interval()
    return (f"| {result.bot} | {result.games} | {result.completed} | {result.completed / result.games:.3f} "
            f"| [{low:.3f}, {high:.3f}] | {mean:.2f} | [{mean_low:.2f}, {mean_high:.2f}] |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="parker-1939")
    parser.add_argument("--bots", default="random,greedy,cautious,mcts",
                        help="seat specifications, comma-separated (mcts:iterations=200 allowed)")
    parser.add_argument("--deals", type=int, default=100, help="deals per pair (each played twice), or per bot alone")
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
    alone = rules.players[1] == 1
    if not alone and not rules.players[0] <= 2 <= rules.players[1]:
        print(f"error: {args.ruleset} is not for two players (nor one)", file=sys.stderr)
        return 2
    thinking: dict[str, Thinking] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        if alone:
            print(f"{args.ruleset}, each bot alone on the same {args.deals} deals, seed {args.seed}; "
                  f"count: {rules.match.counter}")
            print("| bot | deals | completed | completion rate | 95% Wilson | mean count | 95% interval |")
            print("|---|---|---|---|---|---|---|")
            for bot in bots:
                print(format_solo_row(play_alone(args.ruleset, bot, args.deals, args.seed, pool, thinking)),
                      flush=True)
        else:
            print(f"{args.ruleset}, 2 seats, {args.deals} deals per pair, each played with seats swapped, "
                  f"seed {args.seed}")
            print("| A | B | games | A wins | B wins | shared or nobody | A score rate | 95% Wilson "
                  "| A's share of decided | how the games ended |")
            print("|---|---|---|---|---|---|---|---|---|---|")
            for a, b in itertools.combinations(bots, 2):
                print(format_row(play_pair(args.ruleset, a, b, args.deals, args.seed, pool, thinking)), flush=True)
    print("CPU time a decision, on this machine: " + "; ".join(f"{bot} {spent}" for bot, spent in thinking.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
