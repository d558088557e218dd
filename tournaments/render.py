"""Showing a report: rich tables for a person, CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from contack_core.language.printable import printable
from tournaments.paired import MEASURES, DuplicateGain
from tournaments.report import Report, Standing, TableStandings
from tournaments.sprt import SprtState
from tournaments.statistics import Interval


def shown(text: object) -> str:
    """Outside text (a name or a path from a config or a results database, a bot's message) as rich
    markup shows it as it is: its control characters escaped (:func:`printable`), so that it
    cannot drive the terminal, and its square brackets too, so that it cannot style, link or
    break what rich prints."""
    return escape(printable(str(text)))


def _number(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def interval_cell(interval: Interval, digits: int = 0, percent: bool = False) -> str:
    """``92.2 [76.3, 103.6]``, ``40.7% [30.9, 51.3]``, or the value with why it has no interval."""
    factor = 100.0 if percent else 1.0

    def scaled(v: float | None) -> float | None:
        return None if v is None else v * factor
    value = _number(scaled(interval.value), digits) + ("%" if percent and interval.value is not None else "")
    if interval.low is None or interval.high is None:
        return value + (f" ({interval.why})" if interval.why and interval.value is not None else "")
    return f"{value} [{_number(scaled(interval.low), digits)}, {_number(scaled(interval.high), digits)}]"


def sizes_text(sizes: list[int]) -> str:
    """``2, 3 and 4``."""
    words = [str(size) for size in sizes]
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else words[0]


def headline(report: Report) -> str:
    """What the report covers, in one line (plain text)."""
    statuses = ", ".join(f"{count} {status}" for status, count in report.statuses.items())
    return (f"{report.name} on {report.ruleset}: {report.games} games ({statuses}), {report.deal_groups} deal groups; "
            f"95% intervals from {report.bootstrap} bootstrap resamples of the deal groups")


def unfinished_text(report: Report) -> str | None:
    """Why the figures cover only part of the schedule, and the command that plays the rest (None: finished)."""
    progress = report.progress
    if progress.finished:
        return None
    share = 100 * progress.stored / progress.scheduled if progress.scheduled else 0
    finish = f"; `{progress.resume}` plays the rest" if progress.resume else ""
    return (f"{progress.stored} of {progress.scheduled} scheduled games ({share:.0f}%) are stored, and every figure "
            f"below covers only those{finish}.")


def standings_title(table: TableStandings) -> str:
    return (f"Standings, tables of {table.table_size} ({table.games} games, {table.deal_groups} deals): "
            f"Plackett-Luce rating, Elo scale, 1500 average")


def pooled_text(report: Report) -> str:
    return (f"Pooled rating: one Plackett-Luce fit over the finishing orders of tables of "
            f"{sizes_text(report.pooled_sizes)} together (scores and win rates of different table sizes do "
            f"not mix: see each size above).")


SEATS_TEXT = ("Seat order: each seat's mean score and win rate (every entrant sits in every seat equally often), "
              "with 95% intervals over deals.")
PAIRS_TEXT = ("Paired comparisons: over the deals both played in full (every table size), the share of their games "
              "where the first finished ahead of the second (level counts half), with its 95% interval over deals.")
CROSS_TEXT = "Cross-table: the row's wins-losses-ties against the column, game by game."
SOLITAIRE_TEXT = ("Per-deal ranking: entrants ranked against each other on each deal by their scores (not a result "
                  "of the solitaire itself); the rating comes from those rankings, \"first on a deal\" is the share "
                  "of deals ranked first (ties shared).")
DUPLICATE_TEXT = ("What duplicate deals save: the variance of an entrant's mean result over these deals, as a share of "
                  "what as many games, each on a deal of its own, would give (" +
                  "; ".join(f"{name}: {meaning}" for name, meaning in MEASURES.items()) + ").")


def duplicate_cells(gain: DuplicateGain) -> tuple[str, str]:
    """A duplicate gain's reduction and what independent deals would need."""
    ratio = gain.ratio
    need = "-" if not ratio.value else f"{1 / ratio.value:.1f}x the games"
    return ("-" if ratio.value is None else f"{100 * (1 - ratio.value):.0f}%"), need


def print_report(report: Report, console: Console) -> None:
    statuses = ", ".join(f"{count} {status}" for status, count in report.statuses.items())
    console.print(f"[bold]{shown(report.name)}[/bold] on {shown(report.ruleset)}: {report.games} games ({statuses}), "
                  f"{report.deal_groups} deal groups; 95% intervals from {report.bootstrap} bootstrap "
                  f"resamples of the deal groups")
    unfinished = unfinished_text(report)
    if unfinished is not None:
        console.print(f"[bold red]UNFINISHED:[/bold red] {shown(unfinished)}")

    for table in report.by_table_size:
        if table.table_size == 1:
            _print_solitaire(report, table.standings, console)
        else:
            _print_standings(console, standings_title(table), table.standings, scores=True)
    if report.pooled_sizes:
        console.print(pooled_text(report))
        _print_standings(console, "Pooled rating", report.standings, scores=False)

    if report.seat_effects:
        console.print(SEATS_TEXT)
        seats = Table(title="Seat order")
        for column in ("table", "seat", "games", "mean score [95%]", "win rate [95%]"):
            seats.add_column(column, justify="right")
        for e in report.seat_effects:
            seats.add_row(str(e.table_size), str(e.seat + 1), str(e.games), interval_cell(e.mean_score, 1),
                          interval_cell(e.win_rate, 1, percent=True))
        console.print(seats)

    if report.pairs:
        console.print(PAIRS_TEXT)
        pairs = Table(title="Paired comparisons")
        for column in ("pair", "deals", "ahead [95%]", "verdict"):
            pairs.add_column(column, justify="left" if column in ("pair", "verdict") else "right")
        for pair in report.pairs:
            deals = str(pair.deals) + (f" (+{pair.partial} partial)" if pair.partial else "")
            pairs.add_row(f"{shown(pair.a)} vs {shown(pair.b)}", deals, interval_cell(pair.share, 1, percent=True),
                          shown(pair.verdict))
        console.print(pairs)

    order = [s.name for s in report.standings]
    index = {name: i for i, name in enumerate(report.names)}
    console.print(CROSS_TEXT)
    cross = Table(title="Cross-table")
    cross.add_column("")
    for name in order:
        cross.add_column(shown(name), justify="right")
    for a in order:
        cells = ["" if a == b else "-".join(map(str, report.cross_table[index[a]][index[b]])) for b in order]
        cross.add_row(shown(a), *cells)
    console.print(cross)

    if report.duplicate:
        console.print(DUPLICATE_TEXT)
        gains = Table(title="What duplicate deals save")
        for column in ("table", "result of a game", "games", "deals", "variance [95%]", "reduction",
                       "independent deals need"):
            gains.add_column(column, justify="left" if column == "result of a game" else "right")
        for gain in report.duplicate:
            gains.add_row(str(gain.table_size), gain.measure, str(gain.games), str(gain.deals),
                          interval_cell(gain.ratio, 0, percent=True), *duplicate_cells(gain))
        console.print(gains)

    if report.sprt is not None:
        _print_sprt(report, console)

    if report.faults or report.engine_errors:
        faults = Table(title="Faults")
        for column in ("entrant", "faults by kind", "for instance, games"):
            faults.add_column(column)
        for name, kinds in report.faults.items():
            faults.add_row(shown(name), shown(", ".join(f"{kind}: {count}" for kind, count in sorted(kinds.items()))),
                           shown(", ".join(report.fault_games.get(name, []))))
        if report.engine_errors:
            faults.add_row("(engine)", f"error: {report.engine_errors}",
                           shown(", ".join(report.fault_games.get("(engine)", []))))
        console.print(faults)
    else:
        console.print("No bot faults.")


def _print_standings(console: Console, title: str, standings: list[Standing], scores: bool) -> None:
    table = Table(title=title)
    columns = ["#", "entrant", "bot", "games", "rating [95%]"]
    if scores:
        columns += ["mean score [95%]", "win rate [95%]"]
    for column in [*columns, "faults"]:
        table.add_column(column, justify="left" if column in ("entrant", "bot") else "right")
    for rank, s in enumerate(standings, start=1):
        cells = [str(rank), shown(s.name), shown(s.player), str(s.games), interval_cell(s.rating)]
        if scores:
            cells += [interval_cell(s.mean_score, 1), interval_cell(s.win_rate, 1, percent=True)]
        table.add_row(*cells, str(s.faults))
    console.print(table)


def _print_solitaire(report: Report, ranking: list[Standing], console: Console) -> None:
    own = Table(title="Solitaire results: each entrant's own games")
    for column in ("entrant", "games", "completed [95%]", "mean tiles placed [95%]"):
        own.add_column(column, justify="left" if column == "entrant" else "right")
    for s in report.solitaire:
        own.add_row(shown(s.name), str(s.games), interval_cell(s.completed, 1, percent=True),
                    interval_cell(s.placed, 1))
    console.print(own)
    console.print(SOLITAIRE_TEXT)
    table = Table(title="Per-deal ranking")
    for column in ("#", "entrant", "bot", "deals", "rating [95%]", "first on a deal [95%]"):
        table.add_column(column, justify="left" if column in ("entrant", "bot") else "right")
    for rank, s in enumerate(ranking, start=1):
        table.add_row(str(rank), shown(s.name), shown(s.player), str(s.games), interval_cell(s.rating),
                      interval_cell(s.win_rate, 1, percent=True))
    console.print(table)


def _print_sprt(report: Report, console: Console) -> None:
    assert report.sprt is not None
    console.print(shown(sprt_sentence(report.sprt.a, report.sprt.b, report.sprt.state)))


def sprt_sentence(a: str, b: str, state: SprtState) -> str:
    """A sequential test in one sentence: its settings, where the ratio stands, the score, the verdict."""
    settings = state.settings
    verdict = {"H1": f"H1 accepted, {a} is stronger than {b} by at least {settings.elo1:g} Elo",
               "H0": f"H0 accepted, {a} is stronger than {b} by at most {settings.elo0:g} Elo" if settings.elo0 > 0
               else f"H0 accepted, {a} is not stronger than {b}" if settings.elo0 == 0
               else f"H0 accepted, {a} is weaker than {b} by at least {-settings.elo0:g} Elo",
               None: "no decision yet"}[state.verdict]
    interval = state.interval()
    score = "-" if state.mean is None else f"{100 * state.mean:.1f}%" + (
        f" [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else "")
    return (f"Sequential test of {a} against {b} ({settings.model} Elo in [{settings.elo0:g}, {settings.elo1:g}], "
            f"alpha {settings.alpha:g}, beta {settings.beta:g}): {state.deals} whole deals of {state.comparisons} "
            f"game{'s' if state.comparisons != 1 else ''}, {a} ahead in {score} of them; LLR {state.llr:.2f} in ({settings.lower:.2f}, "
            f"{settings.upper:.2f}): {verdict}.")


CSV_COLUMNS = ("table_size", "rank", "name", "bot", "games", "rating", "rating_low", "rating_high", "mean_score",
               "mean_score_low", "mean_score_high", "win_rate", "win_rate_low", "win_rate_high", "faults")


def standings_csv(report: Report) -> str:
    """The standings of each table size, best first, then the pooled fit's (table_size "pooled")."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    tables = [(str(t.table_size), t.standings) for t in report.by_table_size]
    if report.pooled_sizes:
        tables.append(("pooled", report.standings))
    for size, standings in tables:
        for rank, s in enumerate(standings, start=1):
            writer.writerow([size, rank, s.name, s.player, s.games,
                             *(_csv(v) for i in (s.rating, s.mean_score, s.win_rate) for v in (i.value, i.low, i.high)),
                             s.faults])
    return out.getvalue()


def _csv(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"
