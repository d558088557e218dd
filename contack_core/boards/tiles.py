"""Triangular tiles: the component set is data, tiles are small integers inside the engine.

A tile is named by its values in the set's colour order, two digits each (``09-02-08`` is
blue 9, red 2, gold 8 in a blue-red-gold set). Inside the engine a tile is its index in the
set, so hands are lists of ints and tables are indexed directly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

_TILE_NAME = re.compile(r"^\d{2}(-\d{2})*$")


class UnknownTile(ValueError):
    """A tile name that is malformed or not in the component set."""


def tile_name(values: Sequence[int]) -> str:
    """The canonical name of a tile with these values: ``(9, 2, 8) -> "09-02-08"``."""
    return "-".join(f"{value:02d}" for value in values)


@attrs.frozen
class TileSet:
    """The tiles of a game: each a tuple of edge values, listed in ``colours`` order.

    ``colours`` is the anticlockwise order of the coloured edges, the same on every tile
    (tiles are printed on one side and never flip).
    """

    colours: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]
    names: tuple[str, ...] = attrs.field(init=False)
    _index: dict[str, int] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        names = tuple(tile_name(v) for v in self.values)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "_index", {name: i for i, name in enumerate(names)})

    def __len__(self) -> int:
        return len(self.values)

    def tile(self, name: object) -> int:
        """The tile called ``name``, or :class:`UnknownTile` saying why not."""
        if not isinstance(name, str) or not _TILE_NAME.match(name):
            raise UnknownTile(
                f"a tile is named by its {'-'.join(self.colours)} values, two digits each "
                f"(like {self.names[0]!r}); found {name!r}"
            )
        try:
            return self._index[name]
        except KeyError:
            raise UnknownTile(f"no tile {name!r} in this tile set") from None

    def colour_values(self, tile: int) -> dict[str, int]:
        return dict(zip(self.colours, self.values[tile]))
