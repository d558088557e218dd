"""Board primitives: the geometry tiles are laid on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from contack_core.boards.lattice import Figure, NeighbourCache
from contack_core.language.limits import MAX_COORDINATE, shown_number
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.features import Feature
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState
    from contack_core.engine.slots import Position


class Board(Primitive):
    """Base of board primitives (the contract: :class:`contack_core.engine.slots.Board`)."""

    slot = "board"

    def new_position(self, rules: Rules, seat_count: int) -> Position:
        """The empty position of a hand of ``seat_count`` seats."""
        raise NotImplementedError

    def state_values(self) -> Mapping[str, str]:
        """What formulas may read of the position: nothing unless a board says."""
        return {}

    def features(self, state: GameState) -> Mapping[str, Feature]:
        """What a bot may weigh of the position (distances, pieces in reach): nothing unless a board says."""
        return {}


class TriangularLattice(Board):
    """The triangular lattice of :mod:`contack_core.boards.lattice`: ``[x, y]`` points up when ``x + y`` is even.

    The opening tile lies on ``origin`` unturned (its first colour on the cell's side 0).
    """

    name = "triangular-lattice"
    schema = {
        "type": "object",
        "properties": {"origin": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.neighbour_cache = NeighbourCache()
        origin = tuple(self.params.get("origin", (0, 0)))
        if any(abs(c) > MAX_COORDINATE for c in origin):  # a record's cell must hold every cell play reaches
            far = next(c for c in origin if abs(c) > MAX_COORDINATE)
            raise PrimitiveError(f"the origin's coordinate {shown_number(far)} is beyond {MAX_COORDINATE:,} either "
                                 f"way (MAX_COORDINATE)", "origin")
        self.origin = self.neighbour_cache.intern(origin)

    def state_values(self) -> dict[str, str]:
        """What formulas may read of the figure (see :mod:`contack_core.engine.values`)."""
        return {"open_next_to_last": "len(_state.figure.free_next_to_last)",
                "openings": "len(_state.figure.openings)"}

    def new_position(self, rules: Rules, seat_count: int) -> Figure:
        """The empty figure of a hand, its openings as the ruleset's placement counts them."""
        placement = rules.placement
        if placement is None:
            raise ValueError("a triangular lattice lays tiles: the ruleset needs a placement")
        return Figure(placement.opening_min, self.neighbour_cache)
