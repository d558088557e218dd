"""Where a board's cells lie on the page: the small interface every board picture is drawn through.

A renderer asks a geometry for a cell's outline, the segment of each of its sides and its
centre, in page coordinates (SVG: x to the right, y downwards). The triangle-tile games use
:class:`TriangleGeometry` (the lattice of :mod:`contack_core.boards.lattice`); a square board (a 16x16 grid whose tiles
carry corner numbers) is another implementation of :class:`BoardGeometry`, so the SVG,
HTML and terminal views need no change beyond a painter for its pieces.
"""

from __future__ import annotations

import math
from typing import Protocol

import attrs

Point = tuple[float, float]
Cell = tuple[int, int]


@attrs.frozen
class Bounds:
    """An axis-aligned box on the page."""

    left: float
    top: float
    right: float
    bottom: float

    def union(self, other: Bounds) -> Bounds:
        return Bounds(min(self.left, other.left), min(self.top, other.top),
                      max(self.right, other.right), max(self.bottom, other.bottom))

    def padded(self, margin: float) -> Bounds:
        return Bounds(self.left - margin, self.top - margin, self.right + margin, self.bottom + margin)

    def view_box(self) -> str:
        return f"{self.left:.1f} {self.top:.1f} {self.right - self.left:.1f} {self.bottom - self.top:.1f}"

    @classmethod
    def around(cls, points: list[Point]) -> Bounds:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return cls(min(xs), min(ys), max(xs), max(ys))


class BoardGeometry(Protocol):
    """Page positions of a board's cells; one implementation per board shape."""

    #: The length of one cell side on the page.
    side: float

    def outline(self, cell: Cell) -> tuple[Point, ...]:
        """The cell's corners, in the order of its sides (side ``s`` runs from corner ``s`` to ``s + 1``)."""
        ...

    def side_segment(self, cell: Cell, side: int) -> tuple[Point, Point]:
        """The two ends of side ``side`` of ``cell``, numbered as the engine numbers sides."""
        ...

    def centre(self, cell: Cell) -> Point:
        ...


class TriangleGeometry:
    """The triangular lattice of :mod:`contack_core.boards.lattice`, drawn with equilateral triangles.

    Cell ``(x, y)`` points up when ``x + y`` is even; ``y`` grows upwards on the table (an up
    cell's neighbour across its bottom edge is ``(x, y - 1)``), so the page's y is flipped.
    Sides are numbered as in :mod:`contack_core.boards.lattice`: up cell 0 bottom, 1 right, 2 left;
    down cell 0 top, 1 left, 2 right (anticlockwise in both cases).
    """

    def __init__(self, side: float = 80.0) -> None:
        self.side = side
        self.height = side * math.sqrt(3) / 2

    def outline(self, cell: Cell) -> tuple[Point, Point, Point]:
        x, y = cell
        half, h = self.side / 2, self.height
        centre_x = x * half
        if (x + y) % 2 == 0:  # up: bottom-left, bottom-right, apex (sides bottom, right, left)
            base = -y * h
            return ((centre_x - half, base), (centre_x + half, base), (centre_x, base - h))
        top = -(y + 1) * h  # down: top-right, top-left, apex (sides top, left, right)
        return ((centre_x + half, top), (centre_x - half, top), (centre_x, top + h))

    def side_segment(self, cell: Cell, side: int) -> tuple[Point, Point]:
        corners = self.outline(cell)
        return corners[side], corners[(side + 1) % 3]

    def centre(self, cell: Cell) -> Point:
        corners = self.outline(cell)
        return (sum(c[0] for c in corners) / 3, sum(c[1] for c in corners) / 3)


def toward(origin: Point, target: Point, fraction: float) -> Point:
    """The point ``fraction`` of the way from ``origin`` to ``target``."""
    return (origin[0] + (target[0] - origin[0]) * fraction, origin[1] + (target[1] - origin[1]) * fraction)


def midpoint(a: Point, b: Point) -> Point:
    return toward(a, b, 0.5)
