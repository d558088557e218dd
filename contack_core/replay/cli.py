"""What ``contack replay`` does, kept here so the command in :mod:`contack_core.cli` stays one call."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from contack_core.records.format import UnreadableRecord
from contack_core.replay.html import render_html
from contack_core.replay.svg import render_svg
from contack_core.replay.terminal import game_text, position_text, run_stepper, tty_keys
from contack_core.replay.timeline import ReplayError, Timeline, build_timeline


def replay_command(record: Path, svg: Path | None, at: int | None, html: Path | None, to: int | None,
                   echo: Callable[..., None], fail: Callable[..., NoReturn]) -> None:
    """Write the SVG and/or HTML asked for, print ``--to N``, or step interactively (at a terminal).

    A record whose header or ruleset is bad cannot be shown at all (exit 1 or 2 with the
    message); an unsound record is shown up to its bad event, then the audit's message is
    printed and the exit status is 1, as ``contack audit`` would give.
    """
    try:
        timeline = build_timeline(record)
    except UnreadableRecord as error:
        fail(f"{record}: unreadable: {error}", 2)
    except ReplayError as error:
        fail(str(error))
    last = len(timeline.steps) - 1
    if at is not None and svg is None:
        fail("--at goes with --svg FILE", 2)
    for name, value in (("--at", at), ("--to", to)):
        if value is not None and not 0 <= value <= last:
            fail(f"{name} {value}: this record shows events 0 to {last}"
                 + (f" (it is unsound from line {timeline.fault[0]})" if timeline.fault else ""), 2)
    if svg is not None:
        drawn = at if at is not None else to if to is not None else last  # --to alone: the event it prints
        _write(svg, render_svg(timeline, drawn), fail)
        echo(f"figure after event {drawn} written to {svg}")
    if html is not None:
        _write(html, render_html(timeline), fail)
        echo(f"replay page written to {html}")
    if to is not None:
        echo(position_text(timeline, to), nl=False)
    elif svg is None and html is None:
        _step(timeline, echo)
    _exit_if_unsound(timeline, echo)


def _step(timeline: Timeline, echo: Callable[..., None]) -> None:
    if sys.stdin.isatty() and sys.stdout.isatty():
        import typer

        run_stepper(timeline, tty_keys(), lambda text: typer.echo(text, nl=False))  # it escapes what it shows
    else:
        echo(game_text(timeline), nl=False)


def _write(path: Path, text: str, fail: Callable[..., NoReturn]) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")


def _exit_if_unsound(timeline: Timeline, echo: Callable[..., None]) -> None:
    if timeline.fault is not None:
        import typer

        line, message = timeline.fault
        echo(f"{timeline.path}:{line}: unsound: {message}", err=True)
        raise typer.Exit(1)
