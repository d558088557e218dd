"""A ruleset's formula that fails only in play is the ruleset's error, never a seat's.

Before: a division by zero in a `when` or an `on_play` was charged to the seat to move as
an illegal action or a raise (under `--fault forfeit`, or with no pass to substitute, the
seat forfeited: 5 of 6 games of one tournament), or crashed `contack play` with a
traceback. Now the referee ends the game as the ruleset's error naming the ruleset, the key
and the formula; `contack play` prints it and exits 1; a tournament stores the game as
`error`; `contack audit` names it at the line it happens. What load can catch, it does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli

from contack_core.engine.referee import play_game
from contack_core.engine.ruleset_faults import RulesetFault
from contack_core.primitives.loading import load_rules
from players.greedy import GreedyPlayer
from players.random_player import RandomPlayer
from tournaments.config import Budget, Entrant, TournamentConfig
from tournaments.play import ERROR, RECORDS_FOLDER, play_one
from tournaments.runner import make_plan
from tournaments.schedule import schedule

#: Evaluated on every turn (the division comes first, so it is never skipped): fails at turn 7.
WHEN = "100 // (turns - 7) != 0 and not can_play and not can_draw"
#: Reads `points`, whose values load does not know, so only play meets contacts == 1.
ON_PLAY = "points // (contacts - 1)"


def ruleset(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: parker-1939\nid: {name}\ntitle: {name}\n{body}", encoding="utf-8")
    return path


@pytest.fixture
def failing_when(tmp_path: Path) -> Path:
    return ruleset(tmp_path, "failing-when", f"turn:\n  pass:\n    when: {json.dumps(WHEN)}\n")


@pytest.fixture
def failing_on_play(tmp_path: Path) -> Path:
    return ruleset(tmp_path, "failing-on-play", f"scoring:\n  score:\n    on_play: {json.dumps(ON_PLAY)}\n")


@pytest.mark.parametrize("policy", ["pass", "forfeit"])
@pytest.mark.parametrize(("fixture", "key", "formula"), [
    ("failing_when", "turn.pass.when", WHEN),          # raised inside a bot's choose (legal_actions)
    ("failing_on_play", "scoring.score.on_play", ON_PLAY),  # raised inside apply of the seat's play
])
def test_the_referee_ends_the_game_as_the_rulesets_error(request: pytest.FixtureRequest, fixture: str, key: str,
                                                          formula: str, policy: str) -> None:
    rules = load_rules(request.getfixturevalue(fixture))
    state = play_game(rules, [RandomPlayer(seed=1), GreedyPlayer(seed=2)], 1, fault_policy=policy)
    error = state.ruleset_error
    assert isinstance(error, RulesetFault)
    assert error.keys == [key] and error.formula == formula and "ZeroDivisionError" in error.reason
    assert rules.id in str(error) and key in str(error) and formula in str(error)
    assert state.faults == [] and state.forfeited_by is None  # no seat is charged
    assert state.is_over() and state.winners() == []


@pytest.mark.parametrize("time_limit", ["10", "0"])  # the move in a worker thread, or called directly
def test_play_prints_the_rulesets_error_and_exits_1(failing_when: Path, tmp_path: Path, time_limit: str) -> None:
    record = tmp_path / "game.jsonl"
    result = run_cli("play", str(failing_when), "--seats", "random,greedy", "--seed", "1", "--record", str(record),
                     "--time-limit", time_limit)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "FAULT" not in result.output and "forfeit" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error: the ruleset failing-when (") and "turn.pass.when" in last, last
    assert f"formula {WHEN!r}: ZeroDivisionError" in last
    assert f"record written to {record} (up to the error)" in result.output
    # The record holds the game up to the failure: sound as far as it goes, not finished.
    audit = run_cli("audit", str(record))
    assert audit.exit_code == 0 and "not finished" in audit.output, audit.output


def test_audit_names_the_rulesets_failure_at_its_line(failing_when: Path, tmp_path: Path) -> None:
    """A record played under parker-1939, audited under a variant whose `when` fails at turn 7."""
    record = tmp_path / "parker.jsonl"
    assert run_cli("play", "parker-1939", "--seats", "random,greedy", "--seed", "1", "--quiet",
                   "--record", str(record)).exit_code == 0
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["ruleset"] = failing_when.name
    del header["ruleset_digest"]  # as typed in under the variant
    record.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    result = run_cli("audit", str(record))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "unsound: the ruleset failing-when" in result.output and "turn.pass.when" in result.output


def test_a_tournament_stores_the_game_as_error_not_forfeit(failing_when: Path, tmp_path: Path) -> None:
    entrants = (Entrant("a", "random"), Entrant("b", "greedy"))
    config = TournamentConfig(name="faulty", ruleset=str(failing_when), options={}, entrants=entrants, seats=(2,),
                              deals=1, seed=1, budget=Budget(), fault_policy="forfeit", output=tmp_path / "out",
                              source="<test>")
    (tmp_path / RECORDS_FOLDER).mkdir()
    plan = make_plan(config, tmp_path)
    for game in schedule(2, (2,), 1, seed=1):
        result = play_one(plan, game)
        assert result.status == ERROR and result.ranks is None, result
        (fault,) = result.faults
        assert fault["seat"] is None and "turn.pass.when" in fault["reason"] and WHEN in fault["reason"]


@pytest.mark.parametrize(("where", "formula", "needle"), [
    ("scoring:\n  score:\n    on_hand_end: ", "100 // tiles_held", "fails for tiles_held=0"),
    ("scoring:\n  score:\n    on_hand_end: ", "-tile_penalty * tiles_held // (seats - 2)", "fails for"),
    ("scoring:\n  score:\n    on_play: ", "10 // (3 - contacts)", "fails for contacts=3"),
    ("scoring:\n  score:\n    on_play: ", "points * min()", "min() takes at least 2 arguments"),
    ("scoring:\n  score:\n    on_play: ", "min(points)", "min() takes at least 2 arguments"),
    ("scoring:\n  score:\n    on_play: ", "abs(points, 1)", "abs() takes exactly 1 argument"),
    ("scoring:\n  score:\n    on_play: ", "max + points", "max is a function"),
])
def test_what_load_can_catch_it_catches(tmp_path: Path, where: str, formula: str, needle: str) -> None:
    """A formula over names whose values are few and known at load is worked out for all of
    them; a call that cannot succeed is refused whatever the values."""
    bad = ruleset(tmp_path, "bad", f"{where}{json.dumps(formula)}\n")
    result = run_cli("rulesets", "validate", str(bad))
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"{bad}:6:5: at scoring.score."), result.output
    assert needle in result.output, result.output


def test_rules_that_leave_a_seat_nothing_to_do_are_the_rulesets_error(tmp_path: Path) -> None:
    """A state that is not over always has an action or is a chance node: rules that break it
    (no pass, no blocked ending) end the game as the ruleset's error, not a hang or a forfeit."""
    stuck = ruleset(tmp_path, "no-pass", "turn:\n  pass: null\nhand_end:\n  all_passed: null\n")
    game = play_game(load_rules(stuck), [RandomPlayer(seed=1), RandomPlayer(seed=2)], 1)
    assert game.ruleset_error is not None and game.forfeited_by is None and not game.faults
    assert "has no legal action and no hand ending says what follows" in str(game.ruleset_error)
    result = run_cli("play", stuck, "--seats", "random,random", "--seed", 1, "--quiet")
    assert result.exit_code == 1 and "the ruleset no-pass fails at turn and hand_end: seat" in result.output
