"""Monte Carlo tree search with determinised draws (single-observer information-set MCTS).

In Contack every hand is public; the only hidden thing is the order of the face-down
pile. Each iteration therefore copies the state, shuffles the pile's unseen tiles with the
bot's own RNG (one *determinisation*), and walks one shared tree whose edges are actions.
An action is only selectable in determinisations where it is legal, so UCB counts each
child's *availability* rather than its parent's visits (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", 2012). Playouts run to the end of the hand;
each seat is rewarded by a logistic of its lead over the best other seat, so the search
plays for winning the game rather than for points alone.

The search stops at the iteration limit (its own ``iterations`` or the game's budget,
whichever is lower) or the time limit, whichever comes first. Given a seed and an
iteration limit the bot is deterministic; it holds no shared state, so games may run in
parallel processes or threads.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.engine.actions import Play
from contack_core.engine.bots import Parameter, Player
from contack_core.engine.chance import shuffled
from players.common import TILE_FAMILY, immediate_gain, running_scores, tile_weight

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: Of the game's time per move, the share the search may use (the rest is the referee's margin).
_TIME_SHARE = 0.7


class _Node:
    """Statistics of the action leading here, from the view of the seat that took it."""

    __slots__ = ("available", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[Action, _Node] = {}


class MctsPlayer(Player):
    """Information-set MCTS over determinised pile orders; playouts to the end of the hand."""

    name = "mcts"
    description = "Monte Carlo tree search over sampled pile orders, iteration and time budgets (not solitaires)"
    supports = TILE_FAMILY
    parameters: ClassVar[dict[str, Parameter]] = {
        "iterations": Parameter("iterations", int, 400, "search iterations per move"),
        "time": Parameter("time", float, 0.0, "seconds per move (0: only the iteration limit)"),
        "c": Parameter("c", float, 0.7, "UCB exploration constant"),
        "scale": Parameter("scale", float, 25.0, "points of lead worth a reward of 0.73 (logistic scale)"),
        "rollout": Parameter("rollout", str, "greedy",
                             "playout policy: 'random', or 'greedy' (each playout move the best-scoring play)"),
    }

    @classmethod
    def supports_rules(cls, rules: Rules) -> bool:
        """Not the solitaires: in Solitaire No. 1 its search picks plays from the discard pile that are
        not legal (a fault every game), and its reward is a lead over other seats."""
        return super().supports_rules(rules) and rules.players[1] > 1

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        from contack_core.engine.bots import PlayerSpecError

        if self.params["iterations"] < 1:
            raise PlayerSpecError("player 'mcts': iterations must be at least 1")
        if self.params["rollout"] not in ("random", "greedy"):
            raise PlayerSpecError(f"player 'mcts': rollout is 'random' or 'greedy', not {self.params['rollout']!r}")
        self.rng = random.Random(seed)
        self.hidden: tuple[str, ...] = ()

    def start_game(self, rules: Any, seat: int, seat_count: int) -> None:
        self.hidden = tuple(name for name, zone in rules.zones.items()
                            if not zone.per_seat and getattr(zone, "kind", "") == "pile")

    def _limits(self) -> tuple[int, float | None]:
        iterations = self.params["iterations"]
        if self.budget.iterations is not None:
            iterations = min(iterations, self.budget.iterations)
        seconds = [s for s in (self.params["time"] or None,
                               self.budget.time_per_move and self.budget.time_per_move * _TIME_SHARE) if s]
        return iterations, (min(seconds) if seconds else None)

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        iterations, seconds = self._limits()
        deadline = None if seconds is None else time.perf_counter() + seconds
        root = _Node(state.current)
        if not self.hidden:
            self.start_game(state.rules, state.current, state.seat_count)
        for done in range(iterations):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            self._iterate(root, state)
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1,
                                         tile_weight(state, a)))

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, root: _Node, state: GameState) -> None:
        rng = self.rng
        world = state.clone()
        for zone in self.hidden:  # sorted first, so the pile's real order cannot leak into the sample
            world.zones[zone] = shuffled(sorted(world.zones[zone]), rng)
        hand = world.hand_number
        node = root
        path = [root]
        c = self.params["c"]
        while not world.over and not world.chance and world.hand_number == hand:
            legal = world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = _Node(world.current)
                child.available = 1
                children[action] = child
                world.apply(action)
                path.append(child)
                break
            best_score = -1.0
            action = legal[0]
            for candidate in legal:
                child = children[candidate]
                score = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if score > best_score:
                    best_score, action = score, candidate
            node = children[action]
            world.apply(action)
            path.append(node)
        self._playout(world, hand)
        rewards = self._rewards(world)
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += rewards[visited.seat]

    def _playout(self, world: GameState, hand: int) -> None:
        rng = self.rng
        greedy = self.params["rollout"] == "greedy"
        while not world.over and not world.chance and world.hand_number == hand:
            legal = world.legal_actions()
            if greedy and len(legal) > 1:
                world.apply(self._greedy_pick(world, legal))
            else:
                world.apply(legal[int(rng.random() * len(legal))])

    def _greedy_pick(self, world: GameState, legal: list[Action]) -> Action:
        seat = world.current
        best, best_key = legal[0], None
        for action in legal:
            gain = immediate_gain(world, action, seat)[0] if type(action) is Play else 0
            key = (gain, self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    def _rewards(self, world: GameState) -> list[float]:
        scores = running_scores(world)
        scale = self.params["scale"]
        rewards = []
        for seat, score in enumerate(scores):
            lead = score - max(s for other, s in enumerate(scores) if other != seat)
            rewards.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, lead / scale)))))
        return rewards
