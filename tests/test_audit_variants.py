"""Auditing records across variants: a record's soundness depends on its ruleset, and the
lines the variants add (chips, discards, stack takes, deals onto stacks) are checked.

Records are written by RecordWriter from seeded random games, or typed here line by line
as a record from a real table would be; corrupted copies must be rejected at the
corrupted line (the header is line 1) with a message that says what is wrong.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from helpers import play_recorded_game, read_lines, write_lines

from contack_core.engine.actions import Play
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import audit_lines, audit_record

HEADER = {"record": "contack-record/1", "options": {}, "seats": ["Ann", "Bob"]}

# Seat 0 opens 05-06-03, seat 1 plays 08-01-07 (blue 8 + 7), then seat 0, who could lay
# 02-06-07 on [-1, 1], draws instead (test_scenarios_variants builds the same position).
VOLUNTARY_DRAW = [
    {"event": "hand", "number": 1},
    {"event": "deal", "seat": 0, "tiles": ["05-06-03", "02-06-07", "07-08-02", "10-03-09", "09-10-01"]},
    {"event": "deal", "seat": 1, "tiles": ["08-01-07", "08-09-03", "01-08-09", "05-06-07", "09-02-08"]},
    {"event": "play", "seat": 0, "tile": "05-06-03", "cell": [0, 0]},
    {"event": "play", "seat": 1, "tile": "08-01-07", "cell": [-1, 0], "points": 10},
    {"event": "draw", "seat": 0, "tile": "06-07-01"},
    {"event": "play", "seat": 0, "tile": "02-06-07", "cell": [-1, 1], "points": 10},
]


def typed(tmp_path: Path, ruleset: str, events: list[dict[str, Any]], name: str = "typed.jsonl") -> Path:
    path = tmp_path / name
    write_lines(path, [{**HEADER, "ruleset": ruleset}, *events])
    return path


def recorded(tmp_path: Path, ruleset: str, seats: int, seed: int, **options: object) -> tuple[Path, list[dict]]:
    rules = load_rules(ruleset, {k: str(v) for k, v in options.items()})
    path = tmp_path / f"{ruleset}-{seed}.jsonl"
    play_recorded_game(seats, seed, path, rules=rules)
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished, verdict
    return path, read_lines(path)


def rejected(path: Path, lines: list[dict], line_number: int, *needles: str) -> None:
    """Write ``lines`` and check the audit rejects line ``line_number`` with all ``needles``."""
    write_lines(path, lines)
    verdict = audit_record(path)
    assert not verdict.valid
    assert verdict.line == line_number, (verdict, lines[line_number - 1])
    for needle in needles:
        assert needle in verdict.error, verdict.error


def index_of(lines: list[dict], predicate: Any, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines) if i and predicate(line)][nth]


# =========================================================================== one record, two rulesets
def test_voluntary_draw_is_sound_under_contactack_and_breaks_parker(tmp_path: Path) -> None:
    """002: "if he does not wish to make a play ... he may draw from the reserve"; 000: "a
    player must always play if possible"."""
    contactack = audit_record(typed(tmp_path, "contactack", VOLUNTARY_DRAW, "contactack.jsonl"))
    assert contactack.valid and not contactack.finished and contactack.ruleset == "contactack"
    parker = audit_record(typed(tmp_path, "parker-1939", VOLUNTARY_DRAW, "parker.jsonl"))
    assert not parker.valid and parker.line == 7  # header, hand, two deals, two plays, the draw
    # in the players' words: the seat's name and what it may still do, never the rule's formula
    assert parker.error == "Ann may not draw now: Ann can still play (2 tiles fit)", parker.error
    # The Spanish edition is Parker's game: the draw breaks it too.
    spanish = audit_record(typed(tmp_path, "spanish-edition", VOLUNTARY_DRAW, "spanish.jsonl"))
    assert (spanish.valid, spanish.line) == (False, 7)


def test_a_recorded_contactack_game_breaks_parker_by_its_first_voluntary_draw(tmp_path: Path) -> None:
    path, lines = recorded(tmp_path, "contactack", 3, seed=12)
    # Find the first draw made while a play was legal, by auditing the record line by line.
    first_voluntary = None
    _, audited = audit_lines(path)
    before = None
    for line in audited:
        if line.data and line.data.get("event") == "draw" and before is not None:
            if any(isinstance(a, Play) for a in before.legal_actions()):
                first_voluntary = line.number
                break
        before = line.state.clone() if line.state is not None else None
    assert first_voluntary is not None, "seed 12 should have a voluntary draw"
    lines[0]["ruleset"] = "parker-1939"
    del lines[0]["options"]["partnerships"]  # the options Parker has, hands, hand_size, tile_penalty, stay
    del lines[0]["ruleset_digest"]  # as typed in under Parker (else the verdict says first the rules differ)
    write_lines(path, lines)
    verdict = audit_record(path)
    # Nothing before it differs (no sealed figure in this game): the draw is the first fault.
    assert not verdict.valid and verdict.line == first_voluntary, verdict
    assert verdict.error.startswith(f"p{lines[first_voluntary - 1]['seat']} may not draw now")


def test_a_partnership_record_must_state_the_teams_right(tmp_path: Path) -> None:
    path, lines = recorded(tmp_path, "contactack", 4, seed=3, partnerships="on")
    game_end = lines[-1]
    assert game_end["teams"] == [[0, 2], [1, 3]]
    corrupted = copy.deepcopy(lines)
    corrupted[-1]["teams"] = [[0, 1], [2, 3]]
    rejected(path, corrupted, len(lines), "the teams are [[0, 2], [1, 3]], not [[0, 1], [2, 3]]")
    corrupted = copy.deepcopy(lines)
    corrupted[-1]["team_totals"][0] += 5
    rejected(path, corrupted, len(lines), "the team totals are")


# =========================================================================== chips
@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """A timed club game with loans from the players: every kind of chips line."""
    directory = tmp_path_factory.mktemp("club")
    path, lines = recorded(directory, "club-contack", 3, seed=21, timed="on", lender="players",
                           chips_per_player=3, timed_hands=2)
    reasons = {line["reason"] for line in lines if line.get("event") == "chips"}
    assert reasons == {"collect", "loan"}, reasons
    return path, lines


def test_chips_lines_follow_each_scoring_play(club: tuple[Path, list[dict]]) -> None:
    _, lines = club
    for i, line in enumerate(lines):
        if line.get("event") == "chips":
            before = lines[i - 1]
            assert before["event"] in ("play", "chips")
            assert line["count"] > 0 and line["from"] != line["to"]


def test_wrong_chip_count_is_rejected_at_its_line(club: tuple[Path, list[dict]], tmp_path: Path) -> None:
    _, lines = club
    i = index_of(lines, lambda ln: ln["event"] == "chips" and ln["reason"] == "collect")
    corrupted = copy.deepcopy(lines)
    corrupted[i]["count"] += 1
    line = lines[i]
    rejected(tmp_path / "r.jsonl", corrupted, i + 1,
             f"the chips due here move {line['count']} from {line['from']} to {line['to']} (collect), "
             f"not {line['count'] + 1} from {line['from']} to {line['to']} (collect)")


def test_chips_from_the_wrong_payer_or_for_the_wrong_reason_are_rejected(club, tmp_path: Path) -> None:
    _, lines = club
    i = index_of(lines, lambda ln: ln["event"] == "chips" and ln["reason"] == "loan")
    corrupted = copy.deepcopy(lines)
    corrupted[i]["from"] = "bank" if lines[i]["from"] != "bank" else (lines[i]["to"] + 1) % 3
    rejected(tmp_path / "r.jsonl", corrupted, i + 1, "the chips due here move", "(loan)")
    corrupted = copy.deepcopy(lines)
    corrupted[i]["reason"] = "collect"
    rejected(tmp_path / "r.jsonl", corrupted, i + 1, "(loan), not", "(collect)")


def test_chips_where_none_change_hands_are_rejected(club, tmp_path: Path) -> None:
    _, lines = club
    # After a play that scores nothing.
    i = index_of(lines, lambda ln: ln["event"] == "play" and ln.get("points") == 0, nth=1)
    corrupted = copy.deepcopy(lines)
    corrupted.insert(i + 1, {"event": "chips", "from": 0, "to": 1, "count": 1, "reason": "collect"})
    rejected(tmp_path / "r.jsonl", corrupted, i + 2, "no chips change hands here")
    # One chips line too many after a scoring play.
    j = index_of(lines, lambda ln: ln["event"] == "chips")
    while lines[j + 1]["event"] == "chips":
        j += 1
    corrupted = copy.deepcopy(lines)
    corrupted.insert(j + 1, dict(lines[j]))
    rejected(tmp_path / "r.jsonl", corrupted, j + 2, "no chips change hands here")


def test_a_malformed_chips_line_is_rejected_by_the_schema(club, tmp_path: Path) -> None:
    _, lines = club
    i = index_of(lines, lambda ln: ln["event"] == "chips")
    for change in ({"count": "three"}, {"reason": "gift"}, {"to": -1}):
        corrupted = copy.deepcopy(lines)
        corrupted[i].update(change)
        rejected(tmp_path / "r.jsonl", corrupted, i + 1, "chips")


def test_a_hand_typed_record_without_chips_lines_audits_sound(club, tmp_path: Path) -> None:
    """A record typed in at a table need not state the chips: the audit works them out."""
    path, lines = club
    expected = audit_record(path)
    bare = [copy.deepcopy(line) for line in lines if line.get("event") != "chips"]  # the fixture is shared
    assert len(bare) < len(lines)
    write_lines(tmp_path / "bare.jsonl", bare)
    verdict = audit_record(tmp_path / "bare.jsonl")
    assert verdict.valid and verdict.finished
    assert verdict.totals == expected.totals == lines[-1]["totals"]
    # Without chips lines the wrong totals are still caught.
    bare[-1]["totals"][0] += 1
    rejected(tmp_path / "bare.jsonl", bare, len(bare), "the totals are")


def test_a_record_that_states_some_of_a_plays_chips_must_state_them_all(club, tmp_path: Path) -> None:
    _, lines = club
    kinds = [line.get("event") for line in lines]
    # The last two chips lines of a play whose chips take two lines or more.
    i = next(n for n in range(len(kinds) - 2) if kinds[n] == kinds[n + 1] == "chips" != kinds[n + 2])
    left_out = lines[i + 1]
    due = f"{left_out['count']} from {left_out['from']} to {left_out['to']} ({left_out['reason']})"
    # The next event stands where the chips line was due: that line is the bad one.
    rejected(tmp_path / "r.jsonl", lines[: i + 1] + lines[i + 2:], i + 2,
             f"a chips line is missing here: the chips due also move {due}")
    # Leaving out all of them is a record typed in without chips (sound, as above).
    first = i
    while kinds[first - 1] == "chips":
        first -= 1
    write_lines(tmp_path / "none.jsonl", lines[:first] + lines[i + 2:])
    assert audit_record(tmp_path / "none.jsonl").valid


@pytest.fixture(scope="module")
def club_penalty(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """A club game with a tile penalty that seats cannot always pay in full."""
    directory = tmp_path_factory.mktemp("club-penalty")
    for seed in range(50):  # the first seeded game that ends with a penalty to pay
        path, lines = recorded(directory, "club-contack", 2, seed=seed, chips_per_player=2, tile_penalty_chips=1,
                               hands=1)
        if any(line.get("event") == "chips" and line["reason"] == "penalty" for line in lines):
            return path, lines
    raise AssertionError("no seed in 0..49 ends with a penalty")


def test_tile_penalties_are_recorded_and_audit_sound(club_penalty: tuple[Path, list[dict]]) -> None:
    _, lines = club_penalty  # recorded() has audited it sound
    penalties = [line for line in lines if line.get("event") == "chips" and line["reason"] == "penalty"]
    assert penalties and all(line["to"] == "bank" for line in penalties)
    hand_end = next(line for line in lines if line.get("event") == "hand_end")
    # Each seat pays at most what it holds: nobody ends below zero.
    assert min(lines[-1]["totals"]) >= 0
    assert sum(hand_end["scores"]) == -sum(line["count"] for line in penalties)


def test_a_wrong_tile_penalty_is_rejected(club_penalty: tuple[Path, list[dict]], tmp_path: Path) -> None:
    _, lines = club_penalty
    i = index_of(lines, lambda ln: ln["event"] == "chips" and ln["reason"] == "penalty")
    line = lines[i]
    corrupted = copy.deepcopy(lines)
    corrupted[i]["count"] += 1  # more than the seat holds, or than its tiles cost
    rejected(tmp_path / "r.jsonl", corrupted, i + 1,
             f"the chips due here move {line['count']} from {line['from']} to bank (penalty), "
             f"not {line['count'] + 1} from {line['from']} to bank (penalty)")
    corrupted = copy.deepcopy(lines)
    corrupted[i]["to"] = 1 - line["from"]
    rejected(tmp_path / "r.jsonl", corrupted, i + 1, "(penalty), not")


# =========================================================================== discards
@pytest.fixture(scope="module")
def solitaire_1(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    _, lines = recorded(tmp_path_factory.mktemp("s1"), "solitaire-1", 1, seed=3)
    kinds = {line.get("event") for line in lines}
    assert {"draw", "discard", "play"} <= kinds
    assert any(line.get("from") == "discard" for line in lines)
    return lines


def test_discard_of_a_tile_not_held_is_rejected(solitaire_1: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_1)
    i = index_of(lines, lambda ln: ln["event"] == "discard")
    lines[i]["tile"] = lines[2]["tile"]  # the opening tile, on the figure
    rejected(tmp_path / "r.jsonl", lines, i + 1, f"tile {lines[2]['tile']} cannot be discarded",
             "it is in the figure")


def test_discard_of_a_playable_tile_is_rejected(solitaire_1: list[dict], tmp_path: Path) -> None:
    """000: the Triangle drawn goes to the figure "if possible, otherwise" to the discard pile."""
    lines = copy.deepcopy(solitaire_1)
    i = index_of(lines, lambda ln: ln["event"] == "play" and ln.get("from") == "hand")
    assert lines[i - 1]["event"] == "draw" and lines[i - 1]["tile"] == lines[i]["tile"]
    lines[i] = {"event": "discard", "seat": 0, "tile": lines[i]["tile"], "to": "discard"}
    rejected(tmp_path / "r.jsonl", lines, i + 1, "p0 may not discard now: p0 can still play")


def test_discard_onto_the_wrong_pile_is_rejected(solitaire_1: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_1)
    i = index_of(lines, lambda ln: ln["event"] == "discard")
    lines[i]["to"] = "stock"
    rejected(tmp_path / "r.jsonl", lines, i + 1, "a discard goes onto discard, not stock")


def test_play_of_a_discard_that_is_not_on_top_is_rejected(solitaire_1: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_1)
    i = index_of(lines, lambda ln: ln["event"] == "play" and ln.get("from") == "discard")
    lines[i]["from"] = "hand"
    rejected(tmp_path / "r.jsonl", lines, i + 1, "this tile comes from discard, not from hand")


def test_draw_while_the_discard_top_can_be_played_is_rejected(solitaire_1: list[dict], tmp_path: Path) -> None:
    """000: "If a Triangle cannot be played to the figure from the discard pile, draw one"."""
    lines = copy.deepcopy(solitaire_1)
    i = index_of(lines, lambda ln: ln["event"] == "play" and ln.get("from") == "discard")
    # Draw the next drawn tile at the moment the discard top was played instead.
    j = index_of(lines, lambda ln: ln["event"] == "draw" and lines.index(ln) > i)
    lines[i] = {"event": "draw", "seat": 0, "tile": lines[j]["tile"]}
    rejected(tmp_path / "r.jsonl", lines, i + 1, "p0 may not draw now: p0 can still play")


# =========================================================================== stacks
@pytest.fixture(scope="module")
def solitaire_2(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    _, lines = recorded(tmp_path_factory.mktemp("s2"), "solitaire-2", 1, seed=3)
    assert [line.get("zone") for line in lines[2:9]] == [
        "pile-1", "pile-2", "pile-3", "pile-4", "pile-5", "pile-6", "six-pile"]
    return lines


def test_any_tile_of_the_six_pile_opens_soundly_and_no_other(solitaire_2: list[dict], tmp_path: Path) -> None:
    """000: "cut the Six pile at random and take out a Triangle for your first play"."""
    deals = solitaire_2[:9]
    for opening in solitaire_2[8]["tiles"]:
        path = tmp_path / "open.jsonl"
        write_lines(path, [*deals, {"event": "play", "seat": 0, "tile": opening, "cell": [0, 0]}])
        verdict = audit_record(path)
        assert verdict.valid and not verdict.finished, (opening, verdict)
    other = solitaire_2[2]["tiles"][0]
    rejected(tmp_path / "open.jsonl", [*deals, {"event": "play", "seat": 0, "tile": other, "cell": [0, 0]}], 10,
             f"tile {other} cannot open the figure: it is in pile-1, not in six-pile")
    rejected(tmp_path / "open.jsonl",
             [*deals, {"event": "play", "seat": 0, "tile": solitaire_2[8]["tiles"][0], "cell": [1, 0]}], 10,
             "the figure opens with a tile from six-pile on [0, 0]")


def test_stack_take_from_the_wrong_stack_is_rejected(solitaire_2: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_2)
    i = index_of(lines, lambda ln: ln["event"] == "play" and "from" in ln)
    real = lines[i]["from"]
    lines[i]["from"] = "pile-6" if real != "pile-6" else "pile-1"
    rejected(tmp_path / "r.jsonl", lines, i + 1, f"this tile comes from {real}, not from {lines[i]['from']}")


def test_stack_take_of_a_covered_tile_is_rejected(solitaire_2: list[dict], tmp_path: Path) -> None:
    """000: only "any Triangle showing at the top of any one of the seven piles"."""
    lines = copy.deepcopy(solitaire_2)
    i = index_of(lines, lambda ln: ln["event"] == "play" and "from" in ln)
    covered = lines[3]["tiles"][0]  # the bottom of pile-2 (pile-2 holds five; one at most is gone)
    lines[i]["tile"] = covered
    rejected(tmp_path / "r.jsonl", lines, i + 1, f"tile {covered} is not on top of its pile (pile-2): only ",
             ", on top, may be played from it")


def test_deal_onto_the_wrong_stack_is_rejected(solitaire_2: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_2)
    lines[3]["zone"] = "pile-3"
    rejected(tmp_path / "r.jsonl", lines, 4, "the deal goes onto pile-2 now")


def test_deal_of_the_wrong_number_is_rejected(solitaire_2: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_2)
    lines[8]["tiles"] = lines[8]["tiles"][:5]
    rejected(tmp_path / "r.jsonl", lines, 9, "six-pile is dealt 6 tiles; 5 given")


def test_deal_of_a_tile_already_on_a_stack_is_rejected(solitaire_2: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_2)
    twice = lines[2]["tiles"][0]
    lines[4]["tiles"][2] = twice
    rejected(tmp_path / "r.jsonl", lines, 5, f"tile {twice} cannot be dealt: it is in pile-1, not in stock")


def test_deal_to_a_seat_where_stacks_are_due_is_rejected(solitaire_2: list[dict], tmp_path: Path) -> None:
    lines = copy.deepcopy(solitaire_2)
    zone = lines[2].pop("zone")
    lines[2]["seat"] = 0
    rejected(tmp_path / "r.jsonl", lines, 3, f"the deal goes onto {zone} now")
