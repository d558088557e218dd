"""Scoring primitives: per-seat counters and what changes them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.events import Played
from contack_core.primitives.registry import BuildContext, Primitive

if TYPE_CHECKING:
    from contack_core.state import GameState

#: Names an ``on_play`` expression may read.
PLAY_VALUES = ("points", "contacts", "opportunity")
#: Names an ``on_hand_end`` expression may read.
HAND_END_VALUES = ("tiles_held", "went_out", "seats")


class Counter(Primitive):
    """A number kept per seat (a score, chips): ``initial`` at the start of the game,
    ``on_play`` added to the seat that plays (over the play's ``points``, ``contacts``,
    ``opportunity``), ``on_hand_end`` added to every seat when a hand ends (over its
    ``tiles_held``, ``went_out`` (1 for the seat that played out, else 0) and ``seats``).
    """

    name = "counter"
    slot = "scoring"
    schema = {
        "type": "object",
        "properties": {
            "initial": {"type": ["integer", "string"]},
            "on_play": {"type": ["integer", "string"]},
            "on_hand_end": {"type": ["integer", "string"]},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.initial = context.constant(self.params.get("initial", 0), "initial")
        self.play_gain = context.expression(self.params.get("on_play", 0), PLAY_VALUES, "on_play")
        self.hand_end_gain = context.expression(self.params.get("on_hand_end", 0), HAND_END_VALUES, "on_hand_end")
        # The common case, "on_play: points", skips the call in the hot loop.
        self._gain_is_points = self.play_gain.source.strip() == "points"

    def on_play(self, state: GameState, event: Played) -> None:
        if self._gain_is_points:
            gain = event.points
        else:
            gain = self.play_gain.evaluate(
                {"points": event.points, "contacts": event.contacts, "opportunity": event.opportunity})
        if gain:
            state.hand_gains[self.key][event.seat] += gain

    def on_hand_end(self, state: GameState) -> None:
        gains = state.hand_gains[self.key]
        for seat in range(state.seat_count):
            values = {"tiles_held": state.tiles_held(seat), "went_out": int(state.went_out == seat),
                      "seats": state.seat_count}
            gains[seat] += self.hand_end_gain.evaluate(values)
