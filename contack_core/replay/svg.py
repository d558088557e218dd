"""One step of a replay as a standalone SVG document (``contack replay RECORD --svg FILE --at N``)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from contack_core.replay.boards import PIECES_LEGEND
from contack_core.replay.drawing import LAYER_COUNT, Element, Picture, colour_for, markup
from contack_core.replay.geometry import Bounds
from contack_core.replay.timeline import Step, Timeline
from contack_core.replay.words import viewer_words

MARGIN = 24.0
CAPTION_LINE = 20.0


def step_picture(timeline: Timeline, step: Step) -> Picture | None:
    """The board at ``step`` as elements, or None when this board kind cannot be drawn."""
    if timeline.board_kind is None or step.board is None:
        return None
    return timeline.board_kind.paint(step.board, timeline.colour_words())


def layered(elements: Sequence[Element]) -> list[list[Element]]:
    """The elements sorted into their paint layers (order kept within a layer)."""
    layers: list[list[Element]] = [[] for _ in range(LAYER_COUNT)]
    for element in elements:
        layers[element.layer].append(element)
    return layers


def legend_lines(step: Step) -> list[str]:
    """What the marks of a board of pieces mean, wrapped to lines (none for laid tiles, whose marks
    need no saying), as the HTML page and the text picture say it."""
    if step.board is None or not step.board.legend:
        return []
    return textwrap.wrap(PIECES_LEGEND, 96)


def caption_lines(timeline: Timeline, step: Step) -> list[str]:
    rules = timeline.rules
    last = len(timeline.steps) - 1
    scores = ", ".join(f"{name} {score}" for name, score in zip(timeline.seats, step.scores))
    # The running totals, named as the page and the terminal name them (tiles left, on a board of pieces).
    total = rules.term("total").capitalize()
    if not step.finished:
        total += f" ({viewer_words(rules.term('language'))['so_far']})"
    lines = [f"{timeline.title}: {rules.term('hand')} {step.hand}, {step.index}/{last}", step.text, f"{total}: {scores}"]
    if step.error:
        lines.append(f"line {step.line}: {step.error}")
    return lines


def render_svg(timeline: Timeline, index: int) -> str:
    """The figure after event ``index`` (0 = before the first event), with a caption above it."""
    step = timeline.steps[index]
    picture = step_picture(timeline, step)
    lines = caption_lines(timeline, step)
    if picture is None:
        lines.append(f"(this replay cannot draw a {timeline.rules.board.name} board yet)")
        bounds = Bounds(0, 0, 480, 40)
        elements: tuple[Element, ...] = ()
    else:
        bounds, elements = picture.bounds, picture.elements
    box = bounds.padded(MARGIN)
    caption_top = box.top - CAPTION_LINE * len(lines) - 8
    legend = legend_lines(step)
    swatches = list(step.board.swatches) if legend and step.board is not None else []
    width = max(box.right - box.left, 12.0 * max(len(line) for line in [*lines, *legend]) * 0.62)
    legend_top = box.bottom
    bottom = legend_top + CAPTION_LINE * (len(legend) + (1 if swatches else 0)) + (8 if legend else 0)
    box = Bounds(box.left, caption_top, box.left + width, bottom)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box.view_box()}" '
        f'width="{box.right - box.left:.0f}" height="{box.bottom - box.top:.0f}">',
        f'<rect x="{box.left:.1f}" y="{box.top:.1f}" width="{box.right - box.left:.1f}" '
        f'height="{box.bottom - box.top:.1f}" fill="#ffffff"/>',
        '<g class="caption" font-family="sans-serif" font-size="13" fill="#111827">',
    ]
    for number, line in enumerate(lines):
        colour = ' fill="#b91c1c"' if step.error and number == len(lines) - 1 else ""
        out.append(f'<text x="{box.left + 8:.1f}" y="{caption_top + CAPTION_LINE * (number + 1):.1f}"{colour}>'
                   f'{markup(line)}</text>')
    out.append("</g>")
    for number, layer in enumerate(layered(elements)):
        out.append(f'<g class="layer-{number}">')
        out.extend(element.markup for element in layer)
        out.append("</g>")
    if legend:  # what a board of pieces' marks mean, and its colours, as the page shows them under it
        out.append('<g class="legend" font-family="sans-serif" font-size="12" fill="#374151">')
        for number, line in enumerate(legend):
            out.append(f'<text x="{box.left + 8:.1f}" y="{legend_top + CAPTION_LINE * (number + 1):.1f}">'
                       f'{markup(line)}</text>')
        y, x = legend_top + CAPTION_LINE * len(legend) + 6, box.left + 8
        words = timeline.colour_words()
        for index, colour in enumerate(swatches):
            name = words.get(colour, colour)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="12" height="12" fill="{colour_for(colour, index)}" '
                       f'stroke="#1f2937"/><text x="{x + 16:.1f}" y="{y + 11:.1f}">{markup(name)}</text>')
            x += 16 + 7.5 * len(name) + 16
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
