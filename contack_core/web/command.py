"""``contack keep ... --web``: the score keeper served as a page, for the phones round the table."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from contack_core.extras import installed

if TYPE_CHECKING:
    from contack_core.records.keeper import Keeper
    from contack_core.records.scores_keeper import ScoresKeeper
    from contack_core.web.app import ServedGame

#: What the web table needs beyond the project's own requirements (the ``web`` extra).
NEEDS = ("starlette", "uvicorn")
MISSING = "the web table needs Starlette and uvicorn, which are not installed: pip install 'contack[web]'"


def web_missing() -> str | None:
    """Why the web table cannot run here (its extra is not installed), or None."""
    return None if installed(*NEEDS) else MISSING


def web_command(ruleset: str | None, seats: str | None, record: Path | None, resume: Path | None,
                options: dict[str, str], host: str, port: int, echo: Callable[[str], None],
                fail: Callable[..., NoReturn]) -> int:
    """Start or carry on the record, then serve the web table until Ctrl-C; the record let go at the end."""
    missing = web_missing()
    if missing:  # said before any record is made
        fail(missing, 2)
    from contack_core.records.table import open_keeper
    from contack_core.web.game import WebGame

    with _listening(host, port, fail) as sock:  # before the record is made: a port in use leaves none
        keeper = open_keeper(ruleset, seats, record, resume, options, echo, fail)
        return _served(WebGame(keeper), keeper, sock, host, echo)


def web_scores_command(keeper_of: Callable[[], ScoresKeeper], host: str, port: int, echo: Callable[[str], None],
                       fail: Callable[..., NoReturn]) -> int:
    """``--scores-only --web``: the scores keeper ``keeper_of`` starts or carries on, served until Ctrl-C."""
    missing = web_missing()
    if missing:  # said before any record is made
        fail(missing, 2)
    from contack_core.web.scores import WebScores

    with _listening(host, port, fail) as sock:
        keeper = keeper_of()
        echo("checked as you type: " + "; ".join(keeper.arithmetic.checked()))
        return _served(WebScores(keeper), keeper, sock, host, echo)


def _listening(host: str, port: int, fail: Callable[..., NoReturn]) -> socket.socket:
    from contack_core.web.app import listening

    try:
        return listening(host, port)
    except OSError as error:
        fail(str(error), 2)


def _served(game: ServedGame, keeper: Keeper | ScoresKeeper, sock: socket.socket, host: str,
            echo: Callable[[str], None]) -> int:
    """Serve ``game`` until Ctrl-C, then let its record go and say how to carry it on."""
    from contack_core.web.app import serve

    try:
        serve(game, sock, host, echo)
    finally:
        keeper.close()
    echo(f"stopped; the record so far is {keeper.path} (carry it on: contack keep --resume {keeper.path} --web)")
    return 0
