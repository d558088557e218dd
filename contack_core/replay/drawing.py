"""SVG building blocks shared by every board painter: elements on layers, colours, escaping.

A picture is a list of :class:`Element`, each a piece of SVG markup on a numbered layer
(painted in layer order). The standalone SVG writes them out; the HTML page writes each
distinct element once and shows it on the steps it belongs to, which is why painters must
draw the same thing as the same markup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

import attrs

from contack_core.replay.geometry import Bounds, Point

#: Paint order: cells to play to, then tiles, then marks drawn over tiles.
LAYER_CELLS, LAYER_TILES, LAYER_MARKS = 0, 1, 2
LAYER_COUNT = 3

#: Page colours for the colour names tile sets use; others fall back to :data:`FALLBACK`.
NAMED_COLOURS = {
    "blue": "#1d4ed8", "red": "#c81e1e", "gold": "#d98b00", "orange": "#e8590c", "green": "#15803d",
    "yellow": "#c9a400", "black": "#1f1f1f", "white": "#9ca3af", "purple": "#7e22ce", "brown": "#8b5a2b",
}
FALLBACK = ("#0f766e", "#a21caf", "#4d7c0f", "#b45309", "#1e40af", "#be123c")

TILE_FILL = "#fbf7ec"
COUNTING_COLOUR = "#16a34a"
LAST_COLOUR = "#111827"
OPEN_COLOUR = "#64748b"


@attrs.frozen
class Element:
    """One piece of SVG markup on a paint layer."""

    layer: int
    markup: str


@attrs.frozen
class Picture:
    """What a painter draws for one step: its elements and the page area they cover."""

    elements: tuple[Element, ...]
    bounds: Bounds


def colour_for(name: str, index: int) -> str:
    """The page colour of a tile colour called ``name`` (the ``index``-th colour of its set)."""
    return NAMED_COLOURS.get(name.lower(), FALLBACK[index % len(FALLBACK)])


def points_attr(points: Sequence[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


#: What neither XML 1.0 nor HTML may hold as text: C0 controls but tab, line feed and carriage
#: return, the two non-characters U+FFFE and U+FFFF, and lone surrogates (which a record's JSON
#: may name, and UTF-8 cannot encode).
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def markup(value: object) -> str:
    """``value`` as text for HTML or SVG, in an element or in a double- or single-quoted
    attribute: ``& < > " '`` escaped, and what markup may not hold at all replaced by U+FFFD.
    Every value from a record or a ruleset reaches a page through here."""
    return escape(_NOT_TEXT.sub("\ufffd", str(value)), quote=True)


def title(text: str) -> str:
    return f"<title>{markup(text)}</title>"


def attr(value: str) -> str:
    """An attribute value, quoted and escaped (:func:`markup`)."""
    return f'"{markup(value)}"'
