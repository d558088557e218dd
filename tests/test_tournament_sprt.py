"""``contack tournament sprt``: real games until the sequential test decides, at any table size, resumable,
and reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import run_cli

HEAD = """\
format: contack-tournament/1
name: test
ruleset: {ruleset}
entrants:
{entrants}
seats: {seats}
deals: {deals}
seed: 11
"""


def config(tmp_path: Path, entrants: list[tuple[str, str]], seats: int, deals: int = 2000,
           ruleset: str = "parker-1939") -> Path:
    path = tmp_path / "test.yaml"
    lines = "\n".join(f"  - {{name: {name}, player: {player}}}" for name, player in entrants)
    path.write_text(HEAD.format(ruleset=ruleset, entrants=lines, seats=seats, deals=deals), encoding="utf-8")
    return path


@pytest.mark.parametrize(("entrants", "seats", "ruleset", "comparisons"), [
    ([("cautious", "cautious"), ("greedy", "greedy")], 2, "parker-1939", 2),
    ([("cautious", "cautious"), ("greedy", "greedy"), ("filler", "random")], 3, "parker-1939", 3),
    ([("greedy", "greedy"), ("dice", "random")], 1, "solitaire-1", 1),
])
def test_a_stronger_bot_is_found_stronger_and_the_test_stops_long_before_its_limit(
        tmp_path: Path, entrants: list[tuple[str, str]], seats: int, ruleset: str, comparisons: int) -> None:
    path = config(tmp_path, entrants, seats, ruleset=ruleset)
    out = tmp_path / "out"
    a, b = entrants[0][0], entrants[1][0]
    result = run_cli("tournament", "sprt", path, "--output", out, "--elo1", "20", "--quiet")
    assert result.exit_code == 0, result.output
    assert f"Sequential test of {a} against {b} (normalized Elo in [0, 20], alpha 0.05, beta 0.05)" in result.output
    assert f": H1 accepted, {a} is stronger than {b}" in result.output
    games = "1 game" if comparisons == 1 else f"{comparisons} games"  # a solitaire's deal is one game
    assert re.search(f"whole deals of {games}, {a} ahead in ", result.output), result.output
    report = json.loads(run_cli("tournament", "report", out, "--json", "--bootstrap", "0").stdout)
    test = report["sprt"]
    assert test["verdict"] == "H1" and test["llr"] >= test["upper"] and test["a"] == a
    assert test["deals"] < 500 and report["finished"] is True, "decided: the schedule was only its limit"
    again = run_cli("tournament", "sprt", path, "--output", out, "--elo1", "20", "--quiet")
    assert again.exit_code == 0 and "nothing more to play" in again.output and "H1 accepted" in again.output
    alone = run_cli("tournament", "sprt", path, "--output", tmp_path / "alone", "--elo1", "20", "--workers", "1",
                    "--quiet")
    verdict = [line for line in result.output.splitlines() if line.startswith("Sequential test")]
    assert verdict == [line for line in alone.output.splitlines() if line.startswith("Sequential test")], \
        "deals enter the test in the schedule's order: one worker or two, the same verdict on the same deals"


def test_two_equal_bots_are_found_within_the_lower_bound(tmp_path: Path) -> None:
    path = config(tmp_path, [("one", "greedy"), ("two", "greedy")], 2)
    result = run_cli("tournament", "sprt", path, "--output", tmp_path / "out", "--elo1", "40", "--model", "logistic",
                     "--quiet")
    assert result.exit_code == 0, result.output
    assert "H0 accepted, one is not stronger than two" in result.output
    assert "(logistic Elo in [0, 40]" in result.output


@pytest.mark.parametrize(("args", "says"), [
    (["--elo0", "5", "--elo1", "0"], "elo0 (5) must be below elo1 (0)"),
    (["--alpha", "0.7", "--beta", "0.5"], "their sum below 1"),
    (["--model", "bayesian"], "model 'bayesian'"),
    (["--a", "nobody"], "no entrant 'nobody'"),
    (["--a", "one", "--b", "one"], "A and B must be two entrants"),
])
def test_a_test_that_cannot_be_run_is_refused(tmp_path: Path, args: list[str], says: str) -> None:
    path = config(tmp_path, [("one", "greedy"), ("two", "greedy")], 2)
    result = run_cli("tournament", "sprt", path, "--output", tmp_path / "out", *args)
    assert result.exit_code != 0 and says in result.output, result.output
    assert not (tmp_path / "out").exists()


def test_a_round_robin_config_is_not_a_sequential_test(tmp_path: Path) -> None:
    path = config(tmp_path, [("one", "greedy"), ("two", "greedy"), ("three", "random")], 2)
    result = run_cli("tournament", "sprt", path, "--output", tmp_path / "out")
    assert result.exit_code == 1
    assert "a sequential test plays one table a deal: A, B and the others that sit with them" in result.output
