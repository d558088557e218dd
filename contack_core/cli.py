"""The ``contack`` command line (Typer). Bad input is one clear message and a non-zero exit.

Commands import what they need when they run: ``contack audit`` never loads the
tournament stack, nor ``contack rulesets list`` jsonschema, so each starts quickly.
Command groups of the packages built on the core (``contack tournament``, ``contack analyze``)
are found as bots are, through an entry-point group (:data:`COMMANDS`), never imported here:
the core works without them, and they are loaded only when listed or run.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from contack_core.language.printable import printable
from contack_core.language.problems import RulesetError
from contack_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from importlib.metadata import EntryPoint

    from typer._click import Command, Context  # Typer's own click

    from contack_core.engine.bots import Player
    from contack_core.engine.rules import Rules
    from contack_core.records.audit import Verdict


def _version(value: bool) -> None:
    if value:
        typer.echo(f"contack {__version__}")
        raise typer.Exit()


#: The entry-point group through which other packages add commands: a ``typer.Typer`` becomes a
#: command group, a function a command (``tournaments`` registers ``tournament`` and ``analyze``).
COMMANDS = "contack.commands"


def registered_commands() -> list[EntryPoint]:
    """The entry points of :data:`COMMANDS`, by name."""
    from importlib.metadata import entry_points

    return sorted(entry_points(group=COMMANDS), key=lambda entry: entry.name)


def _unloadable(entry: EntryPoint, error: Exception) -> Callable[[], None]:
    """A command standing for one that cannot be loaded: listed, and run, it says why in one line."""
    reason = f"command {entry.name!r} cannot be loaded ({entry.value}): {type(error).__name__}: {error}"

    def unloadable() -> None:
        fail(reason)

    unloadable.__doc__ = f"(cannot be loaded: {type(error).__name__})"
    return unloadable


class _Commands(TyperGroup):
    """The top-level group: the core's own commands, and those registered under :data:`COMMANDS`,
    loaded the first time the list is shown or a name is not the core's own.

    The registered commands are listed first among commands and last among groups, where they
    stood when the core imported them (Typer lists commands before groups).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._own = list(self.commands)  # as Typer orders them: commands, then groups
        self._added: list[str] | None = None

    def _load(self) -> list[str]:
        if self._added is None:
            holder = typer.Typer()
            holder.callback()(lambda: None)  # a group, even of one command
            for entry in registered_commands():
                if entry.name in self.commands:
                    continue  # the core's own name wins
                try:
                    command = entry.load()
                    if not (isinstance(command, typer.Typer) or callable(command)):
                        raise TypeError(f"{type(command).__name__} is neither a typer.Typer nor a function")
                except Exception as error:  # noqa: BLE001 - a broken plugin must not take the CLI down
                    # whatever follows its name (--help included), it says why it cannot run
                    holder.command(entry.name, context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                                                 "help_option_names": []})(_unloadable(entry, error))
                    continue
                if isinstance(command, typer.Typer):
                    holder.add_typer(command, name=entry.name)
                else:
                    holder.command(entry.name)(command)
            built = typer.main.get_group(holder).commands
            self.commands.update(built)
            self._added = list(built)
        return self._added

    def list_commands(self, ctx: Context) -> list[str]:
        added = self._load()
        groups = [name for name in added if isinstance(self.commands[name], TyperGroup)]
        return [name for name in added if name not in groups] + self._own + groups

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in self.commands:
            self._load()
        return super().get_command(ctx, cmd_name)


app = typer.Typer(help="Contack: rules-as-data for the Contack family of tile games.", no_args_is_help=True,
                  pretty_exceptions_enable=False, cls=_Commands)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Contack: rules-as-data for the Contack family of tile games."""


rulesets_app = typer.Typer(help="List, show, validate and compare rulesets.", no_args_is_help=True)
players_app = typer.Typer(help="Installed players (bots).", no_args_is_help=True)
record_app = typer.Typer(help="The game record format (contack-record/1).", no_args_is_help=True)
app.add_typer(rulesets_app, name="rulesets")
app.add_typer(players_app, name="players")
app.add_typer(record_app, name="record")

OptionList = Annotated[list[str] | None, typer.Option("--option", "-o", help="A ruleset option, KEY=VALUE.")]


def echo(message: object = "", nl: bool = True, err: bool = False) -> None:
    """Print a line of output: every command prints through here, so that what records and
    rulesets bring in (names, titles, terms, messages quoting them) reaches the terminal with
    its control characters shown escaped (:func:`contack_core.language.printable.printable`)."""
    typer.echo(printable(str(message), lines=True), nl=nl, err=err)


def fail(message: str, code: int = 1) -> NoReturn:
    """The one way a command stops on bad input: ``error: MESSAGE`` on standard error, exit ``code``
    (1: the input is wrong, 2: the command line is). Commands of other packages use it too."""
    echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def parse_options(items: list[str] | None) -> dict[str, str]:
    options = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            fail(f"--option takes KEY=VALUE, not {item!r}", 2)
        options[key.strip()] = value.strip()
    return options


def load_or_fail(reference: str, options: dict[str, str] | None = None) -> Rules:
    from contack_core.language.problems import RulesetError
    from contack_core.primitives.loading import load_rules

    try:
        return load_rules(reference, options or {})
    except RulesetError as error:
        fail(str(error))


# ------------------------------------------------------------------------------- rulesets
@rulesets_app.command("list")
def rulesets_list() -> None:
    """The shipped rulesets, then the house-rule examples (named ``examples/NAME``): id, players and title.

    Each is read, checked against the schema and its players worked out; `contack rulesets validate` checks all of it.
    """
    from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
    from contack_core.language.problems import RulesetError
    from contack_core.primitives.cache import RulesetCache

    rulesets = RulesetCache()  # the ruleset schema compiled once for them all
    examples = shipped_example_ids()
    width = max(20, *(len(name) + 1 for name in [*shipped_ruleset_ids(), *examples]))
    for heading, ids in (("", shipped_ruleset_ids()), ("\nhouse-rule examples (docs/house-rules.md):", examples)):
        if heading and ids:
            echo(heading)
        for ruleset_id in ids:
            try:
                _, title, (low, high) = rulesets.outline(ruleset_id)
            except RulesetError as error:
                echo(f"{ruleset_id:<{width}} (does not load: {error.problems[0]})")
                continue
            echo(f"{ruleset_id:<{width}} {low}-{high} players  {title}")


@rulesets_app.command("show")
def rulesets_show(ruleset: str, option: OptionList = None) -> None:
    """The resolved ruleset (after extends and options) with its options and their defaults."""
    import yaml

    from contack_core.language.documents import find_ruleset, read_document

    rules = load_or_fail(ruleset, parse_options(option))
    marks = read_document(find_ruleset(ruleset)).marks  # loaded above: it reads
    document = dict(rules.document)
    declared = document.pop("options", {}) or {}
    echo(f"# {rules.title} ({rules.id}); resolved from: {' <- '.join(rules.chain)}")
    echo("# options (value / default):")
    for name, spec in declared.items():
        allowed = _allowed(spec)
        default, doc = marks.get(("options", name, "default")), marks.get(("options", name, "doc"))
        # A variant's own default beside its parent's quote of the rule book: said where it was set.
        moved = default is not None and doc is not None and default.file != doc.file
        where = f", set by {Path(default.file).name}:{default.line}" if moved and default else ""
        echo(f"#   {name} = {rules.options[name]}  (default {spec.get('default')}{where}; {allowed})"
                   f"{'  ' + spec['doc'] if spec.get('doc') else ''}")
    echo(yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100))


def _allowed(spec: dict[str, Any]) -> str:
    kind = spec.get("type", "choice")
    if kind == "integer":
        return f"a whole number {spec.get('min', '')}..{spec.get('max', '')}"
    if kind == "boolean":
        return "on/off"
    return "one of " + ", ".join(map(str, spec.get("choices") or {}))


@rulesets_app.command("validate")
def rulesets_validate(
    rulesets: Annotated[list[str], typer.Argument(help="Ruleset files, or shipped ruleset ids.")],
) -> None:
    """Check rulesets: schema, then meaning, under every option value. Exit 0 if all are valid, else 1."""
    from contack_core.language.schema import compile_ruleset_schema
    from contack_core.primitives.builtin import default_registry
    from contack_core.primitives.validation import validate_ruleset

    registry = default_registry()
    quick_schema = compile_ruleset_schema(registry)  # once for them all, as each is loaded under every option
    parsed: dict[Any, Any] = {}
    bad = 0
    for reference in rulesets:
        try:
            is_file = Path(reference).is_file() or reference.endswith((".yaml", ".yml"))
            validate_ruleset(Path(reference) if is_file else reference, registry, quick_schema, parsed)
        except RulesetError as error:
            bad += 1
            for problem in error.problems:
                echo(str(problem), err=True)
            continue
        echo(f"{reference}: valid")
    raise typer.Exit(1 if bad else 0)


@rulesets_app.command("schema")
def rulesets_schema() -> None:
    """Print the JSON Schema of rulesets (built-in and installed primitives)."""
    from contack_core.language.schema import ruleset_schema
    from contack_core.primitives.builtin import default_registry

    echo(json.dumps(ruleset_schema(default_registry()), indent=2))


@rulesets_app.command("primitives")
def rulesets_primitives() -> None:
    """Every rule primitive a ruleset may use: slot, name, parameters and what it does."""
    import inspect

    from contack_core.primitives.builtin import default_registry

    for cls in default_registry():
        params = cls.schema.get("properties", {})
        required = set(cls.schema.get("required", []))
        listed = ", ".join(f"{name}{'' if name in required else '?'}" for name in params)
        echo(f"[{cls.slot}] {cls.name}({listed})")
        for line in inspect.cleandoc(cls.__doc__ or "").splitlines():
            echo(f"    {line}")


@rulesets_app.command("diff")
def rulesets_diff(
    first: str,
    second: str,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="An option for both rulesets, KEY=VALUE.")] = None,
    option_a: Annotated[list[str] | None, typer.Option(
        "--option-a", help="An option for the first ruleset only, KEY=VALUE.")] = None,
    option_b: Annotated[list[str] | None, typer.Option(
        "--option-b", help="An option for the second ruleset only, KEY=VALUE.")] = None,
) -> None:
    """Every key path whose value differs between two resolved rulesets (after extends).

    With options, each side is compared as it is played with them: option patches applied,
    and every option's value compared as ``options.NAME.value``.
    """
    from contack_core.language.documents import find_ruleset, read_document
    from contack_core.language.options import choose_options
    from contack_core.language.problems import RulesetError

    shared = parse_options(option)
    sides = [(first, {**shared, **parse_options(option_a)}), (second, {**shared, **parse_options(option_b)})]
    with_options = bool(option or option_a or option_b)
    documents, labels = [], []
    for reference, chosen in sides:
        try:
            document = read_document(find_ruleset(reference))
            if with_options:
                values = choose_options(document, chosen)
                for name, value in values.items():
                    document.data["options"][name] = {**document.data["options"][name], "value": value}
        except RulesetError as error:
            fail(f"{reference}: {error}")
        documents.append(document.data)
        labels.append(reference + (f" ({', '.join(f'{k}={v}' for k, v in chosen.items())})" if chosen else ""))
    differences = list(diff_documents(documents[0], documents[1]))
    for path, a, b in differences:
        echo(f"{path}:\n  {labels[0]}: {json.dumps(a, ensure_ascii=False)}\n"
                   f"  {labels[1]}: {json.dumps(b, ensure_ascii=False)}")
    if not differences:
        echo("no differences")


_MISSING = object()


def diff_documents(a: object, b: object, path: str = "") -> Iterator[tuple[str, object, object]]:
    """Yield (key path, value in a, value in b) for every difference (None where absent)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            yield from diff_documents(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}.{key}" if path else str(key))
        return
    if a != b:
        yield path, None if a is _MISSING else a, None if b is _MISSING else b


# ------------------------------------------------------------------------------- playing
@app.command("play")
def play(
    ruleset: str,
    seats: Annotated[str, typer.Option(help="Players by seat, comma-separated: random,random,...")],
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffles and the bots.")] = None,
    option: OptionList = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON Lines) here (a new file).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --record replace a file that exists.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the final standings.")] = False,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds a bot may take per move (0: no limit). "
                                                          "A person at the terminal is never timed.")] = 10.0,
    fault: Annotated[str, typer.Option(help="A bot that raises, plays illegally or overruns: 'pass' forfeits "
                                            "the move (as a pass or draw), 'forfeit' the game.")] = "pass",
) -> None:
    """Play one game, narrating it, and optionally record it."""
    from contack_core.engine.bots import MAX_TIME_PER_MOVE, Budget, PlayerSpecError, make_player, split_seats
    from contack_core.engine.referee import FAULT_POLICIES, Observer, play_game, seat_seed
    from contack_core.language.quickschema import INTEGER_LIMIT
    from contack_core.records.format import RecordWriter, header_for
    from contack_core.records.lock import release
    from contack_core.records.narration import Narrator

    if not math.isfinite(time_limit) or time_limit > MAX_TIME_PER_MOVE:
        fail(f"--time-limit takes seconds from 0 (no limit) to {MAX_TIME_PER_MOVE:g}, not {time_limit:g}", 2)
    if seed is not None and abs(seed) > INTEGER_LIMIT:
        fail(f"--seed takes an integer of at most 63 bits (the record keeps it), not {seed}", 2)
    rules = load_or_fail(ruleset, parse_options(option))
    if fault not in FAULT_POLICIES:
        fail(f"--fault takes one of {', '.join(FAULT_POLICIES)}, not {fault!r}", 2)
    specs = split_seats(seats)
    low, high = rules.players
    if not low <= len(specs) <= high:
        fail(f"{rules.id} is {rules.for_players()}; --seats names {len(specs)}")
    players: list[Player] = []
    try:
        for i, spec in enumerate(specs):
            players.append(make_player(spec, seat_seed(seed, i), rules=rules))
    except PlayerSpecError as error:
        _close_all(players)
        fail(f"seat {len(players)}: {error}")
    for i, player in enumerate(players):  # a bot in another process that cannot begin is bad input, not a forfeit
        if (why := player.cannot_start(rules)) is not None:
            _close_all(players)
            fail(f"seat {i}: {why}")
    if any(player.shows_position for player in players):  # a person at the terminal sees the figure drawn
        from contack_core.replay.terminal import state_picture

        for player in players:
            if player.shows_position and player.picture is None:
                player.picture = state_picture
    names = list(specs)
    observers: list[Observer] = [Narrator(names, echo, events=not quiet)]
    stream = None
    if record is not None:
        opened = _open_record(record, force)
        if isinstance(opened, tuple):
            _close_all(players)
            fail(*opened)
        stream = opened
        observers.append(RecordWriter(stream, header_for(rules, names, seed, specs, record)))
    from contack_core.engine.stopping import Stopped, signals_stop

    budget = Budget(time_per_move=time_limit or None)
    try:
        with signals_stop():
            state = play_game(rules, players, seed, observers, budget=budget, fault_policy=fault)
    except (Stopped, KeyboardInterrupt) as stop:
        stopped = stop if isinstance(stop, Stopped) else Stopped(2)
        kept = f"; the record so far is in {record} (it audits as unfinished)" if record is not None else ""
        echo(f"stopped by {stopped.name}: the game was not finished{kept}", err=True)
        raise typer.Exit(stopped.exit_code) from None
    finally:
        _close_all(players)
        if stream is not None and record is not None:
            release(stream, record)
    if record is not None:
        echo(f"record written to {record}" + (" (up to the error)" if state.ruleset_error else ""))
    if state.ruleset_error is not None:
        fail(str(state.ruleset_error))


def _open_record(record: Path, force: bool) -> IO[str] | tuple[str, int]:
    """The new record file, held for this game alone, or why not (the message and exit status): a file
    there already is replaced only with ``--force``, and never while another process writes it."""
    from contack_core.records.lock import RecordInUse, hold

    try:
        stream = record.open("a+" if force else "x", encoding="utf-8")
    except FileExistsError:
        return f"{record} exists already: --force replaces it, or name another --record", 2
    except OSError as error:
        return f"cannot write {record}: {error.strerror}", 1
    try:
        hold(stream, record)
    except RecordInUse as error:
        stream.close()
        return str(error), 1
    stream.seek(0)
    stream.truncate()
    return stream


def _close_all(players: list[Player]) -> None:
    """Close every player; one that fails to close is reported, never a crash."""
    for seat, player in enumerate(players):
        try:
            player.close()
        except Exception as error:  # noqa: BLE001 - a plugin's close failing is reported, not raised
            echo(f"warning: seat {seat} ({player.name}) failed to close: {error}", err=True)


@app.command("audit")
def audit(
    records: Annotated[list[str], typer.Argument(
        help="Record files, directories (every .jsonl file under them) or glob patterns ('games/**/*.jsonl').",
        show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Each verdict as one JSON object a line.")] = False,
    ruleset: Annotated[Path | None, typer.Option(
        help="Audit under this ruleset (a file or a shipped id) instead of the one the header names (a ruleset "
             "that has moved).")] = None,
    workers: Annotated[int | None, typer.Option(
        min=1, show_default=False,
        help="Worker processes (default: one per core for a batch of many records, else none).")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="A record with lines the table agreed to let stand (exceptions) counts as unsound.")] = False,
) -> None:
    """Replay records under their rulesets and check every line.

    Each record named as a file: its verdict. Records found in folders or by patterns: the first bad line of each
    unsound one. Then, for more than one record, the counts.

    Exit 0 if every record is sound (with exceptions: lines the table agreed to let stand, listed), 1 if one
    is unsound (or, with --strict, has exceptions), 2 if one is unreadable or its ruleset cannot be found or
    loaded (the worst wins).
    """
    from contack_core.records.batch import UNREADABLE, audit_all, default_workers, find_records

    for name in records:
        if name.lower() in ("true", "false", "yes", "no", "on", "off") and not Path(name).exists():
            fail(f"no record {name!r}: --json is a flag and takes no value (write --json alone)", 2)
    found = find_records(records)
    named = {str(Path(name)) for name in records if Path(name).is_file()}  # sound ones are listed too
    worst = 0
    counts = {"sound": 0, "finished": 0, "unsound": 0, "unreadable": 0}
    try:
        for result in audit_all(found, workers or default_workers(len(found)), ruleset):
            verdict = result.verdict
            excepted = verdict is not None and verdict.valid and bool(verdict.exceptions)
            worst = max(worst, 1 if strict and excepted else result.code)
            if as_json:
                echo(json.dumps(result.to_json()))
            if verdict is None:
                counts["unreadable"] += 1
                if not as_json:
                    what = "unreadable" if result.cause == "unreadable" else "cannot audit"
                    echo(f"{result.file}: {what}: {result.unreadable}", err=True)
            elif verdict.valid:
                counts["sound"] += 1
                counts["finished"] += verdict.finished
                if not as_json and result.file in named:
                    state = "finished" if verdict.finished else "not finished"
                    echo(f"{result.file}: sound{' with exceptions' if excepted else ''}"
                         f"{', scores only' if verdict.scores_only else ''} ({verdict.ruleset}, {verdict.hands} "
                               f"hand{'s' if verdict.hands != 1 else ''}, {state}; totals {verdict.totals})"
                               + _changed_note(verdict))
                if not as_json and verdict.scores_only and result.file in named:
                    echo("  checked: " + "; ".join(verdict.checked))
                    echo("  not checked: " + "; ".join(verdict.unchecked))
                if not as_json and excepted and (result.file in named or strict):
                    count = len(verdict.exceptions)
                    echo(f"{result.file}: {count} line{'s' if count != 1 else ''} the table agreed to let stand "
                         f"although the rules refuse {'them' if count != 1 else 'it'}:")
                    for exception in verdict.exceptions:
                        echo(f"  line {exception['line']}: {exception['rule']}")
            else:
                counts["unsound"] += 1
                if not as_json:
                    echo(f"{result.file}:{verdict.line}: unsound: {verdict.error}")
                    for n, line in enumerate(verdict.suggestions):
                        echo(f"  {'did you mean' if n == 0 else '          or'}: "
                                   f"{json.dumps(line, ensure_ascii=False)}")
                    for n, line in enumerate(verdict.insertions):
                        echo(f"  {f'or insert before line {verdict.line}' if n == 0 else '          or'}: "
                             f"{json.dumps(line, ensure_ascii=False)}")
    except RuntimeError as error:  # a worker process died: nothing more can be said
        fail(str(error), UNREADABLE)
    if not as_json and len(found) > 1:
        echo(f"{len(found)} records: {counts['sound']} sound ({counts['finished']} finished), "
                   f"{counts['unsound']} unsound, {counts['unreadable']} unreadable")
    raise typer.Exit(worst)


@app.command("keep")
def keep(
    ruleset: Annotated[str | None, typer.Argument(help="The ruleset played (not with --resume).")] = None,
    seats: Annotated[str | None, typer.Option(help="The players' names by seat, comma-separated.")] = None,
    record: Annotated[Path | None, typer.Option(help="The record to write (default: RULESET-DATE-TIME.jsonl).")] = None,
    resume: Annotated[Path | None, typer.Option(help="Carry on this unfinished record.")] = None,
    option: OptionList = None,
    entries: Annotated[Path | None, typer.Option("--input", help="Read the entries from this file, "
                                                                 "not the terminal or a pipe.")] = None,
    web: Annotated[bool, typer.Option("--web", help="Serve the keeper as a page for the phones at the table "
                                                    "(the web extra).")] = False,
    host: Annotated[str, typer.Option(help="With --web: the address to listen on (0.0.0.0: the local "
                                           "network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="With --web: the port (0: a free one, printed).")] = 8765,
    scores_only: Annotated[bool, typer.Option(
        "--scores-only", help="Keep each hand's results only (a line a hand), checked as the rules allow.")] = False,
) -> None:
    """The score keeper: type what happens at a real table; each entry is checked and recorded at once."""
    from contack_core.records.table import keep_command

    if scores_only or (resume is not None and _scores_only_record(resume)):
        raise typer.Exit(_keep_scores(ruleset, seats, record, resume, parse_options(option), entries, web, host, port))

    if web:
        from contack_core.web.command import web_command

        if entries is not None:
            fail("--input reads entries for the terminal keeper; the web table takes them from its page", 2)
        if not 0 <= port <= 65535:
            fail(f"--port takes 0 to 65535, not {port}", 2)
        raise typer.Exit(web_command(ruleset, seats, record, resume, parse_options(option), host, port, echo, fail))
    from contack_core.replay.terminal import state_picture

    raise typer.Exit(keep_command(ruleset, seats, record, resume, parse_options(option), entries, echo, fail,
                                  draw=state_picture))


def _scores_only_record(path: Path) -> bool:
    from contack_core.records.scores_keeper import is_scores_only

    return is_scores_only(path)


def _keep_scores(ruleset: str | None, seats: str | None, record: Path | None, resume: Path | None,
                 options: dict[str, str], entries: Path | None, web: bool, host: str, port: int) -> int:
    """``contack keep --scores-only``: a line a hand, from the terminal, a pipe or a file, or (``web``)
    a form a hand on the web table."""
    from datetime import datetime

    from contack_core.primitives.loading import load_rules
    from contack_core.records.keeper import KeeperError
    from contack_core.records.scores_keeper import keep_scores
    from contack_core.records.table import _reader

    if web and entries is not None:
        fail("--input reads entries for the terminal keeper; the web table takes them from its page", 2)
    if resume is not None and (ruleset is not None or seats is not None or record is not None or options):
        fail("--resume FILE carries on a record as its header says: give no ruleset, --seats, --record or --option "
             "with it", 2)
    if resume is None and (ruleset is None or seats is None):
        fail("give a ruleset and --seats NAME,NAME,... (or --resume FILE)", 2)
    try:
        source = sys.stdin if entries is None else entries.open(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {entries}: {error.strerror or error}", 2)
    interactive = entries is None and sys.stdin.isatty()
    try:
        if resume is not None:
            target: Path | Rules = resume
            names = None
        else:
            assert ruleset is not None and seats is not None
            try:
                target = load_rules(ruleset, options)
            except RulesetError as error:
                fail(str(error))
            names = [name.strip() for name in seats.split(",")]
            record = record or Path(f"{target.id}-{datetime.now():%Y%m%d-%H%M%S}.jsonl")
        if web:
            from contack_core.records.scores_keeper import ScoresKeeper
            from contack_core.web.command import web_scores_command

            def keeper_of() -> ScoresKeeper:
                if isinstance(target, Path):
                    return ScoresKeeper.resume(target)
                assert names is not None and record is not None
                return ScoresKeeper.start(target, names, record)

            return web_scores_command(keeper_of, host, port, echo, fail)
        return keep_scores(target, names, record, _reader(source, interactive, echo), echo, interactive)
    except KeeperError as error:
        fail(str(error), error.code)
    finally:
        if source is not sys.stdin:
            source.close()
    return 0


def _changed_note(verdict: Verdict) -> str:
    """What a sound verdict adds when the ruleset has changed since the record was made."""
    if not verdict.ruleset_changed:
        return ""
    return (f"; but the ruleset has changed since this record was made (its digest was {verdict.recorded_digest}, "
            f"it is {verdict.ruleset_digest} now)")


@app.command("replay")
def replay(
    record: Path,
    svg: Annotated[Path | None, typer.Option(help="Write the figure after event --at N as SVG here.")] = None,
    at: Annotated[int | None, typer.Option(
        help="With --svg: the event to draw after (default: --to's, else the last).")] = None,
    html: Annotated[Path | None, typer.Option(help="Write the whole game as one self-contained HTML page here.")] = None,
    to: Annotated[int | None, typer.Option(help="Print the position after event N and exit (0: before the first).")] = None,
) -> None:
    """Step through a record in the terminal, or draw it as SVG or an HTML page. Exit 1 if it is unsound."""
    from contack_core.replay.cli import replay_command

    replay_command(record, svg=svg, at=at, html=html, to=to, echo=echo, fail=fail)


@app.command("bench")
def bench(
    ruleset: str,
    games: Annotated[int, typer.Option(min=1)] = 200,
    players: Annotated[int, typer.Option(min=1)] = 4,
    seed: int = 1,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    compare: Annotated[Path | None, typer.Option(help="A yardstick script to run on the same games and seats.")] = None,
    audit: Annotated[bool, typer.Option("--audit", help="Also record the games and audit the records: records/s "
                                                        "beside games/s, and their ratios (by the wall clock, and "
                                                        "by time on the processor: audit_ratio_cpu).")] = False,
    clock: Annotated[float | None, typer.Option(help="Also play the games through the referee with --bot in "
                                                     "every seat, without a move clock and with this many "
                                                     "seconds a move: clock_ratio is what the clock leaves of "
                                                     "the speed (wall clock, best rounds; clock_ratio_cpu by "
                                                     "time on the processor).")] = None,
    bot: Annotated[str, typer.Option(help="With --clock: the bot in every seat.")] = "random",
    rounds: Annotated[int, typer.Option(min=1, help="With --compare, --against, --audit or --clock: alternate the "
                                                    "runs this many times; a ratio compares each one's best "
                                                    "round, a ratio_of_totals their total times, a ratio_median "
                                                    "the median of the rounds' ratios.")] = 3,
    against: Annotated[str | None, typer.Option(help="Another ruleset to play in alternate rounds: what an action "
                                                     "costs here over what it costs there (action_cost_ratio_cpu, "
                                                     "the median of the rounds, by time on the processor).")] = None,
    against_players: Annotated[int, typer.Option(min=1, help="With --against: its seats.")] = 4,
) -> None:
    """Random games through the interpreter: games/s, actions/s and the counts behind them."""
    import tempfile
    from statistics import median

    from contack_core.engine.bench import run_bench, run_refereed_bench, run_yardstick
    from contack_core.engine.bots import MAX_TIME_PER_MOVE, Budget, PlayerSpecError, make_player
    from contack_core.primitives.cache import RulesetCache
    from contack_core.records.bench import run_audit_bench, write_records

    rules = load_or_fail(ruleset, parse_options(option))
    low, high = rules.players
    if not low <= players <= high:
        fail(f"{rules.id} is {rules.for_players()}, not {players}")
    other = None if against is None else load_or_fail(against)
    if other is not None and not other.players[0] <= against_players <= other.players[1]:
        fail(f"--against: {other.id} is {other.for_players()}, not {against_players}")
    if compare is not None and not compare.is_file():
        fail(f"no yardstick script at {compare}")
    if clock is not None:
        if not (math.isfinite(clock) and 0 < clock <= MAX_TIME_PER_MOVE):
            fail(f"--clock takes seconds above 0 and at most {MAX_TIME_PER_MOVE:g}, not {clock:g}", 2)
        try:
            make_player(bot, 0, rules=rules).close()
        except PlayerSpecError as error:
            fail(f"--bot: {error}")
    repeated = compare is not None or audit or clock is not None or other is not None
    with tempfile.TemporaryDirectory(prefix="contack-bench-") as folder:
        records = write_records(rules, games, players, seed, Path(folder)) if audit else []
        # Alternate the runs so all see the same machine conditions: the best round of each,
        # and the ratio of their total times over all rounds (steadier on a busy machine).
        plays, yardsticks, audits, free, clocked, others = [], [], [], [], [], []
        rulesets = RulesetCache()
        for _ in range(rounds if repeated else 1):
            plays.append(run_bench(rules, games, players, seed))
            if other is not None:
                others.append(run_bench(other, games, against_players, seed))
            if clock is not None:
                free.append(run_refereed_bench(rules, games, players, seed, bot, Budget()))
                clocked.append(run_refereed_bench(rules, games, players, seed, bot, Budget(time_per_move=clock)))
            if compare is not None:
                yardsticks.append(run_yardstick(compare, games, players))
            if audit:
                try:
                    audits.append(run_audit_bench(records, rulesets))
                except RuntimeError as error:
                    fail(str(error))
    result: dict[str, Any] = {"ruleset": rules.id, **max(plays, key=lambda run: run["games_per_s"])}
    play_seconds = sum(run["seconds"] for run in plays)
    if repeated:
        result["rounds"] = rounds
    if compare is not None:
        result["yardstick_games_per_s"] = max(run["games_per_s"] for run in yardsticks)
        result["ratio"] = round(result["games_per_s"] / result["yardstick_games_per_s"], 3)
        result["ratio_of_totals"] = round(sum(run["seconds"] for run in yardsticks) / play_seconds, 3)
        # Each round's ratio, the two runs side by side in time; their median is steadier than
        # either best round. By time on the processor, what other processes take does not count.
        result["ratio_median"] = round(median(y["seconds"] / p["seconds"] for p, y in zip(plays, yardsticks)), 3)
        if all("cpu_seconds" in run for run in yardsticks):
            result["yardstick_cpu_seconds"] = round(sum(run["cpu_seconds"] for run in yardsticks), 4)
            result["ratio_cpu"] = round(median(y["cpu_seconds"] / p["cpu_seconds"]
                                               for p, y in zip(plays, yardsticks)), 3)
    if other is not None:
        # What an action costs here over what it costs in the other ruleset (bot decisions;
        # a game's set-up and chance outcomes included in what they cost).
        result["against"] = other.id
        result["against_players"] = against_players
        result["cpu_us_per_action"] = round(1e6 * median(p["cpu_seconds"] / p["actions"] for p in plays), 2)
        result["against_cpu_us_per_action"] = round(1e6 * median(o["cpu_seconds"] / o["actions"] for o in others), 2)
        result["action_cost_ratio"] = round(median((p["seconds"] / p["actions"]) / (o["seconds"] / o["actions"])
                                                   for p, o in zip(plays, others)), 3)
        result["action_cost_ratio_cpu"] = round(median((p["cpu_seconds"] / p["actions"])
                                                       / (o["cpu_seconds"] / o["actions"])
                                                       for p, o in zip(plays, others)), 3)
    if audit:
        result.update(max(audits, key=lambda run: run["audit_records_per_s"]))
        result["audit_ratio"] = round(result["audit_records_per_s"] / result["games_per_s"], 3)
        result["audit_ratio_of_totals"] = round(play_seconds / sum(run["audit_seconds"] for run in audits), 3)
        # Time on the processor alone: what other processes take from this one does not count.
        result["audit_ratio_cpu"] = round(sum(run["cpu_seconds"] for run in plays)
                                          / sum(run["audit_cpu_seconds"] for run in audits), 3)
    if clock is not None:
        result["clock_bot"] = bot
        result["clock_seconds_per_move"] = clock
        result["refereed_games_per_s"] = round(max(run["games_per_s"] for run in free), 1)
        result["clocked_games_per_s"] = round(max(run["games_per_s"] for run in clocked), 1)
        result["refereed_cpu_seconds"] = round(sum(run["cpu_seconds"] for run in free), 4)
        result["clocked_cpu_seconds"] = round(sum(run["cpu_seconds"] for run in clocked), 4)
        result["clock_faults"] = sum(run["faults"] for run in clocked)
        result["clock_ratio"] = round(result["clocked_games_per_s"] / result["refereed_games_per_s"], 3)
        result["clock_ratio_of_totals"] = round(sum(run["seconds"] for run in free)
                                                / sum(run["seconds"] for run in clocked), 3)
        result["clock_ratio_cpu"] = round(result["refereed_cpu_seconds"] / result["clocked_cpu_seconds"], 3)
    if as_json:
        echo(json.dumps(result))
    else:
        for key, value in result.items():
            echo(f"{key:>22}: {value}")


@record_app.command("schema")
def record_schema() -> None:
    """Print the JSON Schema of a record's lines (contack-record/1; docs/records.md explains it)."""
    from contack_core.language.schema import shipped_schema

    echo(json.dumps(shipped_schema("record.schema.json"), indent=2, ensure_ascii=False))


# ------------------------------------------------------------------------------- players
def _every_shipped_ruleset() -> list[Rules]:
    """The shipped rulesets and examples that load (a broken one is another command's business)."""
    from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
    from contack_core.language.problems import RulesetError
    from contack_core.primitives.loading import load_rules

    found = []
    for reference in [*shipped_ruleset_ids(), *shipped_example_ids()]:
        try:
            found.append(load_rules(reference))
        except RulesetError:
            continue
    return found


@players_app.command("list")
def players_list() -> None:
    """Installed players: name, package, description, parameters with defaults, rulesets they play."""
    from contack_core.engine.bots import PlayerSpecError, installed_players, load_player_class, rulesets_note

    known = _every_shipped_ruleset()
    for name, entry in sorted(installed_players().items()):
        package = entry.dist.name if entry.dist else "?"
        try:
            cls = load_player_class(name)
        except PlayerSpecError as error:
            echo(f"{name}  (from {package}): cannot be used: {error}")
            continue
        summary = cls.description or ((cls.__doc__ or "").strip().splitlines() or [""])[0]
        echo(f"{name}  (from {package})  {summary}")
        echo(f"    rulesets: {rulesets_note(cls, known)}")
        for parameter in cls.parameters.values():
            echo(f"    {parameter.name}={parameter.default!r:<8} ({parameter.type.__name__}) {parameter.help}")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
