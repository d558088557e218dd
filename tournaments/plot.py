"""A picture of a report: ratings with their intervals, and each entrant's score distribution.

matplotlib is an optional extra (``contack[plot]``); it draws off-screen (Agg), so this
works on a machine without a display.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tournaments.report import Report
from tournaments.store import GameRow


class PlotError(ValueError):
    """The plot cannot be drawn here (matplotlib missing, or the file cannot be written)."""


MISSING = "--plot needs matplotlib, which is not installed: pip install 'contack[plot]'"


def check_plotting() -> None:
    """Raise PlotError if matplotlib is not installed (before a run spends its time)."""
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotError(MISSING)


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


def plot_report(report: Report, rows: Sequence[GameRow], path: Path) -> None:
    plt = pyplot()

    names = [s.name for s in report.standings]  # best first
    scores: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        if row.scores is not None:
            for seat, entrant_name in enumerate(row.names):
                scores[entrant_name].append(row.scores[seat])

    figure, (ratings_axis, scores_axis) = plt.subplots(1, 2, figsize=(12, 0.6 * len(names) + 2.5))
    positions = list(range(len(names)))[::-1]  # best at the top
    values = [s.rating.value or 0.0 for s in report.standings]
    lows = [v - (s.rating.low if s.rating.low is not None else v) for v, s in zip(values, report.standings)]
    highs = [(s.rating.high if s.rating.high is not None else v) - v for v, s in zip(values, report.standings)]
    ratings_axis.errorbar(values, positions, xerr=[lows, highs], fmt="o", capsize=4)
    ratings_axis.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    ratings_axis.set_yticks(positions, names)
    ratings_axis.set_xlabel("rating (Plackett-Luce, Elo scale) with 95% interval")
    ratings_axis.set_title("Ratings")

    data = [scores.get(name, []) or [0] for name in names]
    scores_axis.boxplot(data, orientation="horizontal", positions=positions, widths=0.6)
    scores_axis.set_yticks(positions, names)
    scores_axis.set_xlabel("final score per game")
    scores_axis.set_title("Score distributions")
    figure.suptitle(f"{report.name} on {report.ruleset}: {report.games} games")
    figure.tight_layout()
    save(figure, path, dpi=110)
