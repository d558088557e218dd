"""Set-up primitives: the steps that begin each hand, in the order the ruleset lists them.

A *chance* step (a shuffle, a deal) is sampled by the caller's RNG or read from a record;
a decision step (the opening play) offers the seat it names its legal actions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from contack_core.actions import Deal, IllegalAction, Play, Shuffle
from contack_core.events import Dealt, Played, Shuffled
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.state import GameState


class SetupStep(Primitive):
    slot = "setup"
    chance = True

    def enter(self, state: GameState) -> None:
        """Called when the set-up reaches this step."""


class ShuffleZone(SetupStep):
    """Chance: shuffle a pile (its order stays hidden; a record never states it)."""

    name = "shuffle"
    schema = {"type": "object", "required": ["zone"], "properties": {"zone": {"type": "string"}},
              "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        self.zone = context.zone(self.params["zone"], "zone", ("pile",)).key

    def sample(self, state: GameState, rng: random.Random) -> Shuffle:
        order = list(state.zones[self.zone])
        rng.shuffle(order)
        return Shuffle(self.zone, tuple(order))

    def apply(self, state: GameState, action: Any) -> Shuffled:
        if not isinstance(action, Shuffle) or action.zone != self.zone:
            raise IllegalAction(f"expected a shuffle of {self.zone}")
        event = state.shuffle(self.zone, action.order)
        state.setup_step_done()
        return event


class DealTiles(SetupStep):
    """Chance: give each seat in turn ``count`` tiles from the top of a pile.

    If the pile runs short (a house rule with big hands and many players), the last
    seats get what is left; ``count`` may be an expression over option values.
    """

    name = "deal"
    schema = {
        "type": "object",
        "required": ["from", "to", "count"],
        "properties": {"from": {"type": "string"}, "to": {"type": "string"},
                       "count": {"type": ["integer", "string"]}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.source = context.zone(self.params["from"], "from", ("pile",)).key
        self.target = context.zone(self.params["to"], "to", ("hand",)).key
        self.count = context.constant(self.params["count"], "count")
        if not isinstance(self.count, int) or self.count < 0:
            raise PrimitiveError(f"count must be a whole number, found {self.count!r}", "count")

    def expected(self, state: GameState) -> int:
        return min(self.count, len(state.zones[self.source]))

    def sample(self, state: GameState, rng: random.Random) -> Deal:
        pile = state.zones[self.source]
        n = self.expected(state)
        return Deal(state.deal_seat, tuple(reversed(pile[len(pile) - n:])) if n else ())

    def apply(self, state: GameState, action: Any) -> Dealt:
        if not isinstance(action, Deal):
            raise IllegalAction("expected a deal")
        if action.seat != state.deal_seat:
            raise IllegalAction(f"the deal goes to seat {state.deal_seat} now, not seat {action.seat}")
        n = self.expected(state)
        if len(action.tiles) != n:
            raise IllegalAction(f"each seat is dealt {n} tiles; {len(action.tiles)} given")
        event = state.deal_to(action.seat, self.target, action.tiles, self.source)
        state.deal_seat += 1
        if state.deal_seat == state.seat_count:
            state.setup_step_done()
        return event


class LowestTileOpens(SetupStep):
    """The holder of the lowest tile plays it on the board's origin, scoring nothing.

    Seats are compared by the first expression of ``order`` (an expression over the colour
    names): their lowest values first, then the next-lowest, and so on, then the lower
    seat number. Within the opener's hand, the tile played is the lowest by the whole
    ``order`` list (the later expressions break ties), then the lower tile index.
    """

    name = "lowest-tile-opens"
    chance = False
    schema = {
        "type": "object",
        "required": ["from", "order"],
        "properties": {"from": {"type": "string"},
                       "order": {"type": "array", "items": {"type": ["string", "integer"]}, "minItems": 1}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.zone = context.zone(self.params["from"], "from", ("hand",)).key
        tiles = context.tiles
        if tiles is None:
            raise PrimitiveError("lowest-tile-opens needs a tile set", "from")
        keys = []
        for i, source in enumerate(self.params["order"]):
            expression = context.expression(source, tuple(tiles.colours), f"order.{i}")
            keys.append([expression.evaluate(tiles.colour_values(t)) for t in range(len(tiles))])
        self.primary = keys[0]
        rank = [tuple(key[t] for key in keys) for t in range(len(tiles))]
        # Each tile's place in the total order (rank, then tile index): comparing hands is
        # then comparing sorted lists of small ints.
        order = sorted(range(len(tiles)), key=lambda t: (rank[t], t))
        self.position = [0] * len(tiles)
        for place, tile in enumerate(order):
            self.position[tile] = place

    def opener(self, state: GameState) -> tuple[int, int]:
        """(seat, tile) of the opening play (worked out once per hand)."""
        found = state.memo.get(self.key)
        if found is None:
            found = state.memo[self.key] = self._find_opener(state)
        return found

    def _find_opener(self, state: GameState) -> tuple[int, int]:
        primary = self.primary
        best: tuple[list[Any], int] | None = None
        for seat, hand in enumerate(state.seat_zones[self.zone]):
            if hand:
                key = sorted([primary[t] for t in hand])
                if best is None or key < best[0]:
                    best = (key, seat)
        if best is None:
            raise IllegalAction("nobody holds a tile to open with")
        seat = best[1]
        return seat, min(state.seat_zones[self.zone][seat], key=self.position.__getitem__)

    def enter(self, state: GameState) -> None:
        state.current = self.opener(state)[0]

    def legal(self, state: GameState) -> list[Play]:
        tile = self.opener(state)[1]
        state._allowed[Play] = self
        return [state.rules.placement.play_object(tile, state.rules.board.origin)]

    def apply(self, state: GameState, action: Any) -> Played | None:
        seat, tile = self.opener(state)
        origin = state.rules.board.origin
        if not isinstance(action, Play) or action.tile != tile or action.cell != origin:
            return None
        state.seat_zones[self.zone][seat].remove(tile)
        event = state.rules.placement.place(state, seat, tile, origin, 0, 0)
        state.setup_step_done()
        return event
