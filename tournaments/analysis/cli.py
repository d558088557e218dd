"""``contack analyze`` (registered under the ``contack.commands`` entry point; everything heavy is
imported when it runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from contack_core.cli import echo, fail

from tournaments.analysis import DEFAULT_DEALS, DEFAULT_LADDER, DEFAULT_PLAYER, DEFAULT_SEED

Options = list[str] | None


def _options(items: Options, flag: str) -> dict[str, str]:
    options = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            fail(f"{flag} takes KEY=VALUE, not {item!r}", 2)
        options[key.strip()] = value.strip()
    return options


def _seats(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    try:
        sizes = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        fail(f"--seats takes a table size or several, N or N,M, not {text!r}", 2)
    if not sizes:
        fail("--seats names no table size", 2)
    return sizes


def _ideal(text: str) -> tuple[int, int]:
    least, dash, most = text.partition("-")
    try:
        if not dash:
            raise ValueError
        return int(least), int(most)
    except ValueError:
        fail(f"--ideal-decisions takes LEAST-MOST, two whole numbers (e.g. 40-120), not {text!r}", 2)


def analyze_command(
    ruleset: Annotated[str, typer.Argument(help="A ruleset id, a shipped example (examples/NAME) or a YAML file.")],
    against: Annotated[str | None, typer.Option(help="Compare with this ruleset on the same deals.")] = None,
    option: Annotated[Options, typer.Option("--option", "-o", help="An option for both rulesets, KEY=VALUE.")] = None,
    option_a: Annotated[Options, typer.Option("--option-a", help="An option for RULESET only, KEY=VALUE.")] = None,
    option_b: Annotated[Options, typer.Option("--option-b", help="An option for --against only, KEY=VALUE.")] = None,
    seats: Annotated[str | None, typer.Option(help="Table sizes, N or N,M (default: the smallest allowed).")] = None,
    bots: Annotated[str, typer.Option(help="The skill ladder, weakest first: bots with their parameters, e.g. "
                                           "random,greedy,mcts:iterations=50.")] = ",".join(DEFAULT_LADDER),
    player: Annotated[str, typer.Option(help="The bot in every seat of the games the other figures come from.")
                      ] = DEFAULT_PLAYER,
    deals: Annotated[int, typer.Option(min=1, help="Deals at each table size (shared by both rulesets).")
                     ] = DEFAULT_DEALS,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the deals.")] = DEFAULT_SEED,
    opening: Annotated[int | None, typer.Option(min=0, help="Decisions drawn at random at the start of every game, "
                                                           "seeded by the deal (default: 4 in a ruleset without "
                                                           "chance, else 0).")] = None,
    null: Annotated[bool, typer.Option("--null", help="Compare RULESET with itself on independent deals: what "
                                                      "no difference looks like.")] = False,
    ideal_decisions: Annotated[str, typer.Option(help="The length of game you want, LEAST-MOST decisions, for "
                                                      "Ludii's ideal duration.")] = "0-1000",
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: one per core).")] = None,
    backend: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="With --backend ray: a cluster, HOST:PORT.")] = None,
    output: Annotated[Path | None, typer.Option(help="Keep the games here (a folder per ruleset); the same "
                                                     "command resumes or grows it. Default: a temporary folder.")
                      ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as one JSON object.")] = False,
    html: Annotated[Path | None, typer.Option(help="Also write a self-contained HTML page with plots.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Also draw the figures to this PNG (matplotlib).")] = None,
    bootstrap: Annotated[int, typer.Option(min=100, help="Bootstrap resamples behind each interval.")] = 1000,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    wide: Annotated[bool, typer.Option("--wide", help="Every column (each side's interval, p), however wide; "
                                                      "default: the table fits 80 columns.")] = False,
) -> None:
    """What a ruleset's rules do to the game, from bots playing duplicate deals: seat advantage,
    balance, endings, duration, branching, the lead, Ludii's metrics, skill depth and luck, each with its 95%
    interval; with --against, every figure's difference with a paired interval and a verdict."""
    import shlex
    import sys

    from rich.console import Console

    from contack_core.engine.bots import split_seats
    from contack_core.engine.stopping import Stopped, signals_stop
    from tournaments.analysis.render import NARROW, print_analysis, print_comparison
    from tournaments.analysis.report import Comparison
    from tournaments.analysis.run import AnalysisError, AnalysisStopped, Request, analyze

    shared = _options(option, "--option")
    if (option_b or []) and against is None:
        fail("--option-b is for the ruleset of --against", 2)
    request = Request(
        ruleset=ruleset, options={**shared, **_options(option_a, "--option-a")}, against=against,
        against_options={**shared, **_options(option_b, "--option-b")}, seats=_seats(seats),
        bots=tuple(split_seats(bots)) if bots.strip() else (), player=player, deals=deals, seed=seed,
        workers=workers, backend=backend, address=address, output=output, resamples=bootstrap, quiet=quiet,
        opening=opening, null=null, ideal=_ideal(ideal_decisions))
    resume = shlex.join(["contack", *sys.argv[1:]]) if output is not None else None
    from tournaments.plot import output_problem

    if (problem := output_problem(plot, html)) is not None:  # before any game is played
        fail(problem)
    try:
        with signals_stop():
            result = analyze(request, resume, Console(stderr=True))
    except AnalysisError as error:
        fail(str(error))
    except AnalysisStopped as stop:
        fail(str(stop), stop.exit_code)
    except Stopped as stop:
        fail(f"{stop} while the analysis was starting or ending", stop.exit_code)
    comparison = isinstance(result, Comparison)
    if as_json:
        import json

        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        console = Console()
        if wide and not console.is_terminal:  # a pipe or a file: wide enough that intervals stay on one line
            console = Console(width=max(console.width, 160 if comparison else 120))
        elif not wide:
            console = Console(width=min(console.width, NARROW) if console.is_terminal else NARROW)
        (print_comparison if comparison else print_analysis)(result, console, wide)  # type: ignore[operator]
    if html is not None:
        from tournaments.analysis.html import write_html

        try:
            write_html(result, html)
        except OSError as error:
            fail(f"cannot write {html}: {error.strerror or error}")
        if not as_json:
            echo(f"page written to {html}")
    if plot is not None:
        from tournaments.analysis.plot import PlotError, plot_analysis

        try:
            plot_analysis(result, plot)
        except PlotError as error:
            fail(str(error))
        if not as_json:
            echo(f"plot written to {plot}")
