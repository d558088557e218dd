"""Every figure of an analysis (tournaments/analysis/figures.py) on games made by hand: stored games
with what each measured, whose figures are worked out by hand in each test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

from contack_core import load_rules
from tournaments.analysis.figures import (
    Figure,
    anova_sums,
    figures,
    games_by_table,
    gap,
    ideal_duration,
    rung_outcomes,
    variance_share,
    win_shares,
)
from tournaments.analysis.plan import build_plan
from tournaments.analysis.report import analyse
from tournaments.play import competition_ranks
from tournaments.store import GameRow

PARKER = load_rules("parker-1939", {})
# Entrants: greedy#1 (0), greedy#2 (1), random#1 (2). Tables of 2: the metrics table (0, 1) played once
# as it sits, and the ladder's (0, 2) under both rotations.
PLAN = build_plan(PARKER, "parker-1939", {}, (2,), ("random", "greedy"), "greedy", 2, 1, Path("unused"))


def hand(reason: str, opener: int | None, scores: list[int], plays: int = 0, draws: int = 0, passes: int = 0
         ) -> dict[str, Any]:
    return {"number": 1, "reason": reason, "opener": opener, "scores": scores, "decisions": plays + draws + passes,
            "plays": plays, "draws": draws, "passes": passes, "discards": 0, "moves": 0}


def game(deal: int, seating: tuple[int, ...], scores: tuple[int, ...], winners: tuple[int, ...] | None = None,
         **measures: Any) -> GameRow:
    """A stored game: ranks from the scores, winners the best scores unless given."""
    best = max(scores)
    winners = tuple(s for s, score in enumerate(scores) if score == best) if winners is None else winners
    blank = {"hands": [hand("went_out", 0, list(scores))], "legal": 0, "choices": 0, "unseen": 0,
             "lead_changes": 0, "drama": None, "trailed": None, "decided_at": None}
    return GameRow(f"{deal}-{seating}", 1000 + deal, deal, len(seating), 0, seating, tuple(map(str, seating)), scores,
                   competition_ranks(scores), 0.0, "ok", (), "", winners, None, {**blank, **measures})


METRICS_GAMES = [
    game(0, (0, 1), (100, 90), hands=[hand("went_out", 1, [60, 40], plays=7, draws=2, passes=1),
                                      hand("all_passed", 0, [40, 50], plays=5, draws=1, passes=2)],
         legal=30, choices=6, lead_changes=2, drama=10, trailed=True, decided_at=0.5, behind_at_half=True,
         drama_share=0.4, margin=0.2, uncertainty=0.7, instability=0.3),
    game(1, (0, 1), (40, 60), hands=[hand("sealed", 0, [40, 60], plays=6)],
         legal=10, choices=3, unseen=1, lead_changes=0, drama=0, trailed=False, decided_at=0.25, behind_at_half=False,
         drama_share=0.0,
         margin=0.6, uncertainty=0.5, instability=0.1),
]


def values(plan: Any, rows: list[GameRow], rules: Any = PARKER, size: int = 2) -> dict[str, Figure]:
    return {figure.key: figure for figure in figures(plan, rules, size, rows)}


def value(figure: Figure) -> float:
    assert figure.na is None and figure.statistic is not None, figure.na
    return float(figure.statistic(figure.per_deal().sum(axis=0)[None, :])[0])


def test_seat_advantage_and_balance() -> None:
    found = values(PLAN, METRICS_GAMES)
    assert value(found["seat.1.win_rate"]) == 0.5 and value(found["seat.2.win_rate"]) == 0.5
    assert value(found["seat.1.mean_score"]) == 70 and value(found["seat.2.mean_score"]) == 75
    # Openers' hands: seat 1 scored 40 to 60 (-20), seat 0 40 to 50 (-10), seat 0 40 to 60 (-20).
    assert value(found["opener_edge"]) == pytest.approx(-50 / 3)
    assert value(found["balance"]) == 0.0
    assert found["seat.1.win_rate"].deals == (0, 1)


def test_the_balance_gap_and_shared_wins() -> None:
    assert gap(np.array([[3.0, 1.0, 4.0]])) == pytest.approx([0.5])  # seats won 3 and 1 of 4 games
    assert win_shares([0, 2], [[0, 2], [1, 3]], 4) == [1.0, 0.0, 1.0, 0.0]  # partners win together
    assert win_shares([0, 1, 2, 3], [[0, 2], [1, 3]], 4) == [0.5] * 4  # both sides level: half each
    assert win_shares([], [[0], [1]], 2) == [0.0, 0.0]  # nobody won
    tied = values(PLAN, [game(0, (0, 1), (50, 50)), game(1, (0, 1), (60, 40))])
    assert value(tied["seat.1.win_rate"]) == 0.75 and value(tied["balance"]) == 0.5


def test_endings() -> None:
    found = values(PLAN, METRICS_GAMES)
    for ending in ("went_out", "all_passed", "sealed"):
        assert value(found[f"hand_end.{ending}"]) == pytest.approx(1 / 3)
    assert found["games_limited"].na == "parker-1939 has no turn limit: every game ends by its rules"
    assert value(found["no_winner"]) == 0.0
    nobody = values(PLAN, [game(0, (0, 1), (1, 1), winners=()), game(1, (0, 1), (2, 1))])
    assert value(nobody["no_winner"]) == 0.5


def test_games_a_turn_limit_ended() -> None:
    """Klauber's move cap is a turn limit: of two games, one reached it (nobody won), one ended by the rules."""
    klauber = load_rules("klauber-1937", {})
    plan = build_plan(klauber, "klauber-1937", {}, (2,), ("random", "greedy"), "greedy", 2, 1, Path("unused"))
    rows = [game(0, (0, 1), (6, 6), winners=(), hands=[hand("move_cap", 0, [6, 6], plays=1000)]),
            game(1, (0, 1), (3, 0), hands=[hand("one_side_left", 0, [3, 0], plays=412)])]
    found = values(plan, rows, klauber)
    assert found["games_limited"].label == "games ended by a turn limit (move_cap)"
    assert value(found["games_limited"]) == 0.5 and value(found["no_winner"]) == 0.5
    assert value(found["hand_end.move_cap"]) == 0.5 and value(found["hand_end.one_side_left"]) == 0.5


def test_duration_and_branching() -> None:
    found = values(PLAN, METRICS_GAMES)
    assert value(found["hands"]) == 1.5
    expected_a_game = {"decisions": 12, "plays": 9, "draws": 1.5, "passes": 1.5}
    expected_a_hand = {"decisions": 8, "plays": 6, "draws": 1, "passes": 1}
    for kind, expected in expected_a_game.items():
        assert value(found[f"{kind}_a_game"]) == expected
        assert value(found[f"{kind}_a_hand"]) == expected_a_hand[kind]
    assert found["moves_a_game"].na == "parker-1939 has no move action"
    assert found["discards_a_hand"].na == "parker-1939 has no discard action"
    # 40 legal actions over the 23 decisions whose actions were counted (24 less 1 unseen).
    assert value(found["branching"]) == pytest.approx(40 / 23)
    assert value(found["choices"]) == pytest.approx(9 / 23)


def test_the_lead() -> None:
    found = values(PLAN, METRICS_GAMES)
    # 2 lead changes over the 24 decisions of both games: 8 1/3 a 100 decisions, not 1 a game.
    assert value(found["lead_changes"]) == pytest.approx(100 * 2 / 24)
    assert found["lead_changes"].label == "lead changes a 100 decisions"
    # Drama as a share of each game's widest gap (0.4 and 0): comparable across rulesets' scales.
    assert value(found["drama"]) == pytest.approx(0.2) and found["drama"].unit == "share"
    assert value(found["behind_at_half"]) == 0.5 and "trailed" not in found
    assert value(found["decided_at"]) == pytest.approx(0.375)


# Games of both tables for skill depth and luck. Deal 0: every game 100-90 (the seat-1 hand wins);
# deal 1: 40-60, 40-60 and 50-58. The ladder's seatings: deal 0 (0, 2) then (2, 0), deal 1 reversed.
LADDER_GAMES = [
    game(0, (0, 1), (100, 90)), game(0, (0, 2), (100, 90)), game(0, (2, 0), (100, 90)),
    game(1, (0, 1), (40, 60)), game(1, (2, 0), (40, 60)), game(1, (0, 2), (50, 58)),
]


def test_skill_depth_is_the_stronger_bots_share_ahead() -> None:
    """greedy (entrant 0) against random (2): deal 0, ahead in seat 1 and behind in seat 2 (1/2); deal 1,
    ahead in seat 2 (60 to 40) and behind in seat 1 (50 to 58): 1/2 again."""
    by_table = games_by_table(PLAN, 2, LADDER_GAMES)
    assert rung_outcomes(PLAN.rungs[0], PLAN, 2, by_table) == {0: {"ahead": 1.0, "pairs": 2.0},
                                                               1: {"ahead": 1.0, "pairs": 2.0}}
    rung = values(PLAN, LADDER_GAMES)["skill.greedy>random"]
    assert value(rung) == 0.5
    interval, verdict = rung.summarise(lambda deals: np.ones((1, deals)))
    assert interval.value == 0.5 and verdict == "too few deals" and interval.why == "no interval from 2 deals (it takes 5)"


def test_a_ladder_rung_a_bot_wins_every_time_is_a_level() -> None:
    rows = [game(d, seating, (90, 10) if seating[0] == 0 else (10, 90)) for d in range(8)
            for seating in ((0, 2), (2, 0))]
    rows += [game(d, (0, 1), (50, 40)) for d in range(8)]
    plan = attrs.evolve(PLAN, config=attrs.evolve(PLAN.config, deals=8))
    size = analyse(plan, PARKER, "parker-1939", rows, resamples=100).sizes[0]
    rung = next(f for f in size.figures if f.key == "skill.greedy>random")
    assert rung.value.value == 1.0 and rung.verdict == "greedy ahead (95%)"
    assert size.levels == 2


def test_luck_is_the_share_of_variance_the_hand_explains() -> None:
    """Relative scores (score less the table's mean) by cell (deal, seat): deal 0 seat 1: 5, 5, 5 and seat 2:
    -5, -5, -5; deal 1 seat 1: -10, -10, -4 and seat 2: 10, 10, 4. Between cells: 3 (25 + 25 + 64 + 64)
    = 534 over 3 degrees of freedom, 178; within: 24 + 24 = 48 over 8, 6; cell size 3:
    ICC = (178 - 6) / (178 + 2 * 6) = 172 / 190."""
    luck = values(PLAN, LADDER_GAMES)["luck"]
    assert value(luck) == pytest.approx(172 / 190)


def test_the_variance_share_against_numpy() -> None:
    rng = np.random.default_rng(3)
    cells = [list(rng.normal(mean, 1.0, size)) for mean, size in zip(rng.normal(0, 2, 30), rng.integers(2, 6, 30))]
    sums = np.array([[anova_sums(cells)[name] for name in ("anova_n", "anova_sum", "anova_squares",
                                                            "anova_cell_squares", "anova_cells", "anova_cell_sizes")]])
    flat = np.concatenate(cells)
    sizes = np.array([len(c) for c in cells])
    between = sum(len(c) * (np.mean(c) - flat.mean()) ** 2 for c in cells) / (len(cells) - 1)
    within = sum(((np.array(c) - np.mean(c)) ** 2).sum() for c in cells) / (len(flat) - len(cells))
    n0 = (len(flat) - (sizes ** 2).sum() / len(flat)) / (len(cells) - 1)
    assert variance_share(sums)[0] == pytest.approx((between - within) / (between + (n0 - 1) * within))
    no_luck = anova_sums([[1.0, -1.0], [1.0, -1.0], [1.0, -1.0]])
    assert variance_share(np.array([list(no_luck.values())]))[0] == 0.0  # clipped at 0


def test_figures_that_do_not_apply_say_why() -> None:
    solitaire = load_rules("solitaire-1", {})
    plan = build_plan(solitaire, "solitaire-1", {}, (1,), ("random", "greedy"), "greedy", 2, 1, Path("unused"))
    # Entrants: greedy#1 (0: the metrics games and the ladder's stronger), random#1 (1).
    rows = [game(d, (e,), (21 - e,), winners=()) for d in range(2) for e in range(2)]
    found = values(plan, rows, solitaire, size=1)
    assert found["opener_edge"].na == "one seat: no other seat to have an edge over"
    assert found["balance"].na == "one seat: no other seat to have an edge over"
    assert found["lead_changes"].na == "one seat: no lead to change"
    assert found["a_hand"].na == "one hand is the game: see the figures a game"
    assert found["hands"].na == "a game of solitaire-1 is one hand"
    assert found["passes_a_game"].na == "solitaire-1 has no pass action"
    assert value(found["seat.1.win_rate"]) == 0.0
    # At a solitaire each bot plays the deal alone, and the better count is ahead: greedy placed more.
    assert value(found["skill.greedy>random"]) == 1.0


def test_a_bot_off_the_ladder_and_a_ladder_of_one() -> None:
    alone = attrs.evolve(PLAN, ladder=("greedy",), rungs=(), refused={"mcts": "player 'mcts' does not play it"})
    found = values(alone, METRICS_GAMES)
    assert found["skill.mcts"].na == "player 'mcts' does not play it"
    assert found["skill"].na.startswith("the ladder needs two bots")
    assert found["luck"].na.startswith("each hand is played once")


def test_a_deal_not_finished_is_left_out() -> None:
    broken = attrs.evolve(METRICS_GAMES[1], status="error", scores=None)
    found = values(PLAN, [METRICS_GAMES[0], broken])
    assert found["seat.1.win_rate"].deals == (0,)
    assert value(found["seat.1.mean_score"]) == 100


def test_a_share_of_few_deals_has_no_interval() -> None:
    from tournaments.paired import compare

    few = compare("a", "b", [1.0, 0.5], 0)  # a t interval of two deals would reach far past both ends
    assert few.share.value == 0.75 and few.share.low is None and few.verdict == "too few deals"


def test_a_pair_level_on_every_deal_gets_an_interval_from_its_comparisons() -> None:
    """Level on every one of 10 deals: the interval comes from the comparisons the deals hold (more games
    level, a narrower interval around 1/2), never from a count of wins the pair did not have."""
    from tournaments.paired import compare

    two = compare("a", "b", [1.0] * 10, 0, [2.0] * 10)  # each deal: two games, each level (1/2 + 1/2)
    eight = compare("a", "b", [4.0] * 10, 0, [8.0] * 10)
    for pair in (two, eight):
        assert pair.share.value == 0.5 and 0.0 < pair.share.low < 0.5 < pair.share.high < 1.0
        assert pair.verdict == "indistinguishable so far"
    assert eight.share.high - eight.share.low < 0.6 * (two.share.high - two.share.low)


# --------------------------------------------------------------------------- Ludii's metrics
def test_ludii_drawishness_counts_draws_by_the_rules_not_turn_limits() -> None:
    """Klauber: of four games one reached the move cap (nobody won: not a draw by Ludii's count), one ended
    level by the rules (a draw), two were won: drawishness 1/4, games nobody won 2/4."""
    klauber = load_rules("klauber-1937", {})
    plan = build_plan(klauber, "klauber-1937", {}, (2,), ("random", "greedy"), "greedy", 2, 1, Path("unused"))
    rows = [game(0, (0, 1), (6, 6), winners=(), hands=[hand("move_cap", 0, [6, 6], plays=1000)]),
            game(1, (0, 1), (2, 2), winners=(), hands=[hand("one_side_left", 0, [2, 2], plays=40)]),
            game(2, (0, 1), (3, 0), hands=[hand("one_side_left", 0, [3, 0], plays=412)]),
            game(3, (0, 1), (0, 3), hands=[hand("one_side_left", 0, [0, 3], plays=100)])]
    found = values(plan, rows, klauber)
    assert found["drawishness"].group == "Ludii's metrics"
    assert value(found["drawishness"]) == 0.25 and value(found["no_winner"]) == 0.5
    assert "turn limit (move_cap) not counted" in found["drawishness"].about


def test_ludii_outcome_uniformity() -> None:
    """Seat 1 wins three games of four: each seat's outcomes 1, 1, 1, -1 (or mirrored), mean 1/2, variance
    (1/4 + 1/4 + 1/4 + 9/4) / 4 = 3/4, uniformity 1/4. A seat that always wins (and one always last): no
    variance, uniformity 1; each seat winning half the games, 0."""
    mixed = [game(d, (0, 1), (9, 1) if d < 3 else (1, 9)) for d in range(4)]
    assert value(values(PLAN, mixed)["outcome_uniformity"]) == pytest.approx(0.25)
    halves = [game(d, (0, 1), (9, 1) if d < 2 else (1, 9)) for d in range(4)]
    assert value(values(PLAN, halves)["outcome_uniformity"]) == pytest.approx(0.0)
    always = [game(d, (0, 1), (9, 1)) for d in range(4)]
    assert value(values(PLAN, always)["outcome_uniformity"]) == pytest.approx(1.0)
    assert "1 less the variance" in values(PLAN, always)["outcome_uniformity"].about


def test_ludii_uncertainty_instability_and_margin_are_each_games_means() -> None:
    found = values(PLAN, METRICS_GAMES)
    assert value(found["uncertainty"]) == pytest.approx(0.6)
    assert value(found["instability"]) == pytest.approx(0.2)
    assert value(found["margin"]) == pytest.approx(0.4)
    for key in ("uncertainty", "instability", "margin"):
        assert found[key].group == "Ludii's metrics" and "widest gap" in found[key].about
    assert found["margin"].empty.startswith("no game was won by some sides over others")


def test_ludii_duration_and_branching_spread() -> None:
    """Decisions a game 18 and 6: a standard deviation of sqrt(72). Legal actions 1, 2, 3 at the three decisions
    of one game and 2 at the one decision of another: mean 2, squares 0 + 1 + 1 + 0 over 3."""
    found = values(PLAN, METRICS_GAMES)
    assert value(found["duration_spread"]) == pytest.approx(72 ** 0.5)
    rows = [game(0, (0, 1), (5, 1), hands=[hand("went_out", 0, [5, 1], plays=3)], legal=6, legal_squares=14),
            game(1, (0, 1), (5, 1), hands=[hand("went_out", 0, [5, 1], plays=1)], legal=2, legal_squares=4)]
    assert value(values(PLAN, rows)["branching_spread"]) == pytest.approx((2 / 3) ** 0.5)
    # Games stored before the squares were measured count in none of it.
    assert values(PLAN, METRICS_GAMES)["branching_spread"].per_deal().sum() == 0


def test_ludii_clarity_is_each_games_mean_over_the_decisions_judged() -> None:
    """Two games whose judged decisions gave a narrowness of 0.25 and 0.75 on average, and spreads of 4 and 2
    points: the figures are the means over games, 0.5 and 3, each with its definition."""
    rows = [game(0, (0, 1), (5, 1), clarity=0.25, clarity_spread=4.0, clarity_judged=3),
            game(1, (0, 1), (5, 1), clarity=0.75, clarity_spread=2.0, clarity_judged=16)]
    found = values(PLAN, rows)
    assert value(found["clarity"]) == pytest.approx(0.5)
    assert value(found["clarity_spread"]) == pytest.approx(3.0)
    assert found["clarity"].unit == "share" and found["clarity_spread"].unit == "score"
    assert "Ludii's clarity narrowness" in found["clarity"].about and "every legal action" in found["clarity"].about
    assert "Ludii's clarity variance" in found["clarity_spread"].about
    # Games stored before clarity was measured: no value, and why.
    old = analyse(PLAN, PARKER, "parker-1939", METRICS_GAMES, resamples=100)
    shown = {f.key: f for f in old.sizes[0].figures}
    assert shown["clarity"].na is not None and "before clarity was measured" in shown["clarity"].na


def test_ludii_branching_board_and_score_metrics_are_each_games_means() -> None:
    """Two games: the most legal actions 6 and 2 (mean 4); changes -1 and 0 a decision; 14 legal actions over 5
    decisions with a choice; final gaps 10 and 30 (mean 20); pieces +1 and +0.5 a decision; repetition 0.2 and
    0.4 of positions, 0 and 0.1 of situations. Parker's lattice has no edge: no board coverage, and no move
    action: no move distance. One game won of two: completion 1/2."""
    ludii = dict(legal_max=6, choice_legal=10, choices=3, legal_change=-1.0, final_gap=10, pieces_change=1.0,
                 positional_repetition=0.2, situational_repetition=0.0, move_steps=0, moves_measured=0)
    rows = [game(0, (0, 1), (9, 1), **ludii),
            game(1, (0, 1), (5, 5), winners=(), **{**ludii, "legal_max": 2, "choice_legal": 4, "choices": 2,
                                                    "legal_change": 0.0, "final_gap": 30, "pieces_change": 0.5,
                                                    "positional_repetition": 0.4, "situational_repetition": 0.1})]
    found = values(PLAN, rows)
    assert value(found["completion"]) == 0.5
    assert value(found["branching_max"]) == 4
    assert value(found["branching_change"]) == -0.5
    assert value(found["decision_factor"]) == pytest.approx(14 / 5)
    assert value(found["score_difference"]) == 20
    assert value(found["pieces_change"]) == 0.75
    assert value(found["positional_repetition"]) == pytest.approx(0.3)
    assert value(found["situational_repetition"]) == pytest.approx(0.05)
    assert "no edge" in (found["coverage"].na or "") and "no edge" in (found["coverage_mean"].na or "")
    assert "no move action" in (found["move_distance"].na or "")
    for key in ("completion", "branching_max", "branching_change", "decision_factor", "score_difference",
                "pieces_change", "positional_repetition", "situational_repetition", "coverage", "move_distance"):
        assert found[key].group == "Ludii's metrics" and "Ludii's" in found[key].about
    # Games stored before these were measured count in none of them, and say why.
    old = values(PLAN, METRICS_GAMES)
    assert old["branching_max"].per_deal().sum() == 0
    shown = {f.key: f for f in analyse(PLAN, PARKER, "parker-1939", METRICS_GAMES, resamples=100).sizes[0].figures}
    assert shown["branching_max"].na is not None and "before this metric was measured" in shown["branching_max"].na


def test_ludii_ideal_duration_of_one_game_and_over_games() -> None:
    """Ludii's IdealDuration with the range 40-80 decisions: 1 inside; 20 decisions, half of 40; 120, halfway
    from 80 to twice 80; 200, beyond twice 80: 0. Two games of 18 and 6 decisions (METRICS_GAMES) with the
    range 12-100: 1 and 0.5, a mean of 0.75; the label names the range."""
    assert [ideal_duration(d, 40, 80) for d in (40, 60, 80)] == [1.0, 1.0, 1.0]
    assert ideal_duration(20, 40, 80) == 0.5 and ideal_duration(0, 0, 1000) == 1.0
    assert ideal_duration(120, 40, 80) == 0.5 and ideal_duration(200, 40, 80) == 0.0
    plan = attrs.evolve(PLAN, ideal=(12, 100))
    found = values(plan, METRICS_GAMES)["ideal_duration"]
    assert value(found) == pytest.approx(0.75)
    assert found.label == "ideal duration (12-100 decisions)" and "Ludii's IdealDuration" in found.about


def test_ludii_board_coverage_and_move_distance_on_a_board_of_pieces() -> None:
    """Klauber's board has points: coverage 0.5 and 0.3 ever (mean 0.4), 0.1 and 0.2 on average; moves of 7
    steps in 5 moves and 3 in 5: 1 a move."""
    klauber = load_rules("klauber-1937", {})
    plan = build_plan(klauber, "klauber-1937", {}, (2,), ("random", "greedy"), "greedy", 2, 1, Path("unused"))
    common = dict(legal_max=3, choice_legal=3, choices=1, moves_measured=5)
    rows = [game(0, (0, 1), (3, 1), coverage=0.5, coverage_mean=0.1, move_steps=7, **common),
            game(1, (0, 1), (3, 1), coverage=0.3, coverage_mean=0.2, move_steps=3, **common)]
    found = values(plan, rows, klauber)
    assert value(found["coverage"]) == pytest.approx(0.4)
    assert value(found["coverage_mean"]) == pytest.approx(0.15)
    assert value(found["move_distance"]) == 1.0


def test_the_balance_is_shown_beside_what_chance_alone_gives() -> None:
    """Two seats, 30 games, each seat as likely to win: the gap |2X/30 - 1|, X binomial(30, 1/2), has mean 14.4%
    (worked out exactly here); the label shows it, so a gap of that size reads as no edge."""
    from math import comb

    from tournaments.analysis.figures import balanced_gap

    exact = sum(comb(30, x) * abs(2 * x - 30) / 30 for x in range(31)) / 2 ** 30
    assert balanced_gap(2, 30) == pytest.approx(exact, abs=0.003)
    rows = [game(d, (0, 1), (9, 1) if d % 2 else (1, 9)) for d in range(30)]
    chance = f"{100 * balanced_gap(2, 30):.1f}%"
    assert found_label(values(PLAN, rows)["balance"]) == f"win-rate gap between seats (chance alone: {chance})"
    assert balanced_gap(4, 100) > balanced_gap(4, 1000) > 0


def found_label(figure: Figure) -> str:
    return figure.label


def test_ludii_metrics_at_a_solitaire_say_why_not() -> None:
    solitaire = load_rules("solitaire-1", {})
    plan = build_plan(solitaire, "solitaire-1", {}, (1,), ("random", "greedy"), "greedy", 2, 1, Path("unused"))
    found = values(plan, [game(0, (0,), (21,), winners=())], solitaire, size=1)
    assert found["drawishness"].na == "one seat: a solitaire is won or lost, not drawn"
    assert found["outcome_uniformity"].na == "one seat: no other seat to measure against"


def test_a_share_that_is_a_mean_gets_a_means_interval() -> None:
    """Drama 0.49 or 0.51 of the widest gap in each of 30 games: a Wilson interval would take each game for a
    coin toss (about 0.33 to 0.67); the mean's interval is as narrow as the games are alike, and within [0, 1]."""
    rows = [game(d, (0, 1), (9, 1), drama=5, trailed=True, decided_at=0.5, drama_share=0.49 + 0.02 * (d % 2),
                 margin=0.99 + 0.01 * (d % 2), uncertainty=0.5, instability=0.1) for d in range(30)]
    plan = attrs.evolve(PLAN, config=attrs.evolve(PLAN.config, deals=30))
    size = analyse(plan, PARKER, "parker-1939", rows, resamples=200).sizes[0]
    found = {figure.key: figure.value for figure in size.figures}
    drama, margin = found["drama"], found["margin"]
    assert drama.value == pytest.approx(0.5) and drama.low > 0.48 and drama.high < 0.52
    assert margin.low > 0.98 and margin.high <= 1.0
