"""Issue 33 item 1 (in part): a size field of a ruleset bounded to what a game can use, refused at
validate with file:line:column. ``players.max: 10**7`` took 9 s of CPU and 227 MB to validate
(10**30: minutes); the child runs under a CPU-time limit, so a regression is killed, not timed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from processes import run_cpu_limited

from contack_core.language.limits import DEFAULT_TURN_CAP, MAX_PLAYERS

CPU_LIMIT = 20


@pytest.mark.parametrize("players_max", ["10000000", "10**30", str(MAX_PLAYERS + 1)])
def test_players_max_beyond_what_a_game_can_use_is_refused_at_validate(tmp_path: Path, players_max: str) -> None:
    ruleset = tmp_path / "many.yaml"
    ruleset.write_text(f"extends: parker-1939\nid: many\ntitle: Many\nplayers: {{min: 2, max: \"{players_max}\"}}\n",
                       encoding="utf-8")
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "rulesets", "validate", str(ruleset)],
                             CPU_LIMIT)
    assert result.returncode not in (-signal.SIGKILL, -signal.SIGXCPU), "ran out of CPU time"
    assert result.returncode == 1, (result.stdout, result.stderr)
    said = result.stdout + result.stderr
    assert f"{ruleset}:4:" in said and "players.max" in said and f"at most {MAX_PLAYERS} seats" in said, said
    assert "Traceback" not in said


def _tile_set(count: int) -> str:
    tiles = ", ".join(f"{{values: [1, 2, 3], colours: [blue, red, gold], name: t{i}}}" for i in range(count))
    return f"components: {{tiles: {{primitive: triangle-tiles, colours: [blue, red, gold], set: [{tiles}]}}}}\n"


#: Every size field of a ruleset beyond what a game can use: (the lines after ``title``, the
#: line the message names, the field, the limit the message names). Each took minutes, wrote
#: a record its own audit refused, or gave a game that never ends, before it was bounded.
SIZE_FIELDS = {
    "hands": ("parker-1939", 'match: {primitive: fixed-hands, hands: "10**30", winner: highest, counter: score}\n',
              4, "match.hands", "MAX_HANDS"),
    "hands-option-default": ("parker-1939", "options: {hands: {type: integer, default: 1000000000000000000000000000000,"
                             " min: 1, max: 1000000000000000000000000000000}}\n", 4, "options.hands", "MAX_OPTION_VALUE"),
    "option-max": ("parker-1939", "options: {hand_size: {type: integer, default: 5, min: 1, max: 10000000}}\n",
                   4, "options.hand_size.max", "MAX_OPTION_VALUE"),
    "lattice-origin": ("parker-1939", "board: {primitive: triangular-lattice, origin: [1000000000000000000000, 0]}\n",
                       4, "board.origin", "MAX_COORDINATE"),
    "points": ("parker-1939", 'placement: {points: "(a + b) ** 64"}\n', 4, "placement.points", "MAX_FIGURE"),
    "tile-count": ("parker-1939", _tile_set(1001), 4, "components.tiles.set", "MAX_TILES"),
    "supply": ("klauber-1937", "components: {tiles: {supply: {red: {one-step: 1000000000000000000000}}}}\n",
               4, "components.tiles.supply.red.one-step", "MAX_TILES"),
    "steps": ("klauber-1937", 'components: {tiles: {kinds: {one-step: {steps: "10**30"}}}}\n',
              4, "components.tiles.kinds.one-step.steps", "MAX_STEPS"),
    "counter-initial": ("parker-1939", 'scoring: {score: {initial: "10**15"}}\n', 4, "scoring.score.initial",
                        "MAX_FIGURE"),
    "deal-count": ("parker-1939", 'setup: {deal: {count: "10**30"}}\n', 4, "setup.deal.count", "MAX_TILES"),
    "gain-constant": ("parker-1939", 'scoring: {score: {on_pass: "10**15"}}\n', 4, "scoring.score.on_pass", "MAX_FIGURE"),
    "gain-over-its-values": ("parker-1939", 'scoring: {score: {on_hand_end: "tiles_held * 10**11"}}\n', 4,
                             "scoring.score.on_hand_end", "MAX_FIGURE"),
    "turn-cap": ("parker-1939", 'turn_cap: "10**30"\n', 4, "turn_cap", "MAX_TURN_CAP"),
    "endgame-steps": ("klauber-1937", "turn: {move: {endgame_steps: 1000000000000}}\n", 4, "turn.move.endgame_steps",
                      "MAX_STEPS"),
}


@pytest.mark.parametrize("case", sorted(SIZE_FIELDS))
def test_every_size_field_is_bounded_at_validate(tmp_path: Path, case: str) -> None:
    base, lines, line, field, limit = SIZE_FIELDS[case]
    ruleset = tmp_path / "sized.yaml"
    ruleset.write_text(f"extends: {base}\nid: sized\ntitle: Sized\n{lines}", encoding="utf-8")
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "rulesets", "validate", str(ruleset)],
                             CPU_LIMIT)
    assert result.returncode not in (-signal.SIGKILL, -signal.SIGXCPU), "ran out of CPU time"
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert f"{ruleset}:{line}:" in said and field in said and limit in said, said
    assert "Traceback" not in said

#: Scores that grow without bound in play, past what a record holds (a squaring score crashed
#: play's narration with a 4,300-digit number, and without a narrator would fill memory).
GROWING_SCORES = {
    "squaring-on-play": "scoring: {score: {initial: 2, on_play: \"score * score\"}}\n",
    "squaring-power": "scoring: {score: {initial: 2, on_play: \"score ** 2\"}}\n",
    "squaring-at-hand-end": "scoring: {score: {initial: 2, on_hand_end: \"score * score * score\"}}\n",
    "squaring-transfer": ("scoring: {score: {initial: 2, transfers: [{when: play, amount: \"score * score + 1\", "
                          "from: bank, to: self}]}}\n"),
    "adding-up": "scoring: {score: {on_play: \"999999999999\", on_hand_end: \"999999999999\"}}\n",
}


@pytest.mark.parametrize("case", sorted(GROWING_SCORES))
def test_a_score_growing_without_bound_stops_play_as_the_rulesets_error(tmp_path: Path, case: str) -> None:
    ruleset = tmp_path / "growing.yaml"
    ruleset.write_text(f"extends: parker-1939\nid: growing\ntitle: Growing\n{GROWING_SCORES[case]}", encoding="utf-8")
    record = tmp_path / "game.jsonl"
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "play", str(ruleset), "--seats",
                              "random,random,random", "--seed", "3", "--record", str(record)], CPU_LIMIT)
    assert result.returncode not in (-signal.SIGKILL, -signal.SIGXCPU), "ran out of CPU time"
    said = result.stdout + result.stderr
    assert "Traceback" not in said, said
    assert result.returncode == 1, said
    assert "error: the ruleset growing" in said and "MAX_FIGURE" in said and "scoring.score" in said, said
    # What was written up to the error is a record its own audit calls sound.
    audit = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "audit", str(record)], CPU_LIMIT)
    assert audit.returncode == 0, audit.stdout + audit.stderr


#: Every seat may always pass, nothing else, and no ending follows passes: a game that never
#: ends (it wrote 159,253 lines in 10 CPU-seconds before the cap).
ALWAYS_PASS = ('turn: {play: {when: "turns < 0"}, pass: {when: "True"}}\n'
               "hand_end: {all_passed: null}\n")


def _play(tmp_path: Path, body: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    ruleset = tmp_path / "passing.yaml"
    ruleset.write_text(f"extends: parker-1939\nid: passing\ntitle: Passing\n{body}", encoding="utf-8")
    record = tmp_path / "game.jsonl"
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "play", str(ruleset), "--seats",
                              "random,random", "--seed", "1", "--record", str(record)], CPU_LIMIT)
    assert result.returncode not in (-signal.SIGKILL, -signal.SIGXCPU), "ran out of CPU time"
    return result, record


def _audit(record: Path) -> subprocess.CompletedProcess[str]:
    return run_cpu_limited([sys.executable, "-m", "contack_core.cli", "audit", "--json", str(record)], CPU_LIMIT)


@pytest.mark.parametrize(("cap_line", "cap"), [("", DEFAULT_TURN_CAP), ("turn_cap: 60\n", 60),
                                               ("turn_cap: \"hands * 20\"\n", 60)])
def test_a_game_that_never_ends_stops_at_the_rulesets_turn_cap(tmp_path: Path, cap_line: str, cap: int) -> None:
    result, record = _play(tmp_path, ALWAYS_PASS + cap_line)
    said = result.stdout + result.stderr
    assert "Traceback" not in said, said
    assert result.returncode == 1, said
    assert f"fails at turn_cap: the game took {cap:,} decisions (its turn cap) without ending" in said, said
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["turn_cap"] == cap
    decisions = ("play", "draw", "discard", "pass", "move")
    assert sum(json.loads(line).get("event") in decisions for line in lines[1:]) == cap
    verdict = json.loads(_audit(record).stdout)
    assert verdict["valid"] is True and verdict["finished"] is False, verdict


def test_the_audit_checks_the_turn_cap_the_header_states(tmp_path: Path) -> None:
    result, record = _play(tmp_path, ALWAYS_PASS + "turn_cap: 40\n")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    # One decision more than the cap: unsound at that line.
    seat = 1 - json.loads(lines[-1])["seat"]
    record.write_text("\n".join([*lines, json.dumps({"event": "pass", "seat": seat})]) + "\n", encoding="utf-8")
    verdict = json.loads(_audit(record).stdout)
    assert verdict["valid"] is False and verdict["line"] == len(lines) + 1, verdict
    assert "after the turn cap of 40 decisions" in verdict["error"], verdict
    # A header whose cap is not the ruleset's.
    record.write_text("\n".join([json.dumps({**header, "turn_cap": 41}), *lines[1:]]) + "\n", encoding="utf-8")
    verdict = json.loads(_audit(record).stdout)
    assert verdict["valid"] is False and verdict["line"] == 1 and "turn cap of 41" in verdict["error"], verdict
    # An older record, with no cap stated, is audited without one: sound.
    del header["turn_cap"]
    record.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    verdict = json.loads(_audit(record).stdout)
    assert verdict["valid"] is True, verdict


def test_the_keeper_takes_no_decision_after_the_turn_cap(tmp_path: Path) -> None:
    """A kept game states the cap in its header as play does, so the keeper refuses what the audit would."""
    from keeping import entries_for, played_lines

    from contack_core import load_rules
    from contack_core.engine.actions import IllegalAction, Pass
    from contack_core.records.keeper import Keeper

    ruleset = tmp_path / "passing.yaml"
    ruleset.write_text(f"extends: parker-1939\nid: passing\ntitle: Passing\nturn_cap: 7\n{ALWAYS_PASS}", encoding="utf-8")
    rules = load_rules(ruleset)
    source = played_lines(rules, 2, seed=5)
    entries_for(rules, source, ["p0", "p1"], tmp_path)  # the keeper writes the capped game back line for line
    keeper = Keeper.resume(tmp_path / "typed.jsonl", lambda text: None)
    try:
        assert keeper.state.turns == 7
        with pytest.raises(IllegalAction, match="7 decisions, the ruleset's turn cap"):
            keeper.enter(Pass())
    finally:
        keeper.close()


@pytest.mark.parametrize(("ruleset", "options", "cap"), [
    ("klauber-1937", {}, DEFAULT_TURN_CAP), ("klauber-1937", {"move_cap": 50_000}, 50_001),
    ("club-contack", {}, DEFAULT_TURN_CAP), ("club-contack", {"timed": "on", "clock_turns": 30_000}, 30_001),
    ("parker-1939", {}, DEFAULT_TURN_CAP)])
def test_a_rulesets_own_clock_ends_its_game_before_the_turn_cap(ruleset: str, options: dict[str, object],
                                                                cap: int) -> None:
    """Klauber's move cap and timed club play's clock go up to 100,000 decisions: their turn cap follows them."""
    from contack_core import load_rules

    assert load_rules(ruleset, options).turn_cap == cap


def test_numbers_too_long_for_text_are_still_shown_in_a_message() -> None:
    """Python refuses to write an integer of over 4,300 digits as text: a message counts its digits instead."""
    from contack_core.language.limits import shown_number

    assert shown_number(-12) == "-12" and shown_number(10**30) == "a 31-digit number"
    assert shown_number(10**5000) == "a number of over 4,983 digits"


def test_the_record_schema_bounds_the_turn_cap_as_the_ruleset_does() -> None:
    from contack_core.language.limits import MAX_TURN_CAP
    from contack_core.language.schema import shipped_schema

    stated = shipped_schema("record.schema.json")["$defs"]["header"]["properties"]["turn_cap"]
    assert (stated["minimum"], stated["maximum"]) == (1, MAX_TURN_CAP)


@pytest.mark.parametrize(("value", "said"), [("100000000000000000000000", "MAX_OPTION_VALUE"),
                                             ("9" * 5000, "(5,002 characters)")])
def test_an_option_chosen_beyond_what_a_game_can_use_is_refused_in_one_short_line(tmp_path: Path, value: str,
                                                                                  said: str) -> None:
    """An option with no max of its own, set on the command line: bounded, and a long value not echoed whole."""
    ruleset = tmp_path / "open.yaml"
    ruleset.write_text("extends: parker-1939\nid: open\ntitle: Open\n"
                       "options: {tile_penalty: {type: integer, default: 10, min: 0, max: null}}\n", encoding="utf-8")
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "play", str(ruleset), "--seats",
                              "random,random", "--option", f"tile_penalty={value}"], CPU_LIMIT)
    output = result.stdout + result.stderr
    assert result.returncode in (1, 2) and "Traceback" not in output, output[-500:]
    assert said in output and "tile_penalty" in output and len(output) < 400, output[-500:]


def test_a_search_bots_playouts_stop_at_the_turn_cap(tmp_path: Path) -> None:
    """mcts with no playout depth, in a hand its rules never end (draws while the stock lasts, then
    passes for ever): each playout ran until the move's 10 s clock forfeited it, and the thread
    went on spinning. Playouts stop at the turn cap as the game does."""
    ruleset = tmp_path / "endless.yaml"
    ruleset.write_text("extends: parker-1939\nid: endless\ntitle: Endless\nturn_cap: 8\n"
                       'turn: {play: {when: "turns < 0"}, draw: {when: "stock_count > 0"}, pass: {when: "True"}}\n'
                       "hand_end: {all_passed: null}\n", encoding="utf-8")
    result = run_cpu_limited([sys.executable, "-m", "contack_core.cli", "play", str(ruleset), "--seats",
                              "mcts:depth=0,random", "--seed", "1"], 60)
    said = result.stdout + result.stderr
    assert result.returncode not in (-signal.SIGKILL, -signal.SIGXCPU), "ran out of CPU time"
    assert "FAULT" not in said and "Traceback" not in said, said[-600:]
    assert "fails at turn_cap: the game took 8 decisions" in said, said[-600:]
