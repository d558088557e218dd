"""``contack keep --scores-only`` (issue 30 item 5): a line a hand, the arithmetic the rules allow
checked as it is typed and again by the audit, which says what it could and could not check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli
from keeping import record_lines

from contack_core import load_rules
from contack_core.records.audit import audit_record
from contack_core.records.scores import Arithmetic, HandFigures, read_hand


def keep(tmp_path: Path, ruleset: str, seats: str, *entries: str, record: str = "s.jsonl",
         options: tuple[str, ...] = (), resume: bool = False) -> tuple[int, str, Path]:
    script = tmp_path / f"{record}.txt"
    script.write_text("\n".join(entries) + "\n", encoding="utf-8")
    path = tmp_path / record
    head = ["--resume", path] if resume else [ruleset, "--seats", seats, "--record", path, "--scores-only",
                                                *(part for option in options for part in ("--option", option))]
    result = run_cli("keep", *head, "--input", script)
    return result.exit_code, result.output, path


def test_a_parker_game_is_kept_a_line_a_hand_and_audits_sound(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "parker-1939", "alice,bob,carol", "35 -20 10", "bob 0, carol -10, alice 30",
                           "55/2 0/4 15/1")
    assert code == 0, out
    assert "hand 3: alice +35, bob -40, carol +5 | total: alice 100, bob -60, carol 5" in out
    assert "the game is over: alice wins" in out
    lines = record_lines(path)
    assert lines[0]["scores_only"] is True
    assert lines[1:] == [
        {"event": "hand", "number": 1}, {"event": "hand_end", "number": 1, "scores": [35, -20, 10]},
        {"event": "hand", "number": 2}, {"event": "hand_end", "number": 2, "scores": [30, 0, -10]},
        {"event": "hand", "number": 3},
        {"event": "hand_end", "number": 3, "scores": [35, -40, 5], "points": [55, 0, 15], "held": [2, 4, 1]},
        {"event": "game_end", "totals": [100, -60, 5], "winners": [0]}]
    result = run_cli("audit", path)
    assert result.exit_code == 0
    assert "s.jsonl: sound, scores only (parker-1939, 3 hands, finished; totals [100, -60, 5])" in result.output
    assert "a hand's score is the points made less 10 for each tile held" in result.output
    assert "  not checked: any play, draw or pass (none is recorded)" in result.output
    verdict = json.loads(run_cli("audit", path, "--json").output)
    assert verdict["scores_only"] and verdict["checked"] and verdict["unchecked"]


@pytest.mark.parametrize(("entry", "message"), [
    ("35 -20", "refused: 2 figures for 3 players (alice, bob, carol, in that order)"),
    ("alice 40, bob 0", "refused: no figure for carol: every player's is needed"),
    ("alice 40, bob 0, dave 5", "refused: no player 'dave'"),
    ("40 0 7", "refused: carol's 7 cannot be a hand's score: points made and tile penalties are multiples of 5"),
    ("52/0 0/4 15/1", "refused: alice made 52 points: points made are multiples of 5"),
    ("55/2 0/4 15", "refused: give every player's points and tiles held (55/2), or every player's score alone"),
    ("55/2 0/99 15/1", "refused: bob cannot hold 99 tiles (the set has 36)"),
    ("forty 0 0", "refused: 'forty 0 0': write each player's name then the figure"),
])
def test_figures_that_do_not_add_up_are_refused_and_nothing_is_written(tmp_path: Path, entry: str,
                                                                        message: str) -> None:
    code, out, path = keep(tmp_path, "parker-1939", "alice,bob,carol", entry)
    assert message in out, out
    assert code == 1 and len(record_lines(path)) == 1


def test_a_stated_score_must_be_the_points_less_the_penalty_by_the_rulesets_own_formula() -> None:
    arithmetic = Arithmetic(load_rules("parker-1939", {"tile_penalty": "5"}), 2)
    arithmetic.check(HandFigures((45, -10), (50, 0), (1, 2)))
    with pytest.raises(ValueError, match=r"seat 0's score is 45 \(50 points made, 1 tiles held at 5 each\), not 40"):
        arithmetic.check(HandFigures((40, -10), (50, 0), (1, 2)))


def test_chips_are_conserved_in_club_contack_and_the_early_end_is_its_timed_games(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "club-contack", "ana,ben,cruz", "3 -1 -1", "3 -1 -2", "55/2 0/4 15/1", "end")
    assert ("refused: the chips moved add up to +1: they only change hands, so a hand's gains and losses add up "
            "to 0") in out
    assert "refused: points made and tiles held can be told apart only in a game scored by its contacts' points" in out
    assert "refused: a game of club-contack ends after its hands (at most 3 hands" in out
    assert [line.get("scores") for line in record_lines(path)[1:]] == [None, [3, -1, -2]]
    code, out, path = keep(tmp_path, "club-contack", "ana,ben,cruz", "3 -1 -2", "end", record="timed.jsonl",
                           options=("timed=on",))
    assert code == 0 and record_lines(path)[-1] == {"event": "game_end", "totals": [28, 24, 23], "winners": [0]}
    result = run_cli("audit", path)
    assert "that the chips are conserved (a player short of them borrows)" in result.output  # not checked there


def test_a_tile_penalty_in_chips_is_what_the_bank_takes() -> None:
    arithmetic = Arithmetic(load_rules("club-contack", {"tile_penalty_chips": "1"}), 3)
    arithmetic.check(HandFigures((2, -1, -3)))  # two chips to the bank
    with pytest.raises(ValueError, match=r"add up to \+1"):
        arithmetic.check(HandFigures((3, -1, -1)))


def test_partners_totals_and_winners_are_written_and_audited(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "contactack", "a,b,c,d", "10 20 30 -40", "0 0 0 0", "5 5 5 5",
                           options=("partnerships=on",))
    assert code == 0, out
    assert record_lines(path)[-1] == {"event": "game_end", "totals": [15, 25, 35, -35], "winners": [0, 2],
                                      "teams": [[0, 2], [1, 3]], "team_totals": [50, -10]}
    assert audit_record(path).valid


def test_undo_and_resume_a_scores_only_record(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "parker-1939", "alice,bob", "10 -10", "20 0", "undo", "quit")
    assert "taken back: hand 2" in out
    code, out, path = keep(tmp_path, "", "", "0 0", "5 5", resume=True)
    assert "carrying on" in out and "(scores only)" in out and "1 hand so far" in out
    assert record_lines(path)[-1] == {"event": "game_end", "totals": [15, -5], "winners": [0]}


def test_an_unsound_scores_only_record_is_not_carried_on(tmp_path: Path) -> None:
    keep(tmp_path, "parker-1939", "alice,bob", "10 -10", "quit")
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines()
    lines[2] = json.dumps({"event": "hand_end", "number": 1, "scores": [10, -12]})
    (tmp_path / "s.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, path = keep(tmp_path, "", "", "0 0", resume=True)
    assert code == 1
    assert f"{path}:3: unsound: bob's -12 cannot be a hand's score" in out
    assert "only a sound record can be carried on: mend that line, or cut the record there" in out
    assert record_lines(path)[2] == {"event": "hand_end", "number": 1, "scores": [10, -12]}  # nothing written


def test_the_audit_finds_a_scores_only_record_that_does_not_add_up(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "parker-1939", "alice,bob", "10 -10", "20 0", "5 5")
    lines = path.read_text(encoding="utf-8").splitlines()
    for at, replacement, message in [
        (-1, {"event": "game_end", "totals": [35, 0], "winners": [0]}, "the totals are [35, -5], not [35, 0]"),
        (2, {"event": "hand_end", "number": 1, "scores": [10, -12]}, "bob's -12 cannot be a hand's score"),
        (2, {"event": "play", "seat": 0, "tile": "01-02-03", "cell": [0, 0]},
         "a scores-only record states hands' results only, not a play"),
    ]:
        changed = list(lines)
        changed[at] = json.dumps(replacement)
        path.write_text("\n".join(changed) + "\n", encoding="utf-8")
        verdict = audit_record(path)
        assert not verdict.valid and message in (verdict.error or ""), verdict


def test_a_game_decided_on_the_board_has_no_scores_only_mode(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "klauber-1937", "a,b", "1 0")
    assert code == 2 and "klauber-1937 is not scored by hands (its result is decided on the board)" in out
    assert not path.exists()


def test_hands_read_in_seat_order_or_by_name() -> None:
    assert read_hand("35 -20 10", ["a", "b", "c"]) == HandFigures((35, -20, 10))
    assert read_hand("c: 10, A=35; b -20", ["a", "b", "c"]) == HandFigures((35, -20, 10))
    assert read_hand("55/2 0/4", ["a", "b"]) == HandFigures((), (55, 0), (2, 4))


@pytest.mark.parametrize("ruleset", ["solitaire-1", "solitaire-2"])
def test_a_solitaires_placed_count_is_one_the_figure_can_hold(tmp_path: Path, ruleset: str) -> None:
    """The solitaires count the tiles in the figure at the end: at least the opening tile the set-up lays,
    at most the whole set; the keeper refuses any other count and the audit says it checked it."""
    code, out, path = keep(tmp_path, ruleset, "sol", "0", "37", "-3", "23")
    for count in (0, 37, -3):
        assert (f"refused: sol's Triangles in the figure cannot be {count}: it is from 1 to 36 (the figure holds "
                f"at least the 1 the set-up lays, at most the 36 of the set)") in out
    assert record_lines(path)[-2:] == [{"event": "hand_end", "number": 1, "scores": [23]},
                                       {"event": "game_end", "totals": [23], "winners": []}]
    result = run_cli("audit", path)
    assert result.exit_code == 0
    assert ("a hand's Triangles in the figure is from 1 to 36: what the ruleset counts of the tiles in the figure, "
            "which holds at least the 1 the set-up lays and at most the 36 of the set") in result.output
    assert "not checked: any play, draw or pass" in result.output
    assert "which tiles were placed, and whether the stock's order let that many be placed" in result.output
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = json.dumps({"event": "hand_end", "number": 1, "scores": [40]})
    lines[3] = json.dumps({"event": "game_end", "totals": [40], "winners": [0]})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == 3
    assert "sol's Triangles in the figure cannot be 40" in (verdict.error or "")


def test_a_count_of_tiles_placed_is_the_same_for_every_seat(tmp_path: Path) -> None:
    """A figure shared by the seats holds one count: a formula of the tiles in the figure alone gives every
    seat the same (a house rule letting two take turns at the solitaire)."""
    house = tmp_path / "two-at-solitaire.yaml"
    house.write_text("format: contack-ruleset/1\nid: two-at-solitaire\ntitle: Two at Solitaire No. 1\n"
                     "extends: solitaire-1\nplayers: {min: 1, max: 2}\n", encoding="utf-8")
    arithmetic = Arithmetic(load_rules(str(house)), 2)
    arithmetic.check(HandFigures((12, 12)))
    with pytest.raises(ValueError, match=r"every player's Triangles in the figure is the same \(the tiles in the one "
                                         r"figure\): seat 0 12, seat 1 13"):
        arithmetic.check(HandFigures((12, 13)))
