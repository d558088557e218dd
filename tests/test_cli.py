"""The `contack` command line, through its contract (DESIGN.md sections 5 and 6).

Most tests drive the Typer app in-process with CliRunner; one runs the installed console
script end to end. Fixtures live in this file (other test files are written separately).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


from helpers import read_lines, run_cli as run
from processes import HANG

REPO = Path(__file__).resolve().parent.parent
PARKER_FILE = REPO / "rulesets" / "parker-1939.yaml"
FOUR = "random,random,random,random"


# ----------------------------------------------------------------------------- helpers
def audit_json(path: Path) -> tuple[int, dict]:
    result = run("audit", "--json", path)
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert len(objects) == 1, result.output
    return result.exit_code, objects[0]


@pytest.fixture(scope="module")
def seed7(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The issue's example game: four random seats, seed 7, recorded."""
    record = tmp_path_factory.mktemp("seed7") / "game.jsonl"
    result = run("play", "parker-1939", "--seats", FOUR, "--seed", "7", "--record", record)
    assert result.exit_code == 0, result.output
    return record, result.stdout


# ----------------------------------------------------------------------------- rulesets
def test_rulesets_list_shows_parker_with_title_and_player_range() -> None:
    result = run("rulesets", "list")
    assert result.exit_code == 0
    line = next((line for line in result.stdout.splitlines() if line.startswith("parker-1939")), None)
    assert line is not None, result.stdout
    assert "Contack (Parker Brothers, 1939)" in line
    assert re.search(r"\b2-7\b", line), line


def _option_lines(text: str) -> dict[str, str]:
    lines = {}
    for name in ("hands", "hand_size", "tile_penalty"):
        found = [line for line in text.splitlines() if re.search(rf"\b{name}\b\s*=", line)]
        assert found, f"option {name} not shown:\n{text}"
        lines[name] = found[0]
    return lines


def test_rulesets_show_prints_options_with_defaults_and_resolved_rules() -> None:
    result = run("rulesets", "show", "parker-1939")
    assert result.exit_code == 0
    options = _option_lines(result.stdout)
    assert re.search(r"hands = 3\b", options["hands"]) and "default 3" in options["hands"]
    assert re.search(r"hand_size = 5\b", options["hand_size"]) and "default 5" in options["hand_size"]
    assert re.search(r"tile_penalty = 10\b", options["tile_penalty"]) and "default 10" in options["tile_penalty"]
    # the resolved ruleset itself follows
    for key in ("placement:", "turn:", "hand_end:", "scoring:", "match:"):
        assert re.search(rf"^{key}", result.stdout, re.M), key


def test_rulesets_show_with_option_shows_chosen_value() -> None:
    result = run("rulesets", "show", "parker-1939", "--option", "hands=2")
    assert result.exit_code == 0
    options = _option_lines(result.stdout)
    assert re.search(r"hands = 2\b", options["hands"]), options["hands"]
    assert "default 3" in options["hands"]
    assert re.search(r"tile_penalty = 10\b", options["tile_penalty"])


def test_validate_shipped_ruleset() -> None:
    result = run("rulesets", "validate", PARKER_FILE)
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout


def test_validate_takes_shipped_ids_as_well_as_files() -> None:
    result = run("rulesets", "validate", "parker-1939", "examples/six-tile-hands")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["parker-1939: valid", "examples/six-tile-hands: valid"]
    unknown = run("rulesets", "validate", "parker-1893")
    assert unknown.exit_code == 1
    assert "no ruleset 'parker-1893': not a file, and not a shipped ruleset id" in unknown.output


VARIANT = """\
extends: parker-1939
id: house-penalty
title: House rules, a lighter penalty
options:
  tile_penalty: {default: 5, type: integer}
"""


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    return path


def test_validate_small_variant_that_extends_parker(variant: Path) -> None:
    result = run("rulesets", "validate", variant)
    assert result.exit_code == 0, result.output
    assert str(variant) in result.stdout and "valid" in result.stdout


def test_validate_several_files_all_good(variant: Path) -> None:
    result = run("rulesets", "validate", PARKER_FILE, variant)
    assert result.exit_code == 0, result.output
    assert sum(line.endswith(": valid") for line in result.stdout.splitlines()) == 2


def test_variant_options_merge_into_the_parent(variant: Path) -> None:
    """Mappings merge: the override keeps the parent's doc, min and max, and other options."""
    result = run("rulesets", "show", variant)
    assert result.exit_code == 0, result.output
    options = _option_lines(result.stdout)
    assert re.search(r"tile_penalty = 5\b", options["tile_penalty"]) and "default 5" in options["tile_penalty"]
    # beside the parent's quote of the rule book ("a count of 10"), the variant's default says where it was set
    assert "(default 5, set by house.yaml:5; " in options["tile_penalty"]
    assert "a count of 10" in options["tile_penalty"] and "set by" not in options["hands"]
    assert "0..100" in options["tile_penalty"]  # min/max inherited from parker-1939
    assert re.search(r"hands = 3\b", options["hands"])  # untouched options survive the merge
    assert "House rules, a lighter penalty" in result.stdout
    # and an option of the variant is still range-checked with the inherited bounds
    bad = run("rulesets", "show", variant, "--option", "tile_penalty=101")
    assert bad.exit_code != 0 and "tile_penalty" in bad.output


def test_variant_plays_records_and_audits_with_its_override(variant: Path, tmp_path: Path) -> None:
    record = tmp_path / "records" / "house.jsonl"
    record.parent.mkdir()
    result = run("play", variant, "--seats", "random,random,random", "--seed", "3", "--record", record)
    assert result.exit_code == 0, result.output
    header = read_lines(record)[0]
    assert header["options"]["tile_penalty"] == 5
    code, verdict = audit_json(record)
    assert code == 0 and verdict["valid"] and verdict["finished"], verdict
    # the hand scores follow the variant's penalty: each held tile costs 5, not 10
    lines = read_lines(record)
    hand_ends = [line for line in lines if line.get("event") == "hand_end"]
    assert len(hand_ends) == 3


# ----------------------------------------------------------------------------- play
def test_play_narrates_the_game(seed7: tuple[Path, str]) -> None:
    _, out = seed7
    lines = out.splitlines()
    assert any(" plays " in line for line in lines)
    assert any(" draws " in line or line.endswith(" draws") for line in lines) or any(
        line.endswith(" passes") for line in lines
    )
    for number in (1, 2, 3):
        assert any(re.match(rf"-- Hand {number}\b", line) for line in lines), f"no result of hand {number}"
    # hand results: one line per seat with a signed score
    assert sum(1 for line in lines if re.search(r"\(seat \d\): [+-]\d+ \(\d+ held\)", line)) == 12
    # final standings, ranked 1..4, then the winner(s)
    standings = [line for line in lines if re.match(r"[1-4]\. ", line)]
    assert [line[0] for line in standings] == ["1", "2", "3", "4"]
    assert "wins the game" in out or "tie for the win" in out


def test_play_narrates_draws_and_passes_somewhere() -> None:
    """Across a few seeds, all three kinds of turn are narrated."""
    out = "".join(run("play", "parker-1939", "--seats", FOUR, "--seed", s).stdout for s in ("1", "2", "3"))
    assert " plays " in out and " draws " in out and re.search(r" passes$", out, re.M)


def test_play_record_header(seed7: tuple[Path, str]) -> None:
    record, out = seed7
    lines = read_lines(record)
    header = lines[0]
    assert header["record"] == "contack-record/1"
    assert header["ruleset"] == "parker-1939"
    assert header["options"] == {"hands": 3, "hand_size": 5, "tile_penalty": 10, "sealed_hand": "unless-opening",
                                 "target_after_pass": "last-tile", "opener_ties": "next-lowest"}
    assert header["seats"] == ["random"] * 4
    assert header["seed"] == 7
    assert all("event" in line for line in lines[1:])
    assert lines[-1]["event"] == "game_end"
    assert str(record) in out  # says where the record went


def test_play_record_matches_narration(seed7: tuple[Path, str]) -> None:
    """What is narrated is what is recorded: as many plays, draws and passes; the same winners."""
    record, out = seed7
    lines = read_lines(record)
    said = out.splitlines()
    patterns = {"play": r"\(seat \d\) (plays|opens the hand with) \d\d-", "draw": r"\(seat \d\) draws \d\d-",
                "pass": r"\(seat \d\) passes$"}
    for kind, pattern in patterns.items():
        recorded = sum(1 for line in lines if line.get("event") == kind)
        narrated = sum(1 for line in said if re.search(pattern, line))
        assert recorded == narrated, (kind, recorded, narrated)
    verdict = next(line for line in reversed(said) if "wins the game" in line or "tie for the win" in line)
    assert re.findall(r"\(seat (\d)\)", verdict) == [str(seat) for seat in lines[-1]["winners"]]


def test_same_seed_same_record_and_narration(seed7: tuple[Path, str], tmp_path: Path) -> None:
    record, out = seed7
    again = tmp_path / "again.jsonl"
    result = run("play", "parker-1939", "--seats", FOUR, "--seed", "7", "--record", again)
    assert result.exit_code == 0
    assert again.read_bytes() == record.read_bytes()
    assert result.stdout.replace(str(again), "X") == out.replace(str(record), "X")


def test_other_seed_other_game(seed7: tuple[Path, str], tmp_path: Path) -> None:
    record, _ = seed7
    other = tmp_path / "other.jsonl"
    assert run("play", "parker-1939", "--seats", FOUR, "--seed", "8", "--record", other).exit_code == 0
    assert read_lines(other)[1:] != read_lines(record)[1:]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_every_seat_count_plays_to_the_end(seats: int, tmp_path: Path) -> None:
    record = tmp_path / f"g{seats}.jsonl"
    result = run("play", "parker-1939", "--seats", ",".join(["random"] * seats), "--seed", "11",
                 "--record", record)
    assert result.exit_code == 0, result.output
    lines = read_lines(record)
    assert len(lines[0]["seats"]) == seats
    assert [line["number"] for line in lines if line.get("event") == "hand_end"] == [1, 2, 3]
    assert len(lines[-1]["totals"]) == seats
    assert "wins the game" in result.stdout or "tie for the win" in result.stdout
    code, verdict = audit_json(record)
    assert code == 0 and verdict["valid"] is True and verdict["finished"] is True, verdict


def test_play_option_is_recorded_and_audited(tmp_path: Path) -> None:
    record = tmp_path / "two.jsonl"
    result = run("play", "parker-1939", "--seats", "random,random,random", "--seed", "4",
                 "--option", "hands=2", "--option", "tile_penalty=7", "--record", record)
    assert result.exit_code == 0, result.output
    lines = read_lines(record)
    assert lines[0]["options"] == {"hands": 2, "hand_size": 5, "tile_penalty": 7, "sealed_hand": "unless-opening",
                                   "target_after_pass": "last-tile", "opener_ties": "next-lowest"}
    assert [line["number"] for line in lines if line.get("event") == "hand_end"] == [1, 2]
    assert "-- Hand 3" not in result.stdout
    code, verdict = audit_json(record)
    assert code == 0 and verdict["finished"] is True, verdict


def test_play_quiet_prints_only_the_standings() -> None:
    result = run("play", "parker-1939", "--seats", "random,random", "--seed", "5", "--quiet")
    assert result.exit_code == 0
    assert " plays " not in result.stdout
    assert re.search(r"^1\. ", result.stdout, re.M) and re.search(r"^2\. ", result.stdout, re.M)


# ----------------------------------------------------------------------------- audit
def test_audit_sound_record(seed7: tuple[Path, str]) -> None:
    record, _ = seed7
    result = run("audit", record)
    assert result.exit_code == 0, result.output
    assert "sound" in result.stdout and "unsound" not in result.stdout


def test_audit_json_verdict(seed7: tuple[Path, str]) -> None:
    record, _ = seed7
    code, verdict = audit_json(record)
    assert code == 0
    assert {"valid", "line", "error", "finished"} <= set(verdict)
    assert verdict["valid"] is True and verdict["line"] is None and verdict["error"] is None
    assert verdict["finished"] is True
    assert verdict["totals"] == read_lines(record)[-1]["totals"]


def test_audit_json_one_object_per_file(seed7: tuple[Path, str], tmp_path: Path) -> None:
    record, _ = seed7
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(record.read_text().splitlines()[:12]) + "\n")
    result = run("audit", "--json", record, partial)
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert len(objects) == 2
    assert [o["finished"] for o in objects] == [True, False]
    assert all(o["valid"] for o in objects)


def test_audit_record_stopped_mid_game_is_sound_but_unfinished(seed7: tuple[Path, str], tmp_path: Path) -> None:
    record, _ = seed7
    lines = record.read_text().splitlines()
    for keep in (1, 2, 6, len(lines) // 2):
        partial = tmp_path / f"p{keep}.jsonl"
        partial.write_text("\n".join(lines[:keep]) + "\n")
        code, verdict = audit_json(partial)
        assert code == 0 and verdict["valid"] is True, (keep, verdict)
        assert verdict["finished"] is False, keep


def test_audit_exit_code_is_the_worst_over_files(seed7: tuple[Path, str], tmp_path: Path) -> None:
    record, _ = seed7
    lines = record.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines + [lines[-1]]) + "\n")  # a second game_end
    assert run("audit", record, bad).exit_code == 1
    assert run("audit", bad, record).exit_code == 1
    assert run("audit", record, tmp_path / "missing.jsonl", bad).exit_code == 2


# ----------------------------------------------------------------------------- bench, players
def test_bench_json() -> None:
    result = run("bench", "parker-1939", "--games", "20", "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20
    for key in ("games_per_s", "actions_per_s"):
        assert isinstance(data[key], (int, float)) and data[key] > 0
    for key in ("actions", "plays", "draws", "passes"):
        assert isinstance(data[key], int) and data[key] >= 0
    assert data["plays"] > 0
    assert data["actions"] == data["plays"] + data["draws"] + data["passes"]
    # 20 games of 3 hands: every hand opens with a play, so at least 60 plays
    assert data["plays"] >= 60


def test_bench_is_deterministic_in_its_counts() -> None:
    counts = []
    for _ in range(2):
        data = json.loads(run("bench", "parker-1939", "--games", "5", "--players", "3", "--seed", "9",
                              "--json").stdout)
        counts.append({k: data[k] for k in ("games", "actions", "plays", "draws", "passes")})
    assert counts[0] == counts[1]


def test_bench_counts_alike_when_it_counts_as_it_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kinds of action noted are counted (the clocks stopped) whenever more than NOTED_AT_MOST
    wait, so a long run's list stays short: counted after every game, a run's figures are those
    of one counted at its end."""
    from contack_core.engine import bench
    from contack_core.primitives.loading import load_rules

    rules = load_rules("parker-1939")
    keys = ("hands", "actions", "plays", "draws", "passes", "moves", "chance")
    at_the_end = bench.run_bench(rules, 12, 3, 4)
    assert at_the_end["actions"] < bench.NOTED_AT_MOST
    monkeypatch.setattr(bench, "NOTED_AT_MOST", 5)  # fewer than any game's decisions
    every_game = bench.run_bench(rules, 12, 3, 4)
    assert {key: every_game[key] for key in keys} == {key: at_the_end[key] for key in keys}
    assert every_game["seconds"] > 0


def test_bench_compare_reports_best_and_total_ratios(tmp_path: Path) -> None:
    # A stand-in yardstick that always reports 0.5 s for the games asked of it.
    script = tmp_path / "yardstick.py"
    script.write_text("import sys\nn = int(sys.argv[1])\n"
                      "print(f'games={n} seconds=0.500 games_per_s={n / 0.5:.1f}')\n")
    result = run("bench", "parker-1939", "--games", "4", "--players", "4", "--json", "--compare", str(script),
                 "--rounds", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rounds"] == 3
    assert data["yardstick_games_per_s"] == 8.0
    assert data["ratio"] == round(data["games_per_s"] / 8.0, 3)
    # 1.5 s of yardstick over the interpreter's three rounds, each no faster than its best.
    assert 0 < data["ratio_of_totals"] <= round(1.5 / (3 * data["seconds"]), 3) + 0.001


def test_bench_compare_reports_the_median_round_and_cpu_time(tmp_path: Path) -> None:
    """Beside the wall clock, the yardstick's time on the processor (its own run, measured around
    it) and the median of the rounds' ratios, each round's two runs side by side."""
    script = tmp_path / "yardstick.py"
    script.write_text("import sys, time\nn = int(sys.argv[1])\nstart = time.process_time()\n"
                      "while time.process_time() - start < 0.05:\n    pass\n"
                      "print(f'games={n} seconds=0.500 games_per_s={n / 0.5:.1f}')\n")
    result = run("bench", "parker-1939", "--games", "4", "--players", "4", "--json", "--compare", str(script),
                 "--rounds", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # Each run spins 0.05 s on the processor and is printed to 0.1 ms, so three can sum to 0.15
    # exactly, which as a float is below 3 * 0.05.
    assert data["yardstick_cpu_seconds"] >= 0.15 - 0.0005
    assert data["ratio_cpu"] > 0
    # The median round's 0.5 s over its interpreter run, no faster than the best one.
    assert 0 < data["ratio_median"] <= round(0.5 / data["seconds"], 3) + 0.001


def test_bench_against_another_ruleset_compares_the_cost_of_an_action() -> None:
    result = run("bench", "solitaire-2", "--games", "4", "--players", "1", "--json", "--against", "parker-1939",
                 "--against-players", "3", "--rounds", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["against"] == "parker-1939" and data["against_players"] == 3 and data["rounds"] == 2
    assert data["cpu_us_per_action"] > 0 and data["against_cpu_us_per_action"] > 0
    assert data["action_cost_ratio_cpu"] > 0 and data["action_cost_ratio"] > 0
    wrong = run("bench", "parker-1939", "--games", "1", "--against", "solitaire-2", "--against-players", "4")
    assert wrong.exit_code == 1 and "--against: solitaire-2 is for 1 player, not 4" in wrong.output


def test_players_list_lists_random() -> None:
    result = run("players", "list")
    assert result.exit_code == 0
    assert any(line.split()[:1] == ["random"] for line in result.stdout.splitlines()), result.stdout


# ----------------------------------------------------------------------------- end to end
def test_console_script_end_to_end(seed7: tuple[Path, str], tmp_path: Path) -> None:
    """The installed `contack` script: play, then audit, in fresh processes (another hash seed)."""
    # The script installed beside the interpreter running the tests (this checkout's), not
    # whichever `contack` comes first on PATH (another checkout's install, say).
    exe = shutil.which("contack", path=str(Path(sys.executable).parent)) or shutil.which("contack")
    assert exe is not None, "the contack console script is not on PATH"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    played = subprocess.run([exe, "play", "parker-1939", "--seats", FOUR, "--seed", "7", "--record", "game.jsonl"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG)
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stdout + played.stderr
    assert "wins the game" in played.stdout or "tie for the win" in played.stdout
    record = tmp_path / "game.jsonl"
    # the same game as the in-process one, whatever the hash seed
    assert record.read_bytes() == seed7[0].read_bytes()
    audited = subprocess.run([exe, "audit", "--json", "game.jsonl"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=HANG)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    verdict = json.loads(audited.stdout)
    assert verdict["valid"] is True and verdict["finished"] is True
    bad = subprocess.run([exe, "audit", "missing.jsonl"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=HANG)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "missing.jsonl" in bad.stdout + bad.stderr


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


def test_the_shipped_ruleset_schema_is_the_one_the_loader_uses() -> None:
    """contack_core/schemas/ruleset.schema.json is what `contack rulesets schema` prints for the
    built-in primitives (regenerate it with that command when a primitive's parameters change)."""
    from contack_core.language.schema import ruleset_schema, shipped_schema
    from contack_core.primitives.builtin import default_registry

    assert shipped_schema("ruleset.schema.json") == ruleset_schema(default_registry())
    assert json.loads(run("rulesets", "schema").stdout) == shipped_schema("ruleset.schema.json")
