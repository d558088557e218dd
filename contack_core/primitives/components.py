"""Component primitives: the physical pieces a ruleset plays with."""

from __future__ import annotations

from contack_core.boards.tiles import TileSet
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError


class TriangleTiles(Primitive):
    """A set of triangular tiles, each listed by its edge values in ``colours`` order.

    ``colours`` is the anticlockwise order of the coloured edges, the same on every tile.
    Every tile is named by its values, two digits each, joined by ``-`` (``09-02-08``).
    """

    name = "triangle-tiles"
    slot = "components"
    schema = {
        "type": "object",
        "required": ["colours", "set"],
        "properties": {
            "colours": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3,
                        "uniqueItems": True},
            "set": {"type": "array", "items": {"type": "string", "pattern": r"^\d{2}-\d{2}-\d{2}$"},
                    "minItems": 1, "uniqueItems": True},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        values = tuple(tuple(int(part) for part in name.split("-")) for name in self.params["set"])
        if any(v < 0 for tile in values for v in tile):
            raise PrimitiveError("tile values must not be negative", "set")
        self.tiles = TileSet(colours=tuple(self.params["colours"]), values=values)
