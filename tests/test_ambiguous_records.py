"""Records that could be read two ways are refused: a JSON object naming a key twice (which
value is meant?), a ``hand`` line stated twice (as a ``hand_end`` stated twice is); and a
ruleset that takes a shipped ruleset's id with other rules is named by its digest in the
verdict, never as the shipped ruleset."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import play_recorded_game, read_lines, run_cli

from contack_core.language.documents import shipped_rulesets_dir
from contack_core.records.audit import audit_record
from contack_core.records.format import UnreadableRecord


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ambiguous") / "game.jsonl"
    play_recorded_game(3, 11, path)
    return path


def with_line(game: Path, folder: Path, number: int, text: str, name: str = "edited.jsonl") -> Path:
    """The record with its line ``number`` (from 1) replaced by ``text``."""
    lines = game.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = text
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_every_kind_of_event_line_naming_a_key_twice_is_refused_at_that_line(game: Path, tmp_path: Path) -> None:
    lines = read_lines(game)
    assert audit_record(game).valid
    seen = set()
    for number, line in enumerate(lines[1:], start=2):
        if line["event"] in seen:
            continue
        seen.add(line["event"])
        body = json.dumps(line)[1:-1]
        for key in line:
            for value in (line[key], "other"):  # the same value again, or another: both ambiguous
                text = "{" + body + f", {json.dumps(key)}: {json.dumps(value)}" + "}"
                verdict = audit_record(with_line(game, tmp_path, number, text))
                assert not verdict.valid and verdict.line == number, (text, verdict)
                assert verdict.error == f'the key "{key}" appears twice in one object'
    assert {"hand", "deal", "play", "draw", "pass", "hand_end", "game_end"} <= seen


def test_a_key_twice_is_found_beside_colons_in_strings_and_in_nested_objects(game: Path, tmp_path: Path) -> None:
    lines = read_lines(game)
    number = next(n for n, line in enumerate(lines[1:], start=2) if line["event"] == "pass")
    for text in ('{"event": "pass", "seat": 0, "x:y": 1, "seat": 0}',  # as many colons as keys
                 '{"event": "pass", "seat": [{"a": 1, "a": 1}]}'):       # in an object inside
        verdict = audit_record(with_line(game, tmp_path, number, text))
        assert not verdict.valid and verdict.line == number
        assert "appears twice" in verdict.error, verdict.error
    # A colon in a string alone is no key: the line is read (and refused for its extra key only).
    verdict = audit_record(with_line(game, tmp_path, number, '{"event": "pass", "seat": 0, "x:y": 1}'))
    assert verdict.line == number and "appears twice" not in verdict.error


def test_a_header_naming_a_key_twice_is_one_message_with_the_line(game: Path, tmp_path: Path) -> None:
    header = json.dumps(read_lines(game)[0])
    for twice in (header[:-1] + ', "seats": ["x", "y", "z"]}', header.replace('"options": {', '"options": {"hands": 1, ')):
        path = with_line(game, tmp_path, 1, twice)
        with pytest.raises(UnreadableRecord, match=r":1: the header is ambiguous: the key \"(seats|hands)\" appears twice"):
            audit_record(path)
        result = run_cli("audit", path)
        assert result.exit_code == 2
        assert result.output.count("\n") == 1 and ":1: the header is ambiguous" in result.output


def test_a_hand_line_stated_twice_is_refused_as_a_hand_end_stated_twice_is(game: Path, tmp_path: Path) -> None:
    lines = game.read_text(encoding="utf-8").splitlines()
    for kind, message in (("hand", "hand 1's start is stated twice (first on line 2)"),
                          ("hand_end", "hand 1's end is stated twice")):
        number = next(n for n, text in enumerate(lines, start=1) if json.loads(text)["event" if n > 1 else "record"] == kind)
        doubled = tmp_path / f"{kind}.jsonl"
        doubled.write_text("\n".join(lines[:number] + [lines[number - 1]] + lines[number:]) + "\n", encoding="utf-8")
        verdict = audit_record(doubled)
        assert not verdict.valid and verdict.line == number + 1
        assert verdict.error.startswith(message), verdict.error


def test_a_ruleset_reusing_a_shipped_id_with_other_rules_is_named_by_its_digest(tmp_path: Path) -> None:
    from contack_core.primitives.loading import load_rules

    house = tmp_path / "house.yaml"
    house.write_text("format: contack-ruleset/1\nid: parker-1939\ntitle: Doubled counts\nextends: parker-1939\n"
                     "scoring:\n  score:\n    on_play: points * 2\n", encoding="utf-8")
    copy = tmp_path / "copy.yaml"
    shutil.copy(shipped_rulesets_dir() / "parker-1939.yaml", copy)
    for ruleset in (house, copy):
        record = tmp_path / f"{ruleset.stem}.jsonl"
        play_recorded_game(2, 4, record, rules=load_rules(ruleset))
        verdict = audit_record(record)
        assert verdict.valid
        result = run_cli("audit", record)
        assert result.exit_code == 0
        if ruleset is copy:  # the same rules: the shipped name is the truth
            assert verdict.ruleset == "parker-1939"
            assert "sound (parker-1939, " in result.output
        else:
            digest = load_rules(house).digest()
            assert verdict.ruleset == f"parker-1939 {digest}, not the shipped parker-1939"
            assert f"sound (parker-1939 {digest}, not the shipped parker-1939, 3 hands" in result.output
