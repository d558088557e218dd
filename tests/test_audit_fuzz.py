"""The audit over mutated records (issue 18, point 4): played records of every shipped
ruleset and house-rule example, changed line by line, value by value and byte by byte.

Whatever a record holds, the audit gives one of its three answers (sound, unsound at a line
of the file, unreadable) and never raises anything else. Each ruleset's record is played
once; hypothesis then mutates it (a few hundred examples in all, well under a minute).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_mutants import ANY_RULESET, played_record

from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from contack_core.records.audit import RecordAuditor, RulesetUnavailable, UnreadableRecord

RULESETS = [*shipped_ruleset_ids(), *shipped_example_ids()]


@pytest.fixture(scope="module")
def records() -> dict[str, list[bytes]]:
    return {ruleset: played_record(ruleset) for ruleset in RULESETS}


@pytest.fixture(scope="module")
def auditor() -> RecordAuditor:
    """One auditor for every example: its ruleset cache is part of what is under test."""
    return RecordAuditor()


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
    mutate = data.draw(st.sampled_from(ANY_RULESET), label="mutation")
    lines, unsound_by = mutate(records[ruleset], data.draw(st.randoms(use_true_random=False), label="choices"))
    check_one_of_three(auditor, tmp_path / "mutant.jsonl", b"\n".join(lines) + b"\n", unsound_by)


def test_random_mutants_in_bulk(records: dict[str, list[bytes]], auditor: RecordAuditor, tmp_path: Path) -> None:
    """Many more mutants than hypothesis runs, drawn by a seeded RNG, of every ruleset and
    example (the fuzz campaign's many more are of the shipped rulesets): every answer one of three."""
    rng = random.Random(18)
    answers = {"sound": 0, "unsound": 0, "unreadable": 0}
    for n in range(1500):
        lines, unsound_by = rng.choice(ANY_RULESET)(records[RULESETS[n % len(RULESETS)]], rng)
        content = b"\n".join(lines) + (b"\n" if lines and lines[-1] else b"")
        answers[check_one_of_three(auditor, tmp_path / "bulk.jsonl", content, unsound_by)] += 1
    assert answers["unsound"] > 1000, answers
