"""``contack tournament run`` and ``contack tournament report`` (a Typer sub-app)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

app = typer.Typer(help="Round-robin tournaments of bots: run them, report on them.", no_args_is_help=True)


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.command("run")
def run(
    config: Annotated[str, typer.Argument(help="A tournament config (YAML), or 'demo' for the shipped demo.")],
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: one per core).")] = None,
    backend: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="With --backend ray: a cluster, HOST:PORT.")] = None,
    output: Annotated[Path | None, typer.Option(help="Results folder (default: the config's output).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; one summary line.")] = False,
) -> None:
    """Play every game of the tournament not yet in its results folder (a rerun resumes)."""
    from tournaments.config import ConfigError, load_config
    from tournaments.runner import RunError, run_tournament
    from tournaments.store import StoreError

    try:
        settings = load_config(config)
    except ConfigError as error:
        for problem in error.problems:
            typer.echo(str(problem), err=True)
        raise typer.Exit(1) from None
    try:
        summary = run_tournament(settings, output, workers, backend, address, quiet)
    except (RunError, StoreError) as error:
        fail(str(error))
    print_summary(summary, backend, resume_command(config, output, workers, backend, address))


def resume_command(config: str, output: Path | None, workers: int | None, backend: str, address: str | None) -> str:
    """The command that goes on with a stopped run (the same one)."""
    import shlex

    parts = ["contack", "tournament", "run", config]
    if output is not None:
        parts += ["--output", str(output)]
    if workers is not None:
        parts += ["--workers", str(workers)]
    if backend != "local":
        parts += ["--backend", backend]
    if address:
        parts += ["--address", address]
    return shlex.join(parts)


def print_summary(summary: Any, backend: str, resume: str) -> None:
    """The summary line, every bot's faults, and the exit status: a stopped run or one whose games all
    ended in errors does not exit 0."""
    from tournaments.play import ERROR

    statuses = ", ".join(f"{n} {s}" for s, n in sorted(summary.statuses.items())) or "none played"
    typer.echo(f"{summary.output}: {summary.total} games in the schedule, {summary.skipped} already done, "
               f"{summary.played} played now ({statuses}) in {summary.seconds:.1f} s "
               f"({summary.games_per_s:.1f} games/s; {summary.startup:.1f} s starting the {backend} backend)")
    if summary.grown:
        typer.echo(f"the tournament grew: {'; '.join(summary.grown)}")
    if summary.fault_lines:
        typer.echo("faults and errors, by bot:")
        for line in summary.fault_lines:
            typer.echo(line)
    if summary.crashes:
        typer.echo(f"{summary.crashes} worker process{'es' if summary.crashes != 1 else ''} died under a game "
                   f"and {'were' if summary.crashes != 1 else 'was'} replaced")
    if summary.stopped:
        typer.echo(f"{summary.stopped}: {summary.done} of {summary.total} games done, {summary.total - summary.done} "
                   f"to play; resume with: {resume}", err=True)
        raise typer.Exit(128 + (summary.stop_signal or 2))
    if summary.played and summary.statuses.get(ERROR, 0) == summary.played:
        fail(f"every game played ended in an error (see above, and the records in {summary.output})")


@app.command("report")
def report(
    directory: Annotated[Path, typer.Argument(help="A tournament's results folder (or its results.sqlite).")],
    as_json: Annotated[bool, typer.Option("--json", help="The whole report as one JSON object.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="The standings as CSV.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Also draw ratings and score distributions to this PNG.")] = None,
    bootstrap: Annotated[int, typer.Option(min=0, help="Bootstrap resamples for the intervals.")] = 100,
) -> None:
    """Standings with ratings and 95% intervals, seat effects, head-to-head and faults."""
    from tournaments.plot import PlotError, plot_report
    from tournaments.render import print_report, standings_csv
    from tournaments.report import build_report
    from tournaments.store import Store, StoreError

    if as_json and as_csv:
        fail("choose one of --json and --csv", 2)
    if directory.is_file():
        directory = directory.parent
    try:
        with Store.open_existing(directory) as store:
            config = store.config_document()
            rows = list(store.games())
    except StoreError as error:
        fail(str(error))
    if not rows:
        fail(f"no finished games in {directory} yet")
    result = build_report(config, rows, bootstrap, seed=int(config.get("seed", 0)))
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    elif as_csv:
        typer.echo(standings_csv(result), nl=False)
    else:
        console = Console()
        if not console.is_terminal:  # a pipe or a file: wide enough that intervals stay on one line
            console = Console(width=max(console.width, 130))
        print_report(result, console)
    if plot is not None:
        try:
            plot_report(result, rows, plot)
        except PlotError as error:
            fail(str(error))
        if not (as_json or as_csv):
            typer.echo(f"plot written to {plot}")
