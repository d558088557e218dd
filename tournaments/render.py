"""Showing a report: rich tables for a person, CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io

from rich.console import Console
from rich.table import Table

from tournaments.report import Interval, Report


def _number(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _interval(interval: Interval, digits: int = 0, percent: bool = False) -> str:
    factor = 100.0 if percent else 1.0

    def scaled(v: float | None) -> float | None:
        return None if v is None else v * factor
    value = _number(scaled(interval.value), digits) + ("%" if percent and interval.value is not None else "")
    if interval.low is None or interval.high is None:
        return value
    return f"{value} [{_number(scaled(interval.low), digits)}, {_number(scaled(interval.high), digits)}]"


def print_report(report: Report, console: Console) -> None:
    statuses = ", ".join(f"{count} {status}" for status, count in report.statuses.items())
    console.print(f"[bold]{report.name}[/bold] on {report.ruleset}: {report.games} games ({statuses}), "
                  f"{report.deal_groups} deal groups; 95% intervals from {report.bootstrap} bootstrap "
                  f"resamples of the deal groups")

    standings = Table(title="Standings (Plackett-Luce rating, Elo scale: 1500 average)")
    for column in ("#", "entrant", "bot", "games", "rating [95%]", "mean score [95%]", "win rate [95%]", "faults"):
        standings.add_column(column, justify="left" if column in ("entrant", "bot") else "right")
    for rank, s in enumerate(report.standings, start=1):
        standings.add_row(str(rank), s.name, s.player, str(s.games), _interval(s.rating), _interval(s.mean_score, 1),
                          _interval(s.win_rate, 1, percent=True), str(s.faults))
    console.print(standings)

    if report.seat_effects:
        seats = Table(title="Seat order (every entrant sits in every seat equally often)")
        for column in ("table", "seat", "games", "mean score [95%]", "win rate"):
            seats.add_column(column, justify="right")
        for e in report.seat_effects:
            seats.add_row(str(e.table_size), str(e.seat + 1), str(e.games), _interval(e.mean_score, 1),
                          _number(None if e.win_rate is None else e.win_rate * 100, 1) + "%")
        console.print(seats)

    names = [s.name for s in report.standings]
    index = {name: i for i, name in enumerate(report.names)}
    h2h = Table(title="Head to head: how often the row finished ahead of the column (ties count half)")
    h2h.add_column("")
    for name in names:
        h2h.add_column(name, justify="right")
    for a in names:
        cells = []
        for b in names:
            value = report.head_to_head[index[a]][index[b]] if a != b else None
            cells.append("" if a == b else _number(None if value is None else value * 100, 0) + "%")
        h2h.add_row(a, *cells)
    console.print(h2h)

    if report.faults or report.engine_errors:
        faults = Table(title="Faults")
        faults.add_column("entrant")
        faults.add_column("faults by kind")
        for name, kinds in report.faults.items():
            faults.add_row(name, ", ".join(f"{kind}: {count}" for kind, count in sorted(kinds.items())))
        if report.engine_errors:
            faults.add_row("(engine)", f"error: {report.engine_errors}")
        console.print(faults)
    else:
        console.print("No bot faults.")


CSV_COLUMNS = ("rank", "name", "bot", "games", "rating", "rating_low", "rating_high", "mean_score", "mean_score_low",
               "mean_score_high", "win_rate", "win_rate_low", "win_rate_high", "faults")


def standings_csv(report: Report) -> str:
    """The standings, one row per entrant, best first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rank, s in enumerate(report.standings, start=1):
        writer.writerow([rank, s.name, s.player, s.games,
                         *(_csv(v) for i in (s.rating, s.mean_score, s.win_rate) for v in (i.value, i.low, i.high)),
                         s.faults])
    return out.getvalue()


def _csv(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"
