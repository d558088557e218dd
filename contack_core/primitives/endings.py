"""End-of-hand primitives: each says, after an action, whether the hand is over now."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from contack_core.events import Event, Passed, Played
from contack_core.primitives.registry import BuildContext, Primitive

if TYPE_CHECKING:
    from contack_core.state import GameState


class HandEnding(Primitive):
    slot = "hand_end"
    #: The events after which this ending is checked.
    after: ClassVar[tuple[type, ...]] = (Played,)
    schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def ends_hand(self, state: GameState, event: Event) -> bool:
        raise NotImplementedError


class ZoneEmptied(HandEnding):
    """The hand ends when a seat plays the last tile of its zone (it "went out")."""

    name = "zone-emptied"
    schema = {"type": "object", "required": ["zone"], "properties": {"zone": {"type": "string"}},
              "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        self.zone = context.zone(self.params["zone"], "zone", ("hand",)).key

    def ends_hand(self, state: GameState, event: Event) -> bool:
        if type(event) is Played and not state.seat_zones[self.zone][event.seat]:
            state.went_out = event.seat
            return True
        return False


class AllPassed(HandEnding):
    """The hand ends when every seat has passed in turn, one after another."""

    name = "all-passed"
    after = (Passed,)

    def ends_hand(self, state: GameState, event: Event) -> bool:
        return type(event) is Passed and state.passes >= state.seat_count


class NoLegalCell(HandEnding):
    """The hand ends at once when a play leaves no cell any tile could go to."""

    name = "no-legal-cell"

    def ends_hand(self, state: GameState, event: Event) -> bool:
        return not state.rules.placement.legal_cells(state.figure)
