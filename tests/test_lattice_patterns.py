"""Named shapes (:class:`Pattern`) on the triangle lattice, judged in the plane: the big
triangle of four found as plane triangles of side two, the hexagon as the six cells at a point."""

from __future__ import annotations

import math
import random

import pytest

from contack_core.boards.lattice import Pattern, cells_around, cells_at, corners, neighbours

HEIGHT = math.sqrt(3) / 2
REGION = [(x, y) for x in range(-7, 8) for y in range(-6, 7)]
TRIANGLE_OF_FOUR = Pattern.of([(0, 0), *neighbours((0, 0))])


def centre(cell: tuple[int, int]) -> tuple[float, float]:
    x, y = cell
    return x / 2, (y + (1 / 3 if (x + y) % 2 == 0 else 2 / 3)) * HEIGHT


def inside(point: tuple[float, float], triangle: list[tuple[float, float]]) -> bool:
    """Whether ``point`` lies strictly inside ``triangle`` (by the signs of three cross products)."""
    (px, py), signs = point, []
    for (ax, ay), (bx, by) in zip(triangle, triangle[1:] + triangle[:1]):
        signs.append((bx - ax) * (py - ay) - (by - ay) * (px - ax) > 0)
    return all(signs) or not any(signs)


def plane_big_triangles() -> list[frozenset[tuple[int, int]]]:
    """Every equilateral triangle of side two with corners on lattice points, as the cells
    whose centres lie in it (drawn in the plane, pointing up and pointing down)."""
    found = []
    for u in range(-6, 7):
        for j in range(-5, 6):
            if (u + j) % 2 == 0:
                continue  # lattice points (cells' corners) are (u, j) with u + j odd
            px, py = u / 2, j * HEIGHT
            for tip in (2 * HEIGHT, -2 * HEIGHT):
                triangle = [(px - 1, py), (px + 1, py), (px, py + tip)]
                found.append(frozenset(c for c in REGION if inside(centre(c), triangle)))
    return found


def test_the_drawn_shape_is_the_cells_given() -> None:
    assert TRIANGLE_OF_FOUR.cells == frozenset({(0, 0), (0, -1), (1, 0), (-1, 0)})


def test_a_triangle_of_four_is_a_plane_triangle_of_side_two() -> None:
    """Both orientations: each placement covering a cell is a big triangle drawn in the plane,
    and every big triangle covering the cell is one of the placements."""
    big = [t for t in plane_big_triangles() if len(t) == 4]
    for cell in [(0, 0), (1, 0), (-3, 2), (2, -3)]:
        x, y = cell
        placed = {frozenset((x + a, y + b) for a, b in offsets)
                  for offsets in TRIANGLE_OF_FOUR.placements[(x + y) % 2]}
        assert placed == {t for t in big if cell in t}
        assert len(placed) == 4  # as the centre, or as one of three tips


@pytest.mark.parametrize("seed", range(5))
def test_completed_counts_the_filled_placements(seed: int) -> None:
    rng = random.Random(seed)
    filled = {c for c in REGION if rng.random() < 0.6}
    big = [t for t in plane_big_triangles() if len(t) == 4]
    hexagon = Pattern.of(cells_at((1, 0)))  # the six cells round a corner of cell (0, 0)
    for cell in [c for c in REGION if abs(c[0]) < 4 and abs(c[1]) < 3]:
        expected = sum(cell in t and t <= filled for t in big)
        assert TRIANGLE_OF_FOUR.completed(cell, filled.__contains__) == expected
        assert hexagon.completed(cell, filled.__contains__) == sum(
            all(c in filled for c in cells_at(point)) for point in corners(cell))


def test_a_shape_unlike_its_mirror_image_is_matched_both_ways() -> None:
    """Four cells in a row make a slanted parallelogram, not its own mirror image: three
    directions, two hands, two up cells each to stand on, make twelve placements."""
    row = Pattern.of([(0, 0), (1, 0), (2, 0), (3, 0)])
    assert len(set(row.placements[0])) == 12
    assert frozenset({(0, 0), (-1, 0), (-2, 0), (-3, 0)}) in row.placements[0]


def test_a_ring_round_an_empty_cell_is_one_shape_and_the_hole_is_not_part_of_it() -> None:
    """The twelve cells round a cell make one piece though they close a cell in; turned and
    mirrored they are the ring round any cell, up or down, so twelve rings cover each cell (one
    round each of its twelve neighbours), and a ring counts as completed whatever its hole holds."""
    ring = Pattern.of(cells_around((0, 0)))
    assert ring.joined() and (0, 0) not in ring.cells and len(ring.cells) == 12
    for cell in [(0, 0), (1, 0), (-2, 3)]:
        x, y = cell
        placed = {frozenset((x + a, y + b) for a, b in offsets) for offsets in ring.placements[(x + y) % 2]}
        assert placed == {frozenset(cells_around(hole)) for hole in cells_around(cell)}
    rng = random.Random(3)
    for _ in range(40):
        filled = {c for c in REGION if rng.random() < 0.85}
        for cell in [(0, 0), (1, 0), (0, 1)]:
            expected = sum(all(c in filled for c in cells_around(hole)) for hole in cells_around(cell))
            assert ring.completed(cell, filled.__contains__) == expected
    only_the_ring = set(cells_around((0, 0)))
    assert ring.completed((1, 0), only_the_ring.__contains__) == 1  # its hole empty
    assert ring.completed((1, 0), (only_the_ring | {(0, 0)}).__contains__) == 1  # its hole filled
