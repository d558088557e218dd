"""Files that are not rulesets, reached through a ruleset's ``extends`` or a record's header:
nothing of them is quoted, a record cannot tell whether a path exists, and ``keep --resume``
says so in one message (no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import play_recorded_game, run_cli

SECRET = "hunter2"
#: Files that are no ruleset, each holding the secret: a password file's line, a YAML
#: mapping of other keys, one naming a key twice (the YAML reader's message would name it).
NOT_RULESETS = {
    "shadow": f"root:$6${SECRET}$x:19000:0:99999:7:::\nuser:{SECRET}:1\n",
    "settings.yaml": f"password: {SECRET}\ntoken: {SECRET}\n",
    "twice.yaml": f"{SECRET}: 1\n{SECRET}: 2\n",
    "binary.yaml": f"\xff\xfe{SECRET}",
}


def write_not_rulesets(folder: Path) -> list[Path]:
    paths = []
    for name, text in NOT_RULESETS.items():
        path = folder / name
        path.write_bytes(text.encode("latin-1") if name == "binary.yaml" else text.encode())
        paths.append(path)
    return paths


@pytest.mark.parametrize("name", list(NOT_RULESETS))
def test_extends_naming_a_file_that_is_no_ruleset_quotes_nothing_of_it(name: str, tmp_path: Path) -> None:
    target = write_not_rulesets(tmp_path)[list(NOT_RULESETS).index(name)]
    house = tmp_path / "house.yaml"
    house.write_text(f"format: contack-ruleset/1\nid: house\ntitle: House\nextends: {target}\n", encoding="utf-8")
    for args in (("rulesets", "validate", house), ("rulesets", "show", house),
                 ("play", house, "--seats", "random,random")):
        result = run_cli(*args)
        assert result.exit_code == 1, result.output
        assert SECRET not in result.output, result.output
        assert str(target) in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert result.output.strip().startswith((f"{house}:4:1: at extends: ", f"error: {house}:4:1: at extends: "))


@pytest.fixture(scope="module")
def record_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("other") / "game.jsonl"
    play_recorded_game(2, 3, path)
    return path.read_text(encoding="utf-8").splitlines()[:5]  # unfinished: keep may carry it on


def naming(record_lines: list[str], folder: Path, reference: str) -> Path:
    header = json.loads(record_lines[0])
    header["ruleset"] = reference
    header.pop("ruleset_digest")
    path = folder / "record.jsonl"
    path.write_text("\n".join([json.dumps(header), *record_lines[1:]]) + "\n", encoding="utf-8")
    return path


def test_a_header_cannot_tell_whether_a_path_exists(record_lines: list[str], tmp_path: Path) -> None:
    """One message for a file that is not there, one that is no ruleset, one that is a broken
    ruleset: audit, replay and keep --resume alike, each one line, exit 2 (replay: 1)."""
    write_not_rulesets(tmp_path)
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"extends: parker-1939\nid: broken\nplayers: {SECRET}\n", encoding="utf-8")
    references = [*NOT_RULESETS, "broken.yaml", "missing.yaml", str(tmp_path / "missing.yaml"), "/etc/passwd",
                  str(tmp_path / "shadow")]
    said: dict[str, set[str]] = {"audit": set(), "replay": set(), "keep": set()}
    for reference in references:
        record = naming(record_lines, tmp_path, reference)
        for command, args, code in (("audit", ("audit", record), 2), ("replay", ("replay", record, "--to", "0"), 1),
                                    ("keep", ("keep", "--resume", record, "--input", "/dev/null"), 2)):
            result = run_cli(*args)
            assert result.exit_code == code, (reference, result.output)
            assert SECRET not in result.output and "root:" not in result.output
            assert len(result.output.strip().splitlines()) == 1, result.output
            said[command].add(result.output.replace(repr(reference), "'REF'"))
    for command, messages in said.items():
        assert len(messages) == 1, (command, messages)
        assert "cannot find or load the ruleset 'REF'" in next(iter(messages))
