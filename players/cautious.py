"""The cautious bot: greedy, minus what the action hands to the next seat."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.engine.bots import Parameter
from players.evaluation import lead
from players.greedy import GreedyPlayer

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

#: Of the time per move, the share the replies may be checked in (the rest is the referee's margin).
_TIME_SHARE = 0.7


class CautiousPlayer(GreedyPlayer):
    """Scores each action as greedy does, less ``weight`` times the most the next seat can then
    gain in its own lead with one action (tried on the same resampled copy: what the bot cannot
    see, such as a pile's order or a closed hand, stays a sample)."""

    name = "cautious"
    description = "greedy, minus the best immediate reply of the next seat (one ply ahead)"
    parameters: ClassVar[dict[str, Parameter]] = {
        "weight": Parameter("weight", float, 1.0, "how much the next seat's best reply counts against an action"),
    }

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self.weight: float = self.params["weight"]

    def cost(self, after: GameState, seat: int) -> float:
        """``weight`` times the next seat's best one-action gain (nothing while the turn stays, or at
        a chance node, or once the game is over)."""
        if after.over or after.chance or after.current == seat:
            return 0
        if self.deadline is not None and self.budget.time_per_move is not None \
                and time.perf_counter() > self.deadline - (1 - _TIME_SHARE) * self.budget.time_per_move:
            return 0  # 70% of the move gone: the remaining actions are judged as greedy judges them
        return self.weight * best_reply_gain(after)


def best_reply_gain(state: GameState) -> float:
    """The most the seat to move in ``state`` can add to its lead with one action."""
    seat = state.current
    before = lead(state, seat)
    best = None
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        gain = lead(after, seat) - before
        if best is None or gain > best:
            best = gain
    return best or 0
