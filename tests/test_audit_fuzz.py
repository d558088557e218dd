"""The audit over mutated records (issue 18, point 4): played records of every shipped
ruleset and house-rule example, changed line by line, value by value and byte by byte.

Whatever a record holds, the audit gives one of its three answers (sound, unsound at a line
of the file, unreadable) and never raises anything else. Each ruleset's record is played
once; hypothesis then mutates it (a few hundred examples in all, well under a minute).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import load_rules
from contack_core.engine.bots import make_player
from contack_core.engine.referee import play_game, seat_seed
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from contack_core.records.audit import RecordAuditor, RulesetUnavailable, UnreadableRecord
from contack_core.records.format import RecordWriter, header_for

RULESETS = [*shipped_ruleset_ids(), *shipped_example_ids()]
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


@pytest.fixture(scope="module")
def records() -> dict[str, list[bytes]]:
    return {ruleset: played_record(ruleset) for ruleset in RULESETS}


@pytest.fixture(scope="module")
def auditor() -> RecordAuditor:
    """One auditor for every example: its ruleset cache is part of what is under test."""
    return RecordAuditor()


NASTY_VALUES = st.one_of(
    st.sampled_from([10**400, -(10**400), 2**53, 2**63 - 1, -(2**63), 2**64, 1.0, 0.5, -0.0, 1e300, True, False,
                     None, "", "\u2028", "\x0c", "09-02-08", "99-99-99", [], [0], [0, 0, 0], [[0, 0]], {}, {"x": 1},
                     "bank", "forfeit", "hand_end", -1, 0, 1, 2, 3, 7, 1000]),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.text(max_size=6),
    st.lists(st.integers(min_value=-3, max_value=40), max_size=4),
)
NASTY_BYTES = st.sampled_from([b"\r", b"\r\r", b"\x0c", b"\x0b", b"\x00", b"\x85", b"\xc2\x85", b"\xe2\x80\xa8",
                               b"\xe2\x80\xa9", b"\xff", b"\n", b"\n\n", b" ", b"\t", b"{", b"}", b"[", b"]", b",",
                               b'"', b"\\", b"1", b"-", b"e9", b"NaN", b"\xef\xbb\xbf"])


def _never_valid(value: Any) -> bool:
    """A float or an integer beyond 64 bits: no field of a record holds one."""
    if isinstance(value, float) or isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63:
        return True
    if isinstance(value, list):
        return any(_never_valid(item) for item in value)
    return isinstance(value, dict) and any(_never_valid(item) for item in value.values())


def _mutate_value(lines: list[bytes], data: st.DataObject) -> tuple[list[bytes], int | None]:
    """Set, delete or add one key of one line's object; the line's number if no record may
    hold the line any more (a float or a huge integer in it)."""
    index = data.draw(st.integers(0, len(lines) - 1), label="line")
    obj: Any = json.loads(lines[index])
    keys = sorted(obj)
    action = data.draw(st.sampled_from(["set", "delete", "add", "set-item"]), label="action")
    if action == "delete":
        del obj[data.draw(st.sampled_from(keys), label="key")]
    elif action == "add":
        obj[data.draw(st.sampled_from(["extra", "seat", "event", "number", "points", "penalty"]), label="key")] = \
            data.draw(NASTY_VALUES, label="value")
    else:
        key = data.draw(st.sampled_from(keys), label="key")
        value = data.draw(NASTY_VALUES, label="value")
        if action == "set-item" and isinstance(obj[key], list) and obj[key]:
            obj[key][data.draw(st.integers(0, len(obj[key]) - 1), label="item")] = value
        else:
            obj[key] = value
    out = list(lines)
    out[index] = json.dumps(obj, ensure_ascii=data.draw(st.booleans(), label="ascii")).encode("utf-8")
    spoiled = _never_valid(obj) and not (index == 0 and obj.get("record") != "contack-record/1")
    return out, index + 1 if spoiled else None


def _mutate_lines(lines: list[bytes], data: st.DataObject) -> tuple[list[bytes], int | None]:
    """Delete, duplicate, swap or move lines; a hand_end stated twice, or a line after a
    forfeit, makes the record unsound at that line at the latest."""
    out = list(lines)
    i = data.draw(st.integers(1, len(out) - 1), label="i")
    j = data.draw(st.integers(1, len(out) - 1), label="j")
    action = data.draw(st.sampled_from(["delete", "duplicate", "swap", "move", "forfeit", "hand_end twice"]),
                       label="action")
    if action == "delete":
        del out[i]
    elif action == "duplicate":
        out.insert(j, out[i])
    elif action == "swap":
        out[i], out[j] = out[j], out[i]
    elif action == "move":
        out.insert(j, out.pop(i))
    elif action == "forfeit":
        seat = data.draw(st.integers(0, 2), label="seat")
        fault = {"event": "fault", "seat": seat, "reason": "fuzz", "kind": "raised", "penalty": "forfeit"}
        out.insert(j, json.dumps(fault).encode())
        return out, j + 2 if j + 1 < len(out) else None  # the line after the forfeit, if any
    else:
        ends = [n for n, line in enumerate(out) if b'"hand_end"' in line]
        if ends:
            n = data.draw(st.sampled_from(ends), label="hand_end")
            out.insert(n + 1, out[n])
            return out, n + 2
    return out, None


def _mutate_bytes(lines: list[bytes], data: st.DataObject) -> tuple[list[bytes], int | None]:
    """Insert, delete or replace bytes anywhere (control characters, separators, broken UTF-8)."""
    blob = bytearray(b"\n".join(lines) + b"\n")
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        at = data.draw(st.integers(0, len(blob) - 1), label="at")
        action = data.draw(st.sampled_from(["insert", "delete", "replace"]), label="action")
        if action == "delete":
            del blob[at:at + data.draw(st.integers(1, 4), label="width")]
        else:
            piece = data.draw(NASTY_BYTES, label="bytes")
            blob[at:at + (len(piece) if action == "replace" else 0)] = piece
    return bytes(blob).split(b"\n"), None


MUTATIONS = [_mutate_value, _mutate_lines, _mutate_bytes]


def check_one_of_three(auditor: RecordAuditor, path: Path, content: bytes, unsound_by: int | None = None) -> str:
    """The audit's answer, checked: unreadable (exit 2, with a record whose ruleset cannot be
    found or loaded), sound, or unsound at a line of the file (at ``unsound_by`` or before,
    when given)."""
    path.write_bytes(content)
    try:
        verdict = auditor.audit(path)
    except (UnreadableRecord, RulesetUnavailable) as error:
        assert str(error) and unsound_by is None
        return "unreadable"
    if verdict.valid:
        assert verdict.line is None and verdict.error is None
        assert unsound_by is None, f"sound, but line {unsound_by} is not"
        return "sound"
    assert verdict.error, verdict
    assert verdict.line is not None and 1 <= verdict.line <= content.count(b"\n") + 1, (verdict, content.count(b"\n"))
    assert unsound_by is None or verdict.line <= unsound_by, (verdict, unsound_by)
    return "unsound"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_played_record_is_sound(records: dict[str, list[bytes]], auditor: RecordAuditor, ruleset: str,
                                    tmp_path: Path) -> None:
    """The starting point of the fuzzing: with a U+2028 in a seat's name, and with \\r\\n endings."""
    lines = records[ruleset]
    assert check_one_of_three(auditor, tmp_path / "plain.jsonl", b"\n".join(lines) + b"\n") == "sound"
    assert check_one_of_three(auditor, tmp_path / "crlf.jsonl", b"\r\n".join(lines) + b"\r\n") == "sound"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_records_get_one_of_three_answers(records: dict[str, list[bytes]], auditor: RecordAuditor,
                                                  tmp_path: Path, data: st.DataObject) -> None:
    ruleset = data.draw(st.sampled_from(RULESETS), label="ruleset")
    mutate = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    lines, unsound_by = mutate(records[ruleset], data)
    check_one_of_three(auditor, tmp_path / "mutant.jsonl", b"\n".join(lines) + b"\n", unsound_by)


def test_random_mutants_in_bulk(records: dict[str, list[bytes]], auditor: RecordAuditor, tmp_path: Path) -> None:
    """Many more mutants than hypothesis runs, drawn by a seeded RNG: every answer one of three."""
    rng = random.Random(18)
    answers = {"sound": 0, "unsound": 0, "unreadable": 0}
    for n in range(1500):
        lines = list(records[RULESETS[n % len(RULESETS)]])
        i = rng.randrange(1, len(lines))
        obj = json.loads(lines[i])
        key = rng.choice(sorted(obj))
        obj[key] = rng.choice([10**400, 1.0, 2**63, -1, None, "x", [], {}, True, obj[key]])
        lines[i] = json.dumps(obj).encode()
        unsound_by = i + 1 if _never_valid(obj[key]) else None
        if rng.random() < 0.3:
            lines.insert(rng.randrange(1, len(lines)), lines[rng.randrange(1, len(lines))])
            unsound_by = None
        answers[check_one_of_three(auditor, tmp_path / "bulk.jsonl", b"\n".join(lines) + b"\n", unsound_by)] += 1
    assert answers["unsound"] > 1000, answers
