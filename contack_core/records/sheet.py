"""The score sheet as the rule book's Score Keeper keeps it: a column under each player's name.

The Contactack rule sheet asks the Scorekeeper to "credit each player with each counting
contact play that he makes, writing down the amount of the count in a column under the
player's name", and at the close of the hand to add each column. This sheet writes each count
made in the scorer's column, and at the close of each hand the tiles held and the hand's score
as the ruleset counts it (points, chips or pieces: whatever its match is decided on), then the
totals.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from contack_core.engine.events import HandResult
from contack_core.engine.state import GameState


@attrs.define
class HandColumn:
    """One hand on the sheet: each count made, in order (seat, points), and how the hand ended."""

    number: int
    counts: list[tuple[int, int]] = attrs.field(factory=list)
    result: HandResult | None = None


@attrs.define
class ScoreSheet:
    """The sheet of one game, written as it is played."""

    seats: Sequence[str]
    hands: list[HandColumn] = attrs.field(factory=list)

    def count(self, hand: int, seat: int, points: int) -> None:
        """A play scored ``points`` (counting contacts) for ``seat`` in hand ``hand``."""
        self._hand(hand).counts.append((seat, points))

    def close(self, result: HandResult) -> None:
        self._hand(result.number).result = result

    def _hand(self, number: int) -> HandColumn:
        if not self.hands or self.hands[-1].number != number:
            self.hands.append(HandColumn(number))
        return self.hands[-1]

    def text(self, state: GameState, last_only: bool = False) -> str:
        """The sheet (or only its last hand) as columns, one per seat."""
        rules = state.rules
        width = max(7, *(len(name) + 1 for name in self.seats))
        label_width = 18

        def row(label: str, cells: Sequence[object]) -> str:
            return f"{label:<{label_width}}" + "".join(f"{str(c):>{width}}" for c in cells).rstrip()

        held_word = rules.term("held")
        score_word = rules.term("score")
        lines = [row(rules.term("scorekeeper"), self.seats)]
        hands = self.hands[-1:] if last_only else self.hands
        for column in hands:
            lines.append(f"{rules.term('hand')} {column.number}")
            for seat, points in column.counts:
                lines.append(row("", ["" if s != seat else points for s in range(len(self.seats))]))
            added = [sum(p for s, p in column.counts if s == seat) for seat in range(len(self.seats))]
            result = column.result
            if result is None:
                lines.append(row("  so far", added))
                continue
            if column.counts:
                lines.append(row("  added", added))
            if state.seat_zones:  # a game of pieces on a board holds nothing in hand
                lines.append(row(f"  {rules.term('tiles')} {held_word}", result.held))
            lines.append(f"  {rules.term(result.reason)}")
            lines.append(row(f"  {score_word}", result.scores))
        if not last_only:
            lines.append(row(rules.term("total"), state.running_scores()))  # as the web table's sheet
        return "\n".join(lines)
