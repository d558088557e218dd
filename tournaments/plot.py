"""A picture of a report: ratings with their intervals, and each entrant's score distribution, a row
of panels per table size (the scores of different table sizes are never pooled; the pooled
rating, where there is one, has its own row, named as such).

matplotlib is an optional extra (``contack[plot]``); it draws off-screen (Agg), so this
works on a machine without a display.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from contack_core.extras import installed
from tournaments.render import sizes_text
from tournaments.report import Report, Standing
from tournaments.store import GameRow


class PlotError(ValueError):
    """The plot cannot be drawn here (matplotlib missing, or the file cannot be written)."""


MISSING = "--plot needs matplotlib, which is not installed: pip install 'contack[plot]'"


def check_plotting() -> None:
    """Raise PlotError if matplotlib is not installed (before a run spends its time, or a report is printed)."""
    if not installed("matplotlib"):
        raise PlotError(MISSING)


def output_problem(plot: Path | None, html: Path | None) -> str | None:
    """Why a report's ``--plot`` or ``--html`` file could not be written here (matplotlib missing,
    no such folder), or None: checked before a run spends its time or a report is printed."""
    if plot is not None:
        try:
            check_plotting()
        except PlotError as error:
            return str(error)
    for path in (html, plot):
        if path is not None and not path.parent.is_dir():
            return f"cannot write {path}: no folder {path.parent}"
    return None


def pyplot() -> Any:
    """matplotlib's pyplot, drawing off-screen (Agg), or PlotError."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(MISSING) from None
    return plt


def save(figure: Any, path: Path, dpi: int) -> None:
    """Write ``figure`` as a PNG and close it; PlotError if the file cannot be written."""
    try:
        figure.savefig(path, dpi=dpi)
    except OSError as error:
        raise PlotError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        pyplot().close(figure)


@attrs.frozen
class Panel:
    """One row of the picture: ratings from one fit, and (unless the fit pools table sizes) the final scores
    of the same games, by entrant."""

    title: str
    standings: tuple[Standing, ...]
    scores: dict[str, list[int]] | None


def report_panels(report: Report, rows: Sequence[GameRow]) -> list[Panel]:
    """A panel per table size, its ratings and its games' scores only (scores of different table sizes do
    not mix, as the report says), then the pooled fit's ratings alone, named as pooled."""
    panels = []
    for table in report.by_table_size:
        scores: dict[str, list[int]] = defaultdict(list)
        for row in rows:
            if row.table_size == table.table_size and row.scores is not None:
                for seat, entrant_name in enumerate(row.names):
                    scores[entrant_name].append(row.scores[seat])
        what = "solitaires (ranked against each other on each deal)" if table.table_size == 1 else \
            f"tables of {table.table_size}"
        panels.append(Panel(f"{what}: {table.games} games", tuple(table.standings), dict(scores)))
    if report.pooled_sizes:
        panels.append(Panel(f"pooled rating, one fit over tables of {sizes_text(report.pooled_sizes)} "
                            f"(scores do not mix)", tuple(report.standings), None))
    return panels


def plot_report(report: Report, rows: Sequence[GameRow], path: Path) -> None:
    """Ratings with their 95% intervals and score distributions, a row of panels per table size
    (:func:`report_panels`)."""
    plt = pyplot()
    panels = report_panels(report, rows)
    if not panels:
        raise PlotError("nothing to plot: no game has a result")
    heights = [0.5 * max(len(panel.standings), 1) + 1.4 for panel in panels]
    figure, axes = plt.subplots(len(panels), 2, figsize=(12, sum(heights) + 0.8), squeeze=False,
                                gridspec_kw={"height_ratios": heights})
    for (ratings_axis, scores_axis), panel in zip(axes, panels):
        names = [s.name for s in panel.standings]  # best first
        positions = list(range(len(names)))[::-1]  # best at the top
        values = [s.rating.value or 0.0 for s in panel.standings]
        lows = [v - (s.rating.low if s.rating.low is not None else v) for v, s in zip(values, panel.standings)]
        highs = [(s.rating.high if s.rating.high is not None else v) - v for v, s in zip(values, panel.standings)]
        ratings_axis.errorbar(values, positions, xerr=[lows, highs], fmt="o", capsize=4)
        ratings_axis.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
        ratings_axis.set_yticks(positions, names)
        ratings_axis.set_xlabel("rating (Plackett-Luce, Elo scale) with 95% interval")
        ratings_axis.set_title(f"Ratings, {panel.title}", loc="left", fontsize=10)
        if panel.scores is None:
            scores_axis.axis("off")
            continue
        data = [panel.scores.get(name, []) or [0] for name in names]
        scores_axis.boxplot(data, orientation="horizontal", positions=positions, widths=0.6)
        scores_axis.set_yticks(positions, names)
        scores_axis.set_xlabel("final score per game")
        scores_axis.set_title(f"Scores, {panel.title}", loc="left", fontsize=10)
    figure.suptitle(f"{report.name} on {report.ruleset}: {report.games} games")
    figure.tight_layout()
    save(figure, path, dpi=110)
