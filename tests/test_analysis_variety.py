"""Deals that differ where chance does not make them (tournaments.play.OpeningPlayer), and `contack analyze
--null`: one ruleset against itself on independent deals, whose verdicts are false by construction."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
from helpers import run_cli

from contack_core import load_rules
from tournaments.analysis import NULL_SEED_OFFSET
from tournaments.analysis.plan import build_plan, has_chance
from tournaments.analysis.report import analyse, compare_analyses
from tournaments.play import play_batch
from tournaments.runner import make_plan
from tournaments.schedule import iter_schedule
from tournaments.store import GameRow

KLAUBER = load_rules("klauber-1937", {})
PARKER = load_rules("parker-1939", {})


def metrics_games(rules, ruleset: str, deals: int, seed: int, opening: int) -> list[GameRow]:
    """The metrics games (greedy in both seats, no ladder) of ``deals`` deals, played here."""
    plan = build_plan(rules, ruleset, {}, (2,), (), "greedy", deals, seed, Path("unused"), opening)
    play = make_plan(plan.config, Path("unused"), workers_share_disk=False)
    games = list(iter_schedule(len(plan.config.entrants), (2,), deals, seed, plan.config.tables))
    return [GameRow.from_row(row) for row in play_batch(play, games).rows]


def test_only_a_ruleset_without_chance_needs_openings() -> None:
    assert not has_chance(KLAUBER, 2) and has_chance(PARKER, 2)


def test_a_random_opening_makes_each_deal_of_a_game_without_chance_a_game_of_its_own() -> None:
    """Klauber's game has no chance and greedy no randomness: without an opening, two deals are one game
    (the same measures move for move); four random decisions, seeded by the deal, part them."""
    same = metrics_games(KLAUBER, "klauber-1937", 2, 1, 0)
    assert same[0].measures == same[1].measures and same[0].scores == same[1].scores
    opened = metrics_games(KLAUBER, "klauber-1937", 2, 1, 4)
    assert opened[0].measures != opened[1].measures
    again = metrics_games(KLAUBER, "klauber-1937", 2, 1, 4)
    assert [row.measures for row in again] == [row.measures for row in opened], "seeded: the same again"


def test_null_compares_the_ruleset_with_itself_on_independent_deals(tmp_path: Path) -> None:
    result = run_cli("analyze", "parker-1939", "--null", "--deals", "3", "--bots", "", "--quiet", "--json",
                     "--output", tmp_path / "games")
    found = json.loads(result.output)
    assert found["independent_deals"] is True
    assert (found["first"]["seed"], found["second"]["seed"]) == (1, 1 + NULL_SEED_OFFSET)
    assert found["first"]["random_opening"] == {"decisions": 0, "why": None}  # Parker deals: chance enough
    text = " ".join(run_cli("analyze", "parker-1939", "--null", "--deals", "3", "--bots", "", "--quiet",
                            "--output", tmp_path / "games").output.split())  # the lines wrap at 80 columns
    assert "--null: the same ruleset on independent deals (seeds 1 and 1000001)" in text
    refused = run_cli("analyze", "parker-1939", "--null", "--against", "threes", "--quiet")
    assert refused.exit_code == 1 and "leave out --against" in refused.output


def test_a_copy_of_a_ruleset_compared_with_it_is_said_to_tell_nothing(tmp_path: Path) -> None:
    """A copy under another id has the same rules (the same digest): on the same deals it plays the same games,
    which the comparison says, pointing at --null; a house rule that differs gets no such line."""
    copy = tmp_path / "copy.yaml"
    copy.write_text("id: parker-copy\ntitle: A copy\nextends: parker-1939\n", encoding="utf-8")
    args = ("--against", "parker-1939", "--deals", "3", "--bots", "", "--quiet")
    found = json.loads(run_cli("analyze", str(copy), *args, "--json", "--output", tmp_path / "a").output)
    assert found["same_rules"] is True
    text = " ".join(run_cli("analyze", str(copy), *args, "--output", tmp_path / "a").output.split())
    assert "The same rules on both sides (the same digest)" in text and "--null compares" in text
    other = json.loads(run_cli("analyze", "threes", *args, "--json", "--output", tmp_path / "b").output)
    assert other["same_rules"] is False


def test_a_bad_ideal_range_is_refused_with_what_it_takes() -> None:
    """Not two numbers: a usage error (2); two numbers out of order: the plan refuses them (1)."""
    for given, code, words in (("80", 2, "takes LEAST-MOST, two whole numbers"), ("a-b", 2, "two whole numbers"),
                               ("80-40", 1, "0 <= LEAST <= MOST")):
        result = run_cli("analyze", "parker-1939", "--ideal-decisions", given, "--quiet")
        assert result.exit_code == code and words in " ".join(result.output.split()), result.output


def test_klauber_analysed_states_its_random_openings(tmp_path: Path) -> None:
    text = " ".join(run_cli("analyze", "klauber-1937", "--deals", "5", "--bots", "", "--quiet", "--output",
                            tmp_path / "games").output.split())  # the lines wrap at 80 columns
    assert "Random openings: the first 4 decisions of every game are drawn at random, seeded by the deal" in text
    assert "klauber-1937 has no chance, so deals would not differ" in text


def test_the_null_comparison_seldom_calls_a_figure_different() -> None:
    """Parker against itself on independent deals, as --null plays it: 20 comparisons of 12 deals (greedy
    in both seats). Measured: 0 of 20 called any figure different (at most 5% expected; 4 or more of
    20 would happen by chance under 2% of the time at 5%)."""
    runs, deals = 20, 12
    first_rows = metrics_games(PARKER, "parker-1939", runs * deals, 1, 0)
    second_rows = metrics_games(PARKER, "parker-1939", runs * deals, 1 + NULL_SEED_OFFSET, 0)
    plan = build_plan(PARKER, "parker-1939", {}, (2,), (), "greedy", deals, 1, Path("unused"))
    alarms = 0
    for run in range(runs):
        chosen = range(deals * run, deals * (run + 1))
        first, second = ([attrs.evolve(row, deal_index=row.deal_index - deals * run) for row in rows
                          if row.deal_index in chosen] for rows in (first_rows, second_rows))
        comparison = compare_analyses(analyse(plan, PARKER, "a", first, 200), analyse(plan, PARKER, "b", second, 200),
                                      True, 200, 1000, independent=True)
        assert comparison.tests >= 20  # the figures were compared
        alarms += any(d.significant for size in comparison.sizes for d in size.differences)
    print(f"{alarms} of {runs} null comparisons called a figure different")  # the README quotes it: pytest -rP
    assert alarms <= 3, f"{alarms} of {runs} null comparisons called a figure different"
