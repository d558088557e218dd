"""``players.strength`` states each bot's CPU time a decision: every decision of every game counted
once, for the bot that took it, and the games themselves unchanged by the timing."""

from __future__ import annotations

import re

import pytest

import players.strength as strength
from contack_core import load_rules, make_player, play_game
from contack_core.engine.referee import seat_seed


def test_every_decision_of_a_game_is_timed_once_for_its_seat() -> None:
    game = strength.play_one("klauber-1937", ["random", "greedy"], 5)
    rules = load_rules("klauber-1937")
    untimed = play_game(rules, [make_player(spec, seat_seed(5, seat), rules=rules)
                                for seat, spec in enumerate(["random", "greedy"])], 5)
    assert game.totals == tuple(untimed.scores()) and game.winners == tuple(untimed.winners())
    decisions = [count for count, _ in game.thinking]
    assert sum(decisions) == untimed.turns
    assert abs(decisions[0] - decisions[1]) <= 1  # two seats taking turns
    assert all(seconds >= 0 for _, seconds in game.thinking)


def test_the_table_is_followed_by_each_bots_time_a_decision(capsys: pytest.CaptureFixture[str]) -> None:
    assert strength.main(["--ruleset", "parker-1939", "--bots", "random,greedy", "--deals", "2", "--workers", "1"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    found = re.fullmatch(r"CPU time a decision, on this machine: random ([\d.]+) (ms|µs) \((\d+) decisions\); "
                         r"greedy ([\d.]+) (ms|µs) \((\d+) decisions\)", last)
    assert found, last
    assert int(found.group(3)) > 0 and int(found.group(6)) > 0


def test_a_solitaires_bots_are_timed_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert strength.main(["--ruleset", "solitaire-1", "--bots", "random", "--deals", "3", "--workers", "1"]) == 0
    assert re.fullmatch(r"CPU time a decision, on this machine: random [\d.]+ (ms|µs) \(\d+ decisions\)",
                        capsys.readouterr().out.splitlines()[-1])
