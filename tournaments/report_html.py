"""A tournament report as one self-contained HTML page (``contack tournament report DIR --html FILE``).

The same figures and words as the terminal's report (:mod:`tournaments.render`), as tables, with
each table size's ratings, the solitaire completion rates and the paired comparisons drawn as
dot-and-whisker charts (inline SVG, :func:`tournaments.analysis.html.chart_svg`). No script, no
network. Every value that comes from the config or the games (entrant and bot names, the
tournament's name, fault kinds, game keys) is escaped where it is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from tournaments.analysis.charts import Chart, Row
from tournaments.analysis.html import chart_svg, document
from tournaments.render import (CROSS_TEXT, DUPLICATE_TEXT, PAIRS_TEXT, SEATS_TEXT, SOLITAIRE_TEXT, duplicate_cells,
                                headline, interval_cell, pooled_text, sprt_sentence, standings_title, unfinished_text)
from tournaments.report import RATING_CENTRE, Report, Standing
from tournaments.statistics import Interval


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], text_columns: Sequence[int] = (0,)) -> str:
    """A table of plain-text cells (escaped here); columns not in ``text_columns`` are right-aligned numbers."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for cells in rows:
        body.append("<tr>" + "".join(f"<td>{escape(c)}</td>" if i in text_columns else
                                      f'<td class="n">{escape(c)}</td>' for i, c in enumerate(cells)) + "</tr>")
    return f"<table><tr>{head}</tr>" + "".join(body) + "</table>"


def _row(label: str, interval: Interval, scale: float = 1.0, marked: bool = False) -> Row | None:
    if interval.value is None:
        return None
    return Row(label, interval.value * scale, None if interval.low is None else interval.low * scale,
               None if interval.high is None else interval.high * scale, marked)


def _chart(title: str, axis: str, rows: Sequence[Row | None], reference: float | None = None) -> str:
    found = tuple(row for row in rows if row is not None)
    return f"<div>{chart_svg(Chart(title, axis, found, reference=reference))}</div>" if found else ""


def _standings(title: str, standings: Sequence[Standing], scores: bool) -> list[str]:
    headers = ["#", "entrant", "bot", "games", "rating [95%]"]
    if scores:
        headers += ["mean score [95%]", "win rate [95%]"]
    rows = []
    for rank, s in enumerate(standings, start=1):
        cells = [str(rank), s.name, s.player, str(s.games), interval_cell(s.rating)]
        if scores:
            cells += [interval_cell(s.mean_score, 1), interval_cell(s.win_rate, 1, percent=True)]
        rows.append([*cells, str(s.faults)])
    chart = _chart(title, "rating (Plackett-Luce, Elo scale) with 95% interval",
                   [_row(s.name, s.rating) for s in standings], reference=RATING_CENTRE)
    return [f"<h2>{escape(title)}</h2>", chart, _table([*headers, "faults"], rows, (1, 2))]


def page(report: Report) -> str:
    """The whole page as text."""
    title = f"{report.name} on {report.ruleset}"
    body = [f"<h1>{escape(title)}</h1>", f'<p class="note">{escape(headline(report))}</p>']
    unfinished = unfinished_text(report)
    if unfinished is not None:
        body.append(f'<p class="sig">UNFINISHED: {escape(unfinished)}</p>')

    for table in report.by_table_size:
        if table.table_size == 1:
            body.append("<h2>Solitaire results: each entrant's own games</h2>")
            body.append(_chart("Solitaires completed", "completed (%) with 95% interval",
                               [_row(s.name, s.completed, 100.0) for s in report.solitaire]))
            body.append(_table(["entrant", "games", "completed [95%]", "mean tiles placed [95%]"],
                               [[s.name, str(s.games), interval_cell(s.completed, 1, percent=True),
                                 interval_cell(s.placed, 1)] for s in report.solitaire]))
            body.append(f'<p class="note">{escape(SOLITAIRE_TEXT)}</p>')
            body.append(_table(["#", "entrant", "bot", "deals", "rating [95%]", "first on a deal [95%]"],
                               [[str(rank), s.name, s.player, str(s.games), interval_cell(s.rating),
                                 interval_cell(s.win_rate, 1, percent=True)]
                                for rank, s in enumerate(table.standings, start=1)], (1, 2)))
        else:
            body += _standings(standings_title(table), table.standings, scores=True)
    if report.pooled_sizes:
        body.append(f'<p class="note">{escape(pooled_text(report))}</p>')
        body += _standings("Pooled rating", report.standings, scores=False)

    if report.seat_effects:
        body.append("<h2>Seat order</h2>")
        body.append(f'<p class="note">{escape(SEATS_TEXT)}</p>')
        body.append(_table(["table", "seat", "games", "mean score [95%]", "win rate [95%]"],
                           [[str(e.table_size), str(e.seat + 1), str(e.games), interval_cell(e.mean_score, 1),
                             interval_cell(e.win_rate, 1, percent=True)] for e in report.seat_effects], ()))

    if report.pairs:
        body.append("<h2>Paired comparisons</h2>")
        body.append(f'<p class="note">{escape(PAIRS_TEXT)} Red: one of the two is ahead at 95%.</p>')
        marked = {p.a + " vs " + p.b: p.share.low is not None and (p.share.low > 0.5 or (p.share.high or 1) < 0.5)
                  for p in report.pairs}
        body.append(_chart("Paired comparisons: the first's share of finishing ahead of the second",
                           "ahead (%) with 95% interval",
                           [_row(f"{p.a} vs {p.b}", p.share, 100.0, marked[f"{p.a} vs {p.b}"]) for p in report.pairs],
                           reference=50.0))
        body.append(_table(["pair", "deals", "ahead [95%]", "verdict"],
                           [[f"{p.a} vs {p.b}", str(p.deals) + (f" (+{p.partial} partial)" if p.partial else ""),
                             interval_cell(p.share, 1, percent=True), p.verdict] for p in report.pairs], (0, 3)))

    order = [s.name for s in report.standings]
    index = {name: i for i, name in enumerate(report.names)}
    body.append("<h2>Cross-table</h2>")
    body.append(f'<p class="note">{escape(CROSS_TEXT)}</p>')
    body.append(_table(["", *order], [[a, *("" if a == b else "-".join(map(str, report.cross_table[index[a]][index[b]]))
                                            for b in order)] for a in order]))

    if report.duplicate:
        body.append("<h2>What duplicate deals save</h2>")
        body.append(f'<p class="note">{escape(DUPLICATE_TEXT)}</p>')
        body.append(_table(["table", "result of a game", "games", "deals", "variance [95%]", "reduction",
                            "independent deals need"],
                           [[str(g.table_size), g.measure, str(g.games), str(g.deals),
                             interval_cell(g.ratio, 0, percent=True), *duplicate_cells(g)] for g in report.duplicate],
                           (1,)))

    if report.sprt is not None:
        body.append("<h2>Sequential test</h2>")
        body.append(f"<p>{escape(sprt_sentence(report.sprt.a, report.sprt.b, report.sprt.state))}</p>")

    body.append("<h2>Faults</h2>")
    if report.faults or report.engine_errors:
        rows = [[name, ", ".join(f"{kind}: {count}" for kind, count in sorted(kinds.items())),
                 ", ".join(report.fault_games.get(name, []))] for name, kinds in report.faults.items()]
        if report.engine_errors:
            rows.append(["(engine)", f"error: {report.engine_errors}",
                         ", ".join(report.fault_games.get("(engine)", []))])
        body.append(_table(["entrant", "faults by kind", "for instance, games"], rows, (0, 1, 2)))
    else:
        body.append("<p>No bot faults.</p>")
    return document(title, [part for part in body if part])


def write_report_html(report: Report, path: Path) -> None:
    path.write_text(page(report), encoding="utf-8")
