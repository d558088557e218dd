"""The triangle-tile figure: what a replay shows of it, drawn and told.

:func:`read_figure` turns the engine's :class:`~contack_core.boards.lattice.Figure` into a plain
:class:`TriangleView`; :func:`paint_figure` draws it through a :class:`TriangleGeometry`
(each tile an equilateral triangle with its three coloured edges and their numbers, the
numbers upright for a reader facing the page); :func:`describe_figure` tells it as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from contack_core.boards.lattice import Cell, figure_map, figure_of, points_up
from contack_core.replay.drawing import (
    COUNTING_COLOUR,
    LAST_COLOUR,
    LAYER_CELLS,
    LAYER_MARKS,
    LAYER_TILES,
    OPEN_COLOUR,
    TILE_FILL,
    Element,
    Picture,
    attr,
    colour_for,
    points_attr,
    title,
)
from contack_core.replay.geometry import Bounds, TriangleGeometry, midpoint, toward

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.slots import Position


@attrs.frozen
class PlacedTile:
    """A tile on the figure; ``values`` and ``colours`` edge by edge, anticlockwise, ``rotation``
    as the engine keeps it."""

    cell: Cell
    name: str
    values: tuple[int, ...]
    colours: tuple[str, ...]
    rotation: int

    def side_of_edge(self, edge: int) -> int:
        """The cell side the tile's ``edge``-th coloured edge lies on (see :mod:`contack_core.boards.lattice`)."""
        return (edge + self.rotation) % 3


@attrs.frozen
class Contact:
    """One touching pair of the last tile played: its side, colour, the two numbers, what it scores."""

    cell: Cell
    side: int
    neighbour: Cell
    colour: str
    mine: int
    theirs: int
    counting: bool
    points: int
    #: Numbers that fail the placement's ``contact``, or colours that differ (a house rule's
    #: ``legal`` may allow such a contact).
    missed: bool = False


@attrs.frozen
class TriangleView:
    """The figure as a replay shows it at one step."""

    colours: tuple[str, ...]
    tiles: tuple[PlacedTile, ...]  # in the order they were laid
    last: Cell | None
    open_cells: tuple[Cell, ...]
    contacts: tuple[Contact, ...]  # of the last tile played

    @property
    def legend(self) -> tuple[str, ...]:
        """Nothing to explain: a tile shows its numbers in its edges' colours."""
        return ()

    @property
    def swatches(self) -> tuple[str, ...]:
        return ()

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def read_figure(rules: Rules, figure: Position, live: bool) -> TriangleView:
    """What ``figure`` shows; ``live``: the hand goes on, so its open cells are worth marking."""
    figure = figure_of(figure)  # this board kind is the triangle lattice's: its position is a figure
    tiles = rules.tiles
    placed = tuple(
        PlacedTile(cell, tiles.names[tile], tuple(tiles.values[tile]),
                   tuple(tiles.edge_colour(tile, edge) for edge in range(len(tiles.values[tile]))), figure.rotation(cell))
        for cell, tile in figure.tile_at.items()
    )
    placement = rules.placement
    open_cells: tuple[Cell, ...] = ()
    if live and figure.tile_at and placement is not None:
        open_cells = tuple(placement.legal_cells(figure.clone()))
    contacts: tuple[Contact, ...] = ()
    last = figure.last
    if last is not None and placement is not None:
        neighbours = figure.neighbours(last)
        contacts = tuple(
            Contact(cell=last, side=neighbours.index(c["neighbour"]), neighbour=c["neighbour"], colour=c["colour"],
                    mine=c["mine"], theirs=c["theirs"], counting=c["counting"], points=c["points"],
                    missed=c["kind"] == "missed")
            for c in placement.contacts_of(figure, last)
        )
    return TriangleView(tuple(tiles.colours), placed, last, open_cells, contacts)


def paint_figure(view: TriangleView, geometry: TriangleGeometry | None = None,
                 colour_names: dict[str, str] | None = None) -> Picture:
    """The figure as SVG elements: one ``polygon.tile`` per tile, its edges and numbers,
    ``polygon.open`` per open cell, ``polygon.last`` on the last tile, ``line.counting`` per
    counting contact of the last play. ``colour_names`` are the ruleset's words for tooltips."""
    geometry = geometry or TriangleGeometry()
    names = colour_names or {}
    elements: list[Element] = []
    corners: list[tuple[float, float]] = [geometry.outline((0, 0))[0], geometry.outline((0, 0))[2]]
    font = geometry.side * 0.17
    stripe = geometry.side * 0.065
    for cell in view.open_cells:
        outline = geometry.outline(cell)
        corners.extend(outline)
        elements.append(Element(LAYER_CELLS, (
            f'<polygon class="open" data-cell="{cell[0]},{cell[1]}" points="{points_attr(outline)}" '
            f'fill="#e2e8f0" fill-opacity="0.55" stroke="{OPEN_COLOUR}" stroke-width="1.5" stroke-dasharray="5 4">'
            f'{title(f"open cell {list(cell)}")}</polygon>')))
    for placed in view.tiles:
        outline = geometry.outline(placed.cell)
        corners.extend(outline)
        centre = geometry.centre(placed.cell)
        inner = [toward(centre, corner, 0.86) for corner in outline]
        parts = [f'<g class="tile-group" data-tile={attr(placed.name)} data-cell="{placed.cell[0]},{placed.cell[1]}">',
                 f'<polygon class="tile" points="{points_attr(outline)}" fill="{TILE_FILL}" stroke="#3f3f46" '
                 f'stroke-width="1">{title(f"{placed.name} at {list(placed.cell)}")}</polygon>']
        for edge, value in enumerate(placed.values):
            side = placed.side_of_edge(edge)
            colour_name = placed.colours[edge]
            colour = colour_for(colour_name, view.colours.index(colour_name))
            a, b = inner[side], inner[(side + 1) % 3]
            parts.append(f'<line class="edge" data-colour={attr(colour_name)} x1="{a[0]:.1f}" y1="{a[1]:.1f}" '
                         f'x2="{b[0]:.1f}" y2="{b[1]:.1f}" stroke="{colour}" stroke-width="{stripe:.1f}" '
                         f'stroke-linecap="round"/>')
            spot = toward(centre, midpoint(*geometry.side_segment(placed.cell, side)), 0.58)
            parts.append(f'<text class="number" x="{spot[0]:.1f}" y="{spot[1]:.1f}" fill="{colour}" '
                         f'font-size="{font:.1f}" font-weight="bold" font-family="sans-serif" text-anchor="middle" '
                         f'dominant-baseline="central">{value}'
                         f'{title(f"{names.get(colour_name, colour_name)} {value}")}</text>')
        parts.append("</g>")
        elements.append(Element(LAYER_TILES, "".join(parts)))
    if view.last is not None:
        outline = geometry.outline(view.last)
        elements.append(Element(LAYER_MARKS, (
            f'<polygon class="last" data-cell="{view.last[0]},{view.last[1]}" points="{points_attr(outline)}" '
            f'fill="none" stroke="{LAST_COLOUR}" stroke-width="4" stroke-linejoin="round"/>')))
    for contact in view.contacts:
        if not contact.counting:
            continue
        a, b = geometry.side_segment(contact.cell, contact.side)
        badge = toward(a, b, 0.2)  # near a corner, where no number is printed
        elements.append(Element(LAYER_MARKS, (
            f'<g class="contact"><line class="counting" x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" '
            f'y2="{b[1]:.1f}" stroke="{COUNTING_COLOUR}" stroke-width="7" stroke-opacity="0.75" '
            f'stroke-linecap="round"/><circle cx="{badge[0]:.1f}" cy="{badge[1]:.1f}" r="{font * 0.8:.1f}" '
            f'fill="{COUNTING_COLOUR}" stroke="#fff" stroke-width="1.5"/><text x="{badge[0]:.1f}" y="{badge[1]:.1f}" '
            f'fill="#fff" font-size="{font * 0.75:.1f}" font-weight="bold" font-family="sans-serif" text-anchor="middle" '
            f'dominant-baseline="central">{contact.points}</text>'
            f'{title(f"{contact.mine}+{contact.theirs} = {contact.points}")}</g>')))
    return Picture(tuple(elements), Bounds.around(corners))


def describe_figure(view: TriangleView, colour_names: dict[str, str] | None = None) -> list[str]:
    """The figure as text lines: a small map of the cells, then each tile with the number on each edge."""
    names = colour_names or {}
    lines = _figure_map(view)
    for placed in view.tiles:
        arrow = "▲" if points_up(placed.cell) else "▼"
        where = ("bottom", "right", "left") if points_up(placed.cell) else ("top", "left", "right")
        edges = ", ".join(f"{names.get(placed.colours[e], placed.colours[e])} {placed.values[e]} "
                          f"({where[placed.side_of_edge(e)]})" for e in range(len(placed.values)))
        mark = "  <- last" if placed.cell == view.last else ""
        lines.append(f"  {arrow} [{placed.cell[0]:>3},{placed.cell[1]:>3}] {placed.name}: {edges}{mark}")
    if view.open_cells:
        lines.append("  open cells: " + " ".join(f"[{c[0]},{c[1]}]" for c in view.open_cells))
    return lines


def _figure_map(view: TriangleView) -> list[str]:
    """Rows of the lattice from the top (:func:`contack_core.boards.lattice.figure_map`)."""
    return figure_map((placed.cell for placed in view.tiles), view.last, view.open_cells)
