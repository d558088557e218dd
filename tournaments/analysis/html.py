"""An analysis as one self-contained HTML page: its charts as inline SVG, its tables, no network, no script.

The page's frame (:func:`document`) and its charts (:func:`chart_svg`) serve the tournament
report's page too (:mod:`tournaments.report_html`). Every value that comes from a ruleset, a
config or a bot is escaped where it is written.
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path

from tournaments.analysis.charts import Chart, analysis_charts, comparison_charts
from tournaments.analysis.figures import GROUPS
from tournaments.analysis.render import interval_text, ladder_text, p_text
from tournaments.analysis.report import Analysis, Comparison
from tournaments.render import sizes_text
from tournaments.statistics import CONFIDENCE, ERROR_RATE

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 68em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.group td { font-weight: bold; background: #f3f3f3; }
.na { color: #888; } .sig { color: #b00; font-weight: bold; }
svg text { font-size: 11px; font-family: system-ui, sans-serif; }
p.note { color: #555; }
"""

#: Chart geometry, in pixels.
_LABEL, _PLOT, _ROW, _TOP, _BOTTOM = 300, 440, 20, 28, 34


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]."""
    if high <= low:
        high = low + 1.0
    step = 10 ** math.floor(math.log10((high - low) / count))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= count:
            step *= factor
            break
    first = math.floor(low / step) * step
    return [first + i * step for i in range(int(math.ceil((high - first) / step)) + 1)]


def chart_svg(chart: Chart) -> str:
    """A dot-and-whisker chart: one row a figure, its value and 95% interval on one axis."""
    values = [v for row in chart.rows for v in (row.value, row.low, row.high) if v is not None]
    if chart.zero:
        values.append(0.0)
    if chart.reference is not None:
        values.append(chart.reference)
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]

    def x(value: float) -> float:
        return _LABEL + _PLOT * (value - low) / (high - low)

    height = _TOP + _ROW * len(chart.rows) + _BOTTOM
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_LABEL + _PLOT + 20}" height="{height}" '
             f'role="img" aria-label="{escape(chart.title)}">',
             f'<text x="0" y="14" font-weight="bold">{escape(chart.title)}</text>']
    bottom = _TOP + _ROW * len(chart.rows)
    for tick in ticks:
        parts.append(f'<line x1="{x(tick):.1f}" y1="{_TOP}" x2="{x(tick):.1f}" y2="{bottom}" stroke="#eee"/>')
        parts.append(f'<text x="{x(tick):.1f}" y="{bottom + 13}" text-anchor="middle">{tick:g}</text>')
    line = 0.0 if chart.zero else chart.reference
    if line is not None and low <= line <= high:
        parts.append(f'<line x1="{x(line):.1f}" y1="{_TOP}" x2="{x(line):.1f}" y2="{bottom}" stroke="#888"/>')
    parts.append(f'<text x="{_LABEL + _PLOT / 2:.0f}" y="{bottom + 28}" text-anchor="middle">{escape(chart.axis)}'
                 f'</text>')
    for index, row in enumerate(chart.rows):
        y = _TOP + _ROW * index + _ROW / 2
        colour = "#b00" if row.marked else "#246"
        parts.append(f'<text x="{_LABEL - 8}" y="{y + 4:.1f}" text-anchor="end">{escape(row.label)}</text>')
        if row.low is not None and row.high is not None:
            parts.append(f'<line x1="{x(row.low):.1f}" y1="{y:.1f}" x2="{x(row.high):.1f}" y2="{y:.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<circle cx="{x(row.value):.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def _analysis_tables(analysis: Analysis) -> list[str]:
    out = []
    for size in analysis.sizes:
        out.append(f"<h2>Tables of {size.size}: {size.games} games, {size.deals} deals measured</h2>")
        out.append(f"<table><tr><th>figure</th><th>value [{100 * CONFIDENCE:.0f}%]</th><th>what it is</th>"
                   f"<th>note</th></tr>")
        for group in GROUPS:
            rows = [f for f in size.figures if f.group == group]
            if rows:
                out.append(f'<tr class="group"><td colspan="4">{escape(group)}</td></tr>')
            for f in rows:
                value = "n/a" if f.na is not None else interval_text(f.value, f.unit)
                note = f.na if f.na is not None else (f.verdict or "")
                out.append(f'<tr{" class=na" if f.na else ""}><td>{escape(f.label)}</td><td class="n">'
                           f'{escape(value)}</td><td>{escape(f.about)}</td><td>{escape(note)}</td></tr>')
        out.append("</table>")
        if size.levels is not None:
            out.append(f"<p>Levels of play: {size.levels} (the rungs whose stronger bot is ahead at 95%, "
                       f"plus one).</p>")
    return out


def _comparison_tables(comparison: Comparison) -> list[str]:
    first, second = comparison.first.label, comparison.second.label
    out = []
    for size in comparison.sizes:
        out.append(f"<h2>Tables of {size.size}</h2>")
        out.append(f"<table><tr><th>figure</th><th>{escape(first)}</th><th>{escape(second)}</th><th>difference</th>"
                   f"<th>p (adjusted)</th><th>verdict</th></tr>")
        for group in GROUPS:
            rows = [d for d in size.differences if d.group == group]
            if rows:
                out.append(f'<tr class="group"><td colspan="6">{escape(group)}</td></tr>')
            for d in rows:
                if d.na is not None:
                    out.append(f'<tr class="na"><td>{escape(d.label)}</td><td class="n">n/a</td><td class="n">n/a'
                               f'</td><td></td><td></td><td>n/a: {escape(d.na)}</td></tr>')
                    continue
                p = p_text(d.adjusted)
                out.append(f'<tr><td>{escape(d.label)}</td><td class="n">{escape(interval_text(d.first, d.unit))}'
                           f'</td><td class="n">{escape(interval_text(d.second, d.unit))}</td><td class="n">'
                           f'{escape(interval_text(d.difference, d.unit, signed=True))}</td><td class="n">{p}</td>'
                           f'<td{" class=sig" if d.significant else ""}>{escape(d.verdict)}</td></tr>')
        out.append("</table>")
    return out


def page(result: Analysis | Comparison) -> str:
    """The whole page as text."""
    if isinstance(result, Comparison):
        first, second = result.first, result.second
        title = f"{first.label} against {second.label}"
        intro = [f"Tables of {sizes_text([s.size for s in result.sizes])}, {first.deals} deals (seed {first.seed}) "
                 f"played under both rulesets, {result.deals_clause}. Metrics games: {first.player} in every seat; "
                 f"ladder: {ladder_text(first)}.",
                 f"Difference = {first.label} less {second.label}, with its paired {100 * CONFIDENCE:.0f}% interval "
                 f"over the deals. p: a paired permutation test ({result.permutations} swaps of the sides), "
                 f"adjusted over the {result.tests} figures compared (max-T): when the rulesets do not differ, the "
                 f"chance that any figure is called higher or lower is at most {100 * ERROR_RATE:.0f}%. "
                 f"Red: significant."]
        intro += [line for line in (result.same_rules_sentence, first.opening_sentence) if line]
        charts = comparison_charts(result)
        tables = _comparison_tables(result)
    else:
        title = f"Analysis of {result.label}"
        intro = [f"Tables of {sizes_text([s.size for s in result.sizes])}, {result.deals} deals (seed "
                 f"{result.seed}). Metrics games: {result.player} in every seat; ladder: {ladder_text(result)}. "
                 f"{100 * CONFIDENCE:.0f}% intervals from {result.resamples} bootstrap resamples of the deals."]
        intro += [result.opening_sentence] if result.opening_sentence else []
        charts = analysis_charts(result)
        tables = _analysis_tables(result)
    body = [f"<h1>{escape(title)}</h1>", *(f'<p class="note">{escape(line)}</p>' for line in intro)]
    body += [f"<div>{chart_svg(chart)}</div>" for chart in charts]
    body += tables
    return document(title, body)


def document(title: str, body: list[str]) -> str:
    """A whole page: ``title`` (plain text, escaped here) and ``body``, parts of HTML already escaped."""
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def write_html(result: Analysis | Comparison, path: Path) -> None:
    path.write_text(page(result), encoding="utf-8")
