"""An analysis as a PNG: the charts of :mod:`tournaments.analysis.charts`, one panel each (matplotlib).

matplotlib is an optional extra (``contack[plot]``); it draws off-screen (Agg), so this works
on a machine without a display. Whether it is installed is checked before any game is played.
"""

from __future__ import annotations

from pathlib import Path

from tournaments.analysis.charts import analysis_charts, comparison_charts
from tournaments.analysis.report import Analysis, Comparison
from tournaments.plot import PlotError, check_plotting, pyplot, save

__all__ = ["PlotError", "check_plotting", "plot_analysis"]


def plot_analysis(result: Analysis | Comparison, path: Path) -> None:
    plt = pyplot()
    charts = comparison_charts(result) if isinstance(result, Comparison) else analysis_charts(result)
    if not charts:
        raise PlotError("nothing to plot: no figure has a value")
    heights = [0.32 * len(chart.rows) + 1.2 for chart in charts]
    figure, axes = plt.subplots(len(charts), 1, figsize=(11, sum(heights)), squeeze=False,
                                gridspec_kw={"height_ratios": heights})
    for axis, chart in zip(axes[:, 0], charts):
        positions = list(range(len(chart.rows)))[::-1]
        for y, row in zip(positions, chart.rows):
            colour = "#b00" if row.marked else "#246"
            if row.low is not None and row.high is not None:
                axis.plot([row.low, row.high], [y, y], color=colour, linewidth=2)
            axis.plot([row.value], [y], "o", color=colour)
        if chart.zero:
            axis.axvline(0, color="grey", linewidth=0.8)
        axis.set_yticks(positions, [row.label for row in chart.rows])
        axis.set_ylim(-0.7, len(chart.rows) - 0.3)
        axis.set_xlabel(chart.axis)
        axis.set_title(chart.title, loc="left", fontsize=10)
        axis.grid(axis="x", color="#eee")
    figure.tight_layout()
    save(figure, path, dpi=100)
