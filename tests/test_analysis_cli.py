"""`contack analyze` end to end: every shipped ruleset and example, comparisons with planted changes
found and a ruleset against itself not, JSON, the HTML page, the PNG, resuming, and bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli

from contack_core import load_rules
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from tournaments.analysis.figures import GROUPS


def analyze(*args: object) -> Any:
    result = run_cli("analyze", *args, "--quiet", "--workers", "1")
    assert result.exit_code == 0, result.output
    return result


def analyze_json(*args: object) -> dict[str, Any]:
    return json.loads(analyze(*args, "--json").stdout)


def figures_of(document: dict[str, Any], seats: int | None = None) -> dict[str, dict[str, Any]]:
    sizes = document["table_sizes"]
    size = sizes[0] if seats is None else next(s for s in sizes if s["seats"] == seats)
    return {figure["key"]: figure for figure in size["figures"]}


def test_an_analysis_shows_every_group_with_intervals() -> None:
    output = analyze("parker-1939", "--deals", "6", "--wide").stdout
    assert output.startswith("parker-1939: tables of 2, 6 deals (seed 1), 18 games (18 ok); greedy in every seat; "
                             "skill ladder random < greedy")
    for group in GROUPS:
        assert f"\n│ {group}" in output
    assert "│   seat 1 win rate" in output and "%" in output
    assert "n/a │ parker-1939 has no move action" in output
    assert "Levels of play at tables of 2:" in output


@pytest.mark.parametrize("ruleset", [*shipped_ruleset_ids(), *shipped_example_ids()])
def test_every_shipped_ruleset_and_example_analyses(ruleset: str) -> None:
    rules = load_rules(ruleset, {})
    # Klauber's games stop at 200 moves, not 1,000: what is checked here is that every figure is there.
    capped = ["--option", "move_cap=200"] if rules.options.get("move_cap", 0) > 200 else []
    document = analyze_json(ruleset, "--deals", "2", *capped)
    found = figures_of(document)
    assert document["table_sizes"][0]["seats"] == rules.players[0]
    assert document["table_sizes"][0]["deals"] == 2
    assert set(GROUPS) <= {figure["group"] for figure in found.values()}
    assert all((figure["value"] is None) == (figure["na"] is not None) or figure["deals"] == 0
               for figure in found.values())
    if rules.players[0] == 1:
        assert found["balance"]["na"] == "one seat: no other seat to have an edge over"
        assert found["lead_changes"]["na"] == "one seat: no lead to change"
        assert found["luck"]["value"] is not None
    else:
        assert found["seat.1.win_rate"]["value"] is not None


def test_an_example_against_the_ruleset_it_extends() -> None:
    """A comparison names both sides, and every figure has both values, the difference and a verdict
    (that each example is analysed at all is the test above: a comparison plays the same games twice)."""
    example = "examples/two-discard-piles"
    base = load_rules(example, {}).chain[-2]
    document = analyze_json(example, "--against", base, "--deals", "2")
    assert document["first"]["ruleset"] == example and document["second"]["ruleset"] == base
    for figure in figures_of(document).values():
        assert set(figure) >= {"first", "second", "difference", "significant", "p_value", "verdict"}
        assert figure["significant"] in (True, False, None)


def test_klauber_says_what_does_not_apply_and_why() -> None:
    found = figures_of(analyze_json("klauber-1937", "--deals", "1"))
    assert found["draws_a_game"]["na"] == "klauber-1937 has no draw action"
    assert found["a_hand"]["na"] == "one hand is the game: see the figures a game"
    assert found["games_limited"]["label"] == "games ended by a turn limit (move_cap)"
    assert found["moves_a_game"]["value"] > 0


# --------------------------------------------------------------------------- comparisons
def test_a_ruleset_against_itself_is_the_same_on_every_deal() -> None:
    document = analyze_json("parker-1939", "--against", "parker-1939", "--deals", "8")
    tested = [f for f in figures_of(document).values() if f["na"] is None]
    assert tested and all(f["verdict"] == "the same on every deal" and f["significant"] is False for f in tested)
    assert document["same_tiles"] is True


def test_no_tile_penalty_raises_the_scores() -> None:
    document = analyze_json("parker-1939", "--option-a", "tile_penalty=0", "--against", "parker-1939",
                            "--deals", "20")
    found = figures_of(document)
    for seat in (1, 2):
        figure = found[f"seat.{seat}.mean_score"]
        assert figure["significant"] is True and figure["verdict"] == "higher"
        assert figure["difference"]["low"] > 0
    assert found["decisions_a_game"]["verdict"] == "the same on every deal"  # the bots play as before


def test_no_opportunity_plays_means_fewer_passes() -> None:
    found = figures_of(analyze_json("examples/no-opportunity-plays", "--against", "parker-1939", "--seats", "4",
                                    "--deals", "60"))
    assert found["passes_a_game"]["verdict"] == "lower" and found["passes_a_game"]["significant"] is True


def test_a_heavy_pass_fee_does_not_inflate_drama_by_its_scale_alone() -> None:
    """A pass fee of 60 raised drama in points ("higher", when drama was the points the winner was behind)
    only because it widens every gap: as a share of each game's widest gap it is no higher, while the
    lead's instability, each decision's move in those same gaps, is lower (the fee's big swings set the scale)."""
    found = figures_of(analyze_json("examples/pass-pays-next", "--option-a", "pass_fee=60", "--against",
                                    "parker-1939", "--seats", "4", "--deals", "30"))
    drama = found["drama"]
    assert drama["unit"] == "share" and 0 <= drama["first"]["value"] <= 1 and 0 <= drama["second"]["value"] <= 1
    assert drama["verdict"] != "higher"
    assert found["instability"]["verdict"] == "lower" and found["instability"]["significant"] is True


def test_the_comparison_table() -> None:
    output = analyze("parker-1939", "--option-a", "tile_penalty=0", "--against", "parker-1939", "--deals", "10",
                     "--wide").stdout
    assert output.startswith("parker-1939 (tile_penalty=0) against parker-1939: tables of 2, 10 deals (seed 1), "
                             "the same shuffles (the same tiles)")
    assert "difference = parker-1939 (tile_penalty=0) less parker-1939" in output
    assert "the same on every deal" in output


def test_different_tiles_are_said_to_shuffle_differently() -> None:
    document = analyze_json("examples/two-colours", "--against", "parker-1939", "--deals", "2")
    assert document["same_tiles"] is False


# --------------------------------------------------------------------------- output files
def test_the_html_page_is_self_contained(tmp_path: Path) -> None:
    page = tmp_path / "analysis.html"
    result = analyze("parker-1939", "--option-a", "tile_penalty=0", "--against", "parker-1939", "--deals", "6",
                     "--html", page)
    assert f"page written to {page}" in result.stdout
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and text.count("<svg") >= 2 and "seat 1 mean score" in text
    for fetching in ("src=", "<link", "<script", "url(", "@import"):
        assert fetching not in text


def test_the_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "analysis.png"
    analyze("solitaire-1", "--deals", "3", "--plot", picture)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_plot_is_refused_before_any_game(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    result = run_cli("analyze", "parker-1939", "--plot", tmp_path / "a.png", "--output", tmp_path / "games")
    assert result.exit_code == 1
    assert "--plot needs matplotlib, which is not installed: pip install 'contack[plot]'" in result.output
    assert not (tmp_path / "games").exists()


# --------------------------------------------------------------------------- resuming
def test_the_same_command_resumes_and_grows(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    first = analyze_json("parker-1939", "--deals", "4", "--output", folder)
    database = folder / "parker-1939" / "results.sqlite"

    def stored() -> int:
        with sqlite3.connect(database) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    assert stored() == 12
    again = analyze_json("parker-1939", "--deals", "4", "--output", folder)
    assert again == first and stored() == 12  # nothing played twice
    grown = analyze_json("parker-1939", "--deals", "6", "--output", folder)
    assert stored() == 18 and grown["table_sizes"][0]["deals"] == 6
    refused = run_cli("analyze", "parker-1939", "--deals", "6", "--bots", "random", "--output", folder, "-q")
    assert refused.exit_code == 1  # in the flags the user typed, not the tournament they were made into
    assert refused.output == (f"error: {folder / 'parker-1939'} was made with --bots random,greedy; this run asks "
                              f"for --bots random: use the same --bots (or another --output)\n")
    fewer = run_cli("analyze", "parker-1939", "--deals", "5", "--seats", "3", "--output", folder, "-q")
    assert fewer.exit_code == 1
    assert fewer.output == (f"error: {folder / 'parker-1939'} was made with --seats 2 --deals 6; this run asks for "
                            f"--seats 3 --deals 5: use the same --seats, and --deals 6 or more (or another --output)\n")


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(("args", "code", "message"), [
    (["nonsense"], 1, "no ruleset 'nonsense'"),
    (["parker-1939", "--seats", "9"], 1, "parker-1939 is for 2 to 7 players, not tables of 9"),
    (["parker-1939", "--seats", "two"], 2, "--seats takes a table size or several, N or N,M, not 'two'"),
    (["parker-1939", "--bots", "random,nobody"], 1, "unknown player 'nobody'"),
    (["parker-1939", "--bots", "random,mcts:depth=x"], 1, "mcts"),
    (["parker-1939", "--bots", "random,random"], 1, "a bot appears twice on the ladder"),
    (["parker-1939", "--player", "human"], 1, "human waits for a person at the keyboard; an analysis needs bots"),
    (["parker-1939", "--option", "hands=0"], 1, "hands"),
    (["parker-1939", "--option-b", "hands=2"], 2, "--option-b is for the ruleset of --against"),
    (["parker-1939", "--option", "hands"], 2, "--option takes KEY=VALUE, not 'hands'"),
    (["parker-1939", "--against", "solitaire-1"], 1, "solitaire-1 is for 1 player, not tables of 2"),
    (["parker-1939", "--html", "/no/such/folder/a.html"], 1, "cannot write /no/such/folder/a.html: no folder"),
])
def test_bad_input_is_one_message(args: list[str], code: int, message: str) -> None:
    result = run_cli("analyze", *args, "--deals", "1", "--quiet")
    assert result.exit_code == code, result.output
    assert message in result.output


# --------------------------------------------------------------------------- the engine underneath
@pytest.mark.xdist_group("ray")  # local Ray sessions one at a time (tests/test_tournament_ray.py)
def test_on_a_local_ray_the_same_figures(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray extra is part of the test extra; `make test` installs it")
    local = analyze_json("parker-1939", "--deals", "3")
    result = run_cli("analyze", "parker-1939", "--deals", "3", "--backend", "ray", "--workers", "2", "--json",
                     "--quiet")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == local


def test_a_stop_signal_keeps_the_games_and_says_how_to_resume(tmp_path: Path) -> None:
    import signal

    from processes import GONE, HANG, contack, started, survivors, wait_for
    from test_run_survives import stored

    out = tmp_path / "out"
    command = contack("analyze", "parker-1939", "--deals", "20000", "--output", out, "--workers", "2", "--quiet")
    with started(command) as run:
        assert wait_for(lambda: stored(out / "parker-1939") > 0, within=HANG), run.process.stderr
        run.snapshot()
        run.process.send_signal(signal.SIGINT)
        _, stderr = run.process.communicate(timeout=HANG)
        assert survivors(run.tracked, within=GONE) == []
    assert run.process.returncode == 128 + signal.SIGINT, stderr
    assert "stopped by SIGINT: " in stderr and " of 60000 games of parker-1939 done; resume with: contack analyze " \
        "parker-1939 --deals 20000 --output " in stderr
    assert stored(out / "parker-1939") > 0
