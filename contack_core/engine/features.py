"""Features of a position: generic measures, seat by seat, that a bot may weigh beside the score.

The score alone is flat while nothing is being scored: in a game of pieces on a board nothing
counts until two pieces touch, so a bot that reads only the score wanders. A ruleset's primitives
may therefore say more about a position, in terms of no particular game: how far apart the
nearest opposing pieces stand, how many of a seat's pieces an opponent could take with one move.
Each is a :class:`Feature`: a value a seat, and which way is better for the seat. A primitive
offers them by a method ``features(state) -> dict[str, Feature]`` (the turn rules, then the
board's primitive, each listing its own most telling first); :meth:`GameState.features` gathers
them. A ruleset whose primitives offer none has no features, and a bot judges it by the score
alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import attrs

if TYPE_CHECKING:
    from contack_core.engine.state import GameState


@attrs.frozen
class Feature:
    """One measure of a position: ``values[seat]`` for every seat, ``better`` the way that is good
    for that seat, ``about`` what it measures, in words. ``contested``: what is good for one side
    is bad for the others (pieces under attack), so a seat weighs it as a lead, its own value
    against the best other side's, as it weighs the score; otherwise (how far a side stands from
    the others: the same distance for both ends of it) by its own value alone."""

    values: tuple[float, ...]
    better: Literal["lower", "higher"]
    about: str
    contested: bool = False

    def good(self, seat: int) -> float:
        """``seat``'s value signed so that more is always better for it."""
        value = self.values[seat]
        return -value if self.better == "lower" else value


def position_features(state: GameState) -> dict[str, Feature]:
    """The features the ruleset's turn rules and board primitive offer for ``state``, most telling
    first (the turn rules', which know what a move can take, then the board's)."""
    found: dict[str, Feature] = {}
    rules = state.rules
    offers = [rule.features(state) for rule in rules.turn]
    offers.append(rules.board.features(state))
    for offer in offers:
        for name, feature in offer.items():
            found.setdefault(name, feature)
    return found
