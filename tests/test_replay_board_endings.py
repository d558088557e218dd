"""The replay of a board game of pieces (Klauber 1937): how its games end in words, the tiles left
during play, and the numbers that met in each capture."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import read_lines, run_cli

from contack_core import load_rules
from contack_core.replay.terminal import game_text, position_text
from contack_core.replay.timeline import build_timeline, describe_event

KLAUBER = load_rules("klauber-1937")


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game cut by the move cap: nobody wins."""
    record = tmp_path_factory.mktemp("klauber") / "capped.jsonl"
    result = run_cli("play", "klauber-1937", "--seats", "random,random", "--seed", "4", "--option", "move_cap=120",
                     "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    return record


@pytest.fixture(scope="module")
def won(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record = tmp_path_factory.mktemp("klauber") / "won.jsonl"
    result = run_cli("play", "klauber-1937", "--seats", "mcts:iterations=30,depth=4,random", "--seed", "2",
                     "--record", record, "--quiet", "--time-limit", "0")
    assert result.exit_code == 0, result.output
    return record


def test_a_game_nobody_wins_does_not_say_win_the_game(capped: Path) -> None:
    end = read_lines(capped)[-1]
    assert end["event"] == "game_end" and end["winners"] == []
    told = game_text(build_timeline(capped))
    last_event = [line for line in told.splitlines() if "Tiles left:" in line][0]
    assert "the game is a tie" in last_event and "win the game" not in last_event


def test_when_the_last_tiles_destroy_each_other_the_text_says_nobody_wins() -> None:
    text = describe_event({"event": "game_end", "totals": [0, 0], "winners": []}, ("red", "blue"), KLAUBER, None)
    assert text == ("Tiles left: red 0, blue 0. the last tiles destroyed each other: no tile is left on the board, "
                    "nobody wins")
    parker = load_rules("parker-1939")
    tied = describe_event({"event": "game_end", "totals": [5, 5], "winners": [0, 1]}, ("a", "b"), parker, None)
    assert tied.endswith("a (seat 0), b (seat 1) tie for the win")


def test_the_tiles_left_row_counts_the_tiles_on_the_board_during_play(won: Path) -> None:
    timeline = build_timeline(won)
    first = position_text(timeline, 1)
    assert re.search(r"Tiles left \(so far\): .* 12 · .* 12", first), first
    middle = position_text(timeline, len(timeline.steps) // 2)
    counts = [int(n) for n in re.search(r"Tiles left \(so far\): .* (\d+) · .* (\d+)", middle).groups()]
    assert 0 < sum(counts) < 24  # some taken by now, counted as the game goes


def test_each_capture_names_the_numbers_that_met(won: Path) -> None:
    told = game_text(build_timeline(won))
    captures = [line for line in told.splitlines() if "removed:" in line]
    assert captures
    for line in captures:
        assert re.search(r"contact: \d+ against \w+ [\w-]+ \d+ at \[\d+, \d+\]", line), line
