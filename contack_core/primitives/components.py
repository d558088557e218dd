"""Component primitives: the physical pieces a ruleset plays with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from contack_core.boards.lattice import MAX_EDGE_COLOURS
from contack_core.boards.tiles import TileSet, tile_name
from contack_core.language.limits import MAX_TILES
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

_VALUE = {"type": "integer", "minimum": 0, "maximum": 99}


class TriangleTiles(Primitive):
    """A set of triangular tiles; tiles turn on the table but never flip, so each tile's
    edges keep their anticlockwise order.

    ``colours`` lists the set's colours (1 to 7). Each entry of ``set`` is a tile, either
    ``"09-02-08"``, its three values with the edges' colours in ``colours`` order (every tile
    of the Contack set runs blue, red, gold anticlockwise), or a mapping giving its
    ``values`` and each edge's ``colours`` anticlockwise (a colour may repeat on a tile) and
    optionally the ``name`` records use (default: its values, ``03-05-02``). Values are
    printed numbers, 0 to 99.
    """

    name = "triangle-tiles"
    slot = "components"
    tiles: TileSet
    schema = {
        "type": "object",
        "required": ["colours", "set"],
        "properties": {
            "colours": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_EDGE_COLOURS,
                        "uniqueItems": True,
                        "description": f"the set's colours: a list of 1 to {MAX_EDGE_COLOURS} different names"},
            "set": {
                "type": "array",
                "minItems": 1,
                "items": {"description": 'a tile: "09-02-08" (its numbers, edges in colours order) or '
                                         '{values: [3 numbers 0-99], colours: [3 of the set\'s colours]}',
                          "oneOf": [
                    {"type": "string", "pattern": r"^\d{2}-\d{2}-\d{2}(?!\n)$"},
                    {"type": "object", "required": ["values", "colours"],
                     "properties": {"values": {"type": "array", "items": _VALUE, "minItems": 3, "maxItems": 3},
                                    "colours": {"type": "array", "items": {"type": "string"}, "minItems": 3,
                                                "maxItems": 3},
                                    "name": {"type": "string", "minLength": 1}},
                     "additionalProperties": False},
                ]},
            },
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        colours = tuple(self.params["colours"])
        values: list[tuple[int, ...]] = []
        edge_colours: list[tuple[int, ...]] = []
        names: list[str] = []
        if len(self.params["set"]) > MAX_TILES:  # each tile is dealt, shown and audited one by one
            raise PrimitiveError(f"the set holds {len(self.params['set'])} tiles: a set holds at most {MAX_TILES} "
                                 f"(MAX_TILES)", "set")
        for i, entry in enumerate(self.params["set"]):
            tile_values, tile_colours, name = self._read_tile(entry, colours, f"set.{i}")
            if name in names:
                raise PrimitiveError(f"two tiles are called {name!r} (tiles {names.index(name) + 1} and {i + 1}): "
                                     f"give one a name of its own", f"set.{i}")
            values.append(tile_values)
            edge_colours.append(tile_colours)
            names.append(name)
        self.tiles = TileSet(colours=colours, values=tuple(values), edge_colours=tuple(edge_colours),
                             names=tuple(names))

    @staticmethod
    def _read_tile(entry: str | Mapping[str, Any], colours: tuple[str, ...], key: str
                   ) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        """One entry of ``set``: its values, each edge's colour index, its name."""
        if isinstance(entry, str):
            if len(colours) != 3:
                raise PrimitiveError(f"a tile written as {entry!r} takes its edges' colours from colours, which lists "
                                     f"{len(colours)}, not 3: give this set's tiles as values and colours", key)
            values = tuple(int(part) for part in entry.split("-"))
            return values, (0, 1, 2), entry
        unknown = [colour for colour in entry["colours"] if colour not in colours]
        if unknown:
            raise PrimitiveError(f"colour {unknown[0]!r} is not one of the set's colours ({', '.join(colours)})",
                                 f"{key}.colours")
        values = tuple(entry["values"])
        return values, tuple(colours.index(colour) for colour in entry["colours"]), entry.get("name", tile_name(values))
