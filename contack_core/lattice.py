"""The triangular lattice of the triangle-tile games (DESIGN.md section 4).

Cell ``(x, y)`` points up when ``x + y`` is even, down otherwise. Each cell has three
sides, numbered anticlockwise: for an up cell 0 = bottom (towards ``(x, y-1)``),
1 = right (towards ``(x+1, y)``), 2 = left (towards ``(x-1, y)``); for a down cell
0 = top (towards ``(x, y+1)``), 1 = left (towards ``(x-1, y)``), 2 = right
(towards ``(x+1, y)``). Side ``s`` of a cell touches the same-numbered side of the
neighbour across it, so a tile's edge ``e`` lying on side ``(e + r) % 3`` (rotation ``r``)
meets the neighbour's edge on that same side number.
"""

from __future__ import annotations

Cell = tuple[int, int]

#: Offsets to the neighbour across sides 0, 1, 2, for up cells and for down cells.
_UP = ((0, -1), (1, 0), (-1, 0))
_DOWN = ((0, 1), (-1, 0), (1, 0))


def points_up(cell: Cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The cells across sides 0, 1 and 2 of ``cell``."""
    x, y = cell
    offsets = _UP if (x + y) % 2 == 0 else _DOWN
    return tuple((x + dx, y + dy) for dx, dy in offsets)  # type: ignore[return-value]


class NeighbourCache:
    """Memoised :func:`neighbours`; one per board, shared by its figures, never global.

    Every neighbour it hands out is the one tuple object kept for that cell, so the
    figure's dictionaries, keyed by these cells, find a key by identity instead of
    comparing tuples. (A plain dict inside, not a dict subclass with ``__missing__``:
    CPython indexes a dict subclass through a slow generic path.)
    """

    __slots__ = ("canonical", "known")

    def __init__(self) -> None:
        self.known: dict[Cell, tuple[Cell, Cell, Cell]] = {}
        self.canonical: dict[Cell, Cell] = {}

    def intern(self, cell: Cell) -> Cell:
        """The one tuple object this cache uses for ``cell``."""
        return self.canonical.setdefault(cell, cell)

    def __contains__(self, cell: Cell) -> bool:
        return cell in self.known

    def __getitem__(self, cell: Cell) -> tuple[Cell, Cell, Cell]:
        return self.known.get(cell) or self.add(cell)

    def add(self, cell: Cell) -> tuple[Cell, Cell, Cell]:
        """Work out and keep the neighbours of ``cell``."""
        intern = self.canonical.setdefault
        found = self.known[cell] = tuple(intern(n, n) for n in neighbours(cell))  # type: ignore[assignment]
        return found


def parse_cell(value: object) -> Cell:
    """A cell from its record form ``[x, y]`` (two integers), or a ValueError saying why."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"a cell is a list of two integers [x, y]; found {value!r}")
    return (value[0], value[1])


def edge_code(colour: int, value: int) -> int:
    """One edge as a non-zero 16-bit code: the colour index above, the value below."""
    return ((colour + 1) << 8) | value


def decode_demand(demand: int) -> tuple[tuple[int, int] | None, ...]:
    """The (colour index, value) each side of a cell demands, or None for an open side."""
    out = []
    for side in range(3):
        code = (demand >> (16 * side)) & 0xFFFF
        out.append(None if code == 0 else ((code >> 8) - 1, code & 0xFF))
    return tuple(out)


def sides_touched(demand: int) -> int:
    """How many sides of a cell touch a tile, from its packed demand."""
    return (demand & 0xFFFF != 0) + (demand >> 16 & 0xFFFF != 0) + (demand >> 32 != 0)


class Figure:
    """The tiles on the table: which tile lies where, and what each empty cell demands.

    Kept incrementally, so legal plays never rescan the figure. ``demands[cell]`` holds,
    for every empty cell touching the figure, one int packing what each side touches
    (16 bits a side, see :func:`edge_code`; 0 = open side), which makes it a compact key
    for the placement rule's table of fitting tiles. ``openings`` holds the empty cells
    touching at least ``opening_min`` tiles, in the order they became openings.
    """

    __slots__ = ("tile_at", "rotation_at", "demands", "openings", "last", "opening_min", "neighbour_cache",
                 "legal_cells", "free_next_to_last")

    def __init__(self, opening_min: int, neighbour_cache: NeighbourCache) -> None:
        self.tile_at: dict[Cell, int] = {}
        self.rotation_at: dict[Cell, int] = {}  # only cells whose tile is turned
        self.demands: dict[Cell, int] = {}
        self.openings: dict[Cell, None] = {}  # insertion-ordered, so clones list cells alike
        self.last: Cell | None = None
        self.opening_min = opening_min
        #: Memoised neighbours of every cell (shared by the figures of one board).
        self.neighbour_cache = neighbour_cache
        #: Cache of the placement rule's legal cells; cleared by every placement.
        self.legal_cells: list[Cell] | None = None
        #: The empty cells next to the last tile laid, kept by :meth:`place`.
        self.free_next_to_last: list[Cell] = []

    #: Every seat stays in a game of laid tiles (a board of pieces may count one out), so the
    #: turn order need not ask :meth:`seat_in_play` seat by seat.
    every_seat_in_play = True

    def seat_in_play(self, seat: int) -> bool:
        return True

    def clone(self) -> Figure:
        other = Figure.__new__(Figure)
        other.tile_at = dict(self.tile_at)
        other.rotation_at = dict(self.rotation_at)
        other.demands = dict(self.demands)
        other.openings = dict(self.openings)
        other.last = self.last
        other.opening_min = self.opening_min
        other.neighbour_cache = self.neighbour_cache
        other.legal_cells = self.legal_cells
        other.free_next_to_last = self.free_next_to_last  # replaced, never changed, by place()
        return other

    def neighbours(self, cell: Cell) -> tuple[Cell, Cell, Cell]:
        return self.neighbour_cache[cell]

    def rotation(self, cell: Cell) -> int:
        return self.rotation_at.get(cell, 0)

    def touching(self, cell: Cell) -> int:
        """How many tiles an empty cell touches."""
        return sides_touched(self.demands.get(cell, 0))

    def place(self, tile: int, cell: Cell, rotation: int, side_codes: tuple[int, int, int]) -> None:
        """Lay ``tile`` on ``cell`` turned by ``rotation``.

        ``side_codes[s]`` is the edge code the tile shows on side ``s``, already shifted to
        that side's 16 bits. (Unrolled over the three sides: this is the hottest function
        of a playout.)
        """
        tile_at = self.tile_at
        tile_at[cell] = tile
        if rotation:
            self.rotation_at[cell] = rotation
        self.last = cell
        self.legal_cells = None
        demands, openings, opening_min = self.demands, self.openings, self.opening_min
        if demands.pop(cell, 0) and cell in openings:
            del openings[cell]
        cache = self.neighbour_cache  # its __getitem__, spelt out: one call fewer a placement
        n0, n1, n2 = cache.known.get(cell) or cache.add(cell)
        free = self.free_next_to_last = []
        if n0 not in tile_at:
            free.append(n0)
            old = demands.get(n0, 0)
            demands[n0] = old | side_codes[0]
            if opening_min == 1 or (old and (opening_min == 2 or sides_touched(old) >= opening_min - 1)):
                openings[n0] = None
        if n1 not in tile_at:
            free.append(n1)
            old = demands.get(n1, 0)
            demands[n1] = old | side_codes[1]
            if opening_min == 1 or (old and (opening_min == 2 or sides_touched(old) >= opening_min - 1)):
                openings[n1] = None
        if n2 not in tile_at:
            free.append(n2)
            old = demands.get(n2, 0)
            demands[n2] = old | side_codes[2]
            if opening_min == 1 or (old and (opening_min == 2 or sides_touched(old) >= opening_min - 1)):
                openings[n2] = None
