"""An analysis in the terminal: one rich table per table size, figures grouped, n/a with the reason."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from tournaments.analysis.figures import GROUPS, SHARE
from tournaments.analysis.report import Analysis, Comparison, SizeAnalysis
from tournaments.render import sizes_text
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


def ladder_text(analysis: Analysis) -> str:
    ladder = " < ".join(analysis.ladder) if analysis.ladder else "none"
    refused = "".join(f"; {bot} is not on it ({why})" for bot, why in analysis.refused.items())
    return ladder + refused


def print_analysis(analysis: Analysis, console: Console) -> None:
    statuses = ", ".join(f"{count} {status}" for status, count in analysis.statuses.items())
    console.print(f"[bold]{analysis.label}[/bold]: tables of {sizes_text([s.size for s in analysis.sizes])}, "
                  f"{analysis.deals} deals (seed {analysis.seed}), {sum(analysis.statuses.values())} games "
                  f"({statuses}); metrics games: {analysis.player} in every seat; ladder: {ladder_text(analysis)}; "
                  f"{100 * CONFIDENCE:.0f}% intervals from {analysis.resamples} bootstrap resamples of the deals")
    _opening(analysis, console)
    _missing(analysis, console)
    for size in analysis.sizes:
        table = Table(title=_size_title(size), title_justify="left")
        table.add_column("figure")
        table.add_column(f"value [{100 * CONFIDENCE:.0f}%]", justify="right")
        table.add_column("note")
        for group in GROUPS:
            rows = [f for f in size.figures if f.group == group]
            if not rows:
                continue
            table.add_row(f"[bold]{group}[/bold]", "", "")
            for figure in rows:
                if figure.na is not None:
                    table.add_row(f"  {figure.label}", "n/a", figure.na)
                else:
                    note = "; ".join(part for part in (figure.verdict, figure.value.why) if part)
                    table.add_row(f"  {figure.label}", interval_text(figure.value, figure.unit), note)
        console.print(table)
        if size.levels is not None:
            console.print(f"Levels of play at tables of {size.size}: {size.levels} (the rungs whose stronger bot "
                          f"is ahead at 95%, plus one)")


def _opening(analysis: Analysis, console: Console) -> None:
    if analysis.opening:
        console.print(f"Random openings: the first {analysis.opening} decisions of every game are drawn at random, "
                      f"seeded by the deal, so that each deal is a game of its own ({analysis.opening_why}).")


def _size_title(size: SizeAnalysis) -> str:
    return f"Tables of {size.size}: {size.games} games, {size.deals} deals measured"


def _missing(analysis: Analysis, console: Console) -> None:
    if analysis.missing:
        console.print(f"[bold red]UNFINISHED:[/bold red] {analysis.missing} games of {analysis.label} are not played "
                      f"yet; every figure covers only the games stored.")


def print_comparison(comparison: Comparison, console: Console) -> None:
    first, second = comparison.first, comparison.second
    tiles = ("the same shuffles (the same tiles)" if comparison.same_tiles else
             "the same deal seeds, but the tile sets differ, so the shuffles do too")
    first_label, second_label = first.label, second.label
    if comparison.independent:
        first_label, second_label = f"{first.label}, seed {first.seed}", f"{second.label}, seed {second.seed}"
        tiles = (f"--null: the same ruleset on independent deals (seeds {first.seed} and {second.seed}), so every "
                 f"difference is chance and a verdict other than 'no clear difference' a false one")
    console.print(f"[bold]{first_label}[/bold] against [bold]{second_label}[/bold]: tables of "
                  f"{sizes_text([s.size for s in comparison.sizes])}, {first.deals} deals (seed {first.seed}), "
                  f"{tiles}; metrics games: {first.player} in every seat; ladder: {ladder_text(first)}")
    _opening(first, console)
    console.print(f"difference = {first_label} less {second_label}, with its paired {100 * CONFIDENCE:.0f}% "
                  f"interval over the deals; p: a paired permutation test ({comparison.permutations} swaps of the "
                  f"sides), adjusted over the {comparison.tests} figures compared (max-T), so that when the "
                  f"rulesets do not differ the chance of any figure called higher or lower is at most "
                  f"{100 * ERROR_RATE:.0f}%")
    _missing(first, console)
    _missing(second, console)
    for size in comparison.sizes:
        table = Table(title=f"Tables of {size.size}", title_justify="left")
        table.add_column("figure")
        table.add_column(first_label, justify="right")
        table.add_column(second_label, justify="right")
        table.add_column("difference", justify="right")
        table.add_column("p", justify="right")
        table.add_column("verdict")
        for group in GROUPS:
            rows = [d for d in size.differences if d.group == group]
            if not rows:
                continue
            table.add_row(f"[bold]{group}[/bold]", "", "", "", "", "")
            for d in rows:
                if d.na is not None:
                    table.add_row(f"  {d.label}", "n/a", "n/a", "", "", f"n/a: {d.na}")
                    continue
                verdict = f"[bold]{d.verdict}[/bold]" if d.significant else d.verdict
                if d.difference.why and not d.identical:
                    verdict += f"; {d.difference.why}"
                table.add_row(f"  {d.label}", interval_text(d.first, d.unit), interval_text(d.second, d.unit),
                              interval_text(d.difference, d.unit, signed=True), p_text(d.adjusted), verdict)
        console.print(table)
