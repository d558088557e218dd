"""A square-grid board of corner-numbered pieces: what a replay shows of it, drawn and told.

:func:`read_board` turns the engine's :class:`~contack_core.boards.grid.PieceBoard` into a plain
:class:`SquareView`; :func:`paint_board` draws it through a :class:`SquareGeometry` (grid
lines, ringed points, each piece a square in its colour with its four corner numbers where
they lie, a turned-over piece dark); :func:`describe_board` tells it as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from contack_core.boards.grid import PieceBoard, board_legend, board_text
from contack_core.replay.drawing import (
    LAST_COLOUR,
    LAYER_CELLS,
    LAYER_MARKS,
    LAYER_TILES,
    Element,
    Picture,
    attr,
    colour_for,
    points_attr,
    title,
)
from contack_core.replay.geometry import Bounds, Point

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.slots import Position

Square = tuple[int, int]


class SquareGeometry:
    """Points of a square grid on the page: ``(x, y)`` at ``(x * side, (size - 1 - y) * side)``
    (north up); a piece is a square of one ``side`` centred on its point, sides numbered
    north, east, south, west."""

    def __init__(self, size: int, side: float = 40.0) -> None:
        self.size = size
        self.side = side

    def centre(self, cell: Square) -> Point:
        return (cell[0] * self.side, (self.size - 1 - cell[1]) * self.side)

    def outline(self, cell: Square) -> tuple[Point, ...]:
        """Corners north-west, north-east, south-east, south-west (side ``s`` from corner ``s`` to ``s + 1``)."""
        x, y = self.centre(cell)
        h = self.side / 2
        return ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))

    def side_segment(self, cell: Square, side: int) -> tuple[Point, Point]:
        corners = self.outline(cell)
        return corners[side], corners[(side + 1) % 4]


@attrs.frozen
class PlacedPiece:
    """A piece on the board: its point, owner, colour, kind, corner numbers (NW, NE, SE, SW), face."""

    square: Square
    seat: int
    colour: str
    kind: str
    corners: tuple[int, int, int, int]
    flipped: bool


@attrs.frozen
class SquareView:
    """The board as a replay shows it at one step."""

    size: int
    tiles: tuple[PlacedPiece, ...]
    ringed: tuple[Square, ...]
    last: Square | None
    text: tuple[str, ...]
    #: What the text picture's marks mean (:func:`contack_core.boards.grid.board_legend`).
    legend: tuple[str, ...] = ()

    @property
    def swatches(self) -> tuple[str, ...]:
        """The colours of the pieces on the board, each shown by a swatch under the picture."""
        return tuple(sorted({piece.colour for piece in self.tiles}))

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def read_board(rules: Rules, board: Position, live: bool) -> SquareView:
    """What ``board`` (a :class:`PieceBoard`) shows."""
    assert isinstance(board, PieceBoard)
    pieces = tuple(PlacedPiece(square, board.owner[p], board.colour[p], board.kinds[board.kind[p]].name,
                               board.corners(p), board.flipped[p])
                   for p, square in enumerate(board.square) if square is not None)
    ringed = tuple(sorted(frozenset().union(*board.ringed))) if board.ringed else ()
    last = board.square[board.last] if board.last is not None else None
    initials = {colour: rules.colour_term(colour)[:1] for colour in set(board.colour)}
    legend = board_legend({colour: rules.colour_term(colour) for colour in set(board.colour)})
    return SquareView(board.size, pieces, ringed, last, tuple(board_text(board, initials)), tuple(legend))


def paint_board(view: SquareView, colour_names: dict[str, str] | None = None) -> Picture:
    """The board as SVG elements: ``g.grid`` lines, ``circle.ringed`` points, one
    ``g.piece`` per piece (``rect.piece`` and four ``text.number``), ``rect.last`` on the
    piece moved last."""
    names = colour_names or {}
    geometry = SquareGeometry(view.size)
    side, last_index = geometry.side, view.size - 1
    lines = []
    for i in range(view.size):
        a, b = geometry.centre((i, 0)), geometry.centre((i, last_index))
        lines.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>')
        a, b = geometry.centre((0, i)), geometry.centre((last_index, i))
        lines.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>')
    elements = [Element(LAYER_CELLS, f'<g class="grid" stroke="#94a3b8" stroke-width="1">{"".join(lines)}</g>')]
    for point in view.ringed:
        x, y = geometry.centre(point)
        elements.append(Element(LAYER_CELLS, f'<circle class="ringed" cx="{x:.1f}" cy="{y:.1f}" r="{side * 0.3:.1f}" '
                                             f'fill="none" stroke="#64748b" stroke-width="2">'
                                             f'{title(f"ringed spot {list(point)}")}</circle>'))
    axis = []  # the points' coordinates along the south and west edges, as the text picture numbers them
    for i in range(view.size):
        x, y = geometry.centre((i, 0))
        axis.append(f'<text x="{x:.1f}" y="{y + side * 0.95:.1f}">{i}</text>')
        x, y = geometry.centre((0, i))
        axis.append(f'<text x="{x - side * 0.95:.1f}" y="{y:.1f}">{i}</text>')
    elements.append(Element(LAYER_CELLS, f'<g class="axis" font-size="{side * 0.34:.1f}" font-family="sans-serif" '
                                         f'fill="#475569" text-anchor="middle" dominant-baseline="central">'
                                         f'{"".join(axis)}</g>'))
    font = side * 0.34  # corner digits readable at a board 700 px wide (issue 30 item 6)
    colours = sorted({piece.colour for piece in view.tiles})
    for piece in view.tiles:
        outline = geometry.outline(piece.square)
        centre = geometry.centre(piece.square)
        fill = colour_for(piece.colour, colours.index(piece.colour))
        word = names.get(piece.colour, piece.colour)
        label = f"{word} {piece.kind} at {list(piece.square)}{' (turned over)' if piece.flipped else ''}"
        parts = [f'<g class="piece" data-seat="{piece.seat}" data-colour={attr(piece.colour)} '
                 f'data-cell="{piece.square[0]},{piece.square[1]}">',
                 f'<polygon class="piece" points="{points_attr(outline)}" fill="{fill}" '
                 f'fill-opacity="{0.95 if piece.flipped else 0.55}" stroke="#1f2937" stroke-width="1">'
                 f'{title(label)}</polygon>']
        for corner, value in zip(outline, piece.corners):
            spot = (centre[0] + (corner[0] - centre[0]) * 0.52, centre[1] + (corner[1] - centre[1]) * 0.52)
            parts.append(f'<text class="number" x="{spot[0]:.1f}" y="{spot[1]:.1f}" font-size="{font:.1f}" '
                         f'font-weight="bold" font-family="sans-serif" text-anchor="middle" '
                         f'dominant-baseline="central" fill="{"#fff" if piece.flipped else "#111827"}">{value}</text>')
        parts.append("</g>")
        elements.append(Element(LAYER_TILES, "".join(parts)))
    if view.last is not None:
        outline = geometry.outline(view.last)
        elements.append(Element(LAYER_MARKS, f'<polygon class="last" points="{points_attr(outline)}" fill="none" '
                                             f'stroke="{LAST_COLOUR}" stroke-width="3"/>'))
    bounds = Bounds.around([*geometry.outline((0, last_index)), *geometry.outline((last_index, 0)),
                            (-side * 1.4, 0.0), (0.0, last_index * side + side * 1.4)])  # and the coordinates
    return Picture(tuple(elements), bounds)


def describe_board(view: SquareView, colour_names: dict[str, str] | None = None) -> list[str]:
    """The board as text (see :func:`contack_core.boards.grid.board_text`), then the pieces by seat."""
    lines = list(view.text)
    seats = sorted({piece.seat for piece in view.tiles})
    for seat in seats:
        mine = [p for p in view.tiles if p.seat == seat]
        listed = ", ".join(f"{p.kind} {list(p.square)} {'-'.join(map(str, p.corners))}" for p in mine)
        lines.append(f"  seat {seat} ({len(mine)}): {listed}")
    if view.last is not None:
        lines.append(f"  last moved: {list(view.last)}")
    lines.extend(f"  {line}" for line in view.legend)
    return lines
