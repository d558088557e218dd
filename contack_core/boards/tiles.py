"""Triangular tiles: the component set is data, tiles are small integers inside the engine.

A tile is named by its values in the set's colour order, two digits each (``09-02-08`` is
blue 9, red 2, gold 8 in a blue-red-gold set). Inside the engine a tile is its index in the
set, so hands are lists of ints and tables are indexed directly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import attrs

_TILE_NAME = re.compile(r"^\d{2}(-\d{2})*$")


class UnknownTile(ValueError):
    """A tile name that is malformed or not in the component set."""


def tile_name(values: Sequence[int]) -> str:
    """The canonical name of a tile with these values: ``(9, 2, 8) -> "09-02-08"``."""
    return "-".join(f"{value:02d}" for value in values)


@attrs.frozen
class TileSet:
    """The tiles of a game: each a tuple of edge values, anticlockwise, and each edge's colour.

    Tiles are printed on one side: they turn, never flip, so a tile's edges keep their
    anticlockwise order. ``edge_colours[tile][e]`` is the index in ``colours`` of edge ``e``'s
    colour; left out, edge ``e`` of every tile has colour ``e`` (the Contack set, whose tiles
    all run blue, red, gold anticlockwise). A set of its own may repeat a colour on a tile, or
    have two colours or four. ``names`` are the tiles' names in records; left out, each tile
    is named by its values (``09-02-08``).
    """

    colours: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]
    edge_colours: tuple[tuple[int, ...], ...] = attrs.field(default=None)
    names: tuple[str, ...] = attrs.field(default=None)
    #: Each tile by its name, for a caller that looks up many (:meth:`tile` says why a name is not one).
    by_name: Mapping[str, int] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if self.edge_colours is None:
            object.__setattr__(self, "edge_colours", tuple(tuple(range(len(v))) for v in self.values))
        if self.names is None:
            object.__setattr__(self, "names", tuple(tile_name(v) for v in self.values))
        object.__setattr__(self, "by_name", {name: i for i, name in enumerate(self.names)})

    @property
    def classic(self) -> bool:
        """Every tile's edges run through the colours in ``colours`` order (named by values)."""
        return all(colours == tuple(range(len(self.colours))) for colours in self.edge_colours)

    def edge_colour(self, tile: int, edge: int) -> str:
        return self.colours[self.edge_colours[tile][edge]]

    def __len__(self) -> int:
        return len(self.values)

    def tile(self, name: object) -> int:
        """The tile called ``name``, or :class:`UnknownTile` saying why not."""
        found = self.by_name.get(name) if isinstance(name, str) else None
        if found is not None:
            return found
        if self.classic and (not isinstance(name, str) or not _TILE_NAME.match(name)):
            raise UnknownTile(
                f"a tile is named by its {'-'.join(self.colours)} values, two digits each "
                f"(like {self.names[0]!r}); found {name!r}"
            )
        raise UnknownTile(f"no tile {name!r} in this tile set (like {self.names[0]!r})")

    def colour_values(self, tile: int) -> dict[str, int]:
        """Each colour's number on the tile (the sum, where a colour is on two edges; 0 where
        it is on none)."""
        found = dict.fromkeys(self.colours, 0)
        for edge, value in enumerate(self.values[tile]):
            found[self.edge_colour(tile, edge)] += value
        return found
