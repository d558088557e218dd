"""Match primitives: how many hands make a game and who wins it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.state import GameState


class FixedHands(Primitive):
    """A game of ``hands`` hands; the seats with the ``highest`` (or ``lowest``) total
    of ``counter`` win, every tied seat among them."""

    name = "fixed-hands"
    slot = "match"
    schema = {
        "type": "object",
        "required": ["hands", "counter"],
        "properties": {
            "hands": {"type": ["integer", "string"]},
            "winner": {"enum": ["highest", "lowest"]},
            "counter": {"type": "string"},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.hands = context.constant(self.params["hands"], "hands")
        if not isinstance(self.hands, int) or self.hands < 1:
            raise PrimitiveError(f"hands must be a whole number of at least 1, found {self.hands!r}", "hands")
        self.highest = self.params.get("winner", "highest") == "highest"
        self.counter = self.params["counter"]
        if self.counter not in context.counters:
            known = ", ".join(sorted(context.counters)) or "none"
            raise PrimitiveError(f"no counter named {self.counter!r} in scoring (counters: {known})", "counter")

    def game_over(self, state: GameState) -> bool:
        return len(state.hand_results) >= self.hands

    def winners(self, state: GameState) -> list[int]:
        totals = state.totals[self.counter]
        best = max(totals) if self.highest else min(totals)
        return [seat for seat, total in enumerate(totals) if total == best]
