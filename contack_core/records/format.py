"""Game records, ``contack-record/1``: JSON Lines, a header then one event per line.

:class:`RecordWriter` is a game observer that writes each line as it happens (flushed, so
a record of an interrupted game is sound as far as it goes). :func:`read_record` parses
a file into numbered lines, checking each against the shipped JSON Schema.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import attrs
import jsonschema

from contack_core.engine.events import ChipsMoved, Dealt, Discarded, Drew, Event, HandResult, Moved, Passed, Played
from contack_core.engine.state import GameState
from contack_core.language.schema import shipped_schema

RECORD_FORMAT = "contack-record/1"


class UnreadableRecord(ValueError):
    """A file that is not a contack record at all (missing, not text, no header)."""


@attrs.frozen
class RecordLine:
    """One line of a record: its number in the file (from 1), and its object or fault."""

    number: int
    data: dict[str, Any] | None
    fault: str | None = None


def event_line(state: GameState, event: Event) -> dict[str, Any] | None:
    """The record object of an event (None for events a record does not keep)."""
    names = state.rules.tiles.names
    if isinstance(event, Played):
        line = {"event": "play", "seat": event.seat, "tile": names[event.tile], "cell": list(event.cell),
                "points": event.points}
        if event.source is not None:
            line["from"] = event.source
        return line
    if isinstance(event, Drew):
        return {"event": "draw", "seat": event.seat, "tile": names[event.tile]}
    if isinstance(event, Discarded):
        return {"event": "discard", "seat": event.seat, "tile": names[event.tile], "to": event.zone}
    if isinstance(event, Passed):
        return {"event": "pass", "seat": event.seat}
    if isinstance(event, Moved):
        return move_line(state, event)
    if isinstance(event, ChipsMoved):
        return {"event": "chips", "from": "bank" if event.payer is None else event.payer,
                "to": "bank" if event.payee is None else event.payee, "count": event.count, "reason": event.reason}
    if isinstance(event, Dealt):
        tiles = [names[t] for t in event.tiles]
        if event.zone is not None:
            return {"event": "deal", "zone": event.zone, "tiles": tiles}
        return {"event": "deal", "seat": event.seat, "tiles": tiles}
    return None


def move_line(state: GameState, event: Moved) -> dict[str, Any]:
    """The record object of a move: the piece (its colour and kind), where it stood, the
    points it stepped through, its turn afterwards, the points whose pieces were removed and
    whether it was turned over."""
    board = state.figure
    piece = f"{board.colour[event.piece]} {board.kinds[board.kind[event.piece]].name}"  # type: ignore[attr-defined]
    return {"event": "move", "seat": event.seat, "piece": piece, "from": list(event.origin),
            "path": [list(point) for point in event.path], "turn": event.turn,
            "removed": [list(point) for point in event.removed], "flipped": event.flipped}


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
        line = event_line(state, event)
        if line is not None:
            self._write(line)

    def hand_ended(self, state: GameState, result: HandResult) -> None:
        self._write({"event": "hand_end", "number": result.number, "reason": result.reason,
                     "scores": list(result.scores)})

    def fault(self, state: GameState, fault: Any) -> None:
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


def header_for(rules: Any, seats: list[str], seed: int | None, players: list[str] | None = None,
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
    header["engine"] = f"contack {__version__}"
    header["ruleset_digest"] = rules.digest()
    return header


#: The kinds of line a record may hold, each a definition in record.schema.json.
LINE_KINDS = ("header", "hand", "deal", "play", "draw", "discard", "pass", "move", "chips", "hand_end", "game_end",
              "fault")


def _validators() -> dict[str, jsonschema.Draft202012Validator]:
    schema = shipped_schema("record.schema.json")
    return {kind: jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{kind}"}) for kind in LINE_KINDS}


def _schema_fault(validators: dict[str, jsonschema.Draft202012Validator], kind: str, data: Any) -> str | None:
    errors = sorted(validators[kind].iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    error = errors[0]
    where = ".".join(str(p) for p in error.absolute_path)
    return f"{kind} {where + ': ' if where else ''}{error.message}"


def read_record(path: Path) -> tuple[RecordLine, Iterator[RecordLine]]:
    """The header line and an iterator over the event lines, each checked by the schema.

    Raises :class:`UnreadableRecord` if the file cannot be read or its first line is not
    a ``contack-record/1`` header. Later lines that are not JSON, or break the schema,
    come back with ``fault`` set, so the audit can name them.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UnreadableRecord(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UnreadableRecord(f"{path} is not UTF-8 text") from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise UnreadableRecord(f"{path} is empty: a record starts with a header line")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as error:
        raise UnreadableRecord(f"{path}:1: the header is not JSON ({error.msg})") from None
    except RecursionError:
        raise UnreadableRecord(f"{path}:1: the header is not a record header (nested too deeply)") from None
    if not isinstance(header, dict) or header.get("record") != RECORD_FORMAT:
        raise UnreadableRecord(f"{path}:1: not a {RECORD_FORMAT} header (its \"record\" key must say so)")
    validators = _validators()
    header_line = RecordLine(1, header, _schema_fault(validators, "header", header))

    def events() -> Iterator[RecordLine]:
        for number, raw in enumerate(lines[1:], start=2):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as error:
                yield RecordLine(number, None, f"not JSON: {error.msg} at column {error.colno}")
                continue
            except RecursionError:
                yield RecordLine(number, None, "not an event: nested too deeply")
                continue
            if not isinstance(data, dict):
                yield RecordLine(number, None, "an event is a JSON object")
                continue
            kind = data.get("event")
            if kind not in LINE_KINDS or kind == "header":
                known = ", ".join(LINE_KINDS[1:])
                yield RecordLine(number, data, f"unknown event {kind!r} (events: {known})")
                continue
            yield RecordLine(number, data, _schema_fault(validators, kind, data))

    return header_line, events()
