"""A tournament's configuration: YAML, checked by a JSON Schema, errors with file:line:column.

The YAML is parsed with the ruleset loader's position-keeping parser, so every problem
names the file, line and column of the key at fault. What the schema cannot say (unique
entrant names, a ruleset that loads, installed bots, table sizes the ruleset allows) is
checked after it, with the same kind of message. The checked config is an attrs value;
its :meth:`TournamentConfig.fingerprint_document` is what a results database is tied to.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import jsonschema

from contack_core.engine.bots import EXEC, MAX_TIME_PER_MOVE, Budget, PlayerSpecError
from contack_core.language.documents import parse_yaml
from contack_core.language.problems import KeyPath, Mark, Problem, RulesetError, format_path
from contack_core.language.schema import schema_message
from tournaments.schedule import Table, games_per_deal

#: The most games a config's schedule may hold: a run keeps the keys of its finished games
#: in memory and a schedule of millions would take hours at best. A run can grow later.
MAX_GAMES = 1_000_000
#: Seconds an external bot has, while a config is checked, to start and say which rulesets it plays.
START_CHECK_TIME = 10.0

CONFIG_FORMAT = "contack-tournament/1"

#: Names that stand for a config shipped in this package (``contack tournament run demo``).
SHIPPED_CONFIGS = {"demo": "demo.yaml", "solitaire-1": "solitaire-1.yaml", "solitaire-2": "solitaire-2.yaml"}

#: ``(?!\n)``: Python's ``$`` (which jsonschema uses) also matches before a last line feed.
#: A ``description`` is what an error says was expected (:func:`contack_core.language.schema.schema_message`).
_NAME = {"type": "string", "minLength": 1, "maxLength": 40, "pattern": r"^[A-Za-z0-9][A-Za-z0-9_.+-]*(?!\n)$",
         "description": "a name of 1 to 40 letters, digits and _.+-"}
_SCALAR = {"type": ["string", "number", "integer", "boolean"],
           "description": "one value: text, a number, true or false"}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "contack tournament",
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "name", "ruleset", "entrants", "seats", "deals"],
    "properties": {
        "format": {"const": CONFIG_FORMAT},
        "name": _NAME,
        "ruleset": {"type": "string", "minLength": 1,
                    "description": "a shipped ruleset id, or a YAML path relative to this config"},
        "options": {"type": "object", "additionalProperties": _SCALAR},
        "entrants": {
            "type": "array", "minItems": 1,
            "items": {
                "type": "object", "additionalProperties": False, "required": ["name", "player"],
                "properties": {
                    "name": _NAME,
                    "player": {"type": "string", "minLength": 1, "pattern": r"^[^:,=\s]+$"},
                    "params": {"type": "object", "additionalProperties": _SCALAR},
                },
            },
        },
        "seats": {
            "description": "a table size 1-7 (1: a solitaire), or a list of them, each played",
            "oneOf": [
                {"type": "integer", "minimum": 1, "maximum": 7},
                {"type": "array", "minItems": 1, "uniqueItems": True,
                 "items": {"type": "integer", "minimum": 1, "maximum": 7}},
            ],
        },
        "deals": {"type": "integer", "minimum": 1, "maximum": 1_000_000,  # each replayed once per seat rotation
                  "description": "a whole number of deals per meeting (1 to 1,000,000)"},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**62},
        "budget": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "time_per_move": {"type": ["number", "null"], "exclusiveMinimum": 0, "maximum": MAX_TIME_PER_MOVE,
                                  "description": f"a number of seconds above 0 and at most {MAX_TIME_PER_MOVE:g} "
                                                 f"(null for no limit)"},
                "iterations": {"type": ["integer", "null"], "minimum": 1, "maximum": 10**12},
            },
        },
        "fault_policy": {"enum": ["pass", "forfeit"]},
        "output": {"type": "string", "minLength": 1,
                   "description": "a results folder (a relative path starts in the working directory)"},
    },
}


class ConfigError(ValueError):
    """A tournament config that cannot be used; ``problems`` lists every reason found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@attrs.frozen
class Entrant:
    """One competitor: a display name, the bot behind it and the bot's parameters."""

    name: str
    player: str
    params: Mapping[str, Any] = attrs.field(factory=dict)

    def spec(self) -> str:
        """The seat specification ``make_player`` reads: ``mcts:iterations=400``, ``exec:python3 bot.py``."""
        if self.player == EXEC:
            return f"{EXEC}:{self.params.get('command', '')}"
        if not self.params:
            return self.player
        return self.player + ":" + ",".join(f"{key}={_spec_value(value)}" for key, value in self.params.items())


def _spec_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@attrs.frozen
class TournamentConfig:
    """A checked tournament configuration."""

    name: str
    ruleset: str  # a shipped id, or an absolute path to a ruleset file
    options: Mapping[str, Any]
    entrants: tuple[Entrant, ...]
    seats: tuple[int, ...]
    deals: int
    seed: int
    budget: Budget
    fault_policy: str
    output: Path
    source: str  # where the config came from, for messages
    #: The config's folder: where external (exec:) bots run, so their relative paths start there.
    workdir: str | None = None
    #: The tables of each size, when the tournament names them (an analysis does); None: every
    #: combination of the entrants meets (a config file's round robin).
    tables: Mapping[int, tuple[Table, ...]] | None = None
    #: Measure every game as it is played (an analysis: :mod:`tournaments.analysis.measure`).
    measure: bool = False
    #: The first decisions of every game drawn at random, seeded by the deal (an analysis of a game
    #: without chance: :class:`tournaments.play.OpeningPlayer`).
    opening: int = 0

    def fingerprint_document(self, ruleset_digest: str) -> dict[str, Any]:
        """Everything that decides the games' results; the output place and the source are not."""
        named: dict[str, Any] = {} if self.tables is None else {
            "tables": {str(size): [table.to_json() for table in tables] for size, tables in self.tables.items()}}
        if self.measure:
            named["measure"] = True
        if self.opening:
            named["opening"] = self.opening
        return {**named,
            "name": self.name,
            "ruleset": self.ruleset,
            "ruleset_digest": ruleset_digest,
            "options": dict(self.options),
            "entrants": [{"name": e.name, "player": e.player, "params": dict(e.params)} for e in self.entrants],
            "seats": list(self.seats),
            "deals": self.deals,
            "seed": self.seed,
            "budget": attrs.asdict(self.budget),
            "fault_policy": self.fault_policy,
        }


def fingerprint(document: Mapping[str, Any]) -> str:
    blob = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()


def differences(old: Any, new: Any, path: str = "") -> Iterator[str]:
    """Human-readable lines ``key.path: old -> new`` for every leaf that differs."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in list(old) + [k for k in new if k not in old]:
            yield from differences(old.get(key), new.get(key), f"{path}.{key}" if path else str(key))
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new)):
            yield from differences(a, b, f"{path}.{index}" if path else str(index))
        return
    if old != new:
        yield f"{path or '(top)'}: {json.dumps(old)} -> {json.dumps(new)}"


# --------------------------------------------------------------------------- loading
def find_config(reference: str) -> tuple[str, Path | None]:
    """The YAML text and file of a config: a path, or the name of a shipped config."""
    path = Path(reference)
    if not path.is_file() and reference in SHIPPED_CONFIGS:
        text = (resources.files("tournaments") / SHIPPED_CONFIGS[reference]).read_text(encoding="utf-8")
        return text, None
    try:
        return path.read_text(encoding="utf-8"), path
    except OSError as error:
        shipped = ", ".join(SHIPPED_CONFIGS)
        raise ConfigError([Problem(f"cannot read {reference}: {error.strerror or error} "
                                   f"(shipped configs: {shipped})")]) from None
    except UnicodeDecodeError:
        raise ConfigError([Problem(f"{reference} is not UTF-8 text")]) from None


def load_config(reference: str) -> TournamentConfig:
    """Read, validate and check a tournament config (a file, or a shipped name like ``demo``)."""
    text, path = find_config(reference)
    source = str(path) if path is not None else f"<shipped {reference}>"
    return parse_config(text, source, path.resolve().parent if path is not None else None)


def parse_config(text: str, source: str, base: Path | None) -> TournamentConfig:
    """Check a config's text; ``base`` is the folder relative ruleset paths start from."""
    try:
        data, marks = parse_yaml(text, source)
    except RulesetError as error:
        raise ConfigError(error.problems) from None

    def problem(message: str, path: KeyPath) -> Problem:
        for end in range(len(path), -1, -1):
            mark = marks.get(path[:end])
            if mark is not None:
                return Problem(message, path, mark)
        return Problem(message, path, Mark(source, 1, 1))

    if not isinstance(data, dict):
        raise ConfigError([problem("a tournament config is a YAML mapping of keys to values", ())])
    schema_problems = []
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for violation in validator.iter_errors(data):
        path = tuple(violation.absolute_path)
        if violation.validator == "additionalProperties" and isinstance(violation.instance, dict):
            allowed = (violation.schema.get("properties") or {}).keys()
            extra = [key for key in violation.instance if key not in allowed]
            if extra:  # at the unexpected key itself, not at the mapping that holds it
                path = (*path, extra[0])
        if violation.validator == "oneOf" and path == ("seats",):
            message = f"seats is a table size 1-7 or a list of them, not {json.dumps(violation.instance)}"
        elif violation.validator == "pattern" and path and path[-1] == "name":
            message = f"{json.dumps(violation.instance)} is not a name: letters, digits and _.+- only"
        elif violation.validator == "pattern" and path and path[-1] == "player":
            if str(violation.instance).startswith(EXEC + ":"):
                message = (f"{json.dumps(violation.instance)}: an external bot is written "
                           f'player: exec, params: {{command: "{str(violation.instance)[len(EXEC) + 1:].strip()}"}}')
            else:
                message = f"{json.dumps(violation.instance)}: name the bot alone; its parameters go under params"
        else:  # worded as a ruleset's schema errors are
            message = schema_message(violation, None, path)
        schema_problems.append(problem(message, path))
    if schema_problems:
        raise ConfigError(_in_line_order(schema_problems))
    return _check_meaning(data, source, base, problem)


def _check_meaning(data: dict[str, Any], source: str, base: Path | None, problem: Any) -> TournamentConfig:
    from contack_core.engine.bots import installed_players, make_player
    from contack_core.language.documents import shipped_example
    from contack_core.primitives.loading import load_rules

    problems: list[Problem] = []
    entrants = tuple(Entrant(e["name"], e["player"], dict(e.get("params") or {})) for e in data["entrants"])
    seen: dict[str, int] = {}
    for index, entrant in enumerate(entrants):
        if entrant.name in seen:
            problems.append(problem(f"entrant name {entrant.name!r} is already used by entrant {seen[entrant.name]}",
                                    ("entrants", index, "name")))
        seen.setdefault(entrant.name, index)
    ruleset = data["ruleset"]
    if (ruleset.endswith((".yaml", ".yml")) or "/" in ruleset) and shipped_example(ruleset) is None:
        ruleset = str(((base or Path.cwd()) / ruleset).resolve())
    options = dict(data.get("options") or {})
    seats = tuple(sorted(data["seats"] if isinstance(data["seats"], list) else [data["seats"]]))
    rules = None
    try:
        rules = load_rules(ruleset, options)
    except RulesetError as error:  # an option chosen here is blamed at its own key, the rest at ruleset
        problems.extend(problem(p.message, ("options", p.chosen)) if p.chosen is not None else
                        problem(p.message if p.mark is None else f"in the ruleset: {p}", ("ruleset",))
                        for p in error.problems)
    else:
        low, high = rules.players
        for size in seats:
            if not low <= size <= high:
                problems.append(problem(f"{rules.id} is {rules.for_players()}, not tables of {size}",
                                        ("seats",)))
    available = installed_players()
    workdir = str(base) if base is not None else None
    for index, entrant in enumerate(entrants):
        if entrant.player == EXEC:
            problems.extend(problem(message, ("entrants", index, *where))
                            for message, where in _exec_problems(entrant, rules, workdir))
            continue
        try:  # with the rules, so a bot that does not play them is refused here, not in every game
            player = make_player(entrant.spec(), 0, available, rules)
        except PlayerSpecError as error:
            problems.append(problem(str(error), ("entrants", index)))
        except Exception as error:  # a bot whose constructor crashes is bad input too
            problems.append(problem(f"player {entrant.player!r} cannot be built: {error!r}", ("entrants", index)))
        else:
            getattr(player, "close", lambda: None)()
    for size in seats:
        if size > len(entrants):
            problems.append(problem(f"tables of {size} need at least {size} entrants; there are {len(entrants)}",
                                    ("seats",)))
    if len(entrants) < 2:
        problems.append(problem("a tournament needs at least two entrants", ("entrants",)))
    per_deal = games_per_deal(len(entrants), seats)
    if per_deal * data["deals"] > MAX_GAMES:
        problems.append(problem(f"the schedule would hold {per_deal * data['deals']:,} games ({per_deal:,} a deal "
                                f"x {data['deals']:,} deals), more than the {MAX_GAMES:,} a run may hold: use "
                                f"fewer deals, entrants or table sizes (a finished run can grow later)", ("deals",)))
    budget_data = data.get("budget") or {}
    budget = Budget()
    for key in ("time_per_move", "iterations"):
        try:
            budget = attrs.evolve(budget, **{key: budget_data.get(key)})
        except ValueError as error:
            problems.append(problem(str(error), ("budget", key)))
    if problems:
        raise ConfigError(_in_line_order(problems))
    return TournamentConfig(
        name=data["name"], ruleset=ruleset, options=options, entrants=entrants, seats=seats,
        deals=data["deals"], seed=data.get("seed", 0), budget=budget,
        fault_policy=data.get("fault_policy", "pass"),
        output=Path(data.get("output", f"tournament-{data['name']}")), source=source, workdir=workdir,
    )


def _in_line_order(problems: list[Problem]) -> list[Problem]:
    """Problems as the file is read, top to bottom (those without a place first); one place's in the order found."""
    return sorted(problems, key=lambda p: (p.mark.line, p.mark.column) if p.mark is not None else (0, 0))


def _exec_problems(entrant: Entrant, rules: Any, workdir: str | None) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """What is wrong with an external bot entrant: its params, its command, or its handshake.

    The program is started once and asked which rulesets it plays, so a bot that cannot
    start or does not play this ruleset is refused here, not forfeited in every game.
    """
    from players.external import BotFailure, ExternalPlayer

    unknown = sorted(set(entrant.params) - {"command"})
    if unknown:
        yield (f"an exec entrant takes one parameter, command, not {', '.join(unknown)} (its time limit is the "
               f"tournament's budget)", ("params", unknown[0]))
    command = entrant.params.get("command")
    if not isinstance(command, str) or not command.strip():
        yield 'an exec entrant needs params: {command: "python3 my_bot.py"} (run in the config\'s folder)', ()
        return
    try:
        player = ExternalPlayer(seed=0, command=command, cwd=workdir, start_time=START_CHECK_TIME)
    except PlayerSpecError as error:
        yield f"{error} (relative paths start in {workdir or 'the current folder'})", ("params", "command")
        return
    try:
        player.connect()
        if rules is not None and not player.supports_ruleset(rules):
            listed = ", ".join((player.hello or {}).get("rulesets") or []) or "nothing"
            # The entrant by the config's name, which the file's reader knows; the program by its own.
            yield (f"entrant {entrant.name!r}, {player.label}, does not play {rules.id} (its handshake lists: "
                   f"{listed})", ("params", "command"))
    except BotFailure as error:
        yield f"entrant {entrant.name!r} did not start: {error.reason}", ("params", "command")
    finally:
        player.close()


__all__ = ["CONFIG_FORMAT", "SCHEMA", "Budget", "ConfigError", "Entrant", "TournamentConfig", "differences",
           "fingerprint", "format_path", "load_config", "parse_config"]
