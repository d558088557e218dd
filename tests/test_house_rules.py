"""The house-rule examples of rulesets/examples/ (docs/house-rules.md).

Each example is pure data extending parker-1939. For each: it validates, it plays
complete recorded games that audit sound at every seat count it allows, a scenario shows
that its one rule took effect exactly (and that parker-1939 plays the same position the
book's way), and ``rulesets diff`` lists exactly the key paths it changes.

Cells follow DESIGN.md 4: an up cell (x+y even) touches [x, y-1] blue to blue, [x+1, y]
red to red and [x-1, y] gold to gold; a down cell touches [x, y+1] blue, [x-1, y] red
and [x+1, y] gold.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
import yaml
from helpers import (
    hand_of,
    loaded_rules,
    name,
    new_game,
    play,
    play_recorded_game,
    read_lines,
    ref_fit,
    ref_neighbours,
    run_cli,
    tile,
    write_lines,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from contack_core import Draw, GameState, IllegalAction, Pass, Play, load_rules
from contack_core.engine.events import Played
from contack_core.engine.rules import Rules
from contack_core.language.documents import shipped_rulesets_dir
from contack_core.records.audit import audit_record

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
#: Every example shipped: each is documented, validated, played, recorded and audited here, and
#: proven to take effect in test_house_rule_effects.py (or below, for the first four; the house actions'
#: own, exchange-once-a-hand, redraw-once-a-game, pick-up-last-tile and solitaire-redeal, in
#: test_house_actions.py).
EXAMPLES = sorted(p.stem for p in EXAMPLES_DIR.glob("*.yaml"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "house-rules.md"
PARKER = load_rules("parker-1939")
PROPERTY = settings(max_examples=15, deadline=None)


def rules(example: str, **options: object) -> Rules:
    return loaded_rules(example, **options)


def example_file(example: str) -> Path:
    return EXAMPLES_DIR / f"{example}.yaml"


# =========================================================================== every example
def test_the_examples_directory_holds_exactly_the_documented_examples() -> None:
    table = re.findall(r"^\| \[`([a-z0-9-]+)`\]", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert sorted(table) == EXAMPLES and len(EXAMPLES) >= 12
    # The package finds them where it looks (the source checkout here, the wheel's copy
    # when installed).
    assert (shipped_rulesets_dir() / "examples").resolve() == EXAMPLES_DIR


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_validates_and_extends_a_shipped_ruleset_without_python(example: str) -> None:
    result = run_cli("rulesets", "validate", example_file(example))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"{example_file(example)}: valid"
    loaded = rules(example)
    assert loaded.id == example
    assert loaded.chain[0] in ("parker-1939", "klauber-1937") and loaded.chain[-1] == example
    # Found by id like a shipped ruleset, so records name it by id, not by a path.
    assert loaded.origin is None
    # Pure data: no example ships Python next to it.
    assert not list(EXAMPLES_DIR.glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_plays_complete_games_that_audit_sound(example: str, tmp_path: Path) -> None:
    loaded = rules(example)
    low, high = loaded.players
    for seats in range(low, high + 1):
        for seed in (1, 2, 3):
            path = tmp_path / f"{seats}-{seed}.jsonl"
            state = play_recorded_game(seats, seed, path, rules=loaded)
            assert state.is_over()
            assert 1 <= len(state.hand_results) <= loaded.match.hands
            verdict = audit_record(path)
            assert verdict.valid, (example, seats, seed, verdict.line, verdict.error)
            assert verdict.finished and verdict.ruleset == example
            assert verdict.totals == state.scores()


def test_examples_are_listed_in_their_own_group() -> None:
    result = run_cli("rulesets", "list")
    assert result.exit_code == 0, result.output
    shipped, _, examples = result.stdout.partition("house-rule examples")
    assert "parker-1939" in shipped and not any(e + " " in shipped for e in EXAMPLES)
    listed = [line.split()[0] for line in examples.splitlines()[1:] if line.strip()]
    # Listed by the name that finds them anywhere: examples/NAME.
    assert listed == sorted(f"examples/{example}" for example in EXAMPLES)
    assert [load_rules(name).id for name in listed] == sorted(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES)
def test_an_example_is_named_examples_slash_its_name_wherever_a_ruleset_id_is_taken(example: str,
                                                                                     tmp_path: Path) -> None:
    prefixed = f"examples/{example}"
    assert load_rules(prefixed).digest() == rules(example).digest()
    show = run_cli("rulesets", "show", prefixed)
    chain = " <- ".join(rules(example).chain)
    assert show.exit_code == 0 and f"({example}); resolved from: {chain}" in show.stdout
    assert run_cli("rulesets", "diff", example, prefixed).stdout.strip() == "no differences"
    record = tmp_path / "game.jsonl"
    seats = ",".join(["random"] * rules(example).players[0])
    played = run_cli("play", prefixed, "--seats", seats, "--seed", 2, "--record", record, "--quiet")
    assert played.exit_code == 0, played.output
    assert read_lines(record)[0]["ruleset"] == example  # found like a shipped ruleset: named by its id
    assert audit_record(record).valid
    # A house rule of one's own may extend an example by that name.
    mine = tmp_path / "mine.yaml"
    mine.write_text(f"format: contack-ruleset/1\nid: mine\ntitle: Mine\nextends: {prefixed}\n", encoding="utf-8")
    assert load_rules(mine).chain == [*rules(example).chain, "mine"]


def test_examples_slash_names_the_shipped_example_whatever_the_working_directory_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").mkdir()  # a folder of that name (this repository has one) changes nothing
    assert load_rules("examples/threes").id == "threes"
    # An examples/ path that names no shipped example is still a path, found or reported as before.
    (tmp_path / "examples" / "mine.yaml").write_text(
        "format: contack-ruleset/1\nid: mine\ntitle: Mine\nextends: examples/threes\n", encoding="utf-8")
    assert load_rules("examples/mine.yaml").chain == ["parker-1939", "threes", "mine"]
    missing = run_cli("play", "examples/nothing-here", "--seats", "random,random")
    assert missing.exit_code == 1
    assert "no ruleset 'examples/nothing-here'" in missing.output and "examples/threes" in missing.output


# =========================================================================== a variant without an id
def test_a_variant_without_an_id_is_named_by_its_file_not_by_its_parent(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    variant = tmp_path / "rules" / "lighter.yaml"
    variant.write_text("format: contack-ruleset/1\nextends: parker-1939\noptions:\n  tile_penalty: {default: 5}\n",
                       encoding="utf-8")
    loaded = load_rules("rules/lighter.yaml")
    assert loaded.id == "lighter" and loaded.chain == ["parker-1939", "lighter"]
    assert loaded.title == f"{PARKER.title} (lighter.yaml)"
    # The same file, however it is named, is the same ruleset.
    assert load_rules(variant).digest() == loaded.digest()
    show = run_cli("rulesets", "show", "rules/lighter.yaml")
    assert show.exit_code == 0, show.output
    assert show.stdout.startswith(f"# {PARKER.title} (lighter.yaml) (lighter); resolved from: parker-1939 <- lighter")
    assert "\nid: lighter\n" in show.stdout and "\nid: parker-1939\n" not in show.stdout
    # A record names the file relative to itself; the audit and the bench name the ruleset by its id.
    (tmp_path / "games").mkdir()
    played = run_cli("play", "rules/lighter.yaml", "--seats", "random,random", "--seed", 4, "--record",
                     "games/g.jsonl", "--quiet")
    assert played.exit_code == 0, played.output
    assert read_lines(tmp_path / "games" / "g.jsonl")[0]["ruleset"] == "../rules/lighter.yaml"
    audited = run_cli("audit", "games/g.jsonl")
    assert audited.exit_code == 0 and audited.stdout.startswith("games/g.jsonl: sound (lighter,"), audited.output
    bench = run_cli("bench", "rules/lighter.yaml", "--games", 1, "--players", 2, "--json")
    assert json.loads(bench.stdout)["ruleset"] == "lighter"
    too_many = run_cli("play", "rules/lighter.yaml", "--seats", "random")
    assert too_many.exit_code == 1 and "lighter is for 2 to 7 players" in too_many.output


def test_a_file_name_that_is_no_id_becomes_one_and_a_parent_without_an_id_is_named_in_the_chain(
        tmp_path: Path) -> None:
    odd = tmp_path / "Our House Rules.yaml"
    odd.write_text("format: contack-ruleset/1\nextends: parker-1939\n", encoding="utf-8")
    assert load_rules(odd).id == "our-house-rules"
    numbered = tmp_path / "1950.yaml"
    numbered.write_text("format: contack-ruleset/1\nextends: parker-1939\n", encoding="utf-8")
    assert load_rules(numbered).id == "ruleset-1950"
    child = tmp_path / "child.yaml"
    child.write_text("format: contack-ruleset/1\nid: child\ntitle: Child\nextends: Our House Rules.yaml\n",
                     encoding="utf-8")
    loaded = load_rules(child)
    assert (loaded.id, loaded.title, loaded.chain) == ("child", "Child", ["parker-1939", "our-house-rules", "child"])


# =========================================================================== rulesets diff
EXPECTED_DIFFS: dict[str, dict[str, tuple[object, object]]] = {
    "threes": {
        "placement.contact": ("a == b or (a + b) % 5 == 0", "a == b or (a + b) % 3 == 0"),
        "placement.counting": ("(a + b) % 5 == 0", "(a + b) % 3 == 0"),
        "placement.points": ("a + b if (a + b) % 5 == 0 else 0", "a + b if (a + b) % 3 == 0 else 0"),
    },
    "six-tile-hands": {
        "options.hand_size.default": (5, 6),
        "options.hand_size.doc": (None, "House rule: six Triangles to a hand, and the forced draw fills a hand up to six"),
        "options.tile_penalty.default": (10, 5),
        "options.tile_penalty.doc": (None, "House rule: deduct 5 for each Triangle still held when a hand ends"),
    },
    "three-sided-openings": {
        "placement.opening_min_contacts": (2, 3),
    },
    "going-out-bonus": {
        "options.out_bonus": (None, {"doc": "House rule: points for the player who plays all of his Triangles first",
                                     "type": "integer", "default": 25, "min": 0, "max": 500}),
        "scoring.score.on_hand_end": ("-tile_penalty * tiles_held",
                                      "-tile_penalty * tiles_held + out_bonus * went_out"),
    },
}


def parse_diff(text: str) -> dict[str, tuple[object, object]]:
    """``rulesets diff`` output: ``path:`` then one indented ``name: json`` line per side."""
    lines = text.splitlines()
    assert len(lines) % 3 == 0, text
    out = {}
    for i in range(0, len(lines), 3):
        path, first, second = lines[i], lines[i + 1], lines[i + 2]
        assert path.endswith(":") and first.startswith("  ") and second.startswith("  "), text
        out[path[:-1]] = (json.loads(first.split(": ", 1)[1]), json.loads(second.split(": ", 1)[1]))
    return out


@pytest.mark.parametrize("example", EXPECTED_DIFFS)
def test_diff_against_parker_lists_exactly_the_changed_key_paths(example: str) -> None:
    file = example_file(example)
    result = run_cli("rulesets", "diff", "parker-1939", file)
    assert result.exit_code == 0, result.output
    found = parse_diff(result.stdout)
    parker_title = PARKER.title
    expected = {"id": ("parker-1939", example), "title": (parker_title, rules(example).title),
                **EXPECTED_DIFFS[example]}
    # A doc left as None above is Parker's text: read it from the parker document.
    for path, (old, new) in list(expected.items()):
        if old is None and path.startswith("options.") and path.endswith(".doc"):
            option = path.split(".")[1]
            expected[path] = (PARKER.document["options"][option]["doc"], new)
    assert found == expected
    # Both sides name what they were given, and the diff is the same by id.
    assert "  parker-1939: " in result.stdout and f"  {file}: " in result.stdout
    by_id = run_cli("rulesets", "diff", "parker-1939", example)
    assert parse_diff(by_id.stdout) == expected


# =========================================================================== threes
# Seat 0 opens with 04-05-02 (sum 11, the lowest) on [0, 0]: its red 5 faces [1, 0].
THREES_HANDS = [["04-05-02", "07-08-09", "08-09-10", "09-10-07", "10-06-09"],
                ["03-04-05", "04-05-06", "05-09-10", "06-07-08", "09-05-08"]]


def test_threes_4_against_5_counts_9_where_parker_forbids_it() -> None:
    # Red 4 (03-04-05 on [1, 0]) against red 5: 9 is a multiple of three, not of five.
    for_threes = new_game(THREES_HANDS, rules=rules("threes"))
    play(for_threes, "04-05-02", (0, 0))
    event = play(for_threes, "03-04-05", (1, 0))
    assert (event.seat, event.points, event.contacts) == (1, 9, 1)
    assert for_threes.rules.placement.contacts_of(for_threes.figure, (1, 0)) == [
        {"colour": "red", "mine": 4, "theirs": 5, "counting": True, "kind": "counting", "points": 9,
         "neighbour": (0, 0)}]

    under_parker = new_game(THREES_HANDS)
    play(under_parker, "04-05-02", (0, 0))
    with pytest.raises(IllegalAction, match="red 4 against red 5 neither matches nor counts"):
        under_parker.apply(Play(tile("03-04-05"), (1, 0)))


def test_threes_5_against_5_is_only_a_match_scoring_nothing() -> None:
    # Parker: "5,5 and 10,10 are both matching and counting Contacts" (10 points). Under
    # threes 10 is no multiple of three: still a legal match, but it scores nothing.
    for rules_, points in ((rules("threes"), 0), (PARKER, 10)):
        state = new_game(THREES_HANDS, rules=rules_)
        play(state, "04-05-02", (0, 0))
        assert play(state, "04-05-06", (1, 0)).points == points


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 7))
def test_threes_every_contact_in_random_games_matches_or_sums_to_a_multiple_of_3(seed: int, seats: int) -> None:
    threes = rules("threes")
    rng = random.Random(seed)
    state = GameState(threes, seats)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        event = state.apply(legal[rng.randrange(len(legal))])
        if not isinstance(event, Played) or event.cell not in state.figure.tile_at:
            continue  # not a play, or the play ended the hand and the figure is a new one
        contacts = threes.placement.contacts_of(state.figure, event.cell)
        for contact in contacts:
            total = contact["mine"] + contact["theirs"]
            assert contact["mine"] == contact["theirs"] or total % 3 == 0, contact
            assert contact["points"] == (total if total % 3 == 0 else 0), contact
        assert event.points == sum(total for c in contacts if (total := c["mine"] + c["theirs"]) % 3 == 0)


def test_threes_scores_totals_parker_never_does() -> None:
    seen_counts: set[int] = set()
    for seed in range(3):
        state = play_recorded_game(3, seed, Path(os.devnull), rules=rules("threes"))
        for result in state.hand_results:
            for cell in result.figure.tile_at:
                seen_counts.update(c["mine"] + c["theirs"] for c in
                                   state.rules.placement.contacts_of(result.figure, cell) if c["points"])
    # Totals Parker never scores (3, 6, 9, 12, 18) turn up, and no multiple of 5 but 15 does.
    assert {3, 6, 9, 12, 18} <= seen_counts <= {3, 6, 9, 12, 15, 18}


# =========================================================================== hands of six
SIX_HANDS = [["01-02-03", "01-08-09", "01-05-06", "09-10-01", "03-04-01", "02-03-04"],
             ["02-09-10", "03-04-05", "03-07-08", "05-09-10", "08-09-10", "04-05-02"]]


def test_six_tile_hands_deal_six_and_draw_up_to_six() -> None:
    six = rules("six-tile-hands")
    assert (six.options["hand_size"], six.options["tile_penalty"]) == (6, 5)
    state = new_game(SIX_HANDS, rules=six)
    assert [len(hand) for hand in state.seat_zones["hand"]] == [6, 6]
    assert len(state.zones["stock"]) == 36 - 12
    play(state, "01-02-03", (0, 0))
    # 04-05-02's blue 4 on [0, -1] against 01-02-03's blue 1 counts 5.
    assert play(state, "04-05-02", (0, -1)).points == 5
    play(state, "01-05-06", (-1, -1))
    # Seat 1 holds five and none fits. Parker's seat would pass with five ("provided he has
    # less than five Triangles in his hand, he must draw"); here the limit is six.
    assert state.current_seat() == 1 and len(hand_of(state, 1)) == 5
    assert all(not isinstance(a, Play) for a in state.legal_actions())
    assert state.legal_actions() == [Draw()]
    state.apply(Draw())
    assert len(hand_of(state, 1)) == 6


def test_parker_passes_with_five_where_six_tile_hands_draws() -> None:
    state = new_game([hand[:5] for hand in SIX_HANDS])
    assert [len(hand) for hand in state.seat_zones["hand"]] == [5, 5]
    play(state, "01-02-03", (0, 0))
    assert state.current_seat() == 1 and state.legal_actions() == [Pass()]


def test_deal_of_six_with_six_players_takes_every_tile() -> None:
    state = GameState(rules("six-tile-hands"), 6)
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    assert [len(hand) for hand in state.seat_zones["hand"]] == [6] * 6
    assert state.zones["stock"] == []
    with pytest.raises(ValueError, match="2 to 6 players"):
        GameState(rules("six-tile-hands"), 7)


# =========================================================================== hand scores
def hand_scores_by_the_book(rules_: Rules, seats: int, seed: int, penalty: int, bonus: int) -> int:
    """Play a random game and check every hand score against an independent tally:
    the seat's counting points in the hand, less ``penalty`` a tile held, plus ``bonus``
    for the seat that went out. Returns how many hands ended by a seat going out."""
    rng = random.Random(seed)
    state = GameState(rules_, seats)
    points = [0] * seats
    checked = went_out_hands = 0
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        event = state.apply(legal[rng.randrange(len(legal))])
        if isinstance(event, Played):
            points[event.seat] += event.points
        if len(state.hand_results) > checked:
            result = state.hand_results[checked]
            checked += 1
            expected = [points[s] - penalty * result.held[s] + (bonus if result.went_out == s else 0)
                        for s in range(seats)]
            assert list(result.scores) == expected, (result, expected)
            went_out_hands += result.went_out is not None
            points = [0] * seats
    return went_out_hands


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_six_tile_hands_cost_5_a_tile_held_where_parker_costs_10(seats: int) -> None:
    for seed in range(3):
        hand_scores_by_the_book(rules("six-tile-hands"), seats, seed, penalty=5, bonus=0)
        hand_scores_by_the_book(PARKER, seats, seed, penalty=10, bonus=0)


def test_going_out_bonus_goes_to_the_seat_that_went_out_and_only_to_it() -> None:
    went_out = 0
    for seats in (2, 3, 5, 7):
        for seed in range(3):
            went_out += hand_scores_by_the_book(rules("going-out-bonus"), seats, seed, penalty=10, bonus=25)
            hand_scores_by_the_book(PARKER, seats, seed, penalty=10, bonus=0)
            hand_scores_by_the_book(rules("going-out-bonus", out_bonus=40), seats, seed, penalty=10, bonus=40)
    assert went_out > 0  # the bonus was actually paid in some hands


# =========================================================================== going out first
# Seat 0 lays its five Triangles in a row along y = 0; seat 1 holds five that never fit.
WENT_OUT_HANDS = [["01-02-03", "01-08-09", "01-05-06", "09-10-01", "03-04-01"],
                  ["02-09-10", "03-04-05", "03-07-08", "05-09-10", "08-09-10"]]
WENT_OUT_PLAYS = [("01-02-03", (0, 0), 0), ("01-08-09", (1, 0), 10), ("01-05-06", (2, 0), 15),
                  ("09-10-01", (3, 0), 15), ("03-04-01", (4, 0), 0)]


def play_seat_0_out(state: GameState) -> None:
    for tile_name, cell, points in WENT_OUT_PLAYS:
        if state.current_seat() == 1:
            assert state.legal_actions() == [Pass()]
            state.apply(Pass())
        assert play(state, tile_name, cell).points == points


@pytest.mark.parametrize(("ruleset", "options", "scores"), [
    ("going-out-bonus", {}, (40 + 25, -50)),
    ("going-out-bonus", {"out_bonus": 0}, (40, -50)),
    ("parker-1939", {}, (40, -50)),
])
def test_going_out_first_adds_the_bonus_to_that_seat(ruleset: str, options: dict[str, int],
                                                     scores: tuple[int, int]) -> None:
    # Seat 0 scores 10 + 15 + 15 and plays its last Triangle; seat 1 holds five at 10 each.
    state = new_game(WENT_OUT_HANDS, rules=load_rules(ruleset, options))
    play_seat_0_out(state)
    [result] = state.hand_results
    assert (result.reason, result.went_out, result.held) == ("went_out", 0, (0, 5))
    assert result.scores == scores
    assert state.scores() == list(scores)


def test_a_record_with_the_bonus_is_unsound_under_parker(tmp_path: Path) -> None:
    # The audit checks hand scores, so the bonus is visible in the record: the same
    # record claimed for parker-1939 breaks at the first hand that someone went out of.
    path = tmp_path / "bonus.jsonl"
    for seed in range(20):
        state = play_recorded_game(2, seed, path, rules=rules("going-out-bonus"))
        if any(result.went_out is not None for result in state.hand_results):
            break
    else:
        pytest.fail("no seed in 20 had a player go out")
    assert audit_record(path).valid
    lines = read_lines(path)
    header = lines[0]
    header["ruleset"] = "parker-1939"
    header.pop("ruleset_digest", None)
    assert header["options"].pop("out_bonus") == 25
    write_lines(path, lines)
    verdict = audit_record(path)
    assert not verdict.valid
    bad = lines[verdict.line - 1]
    first_out = next(r for r in state.hand_results if r.went_out is not None)
    assert (bad["event"], bad["number"], bad["reason"]) == ("hand_end", first_out.number, "went_out"), verdict
    # Parker's score for that seat is 25 less than the one recorded, and only that seat's.
    under_parker = [s - (25 if seat == first_out.went_out else 0) for seat, s in enumerate(bad["scores"])]
    assert verdict.error == f"hand {first_out.number} scores are {under_parker}, not {bad['scores']}"


# =========================================================================== three-sided openings
# From the Parker test of "Two Sided - Both Scoring": the figure goes round the top vertex
# of [0, 0] and leaves [-1, 0] (a down cell) touching 03-04-01 and 10-06-09.
TWO_SIDED_HANDS = [["03-04-01", "05-06-03", "10-06-09", "10-03-09", "04-08-09"],
                   ["05-01-04", "02-06-07", "01-08-09", "07-08-09", "09-10-07"]]
TWO_SIDED_PLAYS = [("03-04-01", (0, 0)), ("05-01-04", (1, 0)), ("05-06-03", (1, 1)), ("02-06-07", (0, 1)),
                   ("10-06-09", (-1, 1))]
HOLE = (-1, 0)


def touching(state: GameState, cell: tuple[int, int]) -> int:
    return sum(n in state.figure.tile_at for n in ref_neighbours(cell))


@pytest.mark.parametrize(("ruleset", "hole_legal"), [("three-sided-openings", False), ("parker-1939", True)])
def test_two_sided_opening_away_from_the_last_tile(ruleset: str, hole_legal: bool) -> None:
    state = new_game(TWO_SIDED_HANDS, rules=load_rules(ruleset))
    for tile_name, cell in TWO_SIDED_PLAYS:
        play(state, tile_name, cell)
    # Next to the last tile ([-1, 1]) the two-sided hole is an ordinary play under both.
    assert HOLE in ref_neighbours(state.figure.last) and touching(state, HOLE) == 2
    assert HOLE in state.rules.placement.legal_cells(state.figure)
    play(state, "01-08-09", (-2, 1))
    assert HOLE not in ref_neighbours(state.figure.last) and touching(state, HOLE) == 2
    # 10-03-09 fits the hole (blue 10 + blue 10, gold 9 + gold 1: 30 points under Parker).
    hole_plays = {name(a.tile) for a in state.legal_actions() if isinstance(a, Play) and a.cell == HOLE}
    if hole_legal:
        assert hole_plays == {"10-03-09"}
        assert play(state, "10-03-09", HOLE).points == 30
    else:
        assert hole_plays == set()
        assert all(a.cell in ref_neighbours((-2, 1)) for a in state.legal_actions() if isinstance(a, Play))
        with pytest.raises(IllegalAction, match=r"neither next to the last tile played nor an opening touching 3"):
            state.apply(Play(tile("10-03-09"), HOLE))


# From the Parker test of the three-sided play worth 50: the figure rings the down cell
# [1, 0]. Here a further Triangle goes on [2, -1] first, so the hole is no longer next to
# the last tile when it is filled.
THREE_SIDED_HANDS = [["05-06-03", "02-06-07", "07-08-02", "10-03-09", "09-10-01"],
                     ["08-01-07", "08-09-03", "01-08-09", "05-06-07", "09-02-08"]]
THREE_SIDED_PLAYS = [("05-06-03", (0, 0)), ("08-01-07", (-1, 0)), ("02-06-07", (-1, 1)), ("08-09-03", (0, 1)),
                     ("07-08-02", (1, 1)), ("01-08-09", (2, 1)), ("10-03-09", (3, 1)), ("05-06-07", (3, 0))]


@pytest.mark.parametrize("ruleset", ["three-sided-openings", "parker-1939"])
def test_three_sided_opening_away_from_the_last_tile_is_legal_under_both(ruleset: str) -> None:
    state = new_game(THREE_SIDED_HANDS, stock_top=["02-09-10", "03-07-08", "08-09-10"], rules=load_rules(ruleset))
    for tile_name, cell in THREE_SIDED_PLAYS:
        play(state, tile_name, cell)
    for tile_name, cell in (("02-09-10", (2, 0)), ("03-07-08", (2, -1))):
        assert state.legal_actions() == [Draw()]           # neither seat can play: each draws
        assert name(state.apply(Draw()).tile) == tile_name
        play(state, tile_name, cell)
    hole = (1, 0)
    assert hole not in ref_neighbours(state.figure.last) and touching(state, hole) == 3
    assert state.current_seat() == 0 and state.legal_actions() == [Draw()]
    assert name(state.apply(Draw()).tile) == "08-09-10"
    event = play(state, "08-09-10", hole)
    assert (event.points, event.contacts, event.opportunity) == (50, 3, True)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 7))
def test_three_sided_openings_legal_plays_are_next_to_the_last_tile_or_into_three_sided_cells(seed: int,
                                                                                               seats: int) -> None:
    # The reference: Parker's contact rule (helpers.ref_fit) on the cells next to the last
    # tile and the empty cells touching three tiles, nowhere else.
    three_sided = rules("three-sided-openings")
    rng = random.Random(seed)
    state = GameState(three_sided, seats)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        last, tile_at = state.figure.last, state.figure.tile_at
        if last is not None and state.step >= len(three_sided.setup):
            cells = {n for n in ref_neighbours(last) if n not in tile_at}
            cells |= {n for placed in tile_at for n in ref_neighbours(placed)
                      if n not in tile_at and touching(state, n) == 3}
            hand = state.seat_zones["hand"][state.current_seat()]
            expected = {Play(t, c) for t in hand for c in cells if ref_fit(tile_at, t, c) is not None}
            assert {a for a in legal if isinstance(a, Play)} == expected
        state.apply(legal[rng.randrange(len(legal))])


# =========================================================================== the command line
@pytest.mark.parametrize("reference", ["going-out-bonus", str(EXAMPLES_DIR / "going-out-bonus.yaml")])
def test_play_an_example_by_id_or_path_with_an_option_and_audit_it(reference: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = run_cli("play", reference, "--seats", "random,random,random", "--seed", "4", "--option", "out_bonus=40",
                     "--option", "hands=2", "--quiet", "--record", record)
    assert result.exit_code == 0, result.output
    header = read_lines(record)[0]
    assert header["ruleset"] == "going-out-bonus"
    assert header["options"] == {"hands": 2, "hand_size": 5, "tile_penalty": 10, "sealed_hand": "unless-opening",
                                 "target_after_pass": "last-tile", "opener_ties": "next-lowest",
                                 "out_bonus": 40}
    audited = run_cli("audit", record)
    assert audited.exit_code == 0, audited.output
    assert "sound (going-out-bonus, 2 hands, finished" in audited.stdout


def test_show_lists_an_examples_options_with_values_and_defaults() -> None:
    result = run_cli("rulesets", "show", "going-out-bonus", "--option", "out_bonus=30")
    assert result.exit_code == 0, result.output
    assert "out_bonus = 30  (default 25; a whole number 0..500)" in result.stdout
    assert "-tile_penalty * tiles_held + out_bonus * went_out" in result.stdout
    six = run_cli("rulesets", "show", "six-tile-hands")
    assert "hand_size = 6  (default 6" in six.stdout and "tile_penalty = 5  (default 5" in six.stdout


@pytest.mark.parametrize(("option", "message"), [
    ("out_bonus=-1", "option out_bonus must be between 0 and 500, not -1"),
    ("bonus=25", "unknown option 'bonus' (options of this ruleset: hand_size, hands, opener_ties, out_bonus, sealed_hand, target_after_pass, tile_penalty)"),
])
def test_bad_example_option_is_a_clear_error(option: str, message: str) -> None:
    result = run_cli("play", "going-out-bonus", "--seats", "random,random", "--option", option)
    assert result.exit_code == 1
    assert message in result.output


def test_bench_an_example_with_an_option() -> None:
    result = run_cli("bench", "six-tile-hands", "--games", "5", "--players", "6", "--option", "tile_penalty=7",
                     "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["ruleset"] == "six-tile-hands" and figures["games"] == 5
    too_many = run_cli("bench", "six-tile-hands", "--games", "5", "--players", "7")
    assert too_many.exit_code == 1 and "2 to 6 players" in too_many.output


# =========================================================================== the walk-through
def test_the_walk_through_shows_each_example_as_it_ships() -> None:
    # docs/house-rules.md quotes each example's YAML (without its comments): the quote
    # must say what the file says, so the documentation cannot drift from the data.
    text = DOC.read_text(encoding="utf-8")
    quoted = {}
    for block in re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL):
        data = yaml.safe_load(block)
        if isinstance(data, dict) and data.get("id") in EXAMPLES:
            quoted[data["id"]] = data
    assert sorted(quoted) == sorted(EXAMPLES)
    for example, data in quoted.items():
        assert data == yaml.safe_load(example_file(example).read_text(encoding="utf-8")), example
