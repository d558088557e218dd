"""What the pictures of an analysis show, drawn alike by the HTML page (SVG) and the PNG (matplotlib).

Each chart is a set of rows, a value with its 95% interval on one axis: the figures of one
table size that share a unit (shares in percent; the counter's units; counts a game; counts
a hand; the rest), or for a comparison the differences of shares in percentage points and of
every other figure relative to the second ruleset's value.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from tournaments.analysis.figures import SHARE
from tournaments.analysis.report import Analysis, Comparison, FigureDifference, FigureValue
from tournaments.statistics import Interval


@attrs.frozen
class Row:
    label: str
    value: float
    low: float | None
    high: float | None
    marked: bool = False  # a significant difference


@attrs.frozen
class Chart:
    title: str
    axis: str
    rows: tuple[Row, ...]
    zero: bool = False  # draw the line at 0 (differences)
    reference: float | None = None  # or a line at this value (an even share, the average rating)


def _row(label: str, interval: Interval, scale: float = 1.0, marked: bool = False) -> Row | None:
    if interval.value is None:
        return None
    low = None if interval.low is None else interval.low * scale
    high = None if interval.high is None else interval.high * scale
    return Row(label, interval.value * scale, low, high, marked)


def _family(figure: FigureValue, counter: str) -> str:
    if figure.unit == SHARE:
        return "shares (%)"
    if figure.unit == counter:
        return counter
    if figure.key.endswith("_a_game") or figure.key in ("hands", "lead_changes"):
        return "a game"
    if figure.key.endswith("_a_hand"):
        return "a hand"
    return "other"


def analysis_charts(analysis: Analysis) -> list[Chart]:
    """For each table size, a chart per family of units (see the module's docstring)."""
    charts = []
    for size in analysis.sizes:
        families: dict[str, list[Row]] = {}
        for figure in size.figures:
            if figure.na is not None:
                continue
            row = _row(figure.label, figure.value, 100.0 if figure.unit == SHARE else 1.0)
            if row is not None:
                families.setdefault(_family(figure, analysis.counter), []).append(row)
        for family, rows in families.items():
            charts.append(Chart(f"{analysis.label}, tables of {size.size}: {family}", family, tuple(rows)))
    return charts


def comparison_charts(comparison: Comparison) -> list[Chart]:
    """For each table size: the differences of shares (percentage points), and of the other figures
    relative to the second ruleset's value (percent)."""
    charts = []
    title = f"{comparison.first.label} less {comparison.second.label}"
    for size in comparison.sizes:
        shares = list(_difference_rows(size.differences, share=True))
        others = list(_difference_rows(size.differences, share=False))
        if shares:
            charts.append(Chart(f"{title}, tables of {size.size}: shares", "difference (percentage points)",
                                tuple(shares), zero=True))
        if others:
            charts.append(Chart(f"{title}, tables of {size.size}: other figures",
                                f"difference (% of {comparison.second.label}'s value)", tuple(others), zero=True))
    return charts


def _difference_rows(differences: Iterable[FigureDifference], share: bool) -> Iterable[Row]:
    for d in differences:
        if d.na is not None or (d.unit == SHARE) != share or d.difference.value is None:
            continue
        if share:
            scale = 100.0
        elif d.second.value:
            scale = 100.0 / abs(d.second.value)
        else:
            continue
        row = _row(d.label, d.difference, scale, bool(d.significant))
        if row is not None:
            yield row
