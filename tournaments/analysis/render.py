"""An analysis in the terminal: one rich table per table size, figures grouped, n/a with the reason.

By default a table fits 80 columns (:data:`NARROW`): labels and notes wrap, and a comparison shows
each side's value, the difference with its interval and the verdict; ``wide`` adds each side's
interval and the adjusted p-value. What the statistics are is said once, under the tables.
"""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from tournaments.analysis.figures import GROUPS, SHARE
from tournaments.analysis.report import Analysis, Comparison, SizeAnalysis
from tournaments.render import shown, sizes_text
from tournaments.statistics import CONFIDENCE, ERROR_RATE, Interval


def digits(value: float, unit: str) -> int:
    """Decimals to show: one for a percentage, else as many as the value's size needs."""
    if unit == SHARE:
        return 1
    size = abs(value)
    return 0 if size >= 100 else 1 if size >= 10 else 2


def number(value: float | None, unit: str, places: int | None = None) -> str:
    """A value as shown (a share as a percentage), with ``places`` decimals (default: its own)."""
    if value is None:
        return "-"
    places = digits(value, unit) if places is None else places
    return f"{100 * value if unit == SHARE else value:.{places}f}"


def interval_text(interval: Interval, unit: str, signed: bool = False) -> str:
    """``48.0% [41.0, 55.0]``, ``+4.1 [2.0, 6.3]``, or the value alone when there is no interval; the
    bounds have as many decimals as the value."""
    if interval.value is None:
        return "-"
    places = digits(interval.value, unit)
    value = number(interval.value, unit, places)
    if signed and interval.value > 0:
        value = "+" + value
    if unit == SHARE:
        value += " pp" if signed else "%"
    if interval.low is None or interval.high is None:
        return value
    return f"{value} [{number(interval.low, unit, places)}, {number(interval.high, unit, places)}]"


def p_text(p: float | None) -> str:
    return "-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


#: The width a table fits unless --wide.
NARROW = 80
#: The verdicts in a table of 80 columns, each in one word (the footnote says what they stand for).
SHORT_VERDICTS = {"no clear difference": "not clear", "the same on every deal": "identical"}


def _table(title: str, wide: bool) -> Table:
    """A table of figures: with a box around it when wide, else with lines under the header only."""
    if wide:
        return Table(title=title, title_justify="left")
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)


def who_plays(analysis: Analysis) -> str:
    """Which bots play, in plain words."""
    return f"{analysis.player} in every seat; skill ladder {ladder_text(analysis)}"


def ladder_text(analysis: Analysis) -> str:
    ladder = " < ".join(analysis.ladder) if analysis.ladder else "none"
    refused = "".join(f"; {bot} is not on it ({why})" for bot, why in analysis.refused.items())
    return ladder + refused


def print_analysis(analysis: Analysis, console: Console, wide: bool = False) -> None:
    statuses = ", ".join(f"{count} {status}" for status, count in analysis.statuses.items())
    console.print(f"[bold]{shown(analysis.label)}[/bold]: tables of {sizes_text([s.size for s in analysis.sizes])}, "
                  f"{analysis.deals} deals (seed {analysis.seed}), {sum(analysis.statuses.values())} games "
                  f"({statuses}); {shown(who_plays(analysis))}")
    _opening(analysis, console)
    _missing(analysis, console)
    for size in analysis.sizes:
        table = _table(_size_title(size), wide)
        table.add_column("figure", ratio=None if wide else 3)
        table.add_column(f"value [{100 * CONFIDENCE:.0f}% interval]", justify="right", no_wrap=True)
        table.add_column("note", ratio=None if wide else 2)
        for group in GROUPS:
            rows = [f for f in size.figures if f.group == group]
            if not rows:
                continue
            table.add_row(f"[bold]{group}[/bold]", "", "")
            indent = "  " if wide else ""
            for figure in rows:
                if figure.na is not None:
                    table.add_row(f"{indent}{figure.label}", "n/a", shown(figure.na))
                else:
                    note = "; ".join(part for part in (figure.verdict, figure.value.why) if part)
                    table.add_row(f"{indent}{figure.label}", interval_text(figure.value, figure.unit), shown(note))
        console.print(table)
        if size.levels is not None:
            console.print(f"Levels of play at tables of {size.size}: {size.levels} (the rungs whose stronger bot "
                          f"is ahead at 95%, plus one)")
    console.print(f"[dim]Each value with its {100 * CONFIDENCE:.0f}% interval over the deals: a share by Wilson's "
                  f"interval clustered by deal, a mean by the studentised bootstrap ({analysis.resamples} "
                  f"resamples of the deals) and the t interval together.[/dim]")


def _opening(analysis: Analysis, console: Console) -> None:
    if analysis.opening_sentence:
        console.print(shown(analysis.opening_sentence))


def _size_title(size: SizeAnalysis) -> str:
    return f"Tables of {size.size}: {size.games} games, {size.deals} deals measured"


def _missing(analysis: Analysis, console: Console) -> None:
    if analysis.missing:
        console.print(f"[bold red]UNFINISHED:[/bold red] {analysis.missing} games of {shown(analysis.label)} are not played "
                      f"yet; every figure covers only the games stored.")


def print_comparison(comparison: Comparison, console: Console, wide: bool = False) -> None:
    first, second = comparison.first, comparison.second
    tiles = comparison.deals_clause
    first_label, second_label = first.label, second.label
    if comparison.independent:
        first_label, second_label = f"{first.label}, seed {first.seed}", f"{second.label}, seed {second.seed}"
    first_label, second_label = shown(first_label), shown(second_label)  # the rulesets' paths, as typed
    console.print(f"[bold]{first_label}[/bold] against [bold]{second_label}[/bold]: tables of "
                  f"{sizes_text([s.size for s in comparison.sizes])}, {first.deals} deals (seed {first.seed}), "
                  f"{tiles}; {shown(who_plays(first))}")
    if not wide:
        console.print(f"A = {first_label}, B = {second_label}")
    if comparison.same_rules_sentence:
        console.print(comparison.same_rules_sentence, markup=False)
    _opening(first, console)
    _missing(first, console)
    _missing(second, console)
    for size in comparison.sizes:
        table = _table(f"Tables of {size.size}", wide)
        table.add_column("figure")
        table.add_column(first_label if wide else "A", justify="right", no_wrap=True)
        table.add_column(second_label if wide else "B", justify="right", no_wrap=True)
        table.add_column("difference" if wide else "A less B [95%]", justify="right", no_wrap=True)
        if wide:
            table.add_column("p", justify="right")
        table.add_column("verdict", max_width=None if wide else 10)
        blank = ("",) * (5 if wide else 4)
        for group in GROUPS:
            rows = [d for d in size.differences if d.group == group]
            if not rows:
                continue
            table.add_row(f"[bold]{group}[/bold]", *blank)
            indent = "  " if wide else ""
            for d in rows:
                if d.na is not None and wide:
                    table.add_row(f"{indent}{d.label}", "n/a", "n/a", "", "", f"n/a: {shown(d.na)}")
                    continue
                if d.na is not None:  # the reason under the label, so that the verdicts stay narrow
                    table.add_row(f"{d.label}\n[dim]n/a: {shown(d.na)}[/dim]", "n/a", "n/a", "", "n/a")
                    continue
                verdict = d.verdict if wide else SHORT_VERDICTS.get(d.verdict, d.verdict)
                verdict = f"[bold]{verdict}[/bold]" if d.significant else verdict
                if d.difference.why and not d.identical:
                    verdict += f"; {shown(d.difference.why)}"
                if wide:
                    sides = (interval_text(d.first, d.unit), interval_text(d.second, d.unit))
                else:
                    sides = (_value_text(d.first, d.unit), _value_text(d.second, d.unit))
                table.add_row(f"{indent}{d.label}", *sides, interval_text(d.difference, d.unit, signed=True),
                              *((p_text(d.adjusted),) if wide else ()), verdict)
        console.print(table)
    console.print(f"[dim]difference = {first_label} less {second_label}, with its paired {100 * CONFIDENCE:.0f}% "
                  f"interval over the deals. A verdict is higher or lower when a paired permutation test "
                  f"({comparison.permutations} swaps of the sides), adjusted over the {comparison.tests} figures "
                  f"compared (max-T), gives p < {ERROR_RATE:g}, so that when the rulesets do not differ the chance "
                  f"of any figure called higher or lower is at most {100 * ERROR_RATE:.0f}%"
                  + ("." if wide else "; not clear: no clear difference; identical: the same on every deal. "
                                      "--wide shows each side's interval and p.") + "[/dim]")


def _value_text(interval: Interval, unit: str) -> str:
    """A side's value alone (its interval is --wide's)."""
    return interval_text(Interval(interval.value, None, None), unit)
