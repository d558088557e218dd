"""Information-set Monte Carlo tree search over resampled states, for any ruleset and seat count.

Each iteration draws one state from the bot's information set (:meth:`GameState.resample`: what
its seat sees kept, every hidden tile redrawn, as OpenSpiel's IS-MCTS does with
``resample_from_infostate``) and walks one shared tree whose edges are actions. An action is
only selectable in the samples where it is legal, so UCB counts each child's *availability*
rather than its parent's visits (Cowling, Powley and Whitehouse, "Information Set Monte Carlo
Tree Search", 2012). A node of more than ``width`` actions (a board of many moves) is widened
progressively (Chaslot et al., "Progressive Strategies for Monte-Carlo Tree Search", 2008): its
untried actions are taken in the order of what they gain the mover at once, and a node visited n
times has at most 2 + 2 sqrt(n) children, so a small search looks at the opponent's replies to
its likeliest moves instead of trying every move once. Playouts run to the end of the hand, or
``depth`` actions (a cut-off for games that last long); then every seat is rewarded by what its
ruleset counts:

- a finished game of several sides by its outcome (1 won, 0 lost, a shared or tied game between);
- otherwise by its side's lead in the match's counter as the ruleset would count it if the hand
  ended now (:mod:`players.evaluation`), standardised by the leads this search has seen, so a
  lead of ten points in Parker and of one piece on a board of pieces weigh alike, then squashed by a
  logistic into (0, 1). A solitaire's lead is its own count, Triangles placed, and a solitaire
  completed is worth 1.

The search stops at the iteration limit (its own ``iterations`` or the game's budget, whichever
is lower) or the time limit, whichever comes first. Given a seed and an iteration limit the bot
is deterministic; it holds no shared state, so games may run in parallel processes or threads.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.engine.bots import Parameter, Player, PlayerSpecError, keeps_deadline
from contack_core.engine.information import Visibility
from players.evaluation import cannot_judge, feature_score, lead, leads, outcome, sides, tile_weight

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: Of the game's time per move, the share the search may use (the rest is the referee's margin).
_TIME_SHARE = 0.7
#: Standardised leads beyond this many deviations all count as won (or lost) outright.
_CLAMP = 30.0
#: What a game ended with nobody winning takes from a leading seat's reward (and gives one behind).
_TIED = 0.1


def _widening(visits: int) -> int:
    """How many children a node visited ``visits`` times may have (progressive widening: a node of
    many actions deepens its most promising ones before it tries them all)."""
    return 2 + int(2 * math.sqrt(visits))


class _Node:
    """Statistics of the action leading here, from the view of the seat that took it."""

    __slots__ = ("available", "children", "gains", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[Action, _Node] = {}
        #: Each action's one-step gain for the seat to move here, the order untried actions are
        #: expanded in (filled the first time a sample offers the action).
        self.gains: dict[Action, tuple[float, float]] = {}


class _Spread:
    """The running mean and spread of each seat's lead over one search (Welford's method)."""

    __slots__ = ("count", "mean", "squares")

    def __init__(self, seats: int) -> None:
        self.count = 0
        self.mean = [0.0] * seats
        self.squares = [0.0] * seats

    def add(self, values: list[float]) -> None:
        self.count += 1
        count = self.count
        mean, squares = self.mean, self.squares
        for seat, value in enumerate(values):
            delta = value - mean[seat]
            mean[seat] += delta / count
            squares[seat] += delta * (value - mean[seat])

    def standardised(self, seat: int, value: float) -> float:
        if self.count < 2:
            return 0.0
        spread = math.sqrt(self.squares[seat] / (self.count - 1))
        if spread < 1e-9:
            return 0.0
        return (value - self.mean[seat]) / spread


class MctsPlayer(Player):
    """Information-set MCTS over resampled states; playouts to the hand's end or a cut-off."""

    name = "mcts"
    description = "information-set Monte Carlo tree search over resampled states, iteration and time budgets"
    parameters: ClassVar[dict[str, Parameter]] = {
        "iterations": Parameter("iterations", int, 400, "search iterations per move"),
        "time": Parameter("time", float, 0.0, "seconds per move (0: only the iteration limit)"),
        "c": Parameter("c", float, 0.7, "UCB exploration constant"),
        "depth": Parameter("depth", int, 40, "playout cut-off in actions, then the position is judged (0: none)"),
        "rollout": Parameter("rollout", str, "greedy",
                             "playout policy: 'random', or 'greedy' (each playout action the one worth most now)"),
        "width": Parameter("width", int, 12, "more actions than this make a board of many moves: the tree "
                                             "widens such a node progressively, best one-step gain first, and a "
                                             "greedy playout step takes one of them at random"),
    }

    @classmethod
    def cannot_play(cls, rules: Rules) -> str | None:
        """Every ruleset whose match is decided on a counter (see :func:`players.evaluation.cannot_judge`)."""
        return cannot_judge(rules)

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        if self.params["iterations"] < 1:
            raise PlayerSpecError("player 'mcts': iterations must be at least 1")
        if self.params["rollout"] not in ("random", "greedy"):
            raise PlayerSpecError(f"player 'mcts': rollout is 'random' or 'greedy', not {self.params['rollout']!r}")
        if self.params["depth"] < 0 or self.params["width"] < 1:
            raise PlayerSpecError("player 'mcts': depth is 0 or more and width at least 1")
        self.rng = random.Random(seed)
        self.visibility: Visibility | None = None

    def start_game(self, rules: Any, seat: int, seat_count: int) -> None:
        self.visibility = Visibility.of(rules)

    def _limits(self) -> tuple[int, float | None]:
        iterations = self.params["iterations"]
        if self.budget.iterations is not None:
            iterations = min(iterations, self.budget.iterations)
        seconds = [s for s in (self.params["time"] or None,
                               self.budget.time_per_move and self.budget.time_per_move * _TIME_SHARE) if s]
        return iterations, (min(seconds) if seconds else None)

    @keeps_deadline  # the search stops well before self.deadline
    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.visibility is None:
            self.visibility = Visibility.of(state.rules)
        iterations, seconds = self._limits()
        now = time.perf_counter()
        deadline = None if seconds is None else now + seconds
        if self.deadline is not None:  # the referee's: keep its margin of what is left of the move
            deadline = min(deadline or self.deadline, now + (self.deadline - now) * _TIME_SHARE)
        root = _Node(state.current)
        spread = _Spread(state.seat_count)
        for done in range(iterations):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            self._iterate(root, state, spread)

        def rank(action: Action) -> tuple[int, float, int]:
            child = root.children.get(action)
            if child is None:
                return -1, 0.0, 0
            return child.visits, child.reward / child.visits, tile_weight(state, action)

        return max(legal, key=rank)

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, root: _Node, state: GameState, spread: _Spread) -> None:
        rng = self.rng
        world = self.visibility.resample(state, state.current, rng)  # type: ignore[union-attr]
        hand = world.hand_number
        node = root
        path = [root]
        c, width = self.params["c"], self.params["width"]
        while not world.over and world.hand_number == hand:
            if world.chance:  # a pile shuffled in play: the tree is open-loop, chance is sampled on the way
                world.apply(world.sample_chance(rng))
                continue
            legal = world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            if untried and len(legal) <= width:
                action = untried[int(rng.random() * len(untried))]
            elif untried and (len(children) < _widening(node.visits) or len(untried) == len(legal)):
                action = self._most_promising(node, world, untried, node is root)
            else:
                action = None
            if action is not None:
                child = _Node(world.current)
                child.available = 1
                children[action] = child
                world.apply(action)
                path.append(child)
                break
            best_score = -1.0
            action = legal[0]
            for candidate in legal:
                child = children.get(candidate)
                if child is None:
                    continue
                score = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if score > best_score:
                    best_score, action = score, candidate
            node = children[action]
            world.apply(action)
            path.append(node)
        self._playout(world, hand, len(path) - 1)
        rewards = self._rewards(world, spread)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += rewards[visited.seat]

    def _most_promising(self, node: _Node, world: GameState, untried: list[Action], root: bool) -> Action:
        """The untried action that adds most to the mover's lead at once; ties at the root (the
        choice being made) by what the position's features then say for the mover
        (:func:`players.evaluation.feature_score`: on a board of pieces, towards contact, out of
        reach), below it (the replies: their captures come first either way) and then by a coin."""
        gains = node.gains
        seat = world.current
        rng = self.rng
        for action in untried:
            if action not in gains:
                after = world.clone()
                after.apply(action)
                gains[action] = (leads(after)[seat], feature_score(after, seat) if root else 0.0, rng.random())
        return max(untried, key=gains.__getitem__)

    def _playout(self, world: GameState, hand: int, taken: int) -> None:
        rng = self.rng
        greedy = self.params["rollout"] == "greedy"
        depth, width = self.params["depth"], self.params["width"]
        left = max(depth - taken, 0) if depth else -1  # the tree's own actions count towards the depth
        cap = world.rules.turn_cap  # a hand the rules never end (every seat may always pass) ends a playout here
        while left and not world.over and world.hand_number == hand and world.turns < cap:
            if world.chance:
                world.apply(world.sample_chance(rng))
                continue
            legal = world.legal_actions()
            if greedy and len(legal) > 1:
                if len(legal) > width:  # a board of many moves: the best of ``width`` drawn at random
                    legal = rng.sample(legal, width)
                world.apply(self._greedy_pick(world, legal))
            else:
                world.apply(legal[int(rng.random() * len(legal))])
            left -= 1

    def _greedy_pick(self, world: GameState, legal: list[Action]) -> Action:
        """The action that adds most to the mover's lead now (its side's count against the best
        other side's: in a game where counts only fall, such as pieces left on a board, its own
        count would never favour a capture), ties by a coin."""
        seat = world.current
        rng = self.rng
        best, best_key = legal[0], None
        for action in legal:
            after = world.clone()
            after.apply(action)
            key = (lead(after, seat), rng.random())
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    def _rewards(self, world: GameState, spread: _Spread) -> list[float]:
        """Each seat's reward in [0, 1]: the outcome of a game of several sides won or lost, else its
        standardised value squashed: its lead, plus what the position's features say for it (less
        than one unit of the count: :func:`players.evaluation.feature_score`); a game of one side
        won outright is worth 1. A game of several sides ended with nobody winning (a move cap, a
        blocked board) is worth what its standing lead would be worth, less ``_TIED`` for a seat
        that leads (a tie throws its lead away) and more for one behind."""
        lead = leads(world)
        has_features = bool(world.features()) if not world.over else False
        values = [value + (feature_score(world, seat) if has_features else 0.0) for seat, value in enumerate(lead)]
        spread.add(values)
        over = world.over
        several = len(sides(world)) > 1
        if over and several and world.winners():
            return [outcome(world, seat) for seat in range(world.seat_count)]
        rewards = []
        for seat, value in enumerate(values):
            if over and outcome(world, seat) == 1.0 and not several:
                rewards.append(1.0)
                continue
            z = max(-_CLAMP, min(_CLAMP, spread.standardised(seat, value)))
            reward = 1.0 / (1.0 + math.exp(-z))
            if over and several:  # nobody won
                tied = outcome(world, seat)
                reward = max(0.0, reward - _TIED) if lead[seat] > 0 else min(1.0, max(tied, reward + _TIED)) \
                    if lead[seat] < 0 else tied
            rewards.append(reward)
        return rewards
