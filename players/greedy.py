"""The greedy bot: the action that leaves its side best placed right now, by the ruleset's own count."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from contack_core.engine.bots import Player, keeps_deadline
from players.evaluation import cannot_judge, feature_score, lead, standing, tile_weight

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState


class GreedyPlayer(Player):
    """Tries every legal action on a copy of the state resampled for its seat and keeps the one
    whose result is worth most (see :mod:`players.evaluation`): a game won, then the side's
    lead in the counter the match is decided on (a game tied by a move cap ranks below playing
    on with a lead: :func:`players.evaluation.standing`); ties go to what the position's features
    then say (:func:`players.evaluation.feature_score`: on a board of pieces, out of reach, then
    towards contact), then to the action that sheds the heaviest tile, then to a coin seeded by
    the position; alone at the table (a solitaire), to the first
    action the ruleset lists instead (its order of cells keeps the figure close: 25.2 Triangles
    placed a game in Solitaire No. 1 against 23.8 with the coin, over 300 deals)."""

    name = "greedy"
    description = "the action worth most right now by the ruleset's own count (points, chips, pieces left)"

    @classmethod
    def cannot_play(cls, rules: Rules) -> str | None:
        """Every ruleset whose match is decided on a counter (see :func:`players.evaluation.cannot_judge`)."""
        return cannot_judge(rules)

    @keeps_deadline  # one ply: bounded work; cautious, which adds a ply, stops its replies at the deadline
    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current
        # The sample of what is hidden comes from a coin seeded by the position, not by the bot: greedy
        # and cautious, which differ only in looking one seat ahead, play alike where there is no seat
        # ahead (a solitaire).
        coin = random.Random(state.hand_number * 100_003 + state.turns)
        world = state.resample(seat, coin)
        alone = state.seat_count == 1
        best, best_key = legal[0], None
        for action in legal:
            after = world.clone()
            after.apply(action)
            net = lead(after, seat) - self.cost(after, seat)
            key = (standing(after, seat, net), net, feature_score(after, seat), tile_weight(state, action),
                   0.0 if alone else coin.random())
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    def cost(self, after: GameState, seat: int) -> float:
        """What an action is marked down by, given the state it leads to."""
        return 0
