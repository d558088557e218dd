"""The web table's server: a Starlette app over one kept game (:class:`ServedGame`), run by uvicorn.

The app answers only its own routes: the page, its two assets (named in code, read from this
package: no folder is served), the game's view, entries, and a live stream of views (server-sent
events, one after every change to the record). Every request must carry the game's join token
(``?token=``, or the ``X-Contack-Token`` header), so a page elsewhere, or another device on the
network that was not given the URL, reaches nothing. Needs the ``web`` extra.
"""

from __future__ import annotations

import json
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any, Protocol

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from contack_core.engine.rules import Rules
from contack_core.replay.drawing import markup


class ServedGame(Protocol):
    """What the server asks of the game it serves: a whole game kept entry by entry
    (:class:`~contack_core.web.game.WebGame`) or its hands' results only
    (:class:`~contack_core.web.scores.WebScores`)."""

    version: int

    @property
    def rules(self) -> Rules: ...
    @property
    def seats(self) -> list[str]: ...
    def enter(self, text: str) -> dict[str, Any]: ...
    def view(self, viewer: int | None = None) -> dict[str, Any]: ...
    def wait(self, version: int, timeout: float) -> int: ...

#: The longest request body an entry may come in (an entry itself is far shorter).
MAX_BODY = 16_384
#: How often the live stream looks whether its page has gone or the server stops (seconds).
POLL = 1.0
#: A comment sent down an idle stream, so that proxies and phones keep it open.
KEEPALIVE = 15.0

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
ASSETS = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}


class TokenGate:
    """Refuses every request without the game's join token, before any route sees it."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope)
            given = request.query_params.get("token") or request.headers.get("x-contack-token") or ""
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                response = PlainTextResponse("this game needs its join token: open the URL `contack keep --web` "
                                             "printed", status_code=403, headers=HEADERS)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _json(data: object, status_code: int = 200) -> Response:
    """JSON in ASCII: a lone surrogate a record's name holds stays an escape, never a failed encoding."""
    return Response(json.dumps(data), status_code=status_code, media_type="application/json", headers=HEADERS)


def _viewer(request: Request, game: ServedGame) -> int | None:
    seat = request.query_params.get("seat", "")
    if seat.isdigit() and int(seat) < len(game.seats):
        return int(seat)
    return None


def make_app(game: ServedGame, token: str, stopping: Callable[[], bool] = lambda: False) -> ASGIApp:
    """The web table of ``game``, open to requests that carry ``token``; ``stopping`` tells the
    live streams to end (the server is shutting down)."""

    async def page(request: Request) -> Response:
        return HTMLResponse(page_html(game, token), headers=HEADERS)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return PlainTextResponse("not found", status_code=404, headers=HEADERS)
        text = resources.files("contack_core.web").joinpath("static", name).read_text(encoding="utf-8")
        return Response(text, media_type=ASSETS[name], headers=HEADERS)

    async def state(request: Request) -> Response:
        viewer = _viewer(request, game)
        return _json(await anyio.to_thread.run_sync(game.view, viewer))

    async def entry(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _json({"error": f"a request is at most {MAX_BODY:,} bytes"}, 413)
        try:
            text = json.loads(body or b"{}").get("entry")
        except (ValueError, AttributeError):
            text = None
        if not isinstance(text, str):
            return _json({"error": 'send {"entry": "TEXT"}, TEXT what the terminal keeper takes'}, 400)
        answer = await anyio.to_thread.run_sync(game.enter, text)
        answer["view"] = await anyio.to_thread.run_sync(game.view, _viewer(request, game))
        return _json(answer)

    async def events(request: Request) -> Response:
        viewer = _viewer(request, game)

        async def stream() -> AsyncIterator[str]:
            shown = -1
            idle = 0.0
            while not stopping():
                if game.version != shown:
                    view = await anyio.to_thread.run_sync(game.view, viewer)
                    shown = view["version"]
                    idle = 0.0
                    yield f"event: view\ndata: {json.dumps(view)}\n\n"
                    continue
                await anyio.to_thread.run_sync(game.wait, shown, POLL)
                if await request.is_disconnected():
                    return
                idle += POLL
                if idle >= KEEPALIVE:
                    idle = 0.0
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    routes = [
        Route("/", page),
        Route("/static/{name}", asset),
        Route("/state", state),
        Route("/entry", entry, methods=["POST"]),
        Route("/events", events),
    ]
    return TokenGate(Starlette(routes=routes), token)


def page_html(game: ServedGame, token: str) -> str:
    """The page: its frame only; the game comes from /state and /events, drawn by table.js."""
    rules = game.rules
    title = markup(f"{rules.title}: {', '.join(game.seats)}")
    seats = "".join(f'<option value="{n}">{markup(name)}</option>' for n, name in enumerate(game.seats))
    query = f"?token={markup(token)}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/table.css{query}">
<script src="/static/table.js{query}" defer></script>
</head>
<body data-token="{markup(token)}" data-version="-1">
<header><h1>{markup(rules.title)}</h1>
<label>view as <select id="viewer"><option value="">the score keeper</option>{seats}</select></label></header>
<main>
<div id="status" aria-live="polite"></div>
<div id="board"></div>
<div id="buttons"></div>
<div id="answer" aria-live="assertive"></div>
<div id="choices"></div>
<div id="picker-box"><div id="picker-head"></div><div id="picker"></div></div>
<div id="seats"></div>
<form id="entry-form"><input id="entry" name="entry" autocomplete="off" autocapitalize="off"
 placeholder="or type an entry, as at the terminal (help)"><button type="submit">enter</button>
<button type="button" id="undo">undo</button></form>
<details id="entries-box"><summary>entries: fix one, insert one left out, or let one stand</summary>
<p class="hint"><button type="button" id="agreed" aria-pressed="false">agreed</button> the next entry is one
the table lets stand although the rules refuse it</p><ol id="entries"></ol></details>
<section id="sheet"></section>
<section><h2>what happened</h2><ul id="log"></ul></section>
</main></body></html>
"""


def listening(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or OSError saying why not: taken before the table's record
    is made, so that a port in use leaves no record behind."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.listen(64)
    return sock


def serve(game: ServedGame, sock: socket.socket, host: str, echo: Callable[[str], None]) -> None:
    """Serve the web table on ``sock`` (:func:`listening` on ``host``) until Ctrl-C (or SIGTERM),
    printing the URL to open, its join token in it."""
    import uvicorn

    token = secrets.token_urlsafe(16)
    bound = sock.getsockname()[1]
    server: uvicorn.Server | None = None
    app = make_app(game, token, lambda: server is not None and server.should_exit)
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=3,
                            lifespan="off")
    server = uvicorn.Server(config)
    shown = _shown_host(host)
    echo(f"the web table is at http://{shown}:{bound}/?token={token}")
    if shown != host and host in ("0.0.0.0", "::"):
        echo(f"  (listening on every address of this machine, port {bound}; open it on the devices of the table)")
    echo("Ctrl-C stops it; the record is kept (contack keep --resume FILE --web carries it on)")
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: the keeper stops here
        pass
    finally:
        sock.close()


def _shown_host(host: str) -> str:
    """The address to print: for every address of the machine, the one its name resolves to."""
    if host in ("0.0.0.0", "::", ""):
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return socket.gethostname()
    return f"[{host}]" if ":" in host else host
