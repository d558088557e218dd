"""Suggestions for a record that breaks a rule: the nearest legal events at the bad line, the
likeliest slip first (a mistyped digit, a neighbouring cell, a swapped seat)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from keeping import played_lines

from contack_core import load_rules
from contack_core.records.audit import audit_record
from contack_core.records.suggest import line_cost
from contack_core.records.suggest_study import run_study

PARKER = load_rules("parker-1939")


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def first_play_after_opening(lines: list[dict]) -> int:
    plays = [i for i, line in enumerate(lines) if line.get("event") == "play"]
    return plays[3]


@pytest.mark.parametrize(("field", "slip"), [
    ("tile", lambda line: {**line, "tile": line["tile"][:-1] + ("1" if line["tile"][-1] != "1" else "2")}),
    ("cell", lambda line: {**line, "cell": [line["cell"][0] + 7, line["cell"][1]]}),
    ("seat", lambda line: {**line, "seat": (line["seat"] + 1) % 3}),
])
def test_the_original_line_comes_first(field: str, slip, tmp_path: Path) -> None:
    lines = played_lines(PARKER, 3, seed=5)
    at = first_play_after_opening(lines)
    original = lines[at]
    lines[at] = slip(original)
    verdict = audit_record(write(tmp_path / "r.jsonl", lines))
    assert not verdict.valid and verdict.line == at + 1
    assert verdict.suggestions[0] == original, (field, verdict.error, verdict.suggestions)


def test_suggestions_mirror_the_fields_the_typed_line_states(tmp_path: Path) -> None:
    lines = [line if line.get("event") != "play" else {k: v for k, v in line.items() if k != "points"}
             for line in played_lines(PARKER, 2, seed=3)]
    at = first_play_after_opening(lines)
    original = lines[at]
    lines[at] = {**original, "cell": [original["cell"][0], original["cell"][1] + 9]}
    verdict = audit_record(write(tmp_path / "r.jsonl", lines))
    assert verdict.suggestions[0] == original and "points" not in verdict.suggestions[0]


def test_wrong_scores_at_a_hand_end_are_given_right(tmp_path: Path) -> None:
    lines = played_lines(PARKER, 3, seed=5)
    at = next(i for i, line in enumerate(lines) if line.get("event") == "hand_end")
    right = lines[at]
    lines[at] = {**right, "scores": [s + 10 for s in right["scores"]]}
    verdict = audit_record(write(tmp_path / "r.jsonl", lines))
    assert verdict.line == at + 1 and verdict.suggestions == [right]


def test_a_deal_naming_no_tile_is_mended(tmp_path: Path) -> None:
    lines = played_lines(PARKER, 3, seed=5)
    second = lines[3]
    assert second["event"] == "deal" and second["seat"] == 1
    slipped = second["tiles"][0][:-2] + "00"  # a digit slip that names no tile
    lines[3] = {**second, "tiles": [slipped, *second["tiles"][1:]]}
    verdict = audit_record(write(tmp_path / "r.jsonl", lines))
    assert verdict.line == 4 and f"no tile {slipped!r}" in verdict.error
    assert all(s["event"] == "deal" and s["tiles"][1:] == second["tiles"][1:] for s in verdict.suggestions)
    assert second in verdict.suggestions


@pytest.mark.parametrize(("ruleset", "seats", "kind"), [
    ("klauber-1937", 2, "move"), ("solitaire-1", 1, "discard"), ("solitaire-2", 1, "play"), ("contactack", 3, "draw"),
])
def test_every_kind_of_line_gets_suggestions(ruleset: str, seats: int, kind: str, tmp_path: Path) -> None:
    rules = load_rules(ruleset, {"move_cap": "30"} if ruleset.startswith("klauber") else {})
    lines = played_lines(rules, seats, seed=4)
    at = [i for i, line in enumerate(lines) if line.get("event") == kind][1]
    original = lines[at]
    slipped = dict(original)
    if kind == "move":
        slipped["path"] = [[x, y + 5] for x, y in original["path"]]
    elif kind == "draw":
        slipped["seat"] = (original["seat"] + 1) % seats
    else:
        slipped["tile"] = original["tile"][:1] + ("0" if original["tile"][1] != "0" else "1") + original["tile"][2:]
    lines[at] = slipped
    verdict = audit_record(write(tmp_path / "r.jsonl", lines))
    assert verdict.line == at + 1, verdict
    assert original in verdict.suggestions, (verdict.error, original, verdict.suggestions)


def test_audit_prints_the_suggestions_and_puts_them_in_its_json(tmp_path: Path) -> None:
    lines = played_lines(PARKER, 3, seed=5)
    at = first_play_after_opening(lines)
    original = lines[at]
    lines[at] = {**original, "seat": (original["seat"] + 1) % 3}
    path = write(tmp_path / "r.jsonl", lines)
    text = run_cli("audit", path)
    assert text.exit_code == 1
    assert f"  did you mean: {json.dumps(original)}" in text.output
    verdict = json.loads(run_cli("audit", path, "--json").stdout)
    assert verdict["suggestions"][0] == original and len(verdict["suggestions"]) <= 3
    sound = json.loads(run_cli("audit", write(tmp_path / "s.jsonl", played_lines(PARKER, 3, 5)), "--json").stdout)
    assert sound["valid"] and sound["suggestions"] == []


def test_the_costs_rank_the_slips_a_person_makes() -> None:
    typed = {"event": "play", "seat": 1, "tile": "09-02-08", "cell": [2, 0], "points": 10}
    neighbour = {"event": "play", "seat": 1, "tile": "09-02-08", "cell": [1, 0], "points": 10}
    far = {"event": "play", "seat": 1, "tile": "09-02-08", "cell": [1, -3], "points": 10}
    other_tile = {"event": "play", "seat": 1, "tile": "05-06-07", "cell": [2, 0], "points": 10}
    one_digit = {"event": "play", "seat": 1, "tile": "09-02-03", "cell": [2, 0], "points": 10}
    a_pass = {"event": "pass", "seat": 1}
    slips = [line_cost(typed, meant) for meant in (neighbour, one_digit)]
    costs = [max(slips)] + [line_cost(typed, meant) for meant in (far, other_tile, a_pass)]
    assert costs == sorted(costs) and len(set(costs)) == len(costs)


def test_the_measurement_runs_and_reports_its_figures() -> None:
    figures = run_study("parker-1939", records=24, seed=3)
    assert figures["cases"] == 24 and set(figures["by_kind"]) == {"tile", "cell", "seat"}
    assert figures["first"] <= figures["top3"] <= figures["caught_at_line"] <= figures["cases"]
    assert figures["first_rate"] >= 0.9


# ---------------------------------------------------------------------------- properties
_RECORDS = {(ruleset, seats): played_lines(load_rules(ruleset, options), seats, seed=8)
            for ruleset, options, seats in [("parker-1939", {}, 3), ("club-contack", {}, 2), ("solitaire-1", {}, 1),
                                            ("solitaire-2", {}, 1), ("klauber-1937", {"move_cap": "30"}, 2)]}
_VALUES = st.one_of(st.integers(-3, 20), st.text("0123456789-", max_size=9), st.lists(st.integers(-3, 20), max_size=3),
                    st.none(), st.booleans(), st.integers(min_value=10**30))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.sampled_from(sorted(_RECORDS)), where=st.integers(1, 10**6), key=st.sampled_from(
    ["seat", "tile", "cell", "points", "from", "path", "tiles", "number", "scores", "zone"]), value=_VALUES)
def test_every_suggestion_is_legal_where_it_is_offered(record, where: int, key: str, value, tmp_path: Path) -> None:
    """Whatever one field of one line is changed to, the audit answers (never a traceback), and each
    suggestion, put in place of the bad line, is sound there."""
    lines = [dict(line) for line in _RECORDS[record]]
    at = 1 + where % (len(lines) - 1)
    lines[at] = {**lines[at], key: value}
    verdict = audit_record(write(tmp_path / "r.jsonl", lines))
    if verdict.valid:
        return
    assert len(verdict.suggestions) <= 3
    for suggestion in verdict.suggestions:
        mended = list(lines)
        mended[verdict.line - 1] = suggestion
        again = audit_record(write(tmp_path / "m.jsonl", mended))
        assert again.valid or again.line > verdict.line, (verdict.error, suggestion, again.error)
