"""The command line with every shipped ruleset: complete games at every seat count, and
options (unknown ones, bad values) refused with what is allowed, for play and bench."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import read_lines
from helpers import run_cli as run

from contack_core.language.documents import find_ruleset, read_document, shipped_ruleset_ids
from contack_core.primitives.loading import load_rules


def _every_seat_count() -> list[Any]:
    """Every shipped ruleset but parker-1939, whose seat counts test_cli.py plays already."""
    params = []
    for ruleset_id in shipped_ruleset_ids():
        if ruleset_id == "parker-1939":
            continue
        low, high = load_rules(ruleset_id).players
        params.extend(pytest.param(ruleset_id, seats, id=f"{ruleset_id}-{seats}") for seats in range(low, high + 1))
    return params


def declared_options(ruleset_id: str) -> dict[str, dict[str, Any]]:
    """The options a shipped ruleset declares, after extends."""
    return read_document(find_ruleset(ruleset_id)).data.get("options") or {}


@pytest.mark.parametrize(("ruleset_id", "seats"), _every_seat_count())
def test_play_completes_for_every_ruleset_and_seat_count(ruleset_id: str, seats: int, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = run("play", ruleset_id, "--seats", ",".join(["random"] * seats), "--seed", str(seats),
                 "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    rules = load_rules(ruleset_id)
    lines = read_lines(record)
    game_end = lines[-1]
    assert game_end["event"] == "game_end" and len(game_end["totals"]) == seats
    # The standings name every seat, then the winners (or nobody).
    standings = re.findall(r"^\d+\. random \(\S+ (\d+)\): (-?\d+)$", result.stdout, re.M)
    assert sorted(int(seat) for seat, _ in standings) == list(range(seats))
    assert {int(seat): int(total) for seat, total in standings} == dict(enumerate(game_end["totals"]))
    *told, written = result.stdout.rstrip().splitlines()
    assert written == f"record written to {record}"
    last = told[-1]
    if game_end["winners"]:
        assert last.endswith(rules.term("winner") if len(game_end["winners"]) == 1 else rules.term("winners"))
    else:
        assert last == rules.term("nobody_wins")
    # (test_properties_variants audits records of every ruleset and seat count.)
    assert lines[0]["ruleset"] == ruleset_id and lines[0]["seats"] == ["random"] * seats


@pytest.mark.parametrize("ruleset_id", shipped_ruleset_ids())
def test_rulesets_validate_passes_for_every_shipped_ruleset(ruleset_id: str) -> None:
    result = run("rulesets", "validate", find_ruleset(ruleset_id))
    assert result.exit_code == 0 and result.stdout.strip().endswith(": valid"), result.output


@pytest.mark.parametrize("ruleset_id", shipped_ruleset_ids())
@pytest.mark.parametrize("command", ["play", "bench"])
def test_unknown_option_lists_the_rulesets_options(ruleset_id: str, command: str) -> None:
    low = load_rules(ruleset_id).players[0]
    seats = ["--seats", ",".join(["random"] * low)] if command == "play" else ["--players", low, "--games", 1]
    result = run(command, ruleset_id, *seats, "--option", "colour=green")
    assert result.exit_code == 1
    assert "unknown option 'colour'" in result.stderr
    declared = sorted(declared_options(ruleset_id))
    assert f"(options of this ruleset: {', '.join(declared) or 'none'})" in result.stderr, result.stderr


def _bad_values() -> list[Any]:
    """For every shipped ruleset: values its first integer option and its first choice option
    refuse, and what the message must say."""
    params = []
    for ruleset_id in shipped_ruleset_ids():
        options = declared_options(ruleset_id)
        integer = next((name for name, spec in options.items() if spec.get("type") == "integer"), None)
        choice = next((name for name, spec in options.items() if spec.get("type", "choice") == "choice"), None)
        cases = []
        if integer is not None:
            spec = options[integer]
            cases += [(integer, str(spec["max"] + 1),
                       f"option {integer} must be between {spec['min']} and {spec['max']}, not {spec['max'] + 1}"),
                      (integer, "lots", f"option {integer} takes a whole number, not 'lots'")]
        if choice is not None:
            allowed = ", ".join(map(str, options[choice]["choices"]))
            cases.append((choice, "maybe", f"option {choice} is one of {allowed}, not 'maybe'"))
        params.extend(pytest.param(ruleset_id, name, value, message, id=f"{ruleset_id}-{name}={value}")
                      for name, value, message in cases)
    return params


def test_bad_values_cover_integer_and_choice_options() -> None:
    kinds = {(p.values[0], p.values[2]) for p in _bad_values()}
    assert ("contactack", "maybe") in kinds and ("club-contack", "maybe") in kinds
    assert ("club-contack", "lots") in kinds and ("parker-1939", "lots") in kinds


@pytest.mark.parametrize(("ruleset_id", "name", "value", "message"), _bad_values())
def test_bad_option_value_says_what_is_allowed(ruleset_id: str, name: str, value: str, message: str) -> None:
    low = load_rules(ruleset_id).players[0]
    for command, count in (("play", ["--seats", ",".join(["random"] * low)]),
                           ("bench", ["--players", low, "--games", 1])):
        result = run(command, ruleset_id, *count, "--option", f"{name}={value}")
        assert result.exit_code == 1, result.output
        assert message in result.stderr, result.stderr
        assert "Traceback" not in result.output


def test_the_variants_have_the_options_the_issue_asks_for() -> None:
    assert {"hands", "partnerships"} <= set(declared_options("contactack"))
    assert {"chips_per_player", "timed", "timed_hands", "clock_turns", "lender", "tile_penalty_chips"} <= \
        set(declared_options("club-contack"))
    assert declared_options("solitaire-1") == {} and declared_options("solitaire-2") == {}


def test_rulesets_show_lists_club_options_with_values_and_defaults() -> None:
    result = run("rulesets", "show", "club-contack", "--option", "timed=on", "--option", "chips_per_player=10")
    assert result.exit_code == 0, result.output
    assert re.search(r"^#\s+chips_per_player = 10\s+\(default 25; a whole number 1\.\.1000\)", result.stdout, re.M)
    assert re.search(r"^#\s+timed = on\s+\(default off; one of off, on\)", result.stdout, re.M)
    assert re.search(r"^#\s+lender = bank\s+\(default bank; one of bank, players\)", result.stdout, re.M)
    # The choice's patch is resolved into the rules shown.
    assert "when_short: borrow" in result.stdout and "turn-limit" in result.stdout


def test_options_change_the_game_from_the_command_line(tmp_path: Path) -> None:
    record = tmp_path / "club.jsonl"
    result = run("play", "club-contack", "--seats", "random,random,random", "--seed", "4", "--quiet",
                 "--option", "chips_per_player=7", "--option", "hands=1", "--record", record)
    assert result.exit_code == 0, result.output
    lines = read_lines(record)
    assert lines[0]["options"]["chips_per_player"] == 7
    assert sum(lines[-1]["totals"]) == 3 * 7
    assert [line["number"] for line in lines if line.get("event") == "hand_end"] == [1]


def test_bench_runs_every_shipped_ruleset() -> None:
    for ruleset_id in shipped_ruleset_ids():
        low = load_rules(ruleset_id).players[0]
        result = run("bench", ruleset_id, "--games", 1, "--players", low, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["ruleset"] == ruleset_id


# --------------------------------------------------------------------------- diff with options
def test_diff_with_an_option_on_one_side_shows_what_the_option_changes() -> None:
    """contactack's partnerships=on patches the document: four players, teams opposite."""
    from test_house_rules import parse_diff

    assert run("rulesets", "diff", "contactack", "contactack").stdout.strip() == "no differences"
    result = run("rulesets", "diff", "contactack", "contactack", "--option-b", "partnerships=on")
    assert result.exit_code == 0, result.output
    assert parse_diff(result.stdout) == {
        "players.min": (2, 4), "players.max": ("min(7, tile_count // hand_size)", 4), "match.teams": (None, "opposite"),
        "options.partnerships.value": ("off", "on"),
    }
    assert "  contactack: " in result.stdout and "  contactack (partnerships=on): " in result.stdout


def test_diff_options_apply_to_both_sides_and_a_side_option_overrides_them() -> None:
    """--option goes to both rulesets; --option-a / --option-b to one, over --option. An
    integer option patches nothing, so its value is what differs."""
    from test_house_rules import parse_diff

    same = run("rulesets", "diff", "contactack", "contactack", "--option", "partnerships=on")
    assert same.exit_code == 0 and same.stdout.strip() == "no differences", same.output
    result = run("rulesets", "diff", "parker-1939", "parker-1939", "--option", "hands=1", "--option-b", "hands=2")
    assert result.exit_code == 0, result.output
    assert parse_diff(result.stdout) == {"options.hands.value": (1, 2)}
    # Between two rulesets, the option applies to each (club-contack has its own chips options).
    both = parse_diff(run("rulesets", "diff", "parker-1939", "spanish-edition", "-o", "tile_penalty=5").stdout)
    assert "options.tile_penalty.value" not in both and both["id"] == ("parker-1939", "spanish-edition")


def test_diff_refuses_an_option_a_side_does_not_have() -> None:
    result = run("rulesets", "diff", "parker-1939", "club-contack", "--option", "chips_per_player=3")
    assert result.exit_code == 1
    assert "parker-1939: unknown option 'chips_per_player'" in result.output
    assert "Traceback" not in result.output
