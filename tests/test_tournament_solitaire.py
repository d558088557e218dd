"""Solitaire tournaments for real: the shipped solitaire-1 and solitaire-2 configs run end to
end through ``contack tournament run`` and ``report``; every entrant plays every deal alone,
each deal ranks them by their own score, and every record audits sound. Also what makes the
score-reading bots fit for a solitaire (a play is worth the tile it places), and mcts playing one."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from importlib import resources
from pathlib import Path

import pytest
from helpers import read_lines, run_cli

from contack_core.engine.actions import Play
from contack_core.engine.bots import installed_players, make_player
from contack_core.engine.referee import play_game
from contack_core.engine.state import GameState
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import audit_record
from players.evaluation import measure
from tournaments.config import load_config
from tournaments.report import competition_ranks, outcomes
from tournaments.store import Store

DEALS = 4


@pytest.fixture(scope="module", params=["solitaire-1", "solitaire-2"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, dict]:
    """The shipped config, cut to a few deals, run and reported through the CLI."""
    name = request.param
    folder = tmp_path_factory.mktemp(name)
    text = (resources.files("tournaments") / f"{name}.yaml").read_text(encoding="utf-8")
    assert "deals: 50" in text
    config = folder / f"{name}.yaml"
    config.write_text(text.replace("deals: 50", f"deals: {DEALS}"), encoding="utf-8")
    out = folder / "out"
    run = run_cli("tournament", "run", config, "--output", out, "--workers", "2", "--quiet")
    assert run.exit_code == 0, run.output
    games = 4 * DEALS
    assert f"{games} games in the schedule, 0 already done, {games} played now ({games} ok)" in run.output
    report = run_cli("tournament", "report", out, "--json", "--bootstrap", "20")
    assert report.exit_code == 0, report.output
    return name, out, json.loads(report.output)


def finals(out: Path) -> dict[int, dict[str, int]]:
    """Per deal seed, each entrant's final score, read from the records themselves."""
    scores: dict[int, dict[str, int]] = defaultdict(dict)
    for record in sorted((out / "records").glob("*.jsonl")):
        lines = read_lines(record)
        header, end = lines[0], lines[-1]
        assert end["event"] == "game_end" and len(header["seats"]) == 1
        scores[header["seed"]][header["seats"][0]] = end["totals"][0]
    return scores


def test_the_shipped_solitaire_configs_load_by_name() -> None:
    for name in ("solitaire-1", "solitaire-2"):
        config = load_config(name)
        assert config.ruleset == name and config.seats == (1,) and config.deals == 50
        assert [e.player for e in config.entrants] == ["random", "random", "greedy", "cautious"]


def test_every_entrant_plays_every_deal_alone_and_every_record_audits_sound(played: tuple[str, Path, dict]) -> None:
    name, out, _ = played
    records = sorted((out / "records").glob("*.jsonl"))
    assert len(records) == 4 * DEALS
    for record in records:
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, (record, verdict)
        assert read_lines(record)[0]["ruleset"] == name
    scores = finals(out)
    assert len(scores) == DEALS
    assert all(set(entrants) == {"dice", "coin", "greedy", "cautious"} for entrants in scores.values())


def test_each_deal_ranks_the_entrants_by_their_own_score(played: tuple[str, Path, dict]) -> None:
    _, out, report = played
    scores = finals(out)
    with Store.open_existing(out) as store:
        names = [e["name"] for e in store.config_document()["entrants"]]
        contests = outcomes(list(store.games()))
    assert sorted(c.group for c in contests) == sorted(scores)
    wins: dict[str, float] = defaultdict(float)
    for contest in contests:
        deal = scores[contest.group]
        entrants = [names[e] for e in contest.entrants]
        assert sorted(entrants) == sorted(deal)
        expected = competition_ranks([deal[name] for name in entrants])
        assert list(contest.ranks) == expected and list(contest.scores or ()) == [deal[n] for n in entrants]
        winners = [n for n, rank in zip(entrants, expected) if rank == 1]
        for winner in winners:
            wins[winner] += 1 / len(winners)
    standings = {s["name"]: s for s in report["standings"]}
    for name in names:
        assert standings[name]["games"] == DEALS
        assert standings[name]["win_rate"]["value"] == pytest.approx(wins[name] / DEALS)
        mean = sum(deal[name] for deal in scores.values()) / DEALS
        assert standings[name]["mean_score"]["value"] == pytest.approx(mean)


def test_the_report_gives_each_entrants_completion_rate_and_tiles_placed_apart_from_the_per_deal_ranking(
        played: tuple[str, Path, dict]) -> None:
    _, out, report = played
    by_name = {s["name"]: s for s in report["solitaire"]}
    assert set(by_name) == {"dice", "coin", "greedy", "cautious"}
    with Store.open_existing(out) as store:
        rows = list(store.games())
    for name, standing in by_name.items():
        own = [row for row in rows if row.names == (name,)]
        assert standing["games"] == len(own) == DEALS
        completed = sum(0 in (row.winners or ()) for row in own)
        assert standing["completion_rate"]["value"] == completed / DEALS
        low, high = standing["completion_rate"]["low"], standing["completion_rate"]["high"]
        # Four deals are too few for an interval: said, not shown as one (tests/test_statistics.py has the
        # Wilson interval of 0 completions in 30).
        assert low is None and high is None
        assert standing["completion_rate"]["no_interval"] == f"no interval from {DEALS} deals (it takes 5)"
        assert standing["mean_tiles_placed"]["value"] == pytest.approx(sum(row.placed for row in own) / DEALS)
        assert all(row.placed == row.scores[0] for row in own), "a solitaire's score is the tiles placed"
    text = run_cli("tournament", "report", out, "--bootstrap", "10").output
    assert "Solitaire results: each entrant's own games" in text and "completed [95%]" in text
    assert "Per-deal ranking: entrants ranked against each other on each deal" in text
    assert "first on a deal" in text and "win rate" not in text


def test_greedy_and_cautious_play_a_solitaire_alike_and_tie_on_every_deal(played: tuple[str, Path, dict]) -> None:
    _, out, report = played
    assert all(deal["greedy"] == deal["cautious"] for deal in finals(out).values())
    assert report["head_to_head"]["greedy"]["cautious"] == {"ahead": 0.5, "games": DEALS}


@pytest.mark.parametrize("ruleset", ["solitaire-1", "solitaire-2"])
def test_in_a_solitaire_every_play_is_worth_the_tile_it_places(ruleset: str) -> None:
    """Including the play that ends the game: a bot must not prefer blocking itself."""
    rules = load_rules(ruleset, {})
    greedy = make_player("greedy", 3, {n: e.load() for n, e in installed_players().items()}, rules)
    state, checked, rng = GameState(rules, 1), 0, random.Random(3)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        for action in state.legal_actions():
            if type(action) is Play:
                after = state.clone()
                after.apply(action)
                assert measure(after)[0] - measure(state)[0] == 1, action
                checked += 1
        state.apply(greedy.choose(state))
    assert checked > 10


def test_greedy_no_longer_blocks_itself_in_solitaire_2() -> None:
    """It used to see no worth in a play but the last, so it sought the end: about 12 Triangles a game."""
    rules = load_rules("solitaire-2", {})
    available = {n: e.load() for n, e in installed_players().items()}
    placed = [play_game(rules, [make_player("greedy", seed, available, rules)], seed).scores()[0]
              for seed in range(30)]
    assert sum(placed) / len(placed) > 17


def test_mcts_plays_a_solitaire_and_a_config_may_enter_it(tmp_path: Path) -> None:
    rules = load_rules("solitaire-1", {})
    available = {n: e.load() for n, e in installed_players().items()}
    state = play_game(rules, [make_player("mcts:iterations=30", 0, available, rules)], 4)
    assert state.is_over() and not state.faults
    text = (resources.files("tournaments") / "solitaire-1.yaml").read_text(encoding="utf-8")
    config = tmp_path / "mcts.yaml"
    config.write_text(text.replace("player: cautious", "player: mcts"), encoding="utf-8")
    assert [e.player for e in load_config(str(config)).entrants][-1] == "mcts"
