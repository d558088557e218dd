"""The board kinds a replay can show, chosen by the ruleset's board primitive.

Each kind reads the engine's board into a plain view, paints the view as SVG elements and
tells it as text. A new board shape (a square grid, say) joins by adding a
:class:`BoardKind` here with its own view, painter (through a
:class:`~contack_core.replay.geometry.BoardGeometry`) and describer; the timeline, the SVG
document, the HTML page and the terminal stepper stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from contack_core.replay.drawing import Picture, colour_for, markup
from contack_core.replay.squares import describe_board, paint_board, read_board
from contack_core.replay.triangles import describe_figure, paint_figure, read_figure

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.slots import Position


class BoardView(Protocol):
    """What every board kind's view offers the timeline, the page and the stepper."""

    @property
    def tiles(self) -> Sequence[object]:
        """What lies on the board (tiles in the order laid, or pieces)."""

    @property
    def legend(self) -> Sequence[str]:
        """What the picture's marks mean, in lines (none where nothing needs saying)."""

    @property
    def swatches(self) -> Sequence[str]:
        """The colours a legend shows a swatch for (the pieces' colours; none for tiles)."""

    def to_json(self) -> dict[str, Any]:
        """The view as the HTML page's data."""


@attrs.frozen
class BoardKind:
    """How a replay reads, draws and tells one shape of board."""

    #: (rules, the engine's board container, whether the hand goes on) -> a view.
    read: Callable[[Rules, Position, bool], BoardView]
    #: (view, the ruleset's colour words) -> SVG elements and their extent.
    paint: Callable[[Any, dict[str, str]], Picture]
    #: (view, the ruleset's colour words) -> text lines.
    describe: Callable[[Any, dict[str, str]], list[str]]


BOARD_KINDS: Mapping[str, BoardKind] = MappingProxyType({
    "triangular-lattice": BoardKind(
        read=read_figure,
        paint=lambda view, colours: paint_figure(view, colour_names=colours),
        describe=describe_figure,
    ),
    "square-grid": BoardKind(read=read_board, paint=paint_board, describe=describe_board),
})


def board_kind(rules: Rules) -> BoardKind | None:
    """The kind for this ruleset's board primitive, or None when replays cannot draw it yet."""
    return BOARD_KINDS.get(rules.board.name)


#: What a board of pieces' marks mean, under its picture on a page.
PIECES_LEGEND = ("Each piece shows its corner numbers where they lie; a dark piece is turned over; a circle is a "
                 "ringed spot; the piece moved last is outlined; the numbers along the edges are the points' "
                 "coordinates (x east, y north).")


def legend_markup(view: BoardView, colours: Sequence[str], colour_words: Mapping[str, str]) -> str:
    """What a page shows under a board whose view has a legend (a board of pieces), as HTML for the
    page's own element: what its marks mean and a swatch for each of ``colours``, called by the
    ruleset's ``colour_words``; ``""`` for a board whose marks need no saying (laid tiles)."""
    if not view.legend:
        return ""
    # A swatch is drawn, not styled: a page whose policy refuses inline styles still shows it.
    swatches = "".join(f'<svg class="swatch" viewBox="0 0 1 1" aria-hidden="true"><rect width="1" height="1" '
                       f'fill="{colour_for(colour, index)}"/></svg>{markup(colour_words.get(colour, colour))}'
                       for index, colour in enumerate(colours))
    return f"{markup(PIECES_LEGEND)}<div>{swatches}</div>"
