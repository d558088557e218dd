"""How games of random players end: the count of each hand-end reason, and the game lengths.

``python -m players.endings klauber-1937 --seats 2 --games 200`` plays seeded games of random
players (seed 0, 1, ...) and prints how many ended by each reason (a win, a tie, the move
cap...), the median and longest game in turns, and the share of moves that come back to the
point they started from. The figures depend only on the seeds, not on the machine: they
show whether random play reaches a natural end, not how fast it runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Sequence

import attrs

from contack_core import RulesetError, load_rules
from contack_core.engine.actions import Move
from contack_core.engine.bots import Player
from contack_core.engine.referee import play_game, seat_seed
from players.random_player import RandomPlayer


@attrs.frozen
class Endings:
    """What ``games`` seeded random games came to."""

    games: int
    reasons: dict[str, int]
    median_turns: float
    longest: int
    come_back_share: float


class CountingRandom(RandomPlayer):
    """The random bot, counting its moves and those that end where they began."""

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.moves = 0
        self.come_back = 0

    def choose(self, state):  # type: ignore[no-untyped-def]
        action = super().choose(state)
        if isinstance(action, Move):
            self.moves += 1
            self.come_back += action.path[-1] == action.origin
        return action


def endings(ruleset: str, seats: int, games: int, options: dict[str, str]) -> Endings:
    rules = load_rules(ruleset, options)
    reasons: Counter[str] = Counter()
    turns = []
    moves = come_back = 0
    for seed in range(games):
        players: list[Player] = [CountingRandom(seat_seed(seed, seat)) for seat in range(seats)]
        state = play_game(rules, players, seed)
        reasons[state.hand_results[-1].reason] += 1
        turns.append(state.turns)
        moves += sum(p.moves for p in players)  # type: ignore[attr-defined]
        come_back += sum(p.come_back for p in players)  # type: ignore[attr-defined]
    return Endings(games, dict(reasons.most_common()), statistics.median(turns), max(turns),
                   come_back / moves if moves else 0.0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.endings", description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options = {}
    for text in args.option:
        key, sep, value = text.partition("=")
        if not sep:
            parser.error(f"--option takes KEY=VALUE, not {text!r}")
        options[key] = value
    try:
        found = endings(args.ruleset, args.seats, args.games, options)
    except (RulesetError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{args.ruleset}, {args.seats} seats, {found.games} games of random players"
          f"{' with ' + ', '.join(args.option) if args.option else ''}")
    for reason, count in found.reasons.items():
        print(f"  {reason}: {count} ({100 * count / found.games:.0f}%)")
    print(f"  turns: median {found.median_turns:g}, longest {found.longest}")
    print(f"  moves ending where they began: {100 * found.come_back_share:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
