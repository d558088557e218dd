"""Reading records hardened (issue 18, point 4): JSON Lines split on \\n alone, bounded lines
and files, integers that fit a field, control characters that are not blanks, and the
lines a record may not hold (a hand's end stated twice, play after a forfeit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli as run

from contack_core.records import format as record_format
from contack_core.records.audit import audit_record
from contack_core.records.format import UnreadableRecord


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """A sound, finished three-seat game of Parker 1939, as line objects (index 0 = line 1)."""
    path = tmp_path_factory.mktemp("game") / "game.jsonl"
    result = run("play", "parker-1939", "--seats", "random,random,random", "--seed", "11", "--record", path)
    assert result.exit_code == 0
    return [json.loads(line) for line in path.read_bytes().split(b"\n") if line]


def write(tmp_path: Path, lines: list[dict | str | bytes], ending: bytes = b"\n", name: str = "r.jsonl") -> Path:
    def raw(line: dict | str | bytes) -> bytes:
        if isinstance(line, bytes):
            return line
        return (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)).encode("utf-8")

    path = tmp_path / name
    path.write_bytes(b"".join(raw(line) + ending for line in lines))
    return path


def index_of(lines: list[dict], kind: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines) if line.get("event") == kind][nth]


def unsound_at(path: Path, line: int, *needles: str) -> str:
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == line, verdict
    for needle in needles:
        assert needle in verdict.error, verdict.error  # type: ignore[operator]
    result = run("audit", path)
    assert result.exit_code == 1 and f"{path}:{line}: unsound" in result.output, result.output
    return verdict.error  # type: ignore[return-value]


# ----------------------------------------------------------------------------- lines end at \n alone
@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_line_separators_inside_a_name_keep_a_record_sound(game: list[dict], tmp_path: Path, separator: str) -> None:
    lines = [dict(line) for line in game]
    lines[0]["seats"] = [f"an{separator}n", "bob", "cy"]  # as contack writes a name holding one
    path = write(tmp_path, lines)
    assert separator.encode() in path.read_bytes()
    assert audit_record(path).valid


def test_a_bad_line_after_line_separators_is_named_by_its_number(game: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in game]
    lines[0]["seats"] = ["a\u2028n\u2029n\u0085", "bob", "cy"]
    i = index_of(lines, "play", 3)
    lines[i]["points"] = lines[i]["points"] + 5
    unsound_at(write(tmp_path, lines), i + 1, "points")


@pytest.mark.parametrize("ending", [b"\r\n", b"\r\r\n", b" \t\r\n"])
def test_line_endings_with_carriage_returns(game: list[dict], tmp_path: Path, ending: bytes) -> None:
    assert audit_record(write(tmp_path, game, ending)).valid
    lines = [dict(line) for line in game]
    i = index_of(lines, "draw", 1)
    lines[i]["seat"] = (lines[i]["seat"] + 1) % 3
    unsound_at(write(tmp_path, lines, ending, "bad.jsonl"), i + 1, "turn")


def test_a_carriage_return_is_json_whitespace_inside_a_line(game: list[dict], tmp_path: Path) -> None:
    lines: list[dict | str] = list(game)
    i = index_of(game, "play", 2)
    lines[i] = json.dumps(game[i]).replace(", ", ",\r").replace(": ", ":\r ")
    assert "\r" in lines[i]  # type: ignore[operator]
    assert audit_record(write(tmp_path, lines)).valid


@pytest.mark.parametrize("character", ["\x0c", "\x0b", "\x1c", "\x1e", "\x85", "\u2028", "\x00"])
def test_a_control_character_is_not_a_blank_line(game: list[dict], tmp_path: Path, character: str) -> None:
    lines: list[dict | str] = list(game)
    lines.insert(5, character)
    unsound_at(write(tmp_path, lines), 6, "not JSON")


def test_blank_lines_are_skipped_and_counted(game: list[dict], tmp_path: Path) -> None:
    lines: list[dict | str] = list(game)
    lines[4:4] = ["", "   ", "\t", "\r"]
    assert audit_record(write(tmp_path, lines)).valid
    i = index_of(game, "play", 1) + 4
    bad = [dict(line) if isinstance(line, dict) else line for line in lines]
    bad[i]["cell"] = [50, 50]  # type: ignore[index]
    unsound_at(write(tmp_path, bad, name="bad.jsonl"), i + 1)


def test_a_form_feed_inside_a_line_is_that_line_s_fault(game: list[dict], tmp_path: Path) -> None:
    lines: list[dict | str] = list(game)
    i = index_of(game, "pass")
    lines[i] = json.dumps(game[i]).replace(", ", ",\x0c ")
    unsound_at(write(tmp_path, lines), i + 1, "not JSON")


def test_a_byte_order_mark_before_the_header_is_read_past(game: list[dict], tmp_path: Path) -> None:
    path = write(tmp_path, game)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert audit_record(path).valid


def test_a_line_that_is_not_utf8_is_that_line_s_fault(game: list[dict], tmp_path: Path) -> None:
    lines: list[dict | bytes] = list(game)
    lines[7] = json.dumps(game[7]).encode().replace(b'"', b'"\xff', 1)
    unsound_at(write(tmp_path, lines), 8, "UTF-8")


# ----------------------------------------------------------------------------- bounds
def test_dev_zero_is_unreadable_with_a_message() -> None:
    result = run("audit", "/dev/zero")
    assert result.exit_code == 2
    assert "more than 1 MiB" in result.output and "/dev/zero" in result.output


def test_a_line_longer_than_a_record_may_hold(game: list[dict], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_format, "MAX_LINE_BYTES", 1000)
    lines = [dict(line) for line in game]
    lines[3]["tiles"] = lines[3]["tiles"] * 40
    unsound_at(write(tmp_path, lines), 4, "more than")
    lines[0]["seats"] = ["x" * 1000, "b", "c"]
    with pytest.raises(UnreadableRecord, match="first line holds more than"):
        audit_record(write(tmp_path, lines, name="long-header.jsonl"))


def test_a_file_larger_than_a_record_may_be(game: list[dict], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, game)
    monkeypatch.setattr(record_format, "MAX_RECORD_BYTES", path.stat().st_size - 1)
    with pytest.raises(UnreadableRecord, match="holds more than"):
        audit_record(path)


# ----------------------------------------------------------------------------- numbers
@pytest.mark.parametrize(("kind", "key", "value", "needle"), [
    ("play", "seat", 10**400, "401-digit integer is too large"),
    ("hand", "number", 10**400, "too large"),
    ("hand_end", "number", -(10**30), "too large"),
    ("play", "cell", [0, 2**63], "too large"),
    ("play", "points", 2**64, "too large"),
    ("play", "seat", 1.0, "1.0 is not of type 'integer'"),
    ("hand", "number", 1.0, "not of type 'integer'"),
    ("hand_end", "number", 1.0, "not of type 'integer'"),
    ("draw", "seat", True, "not of type 'integer'"),
    ("game_end", "totals", [0.5, 1, 2], "not of type 'integer'"),
])
def test_numbers_no_field_holds(game: list[dict], tmp_path: Path, kind: str, key: str, value: object,
                                needle: str) -> None:
    lines = [dict(line) for line in game]
    i = index_of(lines, kind)
    lines[i][key] = value
    unsound_at(write(tmp_path, lines), i + 1, needle)


@pytest.mark.parametrize(("text", "needle"), [
    ('{"event": "pass", "seat": ' + "9" * 5000 + "}", "more than 4300 digits"),
    ('{"event": "pass", "seat": NaN}', "NaN is not a JSON number"),
    ('{"event": "pass", "seat": -Infinity}', "-Infinity is not a JSON number"),
    ('{"event": "pass", "seat": 1e400}', "not of type 'integer'"),
])
def test_numbers_json_does_not_have(game: list[dict], tmp_path: Path, text: str, needle: str) -> None:
    lines: list[dict | str] = list(game)
    i = index_of(game, "pass")
    lines[i] = text
    unsound_at(write(tmp_path, lines), i + 1, needle)


def test_a_seed_of_64_bits_is_kept_and_a_larger_one_is_not(game: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in game]
    lines[0]["seed"] = 2**63 - 1
    assert audit_record(write(tmp_path, lines)).valid
    lines[0]["seed"] = 2**63
    unsound_at(write(tmp_path, lines, name="big.jsonl"), 1, "seed")
    assert run("play", "parker-1939", "--seats", "random,random", "--seed", str(2**63)).exit_code == 2


# ----------------------------------------------------------------------------- lines a record may not hold
def test_a_hand_end_stated_twice(game: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in game]
    i = index_of(lines, "hand_end")
    lines.insert(i + 1, dict(lines[i]))
    unsound_at(write(tmp_path, lines), i + 2, "stated twice", f"line {i + 1}")


def test_a_hand_end_after_the_next_hand_began(game: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in game]
    i = index_of(lines, "hand_end")
    lines.insert(i + 1, lines.pop(i))  # after the next hand's "hand" line
    unsound_at(write(tmp_path, lines), i + 2, "hand 1 has not ended here")


def test_nothing_follows_a_forfeit(game: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in game]
    i = index_of(lines, "play", 4)
    seat = lines[i]["seat"]
    lines.insert(i, {"event": "fault", "seat": seat, "reason": "it raised", "kind": "raised", "penalty": "forfeit"})
    error = unsound_at(write(tmp_path, lines), i + 2, f"seat {seat}'s forfeit", f"line {i + 1}")
    assert "ends the game" in error
    stopped = write(tmp_path, lines[: i + 1], name="stopped.jsonl")
    verdict = audit_record(stopped)
    assert verdict.valid and not verdict.finished


def test_a_fault_that_passes_the_move_lets_play_go_on(game: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in game]
    i = index_of(lines, "pass")
    lines.insert(i, {"event": "fault", "seat": lines[i]["seat"], "reason": "too slow", "kind": "timeout",
                     "penalty": "pass"})
    assert audit_record(write(tmp_path, lines)).valid
