"""The error rates of `contack analyze A --against B`, checked by simulation through the code that gives
the verdicts (tournaments.analysis.report.compare_analyses):

- when A and B are the same game (their games on a deal exchangeable), the chance that any figure is
  called higher or lower is at most 5% (the max-T adjustment over the figures), and each figure's own
  test errs 5% of the time or less;
- a planted change is found;
- and the same with real games: many small analyses of parker-1939 against itself whose two sides'
  bots play independently (their own seeds), so that nothing but chance tells the sides apart.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import numpy as np

from contack_core import load_rules
from tournaments.analysis.plan import AnalysisPlan, build_plan
from tournaments.analysis.report import Comparison, analyse, compare_analyses
from tournaments.play import competition_ranks, play_batch
from tournaments.schedule import iter_schedule
from tournaments.store import GameRow

PARKER = load_rules("parker-1939", {})
PLAN = build_plan(PARKER, "parker-1939", {}, (2,), ("random", "greedy"), "greedy", 20, 1, Path("unused"))
REASONS = ("went_out", "all_passed", "sealed")


def synthetic_side(deals: int, seed: int, rng: np.random.Generator, shift: float = 0.0) -> list[GameRow]:
    """Every game of PLAN's schedule for ``deals`` deals (the metrics game and the ladder's two), drawn from a
    model in which the deal sets the odds (drawn from ``seed``: the same for both sides of a comparison) and
    chance the rest (``rng``). ``shift`` raises every score."""
    games = list(iter_schedule(len(PLAN.config.entrants), (2,), deals, 0, PLAN.config.tables))
    deal_rng = np.random.default_rng(seed)
    edges, paces = deal_rng.normal(0, 25, deals), deal_rng.uniform(8, 20, deals)
    ending_odds = deal_rng.dirichlet([8, 2, 1], deals)
    n = len(games)
    noise = rng.normal(0, 30, (n, 2))
    counts = rng.poisson(np.repeat(np.stack([paces, paces / 3, np.ones(deals)], axis=1)[:, None, :], 3, axis=1)[
        [g.deal_index for g in games]])  # (games, hands, kinds)
    endings = (rng.random((n, 3, 1)) > np.cumsum(ending_odds, axis=1)[[g.deal_index for g in games]][:, None, :]
               ).sum(axis=2)
    openers, lead_changes = rng.integers(0, 2, (n, 3)), rng.poisson(4, n)
    drama, trailed, decided = rng.exponential(15, n), rng.random(n) < 0.8, rng.beta(2, 2, n)
    legal = rng.uniform(1.4, 1.8, n)
    rows = []
    for i, game in enumerate(games):
        edge = edges[game.deal_index]
        scores = (int(100 + edge + noise[i, 0] + shift), int(100 - edge + noise[i, 1] + shift))
        hands = [{"number": h + 1, "reason": REASONS[min(int(endings[i, h]), 2)], "opener": int(openers[i, h]),
                  "scores": [score // 3 for score in scores], "decisions": int(counts[i, h].sum()),
                  "plays": int(counts[i, h, 0]), "draws": int(counts[i, h, 1]), "passes": int(counts[i, h, 2]),
                  "discards": 0, "moves": 0} for h in range(3)]
        decisions = sum(hand["decisions"] for hand in hands)
        winners = tuple(seat for seat, score in enumerate(scores) if score == max(scores))
        measures = {"hands": hands, "legal": int(decisions * legal[i]), "choices": int(decisions * 0.3),
                    "unseen": 0, "lead_changes": int(lead_changes[i]), "drama": float(drama[i]),
                    "trailed": bool(trailed[i]), "decided_at": float(decided[i])}
        rows.append(GameRow(f"{i}", game.deal_index, game.deal_index, 2, 0, game.seating, ("a", "b"), scores,
                            competition_ranks(scores), 0.0, "ok", (), "", winners, None, measures))
    return rows


def compare_rows(first: list[GameRow], second: list[GameRow], deals: int, resamples: int = 200,
                 plan: AnalysisPlan = PLAN) -> Comparison:
    plan = attrs.evolve(plan, config=attrs.evolve(plan.config, deals=deals))
    a = analyse(plan, PARKER, "a", first, resamples)
    b = analyse(plan, PARKER, "b", second, resamples)
    return compare_analyses(a, b, True, resamples)


def false_alarms(comparison: Comparison) -> tuple[bool, int, int]:
    """(any figure called significant, the figures whose own test said p < 0.05, the figures tested)."""
    tested = [d for size in comparison.sizes for d in size.differences if d.p_value is not None]
    return any(d.significant for d in tested), sum(d.p_value < 0.05 for d in tested), len(tested)


def test_the_same_game_is_seldom_called_different() -> None:
    """Comparisons of 20 deals whose two sides are drawn alike: 120 of them, of which 4 called any figure
    different, and 117 of the 3360 figures' own tests (3.5%) gave p < 0.05 (figures of counts are discrete,
    so their tests err on the safe side). Printed (pytest -rP) for the README."""
    runs, any_alarm, own, tested = 120, 0, 0, 0
    for seed in range(runs):
        rng = np.random.default_rng(seed)
        found = false_alarms(compare_rows(synthetic_side(20, seed, rng), synthetic_side(20, seed, rng), 20))
        any_alarm += found[0]
        own += found[1]
        tested += found[2]
    print(f"{any_alarm} of {runs} comparisons called some figure different; {own} of {tested} figures' own tests "
          f"({100 * own / tested:.1f}%) under 0.05")  # the README quotes these: pytest -rP shows them
    # 5% of 120 is 6; 12 or more would happen by chance less than twice in 100 if the rate were 5%.
    assert any_alarm <= 11, f"{any_alarm} of {runs} analyses called a figure different"
    assert own / tested <= 0.06, f"{own} of {tested} figures' own tests under 0.05"


def test_a_planted_change_is_found() -> None:
    """Every score raised by 60 points (two standard deviations of a game's) under one ruleset: both seats'
    mean scores are called higher (by 30 points, in 6 of these 20 comparisons of 20 deals)."""
    found = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        comparison = compare_rows(synthetic_side(20, seed, rng, shift=60.0), synthetic_side(20, seed, rng), 20)
        verdicts = {d.key: d.verdict for d in comparison.sizes[0].differences}
        found += verdicts["seat.1.mean_score"] == "higher" and verdicts["seat.2.mean_score"] == "higher"
    assert found >= 18


#: Real games: random bots in the metrics games too, so that the two sides' games differ by chance (greedy
#: breaks only ties at random: its games on one deal are nearly the same on both sides).
RANDOM_PLAN = build_plan(PARKER, "parker-1939", {}, (2,), ("random", "greedy"), "random", 16, 1, Path("unused"))


def real_side(deals: int, names_suffix: str) -> list[GameRow]:
    """RANDOM_PLAN's games on real Parker deals, played here; ``names_suffix`` renames the bots, so they
    take seeds of their own (a bot's seed comes from the deal and its name)."""
    plan = attrs.evolve(RANDOM_PLAN, config=attrs.evolve(RANDOM_PLAN.config, deals=deals))
    from tournaments.runner import make_plan

    play = make_plan(plan.config, Path("unused"), workers_share_disk=False)
    play = attrs.evolve(play, names=tuple(name + names_suffix for name in play.names))
    games = list(iter_schedule(len(plan.config.entrants), (2,), deals, plan.config.seed, plan.config.tables))
    batch = play_batch(play, games)
    return [GameRow.from_row(row) for row in batch.rows]


def test_parker_against_itself_with_independent_bots() -> None:
    """25 analyses of 16 deals (48 games a side), the second side's bots seeded apart: measured none of 25
    with any figure called different, and 43 of the 1050 figures' own tests (4.1%) under 0.05."""
    runs, deals, any_alarm, own, tested = 25, 16, 0, 0, 0
    all_rows = real_side(deals * runs, ""), real_side(deals * runs, "/b")
    for run in range(runs):
        chosen = range(deals * run, deals * (run + 1))
        first, second = ([attrs.evolve(row, deal_index=row.deal_index - deals * run) for row in rows
                          if row.deal_index in chosen] for rows in all_rows)
        alarm, below, count = false_alarms(compare_rows(first, second, deals, plan=RANDOM_PLAN))
        any_alarm += alarm
        own += below
        tested += count
    print(f"{any_alarm} of {runs} analyses called some figure different; {own} of {tested} figures' own tests "
          f"({100 * own / tested:.1f}%) under 0.05")  # the README quotes these: pytest -rP shows them
    assert tested > 20 * runs
    assert any_alarm <= 4, f"{any_alarm} of {runs} analyses called a figure different"  # 1.25 expected at 5%
    assert own / tested <= 0.07, f"{own} of {tested} figures' own tests under 0.05"
