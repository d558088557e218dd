"""``contack tournament run``, ``sprt`` and ``report`` (a Typer sub-app, registered under the
``contack.commands`` entry point; failures go through the core's one :func:`contack_core.cli.fail`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from contack_core.cli import echo, fail

app = typer.Typer(help="Round-robin tournaments of bots: run them, report on them.", no_args_is_help=True)


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
    from tournaments.runner import run_tournament

    try:
        settings = load_config(config)
    except ConfigError as error:
        for problem in error.problems:
            echo(str(problem), err=True)
        raise typer.Exit(1) from None
    resume = resume_command(config, output or settings.output, workers, backend, address)
    summary = guarded_run(lambda: run_tournament(settings, output, workers, backend, address, quiet,
                                                 meta={"resume": resume}))
    print_summary(summary, backend, resume)


def guarded_run(run: Any) -> Any:
    """``run()``, its failures as one message; a stop signal before the games begin (or after they
    end) stops it with a word instead of a traceback. (While games are played, the run itself
    handles the signals: it stores what is done and says how to resume.)"""
    from contack_core.engine.stopping import Stopped, signals_stop
    from tournaments.runner import RunError
    from tournaments.store import StoreError

    try:
        with signals_stop():
            return run()
    except (RunError, StoreError) as error:
        fail(str(error))
    except Stopped as stop:
        fail(f"{stop} while the run was starting or ending; the same command goes on", stop.exit_code)


def resume_command(config: str, output: Path, workers: int | None, backend: str, address: str | None) -> str:
    """The command that goes on with a stopped run (the same one)."""
    import shlex

    parts = ["contack", "tournament", "run", config, "--output", str(output)]
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
    echo(f"{summary.output}: {summary.total} games in the schedule, {summary.skipped} already done, "
               f"{summary.played} played now ({statuses}) in {summary.seconds:.1f} s "
               f"({summary.games_per_s:.1f} games/s; {summary.startup:.1f} s starting the {backend} backend)")
    if summary.grown:
        echo(f"the tournament grew: {'; '.join(summary.grown)}")
    if summary.replayed:
        count = len(summary.replayed)
        echo(f"{count} stored game{'s' if count != 1 else ''} had a missing or damaged record and "
                   f"{'were' if count != 1 else 'was'} played again (e.g. {summary.replayed[0]})")
    if summary.fault_lines:
        echo("faults and errors, by bot:")
        for line in summary.fault_lines:
            echo(line)
    if summary.crashes:
        echo(f"{summary.crashes} worker process{'es' if summary.crashes != 1 else ''} died under a game "
                   f"and {'were' if summary.crashes != 1 else 'was'} replaced")
    if summary.stopped:
        echo(f"{summary.stopped}: {summary.done} of {summary.total} games done, {summary.total - summary.done} "
                   f"to play; resume with: {resume}", err=True)
        raise typer.Exit(128 + (summary.stop_signal or 2))
    if summary.played and summary.statuses.get(ERROR, 0) == summary.played:
        fail(f"every game played ended in an error (see above, and the records in {summary.output})")


@app.command("sprt")
def sprt(
    config: Annotated[str, typer.Argument(help="A tournament config with one table size: A, B and the others that "
                                               "sit with them at every table; deals is the most to play.")],
    a: Annotated[str | None, typer.Option("--a", help="The entrant under test (default: the first).")] = None,
    b: Annotated[str | None, typer.Option("--b", help="The entrant it is tested against (default: the second).")
                 ] = None,
    elo0: Annotated[float, typer.Option(help="H0: A is at most this much stronger (Elo).")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1: A is at least this much stronger (Elo).")] = 5.0,
    alpha: Annotated[float, typer.Option(help="The chance of accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(help="The chance of accepting H0 when H1 holds.")] = 0.05,
    model: Annotated[str, typer.Option(help="normalized (fastchess's default) or logistic Elo.")] = "normalized",
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: one per core).")] = None,
    backend: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="With --backend ray: a cluster, HOST:PORT.")] = None,
    output: Annotated[Path | None, typer.Option(help="Results folder (default: the config's output).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; the summary lines only.")] = False,
) -> None:
    """Is A stronger than B? Play deals until a sequential probability ratio test decides (as fastchess
    does with game pairs): A's share of finishing ahead of B on each deal, every rotation of it played."""
    import attrs

    from tournaments.config import ConfigError, load_config
    from tournaments.paired import comparisons_per_deal
    from tournaments.render import sprt_sentence
    from tournaments.runner import run_tournament
    from tournaments.sprt import SprtMonitor, SprtSettings
    from tournaments.store import Store, StoreError

    settings = SprtSettings(elo0, elo1, alpha, beta, model)
    if settings.problems():
        fail("; ".join(settings.problems()), 2)
    try:
        tournament = load_config(config)
    except ConfigError as error:
        for problem in error.problems:
            echo(str(problem), err=True)
        raise typer.Exit(1) from None
    names = [entrant.name for entrant in tournament.entrants]
    size = tournament.seats[0]
    if len(tournament.seats) != 1 or len(names) != max(size, 2):
        fail(f"a sequential test plays one table a deal: A, B and the others that sit with them; "
             f"{tournament.source} has {len(names)} entrants at tables of {', '.join(map(str, tournament.seats))} "
             f"(give one table size, and as many entrants as seats; two for a solitaire)")
    first, second = a or names[0], b or names[1]
    for name in (first, second):
        if name not in names:
            fail(f"no entrant {name!r} in {tournament.source} (entrants: {', '.join(names)})")
    if first == second:
        fail("A and B must be two entrants")
    comparisons = comparisons_per_deal(len(names), size)
    monitor = SprtMonitor(names.index(first), names.index(second), comparisons, settings)
    folder = output or tournament.output
    try:
        if (folder / "results.sqlite").is_file():
            with Store.open_existing(folder) as store:
                monitor.add(list(store.games()))
    except StoreError as error:
        fail(str(error))
    test = {"a": first, "b": second, "comparisons": comparisons, "settings": attrs.asdict(settings)}
    resume = resume_command(config, folder, workers, backend, address).replace(" run ", " sprt ", 1)
    if monitor.state.verdict is None:
        meta = {"resume": resume, "sprt": json.dumps(test)}
        summary = guarded_run(lambda: run_tournament(tournament, output, workers, backend, address, quiet,
                                                     monitor=monitor, meta=meta))
        if summary.stopped and monitor.state.verdict is not None:
            summary = attrs.evolve(summary, stopped=None, stop_signal=None)
        echo(sprt_sentence(first, second, monitor.state))
        print_summary(summary, backend, resume)
    else:
        echo(sprt_sentence(first, second, monitor.state) + f" (from the {monitor.state.deals} deals stored "
                   f"in {folder}; nothing more to play)")


@app.command("repair")
def repair(
    directory: Annotated[Path, typer.Argument(help="A tournament's results folder.")],
) -> None:
    """Rebuild the results database from the records (a database damaged or lost); the old one is kept aside."""
    from tournaments.store import StoreError
    from tournaments.store import repair as rebuild

    if not directory.is_dir():
        fail(f"{directory} is not a folder")
    try:
        done = rebuild(directory)
    except StoreError as error:
        fail(str(error))
    kept = f"; the old database is kept as {done.kept_as.name}" if done.kept_as is not None else ""
    echo(f"{directory}: rebuilt {done.rebuilt:,} game{'s' if done.rebuilt != 1 else ''} from "
               f"{'their' if done.rebuilt != 1 else 'its'} records{kept}")
    if done.left_out:
        echo(f"{len(done.left_out)} record{'s' if len(done.left_out) != 1 else ''} left out (the next run plays "
                   f"{'those games' if len(done.left_out) != 1 else 'that game'} again), e.g. {done.left_out[0]}")


@app.command("report")
def report(
    directory: Annotated[Path, typer.Argument(help="A tournament's results folder (or its results.sqlite).")],
    as_json: Annotated[bool, typer.Option("--json", help="The whole report as one JSON object.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="The standings as CSV.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Also draw ratings and score distributions to this PNG.")] = None,
    html: Annotated[Path | None, typer.Option(help="Also write the report as a self-contained HTML page with "
                                                   "charts.")] = None,
    bootstrap: Annotated[int, typer.Option(min=0, help="Bootstrap resamples for the intervals.")] = 100,
) -> None:
    """Standings with ratings and 95% intervals, seat effects, head-to-head and faults."""
    from tournaments.plot import PlotError, output_problem, plot_report
    from tournaments.render import print_report, standings_csv
    from tournaments.report import build_report
    from tournaments.store import Store, StoreError

    if as_json and as_csv:
        fail("choose one of --json and --csv", 2)
    if (problem := output_problem(plot, html)) is not None:  # not after the report is printed
        fail(problem)
    if directory.is_file():
        directory = directory.parent
    try:
        with Store.open_existing(directory) as store:
            config = store.config_document()
            meta = store.meta()
            rows = list(store.games())
    except StoreError as error:
        fail(str(error))
    if not rows:
        fail(f"no finished games in {directory} yet")
    result = build_report(config, rows, bootstrap, seed=int(config.get("seed", 0)), meta=meta)
    if as_json:
        echo(json.dumps(result.to_json(), indent=2))
    elif as_csv:
        echo(standings_csv(result), nl=False)
    else:
        from rich.console import Console

        console = Console()
        if not console.is_terminal:  # a pipe or a file: wide enough that intervals stay on one line
            console = Console(width=max(console.width, 130))
        print_report(result, console)
    if html is not None:
        from tournaments.report_html import write_report_html

        try:
            write_report_html(result, html)
        except OSError as error:
            fail(f"cannot write {html}: {error.strerror or error}")
        if not (as_json or as_csv):
            typer.echo(f"page written to {html}")
    if plot is not None:
        try:
            plot_report(result, rows, plot)
        except PlotError as error:
            fail(str(error))
        if not (as_json or as_csv):
            echo(f"plot written to {plot}")
