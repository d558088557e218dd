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
    assert effects[(2, 0)].mean_score.value == pytest.approx(22.5) and effects[(2, 0)].win_rate == 0.75
    assert effects[(2, 1)].games == 4 and effects[(2, 1)].win_rate == 0.25
