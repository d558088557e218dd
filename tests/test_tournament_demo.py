"""The shipped demo tournament end to end: run, every record audits sound, the report in
every form (rich table, JSON, CSV, PNG)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from helpers import run_cli

from contack_core.records.audit import audit_record


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "results"
    result = run_cli("tournament", "run", "demo", "--output", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert "192 games in the schedule, 0 already done, 192 played now (192 ok)" in result.output
    return out


def test_every_record_of_the_demo_audits_sound(demo: Path) -> None:
    records = sorted((demo / "records").glob("*.jsonl"))
    assert len(records) == 192
    for record in records:
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, (record, verdict)


def test_the_report_shows_each_table_size_the_pooled_fit_pairs_duplicate_deals_and_faults(demo: Path) -> None:
    result = run_cli("tournament", "report", demo)
    assert result.exit_code == 0, result.output
    text = result.output
    for heading in ("Standings, tables of 3 (144 games, 12 deals)", "Standings, tables of 4 (48 games, 12 deals)",
                    "Pooled rating: one Plackett-Luce fit over the finishing orders of tables of 3 and 4 together",
                    "Seat order", "Paired comparisons: over the deals both played in full", "north vs east",
                    "Cross-table", "What duplicate deals save: the variance of an entrant's mean result",
                    "No bot faults"):
        assert heading in text, heading
    assert "UNFINISHED" not in text
    for name in ("north", "east", "south", "west"):
        assert name in text
    assert "192 games (192 ok), 24 deal groups" in text


def test_the_json_report_has_intervals_around_every_estimate(demo: Path) -> None:
    result = run_cli("tournament", "report", demo, "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert [s["rank"] for s in report["standings"]] == [1, 2, 3, 4]
    for standing in report["standings"]:
        assert standing["games"] == 156  # 3 of 4 triples and the one four-table, 12 deals, every rotation
        for measure in ("rating", "mean_score", "win_rate"):
            value = standing[measure]
            assert value["low"] <= value["value"] <= value["high"], (standing["name"], measure, value)
    ratings = [s["rating"]["value"] for s in report["standings"]]
    assert ratings == sorted(ratings, reverse=True)
    assert {(e["table_size"], e["seat"]) for e in report["seat_effects"]} == \
        {(3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3)}
    h2h = report["head_to_head"]
    assert h2h["north"]["east"]["ahead"] + h2h["east"]["north"]["ahead"] == pytest.approx(1.0)
    assert h2h["north"]["east"]["games"] == 12 * 3 * 2 + 12 * 4  # two shared triples and the four-table
    assert report["faults"] == {} and report["engine_errors"] == 0


def test_the_csv_report_has_one_row_per_entrant_and_table_size_then_the_pooled_fit(demo: Path) -> None:
    result = run_cli("tournament", "report", demo, "--csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["table_size"], r["rank"]) for r in rows] == [(size, str(rank)) for size in ("3", "4", "pooled")
                                                            for rank in range(1, 5)]
    assert float(rows[0]["rating"]) >= float(rows[3]["rating"])
    assert {"rating_low", "rating_high", "win_rate", "faults"} <= set(rows[0])


def test_the_json_report_has_pairs_a_cross_table_and_what_duplicate_deals_save(demo: Path) -> None:
    report = json.loads(run_cli("tournament", "report", demo, "--json").stdout)
    assert report["finished"] is True and report["scheduled"] == 192 and report["pooled_table_sizes"] == [3, 4]
    assert [s["games"] for s in report["by_table_size"]["3"]] == [108] * 4
    pairs = report["paired_comparisons"]
    assert len(pairs) == 6 and all(p["deals"] == 24 and p["partial_deals"] == 0 for p in pairs)
    for pair in pairs:
        share = pair["a_ahead_share"]
        assert share["low"] < share["value"] < share["high"]
        won, lost, tied = (report["cross_table"][pair["a"]][pair["b"]][k] for k in ("wins", "losses", "ties"))
        assert won + lost + tied == 12 * 3 * 2 + 12 * 4
        assert report["cross_table"][pair["b"]][pair["a"]] == {"wins": lost, "losses": won, "ties": tied}
    assert {(d["table_size"], d["measure"]) for d in report["duplicate_deals"]} == \
        {(size, measure) for size in (3, 4) for measure in ("score relative to the table", "first place")}
    assert {(d["table_size"], d["games"]) for d in report["duplicate_deals"]} == {(3, 144), (4, 48)}  # not seats


def test_the_plot_is_a_png(demo: Path, tmp_path: Path) -> None:
    picture = tmp_path / "report.png"
    result = run_cli("tournament", "report", demo, "--json", "--plot", picture)
    assert result.exit_code == 0, result.output
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 10_000


def test_json_and_csv_together_are_refused(demo: Path) -> None:
    result = run_cli("tournament", "report", demo, "--json", "--csv")
    assert result.exit_code == 2 and "choose one" in result.output
