"""What the built-in bots share: reading scores mid-hand, and an action's immediate worth.

Everything here goes through the public state API (``legal_actions``, ``clone``,
``apply``) plus the score counters, so it works for any ruleset whose seats score with
counters. A draw is never tried on a copy: that would reveal the top of the pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.engine.actions import Action, Play

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

#: The ruleset family the score-reading bots are written and tested for.
TILE_FAMILY = frozenset({"parker-1939"})


def running_scores(state: GameState) -> list[int]:
    """Each seat's score as the match counts it, including the hand in progress.

    ``scores()`` moves only when a hand ends; a bot judging a play needs the points it
    makes now. A solitaire counts its score when the hand ends (the tiles in the figure),
    so there the running score is what the hand would count if it ended now: otherwise
    every play would look worthless except the one that ends the game, and a bot would
    seek to block itself.
    """
    counter = state.rules.match.counter
    totals = state.totals[counter]
    if state.over:
        return list(totals)
    running = [total + gain for total, gain in zip(totals, state.hand_gains[counter])]
    if state.seat_count == 1:
        running[0] += hand_end_value(state, counter)
    return running


def hand_end_value(state: GameState, counter: str) -> int:
    """What ``counter``'s ``on_hand_end`` would add to the only seat if the hand ended now (0 if it has none)."""
    hand_end_values = getattr(state.rules.counters[counter], "hand_end_values", None)
    if hand_end_values is None:
        return 0
    return int(hand_end_values(state)[0])


def immediate_gain(state: GameState, action: Action, seat: int) -> tuple[int, GameState | None]:
    """What ``action`` earns ``seat`` at once (points made, or a hand ended), and the state after it.

    Only plays are tried, on a copy; any other action is worth 0 and gives no state back.
    """
    if type(action) is not Play:
        return 0, None
    before = running_scores(state)[seat]
    after = state.clone()
    after.apply(action)
    return running_scores(after)[seat] - before, after


def tile_weight(state: GameState, action: Action) -> int:
    """How heavy the tile an action gets rid of is (the sum of its numbers; 0 for no tile)."""
    if type(action) is not Play:
        return 0
    return sum(state.rules.tiles.values[action.tile])


def best_reply_gain(state: GameState) -> int:
    """The most the seat to move in ``state`` can earn at once (0 at a chance node or game end)."""
    if state.over or state.chance:
        return 0
    seat = state.current
    return max((immediate_gain(state, action, seat)[0] for action in state.legal_actions()), default=0)
