"""The cautious bot: greedy, minus what the play hands to the next seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.engine.bots import Parameter
from players.common import best_reply_gain
from players.greedy import GreedyPlayer

if TYPE_CHECKING:
    from contack_core.engine.state import GameState


class CautiousPlayer(GreedyPlayer):
    """Scores each play as its points minus ``weight`` times the best reply of the next seat.

    Hands are public, so the next seat's best immediate reply is known exactly (one ply);
    only a reply that needs a draw is unknown, and counts as nothing.
    """

    name = "cautious"
    description = "greedy, minus what the play opens for the next player (exact for one ply)"
    parameters: ClassVar[dict[str, Parameter]] = {
        "weight": Parameter("weight", float, 1.0, "how much the next seat's best reply counts against a play"),
    }

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self.weight: float = self.params["weight"]

    def cost(self, after: GameState | None, seat: int) -> float:
        """``weight`` times the next seat's best immediate reply (nothing if the turn stays)."""
        if after is None or after.current == seat:
            return 0
        return self.weight * best_reply_gain(after)
