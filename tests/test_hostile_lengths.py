"""Issue 33 item 4: long strings must not burn CPU or memory. A name or an entry longer than any
the game can use is refused early, with a message that says so (and does not quote it whole).
Each child runs under a CPU-time limit (RLIMIT_CPU): a regression is killed, never timed."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest
from processes import run_cpu_limited

from contack_core.engine.notation import MAX_ENTRY_CHARS

#: Seconds of CPU each command may use: a few times what starting Python and auditing a short record takes.
CPU_LIMIT = 10
HUGE = "1" * ((1 << 20) - 200)  # a name of 1 MiB, less than a record's longest line


def contack(*args: object) -> list[str]:
    return [sys.executable, "-m", "contack_core.cli", *map(str, args)]


@pytest.fixture(scope="module")
def game_lines(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    from contack_core.engine.bots import make_player
    from contack_core.engine.referee import play_game, seat_seed
    from contack_core.primitives.loading import load_rules
    from contack_core.records.format import RecordWriter, header_for
    import io

    rules = load_rules("parker-1939")
    stream = io.StringIO()
    players = [make_player("random", seat_seed(1, seat), rules=rules) for seat in range(2)]
    play_game(rules, players, 1, [RecordWriter(stream, header_for(rules, ["a", "b"], 1))])
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def _cut_at(lines: list[dict], kind: str, change: str) -> list[dict]:
    """The record up to the first ``kind`` line after the first hand's deals, that line's tile 1 MiB long."""
    index = next(i for i, line in enumerate(lines) if line.get("event") == kind and i > 4)
    bad = dict(lines[index])
    if change == "tiles":
        bad["tiles"] = [HUGE, *bad["tiles"][1:]]
    else:
        bad[change] = HUGE
    return [*lines[:index], bad]


@pytest.mark.parametrize(("kind", "field"), [("play", "tile"), ("draw", "tile"), ("deal", "tiles")])
def test_a_tile_name_of_a_mebibyte_in_a_record_is_refused_at_once(game_lines: list[dict], tmp_path: Path,
                                                                 kind: str, field: str) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in _cut_at(game_lines, kind, field)))
    result = run_cpu_limited(contack("audit", path), CPU_LIMIT)
    assert result.returncode != -signal.SIGKILL and result.returncode != -signal.SIGXCPU, "ran out of CPU time"
    assert result.returncode == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert "too long" in result.stdout + result.stderr
    assert len(result.stdout) + len(result.stderr) < 10_000  # the name is not printed whole


def test_a_keeper_entry_of_a_megabyte_is_refused_at_once(tmp_path: Path) -> None:
    entries = tmp_path / "entries.txt"
    entries.write_text("06-02-05 08-09-10 08-09-06 05-09-10 07-03-06\n" + "7" * 1_000_000 + "\n")
    result = run_cpu_limited(contack("keep", "parker-1939", "--seats", "a,b", "--record", tmp_path / "g.jsonl",
                                     "--input", entries), CPU_LIMIT)
    assert result.returncode == 1, (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    assert f"an entry is at most {MAX_ENTRY_CHARS:,} characters" in result.stdout
    assert len(result.stdout) < 10_000


def test_a_keeper_line_of_a_hundred_megabytes_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    """A 100 MB line with no end: a sparse file (no disk used). Read in bounded pieces, it costs
    little memory and CPU; read whole and matched, it cost 625 MB and hours (and was echoed whole)."""
    entries = tmp_path / "entries.txt"
    with entries.open("wb") as stream:
        stream.truncate(100_000_000)
    script = (f"import resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({600 << 20}, {600 << 20})); "
              "from contack_core.cli import main; sys.argv[0] = 'contack'; main()")
    result = run_cpu_limited([sys.executable, "-c", script, "keep", "parker-1939", "--seats", "a,b", "--record",
                              str(tmp_path / "g.jsonl"), "--input", str(entries)], CPU_LIMIT)
    assert result.returncode == 1, (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    assert f"an entry is at most {MAX_ENTRY_CHARS:,} characters" in result.stdout
    assert len(result.stdout) < 10_000


@pytest.mark.parametrize("command", ["audit", "replay", "play"])
def test_a_ruleset_name_longer_than_a_file_name_is_no_ruleset(tmp_path: Path, command: str) -> None:
    """A 300-character ruleset id (in a record's header, or on the command line) made the lookup of
    rulesets/NAME.yaml raise ENAMETOOLONG: a traceback in replay and play, "please report" in audit."""
    name = "a" * 300
    record = tmp_path / "long.jsonl"
    record.write_text(json.dumps({"record": "contack-record/1", "ruleset": name, "options": {}, "seats": ["a", "b"]})
                      + "\n", encoding="utf-8")
    args = ["play", name, "--seats", "random,random"] if command == "play" else [command, str(record)]
    result = run_cpu_limited(contack(*args), 20, cwd=tmp_path)
    said = result.stdout + result.stderr
    assert "Traceback" not in said and "OSError" not in said and "please report" not in said, said
    assert result.returncode in (1, 2), said
    assert "ruleset" in said, said


def test_a_seat_named_by_a_long_exec_command_makes_a_record_that_audits_sound(tmp_path: Path) -> None:
    """contack play names a seat by its player's spec, and an exec: spec holds a command and its
    paths: a bot deep in a folder tree made a record whose own audit refused the seat's name (the
    seat names were bounded at 200 characters; the players' specs at 4,096)."""
    import shutil

    from helpers import run_cli

    from contack_core.records.audit import audit_record

    deep = tmp_path.joinpath(*(["a-folder-of-bots"] * 12))
    deep.mkdir(parents=True)
    bot = deep / "first_bot.py"
    shutil.copy(Path(__file__).resolve().parent.parent / "examples" / "external-bots" / "first_bot.py", bot)
    spec = f"exec:{sys.executable} {bot}"
    assert len(spec) > 200
    record = tmp_path / "game.jsonl"
    result = run_cli("play", "parker-1939", "--seats", f"{spec},random", "--seed", "1", "--record", record,
                     "--quiet")
    assert result.exit_code == 0, result.output
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished, verdict
