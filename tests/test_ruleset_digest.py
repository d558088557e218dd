"""`ruleset_digest`: a record's fingerprint of the rules it was played under, and what audit does with it.

The digest covers the resolved rules (what the engine runs: after extends and the options'
patches, option values bound into the formulas), not the file's text: a comment, a title,
a doc, a translation or a new option whose default keeps the old rule leave it unchanged,
so old records stay auditable; a change to what is played changes it. `contack audit`
compares the header's digest with the ruleset's: when they differ the verdict says the
ruleset changed (both digests, in --json too), first of all when the record is unsound.
`--ruleset FILE` audits under a ruleset that has moved.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import run_cli

from contack_core.engine.digests import text_digest
from contack_core.primitives.loading import load_rules

#: The variant as first written: two hands, Parker's penalty written out.
FIRST = """\
extends: parker-1939
id: house
title: Our house rules
scoring:
  score:
    on_hand_end: "-10*tiles_held"
match:
  hands: 2
"""

#: The same rules, rewritten: comments, a new title and narration words, and the number of
#: hands and the penalty made options whose defaults keep the old rule.
REWORDED = """\
# Our house rules, tidied up.
extends: parker-1939
id: house
title: Our house rules (second edition)     # a new title
terms: {hand: round}
options:
  rounds:
    doc: 'How many rounds make a game'
    type: integer
    default: 2
    min: 1
    max: 9
  penalty: {doc: 'Off for each tile held', type: integer, default: 10, min: 0, max: 50}
scoring:
  score:
    on_hand_end: "-penalty * (tiles_held)"
match:
  hands: rounds
"""


def digest_of(tmp_path: Path, text: str, **options: object) -> str:
    path = tmp_path / "digest-probe.yaml"
    path.write_text(text, encoding="utf-8")
    return str(load_rules(path, options).digest())


def test_what_does_not_change_play_keeps_the_digest(tmp_path: Path) -> None:
    assert digest_of(tmp_path, FIRST) == digest_of(tmp_path, REWORDED)
    # The shipped ruleset with a comment, a new title and a doc reworded.
    parker = (Path(__file__).resolve().parent.parent / "rulesets" / "parker-1939.yaml").read_text(encoding="utf-8")
    edited = ("# a comment\n" + parker.replace("title: Contack (Parker Brothers, 1939)", "title: Contack")
              .replace("doc: '\"Three hands constitute a game\"'", "doc: 'Hands in a game'"))
    assert edited != parker
    assert digest_of(tmp_path, edited) == load_rules("parker-1939").digest()


def test_what_changes_play_changes_the_digest(tmp_path: Path) -> None:
    first = digest_of(tmp_path, FIRST)
    assert digest_of(tmp_path, FIRST.replace("hands: 2", "hands: 3")) != first
    assert digest_of(tmp_path, FIRST.replace("-10*", "-20*")) != first
    assert digest_of(tmp_path, REWORDED, rounds=3) != first  # another choice of option values
    assert digest_of(tmp_path, REWORDED, rounds=2) == first
    assert load_rules("parker-1939", {"hands": 4}).digest() != load_rules("parker-1939").digest()


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A finished two-seat game under the first edition of the house rules."""
    (tmp_path / "house.yaml").write_text(FIRST, encoding="utf-8")
    record = tmp_path / "game.jsonl"
    result = run_cli("play", str(tmp_path / "house.yaml"), "--seats", "random,greedy", "--seed", "3",
                     "--record", str(record), "--quiet")
    assert result.exit_code == 0, result.output
    return record


def audit(record: Path, *extra: str) -> tuple[int, dict, str]:
    as_json = run_cli("audit", str(record), "--json", *extra)
    text = run_cli("audit", str(record), *extra)
    assert as_json.exit_code == text.exit_code
    return as_json.exit_code, json.loads(as_json.stdout), text.output


def test_a_record_stays_sound_when_its_ruleset_is_only_reworded(played: Path) -> None:
    (played.parent / "house.yaml").write_text(REWORDED, encoding="utf-8")
    code, verdict, text = audit(played)
    assert code == 0 and verdict["valid"] and not verdict["ruleset_changed"], verdict
    assert verdict["ruleset_digest"] == verdict["recorded_digest"]
    assert "changed" not in text


def test_an_unsound_record_under_a_changed_ruleset_says_first_that_it_changed(played: Path) -> None:
    recorded = json.loads(played.read_text(encoding="utf-8").splitlines()[0])["ruleset_digest"]
    (played.parent / "house.yaml").write_text(FIRST.replace("-10*", "-20*"), encoding="utf-8")
    code, verdict, text = audit(played)
    now = load_rules(played.parent / "house.yaml").digest()
    assert code == 1 and verdict["ruleset_changed"] is True, verdict
    assert verdict["recorded_digest"] == recorded and verdict["ruleset_digest"] == now != recorded
    changed = f"the ruleset has changed since this record was made (its digest was {recorded}, it is {now} now); "
    assert verdict["error"].startswith(changed) and "scores are" in verdict["error"], verdict["error"]
    assert f": unsound: {changed}" in text


def test_a_sound_record_under_a_changed_ruleset_is_sound_and_says_it_changed(played: Path) -> None:
    (played.parent / "house.yaml").write_text(FIRST + "players: {min: 2, max: 4}\n", encoding="utf-8")
    code, verdict, text = audit(played)
    assert code == 0 and verdict["valid"] and verdict["ruleset_changed"] is True, verdict
    assert "sound (house" in text and f"but the ruleset has changed since this record was made (its digest was " \
        f"{verdict['recorded_digest']}, it is {verdict['ruleset_digest']} now)" in text


def test_a_digest_made_from_the_whole_document_is_still_recognised(played: Path) -> None:
    """Records made before the digest covered only the resolved rules are not 'changed'."""
    lines = played.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    rules = load_rules(played.parent / "house.yaml")
    header["ruleset_digest"] = text_digest(rules.document, rules.options)
    played.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    code, verdict, _ = audit(played)
    assert code == 0 and not verdict["ruleset_changed"], verdict


def test_ruleset_option_audits_under_a_ruleset_that_has_moved(played: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved" / "house-rules.yaml"
    moved.parent.mkdir()
    shutil.move(played.parent / "house.yaml", moved)
    code, verdict, text = audit(played)
    assert code == 2 and verdict["ruleset_unavailable"] is True, verdict
    assert "cannot find or load the ruleset 'house.yaml'" in text and "--ruleset FILE" in text
    code, verdict, text = audit(played, "--ruleset", str(moved))
    assert code == 0 and verdict["valid"] and not verdict["ruleset_changed"], verdict
    code, verdict, text = audit(played, "--ruleset", str(tmp_path / "nowhere.yaml"))
    assert code == 2 and "no ruleset file" in verdict["error"], verdict
    # A shipped id will do too; a ruleset that refuses the header's options is named as given.
    code, verdict, text = audit(played, "--ruleset", "contactack")
    assert code == 1 and verdict["error"].startswith("ruleset 'contactack': unknown option"), verdict
    # Moved and changed: unsound, said first, with the nearest legal events worked out under it too.
    moved.write_text(FIRST.replace("-10*", "-20*"), encoding="utf-8")
    code, verdict, text = audit(played, "--ruleset", str(moved))
    assert code == 1 and verdict["error"].startswith("the ruleset has changed"), verdict
    assert "Traceback" not in text
