"""Played records and the mutations that spoil them, shared by the audit's fuzz tests
(tests/test_audit_fuzz.py, hypothesis) and the fuzz campaign (tests/test_fuzz_campaign.py, a
seeded RNG): a mutator takes a record's lines and a ``random.Random`` (hypothesis gives one it
can shrink) and returns the mutant with the number of a line the mutation surely made unsound,
or None where the mutant may still describe a legal game."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from contack_core import load_rules
from contack_core.engine.bots import make_player
from contack_core.engine.referee import play_game, seat_seed
from contack_core.records.format import RecordWriter, header_for

#: Enough to hold every kind of line a ruleset writes, few enough to audit quickly.
SHORT = {"move_cap": 120, "hands": 2}


def played_record(ruleset: str, seed: int = 3) -> list[bytes]:
    """A record of random bots playing ``ruleset`` (shortened where an option allows), as lines."""
    declared = load_rules(ruleset).document.get("options") or {}
    rules = load_rules(ruleset, {key: value for key, value in SHORT.items() if key in declared})
    seats = max(rules.players[0], min(3, rules.players[1]))
    players = [make_player("random", seat_seed(seed, s), rules=rules) for s in range(seats)]
    stream = _Lines()
    names = ["ann", "bo\u2028b", "cy", "di"][:seats]  # a line separator inside a name, as any string may hold
    assert len(names) == seats, f"{ruleset} needs {seats} seats: name them all"
    play_game(rules, players, seed, [RecordWriter(stream, header_for(rules, names, seed))])  # type: ignore[arg-type]
    return [line.encode("utf-8") for line in stream.lines]


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, text: str) -> None:
        self.lines.append(text.rstrip("\n"))

    def flush(self) -> None:
        pass


def never_valid(value: Any) -> bool:
    """A float or an integer beyond 64 bits: no field of a record holds one."""
    if isinstance(value, float) or isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63:
        return True
    if isinstance(value, list):
        return any(never_valid(item) for item in value)
    return isinstance(value, dict) and any(never_valid(item) for item in value.values())


Lines = list[bytes]
Mutant = tuple[Lines, "int | None"]
NASTY = [10**400, -(10**400), 2**63, -(2**63) - 1, 2**63 - 1, 1.0, 0.5, -0.0, 1e300, True, False, None, "", "\u2028",
         "\x0c", "\x1b[2J", "09-02-08", "99-99-99", [], [0], [0, 0, 0], [[0, 0]], {}, {"x": 1}, "bank", "forfeit",
         "hand_end", -1, 0, 1, 2, 3, 7, 1000, "a" * 300]
NASTY_BYTES = [b"\r", b"\r\r", b"\x0c", b"\x0b", b"\x00", b"\x85", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\xff",
               b"\n", b"\n\n", b" ", b"\t", b"{", b"}", b"[", b"]", b",", b'"', b"\\", b"1", b"-", b"e9", b"NaN",
               b"\xef\xbb\xbf", b"\x1b[2J"]


def _objects(lines: Lines) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def _encode(obj: dict[str, Any], rng: random.Random) -> bytes:
    return json.dumps(obj, ensure_ascii=rng.random() < 0.5).encode("utf-8")


def _value(lines: Lines, rng: random.Random) -> Mutant:
    """Set, delete or add one key of one line (a value no record holds makes that line unsound)."""
    index = rng.randrange(len(lines))
    obj = json.loads(lines[index])
    action = rng.choice(["set", "delete", "add", "set-item"])
    if action == "delete":
        del obj[rng.choice(sorted(obj))]
    elif action == "add":
        obj[rng.choice(["extra", "seat", "event", "number", "points", "turn_cap", "penalty"])] = rng.choice(NASTY)
    else:
        key = rng.choice(sorted(obj))
        value = rng.choice([*NASTY, rng.randint(-(10**6), 10**6)])
        if action == "set-item" and isinstance(obj[key], list) and obj[key]:
            obj[key][rng.randrange(len(obj[key]))] = value
        else:
            obj[key] = value
    out = list(lines)
    out[index] = _encode(obj, rng)
    spoiled = never_valid(obj) and not (index == 0 and obj.get("record") != "contack-record/1")
    return out, index + 1 if spoiled else None


def _figure(lines: Lines, rng: random.Random) -> Mutant:
    """A stated figure changed: a play's points, a hand's score, a total, the winners."""
    objects = _objects(lines)
    places = [(n, key) for n, obj in enumerate(objects)
              for key in ("points", "scores", "totals", "winners") if isinstance(obj.get(key), (int, list))
              and not isinstance(obj.get(key), bool) and obj.get(key) != []]
    if not places:
        return _value(lines, rng)
    n, key = rng.choice(places)
    obj = objects[n]
    delta = rng.choice([1, -1, 5, -10, 10**6])
    if key == "points":
        obj[key] += delta
    elif key == "winners":
        seats = len(objects[0]["seats"])
        changed = sorted(set(rng.sample(range(seats), rng.randint(1, seats))) ^ {rng.randrange(seats)})
        if changed == obj[key]:
            return lines, None
        obj[key] = changed
    else:
        obj[key][rng.randrange(len(obj[key]))] += delta
    out = list(lines)
    out[n] = _encode(obj, rng)
    return out, n + 1


DECISIONS = ("play", "draw", "pass", "discard", "move")


def _seat(lines: Lines, rng: random.Random) -> Mutant:
    """A decision given to another seat than the one whose turn it is."""
    objects = _objects(lines)
    seats = len(objects[0]["seats"])
    places = [n for n, obj in enumerate(objects) if obj.get("event") in DECISIONS and isinstance(obj.get("seat"), int)]
    if not places:
        return _value(lines, rng)
    n = rng.choice(places)
    obj = objects[n]
    obj["seat"] = (obj["seat"] + rng.randrange(1, seats)) % seats if seats > 1 else 1
    out = list(lines)
    out[n] = _encode(obj, rng)
    return out, n + 1


def _tile_twice(lines: Lines, rng: random.Random) -> Mutant:
    """A play of a tile already played in the same hand."""
    objects = _objects(lines)
    hand, played, places = 0, {}, []
    for n, obj in enumerate(objects):
        if obj.get("event") == "hand":
            hand += 1
        if obj.get("event") == "play":
            earlier = [t for t in played.get(hand, []) if t != obj["tile"]]
            if earlier:
                places.append((n, rng.choice(earlier)))
            played.setdefault(hand, []).append(obj["tile"])
    if not places:
        return _seat(lines, rng)
    n, tile = rng.choice(places)
    objects[n]["tile"] = tile
    out = list(lines)
    out[n] = _encode(objects[n], rng)
    return out, n + 1


def _far_cell(lines: Lines, rng: random.Random) -> Mutant:
    """A play to a cell far from every tile laid."""
    objects = _objects(lines)
    places = [n for n, obj in enumerate(objects) if obj.get("event") == "play" and isinstance(obj.get("cell"), list)]
    if not places:
        return _seat(lines, rng)
    n = rng.choice(places)
    x, y = objects[n]["cell"]
    objects[n]["cell"] = [x + rng.choice([400, -401]), y + rng.choice([500, -500])]
    out = list(lines)
    out[n] = _encode(objects[n], rng)
    return out, n + 1


def _turn_cap(lines: Lines, rng: random.Random) -> Mutant:
    """The header's turn cap changed (another number: unsound at line 1), or left out (an older record)."""
    header = json.loads(lines[0])
    if rng.random() < 0.3:
        header.pop("turn_cap", None)
        return [_encode(header, rng), *lines[1:]], None
    header["turn_cap"] = header.get("turn_cap", 10_000) + rng.choice([1, -1, 1000, -9999])
    return [_encode(header, rng), *lines[1:]], 1


def _lines(lines: Lines, rng: random.Random) -> Mutant:
    """Delete, duplicate, swap or move lines; a forfeit in the middle; a hand_end stated twice."""
    out = list(lines)
    i, j = rng.randrange(1, len(out)), rng.randrange(1, len(out))
    action = rng.choice(["delete", "duplicate", "swap", "move", "forfeit", "hand_end twice"])
    if action == "delete":
        del out[i]
    elif action == "duplicate":
        out.insert(j, out[i])
    elif action == "swap":
        out[i], out[j] = out[j], out[i]
    elif action == "move":
        out.insert(j, out.pop(i))
    elif action == "forfeit":
        fault = {"event": "fault", "seat": rng.randrange(len(json.loads(out[0])["seats"])), "reason": "fuzz",
                 "kind": "raised", "penalty": "forfeit"}
        out.insert(j, json.dumps(fault).encode())
        return out, j + 2 if j + 1 < len(out) else None
    else:
        ends = [n for n, line in enumerate(out) if b'"hand_end"' in line]
        if ends:
            n = rng.choice(ends)
            out.insert(n + 1, out[n])
            return out, n + 2
    return out, None


def _bytes(lines: Lines, rng: random.Random) -> Mutant:
    """Insert, delete or replace bytes anywhere (control characters, separators, broken UTF-8)."""
    blob = bytearray(b"\n".join(lines) + b"\n")
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(blob))
        action = rng.choice(["insert", "delete", "replace"])
        if action == "delete":
            del blob[at:at + rng.randint(1, 4)]
        else:
            piece = rng.choice(NASTY_BYTES)
            blob[at:at + (len(piece) if action == "replace" else 0)] = piece
    return bytes(blob).split(b"\n"), None


def _truncate(lines: Lines, rng: random.Random) -> Mutant:
    """The record cut short, at a line or in the middle of one (a game still being played, or a torn write)."""
    blob = b"\n".join(lines) + b"\n"
    if rng.random() < 0.5:
        return lines[:rng.randrange(1, len(lines) + 1)], None
    return blob[:rng.randrange(1, len(blob))].split(b"\n"), None


#: The mutators and how often each is drawn.
#: The mutators and how often each is drawn.
MUTATORS: list[tuple[Callable[[Lines, random.Random], Mutant], int]] = [
    (_value, 4), (_figure, 3), (_seat, 2), (_tile_twice, 1), (_far_cell, 1), (_turn_cap, 1), (_lines, 3),
    (_bytes, 3), (_truncate, 1)]
#: The mutations whose "unsound" claims hold under any ruleset, house rules included (the others
#: assume the book's rules: a tile laid once a hand, the header's turn cap).
ANY_RULESET: list[Callable[[Lines, random.Random], Mutant]] = [_value, _lines, _bytes, _truncate]
