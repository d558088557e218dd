"""Reading what a person types at the table: tiles in any reasonable spelling, cells, points.

A score keeper's entries must be quick to type and forgiving, but never guessed at: a
spelling that could name two tiles is refused with both, never resolved silently. Tiles are
named by their values in the tile set's colour order (``09-02-08``); these read the same:
``9-2-8``, ``9 2 8``, ``9.2.8``, ``9/2/8`` and ``928``. A tile read starting from another
colour (``2-8-9`` for ``09-02-08``) is taken when exactly one tile of the set reads so.
"""

from __future__ import annotations

import re

from contack_core.boards.tiles import TileSet, tile_name


class EntryError(ValueError):
    """An entry that cannot be read; the message says how to write it."""


_SEPARATED = re.compile(r"^\d{1,2}(?:[-\s./_]+\d{1,2})+$")
_RUN = re.compile(r"^\d+$")
_CELL = re.compile(r"^[\[(]?\s*(-?\d+)\s*(?:,\s*|\s+)(-?\d+)\s*[\])]?$")


def _splits(digits: str, parts: int) -> list[tuple[int, ...]]:
    """Every way to cut a run of digits into ``parts`` numbers of one or two digits."""
    if parts == 0:
        return [()] if not digits else []
    found = []
    for width in (1, 2):
        if len(digits) >= width:
            head = int(digits[:width])
            found.extend((head, *rest) for rest in _splits(digits[width:], parts - 1))
    return found


def _rotations(values: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [values[k:] + values[:k] for k in range(1, len(values))]


def tile_readings(text: str, tiles: TileSet) -> list[int]:
    """The tiles ``text`` may name, exact readings first (empty if none): a tile's own name (any
    case), or its values in order, or else read from another edge."""
    text = text.strip()
    named = [t for t, name in enumerate(tiles.names) if name.lower() == text.lower()]
    if named:
        return named
    width = len(tiles.values[0])
    if _SEPARATED.match(text):
        candidates = [tuple(int(part) for part in re.split(r"[-\s./_]+", text))]
    elif _RUN.match(text):
        candidates = _splits(text, width)
    else:
        return []
    by_values: dict[tuple[int, ...], list[int]] = {}
    for tile, values in enumerate(tiles.values):
        by_values.setdefault(values, []).append(tile)
    exact = sorted({t for values in candidates for t in by_values.get(values, [])})
    if exact:
        return exact
    return sorted({t for candidate in candidates if len(candidate) == width
                   for values in _rotations(candidate) for t in by_values.get(values, [])})


#: The most characters an entry may hold: a deal of every tile of a large set, written out in
#: full, takes a few hundred. Longer entries are refused before anything reads them.
MAX_ENTRY_CHARS = 1000

def read_tile(text: str, tiles: TileSet) -> int:
    """The one tile ``text`` names, or :class:`EntryError` saying why not."""
    found = tile_readings(text, tiles)
    if len(found) == 1:
        return found[0]
    colours = "-".join(tiles.colours) if tiles.classic else "edges'"
    if len(found) > 1:
        options = " or ".join(tiles.names[t] for t in found)
        numbered = all(tiles.names[t] == tile_name(tiles.values[t]) for t in found)
        raise EntryError(f"{text!r} could be {options}: write it {'with dashes' if numbered else 'by its name'}")
    if not (_SEPARATED.match(text.strip()) or _RUN.match(text.strip())):
        raise EntryError(f"{text!r} is not a tile: name one by its {colours} values, like {tiles.names[0]} or "
                         f"{''.join(str(v) for v in tiles.values[0])}")
    near = nearest_tiles(text, tiles)
    hint = f"; the nearest are {', '.join(tiles.names[t] for t in near)}" if near else ""
    raise EntryError(f"no tile {text.strip()!r} in this set ({colours} values){hint}")


def nearest_tiles(text: str, tiles: TileSet, count: int = 3) -> list[int]:
    """The tiles whose names differ least from ``text``, digit by digit."""
    digits = re.sub(r"\D", "", text)
    spelt = [tile_name(values) for values in _splits(digits, len(tiles.values[0]))] or [text]

    def distance(tile: int) -> int:
        return min(name_distance(candidate, tiles.names[tile]) for candidate in spelt)

    ranked = sorted(range(len(tiles)), key=lambda t: (distance(t), t))
    return [t for t in ranked[:count] if distance(t) <= 2]


def name_distance(a: str, b: str, limit: int = 8) -> int:
    """Characters to change, insert or delete to turn ``a`` into ``b`` (Levenshtein), or ``limit + 1``
    when their lengths alone differ by more than ``limit``: a name typed a megabyte long costs no
    more to rank than one typed right (the full table would take its length times the other's)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        previous = current
    return previous[-1]


def read_tiles(text: str, tiles: TileSet) -> list[int]:
    """Several tiles: separated by commas or semicolons, or by blanks, each written in one piece
    (``928 1-2-3``) or as its numbers alone (``9 2 8 1 2 3``, taken a tile's worth at a time)."""
    text = text.strip()
    if re.search(r"[,;]", text):
        return [read_tile(word, tiles) for word in re.split(r"\s*[,;]\s*", text) if word]
    width = len(tiles.values[0])
    found, numbers = [], []
    for word in text.split():
        if re.fullmatch(r"\d{1,2}", word):
            numbers.append(word)
            if len(numbers) == width:
                found.append(read_tile(" ".join(numbers), tiles))
                numbers = []
            continue
        if numbers:
            break
        found.append(read_tile(word, tiles))
    if numbers:
        raise EntryError(f"{' '.join(numbers)!r} is not a whole tile: a tile has {width} numbers")
    return found


def read_cell(text: str) -> tuple[int, int] | None:
    """A cell or point ``[x, y]`` as typed (``1,0``, ``[1, 0]``, ``(1 0)``, ``1 0``), or None."""
    found = _CELL.match(text.strip())
    return None if found is None else (int(found.group(1)), int(found.group(2)))


_POINT = re.compile(r"[\[(]?\s*(-?\d+)\s*,\s*(-?\d+)\s*[\])]?")


def read_points(text: str) -> list[tuple[int, int]] | None:
    """Points written one after another (``6,0 6,1 6,2``, ``[6, 0] -> [6, 2]``, ``6,0 to 6,2``),
    or None if anything else is in the way."""
    points = [(int(x), int(y)) for x, y in _POINT.findall(text)]
    rest = re.sub(r"->|>|\bto\b|,|\s", "", _POINT.sub("", text))
    return points if points and not rest else None
