"""The figure's shapes on the triangle lattice (corners, hexagons, lines), checked against the
plane: each cell drawn as a real triangle, so the lattice's own arithmetic is not its judge."""

from __future__ import annotations

import itertools
import math

import pytest

from contack_core.boards.lattice import cells_around, cells_at, corners, line_lengths, neighbours

HEIGHT = math.sqrt(3) / 2
REGION = [(x, y) for x in range(-6, 7) for y in range(-5, 6)]


def drawn(cell: tuple[int, int]) -> set[tuple[float, float]]:
    """The triangle of ``cell`` in the plane (unit sides; up cells have their base below)."""
    x, y = cell
    if (x + y) % 2 == 0:
        return {(round((x - 1) / 2, 6), round(y * HEIGHT, 6)), (round((x + 1) / 2, 6), round(y * HEIGHT, 6)),
                (round(x / 2, 6), round((y + 1) * HEIGHT, 6))}
    return {(round((x - 1) / 2, 6), round((y + 1) * HEIGHT, 6)), (round((x + 1) / 2, 6), round((y + 1) * HEIGHT, 6)),
            (round(x / 2, 6), round(y * HEIGHT, 6))}


def test_the_plane_drawing_agrees_with_the_fixed_neighbours() -> None:
    """Two cells share a side (two corners in the plane) exactly when the lattice calls them
    neighbours: the drawing below is the geometry DESIGN.md fixes."""
    for cell, other in itertools.combinations(REGION, 2):
        assert (len(drawn(cell) & drawn(other)) == 2) == (other in neighbours(cell))


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (-3, 2), (4, -3)])
def test_the_corners_of_a_cell_are_its_corners_in_the_plane(cell: tuple[int, int]) -> None:
    assert {_plane(point) for point in corners(cell)} == drawn(cell)
    for point in corners(cell):
        meeting = [other for other in REGION if _plane(point) in drawn(other)]
        assert sorted(cells_at(point)) == sorted(meeting)
        assert len(meeting) == 6


def _plane(point: tuple[int, int]) -> tuple[float, float]:
    """Where lattice point ``(u, j)`` lies: ``u`` half sides along, line ``j`` up."""
    return (round(point[0] / 2, 6), round(point[1] * HEIGHT, 6))


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (-3, 2), (2, -3)])
def test_cells_around_are_those_touching_it_at_a_side_or_a_corner(cell: tuple[int, int]) -> None:
    touching = sorted(other for other in REGION if other != cell and drawn(other) & drawn(cell))
    assert sorted(cells_around(cell)) == touching
    assert len(touching) == 12


def test_a_line_is_a_strip_of_cells_between_two_parallel_lines_of_the_plane() -> None:
    """The cells of each line through a cell, filled alone, are counted whole; their corners lie
    on two parallel lines of the plane (one strip), and each is a side neighbour of the next."""
    for direction in range(3):
        strip = _strip((0, 0), direction)
        assert len(strip) == 9
        lengths = line_lengths((0, 0), set(strip).__contains__)
        assert lengths[direction] == 9
        assert all(length < 9 for d, length in enumerate(lengths) if d != direction)
        normal = [(0.0, 1.0), (-HEIGHT, 0.5), (HEIGHT, 0.5)][direction]
        heights = {round(px * normal[0] + py * normal[1], 4) for cell in strip for px, py in drawn(cell)}
        assert len(heights) == 2


def _strip(cell: tuple[int, int], direction: int) -> list[tuple[int, int]]:
    """Nine cells of the plane strip through ``cell`` in ``direction``, found in the plane:
    walking to the side neighbour whose centre lies furthest along the strip's direction."""
    along = [(1.0, 0.0), (0.5, HEIGHT), (-0.5, HEIGHT)][direction]

    def centre(c: tuple[int, int]) -> tuple[float, float]:
        points = drawn(c)
        return (sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3)

    def step(c: tuple[int, int], sign: int) -> tuple[int, int]:
        return max(neighbours(c), key=lambda n: sign * ((centre(n)[0] - centre(c)[0]) * along[0]
                                                        + (centre(n)[1] - centre(c)[1]) * along[1]))
    cells = [cell]
    for sign in (1, -1):
        current = cell
        for _ in range(4):
            current = step(current, sign)
            cells.append(current)
    return cells


def test_a_gap_breaks_a_line_and_an_empty_cell_has_none() -> None:
    row = {(x, 0) for x in range(-3, 4)} - {(2, 0)}
    assert line_lengths((0, 0), row.__contains__)[0] == 5
    assert line_lengths((2, 0), row.__contains__) == (0, 0, 0)
