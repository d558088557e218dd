"""The triangular lattice of the triangle-tile games (fixed, because records name its cells).

Cell ``(x, y)`` points up when ``x + y`` is even, down otherwise. Each cell has three
sides, numbered anticlockwise: for an up cell 0 = bottom (towards ``(x, y-1)``),
1 = right (towards ``(x+1, y)``), 2 = left (towards ``(x-1, y)``); for a down cell
0 = top (towards ``(x, y+1)``), 1 = left (towards ``(x-1, y)``), 2 = right
(towards ``(x+1, y)``). Side ``s`` of a cell touches the same-numbered side of the
neighbour across it, so a tile's edge ``e`` lying on side ``(e + r) % 3`` (rotation ``r``)
meets the neighbour's edge on that same side number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import attrs

from contack_core.language.programs import Source, define_from

Cell = tuple[int, int]

#: Offsets to the neighbour across sides 0, 1, 2, for up cells and for down cells.
_UP = ((0, -1), (1, 0), (-1, 0))
_DOWN = ((0, 1), (-1, 0), (1, 0))


def points_up(cell: Cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The cells across sides 0, 1 and 2 of ``cell``."""
    x, y = cell
    (ax, ay), (bx, by), (cx, cy) = _UP if (x + y) % 2 == 0 else _DOWN
    return (x + ax, y + ay), (x + bx, y + by), (x + cx, y + cy)


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
        first, second, third = neighbours(cell)
        found = self.known[cell] = (intern(first, first), intern(second, second), intern(third, third))
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


def figure_map(cells: Iterable[Cell], last: Cell | None, open_cells: Iterable[Cell] = ()) -> list[str]:
    """The figure drawn in text, rows of the lattice from the top: ``▲``/``▼`` a tile (as its cell
    points), ``*`` the last one laid, ``·`` an open cell; then the ranges of x and y shown. What
    ``str(state)`` and the replay's terminal view draw."""
    marks: dict[Cell, str] = {c: "·" for c in open_cells}
    for cell in cells:
        marks[cell] = "*" if cell == last else ("▲" if points_up(cell) else "▼")
    if not marks:
        return []
    xs = [c[0] for c in marks]
    ys = [c[1] for c in marks]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        rows.append("  |" + "".join(marks.get((x, y), " ") for x in range(min(xs), max(xs) + 1)).rstrip())
    rows.append(f"  (x {min(xs)}..{max(xs)} left to right, y {max(ys)}..{min(ys)} top to bottom)")
    return rows


#: The opening threshold of a figure that has no openings: no cell touches four tiles.
NO_OPENINGS = 4

#: Bits a side takes in a demand. Three sides of ten bits keep a demand under 2**30, one
#: digit of a CPython int, so hashing it, and adding to it, take the interpreter's fast paths.
SIDE_BITS = 10
_SIDE_MASK = (1 << SIDE_BITS) - 1
#: An edge code's low bits hold the edge's value; the three above, its colour index plus one.
EDGE_VALUE_BITS = 7
MAX_EDGE_VALUE = (1 << EDGE_VALUE_BITS) - 1
#: The most colours a tile set may have (an edge code's colour index plus one, in three bits).
MAX_EDGE_COLOURS = (1 << (SIDE_BITS - EDGE_VALUE_BITS)) - 1


def edge_code(colour: int, value: int) -> int:
    """One edge as a non-zero code of :data:`SIDE_BITS` bits: the colour index (0 to
    :data:`MAX_EDGE_COLOURS` - 1) above, the value (0 to :data:`MAX_EDGE_VALUE`; tiles print
    two digits) below."""
    return ((colour + 1) << EDGE_VALUE_BITS) | value


def decode_demand(demand: int) -> tuple[tuple[int, int] | None, ...]:
    """The (colour index, value) each side of a cell demands, or None for an open side."""
    out = []
    for side in range(3):
        code = (demand >> (SIDE_BITS * side)) & _SIDE_MASK
        out.append(None if code == 0 else ((code >> EDGE_VALUE_BITS) - 1, code & MAX_EDGE_VALUE))
    return tuple(out)


def sides_touched(demand: int) -> int:
    """How many sides of a cell touch a tile, from its packed demand."""
    return (demand & _SIDE_MASK != 0) + (demand >> SIDE_BITS & _SIDE_MASK != 0) + (demand >> 2 * SIDE_BITS != 0)


class Figure:
    """The tiles on the table: which tile lies where, and what each empty cell demands.

    Kept incrementally, so legal plays never rescan the figure. ``demands[cell]`` holds,
    for every empty cell touching the figure, one int packing what each side touches
    (:data:`SIDE_BITS` a side, see :func:`edge_code`; 0 = open side), which makes it a compact
    key for the placement rule's table of fitting tiles. ``openings`` holds the empty cells
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

    def pieces_on_board(self, seat: int) -> None:
        """None: a laid tile belongs to the figure, not to the seat that laid it."""
        return None

    @property
    def sites(self) -> None:
        """None: the lattice has no edge, the figure grows wherever tiles are laid."""
        return None

    def wire_fields(self, names: Sequence[str], seats: int) -> dict[str, Any]:
        """Each tile laid with its cell and rotation, and the cell laid last."""
        return {"figure": [{"cell": list(cell), "tile": names[tile], "rotation": self.rotation(cell)}
                           for cell, tile in self.tile_at.items()],
                "last": None if self.last is None else list(self.last)}

    def layout(self) -> tuple[frozenset[tuple[Cell, int]], frozenset[tuple[Cell, int]]]:
        """Each tile and where it lies, with the cells whose tile is turned."""
        return frozenset(self.tile_at.items()), frozenset(self.rotation_at.items())

    def plain_lines(self, names: Sequence[str], tiles_word: str, colour_word: Callable[[str], str],
                    open_cells: Sequence[Cell] = ()) -> list[str]:
        """The figure in plain text (``str(state)``): its map (:func:`figure_map`, the cells in
        ``open_cells`` marked), then each tile laid and where it lies (by name: no colour is told)."""
        laid = ", ".join(f"{list(cell)} {names[tile]}" for cell, tile in self.tile_at.items())
        return [*figure_map(self.tile_at, self.last, open_cells), f"{tiles_word}: {laid or '-'}"]

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

    def lift_last(self, side_codes: Sequence[Sequence[tuple[int, ...]]]) -> tuple[Cell, int]:
        """Take the tile laid last off the figure (a house rule's take-back) and return its cell
        and tile. The figure is laid again without it, in the order its tiles were laid, so it is
        exactly the figure of a game in which that tile was never laid: the tile laid before it is
        the last one, and each cell's demand and opening are as they were. ``side_codes[tile]
        [rotation]`` are the edge codes :meth:`place` takes (the placement's)."""
        cell = self.last
        if cell is None:
            raise ValueError("the figure holds no tile to take back")
        tile = self.tile_at[cell]
        laid = [(at, laid_tile, self.rotation_at.get(at, 0)) for at, laid_tile in self.tile_at.items() if at != cell]
        self.tile_at, self.rotation_at, self.demands, self.openings = {}, {}, {}, {}
        self.last, self.legal_cells, self.free_next_to_last = None, None, []
        for at, laid_tile, rotation in laid:
            self.place(laid_tile, at, rotation, side_codes[laid_tile][rotation])
        return cell, tile

    #: ``place(tile, cell, rotation, side_codes)``: lay ``tile`` on ``cell`` turned by
    #: ``rotation``; ``side_codes[s]`` is the edge code the tile shows on side ``s``, already
    #: shifted to that side's bits. Compiled from :func:`place_source`, the same text the
    #: placement rule's compiled play step inlines (see below).
    place: ClassVar[Callable[[Figure, int, Cell, int, tuple[int, ...]], None]]


def figure_of(position: object) -> Figure:
    """``position`` (a state's figure) as the :class:`Figure` a placement lays tiles on: only a
    lattice board, whose positions are figures, takes a placement (a board of pieces has none)."""
    if not isinstance(position, Figure):
        raise TypeError(f"a placement lays tiles on a figure of tiles, not on a {type(position).__name__}")
    return position


def place_source(opening_min: int | None = None) -> list[str]:
    """Laying a tile, as Python statements over ``_figure``, ``_tile``, ``_cell``,
    ``_rotation`` and ``_codes`` (the arguments of :meth:`Figure.place`). One text, two
    uses: :meth:`Figure.place` is compiled from it, and the placement rule inlines it in its
    compiled play step (inlined there with the event's construction, it saved about 2% of a
    playout's instructions: a call of five arguments and the figure's fields fetched again).
    ``opening_min`` given, the test for a new opening is specialised to it; None reads the
    figure's own. (Unrolled over the three sides: this is the hottest code of a playout.)"""
    if opening_min is None:
        opens = "_opening_min == 1 or (_old and (_opening_min == 2 or sides_touched(_old) >= _opening_min - 1))"
    else:
        opens = {1: "True", 2: "_old", 3: "_old and sides_touched(_old) >= 2", NO_OPENINGS: "False"}[opening_min]
    lines = [
        "_tile_at = _figure.tile_at",
        "_tile_at[_cell] = _tile",
        "if _rotation:",
        "    _figure.rotation_at[_cell] = _rotation",
        "_figure.last = _cell",
        "_figure.legal_cells = None",
        "_demands = _figure.demands",
        "_openings = _figure.openings",
        *(["_opening_min = _figure.opening_min"] if opening_min is None else []),
        "if _demands.pop(_cell, 0) and _cell in _openings:",
        "    del _openings[_cell]",
        "_cache = _figure.neighbour_cache  # its __getitem__, spelt out: one call fewer",
        "_n0, _n1, _n2 = _cache.known.get(_cell) or _cache.add(_cell)",
        "_free = _figure.free_next_to_last = []",
    ]
    for side in range(3):
        lines += [
            f"if _n{side} not in _tile_at:",
            f"    _free.append(_n{side})",
            f"    _old = _demands.get(_n{side}, 0)",
            f"    _demands[_n{side}] = _old + _codes[{side}]",
            f"    if {opens}:",
            f"        _openings[_n{side}] = None",
        ]
    return lines


Figure.place = define_from(
    "place", ["_figure", "_tile", "_cell", "_rotation", "_codes"],
    Source("\n".join(place_source()), {"sides_touched": sides_touched}))


# --------------------------------------------------------------------------- the figure's shapes
# The lattice's points (the corners of cells) are ``(u, j)`` with ``u + j`` odd: ``j`` the
# horizontal line, ``u`` the position along it in half edges. Row ``y`` of cells lies between
# lines ``y`` and ``y + 1``: an up cell ``(x, y)`` has its base on line ``y`` and its apex on
# line ``y + 1``, a down cell its top on line ``y + 1`` and its apex on line ``y``.
Point = tuple[int, int]


def corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The three points at the corners of ``cell``."""
    x, y = cell
    if (x + y) % 2 == 0:
        return (x - 1, y), (x + 1, y), (x, y + 1)
    return (x - 1, y + 1), (x + 1, y + 1), (x, y)


def cells_at(point: Point) -> tuple[Cell, ...]:
    """The six cells meeting at ``point`` (a hexagon round it)."""
    u, j = point
    return tuple((x, y) for y in (j - 1, j) for x in (u - 1, u, u + 1))


def cells_around(cell: Cell) -> list[Cell]:
    """The twelve cells sharing a side or a corner with ``cell``."""
    around: list[Cell] = []
    for point in corners(cell):
        around += [other for other in cells_at(point) if other != cell and other not in around]
    return around


#: The three directions of the lattice's lines of cells: a row (``y`` constant), and the two
#: slants. Each maps a cell to the next along the line (``(up step, down step)`` offsets, as
#: the cell points up or down) and to the one before.
_LINE_STEPS: tuple[tuple[tuple[Cell, Cell], tuple[Cell, Cell]], ...] = (
    (((1, 0), (1, 0)), ((-1, 0), (-1, 0))),    # along the row
    (((1, 0), (0, 1)), ((0, -1), (-1, 0))),    # rising to the right
    (((-1, 0), (0, 1)), ((0, -1), (1, 0))),    # rising to the left
)


def line_lengths(cell: Cell, filled: Callable[[Cell], bool]) -> tuple[int, int, int]:
    """How many cells in an unbroken line through ``cell`` are ``filled``, along each of the
    three directions (``cell`` itself counted; 0 where it is not filled)."""
    if not filled(cell):
        return (0, 0, 0)
    lengths = []
    for forward, backward in _LINE_STEPS:
        length = 1
        for steps in (forward, backward):
            x, y = cell
            while True:
                dx, dy = steps[(x + y) % 2]
                x, y = x + dx, y + dy
                if not filled((x, y)):
                    break
                length += 1
        lengths.append(length)
    return lengths[0], lengths[1], lengths[2]


def _image(cell: Cell, turn: int, mirror: bool) -> Cell:
    """``cell`` turned ``turn`` sixths of a circle about point ``(1, 0)`` (after mirroring
    left for right when ``mirror``): worked in the plane, where the lattice's symmetries are
    plain rotations, then read back as a cell from its centre."""
    x, y = cell
    height = math.sqrt(3) / 2
    cx, cy = (x - 1) / 2, (y + (1 / 3 if (x + y) % 2 == 0 else 2 / 3)) * height
    if mirror:
        cx = -cx
    angle = turn * math.pi / 3
    px, py = cx * math.cos(angle) - cy * math.sin(angle), cx * math.sin(angle) + cy * math.cos(angle)
    return round(2 * px) + 1, math.floor(py / height)


@attrs.frozen
class Pattern:
    """A named shape of cells (as Ludii's ``(is Pattern ...)``): its cells as drawn once,
    matched in every turn and mirror image the lattice allows, anywhere on it.

    ``placements`` holds, for an up cell and for a down cell at ``(0, 0)``, every placement
    of the shape covering that cell (as offsets), so a play's count costs no geometry."""

    cells: frozenset[Cell]
    placements: tuple[tuple[frozenset[Cell], ...], tuple[frozenset[Cell], ...]]

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Pattern:
        drawn = frozenset(cells)
        images = {frozenset(_image(cell, turn, mirror) for cell in drawn)
                  for turn in range(6) for mirror in (False, True)}
        placements: tuple[set[frozenset[Cell]], set[frozenset[Cell]]] = (set(), set())
        for image in images:
            for x, y in image:  # offsets from that cell, kept apart for up and down cells
                placements[(x + y) % 2].add(frozenset((a - x, b - y) for a, b in image))
        return cls(drawn, (tuple(placements[0]), tuple(placements[1])))

    def joined(self) -> bool:
        """Whether the cells make one piece, side to side."""
        reached, todo = set(), [min(self.cells)]
        while todo:
            cell = todo.pop()
            reached.add(cell)
            todo += [other for other in neighbours(cell) if other in self.cells and other not in reached]
        return reached == self.cells

    def completed(self, cell: Cell, filled: Callable[[Cell], bool]) -> int:
        """How many placements of the shape covering ``cell`` are all ``filled``."""
        x, y = cell
        return sum(all(filled((x + a, y + b)) for a, b in offsets)
                   for offsets in self.placements[(x + y) % 2])
