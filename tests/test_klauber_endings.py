"""The endings script (``python -m players.endings``): it counts every game once, by the reason
the game ended, and refuses a bad option with a message rather than a traceback."""

from __future__ import annotations

import pytest

from players.endings import endings, main


def test_every_game_is_counted_by_how_it_ended() -> None:
    found = endings("klauber-1937", 2, 3, {"move_cap": "40"})
    assert found.games == 3 and sum(found.reasons.values()) == 3
    assert found.reasons == {"move_cap": 3} and found.median_turns == 40 == found.longest
    assert 0 <= found.come_back_share < 1


def test_the_report_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """The printed report names the seats, the games and the game lengths."""
    assert main(["klauber-1937", "--seats", "3", "--games", "2", "--option", "move_cap=30"]) == 0
    out = capsys.readouterr().out
    assert "3 seats, 2 games" in out and "turns: median" in out


def test_a_bad_option_is_an_error_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["klauber-1937", "--option", "nonsense=1"]) == 1
    assert "unknown option 'nonsense'" in capsys.readouterr().err
