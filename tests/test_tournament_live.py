"""The live leaderboard: openskill ratings under the progress bar that agree with the final
report on a lopsided tournament, are off in quiet mode, rate a solitaire deal as one contest,
and rate at most so many games a second."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from tournaments.config import Budget, Entrant, TournamentConfig
from tournaments.live import LiveLeaderboard
from tournaments.play import ERROR, OK, Outcome
from tournaments.report import build_report
from tournaments.runner import run_tournament
from tournaments.store import Store


def lopsided(deals: int) -> TournamentConfig:
    """cautious > greedy > random, clearly (README's strength table: 0.69 and 0.66 score rates)."""
    entrants = (Entrant("rnd", "random"), Entrant("grd", "greedy"), Entrant("cau", "cautious"))
    return TournamentConfig(name="lopsided", ruleset="parker-1939", options={}, entrants=entrants, seats=(2,),
                            deals=deals, seed=4, budget=Budget(), fault_policy="pass", output=Path("unused"),
                            source="<test>")


def test_the_live_order_agrees_with_the_final_report_on_a_lopsided_tournament(tmp_path: Path) -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100)
    # One worker and no rate limit: batches arrive in schedule order and every game is rated,
    # so the live ratings are the same on every run of the test.
    summary = run_tournament(lopsided(30), tmp_path / "out", workers=1, console=console,
                             live_games_per_second=None)
    assert summary.played == 180
    with Store.open_existing(tmp_path / "out") as store:
        report = build_report(store.config_document(), list(store.games()), bootstrap=0)
    assert [s.name for s in summary.live] == [s.name for s in report.standings] == ["cau", "grd", "rnd"]
    assert all(s.contests == 120 for s in summary.live)
    assert summary.live[0].ordinal > summary.live[1].ordinal > summary.live[2].ordinal
    shown = screen.getvalue()
    assert "live openskill ratings, 180 of 180 games rated" in shown
    assert all(name in shown for name in ("cau", "grd", "rnd"))


def test_quiet_mode_has_no_live_leaderboard(tmp_path: Path) -> None:
    summary = run_tournament(lopsided(1), tmp_path / "out", workers=1, quiet=True)
    assert summary.played == 6 and summary.live == ()


def test_a_solitaire_deal_is_rated_once_every_entrant_has_played_it() -> None:
    board = LiveLeaderboard(["a", "b", "c"], games_per_second=None)
    board.add([Outcome(7, (0,), (30,), (1,), OK), Outcome(7, (2,), (12,), (1,), OK)])
    assert board.seen == board.rated == 0, "two of three games of the deal: nothing to rank yet"
    board.add([Outcome(9, (1,), (36,), (1,), OK), Outcome(7, (1,), (20,), (1,), OK)])
    assert board.seen == board.rated == 1
    assert [s.name for s in board.standings()] == ["a", "b", "c"]
    assert [s.contests for s in board.standings()] == [1, 1, 1]


def test_games_stopped_by_an_error_are_not_rated() -> None:
    board = LiveLeaderboard(["a", "b"], games_per_second=None)
    board.add([Outcome(1, (0, 1), None, None, ERROR), Outcome(1, (1, 0), (5, 9), (2, 1), OK)])
    assert board.seen == board.rated == 1
    assert [s.name for s in board.standings()] == ["a", "b"]


def test_at_most_so_many_games_a_second_are_rated_the_rest_are_counted() -> None:
    board = LiveLeaderboard(["a", "b"], games_per_second=5.0)
    board.add([Outcome(seed, (0, 1), (9, 1), (1, 2), OK) for seed in range(200)])
    assert board.seen == 200 and 5 <= board.rated <= 6
    assert sum(s.contests for s in board.standings()) == 2 * board.rated
