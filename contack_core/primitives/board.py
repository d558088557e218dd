"""Board primitives: the geometry tiles are laid on."""

from __future__ import annotations

from typing import Any

from contack_core.boards.lattice import Figure, NeighbourCache
from contack_core.primitives.registry import BuildContext, Primitive


class TriangularLattice(Primitive):
    """The triangular lattice of :mod:`contack_core.boards.lattice`: ``[x, y]`` points up when ``x + y`` is even.

    The opening tile lies on ``origin`` unturned (its first colour on the cell's side 0).
    """

    name = "triangular-lattice"
    slot = "board"
    schema = {
        "type": "object",
        "properties": {"origin": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.neighbour_cache = NeighbourCache()
        self.origin = self.neighbour_cache.intern(tuple(self.params.get("origin", (0, 0))))

    def state_values(self) -> dict[str, str]:
        """What formulas may read of the figure (see :mod:`contack_core.engine.values`)."""
        return {"open_next_to_last": "len(_state.figure.free_next_to_last)",
                "openings": "len(_state.figure.openings)"}

    def new_position(self, rules: Any, seat_count: int) -> Figure:
        """The empty figure of a hand, its openings as the ruleset's placement counts them."""
        return Figure(rules.placement.opening_min, self.neighbour_cache)
