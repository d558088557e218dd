"""The cautious bot: greedy, minus what the play hands to the next seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.actions import Play
from contack_core.bots import Parameter, Player
from players.common import TILE_FAMILY, best_reply_gain, immediate_gain, tile_weight

if TYPE_CHECKING:
    from contack_core.actions import Action
    from contack_core.state import GameState


class CautiousPlayer(Player):
    """Scores each play as its points minus ``weight`` times the best reply of the next seat.

    Hands are public, so the next seat's best immediate reply is known exactly (one ply);
    only a reply that needs a draw is unknown, and counts as nothing.
    """

    name = "cautious"
    description = "greedy, minus what the play opens for the next player (exact for one ply)"
    supports = TILE_FAMILY
    parameters: ClassVar[dict[str, Parameter]] = {
        "weight": Parameter("weight", float, 1.0, "how much the next seat's best reply counts against a play"),
    }

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self.weight: float = self.params["weight"]

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current
        best, best_key = legal[0], None
        for action in legal:
            gain, after = immediate_gain(state, action, seat)
            given = 0 if after is None or after.current == seat else best_reply_gain(after)
            key = (gain - self.weight * given, type(action) is Play, tile_weight(state, action))
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best
