"""Corrections at the table (issue 30 item 4): an earlier entry fixed in place, a play the table
agreed to let stand although the rules refuse it, and audit suggestions that insert a missing line.

The games kept here are real ones (played by random players, typed back in through ``keeping.py``),
or the three-player deal of ``test_keeper.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli
from keeping import entries_for, played_lines, record_lines

from contack_core import load_rules
from contack_core.records.audit import audit_record
from contack_core.records.keeper import Keeper
from contack_core.web.game import WebGame

PARKER_ONE_HAND = load_rules("parker-1939", {"hands": 1})
DEAL = ["06-02-05 08-09-10 08-09-06 05-09-10 07-03-06", "05-06-07 09-10-01 07-08-02 07-08-09 06-07-04",
        "08-09-03 09-05-08 06-07-08 10-03-09 02-09-10"]


def keep(tmp_path: Path, *entries: str, record: str = "game.jsonl", resume: bool = False,
         ruleset: str = "parker-1939", seats: str = "alice,bob,carol", options: tuple[str, ...] = ()
         ) -> tuple[int, str, Path]:
    script = tmp_path / f"{record}.entries.txt"
    script.write_text("\n".join(entries) + "\n", encoding="utf-8")
    path = tmp_path / record
    head = ["--resume", path] if resume else [ruleset, "--seats", seats, "--record", path,
                                                *(part for option in options for part in ("--option", option))]
    result = run_cli("keep", *head, "--input", script)
    return result.exit_code, result.output, path


def audit(path: Path, *flags: str) -> tuple[int, str]:
    result = run_cli("audit", path, *flags)
    return result.exit_code, result.output


# ---------------------------------------------------------------------------- fix N ENTRY
def test_fixing_an_earlier_play_replays_the_rest_and_says_the_scores_that_moved(tmp_path: Path) -> None:
    source = played_lines(PARKER_ONE_HAND, 2, seed=2)
    assert source[36] == {"event": "play", "seat": 1, "tile": "04-08-09", "cell": [6, -2], "points": 0}
    entries = entries_for(PARKER_ONE_HAND, source, ["ann", "ben"], tmp_path)
    code, out, path = keep(tmp_path, *entries, "entries all", "fix 37 04-08-09 0,-1", seats="ann,ben",
                           options=("hands=1",))
    assert code == 0, out
    assert "the game is over (fix N ENTRY, undo, entries, sheet or quit)> entries all" in out  # after the end, too
    assert "   37  ben 04-08-09 on [6, -2]" in out  # entries lists each entry by its line
    assert "fixed line 37: ben 04-08-09 on [6, -2] -> ben 04-08-09 on [0, -1]; 7 later entries replayed" in out
    assert "scores moved: ben 55 -> 60" in out
    lines = record_lines(path)
    assert lines[36] == {"event": "play", "seat": 1, "tile": "04-08-09", "cell": [0, -1], "points": 5}
    assert [line for line in lines[37:] if line["event"] not in ("hand_end", "game_end")] == \
        [line for line in source[37:] if line["event"] not in ("hand_end", "game_end")]  # the later entries, as they were
    assert lines[-1]["totals"] == [130, 60]
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished and verdict.totals == [130, 60]


def test_fixing_a_mistyped_deal_takes_out_the_first_later_entry_that_no_longer_holds(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "893 1,1",
                           "fix 4 05-06-07 09-10-01 07-08-02 01-02-03 06-07-04")
    assert ("fixed line 4: bob dealt 05-06-07 09-10-01 07-08-02 07-08-09 06-07-04 -> bob dealt 05-06-07 09-10-01 "
            "07-08-02 01-02-03 06-07-04; 1 later entry replayed") in out
    assert "scores moved: bob 10 -> 0, carol 15 -> 0" in out
    assert ("line 7 no longer holds (bob 07-08-09 on [1, 0]: it is carol's turn now, not bob's): it and the 1 "
            "entry after it are taken out; enter them again as they should be: bob 07-08-09 on [1, 0]; "
            "carol 08-09-03 on [1, 1]") in out
    lines = record_lines(path)
    assert lines[3]["tiles"][3] == "01-02-03"
    assert lines[-1] == {"event": "play", "seat": 1, "tile": "01-02-03", "cell": [0, 0], "points": 0}  # bob opens now
    assert audit_record(path).valid


def test_a_fix_that_breaks_a_later_rule_names_it(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "10-3-9 2,0", "fix 7 782 1,0")
    assert ("line 8 no longer holds (carol 10-03-09 on [2, 0]: gold 9 against gold 2 neither matches nor counts)"
            in out)
    assert record_lines(path)[-1] == {"event": "play", "seat": 1, "tile": "07-08-02", "cell": [1, 0], "points": 10}


def test_undo_right_after_a_fix_puts_the_record_back(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "893 1,1")
    before = path.read_bytes()
    code, out, path = keep(tmp_path, "fix 4 05-06-07 09-10-01 07-08-02 01-02-03 06-07-04", "undo", resume=True)
    assert "taken back: the last fix; the record is as it was before it" in out
    assert path.read_bytes() == before
    code, out, path = keep(tmp_path, "fix 8 10-3-9 2,0", "undo", "undo", resume=True)
    assert out.count("taken back: the last fix") == 1  # the first undo takes back the fix, the second an entry
    assert "taken back: carol 08-09-03 on [1, 1]" in out
    assert len(record_lines(path)) == 7


TWO_DEALS = ["7-8-9 2-3-4 8-9-6 9-10-1 1-5-6", "1 8 9, 2 6 7, 3 4 1, 5 1 4, 7 8 5"]


@pytest.mark.parametrize("correction", [
    ["undo", "undo", TWO_DEALS[1]],  # the play and the deal taken back, the deal entered again
    ["fix 6 9101 left of 341", "189 above 9101"],  # the 5-point play replaced by one of none
    ["insert 6 9101 left of 341", "189 above 9101"],  # the 5-point play taken out by the one inserted before it
])
def test_what_a_correction_rebuilt_is_not_told_again_as_a_score_change(tmp_path: Path, correction: list[str]) -> None:
    """An undo, a fix or an insert replays the game untold: the narrator measures the next score change from
    the game rebuilt, not from the one it last told (a's 5 points, gone: told as a stale "a -5")."""
    code, out, path = keep(tmp_path, *TWO_DEALS, "234 below 341", *correction, seats="a,b")
    after = out[out.index(f"> {correction[-1]}\n"):]
    assert "   score:" not in after, after


@pytest.mark.parametrize("correction", [["undo", "undo", TWO_DEALS[1]], ["fix 6 9101 left of 341", "189 above 9101"]])
def test_the_web_table_tells_no_stale_score_change_after_a_correction(tmp_path: Path, correction: list[str]) -> None:
    path = tmp_path / "web.jsonl"
    keeper = Keeper.start(load_rules("parker-1939"), ["a", "b"], path, lambda text: None)
    game = WebGame(keeper)
    try:
        for entry in (*TWO_DEALS, "234 below 341", *correction[:-1]):
            assert game.enter(entry)["accepted"]
        answer = game.enter(correction[-1])
        assert answer["accepted"] and not any("score:" in message for message in answer["messages"]), answer
    finally:
        keeper.close()


@pytest.mark.parametrize(("entry", "message"), [
    ("fix 6 789 1,0", "refused: line 6 (play) is not an entry: it follows from the entry on line 5, which is the one "
                      "to fix"),
    ("fix 1 pass", "refused: no entry on line 1 (the entries are on lines 3 to 7; entries lists them)"),
    ("fix 40 pass", "refused: no entry on line 40"),
    ("fix 7 782 2,0", "refused: cell [2, 0] touches no tile of the figure"),
    ("fix 7 782", "refused: write the entry in full in a fix (TILE X,Y)"),
    ("fix 7 1", "refused: a number picks from the last list: write the entry in full here"),
    ("fix seven 782 1,0", "refused: write fix N ENTRY"),
])
def test_a_fix_that_cannot_be_made_is_refused_and_changes_nothing(tmp_path: Path, entry: str, message: str) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0")
    before = path.read_bytes()
    code, out, path = keep(tmp_path, entry, resume=True)
    assert message in out, out
    assert code == 1 and path.read_bytes() == before


def test_a_fix_on_the_web_table_goes_through_the_same_keeper(tmp_path: Path) -> None:
    path = tmp_path / "web.jsonl"
    keeper = Keeper.start(load_rules("parker-1939"), ["alice", "bob", "carol"], path, lambda text: None)
    game = WebGame(keeper)
    try:
        for entry in (*DEAL, "789 1,0"):
            assert game.enter(entry)["accepted"]
        answer = game.enter("fix 7 782 1,0")  # the same length and points: only the revision tells it changed
        assert answer["accepted"] and answer["version"] == 5
        assert any("fixed line 7" in message for message in answer["messages"])
    finally:
        keeper.close()
    assert record_lines(path)[-1]["tile"] == "07-08-02"


# ---------------------------------------------------------------------------- agreed ENTRY
def test_an_agreed_pass_is_marked_in_the_record_and_listed_by_the_audit(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "pass", "agreed pass")
    assert "refused: carol may not pass now: carol can still play (2 tiles fit)" in out
    assert ("let stand by the table's agreement, although carol may not pass now: carol can still play (2 tiles fit) "
            "(the record marks it agreed)") in out
    assert record_lines(path)[-1] == {"event": "pass", "seat": 2, "agreed": True}
    code, out = audit(path)
    assert code == 0
    assert "game.jsonl: sound with exceptions (parker-1939, 0 hands, not finished; totals [0, 0, 0])" in out
    assert "  line 8: carol may not pass now: carol can still play (2 tiles fit)" in out
    code, out = audit(path, "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["valid"]
    assert verdict["exceptions"] == [{"line": 8, "rule": "carol may not pass now: carol can still play (2 tiles fit)"}]
    code, out = audit(path, "--strict")
    assert code == 1
    code, out, path = keep(tmp_path, "8-9-6 2,0", resume=True)  # the game goes on from there
    assert record_lines(path)[-1] == {"event": "play", "seat": 0, "tile": "08-09-06", "cell": [2, 0], "points": 15}


def test_an_agreed_play_whose_numbers_make_no_contact_is_laid_the_way_its_colours_meet(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 below 06-02-05", "agreed 789 below 06-02-05", "?")
    assert "refused: blue 7 against blue 6 neither matches nor counts" in out
    assert "although blue 7 against blue 6 neither matches nor counts (the record marks it agreed)" in out
    assert "bob (seat 1) plays 07-08-09 at [0, -1]: Blue 7+6 missed contact -> 0 points" in out
    assert record_lines(path)[-1] == {"event": "play", "seat": 1, "tile": "07-08-09", "cell": [0, -1], "points": 0,
                                      "agreed": True}
    assert "  1. 06-07-08 on [-1, -1] (left of 07-08-09): 15 points" in out  # the game goes on around it
    verdict = audit_record(path)
    assert verdict.valid and verdict.exceptions == [
        {"line": 7, "rule": "blue 7 against blue 6 neither matches nor counts"}]


def test_an_agreed_play_out_of_turn_passes_the_turn_on_from_its_player(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "carol: 2-9-10 -1,0", "agreed carol: 2-9-10 -1,0", "entries")
    assert "refused: it is bob's turn, not carol's" in out
    assert "although it is bob's turn, not carol's" in out
    assert "    7  carol 02-09-10 on [-1, 0] (agreed)" in out
    line = record_lines(path)[-1]
    assert line["seat"] == 2 and line["tile"] == "02-09-10" and line["agreed"] is True
    assert "alice (seat 0) to play" in out.split("let stand by the table's agreement")[1]
    verdict = audit_record(path)
    assert verdict.valid and verdict.exceptions == [{"line": 7, "rule": "it is bob's turn, not carol's"}]


@pytest.mark.parametrize(("entry", "message"), [
    ("agreed 789 1,0", "refused: this entry breaks no rule: type it without agreed"),
    ("agreed 893 1,0", "refused: tile 08-09-03 is not in bob's hand (it is in carol's hand)"),  # no agreement makes it so
    ("agreed 789 5,5", "refused: cell [5, 5] touches no tile of the figure"),
    ("agreed 789 0,0", "refused: "),  # a cell taken
    ("agreed", "refused: write agreed ENTRY"),
])
def test_what_cannot_be_done_at_all_is_not_agreed(tmp_path: Path, entry: str, message: str) -> None:
    code, out, path = keep(tmp_path, *DEAL, entry)
    assert message in out, out
    assert len(record_lines(path)) == 6


def test_the_audit_refuses_an_agreed_line_that_breaks_no_rule_and_one_that_cannot_be(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[-1] = lines[-1][:-1] + ', "agreed": true}'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = audit(path)
    assert code == 1 and "game.jsonl:7: unsound: this line is marked agreed, but it breaks no rule" in out
    lines[-1] = json.dumps({"event": "play", "seat": 1, "tile": "08-09-03", "cell": [1, 0], "agreed": True})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = audit(path)
    assert code == 1 and "game.jsonl:7: unsound: tile 08-09-03 is not in bob's hand" in out
    lines[-1] = json.dumps({"event": "play", "seat": 1, "tile": "07-08-09", "cell": [1, 0], "agreed": False})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = audit(path)
    assert code == 1 and "agreed: True was expected" in out


def test_an_agreed_klauber_move_lifts_how_far_which_way_and_where_it_ends(tmp_path: Path) -> None:
    """On a board of moving pieces an agreed move lifts what the table can see and let pass (how many
    steps, a step diagonally across a square, ending side by side with an opponent), as an agreed play
    lifts where a tile may lie; the piece is turned and its contacts settled as after any move."""
    code, out, path = keep(tmp_path, "agreed 7,0 to 7,14", "5,16 5,15 5,14", "7,14 7,15", "agreed 7,14 7,15",
                           "agreed 4,16 3,15", "agreed bob: 2,16 2,15 2,14", ruleset="klauber-1937", seats="ann,bob")
    assert "although this piece moves exactly 1 step, not 14 (the record marks it agreed)" in out
    assert "refused: it would end on [7, 15] side by side with an opponent's piece on [7, 16]" in out
    assert "removed: [6, 16], [8, 16]" in out  # the contacts of the agreed move are settled
    assert "ann 12 (12 tiles), bob 10 (10 tiles)" in out  # the score: the pieces each side has left
    lines = record_lines(path)[2:]
    assert [(line["seat"], line["from"], line["path"][-1], line.get("agreed", False)) for line in lines] == [
        (0, [7, 0], [7, 14], True), (1, [5, 16], [5, 14], False), (0, [7, 14], [7, 15], True),
        (1, [4, 16], [3, 15], True), (1, [2, 16], [2, 14], True)]
    assert len(lines[0]["path"]) == 14  # "7,0 to 7,14": every point between, a step at a time
    assert lines[2]["removed"] == [[6, 16], [8, 16]]
    assert "ann (seat 0) to move" in out.rsplit("let stand by the table's agreement", 1)[1]  # on from bob
    verdict = audit_record(path)
    assert verdict.valid and [e["line"] for e in verdict.exceptions] == [3, 5, 6, 7]
    assert verdict.exceptions[2]["rule"] == ("[4, 16] to [3, 15] is not one step along a line (never diagonally "
                                             "across a square)")
    assert verdict.exceptions[3]["rule"] == "it is ann's turn, not bob's"


@pytest.mark.parametrize(("entry", "message"), [
    ("agreed 7,16 7,15 7,14", "refused: the piece on [7, 16] is bob's, not ann's to move"),
    ("agreed 7,5 7,6", "refused: no piece stands on [7, 5]"),
    ("agreed 5,0 5,1 6,0", "refused: point [6, 0] is taken: a piece moves only over and onto empty points"),
    ("agreed 2,0 2,-1", "refused: point [2, -1] is off the board"),
    ("agreed 2,0 to 4,3", "refused: [2, 0] to [4, 3] is no step: a piece steps from a point to one next to it"),
    ("agreed 5,0 5,1 5,2", "refused: this entry breaks no rule: type it without agreed"),
])
def test_an_agreed_klauber_move_is_still_one_a_hand_can_make(tmp_path: Path, entry: str, message: str) -> None:
    code, out, path = keep(tmp_path, entry, ruleset="klauber-1937", seats="ann,bob")
    assert message in out, out
    assert len(record_lines(path)) == 2


def test_an_agreed_move_of_a_partners_piece_lifts_the_partners_condition(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "agreed 7,16 7,15", ruleset="klauber-1937", seats="a,b,c,d",
                           options=("partners=on",))
    assert record_lines(path)[-1]["seat"] == 0 and record_lines(path)[-1]["from"] == [7, 16]  # c's piece, a's move
    assert audit_record(path).exceptions == [
        {"line": 3, "rule": "a partner's piece may be moved only to take an opponent's piece or to save it from "
                            "being taken"}]


def test_a_move_of_another_players_piece_says_how_to_let_it_stand(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "7,16 7,15 7,14", "agreed bob: 7,16 7,15 7,14", ruleset="klauber-1937",
                           seats="ann,bob")
    assert ("refused: the piece on [7, 16] is bob's, not ann's\n  if bob moved it, out of turn, and the table lets it "
            "stand: agreed bob: 7,16 7,15 7,14") in out
    assert record_lines(path)[-1]["seat"] == 1 and record_lines(path)[-1]["agreed"] is True
    assert audit_record(path).exceptions == [{"line": 3, "rule": "it is ann's turn, not bob's"}]


def test_the_audit_refuses_an_agreed_move_no_hand_could_make(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "agreed 7,0 to 7,3", ruleset="klauber-1937", seats="ann,bob")
    assert audit_record(path).exceptions == [{"line": 3, "rule": "this piece moves exactly 1 step, not 3"}]
    lines = path.read_text(encoding="utf-8").splitlines()
    line = json.loads(lines[-1])
    line["path"] = [[7, 3]]
    path.write_text("\n".join([*lines[:-1], json.dumps(line)]) + "\n", encoding="utf-8")
    code, out = audit(path)
    assert code == 1 and "game.jsonl:3: unsound: [7, 0] to [7, 3] is no step" in out


# ---------------------------------------------------------------------------- insertions
def test_the_audit_suggests_inserting_a_forgotten_draw(tmp_path: Path) -> None:
    source = played_lines(load_rules("parker-1939"), 3, seed=11)
    index = next(i for i, line in enumerate(source) if line.get("event") == "draw")
    path = tmp_path / "forgot.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for i, line in enumerate(source) if i != index), encoding="utf-8")
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == index + 1
    assert verdict.insertions[0] == source[index]
    code, out = audit(path)
    assert f"  or insert before line {index + 1}: {json.dumps(source[index])}" in out


@pytest.mark.parametrize("left_out", [20, 40, 60, 100])
def test_the_audit_suggests_inserting_a_left_out_klauber_move(tmp_path: Path, left_out: int) -> None:
    """A left-out move puts every later move in the wrong seat's turn: replacing a line cannot mend
    that, inserting one does; of the moves that make the bad line hold, the one whose piece a later
    line moves on from where it ended makes the most lines hold."""
    source = played_lines(load_rules("klauber-1937"), 2, seed=3)
    path = tmp_path / "klauber.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for i, line in enumerate(source, 1) if i != left_out),
                    encoding="utf-8")
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == left_out
    assert verdict.insertions[0] == source[left_out - 1]


def test_a_sound_verdict_has_no_insertions_or_exceptions_in_its_json(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0")
    data = json.loads(audit(path, "--json")[1])
    assert "insertions" not in data and "exceptions" not in data


# ---------------------------------------------------------------------------- resume
def test_undo_of_the_first_entry_after_a_resume_takes_back_that_entry_only(tmp_path: Path) -> None:
    """The keeper did not know where the record ended when it carried one on, so undoing the first
    entry made after --resume cut the record back to nothing."""
    code, out, path = keep(tmp_path, *DEAL)
    before = path.read_bytes()
    code, out, path = keep(tmp_path, "789 1,0", "undo", resume=True)
    assert "taken back: bob 07-08-09 on [1, 0]" in out
    assert path.read_bytes() == before
