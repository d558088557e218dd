"""The greedy bot: the play that scores most right now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.engine.actions import Play
from contack_core.engine.bots import Player
from players.common import TILE_FAMILY, immediate_gain, tile_weight

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.state import GameState


class GreedyPlayer(Player):
    """Highest immediate score; ties go to the play that sheds the heaviest tile."""

    name = "greedy"
    description = "the highest immediate score; ties broken by getting rid of high tiles"
    supports = TILE_FAMILY

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current
        best, best_key = legal[0], None
        for action in legal:
            gain, after = immediate_gain(state, action, seat)
            key = (gain - self.cost(after, seat), type(action) is Play, tile_weight(state, action))
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    def cost(self, after: GameState | None, seat: int) -> float:
        """What a play is marked down by, given the state it leads to (None: it ended the hand)."""
        return 0
