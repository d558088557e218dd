"""The ``contack`` command line (Typer). Bad input is one clear message and a non-zero exit."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import yaml

from contack_core.engine.bots import (
    MAX_TIME_PER_MOVE,
    Budget,
    Player,
    PlayerSpecError,
    installed_players,
    load_player_class,
    make_player,
    split_seats,
)
from contack_core.engine.referee import FAULT_POLICIES, play_game, seat_seed
from contack_core.engine.rules import Rules
from contack_core.language.documents import find_ruleset, read_document, shipped_example_ids, shipped_ruleset_ids
from contack_core.language.options import choose_options
from contack_core.language.problems import RulesetError
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import RulesetUnavailable, Verdict, audit_record
from contack_core.records.format import RecordWriter, UnreadableRecord, header_for
from contack_core.records.narration import Narrator
from tournaments.cli import app as tournament_app

app = typer.Typer(help="Contack: rules-as-data for the Contack family of tile games.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)
rulesets_app = typer.Typer(help="List, show, validate and compare rulesets.", no_args_is_help=True)
players_app = typer.Typer(help="Installed players (bots).", no_args_is_help=True)
record_app = typer.Typer(help="The game record format (contack-record/1).", no_args_is_help=True)
app.add_typer(rulesets_app, name="rulesets")
app.add_typer(players_app, name="players")
app.add_typer(record_app, name="record")
app.add_typer(tournament_app, name="tournament")

OptionList = Annotated[list[str] | None, typer.Option("--option", "-o", help="A ruleset option, KEY=VALUE.")]


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
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
    try:
        return load_rules(reference, options or {})
    except RulesetError as error:
        fail(str(error))


# ------------------------------------------------------------------------------- rulesets
@rulesets_app.command("list")
def rulesets_list() -> None:
    """The shipped rulesets, then the house-rule examples (named ``examples/NAME``): id, players and title."""
    examples = shipped_example_ids()
    width = max(20, *(len(name) + 1 for name in [*shipped_ruleset_ids(), *examples]))
    for heading, ids in (("", shipped_ruleset_ids()), ("\nhouse-rule examples (docs/house-rules.md):", examples)):
        if heading and ids:
            typer.echo(heading)
        for ruleset_id in ids:
            try:
                rules = load_rules(ruleset_id)
            except RulesetError as error:
                typer.echo(f"{ruleset_id:<{width}} (does not load: {error.problems[0]})")
                continue
            low, high = rules.players
            typer.echo(f"{ruleset_id:<{width}} {low}-{high} players  {rules.title}")


@rulesets_app.command("show")
def rulesets_show(ruleset: str, option: OptionList = None) -> None:
    """The resolved ruleset (after extends and options) with its options and their defaults."""
    rules = load_or_fail(ruleset, parse_options(option))
    document = dict(rules.document)
    declared = document.pop("options", {}) or {}
    typer.echo(f"# {rules.title} ({rules.id}); resolved from: {' <- '.join(rules.chain)}")
    typer.echo("# options (value / default):")
    for name, spec in declared.items():
        allowed = _allowed(spec)
        typer.echo(f"#   {name} = {rules.options[name]}  (default {spec.get('default')}; {allowed})"
                   f"{'  ' + spec['doc'] if spec.get('doc') else ''}")
    typer.echo(yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100))


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
    """Check rulesets: schema, then meaning. Exit 0 if all are valid, else 1."""
    bad = 0
    for reference in rulesets:
        try:
            is_file = Path(reference).is_file() or reference.endswith((".yaml", ".yml"))
            load_rules(Path(reference) if is_file else reference)
        except RulesetError as error:
            bad += 1
            for problem in error.problems:
                typer.echo(str(problem), err=True)
            continue
        typer.echo(f"{reference}: valid")
    raise typer.Exit(1 if bad else 0)


@rulesets_app.command("schema")
def rulesets_schema() -> None:
    """Print the JSON Schema of rulesets (built-in and installed primitives)."""
    from contack_core.language.schema import ruleset_schema
    from contack_core.primitives.builtin import default_registry

    typer.echo(json.dumps(ruleset_schema(default_registry()), indent=2))


@rulesets_app.command("primitives")
def rulesets_primitives() -> None:
    """Every rule primitive a ruleset may use: slot, name, parameters and what it does."""
    import inspect

    from contack_core.primitives.builtin import default_registry

    for cls in default_registry():
        params = cls.schema.get("properties", {})
        required = set(cls.schema.get("required", []))
        listed = ", ".join(f"{name}{'' if name in required else '?'}" for name in params)
        typer.echo(f"[{cls.slot}] {cls.name}({listed})")
        for line in inspect.cleandoc(cls.__doc__ or "").splitlines():
            typer.echo(f"    {line}")


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
        typer.echo(f"{path}:\n  {labels[0]}: {json.dumps(a, ensure_ascii=False)}\n"
                   f"  {labels[1]}: {json.dumps(b, ensure_ascii=False)}")
    if not differences:
        typer.echo("no differences")


_MISSING = object()


def diff_documents(a: Any, b: Any, path: str = "") -> Any:
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
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON Lines) here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the final standings.")] = False,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds a bot may take per move (0: no limit). "
                                                          "A person at the terminal is never timed.")] = 10.0,
    fault: Annotated[str, typer.Option(help="A bot that raises, plays illegally or overruns: 'pass' forfeits "
                                            "the move (as a pass or draw), 'forfeit' the game.")] = "pass",
) -> None:
    """Play one game, narrating it, and optionally record it."""
    if not math.isfinite(time_limit) or time_limit > MAX_TIME_PER_MOVE:
        fail(f"--time-limit takes seconds from 0 (no limit) to {MAX_TIME_PER_MOVE:g}, not {time_limit:g}", 2)
    rules = load_or_fail(ruleset, parse_options(option))
    if fault not in FAULT_POLICIES:
        fail(f"--fault takes one of {', '.join(FAULT_POLICIES)}, not {fault!r}", 2)
    specs = split_seats(seats)
    low, high = rules.players
    if not low <= len(specs) <= high:
        fail(f"{rules.id} is for {low} to {high} players; --seats names {len(specs)}")
    players: list[Player] = []
    try:
        for i, spec in enumerate(specs):
            players.append(make_player(spec, seat_seed(seed, i), rules=rules))
    except PlayerSpecError as error:
        _close_all(players)
        fail(f"seat {len(players)}: {error}")
    names = list(specs)
    observers: list[Any] = [Narrator(names, typer.echo, events=not quiet)]
    stream = None
    if record is not None:
        try:
            stream = record.open("w", encoding="utf-8")
        except OSError as error:
            fail(f"cannot write {record}: {error.strerror}")
        observers.append(RecordWriter(stream, header_for(rules, names, seed, specs, record)))
    from contack_core.engine.stopping import Stopped, signals_stop

    budget = Budget(time_per_move=time_limit or None)
    try:
        with signals_stop():
            state = play_game(rules, players, seed, observers, budget=budget, fault_policy=fault)
    except (Stopped, KeyboardInterrupt) as stop:
        stopped = stop if isinstance(stop, Stopped) else Stopped(2)
        kept = f"; the record so far is in {record} (it audits as unfinished)" if record is not None else ""
        typer.echo(f"stopped by {stopped.name}: the game was not finished{kept}", err=True)
        raise typer.Exit(stopped.exit_code) from None
    finally:
        _close_all(players)
        if stream is not None:
            stream.close()
    if record is not None:
        typer.echo(f"record written to {record}" + (" (up to the error)" if state.ruleset_error else ""))
    if state.ruleset_error is not None:
        fail(str(state.ruleset_error))


def _close_all(players: list[Player]) -> None:
    """Close every player; one that fails to close is reported, never a crash."""
    for seat, player in enumerate(players):
        try:
            player.close()
        except Exception as error:  # noqa: BLE001 - a plugin's close failing is reported, not raised
            typer.echo(f"warning: seat {seat} ({player.name}) failed to close: {error}", err=True)


@app.command("audit")
def audit(
    records: list[Path],
    as_json: Annotated[bool, typer.Option("--json", help="Print each verdict as one JSON object.")] = False,
    ruleset: Annotated[Path | None, typer.Option(
        help="Audit under this ruleset file instead of the one the header names (a ruleset that has moved).")] = None,
) -> None:
    """Replay records under their rulesets and check every line. Exit 0 sound, 1 unsound, 2 unreadable
    (or its ruleset cannot be found or loaded)."""
    worst = 0
    for path in records:
        try:
            verdict = audit_record(path, ruleset)
        except RulesetUnavailable as error:
            worst = 2
            if as_json:
                typer.echo(json.dumps({"file": str(path), "valid": False, "line": None, "error": str(error),
                                       "finished": False, "ruleset_unavailable": True}))
            else:
                typer.echo(f"{path}: cannot audit: {error}", err=True)
            continue
        except UnreadableRecord as error:
            worst = 2
            if as_json:
                typer.echo(json.dumps({"file": str(path), "valid": False, "line": None, "error": str(error),
                                       "finished": False, "unreadable": True}))
            else:
                typer.echo(f"{path}: unreadable: {error}", err=True)
            continue
        if not verdict.valid:
            worst = max(worst, 1)
        if as_json:
            typer.echo(json.dumps({"file": str(path), **verdict.to_json()}))
        elif verdict.valid:
            state = "finished" if verdict.finished else "not finished"
            typer.echo(f"{path}: sound ({verdict.ruleset}, {verdict.hands} hand{'s' if verdict.hands != 1 else ''}, "
                       f"{state}; totals {verdict.totals})" + _changed_note(verdict))
        else:
            typer.echo(f"{path}:{verdict.line}: unsound: {verdict.error}")
            for n, line in enumerate(verdict.suggestions):
                typer.echo(f"  {'did you mean' if n == 0 else '          or'}: {json.dumps(line, ensure_ascii=False)}")
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
) -> None:
    """The score keeper: type what happens at a real table; each entry is checked and recorded at once."""
    from contack_core.records.table import keep_command

    raise typer.Exit(keep_command(ruleset, seats, record, resume, parse_options(option), entries, typer.echo, fail))


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
    at: Annotated[int | None, typer.Option(help="With --svg: the event to draw after (default: the last).")] = None,
    html: Annotated[Path | None, typer.Option(help="Write the whole game as one self-contained HTML page here.")] = None,
    to: Annotated[int | None, typer.Option(help="Print the position after event N and exit (0: before the first).")] = None,
) -> None:
    """Step through a record in the terminal, or draw it as SVG or an HTML page. Exit 1 if it is unsound."""
    from contack_core.replay.cli import replay_command

    replay_command(record, svg=svg, at=at, html=html, to=to, echo=typer.echo, fail=fail)


@app.command("bench")
def bench(
    ruleset: str,
    games: Annotated[int, typer.Option(min=1)] = 200,
    players: Annotated[int, typer.Option(min=1)] = 4,
    seed: int = 1,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    compare: Annotated[Path | None, typer.Option(help="A yardstick script to run on the same games and seats.")] = None,
    rounds: Annotated[int, typer.Option(min=1, help="With --compare: alternate both engines this many times; "
                                                    "ratio compares each one's best round, ratio_of_totals "
                                                    "their total times.")] = 3,
) -> None:
    """Random games through the interpreter: games/s, actions/s and the counts behind them."""
    from contack_core.engine.bench import run_bench, run_yardstick

    rules = load_or_fail(ruleset, parse_options(option))
    low, high = rules.players
    if not low <= players <= high:
        fail(f"{rules.id} is for {low} to {high} players, not {players}")
    if compare is not None and not compare.is_file():
        fail(f"no yardstick script at {compare}")
    result: dict[str, Any] = {"ruleset": rules.id, **run_bench(rules, games, players, seed)}
    if compare is not None:
        # Alternate the two so both see the same machine conditions: the best round of each,
        # and the ratio of their total times over all rounds (steadier on a busy machine).
        measured = run_yardstick(compare, games, players)
        yardstick, ours_seconds, yardstick_seconds = measured["games_per_s"], result["seconds"], measured["seconds"]
        for _ in range(rounds - 1):
            again = run_bench(rules, games, players, seed)
            ours_seconds += again["seconds"]
            if again["games_per_s"] > result["games_per_s"]:
                result.update(again)
            measured = run_yardstick(compare, games, players)
            yardstick = max(yardstick, measured["games_per_s"])
            yardstick_seconds += measured["seconds"]
        result["rounds"] = rounds
        result["yardstick_games_per_s"] = yardstick
        result["ratio"] = round(result["games_per_s"] / yardstick, 3)
        result["ratio_of_totals"] = round(yardstick_seconds / ours_seconds, 3)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        for key, value in result.items():
            typer.echo(f"{key:>22}: {value}")


@record_app.command("schema")
def record_schema() -> None:
    """Print the JSON Schema of a record's lines (contack-record/1; docs/records.md explains it)."""
    from contack_core.language.schema import shipped_schema

    typer.echo(json.dumps(shipped_schema("record.schema.json"), indent=2, ensure_ascii=False))


# ------------------------------------------------------------------------------- players
@players_app.command("list")
def players_list() -> None:
    """Installed players: name, package, description, parameters with defaults, rulesets supported."""
    for name, entry in sorted(installed_players().items()):
        package = entry.dist.name if entry.dist else "?"
        try:
            cls = load_player_class(name)
        except PlayerSpecError as error:
            typer.echo(f"{name}  (from {package}): cannot be used: {error}")
            continue
        summary = cls.description or ((cls.__doc__ or "").strip().splitlines() or [""])[0]
        typer.echo(f"{name}  (from {package})  {summary}")
        supports = "every ruleset" if cls.supports is None else \
            ", ".join(sorted(cls.supports)) + " and the rulesets that extend them"
        typer.echo(f"    rulesets: {supports}")
        for parameter in cls.parameters.values():
            typer.echo(f"    {parameter.name}={parameter.default!r:<8} ({parameter.type.__name__}) {parameter.help}")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
