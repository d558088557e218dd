"""The triangular lattice of DESIGN.md section 4 (fixed, because records depend on it)."""

from __future__ import annotations

import itertools

import pytest
from helpers import RULES, TILES, ref_neighbours, tile

from contack_core.boards.lattice import (
    MAX_EDGE_COLOURS,
    MAX_EDGE_VALUE,
    SIDE_BITS,
    Figure,
    NeighbourCache,
    decode_demand,
    edge_code,
    neighbours,
    parse_cell,
    points_up,
)

CELLS = list(itertools.product(range(-6, 7), range(-6, 7)))


def test_points_up_when_x_plus_y_even():
    assert points_up((0, 0)) and points_up((1, 1)) and points_up((-1, -1)) and points_up((2, -4))
    assert not points_up((1, 0)) and not points_up((0, -1)) and not points_up((-3, 0))


def test_up_cell_neighbours_per_design():
    # "Up cell neighbours: [x-1, y], [x+1, y], [x, y-1] (across its horizontal edge)."
    assert set(neighbours((0, 0))) == {(-1, 0), (1, 0), (0, -1)}
    assert set(neighbours((3, 5))) == {(2, 5), (4, 5), (3, 4)}
    assert set(neighbours((-2, 0))) == {(-3, 0), (-1, 0), (-2, -1)}


def test_down_cell_neighbours_per_design():
    # "Down cell neighbours: [x-1, y], [x+1, y], [x, y+1]."
    assert set(neighbours((1, 0))) == {(0, 0), (2, 0), (1, 1)}
    assert set(neighbours((0, -1))) == {(-1, -1), (1, -1), (0, 0)}
    assert set(neighbours((-3, 2))) == {(-4, 2), (-2, 2), (-3, 3)}


def test_side_numbering():
    # Up: 0 bottom, 1 right, 2 left. Down: 0 top, 1 left, 2 right.
    assert neighbours((0, 0)) == ((0, -1), (1, 0), (-1, 0))
    assert neighbours((1, 0)) == ((1, 1), (0, 0), (2, 0))


@pytest.mark.parametrize("cell", CELLS)
def test_neighbours_match_reference(cell):
    assert neighbours(cell) == ref_neighbours(cell)


@pytest.mark.parametrize("cell", CELLS)
def test_neighbour_relation_is_symmetric_and_alternates_orientation(cell):
    result = neighbours(cell)
    assert len(set(result)) == 3 and cell not in result
    for n in result:
        assert cell in neighbours(n)
        assert points_up(n) != points_up(cell)


@pytest.mark.parametrize("cell", CELLS)
def test_shared_side_has_the_same_side_number_on_both_cells(cell):
    # With every tile at rotation 0, side s shows colour s; so colours match across a
    # shared side exactly when both cells number it alike.
    for side, n in enumerate(neighbours(cell)):
        assert neighbours(n)[side] == cell


def test_neighbour_cache_memoises():
    cache = NeighbourCache()
    assert cache[(2, 3)] == neighbours((2, 3))
    assert (2, 3) in cache
    assert cache[(2, 3)] is cache[(2, 3)]


@pytest.mark.parametrize("colour", range(MAX_EDGE_COLOURS))
@pytest.mark.parametrize("value", [0, 1, 5, 10, 99, MAX_EDGE_VALUE])
def test_edge_code_round_trip(colour, value):
    code = edge_code(colour, value)
    assert code != 0 and code < 1 << SIDE_BITS
    for side in range(3):
        demand = code << (SIDE_BITS * side)
        decoded = decode_demand(demand)
        assert decoded[side] == (colour, value)
        assert sum(d is not None for d in decoded) == 1


def test_parse_cell():
    assert parse_cell([3, -4]) == (3, -4)
    assert parse_cell((0, 0)) == (0, 0)
    for bad in ([1], [1, 2, 3], ["1", 2], [1.0, 2], [True, 0], "1,2", None, {"x": 1}):
        with pytest.raises(ValueError):
            parse_cell(bad)


def touching(figure: Figure, cell) -> int:
    return sum(side is not None for side in decode_demand(figure.demands[cell]))


def _place(figure: Figure, name: str, cell):
    t = tile(name)
    figure.place(t, cell, 0, RULES.placement.side_codes[t][0])
    return t


def test_rotation_zero_tiles_show_matching_colours_across_every_shared_side():
    """Lay tiles unturned on a patch of cells: every empty neighbour's demand on side s is
    colour s with the value the tile shows on edge s; and every pair of touching tiles
    meets colour to colour."""
    figure = RULES.new_figure()
    names = list(TILES.names)
    patch = [(x, y) for x in range(-2, 3) for y in range(-1, 2)]
    placed = {}
    for i, cell in enumerate(patch):
        placed[cell] = _place(figure, names[i], cell)
    for cell, t in placed.items():
        for side, n in enumerate(neighbours(cell)):
            if n in placed:
                # Side s of this cell touches side s of the neighbour: colour s against colour s.
                assert neighbours(n)[side] == cell
            else:
                need = decode_demand(figure.demands[n])[side]
                assert need == (side, TILES.values[t][side])


def test_figure_tracks_contacts_and_openings():
    figure = RULES.new_figure()
    _place(figure, "01-02-03", (0, 0))
    assert figure.last == (0, 0)
    assert set(figure.demands) == {(0, -1), (1, 0), (-1, 0)}
    assert not figure.openings
    _place(figure, "06-02-05", (1, 0))
    _place(figure, "02-09-10", (1, 1))
    _place(figure, "09-10-04", (0, 1))
    # (0, 1)'s left neighbour (-1, 1) touches one tile; (-1, 0) touches only (0, 0).
    assert touching(figure, (-1, 1)) == 1 and touching(figure, (-1, 0)) == 1
    assert not figure.openings
    _place(figure, "09-10-01", (-1, 1))
    # (-1, 0) now touches (0, 0) on its right side and (-1, 1) on its top: an opening.
    assert touching(figure, (-1, 0)) == 2
    assert list(figure.openings) == [(-1, 0)]
    assert set(RULES.placement.legal_cells(figure)) == {(-1, 0), (-2, 1)}  # next to the last tile, and the opening
    demand = decode_demand(figure.demands[(-1, 0)])
    assert demand[0] == (0, 9)     # top: blue 9 of 09-10-01
    assert demand[1] is None       # left: open
    assert demand[2] == (2, 3)     # right: gold 3 of 01-02-03
    # Filling the opening removes it.
    _place(figure, "09-05-08", (-1, 0))
    assert (-1, 0) not in figure.openings and (-1, 0) not in figure.demands


def test_figure_clone_is_independent():
    figure = RULES.new_figure()
    _place(figure, "01-02-03", (0, 0))
    copy = figure.clone()
    _place(copy, "06-02-05", (1, 0))
    assert (1, 0) not in figure.tile_at and figure.last == (0, 0)
    assert (1, 0) in figure.demands and (1, 1) not in figure.demands
    assert copy.last == (1, 0) and set(copy.tile_at) == {(0, 0), (1, 0)}


@pytest.mark.parametrize("opening_min", [1, 2, 3])
def test_placement_specialised_to_an_opening_rule_keeps_the_figure_as_the_generic_one(opening_min):
    """The compiled play step inlines the placement specialised to its rule's openings
    (lattice.place_source); laid the same tiles, it must leave every table of the figure
    exactly as Figure.place does, openings in the same order."""
    from contack_core.boards.lattice import place_source, sides_touched
    from contack_core.language.programs import Source, define_from

    specialised = define_from("place", ["_figure", "_tile", "_cell", "_rotation", "_codes"],
                              Source("\n".join(place_source(opening_min)), {"sides_touched": sides_touched}))
    cache = NeighbourCache()
    generic, inlined = Figure(opening_min, cache), Figure(opening_min, cache)
    # (0, 0) stays empty, its three neighbours laid: an opening under every rule.
    cells = [(1, 0), (2, 0), (0, -1), (1, 1), (-1, 0), (-1, -1), (0, 1), (3, 0), (-2, 0), (2, 1)]
    for t, cell in enumerate(cells):
        codes = RULES.placement.side_codes[t][0]
        generic.place(t, cell, 0, codes)
        specialised(inlined, t, cell, 0, codes)
        assert inlined.tile_at == generic.tile_at
        assert inlined.demands == generic.demands
        assert list(inlined.openings) == list(generic.openings)
        assert inlined.free_next_to_last == generic.free_next_to_last
    assert (0, 0) in generic.openings
