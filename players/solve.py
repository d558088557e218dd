"""What a solitaire's deals allow: the share any player could complete, and what honest play reaches.

``python -m players.solve --ruleset solitaire-1 --deals 100 --seed 1`` plays the deals
``players.strength`` plays (the same game seeds) and prints, with 95% Wilson intervals:

- **clairvoyant**: the share of deals that can be completed at all, by a search that knows
  every hidden tile (the stock's order, what lies under a pile's top). No player, however
  good, completes more: it is the upper bound of every bot.
- **honest**: the share an honest player completes who, at each choice, takes the action
  most likely to lead to completion over ``--samples`` orders of the tiles it cannot see
  (states resampled from what the seat sees, :meth:`GameState.resample`; the same samples
  for every action), each judged by the clairvoyant search. It only ever acts on what it
  sees, so this is a share an honest player reaches; no honest player can beat the
  clairvoyant one.

A deal is completed when the game ends with its one seat among the winners (the ruleset's
own goal). The search is a depth-first search over the seat's choices, applying every forced
action in place; ``--budget`` bounds the states one search may visit (a deal whose search
runs out is counted as not completed and reported).

Any ruleset of one seat whose chance is all in its set-up works (a ruleset that shuffles again
in play, such as ``examples/solitaire-redeal``, is refused: its later draws are not fixed when
the game starts); nothing here knows a solitaire's rules.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

from contack_core import GameState, RulesetError, load_rules
from contack_core.engine.rules import Rules
from players.strength import wilson

#: States one clairvoyant search may visit before it gives up on a deal.
DEFAULT_BUDGET = 200_000


class OutOfBudget(Exception):
    """The search visited more states than it was allowed."""


class ChanceInPlay(ValueError):
    """The ruleset reaches a chance node after its set-up (a pile shuffled again in play): what
    comes of it is not fixed when the game starts, so no search can know it."""


@attrs.define
class Search:
    """A clairvoyant search: can this state still be completed, every hidden tile known?"""

    budget: int
    visited: int = 0

    def completable(self, state: GameState) -> bool:
        """True when some sequence of the seat's actions completes the game from ``state``
        (which it may change: pass a clone)."""
        while not state.is_over():
            self.visited += 1
            if self.visited > self.budget:
                raise OutOfBudget
            if state.is_chance_node():  # chance after the start: the state knows nothing better
                raise ChanceInPlay("it reaches a chance node after the deal (a pile shuffled in play): the "
                                   "clairvoyant search needs every draw fixed when the game starts")
            actions = state.legal_actions()
            if len(actions) == 1:
                state.apply(actions[0])
                continue
            for action in actions:
                branch = state.clone()
                branch.apply(action)
                if self.completable(branch):
                    return True
            return False
        return completed(state)


def completed(state: GameState) -> bool:
    return state.winners() == [0]


def dealt(rules: Rules, seed: int) -> GameState:
    """The deal of game ``seed``, as :func:`contack_core.engine.referee.play_game` draws it."""
    state = GameState(rules, 1)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def honest_choice(state: GameState, samples: int, rng: random.Random, budget: int) -> int:
    """The index of the action most often completable over ``samples`` resampled states."""
    actions = state.legal_actions()
    worlds = [state.resample(0, rng) for _ in range(samples)]
    best, best_count = 0, -1
    for index, action in enumerate(actions):
        count = 0
        for world in worlds:
            branch = world.clone()
            branch.apply(action)
            try:
                count += Search(budget).completable(branch)
            except OutOfBudget:
                pass
        if count > best_count:
            best, best_count = index, count
    return best


@attrs.frozen
class Bounds:
    """One deal: completable by the clairvoyant search, completed by honest play, the choices met."""

    seed: int
    clairvoyant: bool
    honest: bool
    choices: int
    out_of_budget: bool


def solve_deal(ruleset: str, seed: int, samples: int, budget: int) -> Bounds:
    rules = load_rules(ruleset)
    start = dealt(rules, seed)
    out_of_budget = False
    try:
        clairvoyant = Search(budget).completable(start.clone())
    except OutOfBudget:
        clairvoyant, out_of_budget = False, True
    honest, choices = False, 0
    if clairvoyant:  # honest play cannot complete a deal nothing completes
        state, rng = start, random.Random(seed)
        while not state.is_over():
            actions = state.legal_actions()
            index = 0
            if len(actions) > 1:
                choices += 1
                index = honest_choice(state, samples, rng, budget)
            state.apply(actions[index])
        honest = completed(state)
    return Bounds(seed, clairvoyant, honest, choices, out_of_budget)


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The game seeds ``players.strength`` plays for the same ``--seed`` and ``--deals``."""
    return [seed * 100_003 + deal for deal in range(deals)]


def share(label: str, count: int, deals: int) -> str:
    low, high = wilson(count, deals)
    return f"{label}: {count} of {deals} ({100 * count / deals:.1f}% [{100 * low:.1f}, {100 * high:.1f}])"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.solve", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--ruleset", default="solitaire-1", help="a ruleset of one seat (id or path)")
    parser.add_argument("--deals", type=int, default=100, help="deals solved (those players.strength plays)")
    parser.add_argument("--seed", type=int, default=1,
                        help="the seed the deals come from, as players.strength takes it")
    parser.add_argument("--samples", type=int, default=32, help="resampled states an honest choice weighs")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help="states one search may visit (a deal that needs more counts as not completable)")
    parser.add_argument("--workers", type=int, default=2, help="processes solving deals side by side")
    args = parser.parse_args(argv)
    try:
        rules = load_rules(args.ruleset)
    except RulesetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if rules.players != (1, 1):
        print(f"error: {args.ruleset} is played by {rules.players[0]}-{rules.players[1]} seats; "
              f"the solver takes a ruleset of one seat", file=sys.stderr)
        return 2
    if args.deals < 1 or args.samples < 1 or args.budget < 1 or args.workers < 1:
        print("error: --deals, --samples, --budget and --workers are at least 1", file=sys.stderr)
        return 2
    seeds = deal_seeds(args.seed, args.deals)
    try:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(solve_deal, [args.ruleset] * len(seeds), seeds, [args.samples] * len(seeds),
                                    [args.budget] * len(seeds)))
    except ChanceInPlay as error:
        print(f"error: {args.ruleset}: {error}", file=sys.stderr)
        return 2
    print(f"{args.ruleset}: {args.deals} deals, seed {args.seed} (the deals players.strength plays), "
          f"{args.samples} samples an honest choice")
    print(share("clairvoyant (every hidden tile known): completable", sum(r.clairvoyant for r in results),
                args.deals))
    print(share("honest (what the seat sees): completed", sum(r.honest for r in results), args.deals))
    choices = [r.choices for r in results if r.clairvoyant]
    if choices:
        print(f"choices an honest game met on a completable deal: {sum(choices) / len(choices):.1f} on average")
    short = [r.seed for r in results if r.out_of_budget]
    if short:
        print(f"{len(short)} deals ran out of the search budget ({args.budget:,} states) and count as not "
              f"completable: seeds {', '.join(map(str, short[:5]))}{' ...' if len(short) > 5 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
