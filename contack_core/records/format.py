"""Game records, ``contack-record/1``: JSON Lines, a header then one event per line.

:class:`RecordWriter` is a game observer that writes each line as it happens (flushed, so
a record of an interrupted game is sound as far as it goes). :func:`read_record` parses
a file into numbered lines, checking each against the shipped JSON Schema
(:class:`RecordSchema`, compiled once for a run that reads many records).

A record is JSON Lines: lines end at ``\n`` alone (a ``\r`` before it is JSON whitespace;
a U+2028 or a form feed is a character like any other), blank lines (spaces, tabs, ``\r``)
are skipped, and every integer fits 64 bits (no field holds a float). A line
holds at most :data:`MAX_LINE_BYTES` and a record :data:`MAX_RECORD_BYTES`, so reading
``/dev/zero`` ends with a message, not with the memory.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple, NoReturn

import orjson

from contack_core.engine.events import Event, HandResult
from contack_core.engine.notation import event_to_record, hand_end_record
from contack_core.engine.referee import Fault
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from contack_core.language.quickschema import INTEGER_LIMIT, compile_schema, strict_integer
from contack_core.language.schema import shipped_schema

RECORD_FORMAT = "contack-record/1"


class UnreadableRecord(ValueError):
    """A file that is not a contack record at all (missing, not text, no header)."""


class RecordLine(NamedTuple):
    """One line of a record: its number in the file (from 1), and its object or fault.
    (A named tuple: the reader makes one for every line of every record it reads.)"""

    number: int
    data: dict[str, Any] | None
    fault: str | None = None


class RecordWriter:
    """Writes a game's record as it is played (a :class:`contack_core.engine.referee.Observer`)."""

    def __init__(self, stream: IO[str], header: dict[str, Any]) -> None:
        self.stream = stream
        self._write({"record": RECORD_FORMAT, **header})

    def _write(self, data: dict[str, Any]) -> None:
        self.stream.write(json.dumps(data, ensure_ascii=False) + "\n")
        self.stream.flush()

    def hand_started(self, state: GameState, number: int) -> None:
        self._write({"event": "hand", "number": number})

    def event(self, state: GameState, event: Event) -> None:
        line = event_to_record(state, event)
        if line is not None:
            self._write(line)

    def hand_ended(self, state: GameState, result: HandResult) -> None:
        self._write(hand_end_record(result))

    def fault(self, state: GameState, fault: Fault) -> None:
        """A player's fault (:class:`contack_core.engine.referee.Fault`): the audit reads past it."""
        self._write({"event": "fault", "seat": fault.seat, "reason": fault.reason, "kind": fault.kind,
                     "penalty": fault.penalty})

    def game_ended(self, state: GameState) -> None:
        if not state.over:  # a forfeited game stops short: the record ends with the fault line
            return
        self._write(game_end_line(state))


def game_end_line(state: GameState) -> dict[str, Any]:
    """The ``game_end`` object: totals, winners, and the teams where partners pool scores."""
    line: dict[str, Any] = {"event": "game_end", "totals": state.scores(), "winners": state.winners()}
    match = state.rules.match
    teams = match.teams(state.seat_count)
    if any(len(team) > 1 for team in teams):
        line["teams"] = teams
        line["team_totals"] = match.team_totals(state)
    return line


def seat_labels(seats: list[str]) -> tuple[str, ...]:
    """The seats' names told apart: a name several seats share (one bot in several seats) is
    numbered in seat order, ``random#1``, ``random#2``; a name of its own stays as it is."""
    names = [str(name) for name in seats]
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        if names.count(name) > 1:
            seen[name] = seen.get(name, 0) + 1
            labels.append(f"{name}#{seen[name]}")
        else:
            labels.append(name)
    return tuple(labels)


def header_for(rules: Rules, seats: list[str], seed: int | None, players: list[str] | None = None,
               record_path: Path | None = None) -> dict[str, Any]:
    """A record header; a ruleset loaded from a file is named by its path relative to the record."""
    from contack_core.engine import __version__

    ruleset = rules.id
    if rules.origin is not None:
        base = record_path.resolve().parent if record_path else Path.cwd()
        ruleset = os.path.relpath(rules.origin, base)
    header: dict[str, Any] = {"ruleset": ruleset, "options": rules.options, "seats": seats}
    if seed is not None:
        header["seed"] = seed
    if players is not None:
        header["players"] = players
    header["turn_cap"] = rules.turn_cap  # where play stops a game the ruleset does not end
    header["engine"] = f"contack {__version__}"
    header["ruleset_digest"] = rules.digest()
    return header


#: The kinds of line a record may hold, each a definition in record.schema.json.
LINE_KINDS = ("header", "hand", "deal", "play", "draw", "discard", "pass", "move", "house", "chips", "hand_end",
              "game_end", "fault")
_EVENT_KINDS = frozenset(LINE_KINDS[1:])

#: The most a record's line may hold (a header or a deal takes well under a kilobyte).
MAX_LINE_BYTES = 1 << 20
#: The most a record may hold (Klauber's longest games take under a megabyte).
MAX_RECORD_BYTES = 64 << 20
_BLANK = b" \t\r"  # JSON's whitespace, but for the \n that ends the line
_BLANK_TEXT = " \t\r"


class RecordSchema:
    """The record's JSON Schema, compiled once: a line the compiled check accepts is valid;
    a line it refuses is put to jsonschema (imported then), whose first error, by key path,
    is the message. Integers are strict (:func:`contack_core.language.quickschema.strict_integer`):
    a float, or an integer no 64-bit field holds, is not an integer. A run that reads many
    records keeps one (it holds no state of a record).
    """

    def __init__(self) -> None:
        self.schema = shipped_schema("record.schema.json")
        self.checks = compile_schema(self.schema, strict_integers=True).definitions
        self.event_checks = {kind: check for kind, check in self.checks.items() if kind in _EVENT_KINDS}
        self._explainers: dict[str, Any] = {}

    def fault(self, kind: str, data: object) -> str | None:
        """None if ``data`` is a valid ``kind`` line, else what is wrong with it."""
        if self.checks[kind](data):
            return None
        return self._explain(kind, data)

    def _explain(self, kind: str, data: object) -> str | None:
        validator = self._explainers.get(kind)
        if validator is None:
            import jsonschema  # only for a line the compiled check refused: the import costs more than a record

            types = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _, v: strict_integer(v))
            strict = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=types)
            validator = self._explainers[kind] = strict({**self.schema, "$ref": f"#/$defs/{kind}"})
        errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
        if not errors:
            return None
        error = errors[0]
        where = ".".join(str(p) for p in error.absolute_path)
        message = error.message
        if error.validator == "maxLength" and isinstance(error.instance, str):
            message = f"a name of {len(error.instance):,} characters is too long (at most {error.validator_value})"
        elif error.validator == "type" and isinstance(error.instance, int) and not isinstance(error.instance, bool):
            digits = len(str(abs(error.instance)))
            shown = str(error.instance) if digits <= 24 else f"a {digits}-digit integer"
            message = f"{shown} is too large for any field (at most {INTEGER_LIMIT} either way)"
        return f"{kind} {where + ': ' if where else ''}{message}"


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


class _DuplicateKey(ValueError):
    """An object that names a key twice: which value is meant is not for a reader to guess."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                break
            seen.add(key)
        raise _DuplicateKey(f"the key {json.dumps(key, ensure_ascii=False)} appears twice in one object")
    return found


#: JSON as the standard has it: Python's NaN, Infinity and -Infinity are refused; and, as
#: RFC 8259 leaves to the reader, an object naming a key twice is refused.
_STRICT_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)


def _parse(text: str) -> tuple[Any, str | None]:
    """A line's value, or what stops it being one."""
    try:
        return _STRICT_DECODER.decode(text), None
    except json.JSONDecodeError as error:
        return None, f"not JSON: {error.msg} at column {error.colno}"
    except _DuplicateKey as error:
        return None, str(error)
    except RecursionError:
        return None, "nested too deeply"
    except ValueError as error:  # NaN, or an integer of thousands of digits
        message = str(error)
        if "integer string conversion" in message:
            message = "an integer of more than 4300 digits"
        return None, f"not JSON: {message}"


def _read_bounded(path: Path) -> bytes:
    """The file's bytes, if a record could hold them: not over :data:`MAX_RECORD_BYTES`,
    and a first line not over :data:`MAX_LINE_BYTES` (so a device such as ``/dev/zero``,
    or a pipe, is read no further than that)."""
    try:
        with open(path, "rb", buffering=0) as stream:
            status = os.fstat(stream.fileno())
            if stat.S_ISREG(status.st_mode):
                if status.st_size > MAX_RECORD_BYTES:
                    raise UnreadableRecord(f"{path} holds more than {MAX_RECORD_BYTES >> 20} MiB: more than any record")
                content = stream.readall()
            else:  # a device or a pipe: read in pieces, and stop once past what a record may hold
                chunks: list[bytes] = []
                size = 0
                first_line_ended = False
                while size <= MAX_RECORD_BYTES and (chunk := stream.read(1 << 16)):
                    chunks.append(chunk)
                    size += len(chunk)
                    first_line_ended = first_line_ended or b"\n" in chunk
                    if not first_line_ended and size > MAX_LINE_BYTES:
                        break
                content = b"".join(chunks)
    except OSError as error:
        raise UnreadableRecord(f"cannot read {path}: {error.strerror or error}") from None
    if len(content) > MAX_LINE_BYTES and content.find(b"\n", 0, MAX_LINE_BYTES + 1) < 0:
        raise UnreadableRecord(f"{path}:1: the first line holds more than {MAX_LINE_BYTES >> 20} MiB: "
                               f"not a record header")
    if len(content) > MAX_RECORD_BYTES:
        raise UnreadableRecord(f"{path} holds more than {MAX_RECORD_BYTES >> 20} MiB: more than any record")
    return content


def read_record(path: Path, schema: RecordSchema | None = None) -> tuple[RecordLine, Iterator[RecordLine]]:
    """The header line and an iterator over the event lines, each checked by the schema.

    Raises :class:`UnreadableRecord` if the file cannot be read, holds more than
    :data:`MAX_RECORD_BYTES`, or its first line is not a ``contack-record/1`` header.
    Later lines that are not JSON, or break the schema, come back with ``fault`` set, so
    the audit can name them. ``schema``: one compiled for many records (else compiled here).
    """
    content = _read_bounded(path)
    first, _, rest = content.partition(b"\n")
    first = first.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark, as some editors write
    if not first.strip(_BLANK):
        raise UnreadableRecord(f"{path} is empty: a record starts with a header line" if not content else
                               f"{path}:1: the first line is blank: a record starts with a header line")
    try:
        text = first.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableRecord(f"{path} is not UTF-8 text") from None
    header, fault = _parse(text)
    if fault is not None:
        raise UnreadableRecord(f"{path}:1: the header is {fault}" if fault.startswith("not") else
                               f"{path}:1: the header is ambiguous: {fault}")
    if not isinstance(header, dict) or header.get("record") != RECORD_FORMAT:
        raise UnreadableRecord(f"{path}:1: not a {RECORD_FORMAT} header (its \"record\" key must say so)")
    schema = schema or RecordSchema()
    return RecordLine(1, header, schema.fault("header", header)), _events(rest, schema)


def _texts(rest: bytes, unreadable: dict[int, str]) -> Iterator[str]:
    """The event lines as text, one by one, for a record with a long line or one not UTF-8:
    a line that cannot be text is put in ``unreadable`` (by its number), and read as ``"\\0"``."""
    for number, raw in enumerate(rest.split(b"\n"), start=2):
        if len(raw) > MAX_LINE_BYTES:
            unreadable[number] = f"the line holds more than {MAX_LINE_BYTES >> 20} MiB (the most a line may)"
        else:
            try:
                yield raw.decode("utf-8")
                continue
            except UnicodeDecodeError as error:
                unreadable[number] = f"not UTF-8 text (byte {error.start + 1} of the line)"
        yield "\0"


def _events(rest: bytes, schema: RecordSchema) -> Iterator[RecordLine]:
    """The event lines, numbered from 2, each read and checked as the audit reaches it.

    The common case runs first and leanest (every line of a sound record): orjson reads the
    line, in about half the time of the standard library's scanner, and the compiled schema
    check accepts it; anything else, a blank line included, takes the slow path, which reads
    the line again with the standard library and words what is wrong. A line the check accepts
    holds only strings, booleans and integers that fit 64 bits, which orjson reads as the
    standard library does. A line whose colons are as many as its object's keys names no key
    twice (each key takes a colon; a nested object, or a colon in a string, adds some); any
    other takes the slow path too, whose decoder refuses a key named twice. A record under
    :data:`MAX_LINE_BYTES` is decoded at once (one call, not one a line); a longer one, or one
    not all UTF-8, line by line (:func:`_texts`).
    """
    checks = schema.event_checks
    loads = orjson.loads
    line = tuple.__new__
    unreadable: dict[int, str] = {}  # line number -> why it is not text (such a line reads as "\0")
    texts: Iterable[str] | None = None
    if len(rest) <= MAX_LINE_BYTES:  # no line can be too long: decode the lot at once
        try:
            texts = rest.decode("utf-8").split("\n")  # no UTF-8 sequence holds the byte \n
        except UnicodeDecodeError:
            pass
    for number, text in enumerate(_texts(rest, unreadable) if texts is None else texts, start=2):
        try:
            data = loads(text)
            sound = text.count(":") == len(data) and data.__class__ is dict and checks[data["event"]](data)
        except Exception:  # not JSON, or not only JSON, or blank, or not an event object
            sound = False
        if sound:
            yield line(RecordLine, (number, data, None))
            continue
        # The slow path, which words what is wrong: the standard library reads the line again (orjson
        # reads an integer over 64 bits as a float, which the check refuses, where a message must quote it).
        if unreadable and number in unreadable:
            yield RecordLine(number, None, unreadable[number])
            continue
        if not text.strip(_BLANK_TEXT):
            continue
        data, fault = _parse(text)
        if fault is not None:
            yield RecordLine(number, None, fault if fault.startswith(("not JSON", "the key")) else
                             f"not an event: {fault}")
            continue
        if data.__class__ is not dict:
            yield RecordLine(number, None, "an event is a JSON object")
            continue
        kind = data.get("event")
        check = checks.get(kind) if kind.__class__ is str else None
        if check is None:
            yield RecordLine(number, data, f"unknown event {kind!r} (events: {', '.join(LINE_KINDS[1:])})")
        elif check(data):
            yield line(RecordLine, (number, data, None))
        else:
            yield RecordLine(number, data, schema.fault(str(kind), data))
