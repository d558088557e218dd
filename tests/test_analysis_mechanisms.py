"""The mechanisms a rule changes (tournaments/analysis/mechanisms.py): counted from the events of
played games and the ruleset's own counters, they add up to the scores; a house rule's bonus
shows as what its fact earns; and `contack analyze --against` calls the bonus higher."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli

from contack_core import load_rules
from tournaments.analysis.mechanisms import counter_whens, passes_to_others
from tournaments.play import Plan, play_one
from tournaments.schedule import schedule

#: The issue's house rule: +10 for an opportunity play and +2 for a matching contact.
BONUS = """\
format: contack-ruleset/1
id: opportunity-bonus
title: Contack, 10 an opportunity play and 2 a matching contact (house rule)
extends: parker-1939
scoring:
  score:
    on_play: "points + (10 if opportunity else 0) + 2 * matching"
"""


@pytest.fixture
def bonus(tmp_path: Path) -> Path:
    path = tmp_path / "opportunity-bonus.yaml"
    path.write_text(BONUS, encoding="utf-8")
    return path


def mechanisms(ruleset: str, bots: str = "random", games: int = 3) -> list[tuple[Any, dict[str, float]]]:
    """Played games of ``ruleset`` at its smallest table: each result and what its mechanisms counted."""
    rules = load_rules(ruleset, {})
    seats = rules.players[0]
    plan = Plan(ruleset, {}, tuple(f"r{i}" for i in range(seats)), (bots,) * seats, ruleset, measure=True)
    out = []
    for game in schedule(seats, [seats], games, seed=7)[:games]:
        result = play_one(plan, game)
        assert result.status == "ok" and result.measures is not None
        out.append((result, result.measures["mechanisms"]))
    return out


def gained(rules: Any, counted: dict[str, float], key: str) -> float:
    """What every rule of counter ``key`` changed it by, in one game (every seat's)."""
    counter = rules.counters[key]
    return sum(counted.get(f"gain:{key}:{when}", 0.0) for when in counter_whens(counter)) + \
        sum(counted.get(f"gain:{key}:{kind}:others", 0.0) for kind in passes_to_others(counter))


def test_the_bonus_is_what_its_facts_earn(bonus: Path) -> None:
    """Each opportunity play earns 10 and each matching contact 2, and the gains by source add up to the
    scores the games ended with."""
    rules = load_rules(str(bonus), {})
    played = mechanisms(str(bonus), games=4)
    assert sum(counted["fact:play:opportunity"] for _, counted in played) > 0
    assert sum(counted["fact:play:matching"] for _, counted in played) > 0
    for result, counted in played:
        assert counted["part:score:play:opportunity"] == 10 * counted["fact:play:opportunity"]
        assert counted["part:score:play:matching"] == 2 * counted["fact:play:matching"]
        assert gained(rules, counted, "score") == sum(result.scores)
        assert counted["gain:score:hand_end"] < 0  # 10 a tile held


@pytest.mark.parametrize("ruleset", ["parker-1939", "klauber-1937", "solitaire-1", "examples/pass-pays-next",
                                     "examples/draws-cost", "examples/going-out-bonus", "club-contack",
                                     "examples/most-counts-bonus"])
def test_the_gains_add_up_to_the_scores(ruleset: str) -> None:
    """Whatever rules change a counter, what the mechanisms put down to each adds up to the game's change."""
    rules = load_rules(ruleset, {})
    counter = rules.match.counter
    for result, counted in mechanisms(ruleset):
        start = rules.counters[counter].starting_total(len(result.scores))
        assert gained(rules, counted, counter) == pytest.approx(sum(result.scores) - start * len(result.scores))


def test_a_draw_cost_and_a_pass_fee_are_put_down_to_draws_and_passes() -> None:
    for _, counted in mechanisms("examples/draws-cost"):
        assert counted["gain:score:draw"] <= 0 and counted.get("gain:score:pass", 0) == 0
    assert sum(c["gain:score:draw"] for _, c in mechanisms("examples/draws-cost")) < 0
    passing = mechanisms("examples/pass-pays-next", games=6)
    assert sum(c["gain:score:pass"] for _, c in passing) < 0
    assert all(c["gain:score:pass"] == -c["gain:score:pass:others"] for _, c in passing)  # paid to the next seat


def test_pieces_captured_on_a_board() -> None:
    played = mechanisms("klauber-1937", bots="greedy")
    assert all(counted["fact:move:captured"] > 0 for _, counted in played)


def test_chips_collected() -> None:
    assert all(counted["chips:collect"] > 0 for _, counted in mechanisms("club-contack"))


def figures_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {figure["key"]: figure for figure in document["table_sizes"][0]["figures"]}


def analyze_json(*args: object) -> dict[str, Any]:
    result = run_cli("analyze", *args, "--quiet", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_issues_house_rule_against_parker(bonus: Path) -> None:
    """The issue's example: the figures of opportunity plays and matching contacts are shown, with what each
    earns, and what each earns is called higher (Parker's rules give nothing for either)."""
    found = figures_of(analyze_json(bonus, "--against", "parker-1939", "--deals", "20"))
    for key in ("mechanism.play.opportunity", "mechanism.play.matching"):
        assert found[key]["first"]["value"] > 0 and found[key]["second"]["value"] > 0
        assert found[key]["verdict"] in ("higher", "lower", "no clear difference", "the same on every deal")
    for key in ("mechanism.score.play.opportunity", "mechanism.score.play.matching"):
        figure = found[key]
        assert figure["first"]["value"] > 0 and figure["second"]["value"] == 0
        assert figure["verdict"] == "higher" and figure["significant"] is True
        assert figure["difference"]["low"] > 0
    assert found["mechanism.score.play"]["verdict"] == "higher"
    assert found["mechanism.score.play.opportunity"]["label"] == "score for opportunity (a seat's plays)"


def test_the_other_way_round_the_bonus_is_lower(bonus: Path) -> None:
    found = figures_of(analyze_json("parker-1939", "--against", bonus, "--deals", "20"))
    assert found["mechanism.score.play.matching"]["verdict"] == "lower"
    assert found["mechanism.score.play.matching"]["first"]["value"] == 0


def test_the_table_shows_the_mechanisms(bonus: Path) -> None:
    result = run_cli("analyze", bonus, "--deals", "3", "--quiet", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "\n mechanisms " in result.stdout and "\n opportunity plays a game " in result.stdout


def test_a_fact_taken_as_0_where_the_formula_cannot_take_it_leaves_the_game_alone(tmp_path: Path) -> None:
    """A formula that divides by a fact (sound in play: a play with contacts has a pair) cannot say what
    the fact earns: the game is played and measured all the same, and what the fact earns is left out."""
    path = tmp_path / "pair-bonus.yaml"
    path.write_text(BONUS.replace("opportunity-bonus", "pair-bonus").replace(
        '"points + (10 if opportunity else 0) + 2 * matching"',
        '"points + 60 // high_pair if contacts > 0 else points"'), encoding="utf-8")
    rules = load_rules(str(path), {})
    for result, counted in mechanisms(str(path)):
        assert "part:score:play:high_pair" not in counted
        assert counted["part:score:play:contacts"] > 0
        assert gained(rules, counted, "score") == sum(result.scores)
    found = figures_of(analyze_json(path, "--deals", "3"))
    assert found["mechanism.score.play.high_pair"]["na"] == (
        "on_play 'points + 60 // high_pair if contacts > 0 else points' cannot be worked out with high_pair 0, so "
        "what high_pair earns is unknown")
    assert found["mechanism.score.play.contacts"]["value"] > 0


def test_a_count_is_never_drawn_below_0() -> None:
    """Rare events (one opportunity play in six deals) give a mean whose t interval reaches below 0: a count's
    interval stops at 0, where the true value cannot be less, and is otherwise the mean's interval."""
    import numpy as np

    from tournaments.analysis.figures import Aggregates, Figure, ratio
    from tournaments.statistics import mean_of_deals_interval, resample_counts

    games = Aggregates((0, 1, 2, 3, 4, 5), {"seen": np.array([0, 0, 0, 0, 0, 6.0]), "games": np.ones(6)})
    counts = resample_counts(6, 1000, np.random.default_rng(1))
    plain = mean_of_deals_interval(games.matrix(["seen", "games"]), counts)
    assert plain.low is not None and plain.low < 0
    count = Figure("c", "mechanisms", "c", "c", "c", games, ("seen", "games"), ratio, floor=0.0)
    clipped = count.interval(games.matrix(["seen", "games"]), counts)
    assert (clipped.value, clipped.low, clipped.high) == (plain.value, 0.0, plain.high)


def test_games_stored_before_mechanisms_were_measured_are_not_counted_as_none(tmp_path: Path) -> None:
    """An analysis resumed from games stored without mechanisms says so, rather than count 0 for them."""
    import sqlite3

    folder = tmp_path / "games"
    first = figures_of(analyze_json("parker-1939", "--deals", "3", "--output", folder))
    assert first["mechanism.play.counting"]["value"] > 0
    with sqlite3.connect(folder / "parker-1939" / "results.sqlite") as connection:
        for key, measures in connection.execute("SELECT key, measures FROM games WHERE measures IS NOT NULL"
                                                ).fetchall():
            stripped = {k: v for k, v in json.loads(measures).items() if k != "mechanisms"}
            connection.execute("UPDATE games SET measures = ? WHERE key = ?", (json.dumps(stripped), key))
    again = figures_of(analyze_json("parker-1939", "--deals", "3", "--output", folder))
    assert again["mechanism.play.counting"]["value"] is None
    assert again["mechanism.play.counting"]["na"].startswith("the games stored were played before mechanisms")
    assert again["plays_a_game"]["value"] == first["plays_a_game"]["value"]
