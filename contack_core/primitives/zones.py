"""Zone primitives: the places tiles can be besides the figure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.primitives.registry import BuildContext, Primitive

if TYPE_CHECKING:
    from contack_core.rules import Rules


class Pile(Primitive):
    """A face-down pile shared by the table; at the start of each hand it holds every tile.

    Its order is set by a shuffle; draws take from the top. A record typed in at a real
    table names each drawn tile instead, and the pile is then just the unseen tiles.
    """

    name = "pile"
    slot = "zones"
    kind = "pile"
    per_seat = False
    schema = {
        "type": "object",
        "properties": {"starts_with": {"enum": ["all-tiles", "nothing"]}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.starts_full = self.params.get("starts_with", "all-tiles") == "all-tiles"

    def initial_tiles(self, rules: Rules) -> range:
        return range(len(rules.tiles)) if self.starts_full else range(0)


class Hand(Primitive):
    """Each seat's own tiles, face up in front of him: the triangle-tile games play open hands."""

    name = "hand"
    slot = "zones"
    kind = "hand"
    per_seat = True
    schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def initial_tiles(self, rules: Rules) -> range:
        return range(0)
