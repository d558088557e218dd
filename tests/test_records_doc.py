"""docs/records.md: every record it shows is audited, and it documents every event and end of hand.

Its ``$ contack ...`` transcripts are run by ``test_docs.py``; here every ```jsonl block is
audited on its own: sound, or (``unsound=N`` in its info string) unsound at line N exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from contack_core import load_rules
from contack_core.language.documents import shipped_ruleset_ids
from contack_core.language.schema import shipped_schema
from contack_core.records.audit import audit_record
from contack_core.records.format import LINE_KINDS

DOC = Path(__file__).resolve().parent.parent / "docs" / "records.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = [(TEXT.count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
          for m in re.finditer(r"^```jsonl([^\n]*)\n(.*?)^```$", TEXT, re.M | re.S)]


@pytest.mark.parametrize(("line", "info", "body"), BLOCKS, ids=[f"records.md:{line}" for line, _, _ in BLOCKS])
def test_every_record_in_the_document_is_audited(line: int, info: str, body: str, tmp_path: Path) -> None:
    path = tmp_path / "example.jsonl"
    path.write_text(body, encoding="utf-8")
    verdict = audit_record(path)
    bad = re.search(r"\bunsound=(\d+)", info)
    if bad:
        assert not verdict.valid and verdict.line == int(bad.group(1)), verdict
    else:
        assert verdict.valid, f"records.md:{line + verdict.line}: {verdict.error}"


def test_the_examples_show_every_event_a_game_writes() -> None:
    shown = {json.loads(text).get("event", "header") for _, _, body in BLOCKS for text in body.splitlines() if text}
    assert shown >= set(LINE_KINDS) - {"fault"}  # a fault is a bot's: described, never typed in


def test_the_document_describes_every_event_of_the_schema_and_every_end_of_a_hand() -> None:
    events = set(shipped_schema("record.schema.json")["$defs"]) - {"tile", "cell", "seat", "point", "header"}
    assert events == set(LINE_KINDS) - {"header"}
    for event in events:
        assert f"| `{event}` |" in TEXT, event
    for ruleset in shipped_ruleset_ids():
        for ending in load_rules(ruleset).hand_end:
            assert f"`{ending.key}`" in TEXT, (ruleset, ending.key)
    for key in shipped_schema("record.schema.json")["$defs"]["header"]["properties"]:
        assert f"| `{key}` |" in TEXT, key
