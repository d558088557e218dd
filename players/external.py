"""Bots in any language: a program speaking the ``contack-bot/1`` protocol over stdin/stdout.

The seat specification ``exec:COMMAND`` (``--seats "exec:node random_bot.js",random``) makes
an :class:`ExternalPlayer`. The protocol is documented in ``docs/external-bots.md``; its
JSON forms are in :mod:`players.protocol`.

Why threads and queues: a bot may hang, crash, print garbage or stop reading its input,
and none of that may block or bring down the engine. A reader thread turns the bot's
stdout into a bounded queue of bounded lines (so a reply is awaited with a time limit),
a writer thread feeds its stdin (so a bot that never reads cannot block us on a full
pipe), and a third drains its stderr in chunks, keeping only the last few kilobytes to
explain a crash and killing a bot that floods it. Any failure kills the bot and raises
:class:`BotFailure` with the reason; the game's fault handling decides what becomes of
the move.

Why a keeper (:mod:`contack_core.processes`): the bot runs under a small process of its own that
outlives contack's death by any signal, SIGKILL included, just long enough to kill the bot
and everything it started (a grandchild in a session of its own too). contack holds the
keeper's *lifeline* pipe: closing it, or dying, tells the keeper to kill everything below
it. So no bot process outlives its game or contack, whatever ends them.
"""

from __future__ import annotations

import io
import json
import os
import queue
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from typing import IO, TYPE_CHECKING, Any, ClassVar

import attrs

from contack_core.engine.bots import MoveTimeout, Player, PlayerFault, PlayerSpecError
from contack_core.processes import KEEPER
from players.protocol import PROTOCOL, action_json, event_json, find_action, legal_json, position_json

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: Seconds a bot has to answer a position request when neither the game's budget nor the
#: player's own ``move_time`` says otherwise.
DEFAULT_MOVE_TIME = 10.0
#: Seconds a bot has to start and answer the handshake and the new-game message: starting a
#: program (an interpreter, say) takes longer than a move, so a short move budget never
#: shortens it; a longer move budget lengthens it.
DEFAULT_START_TIME = 10.0

#: Seconds a bot has to exit by itself after "quit" before it is killed.
DEFAULT_QUIT_TIME = 1.0
#: The longest line read from a bot (characters); a longer one is garbage.
MAX_LINE = 1 << 20
#: Lines read from a bot and not yet consumed, at most: a bot that writes faster than it is
#: asked waits on its pipe instead of filling contack's memory.
LINES_QUEUED = 16
#: Bytes a bot may write to its stderr in all; more is a flood, and the bot is killed.
STDERR_LIMIT = 16 << 20
#: Bytes of a bot's stderr kept (its end) to explain its failure.
STDERR_KEPT = 4096
#: How many of the kept stderr lines a failure message quotes.
STDERR_LINES = 8
#: Seconds a failure message waits for the rest of an ended bot's stderr (a child it left may hold it open).
STDERR_GRACE = 1.0

_EOF = object()


class BotFailure(PlayerFault):
    """An external bot hung, crashed, broke the protocol or chose no legal action.

    ``reason`` says which, in words a user can act on (whatever language the bot is in), and
    the referee records it as it is, as a fault of ``kind`` ``illegal`` (an action that is not
    legal), ``timeout`` (:class:`BotTimeout`) or ``raised`` (anything else); the bot's process
    has been killed unless ``killed`` is False (it only named an action that is not legal). A
    killed bot is ``gone``: its seat forfeits the game, as it can play no more of it.
    """

    #: The fault kind of this class of failure, unless the constructor is told another.
    fault_kind: ClassVar[str] = "raised"

    def __init__(self, reason: str, killed: bool = True, kind: str | None = None) -> None:
        super().__init__(reason, kind or self.fault_kind, gone=killed)
        self.killed = killed


class BotTimeout(BotFailure, MoveTimeout):
    """An external bot did not answer within its limit (and was killed): under a game's
    budget the referee records it as the move's timeout."""

    fault_kind: ClassVar[str] = "timeout"


class UnsupportedRuleset(BotFailure, PlayerSpecError):
    """The bot's handshake does not list the ruleset it was asked to play."""


@attrs.define(eq=False)
class Lifeline:
    """contack's end of a keeper's lifeline pipe: closing it tells the keeper to kill everything."""

    fd: int | None

    def cut(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                os.close(fd)
            except OSError:
                pass


@attrs.define(eq=False)
class KeeperStatus:
    """What the keeper reports on its status pipe: the bot's process id, then its wait status."""

    fd: int
    buffer: bytes = b""
    fields: dict[str, int] = attrs.field(factory=dict)

    def get(self, key: str, timeout: float) -> int | None:
        """The reported ``pid`` or ``exit`` status, waiting up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        while key not in self.fields and self.fd >= 0:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.fd], [], [], remaining)[0]:
                break
            chunk = os.read(self.fd, 256)
            if not chunk:
                os.close(self.fd)
                self.fd = -1
                break
            self.buffer += chunk
            *lines, self.buffer = self.buffer.split(b"\n")
            for line in lines:
                name, _, value = line.decode("ascii", "replace").partition(" ")
                if value.strip().lstrip("-").isdigit():
                    self.fields[name] = int(value)
        return self.fields.get(key)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _stop(process: subprocess.Popen[bytes], lifeline: Lifeline, status: KeeperStatus) -> None:
    """Cut the lifeline (the keeper kills the bot and all it started), reap the keeper, and take
    its last report (the bot's exit status).

    A keeper that does not exit in time is killed with its process group; the bot, which
    has a parent-death signal, goes with it.
    """
    lifeline.cut()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a keeper stuck in the kernel
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    status.get("exit", 0.5)
    status.close()
    # The pipes are closed by the threads that use them, when the bot's end closes: closing
    # a pipe here could block on a thread still reading it.


@attrs.define(eq=False)
class BotProcess:
    """One running bot program (under its keeper) and the three threads that talk to it."""

    argv: list[str]
    process: subprocess.Popen[bytes]
    lifeline: Lifeline
    status: KeeperStatus
    lines: queue.Queue[Any]
    outbox: queue.Queue[str | None]
    stderr_tail: bytearray = attrs.field(factory=bytearray)
    #: Set once the bot's stderr is read to its end, so a failure message can wait for its last words.
    stderr_read: threading.Event = attrs.field(factory=threading.Event)
    #: Why the bot was killed from a reader thread (a flood), for the failure message.
    killed_because: str | None = None
    finalizer: weakref.finalize = attrs.field(init=False)

    @classmethod
    def start(cls, argv: list[str], cwd: str | None = None) -> BotProcess:
        """Start ``argv`` (no shell) under a keeper, in ``cwd``; OSError if the keeper cannot run."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        status_read, status_write = os.pipe()
        lifeline_read, lifeline_write = os.pipe()
        try:
            process = subprocess.Popen(
                [sys.executable, "-I", "-S", KEEPER, str(status_write), str(lifeline_read), cwd or os.getcwd(),
                 "--", *argv],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                pass_fds=(status_write, lifeline_read), start_new_session=True,
            )
        except OSError:
            for fd in (status_read, lifeline_write):
                os.close(fd)
            raise
        finally:
            os.close(status_write)
            os.close(lifeline_read)
        lifeline = Lifeline(lifeline_write)
        bot = cls(argv, process, lifeline, KeeperStatus(status_read), queue.Queue(LINES_QUEUED), queue.Queue())
        # The finalizer holds the process and the lifeline, never the BotProcess, so garbage
        # collection and interpreter exit still stop the bot when nobody called close().
        bot.finalizer = weakref.finalize(bot, _stop, process, lifeline, bot.status)
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        reader = io.TextIOWrapper(process.stdout, encoding="utf-8", errors="replace")
        writer = io.TextIOWrapper(process.stdin, encoding="utf-8", write_through=True)
        threads: list[tuple[Any, tuple[Any, ...]]] = [(_read_lines, (reader, bot.lines, lifeline)),
                                                      (_drain_stderr, (process.stderr, weakref.ref(bot),
                                                                       bot.stderr_read)),
                                                      (_write_lines, (writer, bot.outbox))]
        for target, args in threads:
            threading.Thread(target=target, args=args, daemon=True,
                             name=f"bot-{process.pid}{target.__name__}").start()
        return bot

    @property
    def pid(self) -> int | None:
        """The bot program's own process id (not its keeper's)."""
        return self.status.get("pid", DEFAULT_START_TIME)

    def alive(self) -> bool:
        return self.finalizer.alive and self.process.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message; never blocks, even when the bot does not read its input."""
        self.outbox.put(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")

    def kill(self, because: str | None = None) -> None:
        if because and self.killed_because is None:
            self.killed_because = because
        self.outbox.put(None)
        self.finalizer()

    def quit(self, grace: float) -> None:
        """Send "quit", end the bot's input, wait ``grace`` seconds for it to exit, then kill."""
        if not self.finalizer.alive:
            return
        self.send({"type": "quit"})
        self.outbox.put(None)
        if grace > 0:
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self.finalizer()

    def exit_description(self) -> str:
        """How the bot ended, for a failure message: its exit code and the end of its stderr."""
        status = self.status.get("exit", 1.0)
        if self.killed_because:
            what = self.killed_because
        elif status is None:
            what = "closed its output"
        elif os.WIFSIGNALED(status):
            what = f"was killed by signal {os.WTERMSIG(status)}"
        else:
            what = f"exited with code {os.WEXITSTATUS(status)}"
        # The bot has ended: what it wrote last may still be on its way through the reader.
        self.stderr_read.wait(STDERR_GRACE)
        lines = bytes(self.stderr_tail).decode("utf-8", "replace").splitlines()[-STDERR_LINES:]
        tail = " | ".join(line.rstrip()[:500] for line in lines if line.strip())
        return what + (f"; its stderr ended: {tail}" if tail else "")


def _read_lines(stream: IO[str], lines: queue.Queue[Any], lifeline: Lifeline) -> None:
    def put(item: Any) -> bool:
        """Queue ``item`` when there is room; False once the bot is stopped and nobody will read it."""
        while True:
            try:
                lines.put(item, timeout=0.2)
                return True
            except queue.Full:
                if lifeline.fd is None:
                    return False

    try:
        while True:
            line = stream.readline(MAX_LINE)
            if not line or not put(line):
                break
            if len(line) >= MAX_LINE and not line.endswith("\n"):
                break  # garbage: the consumer fails the bot on it; read no more
    except (OSError, ValueError):
        pass
    put(_EOF)
    _close_quietly(stream)


def _drain_stderr(stream: IO[bytes], owner: weakref.ref[BotProcess], done: threading.Event) -> None:
    """Read the bot's stderr in chunks, keep its end, and kill a bot that writes too much;
    ``done`` is set at its end."""
    written = 0
    try:
        while chunk := stream.read1(1 << 16):  # type: ignore[attr-defined]
            written += len(chunk)
            bot = owner()  # held only while a chunk is handled, so the bot can still be collected
            if bot is None:
                continue
            tail = bot.stderr_tail
            tail += chunk[-STDERR_KEPT:]
            del tail[:-STDERR_KEPT]
            if written > STDERR_LIMIT:
                bot.kill(f"wrote more than {STDERR_LIMIT >> 20} MiB to its stderr (a flood) and was killed")
                break
            del bot, tail
    except (OSError, ValueError):
        pass
    _close_quietly(stream)
    done.set()


def _write_lines(stream: IO[str], outbox: queue.Queue[str | None]) -> None:
    try:
        while (line := outbox.get()) is not None:
            stream.write(line)
            stream.flush()
    except (OSError, ValueError):
        pass
    _close_quietly(stream)


def _close_quietly(stream: IO[Any]) -> None:
    try:
        stream.close()
    except (OSError, ValueError):
        pass


def _a(message_type: str) -> str:
    """A message type quoted after its article, for a sentence: 'a "ready"', 'an "action"'."""
    return f'{"an" if message_type[:1].lower() in "aeiou" else "a"} "{message_type}"'


def parse_command(command: str | list[str], cwd: str | None = None) -> list[str]:
    """The program and arguments of an ``exec:`` seat, split like a shell would (no shell runs).

    Raises :class:`PlayerSpecError` for an empty command, unbalanced quotes, or a program
    that is neither on PATH nor an existing file (a relative path is taken from ``cwd``).
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise PlayerSpecError(f"exec:{command}: {error} (quote the command as a shell would)") from None
    else:
        argv = list(command)
    if not argv:
        raise PlayerSpecError('exec: needs a command, as in "exec:python my_bot.py"')
    program = argv[0]
    if shutil.which(program) is None and not (os.sep in program and os.path.isfile(os.path.join(cwd or "", program))):
        raise PlayerSpecError(f"exec:{shlex.join(argv)}: no program {program!r} on PATH or at that path")
    return argv


class ExternalPlayer(Player):
    """A bot in any language: a program speaking contack-bot/1 (JSON lines) on stdin/stdout."""

    name: ClassVar[str] = "exec"
    description: ClassVar[str] = "an external program speaking the contack-bot/1 protocol (docs/external-bots.md)"
    #: Which rulesets an external bot supports is learnt from its handshake.
    supports: ClassVar[frozenset[str] | None] = None
    plays_note: ClassVar[str | None] = "those its program's handshake lists (\"*\": every ruleset)"
    #: Every wait on the program is bounded by the game's budget (or the player's own
    #: limits), and a bot that overruns is killed at once: no referee thread is needed.
    keeps_time: ClassVar[bool] = True

    def __init__(self, seed: int | str | None = None, *, command: str | list[str],
                 move_time: float | None = None, start_time: float | None = None,
                 quit_time: float = DEFAULT_QUIT_TIME, cwd: str | None = None) -> None:
        self.seed = seed
        #: The folder the program runs in (None: contack's own); relative paths in the command start there.
        self.cwd = cwd
        self.argv = parse_command(command, cwd)
        #: The limits asked for by whoever made the player (None: the defaults or the budget).
        self.move_time = None if move_time is None else float(move_time)
        self.start_time = None if start_time is None else float(start_time)
        self.quit_time = float(quit_time)
        self.bot: BotProcess | None = None
        #: What the bot said in its handshake: its "name" and the "rulesets" it plays.
        self.hello: dict[str, Any] | None = None
        self.failure: BotFailure | None = None
        self.in_game = False
        self.rules: Rules | None = None
        #: The seat this bot plays in the game under way (what it may be told depends on it).
        self.seat: int | None = None
        self.seat_count: int | None = None

    # ----------------------------------------------------------------- limits
    @property
    def move_limit(self) -> float:
        """Seconds the bot has per move: the game's budget (``play_game`` sets ``budget``), or
        the player's ``move_time`` if that is shorter, or DEFAULT_MOVE_TIME with neither."""
        budget = self.budget.time_per_move
        limits = [limit for limit in (budget, self.move_time) if limit is not None]
        return min(limits) if limits else DEFAULT_MOVE_TIME

    @property
    def start_limit(self) -> float:
        """Seconds the bot has to start and answer "hello" and "ready": its own ``start_time``,
        else DEFAULT_START_TIME, or the move budget if that is longer."""
        if self.start_time is not None:
            return self.start_time
        return max(DEFAULT_START_TIME, self.budget.time_per_move or 0.0)

    # ----------------------------------------------------------------- labels
    @property
    def label(self) -> str:
        """How messages name the bot: its handshake name, and always its command."""
        command = shlex.join(self.argv)
        bot_name = (self.hello or {}).get("name")
        return f"external bot {bot_name!r} ({command})" if isinstance(bot_name, str) else f"external bot ({command})"

    @property
    def pid(self) -> int | None:
        """The bot's process id while it runs (tests use it to check nothing is left behind)."""
        return self.bot.pid if self.bot is not None else None

    # ----------------------------------------------------------------- talking
    def _fail(self, reason: str, kind: type[BotFailure] = BotFailure) -> BotFailure:
        """Kill the bot and build the failure to raise; later requests fail at once with it."""
        if self.bot is not None:
            self.bot.kill()
        self.in_game = False
        self.failure = kind(f"{self.label} {reason}")
        return self.failure

    def _receive(self, expected: str, limit: float) -> dict[str, Any]:
        """The next message of type ``expected``, within ``limit`` seconds, or BotFailure
        (:class:`BotTimeout` when the time ran out)."""
        assert self.bot is not None
        deadline = time.monotonic() + limit
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self.bot.lines.get(timeout=max(remaining, 0)) if remaining > 0 else self.bot.lines.get_nowait()
            except queue.Empty:
                raise self._fail(f'did not answer with "{expected}" within {limit:g} s; killed', BotTimeout) from None
            if line is _EOF:
                raise self._fail(f'{self.bot.exit_description()} while "{expected}" was awaited')
            text = line.strip()
            if not text:
                continue
            if len(line) >= MAX_LINE and not line.endswith("\n"):
                raise self._fail(f"sent a line longer than {MAX_LINE} characters; killed")
            try:
                message = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                raise self._fail(f'replied {text[:80]!r}, which is not a JSON object, where "{expected}" '
                                 f"was awaited; killed") from None
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "log":
                continue
            if kind == "error":
                raise self._fail(f"reported an error: {str(message.get('message', ''))[:200]}; killed")
            if kind != expected:
                raise self._fail(f'replied {text[:80]!r} where {_a(expected)} message was awaited; killed')
            return message

    def _check_usable(self) -> None:
        if self.failure is not None and (self.bot is None or not self.bot.alive()):
            raise BotFailure(f"{self.failure.reason} (earlier in this game)", kind=self.failure.kind)

    # ----------------------------------------------------------------- the player interface
    def connect(self) -> dict[str, Any]:
        """Start the program (if it is not running) and shake hands; returns its hello."""
        if self.bot is not None and self.bot.alive() and self.hello is not None:
            return self.hello
        self.failure = None
        self.hello = None
        try:
            self.bot = BotProcess.start(self.argv, self.cwd)
        except OSError as error:
            self.bot = None
            raise self._fail(f"could not be started: {error.strerror or error}") from None
        from contack_core.engine import __version__

        self.bot.send({"type": "hello", "protocol": PROTOCOL, "engine": f"contack {__version__}"})
        hello = self._receive("hello", self.start_limit)
        if hello.get("protocol") != PROTOCOL:
            raise self._fail(f"speaks protocol {hello.get('protocol')!r}, not {PROTOCOL!r}; killed")
        rulesets = hello.get("rulesets")
        if not isinstance(rulesets, list) or not all(isinstance(r, str) for r in rulesets):
            raise self._fail('did not list the rulesets it plays ("rulesets": ["parker-1939"] or ["*"]); killed')
        self.hello = hello
        return hello

    def supports_ruleset(self, rules: Rules) -> bool:
        """Whether the handshake lists this ruleset, a ruleset it extends, or ``"*"``."""
        listed = set((self.hello or {}).get("rulesets") or ())
        return "*" in listed or any(ruleset_id in listed for ruleset_id in [*rules.chain, rules.id])

    def cannot_start(self, rules: Rules) -> str | None:
        """Start the program and shake hands: why it cannot play ``rules``, or None."""
        try:
            self.connect()
        except BotFailure as error:
            return error.reason
        return self._unsupported(rules)

    def _unsupported(self, rules: Rules) -> str | None:
        """Why the handshake rules ``rules`` out, or None."""
        if self.supports_ruleset(rules):
            return None
        listed = ", ".join((self.hello or {}).get("rulesets") or ()) or "nothing"
        return f"{self.label} does not play {rules.id} (its handshake lists: {listed})"

    def start_game(self, rules: Rules, seat: int, seat_count: int) -> None:
        """Tell the bot a game begins (starting it first if need be); it answers "ready"."""
        if self.in_game:
            self.end_game(None)
        self.connect()
        if (why := self._unsupported(rules)) is not None:
            if self.bot is not None:
                self.bot.kill()
            raise UnsupportedRuleset(why)
        assert self.bot is not None
        self.rules = rules
        self.seat = seat
        self.seat_count = seat_count
        self.bot.send({"type": "new_game", "ruleset": rules.id, "options": rules.options, "seat": seat,
                       "seats": seat_count, "seed": self.seed,
                       "tiles": list(rules.tiles.names), "colours": list(rules.tiles.colours),
                       "time_per_move": self.move_limit})
        self._receive("ready", self.start_limit)
        self.in_game = True

    def choose(self, state: GameState) -> Action:
        """Send the position and the legal actions; the bot's reply names one of them."""
        if not self.in_game:
            self._check_usable()
            self.start_game(state.rules, state.current_seat(), state.seat_count)
        self._check_usable()
        assert self.bot is not None
        legal = state.legal_actions()
        self.bot.send({"type": "position", "seat": state.current_seat(), "position": position_json(state),
                       "legal": legal_json(state.rules, legal)})
        reply = self._receive("action", self.move_limit)
        try:
            return find_action(state.rules, legal, reply)
        except ValueError as error:
            raise BotFailure(f"{self.label} chose no legal action: {error}", killed=False, kind="illegal") from None

    def observe(self, seat: int, action: Action, event: Any = None) -> None:
        """Tell the bot what a seat did (every seat's decisions, its own included); no reply."""
        if not self.in_game or self.bot is None or self.rules is None or not self.bot.alive():
            return
        message: dict[str, Any] = {"type": "observe", "seat": seat, "action": action_json(self.rules, action)}
        if event is not None and attrs.has(type(event)):
            message["event"] = event_json(self.rules, event, self.seat, self.seat_count)
            if "tile" not in message["event"]:  # a tile hidden from this seat (a house action's) is hidden in both
                message["action"].pop("tile", None)
        self.bot.send(message)

    def end_game(self, state: GameState | None) -> None:
        """Tell the bot the game is over, with the scores; no reply. The process stays for the next game."""
        if self.in_game and self.bot is not None and self.bot.alive():
            message: dict[str, Any] = {"type": "game_end"}
            if state is not None:
                message.update(scores=state.scores(), winners=state.winners(),
                               hand_scores=[list(result.scores) for result in state.hand_results])
            self.bot.send(message)
        self.in_game = False

    def close(self) -> None:
        """Say "quit", give the bot ``quit_time`` seconds to exit, then kill whatever is left."""
        if self.bot is not None:
            self.bot.quit(self.quit_time)
        self.in_game = False

