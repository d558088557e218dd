"""Zone primitives: the places tiles can be besides the figure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.primitives.registry import BuildContext, Primitive

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules


class Pile(Primitive):
    """A pile shared by the table: the stock (``starts_with: all-tiles``, face down), a
    discard pile or a stack (``starts_with: nothing``, ``face: up``).

    A face-down pile's order is set by a shuffle and stays hidden; draws take from the
    top, and a record typed in at a real table names each drawn tile instead (the pile is
    then just the unseen tiles). A face-up pile is seen by everyone, and only its top
    tile may be played.
    """

    name = "pile"
    slot = "zones"
    kind = "pile"
    per_seat = False
    schema = {
        "type": "object",
        "properties": {"starts_with": {"enum": ["all-tiles", "nothing"]}, "face": {"enum": ["down", "up"]}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.starts_full = self.params.get("starts_with", "all-tiles") == "all-tiles"
        self.face_up = self.params.get("face", "down") == "up"

    def initial_tiles(self, rules: Rules) -> range:
        return range(len(rules.tiles)) if self.starts_full else range(0)


class Hand(Primitive):
    """Each seat's own tiles, face up in front of him: the triangle-tile games play open hands."""

    name = "hand"
    slot = "zones"
    kind = "hand"
    per_seat = True
    face_up = True
    schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def initial_tiles(self, rules: Rules) -> range:
        return range(0)
