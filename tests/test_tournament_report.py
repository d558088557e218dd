"""The report's statistics on synthetic results whose answer is known."""

from __future__ import annotations

import math
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.report import build_report, fit_ratings, orderings, outcomes, seat_effects
from tournaments.schedule import schedule
from tournaments.store import GameRow

NAMES = ["w", "x", "y", "z"]
CONFIG = {"name": "synthetic", "ruleset": "parker-1939", "seed": 0,
          "entrants": [{"name": n, "player": "random", "params": {}} for n in NAMES]}


def row(deal: int, seating: tuple[int, ...], scores: tuple[int, ...] | None, ranks: tuple[int, ...] | None,
        status: str = "ok", faults: tuple = ()) -> GameRow:
    return GameRow(f"{deal:016x}-" + ".".join(map(str, seating)), deal, deal, len(seating), 0, seating,
                   tuple(NAMES[e] for e in seating), scores, ranks, 0.01, status, faults, "records/x.jsonl")


def ranks_of(scores: list[int]) -> tuple[int, ...]:
    return tuple(1 + sum(o > s for o in scores) for s in scores)


def plackett_luce_rows(strengths: list[float], deals: int, seed: int) -> list[GameRow]:
    """Tables of three on the real schedule, finishing orders drawn from Plackett-Luce."""
    rng = random.Random(seed)
    rows = []
    for game in schedule(len(strengths), [3], deals, seed):
        remaining = list(range(3))
        order = []
        while remaining:
            weights = [math.exp(strengths[game.seating[s]]) for s in remaining]
            pick = rng.choices(remaining, weights)[0]
            order.append(pick)
            remaining.remove(pick)
        scores = [0, 0, 0]
        for place, seat in enumerate(order):
            scores[seat] = 100 - 30 * place
        rows.append(row(game.deal_seed, game.seating, tuple(scores), ranks_of(scores)))
    return rows


def test_ratings_recover_a_known_order_with_intervals_that_hold_the_estimate() -> None:
    strengths = [1.2, 0.4, -0.4, -1.2]
    report = build_report(CONFIG, plackett_luce_rows(strengths, deals=60, seed=3), bootstrap=60)
    assert [s.name for s in report.standings] == ["w", "x", "y", "z"]
    for standing in report.standings:
        assert standing.rating.low < standing.rating.value < standing.rating.high
    # The fitted log-strength gaps are close to the true ones (400/ln 10 Elo points per unit).
    ratings = {s.name: s.rating.value for s in report.standings}
    gap = (ratings["w"] - ratings["z"]) / (400 / math.log(10))
    assert 1.8 < gap < 3.0, gap
    assert report.standings[0].win_rate.value > report.standings[-1].win_rate.value
    assert report.deal_groups == 60 and report.bootstrap == 60


def test_an_entrant_that_always_wins_keeps_a_finite_top_rating() -> None:
    rows = []
    for deal, seating in enumerate(s for _ in range(5) for s in [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]):
        scores = tuple(10 * (3 - e) for e in seating)  # lower entrant index always scores more
        rows.append(row(deal, seating, scores, ranks_of(list(scores))))
    config = {**CONFIG, "entrants": CONFIG["entrants"][:3]}
    report = build_report(config, rows, bootstrap=20)
    assert [s.name for s in report.standings] == ["w", "x", "y"]
    assert all(math.isfinite(s.rating.value) for s in report.standings)
    assert report.standings[0].win_rate.value == 1.0 and report.standings[-1].win_rate.value == 0.0
    index = {n: i for i, n in enumerate(report.names)}
    assert report.head_to_head[index["w"]][index["y"]] == 1.0
    assert report.head_to_head_games[index["w"]][index["y"]] == 10


def test_equal_entrants_get_equal_ratings() -> None:
    rows = [row(d, s, (5, 5), (1, 1)) for d in range(4) for s in [(0, 1), (1, 0)]]
    strengths = fit_ratings(2, outcomes(rows))
    assert abs(strengths[0] - strengths[1]) < 1e-9


def test_a_tie_enters_the_fit_in_both_orders() -> None:
    assert orderings((1, 1, 3), (7, 8, 9)) == [(7, 8, 9), (8, 7, 9)]
    assert orderings((2, 1, 3), (7, 8, 9)) == [(8, 7, 9), (8, 7, 9)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-60, 200), min_size=2, max_size=6))
def test_orderings_list_every_seat_once_best_first(scores: list[int]) -> None:
    ranks = ranks_of(scores)
    entrants = tuple(range(10, 10 + len(scores)))
    for order in orderings(ranks, entrants):
        assert sorted(order) == sorted(entrants)
        assert [scores[e - 10] for e in order] == sorted(scores, reverse=True)


def test_solitaire_games_of_a_deal_are_ranked_against_each_other() -> None:
    rows = [row(1, (0,), (50,), (1,)), row(1, (1,), (70,), (1,)), row(1, (2,), (70,), (1,)),
            row(2, (0,), (90,), (1,)), row(2, (1,), None, None, status="forfeit")]
    contests = sorted(outcomes(rows), key=lambda c: c.group)
    assert [(c.entrants, c.ranks) for c in contests] == [((0, 1, 2), (3, 1, 1)), ((0, 1), (1, 2))]


def test_faulted_games_count_against_the_faulty_bot_and_errors_are_left_out() -> None:
    fault = {"seat": 1, "kind": "crash", "reason": "ZeroDivisionError"}
    rows = [row(1, (0, 1), None, (1, 2), status="forfeit", faults=(fault,)),
            row(2, (1, 0), (10, 20), (2, 1)),
            row(3, (0, 1), None, None, status="error", faults=({"seat": None, "kind": "error", "reason": "x"},))]
    report = build_report({**CONFIG, "entrants": CONFIG["entrants"][:2]}, rows, bootstrap=10)
    assert report.faults == {"x": {"crash": 1}} and report.engine_errors == 1
    by_name = {s.name: s for s in report.standings}
    assert by_name["x"].faults == 1 and by_name["x"].games == 2 and by_name["w"].win_rate.value == 1.0
    assert by_name["w"].mean_score.value == 20.0, "a forfeited game has no scores to average"
    assert report.statuses == {"error": 1, "forfeit": 1, "ok": 1}


def test_seat_effects_average_each_seat() -> None:
    rows = [row(d, s, (30, 10), (1, 2)) for d in range(3) for s in combinations(range(2), 2)]
    rows += [row(9, (1, 0), (0, 20), (2, 1))]
    effects = {(e.table_size, e.seat): e for e in seat_effects(rows)}
    assert effects[(2, 0)].mean_score.value == pytest.approx(22.5) and effects[(2, 0)].win_rate.value == 0.75
    assert effects[(2, 1)].games == 4 and effects[(2, 1)].win_rate.value == 0.25
    assert effects[(2, 0)].mean_score.low is None and effects[(2, 0)].mean_score.why == \
        "no interval from 4 deals (it takes 5)"  # not a "95%" interval of zero width from a handful of deals


def test_seat_order_intervals_are_over_deals_not_games() -> None:
    """Both games of a deal (its two seatings) give seat 1 the same hand and so the same score: they are one
    observation, not two. The interval is that of the 12 deals' means (at least the t interval over them),
    where one over the 24 games as if independent was about 1/sqrt(2) as wide."""
    import numpy as np

    from tournaments.statistics import mean_interval

    luck = [40, 7, 25, 31, 12, 50, 3, 22, 18, 45, 9, 28]
    rows = [row(d, seating, (luck[d], 20), (1, 2) if luck[d] > 20 else (2, 1))
            for d in range(len(luck)) for seating in ((0, 1), (1, 0))]
    first = {(e.table_size, e.seat): e for e in seat_effects(rows, 500, np.random.default_rng(1))}[(2, 0)]
    by_deal, by_game = mean_interval(luck), mean_interval([value for value in luck for _ in range(2)])
    assert first.mean_score.value == pytest.approx(by_deal.value)
    assert first.mean_score.low <= by_deal.low + 1e-9 and first.mean_score.high >= by_deal.high - 1e-9
    assert first.mean_score.high - first.mean_score.low > 1.3 * (by_game.high - by_game.low)
    wins = sum(value > 20 for value in luck) / len(luck)
    assert first.win_rate.value == pytest.approx(wins) and first.win_rate.low < wins < first.win_rate.high


# ----------------------------------------------------------------------------- what a runner can trust
def test_the_fit_is_choix_iterative_luce_spectral_ranking_built_with_arrays() -> None:
    import choix
    import numpy as np

    from tournaments.report import FIT_ALPHA, FIT_TOLERANCE, Outcome

    rng = random.Random(5)
    contests = []
    for group in range(200):
        size = rng.choice([2, 3, 4])
        contests.append(Outcome(group, tuple(rng.sample(range(6), size)),
                                tuple(rng.randint(1, size) for _ in range(size)), None, size))
    data = [order for contest in contests for order in orderings(contest.ranks, contest.entrants)]
    expected = choix.ilsr_rankings(6, data, alpha=FIT_ALPHA, max_iter=500, tol=FIT_TOLERANCE)
    assert np.allclose(fit_ratings(6, contests), expected - expected.mean(), atol=FIT_TOLERANCE)


def rotations_of(meeting: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [meeting[k:] + meeting[:k] for k in range(len(meeting))]


def test_each_table_size_has_its_own_standings_and_the_pooled_fit_says_what_it_pools() -> None:
    rows = []
    for deal in range(6):
        for seating in rotations_of((0, 1)):  # w beats x at tables of 2
            rows.append(row(deal, seating, None, tuple(1 if e == 0 else 2 for e in seating)))
        for seating in rotations_of((0, 1, 2)):  # ...but x beats everyone at tables of 3
            rows.append(row(100 + deal, seating, None, tuple(1 if e == 1 else 2 if e == 0 else 3 for e in seating)))
    config = {**CONFIG, "entrants": CONFIG["entrants"][:3]}
    report = build_report(config, rows, bootstrap=10)
    sizes = {table.table_size: [s.name for s in table.standings] for table in report.by_table_size}
    assert sizes[2] == ["w", "x"] and sizes[3] == ["x", "w", "y"], "y played no table of 2"
    assert report.pooled_sizes == [2, 3] and len(report.standings) == 3
    assert report.to_json()["pooled_table_sizes"] == [2, 3]


def test_a_paired_comparison_gives_a_verdict_only_when_the_deals_say_so() -> None:
    from tournaments.paired import paired_comparisons

    rows = []
    for deal in range(10):
        for seating in rotations_of((0, 1)):  # w ahead of x on every deal; x level with y
            rows.append(row(deal, seating, None, tuple(1 if e == 0 else 2 for e in seating)))
        for seating in rotations_of((1, 2)):
            rows.append(row(deal, seating, None, (1, 2) if deal % 2 else (2, 1)))
    rows.append(row(99, (0, 1), None, (1, 2)))  # a deal played in part: left out
    pairs = {(p.a, p.b): p for p in paired_comparisons(rows, ["w", "x", "y"], [2])}
    wx = pairs[("w", "x")]
    assert wx.deals == 10 and wx.partial == 1 and wx.share.value == 1.0 and wx.verdict == "w ahead (95%)"
    assert wx.share.low > 0.5, "a Wilson interval where every deal went one way"
    xy = pairs[("x", "y")]
    assert xy.share.value == 0.5 and xy.verdict == "indistinguishable so far"
    assert pairs[("w", "y")].deals == 0 and pairs[("w", "y")].verdict == "too few deals"


def test_duplicate_deals_cancel_the_luck_of_the_seat_and_save_nothing_against_pure_noise() -> None:
    import numpy as np

    from tournaments.paired import duplicate_gains

    rng = random.Random(3)
    seat_luck, noise = [], []
    for deal in range(40):
        lucky = rng.randint(0, 1)  # this deal favours one seat, whoever sits there
        for seating in rotations_of((0, 1)):
            scores = (60, 20) if lucky == 0 else (20, 60)
            seat_luck.append(row(deal, seating, scores, ranks_of(list(scores))))
            coin = (rng.randint(0, 80), rng.randint(0, 80))
            noise.append(row(deal, seating, coin, ranks_of(list(coin))))
    saved = duplicate_gains(seat_luck, 2, 2, bootstrap=50, rng=np.random.default_rng(1))
    assert [g.measure for g in saved] == ["score relative to the table", "first place"]
    assert all(g.games == 80 and g.deals == 40 for g in saved), "games as the standings count them, not seats"
    assert all(g.ratio.value == pytest.approx(0.0) for g in saved), "every entrant gets each seat's luck once"
    none = duplicate_gains(noise, 2, 2, bootstrap=200, rng=np.random.default_rng(1))
    for gain in none:
        assert gain.ratio.low < 1.0 < gain.ratio.high and 0.6 < gain.ratio.value < 1.5, gain


def test_an_unfinished_run_is_flagged_with_the_command_that_finishes_it() -> None:
    from io import StringIO

    from rich.console import Console

    from tournaments.render import print_report

    rows = [row(deal, seating, (30, 10), (1, 2)) for deal in range(3) for seating in rotations_of((0, 1))]
    config = {**CONFIG, "entrants": CONFIG["entrants"][:2], "seats": [2], "deals": 40}
    report = build_report(config, rows, bootstrap=0, meta={"resume": "contack tournament run t.yaml --output out"})
    assert not report.progress.finished and report.to_json()["scheduled"] == 80
    screen = StringIO()
    print_report(report, Console(file=screen, width=200))
    assert ("UNFINISHED: 6 of 80 scheduled games (8%) are stored, and every figure below covers only those; "
            "`contack tournament run t.yaml --output out` plays the rest.") in screen.getvalue()


def test_faults_name_example_games() -> None:
    fault = {"seat": 0, "kind": "timeout", "reason": "slow"}
    rows = [row(deal, (0, 1), (1, 2), (2, 1), status="faulted", faults=(fault,)) for deal in range(5)]
    report = build_report({**CONFIG, "entrants": CONFIG["entrants"][:2]}, rows, bootstrap=0)
    assert report.faults == {"w": {"timeout": 5}}
    assert report.fault_games == {"w": [r.key for r in rows[:3]]}


@pytest.mark.parametrize(("freedom", "expected"), [(5, 2.5706), (10, 2.2281), (30, 2.0423), (200, 1.9719)])
def test_the_t_quantile_is_accurate_enough_for_an_interval(freedom: int, expected: float) -> None:
    from tournaments.statistics import t_quantile

    assert t_quantile(0.975, freedom) == pytest.approx(expected, abs=2e-3)
